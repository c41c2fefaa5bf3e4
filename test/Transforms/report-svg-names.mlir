// RUN: rm -rf %t && tile-opt %s --tile-report="svg-dir=%t" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=FILL < %t/two_matmul1.svg
// RUN: FileCheck %s --check-prefix=SPLIT < %t/split_matmul0.svg
// RUN: FileCheck %s --check-prefix=LAST < %t/last_matmul0.svg
// The names are the ones tile-block-tile gives the kernels: the same files,
// and the same picture, come out after it.
// RUN: rm -rf %t && tile-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tile-block-tile --tile-report="svg-dir=%t" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=FILL < %t/two_matmul1.svg
// RUN: FileCheck %s --check-prefix=SPLIT < %t/split_matmul0.svg
// RUN: FileCheck %s --check-prefix=LAST < %t/last_matmul0.svg

// A matmul not yet made a kernel gets the picture of the kernel
// tile-block-tile will make of it: named <function>_matmul<i>, counting the
// configured matmuls of the function, and C = fill + A*B where the output is
// a linalg.fill.

// FILES: last_matmul0.svg
// FILES-NEXT: one_matmul0.svg
// FILES-NEXT: split_matmul0.svg
// FILES-NEXT: two_matmul0.svg
// FILES-NEXT: two_matmul1.svg
// FILES-NOT: svg

// FILL: kernel two_matmul1: 64x32x16 f32, C (f32) = fill + A*B
// FILL: launch: 2 blocks = 2 x 1 tiles of 32 x 32, 64 threads per block
// Under split-K the fill stays on the host and the kernel accumulates:
// SPLIT: kernel split_matmul0: 64x32x16 f32, C (f32) += A*B
// SPLIT: launch: 4 blocks = 2 x 1 tiles of 32 x 32 x 2 splits of K, 64 threads per block
// SPLIT: Split-K: split s of a tile is block id + s * 2 (split 0 drawn).
// SPLIT: tile (1, 0): block 1
// split_last: 4 x 3 = 12 tiles, the last 3 split 3 ways: 9 + 3 x 3 blocks.
// LAST: launch: 18 blocks = 4 x 3 tiles of 64 x 128, the last 3 in 3 splits of K, 256 threads per block (1 consumer warpgroup + a producer warpgroup)
// LAST: split_last: the last 3 tiles of the launch order are split; split s of one of them is block id + s * 3 (split 0 drawn). All 18 blocks run together
func.func @one(%A: memref<64x16xf32>, %B: memref<16x32xf32>, %C: memref<64x32xf32>) {
  // Not configured: no kernel, no picture.
  linalg.matmul ins(%A, %B : memref<64x16xf32>, memref<16x32xf32>) outs(%C : memref<64x32xf32>)
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>}
    ins(%A, %B : memref<64x16xf32>, memref<16x32xf32>) outs(%C : memref<64x32xf32>)
  return
}
func.func @two(%A: memref<64x16xf32>, %B: memref<16x32xf32>, %C: memref<64x32xf32>,
               %TA: tensor<64x16xf32>, %TB: tensor<16x32xf32>) -> tensor<64x32xf32> {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>}
    ins(%A, %B : memref<64x16xf32>, memref<16x32xf32>) outs(%C : memref<64x32xf32>)
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x32xf32>) -> tensor<64x32xf32>
  %R = linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>}
    ins(%TA, %TB : tensor<64x16xf32>, tensor<16x32xf32>) outs(%fill : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %R : tensor<64x32xf32>
}
func.func @split(%TA: tensor<64x16xf32>, %TB: tensor<16x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x32xf32>) -> tensor<64x32xf32>
  %R = linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4], split_k = 2>}
    ins(%TA, %TB : tensor<64x16xf32>, tensor<16x32xf32>) outs(%fill : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %R : tensor<64x32xf32>
}
func.func @last(%A: memref<200x520xbf16>, %B: memref<520x300xbf16>, %C: memref<200x300xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true, occupancy = 1, split_k = 3, split_last = 3>}
    ins(%A, %B : memref<200x520xbf16>, memref<520x300xbf16>) outs(%C : memref<200x300xf32>)
  return
}
