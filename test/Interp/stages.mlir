// Every intermediate kernel is a correct SIMT program (docs/architecture.md):
// tile-interp runs the IR after each tiling pass, for a two-stage config with
// groups of 2 tile rows, a cp.async ring, and split-K with a ring. Before
// thread tiling the work runs as linalg ops in thread 0 (block tile) or in
// lane 0 of each warp, reading the shared slices.

// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=2 swizzle=2" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=2 swizzle=2" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=2 swizzle=2" --tile-block-tile --tile-promote-shared --tile-warp-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=2 swizzle=2" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile | tile-interp | FileCheck %s

// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=4 swizzle=2" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=4 swizzle=2" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=4 swizzle=2" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline | tile-interp | FileCheck %s

// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=3 split-k=3" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=3 split-k=3" --tile-block-tile --tile-promote-shared --tile-warp-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize --tile-configure="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=3 split-k=3" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline | tile-interp | FileCheck %s

// CHECK: PASS acc_matmul0 m=260 n=200 k=72 max-rel-err=
// CHECK: PASS fill_matmul0 m=150 n=299 k=37 max-rel-err=
