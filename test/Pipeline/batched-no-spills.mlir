// REQUIRES: ptxas
// The configs the compiler picks for batched matmuls (the cost model's: no
// tuning-table entry is used for a batch) assemble without spills: a batch
// of large matrices, many small ones, and the two shapes bench/batched.txt
// starts with.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o /dev/null --tile-matmul-to-ptx="output-dir=%t"
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/bmm_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/big_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/many_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/odd_matmul0.json
// NOSPILL: "resources": {"registers": {{[1-9][0-9]*}}, "spill_stores": 0, "spill_loads": 0, "stack_bytes": 0}
func.func @bmm(%A: memref<64x512x64xf32>, %B: memref<64x64x512xf32>, %C: memref<64x512x512xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<64x512x64xf32>, memref<64x64x512xf32>) outs(%C : memref<64x512x512xf32>)
  return
}
func.func @big(%A: memref<8x2048x2048xf32>, %B: memref<8x2048x2048xf32>, %C: memref<8x2048x2048xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<8x2048x2048xf32>, memref<8x2048x2048xf32>) outs(%C : memref<8x2048x2048xf32>)
  return
}
func.func @many(%A: memref<1000x9x13xf32>, %B: memref<1000x13x7xf32>, %C: memref<1000x9x7xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1000x9x13xf32>, memref<1000x13x7xf32>) outs(%C : memref<1000x9x7xf32>)
  return
}
func.func @odd(%A: memref<17x333x129xf32>, %B: memref<17x517x129xf32>, %C: memref<17x333x517xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<17x333x129xf32>, memref<17x517x129xf32>) outs(%C : memref<17x333x517xf32>)
  return
}
