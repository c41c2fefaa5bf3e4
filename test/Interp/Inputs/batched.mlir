// Batched matmuls for the tile-interp tests: linalg.batch_matmul on memrefs
// over edge shapes (each matrix its own tiles; the batch on the grid's y),
// with B stored N x K, A stored K x M and both, a fill form on tensors, a
// linalg.generic batched contraction, and a function with a plain matmul
// after a batched one (kernel names count both).
func.func @b_one(%A: memref<2x1x1xf32>, %B: memref<2x1x1xf32>, %C: memref<2x1x1xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x1x1xf32>, memref<2x1x1xf32>) outs(%C : memref<2x1x1xf32>)
  return
}
func.func @tb_b_one(%A: memref<2x1x1xf32>, %B: memref<2x1x1xf32>, %C: memref<2x1x1xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x1x1xf32>, memref<2x1x1xf32>) outs(%C : memref<2x1x1xf32>)
  return
}
func.func @ta_b_one(%A: memref<2x1x1xf32>, %B: memref<2x1x1xf32>, %C: memref<2x1x1xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x1x1xf32>, memref<2x1x1xf32>) outs(%C : memref<2x1x1xf32>)
  return
}
func.func @tab_b_one(%A: memref<2x1x1xf32>, %B: memref<2x1x1xf32>, %C: memref<2x1x1xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x1x1xf32>, memref<2x1x1xf32>) outs(%C : memref<2x1x1xf32>)
  return
}
func.func @b_primes(%A: memref<3x37x23xf32>, %B: memref<3x23x41xf32>, %C: memref<3x37x41xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<3x37x23xf32>, memref<3x23x41xf32>) outs(%C : memref<3x37x41xf32>)
  return
}
func.func @tb_b_primes(%A: memref<3x37x23xf32>, %B: memref<3x41x23xf32>, %C: memref<3x37x41xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x37x23xf32>, memref<3x41x23xf32>) outs(%C : memref<3x37x41xf32>)
  return
}
func.func @ta_b_primes(%A: memref<3x23x37xf32>, %B: memref<3x23x41xf32>, %C: memref<3x37x41xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x23x37xf32>, memref<3x23x41xf32>) outs(%C : memref<3x37x41xf32>)
  return
}
func.func @tab_b_primes(%A: memref<3x23x37xf32>, %B: memref<3x41x23xf32>, %C: memref<3x37x41xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x23x37xf32>, memref<3x41x23xf32>) outs(%C : memref<3x37x41xf32>)
  return
}
func.func @b_k_short(%A: memref<2x33x3xf32>, %B: memref<2x3x65xf32>, %C: memref<2x33x65xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x33x3xf32>, memref<2x3x65xf32>) outs(%C : memref<2x33x65xf32>)
  return
}
func.func @tb_b_k_short(%A: memref<2x33x3xf32>, %B: memref<2x65x3xf32>, %C: memref<2x33x65xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x33x3xf32>, memref<2x65x3xf32>) outs(%C : memref<2x33x65xf32>)
  return
}
func.func @ta_b_k_short(%A: memref<2x3x33xf32>, %B: memref<2x3x65xf32>, %C: memref<2x33x65xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x3x33xf32>, memref<2x3x65xf32>) outs(%C : memref<2x33x65xf32>)
  return
}
func.func @tab_b_k_short(%A: memref<2x3x33xf32>, %B: memref<2x65x3xf32>, %C: memref<2x33x65xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x3x33xf32>, memref<2x65x3xf32>) outs(%C : memref<2x33x65xf32>)
  return
}
func.func @b_aligned(%A: memref<4x64x32xf32>, %B: memref<4x32x128xf32>, %C: memref<4x64x128xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<4x64x32xf32>, memref<4x32x128xf32>) outs(%C : memref<4x64x128xf32>)
  return
}
func.func @tb_b_aligned(%A: memref<4x64x32xf32>, %B: memref<4x128x32xf32>, %C: memref<4x64x128xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<4x64x32xf32>, memref<4x128x32xf32>) outs(%C : memref<4x64x128xf32>)
  return
}
func.func @ta_b_aligned(%A: memref<4x32x64xf32>, %B: memref<4x32x128xf32>, %C: memref<4x64x128xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<4x32x64xf32>, memref<4x32x128xf32>) outs(%C : memref<4x64x128xf32>)
  return
}
func.func @tab_b_aligned(%A: memref<4x32x64xf32>, %B: memref<4x128x32xf32>, %C: memref<4x64x128xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<4x32x64xf32>, memref<4x128x32xf32>) outs(%C : memref<4x64x128xf32>)
  return
}
func.func @b_odd_k(%A: memref<2x64x37xf32>, %B: memref<2x37x64xf32>, %C: memref<2x64x64xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x64x37xf32>, memref<2x37x64xf32>) outs(%C : memref<2x64x64xf32>)
  return
}
func.func @tb_b_odd_k(%A: memref<2x64x37xf32>, %B: memref<2x64x37xf32>, %C: memref<2x64x64xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x64x37xf32>, memref<2x64x37xf32>) outs(%C : memref<2x64x64xf32>)
  return
}
func.func @ta_b_odd_k(%A: memref<2x37x64xf32>, %B: memref<2x37x64xf32>, %C: memref<2x64x64xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x37x64xf32>, memref<2x37x64xf32>) outs(%C : memref<2x64x64xf32>)
  return
}
func.func @tab_b_odd_k(%A: memref<2x37x64xf32>, %B: memref<2x64x37xf32>, %C: memref<2x64x64xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<2x37x64xf32>, memref<2x64x37xf32>) outs(%C : memref<2x64x64xf32>)
  return
}
func.func @b_row(%A: memref<5x1x17xf32>, %B: memref<5x17x45xf32>, %C: memref<5x1x45xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<5x1x17xf32>, memref<5x17x45xf32>) outs(%C : memref<5x1x45xf32>)
  return
}
func.func @tb_b_row(%A: memref<5x1x17xf32>, %B: memref<5x45x17xf32>, %C: memref<5x1x45xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<5x1x17xf32>, memref<5x45x17xf32>) outs(%C : memref<5x1x45xf32>)
  return
}
func.func @ta_b_row(%A: memref<5x17x1xf32>, %B: memref<5x17x45xf32>, %C: memref<5x1x45xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<5x17x1xf32>, memref<5x17x45xf32>) outs(%C : memref<5x1x45xf32>)
  return
}
func.func @tab_b_row(%A: memref<5x17x1xf32>, %B: memref<5x45x17xf32>, %C: memref<5x1x45xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<5x17x1xf32>, memref<5x45x17xf32>) outs(%C : memref<5x1x45xf32>)
  return
}
func.func @b_column(%A: memref<3x67x20xf32>, %B: memref<3x20x1xf32>, %C: memref<3x67x1xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<3x67x20xf32>, memref<3x20x1xf32>) outs(%C : memref<3x67x1xf32>)
  return
}
func.func @tb_b_column(%A: memref<3x67x20xf32>, %B: memref<3x1x20xf32>, %C: memref<3x67x1xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x67x20xf32>, memref<3x1x20xf32>) outs(%C : memref<3x67x1xf32>)
  return
}
func.func @ta_b_column(%A: memref<3x20x67xf32>, %B: memref<3x20x1xf32>, %C: memref<3x67x1xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x20x67xf32>, memref<3x20x1xf32>) outs(%C : memref<3x67x1xf32>)
  return
}
func.func @tab_b_column(%A: memref<3x20x67xf32>, %B: memref<3x1x20xf32>, %C: memref<3x67x1xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x20x67xf32>, memref<3x1x20xf32>) outs(%C : memref<3x67x1xf32>)
  return
}
func.func @b_fill(%A: tensor<3x50x20xf32>, %B: tensor<3x20x70xf32>) -> tensor<3x50x70xf32> {
  %zero = arith.constant 0.5 : f32
  %empty = tensor.empty() : tensor<3x50x70xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x50x70xf32>) -> tensor<3x50x70xf32>
  %R = linalg.batch_matmul ins(%A, %B : tensor<3x50x20xf32>, tensor<3x20x70xf32>) outs(%C : tensor<3x50x70xf32>) -> tensor<3x50x70xf32>
  return %R : tensor<3x50x70xf32>
}
func.func @b_generic(%A: memref<2x30x19xf32>, %B: memref<2x40x19xf32>, %C: memref<2x30x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<2x30x19xf32>, memref<2x40x19xf32>) outs(%C : memref<2x30x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @b_mixed(%A: memref<2x20x30xf32>, %B: memref<2x30x10xf32>, %C: memref<2x20x10xf32>,
                   %X: memref<20x30xf32>, %Y: memref<30x10xf32>, %Z: memref<20x10xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x20x30xf32>, memref<2x30x10xf32>) outs(%C : memref<2x20x10xf32>)
  linalg.matmul ins(%X, %Y : memref<20x30xf32>, memref<30x10xf32>) outs(%Z : memref<20x10xf32>)
  return
}
func.func @b_single(%A: memref<1x20x30xf32>, %B: memref<1x30x10xf32>, %C: memref<1x20x10xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1x20x30xf32>, memref<1x30x10xf32>) outs(%C : memref<1x20x10xf32>)
  return
}
