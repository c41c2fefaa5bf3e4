// A cast to bf16 or f16 at the end of a matmul's epilogue on tensors
// (torch-mlir: the f32 result, then an op that rounds it into a new
// tensor.empty of the 16-bit type) on a matmul of inputs of that type whose
// C starts at a constant the type holds exactly: tile-canonicalize-
// contractions gives the fill and the matmul C of the 16-bit type, each op
// of the chain updates it in place (its output read through arith.extf,
// what it yields rounded with arith.truncf), and the cast becomes one more
// such op. (tile-opt keeps a 16-bit C in f32 from the first product to the
// store, where it rounds once: the f32 chain then the cast.) Casts it
// leaves stay outside the kernel, and tile-configure says so at the op
// (epilogues-in-place-invalid.mlir).
// RUN: tile-opt %s --tile-canonicalize-contractions | FileCheck %s

#col = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>
#bid = affine_map<(b, m, n) -> (b, m, n)>
#brow = affine_map<(b, m, n) -> (b, m)>

// nn.Linear + ReLU on bf16, its f32 result cast in the ReLU's op.
// CHECK-LABEL: func.func @linear_relu_bf16
// CHECK-SAME: %[[X:.*]]: tensor<37x23xbf16>, %[[W:.*]]: tensor<23x41xbf16>, %[[BIAS:.*]]: tensor<41xf32>
// CHECK-DAG: %[[Z32:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<37x41xbf16>
// CHECK-DAG: %[[Z16:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK: %[[C:.*]] = linalg.fill ins(%[[Z16]] : bf16) outs(%[[E]] : tensor<37x41xbf16>) -> tensor<37x41xbf16>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<37x23xbf16>, tensor<23x41xbf16>) outs(%[[C]] : tensor<37x41xbf16>) -> tensor<37x41xbf16>
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[COL:map[0-9]*]], #[[ID:map[0-9]*]]], iterator_types = ["parallel", "parallel"]} ins(%[[BIAS]] : tensor<41xf32>) outs(%[[M]] : tensor<37x41xbf16>)
// CHECK-NEXT: ^bb0(%[[Y:.*]]: f32, %[[O:.*]]: bf16):
// CHECK-NEXT: %[[OW:.*]] = arith.extf %[[O]] : bf16 to f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[OW]], %[[Y]] : f32
// CHECK-NEXT: %[[ST:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[ST]] : bf16
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%[[B]] : tensor<37x41xbf16>)
// CHECK-NEXT: ^bb0(%[[O2:.*]]: bf16):
// CHECK-NEXT: %[[O2W:.*]] = arith.extf %[[O2]] : bf16 to f32
// CHECK-NEXT: %[[T:.*]] = arith.maximumf %[[O2W]], %[[Z32]] : f32
// CHECK-NEXT: %[[U:.*]] = arith.truncf %[[T]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[U]] : bf16
// CHECK: return %[[R]] : tensor<37x41xbf16>
// CHECK-NOT: tensor<37x41xf32>
func.func @linear_relu_bf16(%x: tensor<37x23xbf16>, %w: tensor<23x41xbf16>, %bias: tensor<41xf32>) -> tensor<37x41xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x41xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<37x41xf32>) -> tensor<37x41xf32>
  %m = linalg.matmul ins(%x, %w : tensor<37x23xbf16>, tensor<23x41xbf16>) outs(%c : tensor<37x41xf32>) -> tensor<37x41xf32>
  %e1 = tensor.empty() : tensor<37x41xf32>
  %b = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<37x41xf32>, tensor<41xf32>) outs(%e1 : tensor<37x41xf32>) {
  ^bb0(%o: f32, %y: f32, %_: f32):
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x41xf32>
  %e2 = tensor.empty() : tensor<37x41xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<37x41xf32>) outs(%e2 : tensor<37x41xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.maximumf %o, %z : f32
    %u = arith.truncf %t : f32 to bf16
    linalg.yield %u : bf16
  } -> tensor<37x41xbf16>
  return %r : tensor<37x41xbf16>
}

// The cast alone, on f16 with B transposed, C starting at -2 (f16 holds
// it): the matmul's maps and the fill's value carry over; the cast's f32
// input (its second) is the widened output.
// CHECK-LABEL: func.func @cast_f16
// CHECK-SAME: %[[X:.*]]: tensor<20x30xf16>, %[[W:.*]]: tensor<50x30xf16>, %[[S:.*]]: tensor<20x50xf16>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<20x50xf16>
// CHECK: %[[V:.*]] = arith.constant -2.000000e+00 : f16
// CHECK: %[[C:.*]] = linalg.fill ins(%[[V]] : f16) outs(%[[E]] : tensor<20x50xf16>)
// CHECK: %[[M:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[X]], %[[W]] : tensor<20x30xf16>, tensor<50x30xf16>) outs(%[[C]] : tensor<20x50xf16>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[S]] : tensor<20x50xf16>) outs(%[[M]] : tensor<20x50xf16>)
// CHECK-NEXT: ^bb0(%[[SA:.*]]: f16, %[[O:.*]]: f16):
// CHECK-NEXT: %[[OW:.*]] = arith.extf %[[O]] : f16 to f32
// CHECK-NEXT: %[[SW:.*]] = arith.extf %[[SA]] : f16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[SW]], %[[OW]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: return %[[R]]
func.func @cast_f16(%x: tensor<20x30xf16>, %w: tensor<50x30xf16>, %s: tensor<20x50xf16>) -> tensor<20x50xf16> {
  %v = arith.constant -2.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%v : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<20x30xf16>, tensor<50x30xf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %m : tensor<20x50xf16>, tensor<20x50xf32>) outs(%e1 : tensor<20x50xf16>) {
  ^bb0(%a: f16, %o: f32, %_: f16):
    %aw = arith.extf %a : f16 to f32
    %p = arith.mulf %aw, %o : f32
    %t = arith.truncf %p : f32 to f16
    linalg.yield %t : f16
  } -> tensor<20x50xf16>
  return %r : tensor<20x50xf16>
}

// A batched matmul with a per-batch row bias, then the cast; the batch
// dimension is dynamic (the new tensor.empty takes the old one's size, and
// nothing of f32 is left).
// CHECK-LABEL: func.func @batched
// CHECK-SAME: %[[X:.*]]: tensor<?x16x24xbf16>, %[[W:.*]]: tensor<?x24x40xbf16>, %[[BIAS:.*]]: tensor<?x16xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x16x24xbf16>
// CHECK-NOT: f32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x16x40xbf16>
// CHECK: %[[C:.*]] = linalg.fill ins(%{{.*}} : bf16) outs(%[[E]] : tensor<?x16x40xbf16>)
// CHECK: %[[M:.*]] = linalg.batch_matmul ins(%[[X]], %[[W]] : tensor<?x16x24xbf16>, tensor<?x24x40xbf16>) outs(%[[C]] : tensor<?x16x40xbf16>)
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<?x16xf32>) outs(%[[M]] : tensor<?x16x40xbf16>)
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: arith.truncf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%[[B]] : tensor<?x16x40xbf16>)
// CHECK-NEXT: ^bb0(%[[O:.*]]: bf16):
// CHECK-NEXT: %[[OW:.*]] = arith.extf %[[O]] : bf16 to f32
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[OW]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[T]] : bf16
// CHECK: return %[[R]]
func.func @batched(%x: tensor<?x16x24xbf16>, %w: tensor<?x24x40xbf16>, %bias: tensor<?x16xf32>) -> tensor<?x16x40xbf16> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16x24xbf16>
  %e = tensor.empty(%n) : tensor<?x16x40xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<?x16x40xf32>) -> tensor<?x16x40xf32>
  %m = linalg.batch_matmul ins(%x, %w : tensor<?x16x24xbf16>, tensor<?x24x40xbf16>) outs(%c : tensor<?x16x40xf32>) -> tensor<?x16x40xf32>
  %e1 = tensor.empty(%n) : tensor<?x16x40xf32>
  %b = linalg.generic {indexing_maps = [#bid, #brow, #bid], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %bias : tensor<?x16x40xf32>, tensor<?x16xf32>) outs(%e1 : tensor<?x16x40xf32>) {
  ^bb0(%o: f32, %y: f32, %_: f32):
    %s = arith.addf %o, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x16x40xf32>
  %e2 = tensor.empty(%n) : tensor<?x16x40xbf16>
  %r = linalg.generic {indexing_maps = [#bid, #bid], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<?x16x40xf32>) outs(%e2 : tensor<?x16x40xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x16x40xbf16>
  return %r : tensor<?x16x40xbf16>
}

// Left as they are (each in its own function):

// f32 inputs: tile-opt has no kernel of f32 inputs and a 16-bit C.
// CHECK-LABEL: func.func @f32_inputs
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<20x50xf32>) outs(%{{.*}} : tensor<20x50xbf16>)
func.func @f32_inputs(%x: tensor<20x30xf32>, %w: tensor<30x50xf32>) -> tensor<20x50xbf16> {
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

// A cast to another 16-bit type than the inputs'.
// CHECK-LABEL: func.func @other_type
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<20x50xf32>) outs(%{{.*}} : tensor<20x50xf16>)
func.func @other_type(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>) -> tensor<20x50xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xf16>) {
  ^bb0(%o: f32, %_: f16):
    %t = arith.truncf %o : f32 to f16
    linalg.yield %t : f16
  } -> tensor<20x50xf16>
  return %r : tensor<20x50xf16>
}

// C accumulated onto an f32 argument: its starting values are not bf16's.
// CHECK-LABEL: func.func @accumulate
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<20x50xbf16>)
func.func @accumulate(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>, %acc: tensor<20x50xf32>) -> tensor<20x50xbf16> {
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%acc : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// C filled with 0.1, which bf16 does not hold.
// CHECK-LABEL: func.func @inexact_start
// CHECK: linalg.fill ins(%{{.*}} : f32)
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
func.func @inexact_start(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>) -> tensor<20x50xbf16> {
  %z = arith.constant 0.1 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// The f32 result used again (returned too).
// CHECK-LABEL: func.func @two_uses
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<20x50xbf16>)
func.func @two_uses(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>) -> (tensor<20x50xf32>, tensor<20x50xbf16>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %m, %r : tensor<20x50xf32>, tensor<20x50xbf16>
}

// A body that rounds something other than what it yields (it yields a
// bf16 sum of two rounded values).
// CHECK-LABEL: func.func @yield_not_rounded
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
func.func @yield_not_rounded(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>) -> tensor<20x50xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    %u = arith.addf %t, %t : bf16
    linalg.yield %u : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// A cast with a rounding mode of its own (the kernel rounds to nearest even).
// CHECK-LABEL: func.func @toward_zero
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
func.func @toward_zero(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>) -> tensor<20x50xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o toward_zero : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  return %r : tensor<20x50xbf16>
}

// The cast's result read by another linalg op (which, in place on it, would
// lose the cast's rounding).
// CHECK-LABEL: func.func @read_after
// CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<20x50xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<20x50xbf16>)
// CHECK: linalg.add ins(%[[R]], %{{.*}} : tensor<20x50xbf16>, tensor<20x50xbf16>)
func.func @read_after(%x: tensor<20x30xbf16>, %w: tensor<30x50xbf16>, %d: tensor<20x50xbf16>) -> tensor<20x50xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x50xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<20x50xf32>) -> tensor<20x50xf32>
  %m = linalg.matmul ins(%x, %w : tensor<20x30xbf16>, tensor<30x50xbf16>) outs(%c : tensor<20x50xf32>) -> tensor<20x50xf32>
  %e1 = tensor.empty() : tensor<20x50xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<20x50xf32>) outs(%e1 : tensor<20x50xbf16>) {
  ^bb0(%o: f32, %_: bf16):
    %t = arith.truncf %o : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x50xbf16>
  %e2 = tensor.empty() : tensor<20x50xbf16>
  %a = linalg.add ins(%r, %d : tensor<20x50xbf16>, tensor<20x50xbf16>) outs(%e2 : tensor<20x50xbf16>) -> tensor<20x50xbf16>
  return %a : tensor<20x50xbf16>
}
