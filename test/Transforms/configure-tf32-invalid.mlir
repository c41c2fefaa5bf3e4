// RUN: tile-opt %s -split-input-file --tile-configure -verify-diagnostics

// A wgmma config written on an f32 matmul is TF32, which wgmma reads only
// K-major (B stored K x N: test/Transforms/configure-invalid.mlir).
func.func @a_km(%A: memref<256x256xf32>, %W: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{has 'f32' inputs, which the wgmma strategy computes as TF32 only with both operands K-major (A stored M x K, B stored N x K); A is stored K x M (the fma strategy computes it in FP32)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 32], warpgroup = [64, 128], mma = [64, 128, 8], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>}
    ins(%A, %W : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// A 128-byte swizzled row holds 32 f32: a block tile K of 64 is refused.
func.func @block_k(%A: memref<256x256xf32>, %W: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{block tile K (64) must be 32 for 32-bit elements: one 128-byte row of the swizzled layout}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>}
    ins(%A, %W : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The TF32 instruction is k8.
func.func @mma_k(%A: memref<256x256xf32>, %W: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{the wgmma k step for 32-bit elements is 8, got 16}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 32], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>}
    ins(%A, %W : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}
