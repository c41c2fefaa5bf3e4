// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --check-prefix=KONLY --input-file=%t/konly_matmul0.json
// RUN: FileCheck %s --check-prefix=BOTH --input-file=%t/both_matmul0.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/both_matmul0.ptx
// Repacking off: the same shapes copy through registers, no tensor maps.
// RUN: rm -rf %t.regs && mkdir -p %t.regs
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t.regs ptxas=off copy=registers"
// RUN: FileCheck %s --check-prefix=REGS --input-file=%t.regs/both_matmul0.json

// Rows the TMA cannot read in place (K or N not a multiple of 8 f16/bf16
// elements) are repacked by the runtime into rows padded to 128 bytes (64
// elements: each TMA box row one 128-byte line); the manifest's tensor map
// says how (repack_row_stride), and the param it repacks needs only element
// alignment, since the kernel reads the copy.

// K = 1001 (2002-byte rows of A): A's map repacks to rows of 1024; B's rows
// (256 elements, on 128 bytes) are read in place and keep the TMA's 16-byte
// alignment.
// KONLY: {"name": "A", "role": "lhs", "element_type": "f16", "rows": 300, "cols": 1001, "row_stride": 1001, "col_stride": 1, "alignment": 2, "access": "read"}
// KONLY: {"name": "B", "role": "rhs", "element_type": "f16", "rows": 1001, "cols": 256, "row_stride": 256, "col_stride": 1, "alignment": 16, "access": "read"}
// KONLY: "tensor_maps": [
// KONLY-NEXT: {"param": "A", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B", "repack_row_stride": 1024}
// KONLY-NEXT: {"param": "B", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B"}
// KONLY-NEXT: ],
// KONLY: "copy": "tma", "repack": true, "specialize": true,
// KONLY: "text": "#tile.config<strategy = wgmma, {{.*}}, repack = true{{.*}}>"
func.func @konly(%a: memref<300x1001xf16>, %b: memref<1001x256xf16>, %c: memref<300x256xf16>) {
  linalg.matmul ins(%a, %b : memref<300x1001xf16>, memref<1001x256xf16>) outs(%c : memref<300x256xf16>)
  return
}

// K = 999 and N = 777: both repacked, to rows of 1024 and 832.
// BOTH: {"name": "A", {{.*}}"rows": 500, "cols": 999, "row_stride": 999, "col_stride": 1, "alignment": 2,
// BOTH: {"name": "B", {{.*}}"rows": 999, "cols": 777, "row_stride": 777, "col_stride": 1, "alignment": 2,
// BOTH: {"param": "A", "box": [{{[0-9]+}}, 64], "swizzle": "128B", "l2_promotion": "128B", "repack_row_stride": 1024}
// BOTH-NEXT: {"param": "B", "box": [64, 64], "swizzle": "128B", "l2_promotion": "128B", "repack_row_stride": 832}
// The kernel is the TMA kernel: bulk tensor copies, no element loads of A.
// PTX: cp.async.bulk.tensor.2d
// PTX: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.bf16.bf16
// REGS: "params": [
// REGS: "alignment": 2,
// REGS: "tensor_maps": [],
// REGS: "copy": "registers", "specialize": true,
func.func @both(%a: memref<500x999xbf16>, %b: memref<999x777xbf16>, %c: memref<500x777xf32>) {
  linalg.matmul ins(%a, %b : memref<500x999xbf16>, memref<999x777xbf16>) outs(%c : memref<500x777xf32>)
  return
}
