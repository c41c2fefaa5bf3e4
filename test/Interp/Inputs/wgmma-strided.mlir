// Strided bf16/f16 operands for the tile-interp tests of the wgmma
// strategy: offsets and strides on 16 bytes (the TMA reads in place),
// others (repacked copies, or register copies), a 16-bit C at an odd offset
// (single-element stores), B stored N x K.
func.func @wgmma_tma(%A: memref<130x72xbf16, strided<[80, 1], offset: 16>>, %B: memref<72x136xbf16, strided<[144, 1], offset: 8>>, %C: memref<130x136xf32, strided<[140, 1], offset: 4>>) {
  linalg.matmul ins(%A, %B : memref<130x72xbf16, strided<[80, 1], offset: 16>>, memref<72x136xbf16, strided<[144, 1], offset: 8>>) outs(%C : memref<130x136xf32, strided<[140, 1], offset: 4>>)
  return
}
func.func @wgmma_repack(%A: memref<130x72xbf16, strided<[76, 1], offset: 3>>, %B: memref<72x136xbf16, strided<[139, 1], offset: 8>>, %C: memref<130x136xbf16, strided<[137, 1], offset: 1>>) {
  linalg.matmul ins(%A, %B : memref<130x72xbf16, strided<[76, 1], offset: 3>>, memref<72x136xbf16, strided<[139, 1], offset: 8>>) outs(%C : memref<130x136xbf16, strided<[137, 1], offset: 1>>)
  return
}
func.func @wgmma_offset_only(%A: memref<65x64xf16, strided<[64, 1], offset: 4>>, %B: memref<64x70xf16, strided<[72, 1]>>, %C: memref<65x70xf16, strided<[70, 1]>>) {
  linalg.matmul ins(%A, %B : memref<65x64xf16, strided<[64, 1], offset: 4>>, memref<64x70xf16, strided<[72, 1]>>) outs(%C : memref<65x70xf16, strided<[70, 1]>>)
  return
}
func.func @wgmma_tb(%A: memref<100x40xbf16, strided<[48, 1], offset: 8>>, %B: memref<72x40xbf16, strided<[41, 1], offset: 2>>, %C: memref<100x72xf32, strided<[73, 1], offset: 3>>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<100x40xbf16, strided<[48, 1], offset: 8>>, memref<72x40xbf16, strided<[41, 1], offset: 2>>) outs(%C : memref<100x72xf32, strided<[73, 1], offset: 3>>)
  return
}
// A layout spelled as an affine map: the kernel's parameter and the host's
// tensor map both take it cast to strided<[72, 1], offset: 8>.
func.func @wgmma_affine(%A: memref<128x64xbf16, affine_map<(d0, d1) -> (d0 * 72 + d1 + 8)>>, %B: memref<64x128xbf16>, %C: memref<128x128xf32>) {
  linalg.matmul ins(%A, %B : memref<128x64xbf16, affine_map<(d0, d1) -> (d0 * 72 + d1 + 8)>>, memref<64x128xbf16>) outs(%C : memref<128x128xf32>)
  return
}
