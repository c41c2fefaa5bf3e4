// Batched matmuls through the whole pipeline (manifests only; ptxas runs in
// batched-no-spills.mlir): the grid's y is the batch, the manifest says so
// (problem.batch, launch.grid[1]) and gives each param the elements between
// its matrices (batch_stride: rows x cols of the matrix as stored), and the
// kernel reads %ctaid.y. A batch of one matrix is a plain kernel's manifest
// (no batch fields, grid y 1). A fused epilogue's params: one per matrix
// has a batch_stride, one shared by the matrices has none.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s -o %t/out.mlir --tile-matmul-to-ptx="output-dir=%t ptxas=off"
// RUN: FileCheck %s --check-prefix=BMM --input-file=%t/bmm_matmul0.json
// RUN: FileCheck %s --check-prefix=BT --input-file=%t/bt_matmul0.json
// RUN: FileCheck %s --check-prefix=TA --input-file=%t/ta_matmul0.json
// RUN: FileCheck %s --check-prefix=ONE --input-file=%t/one_matmul0.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/bmm_matmul0.ptx
// RUN: FileCheck %s --check-prefix=EPI --input-file=%t/epi_matmul0.json

// M, N and K all differ, so each stride is told apart from the others.
// BMM: "launch": {"grid": [{{[1-9][0-9]*}}, 64, 1],
// BMM: "problem": {"m": 96, "n": 160, "k": 48, "batch": 64,
// BMM: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 96, "cols": 48, "row_stride": 48, "col_stride": 1, "batch_stride": 4608,
// BMM: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 48, "cols": 160, "row_stride": 160, "col_stride": 1, "batch_stride": 7680,
// BMM: {"name": "C", "role": "result", "element_type": "f32", "rows": 96, "cols": 160, "row_stride": 160, "col_stride": 1, "batch_stride": 15360,
// PTX: mov.u32 %r{{[0-9]+}}, %ctaid.y;
func.func @bmm(%A: memref<64x96x48xf32>, %B: memref<64x48x160xf32>, %C: memref<64x96x160xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<64x96x48xf32>, memref<64x48x160xf32>) outs(%C : memref<64x96x160xf32>)
  return
}

// B stored N x K (nn.Linear's weight per batch), on tensors with a fill:
// each param's batch_stride is its stored matrix's size.
// BT: "launch": {"grid": [{{[1-9][0-9]*}}, 3, 1],
// BT: "problem": {"m": 33, "n": 20, "k": 17, "batch": 3, "element_type": "f32", "accumulator_type": "f32", "c_init": "fill", "c_fill_value": 0.0}
// BT: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 33, "cols": 17, "row_stride": 17, "col_stride": 1, "batch_stride": 561,
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

// A stored K x M per matrix (M = 40, K = 24): column-major with col_stride M.
// TA: "problem": {"m": 40, "n": 56, "k": 24, "batch": 5,
// TA: {"name": "A", "role": "lhs", "element_type": "f32", "rows": 40, "cols": 24, "row_stride": 1, "col_stride": 40, "batch_stride": 960,
// TA: {"name": "B", "role": "rhs", "element_type": "f32", "rows": 24, "cols": 56, "row_stride": 56, "col_stride": 1, "batch_stride": 1344,
// TA: {"name": "C", "role": "result", "element_type": "f32", "rows": 40, "cols": 56, "row_stride": 56, "col_stride": 1, "batch_stride": 2240,
func.func @ta(%A: memref<5x24x40xf32>, %B: memref<5x24x56xf32>, %C: memref<5x40x56xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<5x24x40xf32>, memref<5x24x56xf32>) outs(%C : memref<5x40x56xf32>)
  return
}

// ONE: "launch": {"grid": [{{[1-9][0-9]*}}, 1, 1],
// ONE: "problem": {"m": 20, "n": 10, "k": 30, "element_type"
// ONE-NOT: batch
func.func @one(%A: memref<1x20x30xf32>, %B: memref<1x30x10xf32>, %C: memref<1x20x10xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<1x20x30xf32>, memref<1x30x10xf32>) outs(%C : memref<1x20x10xf32>)
  return
}

// A bf16 batch with a fused epilogue: a bias per column shared by the four
// matrices (bf16, widened in the body) and a residual per matrix.
// EPI: "problem": {"m": 96, "n": 160, "k": 48, "batch": 4, "element_type": "bf16",
// EPI: {"name": "C", "role": "result", "element_type": "f32", "rows": 96, "cols": 160, "row_stride": 160, "col_stride": 1, "batch_stride": 15360,
// EPI-NEXT: {"name": "E0", "role": "epilogue", "element_type": "bf16", "rows": 1, "cols": 160, "row_stride": 160, "col_stride": 1, "alignment": 2, "access": "read"},
// EPI-NEXT: {"name": "E1", "role": "epilogue", "element_type": "f32", "rows": 96, "cols": 160, "row_stride": 160, "col_stride": 1, "batch_stride": 15360, "alignment": 4, "access": "read"}
// EPI: "epilogue": {"operands": [{"param": "E0", "kind": "col"}, {"param": "E1", "kind": "full"}], "steps": ["addf acc p0", "addf s0 p1"]},
// EPI: "config": {"strategy": "wgmma",
func.func @epi(%A: memref<4x96x48xbf16>, %B: memref<4x48x160xbf16>, %C: memref<4x96x160xf32>, %bias: memref<160xbf16>, %R: memref<4x96x160xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<4x96x160xf32>)
  linalg.batch_matmul ins(%A, %B : memref<4x96x48xbf16>, memref<4x48x160xbf16>) outs(%C : memref<4x96x160xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %R : memref<160xbf16>, memref<4x96x160xf32>) outs(%C : memref<4x96x160xf32>) {
  ^bb0(%x: bf16, %r: f32, %o: f32):
    %w = arith.extf %x : bf16 to f32
    %s = arith.addf %o, %w : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  }
  return
}
