// REQUIRES: ptxas
// Batched matmuls through the whole pipeline: the grid's y is the batch, the
// manifest says so (problem.batch, launch.grid[1]) and gives each param the
// elements between its matrices (batch_stride, rows x cols as stored); the
// kernel reads %ctaid.y, and its config (the cost model's: no tuning-table
// entry is used for a batch) assembles without spills.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o %t/out.mlir --tile-matmul-to-ptx="output-dir=%t"
// RUN: FileCheck %s --check-prefix=BMM --input-file=%t/bmm_matmul0.json
// RUN: FileCheck %s --check-prefix=BT --input-file=%t/bt_matmul0.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/bmm_matmul0.ptx
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/bmm_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/bt_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/big_matmul0.json
// RUN: FileCheck %s --check-prefix=NOSPILL --input-file=%t/many_matmul0.json
// RUN: FileCheck %s --check-prefix=PLAIN --input-file=%t/big_matmul0.json

// BMM: "launch": {"grid": [{{[1-9][0-9]*}}, 64, 1],
// BMM: "problem": {"m": 512, "n": 512, "k": 64, "batch": 64,
// BMM: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 512, "cols": 64, "row_stride": 64, "col_stride": 1, "batch_stride": 32768,
// BMM: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 64, "cols": 512, "row_stride": 512, "col_stride": 1, "batch_stride": 32768,
// BMM: {"name": "C", "role": "result", "element_type": "f32", "rows": 512, "cols": 512, "row_stride": 512, "col_stride": 1, "batch_stride": 262144,
// PTX: mov.u32 %r{{[0-9]+}}, %ctaid.y;
func.func @bmm(%A: memref<64x512x64xf32>, %B: memref<64x64x512xf32>, %C: memref<64x512x512xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<64x512x64xf32>, memref<64x64x512xf32>) outs(%C : memref<64x512x512xf32>)
  return
}

// B stored N x K (nn.Linear's weight per batch), on tensors with a fill:
// each param's batch_stride is its stored matrix's size.
// BT: "launch": {"grid": [{{[1-9][0-9]*}}, 3, 1],
// BT: "problem": {"m": 33, "n": 20, "k": 17, "batch": 3, "element_type": "f32", "accumulator_type": "f32", "c_init": "fill", "c_fill_value": 0.0}
// BT: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 17, "cols": 20, "row_stride": 1, "col_stride": 17, "batch_stride": 340,
// BT: {"name": "C", "role": "result", "element_type": "f32", "rows": 33, "cols": 20, "row_stride": 20, "col_stride": 1, "batch_stride": 660,
func.func @bt(%A: tensor<3x33x17xf32>, %W: tensor<3x20x17xf32>) -> tensor<3x33x20xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x33x20xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x33x20xf32>) -> tensor<3x33x20xf32>
  %R = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %W : tensor<3x33x17xf32>, tensor<3x20x17xf32>) outs(%C : tensor<3x33x20xf32>) -> tensor<3x33x20xf32>
  return %R : tensor<3x33x20xf32>
}

// A batch of large matrices, and many small ones.
// PLAIN: "problem": {"m": 2048, "n": 2048, "k": 2048, "batch": 8,
func.func @big(%A: memref<8x2048x2048xf32>, %B: memref<8x2048x2048xf32>, %C: memref<8x2048x2048xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<8x2048x2048xf32>, memref<8x2048x2048xf32>) outs(%C : memref<8x2048x2048xf32>)
  return
}
func.func @many(%A: memref<1000x9x13xf32>, %B: memref<1000x13x7xf32>, %C: memref<1000x9x7xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1000x9x13xf32>, memref<1000x13x7xf32>) outs(%C : memref<1000x9x7xf32>)
  return
}
// NOSPILL: "resources": {"registers": {{[1-9][0-9]*}}, "spill_stores": 0, "spill_loads": 0, "stack_bytes": 0}
