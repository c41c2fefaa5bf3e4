// RUN: tile-opt %s -split-input-file --tile-configure --tile-report -o /dev/null | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure --tile-block-tile --tile-report -o /dev/null | FileCheck %s --check-prefix=KERNEL
// RUN: tile-opt %s -split-input-file --tile-report=chip=sm_80 -o /dev/null | FileCheck %s --check-prefix=SM80

// The report of a wgmma kernel shows the tensor-core model: the warpgroups,
// the setmaxnreg split tile-mbarrier-pipeline emits next to what each role
// is counted to need, the shared-memory ring and its TMA boxes, the waves,
// and the terms of the predicted time.

// The measured kernel at 4096^3 (C = 0 + A*B): 168 registers a thread at
// launch, the TMA producer keeps 40 and the consumers get
// (168 * 384 - 40 * 128) / 256 = 232 for their 128 accumulators + 72. Four
// slots of 128x64 A and 64x256 B (four 64-column chunks). 512 tiles on 132
// SMs: 4 waves. Tensor cores: 2 * 128 * 256 * 4096 FLOPs at 0.82 of
// 989e12 / 132 = 43.7 us a tile; the TMA's 384 x 4096 x 2 bytes at 80 GB/s
// 39.3 us: hidden.
// CHECK-LABEL: kernel (linalg.matmul at {{.*}}report-wgmma.mlir{{.*}}): 4096x4096x4096 bf16 -> f32, C = fill + A*B
// CHECK-NEXT: config            #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>
// CHECK-NEXT: launch            512 blocks x 384 threads (2 consumer warpgroups + 1 producer warpgroup)
// CHECK-NEXT: tiles             block 128x256x64, warpgroup 64x256, instruction m64n256k16 (1 per warpgroup and k step, 4 k steps per slab)
// CHECK-NEXT: registers/thread  launch 168 (1 block/SM budget); consumer needs 200 = 128 accumulators + 72 overhead, gets 232 (setmaxnreg); producer (TMA) needs 40, gets 40 (setmaxnreg)
// CHECK-NEXT: shared memory     197696 B/block (model) = 4 stages x 49152 B (A 16384 + B 32768) + 1024 B alignment slack (dynamic) + 64 B mbarriers (static)
// CHECK-NEXT: copies            TMA boxes A 128x64, B 4 x 64x64 per slab (49152 B)
// CHECK-NEXT: occupancy         1 blocks/SM (limited by registers); 512 tiles in 4 waves of 132
// CHECK-NEXT: intensity         85.3 FLOP/B into shared memory; {{[0-9.]+}} FLOP/B from HBM ({{[0-9.]+}} GB with L2 reuse over 1024x4096 of C per wave)
// CHECK-NEXT: per tile          tensor cores 43.7 us (82% of the SM's peak), TMA loads 39.3 us, prologue 0.8 us, epilogue {{[0-9.]+}} us; edge waste 0%
// CHECK-NEXT: model time        0.{{[0-9]+}} ms = {{[0-9.]+}} TFLOP/s (bound by tensor cores; launch 4.0 us; 16-bit tensor peak 989.0)
// Once tile-block-tile made the kernel, the report names it.
// KERNEL-LABEL: kernel measured_matmul0: 4096x4096x4096 bf16 -> f32, C = fill + A*B
// KERNEL: registers/thread  launch 168
// SM80: kernel (linalg.matmul at {{.*}}): 4096x4096x4096 bf16 -> f32, C = fill + A*B
// SM80: does not fit      wgmma needs sm_90 (Hopper); sm_80 has none
// SM80-NOT: model time
func.func @measured(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<4096x4096xf32>)
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4>}
    ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xf32>)
  return
}

// -----

// Operands stored transposed (A K x M, B N x K) are reported before
// tile-block-tile too, and the title says how they are stored. A's 128 rows
// of M are two M-major chunks of 64 (boxes of 64 k x 64 m), B's 256 columns
// one K-major box of 256 n x 64 k: the same 49152 B a slab.
// CHECK-LABEL: kernel (linalg.matmul at {{.*}}): 4096x4096x4096 bf16 -> f32, C += A*B (A stored K x M, B stored N x K)
// CHECK: shared memory     197696 B/block (model) = 4 stages x 49152 B (A 16384 + B 32768)
// CHECK-NEXT: copies            TMA boxes A 2 x 64x64, B 1 x 256x64 per slab (49152 B)
// KERNEL-LABEL: kernel stored_matmul0: 4096x4096x4096 bf16 -> f32, C += A*B (A stored K x M, B stored N x K)
// KERNEL: copies            TMA boxes A 2 x 64x64, B 1 x 256x64 per slab (49152 B)
func.func @stored(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4>}
    ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xf32>)
  return
}

// -----

// Rows of 4093 and 4097 bf16 elements are no multiple of 16 bytes; written
// on the op: copies through registers. The producer keeps the 104 it is counted to need
// and the consumers share the rest, (168 * 384 - 104 * 128) / 256 = 200 = 128 + 72
// registers. The model sees the copies, not the tensor cores, as the bound.
// CHECK-LABEL: kernel (linalg.matmul at {{.*}}): 4095x4097x4093 bf16 -> f32, C += A*B
// CHECK: registers/thread  launch 168 (1 block/SM budget); consumer needs 200 = 128 accumulators + 72 overhead, gets 200 (setmaxnreg); producer (register copies) needs 104, gets 104 (setmaxnreg)
// CHECK: copies            through registers: the producer's 128 threads copy 24576 elements per slab
// CHECK: occupancy         1 blocks/SM (limited by registers); 544 tiles in 5 waves of 132
// CHECK: per tile          tensor cores {{.*}}, register copies {{.*}}; edge waste 6%
// CHECK: model time        {{.*}} (bound by register copies;
func.func @unaligned(%A: memref<4095x4093xbf16>, %B: memref<4093x4097xbf16>, %C: memref<4095x4097xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = registers>}
    ins(%A, %B : memref<4095x4093xbf16>, memref<4093x4097xbf16>) outs(%C : memref<4095x4097xf32>)
  return
}

// -----

// The choice for the same shape (the bf16 table's entry, the model's own
// config with one block per SM, measured fastest): the TMA on copies
// repacked by the runtime, rows of 4093 -> 4096 and 4097 -> 4160 elements (padded to
// 128 bytes). The copies: 2 x (5.3 us + rows x 0.7 ns + 2 x 33.5 MB at
// 1.6 TB/s) = 100.2 us, part of the model time.
// CHECK-LABEL: kernel (linalg.matmul at {{.*}}): 4095x4097x4093 bf16 -> f32, C += A*B
// CHECK-NEXT: config            #tile.config<strategy = wgmma, {{.*}}, copy = tma, specialize = true, {{.*}}, repack = true, occupancy = 1>
// CHECK: copies            TMA boxes
// CHECK-NEXT: repack            A 4095x4093 into rows of 4096, B 4093x4097 into rows of 4160 (the runtime's copies before the launch: 100.2 us)
// CHECK: model time        {{.*}}; launch 4.0 us, repack 100.2 us; 16-bit tensor peak 989.0)
func.func @repacked(%A: memref<4095x4093xbf16>, %B: memref<4093x4097xbf16>, %C: memref<4095x4097xf32>) {
  linalg.matmul ins(%A, %B : memref<4095x4093xbf16>, memref<4093x4097xbf16>) outs(%C : memref<4095x4097xf32>)
  return
}

// -----

// Only B's rows (100 f16 = 200 bytes) break the rule: one copy, 5.3 us +
// 512 x 0.7 ns + 2 x 102400 B at 1.6 TB/s = 5.8 us.
// CHECK-LABEL: kernel (linalg.matmul at {{.*}}): 256x100x512 f16 -> f16, C += A*B
// CHECK: repack            B 512x100 into rows of 128 (the runtime's copies before the launch: 5.8 us)
func.func @repack_b(%A: memref<256x512xf16>, %B: memref<512x100xf16>, %C: memref<256x100xf16>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], repack = true>}
    ins(%A, %B : memref<256x512xf16>, memref<512x100xf16>) outs(%C : memref<256x100xf16>)
  return
}

// -----

// repack = true on rows that start on 128 bytes: nothing to copy, and no
// repack term.
// CHECK-LABEL: kernel (linalg.matmul at {{.*}}): 256x128x512 f16 -> f16, C += A*B
// CHECK: repack            none (the rows start on 128 bytes)
// CHECK: model time        {{.*}}; launch 4.0 us; 16-bit tensor peak 989.0)
func.func @repack_aligned(%A: memref<256x512xf16>, %B: memref<512x128xf16>, %C: memref<256x128xf16>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], repack = true>}
    ins(%A, %B : memref<256x512xf16>, memref<512x128xf16>) outs(%C : memref<256x128xf16>)
  return
}
