// RUN: tile-opt %s -split-input-file --tile-configure --tile-block-tile --tile-promote-shared --canonicalize --cse | FileCheck %s

// tile-promote-shared for the wgmma strategy: a K loop over 64-deep slabs
// of A and B in one 128-byte-swizzled slot, 1024-byte aligned at run time;
// the TMA fills it (one thread, the slab's bytes expected on a "full"
// mbarrier), every thread waits for the slab's phase, thread 0 multiplies
// the slabs reading the swizzled layout, a barrier before the next slab.
// 64x128x64 blocks of bf16: A is one 64x64 box (8 KiB), B two 64x64 boxes.

// CHECK-LABEL: gpu.func @edge_matmul0
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<100x72xbf16>
// CHECK-SAME: %[[MAPA:[a-z0-9]+]]: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none> {tile.tensor_map = "A"}
// CHECK-SAME: %[[MAPB:[a-z0-9]+]]: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, {{.*}}> {tile.tensor_map = "B"}
// One slot (24 KiB) and 1 KiB for the alignment.
// CHECK-SAME: tile.dynamic_shared_bytes = 25600
// CHECK-SAME: tile.stage = "shared"
// CHECK: %[[ROW0:.+]] = arith.muli %{{.+}}, %c64 {tile.tile_origin = "row"}
// CHECK: %[[COL0:.+]] = arith.muli %{{.+}}, %c128 {tile.tile_origin = "col"}
// CHECK: %[[ROWS:.+]] = arith.minui %{{.+}}, %c64
// CHECK: %[[COLS:.+]] = arith.minui %{{.+}}, %c128
// CHECK: %[[CBLK:.+]] = memref.subview %{{.+}}[%[[ROW0]], %[[COL0]]] [%[[ROWS]], %[[COLS]]]
// CHECK: %[[T0:.+]] = arith.cmpi eq, %thread_id_x, %c0
// The aligned base: (-address) & 1023.
// CHECK: %[[SMEM:.+]] = gpu.dynamic_shared_memory
// CHECK: %[[ADDR:.+]] = memref.extract_aligned_pointer_as_index %[[SMEM]]
// CHECK: %[[NEG:.+]] = arith.subi %c0, %[[ADDR]]
// CHECK: %[[BASE:.+]] = arith.andi %[[NEG]], %c1023
// CHECK: %[[FULL:.+]] = nvgpu.mbarrier.create
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%c0], %c1
// CHECK: gpu.barrier
// CHECK: scf.for %[[K0:.+]] = %c0 to %c72 step %c64 {
// CHECK: %[[VA:.+]] = memref.view %[[SMEM]][%[[BASE]]][] {tile.shared = "A"} {{.*}} to memref<64x64xbf16
// CHECK: %[[BB:.+]] = arith.addi %[[BASE]], %c8192
// CHECK: %[[VB:.+]] = memref.view %[[SMEM]][%[[BB]]][] {tile.shared = "B"} {{.*}} to memref<128x64xbf16
// CHECK: %[[VB0:.+]] = memref.view %[[SMEM]][%[[BB]]][] {{.*}} to memref<64x64xbf16
// CHECK: %[[BB1:.+]] = arith.addi %[[BASE]], %c16384
// CHECK: %[[VB1:.+]] = memref.view %[[SMEM]][%[[BB1]]][] {{.*}} to memref<64x64xbf16
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%c0], %c24576
// Coordinates innermost first: (k, row) of A, (column, k) of B.
// CHECK-NEXT: nvgpu.tma.async.load %[[MAPA]][%[[K0]], %[[ROW0]]], %[[FULL]][%c0] to %[[VA]]
// CHECK-NEXT: nvgpu.tma.async.load %[[MAPB]][%[[COL0]], %[[K0]]], %[[FULL]][%c0] to %[[VB0]]
// CHECK-NEXT: %[[C64:.+]] = arith.addi %[[COL0]], %c64
// CHECK-NEXT: nvgpu.tma.async.load %[[MAPB]][%[[C64]], %[[K0]]], %[[FULL]][%c0] to %[[VB1]]
// CHECK-NEXT: } {tile.slab_copy}
// Slab i completes phase i: parity (k0 / 64) % 2.
// CHECK: %[[SLAB:.+]] = arith.divui %[[K0]], %c64
// CHECK: %[[PAR:.+]] = arith.remui %[[SLAB]], %c2
// CHECK: %[[P:.+]] = arith.index_cast %[[PAR]] : index to i1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL]][%c0], %[[P]], %c10000000
// CHECK: %[[LEFT:.+]] = arith.subi %c72, %[[K0]]
// CHECK: %[[DEPTH:.+]] = arith.minui %[[LEFT]], %c64
// CHECK: scf.if %[[T0]] {
// CHECK: scf.for %[[I:.+]] = %c0 to %[[ROWS]] step %c1 {
// CHECK: scf.for %[[J:.+]] = %c0 to %[[COLS]] step %c1 {
// CHECK: %[[CIJ:.+]] = memref.load %[[CBLK]][%[[I]], %[[J]]]
// CHECK: %[[CHUNK:.+]] = arith.divui %[[J]], %c64
// CHECK: %[[INCHUNK:.+]] = arith.remui %[[J]], %c64
// CHECK: scf.for %[[KK:.+]] = %c0 to %[[DEPTH]] step %c1 iter_args(%[[ACC:.+]] = %[[CIJ]])
// A[i][kk]: granule kk / 8 of row i at granule (kk / 8) ^ (i % 8).
// CHECK: %[[GA:.+]] = arith.divui %[[KK]], %c8
// CHECK: %[[RA:.+]] = arith.remui %[[I]], %c8
// CHECK: %[[XA:.+]] = arith.xori %[[GA]], %[[RA]]
// CHECK: %[[EA:.+]] = arith.remui %[[KK]], %c8
// CHECK: %[[SA:.+]] = arith.muli %[[XA]], %c8
// CHECK: %[[CA:.+]] = arith.addi %[[SA]], %[[EA]]
// CHECK: %[[AV:.+]] = memref.load %[[VA]][%[[I]], %[[CA]]]
// B[kk][j]: row chunk * 64 + kk, granule (j % 64) / 8 at ((j % 64) / 8) ^ (kk % 8).
// CHECK: %[[RB0:.+]] = arith.muli %[[CHUNK]], %c64
// CHECK: %[[RB:.+]] = arith.addi %[[RB0]], %[[KK]]
// CHECK: %[[GB:.+]] = arith.divui %[[INCHUNK]], %c8
// CHECK: %[[XB:.+]] = arith.xori %[[GB]], %[[EA]]
// CHECK: %[[EB:.+]] = arith.remui %[[INCHUNK]], %c8
// CHECK: %[[SB:.+]] = arith.muli %[[XB]], %c8
// CHECK: %[[CB:.+]] = arith.addi %[[SB]], %[[EB]]
// CHECK: %[[BV:.+]] = memref.load %[[VB]][%[[RB]], %[[CB]]]
// CHECK: arith.extf %[[BV]] : bf16 to f32
// CHECK: arith.extf %[[AV]] : bf16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf %[[ACC]]
// CHECK: memref.store %{{.+}}, %[[CBLK]][%[[I]], %[[J]]]
// CHECK: } {tile.slab_compute}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: } {tile.k_loop}
func.func @edge(%A: memref<100x72xbf16>, %B: memref<72x136xbf16>, %C: memref<100x136xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 2>}
    ins(%A, %B : memref<100x72xbf16>, memref<72x136xbf16>) outs(%C : memref<100x136xf32>)
  return
}

// -----

// Copies through registers (K = 70 and N = 130 are no TMA rows): element
// e = tid + round * 256 of the A slab is row e / 64 = tid / 64 + 4 * round,
// k e % 64 = tid % 64; of the B slab k tid / 128 + 2 * round, column
// tid % 128, chunk column / 64. A slab inside the matrices skips the edge
// guards; at the edges an element outside A or B reads as zero (its address
// clamped inside). Rounds go in groups of 16, their loads before their
// stores. A proxy fence makes the stores visible to wgmma, a barrier to
// the other threads.

// CHECK-LABEL: gpu.func @odd_matmul0
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<100x70xbf16>
// CHECK-SAME: %[[B:[a-z0-9]+]]: memref<70x130xbf16>
// CHECK-SAME: memref<100x130xbf16>
// CHECK-SAME: )
// CHECK-NOT: nvgpu.mbarrier
// CHECK: %[[ROW0:.+]] = arith.muli %{{.+}}, %c64 {tile.tile_origin = "row"}
// CHECK: %[[COL0:.+]] = arith.muli %{{.+}}, %c128 {tile.tile_origin = "col"}
// CHECK: scf.for %[[K0:.+]] = %c0 to %c70 step %c64 {
// CHECK: %[[VA:.+]] = memref.view {{.*}} {tile.shared = "A"}
// CHECK: %[[VB:.+]] = memref.view {{.*}} {tile.shared = "B"}
// CHECK-DAG: %[[KEND:.+]] = arith.addi %[[K0]], %c64
// CHECK-DAG: %[[KIN:.+]] = arith.cmpi ule, %[[KEND]], %c70
// CHECK-DAG: %[[CEND:.+]] = arith.addi %[[COL0]], %c128
// CHECK-DAG: %[[CIN:.+]] = arith.cmpi ule, %[[CEND]], %c130
// CHECK-DAG: %[[REND:.+]] = arith.addi %[[ROW0]], %c64
// CHECK-DAG: %[[RIN:.+]] = arith.cmpi ule, %[[REND]], %c100
// CHECK: %[[IN2:.+]] = arith.andi %[[RIN]], %[[CIN]]
// CHECK: %[[INSIDE:.+]] = arith.andi %[[IN2]], %[[KIN]]
// CHECK: scf.if %[[INSIDE]] {
// Inside: no guards.
// CHECK: %[[TROW:.+]] = arith.divui %thread_id_x, %c64
// CHECK: %[[TK:.+]] = arith.remui %thread_id_x, %c64
// CHECK: %[[GK:.+]] = arith.addi %[[K0]], %[[TK]]
// CHECK: %[[GR:.+]] = arith.addi %[[ROW0]], %[[TROW]]
// CHECK: %[[V:.+]] = memref.load %[[A]][%[[GR]], %[[GK]]]
// CHECK: %[[G:.+]] = arith.divui %[[TK]], %c8
// CHECK: %[[R8:.+]] = arith.remui %[[TROW]], %c8
// CHECK: %[[X:.+]] = arith.xori %[[G]], %[[R8]]
// CHECK: %[[E8:.+]] = arith.remui %[[TK]], %c8
// CHECK: %[[XS:.+]] = arith.muli %[[X]], %c8
// CHECK: %[[COL:.+]] = arith.addi %[[XS]], %[[E8]]
// CHECK: memref.store %[[V]], %[[VA]][%[[TROW]], %[[COL]]]
// Round 1: 4 rows down, a new swizzle row.
// CHECK: %[[ROW1:.+]] = arith.addi %[[TROW]], %c4
// CHECK: %[[GR1:.+]] = arith.addi %[[ROW0]], %[[ROW1]]
// CHECK: memref.load %[[A]][%[[GR1]], %[[GK]]]
// CHECK: %[[R81:.+]] = arith.remui %[[ROW1]], %c8
// CHECK: arith.xori %[[G]], %[[R81]]
// CHECK: } else {
// At the edges: clamped addresses, zero outside.
// CHECK: %[[ETROW:.+]] = arith.divui %thread_id_x, %c64
// CHECK: %[[ETK:.+]] = arith.remui %thread_id_x, %c64
// CHECK: %[[EGK:.+]] = arith.addi %[[K0]], %[[ETK]]
// CHECK: %[[EGR:.+]] = arith.addi %[[ROW0]], %[[ETROW]]
// CHECK: %[[ERIN:.+]] = arith.cmpi ult, %[[EGR]], %c100
// CHECK: %[[ERCL:.+]] = arith.minui %[[EGR]], %c99
// CHECK: %[[EKIN:.+]] = arith.cmpi ult, %[[EGK]], %c70
// CHECK: %[[EIN:.+]] = arith.andi %[[ERIN]], %[[EKIN]]
// CHECK: %[[EKCL:.+]] = arith.minui %[[EGK]], %c69
// CHECK: %[[EV:.+]] = memref.load %[[A]][%[[ERCL]], %[[EKCL]]]
// CHECK: %[[EVZ:.+]] = arith.select %[[EIN]], %[[EV]], %cst
// CHECK: memref.store %[[EVZ]], %[[VA]][%[[ETROW]],
// B: 64 x 128 / 256 = 32 rounds, two groups of 16.
// CHECK: %[[BTK:.+]] = arith.divui %thread_id_x, %c128
// CHECK: %[[BTN:.+]] = arith.remui %thread_id_x, %c128
// CHECK: scf.for %[[S:.+]] = %c0 to %c32 step %c16 {
// CHECK: %[[S2:.+]] = arith.muli %[[S]], %c2
// CHECK: %[[BK:.+]] = arith.addi %[[BTK]], %[[S2]]
// CHECK-DAG: %[[BGN:.+]] = arith.addi %[[COL0]], %[[BTN]]
// CHECK-DAG: %[[BGK:.+]] = arith.addi %[[K0]], %[[BK]]
// CHECK-DAG: arith.cmpi ult, %[[BGK]], %c70
// CHECK-DAG: arith.cmpi ult, %[[BGN]], %c130
// CHECK: %[[BV:.+]] = memref.load %[[B]][
// CHECK: %[[BZ:.+]] = arith.select %{{.+}}, %[[BV]], %cst
// The group's 16 loads come first:
// CHECK-COUNT-15: memref.load %[[B]]
// CHECK-NOT: scf.for
// CHECK: %[[CH:.+]] = arith.divui %[[BTN]], %c64
// CHECK: %[[BIN:.+]] = arith.remui %[[BTN]], %c64
// CHECK: %[[CHR:.+]] = arith.muli %[[CH]], %c64
// CHECK: %[[BROW:.+]] = arith.addi %[[CHR]], %[[BK]]
// CHECK: %[[BG:.+]] = arith.divui %[[BIN]], %c8
// CHECK: %[[BR8:.+]] = arith.remui %[[BK]], %c8
// CHECK: %[[BX:.+]] = arith.xori %[[BG]], %[[BR8]]
// CHECK: memref.store %[[BZ]], %[[VB]][%[[BROW]],
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: } {tile.slab_compute}
// CHECK-NEXT: gpu.barrier
func.func @odd(%A: memref<100x70xbf16>, %B: memref<70x130xbf16>, %C: memref<100x130xbf16>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 2, copy = registers>}
    ins(%A, %B : memref<100x70xbf16>, memref<70x130xbf16>) outs(%C : memref<100x130xbf16>)
  return
}
