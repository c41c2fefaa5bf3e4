// A bf16 table entry measured as a persistent kernel is one for its own
// shape only: a neighbour within the table's radius takes the entry's
// tiles, ring and occupancy, one block per tile. A neighbour's class is
// by 16-byte rows (N and K multiples of 8 bf16 elements): 4100^3 is no
// neighbour of 4096^3 (its rows are off 16 bytes) and gets the cost
// model's config, on repacked copies.
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
func.func @neighbour(%A: memref<4000x4008xbf16>, %B: memref<4008x4016xbf16>, %C: memref<4000x4016xf32>) {
  linalg.matmul ins(%A, %B : memref<4000x4008xbf16>, memref<4008x4016xbf16>) outs(%C : memref<4000x4016xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @other_class
// CHECK: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true>}
func.func @other_class(%A: memref<4100x4100xbf16>, %B: memref<4100x4100xbf16>, %C: memref<4100x4100xf32>) {
  linalg.matmul ins(%A, %B : memref<4100x4100xbf16>, memref<4100x4100xbf16>) outs(%C : memref<4100x4100xf32>)
  return
}
