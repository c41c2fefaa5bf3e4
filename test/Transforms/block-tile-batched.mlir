// RUN: tile-opt %s --tile-block-tile -split-input-file | FileCheck %s

// A batch of 3 matmuls 100x70x30 in 64x64 block tiles: 4 tiles per matrix
// along the grid's x, one row of blocks per matrix along its y. Block
// (x, y) takes matrix y of A, B and C (rank-reducing subviews at
// [y, 0, 0]) and its tile of that matrix, as an unbatched kernel would.

// CHECK-LABEL: func.func @batched
//  CHECK-SAME: (%[[A:.*]]: memref<3x100x30xf32>, %[[B:.*]]: memref<3x30x70xf32>, %[[C:.*]]: memref<3x100x70xf32>)
//   CHECK-DAG: %[[GRID:.*]] = arith.constant 4 : index
//   CHECK-DAG: %[[BATCH:.*]] = arith.constant 3 : index
//       CHECK: gpu.launch_func @batched_matmul0::@batched_matmul0 blocks in (%[[GRID]], %[[BATCH]], %{{.*}}) threads in ({{.*}}) args(%[[A]] : memref<3x100x30xf32>, %[[B]] : memref<3x30x70xf32>, %[[C]] : memref<3x100x70xf32>)
//   CHECK-NOT: linalg.batch_matmul
//       CHECK: return

//       CHECK: gpu.func @batched_matmul0(%[[KA:.*]]: memref<3x100x30xf32> {llvm.noalias, llvm.readonly}, %[[KB:.*]]: memref<3x30x70xf32> {llvm.noalias, llvm.readonly}, %[[KC:.*]]: memref<3x100x70xf32> {llvm.noalias}) kernel
//  CHECK-SAME: known_grid_size = array<i32: 4, 3, 1>
//  CHECK-SAME: tile.matmul = {batch = 3 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 30 : i64, m = 100 : i64, n = 70 : i64}
//       CHECK: gpu.block_id x
//       CHECK: gpu.thread_id x
//       CHECK: %[[Y:.*]] = gpu.block_id y
//       CHECK: %[[MA:.*]] = memref.subview %[[KA]][%[[Y]], 0, 0] [1, 100, 30] [1, 1, 1] : memref<3x100x30xf32> to memref<100x30xf32, strided<[30, 1], offset: ?>>
//       CHECK: %[[MB:.*]] = memref.subview %[[KB]][%[[Y]], 0, 0] [1, 30, 70] [1, 1, 1] : memref<3x30x70xf32> to memref<30x70xf32, strided<[70, 1], offset: ?>>
//       CHECK: %[[MC:.*]] = memref.subview %[[KC]][%[[Y]], 0, 0] [1, 100, 70] [1, 1, 1] : memref<3x100x70xf32> to memref<100x70xf32, strided<[70, 1], offset: ?>>
//       CHECK: %[[ROW0:.*]] = arith.muli %{{.*}}, %c64{{.*}} : index
//       CHECK: %[[COL0:.*]] = arith.muli %{{.*}}, %c64{{.*}} : index
//       CHECK: %[[ROWS:.*]] = arith.minui
//       CHECK: %[[COLS:.*]] = arith.minui
//       CHECK: %[[SA:.*]] = memref.subview %[[MA]][%[[ROW0]], 0] [%[[ROWS]], 30] [1, 1]
//       CHECK: %[[SB:.*]] = memref.subview %[[MB]][0, %[[COL0]]] [30, %[[COLS]]] [1, 1]
//       CHECK: %[[SC:.*]] = memref.subview %[[MC]][%[[ROW0]], %[[COL0]]] [%[[ROWS]], %[[COLS]]] [1, 1]
//       CHECK: scf.if
//       CHECK:   linalg.matmul {tile.config = #tile.config<{{.*}}>} ins(%[[SA]], %[[SB]] : {{.*}}) outs(%[[SC]] : {{.*}})
//       CHECK: gpu.return
func.func @batched(%A: memref<3x100x30xf32>, %B: memref<3x30x70xf32>, %C: memref<3x100x70xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<3x100x30xf32>, memref<3x30x70xf32>) outs(%C : memref<3x100x70xf32>)
  return
}

// -----

// B stored N x K per matrix (indexing maps): matrix y of the stored B, its
// block subview transposed back; a fill of C before the matmul becomes the
// kernel's initialisation.

// CHECK-LABEL: func.func @batched_tb
//       CHECK: gpu.func @batched_tb_matmul0(%{{.*}}: memref<2x64x16xf32> {{.*}}, %[[KB:.*]]: memref<2x32x16xf32> {{.*}}, %{{.*}}: memref<2x64x32xf32> {{.*}})
//  CHECK-SAME: tile.matmul = {batch = 2 : i64, c_fill = 0.000000e+00 : f32, c_init = "fill", c_type = f32, element_type = f32, k = 16 : i64, m = 64 : i64, n = 32 : i64, transpose_b = true}
//       CHECK: %[[Y:.*]] = gpu.block_id y
//       CHECK: %[[MB:.*]] = memref.subview %[[KB]][%[[Y]], 0, 0] [1, 32, 16] [1, 1, 1] : memref<2x32x16xf32> to memref<32x16xf32, strided<[16, 1], offset: ?>>
//       CHECK: %[[SB:.*]] = memref.subview %[[MB]][%{{.*}}, 0] [32, 16] [1, 1]
//       CHECK: memref.transpose %[[SB]] (d0, d1) -> (d1, d0)
//       CHECK: linalg.fill
//       CHECK: linalg.matmul
func.func @batched_tb(%A: memref<2x64x16xf32>, %B: memref<2x32x16xf32>, %C: memref<2x64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x64x32xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    {tile.config = #tile.config<block = [64, 32, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<2x64x16xf32>, memref<2x32x16xf32>) outs(%C : memref<2x64x32xf32>)
  return
}
