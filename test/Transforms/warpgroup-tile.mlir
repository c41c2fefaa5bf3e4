// RUN: tile-opt %s -split-input-file --tile-configure --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --canonicalize --cse | FileCheck %s

// tile-warpgroup-tile: consumer warpgroup g = tid / 128 owns rows
// (g / (BN/WN)) * WM and columns (g mod (BN/WN)) * WN of the block tile;
// its first thread computes the warpgroup's part of the slab product. The
// producer warpgroup (g = consumers, with specialize) computes nothing.

// Two consumers along M (128x128 blocks of 64x128 warpgroups).
// CHECK-LABEL: gpu.func @along_m_matmul0
// CHECK-SAME: tile.stage = "warpgroup"
// CHECK: %[[ROWS:.+]] = arith.minui %{{.+}}, %c128
// CHECK: %[[COLS:.+]] = arith.minui %{{.+}}, %c128
// CHECK: %[[CBLK:.+]] = memref.subview %arg2
// CHECK: %[[WG:.+]] = arith.divui %thread_id_x, %c128
// CHECK: %[[IN:.+]] = arith.remui %thread_id_x, %c128
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[IN]], %c0
// CHECK: %[[CONSUMER:.+]] = arith.cmpi ult, %[[WG]], %c2
// CHECK: %[[LEADER:.+]] = arith.andi %[[FIRST]], %[[CONSUMER]]
// CHECK: %[[ROW0:.+]] = arith.muli %[[WG]], %c64
// CHECK: %[[ROFF:.+]] = arith.minui %[[ROW0]], %[[ROWS]]
// CHECK: %[[RLEFT:.+]] = arith.subi %[[ROWS]], %[[ROFF]]
// CHECK: %[[WROWS:.+]] = arith.minui %[[RLEFT]], %c64
// CHECK: %[[WCOLS:.+]] = arith.minui %[[COLS]], %c128
// CHECK: %[[WC:.+]] = memref.subview %[[CBLK]][%[[ROFF]], 0] [%[[WROWS]], %[[WCOLS]]]
// CHECK: scf.for
// CHECK: %[[VA:.+]] = memref.view {{.*}} {tile.shared = "A"}
// CHECK: %[[VB:.+]] = memref.view {{.*}} {tile.shared = "B"}
// CHECK: scf.if %[[LEADER]] {
// CHECK: scf.for %[[I:.+]] = %c0 to %[[WROWS]] step %c1 {
// CHECK: scf.for %[[J:.+]] = %c0 to %[[WCOLS]] step %c1 {
// CHECK: memref.load %[[WC]][%[[I]], %[[J]]]
// The warpgroup's rows of the A slab start at its origin.
// CHECK: %[[RA:.+]] = arith.addi %[[ROW0]], %[[I]]
// CHECK: memref.load %[[VA]][%[[RA]], %{{.+}}]
// CHECK: memref.load %[[VB]]
// CHECK: memref.store %{{.+}}, %[[WC]][%[[I]], %[[J]]]
// CHECK: } {tile.slab_compute}
func.func @along_m(%A: memref<200x128xbf16>, %B: memref<128x200xbf16>, %C: memref<200x200xf32>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3>}
    ins(%A, %B : memref<200x128xbf16>, memref<128x200xbf16>) outs(%C : memref<200x200xf32>)
  return
}

// -----

// Two consumers along N (64x256 blocks of 64x128 warpgroups), full tiles:
// the columns of warpgroup g start at (g mod 2) * 128, in C and in B.
// CHECK-LABEL: gpu.func @along_n_matmul0
// CHECK: %[[WG:.+]] = arith.divui %thread_id_x, %c128
// CHECK: %[[CONSUMER:.+]] = arith.cmpi ult, %[[WG]], %c2
// CHECK: %[[WM:.+]] = arith.divui %[[WG]], %c2
// CHECK: %[[WN:.+]] = arith.remui %[[WG]], %c2
// CHECK: %[[ROW0:.+]] = arith.muli %[[WM]], %c64
// CHECK: %[[COL0:.+]] = arith.muli %[[WN]], %c128
// CHECK: %[[WC:.+]] = memref.subview %{{.+}}[%[[ROW0]], %[[COL0]]] [64, 128]
// CHECK: scf.for %[[I:.+]] = %c0 to %c64 step %c1 {
// CHECK: scf.for %[[J:.+]] = %c0 to %c128 step %c1 {
// CHECK: memref.load %[[WC]][%[[I]], %[[J]]]
// CHECK: %[[RA:.+]] = arith.addi %[[ROW0]], %[[I]]
// CHECK: %[[CB:.+]] = arith.addi %[[COL0]], %[[J]]
// CHECK: %[[CHUNK:.+]] = arith.divui %[[CB]], %c64
func.func @along_n(%A: memref<128x128xbf16>, %B: memref<128x512xbf16>, %C: memref<128x512xbf16>) {
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 256, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 2>}
    ins(%A, %B : memref<128x128xbf16>, memref<128x512xbf16>) outs(%C : memref<128x512xbf16>)
  return
}
