// B transposed (Inputs/wgmma-transposed.mlir) through the wgmma pipeline,
// run on the CPU by tile-interp: B's slab K-major like A's (BN rows of BK
// elements, 128-byte swizzled), read by wgmma with imm-trans-b 0; by the TMA
// (one box of BN x BK, in place or on the repacked copy), by the producer's
// register copies, with and without specialization, and after tile-wgmma
// alone (one slot, a barrier per slab).

// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,64 stages=3 occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=3 copy=tma repack=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-matmul-tiling="block=128,64,64 warp=64,64 thread=64,32 stages=4 specialize=false copy=tma repack=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-canonicalize-contractions %bufferize --tile-configure="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// After tile-promote-shared alone (thread 0's scalar product on the slab).
// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-canonicalize-contractions %bufferize --tile-configure="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s

// CHECK: PASS one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS primes_matmul0 m=37 n=29 k=41 max-rel-err=
// CHECK: PASS kone_matmul0 m=67 n=72 k=1 max-rel-err=
// CHECK: PASS k72_matmul0 m=65 n=65 k=72 max-rel-err=
// CHECK: PASS column_matmul0 m=19 n=1 k=24 max-rel-err=
// CHECK: PASS aligned_matmul0 m=128 n=128 k=128 max-rel-err=
// CHECK: PASS n_edge_matmul0 m=64 n=200 k=64 max-rel-err=
// CHECK: PASS k_odd_matmul0 m=100 n=64 k=100 max-rel-err=
// CHECK: PASS wide_matmul0 m=64 n=256 k=64 max-rel-err=
// CHECK: PASS tall_matmul0 m=200 n=8 k=16 max-rel-err=
// CHECK: PASS linear_matmul0 m=96 n=80 k=64 max-rel-err=
