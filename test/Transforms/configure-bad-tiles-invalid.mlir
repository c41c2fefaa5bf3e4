// Warp (or warpgroup) tiles from options that the verifier refuses, zero or
// wider than the block tile: an error at each matmul, never a crash in the
// cost model's counts (they divided by zero).
// RUN: not tile-opt %s --tile-configure="tuning-table=none warp=0,128" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tile-opt %s --tile-configure="tuning-table=none block=64,64,64 warp=16,128" 2>&1 | FileCheck %s --check-prefix=WIDE

// ZERO: error: 'linalg.matmul' op cannot use tile config #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [0, 128]
// ZERO: error: 'linalg.matmul' op cannot use tile config #tile.config<strategy = wgmma, {{.*}}warpgroup = [0, 128]
// WIDE: error: 'linalg.matmul' op cannot use tile config #tile.config<block = [64, 64, 64], warp = [16, 128]{{.*}}: warp tile N (128) does not divide block tile N (64)
// WIDE: error: 'linalg.matmul' op cannot use tile config #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [16, 128]{{.*}}: warpgroup tile N (128) does not divide block tile N (64)

func.func @f32(%a: memref<64x7xf32>, %b: memref<7x7xf32>, %c: memref<64x7xf32>) {
  linalg.matmul ins(%a, %b : memref<64x7xf32>, memref<7x7xf32>) outs(%c : memref<64x7xf32>)
  return
}

func.func @bf16(%a: memref<256x128xbf16>, %b: memref<128x127xbf16>, %c: memref<256x127xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xbf16>, memref<128x127xbf16>) outs(%c : memref<256x127xf32>)
  return
}
