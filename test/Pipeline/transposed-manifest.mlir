// Transposed operands in the manifest: the param of an operand stored
// transposed is its logical matrix stored column-major (row_stride 1,
// col_stride = rows), which tile-run verify and bench read as such; a
// wgmma B stored N x K gets a tensor map of the stored rows (box BN x BK)
// and `tile.matmul` records the transposes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o %t/out.mlir --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --check-prefix=NT --input-file=%t/linear_matmul0.json
// RUN: FileCheck %s --check-prefix=TN --input-file=%t/at_matmul0.json
// RUN: FileCheck %s --check-prefix=WGMMA --input-file=%t/linear_bf16_matmul0.json
// RUN: FileCheck %s --check-prefix=REPACK --input-file=%t/linear_odd_matmul0.json
// RUN: FileCheck %s --check-prefix=IR --input-file=%t/out.mlir
// RUN: FileCheck %s --check-prefix=TA --input-file=%t/at_bf16_matmul0.json
// RUN: FileCheck %s --check-prefix=TAPTX --input-file=%t/at_bf16_matmul0.ptx
// Every wgmma of the kernel reads A M-major and B N-major (imm-trans-a 1,
// imm-trans-b 1), none A K-major.
// RUN: not grep -E "wgmma.mma_async.*p, 1, +1, 0, +[01];" %t/at_bf16_matmul0.ptx

// NT: "problem": {"m": 64, "n": 48, "k": 32,
// NT: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 64, "cols": 32, "row_stride": 32, "col_stride": 1, "alignment": 16, "access": "read"}
// NT: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 32, "cols": 48, "row_stride": 1, "col_stride": 32, "alignment": 16, "access": "read"}
// NT: {"name": "C", "role": "result", "element_type": "f32", "rows": 64, "cols": 48, "row_stride": 48, "col_stride": 1,
func.func @linear(%x: memref<64x32xf32>, %w: memref<48x32xf32>, %c: memref<64x48xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%x, %w : memref<64x32xf32>, memref<48x32xf32>) outs(%c : memref<64x48xf32>)
  return
}

// A stored K x M = 20 x 30: M is not a multiple of 4, so A's vectors are
// narrower (alignment 8 = two f32 along m).
// TN: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 30, "cols": 20, "row_stride": 1, "col_stride": 30, "alignment": 8, "access": "read"}
// TN: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 20, "cols": 40, "row_stride": 40, "col_stride": 1,
func.func @at(%a: memref<20x30xf32>, %b: memref<20x40xf32>, %c: memref<30x40xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<20x30xf32>, memref<20x40xf32>) outs(%c : memref<30x40xf32>)
  return
}

// WGMMA: {"name": "B", "role": "rhs", "element_type": "bf16", "rows": 256, "cols": 512, "row_stride": 1, "col_stride": 256, "alignment": 16, "access": "read"}
// WGMMA: "tensor_maps": [
// WGMMA-NEXT: {"param": "A", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B"}
// WGMMA-NEXT: {"param": "B", "box": [[[BN:[0-9]+]], 64], "swizzle": "128B", "l2_promotion": "128B"}
// WGMMA-NEXT: ],
// WGMMA: "config": {"strategy": "wgmma", "block": [{{[0-9]+}}, [[BN]], 64]
func.func @linear_bf16(%x: memref<128x256xbf16>, %w: memref<512x256xbf16>, %c: memref<128x512xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%x, %w : memref<128x256xbf16>, memref<512x256xbf16>) outs(%c : memref<128x512xf32>)
  return
}

// K = 100 (200-byte rows of A and of the stored B): with the TMA (written
// on the op: at this size the model copies through registers) both maps
// repack to rows of 128 elements (256 bytes: on 128-byte lines); N = 64 does
// not matter for B's stored rows.
// REPACK: {"name": "B", "role": "rhs", "element_type": "bf16", "rows": 100, "cols": 64, "row_stride": 1, "col_stride": 100, "alignment": 2, "access": "read"}
// REPACK: {"param": "A", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B", "repack_row_stride": 128}
// REPACK-NEXT: {"param": "B", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B", "repack_row_stride": 128}
func.func @linear_odd(%x: memref<128x100xbf16>, %w: memref<64x100xbf16>, %c: memref<128x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], copy = tma, repack = true>}
    ins(%x, %w : memref<128x100xbf16>, memref<64x100xbf16>) outs(%c : memref<128x64xf32>)
  return
}

// IR-DAG: gpu.module @linear_matmul0
// IR-DAG: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 32 : i64, m = 64 : i64, n = 48 : i64, transpose_b = true}
// IR-DAG: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 20 : i64, m = 30 : i64, n = 40 : i64, transpose_a = true}

// wgmma, A stored K x M = 192 x 256 (bf16): the param is column-major; A's
// tensor map has a box of 64 stored rows (k) by 64 m, read in place (M =
// 256 is 512 bytes); the kernel's wgmma instructions read A M-major.
// TA: {"name": "A", "role": "lhs", "element_type": "bf16", "rows": 256, "cols": 192, "row_stride": 1, "col_stride": 256, "alignment": 16, "access": "read"}
// TA: "tensor_maps": [
// TA-NEXT: {"param": "A", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B"}
// TA-NEXT: {"param": "B", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B"}
// TA-NEXT: ],
// TAPTX: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 1;
func.func @at_bf16(%a: memref<192x256xbf16>, %b: memref<192x128xbf16>, %c: memref<256x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<192x256xbf16>, memref<192x128xbf16>) outs(%c : memref<256x128xf32>)
  return
}
