// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --canonicalize -split-input-file | FileCheck %s

// 64x64x8 block tiles, 128 threads. The K loop steps through 8-deep slices;
// each slice of A is stored k-major with rows padded to 64 + 4 floats, then
// B (at byte 8 * 68 * 4 = 2176): 4224 bytes of dynamic shared memory.
// K and N are multiples of 4: 16-byte global loads, one A vector and one B
// vector per thread. Barriers: after the stores, and after the compute.

// CHECK-LABEL: func.func @aligned
//       CHECK: %[[SMEM:.*]] = arith.constant 4224 : i32
//       CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[SMEM]]
//       CHECK: gpu.func @aligned_matmul0(%[[A:.*]]: memref<128x64xf32> {{.*}}, %[[B:.*]]: memref<64x128xf32> {{.*}}, %[[C:.*]]: memref<128x128xf32>
//  CHECK-SAME: tile.dynamic_shared_bytes = 4224 : i64
//  CHECK-SAME: tile.stage = "shared"
//       CHECK: %[[TID:.*]] = gpu.thread_id x
//       CHECK: %[[DSM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
//       CHECK: %[[AS:.*]] = memref.view %[[DSM]][%c0][] {tile.shared = "A"} : {{.*}} to memref<8x68xf32, #gpu.address_space<workgroup>>
//       CHECK: %[[BS:.*]] = memref.view %[[DSM]][%c2176][] {tile.shared = "B"} : {{.*}} to memref<8x64xf32, #gpu.address_space<workgroup>>
//       CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c8 {
// A: thread t loads 4 consecutive k of row t/2 and stores them down column
// t/2 of the k-major tile.
//       CHECK:   %[[R:.*]] = arith.divui %[[TID]], %c2 : index
//       CHECK:   %[[KC:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK:   %[[ROW:.*]] = arith.addi %{{.*}}, %[[R]] : index
//       CHECK:   %[[K:.*]] = arith.addi %[[K0]], %[[KC]] : index
//       CHECK:   %[[VA:.*]] = vector.load %[[A]][%[[ROW]], %[[K]]] {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
//       CHECK:   %[[E0:.*]] = vector.extract %[[VA]][0]
//       CHECK:   memref.store %[[E0]], %[[AS]][%[[KC]], %[[R]]]
//       CHECK:   vector.extract %[[VA]][3]
//       CHECK:   memref.store
// B: a 16-byte vector in, a 16-byte vector out.
//       CHECK:   %[[VB:.*]] = vector.load %[[B]][{{.*}}] {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
//       CHECK:   vector.store %[[VB]], %[[BS]][{{.*}}] {alignment = 16 : i64}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   scf.if
//       CHECK:     %[[SA:.*]] = memref.subview %[[AS]][0, 0] [8, 64] [1, 1]
//       CHECK:     %[[AT:.*]] = memref.transpose %[[SA]] (d0, d1) -> (d1, d0)
// (the subview of the whole B slice folds away)
//       CHECK:     linalg.matmul {{.*}} ins(%[[AT]], %[[BS]] : {{.*}}) outs(%{{.*}} : memref<64x64xf32, strided<[128, 1], offset: ?>>)
//       CHECK:   }
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT: } {tile.k_loop}
//  CHECK-NEXT: gpu.return
func.func @aligned(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// Edges: M = 100 (rows past 99 read row 99), N = 70 (N % 4 != 0: B is
// copied as 2-element vectors, columns past the edge read the last aligned
// pair), K = 30 (K % 4 != 0: A as 2-element vectors). K is not a multiple
// of BK = 8: every slice copies from kc = min(k0, 30 - 8 = 22), so the last
// one (k0 = 24) reads k 22..29, all inside A and B, with no clamp per
// element; its first skip = k0 - kc = 2 rows (k 22, 23: the slice before
// took them) are zeros (offset >= skip selects the loaded value), and the
// slice matmul takes all 8 rows. A register copy's k passes through an
// empty inline asm, so that LLVM keeps one 32-bit offset per copy (not a
// 64-bit pointer each: the loaded values are live through the compute).
// The threads cover whole rows (128 % 4 == 0), so the second round's row
// is tid / 4 plus 128 / 4 = 32.

// CHECK-LABEL: gpu.func @edges_matmul0
//       CHECK: scf.for %[[K0:.*]] = %c0 to %c30 step %c8 {
//       CHECK:   %[[KC:.*]] = arith.minui %[[K0]], %c22 : index
//       CHECK:   %[[SKIP:.*]] = arith.subi %[[K0]], %[[KC]] : index
// A: thread t reads the pair at k = kc + 2 * (t % 4) of row t / 4.
//       CHECK:   %[[R:.*]] = arith.divui %{{.*}}, %c4 : index
//       CHECK:   %[[PAIR:.*]] = arith.remui %{{.*}}, %c4 : index
//       CHECK:   %[[KOFF:.*]] = arith.muli %[[PAIR]], %c2 : index
//       CHECK:   %[[ROWU:.*]] = arith.addi %{{.*}}, %[[R]] : index
//       CHECK:   %[[ROW:.*]] = arith.minui %[[ROWU]], %c99 : index
//       CHECK:   %[[K:.*]] = arith.addi %[[KC]], %[[KOFF]] : index
//       CHECK:   %[[TAKEN:.*]] = arith.cmpi uge, %[[KOFF]], %[[SKIP]] : index
//       CHECK:   %[[K32:.*]] = arith.index_castui %[[K]] : index to i32
//       CHECK:   %[[KO:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[K32]]
//       CHECK:   %[[KI:.*]] = arith.index_castui %[[KO]] : i32 to index
//       CHECK:   %[[VA:.*]] = vector.load %{{.*}}[%[[ROW]], %[[KI]]] {alignment = 8 : i64} : memref<100x30xf32>, vector<2xf32>
//       CHECK:   arith.select %[[TAKEN]], %[[VA]], %{{.*}} : vector<2xf32>
//       CHECK:   memref.store %{{.*}}, %{{.*}}[%[[KOFF]], %[[R]]]
//       CHECK:   %[[R0:.*]] = arith.divui %{{.*}}, %c4 : index
//       CHECK:   %[[R1:.*]] = arith.addi %[[R0]], %c32 overflow<nuw> : index
//       CHECK:   memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[R1]]]
// B: thread t reads the pair at column 2 * (t % 32) of row kc + t / 32.
//       CHECK:   %[[KR:.*]] = arith.divui %{{.*}}, %c32 : index
//       CHECK:   %[[KB:.*]] = arith.addi %[[KC]], %[[KR]] : index
//       CHECK:   %[[TAKENB:.*]] = arith.cmpi uge, %[[KR]], %[[SKIP]] : index
//       CHECK:   %[[COL:.*]] = arith.minui %{{.*}}, %c68 : index
//       CHECK:   %[[VB:.*]] = vector.load %{{.*}}[%[[KB]], %[[COL]]] {alignment = 8 : i64} : memref<30x70xf32>, vector<2xf32>
//       CHECK:   arith.select %[[TAKENB]], %[[VB]], %{{.*}} : vector<2xf32>
//       CHECK:   vector.store %{{.*}}, %{{.*}}[%[[KR]], %{{.*}}] {alignment = 8 : i64}
//       CHECK:   gpu.barrier
//       CHECK:   memref.subview %{{.*}}[0, 0] [8, %{{.*}}] [1, 1]
//       CHECK:   linalg.matmul
//       CHECK:   gpu.barrier
func.func @edges(%A: memref<100x30xf32>, %B: memref<30x70xf32>, %C: memref<100x70xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<100x30xf32>, memref<30x70xf32>) outs(%C : memref<100x70xf32>)
  return
}

// -----

// K = 6 < BK = 8: one slice, which cannot shift back (it would start at
// k = -2), so each copy clamps its own k (A pairs at min(k, 4), B rows at
// min(k, 5)) and zero-fills past K; the slice matmul is 6 deep.

// CHECK-LABEL: gpu.func @short_k_matmul0
//   CHECK-NOT: scf.for
//       CHECK: %[[KA:.*]] = arith.muli %{{.*}}, %c2 : index
//       CHECK: %[[INA:.*]] = arith.cmpi ult, %[[KA]], %c6 : index
//       CHECK: %[[KAC:.*]] = arith.minui %[[KA]], %c4 : index
//       CHECK: %[[VA:.*]] = vector.load %{{.*}}[%{{.*}}, %[[KAC]]] {alignment = 8 : i64} : memref<64x6xf32>, vector<2xf32>
//       CHECK: arith.select %[[INA]], %[[VA]], %{{.*}} : vector<2xf32>
//       CHECK: %[[KB:.*]] = arith.divui %{{.*}}, %c16 : index
//       CHECK: %[[INB:.*]] = arith.cmpi ult, %[[KB]], %c6 : index
//       CHECK: %[[KBC:.*]] = arith.minui %[[KB]], %c5 : index
//       CHECK: %[[VB:.*]] = vector.load %{{.*}}[%[[KBC]], %{{.*}}] {alignment = 16 : i64} : memref<6x64xf32>, vector<4xf32>
//       CHECK: arith.select %[[INB]], %[[VB]], %{{.*}} : vector<4xf32>
//       CHECK: gpu.barrier
//       CHECK: memref.subview %{{.*}}[0, 0] [6, 64] [1, 1]
//       CHECK: linalg.matmul
func.func @short_k(%A: memref<64x6xf32>, %B: memref<6x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<64x6xf32>, memref<6x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// Odd sizes: single elements (memref.load) for A (K = 9) and B (N = 5).
// With 64 threads, the 32*8 elements of the A slice take 4 loads per thread.

// CHECK-LABEL: gpu.func @scalar_copies_matmul0
//       CHECK: scf.for
//   CHECK-COUNT-4: memref.load %{{.*}} : memref<33x9xf32>
//   CHECK-NOT: vector.load
//       CHECK: memref.load %{{.*}} : memref<9x5xf32>
//       CHECK: gpu.barrier
func.func @scalar_copies(%A: memref<33x9xf32>, %B: memref<9x5xf32>, %C: memref<33x5xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>}
    ins(%A, %B : memref<33x9xf32>, memref<9x5xf32>) outs(%C : memref<33x5xf32>)
  return
}

// -----

// smem = none: no padding, A rows are exactly 64 floats and B follows at
// byte 8 * 64 * 4 = 2048.

// CHECK-LABEL: gpu.func @unpadded_matmul0
//       CHECK: memref.view %{{.*}}[%c0][] {tile.shared = "A"} : {{.*}} to memref<8x64xf32, #gpu.address_space<workgroup>>
//       CHECK: memref.view %{{.*}}[%c2048][] {tile.shared = "B"} : {{.*}} to memref<8x64xf32, #gpu.address_space<workgroup>>
func.func @unpadded(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], smem = none>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// The C initialisation stays before the K loop (in thread 0, which also
// does the slice matmuls at this stage).

// CHECK-LABEL: gpu.func @filled_matmul0
//       CHECK: scf.if
//  CHECK-NEXT:   linalg.fill
//       CHECK: scf.for
//       CHECK:   linalg.matmul
//   CHECK-NOT: linalg.fill
func.func @filled(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<64x64xf32>)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// stages = 3: the copies are asynchronous (cp.async). cp.async cannot
// transpose a vector, so A is copied one element per copy: thread t takes
// row t / 8, k t % 8 (consecutive threads along k, 4 copies per thread for
// 64 * 8 elements over 128 threads) into [k][row]. B keeps its 16-byte
// vectors (bypassing L1). The slice's copies form one group, waited for
// before the barrier. The shared memory is one stage's; tile-pipeline
// multiplies it.

// CHECK-LABEL: func.func @async_copies(
//       CHECK: gpu.func @async_copies_matmul0(%[[A:.*]]: memref<128x64xf32> {{.*}}, %[[B:.*]]: memref<64x128xf32>
//  CHECK-SAME: tile.dynamic_shared_bytes = 4224 : i64
//       CHECK: %[[TID:.*]] = gpu.thread_id x
//       CHECK: %[[AS:.*]] = memref.view {{.*}} {tile.shared = "A"}
//       CHECK: %[[BS:.*]] = memref.view {{.*}} {tile.shared = "B"}
//       CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c8 {
//       CHECK:   %[[R:.*]] = arith.divui %[[TID]], %c8 : index
//       CHECK:   %[[KK:.*]] = arith.remui %[[TID]], %c8 : index
//       CHECK:   %[[ROW:.*]] = arith.addi %{{.*}}, %[[R]] : index
//       CHECK:   %[[K:.*]] = arith.addi %[[K0]], %[[KK]] : index
//       CHECK:   %[[T0:.*]] = nvgpu.device_async_copy %[[A]][%[[ROW]], %[[K]]], %[[AS]][%[[KK]], %[[R]]], 1 : memref<128x64xf32> to memref<8x68xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[T1:.*]] = nvgpu.device_async_copy %[[A]]
//       CHECK:   %[[T2:.*]] = nvgpu.device_async_copy %[[A]]
//       CHECK:   %[[T3:.*]] = nvgpu.device_async_copy %[[A]]
//       CHECK:   %[[T4:.*]] = nvgpu.device_async_copy %[[B]][%{{.*}}, %{{.*}}], %[[BS]][%{{.*}}, %{{.*}}], 4 {bypassL1} : memref<64x128xf32> to memref<8x64xf32, #gpu.address_space<workgroup>>
//  CHECK-NEXT:   %[[G:.*]] = nvgpu.device_async_create_group %[[T0]], %[[T1]], %[[T2]], %[[T3]], %[[T4]]
//  CHECK-NEXT:   nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
//  CHECK-NEXT:   gpu.barrier
//   CHECK-NOT:   vector.load %[[A]]
//   CHECK-NOT:   memref.store
//       CHECK:   linalg.matmul
func.func @async_copies(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 3>}
    ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// K = 60 is not a multiple of BK = 8: the slices copy from
// kc = min(k0, 52); an A element whose offset in the slice is below
// skip = k0 - kc (only in the last slice, k0 = 56) is a copy with no source
// elements (zero-filled), at an address inside A.

// CHECK-LABEL: func.func @async_partial_k(
//       CHECK: gpu.func @async_partial_k_matmul0(%[[A:.*]]: memref<128x60xf32>
//       CHECK: scf.for %[[K0:.*]] = %c0 to %c60 step %c8 {
//       CHECK:   %[[KC:.*]] = arith.minui %[[K0]], %c52 : index
//       CHECK:   %[[SKIP:.*]] = arith.subi %[[K0]], %[[KC]] : index
//       CHECK:   %[[KK:.*]] = arith.remui %{{.*}}, %c8 : index
//       CHECK:   %[[K:.*]] = arith.addi %[[KC]], %[[KK]] : index
//       CHECK:   %[[TAKEN:.*]] = arith.cmpi uge, %[[KK]], %[[SKIP]] : index
//       CHECK:   %[[N:.*]] = arith.select %[[TAKEN]], %c1, %c0 : index
//       CHECK:   nvgpu.device_async_copy %[[A]][%{{.*}}, %[[K]]], %{{.*}}[%[[KK]], %{{.*}}], 1, %[[N]]
func.func @async_partial_k(%A: memref<128x60xf32>, %B: memref<60x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 4>}
    ins(%A, %B : memref<128x60xf32>, memref<60x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// A batch: block y's matrices are rank-reducing subviews of the 3-d
// operands. The 16-byte global loads index the operands themselves (matrix
// y, then row and k), so fold-memref-alias-ops has no subview to fold into
// them (it would drop their alignment, and the PTX would have four scalar
// loads for each vector).

// CHECK-LABEL: func.func @batched
//       CHECK: gpu.func @batched_matmul0(%[[A:.*]]: memref<3x128x64xf32> {{.*}}, %[[B:.*]]: memref<3x64x128xf32> {{.*}}, %{{.*}}: memref<3x128x128xf32>
//       CHECK: %[[TID:.*]] = gpu.thread_id x
//       CHECK: %[[Y:.*]] = gpu.block_id y
//       CHECK: %[[ROW0:.*]] = arith.muli %{{.*}}, %c64 {tile.tile_origin = "row"} : index
//       CHECK: %[[COL0:.*]] = arith.muli %{{.*}}, %c64 {tile.tile_origin = "col"} : index
//       CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c8 {
//       CHECK:   %[[R:.*]] = arith.divui %[[TID]], %c2 : index
//       CHECK:   %[[KC:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK:   %[[ROW:.*]] = arith.addi %[[ROW0]], %[[R]] : index
//       CHECK:   %[[K:.*]] = arith.addi %[[K0]], %[[KC]] : index
//       CHECK:   vector.load %[[A]][%[[Y]], %[[ROW]], %[[K]]] {alignment = 16 : i64} : memref<3x128x64xf32>, vector<4xf32>
//       CHECK:   %[[KR:.*]] = arith.divui %[[TID]], %c16 : index
//       CHECK:   %[[NC:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK:   %[[KB:.*]] = arith.addi %[[K0]], %[[KR]] : index
//       CHECK:   %[[COL:.*]] = arith.addi %[[COL0]], %[[NC]] : index
//       CHECK:   vector.load %[[B]][%[[Y]], %[[KB]], %[[COL]]] {alignment = 16 : i64} : memref<3x64x128xf32>, vector<4xf32>
func.func @batched(%A: memref<3x128x64xf32>, %B: memref<3x64x128xf32>, %C: memref<3x128x128xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%A, %B : memref<3x128x64xf32>, memref<3x64x128xf32>) outs(%C : memref<3x128x128xf32>)
  return
}
