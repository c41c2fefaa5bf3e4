// Strided operands (Inputs/strided.mlir: memrefs with static strides and
// offsets, windows of bigger buffers, on edge shapes; transposed, batched,
// fill and subview forms; a fused epilogue on a strided C is in
// epilogues.mlir) through the fma tiling pipeline, run on the CPU
// by tile-interp: each kernel takes its operands' strided memref types, and
// tile-interp lays the matrices out as those types say, with NaN between
// them (read into C, it would show; written over, C's are reported). Vector
// widths follow the strides and offsets (tile-interp checks every vector
// access's alignment). One stage, register double buffering, a cp.async
// ring, split-K, a padded layout, and the cost model's choices.

// RUN: tile-opt %S/Inputs/strided.mlir --tile-matmul-tiling="tuning-table=none block=32,32,8 warp=16,16 thread=2,4 stages=1 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided.mlir --tile-matmul-tiling="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=2 prefetch=false smem=none" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided.mlir --tile-matmul-tiling="tuning-table=none block=32,32,8 warp=16,16 thread=2,4 stages=4 prefetch=true split-k=3" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided.mlir --tile-matmul-tiling="tuning-table=none block=64,64,8 warp=32,32 thread=4,8 stages=2 smem=pad2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided.mlir --tile-matmul-tiling | tile-interp | FileCheck %s

// CHECK: PASS primes_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS aligned_matmul0 m=64 n=64 k=32 max-rel-err=
// CHECK: PASS pairs_matmul0 m=70 n=66 k=34 max-rel-err=
// CHECK: PASS narrowed_matmul0 m=40 n=64 k=32 max-rel-err=
// CHECK: PASS only_c_matmul0 m=33 n=48 k=40 max-rel-err=
// CHECK: PASS tb_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS ta_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS fill_matmul0 m=45 n=52 k=19 max-rel-err=
// CHECK: PASS k_one_matmul0 m=130 n=70 k=1 max-rel-err=
// CHECK: PASS column_matmul0 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS affine_matmul0 m=24 n=24 k=16 max-rel-err=
// CHECK: PASS batched_matmul0 batch=3 m=21 n=35 k=13 max-rel-err=
// CHECK: PASS subviews_matmul0 m=33 n=48 k=40 max-rel-err=
// CHECK-NOT: FAIL
