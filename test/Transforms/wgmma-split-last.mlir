// split_last in tile-block-tile: 200x300x520 bf16 with f32 C in 64x128x64
// blocks is 4 x 3 = 12 tiles; split_k = 3 makes chunks of 3 slabs (192 of
// K) and split_last = 3 splits tiles 9, 10, 11 of the launch order only:
// a grid of 9 + 3 x 3 = 18. Block b < 9 takes tile b and all of K
// (depth 520 from k = 0); block 9 + j takes split j / 3 of tile
// 9 + j mod 3 (K from 192 * (j / 3), depth min(520 - that, 192)). The tile
// then goes through the grouped launch order as any block's does, and
// every block adds its product into C atomically. The predicate
// "this block computes part of a split tile" carries tile.split_block.
// RUN: tile-opt %s --tile-configure="block=64,128,64 warp=64,128 thread=64,128 stages=3 split-k=3 split-last=3 occupancy=1" --tile-block-tile | FileCheck %s
//
// tile-wgmma then gives the whole tiles' blocks the epilogue of an unsplit
// kernel: their accumulators start from C (pairs of columns loaded as
// vectors) and go back with plain vector stores; only the split tiles'
// blocks start from the fill (0) and add into C atomically (pairs of
// columns: N = 300 is even).
// RUN: tile-opt %s --tile-configure="block=64,128,64 warp=64,128 thread=64,128 stages=3 split-k=3 split-last=3 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --canonicalize | FileCheck %s --check-prefix=WG
// The report says which tiles split and how each kind meets C.
// RUN: tile-opt %s --tile-matmul-tiling="tuning-table=none block=64,128,64 warp=64,128 thread=64,128 stages=3 split-k=3 split-last=3 report=true" -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: occupancy 1 blocks/SM (limited by registers); 12 tiles, the last 3 in 3 K splits (3 slabs each, added into C atomically), the others whole (9 slabs, C loaded and stored in place); 18 blocks in 1 wave of 132
// WG-LABEL: gpu.func @acc_matmul0(
// WG-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// WG-DAG: %[[SPLIT:.*]] = arith.cmpi uge, %{{.*}}, %c9 {tile.split_block} : index
// WG: %[[INIT:.*]]:32 = scf.if %[[SPLIT]] -> (vector<2xf32>,
// WG-NEXT: scf.yield %[[ZERO]], %[[ZERO]],
// WG-NEXT: } else {
// WG: vector.load %arg2[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<200x300xf32>, vector<2xf32>
// WG-NOT: tile.atomic_addf
// WG: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!llvm.struct<(f32,
// WG: } {tile.k_loop}
// WG: scf.if %[[SPLIT]] {
// WG-NOT: vector.store
// WG: tile.atomic_addf %{{.*}}, %arg2[%{{.*}}, %{{.*}}] : vector<2xf32>, memref<200x300xf32>
// WG-NOT: vector.store
// WG: } else {
// WG-NOT: tile.atomic_addf
// WG: vector.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<200x300xf32>, vector<2xf32>
// WG-NOT: tile.atomic_addf
// WG-NOT: memref.atomic_rmw
// WG: gpu.return

// CHECK-LABEL: gpu.func @acc_matmul0(
// CHECK-SAME: known_grid_size = array<i32: 18, 1, 1>
// CHECK-SAME: split_k = 3, split_last = 3>
// CHECK: %[[B:.*]] = gpu.block_id  x
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[SPLIT:.*]] = arith.cmpi uge, %[[B]], %[[C9]] {tile.split_block} : index
// CHECK: %[[JRAW:.*]] = arith.subi %[[B]], %[[C9]] : index
// CHECK: %[[J:.*]] = arith.select %[[SPLIT]], %[[JRAW]], %[[C0]] : index
// CHECK: %[[S:.*]] = arith.divui %[[J]], %[[C3]] : index
// CHECK: %[[R:.*]] = arith.remui %[[J]], %[[C3]] : index
// CHECK: %[[T:.*]] = arith.addi %[[C9]], %[[R]] : index
// CHECK: %[[TILE:.*]] = arith.select %[[SPLIT]], %[[T]], %[[B]] : index
// CHECK: arith.divui %[[TILE]], %{{.*}} : index
// CHECK: arith.remui %[[TILE]], %{{.*}} : index
// CHECK: %[[ROW0:.*]] = arith.muli %{{.*}} {tile.tile_origin = "row"} : index
// CHECK: %[[COL0:.*]] = arith.muli %{{.*}} {tile.tile_origin = "col"} : index
// CHECK: %[[C192:.*]] = arith.constant 192 : index
// CHECK: %[[K0:.*]] = arith.muli %[[S]], %[[C192]] : index
// CHECK: %[[C520:.*]] = arith.constant 520 : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[C520]], %[[K0]] : index
// CHECK: %[[CHUNK:.*]] = arith.minui %[[LEFT]], %{{.*}} : index
// CHECK: %[[DEPTH:.*]] = arith.select %[[SPLIT]], %[[CHUNK]], %{{.*}} : index
// CHECK: memref.subview %arg0[%[[ROW0]], %[[K0]]] [%{{.*}}, %[[DEPTH]]] [1, 1]
// CHECK: memref.subview %arg1[%[[K0]], %[[COL0]]] [%[[DEPTH]], %{{.*}}] [1, 1]
// CHECK: memref.alloca() : memref<64x128xf32>
// CHECK: memref.atomic_rmw addf
func.func @acc(%A: memref<200x520xbf16>, %B: memref<520x300xbf16>, %C: memref<200x300xf32>) {
  linalg.matmul ins(%A, %B : memref<200x520xbf16>, memref<520x300xbf16>)
                outs(%C : memref<200x300xf32>)
  return
}
