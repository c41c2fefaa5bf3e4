// The addresses of strided epilogue operands in the PTX (32x32x8 blocks,
// 64 threads of 4x4, one stage). Static layouts fold into the loads: the
// bias (param 3) at element 3 (+12 bytes), the scale (param 4, f32) at
// element 2 (+8) with rows 5 apart, the bf16 residual (param 5) at element
// 130 (+260) with rows 64 apart (row << 6); C's rows are 41 apart. Dynamic
// layouts come as 5 i64 params after the 6 pointers, in param order: the
// bias's offset (6), the scale's offset and row stride (7, 8), the
// residual's offset and row stride (9, 10); each load adds offset * 4 and
// row * its row stride. The manifests (JSON) list each layout; a batched
// kernel (per-batch vectors, a shared residual) is there for its manifest.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off block=32,32,8 warp=16,32 thread=4,4 stages=1 tuning-table=none"
// RUN: FileCheck %s --check-prefix=STATIC --input-file=%t/static_layouts_matmul0.ptx
// RUN: FileCheck %s --check-prefix=DYN --input-file=%t/dynamic_layouts_matmul0.ptx
// RUN: cat %t/static_layouts_matmul0.json %t/dynamic_layouts_matmul0.json %t/batched_matmul0.json | FileCheck %s --check-prefix=JSON

// The manifests: each epilogue param with its operand's offset and row
// stride (a column vector's rows n apart, never stepped), "dynamic" where
// the memref has `?`; a per-batch vector's batch stride, dynamic or static;
// the shared residual of a batched kernel without one.
// JSON: {"name": "E0", "role": "epilogue", "element_type": "f32", "rows": 1, "cols": 41, "row_stride": 41, "col_stride": 1, "offset": 3, "alignment": 4, "access": "read"},
// JSON-NEXT: {"name": "E1", "role": "epilogue", "element_type": "f32", "rows": 37, "cols": 1, "row_stride": 5, "col_stride": 1, "offset": 2, "alignment": 4, "access": "read"},
// JSON-NEXT: {"name": "E2", "role": "epilogue", "element_type": "bf16", "rows": 37, "cols": 41, "row_stride": 64, "col_stride": 1, "offset": 130, "alignment": 2, "access": "read"}
// JSON: {"name": "E0", "role": "epilogue", "element_type": "f32", "rows": 1, "cols": 41, "row_stride": 41, "col_stride": 1, "offset": "dynamic", "alignment": 4, "access": "read"},
// JSON-NEXT: {"name": "E1", "role": "epilogue", "element_type": "f32", "rows": 37, "cols": 1, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 4, "access": "read"},
// JSON-NEXT: {"name": "E2", "role": "epilogue", "element_type": "f32", "rows": 37, "cols": 41, "row_stride": "dynamic", "col_stride": 1, "offset": "dynamic", "alignment": 4, "access": "read"}
// JSON: {"name": "E0", "role": "epilogue", "element_type": "f32", "rows": 1, "cols": 24, "row_stride": 24, "col_stride": 1, "batch_stride": "dynamic", "offset": "dynamic", "alignment": 4, "access": "read"},
// JSON-NEXT: {"name": "E1", "role": "epilogue", "element_type": "f32", "rows": 20, "cols": 1, "row_stride": 3, "col_stride": 1, "batch_stride": 64, "offset": 1, "alignment": 4, "access": "read"},
// JSON-NEXT: {"name": "E2", "role": "epilogue", "element_type": "f32", "rows": 20, "cols": 24, "row_stride": 32, "col_stride": 1, "offset": 8, "alignment": 4, "access": "read"}

#col = affine_map<(m, n) -> (n)>
#row = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

// STATIC: .param .u64 .ptr .align 1 static_layouts_matmul0_param_5
// STATIC-NEXT: )
// STATIC: ld.param.b64 [[P3:%rd[0-9]+]], [static_layouts_matmul0_param_3];
// STATIC-NEXT: cvta.to.global.u64 [[E0:%rd[0-9]+]], [[P3]];
// STATIC-NEXT: ld.param.b64 [[P4:%rd[0-9]+]], [static_layouts_matmul0_param_4];
// STATIC-NEXT: cvta.to.global.u64 [[E1:%rd[0-9]+]], [[P4]];
// STATIC-NEXT: ld.param.b64 [[P5:%rd[0-9]+]], [static_layouts_matmul0_param_5];
// STATIC-NEXT: cvta.to.global.u64 [[E2:%rd[0-9]+]], [[P5]];
// STATIC: mul.lo.s32 [[ROW5:%r[0-9]+]], [[ROW:%r[0-9]+]], 5;
// STATIC-NEXT: shl.b32 [[ROW64:%r[0-9]+]], [[ROW]], 6;
// STATIC: add.s64 [[A0:%rd[0-9]+]], [[E0]], {{%rd[0-9]+}};
// STATIC-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, {{\[}}[[A0]]+12];
// STATIC: mul.wide.u32 [[R1:%rd[0-9]+]], [[ROW5]], 4;
// STATIC-NEXT: add.s64 [[A1:%rd[0-9]+]], [[E1]], [[R1]];
// STATIC-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, {{\[}}[[A1]]+8];
// STATIC: or.b32 [[I2:%r[0-9]+]], [[ROW64]], [[COL:%r[0-9]+]];
// STATIC-NEXT: mul.wide.u32 [[B2:%rd[0-9]+]], [[I2]], 2;
// STATIC-NEXT: add.s64 [[A2:%rd[0-9]+]], [[E2]], [[B2]];
// STATIC-NEXT: ld.global.nc.b16 {{%rs[0-9]+}}, {{\[}}[[A2]]+260];
// STATIC: mad.lo.s32 {{%r[0-9]+}}, [[ROW]], 41, [[COL]];
func.func @static_layouts(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>,
    %bias: memref<41xf32, strided<[1], offset: 3>>, %scale: memref<37xf32, strided<[5], offset: 2>>,
    %res: memref<37x41xbf16, strided<[64, 1], offset: 130>>) {
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<41xf32, strided<[1], offset: 3>>, memref<37xf32, strided<[5], offset: 2>>, memref<37x41xbf16, strided<[64, 1], offset: 130>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %y: f32, %r: bf16, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %re = arith.extf %r : bf16 to f32
    %u = arith.addf %t, %re : f32
    linalg.yield %u : f32
  }
  return
}

// DYN: .param .u64 .ptr .align 1 dynamic_layouts_matmul0_param_5,
// DYN-NEXT: .param .u64 dynamic_layouts_matmul0_param_6,
// DYN-NEXT: .param .u64 dynamic_layouts_matmul0_param_7,
// DYN-NEXT: .param .u64 dynamic_layouts_matmul0_param_8,
// DYN-NEXT: .param .u64 dynamic_layouts_matmul0_param_9,
// DYN-NEXT: .param .u64 dynamic_layouts_matmul0_param_10
// DYN-NEXT: )
// DYN: ld.param.b64 [[P3:%rd[0-9]+]], [dynamic_layouts_matmul0_param_3];
// DYN-NEXT: cvta.to.global.u64 [[E0:%rd[0-9]+]], [[P3]];
// DYN-NEXT: ld.param.b64 [[P4:%rd[0-9]+]], [dynamic_layouts_matmul0_param_4];
// DYN-NEXT: cvta.to.global.u64 [[E1:%rd[0-9]+]], [[P4]];
// DYN-NEXT: ld.param.b64 [[P5:%rd[0-9]+]], [dynamic_layouts_matmul0_param_5];
// DYN-NEXT: cvta.to.global.u64 [[E2:%rd[0-9]+]], [[P5]];
// DYN: ld.param.b64 [[S2:%rd[0-9]+]], [dynamic_layouts_matmul0_param_10];
// DYN-NEXT: ld.param.b64 [[O2:%rd[0-9]+]], [dynamic_layouts_matmul0_param_9];
// DYN-NEXT: ld.param.b64 [[S1:%rd[0-9]+]], [dynamic_layouts_matmul0_param_8];
// DYN-NEXT: ld.param.b64 [[O1:%rd[0-9]+]], [dynamic_layouts_matmul0_param_7];
// DYN-NEXT: ld.param.b64 [[O0:%rd[0-9]+]], [dynamic_layouts_matmul0_param_6];
// DYN: shl.b64 [[O0B:%rd[0-9]+]], [[O0]], 2;
// DYN-NEXT: shl.b64 [[COL4:%rd[0-9]+]], {{%rd[0-9]+}}, 2;
// DYN-NEXT: shl.b64 [[O1B:%rd[0-9]+]], [[O1]], 2;
// DYN-NEXT: mul.lo.s64 [[R1:%rd[0-9]+]], [[S1]], [[ROW:%rd[0-9]+]];
// DYN-NEXT: shl.b64 [[O2B:%rd[0-9]+]], [[O2]], 2;
// DYN-NEXT: mul.lo.s64 [[R2:%rd[0-9]+]], [[S2]], [[ROW]];
// DYN-NEXT: mad.lo.s64 {{%rd[0-9]+}}, [[ROW]], 164,
// DYN: add.s64 [[T0:%rd[0-9]+]], [[E0]], [[O0B]];
// DYN-NEXT: add.s64 [[A0:%rd[0-9]+]], [[T0]], [[COL4]];
// DYN-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, {{\[}}[[A0]]];
// DYN: add.s64 [[T1:%rd[0-9]+]], [[E1]], [[O1B]];
// DYN-NEXT: shl.b64 [[R1B:%rd[0-9]+]], [[R1]], 2;
// DYN-NEXT: add.s64 [[A1:%rd[0-9]+]], [[T1]], [[R1B]];
// DYN-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, {{\[}}[[A1]]];
// DYN: add.s64 [[T2:%rd[0-9]+]], [[E2]], [[O2B]];
// DYN-NEXT: shl.b64 [[R2B:%rd[0-9]+]], [[R2]], 2;
// DYN-NEXT: add.s64 [[T3:%rd[0-9]+]], [[T2]], [[R2B]];
// DYN-NEXT: add.s64 [[A2:%rd[0-9]+]], [[T3]], [[COL4]];
// DYN-NEXT: ld.global.nc.b32 {{%r[0-9]+}}, {{\[}}[[A2]]];
func.func @dynamic_layouts(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>,
    %bias: memref<41xf32, strided<[1], offset: ?>>, %scale: memref<37xf32, strided<[?], offset: ?>>,
    %res: memref<37x41xf32, affine_map<(d0, d1)[s0, s1] -> (d0 * s1 + s0 + d1)>>) {
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<41xf32, strided<[1], offset: ?>>, memref<37xf32, strided<[?], offset: ?>>, memref<37x41xf32, affine_map<(d0, d1)[s0, s1] -> (d0 * s1 + s0 + d1)>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %u = arith.addf %t, %r : f32
    linalg.yield %u : f32
  }
  return
}

func.func @batched(%a: memref<3x20x16xf32>, %b: memref<3x16x24xf32>, %c: memref<3x20x24xf32>,
    %bias: memref<3x24xf32, strided<[?, 1], offset: ?>>, %scale: memref<3x20xf32, strided<[64, 3], offset: 1>>,
    %res: memref<20x24xf32, strided<[32, 1], offset: 8>>) {
  linalg.batch_matmul ins(%a, %b : memref<3x20x16xf32>, memref<3x16x24xf32>) outs(%c : memref<3x20x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<3x24xf32, strided<[?, 1], offset: ?>>, memref<3x20xf32, strided<[64, 3], offset: 1>>, memref<20x24xf32, strided<[32, 1], offset: 8>>) outs(%c : memref<3x20x24xf32>) {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %u = arith.addf %t, %r : f32
    linalg.yield %u : f32
  }
  return
}
