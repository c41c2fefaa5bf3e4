// RUN: not tile-opt %s --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline 2>&1 | FileCheck %s
// RUN: not tile-opt %s --tile-configure 2>&1 | FileCheck %s --check-prefix=CONFIGURE

// A 2x1 cluster written on a matmul whose B is stored N x K: the TMA copies
// B's slab as one K-major box of rows, which the two blocks' producers
// cannot split into 64-column boxes (rank 0 would multicast the whole box
// and rank 1 nothing: the blocks' loads would not be shared out).
// tile-mbarrier-pipeline meets the config written by hand and refuses it
// (tile-configure does too).
// CHECK: error: tile-mbarrier-pipeline: cluster 2x1 splits B's 64-column boxes between its blocks, but B stored N x K is copied as one box of rows (tile-configure rejects such a config)
// CONFIGURE: error: 'linalg.matmul' op cannot use cluster 2x1: its blocks share B's slab as 64-column boxes, and B stored N x K is copied as one box of rows
func.func @transposed_b(%a: memref<512x256xbf16>, %b: memref<256x256xbf16>, %c: memref<512x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [2, 1]>}
      ins(%a, %b : memref<512x256xbf16>, memref<256x256xbf16>) outs(%c : memref<512x256xf32>)
  return
}
