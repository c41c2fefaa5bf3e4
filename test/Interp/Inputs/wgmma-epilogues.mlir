// Fused epilogues on bf16/f16 matmuls (the wgmma strategy): bias per column
// and ReLU with a bf16 C, a bias per row with an f32 C, a residual of f16 on
// an f16 C, one element.

#col = affine_map<(m, n) -> (n)>
#row = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

func.func @bias_relu(%a: memref<130x72xbf16>, %b: memref<72x136xbf16>, %c: memref<130x136xbf16>, %bias: memref<136xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<130x136xbf16>)
  linalg.matmul ins(%a, %b : memref<130x72xbf16>, memref<72x136xbf16>) outs(%c : memref<130x136xbf16>)
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<136xbf16>) outs(%c : memref<130x136xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %s = arith.addf %o, %x : bf16
    %r = arith.maximumf %s, %zero : bf16
    linalg.yield %r : bf16
  }
  return
}

func.func @row_bias(%a: memref<65x24xbf16>, %b: memref<24x72xbf16>, %c: memref<65x72xf32>, %bias: memref<65xf32>) {
  linalg.matmul ins(%a, %b : memref<65x24xbf16>, memref<24x72xbf16>) outs(%c : memref<65x72xf32>)
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<65xf32>) outs(%c : memref<65x72xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

func.func @residual(%a: memref<64x40xf16>, %b: memref<40x64xf16>, %c: memref<64x64xf16>, %r: memref<64x64xf16>) {
  linalg.matmul ins(%a, %b : memref<64x40xf16>, memref<40x64xf16>) outs(%c : memref<64x64xf16>)
  %half = arith.constant 0.5 : f16
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64x64xf16>) outs(%c : memref<64x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %p = arith.mulf %o, %half : f16
    %s = arith.addf %p, %x : f16
    linalg.yield %s : f16
  }
  return
}

func.func @one(%a: memref<1x1xbf16>, %b: memref<1x1xbf16>, %c: memref<1x1xbf16>, %bias: memref<1xbf16>) {
  linalg.matmul ins(%a, %b : memref<1x1xbf16>, memref<1x1xbf16>) outs(%c : memref<1x1xbf16>)
  %zero = arith.constant 0.0 : bf16
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<1xbf16>) outs(%c : memref<1x1xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %s = arith.addf %o, %x : bf16
    %r = arith.maximumf %s, %zero : bf16
    linalg.yield %r : bf16
  }
  return
}

// GELU (tanh form) on an f32 C of bf16 inputs.
func.func @gelu(%a: memref<96x64xbf16>, %b: memref<64x80xbf16>, %c: memref<96x80xf32>) {
  linalg.matmul ins(%a, %b : memref<96x64xbf16>, memref<64x80xbf16>) outs(%c : memref<96x80xf32>)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.797884583 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<96x80xf32>) {
  ^bb0(%x: f32):
    %x3 = arith.mulf %x, %x : f32
    %x4 = arith.mulf %x3, %x : f32
    %t0 = arith.mulf %k1, %x4 : f32
    %t1 = arith.addf %x, %t0 : f32
    %t2 = arith.mulf %k0, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %x : f32
    %r = arith.mulf %t5, %t4 : f32
    linalg.yield %r : f32
  }
  return
}
