// Kernels whose operands have dynamic offsets and strides, run on the CPU
// by tile-interp: it binds each dynamic field to a value one 16-byte step
// past the densest layout (offsets 16 bytes, rows and matrices 16 bytes
// further apart, the gaps NaN), so a kernel that used the dense layout
// instead of its operands' would read NaN or write outside C's elements.
// RUN: tile-opt %S/Inputs/dynamic-layout.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// CHECK: PASS dyn_f32_matmul0 m=100 n=96 k=72 max-rel-err={{.*}}64-bit index)
// CHECK: PASS dyn_bf16_matmul0 m=130 n=72 k=136 max-rel-err=
// CHECK: PASS dyn_batch_matmul0 batch=3 m=40 n=48 k=56 max-rel-err=
// CHECK: PASS dyn_linear_matmul0 m=70 n=96 k=64 max-rel-err=
// CHECK: PASS dyn_bbatch_matmul0 batch=2 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS dyn_one_matmul0 batch=1 m=64 n=64 k=32 max-rel-err=
// CHECK: PASS dyn_splitk_matmul0 m=32 n=32 k=4096 max-rel-err=
// CHECK: PASS dyn_row_matmul0 m=1 n=24 k=40 max-rel-err=
// CHECK-NOT: FAIL
