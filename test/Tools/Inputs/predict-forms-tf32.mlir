// B stored N x K with a dynamic stride, on the tensor cores as TF32
// (tile-tune.test).
func.func @tf32_dynB(%A: memref<2048x1024xf32>, %B: memref<2048x1024xf32, strided<[?, 1], offset: ?>>, %C: memref<2048x2048xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<2048x1024xf32>, memref<2048x1024xf32, strided<[?, 1], offset: ?>>) outs(%C : memref<2048x2048xf32>)
  return
}
