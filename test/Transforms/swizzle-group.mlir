// RUN: tile-opt %s --tile-block-tile | FileCheck %s
// RUN: tile-opt %s --tile-block-tile | sed -e 's/swizzle = [0-9]*/swizzle = G/g' > %t.huge
// RUN: sed -e 's/swizzle = 9223372036854775807/swizzle = 3/' %s | tile-opt --tile-block-tile | sed -e 's/swizzle = [0-9]*/swizzle = G/g' > %t.rows
// RUN: diff %t.huge %t.rows

// A swizzle group larger than the grid's tile rows (here 2^63 - 1 for 3
// rows) orders the blocks as a group of all the rows does: the same kernel.
// Found with the fuzzer's extreme values: the group times the tile columns
// overflowed 64 bits (UndefinedBehaviorSanitizer in tile-block-tile).

// CHECK: gpu.func @huge_group_matmul0
func.func @huge_group(%a: memref<96x64xf32>, %b: memref<64x128xf32>, %c: memref<96x128xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4], swizzle = 9223372036854775807>}
    ins(%a, %b : memref<96x64xf32>, memref<64x128xf32>) outs(%c : memref<96x128xf32>)
  return
}
