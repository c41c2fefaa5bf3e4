// Shapes that are not tile multiples, smaller than one tile, prime, K = 1,
// the tensor form with a fill, and two dependent matmuls in one function
// (plain, and two layers as torch-mlir writes them): every matmul becomes a
// kernel with a manifest that describes it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o %t/lowered.mlir --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: tile-run info %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=HOST --input-file=%t/lowered.mlir
// RUN: FileCheck %s --check-prefix=RELU --input-file=%t/mlp_matmul0.json

// CHECK-LABEL: chain_matmul0 (
//       CHECK:   problem    C += A*B, m=64 n=32 k=16, f32 inputs, f32 accumulation (c_init accumulate)
// CHECK-LABEL: chain_matmul1 (
//       CHECK:   problem    C += A*B, m=64 n=48 k=32, f32 inputs, f32 accumulation (c_init accumulate)
// CHECK-LABEL: k_one_matmul0 (
//       CHECK:   problem    C += A*B, m=128 n=128 k=1, f32 inputs, f32 accumulation (c_init accumulate)
// CHECK-LABEL: mlp_matmul0 (
//       CHECK:   problem    C = 0 + A*B, m=32 n=64 k=16, f32 inputs, f32 accumulation (c_init fill)
//       CHECK:   epilogue   maximumf acc 0{{$}}
// CHECK-LABEL: mlp_matmul1 (
//       CHECK:   problem    C += A*B, m=32 n=8 k=64, f32 inputs, f32 accumulation (c_init accumulate)
// CHECK-LABEL: one_matmul0 (
//       CHECK:   binaries   ptx   one_matmul0.ptx, {{[0-9]+}} bytes, fnv1a64 {{[0-9a-f]+}} (verified)
//       CHECK:   problem    C += A*B, m=1 n=1 k=1, f32 inputs, f32 accumulation (c_init accumulate)
//       CHECK:   launch     grid 1x1x1,
//       CHECK:   params     A   lhs    f32 1x1, strides 1,1, align 4, read, needs 4 bytes
// CHECK-LABEL: primes_matmul0 (
//       CHECK:   problem    C += A*B, m=127 n=129 k=251, f32 inputs, f32 accumulation (c_init accumulate)
//       CHECK:   params     A   lhs    f32 127x251, strides 251,1, align 4, read, needs 127508 bytes
//  CHECK-NEXT:              B   rhs    f32 251x129, strides 129,1, align 4, read, needs 129516 bytes
//  CHECK-NEXT:              C   result f32 127x129, strides 129,1, align 4, readwrite, needs 65532 bytes
//       CHECK:   resources  unknown (ptxas was not run)
// CHECK-LABEL: tensors_matmul0 (
//       CHECK:   problem    C = 0 + A*B, m=4095 n=4097 k=4093, f32 inputs, f32 accumulation (c_init fill)
//       CHECK:   C   result f32 4095x4097, strides 4097,1, align 4, write,

// The tensor form: bufferized, the result allocated, C initialised by the
// kernel (no fill left on the host).
// HOST-LABEL: func.func @tensors
//   HOST-NOT: linalg.fill
//       HOST: %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4095x4097xf32>
//       HOST: gpu.launch_func @tensors_matmul0::@tensors_matmul0 {{.*}} args(%arg0 : memref<4095x4093xf32>, %arg1 : memref<4093x4097xf32>, %[[ALLOC]] : memref<4095x4097xf32>)
//       HOST: return %[[ALLOC]]
// The second matmul reads the first one's result: the launches keep the
// program's order.
// HOST-LABEL: func.func @chain
//       HOST: gpu.launch_func @chain_matmul0::@chain_matmul0 {{.*}} args(%arg0 : memref<64x16xf32>, %arg1 : memref<16x32xf32>, %arg2 : memref<64x32xf32>)
//       HOST: gpu.launch_func @chain_matmul1::@chain_matmul1 {{.*}} args(%arg2 : memref<64x32xf32>, %arg3 : memref<32x48xf32>, %arg4 : memref<64x48xf32>)
func.func @one(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}
func.func @primes(%A: memref<127x251xf32>, %B: memref<251x129xf32>, %C: memref<127x129xf32>) {
  linalg.matmul ins(%A, %B : memref<127x251xf32>, memref<251x129xf32>) outs(%C : memref<127x129xf32>)
  return
}
func.func @k_one(%A: memref<128x1xf32>, %B: memref<1x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul ins(%A, %B : memref<128x1xf32>, memref<1x128xf32>) outs(%C : memref<128x128xf32>)
  return
}
func.func @tensors(%A: tensor<4095x4093xf32>, %B: tensor<4093x4097xf32>) -> tensor<4095x4097xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4095x4097xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4095x4097xf32>) -> tensor<4095x4097xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4095x4093xf32>, tensor<4093x4097xf32>)
                     outs(%C : tensor<4095x4097xf32>) -> tensor<4095x4097xf32>
  return %R : tensor<4095x4097xf32>
}
func.func @chain(%A: memref<64x16xf32>, %B: memref<16x32xf32>, %C: memref<64x32xf32>,
                 %D: memref<32x48xf32>, %E: memref<64x48xf32>) {
  linalg.matmul ins(%A, %B : memref<64x16xf32>, memref<16x32xf32>) outs(%C : memref<64x32xf32>)
  linalg.matmul ins(%C, %D : memref<64x32xf32>, memref<32x48xf32>) outs(%E : memref<64x48xf32>)
  return
}
// Two layers: the first kernel computes ReLU(x * w1) into a buffer, the
// second reads that buffer as its A. (The second's C is filled on the host
// when the model splits its K: its manifest records the fill value.)
// HOST-LABEL: func.func @mlp
//       HOST: %[[H:.*]] = memref.alloc() {{.*}} : memref<32x64xf32>
//       HOST: gpu.launch_func @mlp_matmul0::@mlp_matmul0 {{.*}} args(%arg0 : memref<32x16xf32>, %arg1 : memref<16x64xf32>, %[[H]] : memref<32x64xf32>)
//       HOST: gpu.launch_func @mlp_matmul1::@mlp_matmul1 {{.*}} args(%[[H]] : memref<32x64xf32>, %arg2 : memref<64x8xf32>, %{{.*}} : memref<32x8xf32>)
// RELU: "epilogue": {"operands": [], "steps": ["maximumf acc 0"]}
func.func @mlp(%x: tensor<32x16xf32>, %w1: tensor<16x64xf32>, %w2: tensor<64x8xf32>) -> tensor<32x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<32x64xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<32x16xf32>, tensor<16x64xf32>) outs(%c1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<32x64xf32>) outs(%e2 : tensor<32x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m = arith.maximumf %i, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x64xf32>
  %e3 = tensor.empty() : tensor<32x8xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %y = linalg.matmul ins(%relu, %w2 : tensor<32x64xf32>, tensor<64x8xf32>) outs(%c2 : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %y : tensor<32x8xf32>
}
