// tile-fuse-epilogues marks the elementwise ops after a matmul that update
// its C in place and records their program on the matmul; tile-block-tile
// passes their operands to the kernel after C and applies the program in
// thread 0; tile-thread-tile applies it to each accumulator between the K
// loop and the store of C.
// RUN: tile-opt %s --tile-fuse-epilogues | FileCheck %s --check-prefix=FUSE
// RUN: tile-opt %s --tile-fuse-epilogues --tile-configure="tuning-table=none block=64,64,8 warp=32,32 thread=4,8 stages=1" --tile-block-tile | FileCheck %s --check-prefix=BLOCK
// RUN: tile-opt %s --tile-fuse-epilogues --tile-configure="tuning-table=none block=64,64,8 warp=32,32 thread=4,8 stages=1" --tile-block-tile --tile-promote-shared --tile-warp-tile --tile-thread-tile -cse | FileCheck %s --check-prefix=THREAD

// FUSE-LABEL: func.func @bias_relu
// FUSE: linalg.matmul {tile.epilogue = {operands = ["col"], steps = ["addf acc p0", "maximumf s0 0"]}}
// FUSE: linalg.generic {{.*}} ins(%arg3 : memref<64xf32>) outs(%arg2 : memref<64x64xf32>) attrs = {tile.fused_epilogue}

// BLOCK: %[[BIAS:.*]] = memref.expand_shape %arg3 {{\[\[}}0, 1]] output_shape [1, 64] : memref<64xf32> into memref<1x64xf32>
// BLOCK: gpu.launch_func @bias_relu_matmul0::@bias_relu_matmul0 {{.*}} args(%arg0 : memref<64x32xf32>, %arg1 : memref<32x64xf32>, %arg2 : memref<64x64xf32>, %[[BIAS]] : memref<1x64xf32>)
// BLOCK-NOT: linalg.generic
// BLOCK: gpu.func @bias_relu_matmul0(%arg0: memref<64x32xf32> {llvm.noalias, llvm.readonly}, %arg1: memref<32x64xf32> {llvm.noalias, llvm.readonly}, %arg2: memref<64x64xf32> {llvm.noalias}, %arg3: memref<1x64xf32> {llvm.noalias, llvm.readonly}) kernel
// BLOCK-SAME: tile.epilogue = {operands = ["col"], steps = ["addf acc p0", "maximumf s0 0"], types = [f32]}
// BLOCK: %[[ROW0:.*]] = arith.muli {{.*}} {tile.tile_origin = "row"}
// BLOCK: %[[COL0:.*]] = arith.muli {{.*}} {tile.tile_origin = "col"}
// BLOCK: %[[BLOCKC:.*]] = memref.subview %arg2[%[[ROW0]], %[[COL0]]]
// BLOCK: linalg.matmul
// BLOCK: gpu.barrier {tile.epilogue_loop}
// BLOCK: scf.if
// BLOCK: scf.for %[[I:.*]] =
// BLOCK: scf.for %[[J:.*]] =
// BLOCK: %[[V:.*]] = memref.load %[[BLOCKC]][%[[I]], %[[J]]]
// BLOCK: %[[COL:.*]] = arith.addi %[[COL0]], %[[J]]
// BLOCK: %[[B:.*]] = memref.load %arg3[%{{.*}}, %[[COL]]] : memref<1x64xf32>
// BLOCK: %[[S:.*]] = arith.addf %[[V]], %[[B]] : f32
// BLOCK: %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : f32
// BLOCK: memref.store %[[R]], %[[BLOCKC]][%[[I]], %[[J]]]
// BLOCK: } {tile.epilogue_loop}

// After tile-thread-tile: no thread-0 epilogue; each accumulator goes
// through the bias of its column and the ReLU, then to C at that column.
// THREAD-NOT: tile.epilogue_loop
// THREAD: %[[ACCS:.*]]:8 = scf.for {{.*}} {
// THREAD: } {tile.k_loop}
// THREAD: %[[E0:.*]] = vector.extract %[[ACCS]]#7[0] : f32 from vector<4xf32>
// THREAD: %[[B0:.*]] = memref.load %arg3[%c0, %[[C0:.*]]] : memref<1x64xf32>
// THREAD: %[[S0:.*]] = arith.addf %[[E0]], %[[B0]] : f32
// THREAD: %[[R0:.*]] = arith.maximumf %[[S0]], %cst : f32
// THREAD: %[[V0:.*]] = vector.insert %[[R0]], %[[ACCS]]#7 [0]
// THREAD: memref.load %arg3[%c0, %[[C1:.*]]] : memref<1x64xf32>
// THREAD: memref.load %arg3[%c0, %[[C2:.*]]] : memref<1x64xf32>
// THREAD: memref.load %arg3[%c0, %[[C3:.*]]] : memref<1x64xf32>
// THREAD: %[[V3:.*]] = vector.insert
// THREAD: %[[X0:.*]] = vector.extract %[[V3]][0]
// THREAD: memref.store %[[X0]], %arg2[%[[ROW:.*]], %[[C0]]] : memref<64x64xf32>
// THREAD: memref.store %{{.*}}, %arg2[%[[ROW]], %[[C1]]] : memref<64x64xf32>
// THREAD: memref.store %{{.*}}, %arg2[%[[ROW]], %[[C2]]] : memref<64x64xf32>
// THREAD: memref.store %{{.*}}, %arg2[%[[ROW]], %[[C3]]] : memref<64x64xf32>

func.func @bias_relu(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>, %bias: memref<64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// GELU in its tanh form: math.tanh is a step ("tanh"), the constants are
// numbers; after tile-thread-tile each accumulator goes through the whole
// program, math.tanh included, before it is stored.
// FUSE-LABEL: func.func @gelu
// FUSE: linalg.matmul {tile.epilogue = {operands = [], steps = ["mulf acc acc", "mulf s0 acc", "mulf 0.0447149985 s1", "addf acc s2", "mulf 0.797884583 s3", "tanh s4", "addf 1 s5", "mulf 0.5 acc", "mulf s7 s6"]}}
// THREAD-LABEL: gpu.func @gelu_matmul0
// THREAD: } {tile.k_loop}
// THREAD: %[[X:.*]] = vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// THREAD: %[[X2:.*]] = arith.mulf %[[X]], %[[X]] : f32
// THREAD: %[[X3:.*]] = arith.mulf %[[X2]], %[[X]] : f32
// THREAD: %[[T0:.*]] = arith.mulf %{{.*}}, %[[X3]] : f32
// THREAD: %[[T1:.*]] = arith.addf %[[X]], %[[T0]] : f32
// THREAD: %[[T2:.*]] = arith.mulf %{{.*}}, %[[T1]] : f32
// THREAD: %[[T3:.*]] = math.tanh %[[T2]] : f32
// THREAD: %[[T4:.*]] = arith.addf %{{.*}}, %[[T3]] : f32
// THREAD: %[[T5:.*]] = arith.mulf %{{.*}}, %[[X]] : f32
// THREAD: %[[R:.*]] = arith.mulf %[[T5]], %[[T4]] : f32
// THREAD: vector.insert %[[R]]
// THREAD: memref.store
func.func @gelu(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.797884583 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32):
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %t0 = arith.mulf %k1, %x3 : f32
    %t1 = arith.addf %x, %t0 : f32
    %t2 = arith.mulf %k0, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %x : f32
    %r = arith.mulf %t5, %t4 : f32
    linalg.yield %r : f32
  }
  return
}
