// Strided bf16 operands with overlapping rows, for wgmma-strided.mlir (not
// with its forced TMA on repacked copies, which these cannot take).
// A's rows overlap (row stride 60 below its 64 columns; A is only read): not
// on 16 bytes, so the TMA cannot read it in place, and the runtime cannot
// repack it: register copies. With a row stride of 56 (112 bytes) the TMA
// reads it in place.
func.func @wgmma_overlap(%A: memref<128x64xbf16, strided<[60, 1]>>, %B: memref<64x128xbf16>, %C: memref<128x128xf32>) {
  linalg.matmul ins(%A, %B : memref<128x64xbf16, strided<[60, 1]>>, memref<64x128xbf16>) outs(%C : memref<128x128xf32>)
  return
}
func.func @wgmma_overlap_in_place(%A: memref<128x64xbf16, strided<[56, 1]>>, %B: memref<64x128xbf16>, %C: memref<128x128xf32>) {
  linalg.matmul ins(%A, %B : memref<128x64xbf16, strided<[56, 1]>>, memref<64x128xbf16>) outs(%C : memref<128x128xf32>)
  return
}
