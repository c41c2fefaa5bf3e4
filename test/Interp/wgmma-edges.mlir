// Edge shapes through the wgmma pipeline (Inputs/wgmma-edges.mlir): 1x1x1,
// primes with bf16 C and odd K and N (copies through registers), K = 1,
// K = 72 with M and N one past a tile and f16 C, a single column.

// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,64 stages=3 occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// The TMA on the runtime's repacked copies for the shapes whose rows break
// its 16-byte rule (the interpreter's TMA reads the same logical matrix
// with zero fill past its edge, as the copy gives the real one).
// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=3 copy=tma repack=true" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-matmul-tiling="copy=tma repack=true" --mlir-print-ir-after=tile-configure 2>&1 >/dev/null | FileCheck %s --check-prefix=REPACK
// REPACK-COUNT-5: copy = tma, specialize = true, {{.*}}, repack = true
// After tile-wgmma: one slot, a barrier per slab.
// RUN: tile-opt %S/Inputs/wgmma-edges.mlir --tile-configure="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s

// CHECK: PASS one_matmul0 m=1 n=1 k=1 max-rel-err=
// CHECK: PASS primes_matmul0 m=37 n=29 k=41 max-rel-err=
// CHECK: PASS kone_matmul0 m=67 n=72 k=1 max-rel-err=
// CHECK: PASS k72_matmul0 m=65 n=65 k=72 max-rel-err=
// CHECK: PASS column_matmul0 m=19 n=1 k=24 max-rel-err=
