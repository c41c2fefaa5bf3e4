// Transposed B (stored N x K, nn.Linear's weight) for the wgmma tile-interp
// tests: the edge shapes of wgmma-edges.mlir and a few more (K and N each
// a multiple of 8 or not: the TMA reads B's stored rows of K in place, or
// through the repacked copy, or registers copy them).
func.func @one(%A: memref<1x1xbf16>, %B: memref<1x1xbf16>, %C: memref<1x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x1xbf16>, memref<1x1xbf16>) outs(%C : memref<1x1xf32>)
  return
}
func.func @primes(%A: memref<37x41xbf16>, %B: memref<29x41xbf16>, %C: memref<37x29xbf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<37x41xbf16>, memref<29x41xbf16>) outs(%C : memref<37x29xbf16>)
  return
}
func.func @kone(%A: memref<67x1xf16>, %B: memref<72x1xf16>, %C: memref<67x72xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<67x1xf16>, memref<72x1xf16>) outs(%C : memref<67x72xf32>)
  return
}
func.func @k72(%A: memref<65x72xbf16>, %B: memref<65x72xbf16>, %C: memref<65x65xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<65x72xbf16>, memref<65x72xbf16>) outs(%C : memref<65x65xf32>)
  return
}
func.func @column(%A: memref<19x24xbf16>, %B: memref<1x24xbf16>, %C: memref<19x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<19x24xbf16>, memref<1x24xbf16>) outs(%C : memref<19x1xf32>)
  return
}
func.func @aligned(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %C: memref<128x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<128x128xbf16>, memref<128x128xbf16>) outs(%C : memref<128x128xf32>)
  return
}
func.func @n_edge(%A: memref<64x64xf16>, %B: memref<200x64xf16>, %C: memref<64x200xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x64xf16>, memref<200x64xf16>) outs(%C : memref<64x200xf16>)
  return
}
func.func @k_odd(%A: memref<100x100xbf16>, %B: memref<64x100xbf16>, %C: memref<100x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<100x100xbf16>, memref<64x100xbf16>) outs(%C : memref<100x64xf32>)
  return
}
func.func @wide(%A: memref<64x64xbf16>, %B: memref<256x64xbf16>, %C: memref<64x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x64xbf16>, memref<256x64xbf16>) outs(%C : memref<64x256xf32>)
  return
}
func.func @tall(%A: memref<200x16xbf16>, %B: memref<8x16xbf16>, %C: memref<200x8xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<200x16xbf16>, memref<8x16xbf16>) outs(%C : memref<200x8xf32>)
  return
}
func.func @linear(%X: tensor<96x64xbf16>, %W: tensor<80x64xbf16>) -> tensor<96x80xf32> {
  %c = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<96x80xf32>
  %C = linalg.fill ins(%c : f32) outs(%empty : tensor<96x80xf32>) -> tensor<96x80xf32>
  %init = tensor.empty() : tensor<64x80xbf16>
  %WT = linalg.transpose ins(%W : tensor<80x64xbf16>) outs(%init : tensor<64x80xbf16>) permutation = [1, 0]
  %R = linalg.matmul ins(%X, %WT : tensor<96x64xbf16>, tensor<64x80xbf16>)
                     outs(%C : tensor<96x80xf32>) -> tensor<96x80xf32>
  return %R : tensor<96x80xf32>
}
