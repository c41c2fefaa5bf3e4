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

// The kernel is named after the function, and PTX names hold only letters,
// digits, '_', '$' and '.' (LLVM's PTX printer would abort).
func.func @"a matmul<f32>"(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op cannot make a kernel named 'a matmul<f32>_matmul0': a PTX kernel name holds only letters, digits, '_', '$' and '.' (rename the function)}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
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

// -----

// Extents tile-configure refuses: past 2^31 - 1 (here 2^63 - 1, found by
// fuzzing: the split-K arithmetic overflowed, reported by
// UndefinedBehaviorSanitizer), and empty.
func.func @huge_k(%a: memref<64x9223372036854775807xf32>, %b: memref<9223372036854775807x256xf32>, %c: memref<64x256xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand type 'memref<64x9223372036854775807xf32>' is not supported by tile-block-tile}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], split_k = 4>}
    ins(%a, %b : memref<64x9223372036854775807xf32>, memref<9223372036854775807x256xf32>) outs(%c : memref<64x256xf32>)
  return
}

// -----

func.func @empty_m(%a: memref<0x64xf32>, %b: memref<64x64xf32>, %c: memref<0x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand type 'memref<0x64xf32>' is not supported by tile-block-tile}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<0x64xf32>, memref<64x64xf32>) outs(%c : memref<0x64xf32>)
  return
}

// -----

func.func @shared_memory_operand(%a: memref<64x64xf32, #gpu.address_space<workgroup>>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand type 'memref<64x64xf32, #gpu.address_space<workgroup>>' is not supported by tile-block-tile}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// 32768 x 32768 tiles, each K split in 4: more blocks than a grid holds.
func.func @over_the_grid(%a: memref<2097152x4096xf32>, %b: memref<4096x2097152xf32>,
                         %c: memref<2097152x2097152xf32>) {
  // expected-error @+1 {{'linalg.matmul' op needs 4294967296 thread blocks, over the grid limit of 2147483647 (tile-configure rejects such a config)}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], split_k = 4>}
    ins(%a, %b : memref<2097152x4096xf32>, memref<4096x2097152xf32>) outs(%c : memref<2097152x2097152xf32>)
  return
}

// -----

// Indexing maps that do more than transpose A or B (B broadcast along n).
func.func @broadcast_b(%a: memref<64x64xf32>, %b: memref<64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has indexing maps tile-block-tile does not support (run tile-configure, which explains why)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<64x64xf32>, memref<64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A 2x1 cluster written by hand on a matmul of 3 tile rows: its blocks
// take the tiles of one column in pairs of rows, which 3 rows do not make.
func.func @cluster_odd_rows(%a: memref<300x64xbf16>, %b: memref<64x256xbf16>, %c: memref<300x256xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has 3 tile rows (M = 300 in blocks of 128), which cluster 2x1 cannot pair up (tile-configure rejects such a config)}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [2, 1]>}
    ins(%a, %b : memref<300x64xbf16>, memref<64x256xbf16>) outs(%c : memref<300x256xf32>)
  return
}

// -----

// A 1x2 cluster on 3 tile columns: its blocks take the tiles of one row in
// pairs of columns.
func.func @cluster_odd_columns(%a: memref<256x64xbf16>, %b: memref<64x384xbf16>, %c: memref<256x384xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has 3 tile columns (N = 384 in blocks of 128), which cluster 1x2 cannot pair up (tile-configure rejects such a config)}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], cluster = [1, 2]>}
    ins(%a, %b : memref<256x64xbf16>, memref<64x384xbf16>) outs(%c : memref<256x384xf32>)
  return
}

// -----

// A wgmma config written by hand on an f32 matmul whose B is stored K x N:
// wgmma reads TF32 operands only K-major.
func.func @tf32_b_kn(%a: memref<128x64xf32>, %b: memref<64x128xf32>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has f32 inputs with a wgmma config, which computes them as TF32 only with A stored M x K and B stored N x K; B is stored K x N (tile-configure rejects such a config)}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 32], warpgroup = [64, 128], mma = [64, 128, 8]>}
    ins(%a, %b : memref<128x64xf32>, memref<64x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// repack = true on an fma config where B's rows already start on 16 bytes
// (N = 64): there is no padded copy to read.
func.func @repack_aligned(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op repack = true with the fma strategy needs a row-major, dense B of one matrix with N not a multiple of 4 (tile-configure rejects it)}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], repack = true>}
    ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
