// A 2x1 cluster's PTX: the kernel declares its cluster shape (the launch
// takes it), fences the mbarriers' initialisation for the cluster and waits
// at a cluster barrier before its roles start and before it leaves; the
// producer's B boxes are multicast to both blocks; a consumer releases a
// slot in its own block and, through mapa, in the other block's. (The
// cost model's config, not the bf16 table's persistent 4096^3 entry.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t ptxas=off cluster=2x1 tuning-table=none"
// RUN: test -s %t/big_matmul0.ptx
// RUN: FileCheck %s --input-file=%t/big_matmul0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/big_matmul0.json
// The remote arrive has the default release.cta semantics: with
// release.cluster the 4096^3 kernel ran 1.55x slower on the H100
// (bench/results/2026-12-05-cluster.md).
// RUN: not grep "mbarrier.arrive.release.cluster" %t/big_matmul0.ptx
// Every multicast copy is one of B's boxes (A's is the block's own), and
// they are 2 per slab of 4 boxes, each block issuing half.
// RUN: grep -c "multicast::cluster \[" %t/big_matmul0.ptx | FileCheck %s --check-prefix=SOME
// RUN: not grep -E "multicast::cluster \[%rd[0-9]+\], \[%rd3," %t/big_matmul0.ptx
// No kernel divides by a value (the cluster's tile index divides by 2).
// RUN: not grep -E "^\s*(div|rem)\.[a-z0-9.]+\s+%[a-z0-9]+, %[a-z0-9]+, %[a-z]" %t/big_matmul0.ptx

// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;
// CHECK: setmaxnreg.dec.sync.aligned.u32 40;
// CHECK: mov.u32 %r{{[0-9]+}}, %cluster_ctaid.x;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd3,
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd2, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [{{.+}}], %rs{{[0-9]+}};
// CHECK: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: mapa.shared::cluster.u64 %rd[[REMOTE:[0-9]+]], %rd[[LOCAL:[0-9]+]], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd[[LOCAL]]];
// CHECK: mbarrier.arrive.shared::cluster.b64 _, [%rd[[REMOTE]]], %r{{[0-9]+}};
// CHECK: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;
// CHECK-NEXT: ret;
// SOME: {{[1-9][0-9]*}}

// 512 blocks in clusters of 2 along x; the config says 2x1.
// MANIFEST: "launch": {"grid": [512, 1, 1], "block": [384, 1, 1], "cluster": [2, 1, 1],
// MANIFEST: "config": {"strategy": "wgmma", {{.*}}"cluster": [2, 1],
func.func @big(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xf32>)
  return
}
