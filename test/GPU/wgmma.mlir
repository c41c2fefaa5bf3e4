// REQUIRES: gpu
// Not in the sanitizer build: the CUDA driver does not run under
// AddressSanitizer without settings of its own.
// UNSUPPORTED: sanitizer
// The bf16/f16 tensor-core kernels as they are benchmarked: shapes of
// bench/wgmma-bench.txt and bench/wgmma-repack.txt with the configs the
// compiler picks (the bf16/f16 tuning tables' entries where they have the
// shape), run on the GPU with random inputs against a float64 reference.
// The manifests show the structure each took (checked without a GPU): the
// TMA + mbarrier ring of 4096^3 (128x256x64 blocks, two 64x256 consumer
// warpgroups and a producer, 4 slots; persistent, from the tables), the
// 128x128 tiles of an odd N and the 64x128 ones of 1024^3, operands the
// runtime repacks (K or N not a multiple of 8) or small ones copied through
// registers, C in f32 or the input type, filled in the kernel or
// accumulated, and split-K where the tiles leave SMs idle (the fill then
// stays on the host: the kernel adds into C).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// RUN: FileCheck %s --check-prefix=B4096 --input-file=%t/b4096_matmul0.json
// RUN: FileCheck %s --check-prefix=H4096 --input-file=%t/h4096_matmul0.json
// RUN: FileCheck %s --check-prefix=B4095 --input-file=%t/b4095_matmul0.json
// RUN: FileCheck %s --check-prefix=B1024 --input-file=%t/b1024_matmul0.json
// RUN: FileCheck %s --check-prefix=B16X8192 --input-file=%t/b16x8192_matmul0.json
// RUN: FileCheck %s --check-prefix=U777 --input-file=%t/u777_matmul0.json
// RUN: FileCheck %s --check-prefix=U300 --input-file=%t/u300_matmul0.json
// RUN: FileCheck %s --check-prefix=U97 --input-file=%t/u97_matmul0.json
// RUN: FileCheck %s --check-prefix=SK --input-file=%t/sk_matmul0.json
// RUN: FileCheck %s --check-prefix=SKODD --input-file=%t/skodd_matmul0.json
// The ring in the PTX of the 4096^3 kernel: TMA boxes, mbarrier waits, wgmma
// (in any order: a persistent kernel has the consumers' code first).
// RUN: FileCheck %s --check-prefix=RING --input-file=%t/b4096_matmul0.ptx
// RING-DAG: mbarrier.init
// RING-DAG: cp.async.bulk.tensor.2d
// RING-DAG: mbarrier.try_wait.parity
// RING-DAG: wgmma.mma_async.sync.aligned.m64n{{128|256}}k16.f32.bf16.bf16
// RUN: tile-run verify %t | FileCheck %s
// B4096: "problem": {"m": 4096, "n": 4096, "k": 4096, "element_type": "bf16", "accumulator_type": "f32", "c_init": "fill"
// B4096: {"name": "C", "role": "result", "element_type": "f32"
// B4096: "config": {"strategy": "wgmma", "block": [128, 256, 64], "warp": [64, 256],{{.*}} "stages": 4, "copy": "tma", "specialize": true,{{.*}} "split_k": 1,
// B4096-NOT: repack
// H4096: "problem": {"m": 4096, "n": 4096, "k": 4096, "element_type": "f16", "accumulator_type": "f32", "c_init": "accumulate"
// H4096: {"name": "C", "role": "result", "element_type": "f32"
// H4096: "config": {"strategy": "wgmma", "block": [128, 256, 64], "warp": [64, 256],{{.*}} "stages": 4, "copy": "tma", "specialize": true,{{.*}} "split_k": 1,
// H4096-NOT: repack
// B4095: "problem": {"m": 4095, "n": 4097, "k": 4093, "element_type": "bf16", "accumulator_type": "f32", "c_init": "fill"
// B4095: {"name": "C", "role": "result", "element_type": "f32"
// B4095: "config": {"strategy": "wgmma", "block": [128, 128, 64], "warp": [64, 128],{{.*}} "stages": 7, "copy": "tma", "repack": true, "specialize": true,{{.*}} "split_k": 1,
// B1024: "problem": {"m": 1024, "n": 1024, "k": 1024, "element_type": "bf16", "accumulator_type": "f32", "c_init": "fill"
// B1024: {"name": "C", "role": "result", "element_type": "f32"
// B1024: "config": {"strategy": "wgmma", "block": [64, 128, 64], "warp": [64, 128],{{.*}} "stages": 9, "copy": "tma", "specialize": true,{{.*}} "split_k": 1,
// B1024-NOT: repack
// B16X8192: "problem": {"m": 16, "n": 8192, "k": 8192, "element_type": "bf16", "accumulator_type": "f32", "c_init": "fill"
// B16X8192: {"name": "C", "role": "result", "element_type": "f32"
// B16X8192: "config": {"strategy": "wgmma", "block": [64, 64, 64], "warp": [64, 64],{{.*}} "stages": 14, "copy": "tma", "specialize": true,{{.*}} "split_k": 1,
// B16X8192-NOT: repack
// U777: "problem": {"m": 777, "n": 333, "k": 999, "element_type": "bf16", "accumulator_type": "f32", "c_init": "fill"
// U777: {"name": "C", "role": "result", "element_type": "bf16"
// U777: "config": {"strategy": "wgmma", "block": [64, 64, 64], "warp": [64, 64],{{.*}} "stages": 14, "copy": "tma", "repack": true, "specialize": true,{{.*}} "split_k": 1,
// U300: "problem": {"m": 300, "n": 520, "k": 1001, "element_type": "f16", "accumulator_type": "f32", "c_init": "accumulate"
// U300: {"name": "C", "role": "result", "element_type": "f16"
// U300: "config": {"strategy": "wgmma", "block": [64, 64, 64], "warp": [64, 64],{{.*}} "stages": 14, "copy": "tma", "repack": true, "specialize": true,{{.*}} "split_k": 1,
// U97: "problem": {"m": 97, "n": 61, "k": 203, "element_type": "bf16", "accumulator_type": "f32", "c_init": "accumulate"
// U97: {"name": "C", "role": "result", "element_type": "f32"
// U97: "config": {"strategy": "wgmma", "block": [64, 64, 64], "warp": [64, 32],{{.*}} "stages": 2, "copy": "registers", "specialize": true,{{.*}} "split_k": 2,
// SK: "problem": {"m": 128, "n": 1024, "k": 8192, "element_type": "bf16", "accumulator_type": "f32", "c_init": "accumulate"
// SK: "config": {"strategy": "wgmma", "block": [64, 64, 64],{{.*}} "split_k": {{([2-9]|1[0-6])}},
// SKODD: "problem": {"m": 45, "n": 300, "k": 5001, "element_type": "f16", "accumulator_type": "f32", "c_init": "accumulate"
// SKODD: "config": {"strategy": "wgmma",{{.*}} "copy": "registers",{{.*}} "split_k": {{([2-9]|1[0-6])}},
// CHECK-DAG: b4096_matmul0 4096x4096x4096 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: h4096_matmul0 4096x4096x4096 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: b4095_matmul0 4095x4097x4093 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: b1024_matmul0 1024x1024x1024 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: b16x8192_matmul0 16x8192x8192 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: u777_matmul0 777x333x999 {{.*}} PASS {{.*}}({{cubin|ptx}}, fill,
// CHECK-DAG: u300_matmul0 300x520x1001 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: u97_matmul0 97x61x203 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: sk_matmul0 128x1024x8192 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK-DAG: skodd_matmul0 45x300x5001 {{.*}} PASS {{.*}}({{cubin|ptx}}, accumulate,
// CHECK: 10 passed, 0 failed
func.func @b4096(%A: tensor<4096x4096xbf16>, %B: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %R : tensor<4096x4096xf32>
}
func.func @h4096(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%C : memref<4096x4096xf32>)
  return
}
func.func @b4095(%A: tensor<4095x4093xbf16>, %B: tensor<4093x4097xbf16>) -> tensor<4095x4097xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4095x4097xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4095x4097xf32>) -> tensor<4095x4097xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4095x4093xbf16>, tensor<4093x4097xbf16>) outs(%C : tensor<4095x4097xf32>) -> tensor<4095x4097xf32>
  return %R : tensor<4095x4097xf32>
}
func.func @b1024(%A: tensor<1024x1024xbf16>, %B: tensor<1024x1024xbf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %R = linalg.matmul ins(%A, %B : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) outs(%C : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %R : tensor<1024x1024xf32>
}
func.func @b16x8192(%A: tensor<16x8192xbf16>, %B: tensor<8192x8192xbf16>) -> tensor<16x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x8192xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x8192xf32>) -> tensor<16x8192xf32>
  %R = linalg.matmul ins(%A, %B : tensor<16x8192xbf16>, tensor<8192x8192xbf16>) outs(%C : tensor<16x8192xf32>) -> tensor<16x8192xf32>
  return %R : tensor<16x8192xf32>
}
func.func @u777(%A: tensor<777x999xbf16>, %B: tensor<999x333xbf16>) -> tensor<777x333xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<777x333xbf16>
  %C = linalg.fill ins(%zero : bf16) outs(%empty : tensor<777x333xbf16>) -> tensor<777x333xbf16>
  %R = linalg.matmul ins(%A, %B : tensor<777x999xbf16>, tensor<999x333xbf16>) outs(%C : tensor<777x333xbf16>) -> tensor<777x333xbf16>
  return %R : tensor<777x333xbf16>
}
func.func @u300(%A: memref<300x1001xf16>, %B: memref<1001x520xf16>, %C: memref<300x520xf16>) {
  linalg.matmul ins(%A, %B : memref<300x1001xf16>, memref<1001x520xf16>) outs(%C : memref<300x520xf16>)
  return
}
func.func @u97(%A: memref<97x203xbf16>, %B: memref<203x61xbf16>, %C: memref<97x61xf32>) {
  linalg.matmul ins(%A, %B : memref<97x203xbf16>, memref<203x61xbf16>) outs(%C : memref<97x61xf32>)
  return
}
func.func @sk(%A: tensor<128x8192xbf16>, %B: tensor<8192x1024xbf16>) -> tensor<128x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x1024xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %R = linalg.matmul ins(%A, %B : tensor<128x8192xbf16>, tensor<8192x1024xbf16>) outs(%C : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  return %R : tensor<128x1024xf32>
}
func.func @skodd(%A: memref<45x5001xf16>, %B: memref<5001x300xf16>, %C: memref<45x300xf32>) {
  linalg.matmul ins(%A, %B : memref<45x5001xf16>, memref<5001x300xf16>) outs(%C : memref<45x300xf32>)
  return
}
