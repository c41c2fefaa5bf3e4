// Batched bf16/f16 matmuls for the tile-interp tests of the wgmma strategy:
// linalg.batch_matmul on memrefs (each matrix its own tiles; the batch on
// the grid's y, and the outer coordinate of the TMA's 3-d tensor maps): rows
// on 16 bytes (the TMA in place), a K that ends inside a slab (the box's
// rows past K must read as zero, not as the next matrix's first rows), rows
// off 16 bytes (repacked or copied through registers), B stored N x K, a
// fill form on tensors with f16 C, strided batches (matrices apart by more
// than their size, at an offset; matrices off 16 bytes, which the TMA
// cannot read in place) and a batch of one.
func.func @wb_aligned(%A: memref<3x128x64xbf16>, %B: memref<3x64x128xbf16>, %C: memref<3x128x128xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<3x128x64xbf16>, memref<3x64x128xbf16>) outs(%C : memref<3x128x128xf32>)
  return
}
func.func @wb_k_tail(%A: memref<2x64x40xbf16>, %B: memref<2x40x136xbf16>, %C: memref<2x64x136xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x64x40xbf16>, memref<2x40x136xbf16>) outs(%C : memref<2x64x136xf32>)
  return
}
func.func @wb_primes(%A: memref<3x37x23xbf16>, %B: memref<3x23x41xbf16>, %C: memref<3x37x41xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<3x37x23xbf16>, memref<3x23x41xbf16>) outs(%C : memref<3x37x41xf32>)
  return
}
func.func @wb_tb(%A: memref<2x100x40xf16>, %B: memref<2x72x40xf16>, %C: memref<2x100x72xf16>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x100x40xf16>, memref<2x72x40xf16>) outs(%C : memref<2x100x72xf16>)
  return
}
func.func @wb_fill(%A: tensor<2x70x48xf16>, %B: tensor<2x48x80xf16>) -> tensor<2x70x80xf16> {
  %zero = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<2x70x80xf16>
  %filled = linalg.fill ins(%zero : f16) outs(%init : tensor<2x70x80xf16>) -> tensor<2x70x80xf16>
  %C = linalg.batch_matmul ins(%A, %B : tensor<2x70x48xf16>, tensor<2x48x80xf16>) outs(%filled : tensor<2x70x80xf16>) -> tensor<2x70x80xf16>
  return %C : tensor<2x70x80xf16>
}
func.func @wb_strided(%A: memref<2x65x72xbf16, strided<[5008, 80, 1], offset: 16>>, %B: memref<2x72x64xbf16, strided<[4800, 64, 1], offset: 8>>, %C: memref<2x65x64xf32, strided<[4400, 66, 1], offset: 2>>) {
  linalg.batch_matmul ins(%A, %B : memref<2x65x72xbf16, strided<[5008, 80, 1], offset: 16>>, memref<2x72x64xbf16, strided<[4800, 64, 1], offset: 8>>) outs(%C : memref<2x65x64xf32, strided<[4400, 66, 1], offset: 2>>)
  return
}
func.func @wb_single(%A: memref<1x70x64xbf16>, %B: memref<1x64x72xbf16>, %C: memref<1x70x72xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1x70x64xbf16>, memref<1x64x72xbf16>) outs(%C : memref<1x70x72xf32>)
  return
}
func.func @wb_batch_stride_off(%A: memref<3x64x64xbf16, strided<[4099, 64, 1]>>, %B: memref<3x64x64xbf16>, %C: memref<3x64x64xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<3x64x64xbf16, strided<[4099, 64, 1]>>, memref<3x64x64xbf16>) outs(%C : memref<3x64x64xf32>)
  return
}
