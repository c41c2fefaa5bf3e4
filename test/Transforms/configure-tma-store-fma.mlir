// RUN: tile-opt %s --tile-configure=store=tma -verify-diagnostics

// An f32 matmul's config is the fma strategy's, which stores C from its
// threads' registers: store=tma is an error at the op.
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error-re @+1 {{cannot use tile config #tile.config<{{.*}}>: store = tma needs the wgmma strategy}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
