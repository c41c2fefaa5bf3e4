// Batched bf16/f16 matmuls on the wgmma strategy: tile-configure gives a
// linalg.batch_matmul of 16-bit inputs a wgmma config; tile-block-tile
// walks the batch on the grid's y and gives the TMA 3-d tensor maps (the
// batch outermost, a box one matrix deep, so that rows and columns past a
// matrix read as zero and never as the next matrix's); each slab's TMA
// copies take the block's matrix (block y) as their outer coordinate and
// land in a 1 x rows x cols view of the slot; register copies read the
// block's matrix, a subview at block y.
// RUN: tile-opt %S/../Interp/Inputs/wgmma-batched.mlir --tile-configure | FileCheck %s --check-prefix=CONFIG
// RUN: tile-opt %s -split-input-file --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --canonicalize | FileCheck %s --check-prefix=WGMMA
// RUN: tile-opt %s -split-input-file --tile-configure --tile-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: tile-opt %s -split-input-file --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline --canonicalize | FileCheck %s --check-prefix=RING

// The cost model's picks: the TMA in place where rows, starts and matrices
// are on 16 bytes; where rows are not, or matrices, copies through
// registers at these small sizes (the runtime's repacking copies would cost
// more: 5.3 us each before the launch).
// CONFIG-LABEL: func.func @wb_aligned
//       CONFIG: linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma, {{.*}}copy = tma, specialize = true, swizzle = {{[0-9]+}}, smem = swizzle128>}
// CONFIG-LABEL: func.func @wb_primes
//       CONFIG: linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma, {{.*}}copy = registers, specialize = true, swizzle = {{[0-9]+}}, smem = swizzle128>}
// CONFIG-LABEL: func.func @wb_tb
//       CONFIG: linalg.batch_matmul {{.*}}{tile.config = #tile.config<strategy = wgmma,
// CONFIG-LABEL: func.func @wb_fill
//       CONFIG: linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma,
// CONFIG-LABEL: func.func @wb_batch_stride_off
//       CONFIG: linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma, {{.*}}copy = registers, specialize = true, swizzle = {{[0-9]+}}, smem = swizzle128>}

// The report counts the batch: in the shape, the launch and the flops of
// the model's time (2 * 3 * 128 * 136 * 136 flop in about 7 us: 2 TFLOP/s,
// not the 0.7 of one matrix).
//      REPORT: kernel (linalg.batch_matmul at {{.*}}): 3 x 128x136x136 bf16 -> f32, C += A*B
// REPORT-NEXT: config
// REPORT-NEXT: launch            2 x 3 blocks x 384 threads
//      REPORT: model time        0.007 ms = {{2\.[0-9]}} TFLOP/s

// The host's maps: boxes of 1 x 128 x 64 (A) and 1 x 64 x 64 (B's chunks).
//       WGMMA: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c128, %c64] : memref<*xbf16> -> <tensor = memref<1x128x64xbf16, #gpu.address_space<workgroup>>
//       WGMMA: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c64, %c64] : memref<*xbf16> -> <tensor = memref<1x64x64xbf16, #gpu.address_space<workgroup>>
//       WGMMA: gpu.launch_func @wb_tma_matmul0::@wb_tma_matmul0 blocks in (%c2, %c3, %c1)
// WGMMA-LABEL: gpu.func @wb_tma_matmul0(
//  WGMMA-SAME: %arg3: !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, #gpu.address_space<workgroup>>
//  WGMMA-SAME: %arg4: !nvgpu.tensormap.descriptor<tensor = memref<1x64x64xbf16, #gpu.address_space<workgroup>>
//       WGMMA: %[[BY:.*]] = gpu.block_id y
//       WGMMA: %[[ROW0:.*]] = arith.muli %{{.*}}, %c128 {tile.tile_origin = "row"}
//       WGMMA: %[[COL0:.*]] = arith.muli %{{.*}}, %c128 {tile.tile_origin = "col"}
// C += A*B: the accumulators start from C's pairs, read from the batch's C
// at (block y, row, column) with their alignment.
//       WGMMA: vector.load %arg2[%[[BY]], %{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<3x128x136xf32>, vector<2xf32>
//       WGMMA: scf.for %[[K0:[a-z0-9_]+]] =
//       WGMMA: %[[Y:.*]] = gpu.block_id y
//       WGMMA: %[[VA:.*]] = memref.view %{{.*}}[%[[OFFA:.*]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, #gpu.address_space<workgroup>>
//       WGMMA: nvgpu.tma.async.load %arg3[%[[K0]], %[[ROW0]], %[[Y]]], %{{.*}} to %[[VA]] {tile.tma_operand = "A"} : <tensor = memref<1x128x64xbf16
//       WGMMA: %[[VB0:.*]] = memref.view %{{.*}} to memref<1x64x64xbf16, #gpu.address_space<workgroup>>
//       WGMMA: nvgpu.tma.async.load %arg4[%[[COL0]], %[[K0]], %[[Y]]], %{{.*}} to %[[VB0]]
//       WGMMA: %[[COL1:.*]] = arith.addi %[[COL0]], %c64
//       WGMMA: %[[VB1:.*]] = memref.view %{{.*}} to memref<1x64x64xbf16, #gpu.address_space<workgroup>>
//       WGMMA: nvgpu.tma.async.load %arg4[%[[COL1]], %[[K0]], %[[Y]]], %{{.*}} to %[[VB1]]
//       WGMMA: nvvm.wgmma.mma_async
// C's pairs go to the batch's C itself, at (block y, row, column), with
// their alignment (a subview left in place would be folded into the store
// by fold-memref-alias-ops, which drops it).
//       WGMMA: vector.store %{{.*}}, %arg2[%[[BY]], %{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<3x128x136xf32>, vector<2xf32>
//   WGMMA-NOT: vector.store %{{.*}}, %subview

// After the ring: the producer's copies keep the block's matrix.
// RING-LABEL: gpu.func @wb_tma_matmul0(
//       RING: nvgpu.tma.async.load %arg3[%{{.*}}, %{{.*}}, %[[Y:.*]]], %{{.*}} : <tensor = memref<1x128x64xbf16
//  RING-NOT: gpu.func
//       RING: nvgpu.tma.async.load %arg4[%{{.*}}, %{{.*}}, %[[Y]]], %{{.*}} : <tensor = memref<1x64x64xbf16
func.func @wb_tma(%a: memref<3x128x136xbf16>, %b: memref<3x136x136xbf16>, %c: memref<3x128x136xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 2>}
    ins(%a, %b : memref<3x128x136xbf16>, memref<3x136x136xbf16>) outs(%c : memref<3x128x136xf32>)
  return
}

// -----

// Rows off 16 bytes, copied through registers by the producer: it reads the
// block's matrices (subviews at block y), not the first matrix.
//       RING: gpu.launch_func @wb_registers_matmul0::@wb_registers_matmul0 blocks in (%c2, %c3, %c1)
// RING-LABEL: gpu.func @wb_registers_matmul0(
//       RING: %[[BY:.*]] = gpu.block_id y
//       RING: %[[A:.*]] = memref.subview %arg0[%[[BY]], 0, 0] [1, 128, 36] [1, 1, 1] : memref<3x128x36xbf16> to memref<128x36xbf16, strided<[36, 1], offset: ?>>
//       RING: %[[B:.*]] = memref.subview %arg1[%[[BY]], 0, 0] [1, 36, 130] [1, 1, 1] : memref<3x36x130xbf16> to memref<36x130xbf16, strided<[130, 1], offset: ?>>
//       RING: memref.load %[[A]][%{{.*}}, %{{.*}}] : memref<128x36xbf16, strided<[36, 1], offset: ?>>
//       RING: memref.load %[[B]][%{{.*}}, %{{.*}}] : memref<36x130xbf16, strided<[130, 1], offset: ?>>
//   RING-NOT: memref.load %arg0
//   RING-NOT: memref.load %arg1
func.func @wb_registers(%a: memref<3x128x36xbf16>, %b: memref<3x36x130xbf16>, %c: memref<3x128x130xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 2, copy = registers>}
    ins(%a, %b : memref<3x128x36xbf16>, memref<3x36x130xbf16>) outs(%c : memref<3x128x130xf32>)
  return
}
