// RUN: tile-opt %s --tile-configure --tile-report -o /dev/null | FileCheck %s
// RUN: tile-opt %S/../Pipeline/Inputs/small.mlir --tile-report -o /dev/null | FileCheck %s --check-prefix=NONE

// The report shows the cost model's arithmetic for the config: the FP32
// article's 8x8 thread tile is 64 accumulators + 2 x 16 fragments = 96
// registers, 4 FMAs per loaded value, and 80% issue-slot efficiency when the
// loads are counted one value at a time (94% with 16-byte loads).

// CHECK: kernel (linalg.matmul at {{.*}}report.mlir{{.*}}): 512x512x512 f32, C += A*B
// CHECK-NEXT: config            #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>
// CHECK-NEXT: launch            16 blocks x 256 threads (8 warps of 4x8 lanes)
// CHECK-NEXT: shared memory     16640 B/block (model)
// CHECK-NEXT: registers/thread  128 estimated = 96 thread tile (64 accumulators + 2x 16 fragments) + 8 staging + 24 overhead
// CHECK-NEXT: occupancy         2 blocks/SM = 16 warps/SM (limited by registers, by the estimate)
// CHECK-NEXT: intensity         global->shared 64.0 FMA/element, shared->registers 4.0 FMA/element
// CHECK-NEXT: inner k step      4 shared loads + 64 FMAs per lane; issue-slot efficiency 94% (with scalar loads, as the FP32 article counts: 80%)
// CHECK-NEXT: K slice           567 instructions per warp, 90% of them FMAs (with the slice copy and loop overhead)
// CHECK-NEXT: model time

// Without prefetch: one operand set (80 registers), and the article's 63%.
// CHECK: kernel (linalg.matmul at {{.*}}): 512x512x512 f32, C += A*B
// CHECK: registers/thread  112 estimated = 80 thread tile (64 accumulators + 1x 16 fragments)
// CHECK: issue-slot efficiency {{[0-9]+}}% (with scalar loads, as the FP32 article counts: 63%)

// A cp.async ring (3 stages): three slices of shared memory, and a 64-bit
// address per copy instead of the copied values: 128 * 8 / 256 = 4 A
// elements and 8 * 128 / 4 / 256 = 1 B vector per thread.
// CHECK: kernel (linalg.matmul at {{.*}}): 512x512x512 f32, C += A*B
// CHECK: shared memory     24960 B/block (model)
// CHECK-NEXT: registers/thread  130 estimated = 96 thread tile (64 accumulators + 2x 16 fragments) + 10 cp.async addresses + 24 overhead

// NONE: tile-report: no configured matmul or kernel
func.func @report(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8]>}
    ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], prefetch = false>}
    ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 3>}
    ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  return
}
