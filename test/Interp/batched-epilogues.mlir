// Fused epilogues on batched f32 matmuls (Inputs/batched-epilogues.mlir:
// operands shared by the matrices and one per matrix, rows, columns and
// whole matrices, C = A*B and C += A*B, B stored N x K, 1x1x1 matrices)
// after tile-block-tile, after tile-thread-tile and through the whole
// pipeline under several configs (split-K is refused with an epilogue);
// tile-interp checks every element of every matrix against the float64
// reference with the same epilogue.

// RUN: tile-opt %S/Inputs/batched-epilogues.mlir --tile-fuse-epilogues --tile-configure="tuning-table=none" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched-epilogues.mlir --tile-fuse-epilogues --tile-configure="tuning-table=none" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched-epilogues.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched-epilogues.mlir --tile-matmul-tiling="tuning-table=none block=32,32,8 warp=16,32 thread=4,4 stages=1 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched-epilogues.mlir --tile-matmul-tiling="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=2 prefetch=false vector-c=true swizzle=2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched-epilogues.mlir --tile-matmul-tiling="tuning-table=none block=64,32,8 warp=32,16 thread=4,4 stages=3 copy=cp_async" | tile-interp | FileCheck %s

// CHECK: PASS bias_relu_matmul0 batch=3 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS batch_row_matmul0 batch=2 m=67 n=5 k=20 max-rel-err=
// CHECK: PASS residuals_matmul0 batch=2 m=33 n=29 k=9 max-rel-err=
// CHECK: PASS one_matmul0 batch=4 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS tb_two_matmul0 batch=2 m=45 n=70 k=31 max-rel-err=
