// TF32 (f32 inputs, B stored N x K) through the wgmma pipeline, run on the
// CPU by tile-interp: slabs of 32 f32 per 128-byte swizzled row, m64nNk8
// instructions reading 4-byte elements K-major. The interpreter's wgmma
// drops the low 13 mantissa bits of each input (the tensor cores read TF32)
// and so does the float64 reference of a kernel with wgmma instructions, so
// the f32 bound holds: a kernel that read the inputs whole, or only one of
// them as TF32, or a wrong k step, fails it. After tile-promote-shared
// alone the scalar product reads them whole, as does its reference. By the TMA (in place
// where K is a multiple of 4, else on the repacked copy), by the producer's
// register copies, without specialization, persistent, with split-K, and
// after tile-wgmma alone (one slot, a barrier per slab).

// RUN: tile-opt %S/Inputs/wgmma-tf32.mlir --tile-matmul-tiling="tf32=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tf32.mlir --tile-matmul-tiling="tf32=true block=128,128,32 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tf32.mlir --tile-matmul-tiling="tf32=true block=64,64,32 warp=64,64 thread=64,32 stages=4 specialize=false copy=tma repack=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tf32.mlir --tile-matmul-tiling="tf32=true block=128,64,32 warp=64,64 thread=64,64 stages=3 persistent=true copy=tma repack=true persistent-blocks=3" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tf32.mlir --tile-matmul-tiling="tf32=true block=64,128,32 warp=64,64 thread=64,64 split-k=2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tf32.mlir --tile-canonicalize-contractions %bufferize --tile-configure="tf32=true block=64,64,32 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tf32.mlir --tile-canonicalize-contractions %bufferize --tile-configure="tf32=true block=64,64,32 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s

// CHECK: PASS one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS primes_matmul0 m=37 n=29 k=41 max-rel-err=
// CHECK: PASS kone_matmul0 m=67 n=72 k=1 max-rel-err=
// CHECK: PASS k72_matmul0 m=65 n=65 k=72 max-rel-err=
// CHECK: PASS column_matmul0 m=19 n=1 k=24 max-rel-err=
// CHECK: PASS aligned_matmul0 m=128 n=128 k=128 max-rel-err=
// CHECK: PASS n_edge_matmul0 m=64 n=200 k=64 max-rel-err=
// CHECK: PASS k_odd_matmul0 m=100 n=64 k=99 max-rel-err=
// CHECK: PASS wide_matmul0 m=64 n=256 k=32 max-rel-err=
// CHECK: PASS linear_matmul0 m=96 n=80 k=64 max-rel-err=
// CHECK-NOT: FAIL
