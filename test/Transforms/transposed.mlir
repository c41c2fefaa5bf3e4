// Transposed operands through the first passes: the IR that reads them.
// RUN: tile-opt %s -split-input-file --tile-block-tile | FileCheck %s --check-prefix=BLOCK
// RUN: tile-opt %s -split-input-file --tile-block-tile --tile-promote-shared --canonicalize | FileCheck %s --check-prefix=SHARED
// RUN: tile-opt %s -split-input-file --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --canonicalize | FileCheck %s --check-prefix=WGMMA

// B stored N x K (96 x 64). The kernel takes B as stored; the block's
// matmul reads its 32 x 64 subview (rows from the tile's column origin)
// through a memref.transpose.
// BLOCK-LABEL: gpu.func @linear_matmul0
//  BLOCK-SAME: (%[[A:.*]]: memref<128x64xf32> {{.*}}, %[[B:.*]]: memref<96x64xf32> {{.*}}, %[[C:.*]]: memref<128x96xf32>
//  BLOCK-SAME: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 64 : i64, m = 128 : i64, n = 96 : i64, transpose_b = true}
//       BLOCK: %[[ROW0:.*]] = arith.muli %{{.*}}, %{{.*}} {tile.tile_origin = "row"}
//       BLOCK: %[[COL0:.*]] = arith.muli %{{.*}}, %{{.*}} {tile.tile_origin = "col"}
//       BLOCK: %[[SA:.*]] = memref.subview %[[A]][%[[ROW0]], 0] [64, 64] [1, 1]
//       BLOCK: %[[SB:.*]] = memref.subview %[[B]][%[[COL0]], 0] [32, 64] [1, 1] : memref<96x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
//       BLOCK: %[[BT:.*]] = memref.transpose %[[SB]] (d0, d1) -> (d1, d0) : {{.*}} to memref<64x32xf32, strided<[1, 64], offset: ?>>
//       BLOCK: linalg.matmul {{.*}} ins(%[[SA]], %[[BT]] :

// The slice copy of B is A's: thread t loads 4 consecutive k of stored row
// col0 + t/2 (threads past the 32 rows redo the last) and stores them down
// column t/2 of B's [8][32] tile, whose rows are padded as A's are (pad(4):
// 36 elements apart, so a warp's stores of one k fall on distinct banks).
// SHARED-LABEL: gpu.func @linear_matmul0
//       SHARED: %[[COL0:.*]] = arith.muli %{{.*}}, %{{.*}} {tile.tile_origin = "col"}
//       SHARED: %[[BS:.*]] = memref.view {{.*}} {tile.shared = "B"} {{.*}} to memref<8x36xf32, #gpu.address_space<workgroup>>
//       SHARED: scf.for %[[K0:.*]] = %c0 to %c64 step %c8 {
//       SHARED:   %[[T:.*]] = arith.minui %{{.*}}, %c63 : index
//       SHARED:   %[[R:.*]] = arith.divui %[[T]], %c2 : index
//       SHARED:   %[[KC:.*]] = arith.muli %{{.*}}, %c4 : index
//       SHARED:   %[[N:.*]] = arith.addi %[[COL0]], %[[R]] : index
//       SHARED:   %[[K:.*]] = arith.addi %[[K0]], %[[KC]] : index
//       SHARED:   %[[VB:.*]] = vector.load %arg1[%[[N]], %[[K]]] {alignment = 16 : i64} : memref<96x64xf32>, vector<4xf32>
//       SHARED:   %[[E0:.*]] = vector.extract %[[VB]][0]
//       SHARED:   memref.store %[[E0]], %[[BS]][%[[KC]], %[[R]]]
//       SHARED:   vector.extract %[[VB]][3]
//       SHARED:   memref.store
//       SHARED:   gpu.barrier
func.func @linear(%a: memref<128x64xf32>, %b: memref<96x64xf32>, %c: memref<128x96xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<block = [64, 32, 8], warp = [32, 16], thread = [4, 4]>}
    ins(%a, %b : memref<128x64xf32>, memref<96x64xf32>) outs(%c : memref<128x96xf32>)
  return
}

// -----

// B stored N x K with BK = 32 (64 x 32 B slice, 128 threads, 16-byte
// vectors, 8 per stored row): the copy takes each row's vectors in runs of
// a 32-byte sector, 2 threads per run and 16 rows per warp. Thread t
// copies vector p = t % 2 of run q = i (its i-th copy) of stored row
// col0 + t / 2, that is k = 4 * (2i + p), and stores its 4 elements down
// column t / 2 of B's [32][64] tile (rows 4 * (2i + p) .. + 3), its rows
// padded to 68 elements.
// SHARED-LABEL: gpu.func @linear_bk32_matmul0
//       SHARED: %[[COL0:.*]] = arith.muli %{{.*}}, %{{.*}} {tile.tile_origin = "col"}
//       SHARED: %[[BS:.*]] = memref.view {{.*}} {tile.shared = "B"} {{.*}} to memref<32x68xf32, #gpu.address_space<workgroup>>
//       SHARED: scf.for %[[K0:.*]] = %c0 to %c96 step %c32 {
//       SHARED:   %[[P:.*]] = arith.remui %thread_id_x, %c2 : index
//  SHARED-NEXT:   %[[R:.*]] = arith.divui %thread_id_x, %c2 : index
//  SHARED-NEXT:   %[[KC:.*]] = arith.muli %[[P]], %c4 : index
//  SHARED-NEXT:   %[[N:.*]] = arith.addi %[[COL0]], %[[R]] : index
//  SHARED-NEXT:   %[[K:.*]] = arith.addi %[[K0]], %[[KC]] : index
//  SHARED-NEXT:   %[[VB:.*]] = vector.load %arg1[%[[N]], %[[K]]] {alignment = 16 : i64} : memref<64x96xf32>, vector<4xf32>
//  SHARED-NEXT:   %[[E0:.*]] = vector.extract %[[VB]][0]
//  SHARED-NEXT:   memref.store %[[E0]], %[[BS]][%[[KC]], %[[R]]]
//       SHARED:   %[[E3:.*]] = vector.extract %[[VB]][3]
//  SHARED-NEXT:   %[[KC3:.*]] = arith.addi %[[KC]], %c3 : index
//  SHARED-NEXT:   memref.store %[[E3]], %[[BS]][%[[KC3]], %[[R]]]
//  SHARED-NEXT:   %[[P1:.*]] = arith.remui %thread_id_x, %c2 : index
//  SHARED-NEXT:   %[[R1:.*]] = arith.divui %thread_id_x, %c2 : index
//  SHARED-NEXT:   %[[POS1:.*]] = arith.addi %[[P1]], %c2 : index
//  SHARED-NEXT:   %[[KC1:.*]] = arith.muli %[[POS1]], %c4 : index
//  SHARED-NEXT:   %[[N1:.*]] = arith.addi %[[COL0]], %[[R1]] : index
//  SHARED-NEXT:   %[[K1:.*]] = arith.addi %[[K0]], %[[KC1]] : index
//  SHARED-NEXT:   vector.load %arg1[%[[N1]], %[[K1]]] {alignment = 16 : i64}
//  SHARED-NEXT:   %[[F0:.*]] = vector.extract
//  SHARED-NEXT:   memref.store %[[F0]], %[[BS]][%[[KC1]], %[[R1]]]
//       SHARED:   %[[POS3:.*]] = arith.addi %{{.*}}, %c6 : index
//  SHARED-NEXT:   %[[KC7:.*]] = arith.muli %[[POS3]], %c4 : index
//       SHARED:   gpu.barrier
func.func @linear_bk32(%a: memref<128x96xf32>, %b: memref<64x96xf32>, %c: memref<128x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<block = [64, 64, 32], warp = [32, 32], thread = [8, 4]>}
    ins(%a, %b : memref<128x96xf32>, memref<64x96xf32>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// A stored K x M (64 x 128): the block reads its 64 x 64 subview at
// (0, row0) through a memref.transpose, and its slice copy is B's, a
// 16-byte vector along m in (stored row k0 + t/16, column row0 + 4(t%16))
// and out at [t/16][4(t%16)] of A's k-major tile.
// BLOCK-LABEL: gpu.func @at_matmul0
//  BLOCK-SAME: (%[[A:.*]]: memref<64x128xf32> {{.*}}, %[[B:.*]]: memref<64x96xf32>
//  BLOCK-SAME: transpose_a = true
//       BLOCK: %[[ROW0:.*]] = arith.muli %{{.*}}, %{{.*}} {tile.tile_origin = "row"}
//       BLOCK: %[[SA:.*]] = memref.subview %[[A]][0, %[[ROW0]]] [64, 64] [1, 1]
//       BLOCK: %[[AT:.*]] = memref.transpose %[[SA]] (d0, d1) -> (d1, d0) : {{.*}} to memref<64x64xf32, strided<[1, 128], offset: ?>>
//       BLOCK: linalg.matmul {{.*}} ins(%[[AT]], %{{.*}} :
// SHARED-LABEL: gpu.func @at_matmul0
//       SHARED: %[[ROW0:.*]] = arith.muli %{{.*}}, %{{.*}} {tile.tile_origin = "row"}
//       SHARED: %[[AS:.*]] = memref.view {{.*}} {tile.shared = "A"} {{.*}} to memref<8x68xf32, #gpu.address_space<workgroup>>
//       SHARED: scf.for %[[K0:.*]] = %c0 to %c64 step %c8 {
//       SHARED:   %[[KR:.*]] = arith.divui %thread_id_x, %c16 : index
//       SHARED:   %[[CC:.*]] = arith.muli %{{.*}}, %c4 : index
//       SHARED:   %[[K:.*]] = arith.addi %[[K0]], %[[KR]] : index
//       SHARED:   %[[M:.*]] = arith.addi %[[ROW0]], %[[CC]] : index
//       SHARED:   %[[VA:.*]] = vector.load %arg0[%[[K]], %[[M]]] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
//       SHARED:   vector.store %[[VA]], %[[AS]][%[[KR]], %[[CC]]] {alignment = 16 : i64}
func.func @at(%a: memref<64x128xf32>, %b: memref<64x96xf32>, %c: memref<128x96xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<block = [64, 32, 8], warp = [32, 16], thread = [4, 4]>}
    ins(%a, %b : memref<64x128xf32>, memref<64x96xf32>) outs(%c : memref<128x96xf32>)
  return
}

// -----

// wgmma with B stored N x K: B's tensor map has a box of BN = 128 stored
// rows of 64 k, the TMA loads it at (k0, col0), and wgmma reads B K-major
// (layout col: imm-trans-b 0).
//       WGMMA: nvgpu.tma.create.descriptor %{{.*}} box[%c128, %c64] {{.*}} -> <tensor = memref<128x64xbf16
//       WGMMA: %[[MAPB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c128, %c64] {{.*}} -> <tensor = memref<128x64xbf16
//       WGMMA: gpu.launch_func {{.*}} args({{.*}}, %[[MAPB]] : !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16
// WGMMA-LABEL: gpu.func @wlinear_matmul0
//  WGMMA-SAME: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 128 : i64, m = 128 : i64, n = 256 : i64, transpose_b = true}
//       WGMMA: %[[COL0:.*]] = arith.muli %{{.*}} {tile.tile_origin = "col"}
//       WGMMA: scf.for %[[K0:[a-z0-9_]+]] =
//       WGMMA: nvgpu.tma.async.load %arg4[%[[K0]], %[[COL0]]]{{.*}} -> memref<128x64xbf16, #gpu.address_space<workgroup>>
//       WGMMA: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
func.func @wlinear(%a: memref<128x128xbf16>, %b: memref<256x128xbf16>, %c: memref<128x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 2>}
    ins(%a, %b : memref<128x128xbf16>, memref<256x128xbf16>) outs(%c : memref<128x256xf32>)
  return
}

// -----

// wgmma with A stored K x M (128 x 256): A's slab is M-major like a
// row-major B's, BM / 64 = 2 chunks of 64 k-rows of 64 m (8 KiB apart).
// A's tensor map has a box of 64 stored rows (k) of 64 m, the TMA loads
// one per chunk at (row0 + 64 c, k0), the full barrier expects both
// operands' 4 boxes (32 KiB), and wgmma reads A M-major (layout col:
// imm-trans-a 1) through a descriptor whose leading offset is the chunk
// stride (8192 >> 4 = 512 at bit 16, as B's), 16 k-rows (2048 B >> 4 =
// 128) further per k step.
//       WGMMA: %[[MAPA:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] {{.*}} -> <tensor = memref<64x64xbf16
//       WGMMA: gpu.launch_func {{.*}} args({{.*}}, %[[MAPA]] : !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16
// WGMMA-LABEL: gpu.func @wta_matmul0
//  WGMMA-SAME: %{{arg[0-9]+}}: memref<128x256xbf16>
//  WGMMA-SAME: %[[KMAPA:arg[0-9]+]]: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, {{.*}}> {tile.tensor_map = "A"}
//  WGMMA-SAME: tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 128 : i64, m = 256 : i64, n = 128 : i64, transpose_a = true}
//       WGMMA: %[[ROW0:.*]] = arith.muli %{{.*}} {tile.tile_origin = "row"}
//       WGMMA: %[[BASE:.*]] = arith.andi %{{.*}}, %c1023
//       WGMMA: scf.for %[[K0:[a-z0-9_]+]] =
//       WGMMA: %[[VA:.*]] = memref.view %{{.*}}[%[[BASE]]][] {tile.shared = "A"} {{.*}} to memref<128x64xbf16
//       WGMMA: %[[VA0:.*]] = memref.view %{{.*}}[%[[BASE]]][] {{.*}} to memref<64x64xbf16
//       WGMMA: %[[A1:.*]] = arith.addi %[[BASE]], %c8192
//       WGMMA: %[[VA1:.*]] = memref.view %{{.*}}[%[[A1]]][] {{.*}} to memref<64x64xbf16
//       WGMMA: %[[B0:.*]] = arith.addi %[[BASE]], %c16384
//       WGMMA: memref.view %{{.*}}[%[[B0]]][] {tile.shared = "B"}
//       WGMMA: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%c0], %c32768
//  WGMMA-NEXT: nvgpu.tma.async.load %[[KMAPA]][%[[ROW0]], %[[K0]]], %{{.*}} to %[[VA0]]
//  WGMMA-NEXT: %[[ROW64:.*]] = arith.addi %[[ROW0]], %c64
//  WGMMA-NEXT: nvgpu.tma.async.load %[[KMAPA]][%[[ROW64]], %[[K0]]], %{{.*}} to %[[VA1]]
//       WGMMA: nvgpu.mbarrier.try_wait.parity
//       WGMMA: %[[WCHUNK:.*]] = arith.divui %[[WROW:.*]], %c64
//  WGMMA-NEXT: %[[WIN:.*]] = arith.remui %[[WROW]], %c64
//  WGMMA-NEXT: %[[WINB:.*]] = arith.muli %[[WIN]], %c2
//  WGMMA-NEXT: %[[WCHUNKB:.*]] = arith.muli %[[WCHUNK]], %c8192
//  WGMMA-NEXT: %[[WOFF:.*]] = arith.addi %[[WCHUNKB]], %[[WINB]]
//  WGMMA-NEXT: %[[APTR:.*]] = memref.extract_aligned_pointer_as_index %[[VA]]
//  WGMMA-NEXT: %[[AADDR:.*]] = arith.addi %[[APTR]], %[[WOFF]]
//       WGMMA: %[[A64:.*]] = arith.index_castui %[[AADDR]]
//  WGMMA-NEXT: %[[AAND:.*]] = arith.andi %[[A64]], %c262143_i64
//  WGMMA-NEXT: %[[ASHR:.*]] = arith.shrui %[[AAND]], %c4_i64
//  WGMMA-NEXT: %[[DA:.*]] = arith.ori %[[ASHR]], %c4611686293338849280_i64
//       WGMMA: nvvm.wgmma.fence.aligned
//  WGMMA-NEXT: nvvm.wgmma.mma_async %[[DA]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
//  WGMMA-NEXT: %[[DA1:.*]] = arith.addi %[[DA]], %c128_i64
//  WGMMA-NEXT: arith.addi
//  WGMMA-NEXT: nvvm.wgmma.mma_async %[[DA1]], {{.*}} A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
func.func @wta(%a: memref<128x256xbf16>, %b: memref<128x128xbf16>, %c: memref<256x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 2>}
    ins(%a, %b : memref<128x256xbf16>, memref<128x128xbf16>) outs(%c : memref<256x128xf32>)
  return
}
