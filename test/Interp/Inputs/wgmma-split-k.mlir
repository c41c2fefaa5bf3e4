// Problems for the wgmma split-K tile-interp tests: f32 C (split-K adds f32
// partial products into C atomically), no dimension a multiple of a block
// tile, and K long enough that every split has several slabs, the last
// split fewer than the others and ending in a partial slab.
//
// C += A*B, bf16 inputs: K = 520 is 9 slabs of 64 (the last 8 deep); with
// split_k = 4 the chunks are 3 slabs (192), so 3 splits: 192, 192, 136.
func.func @acc(%A: memref<70x520xbf16>, %B: memref<520x72xbf16>, %C: memref<70x72xf32>) {
  linalg.matmul ins(%A, %B : memref<70x520xbf16>, memref<520x72xbf16>)
                outs(%C : memref<70x72xf32>)
  return
}

// C = 0.25 + A*B in the tensor form, f16 inputs, f32 C: the fill stays on
// the host under split-K, the kernel accumulates. K = 328: 6 slabs (the
// last 8 deep).
func.func @fill(%A: tensor<45x328xf16>, %B: tensor<328x40xf16>) -> tensor<45x40xf32> {
  %quarter = arith.constant 0.25 : f32
  %empty = tensor.empty() : tensor<45x40xf32>
  %C = linalg.fill ins(%quarter : f32) outs(%empty : tensor<45x40xf32>) -> tensor<45x40xf32>
  %R = linalg.matmul ins(%A, %B : tensor<45x328xf16>, tensor<328x40xf16>)
                     outs(%C : tensor<45x40xf32>) -> tensor<45x40xf32>
  return %R : tensor<45x40xf32>
}

// Odd N and K (rows the TMA cannot copy in place): copies through
// registers. K = 301: 5 slabs, the last 45 deep.
func.func @odd(%A: memref<33x301xbf16>, %B: memref<301x37xbf16>, %C: memref<33x37xf32>) {
  linalg.matmul ins(%A, %B : memref<33x301xbf16>, memref<301x37xbf16>)
                outs(%C : memref<33x37xf32>)
  return
}
