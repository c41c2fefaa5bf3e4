// RUN: tile-opt %s --tile-block-tile | FileCheck %s --check-prefix=AUTO
// RUN: tile-opt %s --tile-block-tile=index-bitwidth=64 | FileCheck %s --check-prefix=WIDE
// RUN: not tile-opt %s --tile-block-tile=index-bitwidth=16 2>&1 | FileCheck %s --check-prefix=BAD

// 32-bit index arithmetic where every element offset of A, B and C fits in
// 31 bits; 64-bit otherwise, or when asked for.

// AUTO: gpu.module @small_matmul0 attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}
// AUTO: gpu.module @large_matmul0 {
// WIDE: gpu.module @small_matmul0 {
// BAD: error: tile-block-tile: option 'index-bitwidth' must be 0, 32 or 64, got 16
func.func @small(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
// C has 65536 * 65536 = 2^32 elements.
func.func @large(%A: memref<65536x8xf32>, %B: memref<8x65536xf32>, %C: memref<65536x65536xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<65536x8xf32>, memref<8x65536xf32>) outs(%C : memref<65536x65536xf32>)
  return
}
