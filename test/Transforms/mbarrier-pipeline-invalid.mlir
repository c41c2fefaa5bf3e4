// RUN: not tile-opt %s --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline 2>&1 | FileCheck %s
// RUN: not tile-opt %s --tile-configure 2>&1 | FileCheck %s --check-prefix=CONFIGURE

// Two blocks of 384 threads per SM leave 80 registers a thread: shared out
// between a TMA producer (40) and two consumers, 96 each, fewer than the
// 128 accumulators of a 64x256 warpgroup tile need. setmaxnreg cannot give
// registers the block does not have: an error, not a kernel that waits
// forever. (tile-configure refuses the config for the same reason: the
// cost model counts with the pass's split. Here the config is written on
// the op and the pass meets it.)
// CHECK: error: tile-mbarrier-pipeline: 2 block(s) per SM of 384 threads leave 96 registers per consumer thread (for 128 accumulators) and 40 per producer thread; lower the occupancy or the warpgroup tile
// CONFIGURE: error: 'linalg.matmul' op tile config #tile.config<{{.*}}occupancy = 2> cannot run on sm_90: 2 block(s) per SM of 384 threads leave 96 registers per consumer thread (for 128 accumulators) and 40 per producer thread; lower the occupancy or the warpgroup tile
func.func @too_many_blocks(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %C: memref<512x512xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 2, occupancy = 2>}
    ins(%A, %B : memref<512x512xbf16>, memref<512x512xbf16>) outs(%C : memref<512x512xf32>)
  return
}
