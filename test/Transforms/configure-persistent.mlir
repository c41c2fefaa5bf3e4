// RUN: tile-opt %s -split-input-file --tile-configure=persistent=true -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure=persistent=false | FileCheck %s --check-prefix=OFF

// The persistent option: on a bf16 matmul the chosen config (the bf16
// tuning table's entry for 1024^3, specialized with the TMA) gets
// persistent = true; false leaves it out.
// CHECK-LABEL: func.func @bf16
// CHECK: tile.config = #tile.config<strategy = wgmma, {{.*}}, copy = tma, specialize = true, {{.*}}persistent = true
// OFF-LABEL: func.func @bf16
// OFF-NOT: persistent
// OFF: return
func.func @bf16(%a: memref<1024x1024xbf16>, %b: memref<1024x1024xbf16>, %c: memref<1024x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x1024xbf16>, memref<1024x1024xbf16>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// A deep K on few tiles: the cost model splits K (8 blocks per tile), which
// a persistent kernel does not do; persistent=true drops the split it chose.
// CHECK-LABEL: func.func @deep
// CHECK: tile.config = #tile.config<strategy = wgmma, {{.*}}persistent = true, occupancy = 2>}
// OFF-LABEL: func.func @deep
// OFF: tile.config = #tile.config<strategy = wgmma, {{.*}}split_k = 8>}
func.func @deep(%a: memref<128x8192xbf16>, %b: memref<8192x1024xbf16>, %c: memref<128x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<128x8192xbf16>, memref<8192x1024xbf16>) outs(%c : memref<128x1024xf32>)
  return
}

// -----

// An f32 matmul takes the fma strategy, which has no persistent kernel:
// an error at the op, not a kernel without it. (With persistent=false the
// same matmul is configured as usual.)
// OFF-LABEL: func.func @f32
// OFF: tile.config = #tile.config<block
func.func @f32(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  // expected-error-re @+1 {{cannot use tile config #tile.config<{{.*}}>: persistent = true needs the wgmma strategy}}
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
