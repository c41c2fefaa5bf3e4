// Matmuls written as linalg.generic and linalg.contract, as front ends emit
// them, through the whole tiling pipeline (tile-canonicalize-contractions
// makes them linalg.matmul first), run on the CPU by tile-interp against its
// float64 reference: f32 with the loops in another order (fma strategy, edge
// tiles), bf16 and f16 inputs extended to f32 (wgmma strategy, the tensor
// fill-then-generic form), and a linalg.contract.

// RUN: tile-opt %s --tile-matmul-tiling | tile-interp | FileCheck %s

// CHECK: PASS f32_reordered_matmul0 m=37 n=41 k=23 max-rel-err=
// CHECK: PASS bf16_generic_matmul0 m=67 n=72 k=72 max-rel-err=
// CHECK: PASS f16_fill_generic_matmul0 m=64 n=48 k=32 max-rel-err=
// CHECK: PASS f32_contract_matmul0 m=33 n=65 k=3 max-rel-err=

func.func @f32_reordered(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>) {
  linalg.generic {indexing_maps = [affine_map<(k, n, m) -> (m, k)>, affine_map<(k, n, m) -> (k, n)>,
                                   affine_map<(k, n, m) -> (m, n)>],
                  iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

func.func @bf16_generic(%a: memref<67x72xbf16>, %b: memref<72x72xbf16>, %c: memref<67x72xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<67x72xbf16>, memref<72x72xbf16>) outs(%c : memref<67x72xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

func.func @f16_fill_generic(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.5 : f32
  %init = tensor.empty() : tensor<64x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x32xf16>, tensor<32x48xf16>) outs(%c : tensor<64x48xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

func.func @f32_contract(%a: memref<33x3xf32>, %b: memref<3x65xf32>, %c: memref<33x65xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<33x3xf32>, memref<3x65xf32>) outs(%c : memref<33x65xf32>)
  return
}
