// The forms of a matmul that front ends emit and the pipeline does not turn
// into a kernel yet: each is an error at the op, saying what the op is (the
// linalg.generic forms are in canonicalize-contractions.mlir, the element
// types, layouts and user-defined maps of linalg.matmul in
// configure-invalid.mlir).
// RUN: tile-opt %s -split-input-file --tile-configure -verify-diagnostics

// The whole pipeline reports each of them too (the tensor forms after
// bufferization, as memref ops) and writes no kernel for their modules: only
// the @chain section (@chain, @chain_filled) is compiled.
// RUN: rm -rf %t && not tile-opt %s -split-input-file --tile-matmul-to-ptx="output-dir=%t ptxas=off" 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: ls %t | FileCheck %s --check-prefix=FILES --implicit-check-not=.json
// PIPELINE: error: 'linalg.batch_matmul' op has a batch of 70000 matrices, over the limit of 65535 (the kernel's grid has a row of blocks per matrix)
// PIPELINE: error: 'linalg.generic' op uses the result of a linalg.batch_matmul and is not fused into its kernel: an extra operand is neither a vector along C's rows or columns (a 1-d memref indexed by one of the loops, or one such vector per batch
// PIPELINE: error: 'linalg.batch_reduce_matmul' op is not supported yet
// PIPELINE: error: 'linalg.matvec' op is not supported yet
// PIPELINE: error: 'linalg.vecmat' op is not supported yet
// PIPELINE: error: 'linalg.dot' op is not supported yet
// PIPELINE: error: 'linalg.mmt4d' op is not supported yet
// PIPELINE: error: 'linalg.conv_2d_nhwc_hwcf' op is not supported yet
// PIPELINE: error: 'linalg.reduce' op is not supported yet
// PIPELINE: error: 'linalg.transpose' op makes operand A of a linalg.matmul
// PIPELINE: error: 'linalg.matmul' op with indexing maps other than transposes
// PIPELINE: error: 'linalg.matmul' op operand #0 of type 'memref<64x32xf32, strided<[128, ?]>>' has a dynamic innermost stride
// PIPELINE: error: 'linalg.matmul' op element type 'i8' of operand #0 is not supported yet
// PIPELINE: error: 'linalg.generic' op makes operand A of a linalg.matmul: only the matmul becomes a kernel
// PIPELINE: error: 'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: its body has 'math.exp', which a fused epilogue does not compute
// PIPELINE: error: 'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it does not update the matmul's C in place
// PIPELINE: error: 'linalg.fill' op uses the result of a linalg.matmul and is not fused into its kernel
// PIPELINE: error: 'linalg.fill' op makes operand A of a linalg.matmul: only the matmul becomes a kernel
// PIPELINE: error: 'linalg.generic' op makes operand A of a linalg.matmul: only the matmul becomes a kernel
// PIPELINE: error: 'linalg.transpose' op makes operand A of a linalg.batch_matmul: a linalg.transpose with permutation [1, 0, 2] is not folded
// PIPELINE: error: 'linalg.batch_matmul' op with indexing maps other than transposes of A and B (a broadcast operand, or C not indexed (b, m, n))
// PIPELINE: error: 'linalg.batch_matmul' op operand #0 has 1024 x 134217728 x 134217728 elements
// FILES: chain_filled_matmul0.json
// FILES: chain_filled_matmul1.json
// FILES: chain_matmul0.json
// FILES: chain_matmul1.json

// More matrices than the grid's y dimension holds.
func.func @batch_too_large(%a: memref<70000x2x2xf32>, %b: memref<70000x2x2xf32>, %c: memref<70000x2x2xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op has a batch of 70000 matrices, over the limit of 65535 (the kernel's grid has a row of blocks per matrix)}}
  linalg.batch_matmul ins(%a, %b : memref<70000x2x2xf32>, memref<70000x2x2xf32>) outs(%c : memref<70000x2x2xf32>)
  return
}

// -----

// An elementwise op on a batched matmul's result whose extra operand is
// indexed (n, b) (a vector per batch, stored the other way round) is not
// fused (it would stay in host code).
func.func @batch_epilogue(%a: memref<2x64x32xf32>, %b: memref<2x32x48xf32>, %c: memref<2x64x48xf32>, %bias: memref<48x2xf32>) {
  // expected-note @+1 {{the linalg.batch_matmul}}
  linalg.batch_matmul ins(%a, %b : memref<2x64x32xf32>, memref<2x32x48xf32>) outs(%c : memref<2x64x48xf32>)
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.batch_matmul and is not fused into its kernel: an extra operand is neither a vector along C's rows or columns (a 1-d memref indexed by one of the loops, or one such vector per batch: batch x m or batch x n, indexed (b, m) or (b, n)) nor an operand of one matrix's shape (m x n, indexed (m, n)) or of C's (batch x m x n) read element by element (only the matmul and its fused epilogue become a kernel; this op would stay in host code, which no kernel runs)}}
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (j, b)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<48x2xf32>) outs(%c : memref<2x64x48xf32>) {
  ^bb0(%p: f32, %x: f32):
    %r = arith.addf %x, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @batch_reduce_matmul(%a: memref<4x64x32xf32>, %b: memref<4x32x48xf32>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.batch_reduce_matmul' op is not supported yet: it is a contraction with 1 M (d1), 1 N (d2) and 2 K (d0, d3) dimensions; one of each is supported}}
  linalg.batch_reduce_matmul ins(%a, %b : memref<4x64x32xf32>, memref<4x32x48xf32>) outs(%c : memref<64x48xf32>)
  return
}

// -----

func.func @matvec(%a: memref<64x32xf32>, %x: memref<32xf32>, %y: memref<64xf32>) {
  // expected-error @+1 {{'linalg.matvec' op is not supported yet: it is a contraction without an M, an N and a K dimension (a matrix-vector or vector product)}}
  linalg.matvec ins(%a, %x : memref<64x32xf32>, memref<32xf32>) outs(%y : memref<64xf32>)
  return
}

// -----

func.func @vecmat(%x: memref<64xf32>, %a: memref<64x32xf32>, %y: memref<32xf32>) {
  // expected-error @+1 {{'linalg.vecmat' op is not supported yet: it is a contraction without an M, an N and a K dimension (a matrix-vector or vector product)}}
  linalg.vecmat ins(%x, %a : memref<64xf32>, memref<64x32xf32>) outs(%y : memref<32xf32>)
  return
}

// -----

func.func @dot(%x: memref<64xf32>, %y: memref<64xf32>, %r: memref<f32>) {
  // expected-error @+1 {{'linalg.dot' op is not supported yet: it is a contraction without an M, an N and a K dimension (a matrix-vector or vector product)}}
  linalg.dot ins(%x, %y : memref<64xf32>, memref<64xf32>) outs(%r : memref<f32>)
  return
}

// -----

func.func @mmt4d(%a: memref<4x2x16x8xf32>, %b: memref<3x2x16x8xf32>, %c: memref<4x3x16x16xf32>) {
  // expected-error @+1 {{'linalg.mmt4d' op is not supported yet: it is a contraction with 2 M (d0, d3), 2 N (d1, d4) and 2 K (d2, d5) dimensions; one of each is supported}}
  linalg.mmt4d ins(%a, %b : memref<4x2x16x8xf32>, memref<3x2x16x8xf32>) outs(%c : memref<4x3x16x16xf32>)
  return
}

// -----

func.func @conv(%i: memref<1x18x18x8xf32>, %f: memref<3x3x8x16xf32>, %o: memref<1x16x16x16xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op is not supported yet: it is a convolution; tile-opt compiles linalg.matmul on 2-d operands}}
  linalg.conv_2d_nhwc_hwcf ins(%i, %f : memref<1x18x18x8xf32>, memref<3x3x8x16xf32>) outs(%o : memref<1x16x16x16xf32>)
  return
}

// -----

// A reduction of one operand.
func.func @row_sums(%a: memref<64x32xf32>, %r: memref<64xf32>) {
  // expected-error @+1 {{'linalg.reduce' op is not supported yet: it is not a contraction (linalg's matcher: }}
  linalg.reduce ins(%a : memref<64x32xf32>) outs(%r : memref<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A linalg.transpose on memrefs making A: it writes a buffer the matmul then
// reads, which is not folded (on tensors tile-canonicalize-contractions
// folds it: canonicalize-contractions.mlir).
func.func @transposed_a_memref(%at: memref<32x64xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  %a = memref.alloc() : memref<64x32xf32>
  // expected-error @+1 {{'linalg.transpose' op makes operand A of a linalg.matmul: a linalg.transpose on memrefs is not folded into the matmul (the kernel would read the operand before the transpose); on tensors tile-canonicalize-contractions folds it, and a linalg.matmul with indexing maps reads a transposed operand directly}}
  linalg.transpose ins(%at : memref<32x64xf32>) outs(%a : memref<64x32xf32>) permutation = [1, 0]
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// A broadcast operand through the matmul's maps (B indexed by k alone).
func.func @matmul_broadcast_b(%a: memref<64x32xf32>, %b: memref<32xf32>, %c: memref<64x48xf32>) {
  // expected-error @+1 {{'linalg.matmul' op with indexing maps other than transposes of A and B (a broadcast operand, or C not indexed (m, n)) is not supported yet}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<64x32xf32>, memref<32xf32>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// A subview of a larger matrix that steps its columns by a stride known
// only at run time: the rows are not contiguous. (Dynamic offsets and row
// strides are compiled: test/Pipeline/dynamic-layout.mlir.)
func.func @subview(%big: memref<128x128xf32>, %s: index, %b: memref<32x48xf32>, %c: memref<64x48xf32>) {
  %a = memref.subview %big[0, 0] [64, 32] [1, %s] : memref<128x128xf32> to memref<64x32xf32, strided<[128, ?]>>
  // expected-error @+1 {{'linalg.matmul' op operand #0 of type 'memref<64x32xf32, strided<[128, ?]>>' has a dynamic innermost stride; the kernels read and write rows of contiguous elements (cast it to a layout whose innermost stride is 1, such as strided<[?, 1], offset: ?>)}}
  linalg.matmul ins(%a, %b : memref<64x32xf32, strided<[128, ?]>>, memref<32x48xf32>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// Integers, in linalg.matmul itself.
func.func @i8(%a: memref<64x32xi8>, %b: memref<32x48xi8>, %c: memref<64x48xi32>) {
  // expected-error @+1 {{'linalg.matmul' op element type 'i8' of operand #0 is not supported yet (f32, bf16 and f16 are)}}
  linalg.matmul ins(%a, %b : memref<64x32xi8>, memref<32x48xi8>) outs(%c : memref<64x48xi32>)
  return
}

// -----

// A prologue: A converted from bf16 by an elementwise linalg.generic.
func.func @cast_prologue(%a16: tensor<64x32xbf16>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %init = tensor.empty() : tensor<64x32xf32>
  // expected-error @+1 {{'linalg.generic' op makes operand A of a linalg.matmul: only the matmul becomes a kernel; linalg ops that compute its operands are not supported yet (this one would stay in host code, which no kernel runs)}}
  %a = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a16 : tensor<64x32xbf16>) outs(%init : tensor<64x32xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %x32 = arith.extf %x : bf16 to f32
    linalg.yield %x32 : f32
  } -> tensor<64x32xf32>
  // expected-note @+1 {{the linalg.matmul}}
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// -----

// An epilogue on tensors that no kernel computes (exp): on tensors nothing
// is fused; after bufferization (the pipeline) it is the body op.
func.func @exp_epilogue(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>,
                        %bias: tensor<48xf32>) -> tensor<64x48xf32> {
  // expected-note @+1 {{the linalg.matmul}}
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: only epilogues on memrefs are fused (bufferize first) (only the matmul and its fused epilogue become a kernel; this op would stay in host code, which no kernel runs)}}
  %e = linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<48xf32>) outs(%r : tensor<64x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = math.exp %s : f32
    linalg.yield %t : f32
  } -> tensor<64x48xf32>
  return %e : tensor<64x48xf32>
}

// -----

// A ReLU of C into another buffer: C is still needed as it is (a result
// used twice), so nothing is fused.
func.func @relu_elsewhere(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %c: memref<64x48xf32>, %d: memref<64x48xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x48xf32>) outs(%c : memref<64x48xf32>)
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: it does not update the matmul's C in place (only elementwise ops whose one output is C are fused)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x48xf32>) outs(%d : memref<64x48xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.maximumf %i, %zero : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not a prologue or an epilogue: a matmul whose A is the result of another
// matmul (two kernels), and the fill of C right before a matmul (the
// kernel's initialisation of C).
func.func @chain(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%r, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// The memref form: the fill of the first matmul's C, then that matmul,
// then one that reads C as its A.
func.func @chain_filled(%a: memref<8x4xf32>, %b: memref<4x8xf32>, %c: memref<8x8xf32>, %d: memref<8x5xf32>, %o: memref<8x5xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.matmul ins(%c, %d : memref<8x8xf32>, memref<8x5xf32>) outs(%o : memref<8x5xf32>)
  return
}

// -----

// A fill of the first matmul's C after it, before a matmul that reads C:
// the fill (host code) makes that matmul's A, and overwrites the first
// matmul's result.
func.func @refill_between(%a: memref<8x4xf32>, %b: memref<4x8xf32>, %c: memref<8x8xf32>, %d: memref<8x5xf32>, %o: memref<8x5xf32>) {
  %one = arith.constant 1.0 : f32
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x8xf32>) outs(%c : memref<8x8xf32>)
  // expected-error @+2 {{'linalg.fill' op uses the result of a linalg.matmul and is not fused into its kernel}}
  // expected-error @+1 {{'linalg.fill' op makes operand A of a linalg.matmul: only the matmul becomes a kernel}}
  linalg.fill ins(%one : f32) outs(%c : memref<8x8xf32>)
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%c, %d : memref<8x8xf32>, memref<8x5xf32>) outs(%o : memref<8x5xf32>)
  return
}

// -----

// A host op computes X, a matmul (a kernel) accumulates onto it, and a
// second matmul reads X as its A: the host op still makes A (the first
// kernel adds to what it wrote).
#id2 = affine_map<(m, n) -> (m, n)>
func.func @host_then_accumulate(%y: memref<8x8xf32>, %a: memref<8x4xf32>, %b: memref<4x8xf32>, %x: memref<8x8xf32>, %d: memref<8x5xf32>, %o: memref<8x5xf32>) {
  // expected-error @+1 {{'linalg.generic' op makes operand A of a linalg.matmul: only the matmul becomes a kernel}}
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<8x8xf32>) outs(%x : memref<8x8xf32>) {
  ^bb0(%i: f32, %out: f32):
    %t = arith.addf %i, %i : f32
    linalg.yield %t : f32
  }
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x8xf32>) outs(%x : memref<8x8xf32>)
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%x, %d : memref<8x8xf32>, memref<8x5xf32>) outs(%o : memref<8x5xf32>)
  return
}

// -----

// A transpose on tensors that moves the batch is not folded (only [0, 2, 1]
// is, for a batched matmul).
func.func @batch_moving_transpose(%a: tensor<64x2x32xf32>, %b: tensor<2x32x48xf32>, %c: tensor<2x64x48xf32>) -> tensor<2x64x48xf32> {
  %init = tensor.empty() : tensor<2x64x32xf32>
  // expected-error @+1 {{'linalg.transpose' op makes operand A of a linalg.batch_matmul: a linalg.transpose with permutation [1, 0, 2] is not folded into the matmul (only one that swaps the matrix dimensions is: [1, 0], or [0, 2, 1] for a linalg.batch_matmul)}}
  %t = linalg.transpose ins(%a : tensor<64x2x32xf32>) outs(%init : tensor<2x64x32xf32>) permutation = [1, 0, 2]
  // expected-note @+1 {{the linalg.batch_matmul}}
  %r = linalg.batch_matmul ins(%t, %b : tensor<2x64x32xf32>, tensor<2x32x48xf32>) outs(%c : tensor<2x64x48xf32>) -> tensor<2x64x48xf32>
  return %r : tensor<2x64x48xf32>
}

// -----

// A batched matmul with a broadcast B (one matrix for the whole batch).
func.func @batch_broadcast(%a: memref<2x64x32xf32>, %b: memref<32x48xf32>, %c: memref<2x64x48xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op with indexing maps other than transposes of A and B (a broadcast operand, or C not indexed (b, m, n)) is not supported yet}}
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<2x64x32xf32>, memref<32x48xf32>) outs(%c : memref<2x64x48xf32>)
  return
}

// -----

// More elements in an operand than 64-bit offsets address.
func.func @batch_too_many_elements(%a: memref<1024x134217728x134217728xf32>, %b: memref<1024x134217728x16xf32>, %c: memref<1024x134217728x16xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op operand #0 has 1024 x 134217728 x 134217728 elements, over the 2^63 - 1 that 64-bit offsets address}}
  linalg.batch_matmul ins(%a, %b : memref<1024x134217728x134217728xf32>, memref<1024x134217728x16xf32>) outs(%c : memref<1024x134217728x16xf32>)
  return
}
