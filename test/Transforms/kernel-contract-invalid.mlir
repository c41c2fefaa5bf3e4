// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline --tile-warpgroup-tile --tile-wgmma --tile-mbarrier-pipeline

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

// The wgmma strategy's passes.
// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-promote-shared: kernel body is not the form tile-block-tile makes (a block-tile linalg.matmul on subviews in an scf.if, and tensor maps of A and B for the TMA)}}
    gpu.func @wgmma_block_stage(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>, %MA: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>, %MB: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>) kernel attributes {
        tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 64 : i64, m = 64 : i64, n = 64 : i64},
        tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-warpgroup-tile: kernel body is not the form tile-promote-shared makes (a K loop whose slab product runs in an scf.if)}}
    gpu.func @wgmma_shared_stage(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>, %MA: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>, %MB: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>) kernel attributes {
        tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 64 : i64, m = 64 : i64, n = 64 : i64},
        tile.stage = "shared"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-wgmma: kernel body is not the form tile-warpgroup-tile makes (a K loop whose slab product runs per warpgroup)}}
    gpu.func @wgmma_warpgroup_stage(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>, %MA: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>, %MB: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>) kernel attributes {
        tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 64 : i64, m = 64 : i64, n = 64 : i64},
        tile.stage = "warpgroup"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-mbarrier-pipeline: K loop is not the form tile-wgmma makes (a slot, a slab copy and a wgmma group marked in it)}}
    gpu.func @wgmma_instruction_stage(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>, %MA: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>, %MB: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>) kernel attributes {
        tile.config = #tile.config<strategy = wgmma, block = [64, 64, 64], warpgroup = [64, 64], mma = [64, 64, 16]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 64 : i64, m = 64 : i64, n = 64 : i64},
        tile.stage = "instruction"} {
      gpu.return
    }
  }
}
