// RUN: tile-opt %s --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile --tile-pipeline --canonicalize --cse -split-input-file | FileCheck %s

// stages = 2, prefetch = true, on a 2-deep slice (so the whole schedule
// fits on a screen): 4 accumulators of vector<4xf32> per lane.
//
// Prologue: slice 0 into buffer 0, a barrier, the k-step-0 fragments, the
// fence. Each iteration: the global loads of the next slice (the last
// iteration re-reads its own: min(k0 + 2, 62)), the step-1 fragments from
// the current buffer, the step-0 FMAs (on the carried fragments), the stores
// into the other buffer, ONE barrier, the next slice's step-0 fragments from
// the other buffer, the fence, then the step-1 FMAs. Shared memory doubles:
// [A0][A1][B0][B1] = 2 * (2*36*4 + 2*32*4) = 1088 bytes.

// CHECK-LABEL: func.func @two_stages_prefetch
//       CHECK: %[[BYTES:.*]] = arith.constant 1088 : i32
//       CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK-LABEL: gpu.func @two_stages_prefetch_matmul0
//  CHECK-SAME: tile.dynamic_shared_bytes = 1088 : i64
//  CHECK-SAME: tile.stage = "pipelined"
//       CHECK: %[[DSM:.*]] = gpu.dynamic_shared_memory
// Prologue.
//       CHECK: %[[A0:.*]] = memref.view %[[DSM]][%c0][] {tile.shared = "A"} : {{.*}} to memref<2x36xf32, #gpu.address_space<workgroup>>
//       CHECK: %[[B0:.*]] = memref.view %[[DSM]][%c576][] {tile.shared = "B"} : {{.*}} to memref<2x32xf32, #gpu.address_space<workgroup>>
//       CHECK: vector.load %arg0[%{{.*}}, %c0] {alignment = 8 : i64}
//       CHECK: vector.load %arg1[
//       CHECK: memref.store %{{.*}}, %[[A0]][
//       CHECK: vector.store %{{.*}}, %[[B0]][
//  CHECK-NEXT: gpu.barrier
//  CHECK-NEXT: %[[FA0:.*]] = vector.load %[[A0]][%c0, %{{.*}}] {alignment = 16 : i64}
//  CHECK-NEXT: %[[FB0:.*]] = vector.load %[[B0]][%c0, %{{.*}}] {alignment = 16 : i64}
//  CHECK-NEXT: llvm.inline_asm has_side_effects "", "~{memory}"  : () -> ()
// The loop carries the accumulators, the step-0 fragments (in the order
// the FMAs first use them: B, then A) and the buffer.
//       CHECK: %{{.*}}:7 = scf.for %[[K0:.*]] = %c0 to %c64 step %c2 iter_args({{.*}}, %[[FB:.*]] = %[[FB0]], %[[FA:.*]] = %[[FA0]], %[[BUF:.*]] = %c0)
//       CHECK:   %[[NBUF:.*]] = arith.xori %[[BUF]], %c1 : index
//       CHECK:   %[[ACUR:.*]] = memref.view %[[DSM]]
//       CHECK:   %[[BCUR:.*]] = memref.view %[[DSM]]
//       CHECK:   %[[ANXT:.*]] = memref.view %[[DSM]]
//       CHECK:   %[[BNXT:.*]] = memref.view %[[DSM]]
//       CHECK:   %[[KN:.*]] = arith.addi %[[K0]], %c2 : index
//       CHECK:   %[[KNEXT:.*]] = arith.minui %[[KN]], %c62 : index
//       CHECK:   vector.load %arg0[%{{.*}}, %[[KNEXT]]]
//       CHECK:   vector.load %arg1[
//       CHECK:   %[[FA1:.*]] = vector.load %[[ACUR]][%c1, %{{.*}}]
//       CHECK:   %[[FB1:.*]] = vector.load %[[BCUR]][%c1, %{{.*}}]
//       CHECK:   %[[FBP:.*]] = vector.shuffle %[[FB]], %[[FB]] [0, 1]
//       CHECK:   vector.extract %[[FA]][0]
//       CHECK:   vector.fma %{{.*}}, %[[FBP]], %{{.*}} : vector<2xf32>
//   CHECK-NOT:   gpu.barrier
//       CHECK:   memref.store %{{.*}}, %[[ANXT]][
//       CHECK:   vector.store %{{.*}}, %[[BNXT]][
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[NFA:.*]] = vector.load %[[ANXT]][%c0, %{{.*}}]
//  CHECK-NEXT:   %[[NFB:.*]] = vector.load %[[BNXT]][%c0, %{{.*}}]
//  CHECK-NEXT:   llvm.inline_asm has_side_effects "", "~{memory}"  : () -> ()
//       CHECK:   %[[FB1P:.*]] = vector.shuffle %[[FB1]], %[[FB1]] [0, 1]
//       CHECK:   vector.extract %[[FA1]][0]
//       CHECK:   vector.fma %{{.*}}, %[[FB1P]], %{{.*}} : vector<2xf32>
//   CHECK-NOT:   gpu.barrier
//       CHECK:   scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NFB]], %[[NFA]], %[[NBUF]]
//       CHECK: } {tile.k_loop}
func.func @two_stages_prefetch(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 2], warp = [16, 32], thread = [4, 4], stages = 2, prefetch = true>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// stages = 1, prefetch = true: one buffer; in each iteration the copy, a
// barrier, then the step-1 fragments are loaded before the step-0 FMAs, and a
// barrier before the next copy overwrites the slice. Nothing is carried but
// the accumulators, and no fence is needed within one iteration.

// CHECK-LABEL: gpu.func @one_stage_prefetch_matmul0
//  CHECK-SAME: tile.dynamic_shared_bytes = 544 : i64
//   CHECK-NOT: llvm.inline_asm has_side_effects
//       CHECK: %{{.*}}:4 = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
//       CHECK:   vector.store
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[FA0:.*]] = vector.load %{{.*}}[%c0,
//  CHECK-NEXT:   %[[FB0:.*]] = vector.load %{{.*}}[%c0,
//  CHECK-NEXT:   %[[FA1:.*]] = vector.load %{{.*}}[%c1,
//  CHECK-NEXT:   %[[FB1:.*]] = vector.load %{{.*}}[%c1,
//       CHECK:   %[[FB0P:.*]] = vector.shuffle %[[FB0]], %[[FB0]] [0, 1]
//       CHECK:   %[[ACCP:.*]] = vector.shuffle %[[ACC]], %[[ACC]] [0, 1]
//       CHECK:   vector.fma %{{.*}}, %[[FB0P]], %[[ACCP]]
//       CHECK:   %[[FB1P:.*]] = vector.shuffle %[[FB1]], %[[FB1]] [0, 1]
//       CHECK:   vector.fma %{{.*}}, %[[FB1P]],
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   scf.yield
//   CHECK-NOT: llvm.inline_asm has_side_effects
func.func @one_stage_prefetch(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 2], warp = [16, 32], thread = [4, 4], stages = 1, prefetch = true>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// stages = 2, prefetch = false: double buffering without register prefetch:
// each step loads its fragments right before its FMAs; the stores into the
// other buffer and the one barrier come after the last step's fragment loads
// (from the current buffer) and before its FMAs.

// CHECK-LABEL: gpu.func @two_stages_no_prefetch_matmul0
//   CHECK-NOT: llvm.inline_asm has_side_effects
//       CHECK: scf.for %{{.*}} iter_args({{.*}}, %{{.*}} = %c0) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, index)
//       CHECK:   vector.load %{{.*}}[%c0,
//       CHECK:   vector.fma
//       CHECK:   %[[FA1:.*]] = vector.load %{{.*}}[%c1,
//  CHECK-NEXT:   %[[FB1:.*]] = vector.load %{{.*}}[%c1,
//       CHECK:   vector.store
//  CHECK-NEXT:   gpu.barrier
//   CHECK-NOT:   vector.load
//       CHECK:   %[[FB1P:.*]] = vector.shuffle %[[FB1]], %[[FB1]] [0, 1]
//       CHECK:   vector.extract %[[FA1]][0]
//       CHECK:   vector.fma %{{.*}}, %[[FB1P]],
//       CHECK:   scf.yield
func.func @two_stages_no_prefetch(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 2], warp = [16, 32], thread = [4, 4], stages = 2, prefetch = false>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// stages = 1, prefetch = false: the k steps are unrolled and nothing moves.

// CHECK-LABEL: gpu.func @plain_matmul0
//       CHECK: scf.for %{{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   vector.load %{{.*}}[%c0,
//  CHECK-NEXT:   vector.load %{{.*}}[%c0,
//       CHECK:   vector.fma
//       CHECK:   vector.load %{{.*}}[%c1,
//       CHECK:   vector.fma
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   scf.yield
func.func @plain(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 2], warp = [16, 32], thread = [4, 4], stages = 1, prefetch = false>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// stages = 3: a ring of three [A][B] buffers (544 bytes each) filled by the
// asynchronous copies of tile-promote-shared. Prologue: slices 0 and 1 into
// stages 0 and 1, a group each; wait until at most one group is in flight
// (slice 0 landed), the barrier, the step-0 fragments, the fence. The loop
// carries the byte shifts of the stage it reads (0) and the one it writes
// (1088); iteration k issues the slice two ahead (k0 + 4) into the written
// stage (with no source elements past the end of K), loads the step-1
// fragments, and before the last step's FMAs waits for the next slice (one
// group may stay in flight), takes the one barrier and loads the next
// stage's step-0 fragments. Both shifts move on by a stage (wrapping at
// 1632). After the loop, all groups are waited for.

// CHECK-LABEL: gpu.func @async_three_stages_matmul0
//  CHECK-SAME: tile.dynamic_shared_bytes = 1632 : i64
//       CHECK: %[[DSM:.*]] = gpu.dynamic_shared_memory
//       CHECK: %[[A0:.*]] = memref.view %[[DSM]][%c0][] {tile.shared = "A"}
//       CHECK: %[[B0:.*]] = memref.view %[[DSM]][%c288][] {tile.shared = "B"}
//       CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %[[A0]]
//       CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[B0]]
//       CHECK: nvgpu.device_async_create_group
//       CHECK: %[[A1:.*]] = memref.view %[[DSM]][%c544][] {tile.shared = "A"}
//       CHECK: %[[B1:.*]] = memref.view %[[DSM]][%c832][] {tile.shared = "B"}
//       CHECK: nvgpu.device_async_copy %arg0[{{.*}}], %[[A1]]
//       CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[B1]]
//       CHECK: %[[G1:.*]] = nvgpu.device_async_create_group
//  CHECK-NEXT: nvgpu.device_async_wait %[[G1]] {numGroups = 1 : i32}
//  CHECK-NEXT: gpu.barrier
//  CHECK-NEXT: %[[FA0:.*]] = vector.load %[[A0]][%c0, %{{.*}}]
//  CHECK-NEXT: %[[FB0:.*]] = vector.load %[[B0]][%c0, %{{.*}}]
//  CHECK-NEXT: llvm.inline_asm has_side_effects "", "~{memory}"
//       CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c2 iter_args({{.*}}, %[[FB:.*]] = %[[FB0]], %[[FA:.*]] = %[[FA0]], %[[READ:.*]] = %c0, %[[WRITE:.*]] = %c1088)
//       CHECK:   %[[R1:.*]] = arith.addi %[[READ]], %c544 : index
//       CHECK:   %[[RWRAP:.*]] = arith.cmpi eq, %[[R1]], %c1632 : index
//       CHECK:   %[[NREAD:.*]] = arith.select %[[RWRAP]], %c0, %[[R1]] : index
//       CHECK:   %[[NWRITE:.*]] = arith.select
//       CHECK:   %[[ACUR:.*]] = memref.view %[[DSM]][%[[READ]]][] {tile.shared = "A"}
//       CHECK:   %[[ANXT:.*]] = memref.view %[[DSM]][%[[NREAD]]][] {tile.shared = "A"}
//       CHECK:   %[[AW:.*]] = memref.view %[[DSM]][%[[WRITE]]][] {tile.shared = "A"}
//       CHECK:   %[[BW:.*]] = memref.view %[[DSM]][%{{.*}}][] {tile.shared = "B"}
//       CHECK:   %[[KI:.*]] = arith.addi %[[K0]], %c4 : index
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[KI]], %c64 : index
//       CHECK:   %[[NA:.*]] = arith.select %[[IN]], %c1, %c0 : index
//       CHECK:   nvgpu.device_async_copy %arg0[{{.*}}], %[[AW]][{{.*}}], 1, %[[NA]]
//       CHECK:   %[[NB:.*]] = arith.select %[[IN]], %c4, %c0 : index
//       CHECK:   nvgpu.device_async_copy %arg1[{{.*}}], %[[BW]][{{.*}}], 4, %[[NB]] {bypassL1}
//       CHECK:   %[[G:.*]] = nvgpu.device_async_create_group
//       CHECK:   vector.load %[[ACUR]][%c1, %{{.*}}]
//       CHECK:   vector.fma
//   CHECK-NOT:   gpu.barrier
//       CHECK:   nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   %[[NFA:.*]] = vector.load %[[ANXT]][%c0, %{{.*}}]
//   CHECK-NOT:   gpu.barrier
//       CHECK:   scf.yield {{.*}}, %[[NFA]], %[[NREAD]], %[[NWRITE]]
//       CHECK: } {tile.k_loop}
//  CHECK-NEXT: nvgpu.device_async_wait %[[G1]] {numGroups = 0 : i32}
func.func @async_three_stages(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 2], warp = [16, 32], thread = [4, 4], stages = 3, prefetch = true>}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
