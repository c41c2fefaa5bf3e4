// Split-K on the wgmma strategy, pass by pass: 200x72x520 bf16 with f32 C in
// 128x128x64 blocks is 2 tiles; split_k = 4 makes chunks of 3 slabs (192 of
// K), so 3 splits (192, 192, 136) and a grid of 6. Block b computes split
// b / 2 of tile b % 2: its K loop runs over [192 * split, min(520, that +
// 192)), each consumer thread's accumulators start at zero, and after the
// loop they are added into C atomically at their global (row, column).
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared | FileCheck %s --check-prefix=SHARED
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile | FileCheck %s --check-prefix=WARPGROUP
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | FileCheck %s --check-prefix=WGMMA
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline | FileCheck %s --check-prefix=RING
//
// tile-wgmma's check of the split-K form: without the partial product's
// zero fill (deleted here) it says what it needs.
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile | sed '/linalg.fill/d' | not tile-opt --tile-wgmma 2>&1 | FileCheck %s --check-prefix=NOFILL
// NOFILL: error: tile-wgmma: a split-K kernel needs a partial product that starts at a fill, an f32 C and no fused epilogue

func.func @acc(%A: memref<200x520xbf16>, %B: memref<520x72xbf16>, %C: memref<200x72xf32>) {
  linalg.matmul ins(%A, %B : memref<200x520xbf16>, memref<520x72xbf16>)
                outs(%C : memref<200x72xf32>)
  return
}

// The slot loop of tile-promote-shared runs over the block's chunk; the TMA
// reads A and B at the chunk's k; the one barrier's phase counts slabs from
// the chunk's start; thread 0 adds the partial tile into C after the loop.
// SHARED-LABEL: gpu.func @acc_matmul0
// SHARED-SAME: known_grid_size = array<i32: 6, 1, 1>
// SHARED: %[[SPLIT:.*]] = arith.divui %block_id_x, %c2 : index
// SHARED: %[[ROW0:.*]] = arith.muli %{{.*}}, %c128 {tile.tile_origin = "row"}
// SHARED: %[[KBEGIN:.*]] = arith.muli %[[SPLIT]], %c192 : index
// SHARED: %[[LEFT:.*]] = arith.subi %c520, %[[KBEGIN]] : index
// SHARED: %[[DEPTH:.*]] = arith.minui %[[LEFT]], %c192{{.*}} : index
// SHARED: %[[PARTIAL:.*]] = memref.alloca() : memref<128x128xf32>
// SHARED: linalg.fill ins(%cst : f32) outs(%{{.*}} : memref<?x?xf32, strided<[128, 1]>>)
// SHARED: %[[KEND:.*]] = arith.addi %[[KBEGIN]], %[[DEPTH]] : index
// SHARED: scf.for %[[K0:.*]] = %[[KBEGIN]] to %[[KEND]] step %c64
// SHARED: nvgpu.tma.async.load %arg3[%[[K0]], %[[ROW0]]]
// SHARED: %[[SLAB:.*]] = arith.subi %[[K0]], %[[KBEGIN]] : index
// SHARED: %[[ROUND:.*]] = arith.divui %[[SLAB]], %c64{{.*}} : index
// SHARED: %[[PARITY:.*]] = arith.remui %[[ROUND]], %c2{{.*}} : index
// SHARED: %[[BIT:.*]] = arith.index_cast %[[PARITY]] : index to i1
// SHARED: nvgpu.mbarrier.try_wait.parity %{{.*}}, %[[BIT]]
// SHARED: } {tile.k_loop}
// SHARED: scf.if
// SHARED: memref.load %{{.*}} : memref<?x?xf32, strided<[128, 1]>>
// SHARED: memref.atomic_rmw addf %{{.*}}, %{{.*}} : (f32, memref<?x?xf32, strided<[72, 1], offset: ?>>) -> f32
// SHARED: gpu.return

// Each consumer warpgroup's first thread adds its 64x128 part.
// WARPGROUP-LABEL: gpu.func @acc_matmul0
// WARPGROUP: } {tile.k_loop}
// WARPGROUP: scf.if %[[LEADER:.*]] {
// WARPGROUP: memref.atomic_rmw addf
// WARPGROUP: gpu.return

// The accumulators start at zero and go into C, f32 itself, by atomic adds
// at C's global indices (no store of C, no partial tile left): each pair of
// columns by one tile.atomic_addf, 8-byte aligned (N = 72 is even).
// WGMMA-LABEL: gpu.func @acc_matmul0
// WGMMA-SAME: tile.c_alignment = 8
// WGMMA: %[[ROW0:.*]] = arith.muli %{{.*}}, %c128 {tile.tile_origin = "row"}
// WGMMA: %[[COL0:.*]] = arith.muli %{{.*}}, %c128{{.*}} {tile.tile_origin = "col"}
// WGMMA: %[[KBEGIN:.*]] = arith.muli %{{.*}}, %c192 : index
// WGMMA-NOT: memref.alloca
// WGMMA: vector.broadcast %cst : f32 to vector<2xf32>
// WGMMA: scf.for %{{.*}} = %[[KBEGIN]] to %{{.*}} step %c64{{.*}} iter_args
// WGMMA: nvvm.wgmma.mma_async
// WGMMA: } {tile.k_loop}
// WGMMA-NOT: vector.store
// WGMMA-NOT: memref.store
// WGMMA: scf.if
// WGMMA-NEXT: %[[RIN:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// WGMMA-NEXT: %[[CIN:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// WGMMA-NEXT: %[[R:.*]] = arith.addi %[[ROW0]], %[[RIN]] : index
// WGMMA-NEXT: %[[C:.*]] = arith.addi %[[COL0]], %[[CIN]] : index
// WGMMA-NEXT: tile.atomic_addf %{{.*}}, %arg2[%[[R]], %[[C]]] : vector<2xf32>, memref<200x72xf32>
// WGMMA-NOT: vector.store
// WGMMA-NOT: memref.store
// WGMMA-NOT: memref.atomic_rmw
// WGMMA: gpu.return

// The ring: the producer and the consumers walk the chunk's slabs,
// ceil((end - begin) / 64) of them, and slab k is read at begin + 64 k.
// RING-LABEL: gpu.func @acc_matmul0
// RING: %[[KBEGIN:.*]] = arith.muli %{{.*}}, %c192 : index
// RING: %[[KEND:.*]] = arith.addi %[[KBEGIN]], %{{.*}} : index
// RING: %[[SPAN:.*]] = arith.subi %[[KEND]], %[[KBEGIN]] : index
// RING: %[[ROUNDED:.*]] = arith.addi %[[SPAN]], %c63 : index
// RING: %[[SLABS:.*]] = arith.divui %[[ROUNDED]], %c64{{.*}} : index
// RING: scf.for %[[K:.*]] = %{{.*}} to %[[SLABS]] step
// RING: %[[OFFSET:.*]] = arith.muli %[[K]], %c64{{.*}} : index
// RING: %[[K0:.*]] = arith.addi %[[KBEGIN]], %[[OFFSET]] : index
// RING: nvgpu.tma.async.load %arg3[%[[K0]],
// RING: scf.for %{{.*}} = %{{.*}} to %[[SLABS]] step %{{.*}} iter_args
// RING: } {tile.k_loop}
// RING: tile.atomic_addf
// RING: gpu.return
