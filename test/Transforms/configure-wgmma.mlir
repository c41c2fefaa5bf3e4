// RUN: tile-opt %s -split-input-file --tile-configure | FileCheck %s
// RUN: not tile-opt %s -split-input-file --tile-configure="block=128,128,64 specialize=false warp=64,128 thread=64,64 stages=3" 2>/dev/null | FileCheck %s --check-prefix=OPTIONS
// RUN: not tile-opt %s -split-input-file --tile-configure="block=128,128,64 specialize=false warp=64,128 thread=64,64 stages=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=OPTERR
// RUN: not tile-opt %s -split-input-file --tile-configure=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not tile-opt %s -split-input-file --tile-configure=copy=tma 2>&1 | FileCheck %s --check-prefix=FORCE-TMA
// RUN: not tile-opt %s -split-input-file --tile-configure=repack=false 2>&1 | FileCheck %s --check-prefix=NO-REPACK
// RUN: not tile-opt %s -split-input-file --tile-configure="copy=tma repack=true" 2>/dev/null | FileCheck %s --check-prefix=REPACK
// RUN: not tile-opt %s -split-input-file --tile-configure=repack=yes 2>&1 | FileCheck %s --check-prefix=BAD-REPACK
// RUN: not tile-opt %s -split-input-file --tile-configure=repack=true 2>/dev/null | FileCheck %s --check-prefix=REPACK-ONLY

// The element type picks the strategy: bf16 and f16 matmuls are computed on
// the tensor cores (wgmma), f32 ones with FMAs. Rows whose byte length is a
// multiple of 16 (K and N multiples of 8 for 16-bit types) are copied by the
// TMA in place. Others are copied by the TMA from padded copies the runtime
// makes before the launch (repack = true), or, where the model predicts the
// copies' fixed cost to be more than the kernel saves, through registers by
// a producer warpgroup.

// CHECK-LABEL: func.func @bf16_aligned
// CHECK: tile.config = #tile.config<strategy = wgmma, block = [{{[0-9]+}}, {{[0-9]+}}, 64], warpgroup = [{{[0-9]+}}, {{[0-9]+}}], mma = [64, {{[0-9]+}}, 16], stages = {{[0-9]+}}, copy = tma, specialize = true, swizzle = {{[0-9]+}}, smem = swizzle128{{.*}}>
// The options replace the fields they name (warp = the warpgroup tile,
// thread = the instruction's M and N for wgmma).
// OPTIONS-LABEL: func.func @bf16_aligned
// OPTIONS: block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, copy = tma, specialize = false
// SM80: error: 'linalg.matmul' op tile config #tile.config<strategy = wgmma, {{.*}}> cannot run on sm_80: wgmma needs sm_90 (Hopper); sm_80 has none
func.func @bf16_aligned(%a: memref<512x1024xbf16>, %b: memref<1024x256xbf16>, %c: memref<512x256xf32>) {
  linalg.matmul ins(%a, %b : memref<512x1024xbf16>, memref<1024x256xbf16>) outs(%c : memref<512x256xf32>)
  return
}

// -----

// K = 1001: A's rows are 2002 bytes; the TMA reads a repacked copy.
// CHECK-LABEL: func.func @f16_unaligned
// CHECK: strategy = wgmma, {{.*}}, mma = [64, {{[0-9]+}}, 16], {{.*}}copy = tma, specialize = true, {{.*}}, repack = true>
// NO-REPACK: error: 'linalg.matmul' op cannot copy A (rows of K = 1001) and B (rows of N = 256) 'f16' elements with the TMA, which needs rows that are multiples of 16 bytes; use repack = true (padded copies made before the launch) or copy = registers
// REPACK-LABEL: func.func @f16_unaligned
// REPACK: copy = tma, {{.*}}, repack = true>
// BAD-REPACK: error: tile-configure: option 'repack' must be true or false, got 'yes'
func.func @f16_unaligned(%a: memref<300x1001xf16>, %b: memref<1001x256xf16>, %c: memref<300x256xf16>) {
  linalg.matmul ins(%a, %b : memref<300x1001xf16>, memref<1001x256xf16>) outs(%c : memref<300x256xf16>)
  return
}

// -----

// A tiny unaligned problem (K = 29, N = 42) that only writes C: two copies
// before the launch would cost more than its one slab through registers.
// (Reading C, C += A*B, too: @f16_tiny_unaligned_acc below.)
// CHECK-LABEL: func.func @f16_tiny_unaligned
// repack = true without a copy option takes the TMA on repacked copies:
// REPACK-ONLY-LABEL: func.func @f16_tiny_unaligned
// REPACK-ONLY: copy = tma, specialize = true, {{.*}}, repack = true>
// CHECK: strategy = wgmma, {{.*}}, mma = [64, {{[0-9]+}}, 16], {{.*}}copy = registers, specialize = true, {{[^,]*}}, smem = swizzle128{{(, occupancy = [0-9]+)?}}>
// Register copies need the producer warpgroup:
// OPTERR: error: 'linalg.matmul' op cannot use tile config {{.*}}: copy 'registers' needs specialize = true (a producer warpgroup does the copies)
// FORCE-TMA: error: 'linalg.matmul' op cannot copy A (rows of K = 29) and B (rows of N = 42) 'f16' elements with the TMA, which needs rows that are multiples of 16 bytes; use repack = true (padded copies made before the launch) or copy = registers
// REPACK-LABEL: func.func @f16_tiny_unaligned
// REPACK: copy = tma, {{.*}}, repack = true>
func.func @f16_tiny_unaligned(%a: memref<37x29xf16>, %b: memref<29x42xf16>, %c: memref<37x42xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<37x42xf16>)
  linalg.matmul ins(%a, %b : memref<37x29xf16>, memref<29x42xf16>) outs(%c : memref<37x42xf16>)
  return
}

// -----

// The same with an odd N (41): C's stores are single elements, and
// warpgroup tiles of 128 accumulators a thread spill with them; through
// registers all the same, with at most 64 accumulators a thread (consumers
// at setmaxnreg 200 or more).
// CHECK-LABEL: func.func @f16_tiny_odd_n
// CHECK: strategy = wgmma, {{.*}}warpgroup = [64, {{64|32}}], {{.*}}copy = registers, specialize = true, {{[^,]*}}, smem = swizzle128{{(, occupancy = [0-9]+)?}}>
func.func @f16_tiny_odd_n(%a: memref<37x29xf16>, %b: memref<29x41xf16>, %c: memref<37x41xf16>) {
  linalg.matmul ins(%a, %b : memref<37x29xf16>, memref<29x41xf16>) outs(%c : memref<37x41xf16>)
  return
}

// -----

// The same tiny unaligned problem reading C (C += A*B): two 64x256
// consumers (setmaxnreg 200, the producer at 104) spilled when they read C;
// consumers of 64 accumulators or fewer, at 200 or more, did not: through
// registers.
// CHECK-LABEL: func.func @f16_tiny_unaligned_acc
// CHECK: strategy = wgmma, {{.*}}warpgroup = [64, {{64|32}}], {{.*}}copy = registers, specialize = true, {{[^,]*}}, smem = swizzle128{{(, occupancy = [0-9]+)?}}>
func.func @f16_tiny_unaligned_acc(%a: memref<37x29xf16>, %b: memref<29x42xf16>, %c: memref<37x42xf16>) {
  linalg.matmul ins(%a, %b : memref<37x29xf16>, memref<29x42xf16>) outs(%c : memref<37x42xf16>)
  return
}

// -----

// f32 stays with FMAs (the config has no strategy field).
// CHECK-LABEL: func.func @f32
// CHECK: tile.config = #tile.config<block = [{{.*}}], warp = [{{.*}}], thread = [{{.*}}]
// CHECK-NOT: wgmma
// The f32 matmul with the options' warp and thread tiles is no fma config:
// OPTERR: error: 'linalg.matmul' op cannot use tile config #tile.config<block = [128, 128, 64], warp = [64, 128], thread = [64, 64]{{.*}}>: warp tile 64x128 holds 1x2 = 2 thread tiles of 64x64, but a warp has 32 lanes
func.func @f32(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// A stored K x M: the TMA's 16-byte rule applies to its stored rows, of M.
// K = 1001 is off 16 bytes, but A's rows are M = 512 and B's N = 256: both
// are read in place.
// CHECK-LABEL: func.func @transposed_a_rows_of_m
// CHECK: strategy = wgmma, {{.*}}copy = tma, specialize = true, swizzle = {{[0-9]+}}, smem = swizzle128{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>
func.func @transposed_a_rows_of_m(%a: memref<1001x512xbf16>, %b: memref<1001x256xbf16>, %c: memref<512x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<1001x512xbf16>, memref<1001x256xbf16>) outs(%c : memref<512x256xf32>)
  return
}

// -----

// M = 300 bf16 is 600 bytes, off 16: A's stored rows are not TMA rows (K =
// 512 would have been on 16 bytes): at this size copies through registers,
// and with repack = true the TMA on a repacked copy.
// CHECK-LABEL: func.func @transposed_a_unaligned_m
// CHECK: strategy = wgmma, {{.*}}copy = registers, specialize = true, {{[^,]*}}, smem = swizzle128{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>
// REPACK-LABEL: func.func @transposed_a_unaligned_m
// REPACK: copy = tma, {{.*}}, repack = true{{(, split_k = [0-9]+)?}}>
func.func @transposed_a_unaligned_m(%a: memref<512x300xbf16>, %b: memref<512x256xbf16>, %c: memref<300x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<512x300xbf16>, memref<512x256xbf16>) outs(%c : memref<300x256xf32>)
  return
}
