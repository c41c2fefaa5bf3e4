// Matmuls whose C a TMA store can write (store = tma): C's rows and first
// element on 16 bytes. No dimension is a multiple of a block tile, so the
// stores' boxes reach past C's last rows and columns (which the TMA leaves
// out): an f32 C read and written (C += A*B), an f16 C with a fill, a bf16
// C with a fused bias and ReLU, a batch of f32 Cs, a strided C, a C with
// dynamic offset and row stride, B stored N x K, and one row of C.

#col = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>

func.func @acc_f32(%A: memref<70x136xbf16>, %B: memref<136x72xbf16>, %C: memref<70x72xf32>) {
  linalg.matmul ins(%A, %B : memref<70x136xbf16>, memref<136x72xbf16>)
                outs(%C : memref<70x72xf32>)
  return
}

func.func @fill_f16(%A: memref<45x72xf16>, %B: memref<72x40xf16>, %C: memref<45x40xf16>) {
  %half = arith.constant 0.5 : f16
  linalg.fill ins(%half : f16) outs(%C : memref<45x40xf16>)
  linalg.matmul ins(%A, %B : memref<45x72xf16>, memref<72x40xf16>)
                outs(%C : memref<45x40xf16>)
  return
}

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

func.func @batched(%a: memref<3x40x56xbf16>, %b: memref<3x56x48xbf16>, %c: memref<3x40x48xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x40x56xbf16>, memref<3x56x48xbf16>)
                      outs(%c : memref<3x40x48xf32>)
  return
}

func.func @strided(%A: memref<130x72xbf16, strided<[80, 1], offset: 16>>, %B: memref<72x136xbf16, strided<[144, 1], offset: 8>>, %C: memref<130x136xf32, strided<[140, 1], offset: 4>>) {
  linalg.matmul ins(%A, %B : memref<130x72xbf16, strided<[80, 1], offset: 16>>, memref<72x136xbf16, strided<[144, 1], offset: 8>>)
                outs(%C : memref<130x136xf32, strided<[140, 1], offset: 4>>)
  return
}

func.func @dynamic(%a: memref<130x136xbf16, strided<[?, 1], offset: ?>>, %b: memref<136x72xbf16>,
                   %c: memref<130x72xbf16, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<130x136xbf16, strided<[?, 1], offset: ?>>, memref<136x72xbf16>)
                outs(%c : memref<130x72xbf16, strided<[?, 1], offset: ?>>)
  return
}

func.func @nt(%A: memref<100x40xbf16>, %B: memref<72x40xbf16>, %C: memref<100x72xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
                ins(%A, %B : memref<100x40xbf16>, memref<72x40xbf16>)
                outs(%C : memref<100x72xf32>)
  return
}

func.func @one_row(%A: memref<1x24xf16>, %B: memref<24x64xf16>, %C: memref<1x64xf16>) {
  linalg.matmul ins(%A, %B : memref<1x24xf16>, memref<24x64xf16>)
                outs(%C : memref<1x64xf16>)
  return
}
