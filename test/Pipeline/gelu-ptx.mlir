// A fused GELU (tanh form) through the whole pipeline, fma and wgmma: the
// PTX computes tanh with tile-expand-math's polynomial (fused multiply-adds
// and a division), and calls nothing (no libdevice __nv_tanhf, which would
// not resolve: none is linked).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --input-file=%t/gelu_f32_matmul0.ptx
// RUN: FileCheck %s --input-file=%t/gelu_bf16_matmul0.ptx
// RUN: FileCheck %s --check-prefix=STEPS --input-file=%t/gelu_f32_matmul0.json
// CHECK-NOT: call
// CHECK-NOT: __nv_
// CHECK: div.rn.f32
// CHECK-NOT: call
// CHECK-NOT: __nv_
// STEPS: "steps": ["addf acc p0", "mulf s0 s0", "mulf s1 s0", "mulf 0.0447149985 s2", "addf s0 s3", "mulf 0.797884583 s4", "tanh s5", "addf 1 s6", "mulf 0.5 s0", "mulf s8 s7"]

#col = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @gelu_f32(%a: memref<128x64xf32>, %b: memref<64x96xf32>, %c: memref<128x96xf32>, %bias: memref<96xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf32>, memref<64x96xf32>) outs(%c : memref<128x96xf32>)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.797884583 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<96xf32>) outs(%c : memref<128x96xf32>) {
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
func.func @gelu_bf16(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%c : memref<128x128xf32>)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.797884583 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f32):
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
