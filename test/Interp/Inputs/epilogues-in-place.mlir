// Epilogues in the destination-passing form front ends emit on tensors
// (torch-mlir: every elementwise op writes a new tensor.empty): nn.Linear +
// ReLU in f32, a residual as linalg.add, bf16 bias + GELU on wgmma.

#col = affine_map<(m, n) -> (n)>
#row = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>
// nn.Linear + ReLU as torch-mlir writes it: each op a new tensor.
func.func @linear_relu(%x: tensor<37x23xf32>, %w: tensor<23x41xf32>, %bias: tensor<41xf32>) -> tensor<37x41xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x41xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<37x41xf32>) -> tensor<37x41xf32>
  %m = linalg.matmul ins(%x, %w : tensor<37x23xf32>, tensor<23x41xf32>) outs(%c : tensor<37x41xf32>) -> tensor<37x41xf32>
  %e1 = tensor.empty() : tensor<37x41xf32>
  %b = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<37x41xf32>, tensor<41xf32>) outs(%e1 : tensor<37x41xf32>) {
  ^bb0(%o: f32, %y: f32, %_: f32):
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x41xf32>
  %e2 = tensor.empty() : tensor<37x41xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<37x41xf32>) outs(%e2 : tensor<37x41xf32>) {
  ^bb0(%o: f32, %_: f32):
    %t = arith.maximumf %o, %z : f32
    linalg.yield %t : f32
  } -> tensor<37x41xf32>
  return %r : tensor<37x41xf32>
}
// A residual add as a named op, the matmul's result its second input.
func.func @residual(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>, %res: tensor<20x50xf32>) -> tensor<20x50xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf32>
  %a = linalg.add ins(%res, %m : tensor<20x50xf32>, tensor<20x50xf32>) outs(%e1 : tensor<20x50xf32>) -> tensor<20x50xf32>
  return %a : tensor<20x50xf32>
}

// bf16 on the tensor cores: bias then GELU's tanh form, each op a new tensor.
func.func @bf16_bias_gelu(%x: tensor<130x72xbf16>, %w: tensor<72x136xbf16>, %bias: tensor<136xbf16>) -> tensor<130x136xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<130x136xbf16>
  %c = linalg.fill ins(%z : bf16) outs(%e : tensor<130x136xbf16>) -> tensor<130x136xbf16>
  %m = linalg.matmul ins(%x, %w : tensor<130x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<130x136xbf16>) -> tensor<130x136xbf16>
  %e1 = tensor.empty() : tensor<130x136xbf16>
  %b = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<130x136xbf16>, tensor<136xbf16>) outs(%e1 : tensor<130x136xbf16>) {
  ^bb0(%o: bf16, %y: bf16, %_: bf16):
    %s = arith.addf %o, %y : bf16
    linalg.yield %s : bf16
  } -> tensor<130x136xbf16>
  %e2 = tensor.empty() : tensor<130x136xbf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<130x136xbf16>) outs(%e2 : tensor<130x136xbf16>) {
  ^bb0(%in: bf16, %_: bf16):
    %v = arith.extf %in : bf16 to f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %a = arith.mulf %v3, %k1 : f32
    %inner = arith.addf %v, %a : f32
    %arg = arith.mulf %inner, %k0 : f32
    %th = math.tanh %arg : f32
    %onep = arith.addf %th, %one : f32
    %hv = arith.mulf %v, %half : f32
    %r = arith.mulf %hv, %onep : f32
    %rt = arith.truncf %r : f32 to bf16
    linalg.yield %rt : bf16
  } -> tensor<130x136xbf16>
  return %g : tensor<130x136xbf16>
}
// nn.Linear + ReLU on bf16 with an f32 bias, accumulated in f32 and cast to
// bf16 by the ReLU's op (the chain is made to store bf16).
func.func @linear_relu_cast(%x: tensor<150x72xbf16>, %w: tensor<72x136xbf16>, %bias: tensor<136xf32>) -> tensor<150x136xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<150x136xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<150x136xf32>) -> tensor<150x136xf32>
  %m = linalg.matmul ins(%x, %w : tensor<150x72xbf16>, tensor<72x136xbf16>) outs(%c : tensor<150x136xf32>) -> tensor<150x136xf32>
  %e1 = tensor.empty() : tensor<150x136xf32>
  %b = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<150x136xf32>, tensor<136xf32>) outs(%e1 : tensor<150x136xf32>) {
  ^bb0(%o: f32, %y: f32, %_: f32):
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  } -> tensor<150x136xf32>
  %e2 = tensor.empty() : tensor<150x136xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<150x136xf32>) outs(%e2 : tensor<150x136xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.maximumf %o, %z : f32
    %u = arith.truncf %t : f32 to bf16
    linalg.yield %u : bf16
  } -> tensor<150x136xbf16>
  return %r : tensor<150x136xbf16>
}
// f16 with B stored N x K (nn.Linear's weight), C starting at -2, the cast
// scaling by a residual on the way.
func.func @scaled_cast_f16(%x: tensor<67x40xf16>, %w: tensor<90x40xf16>, %s: tensor<67x90xf16>) -> tensor<67x90xf16> {
  %v = arith.constant -2.0 : f32
  %e = tensor.empty() : tensor<67x90xf32>
  %c = linalg.fill ins(%v : f32) outs(%e : tensor<67x90xf32>) -> tensor<67x90xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<67x40xf16>, tensor<90x40xf16>) outs(%c : tensor<67x90xf32>) -> tensor<67x90xf32>
  %e1 = tensor.empty() : tensor<67x90xf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %m : tensor<67x90xf16>, tensor<67x90xf32>) outs(%e1 : tensor<67x90xf16>) {
  ^bb0(%a: f16, %o: f32, %_: f16):
    %aw = arith.extf %a : f16 to f32
    %p = arith.mulf %aw, %o : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  } -> tensor<67x90xf16>
  return %r : tensor<67x90xf16>
}
// A batch of 3 with a per-batch row bias, then the cast alone.
func.func @batched_cast(%x: tensor<3x70x24xbf16>, %w: tensor<3x24x40xbf16>, %bias: tensor<3x70xf32>) -> tensor<3x70x40xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x70x40xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<3x70x40xf32>) -> tensor<3x70x40xf32>
  %m = linalg.batch_matmul ins(%x, %w : tensor<3x70x24xbf16>, tensor<3x24x40xbf16>) outs(%c : tensor<3x70x40xf32>) -> tensor<3x70x40xf32>
  %e1 = tensor.empty() : tensor<3x70x40xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %bias : tensor<3x70x40xf32>, tensor<3x70xf32>) outs(%e1 : tensor<3x70x40xf32>) {
  ^bb0(%o: f32, %y: f32, %_: f32):
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  } -> tensor<3x70x40xf32>
  %e2 = tensor.empty() : tensor<3x70x40xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<3x70x40xf32>) outs(%e2 : tensor<3x70x40xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x70x40xbf16>
  return %r : tensor<3x70x40xbf16>
}

// The result squared (read twice by one op), then a column bias.
func.func @square_bias(%x: tensor<45x33xf32>, %w: tensor<33x70xf32>, %bias: tensor<70xf32>) -> tensor<45x70xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<45x70xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<45x70xf32>) -> tensor<45x70xf32>
  %m = linalg.matmul ins(%x, %w : tensor<45x33xf32>, tensor<33x70xf32>) outs(%c : tensor<45x70xf32>) -> tensor<45x70xf32>
  %e1 = tensor.empty() : tensor<45x70xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%m, %m : tensor<45x70xf32>, tensor<45x70xf32>) outs(%e1 : tensor<45x70xf32>) {
  ^bb0(%a: f32, %b: f32, %_: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<45x70xf32>
  %e2 = tensor.empty() : tensor<45x70xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%sq, %bias : tensor<45x70xf32>, tensor<70xf32>) outs(%e2 : tensor<45x70xf32>) {
  ^bb0(%a: f32, %y: f32, %_: f32):
    %s = arith.addf %a, %y : f32
    linalg.yield %s : f32
  } -> tensor<45x70xf32>
  return %r : tensor<45x70xf32>
}
