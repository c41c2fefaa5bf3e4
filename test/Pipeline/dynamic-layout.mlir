// Operands with dynamic offsets and strides through the whole pipeline:
// tile.matmul records each dynamic field as -1 and the kernel indexes in
// 64 bits; the manifest writes the fields "dynamic"; the PTX entry takes
// the bare pointers, the tensor maps, then one .u64 per dynamic field.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %S/../Interp/Inputs/dynamic-layout.mlir -o %t/out.mlir --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --check-prefix=F32 --input-file=%t/dyn_f32_matmul0.json
// RUN: FileCheck %s --check-prefix=BF16 --input-file=%t/dyn_bf16_matmul0.json
// RUN: FileCheck %s --check-prefix=LINEAR --input-file=%t/dyn_linear_matmul0.json
// RUN: FileCheck %s --check-prefix=BATCH --input-file=%t/dyn_bbatch_matmul0.json
// RUN: FileCheck %s --check-prefix=ONE --input-file=%t/dyn_one_matmul0.json
// RUN: FileCheck %s --check-prefix=ROW --input-file=%t/dyn_row_matmul0.json
// RUN: FileCheck %s --check-prefix=ROWPTX --input-file=%t/dyn_row_matmul0.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/dyn_bf16_matmul0.ptx
// RUN: FileCheck %s --check-prefix=F32PTX --input-file=%t/dyn_f32_matmul0.ptx
// RUN: FileCheck %s --check-prefix=HOST --input-file=%t/out.mlir
// RUN: tile-opt %S/../Interp/Inputs/dynamic-layout.mlir --tile-matmul-tiling | FileCheck %s --check-prefix=IR
// RUN: not tile-opt %S/../Interp/Inputs/dynamic-layout.mlir --tile-matmul-tiling="index-bitwidth=32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INDEX32

// F32: "params": [
// F32-NEXT: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 100, "cols": 72, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 16, "access": "read"},
// F32-NEXT: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 72, "cols": 96, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 16, "access": "read"},
// F32-NEXT: {"name": "C", "role": "result", "element_type": "f32", "rows": 100, "cols": 96, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 4, "access": "readwrite"}

// B's offset is static (0: no field), its row stride dynamic; the TMA reads
// A and B in place (the runtime checks the launch's strides on 16 bytes).
// BF16: {"name": "A", "role": "lhs", "element_type": "bf16", "rows": 130, "cols": 136, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 16, "access": "read"},
// BF16-NEXT: {"name": "B", "role": "rhs", "element_type": "bf16", "rows": 136, "cols": 72, "row_stride": "dynamic", "col_stride": 1, "alignment": 16, "access": "read"},
// BF16-NEXT: {"name": "C", "role": "result", "element_type": "f32", "rows": 130, "cols": 72, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 8, "access": "readwrite"}
// BF16: "tensor_maps": [
// BF16-NEXT: {"param": "A", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B"},
// BF16-NEXT: {"param": "B", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B"}

// B stored N x K: its dynamic stride is the col_stride.
// LINEAR: {"name": "B", "role": "rhs", "element_type": "bf16", "rows": 64, "cols": 96, "row_stride": 1, "col_stride": "dynamic", "offset": "dynamic", "alignment": 16, "access": "read"},

// BATCH: {"name": "A", "role": "lhs", "element_type": "f16", "rows": 130, "cols": 72, "row_stride": "dynamic", "col_stride": 1, "batch_stride": "dynamic", "offset": "dynamic", "alignment": 16, "access": "read"},
// BATCH: {"param": "A", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B", "batched": true},

// A batch of one: its dynamic batch strides are never stepped and become
// static (16 bytes' worth, not lowering A's alignment), not parameters (no
// batch_stride in the manifest).
// ONE: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 64, "cols": 32, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 16, "access": "read"},
// ONE-NEXT: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 32, "cols": 64, "row_stride": 64, "col_stride": 1, "alignment": 16, "access": "read"},
// ONE-NEXT: {"name": "C", "role": "result", "element_type": "f32", "rows": 64, "cols": 64, "row_stride": "dynamic", "col_stride": 1, "alignment": 4, "access": "readwrite"}

// A and C of one row: their row strides are never stepped and become
// static (the manifest writes a one-row param's columns), not parameters;
// their offsets and B's row stride stay dynamic: three values.
// ROW: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 1, "cols": 40, "row_stride": 40, "col_stride": 1, "offset": "dynamic",
// ROW-NEXT: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 40, "cols": 24, "row_stride": "dynamic", "col_stride": 1, "alignment": 16,
// ROW-NEXT: {"name": "C", "role": "result", "element_type": "f32", "rows": 1, "cols": 24, "row_stride": 24, "col_stride": 1, "offset": "dynamic",
// ROWPTX: .param .u64 dyn_row_matmul0_param_5
// ROWPTX-NEXT: )

// A, B, C, two tensor maps, then A's offset and row stride, B's row
// stride, C's offset and row stride.
// PTX: .visible .entry dyn_bf16_matmul0(
// PTX-NEXT: .param .u64 .ptr .align 1 dyn_bf16_matmul0_param_0,
// PTX-NEXT: .param .u64 .ptr .align 1 dyn_bf16_matmul0_param_1,
// PTX-NEXT: .param .u64 .ptr .align 1 dyn_bf16_matmul0_param_2,
// PTX-NEXT: .param .align 64 .b8 dyn_bf16_matmul0_param_3[128],
// PTX-NEXT: .param .align 64 .b8 dyn_bf16_matmul0_param_4[128],
// PTX-NEXT: .param .u64 dyn_bf16_matmul0_param_5,
// PTX-NEXT: .param .u64 dyn_bf16_matmul0_param_6,
// PTX-NEXT: .param .u64 dyn_bf16_matmul0_param_7,
// PTX-NEXT: .param .u64 dyn_bf16_matmul0_param_8,
// PTX-NEXT: .param .u64 dyn_bf16_matmul0_param_9
// PTX-NEXT: )
// The TMA reads A and B (the runtime encodes their maps from the launch's
// layouts): the kernel itself reads only C's offset and row stride.
// PTX-NOT: [dyn_bf16_matmul0_param_5]
// PTX-NOT: [dyn_bf16_matmul0_param_6]
// PTX-NOT: [dyn_bf16_matmul0_param_7]
// PTX-DAG: ld.param.b64 %{{.*}}, [dyn_bf16_matmul0_param_8];
// PTX-DAG: ld.param.b64 %{{.*}}, [dyn_bf16_matmul0_param_9];
// The FMA kernel addresses A, B and C itself: it reads all six.
// F32PTX: .param .u64 dyn_f32_matmul0_param_8
// F32PTX-NEXT: )
// F32PTX-DAG: ld.param.b64 %{{.*}}, [dyn_f32_matmul0_param_3];
// F32PTX-DAG: ld.param.b64 %{{.*}}, [dyn_f32_matmul0_param_4];
// F32PTX-DAG: ld.param.b64 %{{.*}}, [dyn_f32_matmul0_param_5];
// F32PTX-DAG: ld.param.b64 %{{.*}}, [dyn_f32_matmul0_param_6];
// F32PTX-DAG: ld.param.b64 %{{.*}}, [dyn_f32_matmul0_param_7];
// F32PTX-DAG: ld.param.b64 %{{.*}}, [dyn_f32_matmul0_param_8];

// HOST-LABEL: func.func @dyn_bf16(
// HOST: memref.extract_strided_metadata %arg0
// HOST: gpu.launch_func {{ *}}@dyn_bf16_matmul0::@dyn_bf16_matmul0 {{.*}} args({{.*}} : memref<130x136xbf16>, {{.*}} : memref<136x72xbf16>, {{.*}} : memref<130x72xf32>, {{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr, {{.*}} : i64, {{.*}} : i64, {{.*}} : i64, {{.*}} : i64, {{.*}} : i64)

// IR-LABEL: gpu.func @dyn_f32_matmul0(%{{.*}}: memref<100x72xf32, strided<[?, 1], offset: ?>> {{.*}}, %{{.*}}: memref<72x96xf32, strided<[?, 1], offset: ?>> {{.*}}, %{{.*}}: memref<100x96xf32, strided<[?, 1], offset: ?>> {{.*}})
// IR-SAME: layout_a = array<i64: -1, -1>, layout_b = array<i64: -1, -1>, layout_c = array<i64: -1, -1>
// IR-LABEL: gpu.func @dyn_bbatch_matmul0(
// IR-SAME: layout_a = array<i64: -1, -1, -1>

// INDEX32: error: 'linalg.matmul' op index-bitwidth=32 cannot address an operand with a dynamic offset or stride, which may reach any element (its kernel computes offsets in 64 bits)
