// RUN: tile-opt %s --tile-configure="block=128,256,64 warp=64,256 thread=64,256 stages=3 cluster=1x2" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline --canonicalize --cse | FileCheck %s

// A 1x2 cluster: 256x1024 in 128x256 blocks is 2 x 4 tiles, 8 blocks in 4
// clusters of 2, consecutive along x (nvvm.cluster_dim 2, 1, 1, as for
// 2x1). Blocks 2i and 2i+1 (cluster ranks 0 and 1) take tile columns 2c
// and 2c+1 of one row, where (row, c) is cluster tile i in the swizzled
// order over 2 x 2 cluster tiles (groups of 8 rows, here the 2 there are).
// CHECK: gpu.launch_func @row_pair_matmul0::@row_pair_matmul0 blocks in (%c8, %c1, %c1) threads in (%c384, %c1, %c1)
// A's map has boxes of 64 rows (half the block's 128), B's of 64 columns.
// CHECK-SAME: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: gpu.func @row_pair_matmul0
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-SAME: cluster = [1, 2]
// CHECK: %[[RANK:.+]] = gpu.cluster_block_id x
// CHECK-NEXT: %[[BX:.+]] = gpu.block_id x
// CHECK-NEXT: %[[TX:.+]] = gpu.thread_id x
// CHECK-NEXT: %[[CID:.+]] = arith.divui %[[BX]], %c2
// CHECK-NEXT: %[[R:.+]] = arith.remui %[[BX]], %c2
// CHECK-NEXT: %[[G:.+]] = arith.divui %[[CID]], %c4
// CHECK-NEXT: %[[FIRST:.+]] = arith.muli %[[G]], %c2
// CHECK-NEXT: %[[IN:.+]] = arith.remui %[[CID]], %c4
// CHECK-NEXT: %[[RIN:.+]] = arith.remui %[[IN]], %c2
// CHECK-NEXT: %[[CCOL:.+]] = arith.divui %[[IN]], %c2
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[FIRST]], %[[RIN]]
// CHECK-NEXT: %[[COLS2:.+]] = arith.muli %[[CCOL]], %c2
// CHECK-NEXT: %[[COL:.+]] = arith.addi %[[COLS2]], %[[R]]
// CHECK-NEXT: %[[ROW0:.+]] = arith.muli %[[ROW]], %c128 {tile.tile_origin = "row"}
// CHECK-NEXT: %[[COL0:.+]] = arith.muli %[[COL]], %c256 {tile.tile_origin = "col"}
// "empty" counts the 2 consumer warpgroups of both blocks; the
// initialisation is fenced for the cluster and waited for at a cluster
// barrier.
// CHECK: nvgpu.mbarrier.init %[[FULL:.+]][%c0], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY:.+]][%c0], %c4
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// The producer: A's slab (128 rows, 16 KiB) as two boxes of 64 rows, 8 KiB
// apart in the slot: rank 0 issues rows 0-63 of the tile, rank 1 rows
// 64-127, each multicast to both blocks (mask 0b11), which share the tile
// row; B's four boxes are the block's own. The full barrier expects the
// whole slab (16 KiB of A + 32 KiB of B).
// CHECK: %[[SLOT:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK-NEXT: %[[A0:.+]] = memref.view %{{.+}}[%[[SLOT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[HALF:.+]] = arith.addi %[[SLOT]], %c8192
// CHECK-NEXT: %[[A1:.+]] = memref.view %{{.+}}[%[[HALF]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[S:.+]]], %c49152
// CHECK-NEXT: %[[IS0:.+]] = arith.cmpi eq, %[[RANK]], %c0
// CHECK-NEXT: scf.if %[[IS0]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg3[%[[K0:.+]], %[[ROW0]]], %[[FULL]][%[[S]]] to %[[A0]] multicast_mask = %c3_i16 {tile.tma_operand = "A"}
// CHECK-NEXT: }
// CHECK-NEXT: %[[R64:.+]] = arith.addi %[[ROW0]], %c64
// CHECK-NEXT: %[[IS1:.+]] = arith.cmpi eq, %[[RANK]], %c1
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg3[%[[K0]], %[[R64]]], %[[FULL]][%[[S]]] to %[[A1]] multicast_mask = %c3_i16 {tile.tma_operand = "A"}
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[COL0]], %[[K0]]], %[[FULL]][%[[S]]] to %{{.+}} {tile.tma_operand = "B"}
// CHECK-NEXT: %[[C64:.+]] = arith.addi %[[COL0]], %c64
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[C64]], %[[K0]]], %[[FULL]][%[[S]]] to %{{.+}} {tile.tma_operand = "B"}
// CHECK-NOT: multicast_mask
// The consumers read A's slab whole (128 rows) and release each slot in
// both blocks.
// CHECK: memref.view %{{.+}} {tile.shared = "A"} : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PS:.+]]] :
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PS]]] {tile.arrive_in_peer}
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
func.func @row_pair(%A: memref<256x256xbf16>, %B: memref<256x1024xbf16>, %C: memref<256x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<256x256xbf16>, memref<256x1024xbf16>) outs(%C : memref<256x1024xf32>)
  return
}
