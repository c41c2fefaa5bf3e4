// B's columns inside a 64-column chunk: a warpgroup's wgmma instructions of
// 32 or 16 columns, and warpgroups of 32 columns, start 16, 32 or 48
// columns into a chunk of the 128-byte-swizzled B slab. Their descriptors
// must point there (tile-wgmma once took the chunk of the first column only,
// so every instruction but the first of a chunk read the chunk's first
// columns again); checked at the wgmma stage and in the pipelined kernel,
// on the accumulate problem of Inputs/wgmma-problems.mlir (N = 72: a partial
// chunk too).

// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp --kernel=acc_matmul0 | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,16 stages=3 occupancy=1" | tile-interp --kernel=acc_matmul0 | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,64,64 warp=64,32 thread=64,32 stages=2 copy=registers occupancy=1" | tile-interp --kernel=acc_matmul0 | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,128,64 warp=64,32 thread=64,16 stages=2 specialize=false occupancy=1" | tile-interp --kernel=acc_matmul0 | FileCheck %s

// CHECK: PASS acc_matmul0 m=70 n=72 k=136 max-rel-err=
