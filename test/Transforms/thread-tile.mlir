// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --canonicalize --cse -split-input-file | FileCheck %s

// 32x32 warp tiles of 4x8 thread tiles: the 32 lanes form an 8x4 grid;
// lane (lm, ln) = (lane / 4, lane mod 4) holds rows lm*4 + 0..3 and columns
// ln*4 + 0..3 and ln*4 + 16 + 0..3 of its warp tile: 8 accumulators of
// vector<4xf32>, loaded from C before the K loop, carried through it as
// iter_args and stored after it. Each k step loads 1 + 2 16-byte fragments
// from shared memory and does 4 * 2 vector FMAs (32 scalar FMAs).

// CHECK-LABEL: gpu.func @lanes_matmul0
//  CHECK-SAME: tile.stage = "thread"
//       CHECK: %[[TID:.*]] = gpu.thread_id x
//       CHECK: %[[AS:.*]] = memref.view {{.*}} {tile.shared = "A"}
//       CHECK: %[[BS:.*]] = memref.view {{.*}} {tile.shared = "B"}
//       CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32 : index
//       CHECK: %[[LM:.*]] = arith.divui %[[LANE]], %c4 : index
//       CHECK: %[[LN:.*]] = arith.remui %[[LANE]], %c4 : index
//       CHECK: %[[LROW:.*]] = arith.muli %[[LM]], %c4 : index
//       CHECK: %[[LCOL:.*]] = arith.muli %[[LN]], %c4 : index
//       CHECK: %[[LCOL16:.*]] = arith.addi %[[LCOL]], %c16 : index
//   CHECK-COUNT-8: vector.load %arg2[{{.*}}] {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
//       CHECK: %[[RES:.*]]:8 = scf.for %{{.*}} = %c0 to %c64 step %c8 iter_args(%[[ACC0:[a-z0-9]+]] = %{{[0-9]+}}, {{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
//       CHECK:   gpu.barrier
//       CHECK:   %[[STEP:.*]]:8 = scf.for %[[KK:.*]] = %c0 to %c8 step %c1 iter_args(%[[A0:[a-z0-9]+]] = %[[ACC0]], %[[A1:[a-z0-9]+]] = %{{[a-z0-9]+}},
//       CHECK:     %[[FA:.*]] = vector.load %[[AS]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     %[[FB0:.*]] = vector.load %[[BS]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     %[[FB1:.*]] = vector.load %[[BS]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     %[[A00:.*]] = vector.extract %[[FA]][0] : f32 from vector<4xf32>
//       CHECK:     %[[SPLAT:.*]] = vector.broadcast %[[A00]] : f32 to vector<4xf32>
//       CHECK:     vector.fma %[[SPLAT]], %[[FB0]], %[[A0]] : vector<4xf32>
//       CHECK:     vector.fma %[[SPLAT]], %[[FB1]], %[[A1]] : vector<4xf32>
//   CHECK-COUNT-6: vector.fma
//   CHECK-NOT: vector.fma
//       CHECK:     scf.yield
//       CHECK:   }
//       CHECK:   gpu.barrier
//       CHECK:   scf.yield %[[STEP]]#0,
//       CHECK: } {tile.k_loop}
//       CHECK: vector.store %[[RES]]#0, %arg2[{{.*}}] {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
//   CHECK-COUNT-7: vector.store %[[RES]]
//       CHECK: gpu.return
func.func @lanes(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// C = 0.5 + A*B: the accumulators start as the fill value and C is only
// written.

// CHECK-LABEL: gpu.func @filled_matmul0
//       CHECK: %[[INIT:.*]] = arith.constant dense<5.000000e-01> : vector<4xf32>
//   CHECK-NOT: vector.load %arg2
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]], %{{.*}} = %[[INIT]],
//       CHECK: } {tile.k_loop}
//   CHECK-COUNT-8: vector.store
func.func @filled(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>) {
  %half = arith.constant 0.5 : f32
  linalg.fill ins(%half : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Edges: M = 40, N = 70. Rows and columns of the lane's tile are checked
// against the warp's part of the tile; N % 4 != 0 makes the global C accesses
// 2-element vectors (8-byte aligned), assembled into and taken out of the
// 4-wide accumulators with vector.shuffle.

// CHECK-LABEL: gpu.func @edge_lanes_matmul0
//       CHECK: %[[WROWS:.*]] = arith.minui %{{.*}}, %c32 : index
//       CHECK: %[[WCOLS:.*]] = arith.minui %{{.*}}, %c32 : index
//       CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK: %[[ROWOK:.*]] = arith.cmpi slt, %[[ROW]], %[[WROWS]] : index
//       CHECK: %[[COLOK:.*]] = arith.cmpi slt, %[[COL]], %[[WCOLS]] : index
//       CHECK: %[[OK:.*]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
//       CHECK: %[[PIECE:.*]] = scf.if %[[OK]] -> (vector<2xf32>) {
//       CHECK:   vector.load %arg2[{{.*}}] {alignment = 8 : i64} : memref<40x70xf32>, vector<2xf32>
//       CHECK: } else {
//       CHECK: vector.shuffle %{{.*}}, %[[PIECE]] [4, 5, 2, 3] : vector<4xf32>, vector<2xf32>
//       CHECK: scf.for
//       CHECK: } {tile.k_loop}
//       CHECK: scf.if %[[OK]] {
//       CHECK:   %[[OUT:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1] : vector<4xf32>, vector<4xf32>
//       CHECK:   vector.store %[[OUT]], %arg2[{{.*}}] {alignment = 8 : i64} : memref<40x70xf32>, vector<2xf32>
func.func @edge_lanes(%A: memref<40x16xf32>, %B: memref<16x70xf32>, %C: memref<40x70xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<40x16xf32>, memref<16x70xf32>) outs(%C : memref<40x70xf32>)
  return
}
