// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// TF32 kernels the cost model picks (tf32=true, B stored N x K) do not
// spill: each assembled by tile-export's ptxas run reports 0 bytes of
// spill stores, spill loads and stack. 74x140x531 (K off 16-byte rows)
// spilled 12 bytes when the model copied it through registers (the
// producer's 4-byte copies at 104 registers, K split 6 ways): TF32 takes
// the TMA only, here on repacked copies. The others are the TMA in place
// (K a multiple of 4), a skinny M and a tiny problem (bench/check-spills.py
// --transpose-b --options tf32=true runs 600 such shapes,
// bench/results/2026-12-05-tf32-spills.md).
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t tf32=true"
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s74x140x531_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s1000x1000x1000_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s16x4096x4096_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/s3x5x7_matmul0.json
// RUN: FileCheck %s --check-prefix=TF32 --input-file=%t/s74x140x531_matmul0.json
// RUN: FileCheck %s --check-prefix=TF32 --input-file=%t/s1000x1000x1000_matmul0.json
// The unaligned one copies with the TMA (on repacked copies).
// RUN: FileCheck %s --check-prefix=TMA --input-file=%t/s74x140x531_matmul0.json
// TMA: "copy": "tma", {{.*}}"repack": true
// NOSPILL: "resources": {"registers": {{[1-9][0-9]*}}, "spill_stores": 0, "spill_loads": 0, "stack_bytes": 0}
// TF32: "config": {"strategy": "wgmma", "block": [{{[0-9]+}}, {{[0-9]+}}, 32],

func.func @s74x140x531(%A: memref<74x531xf32>, %B: memref<140x531xf32>, %C: memref<74x140xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<74x531xf32>, memref<140x531xf32>) outs(%C : memref<74x140xf32>)
  return
}
func.func @s1000x1000x1000(%A: tensor<1000x1000xf32>, %B: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1000x1000xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %R = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : tensor<1000x1000xf32>, tensor<1000x1000xf32>) outs(%C : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %R : tensor<1000x1000xf32>
}
func.func @s16x4096x4096(%A: memref<16x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<16x4096xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<16x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<16x4096xf32>)
  return
}
func.func @s3x5x7(%A: memref<3x7xf32>, %B: memref<5x7xf32>, %C: memref<3x5xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<3x7xf32>, memref<5x7xf32>) outs(%C : memref<3x5xf32>)
  return
}
