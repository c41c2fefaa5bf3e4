// RUN: tile-opt %s -split-input-file --tile-configure -verify-diagnostics

// tile-configure run alone, without tile-canonicalize-contractions: a
// linalg.transpose on tensors that swaps the matrix dimensions would be
// folded into the matmul, and the error says which pass does it.
func.func @unfolded(%a: tensor<32x64xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %init = tensor.empty() : tensor<64x32xf32>
  // expected-error @+1 {{'linalg.transpose' op makes operand A of a linalg.matmul: tile-canonicalize-contractions folds this linalg.transpose into the matmul's indexing maps (tile-matmul-to-ptx runs it first)}}
  %t = linalg.transpose ins(%a : tensor<32x64xf32>) outs(%init : tensor<64x32xf32>) permutation = [1, 0]
  // expected-note @+1 {{the linalg.matmul}}
  %r = linalg.matmul ins(%t, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// -----

func.func @unfolded_batch(%a: tensor<2x64x32xf32>, %w: tensor<2x48x32xf32>, %c: tensor<2x64x48xf32>) -> tensor<2x64x48xf32> {
  %init = tensor.empty() : tensor<2x32x48xf32>
  // expected-error @+1 {{'linalg.transpose' op makes operand B of a linalg.batch_matmul: tile-canonicalize-contractions folds this linalg.transpose}}
  %t = linalg.transpose ins(%w : tensor<2x48x32xf32>) outs(%init : tensor<2x32x48xf32>) permutation = [0, 2, 1]
  // expected-note @+1 {{the linalg.batch_matmul}}
  %r = linalg.batch_matmul ins(%a, %t : tensor<2x64x32xf32>, tensor<2x32x48xf32>) outs(%c : tensor<2x64x48xf32>) -> tensor<2x64x48xf32>
  return %r : tensor<2x64x48xf32>
}
