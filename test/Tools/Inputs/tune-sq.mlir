func.func @sq(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>)
                outs(%C : memref<256x256xf32>)
  return
}
