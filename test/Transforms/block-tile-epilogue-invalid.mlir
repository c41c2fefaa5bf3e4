// A split-K config written on a matmul with a fused epilogue (tile-configure
// rejects it; IR written by hand reaches tile-block-tile).
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-fuse-epilogues --tile-block-tile

func.func @split_k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %bias: memref<64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op split_k = 2 cannot run a fused epilogue (tile-configure rejects it)}}
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4], split_k = 2>} ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Marked fused by hand, but it writes another buffer.
func.func @marked_elsewhere(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %d: memref<64x64xf32>) {
  linalg.matmul {tile.epilogue = {operands = [], steps = []}, tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>} ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.generic' op is marked tile.fused_epilogue but cannot be fused: it does not update the matmul's C in place}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf32>) attrs = {tile.fused_epilogue} {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  }
  return
}

