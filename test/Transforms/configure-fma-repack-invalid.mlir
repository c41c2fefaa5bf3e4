// RUN: tile-opt %s -split-input-file --tile-configure="tuning-table=none repack=true" -verify-diagnostics

// repack = true with the fma strategy copies B alone, row-major, dense and
// one matrix, where its rows are off 16 bytes: every other B is refused at
// the matmul, with the reason.

func.func @aligned(%a: memref<64x64xf32>, %b: memref<64x128xf32>, %c: memref<64x128xf32>) {
  // expected-error @+1 {{repack = true with the fma strategy has the runtime copy B (row-major, dense, one matrix) into rows padded to 16 bytes where N is not a multiple of 4, but B's rows (N = 128) already start on 16 bytes; use repack = false}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x128xf32>) outs(%c : memref<64x128xf32>)
  return
}

// -----

func.func @transposed(%a: memref<64x64xf32>, %b: memref<129x64xf32>, %c: memref<64x129xf32>) {
  // expected-error @+1 {{but B is stored N x K; use repack = false}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<64x64xf32>, memref<129x64xf32>) outs(%c : memref<64x129xf32>)
  return
}

// -----

func.func @strided(%a: memref<64x64xf32>, %b: memref<64x129xf32, strided<[131, 1]>>, %c: memref<64x129xf32>) {
  // expected-error @+1 {{but B is a strided memref; use repack = false}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x129xf32, strided<[131, 1]>>) outs(%c : memref<64x129xf32>)
  return
}

// -----

func.func @batched(%a: memref<2x64x64xf32>, %b: memref<2x64x129xf32>, %c: memref<2x64x129xf32>) {
  // expected-error @+1 {{but the matmul is batched (batch = 2); use repack = false}}
  linalg.batch_matmul ins(%a, %b : memref<2x64x64xf32>, memref<2x64x129xf32>) outs(%c : memref<2x64x129xf32>)
  return
}
