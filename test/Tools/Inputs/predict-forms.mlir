// Kernels of many forms for tile-tune predict against tile-opt's report
// (tile-tune.test): dynamic offsets and strides (bench/artifacts/
// dynamic-layouts forms), and static strided operands, transposed, batched,
// f32, bf16 and f16, from bench/strided.txt (bench/compile.sh), and in the
// tensor form a tt bf16 matmul, a batched one with a bf16 C and a tn f32 one;
// operands stored transposed with a dynamic stride (read as column-major).
func.func @dyn_f32(%a: memref<100x72xf32, strided<[?, 1], offset: ?>>, %b: memref<72x96xf32, strided<[?, 1], offset: ?>>,
                   %c: memref<100x96xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<100x72xf32, strided<[?, 1], offset: ?>>, memref<72x96xf32, strided<[?, 1], offset: ?>>)
                outs(%c : memref<100x96xf32, strided<[?, 1], offset: ?>>)
  return
}
func.func @dyn_bf16(%a: memref<130x136xbf16, strided<[?, 1], offset: ?>>, %b: memref<136x72xbf16, strided<[?, 1]>>,
                    %c: memref<130x72xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<130x136xbf16, strided<[?, 1], offset: ?>>, memref<136x72xbf16, strided<[?, 1]>>)
                outs(%c : memref<130x72xf32, strided<[?, 1], offset: ?>>)
  return
}
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dyn_batch(%a: memref<3x40x56xf32, strided<[?, ?, 1], offset: ?>>, %b: memref<3x56x48xf32, strided<[?, ?, 1]>>,
                     %c: memref<3x40x48xf32, strided<[?, ?, 1], offset: ?>>) {
  linalg.batch_matmul ins(%a, %b : memref<3x40x56xf32, strided<[?, ?, 1], offset: ?>>, memref<3x56x48xf32, strided<[?, ?, 1]>>)
                      outs(%c : memref<3x40x48xf32, strided<[?, ?, 1], offset: ?>>)
  return
}
func.func @dyn_linear(%a: memref<70x64xbf16, strided<[?, 1], offset: ?>>, %w: memref<96x64xbf16, strided<[?, 1], offset: ?>>,
                      %c: memref<70x96xbf16, strided<[?, 1], offset: ?>>) {
  linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c]
    ins(%a, %w : memref<70x64xbf16, strided<[?, 1], offset: ?>>, memref<96x64xbf16, strided<[?, 1], offset: ?>>)
    outs(%c : memref<70x96xbf16, strided<[?, 1], offset: ?>>)
  return
}
func.func @dyn_bbatch(%a: memref<2x130x72xf16, strided<[?, ?, 1], offset: ?>>, %b: memref<2x72x136xf16, strided<[?, ?, 1], offset: ?>>,
                      %c: memref<2x130x136xf32, strided<[?, ?, 1], offset: ?>>) {
  linalg.batch_matmul ins(%a, %b : memref<2x130x72xf16, strided<[?, ?, 1], offset: ?>>, memref<2x72x136xf16, strided<[?, ?, 1], offset: ?>>)
                      outs(%c : memref<2x130x136xf32, strided<[?, ?, 1], offset: ?>>)
  return
}
func.func @dyn_one(%a: memref<1x64x32xf32, strided<[?, ?, 1], offset: ?>>, %b: memref<1x32x64xf32>,
                   %c: memref<1x64x64xf32, strided<[?, ?, 1]>>) {
  linalg.batch_matmul ins(%a, %b : memref<1x64x32xf32, strided<[?, ?, 1], offset: ?>>, memref<1x32x64xf32>)
                      outs(%c : memref<1x64x64xf32, strided<[?, ?, 1]>>)
  return
}
func.func @dyn_splitk(%a: memref<32x4096xf32, strided<[?, 1], offset: ?>>, %b: memref<4096x32xf32, strided<[?, 1]>>,
                      %c: memref<32x32xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<32x4096xf32, strided<[?, 1], offset: ?>>, memref<4096x32xf32, strided<[?, 1]>>)
                outs(%c : memref<32x32xf32, strided<[?, 1], offset: ?>>)
  return
}
func.func @sf009_b1(%A: memref<1085x1620xf32, strided<[1652, 1], offset: 0>>, %B: memref<279x1620xf32, strided<[1638, 1], offset: 0>>, %C: memref<1085x279xf32, strided<[335, 1], offset: 17>>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<1085x1620xf32, strided<[1652, 1], offset: 0>>, memref<279x1620xf32, strided<[1638, 1], offset: 0>>)
                outs(%C : memref<1085x279xf32, strided<[335, 1], offset: 17>>)
  return
}
func.func @sf017_b3(%A: memref<2333x832xf32, strided<[864, 1], offset: 5>>, %B: memref<3505x2333xf32, strided<[2357, 1], offset: 16>>, %C: memref<832x3505xf32, strided<[3505, 1], offset: 0>>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<2333x832xf32, strided<[864, 1], offset: 5>>, memref<3505x2333xf32, strided<[2357, 1], offset: 16>>)
                outs(%C : memref<832x3505xf32, strided<[3505, 1], offset: 0>>)
  return
}
func.func @sf013_b1(%A: memref<115x136xf32, strided<[136, 1], offset: 1>>, %B: memref<697x136xf32, strided<[141, 1], offset: 20>>, %C: memref<115x697xf32, strided<[721, 1], offset: 16>>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<115x136xf32, strided<[136, 1], offset: 1>>, memref<697x136xf32, strided<[141, 1], offset: 20>>)
                outs(%C : memref<115x697xf32, strided<[721, 1], offset: 16>>)
  return
}
func.func @sg003_b1(%A: memref<488x35xf16, strided<[91, 1], offset: 0>>, %B: memref<35x1858xf16, strided<[1882, 1], offset: 8>>, %C: memref<488x1858xf16, strided<[1858, 1], offset: 18>>) {
  linalg.matmul ins(%A, %B : memref<488x35xf16, strided<[91, 1], offset: 0>>, memref<35x1858xf16, strided<[1882, 1], offset: 8>>)
                outs(%C : memref<488x1858xf16, strided<[1858, 1], offset: 18>>)
  return
}
func.func @sg006_b2(%A: memref<3403x245xf16, strided<[245, 1], offset: 0>>, %B: memref<245x1562xf16, strided<[1562, 1], offset: 36>>, %C: memref<3403x1562xf16, strided<[1562, 1], offset: 19>>) {
  linalg.matmul ins(%A, %B : memref<3403x245xf16, strided<[245, 1], offset: 0>>, memref<245x1562xf16, strided<[1562, 1], offset: 36>>)
                outs(%C : memref<3403x1562xf16, strided<[1562, 1], offset: 19>>)
  return
}
func.func @sg010_b3(%A: memref<3300x1460xf16, strided<[1460, 1], offset: 21>>, %B: memref<1460x1740xf16, strided<[1756, 1], offset: 0>>, %C: memref<3300x1740xf16, strided<[1762, 1], offset: 56>>) {
  linalg.matmul ins(%A, %B : memref<3300x1460xf16, strided<[1460, 1], offset: 21>>, memref<1460x1740xf16, strided<[1756, 1], offset: 0>>)
                outs(%C : memref<3300x1740xf16, strided<[1762, 1], offset: 56>>)
  return
}
func.func @sh001_b0(%A: memref<3x37xbf16, strided<[59, 1], offset: 18>>, %B: memref<37x1xbf16, strided<[23, 1], offset: 34>>, %C: memref<3x1xf32, strided<[1, 1], offset: 37>>) {
  linalg.matmul ins(%A, %B : memref<3x37xbf16, strided<[59, 1], offset: 18>>, memref<37x1xbf16, strided<[23, 1], offset: 34>>)
                outs(%C : memref<3x1xf32, strided<[1, 1], offset: 37>>)
  return
}
func.func @sh002_b0(%A: memref<4x268xbf16, strided<[299, 1], offset: 39>>, %B: memref<268x237xbf16, strided<[245, 1], offset: 64>>, %C: memref<4x237xf32, strided<[285, 1], offset: 0>>) {
  linalg.matmul ins(%A, %B : memref<4x268xbf16, strided<[299, 1], offset: 39>>, memref<268x237xbf16, strided<[245, 1], offset: 64>>)
                outs(%C : memref<4x237xf32, strided<[285, 1], offset: 0>>)
  return
}
func.func @sb003_b1(%A: memref<11x77x377xf32, strided<[29029, 377, 1], offset: 32>>, %B: memref<11x27x377xf32, strided<[10557, 391, 1], offset: 0>>, %C: memref<11x77x27xf32, strided<[4543, 59, 1], offset: 0>>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%A, %B : memref<11x77x377xf32, strided<[29029, 377, 1], offset: 32>>, memref<11x27x377xf32, strided<[10557, 391, 1], offset: 0>>)
                outs(%C : memref<11x77x27xf32, strided<[4543, 59, 1], offset: 0>>)
  return
}
func.func @sb007_b3(%A: memref<10x759x791xf32, strided<[624657, 823, 1], offset: 0>>, %B: memref<10x887x791xf32, strided<[730001, 823, 1], offset: 0>>, %C: memref<10x759x887xf32, strided<[690690, 910, 1], offset: 48>>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%A, %B : memref<10x759x791xf32, strided<[624657, 823, 1], offset: 0>>, memref<10x887x791xf32, strided<[730001, 823, 1], offset: 0>>)
                outs(%C : memref<10x759x887xf32, strided<[690690, 910, 1], offset: 48>>)
  return
}
func.func @sb009_b2(%A: memref<11x995x285xf32, strided<[331335, 333, 1], offset: 8>>, %B: memref<11x285x182xf32, strided<[57285, 201, 1], offset: 56>>, %C: memref<11x995x182xf32, strided<[181090, 182, 1], offset: 8>>) {
  linalg.batch_matmul ins(%A, %B : memref<11x995x285xf32, strided<[331335, 333, 1], offset: 8>>, memref<11x285x182xf32, strided<[57285, 201, 1], offset: 56>>)
                outs(%C : memref<11x995x182xf32, strided<[181090, 182, 1], offset: 8>>)
  return
}
func.func @qslin(%A: memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>, %B: memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>, %C: memref<4096x4096xf32, strided<[4160, 1], offset: 8>>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>, memref<4096x4096xbf16, strided<[4160, 1], offset: 8>>)
                outs(%C : memref<4096x4096xf32, strided<[4160, 1], offset: 8>>)
  return
}
func.func @b_tt_bf16_2223x3792x6121(%A: tensor<6121x2223xbf16>, %B: tensor<3792x6121xbf16>) -> tensor<2223x3792xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2223x3792xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<2223x3792xf32>) -> tensor<2223x3792xf32>
  %R = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : tensor<6121x2223xbf16>, tensor<3792x6121xbf16>)
                     outs(%C : tensor<2223x3792xf32>) -> tensor<2223x3792xf32>
  return %R : tensor<2223x3792xf32>
}
func.func @b64_bf16(%A: tensor<64x512x64xbf16>, %B: tensor<64x64x512xbf16>) -> tensor<64x512x512xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<64x512x512xbf16>
  %C = linalg.fill ins(%zero : bf16) outs(%empty : tensor<64x512x512xbf16>) -> tensor<64x512x512xbf16>
  %R = linalg.batch_matmul ins(%A, %B : tensor<64x512x64xbf16>, tensor<64x64x512xbf16>)
                     outs(%C : tensor<64x512x512xbf16>) -> tensor<64x512x512xbf16>
  return %R : tensor<64x512x512xbf16>
}
func.func @b_tn_f32_2048(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<2048x2048xf32>, memref<2048x2048xf32>)
                outs(%C : memref<2048x2048xf32>)
  return
}
func.func @dynT_B_bf16(%A: memref<2048x1024xbf16>, %B: memref<2048x1024xbf16, strided<[?, 1], offset: 0>>, %C: memref<2048x2048xbf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<2048x1024xbf16>, memref<2048x1024xbf16, strided<[?, 1], offset: 0>>) outs(%C : memref<2048x2048xbf16>)
  return
}
func.func @dynT_A_bf16(%A: memref<1024x2048xbf16, strided<[?, 1], offset: 0>>, %B: memref<1024x2048xbf16>, %C: memref<2048x2048xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<1024x2048xbf16, strided<[?, 1], offset: 0>>, memref<1024x2048xbf16>) outs(%C : memref<2048x2048xf32>)
  return
}
func.func @dynT_AB_f16_batch(%A: memref<4x300x512xf16, strided<[?, ?, 1], offset: ?>>, %B: memref<4x520x300xf16, strided<[?, ?, 1], offset: 0>>, %C: memref<4x512x520xf16>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%A, %B : memref<4x300x512xf16, strided<[?, ?, 1], offset: ?>>, memref<4x520x300xf16, strided<[?, ?, 1], offset: 0>>) outs(%C : memref<4x512x520xf16>)
  return
}
