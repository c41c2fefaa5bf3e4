// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-export="ptxas=off"
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
