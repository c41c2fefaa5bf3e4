// The example the main job compiles: C = A * B for 4096x4096 f32 matrices,
// in the tensor form most front ends produce (the output is a linalg.fill of
// zero). tile-opt bufferizes it, picks a #tile.config for the shape and
// lowers it to one kernel:
//
//   tile-opt examples/matmul.mlir -o /dev/null \
//     --tile-matmul-to-ptx="output-dir=out report=true"
func.func @matmul(%A: tensor<4096x4096xf32>, %B: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4096x4096xf32>, tensor<4096x4096xf32>)
                     outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %R : tensor<4096x4096xf32>
}
