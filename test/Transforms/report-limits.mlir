// RUN: tile-opt %s --tile-report -o /dev/null | FileCheck %s

// A kernel written by hand with the largest extents tile.matmul allows and
// the smallest tiles: the report's arithmetic does not overflow (the cost
// model's byte count did, for m = n = 2^31 - 1, found by fuzzing with
// UndefinedBehaviorSanitizer), and a block count past 64 bits saturates.

// CHECK: kernel huge_matmul0: 2147483647x2147483647x1024 f32, C += A*B
// CHECK-NEXT: config
// CHECK-NEXT: launch            9223372036854775807 blocks x 32 threads
// CHECK: model time        {{[0-9.]+}} ms
module attributes {gpu.container_module} {
  gpu.module @huge_matmul0 {
    llvm.func @huge_matmul0(%A: !llvm.ptr) attributes {
        tile.config = #tile.config<block = [32, 1, 1], warp = [32, 1], thread = [1, 1], split_k = 1024>,
        tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 1024 : i64, m = 2147483647 : i64, n = 2147483647 : i64}} {
      llvm.return
    }
  }
}
