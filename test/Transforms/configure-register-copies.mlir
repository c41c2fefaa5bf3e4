// RUN: tile-opt %s --tile-configure | FileCheck %s --check-prefix=MODEL
// RUN: tile-opt %s --tile-configure=copy=registers | FileCheck %s --check-prefix=REGS
// RUN: tile-opt %s --tile-configure="copy=registers block=64,256,64 warp=64,256 thread=64,256" | FileCheck %s --check-prefix=GIVEN

// copy=registers where the cost model's pick has one consumer warpgroup:
// the model proposes copies through registers with two consumers or more
// only (a lone 64x256 consumer spilled; this shape's 64x256 tiles with
// register copies: 2848 bytes of spill stores at occupancy 2), so the
// option takes the best-ranked config with two or more, with its ring.
// Tiles given as options are the user's: kept.
// Both operands' rows are off 16 bytes (2223 and 6121 bf16 elements): the
// model repacks them for the TMA.
// MODEL: tile.config = #tile.config<strategy = wgmma, block = [64, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 2, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true, store = tma, occupancy = 2>
// REGS: tile.config = #tile.config<strategy = wgmma, block = [64, 256, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 5, copy = registers, specialize = true, swizzle = 8, smem = swizzle128>
// GIVEN: tile.config = #tile.config<strategy = wgmma, block = [64, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = {{[0-9]+}}, copy = registers, specialize = true,
func.func @tt(%a: memref<6121x2223xbf16>, %b: memref<3792x6121xbf16>, %c: memref<2223x3792xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<2223x3792xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<6121x2223xbf16>, memref<3792x6121xbf16>) outs(%c : memref<2223x3792xf32>)
  return
}
