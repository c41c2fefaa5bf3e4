// RUN: tile-opt %s -split-input-file --tile-configure="store=tma block=64,64,64 warp=64,32 thread=64,32" -verify-diagnostics

// A TMA store (store = tma) writes C's rows in boxes of 64 rows by 128
// bytes from 16-byte aligned rows: where C's rows break that, or the
// warpgroup tile is narrower than a box, the error is at the op.

// N = 9 f32 elements: rows of 36 bytes.
func.func @rows_off_16_bytes(%a: memref<64x64xbf16>, %b: memref<64x9xbf16>, %c: memref<64x9xf32>) {
  // expected-error @+1 {{cannot use store = tma: C's rows (N = 9 elements of 4 bytes) are not on 16 bytes, which the TMA needs; use store = registers}}
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x9xbf16>) outs(%c : memref<64x9xf32>)
  return
}

// -----

// A strided C whose offset (6 bf16 elements) is off 16 bytes, though its
// rows (N = 64) and row stride (72) are on them.
func.func @offset_off_16_bytes(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xbf16, strided<[72, 1], offset: 6>>) {
  // expected-error @+1 {{cannot use store = tma: C's offset and strides (multiples of 6 elements of 2 bytes) do not keep its rows on 16 bytes, which the TMA needs; use store = registers}}
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xbf16, strided<[72, 1], offset: 6>>)
  return
}

// -----

// Warpgroup tiles 32 columns wide (the tiles given) hold half a box of a
// bf16 C (64 columns). (Without tiles given, the cost model's best config
// that takes the store: configure-tma-store.mlir.)
func.func @narrow_warpgroup(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %c: memref<128x128xbf16>) {
  // expected-error @+1 {{cannot use store = tma: it writes C 64 columns (128 bytes) at a time, and warpgroup tile N = 32 is not a multiple of 64}}
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%c : memref<128x128xbf16>)
  return
}
