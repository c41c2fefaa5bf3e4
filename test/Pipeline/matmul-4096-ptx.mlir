// The default 4096^3 kernel, through the whole pipeline to PTX.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s --tile-matmul-to-ptx="output-dir=%t ptxas=off" -o %t/lowered.mlir
// RUN: FileCheck %s --input-file=%t/matmul_matmul0.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/matmul_matmul0.ptx
// RUN: FileCheck %s --check-prefix=HOST --input-file=%t/lowered.mlir
// RUN: FileCheck %s --check-prefix=SCALARC --input-file=%t/matmul_matmul0.ptx
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/vec ptxas=off fma-order=rows vector-c=true"
// RUN: FileCheck %s --check-prefix=VECC --input-file=%t/vec/matmul_matmul0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/matmul_matmul0.json
// RUN: FileCheck %s --check-prefix=MANIFEST-VECC --input-file=%t/vec/matmul_matmul0.json

// PTX 8.1 for sm_90, the kernel with three pointer parameters (A, B, C),
// dynamic shared memory as an extern array, asynchronous global-to-shared
// copies (the table's 4096^3 config has 3 stages: cp.async, 16 bytes for B),
// waits and barriers, 16-byte shared loads of the fragments, fused
// multiply-adds. (LLVM 22's NVPTX backend spells 16-byte float loads
// .v4.b32.)
// CHECK: .version 8.1
// CHECK: .target sm_90
// CHECK: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK: .visible .entry matmul_matmul0(
// CHECK-NEXT: .param .u64 {{.*}}matmul_matmul0_param_0,
// CHECK-NEXT: .param .u64 {{.*}}matmul_matmul0_param_1,
// CHECK-NEXT: .param .u64 {{.*}}matmul_matmul0_param_2
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// CHECK: cp.async.commit_group
// CHECK: cp.async.wait_group
// CHECK: bar.sync
// CHECK: ld.shared.v4.{{[bf]}}32
// CHECK: fma.rn.f32
// CHECK: st.global.{{[bf]}}32

// C is written one element at a time (vector-c=false, the default); with
// vector-c=true, by 16-byte stores.
// SCALARC-NOT: st.global.v
// VECC: st.global.v4.{{[bf]}}32
// The manifest asks of C the alignment those accesses need, and says how the
// tiles reach shared memory.
// MANIFEST: {"name": "C", {{.*}} "alignment": 4, "access": "readwrite"}
// MANIFEST: "config": {"strategy": "fma", {{.*}} "stages": 3, "copy": "cp_async", "specialize": false,
// MANIFEST-VECC: {"name": "C", {{.*}} "alignment": 16, "access": "readwrite"}

// No local memory: every accumulator and fragment stays in registers.
// NOLOCAL-NOT: ld.local
// NOLOCAL-NOT: st.local
// NOLOCAL-NOT: .local

// The host side launches the kernel with the shared memory it needs.
// HOST: gpu.launch_func @matmul_matmul0::@matmul_matmul0 {{.*}} dynamic_shared_memory_size
// HOST: gpu.module @matmul_matmul0 [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">]
func.func @matmul(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xf32>, memref<4096x4096xf32>)
                outs(%C : memref<4096x4096xf32>)
  return
}
