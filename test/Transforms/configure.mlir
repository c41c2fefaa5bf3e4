// RUN: tile-opt %s -split-input-file --tile-configure > %t.model
// RUN: FileCheck %s < %t.model
// Every config the pass writes passes the #tile.config verifier when it is
// parsed back:
// RUN: tile-opt %t.model -split-input-file | FileCheck %s

// Options: each overrides one field, of the cost model's config and of a
// config written on the op.
// RUN: tile-opt %s -split-input-file --tile-configure="block=64,64,16 warp=32,32 thread=4,8" > %t.tiles
// RUN: FileCheck %s --check-prefix=TILES < %t.tiles
// RUN: tile-opt %s -split-input-file --tile-configure=stages=1 > %t.stages
// RUN: FileCheck %s --check-prefix=STAGES < %t.stages
// RUN: tile-opt %s -split-input-file --tile-configure=swizzle=4 > %t.swizzle
// RUN: FileCheck %s --check-prefix=SWIZZLE < %t.swizzle
// RUN: tile-opt %s -split-input-file --tile-configure=smem=none > %t.none
// RUN: FileCheck %s --check-prefix=NONE < %t.none
// RUN: tile-opt %s -split-input-file --tile-configure=smem=pad8 > %t.pad8
// RUN: FileCheck %s --check-prefix=PAD8 < %t.pad8
// RUN: tile-opt %s -split-input-file --tile-configure=prefetch=false > %t.noprefetch
// RUN: FileCheck %s --check-prefix=NOPREFETCH < %t.noprefetch
// The cost model's config without options (%t.model) is compared field by
// field with the ones chosen with one option, so that this does not depend on
// what the cost model picks:
// RUN: cat %t.model %t.tiles %t.stages %t.swizzle %t.none %t.pad8 %t.noprefetch | FileCheck %s --check-prefix=ONE-FIELD

// The tuning table (Inputs/tuning-table.json) has one entry, for 512x256x128
// on sm_90, with a config the cost model never picks (stages = 1,
// swizzle = 2, pad(2), no prefetch).
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table.json" > %t.table
// RUN: FileCheck %s --check-prefix=TABLE < %t.table
// Other shapes get what they get without the table:
// RUN: cat %t.model %t.table | FileCheck %s --check-prefix=NOT-IN-TABLE
// So does every shape on another chip:
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_80 > %t.model80
// RUN: tile-opt %s -split-input-file --tile-configure="chip=sm_80 tuning-table=%S/Inputs/tuning-table.json" > %t.table80
// RUN: cat %t.model80 %t.table80 | FileCheck %s --check-prefix=OTHER-CHIP
// An option still overrides its field of the table's config:
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table.json prefetch=true" | FileCheck %s --check-prefix=TABLE-OPTION
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-occupancy.json swizzle=4" | FileCheck %s --check-prefix=TABLE-KEEP
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-occupancy.json block=64,128,16 warp=16,64 thread=4,8" | FileCheck %s --check-prefix=TABLE-RETILE
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=%S/Inputs/tuning-table-occupancy.json block=64,128,16 warp=16,64 thread=4,8 occupancy=2 split-k=4" | FileCheck %s --check-prefix=TABLE-RETILE-SET

// The cost model chooses the block, warp and thread tiles and the stage
// count (2, through registers, or 3, a cp.async ring); the other fields keep
// the #tile.config defaults (see Dialect/config-roundtrip.mlir).
// CHECK-LABEL: func.func @matmul_gets_config(
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}
// CHECK-SAME: ins(%arg0, %arg1 : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%arg2 : memref<4096x4096xf32>)
// CHECK-NEXT: return

// Without options (the first file of the ONE-FIELD run), then with each
// option in turn: only the option's field changes.
// ONE-FIELD-LABEL: func.func @matmul_gets_config(
// ONE-FIELD-NEXT: linalg.matmul {tile.config = #tile.config<block = [[BLK:\[[0-9, ]+\]]], warp = [[WRP:\[[0-9, ]+\]]], thread = [[THR:\[[0-9, ]+\]]], stages = [[STG:[0-9]+]], swizzle = [[GRP:[0-9]+]], smem = [[LAYOUT:[a-z]+(\([0-9]+\))?]], prefetch = [[PF:true|false]]{{(, occupancy = [0-9]+)?}}>}
// ONE-FIELD-LABEL: func.func @matmul_gets_config(
// ONE-FIELD-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 64, 16], warp = [32, 32], thread = [4, 8], stages = [[STG]], swizzle = [[GRP]], smem = [[LAYOUT]], prefetch = [[PF]]{{(, occupancy = [0-9]+)?}}>}
// ONE-FIELD-LABEL: func.func @matmul_gets_config(
// ONE-FIELD-NEXT: linalg.matmul {tile.config = #tile.config<block = [[BLK]], warp = [[WRP]], thread = [[THR]], stages = 1, swizzle = [[GRP]], smem = [[LAYOUT]], prefetch = [[PF]]{{(, occupancy = [0-9]+)?}}>}
// ONE-FIELD-LABEL: func.func @matmul_gets_config(
// ONE-FIELD-NEXT: linalg.matmul {tile.config = #tile.config<block = [[BLK]], warp = [[WRP]], thread = [[THR]], stages = [[STG]], swizzle = 4, smem = [[LAYOUT]], prefetch = [[PF]]{{(, occupancy = [0-9]+)?}}>}
// ONE-FIELD-LABEL: func.func @matmul_gets_config(
// ONE-FIELD-NEXT: linalg.matmul {tile.config = #tile.config<block = [[BLK]], warp = [[WRP]], thread = [[THR]], stages = [[STG]], swizzle = [[GRP]], smem = none, prefetch = [[PF]]{{(, occupancy = [0-9]+)?}}>}
// ONE-FIELD-LABEL: func.func @matmul_gets_config(
// ONE-FIELD-NEXT: linalg.matmul {tile.config = #tile.config<block = [[BLK]], warp = [[WRP]], thread = [[THR]], stages = [[STG]], swizzle = [[GRP]], smem = pad(8), prefetch = [[PF]]{{(, occupancy = [0-9]+)?}}>}
// ONE-FIELD-LABEL: func.func @matmul_gets_config(
// ONE-FIELD-NEXT: linalg.matmul {tile.config = #tile.config<block = [[BLK]], warp = [[WRP]], thread = [[THR]], stages = [[STG]], swizzle = [[GRP]], smem = [[LAYOUT]], prefetch = false{{(, occupancy = [0-9]+)?}}>}
func.func @matmul_gets_config(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>,
                              %c: memref<4096x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>)
                outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// A config written on the op is kept as it is.
// CHECK-LABEL: func.func @user_config_kept(
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 1, swizzle = 2, smem = none, prefetch = false>}
// CHECK-SAME: ins(%arg0, %arg1 : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%arg2 : memref<4096x4096xf32>)
func.func @user_config_kept(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>,
                            %c: memref<4096x4096xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [64, 128, 16],
                     warp = [32, 64], thread = [8, 8], stages = 1, swizzle = 2,
                     smem = none, prefetch = false>}
    ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>)
    outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// Each option overrides its one field of a config written on the op (one
// whose fields all differ from the options' values).
// CHECK-LABEL: func.func @options_beat_user_config(
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 1, smem = pad(4), prefetch = true{{(, split_k = [0-9]+)?}}>}
// TILES-LABEL: func.func @options_beat_user_config(
// TILES-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 64, 16], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 1, smem = pad(4), prefetch = true>}
// STAGES-LABEL: func.func @options_beat_user_config(
// STAGES-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 1, swizzle = 1, smem = pad(4), prefetch = true>}
// SWIZZLE-LABEL: func.func @options_beat_user_config(
// SWIZZLE-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 4, smem = pad(4), prefetch = true>}
// NONE-LABEL: func.func @options_beat_user_config(
// NONE-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 1, smem = none, prefetch = true>}
// PAD8-LABEL: func.func @options_beat_user_config(
// PAD8-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 1, smem = pad(8), prefetch = true>}
// NOPREFETCH-LABEL: func.func @options_beat_user_config(
// NOPREFETCH-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 1, smem = pad(4), prefetch = false>}
func.func @options_beat_user_config(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>,
                                    %c: memref<4096x4096xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8],
                     warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 1,
                     smem = pad(4), prefetch = true>}
    ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>)
    outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @tensor_matmul_gets_config(
// CHECK-NEXT: %[[R:.+]] = linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<256x512xf32>, tensor<512x128xf32>) outs(%arg2 : tensor<256x128xf32>) -> tensor<256x128xf32>
// CHECK-NEXT: return %[[R]] : tensor<256x128xf32>
func.func @tensor_matmul_gets_config(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>,
                                     %c: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x128xf32>)
                     outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// -----

// The pass leaves everything but linalg.matmul alone.
// CHECK-LABEL: func.func @no_matmul_unchanged(
// CHECK-NOT: tile.config
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%arg0 : memref<64x64xf32>)
// CHECK-NEXT: linalg.copy ins(%arg0 : memref<64x64xf32>) outs(%arg1 : memref<64x64xf32>)
// CHECK-NEXT: return
// CHECK-NOT: tile.config
func.func @no_matmul_unchanged(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<64x64xf32>)
  linalg.copy ins(%a : memref<64x64xf32>) outs(%b : memref<64x64xf32>)
  return
}

// -----

// Each matmul gets its own config, whatever its shape (including sizes that
// no tile divides).
// CHECK-LABEL: func.func @matmuls_of_different_shapes(
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}
// CHECK-SAME: ins(%arg0, %arg1 : memref<2048x1024xf32>, memref<1024x2048xf32>)
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}
// CHECK-SAME: ins(%arg3, %arg4 : memref<64x32xf32>, memref<32x48xf32>)
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}
// CHECK-SAME: ins(%arg6, %arg7 : memref<1000x300xf32>, memref<300x600xf32>)
// CHECK-NEXT: return
func.func @matmuls_of_different_shapes(
    %a0: memref<2048x1024xf32>, %b0: memref<1024x2048xf32>, %c0: memref<2048x2048xf32>,
    %a1: memref<64x32xf32>, %b1: memref<32x48xf32>, %c1: memref<64x48xf32>,
    %a2: memref<1000x300xf32>, %b2: memref<300x600xf32>, %c2: memref<1000x600xf32>) {
  linalg.matmul ins(%a0, %b0 : memref<2048x1024xf32>, memref<1024x2048xf32>)
                outs(%c0 : memref<2048x2048xf32>)
  linalg.matmul ins(%a1, %b1 : memref<64x32xf32>, memref<32x48xf32>)
                outs(%c1 : memref<64x48xf32>)
  linalg.matmul ins(%a2, %b2 : memref<1000x300xf32>, memref<300x600xf32>)
                outs(%c2 : memref<1000x600xf32>)
  return
}

// -----

// The choice depends on the problem only: two matmuls of one shape get the
// same config.
// CHECK-LABEL: func.func @same_shape_same_config(
// CHECK-NEXT: linalg.matmul {tile.config = [[CONFIG:#tile.config<[^>]+>]]}
// CHECK-NEXT: linalg.matmul {tile.config = [[CONFIG]]}
// CHECK-NEXT: return
func.func @same_shape_same_config(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                                  %c: memref<1024x1024xf32>, %d: memref<1024x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>)
                outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%c, %b : memref<1024x1024xf32>, memref<1024x1024xf32>)
                outs(%d : memref<1024x1024xf32>)
  return
}

// -----

// Matmuls nested below the root are configured too.
// CHECK-LABEL: func.func @matmul_in_loop(
// CHECK: scf.for
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}
func.func @matmul_in_loop(%a: memref<128x128xf32>, %b: memref<128x128xf32>,
                          %c: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>)
                  outs(%c : memref<128x128xf32>)
  }
  return
}

// -----

// An exact match in the tuning table takes the table's config...
// TABLE-LABEL: func.func @matmul_in_table(
// TABLE-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 1, swizzle = 2, smem = pad(2), prefetch = false, occupancy = 4>}
// ...which the cost model does not pick for this shape:
// CHECK-LABEL: func.func @matmul_in_table(
// CHECK-NEXT: linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?(, split_k = [0-9]+)?}}>}

// The table is for sm_90: on sm_80 the matmul gets the same config with the
// table (second file of the OTHER-CHIP run) as without it (first file).
// OTHER-CHIP-LABEL: func.func @matmul_in_table(
// OTHER-CHIP-NEXT: linalg.matmul {tile.config = [[SM80:#tile.config<[^>]+>]]}
// OTHER-CHIP-LABEL: func.func @matmul_in_table(
// OTHER-CHIP-NEXT: linalg.matmul {tile.config = [[SM80]]}

// An option overrides its field of the table's config.
// TABLE-OPTION-LABEL: func.func @matmul_in_table(
// TABLE-OPTION-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 1, swizzle = 2, smem = pad(2), prefetch = true, occupancy = 4>}
// Options that keep the entry's tile sizes keep its occupancy and split-K;
// options that change them drop both (then the occupancy hint applies:
// 64x128 blocks of 4x8 lane tiles are 256 threads, 2 blocks per SM by the
// model), unless they are given too.
// TABLE-KEEP-LABEL: func.func @matmul_in_table(
// TABLE-KEEP-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 4, smem = pad(4), prefetch = true, occupancy = 3, split_k = 2>}
// TABLE-RETILE-LABEL: func.func @matmul_in_table(
// TABLE-RETILE-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [16, 64], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true, occupancy = 2>}
// TABLE-RETILE-SET-LABEL: func.func @matmul_in_table(
// TABLE-RETILE-SET-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [16, 64], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true, occupancy = 2, split_k = 4>}
func.func @matmul_in_table(%a: memref<512x128xf32>, %b: memref<128x256xf32>,
                           %c: memref<512x256xf32>) {
  linalg.matmul ins(%a, %b : memref<512x128xf32>, memref<128x256xf32>)
                outs(%c : memref<512x256xf32>)
  return
}

// -----

// The table matches tensor matmuls too.
// TABLE-LABEL: func.func @tensor_matmul_in_table(
// TABLE-NEXT: linalg.matmul {tile.config = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 1, swizzle = 2, smem = pad(2), prefetch = false, occupancy = 4>}
func.func @tensor_matmul_in_table(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>,
                                  %c: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x128xf32>, tensor<128x256xf32>)
                     outs(%c : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %r : tensor<512x256xf32>
}

// -----

// Only an exact match counts: 256x512x128 (M and N of the table's entry
// swapped) gets the same config with the table (second file of the
// NOT-IN-TABLE run) as without it (first file).
// NOT-IN-TABLE-LABEL: func.func @matmul_not_in_table(
// NOT-IN-TABLE-NEXT: linalg.matmul {tile.config = [[MODEL:#tile.config<[^>]+>]]}
// NOT-IN-TABLE-LABEL: func.func @matmul_not_in_table(
// NOT-IN-TABLE-NEXT: linalg.matmul {tile.config = [[MODEL]]}
// TABLE-LABEL: func.func @matmul_not_in_table(
// TABLE-NEXT: linalg.matmul {tile.config = #tile.config<block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], warp = [{{[0-9]+}}, {{[0-9]+}}], thread = [{{[0-9]+}}, {{[0-9]+}}], stages = {{[23]}}, swizzle = 8, smem = pad(4), prefetch = true{{(, occupancy = [0-9]+)?}}>}
func.func @matmul_not_in_table(%a: memref<256x128xf32>, %b: memref<128x512xf32>,
                               %c: memref<256x512xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xf32>, memref<128x512xf32>)
                outs(%c : memref<256x512xf32>)
  return
}

// -----

// A config written on the op beats the table.
// TABLE-LABEL: func.func @user_config_beats_table(
// TABLE-NEXT: linalg.matmul {tile.config = #tile.config<block = [32, 32, 32], warp = [16, 32], thread = [4, 4], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>}
func.func @user_config_beats_table(%a: memref<512x128xf32>, %b: memref<128x256xf32>,
                                   %c: memref<512x256xf32>) {
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 32], warp = [16, 32],
                     thread = [4, 4]>}
    ins(%a, %b : memref<512x128xf32>, memref<128x256xf32>)
    outs(%c : memref<512x256xf32>)
  return
}

// tuning-table=none leaves every choice to the cost model: the same configs
// as a table without entries.
// RUN: tile-opt %s --tile-configure="tuning-table=none" -o %t.none.mlir
// RUN: tile-opt %s --tile-configure="tuning-table=%S/Inputs/tuning-table-empty.json" -o %t.empty.mlir
// RUN: diff %t.none.mlir %t.empty.mlir

// -----

// occupancy-hint (on by default) gives a config chosen by the table or the
// cost model the blocks per SM the cost model predicts for it, a register
// budget for ptxas: 128x128x8 blocks of 8x8 lanes are 256 threads, 2 per SM
// at 128 registers each. An option's occupancy wins; occupancy-hint=false
// leaves it out; a config written on the op is kept as written (above).
// RUN: tile-opt %s -split-input-file --tile-configure="block=128,128,8 warp=32,64 thread=8,8" | FileCheck %s --check-prefix=HINT
// RUN: tile-opt %s -split-input-file --tile-configure="block=128,128,8 warp=32,64 thread=8,8 occupancy=1" | FileCheck %s --check-prefix=HINT-OPTION
// RUN: tile-opt %s -split-input-file --tile-configure="block=128,128,8 warp=32,64 thread=8,8 occupancy-hint=false" | FileCheck %s --check-prefix=NO-HINT
// HINT-LABEL: func.func @occupancy_hint(
// HINT-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true, occupancy = 2>}
// HINT-OPTION-LABEL: func.func @occupancy_hint(
// HINT-OPTION-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true, occupancy = 1>}
// NO-HINT-LABEL: func.func @occupancy_hint(
// NO-HINT-NEXT: linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>}
func.func @occupancy_hint(%a: memref<4095x4093xf32>, %b: memref<4093x4097xf32>,
                          %c: memref<4095x4097xf32>) {
  linalg.matmul ins(%a, %b : memref<4095x4093xf32>, memref<4093x4097xf32>)
                outs(%c : memref<4095x4097xf32>)
  return
}
