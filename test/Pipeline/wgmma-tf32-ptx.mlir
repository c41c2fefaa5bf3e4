// TF32's PTX: a 4096^3 f32 matmul with B stored N x K compiled with
// `tf32=true` (the cost model's config: 128x256x32 blocks, m64n256k8).
// wgmma reads tf32 operands from shared memory K-major, with no imm-trans
// operands (the instruction has none for tf32: scale-d, then the scales of
// A and B); a slab is 128 x 32 f32 of A and 256 x 32 of B, 49152 bytes,
// four k steps of 8; C is f32.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off tf32=true"
// RUN: test -s %t/linear_matmul0.ptx
// RUN: FileCheck %s --input-file=%t/linear_matmul0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/linear_matmul0.json
// Every wgmma is tf32 (none bf16, f16 or with a transpose operand).
// RUN: not grep -E "wgmma.mma_async.*\.(bf16|f16)" %t/linear_matmul0.ptx
// RUN: not grep -E "wgmma.mma_async.*p, 1, +1, [01], +[01];" %t/linear_matmul0.ptx
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32" %t/linear_matmul0.ptx | FileCheck %s --check-prefix=SOME
// SOME: {{^[1-9][0-9]*$}}
// Without the option the same matmul is FP32 (fma, no wgmma).
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t/fp32 ptxas=off"
// RUN: not grep "wgmma" %t/fp32/linear_matmul0.ptx
// RUN: FileCheck %s --check-prefix=FP32 --input-file=%t/fp32/linear_matmul0.json
// FP32: "config": {"strategy": "fma",

// CHECK: .target sm_90a
// CHECK: mov.b32 %[[TX:r[0-9]+]], 49152;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, %[[TX]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1,  1;
// CHECK: wgmma.commit_group.sync.aligned;

// MANIFEST: "problem": {"m": 4096, "n": 4096, "k": 4096, "element_type": "f32", "accumulator_type": "f32", "c_init": "accumulate", "c_fill_value": 0.0},
// MANIFEST: {"param": "A", "box": [128, 32], "swizzle": "128B", "l2_promotion": "128B"},
// MANIFEST-NEXT: {"param": "B", "box": [256, 32], "swizzle": "128B", "l2_promotion": "128B"}
// MANIFEST: "config": {"strategy": "wgmma", "block": [128, 256, 32], "warp": [64, 256], "thread": [64, 256], "mma": [64, 256, 8],
func.func @linear(%A: memref<4096x4096xf32>, %W: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %W : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<4096x4096xf32>)
  return
}
