// Fused epilogues that read strided operands (Inputs/strided-epilogues.mlir:
// a bias per column with an offset, a scale per row whose elements are 5
// apart, a residual with wide rows; dynamic offsets and strides; batched
// with per-batch and shared operands, a batch of one; bf16 and f16 on wgmma;
// 1x1) after each
// pass and for several configs. tile-interp spreads each operand over its
// buffer as its layout says (a dynamic field 3 elements off the densest:
// the kernel may assume no more than element alignment), NaN between the
// elements, so a kernel that read an operand as dense, or ignored its
// offset, would read NaN or another element.
// RUN: tile-opt %S/Inputs/strided-epilogues.mlir --tile-fuse-epilogues --tile-configure="tuning-table=none" --tile-block-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided-epilogues.mlir --tile-fuse-epilogues --tile-configure="tuning-table=none" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-warpgroup-tile | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided-epilogues.mlir --tile-matmul-tiling="tuning-table=none" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/strided-epilogues.mlir --tile-matmul-tiling="tuning-table=none index-bitwidth=64 swizzle=1" | tile-interp | FileCheck %s --check-prefix=WIDE
// RUN: tile-opt %S/Inputs/strided-epilogues.mlir --tile-matmul-tiling | tile-interp | FileCheck %s

// CHECK: PASS static_layouts_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS dynamic_layouts_matmul0 m=37 n=41 k=23 max-rel-err={{.*}}64-bit index)
// CHECK: PASS batched_matmul0 batch=3 m=20 n=24 k=16 max-rel-err=
// CHECK: PASS wgmma_bias_relu_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS wgmma_batched_matmul0 batch=2 m=65 n=72 k=40 max-rel-err=
// CHECK: PASS one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS batch_one_matmul0 batch=1 m=20 n=24 k=16 max-rel-err=
// CHECK-NOT: FAIL

// The static layouts addressed in 64 bits too.
// WIDE: PASS static_layouts_matmul0 m=37 n=41 k=23 max-rel-err={{.*}}64-bit index)
// WIDE-COUNT-6: PASS
// WIDE-NOT: FAIL
