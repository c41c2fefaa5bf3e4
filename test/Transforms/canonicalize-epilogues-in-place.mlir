// Elementwise ops after a matmul on tensors in the destination-passing form
// front ends emit (torch-mlir: the matmul's result an input, a tensor.empty
// the output) are rewritten by tile-canonicalize-contractions to write the
// matmul's result in place: the value's block argument becomes the
// output's, the tensor.empty goes, and a chain of such ops follows. Ops
// that cannot be written in place are left as they are (and tile-configure
// says why at the op: test/Transforms/epilogues-in-place-invalid.mlir).
// RUN: tile-opt %s --tile-canonicalize-contractions | FileCheck %s

#col = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK-LABEL: func.func @linear_relu
// CHECK-SAME: %[[X:.*]]: tensor<37x23xf32>, %[[W:.*]]: tensor<23x41xf32>, %[[BIAS:.*]]: tensor<41xf32>
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK-NOT: tensor.empty
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[COL:map[0-9]*]], #[[ID:map[0-9]*]]], iterator_types = ["parallel", "parallel"]} ins(%[[BIAS]] : tensor<41xf32>) outs(%[[M]] : tensor<37x41xf32>)
// CHECK-NEXT: ^bb0(%[[Y:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[O]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%[[B]] : tensor<37x41xf32>)
// CHECK-NEXT: ^bb0(%[[O2:.*]]: f32):
// CHECK-NEXT: %[[T:.*]] = arith.maximumf %[[O2]], %{{.*}} : f32
// CHECK-NEXT: linalg.yield %[[T]] : f32
// CHECK: return %[[R]]
func.func @linear_relu(%x: tensor<37x23xf32>, %w: tensor<23x41xf32>, %bias: tensor<41xf32>) -> tensor<37x41xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x41xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<37x41xf32>) -> tensor<37x41xf32>
  %m = linalg.matmul ins(%x, %w : tensor<37x23xf32>, tensor<23x41xf32>) outs(%c : tensor<37x41xf32>) -> tensor<37x41xf32>
  %e1 = tensor.empty() : tensor<37x41xf32>
  %b = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<37x41xf32>, tensor<41xf32>) outs(%e1 : tensor<37x41xf32>) {
  ^bb0(%o: f32, %y: f32, %_: f32):
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x41xf32>
  %e2 = tensor.empty() : tensor<37x41xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<37x41xf32>) outs(%e2 : tensor<37x41xf32>) {
  ^bb0(%o: f32, %_: f32):
    %t = arith.maximumf %o, %z : f32
    linalg.yield %t : f32
  } -> tensor<37x41xf32>
  return %r : tensor<37x41xf32>
}

// A named op (linalg.add, the matmul's result its second input): its
// generic form, the residual the one input, the sum's operands in order.
// CHECK-LABEL: func.func @residual
// CHECK-SAME: %[[RES:[a-z0-9]+]]: tensor<20x50xf32>)
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[RES]] : tensor<20x50xf32>) outs(%[[M]] : tensor<20x50xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
// CHECK-NOT: linalg.add
func.func @residual(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>, %res: tensor<20x50xf32>) -> tensor<20x50xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf32>
  %a = linalg.add ins(%res, %m : tensor<20x50xf32>, tensor<20x50xf32>) outs(%e1 : tensor<20x50xf32>) -> tensor<20x50xf32>
  return %a : tensor<20x50xf32>
}

// Two matmuls' results added (the later one first): the sum is written in
// place into the later matmul's result, the earlier one read as an input
// (it is computed before that matmul's kernel, an extra operand of its
// epilogue), the operands of the sum in order.
// CHECK-LABEL: func.func @two_matmuls
// CHECK: %[[Y:.*]] = linalg.matmul
// CHECK: %[[M2:.*]] = linalg.matmul
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[Y]] : tensor<8x12xf32>) outs(%[[M2]] : tensor<8x12xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
// CHECK-NOT: linalg.add
func.func @two_matmuls(%x: tensor<8x16xf32>, %w1: tensor<16x12xf32>, %w2: tensor<16x12xf32>) -> tensor<8x12xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x12xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x12xf32>) -> tensor<8x12xf32>
  %y = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x12xf32>) outs(%c : tensor<8x12xf32>) -> tensor<8x12xf32>
  %e2 = tensor.empty() : tensor<8x12xf32>
  %c2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %m = linalg.matmul ins(%x, %w2 : tensor<8x16xf32>, tensor<16x12xf32>) outs(%c2 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %e1 = tensor.empty() : tensor<8x12xf32>
  %r = linalg.add ins(%m, %y : tensor<8x12xf32>, tensor<8x12xf32>) outs(%e1 : tensor<8x12xf32>) -> tensor<8x12xf32>
  return %r : tensor<8x12xf32>
}

// The result read twice by one op (its square): the op alone uses it, so it
// is written in place; the other input still reads the same value, the
// output's (tile-fuse-epilogues makes it "mulf acc acc").
// CHECK-LABEL: func.func @square
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK-NOT: tensor.empty
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[M]] : tensor<8x8xf32>) outs(%[[M]] : tensor<8x8xf32>)
// CHECK-NEXT: ^bb0(%[[I:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[O]], %[[I]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @square(%x: tensor<8x5xf32>, %w: tensor<5x8xf32>) -> tensor<8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x5xf32>, tensor<5x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %m : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %_: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// Left as they are (each matmul's result used once unless said):

// The matmul's result used again: writing it would change what the return sees.
// CHECK-LABEL: func.func @two_uses
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<20x50xf32>
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<20x50xf32>) outs(%[[E1]] : tensor<20x50xf32>)
func.func @two_uses(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>, %other: tensor<20x50xf32>) -> (tensor<20x50xf32>, tensor<20x50xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xf32>) {
  ^bb0(%o: f32, %_: f32):
    %t = arith.maximumf %o, %z : f32
    linalg.yield %t : f32
  } -> tensor<20x50xf32>
  return %m, %r : tensor<20x50xf32>, tensor<20x50xf32>
}

// The result read twice by one op, once transposed (R + R^T): writing R in
// place would overwrite elements the transposed read still needs.
// CHECK-LABEL: func.func @plus_transpose
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[M]], %[[M]] : tensor<16x16xf32>, tensor<16x16xf32>) outs(%[[E1]] : tensor<16x16xf32>)
func.func @plus_transpose(%x: tensor<16x8xf32>, %w: tensor<8x16xf32>) -> tensor<16x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(m, n) -> (n, m)>, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %m : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e1 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %_: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// An output of another element type (a cast to bf16 stays outside).
// CHECK-LABEL: func.func @other_type
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<20x50xbf16>
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<20x50xf32>) outs(%[[E1]] : tensor<20x50xbf16>)
func.func @other_type(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>, %other: tensor<20x50xf32>) -> (tensor<20x50xbf16>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// A body that reads its output (the tensor.empty's undefined values).
// CHECK-LABEL: func.func @reads_output
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<20x50xf32>
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<20x50xf32>) outs(%[[E1]] : tensor<20x50xf32>)
func.func @reads_output(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>, %other: tensor<20x50xf32>) -> (tensor<20x50xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xf32>) {
  ^bb0(%o: f32, %p: f32):
    %t = arith.addf %o, %p : f32
    linalg.yield %t : f32
  } -> tensor<20x50xf32>
  return %r : tensor<20x50xf32>
}

// The matmul's result read transposed (not element by element).
// CHECK-LABEL: func.func @transposed_read
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<50x20xf32>
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<20x50xf32>) outs(%[[E1]] : tensor<50x20xf32>)
func.func @transposed_read(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>, %other: tensor<20x50xf32>) -> (tensor<50x20xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<50x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<50x20xf32>) {
  ^bb0(%o: f32, %_: f32):
    %t = arith.maximumf %o, %z : f32
    linalg.yield %t : f32
  } -> tensor<50x20xf32>
  return %r : tensor<50x20xf32>
}

// An input that is no matmul's result.
// CHECK-LABEL: func.func @not_a_matmul
// CHECK: linalg.matmul
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<20x50xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<20x50xf32>) outs(%[[E1]] : tensor<20x50xf32>)
func.func @not_a_matmul(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>, %other: tensor<20x50xf32>) -> (tensor<20x50xf32>, tensor<20x50xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xf32>, tensor<30x50xf32>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%other : tensor<20x50xf32>) outs(%e1 : tensor<20x50xf32>) {
  ^bb0(%o: f32, %_: f32):
    %t = arith.maximumf %o, %z : f32
    linalg.yield %t : f32
  } -> tensor<20x50xf32>
  return %m, %r : tensor<20x50xf32>, tensor<20x50xf32>
}
