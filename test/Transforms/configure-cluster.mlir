// RUN: tile-opt %s -split-input-file --tile-configure=cluster=2x1 -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure=cluster=1x1 | FileCheck %s --check-prefix=OFF

// The cluster option: on a bf16 matmul the chosen config (the cost
// model's) gets cluster = [2, 1], with the TMA and a producer warpgroup
// (which a cluster needs: without copy and specialize options it takes
// them); 1x1 leaves it out.
// CHECK-LABEL: func.func @bf16
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], {{.*}}, copy = tma, specialize = true, {{.*}}cluster = [2, 1]
// OFF-LABEL: func.func @bf16
// OFF-NOT: cluster
// OFF: return
func.func @bf16(%a: memref<4096x1024xbf16>, %b: memref<1024x4096xbf16>, %c: memref<4096x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<4096x1024xbf16>, memref<1024x4096xbf16>) outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// A deep K on few tiles: the cost model splits K, which a cluster does not
// do; cluster=2x1 drops the split it chose (256 rows: two tile rows).
// CHECK-LABEL: func.func @deep
// CHECK: tile.config = #tile.config<strategy = wgmma, {{.*}}cluster = [2, 1]
// CHECK-NOT: split_k
// OFF-LABEL: func.func @deep
// OFF: tile.config = #tile.config<strategy = wgmma, {{.*}}split_k =
func.func @deep(%a: memref<256x8192xbf16>, %b: memref<8192x1024xbf16>, %c: memref<256x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<256x8192xbf16>, memref<8192x1024xbf16>) outs(%c : memref<256x1024xf32>)
  return
}

// -----

// No config the model ranks for 300 rows takes a cluster (128-row tiles
// give 3 tile rows, 64-row tiles 5): an error at the op.
// OFF-LABEL: func.func @odd_rows
func.func @odd_rows(%a: memref<300x512xbf16>, %b: memref<512x1024xbf16>, %c: memref<300x1024xf32>) {
  // expected-error @+1 {{cannot use cluster 2x1: every config the cost model ranks for 300x1024x512 that can hold one (block tile N a multiple of 128) gives an odd number of tile rows}}
  linalg.matmul ins(%a, %b : memref<300x512xbf16>, memref<512x1024xbf16>) outs(%c : memref<300x1024xf32>)
  return
}

// -----

// B stored N x K (matmul_transpose_b's layout) is a K-major slab: the two
// blocks share it as two boxes of half its rows each (tile-mbarrier-pipeline
// multicasts them), so the cluster is taken.
// CHECK-LABEL: func.func @transposed_b
// CHECK: tile.config = #tile.config<strategy = wgmma, {{.*}}cluster = [2, 1]
func.func @transposed_b(%a: memref<512x512xbf16>, %b: memref<1024x512xbf16>, %c: memref<512x1024xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<512x512xbf16>, memref<1024x512xbf16>) outs(%c : memref<512x1024xf32>)
  return
}

// -----

// An f32 matmul takes the fma strategy, which has no clusters: an error at
// the op, not a kernel without one.
// OFF-LABEL: func.func @f32
// OFF: tile.config = #tile.config<block
func.func @f32(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  // expected-error-re @+1 {{cannot use tile config #tile.config<{{.*}}>: a cluster (2x1) needs the wgmma strategy}}
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
