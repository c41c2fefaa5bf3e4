// Batched matmuls with fused epilogues at sizes past the CPU tests' (rows
// and columns past whole tiles, several waves), for GPU verification:
// bias per column + ReLU on a 16-bit C, a bias per row of each matrix on
// an f32 C, a residual per matrix, and an f32 one (the FMA strategy).
#b_col = affine_map<(b, m, n) -> (n)>
#bb_row = affine_map<(b, m, n) -> (b, m)>
#b_id = affine_map<(b, m, n) -> (b, m, n)>

func.func @lbr(%a: memref<8x1000x520xbf16>, %b: memref<8x520x1032xbf16>, %c: memref<8x1000x1032xbf16>, %e: memref<1032xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<8x1000x1032xbf16>)
  linalg.batch_matmul ins(%a, %b : memref<8x1000x520xbf16>, memref<8x520x1032xbf16>) outs(%c : memref<8x1000x1032xbf16>)
  linalg.generic {indexing_maps = [#b_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<1032xbf16>) outs(%c : memref<8x1000x1032xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %s = arith.addf %o, %x : bf16
    %r = arith.maximumf %s, %zero : bf16
    linalg.yield %r : bf16
  }
  return
}

func.func @lbr2(%a: memref<12x333x264xf16>, %b: memref<12x264x777xf16>, %c: memref<12x333x777xf16>, %e: memref<777xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<12x333x777xf16>)
  linalg.batch_matmul ins(%a, %b : memref<12x333x264xf16>, memref<12x264x777xf16>) outs(%c : memref<12x333x777xf16>)
  linalg.generic {indexing_maps = [#b_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<777xf16>) outs(%c : memref<12x333x777xf16>) {
  ^bb0(%x: f16, %o: f16):
    %s = arith.addf %o, %x : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}

func.func @lrow(%a: memref<6x515x1000xbf16>, %b: memref<6x1000x640xbf16>, %c: memref<6x515x640xf32>, %e: memref<6x515xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<6x515x640xf32>)
  linalg.batch_matmul ins(%a, %b : memref<6x515x1000xbf16>, memref<6x1000x640xbf16>) outs(%c : memref<6x515x640xf32>)
  linalg.generic {indexing_maps = [#bb_row, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<6x515xf32>) outs(%c : memref<6x515x640xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.subf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

func.func @lres(%a: memref<4x1024x384xf16>, %b: memref<4x384x768xf16>, %c: memref<4x1024x768xf16>, %e: memref<4x1024x768xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<4x1024x768xf16>)
  linalg.batch_matmul ins(%a, %b : memref<4x1024x384xf16>, memref<4x384x768xf16>) outs(%c : memref<4x1024x768xf16>)
  linalg.generic {indexing_maps = [#b_id, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<4x1024x768xf16>) outs(%c : memref<4x1024x768xf16>) {
  ^bb0(%x: f16, %o: f16):
    %s = arith.addf %o, %x : f16
    linalg.yield %s : f16
  }
  return
}

func.func @lf32(%a: memref<5x300x130xf32>, %b: memref<5x130x420xf32>, %c: memref<5x300x420xf32>, %e: memref<420xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<5x300x420xf32>)
  linalg.batch_matmul ins(%a, %b : memref<5x300x130xf32>, memref<5x130x420xf32>) outs(%c : memref<5x300x420xf32>)
  linalg.generic {indexing_maps = [#b_col, #b_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : memref<420xf32>) outs(%c : memref<5x300x420xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
