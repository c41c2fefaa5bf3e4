// tile-pipeline reads the stage count from the kernel's config and needs the
// slice copy that count implies: copies through registers (1 or 2 stages)
// or asynchronous copies (3 or more). A config edited between
// tile-promote-shared and tile-pipeline is caught, not lowered wrongly.
// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile \
// RUN:   | sed -e 's/stages = 2/stages = 3/g' \
// RUN:   | not tile-opt --tile-pipeline 2>&1 | FileCheck %s --check-prefix=TO-ASYNC
// RUN: sed -e 's/stages = 2/stages = 3/' %s | tile-opt --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile \
// RUN:   | sed -e 's/stages = 3/stages = 2/g' \
// RUN:   | not tile-opt --tile-pipeline 2>&1 | FileCheck %s --check-prefix=TO-REGISTERS

// TO-ASYNC: error: tile-pipeline: 3 stages need the asynchronous copies (nvgpu.device_async_copy) tile-promote-shared makes for 3 or more stages
// TO-REGISTERS: error: tile-pipeline: 2 stages need copies through registers, not asynchronous ones
func.func @edited(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 2], warp = [16, 32], thread = [4, 4], stages = 2, prefetch = true>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
