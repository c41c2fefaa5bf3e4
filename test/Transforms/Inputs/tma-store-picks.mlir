// 3000^3 (a bf16 tuning-table shape) and 128x4096x4096, C = 0 + A*B with an f32 C (configure-tma-store.mlir).
func.func @big(%a: memref<3000x3000xbf16>, %b: memref<3000x3000xbf16>, %c: memref<3000x3000xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<3000x3000xf32>)
  linalg.matmul ins(%a, %b : memref<3000x3000xbf16>, memref<3000x3000xbf16>) outs(%c : memref<3000x3000xf32>)
  return
}
func.func @deep(%a: memref<128x4096xbf16>, %b: memref<4096x4096xbf16>, %c: memref<128x4096xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<128x4096xf32>)
  linalg.matmul ins(%a, %b : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%c : memref<128x4096xf32>)
  return
}
