// RUN: tile-opt %s --tile-dynamic-layout-params --split-input-file | FileCheck %s

// A parameter with a dynamic offset and row stride, one with a static
// offset and a dynamic batch and row stride, one without a layout: the
// first two become bare memrefs of their shapes, and the kernel takes one
// i64 per dynamic field after its other parameters (A's offset, A's row
// stride, B's batch stride, B's row stride), the body rebuilding each
// operand with memref.reinterpret_cast. The host passes each memref's base
// buffer (as the plain type) and appends the values, in the same order.

// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[A:.*]]: memref<8x16xf32, strided<[?, 1], offset: ?>>, %[[B:.*]]: memref<2x16x4xf32, strided<[?, ?, 1], offset: 12>>, %[[C:.*]]: memref<8x4xf32>)
// CHECK: %[[BASE_A:.*]], %[[OFF_A:.*]], %{{.*}}:2, %[[STR_A:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[BARE_A:.*]] = memref.reinterpret_cast %[[BASE_A]] to offset: [0], sizes: [8, 16], strides: [16, 1] : memref<f32> to memref<8x16xf32>
// CHECK: %[[V0:.*]] = arith.index_cast %[[OFF_A]] : index to i64
// CHECK: %[[V1:.*]] = arith.index_cast %[[STR_A]]#0 : index to i64
// CHECK: %[[BASE_B:.*]], %{{.*}}, %{{.*}}:3, %[[STR_B:.*]]:3 = memref.extract_strided_metadata %[[B]]
// CHECK: %[[BARE_B:.*]] = memref.reinterpret_cast %[[BASE_B]] to offset: [0], sizes: [2, 16, 4], strides: [64, 4, 1] : memref<f32> to memref<2x16x4xf32>
// CHECK: %[[V2:.*]] = arith.index_cast %[[STR_B]]#0 : index to i64
// CHECK: %[[V3:.*]] = arith.index_cast %[[STR_B]]#1 : index to i64
// CHECK: gpu.launch_func {{ *}}@k::@k {{.*}} args(%[[BARE_A]] : memref<8x16xf32>, %[[BARE_B]] : memref<2x16x4xf32>, %[[C]] : memref<8x4xf32>, %[[V0]] : i64, %[[V1]] : i64, %[[V2]] : i64, %[[V3]] : i64)

// CHECK: gpu.func @k(%[[KA:.*]]: memref<8x16xf32> {llvm.noalias, llvm.readonly}, %[[KB:.*]]: memref<2x16x4xf32> {llvm.readonly}, %[[KC:.*]]: memref<8x4xf32>, %[[P0:.*]]: i64, %[[P1:.*]]: i64, %[[P2:.*]]: i64, %[[P3:.*]]: i64) kernel
// CHECK: %[[I0:.*]] = arith.index_cast %[[P0]] : i64 to index
// CHECK: %[[I1:.*]] = arith.index_cast %[[P1]] : i64 to index
// CHECK: %[[VA:.*]] = memref.reinterpret_cast %[[KA]] to offset: [%[[I0]]], sizes: [8, 16], strides: [%[[I1]], 1] : memref<8x16xf32> to memref<8x16xf32, strided<[?, 1], offset: ?>>
// CHECK: %[[I2:.*]] = arith.index_cast %[[P2]] : i64 to index
// CHECK: %[[I3:.*]] = arith.index_cast %[[P3]] : i64 to index
// CHECK: %[[VB:.*]] = memref.reinterpret_cast %[[KB]] to offset: [12], sizes: [2, 16, 4], strides: [%[[I2]], %[[I3]], 1] : memref<2x16x4xf32> to memref<2x16x4xf32, strided<[?, ?, 1], offset: 12>>
// CHECK: memref.load %[[VA]]
// CHECK: memref.load %[[VB]]
// CHECK: memref.store %{{.*}}, %[[KC]]
module attributes {gpu.container_module} {
  func.func @host(%a: memref<8x16xf32, strided<[?, 1], offset: ?>>, %b: memref<2x16x4xf32, strided<[?, ?, 1], offset: 12>>, %c: memref<8x4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<8x16xf32, strided<[?, 1], offset: ?>>, %b : memref<2x16x4xf32, strided<[?, ?, 1], offset: 12>>, %c : memref<8x4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @k(%a: memref<8x16xf32, strided<[?, 1], offset: ?>> {llvm.noalias, llvm.readonly},
                %b: memref<2x16x4xf32, strided<[?, ?, 1], offset: 12>> {llvm.readonly},
                %c: memref<8x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = memref.load %a[%c1, %c0] : memref<8x16xf32, strided<[?, 1], offset: ?>>
      %y = memref.load %b[%c1, %c0, %c1] : memref<2x16x4xf32, strided<[?, ?, 1], offset: 12>>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%c0, %c1] : memref<8x4xf32>
      gpu.return
    }
  }
}

// -----

// Static layouts (and no layout) are bare pointers already: nothing changes.
// CHECK-LABEL: func.func @static_host(
// CHECK-NOT: extract_strided_metadata
// CHECK: gpu.launch_func {{ *}}@s::@s {{.*}} args(%{{.*}} : memref<8x16xf32, strided<[32, 1], offset: 4>>, %{{.*}} : memref<8x4xf32>)
// CHECK: gpu.func @s(%{{.*}}: memref<8x16xf32, strided<[32, 1], offset: 4>>, %{{.*}}: memref<8x4xf32>) kernel
// CHECK-NOT: reinterpret_cast
module attributes {gpu.container_module} {
  func.func @static_host(%a: memref<8x16xf32, strided<[32, 1], offset: 4>>, %c: memref<8x4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @s::@s blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<8x16xf32, strided<[32, 1], offset: 4>>, %c : memref<8x4xf32>)
    return
  }
  gpu.module @s {
    gpu.func @s(%a: memref<8x16xf32, strided<[32, 1], offset: 4>>, %c: memref<8x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0, %c0] : memref<8x16xf32, strided<[32, 1], offset: 4>>
      memref.store %x, %c[%c0, %c0] : memref<8x4xf32>
      gpu.return
    }
  }
}
