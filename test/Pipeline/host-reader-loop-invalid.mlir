// A tensor loop whose body's matmul carries C, read after the loop: one-shot
// bufferization makes it a loop over C's buffer and a memref.load of the
// loop's result, which tile-configure reports (it would stay in host code).
// RUN: tile-opt %s --tile-matmul-to-ptx -verify-diagnostics -o /dev/null

func.func @loop_result(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %L = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %C) -> tensor<64x48xf32> {
    // expected-note @+1 {{the linalg.matmul}}
    %m = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
    scf.yield %m : tensor<64x48xf32>
  }
  // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
  %v = tensor.extract %L[%c1, %c0] : tensor<64x48xf32>
  return %v : f32
}
