// Problems for the tile-interp tests: neither has a dimension that is a
// multiple of any block tile, so every kernel has partial tiles in M and N,
// several tile rows and columns, and several K slices.
//
// C += A*B on memrefs (c_init = "accumulate"): K = 72, a multiple of 4 and 8
// but not of 16; M and N multiples of 4 (16-byte global vectors).
func.func @acc(%A: memref<260x72xf32>, %B: memref<72x200xf32>, %C: memref<260x200xf32>) {
  linalg.matmul ins(%A, %B : memref<260x72xf32>, memref<72x200xf32>)
                outs(%C : memref<260x200xf32>)
  return
}

// C = 0.5 + A*B in the tensor form (c_init = "fill"): odd sizes, so the
// global accesses are single elements and K ends in a partial slice.
func.func @fill(%A: tensor<150x37xf32>, %B: tensor<37x299xf32>) -> tensor<150x299xf32> {
  %half = arith.constant 0.5 : f32
  %empty = tensor.empty() : tensor<150x299xf32>
  %C = linalg.fill ins(%half : f32) outs(%empty : tensor<150x299xf32>) -> tensor<150x299xf32>
  %R = linalg.matmul ins(%A, %B : tensor<150x37xf32>, tensor<37x299xf32>)
                     outs(%C : tensor<150x299xf32>) -> tensor<150x299xf32>
  return %R : tensor<150x299xf32>
}
