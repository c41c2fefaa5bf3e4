// A transposed (Inputs/wgmma-transposed-a.mlir) through the wgmma pipeline,
// run on the CPU by tile-interp: A's slab M-major like a row-major B's
// (BM / 64 chunks of BK rows of 64 m, 128-byte swizzled), read by wgmma
// with imm-trans-a 1; by the TMA (a BK x 64 box per chunk, in place or on
// the repacked copy), by the producer's register copies, with and without
// specialization, with two wgmma instructions along M per warpgroup (a
// second chunk), four chunks per slab (BM = 256), and after tile-wgmma
// and tile-promote-shared alone.

// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,64 stages=3 occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=3 copy=tma repack=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling="block=128,64,64 warp=64,64 thread=64,32 stages=4 specialize=false copy=tma repack=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling="block=256,64,64 warp=128,64 thread=64,64 stages=2 copy=tma repack=true occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling="block=256,64,64 warp=128,64 thread=64,32 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-canonicalize-contractions %bufferize --tile-configure="block=128,64,64 warp=128,64 thread=64,32 stages=2 occupancy=1 repack=true" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s
// After tile-promote-shared alone (thread 0's scalar product on the slab).
// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-canonicalize-contractions %bufferize --tile-configure="block=128,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 repack=true" --tile-block-tile --tile-promote-shared | tile-interp | FileCheck %s

// CHECK: PASS one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS primes_matmul0 m=37 n=29 k=41 max-rel-err=
// CHECK: PASS kone_matmul0 m=67 n=72 k=1 max-rel-err=
// CHECK: PASS m_edge_matmul0 m=200 n=64 k=64 max-rel-err=
// CHECK: PASS aligned_matmul0 m=128 n=128 k=128 max-rel-err=
// CHECK: PASS k_odd_matmul0 m=100 n=64 k=100 max-rel-err=
// CHECK: PASS wide_matmul0 m=64 n=256 k=64 max-rel-err=
// CHECK: PASS tall_matmul0 m=264 n=8 k=16 max-rel-err=
// CHECK: PASS both_matmul0 m=96 n=80 k=72 max-rel-err=
// CHECK: PASS folded_matmul0 m=72 n=64 k=40 max-rel-err=
// CHECK: PASS generic_matmul0 m=136 n=24 k=48 max-rel-err=
// CHECK: PASS batched_matmul0 batch=3 m=80 n=72 k=56 max-rel-err=
