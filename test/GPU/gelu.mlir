// REQUIRES: gpu
// Not in the sanitizer build: the CUDA driver does not run under
// AddressSanitizer without settings of its own.
// UNSUPPORTED: sanitizer
// A fused bias + GELU (tanh form) on the fma and the wgmma strategy, on edge
// shapes, run on the GPU: tile-run verify puts the float64 reference through
// the same steps (std::tanh) and checks every element; the kernels compute
// tanh with tile-expand-math's polynomial approximation.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// RUN: tile-run verify %t | FileCheck %s
// CHECK-DAG: gelu_f32_matmul0 {{.*}} PASS
// CHECK-DAG: gelu_bf16_matmul0 {{.*}} PASS
// CHECK: 2 passed, 0 failed

#col = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @gelu_f32(%a: memref<333x129xf32>, %b: memref<129x517xf32>, %c: memref<333x517xf32>, %bias: memref<517xf32>) {
  linalg.matmul ins(%a, %b : memref<333x129xf32>, memref<129x517xf32>) outs(%c : memref<333x517xf32>)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.797884583 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<517xf32>) outs(%c : memref<333x517xf32>) {
  ^bb0(%bv: f32, %o: f32):
    %x = arith.addf %o, %bv : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %t0 = arith.mulf %k1, %x3 : f32
    %t1 = arith.addf %x, %t0 : f32
    %t2 = arith.mulf %k0, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %x : f32
    %r = arith.mulf %t5, %t4 : f32
    linalg.yield %r : f32
  }
  return
}
func.func @gelu_bf16(%a: memref<300x520xbf16>, %b: memref<520x264xbf16>, %c: memref<300x264xf32>, %bias: memref<264xf32>) {
  linalg.matmul ins(%a, %b : memref<300x520xbf16>, memref<520x264xbf16>) outs(%c : memref<300x264xf32>)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.797884583 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<264xf32>) outs(%c : memref<300x264xf32>) {
  ^bb0(%bv: f32, %o: f32):
    %x = arith.addf %o, %bv : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %t0 = arith.mulf %k1, %x3 : f32
    %t1 = arith.addf %x, %t0 : f32
    %t2 = arith.mulf %k0, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %x : f32
    %r = arith.mulf %t5, %t4 : f32
    linalg.yield %r : f32
  }
  return
}
