// split_last: the last tiles of the launch order split K among blocks, the
// others computed whole by one block each (all add into C atomically), run
// on the CPU by tile-interp after each tiling pass. tile-interp checks the
// grid ((tiles - L) + L * S blocks per matrix) and that every element of C
// was written by a block of its tile: a whole tile's block t < tiles - L, a
// split tile's blocks tiles - L + s * L + (its position - tiles + L).
// Every problem accumulates (the fill of @fill stays on the host).

// Two consumer warpgroups, the TMA (repack for @batched's rows), a ring of
// 3 with a producer, split_k = 3, the last 3 tiles split, after every pass.
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=3 split-last=3 occupancy=1" --tile-block-tile | tile-interp | FileCheck %s --check-prefix=L3
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=3 split-last=3 occupancy=1" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s --check-prefix=L3
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=3 split-last=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile | tile-interp | FileCheck %s --check-prefix=L3
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=3 split-last=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s --check-prefix=L3
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=3 split-last=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s --check-prefix=L3
// (The grid printed is x times y. 12 tiles: 9 whole + 3 x 3; 6: 3 + 9;
// 4 per matrix: 1 + 3 x 3, in 2 rows.)
// L3: PASS acc_matmul0 m=200 n=300 k=520 max-rel-err={{.*}} (grid 18,
// L3: PASS fill_matmul0 m=150 n=200 k=328 max-rel-err={{.*}} (grid 12,
// L3: PASS batched_matmul0 batch=2 m=100 n=160 k=301 max-rel-err={{.*}} (grid 20,

// Copies through registers by a producer warpgroup, a ring of 2,
// split_k = 2, the last tile split (128x64 tiles: 2 x 5, 2 x 4, 1 x 3).
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir %bufferize --tile-configure="block=128,64,64 warp=64,64 thread=64,64 stages=2 copy=registers split-k=2 split-last=1 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s --check-prefix=L1
// L1: PASS acc_matmul0 m=200 n=300 k=520 max-rel-err={{.*}} (grid 11,
// L1: PASS fill_matmul0 m=150 n=200 k=328 max-rel-err={{.*}} (grid 9,
// L1: PASS batched_matmul0 batch=2 m=100 n=160 k=301 max-rel-err={{.*}} (grid 8,

// No producer: thread 0 issues the TMA, a ring of 4 longer than a split's
// chunk (@fill: 2 slabs) and shorter than a whole tile's K, split_k = 4.
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir %bufferize --tile-configure="block=64,128,64 warp=64,64 thread=64,64 stages=4 specialize=false repack=true split-k=4 split-last=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s --check-prefix=L2
// L2: PASS acc_matmul0 m=200 n=300 k=520 max-rel-err={{.*}} (grid 16,
// L2: PASS fill_matmul0 m=150 n=200 k=328 max-rel-err={{.*}} (grid 10,
// L2: PASS batched_matmul0 batch=2 m=100 n=160 k=301 max-rel-err={{.*}} (grid 16,

// The whole pipeline to NVVM's input (canonicalized).
// RUN: tile-opt %S/Inputs/wgmma-split-last.mlir --tile-matmul-tiling="tuning-table=none block=64,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=2 split-last=2" | tile-interp | FileCheck %s --check-prefix=FULL
// FULL: PASS acc_matmul0 m=200 n=300 k=520 max-rel-err={{.*}} (grid 14,
// FULL: PASS fill_matmul0 m=150 n=200 k=328 max-rel-err={{.*}} (grid 8,
// FULL: PASS batched_matmul0 batch=2 m=100 n=160 k=301 max-rel-err={{.*}} (grid 12,
