// Problems for the wgmma tile-interp tests. None has a dimension that is a
// multiple of a block tile, so every kernel has partial tiles, and K ends in
// a partial 64-deep slab. Both can be copied by the TMA (Inputs/
// wgmma-edges.mlir has shapes that cannot).
//
// C += A*B, bf16 inputs, f32 C (c_init = "accumulate"): rows of K = 136 and
// N = 72 bf16 are multiples of 16 bytes, so the TMA can copy them; 3 slabs.
func.func @acc(%A: memref<70x136xbf16>, %B: memref<136x72xbf16>, %C: memref<70x72xf32>) {
  linalg.matmul ins(%A, %B : memref<70x136xbf16>, memref<136x72xbf16>)
                outs(%C : memref<70x72xf32>)
  return
}

// C = 0.5 + A*B in the tensor form (c_init = "fill"), f16 inputs and C:
// TMA-able rows again (K = 72, N = 40), 2 slabs.
func.func @fill(%A: tensor<45x72xf16>, %B: tensor<72x40xf16>) -> tensor<45x40xf16> {
  %half = arith.constant 0.5 : f16
  %empty = tensor.empty() : tensor<45x40xf16>
  %C = linalg.fill ins(%half : f16) outs(%empty : tensor<45x40xf16>) -> tensor<45x40xf16>
  %R = linalg.matmul ins(%A, %B : tensor<45x72xf16>, tensor<72x40xf16>)
                     outs(%C : tensor<45x40xf16>) -> tensor<45x40xf16>
  return %R : tensor<45x40xf16>
}
