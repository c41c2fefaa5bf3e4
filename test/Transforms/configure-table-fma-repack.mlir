// An fma table entry measured with repack = true (B read from its padded
// copy) keeps it for a shape whose B rows are off 16 bytes, and drops it
// where B needs no copy (here a strided B of the entry's shape, rows 1004
// elements apart): never an error for a repack the user did not ask for.
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-f32-repack.json" | FileCheck %s

// CHECK-LABEL: func.func @exact
// CHECK: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 3, swizzle = 8, smem = pad(4), prefetch = true, repack = true, occupancy = 3>}
func.func @exact(%A: memref<1000x1000xf32>, %B: memref<1000x1001xf32>, %C: memref<1000x1001xf32>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xf32>, memref<1000x1001xf32>) outs(%C : memref<1000x1001xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @strided
// CHECK: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 3, swizzle = 8, smem = pad(4), prefetch = true, occupancy = 3>}
func.func @strided(%A: memref<1000x1000xf32>, %B: memref<1000x1001xf32, strided<[1004, 1]>>, %C: memref<1000x1001xf32>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xf32>, memref<1000x1001xf32, strided<[1004, 1]>>) outs(%C : memref<1000x1001xf32>)
  return
}
