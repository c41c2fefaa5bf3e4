// Several matmuls on memrefs (C += A * B), each compiled to its own kernel:
// shapes that are not tile multiples, a skinny one, and one with a config
// written by hand (a config on the op wins over the cost model; pass options
// win over both).
//
//   tile-opt examples/shapes.mlir -o /dev/null \
//     --tile-matmul-to-ptx="output-dir=out report=true"
func.func @odd(%A: memref<4095x4093xf32>, %B: memref<4093x4097xf32>, %C: memref<4095x4097xf32>) {
  linalg.matmul ins(%A, %B : memref<4095x4093xf32>, memref<4093x4097xf32>)
                outs(%C : memref<4095x4097xf32>)
  return
}
func.func @skinny(%A: memref<16x8192xf32>, %B: memref<8192x8192xf32>, %C: memref<16x8192xf32>) {
  linalg.matmul ins(%A, %B : memref<16x8192xf32>, memref<8192x8192xf32>)
                outs(%C : memref<16x8192xf32>)
  return
}
func.func @hand_tuned(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8],
                                            stages = 2, swizzle = 8, smem = pad(4), prefetch = true>}
    ins(%A, %B : memref<2048x2048xf32>, memref<2048x2048xf32>)
    outs(%C : memref<2048x2048xf32>)
  return
}
