// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --tile-report -o /dev/null
// RUN: not tile-opt %s -split-input-file -allow-unregistered-dialect --tile-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=NOT-SYMBOL
// RUN: echo "module {}" | not tile-opt --tile-report=chip=sm_75 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: error: tile-report: unknown chip 'sm_75'

// tile-report prints every kernel (any op that carries tile.matmul, at any
// stage) from its tile.config, tile.matmul, tile.dynamic_shared_bytes and
// its module's tile.ptxas. Each is checked first: a malformed one is an
// error at the op that carries it, not a crash or a wrong table.

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-report: 'tile.matmul' needs 'm', an integer from 1 to 2147483647, got nothing}}
    llvm.func @no_m(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-report: 'tile.matmul' must be a dictionary {m, n, k, element_type, c_type, c_init[, c_fill]}, got "8x8x8"}}
    gpu.func @matmul_a_string(%A: memref<8x8xf32>) kernel attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = "8x8x8", tile.stage = "block"} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-report: 'tile.matmul' needs 'c_init', "accumulate" or "fill", got 1 : i64}}
    llvm.func @c_init_an_integer(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = 1 : i64, c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-report: 'tile.config' must be a #tile.config, got nothing}}
    llvm.func @no_config(%A: !llvm.ptr) attributes {
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-report: 'tile.config' must be a #tile.config, got {block = [32, 32, 8]}}}
    llvm.func @config_a_dictionary(%A: !llvm.ptr) attributes {
        tile.config = {block = [32, 32, 8]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-report: 'tile.dynamic_shared_bytes' must be an integer from 0 to 2147483647, got -16 : i64}}
    llvm.func @negative_shared_bytes(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = -16 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{tile-report: 'tile.dynamic_shared_bytes' must be an integer from 0 to 2147483647, got "1 KiB"}}
    llvm.func @shared_bytes_a_string(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = "1 KiB",
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{tile-report: 'tile.ptxas' must be a dictionary of integers (registers, spill_stores, spill_loads, stack_bytes), got {registers = "many"}}}
  gpu.module @m attributes {tile.ptxas = {registers = "many"}} {
    llvm.func @ptxas_not_integers(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 1088 : i64,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{tile-report: 'tile.ptxas' must be a dictionary of integers (registers, spill_stores, spill_loads, stack_bytes), got [1, 2]}}
  gpu.module @m attributes {tile.ptxas = [1, 2]} {
    llvm.func @ptxas_a_list(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

// Well-formed attributes on an op that is not a symbol: reported under its
// location.
// NOT-SYMBOL: kernel (test.kernel at {{.*}}report-invalid.mlir{{.*}}): 8x8x8 f32, C += A*B
"test.kernel"() {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
                 tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} : () -> ()
