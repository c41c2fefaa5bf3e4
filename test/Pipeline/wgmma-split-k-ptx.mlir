// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t report=true" | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --input-file=%t/deep_matmul0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/deep_matmul0.json
// RUN: grep -c "red.global.add.v2.f32" %t/deep_matmul0.ptx | FileCheck %s --check-prefix=ATOMICS
// RUN: not grep "atom.global" %t/deep_matmul0.ptx
// A plain store of C would overwrite the other splits' sums.
// RUN: not grep -E "st.global(.v[24])?.(b|f)32" %t/deep_matmul0.ptx
// Before PTX 8.1 (no vector reductions): one atomic add per element.
// RUN: rm -rf %t/ptx80 && mkdir -p %t/ptx80
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/ptx80 ptx-version=8.0"
// RUN: grep -c "atom.global.add.f32" %t/ptx80/deep_matmul0.ptx | FileCheck %s --check-prefix=SCALAR
// RUN: not grep "red.global" %t/ptx80/deep_matmul0.ptx

// 128x1024x8192 bf16 -> f32 has 32 tiles of 64x64 on 132 SMs: the
// compiler splits K on its own (the count is the model's: 8 today, 6 with
// the older atomic rate), each consumer adds its 64x64 partial tile into C
// with one red.global.add.v2.f32 per pair of accumulator registers (16 for
// 32; C's row of 1024 f32 keeps every pair 8-byte aligned), and ptxas
// spills nothing.
// REPORT: kernel deep_matmul0: 128x1024x8192 bf16 -> f32, C += A*B
// REPORT: config {{.*}}strategy = wgmma, block = [64, 64, 64]{{.*}}split_k = {{([2-9]|1[0-6])}}>
// REPORT: launch {{[0-9]+}} blocks x 256 threads (1 consumer warpgroup + 1 producer warpgroup)
// REPORT: ptxas {{[0-9]+}} registers, 0 B spill stores, 0 B spill loads, 0 B stack
// REPORT: occupancy {{[0-9]}} blocks/SM (limited by registers); 32 tiles x {{([2-9]|1[0-6])}} K splits ({{[0-9]+}} slabs each, added into C atomically) in 1 wave of {{[0-9]+}}

// The chunk's slab count comes from the block id at run time; the adds
// follow the last wgmma and the wait for it.
// CHECK: .target sm_90a
// CHECK: mov.u32 %r{{[0-9]+}}, %ctaid.x;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: red.global.add.v2.f32 [{{%rd[0-9]+}}], {{[{]}}{{%r[0-9]+}}, {{%r[0-9]+}}{{[}]}};
// ATOMICS: {{^16$}}
// SCALAR: {{^32$}}

// The fill stays in the host code (before the launch): the kernel itself
// accumulates into C.
// MANIFEST: "c_init": "accumulate", "c_fill_value": 0.0
// MANIFEST: "split_k": {{([2-9]|1[0-6])}},
func.func @deep(%A: tensor<128x8192xbf16>, %B: tensor<8192x1024xbf16>) -> tensor<128x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x1024xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %R = linalg.matmul ins(%A, %B : tensor<128x8192xbf16>, tensor<8192x1024xbf16>)
                     outs(%C : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  return %R : tensor<128x1024xf32>
}
