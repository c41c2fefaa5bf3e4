// Fused epilogues with strided operands: f32 (the fma strategy) and bf16 /
// f16 (wgmma), static and dynamic offsets and strides, batched with
// per-batch and shared operands, edge shapes.

#col = affine_map<(m, n) -> (n)>
#row = affine_map<(m, n) -> (m)>
#id = affine_map<(m, n) -> (m, n)>

func.func @static_layouts(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>,
    %bias: memref<41xf32, strided<[1], offset: 3>>, %scale: memref<37xf32, strided<[5], offset: 2>>,
    %res: memref<37x41xbf16, strided<[64, 1], offset: 130>>) {
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<41xf32, strided<[1], offset: 3>>, memref<37xf32, strided<[5], offset: 2>>, memref<37x41xbf16, strided<[64, 1], offset: 130>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %y: f32, %r: bf16, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %re = arith.extf %r : bf16 to f32
    %u = arith.addf %t, %re : f32
    linalg.yield %u : f32
  }
  return
}
func.func @dynamic_layouts(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>,
    %bias: memref<41xf32, strided<[1], offset: ?>>, %scale: memref<37xf32, strided<[?], offset: ?>>,
    %res: memref<37x41xf32, affine_map<(d0, d1)[s0, s1] -> (d0 * s1 + s0 + d1)>>) {
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  linalg.generic {indexing_maps = [#col, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<41xf32, strided<[1], offset: ?>>, memref<37xf32, strided<[?], offset: ?>>, memref<37x41xf32, affine_map<(d0, d1)[s0, s1] -> (d0 * s1 + s0 + d1)>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %u = arith.addf %t, %r : f32
    linalg.yield %u : f32
  }
  return
}
func.func @batched(%a: memref<3x20x16xf32>, %b: memref<3x16x24xf32>, %c: memref<3x20x24xf32>,
    %bias: memref<3x24xf32, strided<[?, 1], offset: ?>>, %scale: memref<3x20xf32, strided<[64, 3], offset: 1>>,
    %res: memref<20x24xf32, strided<[32, 1], offset: 8>>) {
  linalg.batch_matmul ins(%a, %b : memref<3x20x16xf32>, memref<3x16x24xf32>) outs(%c : memref<3x20x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %scale, %res : memref<3x24xf32, strided<[?, 1], offset: ?>>, memref<3x20xf32, strided<[64, 3], offset: 1>>, memref<20x24xf32, strided<[32, 1], offset: 8>>) outs(%c : memref<3x20x24xf32>) {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.mulf %s, %y : f32
    %u = arith.addf %t, %r : f32
    linalg.yield %u : f32
  }
  return
}

func.func @wgmma_bias_relu(%a: memref<130x72xbf16>, %b: memref<72x136xbf16>, %c: memref<130x136xbf16>, %bias: memref<136xbf16, strided<[1], offset: ?>>, %res: memref<130x136xbf16, strided<[?, 1], offset: ?>>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<130x136xbf16>)
  linalg.matmul ins(%a, %b : memref<130x72xbf16>, memref<72x136xbf16>) outs(%c : memref<130x136xbf16>)
  linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %res : memref<136xbf16, strided<[1], offset: ?>>, memref<130x136xbf16, strided<[?, 1], offset: ?>>) outs(%c : memref<130x136xbf16>) {
  ^bb0(%x: bf16, %r: bf16, %o: bf16):
    %s = arith.addf %o, %x : bf16
    %t = arith.addf %s, %r : bf16
    %u = arith.maximumf %t, %zero : bf16
    linalg.yield %u : bf16
  }
  return
}

// The residual's matrices overlap (5000 elements apart, each spanning
// 64 * 80 + 72): allowed for an operand that is only read.
func.func @wgmma_batched(%a: memref<2x65x40xf16>, %b: memref<2x40x72xf16>, %c: memref<2x65x72xf32>, %scale: memref<2x65xf32, strided<[?, ?], offset: ?>>, %res: memref<2x65x72xf32, strided<[5000, 80, 1], offset: 3>>) {
  linalg.batch_matmul ins(%a, %b : memref<2x65x40xf16>, memref<2x40x72xf16>) outs(%c : memref<2x65x72xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scale, %res : memref<2x65xf32, strided<[?, ?], offset: ?>>, memref<2x65x72xf32, strided<[5000, 80, 1], offset: 3>>) outs(%c : memref<2x65x72xf32>) {
  ^bb0(%y: f32, %r: f32, %o: f32):
    %t = arith.mulf %o, %y : f32
    %u = arith.subf %t, %r : f32
    linalg.yield %u : f32
  }
  return
}

func.func @one(%a: memref<1x1xf32>, %b: memref<1x1xf32>, %c: memref<1x1xf32>, %bias: memref<1xf32, strided<[7], offset: 9>>) {
  linalg.matmul ins(%a, %b : memref<1x1xf32>, memref<1x1xf32>) outs(%c : memref<1x1xf32>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<1xf32, strided<[7], offset: 9>>) outs(%c : memref<1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

// A batch of one: per-batch vectors whose batch stride is dynamic (never
// stepped: static 1 in the kernel's parameter and the host's view).
func.func @batch_one(%a: memref<1x20x16xf32>, %b: memref<1x16x24xf32>, %c: memref<1x20x24xf32>,
    %scale: memref<1x20xf32, strided<[?, 3], offset: 1>>, %bias: memref<1x24xf32, strided<[?, 1], offset: 2>>) {
  linalg.batch_matmul ins(%a, %b : memref<1x20x16xf32>, memref<1x16x24xf32>) outs(%c : memref<1x20x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scale, %bias : memref<1x20xf32, strided<[?, 3], offset: 1>>, memref<1x24xf32, strided<[?, 1], offset: 2>>) outs(%c : memref<1x20x24xf32>) {
  ^bb0(%y: f32, %x: f32, %o: f32):
    %t = arith.mulf %o, %y : f32
    %u = arith.addf %t, %x : f32
    linalg.yield %u : f32
  }
  return
}
