// The epilogue of fuse-epilogues-batched.mlir on a bf16 batched matmul (the
// wgmma strategy): each pair of accumulators gets the bias of its columns
// (shared by the matrices) and the factor of its row in its own matrix
// (gpu.block_id y), and goes to C of that matrix.
// RUN: tile-opt %s --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,64 stages=2 occupancy=1" -cse | FileCheck %s --check-prefix=WGMMA

// WGMMA: gpu.func @batch_bias_matmul0
// WGMMA: nvgpu.tma.async.load
// WGMMA: } else {
// WGMMA: nvvm.setmaxregister decrease
// WGMMA: %[[MATRIX:.*]] = gpu.block_id y
// WGMMA: nvvm.wgmma.mma_async
// WGMMA: %[[B0:.*]] = memref.load %arg3[%c0, %[[COL:.*]]] : memref<1x64xf32>
// WGMMA: %[[S0:.*]] = arith.addf %{{.*}}, %[[B0]] : f32
// WGMMA: %[[F:.*]] = memref.load %arg4[%[[MATRIX]], %[[ROW:.*]], %c0] : memref<2x64x1xf32>
// WGMMA: %[[P0:.*]] = arith.mulf %[[S0]], %[[F]] : f32
// WGMMA: %[[COL1:.*]] = arith.addi %[[COL]], %c1
// WGMMA: %[[B1:.*]] = memref.load %arg3[%c0, %[[COL1]]] : memref<1x64xf32>
// WGMMA: %[[S1:.*]] = arith.addf %{{.*}}, %[[B1]] : f32
// WGMMA: %[[P1:.*]] = arith.mulf %[[S1]], %[[F]] : f32
// WGMMA: %[[PAIR:.*]] = vector.from_elements %[[P0]], %[[P1]] : vector<2xf32>
// WGMMA: vector.store %[[PAIR]], %arg2[%[[MATRIX]], %[[ROW]], %[[COL]]]

func.func @batch_bias(%a: memref<2x64x32xbf16>, %b: memref<2x32x64xbf16>, %c: memref<2x64x64xf32>, %bias: memref<64xf32>, %rows: memref<2x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x64x32xbf16>, memref<2x32x64xbf16>) outs(%c : memref<2x64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %rows : memref<64xf32>, memref<2x64xf32>) outs(%c : memref<2x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    linalg.yield %t : f32
  }
  return
}
