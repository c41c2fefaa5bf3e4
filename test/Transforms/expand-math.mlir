// RUN: tile-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(tile-expand-math))" -verify-diagnostics | FileCheck %s

// A fused epilogue's f32 math.tanh becomes upstream's polynomial
// approximation: arith ops on the input clamped to [-7.99881172, 7.99881172]
// (beyond it tanh is +-1 in f32), a ratio of two polynomials; no math.tanh
// (which NVVM would make a libdevice call) is left.
// CHECK-LABEL: gpu.func @gelu_step
//   CHECK-NOT: math.tanh
//       CHECK: arith.constant -7.99881172 : f32
//       CHECK: arith.constant 7.99881172 : f32
//       CHECK: math.fma
//       CHECK: arith.divf
//   CHECK-NOT: math.tanh
//       CHECK: gpu.return
gpu.module @m {
  gpu.func @gelu_step(%x: f32, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %t = math.tanh %x : f32
    memref.store %t, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// Only f32 is approximated: an f16 tanh would stay a libdevice call.
gpu.module @m {
  gpu.func @f16_tanh(%x: f16, %out: memref<1xf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'math.tanh' op was not expanded into arith ops (only f32 tanh is; the kernel would call libdevice, which is not linked)}}
    %t = math.tanh %x : f16
    memref.store %t, %out[%c0] : memref<1xf16>
    gpu.return
  }
}
