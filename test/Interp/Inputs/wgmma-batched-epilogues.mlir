// Fused epilogues on batched bf16/f16 matmuls (the wgmma strategy): a bias
// per column shared by every matrix + ReLU on a bf16 C, a bias per row of
// each matrix on an f32 C (C += A*B), a residual per matrix on an f16 C,
// B stored N x K with a bias per column of each matrix (bf16, widened to
// f32 in the body), and a body in f32 on a bf16 C (widened, rounded back).

#b_col = affine_map<(b, m, n) -> (n)>
#bb_col = affine_map<(b, m, n) -> (b, n)>
#bb_row = affine_map<(b, m, n) -> (b, m)>
#b_id = affine_map<(b, m, n) -> (b, m, n)>

func.func @bias_relu(%a: memref<3x130x72xbf16>, %b: memref<3x72x136xbf16>, %c: memref<3x130x136xbf16>, %bias: memref<136xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<3x130x136xbf16>)
  linalg.batch_matmul ins(%a, %b : memref<3x130x72xbf16>, memref<3x72x136xbf16>) outs(%c : memref<3x130x136xbf16>)
  linalg.generic {indexing_maps = [#b_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<136xbf16>) outs(%c : memref<3x130x136xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %s = arith.addf %o, %x : bf16
    %r = arith.maximumf %s, %zero : bf16
    linalg.yield %r : bf16
  }
  return
}

func.func @batch_row(%a: memref<2x65x24xbf16>, %b: memref<2x24x72xbf16>, %c: memref<2x65x72xf32>, %bias: memref<2x65xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x65x24xbf16>, memref<2x24x72xbf16>) outs(%c : memref<2x65x72xf32>)
  linalg.generic {indexing_maps = [#bb_row, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<2x65xf32>) outs(%c : memref<2x65x72xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.subf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

func.func @residual(%a: memref<2x64x40xf16>, %b: memref<2x40x64xf16>, %c: memref<2x64x64xf16>, %r: memref<2x64x64xf16>) {
  %zero = arith.constant 0.0 : f16
  %half = arith.constant 0.5 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<2x64x64xf16>)
  linalg.batch_matmul ins(%a, %b : memref<2x64x40xf16>, memref<2x40x64xf16>) outs(%c : memref<2x64x64xf16>)
  linalg.generic {indexing_maps = [#b_id, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : memref<2x64x64xf16>) outs(%c : memref<2x64x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %p = arith.mulf %o, %half : f16
    %s = arith.addf %p, %x : f16
    linalg.yield %s : f16
  }
  return
}

func.func @tb_col(%a: memref<2x72x64xbf16>, %b: memref<2x80x64xbf16>, %c: memref<2x72x80xf32>, %bias: memref<2x80xbf16>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x72x80xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<2x72x64xbf16>, memref<2x80x64xbf16>) outs(%c : memref<2x72x80xf32>)
  linalg.generic {indexing_maps = [#bb_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<2x80xbf16>) outs(%c : memref<2x72x80xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %e = arith.extf %x : bf16 to f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s : f32
  }
  return
}

// The body in f32 on a bf16 C, as front ends write it: C widened, the f32
// bias added, the sum rounded to bf16 for the store.
func.func @widened(%a: memref<2x40x32xbf16>, %b: memref<2x32x48xbf16>, %c: memref<2x40x48xbf16>, %bias: memref<48xf32>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<2x40x48xbf16>)
  linalg.batch_matmul ins(%a, %b : memref<2x40x32xbf16>, memref<2x32x48xbf16>) outs(%c : memref<2x40x48xbf16>)
  linalg.generic {indexing_maps = [#b_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<48xf32>) outs(%c : memref<2x40x48xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %w = arith.extf %o : bf16 to f32
    %s = arith.addf %w, %x : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  }
  return
}
