// The model's ring depth is for its own tiles. Options that give larger
// tiles (and no stages) get as many slots as fit the 227 KiB a block may
// have: 128x256x64 bf16 slabs are 48 KiB a slot, so 4 (model: 64x64 tiles,
// 6 slots of 16 KiB). With stages given, the options' depth stays, and one
// that does not fit is an error.
// RUN: tile-opt %s --tile-configure | FileCheck %s --check-prefix=MODEL
// RUN: tile-opt %s --tile-configure="block=128,256,64 warp=64,256 thread=64,128" | FileCheck %s --check-prefix=LARGE
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128" | FileCheck %s --check-prefix=MEDIUM
// RUN: not tile-opt %s --tile-configure="block=128,256,64 warp=64,256 thread=64,128 stages=5" 2>&1 | FileCheck %s --check-prefix=TOO-DEEP

// MODEL: #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 6,
// LARGE: #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true
// MEDIUM: #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 6, copy = tma, specialize = true
// TOO-DEEP: error: 'linalg.matmul' op tile config #tile.config<strategy = wgmma, block = [128, 256, 64], {{.*}} stages = 5, {{.*}}> cannot run on sm_90: {{[0-9]+}} bytes of shared memory per block, over the sm_90 limit of 232448
func.func @bf16(%A: memref<1024x512xbf16>, %B: memref<512x1024xbf16>, %C: memref<1024x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<1024x512xbf16>, memref<512x1024xbf16>) outs(%C : memref<1024x1024xf32>)
  return
}
