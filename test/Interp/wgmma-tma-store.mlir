// C written by TMA stores (store = tma), run on the CPU by tile-interp
// against a float64 reference: each consumer warpgroup stages its tile in
// boxes of 64 rows by 128 bytes in two shared-memory buffers and its
// leader stores each box with the TMA. tile-interp reads a store's source
// at issue (checking that its writers are ordered before the store, at the
// warpgroup's named barrier, and fenced for the async proxy), writes the
// box's elements inside C (none past its edges: C's guard bytes and
// padding are checked), and when a cp.async.bulk.wait_group completes the
// store it checks that nobody wrote the source in between; a thread that
// returns with a store not waited for is an error. The forms of
// Inputs/wgmma-tma-store.mlir under four configs: the cost model's tiles,
// 64x64 blocks (one box of a 16-bit C per tile, two of an f32 one), and
// persistent 128x128 and 128x256 blocks walking several tiles each (the
// buffers reused from tile to tile).
// RUN: tile-opt %S/Inputs/wgmma-tma-store.mlir --tile-matmul-tiling="store=tma" | tile-interp | FileCheck %s
// The kernels after tile-wgmma (one slot, no producer loop yet: the
// staging buffers after the whole ring's bytes, which the launch requests
// from there on).
// RUN: tile-opt %S/Inputs/wgmma-tma-store.mlir --tile-fuse-epilogues --tile-configure="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma store=tma" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | tile-interp | FileCheck %s --check-prefix=STAGE
// RUN: tile-opt %S/Inputs/wgmma-tma-store.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma store=tma" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tma-store.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,32 stages=2 occupancy=1 copy=tma persistent=true persistent-blocks=2 store=tma" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-tma-store.mlir --tile-matmul-tiling="block=128,256,64 warp=64,256 thread=64,128 stages=2 copy=tma persistent=true persistent-blocks=1 store=tma" | tile-interp | FileCheck %s
// CHECK: PASS acc_f32_matmul0 m=70 n=72 k=136 max-rel-err=
// CHECK: PASS fill_f16_matmul0 m=45 n=40 k=72 max-rel-err=
// CHECK: PASS bias_relu_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS batched_matmul0 batch=3 m=40 n=48 k=56 max-rel-err=
// CHECK: PASS strided_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS dynamic_matmul0 m=130 n=72 k=136 max-rel-err={{.*}}64-bit index)
// CHECK: PASS nt_matmul0 m=100 n=72 k=40 max-rel-err=
// CHECK: PASS one_row_matmul0 m=1 n=64 k=24 max-rel-err=
// CHECK-NOT: FAIL
// STAGE: PASS acc_f32_matmul0 m=70 n=72 k=136 max-rel-err=
// STAGE: PASS fill_f16_matmul0 m=45 n=40 k=72 max-rel-err=
// STAGE: PASS bias_relu_matmul0 m=130 n=136 k=72 max-rel-err=
// STAGE: PASS batched_matmul0 batch=3 m=40 n=48 k=56 max-rel-err=
// STAGE: PASS strided_matmul0 m=130 n=136 k=72 max-rel-err=
// STAGE: PASS nt_matmul0 m=100 n=72 k=40 max-rel-err=
// STAGE: PASS one_row_matmul0 m=1 n=64 k=24 max-rel-err=
// STAGE-NOT: FAIL
