// RUN: tile-opt %s --tile-configure --tile-block-tile --tile-attach-target | FileCheck %s
// RUN: tile-opt %s --tile-configure --tile-block-tile --tile-attach-target="chip=sm_90a features=+ptx84 opt-level=2" | FileCheck %s --check-prefix=OPTIONS

// One #nvvm.target per kernel: wgmma kernels need the architecture-specific
// sm_90a, fma kernels keep the chip as given.
// CHECK: gpu.module @f32_matmul0 [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">]
// CHECK: gpu.module @bf16_matmul0 [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx81">]
// (O = 2 is the attribute's default and not printed.)
// OPTIONS: gpu.module @f32_matmul0 [#nvvm.target<chip = "sm_90a", features = "+ptx84">]
// OPTIONS: gpu.module @bf16_matmul0 [#nvvm.target<chip = "sm_90a", features = "+ptx84">]
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
func.func @bf16(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}
