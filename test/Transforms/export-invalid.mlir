// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-export="ptxas=off output-dir=%t"
// RUN: not tile-opt %s -split-input-file --tile-export="ptxas=/nonexistent/ptxas" 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS: error: tile-export: ptxas '/nonexistent/ptxas' is not an executable file

// A kernel still at the gpu dialect level cannot be serialized.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-export: kernel is not lowered to NVVM yet}}
    gpu.func @not_lowered(%A: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      gpu.return
    }
  }
}

// -----

// A lowered kernel needs exactly one NVVM target on its module.
module attributes {gpu.container_module} {
  // expected-error @+1 {{tile-export: expects exactly one #nvvm.target on the gpu.module}}
  gpu.module @m {
    llvm.func @no_target(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

// Modules that are not matmul kernels are left alone.
module attributes {gpu.container_module} {
  gpu.module @other [#nvvm.target<chip = "sm_90">] {
    llvm.func @unrelated() {
      llvm.return
    }
  }
}

// -----

// The kernel's attributes are checked before anything is written from them:
// each missing or malformed one is an error at the kernel naming it.
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: kernel lacks tile.config, tile.matmul or tile.dynamic_shared_bytes}}
    llvm.func @no_shared_bytes(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.matmul' needs 'n', an integer from 1 to 2147483647, got nothing}}
    llvm.func @no_n(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.matmul' must be a dictionary {m, n, k, element_type, c_type, c_init[, c_fill]}, got 8 : i64}}
    llvm.func @matmul_an_integer(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64, tile.matmul = 8 : i64} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.matmul' needs 'c_fill', a float of c_type (f32), where c_init is "fill", got "zero"}}
    llvm.func @fill_a_string(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_fill = "zero", c_init = "fill", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.config' must be a #tile.config, got "64x64x8"}}
    llvm.func @config_a_string(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = "64x64x8", tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.dynamic_shared_bytes' must be an integer from 0 to 2147483647, got 4294967296 : i64}}
    llvm.func @shared_bytes_too_large(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 4294967296 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.c_alignment' (2 bytes) is not a multiple of C's element size (4 bytes)}}
    llvm.func @c_alignment_two(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.c_alignment = 2 : i64,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.c_alignment' must be 2, 4, 8 or 16 (bytes), got 12 : i64}}
    llvm.func @c_alignment_twelve(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.c_alignment = 12 : i64,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

// tile.matmul on something other than a function.
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    llvm.func @f() {
      // expected-error @+1 {{tile-export: 'tile.matmul' belongs on a kernel (llvm.func after lowering), not on 'llvm.return'}}
      llvm.return {tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}}
    }
  }
}

// -----

// More thread blocks than a grid holds (the manifest's grid is 32-bit).
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: the kernel needs 4503599627370496 thread blocks, over the grid limit of 2147483647}}
    llvm.func @too_many_blocks(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 2147483647 : i64, n = 2147483647 : i64}} {
      llvm.return
    }
  }
}

// -----

// A kernel whose manifest the runtime would refuse: an infinite fill value.
module attributes {gpu.container_module} {
  // expected-error @+1 {{tile-export: the kernel's manifest would not be valid: manifest: field 'problem.c_fill_value' must be finite}}
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    llvm.func @infinite_fill(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_fill = 0x7F800000 : f32, c_init = "fill", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

// Something the NVVM target cannot translate to LLVM IR (an op left in
// the arith dialect): the serializer's errors, then tile-export's.
module attributes {gpu.container_module} {
  // expected-error @+2 {{Failed creating the llvm::Module.}}
  // expected-error @+1 {{tile-export: PTX generation failed}}
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    llvm.func @not_translatable(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      // expected-error @+1 {{cannot be converted to LLVM IR}}
      %c = arith.constant 1 : i32
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: 'tile.c_alignment' must be 2, 4, 8 or 16 (bytes), got 1 : i64}}
    llvm.func @c_alignment_one(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.c_alignment = 1 : i64,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

// A persistent kernel's grid is the tile.persistent_blocks that
// tile-mbarrier-pipeline sets: without it there is no grid to write.
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: a persistent kernel needs 'tile.persistent_blocks', its grid, from 1 to its tiles (4) (tile-mbarrier-pipeline sets it)}}
    llvm.func @persistent_no_grid(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, persistent = true>,
        tile.dynamic_shared_bytes = 99328 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 448 : i64, m = 200 : i64, n = 200 : i64}} {
      llvm.return
    }
  }
}

// -----

// Nor more blocks than tiles (a block without a tile would only wait).
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: a persistent kernel needs 'tile.persistent_blocks', its grid, from 1 to its tiles (4) (tile-mbarrier-pipeline sets it)}}
    llvm.func @persistent_grid_over_tiles(%A: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, persistent = true>,
        tile.dynamic_shared_bytes = 99328 : i64,
        tile.persistent_blocks = 5 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 448 : i64, m = 200 : i64, n = 200 : i64}} {
      llvm.return
    }
  }
}
