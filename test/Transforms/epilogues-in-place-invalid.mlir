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

// A cast of C to bf16 (an output of another type).
func.func @to_bf16(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>) -> tensor<20x50xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it does not update the matmul's C in place}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}
