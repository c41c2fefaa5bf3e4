// Split-K kernels of the tiling pipeline, run on the CPU by tile-interp: the
// blocks of one tile add their partial products into C atomically (both
// problems accumulate then: a fill of C stays on the host).

// 32x32x16, 8x32 warps, 4x2 per lane, a ring of 3, 4 splits (the table's
// prime127 entry).
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=32,32,16 warp=8,32 thread=4,2 stages=3 prefetch=true smem=pad4 split-k=4" | tile-interp | FileCheck %s

// 16x128x16, 16x64 warps, 8x4, a ring of 3, 2 splits (skinny16).
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=16,128,16 warp=16,64 thread=8,4 stages=3 prefetch=true smem=pad4 split-k=2" | tile-interp | FileCheck %s

// 32x64x8, 16x64 warps, 4x8, two stages, 3 splits (split_k_edges).
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=32,64,8 warp=16,64 thread=4,8 stages=2 prefetch=true smem=pad4 split-k=3 swizzle=2" | tile-interp | FileCheck %s

// 64x64x16, 32x32 warps, 4x8, one stage, 2 splits.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=1 prefetch=false smem=none split-k=2" | tile-interp | FileCheck %s

// CHECK: PASS acc_matmul0 m=260 n=200 k=72 max-rel-err=
// CHECK: PASS fill_matmul0 m=150 n=299 k=37 max-rel-err=
