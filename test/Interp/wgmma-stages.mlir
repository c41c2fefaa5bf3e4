// Every intermediate kernel of the wgmma strategy is a correct SIMT program
// (docs/architecture.md): tile-interp runs the IR after each tiling pass on
// both problems of Inputs/wgmma-problems.mlir (bf16 with f32 C accumulated,
// f16 with f16 C filled). After tile-promote-shared thread 0 multiplies the
// 128-byte-swizzled slabs that the TMA (thread 0, one mbarrier) or every
// thread (registers, then a proxy fence and a barrier) brought in; after
// tile-warpgroup-tile the first thread of each consumer warpgroup does; then
// wgmma instructions (tile-wgmma), then the ring of full/empty mbarriers
// with a producer warpgroup or without (tile-mbarrier-pipeline).

// Two consumer warpgroups, the TMA, a ring of 3 with a producer warpgroup.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 occupancy=1" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 occupancy=1" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s

// One consumer warpgroup of two 64-column instructions, copies through
// registers, a ring of 2.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,64 stages=2 copy=registers occupancy=1" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,64 stages=2 copy=registers occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,64 stages=2 copy=registers occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=64,128,64 warp=64,128 thread=64,64 stages=2 copy=registers occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s

// Two warpgroups along M that both compute and issue the TMA from thread 0
// (no producer), a ring of 4.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,64,64 warp=64,64 thread=64,64 stages=4 specialize=false occupancy=1" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,64,64 warp=64,64 thread=64,64 stages=4 specialize=false occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,64,64 warp=64,64 thread=64,64 stages=4 specialize=false occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=128,64,64 warp=64,64 thread=64,64 stages=4 specialize=false occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s

// CHECK: PASS acc_matmul0 m=70 n=72 k=136 max-rel-err=
// CHECK: PASS fill_matmul0 m=45 n=40 k=72 max-rel-err=
