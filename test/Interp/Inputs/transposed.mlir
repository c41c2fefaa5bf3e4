// Transposed operands for the tile-interp tests: each shape of edges.mlir
// and a few more, with B stored N x K (nn.Linear's weight), A stored K x M,
// and both; the f32 fill form through the tensor path's linalg.transpose.
func.func @tb_one(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}
func.func @ta_one(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}
func.func @tab_one(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}
func.func @tb_primes(%A: memref<37x23xf32>, %B: memref<41x23xf32>, %C: memref<37x41xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<37x23xf32>, memref<41x23xf32>) outs(%C : memref<37x41xf32>)
  return
}
func.func @ta_primes(%A: memref<23x37xf32>, %B: memref<23x41xf32>, %C: memref<37x41xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<23x37xf32>, memref<23x41xf32>) outs(%C : memref<37x41xf32>)
  return
}
func.func @tab_primes(%A: memref<23x37xf32>, %B: memref<41x23xf32>, %C: memref<37x41xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<23x37xf32>, memref<41x23xf32>) outs(%C : memref<37x41xf32>)
  return
}
func.func @tb_k_short(%A: memref<33x3xf32>, %B: memref<65x3xf32>, %C: memref<33x65xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<33x3xf32>, memref<65x3xf32>) outs(%C : memref<33x65xf32>)
  return
}
func.func @ta_k_short(%A: memref<3x33xf32>, %B: memref<3x65xf32>, %C: memref<33x65xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<3x33xf32>, memref<3x65xf32>) outs(%C : memref<33x65xf32>)
  return
}
func.func @tab_k_short(%A: memref<3x33xf32>, %B: memref<65x3xf32>, %C: memref<33x65xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<3x33xf32>, memref<65x3xf32>) outs(%C : memref<33x65xf32>)
  return
}
func.func @tb_k_one(%A: memref<130x1xf32>, %B: memref<70x1xf32>, %C: memref<130x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<130x1xf32>, memref<70x1xf32>) outs(%C : memref<130x70xf32>)
  return
}
func.func @ta_k_one(%A: memref<1x130xf32>, %B: memref<1x70xf32>, %C: memref<130x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x130xf32>, memref<1x70xf32>) outs(%C : memref<130x70xf32>)
  return
}
func.func @tab_k_one(%A: memref<1x130xf32>, %B: memref<70x1xf32>, %C: memref<130x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x130xf32>, memref<70x1xf32>) outs(%C : memref<130x70xf32>)
  return
}
func.func @tb_column(%A: memref<67x20xf32>, %B: memref<1x20xf32>, %C: memref<67x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<67x20xf32>, memref<1x20xf32>) outs(%C : memref<67x1xf32>)
  return
}
func.func @ta_column(%A: memref<20x67xf32>, %B: memref<20x1xf32>, %C: memref<67x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<20x67xf32>, memref<20x1xf32>) outs(%C : memref<67x1xf32>)
  return
}
func.func @tab_column(%A: memref<20x67xf32>, %B: memref<1x20xf32>, %C: memref<67x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<20x67xf32>, memref<1x20xf32>) outs(%C : memref<67x1xf32>)
  return
}
func.func @tb_aligned(%A: memref<64x32xf32>, %B: memref<128x32xf32>, %C: memref<64x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x32xf32>, memref<128x32xf32>) outs(%C : memref<64x128xf32>)
  return
}
func.func @ta_aligned(%A: memref<32x64xf32>, %B: memref<32x128xf32>, %C: memref<64x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<32x64xf32>, memref<32x128xf32>) outs(%C : memref<64x128xf32>)
  return
}
func.func @tab_aligned(%A: memref<32x64xf32>, %B: memref<128x32xf32>, %C: memref<64x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<32x64xf32>, memref<128x32xf32>) outs(%C : memref<64x128xf32>)
  return
}
func.func @tb_odd_k(%A: memref<64x37xf32>, %B: memref<64x37xf32>, %C: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x37xf32>, memref<64x37xf32>) outs(%C : memref<64x64xf32>)
  return
}
func.func @ta_odd_k(%A: memref<37x64xf32>, %B: memref<37x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<37x64xf32>, memref<37x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
func.func @tab_odd_k(%A: memref<37x64xf32>, %B: memref<64x37xf32>, %C: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<37x64xf32>, memref<64x37xf32>) outs(%C : memref<64x64xf32>)
  return
}
func.func @tb_row(%A: memref<1x17xf32>, %B: memref<45x17xf32>, %C: memref<1x45xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x17xf32>, memref<45x17xf32>) outs(%C : memref<1x45xf32>)
  return
}
func.func @ta_row(%A: memref<17x1xf32>, %B: memref<17x45xf32>, %C: memref<1x45xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<17x1xf32>, memref<17x45xf32>) outs(%C : memref<1x45xf32>)
  return
}
func.func @tab_row(%A: memref<17x1xf32>, %B: memref<45x17xf32>, %C: memref<1x45xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<17x1xf32>, memref<45x17xf32>) outs(%C : memref<1x45xf32>)
  return
}
func.func @tb_wide(%A: memref<20x9xf32>, %B: memref<200x9xf32>, %C: memref<20x200xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<20x9xf32>, memref<200x9xf32>) outs(%C : memref<20x200xf32>)
  return
}
func.func @ta_wide(%A: memref<9x20xf32>, %B: memref<9x200xf32>, %C: memref<20x200xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<9x20xf32>, memref<9x200xf32>) outs(%C : memref<20x200xf32>)
  return
}
func.func @tab_wide(%A: memref<9x20xf32>, %B: memref<200x9xf32>, %C: memref<20x200xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<9x20xf32>, memref<200x9xf32>) outs(%C : memref<20x200xf32>)
  return
}
func.func @tb_m_edge(%A: memref<130x16xf32>, %B: memref<64x16xf32>, %C: memref<130x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<130x16xf32>, memref<64x16xf32>) outs(%C : memref<130x64xf32>)
  return
}
func.func @ta_m_edge(%A: memref<16x130xf32>, %B: memref<16x64xf32>, %C: memref<130x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<16x130xf32>, memref<16x64xf32>) outs(%C : memref<130x64xf32>)
  return
}
func.func @tab_m_edge(%A: memref<16x130xf32>, %B: memref<64x16xf32>, %C: memref<130x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<16x130xf32>, memref<64x16xf32>) outs(%C : memref<130x64xf32>)
  return
}
func.func @linear_fill(%X: tensor<29x19xf32>, %W: tensor<31x19xf32>) -> tensor<29x31xf32> {
  %c = arith.constant 0.5 : f32
  %empty = tensor.empty() : tensor<29x31xf32>
  %C = linalg.fill ins(%c : f32) outs(%empty : tensor<29x31xf32>) -> tensor<29x31xf32>
  %init = tensor.empty() : tensor<19x31xf32>
  %WT = linalg.transpose ins(%W : tensor<31x19xf32>) outs(%init : tensor<19x31xf32>) permutation = [1, 0]
  %R = linalg.matmul ins(%X, %WT : tensor<29x19xf32>, tensor<19x31xf32>)
                     outs(%C : tensor<29x31xf32>) -> tensor<29x31xf32>
  return %R : tensor<29x31xf32>
}
