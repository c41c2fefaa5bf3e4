// Edge shapes for the wgmma tile-interp tests: one element; primes, with
// bf16 C and K and N odd (rows of an odd number of 16-bit elements are no
// multiple of 16 bytes, so the slabs are copied through registers whatever
// the config asks); K = 1; K = 72 (a slab and 8 more) with M and N one past
// a block tile; a single column.
func.func @one(%A: memref<1x1xbf16>, %B: memref<1x1xbf16>, %C: memref<1x1xf32>) {
  linalg.matmul ins(%A, %B : memref<1x1xbf16>, memref<1x1xbf16>)
                outs(%C : memref<1x1xf32>)
  return
}

func.func @primes(%A: memref<37x41xbf16>, %B: memref<41x29xbf16>, %C: memref<37x29xbf16>) {
  linalg.matmul ins(%A, %B : memref<37x41xbf16>, memref<41x29xbf16>)
                outs(%C : memref<37x29xbf16>)
  return
}

func.func @kone(%A: memref<67x1xf16>, %B: memref<1x72xf16>, %C: memref<67x72xf32>) {
  linalg.matmul ins(%A, %B : memref<67x1xf16>, memref<1x72xf16>)
                outs(%C : memref<67x72xf32>)
  return
}

func.func @k72(%A: memref<65x72xf16>, %B: memref<72x65xf16>, %C: memref<65x65xf16>) {
  linalg.matmul ins(%A, %B : memref<65x72xf16>, memref<72x65xf16>)
                outs(%C : memref<65x65xf16>)
  return
}

func.func @column(%A: memref<19x24xbf16>, %B: memref<24x1xbf16>, %C: memref<19x1xf32>) {
  linalg.matmul ins(%A, %B : memref<19x24xbf16>, memref<24x1xbf16>)
                outs(%C : memref<19x1xf32>)
  return
}
