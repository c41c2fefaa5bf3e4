// Kernels edited between the passes: the form each pass expects from the one
// before is checked, and a kernel that lacks it is an error at the kernel,
// not a crash or a wrong kernel. The edits are made with sed on the IR the
// passes print.

// Split-K's accumulation into C after the K loop is no longer atomic
// (memref.atomic_rmw became memref.store): tile-warp-tile and
// tile-thread-tile refuse it.
// RUN: tile-opt %s -split-input-file --tile-block-tile --tile-promote-shared \
// RUN:   | sed -e 's/%[0-9]* = memref.atomic_rmw addf \(%[0-9]*\), \(.*\]\) : (f32, \(.*\)) -> f32/memref.store \1, \2 : \3/' \
// RUN:   | not tile-opt -split-input-file --tile-warp-tile 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: tile-opt %s -split-input-file --tile-block-tile --tile-promote-shared --tile-warp-tile \
// RUN:   | sed -e 's/%[0-9]* = memref.atomic_rmw addf \(%[0-9]*\), \(.*\]\) : (f32, \(.*\)) -> f32/memref.store \1, \2 : \3/' \
// RUN:   | not tile-opt -split-input-file --tile-thread-tile 2>&1 | FileCheck %s --check-prefix=THREAD
// WARP: error: tile-warp-tile: thread 0's work after the K loop is not an atomic accumulation
// THREAD: error: tile-thread-tile: lane 0's work after the K loop is not an atomic accumulation

// The single shared buffer of A is used outside the K loop: tile-pipeline
// replaces it by two and cannot erase it.
// RUN: tile-opt %s -split-input-file --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile \
// RUN:   | sed -e 's/^\( *\)\(%view[_0-9]*\) = memref.view .*tile.shared = "A".* to \(memref<.*>\)$/&\n\1"test.use"(\2) : (\3) -> ()/' \
// RUN:   | not tile-opt -split-input-file -allow-unregistered-dialect --tile-pipeline 2>&1 | FileCheck %s --check-prefix=STILL-USED
// STILL-USED: error: tile-pipeline: single shared buffer still used outside the K loop

func.func @split_k(%A: memref<8x64xf32>, %B: memref<64x32xf32>, %C: memref<8x32xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4], stages = 1, split_k = 2>}
    ins(%A, %B : memref<8x64xf32>, memref<64x32xf32>) outs(%C : memref<8x32xf32>)
  return
}

// -----

func.func @double_buffered(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %C: memref<32x32xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [16, 32], thread = [4, 4], stages = 2>}
    ins(%A, %B : memref<32x32xf32>, memref<32x32xf32>) outs(%C : memref<32x32xf32>)
  return
}
