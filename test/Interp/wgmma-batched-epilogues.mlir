// Fused epilogues on batched bf16/f16 matmuls, the wgmma strategy
// (Inputs/wgmma-batched-epilogues.mlir: a shared bias + ReLU on bf16 C, a
// per-matrix row bias on f32 C accumulated, a per-matrix residual on f16,
// B stored N x K with a per-matrix column bias, a body widened to f32 and
// rounded back), after tile-block-tile and tile-wgmma and through the
// whole pipeline with TMA (specialized and not), repacked TMA copies and
// register copies.

// RUN: tile-opt %S/Inputs/wgmma-batched-epilogues.mlir --tile-fuse-epilogues --tile-configure --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched-epilogues.mlir --tile-fuse-epilogues --tile-configure="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched-epilogues.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched-epilogues.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,64 stages=3 occupancy=1 specialize=false" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched-epilogues.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched-epilogues.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=3 copy=tma repack=true" | tile-interp | FileCheck %s

// CHECK: PASS bias_relu_matmul0 batch=3 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS batch_row_matmul0 batch=2 m=65 n=72 k=24 max-rel-err=
// CHECK: PASS residual_matmul0 batch=2 m=64 n=64 k=40 max-rel-err=
// CHECK: PASS tb_col_matmul0 batch=2 m=72 n=80 k=64 max-rel-err=
// CHECK: PASS widened_matmul0 batch=2 m=40 n=48 k=32 max-rel-err=
