// Transposed B (stored N x K, nn.Linear's weight) with f32 inputs for the
// TF32 tile-interp tests (wgmma-tf32.mlir): edge shapes, K a multiple of 4
// (rows on 16 bytes: the TMA reads them in place) or not (repacked or
// register copies), one tile or several.
func.func @one(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}
func.func @primes(%A: memref<37x41xf32>, %B: memref<29x41xf32>, %C: memref<37x29xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<37x41xf32>, memref<29x41xf32>) outs(%C : memref<37x29xf32>)
  return
}
func.func @kone(%A: memref<67x1xf32>, %B: memref<72x1xf32>, %C: memref<67x72xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<67x1xf32>, memref<72x1xf32>) outs(%C : memref<67x72xf32>)
  return
}
func.func @k72(%A: memref<65x72xf32>, %B: memref<65x72xf32>, %C: memref<65x65xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<65x72xf32>, memref<65x72xf32>) outs(%C : memref<65x65xf32>)
  return
}
func.func @column(%A: memref<19x24xf32>, %B: memref<1x24xf32>, %C: memref<19x1xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<19x24xf32>, memref<1x24xf32>) outs(%C : memref<19x1xf32>)
  return
}
func.func @aligned(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<128x128xf32>, memref<128x128xf32>) outs(%C : memref<128x128xf32>)
  return
}
func.func @n_edge(%A: memref<64x64xf32>, %B: memref<200x64xf32>, %C: memref<64x200xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x64xf32>, memref<200x64xf32>) outs(%C : memref<64x200xf32>)
  return
}
func.func @k_odd(%A: memref<100x99xf32>, %B: memref<64x99xf32>, %C: memref<100x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<100x99xf32>, memref<64x99xf32>) outs(%C : memref<100x64xf32>)
  return
}
func.func @wide(%A: memref<64x32xf32>, %B: memref<256x32xf32>, %C: memref<64x256xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x32xf32>, memref<256x32xf32>) outs(%C : memref<64x256xf32>)
  return
}
func.func @linear(%A: memref<96x64xf32>, %B: memref<80x64xf32>, %C: memref<96x80xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<96x64xf32>, memref<80x64xf32>) outs(%C : memref<96x80xf32>)
  return
}
