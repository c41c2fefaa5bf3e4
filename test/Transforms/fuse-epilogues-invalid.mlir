// What keeps an epilogue out of a kernel, and malformed epilogue attributes
// on kernels, are errors at the op or kernel.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-fuse-epilogues --tile-configure="tuning-table=none"

// Split-K asked for (a config written on the matmul): the blocks add
// partial products into C atomically.
func.func @split_k(%a: memref<64x4096xf32>, %b: memref<4096x64xf32>, %c: memref<64x64xf32>, %bias: memref<64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op split_k = 2 cannot run a fused epilogue (the blocks add partial products into C atomically, so none holds the final value)}}
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4], split_k = 2>} ins(%a, %b : memref<64x4096xf32>, memref<4096x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A scalar that is not a constant (a function argument) cannot be part of
// the program.
func.func @scalar_argument(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %alpha: f32) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: its body uses a value that is not an argument, a float constant or an earlier op of the body}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%o: f32):
    %s = arith.mulf %o, %alpha : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An operand read transposed.
func.func @transposed_operand(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %r: memref<64x64xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand is neither a vector along C's rows or columns}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n, m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A rounding to bf16 before the last step would be lost (the program
// computes in f32 and rounds only what it stores).
func.func @round_mid_chain(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %c: memref<64x64xbf16>, %bias: memref<64xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c : memref<64x64xbf16>)
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: its body rounds a value (arith.truncf) other than the one it stores to C's type; the fused epilogue computes in f32 and rounds only what it stores}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<64xf32>) outs(%c : memref<64x64xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %w = arith.extf %o : bf16 to f32
    %s = arith.addf %w, %x : f32
    %r = arith.truncf %s : f32 to bf16
    %m = arith.maximumf %r, %o : bf16
    linalg.yield %m : bf16
  }
  return
}

// -----

// A widening to a type other than f32.
func.func @widen_to_f64(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: its body widens a value to a type other than f32 (the fused epilogue computes in f32)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%o: f32):
    %w = arith.extf %o : f32 to f64
    %s = arith.truncf %w : f64 to f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A constant widened in the body.
func.func @widened_constant(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %c: memref<64x64xf32>) {
  %half = arith.constant 0.5 : bf16
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.generic' op uses the result of a linalg.matmul and is not fused into its kernel: its body widens or rounds a constant, which a fused epilogue does not (write the constant in f32)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%o: f32):
    %h = arith.extf %half : bf16 to f32
    %s = arith.mulf %o, %h : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An operand of a type the kernels do not read.
func.func @f64_operand(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %r: memref<64xf64>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand is not a memref of static shape of f32, bf16 or f16}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64xf64>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f64, %o: f32):
    %y = arith.truncf %x : f64 to f32
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bias per column whose elements are not contiguous (a row vector's may
// be: test/Transforms/fuse-epilogues-strided.mlir).
func.func @col_stride(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %r: memref<64xf32, strided<[2], offset: 1>>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand's elements along C's columns are not contiguous (its innermost stride is 2, not 1)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64xf32, strided<[2], offset: 1>>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A residual whose columns are a dynamic stride apart.
func.func @full_dynamic_inner(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %r: memref<64x64xf32, strided<[?, ?], offset: ?>>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand's elements along C's columns are not contiguous (its innermost stride is dynamic, not 1)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64x64xf32, strided<[?, ?], offset: ?>>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A stride of 0 (every row reads one element).
func.func @row_broadcast(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %r: memref<64xf32, strided<[0], offset: 4>>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand has a stride below 1 (the kernels take strides of at least 1)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64xf32, strided<[0], offset: 4>>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A layout that is no offset and strides.
func.func @not_strided(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %r: memref<64xf32, affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand has a layout that is not strided}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64xf32, affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A negative offset (before the buffer's start).
func.func @negative_offset(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %r: memref<64xf32, strided<[1], offset: -2>>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand has a negative offset}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<64xf32, strided<[1], offset: -2>>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bias that is a row of C: the kernel would read it while other blocks
// write C (a view of C's buffer, through any view-like ops).
func.func @view_of_c(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>) {
  %row = memref.subview %c[3, 0] [1, 41] [1, 1] : memref<37x41xf32> to memref<41xf32, strided<[1], offset: 123>>
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand is a view of C's buffer, which the kernel writes while it reads the operand}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%row : memref<41xf32, strided<[1], offset: 123>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%y: f32, %o: f32):
    %t = arith.addf %o, %y : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// C itself through a cast, read as a residual.
func.func @cast_of_c(%a: memref<37x23xf32>, %b: memref<23x41xf32>, %c: memref<37x41xf32>) {
  %same = memref.cast %c : memref<37x41xf32> to memref<37x41xf32, strided<[41, 1]>>
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<37x23xf32>, memref<23x41xf32>) outs(%c : memref<37x41xf32>)
  // expected-error @+1 {{is not fused into its kernel: an extra operand is a view of C's buffer}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%same : memref<37x41xf32, strided<[41, 1]>>) outs(%c : memref<37x41xf32>) {
  ^bb0(%y: f32, %o: f32):
    %t = arith.addf %o, %y : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A clamp at -inf (as masking code writes it): the steps take finite
// constants only, so the op is refused here, not by a later pass.
func.func @infinite_constant(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  // expected-error @+1 {{is not fused into its kernel: its body uses the constant -inf, which is not finite (a fused epilogue takes finite constants only)}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %t = arith.maximumf %o, %ninf : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A NaN, the same.
func.func @nan_constant(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  %nan = arith.constant 0x7FC00000 : f32
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  // expected-error @+1 {{its body uses the constant nan, which is not finite}}
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%c : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %t = arith.addf %o, %nan : f32
    linalg.yield %t : f32
  }
  return
}
