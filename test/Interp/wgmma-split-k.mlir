// Split-K kernels of the wgmma strategy, run on the CPU by tile-interp after
// each tiling pass: the blocks of one tile each take a chunk of whole slabs
// of K (their K loop and mbarrier phases count from the chunk's start; the
// last chunk is shorter), compute a partial product from zero and add it
// into the f32 C atomically (after tile-wgmma, each consumer thread adds its
// accumulators with atomic adds). Every problem accumulates: the fill of
// @fill stays on the host.

// Two consumer warpgroups, the TMA (repack for @odd's rows), a ring of 3
// with a producer warpgroup, split_k = 4, after every pass.
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=4 occupancy=1" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 repack=true split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s

// Copies through registers by a producer warpgroup, two consumers along M,
// a ring of 2, split_k = 3.
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=128,64,64 warp=64,64 thread=64,64 stages=2 copy=registers split-k=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s

// No producer: thread 0 issues the TMA, a ring of 4 whose prologue (3 slabs)
// is longer than @fill's and @odd's chunks (2 slabs, and 1 in @odd's last
// split), split_k = 4.
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=64,128,64 warp=64,64 thread=64,64 stages=4 specialize=false repack=true split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s

// No producer, a ring of 3, split_k = 2: @acc's chunks (5 and 4 slabs) are
// longer than the ring, so thread 0 issues slabs from inside the K loop,
// never past its chunk (a block may not end with loads in flight, which
// tile-interp reports).
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir %bufferize --tile-configure="block=64,64,64 warp=64,64 thread=64,64 stages=3 specialize=false repack=true split-k=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | tile-interp | FileCheck %s

// The whole pipeline to NVVM's input (canonicalized), one config.
// RUN: tile-opt %S/Inputs/wgmma-split-k.mlir --tile-matmul-tiling="tuning-table=none block=128,64,64 warp=64,64 thread=64,64 stages=3 repack=true split-k=2" | tile-interp | FileCheck %s

// CHECK: PASS acc_matmul0 m=70 n=72 k=520 max-rel-err=
// CHECK: PASS fill_matmul0 m=45 n=40 k=328 max-rel-err=
// CHECK: PASS odd_matmul0 m=33 n=37 k=301 max-rel-err=
