// REQUIRES: ptxas
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t report=true" | FileCheck %s

// The whole pipeline's report of the default bf16 kernel at 4096^3 (the
// bf16 tuning table's entry: persistent, 64x256 warpgroup tiles, with C
// through TMA stores added by the cost model) puts ptxas' numbers next to
// the model's register split: the consumers' 232 registers (setmaxnreg)
// hold their 128 accumulators and the rest without spills, and the launch
// count is the cap the split was made for. The shared memory holds the
// ring and the two consumer warpgroups' two staging buffers of C each.
// CHECK-LABEL: kernel square_matmul0: 4096x4096x4096 bf16 -> f32, C = fill + A*B
// CHECK: registers/thread  launch 168 (1 block/SM budget); consumer needs 200 = 128 accumulators + 72 overhead, gets 232 (setmaxnreg); producer (TMA) needs 40, gets 40 (setmaxnreg)
// CHECK-NEXT: ptxas             168 registers, 0 B spill stores, 0 B spill loads, 0 B stack
// CHECK-NEXT: shared memory     230464 B/block (model) = 4 stages x 49152 B (A 16384 + B 32768) + 4 x 8192 B staging buffers of C + 1024 B alignment slack (dynamic) + 64 B mbarriers (static); 230400 B dynamic allocated
// CHECK: model time
func.func @square(%A: tensor<4096x4096xbf16>, %B: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %R : tensor<4096x4096xf32>
}
