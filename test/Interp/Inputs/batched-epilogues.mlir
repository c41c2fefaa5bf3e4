// Fused epilogues on batched matmuls (f32, the FMA strategy): a bias per
// column shared by every matrix + ReLU, a bias per row of each matrix on
// C += A*B, a residual per matrix and one shared, a bias per column of each
// matrix on 1x1x1 matrices, and B stored N x K with a bias per row of each
// matrix and one per column shared.

#b_col = affine_map<(b, m, n) -> (n)>
#b_row = affine_map<(b, m, n) -> (m)>
#b_mat = affine_map<(b, m, n) -> (m, n)>
#bb_col = affine_map<(b, m, n) -> (b, n)>
#bb_row = affine_map<(b, m, n) -> (b, m)>
#b_id = affine_map<(b, m, n) -> (b, m, n)>

func.func @bias_relu(%a: memref<3x37x23xf32>, %b: memref<3x23x41xf32>, %c: memref<3x37x41xf32>, %bias: memref<41xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<3x37x41xf32>)
  linalg.batch_matmul ins(%a, %b : memref<3x37x23xf32>, memref<3x23x41xf32>) outs(%c : memref<3x37x41xf32>)
  linalg.generic {indexing_maps = [#b_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<41xf32>) outs(%c : memref<3x37x41xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

func.func @batch_row(%a: memref<2x67x20xf32>, %b: memref<2x20x5xf32>, %c: memref<2x67x5xf32>, %bias: memref<2x67xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x67x20xf32>, memref<2x20x5xf32>) outs(%c : memref<2x67x5xf32>)
  linalg.generic {indexing_maps = [#bb_row, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<2x67xf32>) outs(%c : memref<2x67x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.subf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

func.func @residuals(%a: memref<2x33x9xf32>, %b: memref<2x9x29xf32>, %c: memref<2x33x29xf32>, %r: memref<2x33x29xf32>, %s: memref<33x29xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x33x29xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x33x9xf32>, memref<2x9x29xf32>) outs(%c : memref<2x33x29xf32>)
  linalg.generic {indexing_maps = [#b_id, #b_mat, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %s : memref<2x33x29xf32>, memref<33x29xf32>) outs(%c : memref<2x33x29xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %o, %half : f32
    %q = arith.addf %p, %x : f32
    %t = arith.subf %q, %y : f32
    linalg.yield %t : f32
  }
  return
}

func.func @one(%a: memref<4x1x1xf32>, %b: memref<4x1x1xf32>, %c: memref<4x1x1xf32>, %bias: memref<4x1xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x1x1xf32>, memref<4x1x1xf32>) outs(%c : memref<4x1x1xf32>)
  linalg.generic {indexing_maps = [#bb_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<4x1xf32>) outs(%c : memref<4x1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

func.func @tb_two(%a: memref<2x45x31xf32>, %b: memref<2x70x31xf32>, %c: memref<2x45x70xf32>, %rows: memref<2x45xf32>, %cols: memref<70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x45x70xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<2x45x31xf32>, memref<2x70x31xf32>) outs(%c : memref<2x45x70xf32>)
  linalg.generic {indexing_maps = [#bb_row, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%rows : memref<2x45xf32>) outs(%c : memref<2x45x70xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#b_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%cols : memref<70xf32>) outs(%c : memref<2x45x70xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %o, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
