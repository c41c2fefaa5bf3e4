// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-block-tile
// RUN: not tile-opt %s -split-input-file --tile-block-tile=index-bitwidth=32 2>&1 | FileCheck %s --check-prefix=BITWIDTH

// tile-block-tile runs on matmuls tile-configure has accepted. Run alone on
// others (a config written by hand), it refuses what it cannot lower with
// an error at the matmul.

func.func @tensors(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'linalg.matmul' op must be on memrefs for tile-block-tile (bufferize first)}}
  %r = linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

func.func @f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-error @+1 {{'linalg.matmul' op operand type 'memref<64x64xf16>' is not supported by tile-block-tile (run tile-configure, which explains why)}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

func.func @dynamic(%a: memref<?x64xf32>, %b: memref<64x64xf32>, %c: memref<?x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand type 'memref<?x64xf32>' is not supported by tile-block-tile}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<?x64xf32>, memref<64x64xf32>) outs(%c : memref<?x64xf32>)
  return
}

// -----

// 65536 x 65536 = 2^32 elements of C: offsets need 64-bit indices (chosen
// by default; index-bitwidth=32 asks for 32).
// BITWIDTH: error: 'linalg.matmul' op index-bitwidth=32 cannot address 4294967296 elements of one operand
func.func @large(%a: memref<65536x8xf32>, %b: memref<8x65536xf32>, %c: memref<65536x65536xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8]>}
    ins(%a, %b : memref<65536x8xf32>, memref<8x65536xf32>) outs(%c : memref<65536x65536xf32>)
  return
}
