// RUN: rm -rf %t && tile-opt %s --tile-configure --tile-block-tile --tile-report="svg-dir=%t/svg" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=FMA < %t/svg/fma_matmul0.svg
// RUN: FileCheck %s --check-prefix=WGMMA < %t/svg/wg_matmul0.svg
// Without svg-dir no picture is written.
// RUN: rm -rf %t && mkdir %t && cd %t && tile-opt %s --tile-report -o /dev/null && ls %t | count 0

// tile-report svg-dir=DIR writes DIR/<kernel>.svg for each kernel: its tiling
// (block -> warp or warpgroup tiles -> a lane's fragment or an instruction
// tile), the shared-memory layout with the bank of each element, and the
// swizzled launch order. Every number below follows from the config, the
// problem and the shared-memory plan; the comments show the arithmetic.

// REPORT: kernel fma_matmul0: 200x300x64 f32, C += A*B
// REPORT: kernel wg_matmul0: 256x384x128 bf16 -> f32, C += A*B

// FMA: <svg xmlns="http://www.w3.org/2000/svg"
// FMA: kernel fma_matmul0: 200x300x64 f32, C (f32) += A*B
// FMA: #tile.config&lt;block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 2, smem = pad(4), prefetch = true&gt;
// 200/64 -> 4 tile rows, 300/64 -> 5 tile columns; 4 warps.
// FMA: launch: 20 blocks = 4 x 5 tiles of 64 x 64, 128 threads per block
// Two buffers of A [8][68] (2176 B) and B [8][64] (2048 B).
// FMA: shared memory: 8448 B dynamic per block (2 x A and B buffers)
// FMA: block tile 64 x 64 (K slice 8)
// FMA: 4 warp tiles of 32 x 32 (2 x 2)
// FMA: warp 3: rows 32-63, columns 32-63 of the block tile
// Lanes 8 x 4 (32/4, 32/8); fragments of 4 (4 divides TM = 4, the A row of
// 68 and TN = 8), so lane l starts at (4 (l / 4), 4 (l mod 4)) and its second
// 4 columns are 4 lanes * 4 = 16 columns on.
// FMA: warp tile 32 x 32: 32 lanes as 8 x 4
// FMA: rows 0-3, columns 0-3 of the warp tile: lane 0
// FMA: rows 0-3, columns 16-19 of the warp tile: lane 0
// FMA: rows 4-7, columns 4-7 of the warp tile: lane 5
// FMA: rows 28-31, columns 28-31 of the warp tile: lane 31
// FMA: per k step: 1 loads of 4 from A, 2 of 4 from B, 32 FMAs
// FMA: lane 0 accumulator (0, 4): warp tile row 0, column 16
// FMA: lane 0 accumulator (3, 7): warp tile row 3, column 19
// A is k-major with rows of 64 + 4: (k, m) at (68 k + m) * 4 bytes, bank
// (4 k + m) mod 32.
// FMA: A: [8][64 + 4] f32 (k-major: row k holds A[m0..m0+63]), rows padded by 4
// FMA: 2176 B per buffer, at byte 0, 2176 of the aligned base
// FMA: A k=0 m=0: byte 0, bank 0
// FMA: A k=0 padding element 64: byte 256, bank 0
// FMA: A k=1 m=0: byte 272, bank 4
// FMA: A k=1 m=31: byte 396, bank 3
// FMA: A k=1 padding element 64: byte 528, bank 4
// FMA: A k=7 m=5: byte 1924, bank 1
// FMA-NOT: A k=8
// B starts after both A buffers (4352) with rows of 64 f32 (256 bytes: 2 x
// 32 banks), so every row starts in bank 0 and row 1 repeats row 0.
// FMA: B: [8][64] f32
// FMA: 2048 B per buffer, at byte 4352, 6400 of the aligned base
// FMA-SAME: Rows 0-1 of 8 drawn; row 1 repeats row 0 (order and banks), and so on every 1 row.
// FMA: B k=0 n=0: byte 4352, bank 0
// FMA: B k=1 n=3: byte 4620, bank 3
// FMA-NOT: B k=2
// Groups of 2 tile rows: block = 10 g + 2 c + (r - 2 g) for tile (r, c) in
// group g = r / 2.
// FMA: 4 x 5 tiles of C, swizzle 2: consecutive blocks walk down groups of 2 tile rows
// FMA: All 20 blocks run together
// FMA: tile (0, 0): block 0
// FMA: tile (0, 1): block 2
// FMA: tile (0, 4): block 8
// FMA: tile (1, 0): block 1
// FMA: tile (2, 0): block 10
// FMA: tile (3, 4): block 19
// FMA: </svg>
func.func @fma(%A: memref<200x64xf32>, %B: memref<64x300xf32>, %C: memref<200x300xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 2, smem = pad(4), prefetch = true>}
    ins(%A, %B : memref<200x64xf32>, memref<64x300xf32>) outs(%C : memref<200x300xf32>)
  return
}

// WGMMA: kernel wg_matmul0: 256x384x128 bf16, C (f32) += A*B
// WGMMA: launch: 6 blocks = 2 x 3 tiles of 128 x 128, 384 threads per block (2 consumer warpgroups + a producer warpgroup)
// 3 slots of A (128 x 64 bf16 = 16 KiB) and B (2 chunks of 64 x 64 = 16
// KiB), and 1 KiB to align the base; 6 mbarriers.
// WGMMA: shared memory: 99328 B dynamic per block (3 x [A][B] stages, 1024 B alignment slack; 48 B of mbarriers)
// WGMMA: block tile 128 x 128 (K slab 64)
// WGMMA: 2 warpgroup tiles of 64 x 128 (2 x 1)
// WGMMA: warpgroup 1: rows 64-127, columns 0-127 of the block tile
// WGMMA: warpgroup tile 64 x 128: 1 x 2 instruction tiles
// 64 / 16 = 4 k steps per slab, 2 instructions each.
// WGMMA: wgmma m64n64k16, 2 per k step, 8 per slab
// WGMMA: instruction 1: rows 0-63, columns 64-127 of the warpgroup tile
// WGMMA: instruction tile 64 x 64 x 16: 32 f32 accumulators per thread
// WGMMA: warp 2 of the warpgroup: rows 32-47
// Register 4j + 2h + e of thread 0: row 8h, column 8j + e.
// WGMMA: thread 0 register 0: row 0, column 0
// WGMMA: thread 0 register 2: row 8, column 0
// WGMMA: thread 0 register 5: row 0, column 9
// WGMMA: thread 0 register 31: row 8, column 57
// WGMMA-NOT: thread 0 register 32
// A rows are 128 bytes (64 bf16); 16-byte granule g of row r is stored at
// g ^ (r mod 8): (m, k) at 128 m + 16 ((k / 8) ^ (m mod 8)) + 2 (k mod 8).
// WGMMA: A: [128][64] bf16 (row m holds A[m][k0..k0+63]), 128-byte swizzle
// WGMMA: 16384 B per stage, at byte 0, 32768, 65536 of the aligned base
// WGMMA: A m=0 k=0: byte 0, bank 0
// WGMMA: A m=1 k=0: byte 144, bank 4
// WGMMA: A m=2 k=13: byte 314, bank 14
// WGMMA: A m=7 k=63: byte 910, bank 3
// B: chunk 0 after A (16384), rows of 64 columns.
// WGMMA: B: 2 chunks of [64][64] bf16 (chunk j holds B[k][64j..64j+63]), 8192 B apart, 128-byte swizzle
// WGMMA: 16384 B per stage, at byte 16384, 49152, 81920 of the aligned base
// WGMMA: B k=0 n=0: byte 16384, bank 0
// WGMMA: B k=5 n=2: byte 17108, bank 21
// Groups of 2 (all) tile rows: block = 2 c + r.
// WGMMA: 2 x 3 tiles of C, swizzle 4: consecutive blocks walk down groups of 2 tile rows
// WGMMA: tile (0, 1): block 2
// WGMMA: tile (1, 0): block 1
// WGMMA: tile (1, 2): block 5
func.func @wg(%A: memref<256x128xbf16>, %B: memref<128x384xbf16>, %C: memref<256x384xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, copy = tma, specialize = true, swizzle = 4, smem = swizzle128>}
    ins(%A, %B : memref<256x128xbf16>, memref<128x384xbf16>) outs(%C : memref<256x384xf32>)
  return
}
