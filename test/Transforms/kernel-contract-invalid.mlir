// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline

// Kernels that claim a stage (tile.stage) must have the form the pass
// before makes; one that does not is an error at the kernel, never a crash
// or a silent skip.

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel at stage 'block' lacks its 'tile.config' or 'tile.matmul' attribute}}
    gpu.func @no_config(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel body is not the form tile-block-tile makes}}
    gpu.func @block_stage(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
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
    // expected-error @+1 {{tile-warp-tile: kernel body is not the form tile-promote-shared makes}}
    gpu.func @shared_stage(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "shared"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-thread-tile: kernel body is not the form tile-warp-tile makes}}
    gpu.func @warp_stage(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "warp"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-pipeline: K loop is not the form tile-thread-tile makes}}
    gpu.func @thread_stage(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64},
        tile.stage = "thread"} {
      gpu.return
    }
  }
}
