// The tiling pipeline's kernels for the benchmarked structures with wide
// block tiles (tuning/h200-f32.json), run on the CPU by tile-interp: every
// thread of every block, checked against a float64 reference, with the
// memory checks (bounds, races between barriers, uninitialised reads,
// cp.async destinations read before their wait). Both problems of
// Inputs/problems.mlir (accumulate and fill, all partial tiles).

// 128x256x8, 32x128 warps, 8x16 per lane, a cp.async ring of 3 stages (the
// 4096^3 kernel).
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,256,8 warp=32,128 thread=8,16 stages=3 prefetch=true smem=pad4 swizzle=8" | tile-interp | FileCheck %s

// 128x256x8, 64x64 warps, 8x16, register double buffering, no prefetch, no
// padding, row-by-row launch order.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,256,8 warp=64,64 thread=8,16 stages=2 prefetch=false smem=none swizzle=1" | tile-interp | FileCheck %s

// 128x128x8, 32x64 warps, 8x8 (the article's config), groups of 2 tile rows.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=2 prefetch=true smem=pad4 swizzle=2" | tile-interp | FileCheck %s

// 128x128x16, 64x32 warps, one stage (two barriers per slice) with prefetch.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,128,16 warp=64,32 thread=8,8 stages=1 prefetch=true smem=pad4 swizzle=2" | tile-interp | FileCheck %s

// 128x128x8, one stage, no prefetch, no padding.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=1 prefetch=false smem=none" | tile-interp | FileCheck %s

// 1024 threads (32 warps of 16x32, 4x4 per lane), a ring of 3: B's slice has
// fewer 16-byte granules than threads, so surplus threads copy the last one
// again (the same bytes: no race).
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,128,8 warp=16,32 thread=4,4 stages=3 prefetch=true smem=pad4" | tile-interp | FileCheck %s

// CHECK: PASS acc_matmul0 m=260 n=200 k=72 max-rel-err=
// CHECK: PASS fill_matmul0 m=150 n=299 k=37 max-rel-err=
