// Strided operands (memrefs with static strides and offsets: windows of
// bigger buffers) in the kernel and the manifest: the kernel's parameters
// keep the memref types (bare pointers to the buffers; the kernel adds the
// offsets and strides), `tile.matmul` records the layouts, and each param
// gets its row_stride (col_stride for one stored transposed), batch_stride
// and offset. Vector widths and alignments follow the offsets and strides;
// the TMA reads in place only where both are on 16 bytes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o %t/out.mlir --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --check-prefix=WINDOW --input-file=%t/window_matmul0.json
// RUN: FileCheck %s --check-prefix=NARROW --input-file=%t/narrow_matmul0.json
// RUN: FileCheck %s --check-prefix=LINEAR --input-file=%t/linear_matmul0.json
// RUN: FileCheck %s --check-prefix=BATCH --input-file=%t/batch_matmul0.json
// RUN: FileCheck %s --check-prefix=INPLACE --input-file=%t/bf16_in_place_matmul0.json
// RUN: FileCheck %s --check-prefix=REPACK --input-file=%t/bf16_repack_matmul0.json
// RUN: FileCheck %s --check-prefix=ONEROW --input-file=%t/one_row_matmul0.json
// RUN: FileCheck %s --check-prefix=ONEPITCH --input-file=%t/one_row_pitch_matmul0.json
// RUN: tile-opt %s --tile-matmul-tiling | FileCheck %s --check-prefix=IR

// (The f32 matmuls have configs of register double buffering, whose
// global loads are the vector.loads checked.)
// Rows of 128 elements, 64x32 / 32x48 / 64x48 windows at 16-byte offsets
// (C sharing no element with A or B):
// 16-byte vectors for A and B, as for dense operands (C is read and written
// one element at a time, as for dense ones).
// WINDOW: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 64, "cols": 32, "row_stride": 128, "col_stride": 1, "offset": 260, "alignment": 16, "access": "read"}
// WINDOW: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 32, "cols": 48, "row_stride": 128, "col_stride": 1, "offset": 4, "alignment": 16, "access": "read"}
// WINDOW: {"name": "C", "role": "result", "element_type": "f32", "rows": 64, "cols": 48, "row_stride": 128, "col_stride": 1, "offset": 8232, "alignment": 4, "access": "readwrite"}
// IR-LABEL: gpu.func @window_matmul0(%{{.*}}: memref<64x32xf32, strided<[128, 1], offset: 260>> {{.*}}, %{{.*}}: memref<32x48xf32, strided<[128, 1], offset: 4>> {{.*}}, %{{.*}}: memref<64x48xf32, strided<[128, 1], offset: 8232>> {{.*}})
// IR-SAME: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 32 : i64, layout_a = array<i64: 260, 128>, layout_b = array<i64: 4, 128>, layout_c = array<i64: 8232, 128>, m = 64 : i64, n = 48 : i64}
// IR: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x32xf32, strided<[128, 1], offset: 260>>, vector<4xf32>
// IR: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<32x48xf32, strided<[128, 1], offset: 4>>, vector<4xf32>
func.func @window(%big: memref<128x128xf32>) {
  %a = memref.subview %big[2, 4] [64, 32] [1, 1] : memref<128x128xf32> to memref<64x32xf32, strided<[128, 1], offset: 260>>
  %b = memref.subview %big[0, 4] [32, 48] [1, 1] : memref<128x128xf32> to memref<32x48xf32, strided<[128, 1], offset: 4>>
  %c = memref.subview %big[64, 40] [64, 48] [1, 1] : memref<128x128xf32> to memref<64x48xf32, strided<[128, 1], offset: 8232>>
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 16], warp = [32, 32], thread = [4, 8], stages = 2>}
    ins(%a, %b : memref<64x32xf32, strided<[128, 1], offset: 260>>, memref<32x48xf32, strided<[128, 1], offset: 4>>)
                outs(%c : memref<64x48xf32, strided<[128, 1], offset: 8232>>)
  return
}

// The same extents, but A's offset 2 and B's row stride 129: two-element
// vectors for A (alignment 8), single elements for B (alignment 4).
// NARROW: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 64, "cols": 32, "row_stride": 128, "col_stride": 1, "offset": 2, "alignment": 8, "access": "read"}
// NARROW: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 32, "cols": 48, "row_stride": 129, "col_stride": 1, "alignment": 4, "access": "read"}
// NARROW: {"name": "C", "role": "result", "element_type": "f32", "rows": 64, "cols": 48, "row_stride": 48, "col_stride": 1, "offset": 1, "alignment": 4, "access": "readwrite"}
// IR-LABEL: gpu.func @narrow_matmul0(
// IR: vector.load %arg0[{{.*}}] {alignment = 8 : i64} : memref<64x32xf32, strided<[128, 1], offset: 2>>, vector<2xf32>
// IR-NOT: vector.load %arg1
// IR: memref.load %arg1[{{.*}}] : memref<32x48xf32, strided<[129, 1]>>
func.func @narrow(%a: memref<64x32xf32, strided<[128, 1], offset: 2>>, %b: memref<32x48xf32, strided<[129, 1]>>,
                  %c: memref<64x48xf32, strided<[48, 1], offset: 1>>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 16], warp = [32, 32], thread = [4, 8], stages = 2>}
    ins(%a, %b : memref<64x32xf32, strided<[128, 1], offset: 2>>, memref<32x48xf32, strided<[129, 1]>>)
                outs(%c : memref<64x48xf32, strided<[48, 1], offset: 1>>)
  return
}

// B stored N x K (transposed) in rows of 40: its param is column-major,
// col_stride 40.
// LINEAR: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 32, "cols": 48, "row_stride": 1, "col_stride": 40, "offset": 8, "alignment": 16, "access": "read"}
func.func @linear(%x: memref<64x32xf32>, %w: memref<48x32xf32, strided<[40, 1], offset: 8>>, %c: memref<64x48xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%x, %w : memref<64x32xf32>, memref<48x32xf32, strided<[40, 1], offset: 8>>) outs(%c : memref<64x48xf32>)
  return
}

// A batch whose matrices are 3000 elements apart (one matrix spans 2047):
// batch_stride is the memref's, for A; B and C keep the dense ones.
// BATCH: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 32, "cols": 64, "row_stride": 64, "col_stride": 1, "batch_stride": 3000, "offset": 4, "alignment": 16, "access": "read"}
// BATCH: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 64, "cols": 16, "row_stride": 16, "col_stride": 1, "batch_stride": 1024, "alignment": 16, "access": "read"}
// IR-LABEL: gpu.func @batch_matmul0(%{{.*}}: memref<4x32x64xf32, strided<[3000, 64, 1], offset: 4>>
// IR-SAME: layout_a = array<i64: 4, 64, 3000>
func.func @batch(%a: memref<4x32x64xf32, strided<[3000, 64, 1], offset: 4>>, %b: memref<4x64x16xf32>, %c: memref<4x32x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x32x64xf32, strided<[3000, 64, 1], offset: 4>>, memref<4x64x16xf32>) outs(%c : memref<4x32x16xf32>)
  return
}

// bf16 with offsets and row strides on 16 bytes: the TMA reads A and B in
// place (no repack_row_stride, no repack); an f32 C at offset 2 is still
// stored in pairs (alignment 8).
// INPLACE: {"name": "A", "role": "lhs", "element_type": "bf16", "rows": 128, "cols": 64, "row_stride": 72, "col_stride": 1, "offset": 8, "alignment": 16, "access": "read"}
// INPLACE: {"name": "C", "role": "result", "element_type": "f32", "rows": 128, "cols": 128, "row_stride": 130, "col_stride": 1, "offset": 2, "alignment": 8,
// INPLACE: {"param": "A", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B"}
// INPLACE-NEXT: {"param": "B", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B"}
// INPLACE-NOT: "repack"
func.func @bf16_in_place(%a: memref<128x64xbf16, strided<[72, 1], offset: 8>>, %b: memref<64x128xbf16, strided<[136, 1], offset: 16>>,
                         %c: memref<128x128xf32, strided<[130, 1], offset: 2>>) {
  linalg.matmul ins(%a, %b : memref<128x64xbf16, strided<[72, 1], offset: 8>>, memref<64x128xbf16, strided<[136, 1], offset: 16>>)
                outs(%c : memref<128x128xf32, strided<[130, 1], offset: 2>>)
  return
}

// K = 64 (128-byte rows) but A at offset 4 (8 bytes) and B in rows of 130
// elements (260 bytes): with the TMA on repacked copies (the config asks
// for them) both are repacked into rows of their 64 and 128 columns; C's
// odd offset leaves its stores single (alignment 4).
// REPACK: {"name": "A", "role": "lhs", "element_type": "bf16", "rows": 128, "cols": 64, "row_stride": 64, "col_stride": 1, "offset": 4, "alignment": 2, "access": "read"}
// REPACK: {"name": "B", "role": "rhs", "element_type": "bf16", "rows": 64, "cols": 128, "row_stride": 130, "col_stride": 1, "alignment": 2, "access": "read"}
// REPACK: {"name": "C", "role": "result", "element_type": "f32", "rows": 128, "cols": 128, "row_stride": 128, "col_stride": 1, "offset": 1, "alignment": 4,
// REPACK: {"param": "A", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B", "repack_row_stride": 64}
// REPACK-NEXT: {"param": "B", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B", "repack_row_stride": 128}
// REPACK: "repack": true
func.func @bf16_repack(%a: memref<128x64xbf16, strided<[64, 1], offset: 4>>, %b: memref<64x128xbf16, strided<[130, 1]>>,
                       %c: memref<128x128xf32, strided<[128, 1], offset: 1>>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], repack = true>}
    ins(%a, %b : memref<128x64xbf16, strided<[64, 1], offset: 4>>, memref<64x128xbf16, strided<[130, 1]>>)
                outs(%c : memref<128x128xf32, strided<[128, 1], offset: 1>>)
  return
}

// One row of A (its row stride, 1 in the memref type, is never used): the
// param says row_stride 64, its length, so that the runtime reads it as a
// row-major 1 x 64 matrix.
// ONEROW: {"name": "A", "role": "lhs", "element_type": "bf16", "rows": 1, "cols": 64, "row_stride": 64, "col_stride": 1, "offset": 8,
func.func @one_row(%a: memref<1x64xbf16, strided<[1, 1], offset: 8>>, %b: memref<64x128xbf16>, %c: memref<1x128xf32>) {
  linalg.matmul ins(%a, %b : memref<1x64xbf16, strided<[1, 1], offset: 8>>, memref<64x128xbf16>) outs(%c : memref<1x128xf32>)
  return
}

// One row of A whose memref stride is a real pitch (1000 elements, 2000
// bytes: on 16 bytes, where its 100 elements, 200 bytes, are not): the param
// keeps the pitch, which the model took to read it in place with the TMA
// (its tensor map has no repack_row_stride); with the row's length the
// manifest's own check refused it.
// ONEPITCH: {"name": "A", "role": "lhs", "element_type": "bf16", "rows": 1, "cols": 100, "row_stride": 1000, "col_stride": 1, "alignment": 16, "access": "read"}
// ONEPITCH: "tensor_maps": [
// ONEPITCH-NEXT: {"param": "A",
// ONEPITCH-NOT: repack_row_stride
// ONEPITCH-SAME: }
func.func @one_row_pitch(%a: memref<1x100xbf16, strided<[1000, 1]>>, %b: memref<100x256xbf16>, %c: memref<1x256xf32>) {
  linalg.matmul ins(%a, %b : memref<1x100xbf16, strided<[1000, 1]>>, memref<100x256xbf16>) outs(%c : memref<1x256xf32>)
  return
}
