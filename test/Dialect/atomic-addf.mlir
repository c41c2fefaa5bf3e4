// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s

// tile.atomic_addf prints as it parses: a vector of 2 or 4 f32 added at
// indices of an f32 memref whose innermost stride is 1 (strided ones too).
// CHECK-LABEL: func.func @pairs(
// CHECK-SAME: %[[V2:.*]]: vector<2xf32>, %[[V4:.*]]: vector<4xf32>, %[[C:.*]]: memref<200x300xf32>, %[[S:.*]]: memref<4x8xf32, strided<[16, 1], offset: 6>>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: tile.atomic_addf %[[V2]], %[[C]][%[[I]], %[[J]]] : vector<2xf32>, memref<200x300xf32>
// CHECK: tile.atomic_addf %[[V4]], %[[S]][%[[I]], %[[J]]] : vector<4xf32>, memref<4x8xf32, strided<[16, 1], offset: 6>>
func.func @pairs(%v2: vector<2xf32>, %v4: vector<4xf32>, %C: memref<200x300xf32>,
                 %S: memref<4x8xf32, strided<[16, 1], offset: 6>>, %i: index, %j: index) {
  tile.atomic_addf %v2, %C[%i, %j] : vector<2xf32>, memref<200x300xf32>
  tile.atomic_addf %v4, %S[%i, %j] : vector<4xf32>, memref<4x8xf32, strided<[16, 1], offset: 6>>
  return
}
