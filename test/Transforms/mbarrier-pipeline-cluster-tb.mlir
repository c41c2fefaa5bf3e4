// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline --canonicalize --cse | FileCheck %s

// A 2x1 cluster on a matmul whose B is stored N x K: B's slab is K-major
// (256 rows of 64 k, 32 KiB), which the two blocks share as two boxes of
// 128 rows, 16 KiB apart in the slot: rank 0 issues B rows 0-127 of the
// tile, rank 1 rows 128-255, each multicast to both blocks; A's box is the
// block's own. B's map has boxes of 128 rows.
// CHECK: gpu.launch_func @transposed_b_matmul0::@transposed_b_matmul0 blocks in (%c4, %c1, %c1)
// CHECK-SAME: %{{.+}} : !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, {{.+}}, %{{.+}} : !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: gpu.func @transposed_b_matmul0
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: %[[RANK:.+]] = gpu.cluster_block_id x
// CHECK: %[[COL0:.+]] = arith.muli %{{.+}}, %c256 {tile.tile_origin = "col"}
// CHECK: %[[SLOT:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK-NEXT: %[[A:.+]] = memref.view %{{.+}}[%[[SLOT]]][] {tile.shared = "A"} : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[OFF0:.+]] = arith.addi %[[SLOT]], %c16384
// CHECK-NEXT: %[[B0:.+]] = memref.view %{{.+}}[%[[OFF0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[OFF1:.+]] = arith.addi %[[SLOT]], %c32768
// CHECK-NEXT: %[[B1:.+]] = memref.view %{{.+}}[%[[OFF1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL:.+]][%[[S:.+]]], %c49152
// CHECK-NEXT: nvgpu.tma.async.load %arg3[%[[K0:.+]], %{{.+}}], %[[FULL]][%[[S]]] to %[[A]] {tile.tma_operand = "A"}
// CHECK-NEXT: %[[IS0:.+]] = arith.cmpi eq, %[[RANK]], %c0
// CHECK-NEXT: scf.if %[[IS0]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[K0]], %[[COL0]]], %[[FULL]][%[[S]]] to %[[B0]] multicast_mask = %c3_i16 {tile.tma_operand = "B"}
// CHECK-NEXT: }
// CHECK-NEXT: %[[N128:.+]] = arith.addi %[[COL0]], %c128
// CHECK-NEXT: %[[IS1:.+]] = arith.cmpi eq, %[[RANK]], %c1
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT: nvgpu.tma.async.load %arg4[%[[K0]], %[[N128]]], %[[FULL]][%[[S]]] to %[[B1]] multicast_mask = %c3_i16 {tile.tma_operand = "B"}
// CHECK-NEXT: }
// The consumers read B's slab whole (256 rows).
// CHECK: memref.view %{{.+}} {tile.shared = "B"} : memref<?xi8, #gpu.address_space<workgroup>> to memref<256x64xbf16, #gpu.address_space<workgroup>>
func.func @transposed_b(%a: memref<512x256xbf16>, %b: memref<256x256xbf16>, %c: memref<512x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [2, 1]>}
      ins(%a, %b : memref<512x256xbf16>, memref<256x256xbf16>) outs(%c : memref<512x256xf32>)
  return
}
