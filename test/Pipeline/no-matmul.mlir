// A module with no linalg.matmul compiles to nothing: the pipelines say so
// with a warning (not an error: there is nothing wrong to report at an op,
// and the exit status stays 0), and write no kernel. The linalg op left in
// host code gets a warning of its own.
// RUN: tile-opt %s --tile-matmul-tiling 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: rm -rf %t && tile-opt %s --tile-matmul-to-ptx="output-dir=%t ptxas=off" 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not ls %t/*.json
// WARN: no-matmul.mlir:{{[0-9]+}}:3: warning: 'linalg.generic' is not compiled: tile-opt makes kernels of linalg.matmul ops only; this op stays in host code, which no kernel runs
// WARN: warning: tile-configure: no linalg.matmul to compile; the output has no kernel

// tile-configure alone says nothing unless asked (warn-uncompiled):
// RUN: tile-opt %s --tile-configure 2>&1 | FileCheck %s --check-prefix=QUIET --implicit-check-not=warning
// RUN: tile-opt %s --tile-configure=warn-uncompiled 2>&1 | FileCheck %s --check-prefix=WARN
// QUIET: func.func @no_matmul

// A module whose matmuls are kernels already (the pipeline run twice) has
// something to compile: no warning.
// RUN: tile-opt %S/Inputs/small.mlir --tile-matmul-tiling | tile-opt --tile-matmul-tiling 2>&1 | FileCheck %s --check-prefix=AGAIN --implicit-check-not=warning
// AGAIN: gpu.func @small_matmul0

// A matmul and, in another function, a copy that is no epilogue of it
// (Inputs/uncompiled-copy.mlir): the matmul is compiled, the copy gets the
// warning.
// RUN: tile-opt %S/Inputs/uncompiled-copy.mlir --tile-matmul-tiling -verify-diagnostics | FileCheck %s --check-prefix=COPY
// COPY: gpu.func @matmul_matmul0

func.func @no_matmul(%a: memref<64x48xf32>, %c: memref<64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x48xf32>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
