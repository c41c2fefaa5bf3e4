// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-configure

// The grid limit counts every block: one per tile and split of K. Here
// 32768 x 32768 tiles of 64x64 fit the limit, four splits of K do not (the
// block count was checked without the splits, and the kernel's grid size
// wrapped to 0 in tile-block-tile).
func.func @split_k_over_the_grid(%a: memref<2097152x4096xf32>, %b: memref<4096x2097152xf32>,
                                 %c: memref<2097152x2097152xf32>) {
  // expected-error @+1 {{'linalg.matmul' op needs 4294967296 thread blocks, over the grid limit of 2147483647}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], split_k = 4>}
    ins(%a, %b : memref<2097152x4096xf32>, memref<4096x2097152xf32>) outs(%c : memref<2097152x2097152xf32>)
  return
}
