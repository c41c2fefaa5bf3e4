// K = 261 is not a multiple of BK = 16, N = 131 is odd: a cp.async ring of
// single-element copies (64x128x16 blocks, 128 threads). Every slice copies
// from kc = min(k0, 261 - 16 = 245), the last one shifted back to end at K,
// so no copy clamps its own k: in the K loop's copy of a slice (from the
// loop label to the slice's commit) the one min.u32 is kc's, and the copies
// of A (8: a thread's k fixed, rows 16 apart) and of B (16: one column,
// rows 0..15 of the slice) each take one address and reach the rest by
// constant offsets: 22 of the 24 copies read [%rd+constant]. The rows a
// slice does not take (offset < k0 - kc) get 0 source bytes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off block=64,128,16 warp=32,64 thread=8,8 stages=3 tuning-table=none"
// RUN: sed -n '/^\$L__BB0_1:/,/cp.async.commit_group/p' %t/partial_k_matmul0.ptx > %t/loop-copies.ptx
// RUN: grep -c "cp.async.ca.shared.global" %t/loop-copies.ptx | FileCheck %s --check-prefix=COPIES
// RUN: grep -cE "cp.async.ca.shared.global \[[^]]*\], \[%rd[0-9]+\+[0-9]+\], 4," %t/loop-copies.ptx | FileCheck %s --check-prefix=OFFSET
// RUN: grep -c "min.u32" %t/loop-copies.ptx | FileCheck %s --check-prefix=MIN
// RUN: FileCheck %s --input-file=%t/loop-copies.ptx
// COPIES: {{^}}24{{$}}
// OFFSET: {{^}}22{{$}}
// MIN: {{^}}1{{$}}
// kc = min(k0, 245), skip = k0 - kc; row r of the slice is taken where r >= skip.
// CHECK: min.u32 [[KC:%r[0-9]+]], [[K0:%r[0-9]+]], 245;
// CHECK: sub.s32 [[SKIP:%r[0-9]+]], [[K0]], [[KC]];
// CHECK: setp.ge.u32 {{%p[0-9]+}}, {{%r[0-9]+}}, [[SKIP]];

// B's rows: row r of the slice (r = 1..15 for this thread's copies after
// the first) is taken where r >= skip, which LLVM writes as skip < r + 1.
// CHECK-COUNT-15: setp.lt.u32 {{%p[0-9]+}}, [[SKIP]], {{[0-9]+}};
//   CHECK-NOT: setp.lt.u32 {{%p[0-9]+}}, [[SKIP]], {{[0-9]+}};

// Copies through registers (stages = 2): the loop's copy of the next slice
// (from the loop label to the first barrier) loads 8 A and 16 B elements
// with two min.u32 (the next slice's start, clamped to the last slice's,
// and kc) and no clamp per element; A's k goes through one empty inline
// asm (opaqueIndex), shared by the 8 A copies.
// RUN: rm -rf %t/rg && mkdir -p %t/rg
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/rg ptxas=off block=64,128,16 warp=32,64 thread=8,8 stages=2 tuning-table=none"
// RUN: sed -n '/^\$L__BB0_1:/,/bar.sync/p' %t/rg/partial_k_matmul0.ptx > %t/rg/loop-copies.ptx
// RUN: grep -c "ld.global.nc.b32" %t/rg/loop-copies.ptx | FileCheck %s --check-prefix=REGLOADS
// RUN: grep -c "min.u32" %t/rg/loop-copies.ptx | FileCheck %s --check-prefix=REGMIN
// RUN: grep -c "begin inline asm" %t/rg/loop-copies.ptx | FileCheck %s --check-prefix=REGOPAQUE
// REGLOADS: {{^}}24{{$}}
// REGMIN: {{^}}2{{$}}
// REGOPAQUE: {{^}}1{{$}}

// ptxas keeps everything in registers: no spills, no stack.
// RUN: %if ptxas %{ %ptxas -v -arch=sm_90 %t/partial_k_matmul0.ptx -o %t/partial_k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @partial_k(%A: memref<64x261xf32>, %B: memref<261x131xf32>, %C: memref<64x131xf32>) {
  linalg.matmul ins(%A, %B : memref<64x261xf32>, memref<261x131xf32>)
                outs(%C : memref<64x131xf32>)
  return
}
