// Transposed operands (Inputs/transposed.mlir: B stored N x K, A stored
// K x M, both, on edge shapes; a linalg.transpose on tensors folded into the
// matmul) through the fma tiling pipeline, run on the CPU by tile-interp
// against its float64 reference, for each way of filling shared memory: one
// stage, register double buffering without padding, a cp.async ring (one
// element per copy for the transposing copy), split-K, an odd pad (the
// transposed A's straight copy then narrows its vectors to stay aligned in
// shared memory), a transposed B's copy in runs of a 32-byte sector (BK =
// 32: every round a constant step of rows and runs; 128x32x32: each round's
// 64 runs span two runs of the 32 rows; 128x16x16: 128 threads for 64
// vectors, the extra threads clamped to the last; BK = 12: 3 vectors a row,
// not whole runs, row by row), a transposed B's tile padded like A's (pad2:
// its B fragments and C's stores narrow to 2 elements, which failed every
// transposed-B kernel while C's width still followed BN alone; pad3 with a
// cp.async ring: single elements), and the cost model's choices.

// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=1 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=2 prefetch=false smem=none" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=32,32,8 warp=16,16 thread=2,4 stages=4 prefetch=true split-k=3" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=64,64,8 warp=32,32 thread=4,8 stages=2 smem=pad2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=64,64,32 warp=32,32 thread=8,4 stages=2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=128,32,32 warp=32,32 thread=8,4 stages=2 prefetch=false" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=128,16,16 warp=32,16 thread=4,4 stages=2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=64,64,12 warp=32,32 thread=4,8 stages=2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling="tuning-table=none block=32,64,16 warp=16,32 thread=4,4 stages=3 smem=pad3" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/transposed.mlir --tile-matmul-tiling | tile-interp | FileCheck %s

// CHECK: PASS tb_one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS ta_one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS tab_one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS tb_primes_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS ta_primes_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS tab_primes_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS tb_k_short_matmul0 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS ta_k_short_matmul0 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS tab_k_short_matmul0 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS tb_k_one_matmul0 m=130 n=70 k=1 max-rel-err=
// CHECK: PASS ta_k_one_matmul0 m=130 n=70 k=1 max-rel-err=
// CHECK: PASS tab_k_one_matmul0 m=130 n=70 k=1 max-rel-err=
// CHECK: PASS tb_column_matmul0 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS ta_column_matmul0 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS tab_column_matmul0 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS tb_aligned_matmul0 m=64 n=128 k=32 max-rel-err=
// CHECK: PASS ta_aligned_matmul0 m=64 n=128 k=32 max-rel-err=
// CHECK: PASS tab_aligned_matmul0 m=64 n=128 k=32 max-rel-err=
// CHECK: PASS tb_odd_k_matmul0 m=64 n=64 k=37 max-rel-err=
// CHECK: PASS ta_odd_k_matmul0 m=64 n=64 k=37 max-rel-err=
// CHECK: PASS tab_odd_k_matmul0 m=64 n=64 k=37 max-rel-err=
// CHECK: PASS tb_row_matmul0 m=1 n=45 k=17 max-rel-err=
// CHECK: PASS ta_row_matmul0 m=1 n=45 k=17 max-rel-err=
// CHECK: PASS tab_row_matmul0 m=1 n=45 k=17 max-rel-err=
// CHECK: PASS tb_wide_matmul0 m=20 n=200 k=9 max-rel-err=
// CHECK: PASS ta_wide_matmul0 m=20 n=200 k=9 max-rel-err=
// CHECK: PASS tab_wide_matmul0 m=20 n=200 k=9 max-rel-err=
// CHECK: PASS tb_m_edge_matmul0 m=130 n=64 k=16 max-rel-err=
// CHECK: PASS ta_m_edge_matmul0 m=130 n=64 k=16 max-rel-err=
// CHECK: PASS tab_m_edge_matmul0 m=130 n=64 k=16 max-rel-err=
// CHECK: PASS linear_fill_matmul0 m=29 n=31 k=19 max-rel-err=
