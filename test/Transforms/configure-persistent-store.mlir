// RUN: tile-opt %s --tile-configure | FileCheck %s
// RUN: tile-opt %s --tile-configure=tuning-table=none | FileCheck %s --check-prefix=MODEL
// RUN: tile-opt %s --tile-configure=persistent=false | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --tile-configure=store=registers | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --tile-configure=split-k=2 | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --tile-configure=cluster=2x1 | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --tile-configure=specialize=false | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s --tile-configure="tuning-table=none block=256,128,64 warp=64,128 thread=64,128" | FileCheck %s --check-prefix=TILES
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128" | FileCheck %s --check-prefix=TTILES
// RUN: tile-opt %s --tile-configure=store=tma | FileCheck %s --check-prefix=STORE

// The cost model makes a kernel persistent (one block per SM walks the
// tiles, the TMA's writes of C overlap the next tile's main loop) where it
// writes C through TMA stores, every tile is whole and the tiles take more
// than one wave (modelTakesPersistent). Nowhere else: not with partial
// tiles, not in one wave, not without the store (C read first). An option
// that rules out the store or a persistent kernel (store=registers,
// split-k=, cluster=, specialize=false) or says persistent=false gives one
// block per tile.
// OFF-LABEL: func.func @batched
// OFF: tile.config = #tile.config<strategy = wgmma,
// OFF-NOT: persistent
// OFF-LABEL: func.func @partial
// OFF: tile.config = #tile.config<strategy = wgmma,
// OFF-NOT: persistent
// OFF-LABEL: func.func @onewave
// OFF: tile.config = #tile.config<strategy = wgmma,
// OFF-NOT: persistent
// OFF-LABEL: func.func @accumulate
// OFF: tile.config = #tile.config<strategy = wgmma,
// OFF-NOT: persistent
// OFF-LABEL: func.func @table_one_wave
// OFF: tile.config = #tile.config<strategy = wgmma,
// OFF-NOT: persistent
// OFF-LABEL: func.func @neighbour
// OFF: tile.config = #tile.config<strategy = wgmma,
// OFF-NOT: persistent
// Tiles given as options: the rule holds for them once the ring is fitted
// to them (three slots beside the staging buffers); 8 x 2048^3 and
// 2048x2560 have whole 256x128 tiles past one wave, 1024x2048 (64 tiles)
// and 2048^3 (128) one wave. With the tuning table the same (the table's
// entries get the option's tiles): 2048^3 has 256 128x128 tiles.
// TILES-LABEL: func.func @batched
// TILES: tile.config = #tile.config<strategy = wgmma, block = [256, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
// TILES-LABEL: func.func @partial
// TILES: tile.config = #tile.config<strategy = wgmma, block = [256, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
// TILES-LABEL: func.func @onewave
// TILES: tile.config = #tile.config<strategy = wgmma, block = [256, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
// TILES-LABEL: func.func @table_one_wave
// TILES: tile.config = #tile.config<strategy = wgmma, block = [256, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
// TILES-LABEL: func.func @neighbour
// TILES: tile.config = #tile.config<strategy = wgmma, block = [256, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 3, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
// TTILES-LABEL: func.func @onewave
// TTILES: tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 6, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
// TTILES-LABEL: func.func @table_one_wave
// TTILES: tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
// TTILES-LABEL: func.func @neighbour
// TTILES: tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
// store=tma asked for: the same schedule as the model's own store (the
// table's neighbour entry too).
// STORE-LABEL: func.func @batched
// STORE: persistent = true, store = tma>
// STORE-LABEL: func.func @neighbour
// STORE: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>

// 8 x 2048^3, 128x256 tiles: 1024 whole tiles on 132 SMs.
// CHECK-LABEL: func.func @batched
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
// MODEL-LABEL: func.func @batched
// MODEL: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
func.func @batched(%a: memref<8x2048x2048xbf16>, %b: memref<8x2048x2048xbf16>, %c: memref<8x2048x2048xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<8x2048x2048xf32>)
  linalg.batch_matmul ins(%a, %b : memref<8x2048x2048xbf16>, memref<8x2048x2048xbf16>) outs(%c : memref<8x2048x2048xf32>)
  return
}

// 3000^3: the store, but 128x256 tiles are partial at both edges (the
// tuning table's entry, and the model's own pick).
// CHECK-LABEL: func.func @partial
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma, occupancy = 1>
// MODEL-LABEL: func.func @partial
// MODEL: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
func.func @partial(%a: memref<3000x3000xbf16>, %b: memref<3000x3000xbf16>, %c: memref<3000x3000xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<3000x3000xf32>)
  linalg.matmul ins(%a, %b : memref<3000x3000xbf16>, memref<3000x3000xbf16>) outs(%c : memref<3000x3000xf32>)
  return
}

// 1024x2048x2048, 128x128 tiles: 128 whole tiles, one wave.
// CHECK-LABEL: func.func @onewave
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 6, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
func.func @onewave(%a: memref<1024x2048xbf16>, %b: memref<2048x2048xbf16>, %c: memref<1024x2048xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<1024x2048xf32>)
  linalg.matmul ins(%a, %b : memref<1024x2048xbf16>, memref<2048x2048xbf16>) outs(%c : memref<1024x2048xf32>)
  return
}

// C += A*B: no store (the kernel reads C), so no persistent kernel.
// CHECK-LABEL: func.func @accumulate
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>
func.func @accumulate(%a: memref<8x2048x2048xbf16>, %b: memref<8x2048x2048xbf16>, %c: memref<8x2048x2048xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<8x2048x2048xbf16>, memref<8x2048x2048xbf16>) outs(%c : memref<8x2048x2048xf32>)
  return
}

// 2048^3 is the table's own entry: the model adds the store, but its 128
// whole 128x256 tiles take one wave.
// CHECK-LABEL: func.func @table_one_wave
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>
func.func @table_one_wave(%a: memref<2048x2048xbf16>, %b: memref<2048x2048xbf16>, %c: memref<2048x2048xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<2048x2048xf32>)
  linalg.matmul ins(%a, %b : memref<2048x2048xbf16>, memref<2048x2048xbf16>) outs(%c : memref<2048x2048xf32>)
  return
}

// 2048x2560x2048 takes the tuning table's 2048^3 entry (one block per
// tile, measured with C from registers): the model adds the store and,
// over 160 whole 128x256 tiles, the persistent schedule. Without the
// table, the model's own 128x128 tiles (320 whole ones) the same.
// CHECK-LABEL: func.func @neighbour
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
// MODEL-LABEL: func.func @neighbour
// MODEL: tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 6, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, store = tma>
func.func @neighbour(%a: memref<2048x2048xbf16>, %b: memref<2048x2560xbf16>, %c: memref<2048x2560xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<2048x2560xf32>)
  linalg.matmul ins(%a, %b : memref<2048x2048xbf16>, memref<2048x2560xbf16>) outs(%c : memref<2048x2560xf32>)
  return
}
