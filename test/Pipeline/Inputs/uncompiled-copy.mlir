// For no-matmul.mlir: a matmul, and a copy that is not compiled.

func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>)
  return
}

func.func @copy(%a: memref<64x48xf32>, %c: memref<64x48xf32>) {
  // expected-warning @+1 {{'linalg.copy' is not compiled}}
  linalg.copy ins(%a : memref<64x48xf32>) outs(%c : memref<64x48xf32>)
  return
}
