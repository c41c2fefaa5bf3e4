// RUN: tile-opt %s --tile-configure="block=128,256,64 warp=64,256 thread=64,256 stages=3 cluster=2x1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --tile-configure="block=128,256,64 warp=64,256 thread=64,256 stages=3 cluster=2x1 persistent=true" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline=persistent-blocks=3 --canonicalize --cse | FileCheck %s --check-prefix=PERSIST

// A 2x1 cluster: 512x512 in 128x256 blocks is 4 x 2 tiles, 8 blocks in 4
// clusters of 2. Blocks 2i and 2i+1 (cluster ranks 0 and 1) take tile rows
// 2r and 2r+1 of one column, where (r, column) is cluster tile i in the
// swizzled order over 2 x 2 cluster tiles (groups of 8 / 2 = 4 cluster
// rows, here the 2 there are). The launch takes its cluster shape from the
// kernel (nvvm.cluster_dim: .reqnctapercluster in the PTX).
// CHECK: gpu.launch_func @pair_matmul0::@pair_matmul0 blocks in (%c8, %c1, %c1) threads in (%c384, %c1, %c1)
// CHECK: gpu.func @pair_matmul0
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-SAME: cluster = [2, 1]
// CHECK: %[[RANK:.+]] = gpu.cluster_block_id x
// CHECK-NEXT: %[[BX:.+]] = gpu.block_id x
// CHECK-NEXT: %[[TX:.+]] = gpu.thread_id x
// CHECK-NEXT: %[[CID:.+]] = arith.divui %[[BX]], %c2
// CHECK-NEXT: %[[R:.+]] = arith.remui %[[BX]], %c2
// CHECK-NEXT: %[[G:.+]] = arith.divui %[[CID]], %c4
// CHECK-NEXT: %[[FIRST:.+]] = arith.muli %[[G]], %c2
// CHECK-NEXT: %[[IN:.+]] = arith.remui %[[CID]], %c4
// CHECK-NEXT: %[[RIN:.+]] = arith.remui %[[IN]], %c2
// CHECK-NEXT: %[[COL:.+]] = arith.divui %[[IN]], %c2
// CHECK-NEXT: %[[CROW:.+]] = arith.addi %[[FIRST]], %[[RIN]]
// CHECK-NEXT: %[[ROWS2:.+]] = arith.muli %[[CROW]], %c2
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[ROWS2]], %[[R]]
// CHECK-NEXT: %[[ROW0:.+]] = arith.muli %[[ROW]], %c128 {tile.tile_origin = "row"}
// CHECK-NEXT: %[[COL0:.+]] = arith.muli %[[COL]], %c256 {tile.tile_origin = "col"}
// The barriers: "full" counts the producer's one arrive (and the whole
// slab's bytes, half of B's coming from the other block); "empty" counts
// the 2 consumer warpgroups of both blocks. Their initialisation is fenced
// for the cluster, and a cluster barrier (not the block's) waits for it.
// CHECK: scf.if
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL:.+]][%c0], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY:.+]][%c0], %c4
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c1], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c1], %c4
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c2], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c2], %c4
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NOT: gpu.barrier
// The producer: A's box for its own tile; B's four 64-column boxes split
// by rank (0: columns 0 and 128, 1: 64 and 192), each multicast to both
// blocks (mask 0b11) on the slot's full barrier.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[S:.+]]], %c49152
// CHECK-NEXT: nvgpu.tma.async.load %arg3[%[[K0:.+]], %[[ROW0]]], %[[FULL]][%[[S]]] to %{{.+}} {tile.tma_operand = "A"}
// CHECK-NEXT: %[[IS0:.+]] = arith.cmpi eq, %[[RANK]], %c0
// CHECK-NEXT: scf.if %[[IS0]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[COL0]], %[[K0]]], %[[FULL]][%[[S]]] to %{{.+}} multicast_mask = %c3_i16 {tile.tma_operand = "B"}
// CHECK-NEXT: }
// CHECK-NEXT: %[[C64:.+]] = arith.addi %[[COL0]], %c64
// CHECK-NEXT: %[[IS1:.+]] = arith.cmpi eq, %[[RANK]], %c1
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[C64]], %[[K0]]], %[[FULL]][%[[S]]] to %{{.+}} multicast_mask = %c3_i16 {tile.tma_operand = "B"}
// CHECK-NEXT: }
// CHECK-NEXT: %[[C128:.+]] = arith.addi %[[COL0]], %c128
// CHECK-NEXT: scf.if %[[IS0]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[C128]], %[[K0]]], %[[FULL]][%[[S]]] to %{{.+}} multicast_mask = %c3_i16 {tile.tma_operand = "B"}
// CHECK-NEXT: }
// CHECK-NEXT: %[[C192:.+]] = arith.addi %[[COL0]], %c192
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[C192]], %[[K0]]], %[[FULL]][%[[S]]] to %{{.+}} multicast_mask = %c3_i16 {tile.tma_operand = "B"}
// CHECK-NEXT: }
// The consumers release the previous slab's slot in this block and in the
// other (whose producer multicasts into this block's slot).
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: scf.if
// CHECK-NEXT: %[[PREV:.+]] = arith.subi
// CHECK-NEXT: %[[PS:.+]] = arith.remui %[[PREV]], %c3
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PS]]] :
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PS]]] {tile.arrive_in_peer}
// CHECK-NEXT: }
// No block leaves before the other is done with its barriers.
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
// Persistent: persistent-blocks=3 rounds down to whole clusters (2 blocks,
// one cluster), which walks the 4 pairs of tiles from its cluster id in
// steps of the clusters; a block's tile is pair * 2 + its rank (what block
// id x stood for, so the swizzle above gives the same tiles); the last
// slot of a tile is released in both blocks before the epilogue.
// PERSIST: gpu.launch_func @pair_matmul0::@pair_matmul0 blocks in (%c2, %c1, %c1)
// PERSIST: gpu.func @pair_matmul0
// PERSIST-SAME: known_grid_size = array<i32: 2, 1, 1>
// PERSIST-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// PERSIST-SAME: tile.persistent_blocks = 2 : i64
// PERSIST-NOT: gpu.block_id
// PERSIST: %[[RANK:.+]] = gpu.cluster_block_id x
// PERSIST: nvvm.setmaxregister decrease 40
// PERSIST: %[[CID:.+]] = gpu.cluster_id x
// PERSIST-NEXT: %[[CDIM:.+]] = gpu.cluster_dim x
// PERSIST-NEXT: scf.for %[[P:.+]] = %[[CID]] to %c4 step %[[CDIM]] iter_args(%{{.+}} = %c0) -> (index) {
// PERSIST-NEXT: %[[P2:.+]] = arith.muli %[[P]], %c2
// PERSIST-NEXT: %[[T:.+]] = arith.addi %[[P2]], %[[RANK]]
// PERSIST-NEXT: arith.divui %[[T]], %c2
// PERSIST-NEXT: arith.remui %[[T]], %c2
// PERSIST: nvvm.setmaxregister increase
// PERSIST: %[[CCID:.+]] = gpu.cluster_id x
// PERSIST-NEXT: %[[CCDIM:.+]] = gpu.cluster_dim x
// PERSIST-NEXT: scf.for %[[CP:.+]] = %[[CCID]] to %c4 step %[[CCDIM]] iter_args(%[[BASE:.+]] = %c0) -> (index) {
// PERSIST: nvvm.wgmma.wait.group.sync.aligned 0
// PERSIST-NEXT: scf.if
// PERSIST-NEXT: %[[LAST:.+]] = arith.addi %[[BASE]], %c3
// PERSIST-NEXT: %[[LS:.+]] = arith.remui %[[LAST]], %c3
// PERSIST-NEXT: nvgpu.mbarrier.arrive %{{.+}}[%[[LS]]] :
// PERSIST-NEXT: nvgpu.mbarrier.arrive %{{.+}}[%[[LS]]] {tile.arrive_in_peer}
// PERSIST: nvvm.cluster.arrive
// PERSIST-NEXT: nvvm.cluster.wait
// PERSIST-NEXT: gpu.return
func.func @pair(%A: memref<512x256xbf16>, %B: memref<256x512xbf16>, %C: memref<512x512xf32>) {
  linalg.matmul ins(%A, %B : memref<512x256xbf16>, memref<256x512xbf16>) outs(%C : memref<512x512xf32>)
  return
}
