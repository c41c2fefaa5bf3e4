// REQUIRES: gpu
// Not in the sanitizer build: the CUDA driver does not run under
// AddressSanitizer without settings of its own.
// UNSUPPORTED: sanitizer
// Batched matmuls (linalg.batch_matmul, the batch on the grid's y) of
// awkward shapes, each matrix transposed or not, both C initialisations, a
// split-K config and a batch of one, run on the GPU with random inputs: tile-run verify
// checks every element of every matrix of C against a float64 reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// RUN: tile-run verify %t | FileCheck %s
// CHECK-DAG: edges_matmul0 {{.*}} PASS
// CHECK-DAG: tb_matmul0 {{.*}} PASS
// CHECK-DAG: ta_matmul0 {{.*}} PASS
// CHECK-DAG: fill_matmul0 {{.*}} PASS
// CHECK-DAG: split_matmul0 {{.*}} PASS
// CHECK-DAG: many_matmul0 {{.*}} PASS
// CHECK-DAG: single_matmul0 {{.*}} PASS
// CHECK: 7 passed, 0 failed
func.func @edges(%A: memref<5x127x255xf32>, %B: memref<5x255x129xf32>, %C: memref<5x127x129xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<5x127x255xf32>, memref<5x255x129xf32>) outs(%C : memref<5x127x129xf32>)
  return
}
func.func @tb(%A: memref<3x100x70xf32>, %B: memref<3x90x70xf32>, %C: memref<3x100x90xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x100x70xf32>, memref<3x90x70xf32>) outs(%C : memref<3x100x90xf32>)
  return
}
func.func @ta(%A: memref<7x33x65xf32>, %B: memref<7x33x17xf32>, %C: memref<7x65x17xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<7x33x65xf32>, memref<7x33x17xf32>) outs(%C : memref<7x65x17xf32>)
  return
}
func.func @fill(%A: tensor<4x300x517xf32>, %B: tensor<4x517x260xf32>) -> tensor<4x300x260xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x300x260xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x300x260xf32>) -> tensor<4x300x260xf32>
  %R = linalg.batch_matmul ins(%A, %B : tensor<4x300x517xf32>, tensor<4x517x260xf32>) outs(%C : tensor<4x300x260xf32>) -> tensor<4x300x260xf32>
  return %R : tensor<4x300x260xf32>
}
func.func @split(%A: memref<2x64x4000xf32>, %B: memref<2x4000x48xf32>, %C: memref<2x64x48xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4], stages = 3, split_k = 4>}
    ins(%A, %B : memref<2x64x4000xf32>, memref<2x4000x48xf32>) outs(%C : memref<2x64x48xf32>)
  return
}
func.func @many(%A: memref<3000x9x13xf32>, %B: memref<3000x13x7xf32>, %C: memref<3000x9x7xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<3000x9x13xf32>, memref<3000x13x7xf32>) outs(%C : memref<3000x9x7xf32>)
  return
}
func.func @single(%A: memref<1x77x93xf32>, %B: memref<1x93x61xf32>, %C: memref<1x77x61xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1x77x93xf32>, memref<1x93x61xf32>) outs(%C : memref<1x77x61xf32>)
  return
}
