// Batched matmuls (Inputs/batched.mlir: linalg.batch_matmul over edge
// shapes, each with B stored N x K, A stored K x M and both; a fill form on
// tensors; a batched linalg.generic; a batched and a plain matmul in one
// function) through the fma tiling pipeline, run on the CPU by tile-interp:
// every matrix of C against its float64 reference, and (--check-order, the
// default) every element written by the block of its tile in the grid row
// (block y) of its matrix. One stage, register double buffering, a cp.async
// ring, split-K, and the cost model's choices; then each pass alone.

// RUN: tile-opt %S/Inputs/batched.mlir --tile-matmul-tiling="tuning-table=none block=32,32,8 warp=16,32 thread=4,4 stages=1 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched.mlir --tile-matmul-tiling="tuning-table=none block=64,64,16 warp=32,32 thread=4,8 stages=2 prefetch=false smem=none swizzle=2" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched.mlir --tile-matmul-tiling="tuning-table=none block=64,32,8 warp=32,16 thread=4,4 stages=3 prefetch=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched.mlir --tile-matmul-tiling="tuning-table=none block=32,32,8 warp=16,16 thread=2,4 stages=4 prefetch=true split-k=3" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/batched.mlir --tile-matmul-tiling | tile-interp | FileCheck %s

// Each pass alone, the kernels run after every one of them.
// RUN: tile-opt %S/Inputs/batched.mlir --tile-canonicalize-contractions %bufferize -o %t.0.mlir
// RUN: tile-opt %t.0.mlir --tile-configure="tuning-table=none block=32,64,8 warp=16,32 thread=4,4 stages=3 swizzle=2" -o %t.1.mlir
// RUN: tile-opt %t.1.mlir --tile-block-tile -o %t.2.mlir
// RUN: tile-interp %t.2.mlir | FileCheck %s
// RUN: tile-opt %t.2.mlir --tile-promote-shared -o %t.3.mlir
// RUN: tile-interp %t.3.mlir | FileCheck %s
// RUN: tile-opt %t.3.mlir --tile-warp-tile -o %t.4.mlir
// RUN: tile-interp %t.4.mlir | FileCheck %s
// RUN: tile-opt %t.4.mlir --tile-thread-tile -o %t.5.mlir
// RUN: tile-interp %t.5.mlir | FileCheck %s
// RUN: tile-opt %t.5.mlir --tile-pipeline -o %t.6.mlir
// RUN: tile-interp %t.6.mlir | FileCheck %s

// CHECK: PASS b_one_matmul0 batch=2 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS tb_b_one_matmul0 batch=2 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS ta_b_one_matmul0 batch=2 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS tab_b_one_matmul0 batch=2 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS b_primes_matmul0 batch=3 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS tb_b_primes_matmul0 batch=3 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS ta_b_primes_matmul0 batch=3 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS tab_b_primes_matmul0 batch=3 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS b_k_short_matmul0 batch=2 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS tb_b_k_short_matmul0 batch=2 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS ta_b_k_short_matmul0 batch=2 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS tab_b_k_short_matmul0 batch=2 m=33 n=65 k=3 max-rel-err=
// CHECK: PASS b_aligned_matmul0 batch=4 m=64 n=128 k=32 max-rel-err=
// CHECK: PASS tb_b_aligned_matmul0 batch=4 m=64 n=128 k=32 max-rel-err=
// CHECK: PASS ta_b_aligned_matmul0 batch=4 m=64 n=128 k=32 max-rel-err=
// CHECK: PASS tab_b_aligned_matmul0 batch=4 m=64 n=128 k=32 max-rel-err=
// CHECK: PASS b_odd_k_matmul0 batch=2 m=64 n=64 k=37 max-rel-err=
// CHECK: PASS tb_b_odd_k_matmul0 batch=2 m=64 n=64 k=37 max-rel-err=
// CHECK: PASS ta_b_odd_k_matmul0 batch=2 m=64 n=64 k=37 max-rel-err=
// CHECK: PASS tab_b_odd_k_matmul0 batch=2 m=64 n=64 k=37 max-rel-err=
// CHECK: PASS b_row_matmul0 batch=5 m=1 n=45 k=17 max-rel-err=
// CHECK: PASS tb_b_row_matmul0 batch=5 m=1 n=45 k=17 max-rel-err=
// CHECK: PASS ta_b_row_matmul0 batch=5 m=1 n=45 k=17 max-rel-err=
// CHECK: PASS tab_b_row_matmul0 batch=5 m=1 n=45 k=17 max-rel-err=
// CHECK: PASS b_column_matmul0 batch=3 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS tb_b_column_matmul0 batch=3 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS ta_b_column_matmul0 batch=3 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS tab_b_column_matmul0 batch=3 m=67 n=1 k=20 max-rel-err=
// CHECK: PASS b_fill_matmul0 batch=3 m=50 n=70 k=20 max-rel-err=
// CHECK: PASS b_generic_matmul0 batch=2 m=30 n=40 k=19 max-rel-err=
// CHECK: PASS b_mixed_matmul0 batch=2 m=20 n=10 k=30 max-rel-err=
// CHECK: PASS b_mixed_matmul1 m=20 n=10 k=30 max-rel-err=
// CHECK: PASS b_single_matmul0 batch=1 m=20 n=10 k=30 max-rel-err=
