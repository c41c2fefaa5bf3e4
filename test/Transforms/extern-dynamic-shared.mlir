// RUN: tile-opt %s --pass-pipeline="builtin.module(gpu.module(tile-extern-dynamic-shared))" | FileCheck %s

// The zero-sized shared global MLIR's lowering makes for
// gpu.dynamic_shared_memory becomes an external declaration (PTX
// ".extern .shared ... []"); other globals are left alone.

// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK: llvm.mlir.global internal @zero_sized_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @zero_sized_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
  }
}
