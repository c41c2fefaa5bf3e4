// RUN: rm -rf %t && mkdir -p %t/w/bad_kernel.svg
// RUN: tile-opt %s -verify-diagnostics --tile-report="svg-dir=%t/w" -o /dev/null
// RUN: not tile-opt %s --tile-report="svg-dir=%t/w" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: not tile-opt %s --tile-report="svg-dir=%s/x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CREATE

// A picture that cannot be written is an error at the kernel (or matmul) it
// is of, and the pass fails; the other pictures are still written.
// RUN: ls %t/w | FileCheck %s --check-prefix=WRITTEN
// WRITTEN: bad_kernel.svg
// WRITTEN-NEXT: good_matmul0.svg

// WRITE: error: tile-report: cannot write {{.*}}/w/bad_kernel.svg: Is a directory

// The folder cannot be made (a file is in its path):
// CREATE: error: tile-report: cannot create {{.*}}report-svg-invalid.mlir/x: Not a directory
// CREATE: error: tile-report: cannot create {{.*}}report-svg-invalid.mlir/x: Not a directory

module attributes {gpu.container_module} {
  gpu.module @m {
    // The picture's path is a folder:
    // expected-error @+1 {{tile-report: cannot write}}
    llvm.func @bad_kernel(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, m = 8 : i64, k = 8 : i64, n = 8 : i64}} {
      llvm.return
    }
  }
  func.func @good(%A: memref<64x16xf32>, %B: memref<16x32xf32>, %C: memref<64x32xf32>) {
    linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4]>}
      ins(%A, %B : memref<64x16xf32>, memref<16x32xf32>) outs(%C : memref<64x32xf32>)
    return
  }
}
