// Fused epilogues on a linalg.batch_matmul: tile-fuse-epilogues records the
// program and which operands have one vector per matrix; tile-block-tile
// passes a shared bias as memref<1 x n> and one per matrix as
// memref<batch x m x 1>, and tells them apart in per_batch; the epilogue on
// registers reads a per-matrix operand at the block's matrix (gpu.block_id
// y) and a shared one at row/column only (the wgmma kernel's in
// fuse-epilogues-batched-wgmma.mlir).
// RUN: tile-opt %s --tile-fuse-epilogues | FileCheck %s --check-prefix=FUSE
// RUN: tile-opt %s --tile-fuse-epilogues --tile-configure="tuning-table=none block=64,64,8 warp=32,32 thread=4,8 stages=1" --tile-block-tile | FileCheck %s --check-prefix=BLOCK
// RUN: tile-opt %s --tile-fuse-epilogues --tile-configure="tuning-table=none block=64,64,8 warp=32,32 thread=4,8 stages=1" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile -cse | FileCheck %s --check-prefix=THREAD

// FUSE-LABEL: func.func @batch_bias
// FUSE: linalg.batch_matmul {tile.epilogue = {operands = ["col", "row"], steps = ["addf acc p0", "mulf s0 p1"]}}
// FUSE: linalg.generic {{.*}} ins(%arg3, %arg4 : memref<64xf32>, memref<2x64xf32>) outs(%arg2 : memref<2x64x64xf32>) attrs = {tile.fused_epilogue}

// BLOCK: %[[BIAS:.*]] = memref.expand_shape %arg3 {{\[\[}}0, 1]] output_shape [1, 64] : memref<64xf32> into memref<1x64xf32>
// BLOCK: %[[ROWS:.*]] = memref.expand_shape %arg4 {{\[\[}}0], [1, 2]] output_shape [2, 64, 1] : memref<2x64xf32> into memref<2x64x1xf32>
// BLOCK: gpu.launch_func @batch_bias_matmul0::@batch_bias_matmul0 blocks in (%{{.*}}, %c2, %{{.*}}) {{.*}} args(%arg0 : memref<2x64x32xf32>, %arg1 : memref<2x32x64xf32>, %arg2 : memref<2x64x64xf32>, %[[BIAS]] : memref<1x64xf32>, %[[ROWS]] : memref<2x64x1xf32>)
// BLOCK-NOT: linalg.generic
// BLOCK: gpu.func @batch_bias_matmul0({{.*}}, %arg3: memref<1x64xf32> {llvm.noalias, llvm.readonly}, %arg4: memref<2x64x1xf32> {llvm.noalias, llvm.readonly}) kernel
// BLOCK-SAME: tile.epilogue = {operands = ["col", "row"], per_batch = [false, true], steps = ["addf acc p0", "mulf s0 p1"], types = [f32, f32]}
// BLOCK: gpu.barrier {tile.epilogue_loop}
// BLOCK: %[[ROW:.*]] = arith.addi
// BLOCK: %[[COL:.*]] = arith.addi
// BLOCK: %[[B:.*]] = memref.load %arg3[%{{.*}}, %[[COL]]] : memref<1x64xf32>
// BLOCK: %[[MATRIX:.*]] = gpu.block_id y
// BLOCK: %[[R:.*]] = memref.load %arg4[%[[MATRIX]], %[[ROW]], %{{.*}}] : memref<2x64x1xf32>

// After tile-thread-tile: each accumulator gets the bias of its column and
// the factor of its row in its own matrix, and goes to C of that matrix.
// THREAD-NOT: tile.epilogue_loop
// THREAD: %[[MATRIX:.*]] = gpu.block_id y
// THREAD: %[[C:.*]] = memref.subview %arg2[%[[MATRIX]], 0, 0] [1, 64, 64]
// THREAD: %[[ACCS:.*]]:8 = scf.for {{.*}} {
// THREAD: } {tile.k_loop}
// THREAD: %[[E0:.*]] = vector.extract %[[ACCS]]#0[0] : f32 from vector<4xf32>
// THREAD: %[[B0:.*]] = memref.load %arg3[%c0, %[[C0:.*]]] : memref<1x64xf32>
// THREAD: %[[S0:.*]] = arith.addf %[[E0]], %[[B0]] : f32
// THREAD: %[[F:.*]] = memref.load %arg4[%[[MATRIX]], %[[R0:.*]], %c0] : memref<2x64x1xf32>
// THREAD: %[[P0:.*]] = arith.mulf %[[S0]], %[[F]] : f32
// THREAD: vector.insert %[[P0]], %[[ACCS]]#0 [0]
// THREAD: memref.load %arg3[%c0, %[[C1:.*]]] : memref<1x64xf32>
// THREAD: arith.mulf %{{.*}}, %[[F]] : f32
// THREAD: memref.store %{{.*}}, %[[C]][%[[R0]], %[[C0]]]
// THREAD: memref.store %{{.*}}, %[[C]][%[[R0]], %[[C1]]]

func.func @batch_bias(%a: memref<2x64x32xf32>, %b: memref<2x32x64xf32>, %c: memref<2x64x64xf32>, %bias: memref<64xf32>, %rows: memref<2x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x64x32xf32>, memref<2x32x64xf32>) outs(%c : memref<2x64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %rows : memref<64xf32>, memref<2x64xf32>) outs(%c : memref<2x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    linalg.yield %t : f32
  }
  return
}
