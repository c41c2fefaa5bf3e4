// Matmuls whose operands have dynamic offsets and strides (the kernels take
// them at launch): f32 (FMA), bf16 and f16 (wgmma, TMA in place), a bf16 C,
// batched with dynamic batch strides, B stored N x K, a batch of one (its
// dynamic batch stride never stepped), split-K, A and C of one row (their
// dynamic row strides never stepped).
func.func @dyn_f32(%a: memref<100x72xf32, strided<[?, 1], offset: ?>>, %b: memref<72x96xf32, strided<[?, 1], offset: ?>>,
                   %c: memref<100x96xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<100x72xf32, strided<[?, 1], offset: ?>>, memref<72x96xf32, strided<[?, 1], offset: ?>>)
                outs(%c : memref<100x96xf32, strided<[?, 1], offset: ?>>)
  return
}
func.func @dyn_bf16(%a: memref<130x136xbf16, strided<[?, 1], offset: ?>>, %b: memref<136x72xbf16, strided<[?, 1]>>,
                    %c: memref<130x72xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<130x136xbf16, strided<[?, 1], offset: ?>>, memref<136x72xbf16, strided<[?, 1]>>)
                outs(%c : memref<130x72xf32, strided<[?, 1], offset: ?>>)
  return
}
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dyn_batch(%a: memref<3x40x56xf32, strided<[?, ?, 1], offset: ?>>, %b: memref<3x56x48xf32, strided<[?, ?, 1]>>,
                     %c: memref<3x40x48xf32, strided<[?, ?, 1], offset: ?>>) {
  linalg.batch_matmul ins(%a, %b : memref<3x40x56xf32, strided<[?, ?, 1], offset: ?>>, memref<3x56x48xf32, strided<[?, ?, 1]>>)
                      outs(%c : memref<3x40x48xf32, strided<[?, ?, 1], offset: ?>>)
  return
}
func.func @dyn_linear(%a: memref<70x64xbf16, strided<[?, 1], offset: ?>>, %w: memref<96x64xbf16, strided<[?, 1], offset: ?>>,
                      %c: memref<70x96xbf16, strided<[?, 1], offset: ?>>) {
  linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c]
    ins(%a, %w : memref<70x64xbf16, strided<[?, 1], offset: ?>>, memref<96x64xbf16, strided<[?, 1], offset: ?>>)
    outs(%c : memref<70x96xbf16, strided<[?, 1], offset: ?>>)
  return
}
func.func @dyn_bbatch(%a: memref<2x130x72xf16, strided<[?, ?, 1], offset: ?>>, %b: memref<2x72x136xf16, strided<[?, ?, 1], offset: ?>>,
                      %c: memref<2x130x136xf32, strided<[?, ?, 1], offset: ?>>) {
  linalg.batch_matmul ins(%a, %b : memref<2x130x72xf16, strided<[?, ?, 1], offset: ?>>, memref<2x72x136xf16, strided<[?, ?, 1], offset: ?>>)
                      outs(%c : memref<2x130x136xf32, strided<[?, ?, 1], offset: ?>>)
  return
}
func.func @dyn_one(%a: memref<1x64x32xf32, strided<[?, ?, 1], offset: ?>>, %b: memref<1x32x64xf32>,
                   %c: memref<1x64x64xf32, strided<[?, ?, 1]>>) {
  linalg.batch_matmul ins(%a, %b : memref<1x64x32xf32, strided<[?, ?, 1], offset: ?>>, memref<1x32x64xf32>)
                      outs(%c : memref<1x64x64xf32, strided<[?, ?, 1]>>)
  return
}
func.func @dyn_splitk(%a: memref<32x4096xf32, strided<[?, 1], offset: ?>>, %b: memref<4096x32xf32, strided<[?, 1]>>,
                      %c: memref<32x32xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<32x4096xf32, strided<[?, 1], offset: ?>>, memref<4096x32xf32, strided<[?, 1]>>)
                outs(%c : memref<32x32xf32, strided<[?, 1], offset: ?>>)
  return
}
func.func @dyn_row(%a: memref<1x40xf32, strided<[?, 1], offset: ?>>, %b: memref<40x24xf32, strided<[?, 1]>>,
                   %c: memref<1x24xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<1x40xf32, strided<[?, 1], offset: ?>>, memref<40x24xf32, strided<[?, 1]>>)
                outs(%c : memref<1x24xf32, strided<[?, 1], offset: ?>>)
  return
}
