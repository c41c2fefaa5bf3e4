// A kernel's tile.epilogue and its parameters are checked where a pass
// reads them.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-promote-shared

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.epilogue' (the fused epilogue) is not a dictionary {operands = [...], steps = [...]}}}
    gpu.func @malformed(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {steps = ["addf acc acc"]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameter 3 must be the fused epilogue's col operand, a memref<1x8x...>, got 'memref<8x1xf32>'}}
    gpu.func @wrong_shape(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %E: memref<8x1xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {operands = ["col"], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A batched kernel's epilogue operand: one per matrix (per_batch true,
// memref<2x1x8>) or one shared by the matrices (false, memref<1x8>); a
// batch of 3 is neither.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameter 3 must be the fused epilogue's per-batch col operand, a memref<2x1x8x...>, got 'memref<3x1x8xf32>'}}
    gpu.func @wrong_batch(%A: memref<2x8x8xf32>, %B: memref<2x8x8xf32>, %C: memref<2x8x8xf32>, %E: memref<3x1x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {operands = ["col"], per_batch = [true], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {batch = 2 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A shared operand of a batched kernel is 2-d.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameter 3 must be the fused epilogue's full operand, a memref<8x8x...>, got 'memref<2x8x8xf32>'}}
    gpu.func @shared_3d(%A: memref<2x8x8xf32>, %B: memref<2x8x8xf32>, %C: memref<2x8x8xf32>, %E: memref<2x8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {operands = ["full"], per_batch = [false], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {batch = 2 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.epilogue' (the fused epilogue) has per_batch, but the kernel is not batched}}
    gpu.func @per_batch_unbatched(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %E: memref<1x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {operands = ["col"], per_batch = [false], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.epilogue' (the fused epilogue) is not a dictionary {operands = [...], steps = [...]} (and, on a kernel, types = [one per operand], on a batched one per_batch = [one bool per operand], and where an operand is strided layouts = [one array<i64: offset, row_stride> per operand (with batch_stride where per_batch), empty for none, -1 for a dynamic field])}}
    gpu.func @per_batch_size(%A: memref<2x8x8xf32>, %B: memref<2x8x8xf32>, %C: memref<2x8x8xf32>, %E: memref<1x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {operands = ["col"], per_batch = [false, true], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {batch = 2 : i64, c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameters must be (A, B, C, the fused epilogue's operands) of types}}
    gpu.func @missing(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {operands = ["col"], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// A strided operand's layouts entry: [offset, row_stride], with the batch
// stride only where per_batch; -1 (dynamic) or at least 0 / 1.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.epilogue' (the fused epilogue) is not a dictionary}}
    gpu.func @layout_fields(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %E: memref<1x8xf32, strided<[8, 1], offset: 3>>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {layouts = [array<i64: 3, 8, 64>], operands = ["col"], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.epilogue' (the fused epilogue) is not a dictionary}}
    gpu.func @layout_stride_zero(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %E: memref<8x1xf32, strided<[0, 1], offset: 3>>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {layouts = [array<i64: 3, 0>], operands = ["row"], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: 'tile.epilogue' (the fused epilogue) is not a dictionary}}
    gpu.func @layouts_without_types(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %E: memref<8x1xf32, strided<[2, 1], offset: 3>>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {layouts = [array<i64: 3, 2>], operands = ["row"], steps = ["addf acc p0"]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// The parameter has the entry's layout (a dynamic field a `?`).
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameter 3 must be the fused epilogue's row operand, a memref<8x1x...> with the layout its layouts entry gives, got 'memref<8x1xf32, strided<[2, 1], offset: 3>>'}}
    gpu.func @layout_differs(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %E: memref<8x1xf32, strided<[2, 1], offset: 3>>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {layouts = [array<i64: -1, 2>], operands = ["row"], steps = ["addf acc p0"], types = [f32]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

// An operand without a layout has an empty entry, and a dense parameter.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel parameter 4 must be the fused epilogue's full operand, a memref<8x8x...>, got 'memref<8x8xf32, strided<[8, 1], offset: 1>>'}}
    gpu.func @no_layout(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %E: memref<1x8xf32, strided<[8, 1], offset: 5>>, %F: memref<8x8xf32, strided<[8, 1], offset: 1>>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.epilogue = {layouts = [array<i64: 5, 8>, array<i64>], operands = ["col", "full"], steps = ["addf acc p0", "addf s0 p1"], types = [f32, f32]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}
