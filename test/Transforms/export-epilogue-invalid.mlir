// A lowered kernel's tile.epilogue is read again for the manifest.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-export="ptxas=off output-dir=%t"

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: tile.epilogue has an operand that is not "row", "col" or "full"}}
    llvm.func @malformed(%A: !llvm.ptr, %B: !llvm.ptr, %C: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.epilogue = {operands = ["diagonal"], steps = []},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    // expected-error @+1 {{tile-export: tile.epilogue has no operand types}}
    llvm.func @no_types(%A: !llvm.ptr, %B: !llvm.ptr, %C: !llvm.ptr, %E: !llvm.ptr) attributes {nvvm.kernel,
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.dynamic_shared_bytes = 0 : i64,
        tile.epilogue = {operands = ["col"], steps = ["addf acc p0"]},
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
}
