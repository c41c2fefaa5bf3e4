// Epilogues written on tensors as front ends write them (Inputs/epilogues-
// in-place.mlir: each elementwise op writes a new tensor.empty, the
// matmul's result an input): tile-canonicalize-contractions rewrites them
// to update the matmul's result in place, bufferization keeps them on C,
// and tile-fuse-epilogues fuses them; tile-interp checks every element of
// C against the float64 reference with the same epilogue (it has one step
// per op, so a chain that lost an op would fail), after the tiling passes
// and with the default configs.
// RUN: tile-opt %S/Inputs/epilogues-in-place.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues-in-place.mlir --tile-matmul-tiling | FileCheck %s --check-prefix=FUSED
// CHECK: PASS linear_relu_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS residual_matmul0 m=20 n=50 k=30 max-rel-err=
// CHECK: PASS bf16_bias_gelu_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK-NOT: FAIL
// Every op fused: none is left on the host.
// FUSED-NOT: linalg.generic
// FUSED-NOT: linalg.add
// FUSED: tile.epilogue = {operands = ["col"], steps = ["addf acc p0", "maximumf s0 0"]
// FUSED: tile.epilogue = {operands = ["full"], steps = ["addf p0 acc"]
// FUSED: tile.epilogue = {operands = ["col"], steps = ["addf acc p0", "mulf s0 s0",
