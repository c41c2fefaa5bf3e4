// RUN: tile-opt %s -split-input-file --tile-configure --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline=persistent-blocks=3 --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline --canonicalize --cse | FileCheck %s --check-prefix=CHIP

// persistent = true: 200x200 in 128x128 blocks is 4 tiles; with
// persistent-blocks=3 the grid has 3 blocks and block b computes tiles b,
// b + 3, ... Both roles walk the same tiles, each computing the tile's
// origin from its number (the swizzle of tile-block-tile, which read the
// block id); slab k of the block's i-th tile is slab i * 7 + k of the ring
// (K = 448: 7 slabs), so its slot is (base + k) % 3 and the parity of its
// round (base + k) / 3: the ring runs on from tile to tile.
// CHECK-LABEL: gpu.launch_func @tma_ws_matmul0::@tma_ws_matmul0 blocks in (%c3, %c1, %c1)
// CHECK: gpu.func @tma_ws_matmul0
// CHECK-SAME: known_grid_size = array<i32: 3, 1, 1>
// CHECK-SAME: tile.persistent_blocks = 3 : i64
// CHECK-NOT: gpu.block_id
// CHECK: nvvm.setmaxregister decrease 40
// CHECK-NEXT: scf.if %[[LEADER:.+]] {
// CHECK-NEXT: %[[BX:.+]] = gpu.block_id x
// CHECK-NEXT: %[[GX:.+]] = gpu.grid_dim x
// CHECK-NEXT: scf.for %[[T:.+]] = %[[BX]] to %c4 step %[[GX]] iter_args(%[[BASE:.+]] = %c0) -> (index) {
// The tile's row and column in the swizzled order (group of 8 tile rows,
// here 2 rows of 2), from the tile number; every divisor a constant (a
// division by a value is a call in SASS, which ptxas lets the consumers'
// accumulator reads pass).
// CHECK-NEXT: %[[G:.+]] = arith.divui %[[T]], %c4
// CHECK-NEXT: %[[FIRST:.+]] = arith.muli %[[G]], %c2
// CHECK-NEXT: %[[IN:.+]] = arith.remui %[[T]], %c4
// CHECK-NEXT: %[[R:.+]] = arith.remui %[[IN]], %c2
// CHECK-NEXT: %[[COL:.+]] = arith.divui %[[IN]], %c2
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[FIRST]], %[[R]]
// CHECK-NEXT: %[[ROW0:.+]] = arith.muli %[[ROW]], %c128 {tile.tile_origin = "row"}
// CHECK-NEXT: %[[COL0:.+]] = arith.muli %[[COL]], %c128 {tile.tile_origin = "col"}
// CHECK-NEXT: scf.for %[[K:.+]] = %c0 to %c7 step %c1 {
// CHECK-NEXT: %[[RING:.+]] = arith.addi %[[BASE]], %[[K]]
// CHECK-NEXT: %[[REUSE:.+]] = arith.cmpi uge, %[[RING]], %c3
// CHECK-NEXT: scf.if %[[REUSE]] {
// CHECK-NEXT: %[[ES:.+]] = arith.remui %[[RING]], %c3
// CHECK-NEXT: %[[ER:.+]] = arith.divui %[[RING]], %c3
// CHECK-NEXT: %[[EP:.+]] = arith.subi %[[ER]], %c1
// CHECK-NEXT: %[[EP2:.+]] = arith.remui %[[EP]], %c2
// CHECK-NEXT: %[[EPAR:.+]] = arith.index_cast %[[EP2]] : index to i1
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[EMPTY:.+]][%[[ES]]], %[[EPAR]]
// CHECK-NEXT: }
// The slab's k comes from k (its place in the tile), its slot from the ring.
// CHECK-NEXT: %[[K0:.+]] = arith.muli %[[K]], %c64
// CHECK-NEXT: %[[S:.+]] = arith.remui %[[RING]], %c3
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL:.+]][%[[S]]], %c32768
// CHECK-NEXT: nvgpu.tma.async.load %arg3[%[[K0]], %[[ROW0]]], %[[FULL]][%[[S]]]
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[COL0]], %[[K0]]], %[[FULL]][%[[S]]]
// CHECK: {{^ +}}}
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[BASE]], %c7
// CHECK-NEXT: scf.yield %[[NEXT]] : index
// CHECK-NEXT: }
// CHECK-NEXT: }
// The consumers: the same tiles; C's loads (C += A*B), the K loop and the
// stores of C all inside the tile loop, at the tile's origin.
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK-NEXT: %[[CBX:.+]] = gpu.block_id x
// CHECK-NEXT: %[[CGX:.+]] = gpu.grid_dim x
// CHECK-NEXT: scf.for %[[CT:.+]] = %[[CBX]] to %c4 step %[[CGX]] iter_args(%[[CBASE:.+]] = %c0) -> (index) {
// CHECK: %[[CROW0:.+]] = arith.muli %{{.+}}, %c128 {tile.tile_origin = "row"}
// CHECK-NEXT: %[[CCOL0:.+]] = arith.muli %{{.+}}, %c128 {tile.tile_origin = "col"}
// CHECK: vector.load %arg2[%{{.+}}, %{{.+}}]
// CHECK: scf.for %[[CK:.+]] = %c0 to %c7 step %c1 iter_args
// CHECK-NEXT: %[[CRING:.+]] = arith.addi %[[CBASE]], %[[CK]]
// CHECK-NEXT: %[[CS:.+]] = arith.remui %[[CRING]], %c3
// CHECK-NEXT: %[[CR:.+]] = arith.divui %[[CRING]], %c3
// CHECK-NEXT: %[[CR2:.+]] = arith.remui %[[CR]], %c2
// CHECK-NEXT: %[[CPAR:.+]] = arith.index_cast %[[CR2]] : index to i1
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[CS]]], %[[CPAR]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// The previous slab's slot, from the tile's second slab on (slab k - 1 of
// the tile is slab ring - 1 of the ring) ...
// CHECK-NEXT: %[[PREV:.+]] = arith.cmpi uge, %[[CK]], %c1
// CHECK-NEXT: %[[REL:.+]] = arith.andi %[[PREV]], %[[LEADER]]
// CHECK-NEXT: scf.if %[[REL]] {
// CHECK-NEXT: %[[P:.+]] = arith.subi %[[CRING]], %c1
// CHECK-NEXT: %[[PS:.+]] = arith.remui %[[P]], %c3
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PS]]]
// CHECK: } {tile.k_loop}
// ... and the tile's last slot (slab base + 6) once its group has retired,
// before the epilogue: the producer fills the next tile's first 3 slots
// while the consumers store C.
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: %[[LAST:.+]] = arith.addi %[[CBASE]], %c6
// CHECK-NEXT: %[[LS:.+]] = arith.remui %[[LAST]], %c3
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[LS]]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[CNEXT:.+]] = arith.addi %[[CBASE]], %c7
// CHECK: %[[SR:.+]] = arith.addi %[[CROW0]], %{{.+}}
// CHECK-NEXT: %[[SC:.+]] = arith.addi %[[CCOL0]], %{{.+}}
// CHECK-NEXT: vector.store %{{.+}}, %arg2[%[[SR]], %[[SC]]]
// CHECK: scf.yield %[[CNEXT]] : index
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return

// Without persistent-blocks: one block per SM of sm_90 (132, occupancy 1)
// where there are more tiles, one per tile where there are fewer (4 here).
// CHIP-LABEL: gpu.launch_func @tma_ws_matmul0::@tma_ws_matmul0 blocks in (%c4, %c1, %c1)
// CHIP: known_grid_size = array<i32: 4, 1, 1>
// CHIP-SAME: tile.persistent_blocks = 4 : i64
func.func @tma_ws(%A: memref<200x448xbf16>, %B: memref<448x200xbf16>, %C: memref<200x200xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, persistent = true>}
    ins(%A, %B : memref<200x448xbf16>, memref<448x200xbf16>) outs(%C : memref<200x200xf32>)
  return
}

// -----

// A batched persistent kernel: the tiles of every matrix in one sequence
// (3 matrices of 2x2 tiles: 12) on a grid of 3 x 1; tile t is tile t % 4
// of matrix t / 4, which the TMA's 3-d boxes and C's accesses take where
// the one-block-per-tile kernel reads block y.
// CHECK-LABEL: gpu.launch_func @batched_matmul0::@batched_matmul0 blocks in (%c3, %c1, %c1)
// CHECK: known_grid_size = array<i32: 3, 1, 1>
// CHECK-NOT: gpu.block_id y
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %c12 step %{{.+}} iter_args
// CHECK-NEXT: %[[IN:.+]] = arith.remui %[[T]], %c4
// CHECK-NEXT: %[[MATRIX:.+]] = arith.divui %[[T]], %c4
// CHECK: %[[ROW0:.+]] = arith.muli %{{.+}}, %c64 {tile.tile_origin = "row"}
// CHECK-NEXT: %[[COL0:.+]] = arith.muli %{{.+}}, %c64 {tile.tile_origin = "col"}
// CHECK: nvgpu.tma.async.load %arg3[%c0, %[[ROW0]], %[[MATRIX]]]
// CHECK: nvgpu.tma.async.load %arg4[%[[COL0]], %c0, %[[MATRIX]]]
// CHECK: scf.for %[[CT:.+]] = %{{.+}} to %c12 step %{{.+}} iter_args
// CHECK-NEXT: %[[CIN:.+]] = arith.remui %[[CT]], %c4
// CHECK-NEXT: %[[CMATRIX:.+]] = arith.divui %[[CT]], %c4
// CHECK: vector.load %arg2[%[[CMATRIX]], %{{.+}}, %{{.+}}]
// CHECK: vector.store %{{.+}}, %arg2[%[[CMATRIX]], %{{.+}}, %{{.+}}]
// CHECK-NOT: gpu.block_id y
// CHIP-LABEL: gpu.launch_func @batched_matmul0::@batched_matmul0 blocks in (%c12, %c1, %c1)
func.func @batched(%A: memref<3x70x64xbf16>, %B: memref<3x64x72xbf16>, %C: memref<3x70x72xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 2, persistent = true>}
    ins(%A, %B : memref<3x70x64xbf16>, memref<3x64x72xbf16>) outs(%C : memref<3x70x72xf32>)
  return
}

// -----

// More tiles than fit on the chip: 4096x2048 in 128x256 blocks is 256
// tiles; without persistent-blocks the grid is the 132 SMs of sm_90 at the
// config's one block per SM.
// CHECK-LABEL: gpu.launch_func @many_matmul0::@many_matmul0 blocks in (%c3, %c1, %c1)
// CHECK: scf.for %{{.+}} = %{{.+}} to %c256 step
// CHIP-LABEL: gpu.launch_func @many_matmul0::@many_matmul0 blocks in (%c132, %c1, %c1)
// CHIP: known_grid_size = array<i32: 132, 1, 1>
// CHIP-SAME: tile.persistent_blocks = 132 : i64
func.func @many(%A: memref<4096x64xbf16>, %B: memref<64x2048xbf16>, %C: memref<4096x2048xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 2, persistent = true>}
    ins(%A, %B : memref<4096x64xbf16>, memref<64x2048xbf16>) outs(%C : memref<4096x2048xf32>)
  return
}

// -----

// At occupancy 2, two blocks per SM: 2048x1024 in 64x64 blocks is 512
// tiles on 264 blocks.
// CHECK-LABEL: gpu.launch_func @two_per_sm_matmul0::@two_per_sm_matmul0 blocks in (%c3, %c1, %c1)
// CHIP-LABEL: gpu.launch_func @two_per_sm_matmul0::@two_per_sm_matmul0 blocks in (%c264, %c1, %c1)
// CHIP: known_grid_size = array<i32: 264, 1, 1>
func.func @two_per_sm(%A: memref<2048x64xbf16>, %B: memref<64x1024xbf16>, %C: memref<2048x1024xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 2, occupancy = 2, persistent = true>}
    ins(%A, %B : memref<2048x64xbf16>, memref<64x1024xbf16>) outs(%C : memref<2048x1024xf32>)
  return
}
