// Fused epilogues on small and edge shapes (f32): a bias per column and
// ReLU, a bias per row, alpha * AB + beta * D (D of C's shape, C filled
// with 0 first), a residual add, and two ops in a row.

#col = affine_map<(m, n) -> (n)>
#row = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

func.func @bias_relu(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>, %bias: memref<41xf32>) {
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<41xf32>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

func.func @row_bias(%a: memref<67x20xf32>, %b: memref<20x1xf32>, %c: memref<67x1xf32>, %bias: memref<67xf32>) {
  linalg.matmul ins(%a, %b : memref<67x20xf32>, memref<20x1xf32>) outs(%c : memref<67x1xf32>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<67xf32>) outs(%c : memref<67x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

func.func @alpha_beta(%a: memref<130x3xf32>, %b: memref<3x70xf32>, %c: memref<130x70xf32>, %d: memref<130x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<130x70xf32>)
  linalg.matmul ins(%a, %b : memref<130x3xf32>, memref<3x70xf32>) outs(%c : memref<130x70xf32>)
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant -0.25 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : memref<130x70xf32>) outs(%c : memref<130x70xf32>) {
  ^bb0(%x: f32, %o: f32):
    %p = arith.mulf %o, %alpha : f32
    %q = arith.mulf %beta, %x : f32
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  return
}

func.func @residual_chain(%a: memref<1x1xf32>, %b: memref<1x1xf32>, %c: memref<1x1xf32>, %r: memref<1x1xf32>, %bias: memref<1xf32>) {
  linalg.matmul ins(%a, %b : memref<1x1xf32>, memref<1x1xf32>) outs(%c : memref<1x1xf32>)
  linalg.add ins(%c, %r : memref<1x1xf32>, memref<1x1xf32>) outs(%c : memref<1x1xf32>)
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<1xf32>) outs(%c : memref<1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.subf %o, %x : f32
    %n = arith.negf %s : f32
    %m = arith.minimumf %n, %x : f32
    linalg.yield %m : f32
  }
  return
}

func.func @big_edge(%a: memref<129x65xf32>, %b: memref<65x257xf32>, %c: memref<129x257xf32>, %bias: memref<257xf32>) {
  linalg.matmul ins(%a, %b : memref<129x65xf32>, memref<65x257xf32>) outs(%c : memref<129x257xf32>)
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<257xf32>) outs(%c : memref<129x257xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %r = arith.maxnumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// A bias per column, then GELU in its tanh form:
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
func.func @bias_gelu(%a: memref<45x33xf32>, %b: memref<33x70xf32>, %c: memref<45x70xf32>, %bias: memref<70xf32>) {
  linalg.matmul ins(%a, %b : memref<45x33xf32>, memref<33x70xf32>) outs(%c : memref<45x70xf32>)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.797884583 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<70xf32>) outs(%c : memref<45x70xf32>) {
  ^bb0(%bv: f32, %o: f32):
    %x = arith.addf %o, %bv : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %t0 = arith.mulf %k1, %x3 : f32
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
// A strided C (rows 44 apart, at offset 3; A strided too): bias per column,
// ReLU.
func.func @strided_c(%A: memref<37x23xf32, strided<[29, 1], offset: 5>>, %B: memref<23x41xf32>, %C: memref<37x41xf32, strided<[44, 1], offset: 3>>, %bias: memref<41xf32>) {
  linalg.matmul ins(%A, %B : memref<37x23xf32, strided<[29, 1], offset: 5>>, memref<23x41xf32>) outs(%C : memref<37x41xf32, strided<[44, 1], offset: 3>>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%bias : memref<41xf32>) outs(%C : memref<37x41xf32, strided<[44, 1], offset: 3>>) {
  ^bb0(%b: f32, %c: f32):
    %s = arith.addf %c, %b : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
