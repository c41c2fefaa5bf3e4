// RUN: tile-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tile-configure --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --canonicalize --cse | FileCheck %s

// tile-wgmma: each consumer warpgroup's slab product becomes wgmma
// instructions reading the swizzled slot through matrix descriptors, with
// f32 accumulators carried through the K loop.
// 128x128x64 blocks, two 64x128 warpgroups, m64n64k16 instructions: two
// instructions per k step (columns 0-63 and 64-127), four k steps a slab.

// CHECK-LABEL: gpu.func @along_m_matmul0
// CHECK-SAME: tile.c_alignment = 8
// CHECK-SAME: tile.stage = "instruction"
// CHECK: %[[ROW0:.+]] = arith.muli %{{.+}}, %c128 {tile.tile_origin = "row"}
// CHECK: %[[COL0:.+]] = arith.muli %{{.+}}, %c128 {tile.tile_origin = "col"}
// CHECK: %[[WG:.+]] = arith.divui %thread_id_x, %c128
// CHECK: %[[WGROW:.+]] = arith.muli %[[WG]], %c64
// CHECK: %[[ROFF:.+]] = arith.minui %[[WGROW]],
// CHECK: %[[WROWS:.+]] = arith.minui %{{.+}}, %c64
// CHECK: %[[WCOLS:.+]] = arith.minui %{{.+}}, %c128
// The accumulator layout: thread t of the warpgroup holds rows
// 16 * (t / 32) + (t % 32) / 4 (and 8 more), columns 2 * (t % 4) (and the
// next) of every 8-column group.
// CHECK: %[[T:.+]] = arith.remui %thread_id_x, %c128
// CHECK: %[[WARP:.+]] = arith.divui %[[T]], %c32
// CHECK: %[[LANE:.+]] = arith.remui %[[T]], %c32
// CHECK: %[[LQ:.+]] = arith.divui %[[LANE]], %c4
// CHECK: %[[W16:.+]] = arith.muli %[[WARP]], %c16
// CHECK: %[[FROW:.+]] = arith.addi %[[W16]], %[[LQ]]
// CHECK: %[[LR:.+]] = arith.remui %[[LANE]], %c4
// CHECK: %[[FCOL:.+]] = arith.muli %[[LR]], %c2
// CHECK: %[[CONSUMER:.+]] = arith.cmpi ult, %[[WG]], %c2
// C in (C += A*B): fragment (0, 0) where it lies inside the warpgroup's C.
// CHECK: %[[RIN:.+]] = arith.cmpi ult, %[[FROW]], %[[WROWS]]
// CHECK: %[[CIN:.+]] = arith.cmpi ult, %[[FCOL]], %[[WCOLS]]
// CHECK: %[[G1:.+]] = arith.andi %[[CONSUMER]], %[[RIN]]
// CHECK: %[[G2:.+]] = arith.andi %[[G1]], %[[CIN]]
// CHECK: scf.if %[[G2]] -> (vector<2xf32>) {
// CHECK: %[[R1:.+]] = arith.addi %[[ROFF]], %[[FROW]]
// CHECK: %[[R2:.+]] = arith.addi %[[ROW0]], %[[R1]]
// CHECK: %[[C2:.+]] = arith.addi %[[COL0]], %[[FCOL]]
// CHECK: vector.load %arg2[%[[R2]], %[[C2]]] {alignment = 8 : i64} : memref<200x200xf32>, vector<2xf32>
// Fragment (8, 0): 8 rows down.
// CHECK: %[[FROW8:.+]] = arith.addi %[[FROW]], %c8
// CHECK: arith.cmpi ult, %[[FROW8]], %[[WROWS]]
// CHECK: llvm.insertvalue %{{.+}}, %{{.+}}[0] : !llvm.struct<(f32
// CHECK: llvm.insertvalue %{{.+}}, %{{.+}}[1] : !llvm.struct<(f32
// CHECK: %{{.+}}:2 = scf.for %{{.+}} = %c0 to %c128 step %c64 iter_args(%[[ACC0:.+]] = %{{.+}}, %[[ACC1:.+]] = %{{.+}}) -> (!llvm.struct<(f32
// CHECK: %[[VA:.+]] = memref.view {{.*}} {tile.shared = "A"}
// CHECK: %[[VB:.+]] = memref.view {{.*}} {tile.shared = "B"}
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: scf.if %[[CONSUMER]] -> (!llvm.struct<(f32
// A: the warpgroup's 64 rows start 64 * 128 bytes further per warpgroup.
// CHECK: %[[AOFF:.+]] = arith.muli %[[WG]], %c8192
// CHECK: %[[APTR:.+]] = memref.extract_aligned_pointer_as_index %[[VA]]
// CHECK: %[[AADDR:.+]] = arith.addi %[[APTR]], %[[AOFF]]
// CHECK: %[[BPTR:.+]] = memref.extract_aligned_pointer_as_index %[[VB]]
// Descriptor: (address & 0x3FFFF) >> 4, leading offset 16 >> 4 = 1 (A) or
// 8192 >> 4 = 512 (B, between 64-column chunks) at bit 16, stride offset
// 1024 >> 4 = 64 at bit 32, 128-byte swizzle (1) at bit 62.
// CHECK: %[[A64:.+]] = arith.index_castui %[[AADDR]] : index to i64
// CHECK: %[[AAND:.+]] = arith.andi %[[A64]], %c262143_i64
// CHECK: %[[ASHR:.+]] = arith.shrui %[[AAND]], %c4_i64
// CHECK: %[[DA:.+]] = arith.ori %[[ASHR]], %c4611686293305360384_i64
// CHECK: %[[B64:.+]] = arith.index_castui %[[BPTR]] : index to i64
// CHECK: %[[BAND:.+]] = arith.andi %[[B64]], %c262143_i64
// CHECK: %[[BSHR:.+]] = arith.shrui %[[BAND]], %c4_i64
// CHECK: %[[DB:.+]] = arith.ori %[[BSHR]], %c4611686293338849280_i64
// CHECK: nvvm.wgmma.fence.aligned
// k step 0: columns 0-63, then 64-127 (the next 64-column chunk, +8192 B).
// CHECK-NEXT: %[[M00:.+]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %[[ACC0]], <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NEXT: %[[DB1:.+]] = arith.addi %[[DB]], %c512_i64
// CHECK-NEXT: %[[M01:.+]] = nvvm.wgmma.mma_async %[[DA]], %[[DB1]], %[[ACC1]]
// k step 1: A 16 elements (32 B) on, B 16 rows (2048 B) on.
// CHECK-NEXT: %[[DA1:.+]] = arith.addi %[[DA]], %c2_i64
// CHECK-NEXT: %[[DBK1:.+]] = arith.addi %[[DB]], %c128_i64
// CHECK-NEXT: %[[M10:.+]] = nvvm.wgmma.mma_async %[[DA1]], %[[DBK1]], %[[M00]]
// CHECK-NEXT: %[[DBK11:.+]] = arith.addi %[[DB]], %c640_i64
// CHECK-NEXT: %[[M11:.+]] = nvvm.wgmma.mma_async %[[DA1]], %[[DBK11]], %[[M01]]
// CHECK-NEXT: %[[DA2:.+]] = arith.addi %[[DA]], %c4_i64
// CHECK-NEXT: %[[DBK2:.+]] = arith.addi %[[DB]], %c256_i64
// CHECK-NEXT: %[[M20:.+]] = nvvm.wgmma.mma_async %[[DA2]], %[[DBK2]], %[[M10]]
// CHECK-NEXT: %[[DBK21:.+]] = arith.addi %[[DB]], %c768_i64
// CHECK-NEXT: %[[M21:.+]] = nvvm.wgmma.mma_async %[[DA2]], %[[DBK21]], %[[M11]]
// CHECK-NEXT: %[[DA3:.+]] = arith.addi %[[DA]], %c6_i64
// CHECK-NEXT: %[[DBK3:.+]] = arith.addi %[[DB]], %c384_i64
// CHECK-NEXT: %[[M30:.+]] = nvvm.wgmma.mma_async %[[DA3]], %[[DBK3]], %[[M20]]
// CHECK-NEXT: %[[DBK31:.+]] = arith.addi %[[DB]], %c896_i64
// CHECK-NEXT: %[[M31:.+]] = nvvm.wgmma.mma_async %[[DA3]], %[[DBK31]], %[[M21]]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield %[[M30]], %[[M31]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ACC0]], %[[ACC1]]
// CHECK: } {tile.slab_compute}
// C out: registers 0 and 1 of instruction 0 are fragment (0, 0), at the
// thread's origin computed anew through an opaque copy.
// CHECK: } {tile.k_loop}
// CHECK: %[[E0:.+]] = llvm.extractvalue %[[RES:.+]]#0[0]
// CHECK: %[[E1:.+]] = llvm.extractvalue %[[RES]]#0[1]
// CHECK: %[[V0:.+]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
// CHECK: %[[OR:.+]] = arith.index_castui %[[FROW]] : index to i32
// CHECK: %[[ORO:.+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[OR]]
// CHECK: %[[ROWN:.+]] = arith.index_castui %[[ORO]] : i32 to index
// CHECK: %[[OC:.+]] = arith.index_castui %[[FCOL]] : index to i32
// CHECK: %[[OCO:.+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[OC]]
// CHECK: %[[COLN:.+]] = arith.index_castui %[[OCO]] : i32 to index
// CHECK: %[[SR:.+]] = arith.cmpi ult, %[[ROWN]], %[[WROWS]]
// CHECK: %[[SC:.+]] = arith.cmpi ult, %[[COLN]], %[[WCOLS]]
// CHECK: scf.if
// CHECK: %[[SR1:.+]] = arith.addi %[[ROFF]], %[[ROWN]]
// CHECK: %[[SR2:.+]] = arith.addi %[[ROW0]], %[[SR1]]
// CHECK: %[[SC2:.+]] = arith.addi %[[COL0]], %[[COLN]]
// CHECK: vector.store %[[V0]], %arg2[%[[SR2]], %[[SC2]]] {alignment = 8 : i64}
// Instruction 1's first fragment: columns 64 on.
// CHECK: %[[COL64:.+]] = arith.addi %[[COLN]], %c64
// CHECK: arith.cmpi ult, %[[COL64]], %[[WCOLS]]
func.func @along_m(%A: memref<200x128xbf16>, %B: memref<128x200xbf16>, %C: memref<200x200xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3>}
    ins(%A, %B : memref<200x128xbf16>, memref<128x200xbf16>) outs(%C : memref<200x200xf32>)
  return
}

// -----

// C = 0.5 + A*B in f16 with f16 inputs, N odd: the accumulators start at the
// fill value (widened to f32), C's elements are stored one at a time (a
// pair would not be aligned), converted to f16.
// CHECK-LABEL: gpu.func @fill_f16_matmul0
// CHECK-SAME: tile.c_alignment = 2
// CHECK: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: llvm.insertvalue %[[HALF]], %{{.+}}[0]
// CHECK: A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: } {tile.k_loop}
// CHECK: %[[F:.+]] = arith.truncf %{{.+}} : vector<2xf32> to vector<2xf16>
// CHECK: vector.extract %[[F]][0] : f16 from vector<2xf16>
// CHECK: memref.store %{{.+}} : memref<64x129xf16>
// CHECK-NOT: vector.store
func.func @fill_f16(%A: tensor<64x128xf16>, %B: tensor<128x129xf16>) -> tensor<64x129xf16> {
  %zero = arith.constant 0.5 : f16
  %empty = tensor.empty() : tensor<64x129xf16>
  %C = linalg.fill ins(%zero : f16) outs(%empty : tensor<64x129xf16>) -> tensor<64x129xf16>
  %R = linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = registers>}
    ins(%A, %B : tensor<64x128xf16>, tensor<128x129xf16>) outs(%C : tensor<64x129xf16>) -> tensor<64x129xf16>
  return %R : tensor<64x129xf16>
}
