func.func @b4096(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xf32>)
  return
}
