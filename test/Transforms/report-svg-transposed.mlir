// RUN: rm -rf %t && tile-opt %s --tile-configure --tile-block-tile --tile-report="svg-dir=%t/svg" -o /dev/null
// RUN: FileCheck %s --check-prefix=WGMMA < %t/svg/wlinear_matmul0.svg
// RUN: FileCheck %s --check-prefix=FMA < %t/svg/at_matmul0.svg
// RUN: FileCheck %s --check-prefix=WGMMA-TA < %t/svg/wat_matmul0.svg

// The picture of a kernel with a transposed operand says how A and B are
// stored. A wgmma B stored N x K sits in shared memory as a K-major slab like
// A's: 128 rows (n) of 64 bf16 (k), 128-byte swizzled, 16384 B a stage; the
// picture does not draw B's row-major chunk map, which the kernel lacks.
// WGMMA: kernel wlinear_matmul0: 128x256x128 bf16, C (f32) += A*B (B stored N x K)
// WGMMA: Shared memory (buffer 0
// WGMMA: A m=0 k=0: byte 0, bank 0
// WGMMA: B stored N x K: a K-major slab like A's (16384 B per stage), not drawn
// WGMMA-NOT: B k={{[0-9]+}} n={{[0-9]+}}: byte
// WGMMA: Launch order

// An FMA kernel keeps its shared layout when A is stored K x M (only the
// slice copy changes), so both maps are drawn.
// FMA: kernel at_matmul0: 128x96x64 f32, C (f32) += A*B (A stored K x M)
// FMA: Shared memory (buffer 0
// Block 64x16x8 with pad(4): A is [8][68] f32 (2176 B), then B.
// FMA: A k=0 m=0: byte 0, bank 0
// FMA: B k=0 n=0: byte 2176, bank 0
// FMA: Launch order

// A wgmma A stored K x M is an M-major slab like a row-major B's: 2 chunks
// of 64 m (the block's 128 rows), 16384 B a stage; its K-major row map is
// not drawn. B (stored K x N) is drawn as usual.
// WGMMA-TA: kernel wat_matmul0: 128x256x128 bf16, C (f32) += A*B (A stored K x M)
// WGMMA-TA: Shared memory (buffer 0
// WGMMA-TA: A stored K x M: an M-major slab like B's (2 chunks of 64 m, 16384 B per stage), not drawn
// WGMMA-TA-NOT: A m={{[0-9]+}} k={{[0-9]+}}: byte
// WGMMA-TA: B k=0 n=0: byte 16384, bank 0
// WGMMA-TA: Launch order

func.func @wat(%a: memref<128x128xbf16>, %b: memref<128x256xbf16>, %c: memref<128x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 2>}
    ins(%a, %b : memref<128x128xbf16>, memref<128x256xbf16>) outs(%c : memref<128x256xf32>)
  return
}

func.func @wlinear(%a: memref<128x128xbf16>, %b: memref<256x128xbf16>, %c: memref<128x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 2>}
    ins(%a, %b : memref<128x128xbf16>, memref<256x128xbf16>) outs(%c : memref<128x256xf32>)
  return
}

func.func @at(%a: memref<64x128xf32>, %b: memref<64x96xf32>, %c: memref<128x96xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<64x128xf32>, memref<64x96xf32>) outs(%c : memref<128x96xf32>)
  return
}
