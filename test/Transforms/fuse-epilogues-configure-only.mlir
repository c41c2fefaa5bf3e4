// tile-configure alone on a fusable epilogue: it says to run
// tile-fuse-epilogues first.
// RUN: tile-opt %s -verify-diagnostics --tile-configure="tuning-table=none"

func.func @fusable(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %bias: memref<64xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it can be, but tile-fuse-epilogues did not run before tile-configure (the tile-matmul-to-ptx pipeline runs it)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}
