// Fused epilogues on the wgmma strategy (Inputs/wgmma-epilogues.mlir: bias
// per column + ReLU on bf16 C, bias per row + ReLU on f32 C, 0.5*AB + R on
// f16, 1x1x1, GELU's tanh form on an f32 C), after tile-block-tile and tile-wgmma and through the whole
// tiling pipeline with TMA (specialized and not), cp.async and register
// copies.

// RUN: tile-opt %S/Inputs/wgmma-epilogues.mlir --tile-fuse-epilogues --tile-configure --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-epilogues.mlir --tile-fuse-epilogues --tile-configure="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-epilogues.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-epilogues.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,64 stages=3 occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-epilogues.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-epilogues.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=3 copy=tma repack=true" | tile-interp | FileCheck %s

// CHECK: PASS bias_relu_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS row_bias_matmul0 m=65 n=72 k=24 max-rel-err=
// CHECK: PASS residual_matmul0 m=64 n=64 k=40 max-rel-err=
// CHECK: PASS one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS gelu_matmul0 m=96 n=80 k=64 max-rel-err=
