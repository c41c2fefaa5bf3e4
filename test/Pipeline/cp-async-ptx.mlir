// Three stages (a cp.async ring) with the 4096^3 table's structure:
// 128x256x8 blocks, 32x128 warps, 8x16 per lane. Per slice a thread copies
// 128 * 8 / 256 = 4 single A elements (cp.async.ca, 4 bytes: A is
// transposed on the way) and 8 * 256 / 4 / 256 = 2 B vectors (cp.async.cg,
// 16 bytes, past L1). Copies of 3 slices: 2 in the prologue, 1 per
// iteration; a commit per slice; wait_group 1 before each of the two
// barriers (prologue, once per iteration) and wait_group 0 after the loop.
// Nothing goes through registers on its way to shared memory: no
// ld.global.nc, no st.shared. The loop has 8 k steps x 128 FMAs and
// 8 x (2 + 4) fragment loads, plus the first 6 before it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off block=128,256,8 warp=32,128 thread=8,16 stages=3 tuning-table=none"
// RUN: FileCheck %s --input-file=%t/async_matmul0.ptx
// RUN: grep -c "cp.async.ca.shared.global \[.*\], \[.*\], 4" %t/async_matmul0.ptx | FileCheck %s --check-prefix=CA
// RUN: grep -c "cp.async.cg.shared.global \[.*\], \[.*\], 16" %t/async_matmul0.ptx | FileCheck %s --check-prefix=CG
// RUN: grep -c "cp.async.commit_group" %t/async_matmul0.ptx | FileCheck %s --check-prefix=COMMIT
// RUN: grep -c "cp.async.wait_group.*1;" %t/async_matmul0.ptx | FileCheck %s --check-prefix=WAIT1
// RUN: grep -c "cp.async.wait_group.*0;" %t/async_matmul0.ptx | FileCheck %s --check-prefix=WAIT0
// RUN: grep -c "bar.sync" %t/async_matmul0.ptx | FileCheck %s --check-prefix=BAR
// RUN: grep -c "fma.rn.f32" %t/async_matmul0.ptx | FileCheck %s --check-prefix=FMA
// RUN: grep -c "ld.shared.v4" %t/async_matmul0.ptx | FileCheck %s --check-prefix=LDS
// CA: {{^}}12{{$}}
// CG: {{^}}6{{$}}
// COMMIT: {{^}}3{{$}}
// WAIT1: {{^}}2{{$}}
// WAIT0: {{^}}1{{$}}
// BAR: {{^}}2{{$}}
// FMA: {{^}}1024{{$}}
// LDS: {{^}}54{{$}}
// CHECK-NOT: ld.global.nc
// CHECK-NOT: st.shared
// CHECK-NOT: .local

// ptxas keeps everything in registers: no spills, no stack.
// RUN: %if ptxas %{ %ptxas -v -arch=sm_90 %t/async_matmul0.ptx -o %t/async.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @async(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xf32>, memref<4096x4096xf32>)
                outs(%C : memref<4096x4096xf32>)
  return
}
