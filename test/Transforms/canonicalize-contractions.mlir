// linalg.generic and linalg.contract ops that are plain row-major matmuls
// become linalg.matmul on the same operands; every other op is left as it is
// (CHECK) and tile-configure then says at the op what it is (expected-error,
// checked by the second RUN).
// RUN: tile-opt %s -split-input-file --tile-canonicalize-contractions | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-canonicalize-contractions --tile-configure -verify-diagnostics

// Without the rewrite, tile-configure refuses a plain generic matmul and
// names the pass that rewrites it:
// RUN: not tile-opt %s -split-input-file --tile-configure 2>&1 | FileCheck %s --check-prefix=UNCANONICAL
// UNCANONICAL: error: 'linalg.generic' op is not supported yet: it is a matmul in linalg.generic form, which tile-canonicalize-contractions makes a linalg.matmul (tile-matmul-to-ptx runs it first); tile-opt compiles linalg.matmul on 2-d operands
// UNCANONICAL: error: 'linalg.contract' op is not supported yet: it is a matmul in linalg.contract form, which tile-canonicalize-contractions makes a linalg.matmul (tile-matmul-to-ptx runs it first); tile-opt compiles linalg.matmul on 2-d operands
// UNCANONICAL: error: 'linalg.generic' op is not supported yet: it is a batched matmul in linalg.generic form, which tile-canonicalize-contractions makes a linalg.batch_matmul (tile-matmul-to-ptx runs it first); tile-opt compiles linalg.matmul on 2-d operands and linalg.batch_matmul on 3-d ones


// CHECK-LABEL: func.func @f32_memref
// CHECK-SAME:    (%[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<32x48xf32>, %[[C:.*]]: memref<64x48xf32>)
// CHECK-NEXT:    linalg.matmul ins(%[[A]], %[[B]] : memref<64x32xf32>, memref<32x48xf32>) outs(%[[C]] : memref<64x48xf32>){{$}}
// CHECK-NEXT:    return
func.func @f32_memref(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The loops in another order (k, m, n): A is still indexed (m, k), B (k, n),
// C (m, n). The operands of mulf and addf in the other order, fast-math
// flags (dropped), a tile.config (kept).
// CHECK-LABEL: func.func @loops_reordered
// CHECK-SAME:    (%[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<32x48xf32>, %[[C:.*]]: memref<64x48xf32>)
// CHECK-NEXT:    linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]{{.*}}>} ins(%[[A]], %[[B]] : memref<64x32xf32>, memref<32x48xf32>) outs(%[[C]] : memref<64x48xf32>){{$}}
// CHECK-NEXT:    return
func.func @loops_reordered(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(k, m, n) -> (m, k)>, affine_map<(k, m, n) -> (k, n)>,
                                   affine_map<(k, m, n) -> (m, n)>],
                  iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>)
      attrs = {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %y, %x fastmath<fast> : f32
    %s = arith.addf %p, %acc fastmath<fast> : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 inputs extended to f32, on tensors (the fill-then-matmul form).
// CHECK-LABEL: func.func @bf16_tensor
// CHECK-SAME:    (%[[A:.*]]: tensor<64x32xbf16>, %[[B:.*]]: tensor<32x48xbf16>)
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK-NEXT:    %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<64x32xbf16>, tensor<32x48xbf16>) outs(%[[FILL]] : tensor<64x48xf32>) -> tensor<64x48xf32>{{$}}
// CHECK-NEXT:    return %[[R]]
func.func @bf16_tensor(%a: tensor<64x32xbf16>, %b: tensor<32x48xbf16>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x32xbf16>, tensor<32x48xbf16>) outs(%c : tensor<64x48xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %x32 = arith.extf %x : bf16 to f32
    %y32 = arith.extf %y : bf16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// -----

// f16 inputs, the product's operands swapped.
// CHECK-LABEL: func.func @f16_swapped
// CHECK-NEXT:    linalg.matmul ins(%arg0, %arg1 : memref<64x32xf16>, memref<32x48xf16>) outs(%arg2 : memref<64x48xf32>){{$}}
func.func @f16_swapped(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf16>, memref<32x48xf16>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %y32 = arith.extf %y : f16 to f32
    %x32 = arith.extf %x : f16 to f32
    %p = arith.mulf %y32, %x32 : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.contract with the matmul's maps.
// CHECK-LABEL: func.func @contract
// CHECK-NEXT:    linalg.matmul ins(%arg0, %arg1 : memref<64x32xf32>, memref<32x48xf32>) outs(%arg2 : memref<64x48xf32>){{$}}
// CHECK-NOT:     linalg.contract
func.func @contract(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// Not rewritten from here on.

// The combiner is a max, not an add: linalg's matcher rejects it.
// CHECK-LABEL: func.func @max_combiner
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @max_combiner(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is not a contraction (linalg's matcher: }}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.maximumf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// C - A*B: linalg's matcher lets the arith.negf through, the body check does
// not.
// CHECK-LABEL: func.func @negated_product
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @negated_product(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a contraction whose body is not C + A * B (arith.mulf, then arith.addf into the output, after an arith.extf to f32 of each bf16 or f16 input); tile-opt compiles linalg.matmul on 2-d operands}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %n = arith.negf %p : f32
    %s = arith.addf %acc, %n : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 multiplied in bf16, then extended: another rounding than linalg.matmul.
// CHECK-LABEL: func.func @bf16_product
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @bf16_product(%a: memref<64x32xbf16>, %b: memref<32x48xbf16>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a contraction whose body is not C + A * B}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xbf16>, memref<32x48xbf16>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %p = arith.mulf %x, %y : bf16
    %p32 = arith.extf %p : bf16 to f32
    %s = arith.addf %acc, %p32 : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch dimension: a linalg.batch_matmul on the same operands.
// CHECK-LABEL: func.func @batched
//  CHECK-SAME: (%[[A:.*]]: memref<4x64x32xf32>, %[[B:.*]]: memref<4x32x48xf32>, %[[C:.*]]: memref<4x64x48xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.batch_matmul ins(%[[A]], %[[B]] : memref<4x64x32xf32>, memref<4x32x48xf32>) outs(%[[C]] : memref<4x64x48xf32>)
// CHECK-NOT:     linalg.generic
func.func @batched(%a: memref<4x64x32xf32>, %b: memref<4x32x48xf32>, %c: memref<4x64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x64x32xf32>, memref<4x32x48xf32>) outs(%c : memref<4x64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch loop written last and both operands transposed: the batch_matmul's
// maps name the batch d0, then m, n, k; A is read (b, k, m), B (b, n, k).
// CHECK-DAG:   #[[$MAPA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG:   #[[$MAPB:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[$MAPC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batched_transposed
// CHECK-NEXT:    linalg.batch_matmul indexing_maps = [#[[$MAPA]], #[[$MAPB]], #[[$MAPC]]] ins(%{{.*}}, %{{.*}} : memref<4x32x64xf32>, memref<4x48x32xf32>) outs(%{{.*}} : memref<4x64x48xf32>)
func.func @batched_transposed(%a: memref<4x32x64xf32>, %b: memref<4x48x32xf32>, %c: memref<4x64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k, b) -> (b, k, m)>, affine_map<(m, n, k, b) -> (b, n, k)>,
                                   affine_map<(m, n, k, b) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<4x32x64xf32>, memref<4x48x32xf32>) outs(%c : memref<4x64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The batch is not the operands' first dimension.
// CHECK-LABEL: func.func @batch_inside
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         linalg.generic
func.func @batch_inside(%a: memref<64x4x32xf32>, %b: memref<4x32x48xf32>, %c: memref<4x64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a batched matmul of C[b][m][n] += A[m][b][k] * B[b][k][n] (A [b][m][k] or [b][k][m], B [b][k][n] or [b][n][k] and C [b][m][n] are supported)}}
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, b, k)>, affine_map<(b, m, n, k) -> (b, k, n)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x4x32xf32>, memref<4x32x48xf32>) outs(%c : memref<4x64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two batch dimensions.
// CHECK-LABEL: func.func @two_batches
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         linalg.generic
func.func @two_batches(%a: memref<2x3x64x32xf32>, %b: memref<2x3x32x48xf32>, %c: memref<2x3x64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a contraction with 2 batch dimensions (d0, d1); one is supported}}
  linalg.generic {indexing_maps = [affine_map<(b0, b1, m, n, k) -> (b0, b1, m, k)>, affine_map<(b0, b1, m, n, k) -> (b0, b1, k, n)>,
                                   affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x3x64x32xf32>, memref<2x3x32x48xf32>) outs(%c : memref<2x3x64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A linalg.transpose of the last two dimensions (permutation [0, 2, 1]) on
// tensors making B of a batch_matmul is folded into its maps.
// CHECK-DAG:   #[[$MAPB2:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @batched_transpose_fold
//  CHECK-SAME: (%[[A:.*]]: tensor<2x64x32xf32>, %[[W:.*]]: tensor<2x48x32xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.batch_matmul indexing_maps = [#{{.*}}, #[[$MAPB2]], #{{.*}}] ins(%[[A]], %[[W]] : tensor<2x64x32xf32>, tensor<2x48x32xf32>)
func.func @batched_transpose_fold(%a: tensor<2x64x32xf32>, %w: tensor<2x48x32xf32>, %c: tensor<2x64x48xf32>) -> tensor<2x64x48xf32> {
  %init = tensor.empty() : tensor<2x32x48xf32>
  %b = linalg.transpose ins(%w : tensor<2x48x32xf32>) outs(%init : tensor<2x32x48xf32>) permutation = [0, 2, 1]
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x64x32xf32>, tensor<2x32x48xf32>) outs(%c : tensor<2x64x48xf32>) -> tensor<2x64x48xf32>
  return %r : tensor<2x64x48xf32>
}

// -----

// Two K dimensions.
// CHECK-LABEL: func.func @two_k
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @two_k(%a: memref<64x4x8xf32>, %b: memref<4x8x48xf32>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a contraction with 1 M (d0), 1 N (d1) and 2 K (d2, d3) dimensions; one of each is supported; tile-opt compiles linalg.matmul on 2-d operands}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k0, k1) -> (m, k0, k1)>, affine_map<(m, n, k0, k1) -> (k0, k1, n)>,
                                   affine_map<(m, n, k0, k1) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<64x4x8xf32>, memref<4x8x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A loop that is none of M, N, K: A is also summed over d3.
// CHECK-LABEL: func.func @extra_reduction
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @extra_reduction(%a: memref<64x32x2xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a contraction with 4 loops, of which only d0, d1 and d2 are M, N and K; tile-opt compiles linalg.matmul on 2-d operands}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k, r) -> (m, k, r)>, affine_map<(m, n, k, r) -> (k, n)>,
                                   affine_map<(m, n, k, r) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<64x32x2xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// B given as N x K (the nn.Linear weight layout): a linalg.matmul whose
// indexing maps read B as (n, k).
// CHECK-DAG:   #[[$MK1:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$NK1:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$MN1:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @transposed_b
// CHECK-SAME:    (%[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<48x32xf32>, %[[C:.*]]: memref<64x48xf32>)
// CHECK-NEXT:    linalg.matmul indexing_maps = [#[[$MK1]], #[[$NK1]], #[[$MN1]]] ins(%[[A]], %[[B]] : memref<64x32xf32>, memref<48x32xf32>) outs(%[[C]] : memref<64x48xf32>){{$}}
// CHECK-NEXT:    return
func.func @transposed_b(%a: memref<64x32xf32>, %b: memref<48x32xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf32>, memref<48x32xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A given as K x M and B as N x K, with the loops in another order (k, n,
// m): the maps are rewritten to linalg.matmul's loops (m, n, k).
// CHECK-DAG:   #[[$KM2:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG:   #[[$NK2:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$MN2:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @transposed_both
// CHECK-SAME:    (%[[A:.*]]: memref<32x64xf32>, %[[B:.*]]: memref<48x32xf32>, %[[C:.*]]: memref<64x48xf32>)
// CHECK-NEXT:    linalg.matmul indexing_maps = [#[[$KM2]], #[[$NK2]], #[[$MN2]]] ins(%[[A]], %[[B]] : memref<32x64xf32>, memref<48x32xf32>) outs(%[[C]] : memref<64x48xf32>){{$}}
func.func @transposed_both(%a: memref<32x64xf32>, %b: memref<48x32xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(k, n, m) -> (k, m)>, affine_map<(k, n, m) -> (n, k)>, affine_map<(k, n, m) -> (m, n)>], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%a, %b : memref<32x64xf32>, memref<48x32xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// C written transposed (C[n][m]): not a form tile-opt compiles.
// CHECK-LABEL: func.func @transposed_c
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @transposed_c(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<48x64xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a matmul of C[n][m] += A[m][k] * B[k][n] (A [m][k] or [k][m], B [k][n] or [n][k] and C [m][n] are supported); tile-opt compiles linalg.matmul on 2-d operands}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<48x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A linalg.transpose on tensors making B (nn.Linear's weight, N x K) is
// folded into the matmul's maps: the matmul reads the weight itself and the
// transpose is gone.
// CHECK-DAG:   #[[$MK3:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$NK3:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$MN3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_op_b
// CHECK-SAME:    (%[[A:.*]]: tensor<64x32xf32>, %[[W:.*]]: tensor<48x32xf32>, %[[C:.*]]: tensor<64x48xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul indexing_maps = [#[[$MK3]], #[[$NK3]], #[[$MN3]]] ins(%[[A]], %[[W]] : tensor<64x32xf32>, tensor<48x32xf32>) outs(%[[C]] : tensor<64x48xf32>)
// CHECK-NOT:     linalg.transpose
func.func @transpose_op_b(%a: tensor<64x32xf32>, %w: tensor<48x32xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %init = tensor.empty() : tensor<32x48xf32>
  %b = linalg.transpose ins(%w : tensor<48x32xf32>) outs(%init : tensor<32x48xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// -----

// A transpose of an operand the matmul already reads transposed cancels:
// the default maps (printed without indexing_maps); the transpose, still
// used elsewhere, stays.
// CHECK-LABEL: func.func @transpose_op_cancels
// CHECK-SAME:    (%[[A:.*]]: tensor<64x32xf32>, %[[B:.*]]: tensor<32x48xf32>, %[[C:.*]]: tensor<64x48xf32>)
// CHECK:         %[[T:.*]] = linalg.transpose
// CHECK:         linalg.matmul ins(%[[A]], %[[B]] : tensor<64x32xf32>, tensor<32x48xf32>) outs(%[[C]] : tensor<64x48xf32>)
// CHECK:         return {{.*}}, %[[T]]
func.func @transpose_op_cancels(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>) -> (tensor<64x48xf32>, tensor<48x32xf32>) {
  %init = tensor.empty() : tensor<48x32xf32>
  %bt = linalg.transpose ins(%b : tensor<32x48xf32>) outs(%init : tensor<48x32xf32>) permutation = [1, 0]
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<64x32xf32>, tensor<48x32xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r, %bt : tensor<64x48xf32>, tensor<48x32xf32>
}

// -----

// A transpose of a transpose making A: both fold (the matmul reads A
// itself, with the default maps) and both go. A batched B transposed three
// times reads the weight stored N x K.
// CHECK-LABEL: func.func @transpose_twice
// CHECK-SAME:    (%[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<4x16xf32>, %[[C:.*]]: tensor<8x16xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul ins(%[[A]], %[[B]] : tensor<8x4xf32>, tensor<4x16xf32>) outs(%[[C]] : tensor<8x16xf32>)
// CHECK-LABEL: func.func @transpose_thrice
// CHECK-SAME:    (%[[A:.*]]: tensor<2x8x4xf32>, %[[W:.*]]: tensor<2x16x4xf32>, %[[C:.*]]: tensor<2x8x16xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.batch_matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[A]], %[[W]] : tensor<2x8x4xf32>, tensor<2x16x4xf32>) outs(%[[C]] : tensor<2x8x16xf32>)
func.func @transpose_twice(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %t0 = linalg.transpose ins(%a : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<8x4xf32>
  %t1 = linalg.transpose ins(%t0 : tensor<4x8xf32>) outs(%e1 : tensor<8x4xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%t1, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
func.func @transpose_thrice(%a: tensor<2x8x4xf32>, %w: tensor<2x16x4xf32>, %c: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %e0 = tensor.empty() : tensor<2x4x16xf32>
  %t0 = linalg.transpose ins(%w : tensor<2x16x4xf32>) outs(%e0 : tensor<2x4x16xf32>) permutation = [0, 2, 1]
  %e1 = tensor.empty() : tensor<2x16x4xf32>
  %t1 = linalg.transpose ins(%t0 : tensor<2x4x16xf32>) outs(%e1 : tensor<2x16x4xf32>) permutation = [0, 2, 1]
  %e2 = tensor.empty() : tensor<2x4x16xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<2x16x4xf32>) outs(%e2 : tensor<2x4x16xf32>) permutation = [0, 2, 1]
  %r = linalg.batch_matmul ins(%a, %t2 : tensor<2x8x4xf32>, tensor<2x4x16xf32>) outs(%c : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %r : tensor<2x8x16xf32>
}

// -----

// Integers.
// CHECK-LABEL: func.func @i32
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @i32(%a: memref<64x32xi32>, %b: memref<32x48xi32>, %c: memref<64x48xi32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a matmul of 'i32' and 'i32' into 'i32' (f32 inputs, or bf16 or f16 inputs extended to f32, into an f32 output are supported); tile-opt compiles linalg.matmul on 2-d operands}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xi32>, memref<32x48xi32>) outs(%c : memref<64x48xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// f16 accumulated in f16.
// CHECK-LABEL: func.func @f16_accumulator
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @f16_accumulator(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<64x48xf16>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is a matmul of 'f16' and 'f16' into 'f16' (f32 inputs, or bf16 or f16 inputs extended to f32, into an f32 output are supported)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf16>, memref<32x48xf16>) outs(%c : memref<64x48xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// A bias as a third input (a fused epilogue).
// CHECK-LABEL: func.func @three_inputs
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
func.func @three_inputs(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %bias: memref<48xf32>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.generic' op is not supported yet: it is not a contraction (linalg's matcher: }}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %bias : memref<64x32xf32>, memref<32x48xf32>, memref<48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    %t = arith.addf %s, %z : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A linalg.contract with B transposed.
// CHECK-DAG:   #[[$MK4:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$NK4:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$MN4:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @contract_transposed
// CHECK-SAME:    (%[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<48x32xf32>, %[[C:.*]]: memref<64x48xf32>)
// CHECK-NEXT:    linalg.matmul indexing_maps = [#[[$MK4]], #[[$NK4]], #[[$MN4]]] ins(%[[A]], %[[B]] : memref<64x32xf32>, memref<48x32xf32>) outs(%[[C]] : memref<64x48xf32>){{$}}
func.func @contract_transposed(%a: memref<64x32xf32>, %b: memref<48x32xf32>, %c: memref<64x48xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<64x32xf32>, memref<48x32xf32>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// Elementwise ops (no reduction loop) are not contractions: left alone, and
// tile-configure says nothing about them.
// CHECK-LABEL: func.func @elementwise
// CHECK:         linalg.generic
func.func @elementwise(%a: memref<64x48xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}
