// RUN: tile-opt %s -split-input-file --tile-configure="cluster=2x1 block=128,256,64 warp=64,256 thread=64,256" -verify-diagnostics

// With the tiles given, the rule they break: 3 rows of 128 cannot pair up
// (the blocks of a cluster take two tiles of one column).
func.func @odd_rows(%a: memref<300x512xbf16>, %b: memref<512x1024xbf16>, %c: memref<300x1024xf32>) {
  // expected-error @+1 {{cannot use cluster 2x1: M = 300 in block tiles of 128 rows is 3 tile rows, not a multiple of 2 (the blocks of a cluster take tiles of the same column)}}
  linalg.matmul ins(%a, %b : memref<300x512xbf16>, memref<512x1024xbf16>) outs(%c : memref<300x1024xf32>)
  return
}

// -----

// A batch pairs the tile rows of each matrix: 3 rows each, an error too.
func.func @odd_rows_batched(%a: memref<4x300x512xbf16>, %b: memref<4x512x1024xbf16>, %c: memref<4x300x1024xf32>) {
  // expected-error @+1 {{cannot use cluster 2x1: M = 300 in block tiles of 128 rows is 3 tile rows, not a multiple of 2 (the blocks of a cluster take tiles of the same column)}}
  linalg.batch_matmul ins(%a, %b : memref<4x300x512xbf16>, memref<4x512x1024xbf16>) outs(%c : memref<4x300x1024xf32>)
  return
}

// -----

// 257 rows are 3 tile rows of 128 as well (the last one 1 row high).
func.func @edge_rows(%a: memref<257x512xbf16>, %b: memref<512x1024xbf16>, %c: memref<257x1024xf32>) {
  // expected-error @+1 {{cannot use cluster 2x1: M = 257 in block tiles of 128 rows is 3 tile rows, not a multiple of 2 (the blocks of a cluster take tiles of the same column)}}
  linalg.matmul ins(%a, %b : memref<257x512xbf16>, memref<512x1024xbf16>) outs(%c : memref<257x1024xf32>)
  return
}

