// 192-column blocks (the tensor-core model proposes them where 128x256
// tiles fill less than one wave): three 64-column chunks of B per slab,
// m64n192k16 instructions or three m64n64k16, on the problems of
// Inputs/wgmma-n192.mlir (partial tiles in both dimensions), run by
// tile-interp against a float64 reference.

// Two consumers of 64x192, the TMA ring of 4, C through TMA stores.
// RUN: tile-opt %S/Inputs/wgmma-n192.mlir --tile-matmul-tiling="block=128,192,64 warp=64,192 thread=64,192 stages=4 store=tma occupancy=1" | tile-interp | FileCheck %s

// The same, persistent.
// RUN: tile-opt %S/Inputs/wgmma-n192.mlir --tile-matmul-tiling="block=128,192,64 warp=64,192 thread=64,192 stages=4 store=tma persistent=true occupancy=1" | tile-interp | FileCheck %s

// One consumer, three 64-column instructions per k step, a ring of 3.
// RUN: tile-opt %S/Inputs/wgmma-n192.mlir --tile-matmul-tiling="block=64,192,64 warp=64,192 thread=64,64 stages=3 occupancy=2" | tile-interp | FileCheck %s

// Copies through registers by the producer warpgroup.
// RUN: tile-opt %S/Inputs/wgmma-n192.mlir --tile-matmul-tiling="block=128,192,64 warp=64,192 thread=64,192 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s

// The instructions and the TMA boxes of B (the first RUN's kernels).
// RUN: tile-opt %S/Inputs/wgmma-n192.mlir --tile-matmul-to-ptx="block=128,192,64 warp=64,192 thread=64,192 stages=4 store=tma occupancy=1 ptxas=off output-dir=%t" > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/acc_matmul0.ptx
// RUN: FileCheck %s --check-prefix=NT < %t/fill_nt_matmul0.ptx

// CHECK: PASS acc_matmul0 m=130 n=400 k=72 max-rel-err=
// CHECK: PASS fill_nt_matmul0 m=70 n=392 k=136 max-rel-err=
// CHECK-NOT: FAIL

// PTX: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16
// PTX-NOT: wgmma.mma_async.sync.aligned.m64n256
// NT: wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16
