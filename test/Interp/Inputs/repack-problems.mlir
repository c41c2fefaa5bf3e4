// Problems whose B rows do not start on 16 bytes (N not a multiple of 4),
// for fma kernels with repack = true (B read from the runtime's copy with
// rows padded to 16 bytes). Neither extent is a multiple of a block tile.
//
// C += A*B on memrefs: N = 201 (rows of 804 bytes), K = 72.
func.func @acc_odd(%A: memref<260x72xf32>, %B: memref<72x201xf32>, %C: memref<260x201xf32>) {
  linalg.matmul ins(%A, %B : memref<260x72xf32>, memref<72x201xf32>)
                outs(%C : memref<260x201xf32>)
  return
}

// C = 0.5 + A*B: N = 299 (rows 4 bytes past 16), K = 37, a partial slice;
// the last vector of a B row holds one element of B and three of pad.
func.func @fill_odd(%A: tensor<150x37xf32>, %B: tensor<37x299xf32>) -> tensor<150x299xf32> {
  %half = arith.constant 0.5 : f32
  %empty = tensor.empty() : tensor<150x299xf32>
  %C = linalg.fill ins(%half : f32) outs(%empty : tensor<150x299xf32>) -> tensor<150x299xf32>
  %R = linalg.matmul ins(%A, %B : tensor<150x37xf32>, tensor<37x299xf32>)
                     outs(%C : tensor<150x299xf32>) -> tensor<150x299xf32>
  return %R : tensor<150x299xf32>
}

// A batch_matmul of one matrix: B is 1 x 72 x 133, repacked as its matrix 0.
func.func @batch_one(%A: memref<1x90x72xf32>, %B: memref<1x72x133xf32>, %C: memref<1x90x133xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1x90x72xf32>, memref<1x72x133xf32>)
                      outs(%C : memref<1x90x133xf32>)
  return
}
