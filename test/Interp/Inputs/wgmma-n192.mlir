// Problems for 192-column blocks (three 64-column chunks of B): N = 400 and
// 392 take three tile columns, two whole ones and a last one of 16 and 8
// columns; M = 130 a 128-row tile and a part, 70 one partial tile.
//
// C += A*B, bf16 inputs, f32 C; rows of K = 72 and N = 400 on 16 bytes.
func.func @acc(%A: memref<130x72xbf16>, %B: memref<72x400xbf16>, %C: memref<130x400xf32>) {
  linalg.matmul ins(%A, %B : memref<130x72xbf16>, memref<72x400xbf16>)
                outs(%C : memref<130x400xf32>)
  return
}

// C = 0.25 + A*B^T, f16, B stored N x K (392 x 136), f16 C; rows on
// 16 bytes (K = 136, N = 392), so the TMA reads and stores in place.
func.func @fill_nt(%A: tensor<70x136xf16>, %B: tensor<392x136xf16>) -> tensor<70x392xf16> {
  %q = arith.constant 0.25 : f16
  %empty = tensor.empty() : tensor<70x392xf16>
  %C = linalg.fill ins(%q : f16) outs(%empty : tensor<70x392xf16>) -> tensor<70x392xf16>
  %R = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
                     ins(%A, %B : tensor<70x136xf16>, tensor<392x136xf16>)
                     outs(%C : tensor<70x392xf16>) -> tensor<70x392xf16>
  return %R : tensor<70x392xf16>
}
