// A bf16 table entry measured with split-K (an f32 C) applies to the same
// shape with an f32 C as it is, and to a bf16 C without the split (that C
// cannot take atomic f32 adds): the rest of the entry stays. A split asked
// for with a bf16 C is still an error.
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-bf16-split.json" | FileCheck %s
// RUN: not tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-bf16-split.json split-k=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ASKED

// CHECK-LABEL: func.func @f32_c
// CHECK: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 6, {{.*}}occupancy = 2, split_k = 8>}
func.func @f32_c(%A: memref<128x8192xbf16>, %B: memref<8192x1024xbf16>, %C: memref<128x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<128x8192xbf16>, memref<8192x1024xbf16>) outs(%C : memref<128x1024xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @bf16_c
// CHECK: linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 6, {{.*}}occupancy = 2>}
// CHECK-NOT: split_k
// ASKED: error: 'linalg.matmul' op cannot use split_k = 8 with a 16-bit C
func.func @bf16_c(%A: memref<128x8192xbf16>, %B: memref<8192x1024xbf16>, %C: memref<128x1024xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x8192xbf16>, memref<8192x1024xbf16>) outs(%C : memref<128x1024xbf16>)
  return
}
