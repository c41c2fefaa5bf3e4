// Each tiling pass alone, in a tile-opt process of its own, on the printed
// output of the passes before it: a pass must load every dialect it creates
// ops of (its dependentDialects), since its input, parsed from text, holds
// only the dialects that text uses. (tile-wgmma creates vector ops, which
// the output of tile-warpgroup-tile has none of, and crashed so before it
// listed the vector dialect.) The last stage of each chain then runs on the
// CPU against a float64 reference. Each strategy on its own input, so that
// one strategy's kernels do not load a dialect for the other's.

// The fma strategy (f32; Inputs/problems.mlir: C accumulated and filled,
// partial tiles), 3 stages (cp.async).
// RUN: tile-opt %S/Inputs/problems.mlir %bufferize -o %t.fma0.mlir
// RUN: tile-opt %t.fma0.mlir --tile-configure="tuning-table=none block=64,128,16 warp=32,64 thread=8,8 stages=3 swizzle=2" -o %t.fma1.mlir
// RUN: tile-opt %t.fma1.mlir --tile-block-tile -o %t.fma2.mlir
// RUN: tile-opt %t.fma2.mlir --tile-promote-shared -o %t.fma3.mlir
// RUN: tile-opt %t.fma3.mlir --tile-warp-tile -o %t.fma4.mlir
// RUN: tile-opt %t.fma4.mlir --tile-thread-tile -o %t.fma5.mlir
// RUN: tile-opt %t.fma5.mlir --tile-pipeline -o %t.fma6.mlir
// RUN: tile-interp %t.fma6.mlir | FileCheck %s --check-prefix=FMA
// FMA: PASS acc_matmul0
// FMA: PASS fill_matmul0
// FMA-NOT: FAIL

// The wgmma strategy (bf16 and f16; Inputs/wgmma-problems.mlir), the
// default 128x256x64 TMA ring with a producer warpgroup.
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize -o %t.w0.mlir
// RUN: tile-opt %t.w0.mlir --tile-configure -o %t.w1.mlir
// RUN: tile-opt %t.w1.mlir --tile-block-tile -o %t.w2.mlir
// RUN: tile-opt %t.w2.mlir --tile-promote-shared -o %t.w3.mlir
// RUN: tile-opt %t.w3.mlir --tile-warpgroup-tile -o %t.w4.mlir
// RUN: tile-opt %t.w4.mlir --tile-wgmma -o %t.w5.mlir
// RUN: tile-opt %t.w5.mlir --tile-mbarrier-pipeline -o %t.w6.mlir
// RUN: tile-interp %t.w6.mlir | FileCheck %s --check-prefix=WGMMA
// WGMMA: PASS acc_matmul0
// WGMMA: PASS fill_matmul0
// WGMMA-NOT: FAIL

// The same from the generic form (tile-opt --mlir-print-op-generic), which
// names every op by its dialect and holds no custom syntax.
// RUN: tile-opt %t.w4.mlir --mlir-print-op-generic -o %t.w4g.mlir
// RUN: tile-opt %t.w4g.mlir --tile-wgmma --mlir-print-op-generic -o %t.w5g.mlir
// RUN: tile-opt %t.w5g.mlir --tile-mbarrier-pipeline | tile-interp | FileCheck %s --check-prefix=WGMMA
// RUN: tile-opt %t.fma4.mlir --mlir-print-op-generic -o %t.fma4g.mlir
// RUN: tile-opt %t.fma4g.mlir --tile-thread-tile --mlir-print-op-generic | tile-opt --tile-pipeline | tile-interp | FileCheck %s --check-prefix=FMA
