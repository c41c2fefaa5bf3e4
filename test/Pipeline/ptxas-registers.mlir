// REQUIRES: ptxas
// ptxas accepts the PTX of the default 4096^3 kernel, and of the reference
// structure (128x128x8 blocks, 8x8 per lane) on an edge-shaped problem, with
// no register spills and no stack.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: %ptxas -v -arch=sm_90 %t/square_matmul0.ptx -o %t/square.cubin 2>&1 | FileCheck %s
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/ref ptxas=off block=128,128,8 warp=32,64 thread=8,8 occupancy-hint=false"
// RUN: %ptxas -v -arch=sm_90 %t/ref/odd_matmul0.ptx -o %t/odd.cubin 2>&1 | FileCheck %s
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers

// With the occupancy hint (the default), the same kernel asks for 2 blocks
// per SM and ptxas keeps to 128 registers. The bounds-checked edge kernel
// would take more (a few bytes of spills instead), which costs less than
// losing the second block (bench/results/2026-11-29-h200-occupancy-hint.md).
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/hint ptxas=off block=128,128,8 warp=32,64 thread=8,8"
// RUN: FileCheck %s --check-prefix=HINT-PTX --input-file=%t/hint/odd_matmul0.ptx
// RUN: %ptxas -v -arch=sm_90 %t/hint/odd_matmul0.ptx -o %t/hint.cubin 2>&1 | FileCheck %s --check-prefix=HINT
// HINT-PTX: .minnctapersm 2
// HINT: Used {{([0-9]|[1-9][0-9]|1[01][0-9]|12[0-8])}} registers

// The same through the export's own ptxas run, recorded in the manifest.
// RUN: rm -rf %t/exported && tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/exported"
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/exported/square_matmul0.json
// MANIFEST: {"format": "cubin", "file": "square_matmul0.cubin", "size": {{[1-9][0-9]*}}, "fnv1a64": "{{[0-9a-f]+}}"},
// MANIFEST: "resources": {"registers": {{[1-9][0-9]*}}, "spill_stores": 0, "spill_loads": 0, "stack_bytes": 0}
func.func @square(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xf32>, memref<4096x4096xf32>)
                outs(%C : memref<4096x4096xf32>)
  return
}
func.func @odd(%A: memref<4095x4093xf32>, %B: memref<4093x4097xf32>, %C: memref<4095x4097xf32>) {
  linalg.matmul ins(%A, %B : memref<4095x4093xf32>, memref<4093x4097xf32>)
                outs(%C : memref<4095x4097xf32>)
  return
}
