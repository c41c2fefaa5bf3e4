// A persistent kernel computes what depends on the block's tile anew for
// each tile, in each role: an op before the roles that reads the block id
// and may write memory (here a printf, written into tile-wgmma's output by
// hand) would run in other threads than before and once per tile, so it is
// an error at the op rather than a kernel that does something else.
// RUN: tile-opt %s --tile-configure --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | sed 's/^\( *\)\(%block_id_x = gpu.block_id  x\)$/\1\2\n\1gpu.printf "tile %%lld", %block_id_x : index/' | not tile-opt --tile-mbarrier-pipeline 2>&1 | FileCheck %s
// CHECK: error: tile-mbarrier-pipeline: a persistent kernel computes what depends on the block's tile once per tile in each role, but this op, before the roles, may write memory
// CHECK-NEXT: gpu.printf "tile %lld", %block_id_x : index
func.func @tma_ws(%A: memref<200x448xbf16>, %B: memref<448x200xbf16>, %C: memref<200x200xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, persistent = true>}
    ins(%A, %B : memref<200x448xbf16>, memref<448x200xbf16>) outs(%C : memref<200x200xf32>)
  return
}
