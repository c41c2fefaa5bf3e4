// Persistent wgmma kernels compute each tile's origin inside the tile loop,
// where the consumers' wgmma groups are in flight: nothing there may divide
// by a value. ptxas makes such a division (the swizzle's, by the row count
// of a group that may be the last) a subroutine call, and with a call
// between a wgmma group and its wgmma.wait_group it moved reads of the
// accumulators above the wait: 7075x643x96 f16 -> f16 on 64x128 blocks gave
// wrong elements (partial sums) in the first columns of the tiles' fragments
// on the H100 and H200 (bench/results/2026-12-05-h100-persistent-fix.md).
// Every divisor is now a constant, which LLVM turns into multiplies.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off block=64,128,64 warp=64,128 thread=64,128 stages=2 occupancy=2 swizzle=32 copy=tma repack=true specialize=true persistent=true"
// RUN: test -s %t/odd_matmul0.ptx && test -s %t/batched_matmul0.ptx
// RUN: not grep -E "^\s*(div|rem)\.[a-z0-9.]+\s+%[a-z0-9]+, %[a-z0-9]+, %[a-z]" %t/odd_matmul0.ptx %t/batched_matmul0.ptx
// RUN: FileCheck %s --input-file=%t/odd_matmul0.ptx
// RUN: FileCheck %s --check-prefix=GRID --input-file=%t/odd_matmul0.json
// RUN: FileCheck %s --check-prefix=BGRID --input-file=%t/batched_matmul0.json

// 111 x 6 = 666 tiles on 264 blocks (two per SM); the consumers' loop over
// them holds the K loop, the wait for the last group, the release of the
// tile's last slot and the epilogue's 16-bit stores.
// GRID: "grid": [264, 1, 1]
// CHECK: setmaxnreg.inc.sync.aligned.u32
// CHECK: setp.lt.u32 %p{{[0-9]+}}, %r{{[0-9]+}}, 666;
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared.b64
// CHECK: cvt.rn.f16.f32
// CHECK: st.global.b16
func.func @odd(%A: tensor<7075x96xf16>, %B: tensor<96x643xf16>) -> tensor<7075x643xf16> {
  %zero = arith.constant 0.0 : f16
  %empty = tensor.empty() : tensor<7075x643xf16>
  %C = linalg.fill ins(%zero : f16) outs(%empty : tensor<7075x643xf16>) -> tensor<7075x643xf16>
  %R = linalg.matmul ins(%A, %B : tensor<7075x96xf16>, tensor<96x643xf16>)
                     outs(%C : tensor<7075x643xf16>) -> tensor<7075x643xf16>
  return %R : tensor<7075x643xf16>
}

// A batch: 5 matrices of 8 x 3 tiles, 120 tiles on 120 blocks; the matrix
// and the tile in it come from the tile number by constant divisors too.
// BGRID: "grid": [120, 1, 1]
func.func @batched(%A: memref<5x500x96xf16>, %B: memref<5x96x300xf16>, %C: memref<5x500x300xf16>) {
  linalg.batch_matmul ins(%A, %B : memref<5x500x96xf16>, memref<5x96x300xf16>) outs(%C : memref<5x500x300xf16>)
  return
}
