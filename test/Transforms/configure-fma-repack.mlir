// An fma kernel with repack = true reads B (row-major, dense, one matrix,
// N not a multiple of 4) from a copy the runtime makes before the launch,
// rows padded to 16 bytes: its slice copies are 16-byte vectors, the cp.async
// ring included. Only when asked for: the cost model never picks it (on 66
// held-out shapes it ran 0.95x geomean of the same configs reading B in
// place, bench/results/2026-12-06-h100-f32-repack.md).

// The model's picks, at a large shape with N = 7339 and a small one: B in
// place, its copies through registers (no ring on single elements).
// RUN: tile-opt %s -split-input-file --tile-configure | FileCheck %s --check-prefix=MODEL
// MODEL-LABEL: func.func @large
// MODEL-NOT: repack
// MODEL: linalg.matmul {tile.config = #tile.config<{{[^>]*}}, stages = 2, {{[^>]*}}prefetch = true{{[,>]}}
// MODEL-NOT: repack
// MODEL-LABEL: func.func @small
// MODEL-NOT: repack
// MODEL: return

// The kernel views its B parameter as the copy: K x 7340, rows 7340 apart;
// the copies of B are 16-byte cp.async from that view, the last vector of a
// row at column 7336 (7340 - 4: B's last element and three of pad). A is
// still copied one element at a time (transposed into shared memory).
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=none block=64,256,8 warp=32,64 thread=8,8 stages=3 repack=true" --tile-block-tile --tile-promote-shared | FileCheck %s --check-prefix=IR
// IR-LABEL: gpu.func @large_matmul0(%arg0: memref<4027x4248xf32> {{.*}}, %arg1: memref<4248x7339xf32> {{.*}}, %arg2: memref<4027x7339xf32>
// IR-SAME: repack = true
// IR: %[[B:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [4248, 7340], strides: [7340, 1] : memref<4248x7339xf32> to memref<4248x7340xf32, strided<[7340, 1]>>
// IR: nvgpu.device_async_copy %arg0[{{.*}}], 1 : memref<4027x4248xf32>
// IR: %[[COL:.*]] = arith.minui %{{.*}}, %c7336{{.*}} : index
// IR-NEXT: nvgpu.device_async_copy %[[B]][%{{.*}}, %[[COL]]], %{{.*}}, 4 {bypassL1} : memref<4248x7340xf32, strided<[7340, 1]>>

// Through registers: 16-byte vector loads of the view.
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=none block=64,256,8 warp=32,64 thread=8,8 stages=2 repack=true" --tile-block-tile --tile-promote-shared | FileCheck %s --check-prefix=REGS
// REGS-LABEL: gpu.func @large_matmul0
// REGS: %[[B:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [4248, 7340], strides: [7340, 1]
// REGS: %[[COL:.*]] = arith.minui %{{.*}}, %c7336{{.*}} : index
// REGS-NEXT: vector.load %[[B]][%{{.*}}, %[[COL]]] {alignment = 16 : i64} : memref<4248x7340xf32, strided<[7340, 1]>>, vector<4xf32>

// Without repack the same tiles copy B one element at a time, in place.
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=none block=64,256,8 warp=32,64 thread=8,8 stages=2 repack=false" --tile-block-tile --tile-promote-shared | FileCheck %s --check-prefix=PLAIN
// PLAIN-LABEL: gpu.func @large_matmul0
// PLAIN-NOT: reinterpret_cast
// PLAIN: memref.load %arg1[%{{.*}}, %{{.*}}] : memref<4248x7339xf32>
// PLAIN-NOT: reinterpret_cast
// PLAIN: gpu.return

func.func @large(%a: memref<4027x4248xf32>, %b: memref<4248x7339xf32>, %c: memref<4027x7339xf32>) {
  linalg.matmul ins(%a, %b : memref<4027x4248xf32>, memref<4248x7339xf32>) outs(%c : memref<4027x7339xf32>)
  return
}

// -----

func.func @small(%a: memref<20x30xf32>, %b: memref<30x41xf32>, %c: memref<20x41xf32>) {
  linalg.matmul ins(%a, %b : memref<20x30xf32>, memref<30x41xf32>) outs(%c : memref<20x41xf32>)
  return
}
