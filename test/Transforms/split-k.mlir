// RUN: tile-opt %s --tile-block-tile | FileCheck %s --check-prefix=BLOCK
// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --canonicalize | FileCheck %s --check-prefix=SHARED
// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --canonicalize | FileCheck %s --check-prefix=WARP
// RUN: tile-opt %s --tile-matmul-tiling | FileCheck %s --check-prefix=THREAD

// Split-K with split_k = 4 on K = 300: chunks of ceil(300 / 4) = 75 rounded
// up to whole 8-deep slices = 80, so 4 splits (the last one 60 deep). Every
// block computes one chunk of one tile into a private partial tile and adds
// it into C atomically; C keeps its initial value, so the fill stays on the
// host and the kernel accumulates. Grid: 2 x 2 tiles x 4 splits = 16 blocks.

// BLOCK-LABEL: func.func @split
//       BLOCK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<100x70xf32>)
//       BLOCK: %[[GRID:.*]] = arith.constant 16 : index
//       BLOCK: gpu.launch_func @split_matmul0::@split_matmul0 blocks in (%[[GRID]],
//       BLOCK: gpu.func @split_matmul0
//  BLOCK-SAME: known_grid_size = array<i32: 16, 1, 1>
//  BLOCK-SAME: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 300 : i64, m = 100 : i64, n = 70 : i64}
// Split s = bid / 4 tiles; the tile from bid mod 4, then the swizzle.
//       BLOCK: %[[BID:.*]] = gpu.block_id x
//       BLOCK: %[[SPLIT:.*]] = arith.divui %[[BID]], %c4 : index
//       BLOCK: %[[TILE:.*]] = arith.remui %[[BID]], %c4 : index
//       BLOCK: arith.divui %[[TILE]],
// The chunk: k from split * 80, min(80, 300 - that) deep.
//       BLOCK: %[[KBEGIN:.*]] = arith.muli %[[SPLIT]], %c80 : index
//       BLOCK: %[[KLEFT:.*]] = arith.subi %c300, %[[KBEGIN]] : index
//       BLOCK: %[[KEXT:.*]] = arith.minui %[[KLEFT]], %c80{{.*}} : index
//       BLOCK: %[[SA:.*]] = memref.subview %arg0[%{{.*}}, %[[KBEGIN]]] [%{{.*}}, %[[KEXT]]] [1, 1]
//       BLOCK: %[[SB:.*]] = memref.subview %arg1[%[[KBEGIN]], %{{.*}}] [%[[KEXT]], %{{.*}}] [1, 1]
//       BLOCK: %[[SC:.*]] = memref.subview %arg2[
//       BLOCK: %[[FULL:.*]] = memref.alloca() : memref<64x64xf32>
//       BLOCK: %[[PARTIAL:.*]] = memref.subview %[[FULL]][0, 0]
//       BLOCK: scf.if
//  BLOCK-NEXT:   linalg.fill ins(%{{.*}} : f32) outs(%[[PARTIAL]] :
//  BLOCK-NEXT:   linalg.matmul {{.*}} ins(%[[SA]], %[[SB]] : {{.*}}) outs(%[[PARTIAL]] :
//       BLOCK:   scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
//       BLOCK:     scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
//       BLOCK:       %[[V:.*]] = memref.load %[[PARTIAL]][%[[I]], %[[J]]]
//       BLOCK:       memref.atomic_rmw addf %[[V]], %[[SC]][%[[I]], %[[J]]]

// The K loop runs over the block's chunk; thread 0's atomic accumulation
// comes after it.
//       SHARED: scf.if
//  SHARED-NEXT:   linalg.fill
//       SHARED: scf.for %{{.*}} = %[[KBEGIN:.*]] to %[[KEND:.*]] step %c8 {
//       SHARED:   linalg.matmul
//       SHARED: } {tile.k_loop}
//  SHARED-NEXT: scf.if
//       SHARED:   memref.atomic_rmw addf

// Each warp's lane 0 adds the warp's part of the partial tile into the
// warp's part of C.
//       WARP: %[[WP:.*]] = memref.subview %{{.*}}[%[[ROW:.*]], %[[COL:.*]]] [%[[ROWS:.*]], %[[COLS:.*]]] [1, 1] : memref<?x?xf32, strided<[64, 1]>> to
//       WARP: } {tile.k_loop}
//       WARP: %[[WC:.*]] = memref.subview %{{.*}}[%[[ROW]], %[[COL]]] [%[[ROWS]], %[[COLS]]] [1, 1] : memref<?x?xf32, strided<[70, 1], offset: ?>> to
//  WARP-NEXT: scf.if
//       WARP:   memref.load %[[WP]]
//       WARP:   memref.atomic_rmw addf %{{.*}}, %[[WC]]

// Lanes start from zero and add their registers into C, element by element.
//       THREAD: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
//       THREAD: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]],
//       THREAD: } {tile.k_loop}
//   THREAD-NOT: vector.store %{{.*}}, %arg2
//       THREAD: memref.atomic_rmw addf %{{.*}}, %arg2[
//   THREAD-NOT: memref.alloca
func.func @split(%A: memref<100x300xf32>, %B: memref<300x70xf32>, %C: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<100x70xf32>)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], split_k = 4>}
    ins(%A, %B : memref<100x300xf32>, memref<300x70xf32>) outs(%C : memref<100x70xf32>)
  return
}
