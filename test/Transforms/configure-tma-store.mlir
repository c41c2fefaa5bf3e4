// RUN: tile-opt %s --tile-configure | FileCheck %s --check-prefix=MODEL
// RUN: tile-opt %s --tile-configure=store=tma | FileCheck %s --check-prefix=TMA

// store=tma asked for: where the cost model's pick cannot take a TMA store
// of C (warpgroup tiles narrower than a box of C, copies through
// registers, a split of K), the best-ranked config that can, with
// store = tma; a split of K chosen by the model is dropped.

// Rows of B (44 bf16) off 16 bytes: the model copies through registers,
// in 64x32 warpgroup tiles (one box of an f32 C is 32 columns: the store
// could take them, the copies not); the store takes the TMA on repacked
// copies.
// MODEL-LABEL: func.func @registers
// MODEL: warpgroup = [64, 32]{{.*}}copy = registers
// MODEL-NOT: store = tma
// TMA-LABEL: func.func @registers
// TMA: tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 2, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true, store = tma>
func.func @registers(%a: memref<86x16xbf16>, %b: memref<16x44xbf16>, %c: memref<86x44xf32>) {
  linalg.matmul ins(%a, %b : memref<86x16xbf16>, memref<16x44xbf16>) outs(%c : memref<86x44xf32>)
  return
}

// The model splits K 4 ways; a TMA store writes C whole.
// MODEL-LABEL: func.func @split
// MODEL: split_k = 4
// TMA-LABEL: func.func @split
// TMA: tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 5, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true, store = tma>
func.func @split(%a: memref<87x825xbf16>, %b: memref<825x252xbf16>, %c: memref<87x252xf32>) {
  linalg.matmul ins(%a, %b : memref<87x825xbf16>, memref<825x252xbf16>) outs(%c : memref<87x252xf32>)
  return
}

// The model's picks and the options. 3000^3 is in the bf16 tuning table
// (C stored from registers when measured): the model adds the store; an
// option the store cannot take (specialize=false, copy=registers) keeps
// the table's entry with C from registers; without the table, the model's
// own pick for 128x4096x4096 (64x32 warpgroup tiles, 12 slots beside the
// staging buffers) given store=registers or copy=registers gets back the
// slots the buffers took (14).
// RUN: tile-opt %S/Inputs/tma-store-picks.mlir --tile-configure | FileCheck %s --check-prefix=PICK
// RUN: tile-opt %S/Inputs/tma-store-picks.mlir --tile-configure=specialize=false | FileCheck %s --check-prefix=NOSPEC
// RUN: tile-opt %S/Inputs/tma-store-picks.mlir --tile-configure=copy=registers | FileCheck %s --check-prefix=REGCOPY
// RUN: tile-opt %S/Inputs/tma-store-picks.mlir --tile-configure=tuning-table=none | FileCheck %s --check-prefix=MODEL-PICK
// RUN: tile-opt %S/Inputs/tma-store-picks.mlir --tile-configure="tuning-table=none store=registers" | FileCheck %s --check-prefix=MODEL-REGS
// RUN: tile-opt %S/Inputs/tma-store-picks.mlir --tile-configure="tuning-table=none copy=registers" | FileCheck %s --check-prefix=MODEL-REGS
// PICK: #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma, occupancy = 1>
// NOSPEC: #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 4, copy = tma, specialize = false, swizzle = 8, smem = swizzle128, occupancy = 1>
// REGCOPY: #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 4, copy = registers, specialize = true, swizzle = 8, smem = swizzle128, occupancy = 1>
// MODEL-PICK: #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 32], mma = [64, 32, 16], stages = 12, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
// MODEL-REGS: #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 32], mma = [64, 32, 16], stages = 14, copy = {{tma|registers}}, specialize = true, swizzle = 8, smem = swizzle128>
