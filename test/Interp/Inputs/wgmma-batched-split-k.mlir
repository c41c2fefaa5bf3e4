// A batched bf16 matmul whose K the wgmma strategy may split (f32 C).
func.func @wb_split(%A: memref<2x40x300xbf16>, %B: memref<2x300x72xbf16>, %C: memref<2x40x72xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x40x300xbf16>, memref<2x300x72xbf16>) outs(%C : memref<2x40x72xf32>)
  return
}
