// TF32 is asked for, never the default: with `tf32` an f32 matmul whose A
// is stored M x K and B N x K (nn.Linear's weight; wgmma reads TF32
// operands only K-major) gets the cost model's wgmma config, whose block
// tile K is one 128-byte swizzled row of f32 (32) and whose instruction is
// m64nNk8; without it the same matmul gets an fma config (FP32 on the CUDA
// cores). bf16 matmuls are unchanged by the option.
// RUN: tile-opt %s -split-input-file --tile-configure="tf32=true" 2>/dev/null | FileCheck %s --check-prefix=TF32
// RUN: tile-opt %s -split-input-file --tile-configure 2>/dev/null | FileCheck %s --check-prefix=FP32
// RUN: tile-opt %s -split-input-file --tile-configure="tf32=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// A chip without wgmma: the option gives way with a warning (the bf16
// matmul, which has no FP32 kernel, is an error there: not).
// RUN: not tile-opt %s -split-input-file --tile-configure="tf32=true chip=sm_80" 2>&1 >/dev/null | FileCheck %s --check-prefix=SM80
// RUN: not tile-opt %s -split-input-file --tile-configure="tf32=true chip=sm_80" 2>/dev/null | FileCheck %s --check-prefix=SM80-CONFIG
// SM80: warning: tf32: the cost model has no TF32 config for this matmul on sm_80 (wgmma needs sm_90, and TF32 copies need rows the TMA can read, in place or repacked); this matmul is computed in FP32 (fma)
// SM80-CONFIG-LABEL: func.func @linear
// SM80-CONFIG: tile.config = #tile.config<block =
// The options' tiles apply to a TF32 config as to a bf16 one (the bf16
// matmul below refuses a block tile K of 32: not, and only @linear checked).
// RUN: not tile-opt %s -split-input-file --tile-configure="tf32=true block=128,128,32 warp=64,128 thread=64,128 stages=3" 2>/dev/null | FileCheck %s --check-prefix=TILES

// TF32-LABEL: func.func @linear
// TF32: linalg.matmul
// TF32-SAME: tile.config = #tile.config<strategy = wgmma, block = [{{[0-9]+}}, {{[0-9]+}}, 32], warpgroup = [64, {{[0-9]+}}], mma = [64, {{[0-9]+}}, 8],
// TF32-SAME: copy = tma
// FP32-LABEL: func.func @linear
// FP32: linalg.matmul
// FP32-SAME: tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp =
// TILES-LABEL: func.func @linear
// TILES: tile.config = #tile.config<strategy = wgmma, block = [128, 128, 32], warpgroup = [64, 128], mma = [64, 128, 8], stages = 3,
func.func @linear(%A: memref<4096x4096xf32>, %W: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %W : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<4096x4096xf32>)
  return
}

// -----

// K = 1001: rows of 4004 bytes, off the TMA's 16 bytes: the TMA reads
// repacked copies, or the producer copies through registers.
// TF32-LABEL: func.func @unaligned
// TF32: tile.config = #tile.config<strategy = wgmma, block = [{{[0-9]+}}, {{[0-9]+}}, 32], warpgroup = [64, {{[0-9]+}}], mma = [64, {{[0-9]+}}, 8],
// TF32-SAME: {{copy = registers|repack = true}}
func.func @unaligned(%A: memref<700x1001xf32>, %W: memref<300x1001xf32>, %C: memref<700x300xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %W : memref<700x1001xf32>, memref<300x1001xf32>) outs(%C : memref<700x300xf32>)
  return
}

// -----

// B stored K x N (the plain linalg.matmul): wgmma cannot read it as TF32,
// so the option gives way with a warning, and the kernel is FP32.
// WARN: warning: tf32: wgmma reads TF32 operands only K-major (A stored M x K, B stored N x K), and B is stored K x N; this matmul is computed in FP32 (fma)
// TF32-LABEL: func.func @plain
// TF32: tile.config = #tile.config<block =
// TF32-NOT: strategy = wgmma
func.func @plain(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  linalg.matmul ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  return
}

// -----

// A stored K x M: the same.
// WARN: warning: tf32: wgmma reads TF32 operands only K-major (A stored M x K, B stored N x K), and A is stored K x M; this matmul is computed in FP32 (fma)
// TF32-LABEL: func.func @a_transposed
// TF32: tile.config = #tile.config<block =
// TF32-NOT: strategy = wgmma
func.func @a_transposed(%A: memref<512x256xf32>, %W: memref<384x512xf32>, %C: memref<256x384xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %W : memref<512x256xf32>, memref<384x512xf32>) outs(%C : memref<256x384xf32>)
  return
}

// -----

// A config written on the op decides for itself: the option does not
// touch it (here an fma config on the layout TF32 could take).
// TF32-LABEL: func.func @written
// TF32: tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]
func.func @written(%A: memref<256x256xf32>, %W: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>}
    ins(%A, %W : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// bf16 is on the tensor cores with or without the option: k16, block K 64.
// TF32-LABEL: func.func @bf16
// TF32: tile.config = #tile.config<strategy = wgmma, block = [{{[0-9]+}}, {{[0-9]+}}, 64], warpgroup = [64, {{[0-9]+}}], mma = [64, {{[0-9]+}}, 16],
func.func @bf16(%A: memref<1024x1024xbf16>, %W: memref<1024x1024xbf16>, %C: memref<1024x1024xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %W : memref<1024x1024xbf16>, memref<1024x1024xbf16>) outs(%C : memref<1024x1024xf32>)
  return
}
