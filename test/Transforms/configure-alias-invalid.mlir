// On memrefs the kernel's blocks write C while other blocks still read A and
// B: C sharing an element with either (one value, or views of one buffer
// that overlap) is an error at the matmul; views of one buffer that share
// no element are fine.
// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=none" -verify-diagnostics

func.func @same_value(%X: memref<64x64xf32>, %B: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op writes C, which shares elements with operand A (one buffer): the kernel's blocks write C while others still read A, so the result would depend on their order (copy it to a buffer of its own first)}}
  linalg.matmul ins(%X, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%X : memref<64x64xf32>)
  return
}

// -----

// Rows 32..95 of C's buffer are rows 32..63 of A.
func.func @overlapping_rows(%big: memref<128x64xf32>, %B: memref<64x64xf32>) {
  %A = memref.subview %big[0, 0] [64, 64] [1, 1] : memref<128x64xf32> to memref<64x64xf32, strided<[64, 1]>>
  %C = memref.subview %big[32, 0] [64, 64] [1, 1] : memref<128x64xf32> to memref<64x64xf32, strided<[64, 1], offset: 2048>>
  // expected-error @+1 {{writes C, which shares elements with operand A (one buffer)}}
  linalg.matmul ins(%A, %B : memref<64x64xf32, strided<[64, 1]>>, memref<64x64xf32>) outs(%C : memref<64x64xf32, strided<[64, 1], offset: 2048>>)
  return
}

// -----

// B and C share one element only: the last of B's rows reaches the first
// element of C's (column 47 of a 96-column buffer's row 31 is B's last;
// C starts there).
func.func @one_element(%big: memref<64x96xf32>, %A: memref<32x32xf32>) {
  %B = memref.subview %big[0, 16] [32, 32] [1, 1] : memref<64x96xf32> to memref<32x32xf32, strided<[96, 1], offset: 16>>
  %C = memref.subview %big[31, 47] [32, 32] [1, 1] : memref<64x96xf32> to memref<32x32xf32, strided<[96, 1], offset: 3023>>
  // expected-error @+1 {{writes C, which shares elements with operand B (one buffer)}}
  linalg.matmul ins(%A, %B : memref<32x32xf32>, memref<32x32xf32, strided<[96, 1], offset: 16>>) outs(%C : memref<32x32xf32, strided<[96, 1], offset: 3023>>)
  return
}

// -----

// Through a reshape and a cast: a flat buffer whose first half is A (as
// 64x32) and C a window over it.
func.func @reshaped(%flat: memref<4096xf32>, %B: memref<32x32xf32>) {
  %two = memref.expand_shape %flat [[0, 1]] output_shape [128, 32] : memref<4096xf32> into memref<128x32xf32>
  %A = memref.subview %two[0, 0] [64, 32] [1, 1] : memref<128x32xf32> to memref<64x32xf32, strided<[32, 1]>>
  %C0 = memref.subview %two[63, 0] [64, 32] [1, 1] : memref<128x32xf32> to memref<64x32xf32, strided<[32, 1], offset: 2016>>
  %C = memref.cast %C0 : memref<64x32xf32, strided<[32, 1], offset: 2016>> to memref<64x32xf32, strided<[32, 1], offset: 2016>>
  // expected-error @+1 {{writes C, which shares elements with operand A (one buffer)}}
  linalg.matmul ins(%A, %B : memref<64x32xf32, strided<[32, 1]>>, memref<32x32xf32>) outs(%C : memref<64x32xf32, strided<[32, 1], offset: 2016>>)
  return
}

// -----

// Batched: matrix 1 of C is matrix 1 of A.
func.func @batched(%big: memref<3x32x32xf32>, %B: memref<2x32x32xf32>) {
  %A = memref.subview %big[0, 0, 0] [2, 32, 32] [1, 1, 1] : memref<3x32x32xf32> to memref<2x32x32xf32, strided<[1024, 32, 1]>>
  %C = memref.subview %big[1, 0, 0] [2, 32, 32] [1, 1, 1] : memref<3x32x32xf32> to memref<2x32x32xf32, strided<[1024, 32, 1], offset: 1024>>
  // expected-error @+1 {{writes C, which shares elements with operand A (one buffer)}}
  linalg.batch_matmul ins(%A, %B : memref<2x32x32xf32, strided<[1024, 32, 1]>>, memref<2x32x32xf32>) outs(%C : memref<2x32x32xf32, strided<[1024, 32, 1], offset: 1024>>)
  return
}

// -----

// An offset known only at run time.
func.func @dynamic_offset(%big: memref<128x64xf32>, %B: memref<64x64xf32>, %row: index) {
  %A = memref.subview %big[0, 0] [64, 64] [1, 1] : memref<128x64xf32> to memref<64x64xf32, strided<[64, 1]>>
  %C = memref.subview %big[%row, 0] [64, 64] [1, 1] : memref<128x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
  // expected-error @+1 {{'linalg.matmul' op writes C, a view of the buffer that operand A is a view of, with offsets or strides not known at compile time: the two may share elements, which the kernel's blocks would write and read at once (give them static layouts, or buffers of their own)}}
  linalg.matmul ins(%A, %B : memref<64x64xf32, strided<[64, 1]>>, memref<64x64xf32>) outs(%C : memref<64x64xf32, strided<[64, 1], offset: ?>>)
  return
}

// -----

// A view whose offset counts from elsewhere (memref.view shifts the start
// by bytes): not known.
func.func @byte_view(%raw: memref<32768xi8>, %B: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %A = memref.view %raw[%c0][] : memref<32768xi8> to memref<32x32xf32>
  %C = memref.view %raw[%c4096][] : memref<32768xi8> to memref<32x32xf32>
  // expected-error @+1 {{writes C, a view of the buffer that operand A is a view of, with offsets or strides not known at compile time}}
  linalg.matmul ins(%A, %B : memref<32x32xf32>, memref<32x32xf32>) outs(%C : memref<32x32xf32>)
  return
}

// -----

// Views of one buffer that share no element: disjoint rows; the left and
// right halves of each row (their spans interleave, their elements do
// not); A and B of one buffer (both only read); matrices 0 and 1 of a
// batch; separate arguments.
func.func @disjoint(%big: memref<128x64xf32>, %wide: memref<64x128xf32>, %cube: memref<4x32x32xf32>, %B: memref<64x64xf32>, %C2: memref<64x64xf32>) {
  %A = memref.subview %big[0, 0] [64, 64] [1, 1] : memref<128x64xf32> to memref<64x64xf32, strided<[64, 1]>>
  %C = memref.subview %big[64, 0] [64, 64] [1, 1] : memref<128x64xf32> to memref<64x64xf32, strided<[64, 1], offset: 4096>>
  linalg.matmul ins(%A, %B : memref<64x64xf32, strided<[64, 1]>>, memref<64x64xf32>) outs(%C : memref<64x64xf32, strided<[64, 1], offset: 4096>>)
  %L = memref.subview %wide[0, 0] [64, 64] [1, 1] : memref<64x128xf32> to memref<64x64xf32, strided<[128, 1]>>
  %R = memref.subview %wide[0, 64] [64, 64] [1, 1] : memref<64x128xf32> to memref<64x64xf32, strided<[128, 1], offset: 64>>
  linalg.matmul ins(%L, %B : memref<64x64xf32, strided<[128, 1]>>, memref<64x64xf32>) outs(%R : memref<64x64xf32, strided<[128, 1], offset: 64>>)
  linalg.matmul ins(%L, %L : memref<64x64xf32, strided<[128, 1]>>, memref<64x64xf32, strided<[128, 1]>>) outs(%C2 : memref<64x64xf32>)
  %P = memref.subview %cube[0, 0, 0] [2, 32, 32] [2, 1, 1] : memref<4x32x32xf32> to memref<2x32x32xf32, strided<[2048, 32, 1]>>
  %Q = memref.subview %cube[1, 0, 0] [2, 32, 32] [2, 1, 1] : memref<4x32x32xf32> to memref<2x32x32xf32, strided<[2048, 32, 1], offset: 1024>>
  %Bb = memref.subview %cube[0, 0, 0] [2, 32, 32] [2, 1, 1] : memref<4x32x32xf32> to memref<2x32x32xf32, strided<[2048, 32, 1]>>
  linalg.batch_matmul ins(%P, %Bb : memref<2x32x32xf32, strided<[2048, 32, 1]>>, memref<2x32x32xf32, strided<[2048, 32, 1]>>) outs(%Q : memref<2x32x32xf32, strided<[2048, 32, 1], offset: 1024>>)
  return
}
