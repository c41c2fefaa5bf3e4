// A bf16 table entry measured as a persistent kernel is one for its own
// shape only: a neighbour within the table's radius takes the entry's
// tiles, ring and occupancy, one block per tile. A neighbour's rows are of
// the same class (on 128-byte lines: N and K multiples of 64 bf16
// elements, as 4032 and 4160): 4100^3 is no neighbour of 4096^3 (its rows
// are off 16 bytes) and gets the cost model's config, on repacked copies;
// nor is a strided 4096^3 whose rows are on 16 bytes but off the lines
// (the entry was measured on rows on the lines).
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-bf16-persistent.json" | FileCheck %s

// CHECK-LABEL: func.func @exact
// CHECK: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, {{.*}}persistent = true, occupancy = 1>}
func.func @exact(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @neighbour
// CHECK: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, occupancy = 1>}
func.func @neighbour(%A: memref<4000x4032xbf16>, %B: memref<4032x4160xbf16>, %C: memref<4000x4160xf32>) {
  linalg.matmul ins(%A, %B : memref<4000x4032xbf16>, memref<4032x4160xbf16>) outs(%C : memref<4000x4160xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @other_class
// CHECK: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true>}
func.func @other_class(%A: memref<4100x4100xbf16>, %B: memref<4100x4100xbf16>, %C: memref<4100x4100xf32>) {
  linalg.matmul ins(%A, %B : memref<4100x4100xbf16>, memref<4100x4100xbf16>) outs(%C : memref<4100x4100xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @strided_off_lines
// CHECK: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true>}
func.func @strided_off_lines(%A: memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>, %B: memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>, %C: memref<4096x4096xf32, strided<[4160, 1], offset: 8>>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>, memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>) outs(%C : memref<4096x4096xf32, strided<[4160, 1], offset: 8>>)
  return
}

// -----

// Options the entry cannot take (a split of K, copies through registers:
// a persistent kernel has neither) give the cost model's config with them,
// as without a table; tile sizes given as options drop the entry's
// persistence (measured with its own tiles).
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-bf16-persistent.json split-k=2" 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-bf16-persistent.json copy=registers" 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-bf16-persistent.json block=128,128,64 warp=64,128 thread=64,128" 2>&1 | FileCheck %s --check-prefix=TILES
// SPLIT-LABEL: func.func @exact
// SPLIT: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, split_k = 2>}
// REGS-LABEL: func.func @exact
// REGS: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = registers, specialize = true, swizzle = 8, smem = swizzle128>}
// TILES-LABEL: func.func @exact
// TILES: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>}
