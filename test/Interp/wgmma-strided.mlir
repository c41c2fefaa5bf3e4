// Strided bf16/f16 operands (Inputs/wgmma-strided.mlir) through the wgmma
// pipeline, run on the CPU by tile-interp: the TMA in place where the
// offsets and row strides are multiples of 16 bytes (tile-interp's tensor
// maps start at the matrix's first element, rows a stride apart, as the
// runtime encodes them), on the runtime's repacked copies where they are
// not, by the producer's register copies, without specialization (on the
// TMA); C stored in pairs only where its offset and stride keep them
// aligned; a layout spelled as an affine map (cast to strided<...>, for
// the kernel and the host's tensor map alike).

// RUN: tile-opt %S/Inputs/wgmma-strided.mlir --tile-matmul-tiling | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-strided.mlir --tile-matmul-tiling="block=64,128,64 warp=64,128 thread=64,64 stages=3 occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-strided.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s
// RUN: tile-opt %S/Inputs/wgmma-strided.mlir --tile-matmul-tiling="block=128,64,64 warp=64,64 thread=64,32 stages=4 specialize=false copy=tma repack=true" | tile-interp | FileCheck %s
// Rows of A that overlap: register copies where the TMA cannot read them in
// place (the runtime cannot repack them), the TMA where it can.
// RUN: tile-opt %S/Inputs/wgmma-strided-overlap.mlir --tile-matmul-tiling | tile-interp | FileCheck %s --check-prefix=OVERLAP
// RUN: tile-opt %S/Inputs/wgmma-strided-overlap.mlir --tile-matmul-tiling="block=128,128,64 warp=64,128 thread=64,128 stages=2 copy=registers occupancy=1" | tile-interp | FileCheck %s --check-prefix=OVERLAP
// RUN: tile-opt %S/Inputs/wgmma-strided-overlap.mlir --tile-matmul-tiling="report=true" 2>&1 | FileCheck %s --check-prefix=OVERLAP-CONFIG
// OVERLAP: PASS wgmma_overlap_matmul0 m=128 n=128 k=64 max-rel-err=
// OVERLAP: PASS wgmma_overlap_in_place_matmul0 m=128 n=128 k=64 max-rel-err=
// OVERLAP-NOT: FAIL
// OVERLAP-CONFIG: kernel (linalg.matmul at loc("{{.*}}wgmma-strided-overlap.mlir":8:3))
// OVERLAP-CONFIG-NEXT: config {{.*}}copy = registers
// OVERLAP-CONFIG: kernel (linalg.matmul at loc("{{.*}}wgmma-strided-overlap.mlir":12:3))
// OVERLAP-CONFIG-NEXT: config {{.*}}copy = tma,

// CHECK: PASS wgmma_tma_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS wgmma_repack_matmul0 m=130 n=136 k=72 max-rel-err=
// CHECK: PASS wgmma_offset_only_matmul0 m=65 n=70 k=64 max-rel-err=
// CHECK: PASS wgmma_tb_matmul0 m=100 n=72 k=40 max-rel-err=
// CHECK: PASS wgmma_affine_matmul0 m=128 n=128 k=64 max-rel-err=
// CHECK-NOT: FAIL
