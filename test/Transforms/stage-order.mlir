// RUN: not tile-opt %s --tile-block-tile --tile-warp-tile 2>&1 | FileCheck %s --check-prefix=SKIPPED
// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-promote-shared | FileCheck %s --check-prefix=TWICE
// RUN: tile-opt %s --tile-block-tile --tile-promote-shared -o %t.once.mlir
// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-promote-shared -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// The passes run in pipeline order; skipping one is an error at the kernel,
// running one again leaves kernels it already handled alone.

// SKIPPED: error: tile-warp-tile expects kernels at stage 'shared', but this one is at 'block': run the passes in pipeline order

// TWICE: gpu.func @once_matmul0
// TWICE-SAME: tile.stage = "shared"
// TWICE-COUNT-1: scf.for
// TWICE-NOT: scf.for
func.func @once(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// The wgmma strategy's passes leave fma kernels alone and keep its own
// order.
// RUN: not tile-opt %S/Inputs/bf16-small.mlir --tile-configure --tile-block-tile --tile-promote-shared --tile-wgmma 2>&1 | FileCheck %s --check-prefix=WGMMA-SKIPPED
// WGMMA-SKIPPED: error: tile-wgmma expects kernels at stage 'warpgroup', but this one is at 'shared': run the passes in pipeline order
// RUN: tile-opt %S/Inputs/bf16-small.mlir --tile-configure --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline | FileCheck %s --check-prefix=FMA-PASSES
// FMA-PASSES: tile.stage = "shared"
