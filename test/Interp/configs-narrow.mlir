// The tiling pipeline's kernels for the benchmarked structures with narrower
// block tiles, run on the CPU by tile-interp (see configs-wide.mlir).

// 64x128x16, 32x64 warps, 8x8, a ring of 3 (the most common table entry).
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 prefetch=true smem=pad4 swizzle=2" | tile-interp | FileCheck %s

// The same with a ring of 4 (it wraps: 5 slices of K = 72), no prefetch, no
// padding.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=4 prefetch=false smem=none swizzle=1" | tile-interp | FileCheck %s

// A ring of 5 with prefetch: more stages than slices of the fill problem.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=5 prefetch=true smem=pad4" | tile-interp | FileCheck %s

// 128x64x8, 32x64 warps, 8x8, two stages.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,64,8 warp=32,64 thread=8,8 stages=2 prefetch=true smem=pad4 swizzle=2" | tile-interp | FileCheck %s

// 128x32x16, 32x32 warps, 8x4 per lane, two stages.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,32,16 warp=32,32 thread=8,4 stages=2 prefetch=true smem=pad4" | tile-interp | FileCheck %s

// The thread-tile variants: FMAs row by row, and C accessed as vectors.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=128,128,8 warp=32,64 thread=8,8 stages=2 fma-order=rows" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 vector-c=true" | tile-interp | FileCheck %s

// 64-bit index arithmetic.
// RUN: tile-opt %S/Inputs/problems.mlir --tile-matmul-tiling="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 index-bitwidth=64" | tile-interp | FileCheck %s --check-prefixes=CHECK,INDEX64

// CHECK: PASS acc_matmul0 m=260 n=200 k=72 max-rel-err=
// INDEX64-SAME: 64-bit index
// CHECK: PASS fill_matmul0 m=150 n=299 k=37 max-rel-err=
