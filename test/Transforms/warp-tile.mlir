// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --canonicalize -split-input-file | FileCheck %s

// 128x128 block tiles of 32x64 warp tiles: 4x2 warps, 256 threads. Warp
// w = tid / 32 owns rows (w / 2) * 32 and columns (w mod 2) * 64 of the block
// tile; lane 0 of each warp multiplies the warp's rows of the A slice by its
// columns of the B slice, between the same two barriers.

// CHECK-LABEL: gpu.func @warps_matmul0
//  CHECK-SAME: tile.stage = "warp"
//       CHECK: %[[TID:.*]] = gpu.thread_id x
//       CHECK: %[[C:.*]] = memref.subview %{{.*}}[%{{.*}}, %{{.*}}] [128, 128] [1, 1]
//       CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32 : index
//       CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32 : index
//       CHECK: %[[WM:.*]] = arith.divui %[[WARP]], %c2 : index
//       CHECK: %[[WN:.*]] = arith.remui %[[WARP]], %c2 : index
//       CHECK: %[[ROW0:.*]] = arith.muli %[[WM]], %c32 : index
//       CHECK: %[[COL0:.*]] = arith.muli %[[WN]], %c64 : index
//       CHECK: %[[WC:.*]] = memref.subview %[[C]][%[[ROW0]], %[[COL0]]] [32, 64] [1, 1]
//       CHECK: %[[L0:.*]] = arith.cmpi eq, %[[LANE]], %c0 : index
//       CHECK: scf.for
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   scf.if %[[L0]] {
//       CHECK:     %[[AT:.*]] = memref.transpose
//       CHECK:     %[[WA:.*]] = memref.subview %[[AT]][%[[ROW0]], 0] [32, 8] [1, 1]
//       CHECK:     %[[WB:.*]] = memref.subview %{{.*}}[0, %[[COL0]]] [8, 64] [1, 1]
//       CHECK:     linalg.matmul {{.*}} ins(%[[WA]], %[[WB]] : {{.*}}) outs(%[[WC]] : memref<32x64xf32, strided<[256, 1], offset: ?>>)
//       CHECK:   }
//  CHECK-NEXT:   gpu.barrier
func.func @warps(%A: memref<256x32xf32>, %B: memref<32x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8]>}
    ins(%A, %B : memref<256x32xf32>, memref<32x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// An edge tile (M = 40 in 64-row tiles): a warp's view of C starts at
// min(origin, rows) and has clamp(rows - origin, 0, 32) rows, so warp row 1
// of the last block (origin 32) gets 8 rows and a warp past the edge an
// empty view. The C initialisation is split among warps the same way.

// CHECK-LABEL: gpu.func @edge_warps_matmul0
//       CHECK: %[[ROWS:.*]] = arith.minui %{{.*}}, %c64 : index
//       CHECK: %[[ROW0:.*]] = arith.muli %{{.*}}, %c32 : index
//       CHECK: %[[OFF:.*]] = arith.minui %[[ROW0]], %[[ROWS]] : index
//       CHECK: %[[LEFT:.*]] = arith.subi %[[ROWS]], %[[OFF]] : index
//       CHECK: %[[WROWS:.*]] = arith.minui %[[LEFT]], %c32 : index
//       CHECK: %[[WC:.*]] = memref.subview %{{.*}}[%[[OFF]], %{{.*}}] [%[[WROWS]], 32] [1, 1]
//       CHECK: scf.if
//  CHECK-NEXT:   linalg.fill ins(%{{.*}} : f32) outs(%[[WC]] :
//       CHECK: scf.for
//       CHECK:   linalg.matmul {{.*}} outs(%[[WC]] :
func.func @edge_warps(%A: memref<40x16xf32>, %B: memref<16x64xf32>, %C: memref<40x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<40x64xf32>)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<40x16xf32>, memref<16x64xf32>) outs(%C : memref<40x64xf32>)
  return
}
