// Host ops other than linalg ones that read a matmul's C after it (or write
// into it), directly, through views, in nested regions, or by a call: the
// kernel computes C, but nothing runs the host code after its launch, so
// each is an error at the op (as a linalg op that uses C is).
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=none" -verify-diagnostics

func.func @copied(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %D: memref<64x48xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  // expected-error @+1 {{'memref.copy' op reads the result of a linalg.matmul in host code: only the matmul and its fused epilogue become a kernel; this op would stay in host code, which no kernel runs (elementwise linalg ops that update C in place are fused)}}
  memref.copy %C, %D : memref<64x48xf32> to memref<64x48xf32>
  return
}

// -----

func.func @loaded(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
  %v = memref.load %C[%c0, %c0] : memref<64x48xf32>
  return %v : f32
}

// -----

// On tensors: an element of the result.
func.func @extracted(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  // expected-error @+1 {{'tensor.extract' op reads the result of a linalg.matmul in host code}}
  %v = tensor.extract %R[%c0, %c0] : tensor<64x48xf32>
  return %v : f32
}

// -----

// A call taking C after the matmul (func.call declares no effects).
func.func private @consume(memref<64x48xf32>)
func.func @called(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  // expected-error @+1 {{'func.call' op reads the result of a linalg.matmul in host code}}
  func.call @consume(%C) : (memref<64x48xf32>) -> ()
  return
}

// -----

// A read in a nested region after the matmul.
func.func @nested(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %p: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  %r = scf.if %p -> f32 {
    // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
    %v = memref.load %C[%c0, %c0] : memref<64x48xf32>
    scf.yield %v : f32
  } else {
    scf.yield %zero : f32
  }
  return %r : f32
}

// -----

// Through views of C: a load of a subview made before the matmul.
func.func @subview(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %row = memref.subview %C[3, 0] [1, 48] [1, 1] : memref<64x48xf32> to memref<48xf32, strided<[1], offset: 144>>
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
  %v = memref.load %row[%c0] : memref<48xf32, strided<[1], offset: 144>>
  return %v : f32
}

// -----

// Through a cast then a collapse: a linalg op on the view is no epilogue of
// C itself and is not fused, so it is lost as well.
func.func @viewed(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %D: memref<3072xf32>) {
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  %cast = memref.cast %C : memref<64x48xf32> to memref<?x48xf32>
  %flat = memref.collapse_shape %cast [[0, 1]] : memref<?x48xf32> into memref<?xf32>
  %sized = memref.cast %flat : memref<?xf32> to memref<3072xf32>
  // expected-error @+1 {{'linalg.copy' op reads the result of a linalg.matmul in host code}}
  linalg.copy ins(%sized : memref<3072xf32>) outs(%D : memref<3072xf32>)
  return
}

// -----

// A store into C after the matmul is lost too.
func.func @stored(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  // expected-error @+1 {{'memref.store' op writes into the result of a linalg.matmul in host code}}
  memref.store %x, %C[%c0, %c0] : memref<64x48xf32>
  return
}

// -----

// C written by two matmuls, the second starting from a fill: the read after
// the second is its result, and only its check reports it (once, with a
// note at the second).
func.func @refilled(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  linalg.fill ins(%zero : f32) outs(%C : memref<64x48xf32>)
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
  %v = memref.load %C[%c0, %c0] : memref<64x48xf32>
  return %v : f32
}

// -----

// On tensors: an element of a slice of the result, and a call taking it.
func.func @extracted_slice(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %slice = tensor.extract_slice %R[0, 0] [8, 48] [1, 1] : tensor<64x48xf32> to tensor<8x48xf32>
  // expected-error @+1 {{'tensor.extract' op reads the result of a linalg.matmul in host code}}
  %v = tensor.extract %slice[%c0, %c0] : tensor<8x48xf32>
  return %v : f32
}

// -----

func.func private @consume_tensor(tensor<64x48xf32>) -> f32
func.func @called_tensor(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> f32 {
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  // expected-error @+1 {{'func.call' op reads the result of a linalg.matmul in host code}}
  %v = func.call @consume_tensor(%R) : (tensor<64x48xf32>) -> f32
  return %v : f32
}

// -----

// Two accesses under one op after the matmul: the first in program order
// is named.
func.func @same_anchor(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %p: i1, %x: f32) {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  scf.if %p {
    // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
    %v = memref.load %C[%c0, %c0] : memref<64x48xf32>
    memref.store %x, %C[%c0, %c0] : memref<64x48xf32>
  }
  return
}

// -----

// In a loop body two matmuls write C, the second from a fill; a read after
// the loop is reported once, against the second.
func.func @looped_refill(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c2 step %c1 {
    linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
    linalg.fill ins(%zero : f32) outs(%C : memref<64x48xf32>)
    // expected-note @+1 {{the linalg.matmul}}
    linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  }
  // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
  %v = memref.load %C[%c0, %c0] : memref<64x48xf32>
  return %v : f32
}

// -----

// On tensors, an insert into the result, and a vector read of it.
func.func @inserted(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>, %x: f32) -> tensor<64x48xf32> {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  // expected-error @+1 {{'tensor.insert' op writes into the result of a linalg.matmul in host code}}
  %W = tensor.insert %x into %R[%c0, %c0] : tensor<64x48xf32>
  return %W : tensor<64x48xf32>
}

// -----

func.func @vector_read(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> vector<48xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  // expected-error @+1 {{'vector.transfer_read' op reads the result of a linalg.matmul in host code}}
  %v = vector.transfer_read %R[%c0, %c0], %pad : tensor<64x48xf32>, vector<48xf32>
  return %v : vector<48xf32>
}

// -----

// An extract through an insert_slice into the result reads it too.
func.func @through_insert_slice(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>, %D: tensor<8x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %R2 = tensor.insert_slice %D into %R[0, 0] [8, 48] [1, 1] : tensor<8x48xf32> into tensor<64x48xf32>
  // expected-error @+1 {{'tensor.extract' op reads the result of a linalg.matmul in host code}}
  %v = tensor.extract %R2[%c0, %c0] : tensor<64x48xf32>
  return %v : f32
}

// -----

// Not readers of C after the matmul, and no error: a copy into C before it
// (the kernel accumulates onto what it wrote), a read of C and a call taking
// it before it, and returning the result (or a cast of it).
func.func private @prepare(memref<64x48xf32>)
func.func @fine(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %D: memref<64x48xf32>) -> (f32, index) {
  %c0 = arith.constant 0 : index
  memref.copy %D, %C : memref<64x48xf32> to memref<64x48xf32>
  %v = memref.load %C[%c0, %c0] : memref<64x48xf32>
  func.call @prepare(%C) : (memref<64x48xf32>) -> ()
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  // After it, ops that neither read nor write C: its extent, a view of it
  // that nothing reads.
  %d = memref.dim %C, %c0 : memref<64x48xf32>
  %row = memref.subview %C[3, 0] [1, 48] [1, 1] : memref<64x48xf32> to memref<48xf32, strided<[1], offset: 144>>
  return %v, %d : f32, index
}

// A read of C in the same loop body before the matmul runs before it in the
// first iteration: not counted.
func.func @looped(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %D: memref<64x48xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    memref.copy %C, %D : memref<64x48xf32> to memref<64x48xf32>
    linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  }
  return
}

func.func @returned(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> (tensor<64x48xf32>, tensor<?x48xf32>) {
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %cast = tensor.cast %R : tensor<64x48xf32> to tensor<?x48xf32>
  return %R, %cast : tensor<64x48xf32>, tensor<?x48xf32>
}

// Ops that pass the result on (a slice, a reshape, its extent, a loop's
// init) read nothing of C in host code once bufferized: no error.
func.func @forwarded(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> (tensor<8x48xf32>, tensor<3072xf32>, index, tensor<64x48xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %slice = tensor.extract_slice %R[0, 0] [8, 48] [1, 1] : tensor<64x48xf32> to tensor<8x48xf32>
  %flat = tensor.collapse_shape %R [[0, 1]] : tensor<64x48xf32> into tensor<3072xf32>
  %d = tensor.dim %R, %c0 : tensor<64x48xf32>
  %L = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %R) -> tensor<64x48xf32> {
    %next = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
    scf.yield %next : tensor<64x48xf32>
  }
  return %slice, %flat, %d, %L : tensor<8x48xf32>, tensor<3072xf32>, index, tensor<64x48xf32>
}

// C written again by a second matmul from its fill, the fill and matmul
// nested in an scf.if, or on a view of C, or on tensors on the result or a
// slice of it (inserted back): the fills start the second kernels, and are
// no host access of the first matmul's C.
func.func @refilled_nested(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>, %p: i1) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<64x48xf32>)
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  scf.if %p {
    linalg.fill ins(%zero : f32) outs(%C : memref<64x48xf32>)
    linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  }
  return
}

func.func @refilled_view(%A: memref<64x32xf32>, %A2: memref<32x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  %s = memref.subview %C[0, 0] [32, 48] [1, 1] : memref<64x48xf32> to memref<32x48xf32, strided<[48, 1]>>
  linalg.fill ins(%zero : f32) outs(%s : memref<32x48xf32, strided<[48, 1]>>)
  linalg.matmul ins(%A2, %B : memref<32x32xf32>, memref<32x48xf32>) outs(%s : memref<32x48xf32, strided<[48, 1]>>)
  return
}

func.func @refilled_tensor(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %F = linalg.fill ins(%zero : f32) outs(%R : tensor<64x48xf32>) -> tensor<64x48xf32>
  %R2 = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%F : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %R2 : tensor<64x48xf32>
}

func.func @refilled_tensor_slice(%A: tensor<64x32xf32>, %A2: tensor<32x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %s = tensor.extract_slice %R[0, 0] [32, 48] [1, 1] : tensor<64x48xf32> to tensor<32x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%s : tensor<32x48xf32>) -> tensor<32x48xf32>
  %m = linalg.matmul ins(%A2, %B : tensor<32x32xf32>, tensor<32x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  %R2 = tensor.insert_slice %m into %R[0, 0] [32, 48] [1, 1] : tensor<32x48xf32> into tensor<64x48xf32>
  return %R2 : tensor<64x48xf32>
}

// -----

// Through control flow: the result a loop carries (the body's matmul writes
// its iteration argument), read after the loop, on memrefs (as one-shot
// bufferization leaves a tensor loop) and on tensors.
func.func @loop_result(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %L = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %C) -> memref<64x48xf32> {
    // expected-note @+1 {{the linalg.matmul}}
    linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%acc : memref<64x48xf32>)
    scf.yield %acc : memref<64x48xf32>
  }
  // expected-error @+1 {{'memref.load' op reads the result of a linalg.matmul in host code}}
  %v = memref.load %L[%c0, %c0] : memref<64x48xf32>
  return %v : f32
}

// -----

func.func @loop_result_tensor(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %L = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %C) -> tensor<64x48xf32> {
    // expected-note @+1 {{the linalg.matmul}}
    %m = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
    scf.yield %m : tensor<64x48xf32>
  }
  // expected-error @+1 {{'tensor.extract' op reads the result of a linalg.matmul in host code}}
  %v = tensor.extract %L[%c1, %c0] : tensor<64x48xf32>
  return %v : f32
}

// -----

// The result handed to a loop as its init, read in the body.
func.func @loop_init_tensor(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>, %D: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %L = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %R) -> tensor<64x48xf32> {
    // expected-error @+1 {{'tensor.extract' op reads the result of a linalg.matmul in host code}}
    %v = tensor.extract %acc[%i, %c0] : tensor<64x48xf32>
    %w = tensor.insert %v into %D[%i, %c0] : tensor<64x48xf32>
    scf.yield %w : tensor<64x48xf32>
  }
  return %L : tensor<64x48xf32>
}

// -----

// The result an scf.if yields.
func.func @if_result_tensor(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>, %p: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %R = scf.if %p -> tensor<64x48xf32> {
    // expected-note @+1 {{the linalg.matmul}}
    %m = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
    scf.yield %m : tensor<64x48xf32>
  } else {
    scf.yield %C : tensor<64x48xf32>
  }
  // expected-error @+1 {{'tensor.extract' op reads the result of a linalg.matmul in host code}}
  %v = tensor.extract %R[%c0, %c0] : tensor<64x48xf32>
  return %v : f32
}

// -----

// The buffer C is a view of, read whole after the matmul.
func.func @parent_copied(%A: memref<32x32xf32>, %B: memref<32x48xf32>, %big: memref<64x48xf32>, %D: memref<64x48xf32>) {
  // expected-note @+1 {{the linalg.matmul's C is a view of that buffer, through this op}}
  %C = memref.subview %big[32, 0] [32, 48] [1, 1] : memref<64x48xf32> to memref<32x48xf32, strided<[48, 1], offset: 1536>>
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<32x32xf32>, memref<32x48xf32>) outs(%C : memref<32x48xf32, strided<[48, 1], offset: 1536>>)
  // expected-error @+1 {{'memref.copy' op reads a buffer that the result of a linalg.matmul is a view of, in host code: only the matmul and its fused epilogue become a kernel}}
  memref.copy %big, %D : memref<64x48xf32> to memref<64x48xf32>
  return
}

// -----

// Through two views: C is a view of a flat buffer's 2-d view; the flat
// buffer's element written after.
func.func @grandparent_stored(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %flat: memref<3072xf32>, %x: f32) {
  %c5 = arith.constant 5 : index
  // expected-note @+1 {{the linalg.matmul's C is a view of that buffer, through this op}}
  %two = memref.expand_shape %flat [[0, 1]] output_shape [64, 48] : memref<3072xf32> into memref<64x48xf32>
  %C = memref.cast %two : memref<64x48xf32> to memref<?x48xf32>
  // expected-note @+1 {{the linalg.matmul}}
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<?x48xf32>)
  // expected-error @+1 {{'memref.store' op writes into a buffer that the result of a linalg.matmul is a view of, in host code}}
  memref.store %x, %flat[%c5] : memref<3072xf32>
  return
}

// -----

// A buffer C is a view of, and the views of its other parts, used before
// the matmul, deallocated after it, or passed to a loop of later matmuls
// that start from their fills: no error.
func.func @parent_fine(%A: memref<32x32xf32>, %B: memref<32x48xf32>, %D: memref<64x48xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %big = memref.alloc() : memref<64x48xf32>
  memref.copy %D, %big : memref<64x48xf32> to memref<64x48xf32>
  %C = memref.subview %big[0, 0] [32, 48] [1, 1] : memref<64x48xf32> to memref<32x48xf32, strided<[48, 1]>>
  linalg.matmul ins(%A, %B : memref<32x32xf32>, memref<32x48xf32>) outs(%C : memref<32x48xf32, strided<[48, 1]>>)
  %L = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %big) -> memref<64x48xf32> {
    %half = memref.subview %acc[32, 0] [32, 48] [1, 1] : memref<64x48xf32> to memref<32x48xf32, strided<[48, 1], offset: 1536>>
    linalg.fill ins(%zero : f32) outs(%half : memref<32x48xf32, strided<[48, 1], offset: 1536>>)
    linalg.matmul ins(%A, %B : memref<32x32xf32>, memref<32x48xf32>) outs(%half : memref<32x48xf32, strided<[48, 1], offset: 1536>>)
    scf.yield %acc : memref<64x48xf32>
  }
  memref.dealloc %L : memref<64x48xf32>
  return
}

// -----

// Read after a loop that carries one matmul's result into another (which
// starts from its fill): both results reach the read, which is reported
// once, against the first.
func.func @two_reach(%A: tensor<64x32xf32>, %B: tensor<32x48xf32>, %C: tensor<64x48xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  // expected-note @+1 {{the linalg.matmul}}
  %R = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%C : tensor<64x48xf32>) -> tensor<64x48xf32>
  %L = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %R) -> tensor<64x48xf32> {
    %f = linalg.fill ins(%zero : f32) outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
    %m = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x48xf32>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
    scf.yield %m : tensor<64x48xf32>
  }
  // expected-error @+1 {{'tensor.extract' op reads the result of a linalg.matmul in host code}}
  %v = tensor.extract %L[%c1, %c0] : tensor<64x48xf32>
  return %v : f32
}
