// Epilogues written on tensors as front ends write them (Inputs/epilogues-
// in-place.mlir: each elementwise op writes a new tensor.empty, the
// matmul's result an input): tile-canonicalize-contractions rewrites them
// to update the matmul's result in place, bufferization keeps them on C,
// and tile-fuse-epilogues fuses them; tile-interp checks every element of
// C against the float64 reference with the same epilogue (it has one step
// per op, so a chain that lost an op would fail), after the tiling passes
// and with the default configs. The last three end in a cast of the f32
// result to bf16 or f16, which makes the chain store that type: C's
// manifest type is the 16-bit one, the epilogue computes in f32.
// RUN: tile-opt %S/Inputs/epilogues-in-place.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/epilogues-in-place.mlir --tile-matmul-tiling | FileCheck %s --check-prefix=FUSED
// CHECK: PASS linear_relu_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS residual_matmul0 m=20 n=50 k=30 max-rel-err=
// CHECK: PASS bf16_bias_gelu_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS linear_relu_cast_matmul0 m=150 n=136 k=72 max-rel-err=
// CHECK: PASS scaled_cast_f16_matmul0 m=67 n=90 k=40 max-rel-err=
// CHECK: PASS batched_cast_matmul0 batch=3 m=70 n=40 k=24 max-rel-err=
// CHECK: PASS square_bias_matmul0 m=45 n=70 k=33 max-rel-err=
// CHECK-NOT: FAIL
// Every op fused: none is left on the host.
// FUSED-NOT: linalg.generic
// FUSED-NOT: linalg.add
// FUSED: tile.epilogue = {operands = ["col"], steps = ["addf acc p0", "maximumf s0 0"]
// FUSED: tile.epilogue = {operands = ["full"], steps = ["addf p0 acc"]
// FUSED: tile.epilogue = {operands = ["col"], steps = ["addf acc p0", "mulf s0 s0",
// FUSED: tile.epilogue = {operands = ["col"], steps = ["addf acc p0", "maximumf s0 0"], types = [f32]}
// FUSED-SAME: tile.matmul = {c_fill = 0.000000e+00 : bf16, c_init = "fill", c_type = bf16, element_type = bf16, k = 72 : i64, m = 150 : i64, n = 136 : i64}
// FUSED: tile.epilogue = {operands = ["full"], steps = ["mulf p0 acc"], types = [f16]}
// FUSED-SAME: tile.matmul = {c_fill = -2.000000e+00 : f16, c_init = "fill", c_type = f16, element_type = f16, k = 40 : i64, m = 67 : i64, n = 90 : i64, transpose_b = true}
// FUSED: tile.epilogue = {operands = ["row"], per_batch = [true], steps = ["addf acc p0"], types = [f32]}
// FUSED-SAME: tile.matmul = {batch = 3 : i64, c_fill = 0.000000e+00 : bf16, c_init = "fill", c_type = bf16
// FUSED: tile.epilogue = {operands = ["col"], steps = ["mulf acc acc", "addf s0 p0"]
