// Elementwise ops on tensors after a matmul that tile-canonicalize-
// contractions cannot write in place (canonicalize-epilogues-in-place.mlir)
// stay outside the kernel, and tile-configure says why at the op: after
// bufferization the op writes a buffer of its own (the allocation between
// it and the matmul touches no C), not C in place.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-matmul-tiling

#id = affine_map<(m, n) -> (m, n)>

// The matmul's result is returned too.
func.func @two_uses(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>) -> (tensor<20x50xf32>, tensor<20x50xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf32>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it does not update the matmul's C in place (only elementwise ops whose one output is C are fused)}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xf32>) {
  ^bb0(%o: f32, %_: f32):
    %t = arith.maximumf %o, %z : f32
    linalg.yield %t : f32
  } -> tensor<20x50xf32>
  return %m, %r : tensor<20x50xf32>, tensor<20x50xf32>
}

// -----

#id = affine_map<(m, n) -> (m, n)>

// A cast of C to bf16 on f32 inputs (no kernel has f32 inputs and a bf16
// C).
func.func @to_bf16(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>) -> tensor<20x50xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it writes C's values to a buffer of another element type (a cast is fused only as the store of a matmul of inputs of that type: tile-canonicalize-contractions makes one on tensors store it where C starts at a constant the type holds exactly, nothing else uses the f32 result, the cast rounds to nearest even and no linalg op reads what it makes)}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// -----

#id = affine_map<(m, n) -> (m, n)>

// A cast to bf16 of a bf16 matmul accumulated onto an f32 argument (its
// values are not bf16's).
func.func @accumulate_to_bf16(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>, %acc: tensor<20x50xf32>) -> tensor<20x50xbf16> {
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%acc : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it writes C's values to a buffer of another element type}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// -----

#id = affine_map<(m, n) -> (m, n)>

// A cast to f16 of a bf16 matmul (another 16-bit type than its inputs').
func.func @bf16_to_f16(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>) -> tensor<20x50xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf16>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it writes C's values to a buffer of another element type}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xf16>) {
  ^bb0(%o: f32, %_: f16):
    %t = arith.truncf %o : f32 to f16
    linalg.yield %t : f16
  } -> tensor<20x50xf16>
  return %r : tensor<20x50xf16>
}

// -----

#id = affine_map<(m, n) -> (m, n)>

// A narrowed chain whose last op cannot be fused (math.exp): the error is at
// that op, so nothing runs with C rounded before it.
func.func @narrowed_not_fusable(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>) -> tensor<20x50xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: its body has 'math.exp'}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %x1 = math.exp %o : f32
    %t = arith.truncf %x1 : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// -----

#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>

// A cast whose result a linalg op then updates (a bias in bf16): fusing the
// add would lose the cast's rounding, so the cast is left.
func.func @op_after_cast(%x: tensor<64x64xbf16>, %w: tensor<64x64xbf16>, %bias: tensor<64xf32>) -> tensor<64x64xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%x, %w : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xbf16>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it writes C's values to a buffer of another element type}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<64x64xf32>) outs(%e1 : tensor<64x64xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x64xbf16>
  %a = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<64xf32>) outs(%r : tensor<64x64xbf16>) {
  ^bb0(%y: f32, %o: bf16):
    %ow = arith.extf %o : bf16 to f32
    %s = arith.addf %ow, %y : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x64xbf16>
  return %a : tensor<64x64xbf16>
}

// -----

#id = affine_map<(m, n) -> (m, n)>

// A bf16 C rounded by its epilogue toward zero: the kernel rounds to
// nearest even.
func.func @rounding_mode(%x: memref<64x64xbf16>, %w: memref<64x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%x, %w : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xbf16>)
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: its body rounds a value with a rounding mode of its own (arith.truncf toward_zero); the fused epilogue rounds what it stores to nearest even}}
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%c : memref<64x64xbf16>) {
  ^bb0(%o: bf16):
    %ow = arith.extf %o : bf16 to f32
    %r = arith.maximumf %ow, %ow : f32
    %t = arith.truncf %r toward_zero : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// An op that updates the matmul's result in place (its init) while the
// result is returned too: bufferization would give it a copy of C, which no
// kernel writes; tile-canonicalize-contractions refuses it on tensors.
#id = affine_map<(m, n) -> (m, n)>
func.func @in_place_and_returned(%a: tensor<8x7xf32>, %b: tensor<7x5xf32>, %e: tensor<8x5xf32>) -> (tensor<8x5xf32>, tensor<8x5xf32>) {
  %z = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<8x5xf32>
  %c = linalg.fill ins(%z : f32) outs(%ce : tensor<8x5xf32>) -> tensor<8x5xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%a, %b : tensor<8x7xf32>, tensor<7x5xf32>) outs(%c : tensor<8x5xf32>) -> tensor<8x5xf32>
  // expected-error @+1 {{'linalg.generic' op updates the result of a linalg.matmul in place, but that result is used elsewhere too: bufferization gives this op a copy of C, so it is not fused into the kernel and would stay in host code, which no kernel runs (an op that is the result's only use is fused)}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<8x5xf32>) outs(%m : tensor<8x5xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s0 = arith.mulf %out, %in0 : f32
    linalg.yield %s0 : f32
  } -> tensor<8x5xf32>
  return %r, %m : tensor<8x5xf32>, tensor<8x5xf32>
}
