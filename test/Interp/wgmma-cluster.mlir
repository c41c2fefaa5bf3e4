// tile-interp runs the blocks of a grid one after the other; the blocks of
// a cluster wait for each other (cluster barriers, arrives on each other's
// mbarriers, multicast copies), so a cluster kernel is refused with a
// reason, not run into a deadlock or passed unchecked. Cluster kernels
// are verified on the GPU (bench/results/2026-12-05-cluster.md).
// RUN: tile-opt %s --tile-matmul-tiling="cluster=2x1 block=128,256,64 warp=64,256 thread=64,256" | not tile-interp 2>&1 | FileCheck %s
// CHECK: FAIL pair_matmul0 m=512 n=512 k=256: cannot interpret the kernel: thread-block clusters are not interpreted (blocks run one after another here, and the blocks of a cluster wait for each other)
// CHECK-NOT: PASS
func.func @pair(%A: memref<512x256xbf16>, %B: memref<256x512xbf16>, %C: memref<512x512xf32>) {
  linalg.matmul ins(%A, %B : memref<512x256xbf16>, memref<256x512xbf16>) outs(%C : memref<512x512xf32>)
  return
}
