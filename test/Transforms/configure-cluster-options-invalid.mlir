// RUN: not tile-opt %s --tile-configure="cluster=2x1 copy=registers" 2>&1 | FileCheck %s --check-prefix=REGISTERS
// RUN: not tile-opt %s --tile-configure="cluster=2x1 specialize=false" 2>&1 | FileCheck %s --check-prefix=NOSPEC
// RUN: not tile-opt %s --tile-configure="cluster=2x1 split-k=2" 2>&1 | FileCheck %s --check-prefix=SPLIT

// Options that rule a cluster out (its producers multicast with the TMA;
// its blocks take whole tiles): the config's rule they break, at the op,
// whichever candidate the cost model would rank (not a word about tile
// rows, which are even here).
// REGISTERS: error: 'linalg.matmul' op cannot use tile config #tile.config<{{.*}}copy = registers{{.*}}cluster = [2, 1]>: cluster 2x1 needs specialize = true and copy = tma (the producers multicast B's boxes with the TMA)
// NOSPEC: error: 'linalg.matmul' op cannot use tile config #tile.config<{{.*}}specialize = false{{.*}}cluster = [2, 1]>: cluster 2x1 needs specialize = true and copy = tma (the producers multicast B's boxes with the TMA)
// SPLIT: error: 'linalg.matmul' op cannot use tile config #tile.config<{{.*}}cluster = [2, 1], split_k = 2>: cluster 2x1 does not combine with split_k = 2
func.func @pair(%a: memref<4096x1024xbf16>, %b: memref<1024x4096xbf16>, %c: memref<4096x4096xf32>) {
  linalg.matmul ins(%a, %b : memref<4096x1024xbf16>, memref<1024x4096xbf16>) outs(%c : memref<4096x4096xf32>)
  return
}
