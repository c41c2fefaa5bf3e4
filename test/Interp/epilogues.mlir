// Fused epilogues (Inputs/epilogues.mlir: bias per column + ReLU, bias per
// row, alpha*AB + beta*D, a residual and a chain of two ops, a bias and
// GELU's tanh form, on 1x1 to 129x257 shapes; a strided C) through the FP32 pipeline,
// after each pass and for the
// ways of filling shared memory; tile-interp checks every element against
// the float64 reference with the same epilogue.

// RUN: tile-opt %S/Inputs/epilogues.mlir --tile-fuse-epilogues --tile-configure="tuning-table=none" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues.mlir --tile-fuse-epilogues --tile-configure="tuning-table=none" --tile-block-tile --tile-promote-shared --tile-warp-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues.mlir --tile-fuse-epilogues --tile-configure="tuning-table=none" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues.mlir --tile-matmul-tiling="tuning-table=none" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues.mlir --tile-matmul-tiling="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=2 prefetch=false vector-c=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues.mlir --tile-matmul-tiling | tile-interp | FileCheck %s

// CHECK: PASS bias_relu_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS row_bias_matmul0 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS alpha_beta_matmul0 m=130 n=70 k=3 max-rel-err=
// CHECK: PASS residual_chain_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS big_edge_matmul0 m=129 n=257 k=65 max-rel-err=
// CHECK: PASS bias_gelu_matmul0 m=45 n=70 k=33 max-rel-err=
// CHECK: PASS strided_c_matmul0 m=37 n=41 k=23 max-rel-err=
