// RUN: tile-opt %s -split-input-file --tile-configure=cluster=1x2 -verify-diagnostics | FileCheck %s

// cluster=1x2: two blocks along N share A's slabs. The chosen config (the
// cost model's) gets cluster = [1, 2], with the TMA and a producer
// warpgroup, and block tile M a multiple of 128 (A's slab is split in
// two between the blocks).
// CHECK-LABEL: func.func @bf16
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, {{.*}}, copy = tma, specialize = true, {{.*}}cluster = [1, 2]
func.func @bf16(%a: memref<4096x1024xbf16>, %b: memref<1024x4096xbf16>, %c: memref<4096x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<4096x1024xbf16>, memref<1024x4096xbf16>) outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// A stored K x M (an M-major slab of 64-row chunks) is shared the same way.
// CHECK-LABEL: func.func @transposed_a
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, {{.*}}cluster = [1, 2]
func.func @transposed_a(%a: memref<1024x2048xbf16>, %b: memref<1024x2048xbf16>, %c: memref<2048x2048xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<1024x2048xbf16>, memref<1024x2048xbf16>) outs(%c : memref<2048x2048xf32>)
  return
}

// -----

// N = 300: without a cluster the model picks 64x128 blocks (block M off
// 128, and 3 tile columns); with cluster=1x2 the best-ranked config that
// can hold one is taken: 128x192, 2 tile columns.
// CHECK-LABEL: func.func @narrow
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 192, 64], {{.*}}cluster = [1, 2]
func.func @narrow(%a: memref<2048x512xbf16>, %b: memref<512x300xbf16>, %c: memref<2048x300xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x512xbf16>, memref<512x300xbf16>) outs(%c : memref<2048x300xf32>)
  return
}

// -----

// 64 columns: one tile column whatever block N is: an error at the op.
func.func @one_column(%a: memref<2048x512xbf16>, %b: memref<512x64xbf16>, %c: memref<2048x64xf32>) {
  // expected-error @+1 {{cannot use cluster 1x2: every config the cost model ranks for 2048x64x512 that can hold one (block tile M a multiple of 128) gives an odd number of tile columns}}
  linalg.matmul ins(%a, %b : memref<2048x512xbf16>, memref<512x64xbf16>) outs(%c : memref<2048x64xf32>)
  return
}

// -----

// Written on the op: N = 384 in blocks of 128 columns is 3 tile columns,
// which cannot pair up (the blocks of a 1x2 cluster take two tiles of one
// row).
func.func @odd_columns(%a: memref<512x512xbf16>, %b: memref<512x384xbf16>, %c: memref<512x384xf32>) {
  // expected-error @+1 {{cannot use cluster 1x2: N = 384 in block tiles of 128 columns is 3 tile columns, not a multiple of 2 (the blocks of a cluster take tiles of the same row)}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], cluster = [1, 2]>}
      ins(%a, %b : memref<512x512xbf16>, memref<512x384xbf16>) outs(%c : memref<512x384xf32>)
  return
}
