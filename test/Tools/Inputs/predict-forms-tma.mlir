// Batched operands stored transposed with one stored column (A stored K x M
// with M = 1, B stored N x K with K = 1: both strides 1 in the manifest),
// compiled with copy=tma repack=true (tile-tune.test).
func.func @tA_m1_f16_batch(%A: memref<8x1024x1xf16>, %B: memref<8x1024x1024xf16>, %C: memref<8x1x1024xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%A, %B : memref<8x1024x1xf16>, memref<8x1024x1024xf16>) outs(%C : memref<8x1x1024xf32>)
  return
}
func.func @tB_k1_bf16_batch(%A: memref<16x512x1xbf16>, %B: memref<16x512x1xbf16>, %C: memref<16x512x512xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%A, %B : memref<16x512x1xbf16>, memref<16x512x1xbf16>) outs(%C : memref<16x512x512xf32>)
  return
}
