// REQUIRES: gpu
// Not in the sanitizer build: the CUDA driver does not run under
// AddressSanitizer without settings of its own.
// UNSUPPORTED: sanitizer
// The FP32 kernels as they are benchmarked: shapes of the bench list
// (bench/shapes.txt) with the configs the compiler picks for them (the
// tuning table, tuning/h200-f32.json), run on the GPU with random inputs
// against a float64 reference. The manifests show the structure each took
// (checked without a GPU): 128-wide blocks with 8x16 per lane and 8x8 per
// lane, the cp.async ring (3 stages) and the register double buffer (2),
// split-K, and C filled in the kernel (no split-K: C is written, never read).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// RUN: FileCheck %s --check-prefix=SQ4096 --input-file=%t/sq4096_matmul0.json
// RUN: FileCheck %s --check-prefix=SQ8192 --input-file=%t/sq8192_matmul0.json
// RUN: FileCheck %s --check-prefix=ODD4095 --input-file=%t/odd4095_matmul0.json
// RUN: FileCheck %s --check-prefix=SQ3000 --input-file=%t/sq3000_matmul0.json
// RUN: FileCheck %s --check-prefix=TALL16384 --input-file=%t/tall16384_matmul0.json
// RUN: FileCheck %s --check-prefix=PRIME2039 --input-file=%t/prime2039_matmul0.json
// RUN: FileCheck %s --check-prefix=PRIME1021 --input-file=%t/prime1021_matmul0.json
// RUN: FileCheck %s --check-prefix=KHEAVY1024 --input-file=%t/kheavy1024_matmul0.json
// RUN: FileCheck %s --check-prefix=KHEAVY256 --input-file=%t/kheavy256_matmul0.json
// RUN: FileCheck %s --check-prefix=SKINNY16 --input-file=%t/skinny16_matmul0.json
// The cp.async ring in the PTX of the 4096^3 kernel; none in the 2-stage one.
// RUN: FileCheck %s --check-prefix=RING --input-file=%t/sq4096_matmul0.ptx
// RUN: FileCheck %s --check-prefix=NORING --input-file=%t/odd4095_matmul0.ptx
// RING: cp.async.{{ca|cg}}.shared.global
// RING: cp.async.wait_group
// NORING-NOT: cp.async
// RUN: tile-run verify %t | FileCheck %s
// SQ4096: "problem": {"m": 4096, "n": 4096, "k": 4096, "element_type": "f32", "accumulator_type": "f32", "c_init": "fill"
// SQ4096: "config": {"strategy": "fma", "block": [128, 256, 8], "warp": [32, 128], "thread": [8, 16],{{.*}} "stages": 3, "copy": "cp_async",{{.*}} "split_k": 1,
// SQ8192: "problem": {"m": 8192, "n": 8192, "k": 8192, "element_type": "f32", "accumulator_type": "f32", "c_init": "fill"
// SQ8192: "config": {"strategy": "fma", "block": [64, 128, 16], "warp": [32, 64], "thread": [8, 8],{{.*}} "stages": 3, "copy": "cp_async",{{.*}} "split_k": 1,
// ODD4095: "problem": {"m": 4095, "n": 4097, "k": 4093, "element_type": "f32", "accumulator_type": "f32", "c_init": "fill"
// ODD4095: "config": {"strategy": "fma", "block": [64, 128, 16], "warp": [32, 64], "thread": [8, 8],{{.*}} "stages": 2, "copy": "registers",{{.*}} "split_k": 1,
// SQ3000: "problem": {"m": 3000, "n": 3000, "k": 3000, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate"
// SQ3000: "config": {"strategy": "fma", "block": [64, 128, 16], "warp": [32, 64], "thread": [8, 8],{{.*}} "stages": 3, "copy": "cp_async",{{.*}} "split_k": 1,
// TALL16384: "problem": {"m": 16384, "n": 512, "k": 1024, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate"
// TALL16384: "config": {"strategy": "fma", "block": [64, 128, 16], "warp": [32, 64], "thread": [8, 8],{{.*}} "stages": 3, "copy": "cp_async",{{.*}} "split_k": 1,
// PRIME2039: "problem": {"m": 2039, "n": 2053, "k": 2063, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate"
// PRIME2039: "config": {"strategy": "fma", "block": [128, 64, 8], "warp": [32, 64], "thread": [8, 8],{{.*}} "stages": 2, "copy": "registers",{{.*}} "split_k": 1,
// PRIME1021: "problem": {"m": 1021, "n": 1031, "k": 1033, "element_type": "f32", "accumulator_type": "f32", "c_init": "fill"
// PRIME1021: "config": {"strategy": "fma", "block": [128, 32, 16], "warp": [32, 32], "thread": [8, 4],{{.*}} "stages": 2, "copy": "registers",{{.*}} "split_k": 1,
// KHEAVY1024: "problem": {"m": 1024, "n": 1024, "k": 8192, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate"
// KHEAVY1024: "config": {"strategy": "fma", "block": [128, 256, 8], "warp": [32, 128], "thread": [8, 16],{{.*}} "stages": 3, "copy": "cp_async",{{.*}} "split_k": 4,
// KHEAVY256: "problem": {"m": 256, "n": 256, "k": 16384, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate"
// KHEAVY256: "config": {"strategy": "fma", "block": [64, 128, 16], "warp": [32, 64], "thread": [8, 8],{{.*}} "stages": 3, "copy": "cp_async",{{.*}} "split_k": 16,
// SKINNY16: "problem": {"m": 16, "n": 8192, "k": 8192, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate"
// SKINNY16: "config": {"strategy": "fma", "block": [16, 128, 16], "warp": [16, 64], "thread": [8, 4],{{.*}} "stages": 3, "copy": "cp_async",{{.*}} "split_k": 8,
// CHECK-DAG: sq4096_matmul0 4096x4096x4096 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: sq8192_matmul0 8192x8192x8192 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: odd4095_matmul0 4095x4097x4093 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: sq3000_matmul0 3000x3000x3000 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: tall16384_matmul0 16384x512x1024 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: prime2039_matmul0 2039x2053x2063 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: prime1021_matmul0 1021x1031x1033 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: kheavy1024_matmul0 1024x1024x8192 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: kheavy256_matmul0 256x256x16384 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: skinny16_matmul0 16x8192x8192 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK: 10 passed, 0 failed
func.func @sq4096(%A: tensor<4096x4096xf32>, %B: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %R : tensor<4096x4096xf32>
}
func.func @sq8192(%A: tensor<8192x8192xf32>, %B: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8192x8192xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  %R = linalg.matmul ins(%A, %B : tensor<8192x8192xf32>, tensor<8192x8192xf32>) outs(%C : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  return %R : tensor<8192x8192xf32>
}
func.func @odd4095(%A: tensor<4095x4093xf32>, %B: tensor<4093x4097xf32>) -> tensor<4095x4097xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4095x4097xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4095x4097xf32>) -> tensor<4095x4097xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4095x4093xf32>, tensor<4093x4097xf32>) outs(%C : tensor<4095x4097xf32>) -> tensor<4095x4097xf32>
  return %R : tensor<4095x4097xf32>
}
func.func @sq3000(%A: memref<3000x3000xf32>, %B: memref<3000x3000xf32>, %C: memref<3000x3000xf32>) {
  linalg.matmul ins(%A, %B : memref<3000x3000xf32>, memref<3000x3000xf32>) outs(%C : memref<3000x3000xf32>)
  return
}
func.func @tall16384(%A: memref<16384x1024xf32>, %B: memref<1024x512xf32>, %C: memref<16384x512xf32>) {
  linalg.matmul ins(%A, %B : memref<16384x1024xf32>, memref<1024x512xf32>) outs(%C : memref<16384x512xf32>)
  return
}
func.func @prime2039(%A: memref<2039x2063xf32>, %B: memref<2063x2053xf32>, %C: memref<2039x2053xf32>) {
  linalg.matmul ins(%A, %B : memref<2039x2063xf32>, memref<2063x2053xf32>) outs(%C : memref<2039x2053xf32>)
  return
}
func.func @prime1021(%A: tensor<1021x1033xf32>, %B: tensor<1033x1031xf32>) -> tensor<1021x1031xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1021x1031xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1021x1031xf32>) -> tensor<1021x1031xf32>
  %R = linalg.matmul ins(%A, %B : tensor<1021x1033xf32>, tensor<1033x1031xf32>) outs(%C : tensor<1021x1031xf32>) -> tensor<1021x1031xf32>
  return %R : tensor<1021x1031xf32>
}
func.func @kheavy1024(%A: tensor<1024x8192xf32>, %B: tensor<8192x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %R = linalg.matmul ins(%A, %B : tensor<1024x8192xf32>, tensor<8192x1024xf32>) outs(%C : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %R : tensor<1024x1024xf32>
}
func.func @kheavy256(%A: tensor<256x16384xf32>, %B: tensor<16384x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x256xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>) -> tensor<256x256xf32>
  %R = linalg.matmul ins(%A, %B : tensor<256x16384xf32>, tensor<16384x256xf32>) outs(%C : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %R : tensor<256x256xf32>
}
func.func @skinny16(%A: tensor<16x8192xf32>, %B: tensor<8192x8192xf32>) -> tensor<16x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x8192xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x8192xf32>) -> tensor<16x8192xf32>
  %R = linalg.matmul ins(%A, %B : tensor<16x8192xf32>, tensor<8192x8192xf32>) outs(%C : tensor<16x8192xf32>) -> tensor<16x8192xf32>
  return %R : tensor<16x8192xf32>
}
