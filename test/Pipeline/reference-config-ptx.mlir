// The reference structure (128x128x8 blocks, 32x64 warps, 8x8 per lane,
// two stages, register prefetch) through the pipeline: the main loop does
// exactly 8 k steps x 64 FMAs = 512 fma.rn.f32 per lane, and the whole
// kernel has no others; 8 x (2 + 2) = 32 fragment loads in the loop plus the
// first 4 before it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off block=128,128,8 warp=32,64 thread=8,8 stages=2 prefetch=true"
// RUN: grep -c "fma.rn.f32" %t/reference_matmul0.ptx | FileCheck %s --check-prefix=FMA
// RUN: grep -c "ld.shared.v4" %t/reference_matmul0.ptx | FileCheck %s --check-prefix=LDS
// RUN: grep -c "bar.sync" %t/reference_matmul0.ptx | FileCheck %s --check-prefix=BAR
// RUN: grep -c "ld.global.nc.v4" %t/reference_matmul0.ptx | FileCheck %s --check-prefix=LDG
// FMA: {{^}}512{{$}}
// LDS: {{^}}36{{$}}
// One barrier after the prologue's stores, one per iteration.
// BAR: {{^}}2{{$}}
// One A and one B vector per thread, before and in the loop.
// LDG: {{^}}4{{$}}
func.func @reference(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xf32>, memref<4096x4096xf32>)
                outs(%C : memref<4096x4096xf32>)
  return
}
