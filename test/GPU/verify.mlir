// REQUIRES: gpu
// Not in the sanitizer build: the CUDA driver does not run under
// AddressSanitizer without settings of its own.
// UNSUPPORTED: sanitizer
// Compiles matmuls of awkward shapes and both C initialisations, runs each on
// the GPU with random inputs and checks it against a float64 reference
// (tile-run verify: relative-norm error, every element written, no NaN).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// The C initialisations the kernels really take (no GPU needed): @fill gets
// split-K from the model, so the runtime zeroes C and its kernel accumulates;
// @fill_in_kernel's config has no split-K, so its kernel writes C = A*B
// itself (the in-kernel fill path) and C is never read.
// RUN: FileCheck %s --check-prefix=SPLIT --input-file=%t/fill_matmul0.json
// RUN: FileCheck %s --check-prefix=INKERNEL --input-file=%t/fill_in_kernel_matmul0.json
// SPLIT: "c_init": "accumulate"
// SPLIT: "split_k": {{[2-9]|[1-9][0-9]+}},
// INKERNEL: "c_init": "fill", "c_fill_value": 0.0
// INKERNEL: {"name": "C", {{.*}}"access": "write"}
// INKERNEL: "split_k": 1,
// RUN: tile-run verify %t | FileCheck %s
// CHECK-DAG: accumulate_matmul0 {{.*}} PASS
// CHECK-DAG: fill_matmul0 {{.*}} PASS
// CHECK-DAG: fill_in_kernel_matmul0 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: tiny_matmul0 {{.*}} PASS
// CHECK-DAG: k_one_matmul0 {{.*}} PASS
// CHECK-DAG: split_k_matmul0 {{.*}} PASS
// CHECK-DAG: split_k_edges_matmul0 {{.*}} PASS
// CHECK: 7 passed, 0 failed
func.func @accumulate(%A: memref<127x255xf32>, %B: memref<255x129xf32>, %C: memref<127x129xf32>) {
  linalg.matmul ins(%A, %B : memref<127x255xf32>, memref<255x129xf32>) outs(%C : memref<127x129xf32>)
  return
}
func.func @fill(%A: tensor<300x517xf32>, %B: tensor<517x260xf32>) -> tensor<300x260xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<300x260xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<300x260xf32>) -> tensor<300x260xf32>
  %R = linalg.matmul ins(%A, %B : tensor<300x517xf32>, tensor<517x260xf32>) outs(%C : tensor<300x260xf32>) -> tensor<300x260xf32>
  return %R : tensor<300x260xf32>
}
// The in-kernel fill: no split-K, awkward edges in M, N and K.
func.func @fill_in_kernel(%A: tensor<300x517xf32>, %B: tensor<517x260xf32>) -> tensor<300x260xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<300x260xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<300x260xf32>) -> tensor<300x260xf32>
  %R = linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : tensor<300x517xf32>, tensor<517x260xf32>) outs(%C : tensor<300x260xf32>) -> tensor<300x260xf32>
  return %R : tensor<300x260xf32>
}
func.func @tiny(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}
func.func @k_one(%A: memref<96x1xf32>, %B: memref<1x200xf32>, %C: memref<96x200xf32>) {
  linalg.matmul ins(%A, %B : memref<96x1xf32>, memref<1x200xf32>) outs(%C : memref<96x200xf32>)
  return
}
// Split-K: blocks add partial products into C atomically.
func.func @split_k(%A: memref<256x8192xf32>, %B: memref<8192x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 16], warp = [32, 32], thread = [4, 8], split_k = 16>}
    ins(%A, %B : memref<256x8192xf32>, memref<8192x256xf32>) outs(%C : memref<256x256xf32>)
  return
}
func.func @split_k_edges(%A: memref<77x1001xf32>, %B: memref<1001x93xf32>, %C: memref<77x93xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 64, 8], warp = [16, 64], thread = [4, 8], split_k = 7>}
    ins(%A, %B : memref<77x1001xf32>, memref<1001x93xf32>) outs(%C : memref<77x93xf32>)
  return
}
