// fma kernels with repack = true read B from the runtime's copy (rows padded
// to 16 bytes): tile-interp gives the kernel that copy, its pad NaN, and
// checks every stored C element against the float64 reference. The last
// vector of each B row reaches into the pad: its columns only reach columns
// of C that are never stored. Through the cp.async ring and through
// registers, after each pass that rewrites the copies.

// RUN: tile-opt %S/Inputs/repack-problems.mlir %bufferize --tile-configure="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=3 repack=true" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/repack-problems.mlir %bufferize --tile-configure="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=3 repack=true" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/repack-problems.mlir %bufferize --tile-configure="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=3 repack=true" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/repack-problems.mlir %bufferize --tile-configure="tuning-table=none block=128,64,8 warp=32,64 thread=8,8 stages=2 repack=true" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/repack-problems.mlir %bufferize --tile-configure="tuning-table=none block=128,64,8 warp=32,64 thread=8,8 stages=2 repack=true" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/repack-problems.mlir %bufferize --tile-configure="tuning-table=none block=32,128,16 warp=16,64 thread=4,8 stages=4 split-k=2 repack=true" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline | tile-interp | FileCheck %s

// CHECK: PASS acc_odd_matmul0 m=260 n=201 k=72 max-rel-err=
// CHECK: PASS fill_odd_matmul0 m=150 n=299 k=37 max-rel-err=
// CHECK: PASS batch_one_matmul0 batch=1 m=90 n=133 k=72 max-rel-err=
