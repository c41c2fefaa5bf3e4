// Edge shapes (Inputs/edges.mlir) through the tiling pipeline, run on the CPU
// by tile-interp, for each way of filling shared memory: one stage, register
// double buffering, a cp.async ring, and split-K.

// RUN: tile-opt %S/Inputs/edges.mlir --tile-matmul-tiling="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=1 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/edges.mlir --tile-matmul-tiling="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=2 prefetch=false smem=none" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/edges.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/edges.mlir --tile-matmul-tiling="tuning-table=none block=32,32,8 warp=16,16 thread=2,4 stages=4 prefetch=true split-k=3" | tile-interp | FileCheck %s
// The cost model's and the tuning table's own choices.
// RUN: tile-opt %S/Inputs/edges.mlir --tile-matmul-tiling | tile-interp | FileCheck %s

// CHECK: PASS one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS primes_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS k_short_matmul0 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS k_one_matmul0 m=130 n=70 k=1 max-rel-err=
// CHECK: PASS column_matmul0 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS fill_primes_matmul0 m=29 n=31 k=19 max-rel-err=
