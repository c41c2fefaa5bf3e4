// A and B one buffer (X * X^T, a Gram matrix: the same value passed as
// both operands): tile-interp gives B the values it gives A, as the GPU
// reads one buffer through both operands (or both tensor maps). Before,
// the bf16 kernel's two tensor maps read one operand while the reference
// took A and B apart, a false FAIL.
// RUN: tile-opt %s --tile-matmul-tiling | tile-interp | FileCheck %s

// CHECK: PASS xxt_bf16_matmul0 m=40 n=40 k=32 max-rel-err=
// CHECK: PASS xxt_f32_matmul0 m=37 n=37 k=21 max-rel-err=
// CHECK: PASS square_matmul0 m=24 n=24 k=24 max-rel-err=
func.func @xxt_bf16(%x: tensor<40x32xbf16>) -> tensor<40x40xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<40x40xbf16>
  %c = linalg.fill ins(%z : bf16) outs(%e : tensor<40x40xbf16>) -> tensor<40x40xbf16>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %x : tensor<40x32xbf16>, tensor<40x32xbf16>) outs(%c : tensor<40x40xbf16>) -> tensor<40x40xbf16>
  return %m : tensor<40x40xbf16>
}
func.func @xxt_f32(%x: memref<37x21xf32>, %c: memref<37x37xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %x : memref<37x21xf32>, memref<37x21xf32>) outs(%c : memref<37x37xf32>)
  return
}
// X * X of a square X.
func.func @square(%x: memref<24x24xf32>, %c: memref<24x24xf32>) {
  linalg.matmul ins(%x, %x : memref<24x24xf32>, memref<24x24xf32>) outs(%c : memref<24x24xf32>)
  return
}
