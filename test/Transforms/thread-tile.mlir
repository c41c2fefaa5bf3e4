// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --canonicalize --cse -split-input-file | FileCheck %s
// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile="fma-order=rows vector-c=true" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=ROWS
// RUN: not tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile="fma-order=columns" -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: tile-thread-tile: option 'fma-order' must be pairs or rows, got 'columns'

// 32x32 warp tiles of 4x8 thread tiles: the 32 lanes form an 8x4 grid;
// lane (lm, ln) = (lane / 4, lane mod 4) holds rows lm*4 + 0..3 and columns
// ln*4 + 0..3 and ln*4 + 16 + 0..3 of its warp tile: 8 accumulators of
// vector<4xf32>, loaded from C before the K loop, carried through it as
// iter_args and stored after it. Each k step loads 1 + 2 16-byte fragments
// from shared memory and does 32 scalar FMAs.
//
// Default (fma-order=pairs, vector-c=false): C is read and written one
// element at a time; the FMAs are 2-wide, in 2x2 groups: columns 0-1 for
// rows 0, 1, 2, 3, then columns 2-3 for rows 2, 3, 0, 1 (back up), ...

// The kernel records the alignment its C accesses need: one element's.
// CHECK-LABEL: gpu.func @lanes_matmul0
//  CHECK-SAME: tile.c_alignment = 4 : i64
//  CHECK-SAME: tile.stage = "thread"
//       CHECK: %[[TID:.*]] = gpu.thread_id x
//       CHECK: %[[AS:.*]] = memref.view {{.*}} {tile.shared = "A"}
//       CHECK: %[[BS:.*]] = memref.view {{.*}} {tile.shared = "B"}
//       CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32 : index
//       CHECK: %[[LM:.*]] = arith.divui %[[LANE]], %c4 : index
//       CHECK: %[[LN:.*]] = arith.remui %[[LANE]], %c4 : index
//       CHECK: %[[LROW:.*]] = arith.muli %[[LM]], %c4 : index
//       CHECK: %[[LCOL:.*]] = arith.muli %[[LN]], %c4 : index
//   CHECK-NOT: vector.load %arg2
//       CHECK: %[[C0:.*]] = memref.load %arg2[%[[ROW0:.*]], %[[COL0:.*]]] : memref<128x128xf32>
//       CHECK: %[[COL1:.*]] = arith.addi %[[COL0]], %c1 : index
//       CHECK: %[[C1:.*]] = memref.load %arg2[%[[ROW0]], %[[COL1]]] : memref<128x128xf32>
//       CHECK: memref.load %arg2
//       CHECK: memref.load %arg2
//       CHECK: %[[INIT0:.*]] = vector.from_elements %[[C0]], %[[C1]], %{{.*}}, %{{.*}} : vector<4xf32>
//   CHECK-COUNT-28: memref.load %arg2
//   CHECK-NOT: vector.load %arg2
//       CHECK: %[[RES:.*]]:8 = scf.for %{{.*}} = %c0 to %c64 step %c8 iter_args(%[[ACC0:[a-z0-9]+]] = %[[INIT0]], {{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
//       CHECK:   gpu.barrier
//       CHECK:   %[[STEP:.*]]:8 = scf.for %[[KK:.*]] = %c0 to %c8 step %c1 iter_args(%[[A0:[a-z0-9]+]] = %[[ACC0]], %[[A1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A7:[a-z0-9]+]] = %{{[a-z0-9]+}})
//       CHECK:     %[[FA:.*]] = vector.load %[[AS]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     %[[FB0:.*]] = vector.load %[[BS]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:     %[[FB1:.*]] = vector.load %[[BS]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// Columns 0-1, row 0 (accumulator 0 = row 0, columns 0-3):
//       CHECK:     %[[B01:.*]] = vector.shuffle %[[FB0]], %[[FB0]] [0, 1] : vector<4xf32>, vector<4xf32>
//       CHECK:     %[[P0:.*]] = vector.shuffle %[[A0]], %[[A0]] [0, 1] : vector<4xf32>, vector<4xf32>
//       CHECK:     %[[X0:.*]] = vector.extract %[[FA]][0] : f32 from vector<4xf32>
//       CHECK:     %[[S0:.*]] = vector.broadcast %[[X0]] : f32 to vector<2xf32>
//       CHECK:     %[[F0:.*]] = vector.fma %[[S0]], %[[B01]], %[[P0]] : vector<2xf32>
//       CHECK:     %[[N0:.*]] = vector.shuffle %[[A0]], %[[F0]] [4, 5, 2, 3] : vector<4xf32>, vector<2xf32>
// Row 1 (accumulator 2), same columns:
//       CHECK:     %[[P2:.*]] = vector.shuffle %[[A2]], %[[A2]] [0, 1]
//       CHECK:     %[[X1:.*]] = vector.extract %[[FA]][1] : f32 from vector<4xf32>
//       CHECK:     %[[S1:.*]] = vector.broadcast %[[X1]] : f32 to vector<2xf32>
//       CHECK:     vector.fma %[[S1]], %[[B01]], %[[P2]] : vector<2xf32>
// Rows 2 and 3:
//       CHECK:     %[[X2:.*]] = vector.extract %[[FA]][2]
//       CHECK:     %[[S2:.*]] = vector.broadcast %[[X2]]
//       CHECK:     vector.fma %[[S2]], %[[B01]]
//       CHECK:     %[[X3:.*]] = vector.extract %[[FA]][3]
//       CHECK:     %[[S3:.*]] = vector.broadcast %[[X3]]
//       CHECK:     vector.fma %[[S3]], %[[B01]]
// Columns 2-3, back up: row 2 first, ..., row 0 last, on accumulator 0 as
// just updated.
//       CHECK:     %[[B23:.*]] = vector.shuffle %[[FB0]], %[[FB0]] [2, 3]
//       CHECK:     vector.fma %[[S2]], %[[B23]]
//       CHECK:     vector.fma %[[S3]], %[[B23]]
//       CHECK:     %[[Q0:.*]] = vector.shuffle %[[N0]], %[[N0]] [2, 3]
//       CHECK:     vector.fma %[[S0]], %[[B23]], %[[Q0]]
//       CHECK:     vector.fma %[[S1]], %[[B23]]
// Columns 16-17 (the second fragment of B): down again.
//       CHECK:     %[[B45:.*]] = vector.shuffle %[[FB1]], %[[FB1]] [0, 1]
//       CHECK:     vector.fma %[[S0]], %[[B45]]
//   CHECK-COUNT-7: vector.fma
//   CHECK-NOT: vector.fma
//       CHECK:     scf.yield
//       CHECK:   }
//       CHECK:   gpu.barrier
//       CHECK:   scf.yield %[[STEP]]#0,
//       CHECK: } {tile.k_loop}
//   CHECK-NOT: vector.store
// The stores' positions come from the lane's origin (%[[ROW0]], %[[COL0]])
// through an opaque copy each, so that nothing computed for the loads stays
// live through the loop; no guards (the tile is inside C).
//       CHECK: %[[R32:.*]] = arith.index_castui %[[ROW0]] : index to i32
//       CHECK: %[[RO:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[R32]] : (i32) -> i32
//       CHECK: %[[SROW:.*]] = arith.index_castui %[[RO]] : i32 to index
//       CHECK: %[[C32:.*]] = arith.index_castui %[[COL0]] : index to i32
//       CHECK: %[[CO:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[C32]] : (i32) -> i32
//       CHECK: %[[SCOL:.*]] = arith.index_castui %[[CO]] : i32 to index
//   CHECK-NOT: scf.if
//       CHECK: %[[E0:.*]] = vector.extract %[[RES]]#0[0] : f32 from vector<4xf32>
//       CHECK: memref.store %[[E0]], %arg2[%[[SROW]], %[[SCOL]]] : memref<128x128xf32>
//       CHECK: %[[E1:.*]] = vector.extract %[[RES]]#0[1] : f32 from vector<4xf32>
//       CHECK: %[[SCOL1:.*]] = arith.addi %[[SCOL]], %c1 : index
//       CHECK: memref.store %[[E1]], %arg2[%[[SROW]], %[[SCOL1]]] : memref<128x128xf32>
//   CHECK-COUNT-30: memref.store %{{.*}}, %arg2
//   CHECK-NOT: vector.store
//       CHECK: gpu.return

// fma-order=rows vector-c=true: C through 16-byte vectors, and 4-wide FMAs
// row by row (each A value against both B fragments).

// ROWS-LABEL: gpu.func @lanes_matmul0
//  ROWS-SAME: tile.c_alignment = 16 : i64
//   ROWS-COUNT-8: vector.load %arg2[{{.*}}] {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
//       ROWS: %[[RES:.*]]:8 = scf.for %{{.*}} = %c0 to %c64 step %c8 iter_args(%[[ACC0:[a-z0-9]+]] = %{{[0-9]+}}, {{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
//       ROWS:   %[[STEP:.*]]:8 = scf.for %[[KK:.*]] = %c0 to %c8 step %c1 iter_args(%[[A0:[a-z0-9]+]] = %[[ACC0]], %[[A1:[a-z0-9]+]] = %{{[a-z0-9]+}},
//       ROWS:     %[[FA:.*]] = vector.load %{{.*}}[%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       ROWS:     %[[FB0:.*]] = vector.load %{{.*}}[%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       ROWS:     %[[FB1:.*]] = vector.load %{{.*}}[%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       ROWS:     %[[A00:.*]] = vector.extract %[[FA]][0] : f32 from vector<4xf32>
//       ROWS:     %[[SPLAT:.*]] = vector.broadcast %[[A00]] : f32 to vector<4xf32>
//       ROWS:     vector.fma %[[SPLAT]], %[[FB0]], %[[A0]] : vector<4xf32>
//       ROWS:     vector.fma %[[SPLAT]], %[[FB1]], %[[A1]] : vector<4xf32>
//   ROWS-COUNT-6: vector.fma
//   ROWS-NOT: vector.fma
//       ROWS:     scf.yield
//       ROWS: } {tile.k_loop}
//       ROWS: vector.store %[[RES]]#0, %arg2[{{.*}}] {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
//   ROWS-COUNT-7: vector.store %[[RES]]
//       ROWS: gpu.return
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
//   CHECK-NOT: memref.load %arg2
//       CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]], %{{.*}} = %[[INIT]],
//       CHECK: } {tile.k_loop}
//   CHECK-COUNT-32: memref.store %{{.*}}, %arg2
//   CHECK-NOT: memref.store

// ROWS-LABEL: gpu.func @filled_matmul0
//       ROWS: %[[INIT:.*]] = arith.constant dense<5.000000e-01> : vector<4xf32>
//   ROWS-NOT: vector.load %arg2
//       ROWS: scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]], %{{.*}} = %[[INIT]],
//       ROWS: } {tile.k_loop}
//   ROWS-COUNT-8: vector.store
func.func @filled(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>) {
  %half = arith.constant 0.5 : f32
  linalg.fill ins(%half : f32) outs(%C : memref<128x128xf32>)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Edges: M = 40, N = 70. Rows and columns of the lane's tile are checked
// against the warp's part of the tile; N % 4 != 0 makes the guards cover
// 2-element pieces of C, assembled into and taken out of the 4-wide
// accumulators with vector.shuffle (with vector-c=true, each piece is one
// 8-byte-aligned vector access).

// CHECK-LABEL: gpu.func @edge_lanes_matmul0
//       CHECK: %[[WROWS:.*]] = arith.minui %{{.*}}, %c32 : index
//       CHECK: %[[WCOLS:.*]] = arith.minui %{{.*}}, %c32 : index
//       CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK: %[[ROWOK:.*]] = arith.cmpi slt, %[[ROW]], %[[WROWS]] : index
//       CHECK: %[[COLOK:.*]] = arith.cmpi slt, %[[COL]], %[[WCOLS]] : index
//       CHECK: %[[OK:.*]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
//       CHECK: %[[PIECE:.*]] = scf.if %[[OK]] -> (vector<2xf32>) {
//       CHECK:   %[[X0:.*]] = memref.load %arg2[{{.*}}] : memref<40x70xf32>
//       CHECK:   %[[X1:.*]] = memref.load %arg2[{{.*}}] : memref<40x70xf32>
//       CHECK:   %[[X:.*]] = vector.from_elements %[[X0]], %[[X1]] : vector<2xf32>
//       CHECK:   scf.yield %[[X]]
//       CHECK: } else {
//       CHECK: vector.shuffle %{{.*}}, %[[PIECE]] [4, 5, 2, 3] : vector<4xf32>, vector<2xf32>
// After the loop the lane's origin in C goes through an opaque copy (an
// empty inline asm), and the stores' positions and guards are computed from
// it anew, against C's extent: the values the loads used do not stay live
// through the loop.
//       CHECK: %[[RES:.*]]:8 = scf.for
//       CHECK: } {tile.k_loop}
//       CHECK: %[[RI:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %{{.*}} : (i32) -> i32
//       CHECK: %[[R:.*]] = arith.index_castui %[[RI]] : i32 to index
//       CHECK: %[[CI:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %{{.*}} : (i32) -> i32
//       CHECK: %[[C:.*]] = arith.index_castui %[[CI]] : i32 to index
//       CHECK: %[[RIN:.*]] = arith.cmpi ult, %[[R]], %c40 : index
//       CHECK: %[[CIN:.*]] = arith.cmpi ult, %[[C]], %c70 : index
//       CHECK: %[[IN:.*]] = arith.andi %[[RIN]], %[[CIN]] : i1
//       CHECK: scf.if %[[IN]] {
//       CHECK:   %[[Y0:.*]] = vector.extract %[[RES]]#0[0] : f32 from vector<4xf32>
//       CHECK:   memref.store %[[Y0]], %arg2[%[[R]], %[[C]]] : memref<40x70xf32>
//       CHECK:   %[[Y1:.*]] = vector.extract %[[RES]]#0[1] : f32 from vector<4xf32>
//       CHECK:   %[[C1:.*]] = arith.addi %[[C]], %c1 : index
//       CHECK:   memref.store %[[Y1]], %arg2[%[[R]], %[[C1]]] : memref<40x70xf32>
//       CHECK: }

// ROWS-LABEL: gpu.func @edge_lanes_matmul0
//  ROWS-SAME: tile.c_alignment = 8 : i64
//       ROWS: %[[OK:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
//       ROWS: %[[PIECE:.*]] = scf.if %[[OK]] -> (vector<2xf32>) {
//       ROWS:   vector.load %arg2[{{.*}}] {alignment = 8 : i64} : memref<40x70xf32>, vector<2xf32>
//       ROWS: } else {
//       ROWS: vector.shuffle %{{.*}}, %[[PIECE]] [4, 5, 2, 3] : vector<4xf32>, vector<2xf32>
//       ROWS: } {tile.k_loop}
//       ROWS: scf.if %{{.*}} {
//       ROWS:   %[[OUT:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1] : vector<4xf32>, vector<4xf32>
//       ROWS:   vector.store %[[OUT]], %arg2[{{.*}}] {alignment = 8 : i64} : memref<40x70xf32>, vector<2xf32>
func.func @edge_lanes(%A: memref<40x16xf32>, %B: memref<16x70xf32>, %C: memref<40x70xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<40x16xf32>, memref<16x70xf32>) outs(%C : memref<40x70xf32>)
  return
}
