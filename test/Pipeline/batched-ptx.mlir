// A batched kernel with register-staged copies (2 stages), through the
// whole pipeline to PTX: each thread's slice of A and of B is one 16-byte
// load (ld.global.nc.v4), as in the kernel of one matrix, not four scalar
// loads; with vector-c=true, C is read and written by 16-byte accesses too.
// (Block y's matrix is a rank-reducing subview; the accesses index the
// kernel's 3-d parameters so that no alignment is lost when it folds.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --check-prefix=COPY --input-file=%t/batched_matmul0.ptx
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/vec ptxas=off fma-order=rows vector-c=true"
// RUN: FileCheck %s --check-prefix=COPY --input-file=%t/vec/batched_matmul0.ptx
// RUN: FileCheck %s --check-prefix=VECC --input-file=%t/vec/batched_matmul0.ptx

// 128x128x8 blocks, 256 threads: a slice of A (128x8) and of B (8x128) is
// one float4 per thread each, loaded for the first slice and once per
// later slice (prefetch), so four 16-byte loads and no scalar one.
// COPY: .visible .entry batched_matmul0(
// COPY-COUNT-4: ld.global.nc.v4.b32
// COPY-NOT: ld.global.nc.b32
// COPY-NOT: ld.global.nc.v4.b32
// COPY: ret;

// C += A*B with an 8x8 thread tile: 16 vector loads of C and 16 vector
// stores, no scalar access to C.
// VECC-NOT: {{ld|st}}.global.b32
// VECC-COUNT-16: ld.global.v4.b32
// VECC-NOT: {{ld|st}}.global.b32
// VECC-COUNT-16: st.global.v4.b32
// VECC-NOT: {{ld|st}}.global.b32
func.func @batched(%A: memref<3x128x64xf32>, %B: memref<3x64x128xf32>, %C: memref<3x128x128xf32>) {
  linalg.batch_matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2>}
    ins(%A, %B : memref<3x128x64xf32>, memref<3x64x128xf32>) outs(%C : memref<3x128x128xf32>)
  return
}
