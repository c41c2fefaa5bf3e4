// REQUIRES: gpu, torch
// Not in the sanitizer build: the CUDA driver does not run under
// AddressSanitizer without settings of its own.
// UNSUPPORTED: sanitizer
// Compiles f32 (FMA; C written, accumulated, split-K) and bf16 (wgmma) matmuls and runs each on
// PyTorch tensors through the tile_opt Python module
// (examples/python/matmul_torch.py), checked against torch.matmul.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// RUN: env TILE_RUNTIME_LIBRARY=%tile_runtime_library %python %tile_src_root/examples/python/matmul_torch.py %t/fill_matmul0.json %t/accumulate_matmul0.json %t/split_k_matmul0.json %t/bf16_matmul0.json %t/bf16_out_matmul0.json | FileCheck %s
// CHECK-DAG: fill_matmul0 300x260x517 f32 (C f32, fill): {{.*}}: PASS
// CHECK-DAG: accumulate_matmul0 127x129x255 f32 (C f32, accumulate): {{.*}}: PASS
// CHECK-DAG: split_k_matmul0 256x256x8192 f32 (C f32, accumulate): {{.*}}: PASS
// CHECK-DAG: bf16_matmul0 512x256x1024 bf16 (C f32, accumulate): {{.*}}: PASS
// CHECK-DAG: bf16_out_matmul0 384x320x200 bf16 (C bf16, fill): {{.*}}: PASS
// CHECK: 5 passed, 0 failed
func.func @fill(%A: tensor<300x517xf32>, %B: tensor<517x260xf32>) -> tensor<300x260xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<300x260xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<300x260xf32>) -> tensor<300x260xf32>
  %R = linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : tensor<300x517xf32>, tensor<517x260xf32>) outs(%C : tensor<300x260xf32>) -> tensor<300x260xf32>
  return %R : tensor<300x260xf32>
}
func.func @accumulate(%A: memref<127x255xf32>, %B: memref<255x129xf32>, %C: memref<127x129xf32>) {
  linalg.matmul ins(%A, %B : memref<127x255xf32>, memref<255x129xf32>) outs(%C : memref<127x129xf32>)
  return
}
func.func @split_k(%A: memref<256x8192xf32>, %B: memref<8192x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 16], warp = [32, 32], thread = [4, 8], split_k = 16>}
    ins(%A, %B : memref<256x8192xf32>, memref<8192x256xf32>) outs(%C : memref<256x256xf32>)
  return
}
func.func @bf16(%A: memref<512x1024xbf16>, %B: memref<1024x256xbf16>, %C: memref<512x256xf32>) {
  linalg.matmul ins(%A, %B : memref<512x1024xbf16>, memref<1024x256xbf16>) outs(%C : memref<512x256xf32>)
  return
}
func.func @bf16_out(%A: tensor<384x200xbf16>, %B: tensor<200x320xbf16>) -> tensor<384x320xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<384x320xbf16>
  %C = linalg.fill ins(%zero : bf16) outs(%empty : tensor<384x320xbf16>) -> tensor<384x320xbf16>
  %R = linalg.matmul ins(%A, %B : tensor<384x200xbf16>, tensor<200x320xbf16>) outs(%C : tensor<384x320xbf16>) -> tensor<384x320xbf16>
  return %R : tensor<384x320xbf16>
}
