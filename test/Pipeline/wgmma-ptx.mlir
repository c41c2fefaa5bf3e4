// The wgmma strategy's PTX for a 4096^3 bf16 matmul (the cost model's
// config, not the bf16 table's persistent entry: 128x256x64 blocks, two
// 64x256 consumer warpgroups and a producer, a 4-slot TMA ring) and the f16
// one: the architecture-specific target, the
// tensor maps as 128-byte grid-constant parameters, the producer's
// setmaxnreg and TMA copies completing on mbarriers, the consumers'
// waits, wgmma m64n256k16 with B transposed (imm-trans-b 1), one group in
// flight in the loop and none after it. C stored from registers
// (store=registers; the TMA store's PTX: wgmma-tma-store-ptx.mlir).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off tuning-table=none store=registers"
// RUN: FileCheck %s --input-file=%t/bf16_matmul0.ptx
// RUN: FileCheck %s --check-prefix=F16 --input-file=%t/f16_matmul0.ptx
// RUN: FileCheck %s --check-prefix=ODD --input-file=%t/odd_matmul0.json
// No wgmma reads B untransposed, none scales or negates.
// RUN: not grep -E "wgmma.mma_async.*p, 1, +1, 0, +0;" %t/bf16_matmul0.ptx
// No kernel divides by a value: ptxas makes that a call, which it lets
// accumulator reads pass (test/Pipeline/wgmma-persistent-ptx.mlir).
// RUN: test -s %t/bf16_matmul0.ptx && test -s %t/f16_matmul0.ptx && test -s %t/odd_matmul0.ptx
// RUN: not grep -E "^\s*(div|rem)\.[a-z0-9.]+\s+%[a-z0-9]+, %[a-z0-9]+, %[a-z]" %t/bf16_matmul0.ptx %t/f16_matmul0.ptx %t/odd_matmul0.ptx
// RUN: grep -c "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" %t/bf16_matmul0.ptx | FileCheck %s --check-prefix=SOME
// RUN: grep -cE "wgmma.mma_async.*p, 1, +1, 0, +1;" %t/bf16_matmul0.ptx | FileCheck %s --check-prefix=SOME
// SOME: {{^[1-9][0-9]*$}}

// CHECK: .target sm_90a
// CHECK: .visible .entry bf16_matmul0(
// CHECK-NEXT: .param .u64 .ptr .align 1 bf16_matmul0_param_0,
// CHECK-NEXT: .param .u64 .ptr .align 1 bf16_matmul0_param_1,
// CHECK-NEXT: .param .u64 .ptr .align 1 bf16_matmul0_param_2,
// CHECK-NEXT: .param .align 64 .b8 bf16_matmul0_param_3[128],
// CHECK-NEXT: .param .align 64 .b8 bf16_matmul0_param_4[128]
// CHECK: .maxntid 384, 1, 1
// CHECK-NEXT: .minnctapersm 1
// The ring's barriers: 4 full (one arrival) and 4 empty (two consumers).
// CHECK-DAG: .shared .align 8 .b8 __mbarrier{{(_0)?}}[32];
// CHECK-DAG: mbarrier.init.shared.b64
// CHECK-DAG: cvta.param.u64
// CHECK: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK: mov.b32 %[[TX:r[0-9]+]], 49152;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, %[[TX]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK: mbarrier.arrive.shared.b64
// CHECK: wgmma.wait_group.sync.aligned 0;
// C is stored as pairs of f32.
// CHECK: st.global.v2.b32
func.func @bf16(%A: tensor<4096x4096xbf16>, %B: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>)
                     outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %R : tensor<4096x4096xf32>
}

// F16: .target sm_90a
// F16: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// f16 accumulators converted to f16 on the way out, stored in pairs.
// F16: cvt.rn.f16x2.f32
// F16: st.global.b32
func.func @f16(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%C : memref<4096x4096xf16>)
  return
}

// A bf16 C of 13 columns: rows start at any 2-byte boundary, so the
// manifest asks C for 2-byte alignment (the epilogue stores single
// elements), and 33-element rows of A and B are not 16-byte strides, so
// the slabs come through registers.
// ODD: "problem": {"m": 7, "n": 13, "k": 33, "element_type": "bf16", "accumulator_type": "f32", "c_init": "accumulate"
// ODD: {"name": "C", "role": "result", "element_type": "bf16", "rows": 7, "cols": 13, "row_stride": 13, "col_stride": 1, "alignment": 2, "access": "readwrite"}
func.func @odd(%A: memref<7x33xbf16>, %B: memref<33x13xbf16>, %C: memref<7x13xbf16>) {
  linalg.matmul ins(%A, %B : memref<7x33xbf16>, memref<33x13xbf16>) outs(%C : memref<7x13xbf16>)
  return
}
