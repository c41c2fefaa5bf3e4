// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t tuning-table=none store=tma"
// RUN: FileCheck %s --input-file=%t/square_matmul0.ptx
// RUN: FileCheck %s --check-prefix=BATCH --input-file=%t/batched_matmul0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/square_matmul0.json
// RUN: FileCheck %s --check-prefix=BMANIFEST --input-file=%t/batched_matmul0.json

// C through TMA stores (store=tma) in the PTX of a 4096^3 bf16 -> f32
// kernel (128x256 blocks, two 64x256 consumer warpgroups): C's map is a
// third 128-byte grid-constant parameter; per box (64 rows by 32 f32) a
// consumer warpgroup's leader waits until the store before last has read
// its buffer (none left at a tile's first box), the warpgroup meets at its
// named barrier (bar.sync id, 128), stores its pairs into the staging
// buffer, fences them for the async proxy, meets again, and the leader
// issues the 2-d bulk tensor store and commits it; after the last tile
// (the cost model makes this kernel persistent) the leader waits for every
// store's read. No global store is left.
// CHECK: .entry square_matmul0(
// CHECK-COUNT-3: .param .align 64 .b8 square_matmul0_param_{{[0-9]+}}[128]
// CHECK-NOT: st.global
// CHECK: cp.async.bulk.wait_group.read 0;
// CHECK: bar.sync [[ID:%r[0-9]+]], 128;
// CHECK-COUNT-8: st.shared.v2.b32
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync [[ID]], 128;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// CHECK-NEXT: cp.async.bulk.commit_group;
// CHECK-NEXT: cp.async.bulk.wait_group.read 1;
// CHECK-COUNT-7: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK: cp.async.bulk.wait_group.read 0;
// CHECK-NOT: st.global
// CHECK: ret;

// A batched kernel's map of C is 3-d: the matrix is the outermost
// coordinate of each store.
// BATCH: .entry batched_matmul0(
// BATCH-NOT: st.global
// BATCH: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];

// The manifest: C 16-byte aligned, its map after A's and B's (64 rows of
// 32 f32, no L2 promotion), store "tma" (persistent: the cost model's
// rule for a store over whole tiles and more than a wave), and ptxas' 0
// spills.
// MANIFEST: {"name": "C", "role": "result", "element_type": "f32", "rows": 4096, "cols": 4096, "row_stride": 4096, "col_stride": 1, "alignment": 16, "access": "write"}
// MANIFEST: "tensor_maps": [
// MANIFEST-NEXT: {"param": "A",
// MANIFEST-NEXT: {"param": "B",
// MANIFEST-NEXT: {"param": "C", "box": [64, 32], "swizzle": "128B", "l2_promotion": "none"}
// MANIFEST: "persistent": true, "store": "tma"
// MANIFEST: "resources": {"registers": {{[0-9]+}}, "spill_stores": 0, "spill_loads": 0, "stack_bytes": 0}
// BMANIFEST: {"param": "C", "box": [64, 64], "swizzle": "128B", "l2_promotion": "none", "batched": true}

func.func @square(%A: tensor<4096x4096xbf16>, %B: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %R = linalg.matmul ins(%A, %B : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %R : tensor<4096x4096xf32>
}

func.func @batched(%a: memref<4x1024x512xbf16>, %b: memref<4x512x1024xbf16>, %c: memref<4x1024x1024xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<4x1024x1024xbf16>)
  linalg.batch_matmul ins(%a, %b : memref<4x1024x512xbf16>, memref<4x512x1024xbf16>) outs(%c : memref<4x1024x1024xbf16>)
  return
}
