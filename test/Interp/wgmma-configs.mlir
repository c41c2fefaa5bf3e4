// The wgmma strategy's kernels from the whole tiling pipeline, run on the
// CPU by tile-interp on both problems of Inputs/wgmma-problems.mlir (bf16
// with f32 C accumulated, f16 with f16 C filled; partial tiles everywhere):
// every thread of every block against a float64 reference, with the memory
// checks, the mbarrier phases, TMA copies landing late, wgmma reads ordered
// after their data and before the slot's reuse.

// The default: 128x256x64 blocks, one consumer warpgroup of 64x256 (a
// 64x256 instruction), a TMA ring of 4 with a producer warpgroup.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling | tile-interp | FileCheck %s

// Two consumer warpgroups of 64x256, instructions of 64x128 (two per
// warpgroup and k step), a ring of 3.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=128,256,64 warp=64,256 thread=64,128 stages=3 occupancy=1" | tile-interp | FileCheck %s

// Two consumer warpgroups of 64x128, copies through registers by the
// producer warpgroup, a ring of 2; another seed (and dynamic shared memory
// at another offset from 1024).
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp --seed=5 | FileCheck %s

// One warpgroup of 64x128 that computes and, in thread 0, issues the TMA
// (no producer), a ring of 4; the dynamic shared memory at a multiple of
// 1024.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,128 stages=4 specialize=false occupancy=1" | tile-interp --shared-base=2048 | FileCheck %s

// Two warpgroups along M without a producer, 64x64 instructions, a ring of
// 3, blocks in groups of one row.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,64 stages=3 specialize=false swizzle=1 occupancy=1" | tile-interp | FileCheck %s

// Small blocks: 64x64 with a producer, several blocks in a grid of 2 tile
// rows and columns.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,64 stages=2 swizzle=2 occupancy=1" | tile-interp | FileCheck %s

// One consumer warpgroup of 128x128: two instructions along M (the A
// descriptor 64 rows on), a ring of 2.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=128,128,64 warp=128,128 thread=64,128 stages=2 occupancy=1" | tile-interp | FileCheck %s

// Two consumer warpgroups side by side along N (the second one's B starts
// at the second 64-column chunk), a ring of 3.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,128,64 warp=64,64 thread=64,64 stages=3 occupancy=1" | tile-interp | FileCheck %s

// CHECK: PASS acc_matmul0 m=70 n=72 k=136 max-rel-err=
// CHECK: PASS fill_matmul0 m=45 n=40 k=72 max-rel-err=
