// Options of tile-configure that the chosen strategy's rules or the chip
// refuse: an error at the matmul that names the rule.
// RUN: not tile-opt %s -split-input-file --tile-configure="prefetch=true" 2>&1 | FileCheck %s --check-prefix=PREFETCH
// RUN: not tile-opt %s -split-input-file --tile-configure="specialize=true" 2>&1 | FileCheck %s --check-prefix=SPECIALIZE
// RUN: not tile-opt %s -split-input-file --tile-configure="block=256,256,64 warp=256,256" 2>&1 | FileCheck %s --check-prefix=ACCUMULATORS
// RUN: not tile-opt %s -split-input-file --tile-configure="block=256,256,64 warp=64,256 stages=2" 2>&1 | FileCheck %s --check-prefix=BLOCK-REGISTERS
// RUN: not tile-opt %s -split-input-file --tile-configure="block=256,256,64 warp=64,256 stages=2 specialize=false" 2>&1 | FileCheck %s --check-prefix=PLAIN-REGISTERS
// RUN: not tile-opt %s -split-input-file --tile-configure="block=64,256,64 warp=64,256 thread=64,256 stages=2 occupancy=2" 2>&1 | FileCheck %s --check-prefix=INSTRUCTION

// Register prefetch is an fma option; a bf16 matmul gets wgmma.
// PREFETCH: configure-options-invalid.mlir:[[# @LINE + 16]]:3: error: 'linalg.matmul' op cannot use tile config #tile.config<strategy = wgmma, block = [{{[0-9]+}}, {{[0-9]+}}, 64]
// PREFETCH-SAME: register prefetch is an fma option; wgmma reads shared memory itself (prefetch must be false)
// 256x256 accumulators are 512 per thread of a warpgroup.
// ACCUMULATORS: error: 'linalg.matmul' op tile config #tile.config<strategy = wgmma, block = [256, 256, 64], warpgroup = [256, 256]{{.*}}> cannot run on sm_90: the 256x256 warpgroup tile has 512 accumulators per thread, and with 16 more registers that is over the 240 a warpgroup thread can hold
// Four consumer warpgroups of 64x256 (128 accumulators each) and a producer:
// 640 threads start with 96 registers, (96 * 640 - 40 * 128) / 512 = 110,
// rounded down to 104, per consumer thread.
// BLOCK-REGISTERS: error: 'linalg.matmul' op tile config #tile.config<strategy = wgmma, block = [256, 256, 64], warpgroup = [64, 256]{{.*}}stages = 2{{.*}}> cannot run on sm_90: 1 block(s) per SM of 640 threads leave 104 registers per consumer thread (for 128 accumulators) and 40 per producer thread; lower the occupancy or the warpgroup tile
// Without a producer the four consumers are 512 threads: 128 registers
// each at launch, and no setmaxnreg to move more to them.
// PLAIN-REGISTERS: error: 'linalg.matmul' op tile config #tile.config<strategy = wgmma, block = [256, 256, 64], warpgroup = [64, 256]{{.*}}specialize = false{{.*}}> cannot run on sm_90: 1 block(s) per SM of 512 threads leave 128 registers per thread (for 128 accumulators); lower the occupancy or the warpgroup tile
// ptxas compiles the kernel under its launch registers, 128 at two blocks
// per SM of 256 threads: too few for one m64n256k16 and its 128
// accumulators.
// INSTRUCTION: error: 'linalg.matmul' op tile config #tile.config<strategy = wgmma, block = [64, 256, 64]{{.*}}occupancy = 2> cannot run on sm_90: the m64n256k16 instruction needs 154 registers per thread at launch, and 2 block(s) per SM of 256 threads start with 128; lower the occupancy or the instruction N
func.func @bf16(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  linalg.matmul ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Warp specialization is a wgmma option; an f32 matmul gets fma.
// SPECIALIZE: configure-options-invalid.mlir:[[# @LINE + 3]]:3: error: 'linalg.matmul' op cannot use tile config #tile.config<block =
// SPECIALIZE-SAME: warp specialization needs the wgmma strategy
func.func @f32(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}
