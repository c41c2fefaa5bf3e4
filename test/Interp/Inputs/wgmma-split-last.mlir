// Problems for the split_last tile-interp tests: several tile rows and
// columns (so that some tiles are computed whole and the last ones split),
// no dimension a multiple of a block tile, f32 C.
//
// C += A*B, bf16: in 64x128 tiles 4 x 3 = 12 tiles; K = 520 is 9 slabs of
// 64 (the last 8 deep).
func.func @acc(%A: memref<200x520xbf16>, %B: memref<520x300xbf16>, %C: memref<200x300xf32>) {
  linalg.matmul ins(%A, %B : memref<200x520xbf16>, memref<520x300xbf16>)
                outs(%C : memref<200x300xf32>)
  return
}

// C = 0.25 + A*B in the tensor form, f16: the fill stays on the host under
// split-K. 3 x 2 = 6 tiles of 64x128, K = 328: 6 slabs.
func.func @fill(%A: tensor<150x328xf16>, %B: tensor<328x200xf16>) -> tensor<150x200xf32> {
  %quarter = arith.constant 0.25 : f32
  %empty = tensor.empty() : tensor<150x200xf32>
  %C = linalg.fill ins(%quarter : f32) outs(%empty : tensor<150x200xf32>) -> tensor<150x200xf32>
  %R = linalg.matmul ins(%A, %B : tensor<150x328xf16>, tensor<328x200xf16>)
                     outs(%C : tensor<150x200xf32>) -> tensor<150x200xf32>
  return %R : tensor<150x200xf32>
}

// A batch of 2, bf16: each matrix 2 x 2 = 4 tiles of 64x128 and its own
// last tiles split. K = 301 (rows off 16 bytes: repacked), 5 slabs.
func.func @batched(%A: memref<2x100x301xbf16>, %B: memref<2x301x160xbf16>, %C: memref<2x100x160xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x100x301xbf16>, memref<2x301x160xbf16>)
                      outs(%C : memref<2x100x160xf32>)
  return
}
