// Batched bf16/f16 matmuls (Inputs/wgmma-batched.mlir) through the wgmma
// pipeline, run on the CPU by tile-interp: every matrix of C against its
// float64 reference, every element written by the block of its tile in the
// grid row (block y) of its matrix. tile-interp's TMA reads a 3-d tensor
// map's box from the matrix its outer coordinate names, rows and columns
// past that matrix as zero (what the runtime encodes, docs/artifact.md).
// The cost model's choices; the TMA with 3 stages; register copies by the
// producer; the TMA on repacked copies without specialization; split-K.

// RUN: tile-opt %S/Inputs/wgmma-batched.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,64 stages=3 occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched.mlir --tile-matmul-tiling="block=128,64,64 warp=64,64 thread=64,32 stages=4 specialize=false copy=tma repack=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-batched-split-k.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,64 stages=2 split-k=3" | tile-interp | FileCheck %s --check-prefix=SPLIT
// RUN: tile-opt %S/Inputs/wgmma-batched-split-k.mlir --tile-matmul-tiling | tile-interp | FileCheck %s --check-prefix=SPLIT

// CHECK: PASS wb_aligned_matmul0 batch=3 m=128 n=128 k=64 max-rel-err=
// CHECK: PASS wb_k_tail_matmul0 batch=2 m=64 n=136 k=40 max-rel-err=
// CHECK: PASS wb_primes_matmul0 batch=3 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS wb_tb_matmul0 batch=2 m=100 n=72 k=40 max-rel-err=
// CHECK: PASS wb_fill_matmul0 batch=2 m=70 n=80 k=48 max-rel-err=
// CHECK: PASS wb_strided_matmul0 batch=2 m=65 n=64 k=72 max-rel-err=
// CHECK: PASS wb_single_matmul0 batch=1 m=70 n=72 k=64 max-rel-err=
// CHECK: PASS wb_batch_stride_off_matmul0 batch=3 m=64 n=64 k=64 max-rel-err=
// CHECK-NOT: FAIL
// SPLIT: PASS wb_split_matmul0 batch=2 m=40 n=72 k=300 max-rel-err=
