// Transposed A (stored K x M) for the wgmma tile-interp tests: shapes with
// M a multiple of 8 or not (the TMA reads A's stored rows of M in place, or
// through the repacked copy, or registers copy them), edges in M, N and K,
// both operands transposed, a linalg.transpose on tensors, a generic
// contraction and a batched matmul.
func.func @one(%A: memref<1x1xbf16>, %B: memref<1x1xbf16>, %C: memref<1x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x1xbf16>, memref<1x1xbf16>) outs(%C : memref<1x1xf32>)
  return
}
func.func @primes(%A: memref<41x37xbf16>, %B: memref<41x29xbf16>, %C: memref<37x29xbf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<41x37xbf16>, memref<41x29xbf16>) outs(%C : memref<37x29xbf16>)
  return
}
func.func @kone(%A: memref<1x67xf16>, %B: memref<1x72xf16>, %C: memref<67x72xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x67xf16>, memref<1x72xf16>) outs(%C : memref<67x72xf32>)
  return
}
func.func @m_edge(%A: memref<64x200xbf16>, %B: memref<64x64xbf16>, %C: memref<200x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x200xbf16>, memref<64x64xbf16>) outs(%C : memref<200x64xf32>)
  return
}
func.func @aligned(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %C: memref<128x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<128x128xbf16>, memref<128x128xbf16>) outs(%C : memref<128x128xf32>)
  return
}
func.func @k_odd(%A: memref<100x100xbf16>, %B: memref<100x64xbf16>, %C: memref<100x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<100x100xbf16>, memref<100x64xbf16>) outs(%C : memref<100x64xf32>)
  return
}
func.func @wide(%A: memref<64x64xf16>, %B: memref<64x256xf16>, %C: memref<64x256xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x64xf16>, memref<64x256xf16>) outs(%C : memref<64x256xf16>)
  return
}
func.func @tall(%A: memref<16x264xbf16>, %B: memref<16x8xbf16>, %C: memref<264x8xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<16x264xbf16>, memref<16x8xbf16>) outs(%C : memref<264x8xf32>)
  return
}
func.func @both(%A: memref<72x96xbf16>, %B: memref<80x72xbf16>, %C: memref<96x80xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<72x96xbf16>, memref<80x72xbf16>) outs(%C : memref<96x80xf32>)
  return
}
func.func @folded(%AT: tensor<40x72xbf16>, %B: tensor<40x64xbf16>) -> tensor<72x64xf32> {
  %c = arith.constant 0.5 : f32
  %empty = tensor.empty() : tensor<72x64xf32>
  %C = linalg.fill ins(%c : f32) outs(%empty : tensor<72x64xf32>) -> tensor<72x64xf32>
  %init = tensor.empty() : tensor<72x40xbf16>
  %A = linalg.transpose ins(%AT : tensor<40x72xbf16>) outs(%init : tensor<72x40xbf16>) permutation = [1, 0]
  %R = linalg.matmul ins(%A, %B : tensor<72x40xbf16>, tensor<40x64xbf16>)
                     outs(%C : tensor<72x64xf32>) -> tensor<72x64xf32>
  return %R : tensor<72x64xf32>
}
func.func @generic(%A: memref<48x136xf16>, %B: memref<48x24xf16>, %C: memref<136x24xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%A, %B : memref<48x136xf16>, memref<48x24xf16>) outs(%C : memref<136x24xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @batched(%A: memref<3x56x80xbf16>, %B: memref<3x56x72xbf16>, %C: memref<3x80x72xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x56x80xbf16>, memref<3x56x72xbf16>) outs(%C : memref<3x80x72xf32>)
  return
}
