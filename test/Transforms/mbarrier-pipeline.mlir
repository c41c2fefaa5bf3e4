// RUN: tile-opt %s -split-input-file --tile-configure --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline --canonicalize --cse | FileCheck %s --check-prefix=NEST --strict-whitespace

// tile-mbarrier-pipeline: a ring of S slots with a "full" and an "empty"
// mbarrier each. 128x128x64 blocks, two consumer warpgroups, 3 slots,
// K = 448: 7 slabs.

// Specialized, TMA: the producer warpgroup (warpgroup 2) gives registers
// back; its leader alone runs the loop (a thread that only waited could
// fall two phases behind and wait forever): slab k, it waits until slot
// k % 3 is empty (from k = 3 on: the parity of its previous round,
// k / 3 - 1), then issues the slab's boxes on the slot's full barrier. The consumers take the
// registers, wait until slot k % 3 is full (parity k / 3), issue the
// slab's wgmma group, wait until one group is in flight and release slab
// k - 1's slot (one arrive per warpgroup; empty counts 2).
// CHECK-LABEL: gpu.func @tma_ws_matmul0
// 3 slots of 32 KiB and 1 KiB of alignment.
// CHECK-SAME: tile.dynamic_shared_bytes = 99328
// CHECK-SAME: tile.stage = "pipelined"
// CHECK: %[[FULL:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: %[[EMPTY:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: scf.if
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c0], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c0], %c2
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c1], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c1], %c2
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c2], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%c2], %c2
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: %[[T:.+]] = arith.remui %thread_id_x, %c128
// CHECK: %[[LEADER:.+]] = arith.cmpi eq, %[[T]], %c0
// CHECK: %[[PRODUCER:.+]] = arith.cmpi eq, %{{.+}}, %c2
// CHECK: scf.if %[[PRODUCER]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: scf.for %[[K:.+]] = %c0 to %c7 step %c1 {
// CHECK-NEXT: %[[REUSE:.+]] = arith.cmpi uge, %[[K]], %c3
// CHECK-NEXT: scf.if %[[REUSE]] {
// CHECK-NEXT: %[[ES:.+]] = arith.remui %[[K]], %c3
// CHECK-NEXT: %[[ER:.+]] = arith.divui %[[K]], %c3
// CHECK-NEXT: %[[EP:.+]] = arith.subi %[[ER]], %c1
// CHECK-NEXT: %[[EP2:.+]] = arith.remui %[[EP]], %c2
// CHECK-NEXT: %[[EPAR:.+]] = arith.index_cast %[[EP2]] : index to i1
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[ES]]], %[[EPAR]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[K0:.+]] = arith.muli %[[K]], %c64
// CHECK-NEXT: %[[S:.+]] = arith.remui %[[K]], %c3
// CHECK-NEXT: %[[SOFF:.+]] = arith.muli %[[S]], %c32768
// CHECK-NEXT: %[[SLOT:.+]] = arith.addi %{{.+}}, %[[SOFF]]
// CHECK-NEXT: %[[VA:.+]] = memref.view %{{.+}}[%[[SLOT]]][] {tile.shared = "A"}
// CHECK-NOT: scf.if
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[S]]], %c32768
// CHECK-NEXT: nvgpu.tma.async.load %arg3[%[[K0]], %{{.+}}], %[[FULL]][%[[S]]] to %[[VA]]
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK: scf.for %[[CK:.+]] = %c0 to %c7 step %c1 iter_args
// CHECK-NEXT: %[[CS:.+]] = arith.remui %[[CK]], %c3
// CHECK-NEXT: %[[CR:.+]] = arith.divui %[[CK]], %c3
// CHECK-NEXT: %[[CR2:.+]] = arith.remui %[[CR]], %c2
// CHECK-NEXT: %[[CPAR:.+]] = arith.index_cast %[[CR2]] : index to i1
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[CS]]], %[[CPAR]]
// CHECK-NEXT: %[[COFF:.+]] = arith.muli %[[CS]], %c32768
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: %[[HASPREV:.+]] = arith.cmpi uge, %[[CK]], %c1
// CHECK-NEXT: %[[REL:.+]] = arith.andi %[[HASPREV]], %[[LEADER]]
// CHECK-NEXT: scf.if %[[REL]] {
// CHECK-NEXT: %[[PK:.+]] = arith.subi %[[CK]], %c1
// CHECK-NEXT: %[[PS:.+]] = arith.remui %[[PK]], %c3
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PS]]]
// CHECK: } {tile.k_loop}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// The epilogue stays in the consumers' branch (indentation shows nesting).
// NEST-LABEL: gpu.func @tma_ws_matmul0
// NEST: {{^      [}] else [{]$}}
// NEST-NOT: {{^      [}]$}}
// NEST: {{^          vector.store}}
// NEST: {{^      [}]$}}
// NEST-NEXT: {{^      gpu.return$}}
func.func @tma_ws(%A: memref<200x448xbf16>, %B: memref<448x200xbf16>, %C: memref<200x200xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3>}
    ins(%A, %B : memref<200x448xbf16>, memref<448x200xbf16>) outs(%C : memref<200x200xf32>)
  return
}

// -----

// Not specialized: every warpgroup computes; thread 0 issues slabs 0 and 1
// before the loop and, at iteration k, slab k + 2 (the last slot's first
// use needs no wait; from slab 3 on it waits for the release of slab k - 1).
// CHECK-LABEL: gpu.func @tma_ring_matmul0
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: setmaxregister
// CHECK: %[[FULL:.+]] = nvgpu.mbarrier.create
// CHECK: %[[EMPTY:.+]] = nvgpu.mbarrier.create
// CHECK: %[[T0:.+]] = arith.cmpi eq, %thread_id_x, %c0
// CHECK: scf.if %[[T0]] {
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%c0], %c32768
// CHECK: nvgpu.tma.async.load %arg3[%c0, %{{.+}}], %[[FULL]][%c0]
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%c1], %c32768
// CHECK: nvgpu.tma.async.load %arg3[%c64, %{{.+}}], %[[FULL]][%c1]
// CHECK-NOT: expect_tx
// CHECK: scf.for %[[K:.+]] = %c0 to %c7 step %c1 iter_args
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]]
// CHECK: %[[AHEAD:.+]] = arith.addi %[[K]], %c2
// CHECK-NEXT: %[[INK:.+]] = arith.cmpi ult, %[[AHEAD]], %c7
// CHECK-NEXT: %[[ISSUE:.+]] = arith.andi %[[T0]], %[[INK]]
// CHECK-NEXT: scf.if %[[ISSUE]] {
// CHECK-NEXT: %[[REUSE:.+]] = arith.cmpi uge, %[[AHEAD]], %c3
// CHECK-NEXT: scf.if %[[REUSE]] {
// CHECK-NEXT: %[[ES:.+]] = arith.remui %[[AHEAD]], %c3
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[ES]]]
// CHECK: %[[AS:.+]] = arith.remui %[[AHEAD]], %c3
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[AS]]], %c32768
// CHECK: } {tile.k_loop}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
func.func @tma_ring(%A: memref<200x448xbf16>, %B: memref<448x200xbf16>, %C: memref<200x200xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, specialize = false>}
    ins(%A, %B : memref<200x448xbf16>, memref<448x200xbf16>) outs(%C : memref<200x200xf32>)
  return
}

// -----

// Copies through registers: all 128 producer threads (thread - 256) run
// the loop, copy and fence, then arrive (full counts 128). The producer keeps the
// 104 it needs and the two consumers (64 accumulators each) share the rest,
// (168 * 384 - 104 * 128) / 256 = 200: the producer decreases from the launch's
// 168, the consumers increase.
// CHECK-LABEL: gpu.func @registers_matmul0
// CHECK: nvgpu.mbarrier.init %[[FULL:.+]][%c0], %c128
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister decrease 104
// CHECK-NEXT: scf.for
// CHECK: %{{.+}} = arith.muli %[[K:.+]], %c64
// CHECK-NEXT: %[[S:.+]] = arith.remui %[[K]], %c3
// CHECK: %[[PT:.+]] = arith.subi %thread_id_x, %c256
// Interior tiles copy without guards: thread t reads row t / 64 + 2 r,
// column t % 64 of A's 128x64 slab, 16 rounds per loop iteration.
// CHECK: arith.cmpi ule, %{{.+}}, %c450
// CHECK: arith.cmpi ule, %{{.+}}, %c199
// CHECK: arith.cmpi ule, %{{.+}}, %c200
// CHECK-NEXT: %[[IN0:.+]] = arith.andi
// CHECK-NEXT: %[[IN:.+]] = arith.andi %[[IN0]]
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[TR:.+]] = arith.divui %[[PT]], %c64
// CHECK-NEXT: %[[TC:.+]] = arith.remui %[[PT]], %c64
// CHECK-NEXT: scf.for %[[R:.+]] = %c0 to %c64 step %c16 {
// CHECK-NEXT: %[[R2:.+]] = arith.muli %[[R]], %c2
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[TR]], %[[R2]]
// CHECK-NEXT: %[[COL:.+]] = arith.addi %{{.+}}, %[[TC]]
// CHECK-NEXT: %[[GROW:.+]] = arith.addi %{{.+}}, %[[ROW]]
// CHECK-NEXT: %[[V:.+]] = memref.load %arg0[%[[GROW]], %[[COL]]]
// CHECK: memref.store %[[V]], %{{.+}}[%[[ROW]], %{{.+}}] : memref<128x64xbf16
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[FULL]][%[[S]]]
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 200
func.func @registers(%A: memref<200x450xbf16>, %B: memref<450x199xbf16>, %C: memref<200x199xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, copy = registers>}
    ins(%A, %B : memref<200x450xbf16>, memref<450x199xbf16>) outs(%C : memref<200x199xf32>)
  return
}
