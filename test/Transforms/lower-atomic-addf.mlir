// RUN: tile-opt %s --pass-pipeline="builtin.module(gpu.module(tile-lower-nvgpu))" | FileCheck %s
// RUN: tile-opt %s --pass-pipeline="builtin.module(gpu.module(tile-lower-nvgpu{vector-atomics=false}))" | FileCheck %s --check-prefix=SCALAR

// tile-lower-nvgpu lowers tile.atomic_addf at element (i, j) of a strided
// memref (offset 6, rows 16 apart; a 32-bit index, as the kernels have):
// the address base + 6 + 16 i + j, in the global address space, then one
// red.global.add.v2.f32 / .v4.f32 of the vector's elements.
// CHECK-LABEL: func.func @pairs(
// CHECK-SAME: %[[V2:[^:]*]]: vector<2xf32>, %[[V4:[^:]*]]: vector<4xf32>, %[[S:[^:]*]]: memref<4x8xf32, strided<[16, 1], offset: 6>>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK-DAG: %[[J32:.*]] = builtin.unrealized_conversion_cast %[[J]] : index to i32
// CHECK-DAG: %[[I32:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i32
// CHECK: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[S]] : {{.*}} to !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>
// CHECK: %[[BASE:.*]] = llvm.extractvalue %[[DESC]][1]
// CHECK: %[[C6:.*]] = llvm.mlir.constant(6 : index) : i32
// CHECK: %[[ORIGIN:.*]] = llvm.getelementptr %[[BASE]][%[[C6]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : index) : i32
// CHECK: %[[ROW:.*]] = llvm.mul %[[I32]], %[[C16]] : i32
// CHECK: %[[AT:.*]] = llvm.add %[[ROW]], %[[J32]] : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr %[[ORIGIN]][%[[AT]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[E0:.*]] = llvm.extractelement %[[V2]][%[[C0]] : i32] : vector<2xf32>
// CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[E1:.*]] = llvm.extractelement %[[V2]][%[[C1]] : i32] : vector<2xf32>
// CHECK: %[[GLOBAL:.*]] = llvm.addrspacecast %[[PTR]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: llvm.inline_asm has_side_effects "red.global.add.v2.f32 [$0], {$1, $2};", "l,f,f,~{memory}" %[[GLOBAL]], %[[E0]], %[[E1]] : (!llvm.ptr<1>, f32, f32) -> ()
// CHECK: llvm.inline_asm has_side_effects "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f,~{memory}" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<1>, f32, f32, f32, f32) -> ()
// CHECK-NOT: tile.atomic_addf

// With vector-atomics=false: one atomic add per element, at the address
// and the next element.
// SCALAR-LABEL: func.func @pairs(
// SCALAR: %[[ORIGIN:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// SCALAR: %[[PTR:.*]] = llvm.getelementptr %[[ORIGIN]][%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// SCALAR: %[[E0:.*]] = llvm.extractelement
// SCALAR: %[[E1:.*]] = llvm.extractelement
// SCALAR: llvm.atomicrmw fadd %[[PTR]], %[[E0]] monotonic : !llvm.ptr, f32
// SCALAR: %[[NEXT:.*]] = llvm.getelementptr %[[PTR]][1] : (!llvm.ptr) -> !llvm.ptr, f32
// SCALAR: llvm.atomicrmw fadd %[[NEXT]], %[[E1]] monotonic : !llvm.ptr, f32
// SCALAR: llvm.getelementptr %{{.*}}[3] : (!llvm.ptr) -> !llvm.ptr, f32
// SCALAR-NOT: llvm.inline_asm
// SCALAR-NOT: tile.atomic_addf
gpu.module @m attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
  func.func @pairs(%v: vector<2xf32>, %v4: vector<4xf32>, %S: memref<4x8xf32, strided<[16, 1], offset: 6>>, %i: index, %j: index) {
    tile.atomic_addf %v, %S[%i, %j] : vector<2xf32>, memref<4x8xf32, strided<[16, 1], offset: 6>>
    tile.atomic_addf %v4, %S[%i, %j] : vector<4xf32>, memref<4x8xf32, strided<[16, 1], offset: 6>>
    return
  }
}
