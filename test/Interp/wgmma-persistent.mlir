// Persistent wgmma kernels (persistent = true) from the whole tiling
// pipeline, run on the CPU by tile-interp against a float64 reference: the
// grid smaller than the tiles (persistent-blocks), so that each block walks
// several tiles and its TMA ring runs on from tile to tile, every element
// of C written once, by the block the persistent order gives its tile
// (tile-interp's launch-order check: tile t of the swizzled order, the
// tiles of every matrix of a batch one after another, by block t % grid).
// The problems, edge shapes, fused epilogues, batched matmuls (with their
// epilogues), transposed and strided operands of the other wgmma tests,
// with the TMA (repacked copies where rows are off 16 bytes), under three
// configs and grids.

// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=3" | tile-interp | FileCheck %s --check-prefix=PROBLEMS
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=3 copy=tma repack=true persistent=true persistent-blocks=2" | tile-interp | FileCheck %s --check-prefix=PROBLEMS
// PROBLEMS: PASS acc_matmul0
// PROBLEMS: PASS fill_matmul0
// PROBLEMS-NOT: FAIL

// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=3" | tile-interp | FileCheck %s --check-prefix=EDGES
// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-matmul-tiling="copy=tma repack=true persistent=true persistent-blocks=1" | tile-interp | FileCheck %s --check-prefix=EDGES
// EDGES: PASS one_matmul0
// EDGES: PASS primes_matmul0
// EDGES: PASS kone_matmul0
// EDGES: PASS k72_matmul0
// EDGES: PASS column_matmul0
// EDGES-NOT: FAIL

// RUN: tile-opt %S/Inputs/wgmma-epilogues.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=3" | tile-interp | FileCheck %s --check-prefix=EPILOGUES
// EPILOGUES: PASS bias_relu_matmul0
// EPILOGUES: PASS row_bias_matmul0
// EPILOGUES: PASS residual_matmul0
// EPILOGUES: PASS one_matmul0
// EPILOGUES: PASS gelu_matmul0
// EPILOGUES-NOT: FAIL

// RUN: tile-opt %S/Inputs/wgmma-batched.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=3" | tile-interp | FileCheck %s --check-prefix=BATCHED
// RUN: tile-opt %S/Inputs/wgmma-batched.mlir --tile-matmul-tiling="block=128,64,64 warp=64,64 thread=64,64 stages=3 copy=tma repack=true persistent=true persistent-blocks=5" | tile-interp | FileCheck %s --check-prefix=BATCHED
// BATCHED: PASS wb_aligned_matmul0 batch=3
// BATCHED: PASS wb_k_tail_matmul0 batch=2
// BATCHED: PASS wb_primes_matmul0 batch=3
// BATCHED: PASS wb_tb_matmul0 batch=2
// BATCHED: PASS wb_fill_matmul0 batch=2
// BATCHED: PASS wb_strided_matmul0 batch=2
// BATCHED: PASS wb_single_matmul0 batch=1
// BATCHED: PASS wb_batch_stride_off_matmul0 batch=3
// BATCHED-NOT: FAIL

// RUN: tile-opt %S/Inputs/wgmma-batched-epilogues.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=4" | tile-interp | FileCheck %s --check-prefix=BEPI
// BEPI: PASS bias_relu_matmul0 batch=3
// BEPI: PASS batch_row_matmul0 batch=2
// BEPI: PASS residual_matmul0 batch=2
// BEPI: PASS tb_col_matmul0 batch=2
// BEPI: PASS widened_matmul0 batch=2
// BEPI-NOT: FAIL

// RUN: tile-opt %S/Inputs/wgmma-transposed.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=3" | tile-interp | FileCheck %s --check-prefix=TRANSPOSED
// TRANSPOSED-COUNT-11: PASS
// TRANSPOSED-NOT: FAIL

// RUN: tile-opt %S/Inputs/wgmma-transposed-a.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=3" | tile-interp | FileCheck %s --check-prefix=TA
// TA-COUNT-12: PASS
// TA-NOT: FAIL

// RUN: tile-opt %S/Inputs/wgmma-strided.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma repack=true persistent=true persistent-blocks=3" | tile-interp | FileCheck %s --check-prefix=STRIDED
// STRIDED: PASS wgmma_tma_matmul0
// STRIDED: PASS wgmma_repack_matmul0
// STRIDED: PASS wgmma_offset_only_matmul0
// STRIDED: PASS wgmma_tb_matmul0
// STRIDED: PASS wgmma_affine_matmul0
// STRIDED-NOT: FAIL
