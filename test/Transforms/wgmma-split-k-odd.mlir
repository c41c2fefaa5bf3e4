// Split-K on the wgmma strategy with an odd N (200x73x520 bf16, f32 C): a
// pair of accumulator columns can straddle C's last column and start at an
// odd element, so the adds go one element at a time (memref.atomic_rmw,
// each under its own column guard), C's accesses 4-byte aligned; with an
// even N they are pairs (tile.atomic_addf, test/Transforms/wgmma-split-k.mlir).
// RUN: tile-opt %s --tile-configure="block=128,128,64 warp=64,128 thread=64,128 stages=3 split-k=4 occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | FileCheck %s

// CHECK-LABEL: gpu.func @acc_matmul0
// CHECK-SAME: tile.c_alignment = 4
// CHECK: } {tile.k_loop}
// CHECK-NOT: tile.atomic_addf
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[COLOK:.*]] = arith.cmpi ult, %[[COL:.*]], %[[N:.*]] : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[COL]], %[[ONE]] : index
// CHECK-NEXT: %[[NEXTOK:.*]] = arith.cmpi ult, %[[NEXT]], %[[N]] : index
// CHECK: scf.if
// CHECK: %[[V0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<2xf32>
// CHECK-NEXT: memref.atomic_rmw addf %[[V0]], %arg2[%{{.*}}, %{{.*}}] : (f32, memref<200x73xf32>) -> f32
// CHECK: scf.if
// CHECK: %[[V1:.*]] = vector.extract %{{.*}}[1] : f32 from vector<2xf32>
// CHECK-NEXT: memref.atomic_rmw addf %[[V1]], %arg2[%{{.*}}, %{{.*}}] : (f32, memref<200x73xf32>) -> f32
// CHECK-NOT: tile.atomic_addf
// CHECK: gpu.return
func.func @acc(%A: memref<200x520xbf16>, %B: memref<520x73xbf16>, %C: memref<200x73xf32>) {
  linalg.matmul ins(%A, %B : memref<200x520xbf16>, memref<520x73xbf16>)
                outs(%C : memref<200x73xf32>)
  return
}
