// A 1x2 cluster's PTX: the kernel declares its cluster shape, 2 blocks
// along x as for 2x1 (the launch takes it); the producer's copies of A's
// two 64-row boxes are multicast to both blocks (each block issuing one),
// and B's four 64-column boxes are the block's own. (The cost model's
// config, which takes 128x256 blocks here.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off cluster=1x2 tuning-table=none"
// RUN: FileCheck %s --input-file=%t/big_matmul0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/big_matmul0.json
// Every multicast copy reads A's map (the fourth parameter), and no copy of
// A is the block's own.
// RUN: grep -c "multicast::cluster \[%rd[0-9]*\], \[%rd3," %t/big_matmul0.ptx | FileCheck %s --check-prefix=SOME
// RUN: not grep -E "multicast::cluster \[%rd[0-9]+\], \[%rd2," %t/big_matmul0.ptx
// RUN: not grep -E "complete_tx::bytes \[%rd[0-9]+\], \[%rd3," %t/big_matmul0.ptx
// RUN: grep -q -E "complete_tx::bytes \[%rd[0-9]+\], \[%rd2, \{%r[0-9]+, %r[0-9]+\}\], \[.+\];" %t/big_matmul0.ptx
// A consumer releases a slot in the other block too (mapa, then a remote
// arrive).
// RUN: grep -q "mapa.shared::cluster.u64" %t/big_matmul0.ptx
// RUN: grep -q "mbarrier.arrive.shared::cluster.b64 _, \[%rd[0-9]*\], %r[0-9]*;" %t/big_matmul0.ptx

// CHECK: .param .align 64 .b8 big_matmul0_param_3[128],
// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
// CHECK: cvta.param.u64 %rd2, %rd{{[0-9]+}};
// CHECK: cvta.param.u64 %rd3, %rd{{[0-9]+}};
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;
// CHECK: mov.u32 %r{{[0-9]+}}, %cluster_ctaid.x;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd3, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [{{.+}}], %rs{{[0-9]+}};
// CHECK: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;
// CHECK-NEXT: ret;
// SOME: {{[1-9][0-9]*}}

// 512 blocks in clusters of 2 along x; the config says 1x2; A's map has
// boxes of 64 rows of 64 k (half of a 128-row block tile), B's of 64 k by
// 64 columns.
// MANIFEST: "launch": {"grid": [512, 1, 1], "block": [384, 1, 1], "cluster": [2, 1, 1],
// MANIFEST: "tensor_maps": [
// MANIFEST-NEXT: {"param": "A", "box": [64, 64],
// MANIFEST-NEXT: {"param": "B", "box": [64, 64],
// MANIFEST: "config": {"strategy": "wgmma", {{.*}}"cluster": [1, 2],
func.func @big(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xf32>)
  return
}
