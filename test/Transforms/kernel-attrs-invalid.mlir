// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline

// The attributes a kernel carries between the passes (tile.stage,
// tile.config, tile.matmul) are checked where a pass reads them: a malformed
// one, written by hand or edited between passes, is an error at the kernel
// that names the attribute and what is wrong, never a crash. Each pass
// checks the kernels at its own stage; the same checks serve all four.

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.stage' must be one of "block", "shared", "warp", "thread", "warpgroup", "instruction", "pipelined", got "blocks"}}
    gpu.func @unknown_stage(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "blocks"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.stage' must be one of "block", "shared", "warp", "thread", "warpgroup", "instruction", "pipelined", got 1 : i64}}
    gpu.func @stage_not_a_string(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = 1 : i64} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.config' must be a #tile.config, got "block=32,32,8"}}
    gpu.func @config_not_a_config(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = "block=32,32,8",
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-warp-tile: 'tile.matmul' must be a dictionary {m, n, k, element_type, c_type, c_init[, c_fill]}, got [8, 8, 8]}}
    gpu.func @matmul_not_a_dictionary(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = [8, 8, 8],
        tile.stage = "shared"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'm', an integer from 1 to 2147483647, got nothing}}
    gpu.func @no_m(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'n', an integer from 1 to 2147483647, got -8 : i64}}
    gpu.func @negative_n(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = -8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-thread-tile: 'tile.matmul' needs 'k', an integer from 1 to 2147483647, got 0 : i64}}
    gpu.func @zero_k(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 0 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "warp"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-pipeline: 'tile.matmul' needs 'k', an integer from 1 to 2147483647, got 4294967296 : i64}}
    gpu.func @huge_k(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 4294967296 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "thread"} {
      gpu.return
    }
  }
}

// -----

// An integer too wide for 64 bits, and one that is unsigned.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'm', an integer from 1 to 2147483647, got 340282366920938463463374607431768211456 : i256}}
    gpu.func @wide_m(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 340282366920938463463374607431768211456 : i256, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'n', an integer from 1 to 2147483647, got 8 : ui32}}
    gpu.func @unsigned_n(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : ui32},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'm', an integer from 1 to 2147483647, got 8.000000e+00 : f32}}
    gpu.func @float_m(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8.0 : f32, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'c_init', "accumulate" or "fill", got "add"}}
    gpu.func @unknown_c_init(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "add", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'c_init', "accumulate" or "fill", got nothing}}
    gpu.func @no_c_init(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'c_fill', a float of c_type (f32), where c_init is "fill", got nothing}}
    gpu.func @fill_without_value(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "fill", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'c_fill', a float of c_type (f32), where c_init is "fill", got 1.000000e+00 : f64}}
    gpu.func @fill_f64(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_fill = 1.0 : f64, c_init = "fill", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// The parameters must be (A, B, C) of the shapes tile.matmul gives: the
// passes index them and size their copies and guards by the problem.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameters must be (A, B, C) of types memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32> as 'tile.matmul' and 'tile.config' say, got ('memref<8x8xf32>')}}
    gpu.func @one_parameter(%A: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-warp-tile: kernel parameters must be (A, B, C) of types memref<16x8xf32>, memref<8x8xf32>, memref<16x8xf32> as 'tile.matmul' and 'tile.config' say, got ('memref<8x8xf32>', 'memref<8x8xf32>', 'memref<8x8xf32>')}}
    gpu.func @shapes_differ(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 16 : i64, n = 8 : i64},
        tile.stage = "shared"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-pipeline: kernel parameters must be (A, B, C) of types memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32> as 'tile.matmul' and 'tile.config' say, got ('memref<8x8xf16>', 'memref<8x8xf32>', 'i32')}}
    gpu.func @types_differ(%A: memref<8x8xf16>, %B: memref<8x8xf32>, %C: i32) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "thread"} {
      gpu.return
    }
  }
}

// -----

// A gpu.func without tile.stage is not a kernel of this project: left alone
// whatever else it carries.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @not_ours(%A: memref<8x8xf32>) kernel attributes {tile.matmul = 3 : i64} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'element_type', f32, bf16 or f16, got i8}}
    gpu.func @int_elements(%A: memref<8x8xi8>, %B: memref<8x8xi8>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = i8, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'c_type', f32 or the element type, got f16}}
    gpu.func @c_type_mismatch(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf16>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f16, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A batch of no matrices; 70000 is over the grid's y limit.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'batch', an integer from 1 to 65535 where present, got 0 : i64}}
    gpu.func @batch_of_none(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {batch = 0 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'batch', an integer from 1 to 65535 where present, got 70000 : i64}}
    gpu.func @batch_too_large(%A: memref<70000x8x8xf32>, %B: memref<70000x8x8xf32>, %C: memref<70000x8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {batch = 70000 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// 'batch' says 2 matrices, the parameters are single matrices.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameters must be (A, B, C) of types memref<2x8x8xf32>, memref<2x8x8xf32>, memref<2x8x8xf32> as 'tile.matmul' and 'tile.config' say, got ('memref<8x8xf32>', 'memref<8x8xf32>', 'memref<8x8xf32>')}}
    gpu.func @batch_not_params(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {batch = 2 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A batched kernel on the TMA whose tensor maps are 2-d (a batched
// kernel's are 3-d, the batch outermost), written by hand.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameters must be (A, B, C, tensor map of A, tensor map of B) of types memref<2x64x64xbf16>, memref<2x64x64xbf16>, memref<2x64x64xf32>, !nvgpu.tensormap.descriptor (3-d), !nvgpu.tensormap.descriptor (3-d) as 'tile.matmul' and 'tile.config' say, got}}
    gpu.func @batch_wgmma_2d_maps(%A: memref<2x64x64xbf16>, %B: memref<2x64x64xbf16>, %C: memref<2x64x64xf32>,
        %mapA: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>,
        %mapB: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>) kernel attributes {
        tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 2, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>,
        tile.matmul = {batch = 2 : i64, c_init = "accumulate", c_type = f32, element_type = bf16, k = 64 : i64, m = 64 : i64, n = 64 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A TMA store's kernel (store = tma) takes C's tensor map after A's and
// B's; written by hand without it.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameters must be (A, B, C, tensor map of A, tensor map of B, tensor map of C) of types memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>, !nvgpu.tensormap.descriptor, !nvgpu.tensormap.descriptor, !nvgpu.tensormap.descriptor as 'tile.matmul' and 'tile.config' say, got}}
    gpu.func @tma_store_without_c_map(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>,
        %mapA: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>,
        %mapB: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>) kernel attributes {
        tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16], stages = 2, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 64 : i64, m = 64 : i64, n = 64 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A TMA store writes a warpgroup's tile in boxes of 128 bytes of C (64
// bf16 columns): a 32-column warpgroup tile, written by hand.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.config' has store = tma, which writes C 64 'bf16' columns (128 bytes) at a time, but warpgroup tile N = 32 is not a multiple of 64}}
    gpu.func @tma_store_narrow(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xbf16>,
        %mapA: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>,
        %mapB: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>,
        %mapC: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>) kernel attributes {
        tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 32], mma = [64, 32, 16], stages = 2, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, store = tma>,
        tile.matmul = {c_init = "accumulate", c_type = bf16, element_type = bf16, k = 64 : i64, m = 64 : i64, n = 64 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A strided operand's layout: array<i64: offset, row_stride> (and the batch
// stride for a batched kernel), the offset at least 0, strides at least 1.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'layout_a', array<i64: offset, row_stride> (offset at least 0, strides at least 1, -1 for a dynamic one) where present, got array<i64: 0, 0>}}
    gpu.func @zero_row_stride(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, layout_a = array<i64: 0, 0>, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'layout_c', array<i64: offset, row_stride, batch_stride> (offset at least 0, strides at least 1, -1 for a dynamic one) where present, got array<i64: 4, 8>}}
    gpu.func @batched_without_batch_stride(%A: memref<2x8x8xf32>, %B: memref<2x8x8xf32>, %C: memref<2x8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {batch = 2 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, layout_c = array<i64: 4, 8>, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// The layouts must be the parameters' own: A here has none.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameters must be (A, B, C) of types memref<8x8xf32, strided<[16, 1], offset: 4>>, memref<8x8xf32>, memref<8x8xf32> as 'tile.matmul' and 'tile.config' say, got ('memref<8x8xf32>', 'memref<8x8xf32>', 'memref<8x8xf32>')}}
    gpu.func @layout_not_the_parameters(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, layout_a = array<i64: 4, 16>, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.matmul' needs 'layout_b', array<i64: offset, row_stride> (offset at least 0, strides at least 1, -1 for a dynamic one) where present, got "strided"}}
    gpu.func @layout_not_an_array(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, layout_b = "strided", m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}
