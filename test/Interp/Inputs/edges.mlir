// Edge shapes for the tile-interp tests: one element, primes, K shorter than
// a slice, K = 1, M and N smaller than a block tile, a single column.
func.func @one(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}
func.func @primes(%A: memref<37x23xf32>, %B: memref<23x41xf32>, %C: memref<37x41xf32>) {
  linalg.matmul ins(%A, %B : memref<37x23xf32>, memref<23x41xf32>) outs(%C : memref<37x41xf32>)
  return
}
func.func @k_short(%A: memref<33x3xf32>, %B: memref<3x65xf32>, %C: memref<33x65xf32>) {
  linalg.matmul ins(%A, %B : memref<33x3xf32>, memref<3x65xf32>) outs(%C : memref<33x65xf32>)
  return
}
func.func @k_one(%A: memref<130x1xf32>, %B: memref<1x70xf32>, %C: memref<130x70xf32>) {
  linalg.matmul ins(%A, %B : memref<130x1xf32>, memref<1x70xf32>) outs(%C : memref<130x70xf32>)
  return
}
func.func @column(%A: memref<67x20xf32>, %B: memref<20x1xf32>, %C: memref<67x1xf32>) {
  linalg.matmul ins(%A, %B : memref<67x20xf32>, memref<20x1xf32>) outs(%C : memref<67x1xf32>)
  return
}
func.func @fill_primes(%A: tensor<29x19xf32>, %B: tensor<19x31xf32>) -> tensor<29x31xf32> {
  %c = arith.constant -1.25 : f32
  %empty = tensor.empty() : tensor<29x31xf32>
  %C = linalg.fill ins(%c : f32) outs(%empty : tensor<29x31xf32>) -> tensor<29x31xf32>
  %R = linalg.matmul ins(%A, %B : tensor<29x19xf32>, tensor<19x31xf32>)
                     outs(%C : tensor<29x31xf32>) -> tensor<29x31xf32>
  return %R : tensor<29x31xf32>
}
