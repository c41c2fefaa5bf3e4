// RUN: tile-opt %s -split-input-file -verify-diagnostics

// Every way tile.atomic_addf is rejected: its operand types (ODS) and its
// verifier (TileDialect.cpp).

func.func @three(%v: vector<3xf32>, %C: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 32-bit float values of length 2/4, but got 'vector<3xf32>'}}
  tile.atomic_addf %v, %C[%i, %i] : vector<3xf32>, memref<8x8xf32>
  return
}

// -----

func.func @f16(%v: vector<2xf16>, %C: memref<8x8xf16>, %i: index) {
  // expected-error @+1 {{operand #0 must be fixed-length vector of 32-bit float values of length 2/4, but got 'vector<2xf16>'}}
  tile.atomic_addf %v, %C[%i, %i] : vector<2xf16>, memref<8x8xf16>
  return
}

// -----

func.func @two_d(%v: vector<2x1xf32>, %C: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'tile.atomic_addf' op adds a 1-d vector, got 'vector<2x1xf32>'}}
  tile.atomic_addf %v, %C[%i, %i] : vector<2x1xf32>, memref<8x8xf32>
  return
}

// -----

func.func @indices(%v: vector<2xf32>, %C: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'tile.atomic_addf' op takes 2 indices for its memref of rank 2, got 1}}
  tile.atomic_addf %v, %C[%i] : vector<2xf32>, memref<8x8xf32>
  return
}

// -----

func.func @scalar(%v: vector<2xf32>, %C: memref<f32>) {
  // expected-error @+1 {{'tile.atomic_addf' op needs a memref of rank 1 or more (the vector's elements go along the innermost dimension)}}
  tile.atomic_addf %v, %C[] : vector<2xf32>, memref<f32>
  return
}

// -----

func.func @column(%v: vector<2xf32>, %C: memref<8x8xf32, strided<[1, 8]>>, %i: index) {
  // expected-error @+1 {{'tile.atomic_addf' op needs a memref whose innermost stride is 1 (the vector's elements adjacent), got 'memref<8x8xf32, strided<[1, 8]>>'}}
  tile.atomic_addf %v, %C[%i, %i] : vector<2xf32>, memref<8x8xf32, strided<[1, 8]>>
  return
}

// -----

func.func @dynamic(%v: vector<2xf32>, %C: memref<8x8xf32, strided<[8, ?]>>, %i: index) {
  // expected-error @+1 {{'tile.atomic_addf' op needs a memref whose innermost stride is 1 (the vector's elements adjacent), got 'memref<8x8xf32, strided<[8, ?]>>'}}
  tile.atomic_addf %v, %C[%i, %i] : vector<2xf32>, memref<8x8xf32, strided<[8, ?]>>
  return
}
