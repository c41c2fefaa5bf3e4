// RUN: tile-opt %s --tile-block-tile -split-input-file | FileCheck %s

// A 256x192 result in 64x64 block tiles: a 4x3 grid of tiles launched as
// 12 blocks of (64/32)*(64/32) warps = 128 threads, with parameters
// (A, B, C) in that order.

// CHECK-LABEL: func.func @full_tiles
//  CHECK-SAME: (%[[A:.*]]: memref<256x128xf32>, %[[B:.*]]: memref<128x192xf32>, %[[C:.*]]: memref<256x192xf32>)
//   CHECK-DAG: %[[GRID:.*]] = arith.constant 12 : index
//   CHECK-DAG: %[[THREADS:.*]] = arith.constant 128 : index
//       CHECK: gpu.launch_func @full_tiles_matmul0::@full_tiles_matmul0 blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%[[THREADS]], %{{.*}}, %{{.*}}) args(%[[A]] : memref<256x128xf32>, %[[B]] : memref<128x192xf32>, %[[C]] : memref<256x192xf32>)
//   CHECK-NOT: linalg.matmul
//       CHECK: return

// The kernel: A and B read-only and unaliased (ld.global.nc), C unaliased;
// every element offset fits in 31 bits, so index arithmetic is 32-bit.
//       CHECK: gpu.module @full_tiles_matmul0 attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>}
//       CHECK: gpu.func @full_tiles_matmul0(%[[KA:.*]]: memref<256x128xf32> {llvm.noalias, llvm.readonly}, %[[KB:.*]]: memref<128x192xf32> {llvm.noalias, llvm.readonly}, %[[KC:.*]]: memref<256x192xf32> {llvm.noalias}) kernel
//  CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 12, 1, 1>
//  CHECK-SAME: tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 2, smem = pad(4), prefetch = true>
//  CHECK-SAME: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 128 : i64, m = 256 : i64, n = 192 : i64}, tile.stage = "block"

// Swizzled launch order, groups of 2 tile rows (3 tile columns), every
// group full (4 rows): group = bid / 6, first row = 2 * group,
// row = first + (bid mod 6) mod 2, column = (bid mod 6) / 2; every divisor
// a constant.
//       CHECK: %[[BID:.*]] = gpu.block_id x
//       CHECK: %[[TID:.*]] = gpu.thread_id x
//       CHECK: %[[C6:.*]] = arith.constant 6 : index
//       CHECK: %[[GROUP:.*]] = arith.divui %[[BID]], %[[C6]] : index
//       CHECK: %[[C2:.*]] = arith.constant 2 : index
//       CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[C2]] : index
//       CHECK: %[[INGROUP:.*]] = arith.remui %[[BID]], %[[C6]] : index
//       CHECK: %[[C2B:.*]] = arith.constant 2 : index
//       CHECK: %[[ROWIN:.*]] = arith.remui %[[INGROUP]], %[[C2B]] : index
//       CHECK: %[[C2C:.*]] = arith.constant 2 : index
//       CHECK: %[[COL:.*]] = arith.divui %[[INGROUP]], %[[C2C]] : index
//   CHECK-NOT: arith.select
//       CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[ROWIN]] : index
//       CHECK: %[[ROW0:.*]] = arith.muli %[[ROW]], %{{.*}} : index
//       CHECK: %[[COL0:.*]] = arith.muli %[[COL]], %{{.*}} : index

// The block's tile, full size (256 and 192 are multiples of 64), computed by
// thread 0 for now.
//       CHECK: %[[SA:.*]] = memref.subview %[[KA]][%[[ROW0]], 0] [64, 128] [1, 1]
//       CHECK: %[[SB:.*]] = memref.subview %[[KB]][0, %[[COL0]]] [128, 64] [1, 1]
//       CHECK: %[[SC:.*]] = memref.subview %[[KC]][%[[ROW0]], %[[COL0]]] [64, 64] [1, 1]
//       CHECK: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
//       CHECK: scf.if %[[T0]] {
//       CHECK:   linalg.matmul {tile.config = #tile.config<{{.*}}>} ins(%[[SA]], %[[SB]] : {{.*}}) outs(%[[SC]] : {{.*}})
//       CHECK: }
//       CHECK: gpu.return
#cfg = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], swizzle = 2>
func.func @full_tiles(%A: memref<256x128xf32>, %B: memref<128x192xf32>, %C: memref<256x192xf32>) {
  linalg.matmul {tile.config = #cfg} ins(%A, %B : memref<256x128xf32>, memref<128x192xf32>) outs(%C : memref<256x192xf32>)
  return
}

// -----

// 5 tile rows in groups of 3 (3 tile columns): the last group has 2 rows,
// known here, so the row and column in a group are selected between
// divisions by 3 and by 2 (group 1 is the last); no division by a value
// (a subroutine call in SASS, which ptxas lets wgmma accumulator reads pass).
// The order: blocks 0-8 are rows 0-2 column by column, blocks 9-14 rows
// 3-4.

// CHECK-LABEL: gpu.func @partial_group_matmul0
//       CHECK: %[[BID:.*]] = gpu.block_id x
//       CHECK: %[[C9:.*]] = arith.constant 9 : index
//       CHECK: %[[GROUP:.*]] = arith.divui %[[BID]], %[[C9]] : index
//       CHECK: %[[C3:.*]] = arith.constant 3 : index
//       CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[C3]] : index
//       CHECK: %[[INGROUP:.*]] = arith.remui %[[BID]], %[[C9]] : index
//       CHECK: %[[C3B:.*]] = arith.constant 3 : index
//       CHECK: %[[ROWIN3:.*]] = arith.remui %[[INGROUP]], %[[C3B]] : index
//       CHECK: %[[C3C:.*]] = arith.constant 3 : index
//       CHECK: %[[COL3:.*]] = arith.divui %[[INGROUP]], %[[C3C]] : index
//       CHECK: %[[C1:.*]] = arith.constant 1 : index
//       CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[GROUP]], %[[C1]] : index
//       CHECK: %[[C2:.*]] = arith.constant 2 : index
//       CHECK: %[[ROWIN2:.*]] = arith.remui %[[INGROUP]], %[[C2]] : index
//       CHECK: %[[ROWIN:.*]] = arith.select %[[LAST]], %[[ROWIN2]], %[[ROWIN3]] : index
//       CHECK: %[[C2B:.*]] = arith.constant 2 : index
//       CHECK: %[[COL2:.*]] = arith.divui %[[INGROUP]], %[[C2B]] : index
//       CHECK: %[[COL:.*]] = arith.select %[[LAST]], %[[COL2]], %[[COL3]] : index
//       CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[ROWIN]] : index
//       CHECK: arith.muli %[[ROW]], %{{.*}} {tile.tile_origin = "row"} : index
//       CHECK: arith.muli %[[COL]], %{{.*}} {tile.tile_origin = "col"} : index
func.func @partial_group(%A: memref<320x16xf32>, %B: memref<16x192xf32>, %C: memref<320x192xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], swizzle = 3>}
    ins(%A, %B : memref<320x16xf32>, memref<16x192xf32>) outs(%C : memref<320x192xf32>)
  return
}

// -----

// 100x70 in 64x64 tiles: the last tile row and column are smaller, so the
// tile extents are min(64, extent - origin), and a 2x2 grid is launched.

// CHECK-LABEL: func.func @edge_tiles
//       CHECK: gpu.launch_func @edge_tiles_matmul0::@edge_tiles_matmul0 blocks in (%[[GRID:.*]], %{{.*}}, %{{.*}})
//       CHECK: gpu.func @edge_tiles_matmul0
//  CHECK-SAME: known_grid_size = array<i32: 4, 1, 1>
//       CHECK: %[[ROW0:.*]] = arith.muli %{{.*}}, %c64{{.*}} : index
//       CHECK: %[[COL0:.*]] = arith.muli %{{.*}}, %c64{{.*}} : index
//       CHECK: %[[ROWSLEFT:.*]] = arith.subi %[[C100:.*]], %[[ROW0]] : index
//       CHECK: %[[ROWS:.*]] = arith.minui %[[ROWSLEFT]], %[[C64:.*]] : index
//       CHECK: %[[COLSLEFT:.*]] = arith.subi %[[C70:.*]], %[[COL0]] : index
//       CHECK: %[[COLS:.*]] = arith.minui %[[COLSLEFT]], %{{.*}} : index
//       CHECK: memref.subview %{{.*}}[%[[ROW0]], 0] [%[[ROWS]], 30] [1, 1] : memref<100x30xf32> to memref<?x30xf32, strided<[30, 1], offset: ?>>
//       CHECK: memref.subview %{{.*}}[0, %[[COL0]]] [30, %[[COLS]]] [1, 1] : memref<30x70xf32> to memref<30x?xf32, strided<[70, 1], offset: ?>>
//       CHECK: memref.subview %{{.*}}[%[[ROW0]], %[[COL0]]] [%[[ROWS]], %[[COLS]]] [1, 1] : memref<100x70xf32> to memref<?x?xf32, strided<[70, 1], offset: ?>>
func.func @edge_tiles(%A: memref<100x30xf32>, %B: memref<30x70xf32>, %C: memref<100x70xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<100x30xf32>, memref<30x70xf32>) outs(%C : memref<100x70xf32>)
  return
}

// -----

// A linalg.fill of C with a constant right before the matmul becomes the
// kernel's C initialisation: C is then only written (c_init = "fill").

// CHECK-LABEL: func.func @fill_then_matmul
//   CHECK-NOT: linalg.fill
//       CHECK: gpu.launch_func
//   CHECK-NOT: linalg.fill
//       CHECK: gpu.func @fill_then_matmul_matmul0
//  CHECK-SAME: tile.matmul = {c_fill = 2.500000e-01 : f32, c_init = "fill", c_type = f32, element_type = f32, k = 16 : i64, m = 64 : i64, n = 64 : i64}
//       CHECK: %[[V:.*]] = arith.constant 2.500000e-01 : f32
//       CHECK: scf.if
//  CHECK-NEXT:   linalg.fill ins(%[[V]] : f32) outs(%[[SC:.*]] : memref<64x64xf32, strided<[64, 1], offset: ?>>)
//  CHECK-NEXT:   linalg.matmul {{.*}} outs(%[[SC]] : memref<64x64xf32, strided<[64, 1], offset: ?>>)
func.func @fill_then_matmul(%A: memref<64x16xf32>, %B: memref<16x64xf32>, %C: memref<64x64xf32>) {
  %cst = arith.constant 0.25 : f32
  linalg.fill ins(%cst : f32) outs(%C : memref<64x64xf32>)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<64x16xf32>, memref<16x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// A fill whose value is not a constant stays where it is (on the host), and
// the kernel accumulates into C.

// CHECK-LABEL: func.func @fill_with_argument
//       CHECK: linalg.fill ins(%{{.*}} : f32)
//       CHECK: gpu.launch_func
//       CHECK: gpu.func @fill_with_argument_matmul0
//  CHECK-SAME: c_init = "accumulate"
func.func @fill_with_argument(%A: memref<64x16xf32>, %B: memref<16x64xf32>, %C: memref<64x64xf32>, %v: f32) {
  linalg.fill ins(%v : f32) outs(%C : memref<64x64xf32>)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<64x16xf32>, memref<16x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// Every configured matmul becomes its own kernel, counted per function; a
// matmul without a config is left alone.

// CHECK-LABEL: func.func @two_matmuls
//       CHECK: gpu.launch_func @two_matmuls_matmul0::@two_matmuls_matmul0 {{.*}} args(%arg0 : memref<32x8xf32>, %arg1 : memref<8x32xf32>, %arg2 : memref<32x32xf32>)
//       CHECK: gpu.launch_func @two_matmuls_matmul1::@two_matmuls_matmul1 {{.*}} args(%arg2 : memref<32x32xf32>, %arg3 : memref<32x64xf32>, %arg4 : memref<32x64xf32>)
//       CHECK: linalg.matmul ins(%arg0, %arg1
// CHECK-LABEL: func.func @other
//       CHECK: gpu.launch_func @other_matmul0::@other_matmul0
//   CHECK-DAG: gpu.module @two_matmuls_matmul0
//   CHECK-DAG: gpu.module @two_matmuls_matmul1
//   CHECK-DAG: gpu.module @other_matmul0
#small = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>
func.func @two_matmuls(%A: memref<32x8xf32>, %B: memref<8x32xf32>, %C: memref<32x32xf32>, %D: memref<32x64xf32>, %E: memref<32x64xf32>) {
  linalg.matmul {tile.config = #small} ins(%A, %B : memref<32x8xf32>, memref<8x32xf32>) outs(%C : memref<32x32xf32>)
  linalg.matmul {tile.config = #small} ins(%C, %D : memref<32x32xf32>, memref<32x64xf32>) outs(%E : memref<32x64xf32>)
  linalg.matmul ins(%A, %B : memref<32x8xf32>, memref<8x32xf32>) outs(%C : memref<32x32xf32>)
  return
}
func.func @other(%A: memref<32x8xf32>, %B: memref<8x32xf32>, %C: memref<32x32xf32>) {
  linalg.matmul {tile.config = #small} ins(%A, %B : memref<32x8xf32>, memref<8x32xf32>) outs(%C : memref<32x32xf32>)
  return
}

// -----

// Without configured matmuls the module is unchanged (no container attribute).

// CHECK-LABEL: module {
//       CHECK: func.func @nothing
//  CHECK-NEXT: return
func.func @nothing() {
  return
}

// -----

// occupancy = 2 becomes nvvm.minctasm (ptxas caps registers to fit two
// blocks per SM).

// CHECK-LABEL: gpu.func @occupancy_hint_matmul0
//  CHECK-SAME: nvvm.minctasm = 2 : i32
func.func @occupancy_hint(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], occupancy = 2>}
    ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}
