// RUN: tile-opt %s -split-input-file --tile-configure -verify-diagnostics

// Errors at the root, not at an op: malformed options, an unknown chip, a
// tuning table that cannot be read. Each is reported once, before any matmul
// is looked at: the whole file is one module here, and none of the errors of
// the sections below appears.
// RUN: not tile-opt %s --tile-configure=block=64,64 2>&1 | FileCheck %s --check-prefix=BLOCK --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=warp=32,32,1 2>&1 | FileCheck %s --check-prefix=WARP --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=thread=4 2>&1 | FileCheck %s --check-prefix=THREAD --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=stages=-1 2>&1 | FileCheck %s --check-prefix=STAGES --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=swizzle=-1 2>&1 | FileCheck %s --check-prefix=SWIZZLE --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=smem=wide 2>&1 | FileCheck %s --check-prefix=SMEM --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=smem=pad-4 2>&1 | FileCheck %s --check-prefix=SMEM-PAD --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=occupancy=-2 2>&1 | FileCheck %s --check-prefix=OCCUPANCY --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=split-k=-4 2>&1 | FileCheck %s --check-prefix=SPLITK --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=split-last=-2 2>&1 | FileCheck %s --check-prefix=SPLITLAST --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=prefetch=yes 2>&1 | FileCheck %s --check-prefix=PREFETCH --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=copy=bulk 2>&1 | FileCheck %s --check-prefix=COPY --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=specialize=maybe 2>&1 | FileCheck %s --check-prefix=SPECIALIZE --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=persistent=1 2>&1 | FileCheck %s --check-prefix=PERSISTENT --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=store=smem 2>&1 | FileCheck %s --check-prefix=STORE --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=cluster=2by1 2>&1 | FileCheck %s --check-prefix=CLUSTER --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=cluster=2x1x1 2>&1 | FileCheck %s --check-prefix=CLUSTER3 --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=chip=sm_70 2>&1 | FileCheck %s --check-prefix=CHIP --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/does-not-exist.json 2>&1 | FileCheck %s --check-prefix=NO-TABLE --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-truncated.json 2>&1 | FileCheck %s --check-prefix=BAD-JSON --implicit-check-not="error: 'linalg.matmul'"
// RUN: not tile-opt %s --tile-configure=tuning-table=%S/Inputs/tuning-table-invalid-entry.json 2>&1 | FileCheck %s --check-prefix=BAD-ENTRY --implicit-check-not="error: 'linalg.matmul'"

// BLOCK: error: tile-configure: option 'block' needs 3 sizes (M,N,K), got 2
// WARP: error: tile-configure: option 'warp' needs 2 sizes (M,N), got 3
// THREAD: error: tile-configure: option 'thread' needs 2 sizes (M,N), got 1
// OCCUPANCY: error: tile-configure: option 'occupancy' must be positive (0 keeps the chosen value), got -2
// SPLITK: error: tile-configure: option 'split-k' must be positive (0 keeps the chosen value), got -4
// SPLITLAST: error: tile-configure: option 'split-last' must be 0 (every tile split), a number of tiles, or -1 (keep the chosen value), got -2
// STAGES: error: tile-configure: option 'stages' must be positive (0 keeps the chosen value), got -1
// SWIZZLE: error: tile-configure: option 'swizzle' must be at least 1, got -1
// SMEM: error: tile-configure: option 'smem' must be none, pad<N>, xor or swizzle128, got 'wide'
// SMEM-PAD: error: tile-configure: option 'smem' must be none, pad<N>, xor or swizzle128, got 'pad-4'
// COPY: error: tile-configure: option 'copy' must be registers, cp_async or tma, got 'bulk'
// SPECIALIZE: error: tile-configure: option 'specialize' must be true or false, got 'maybe'
// PERSISTENT: error: tile-configure: option 'persistent' must be true or false, got '1'
// STORE: error: tile-configure: option 'store' must be tma or registers, got 'smem'
// CLUSTER: error: tile-configure: option 'cluster' must be MxN (1x1, 2x1 or 1x2), got '2by1'
// CLUSTER3: error: tile-configure: option 'cluster' must be MxN (1x1, 2x1 or 1x2), got '2x1x1'
// PREFETCH: error: tile-configure: option 'prefetch' must be true or false, got 'yes'
// CHIP: error: tile-configure: unknown chip 'sm_70' (known: sm_80, sm_90)
// NO-TABLE: error: tile-configure: cannot read tuning table '{{.*}}Inputs/does-not-exist.json': No such file or directory
// BAD-JSON: error: tile-configure: {{.*}}Inputs/tuning-table-truncated.json: tuning table: [6:0, byte=96]: Expected object key
// BAD-ENTRY: error: tile-configure: {{.*}}Inputs/tuning-table-invalid-entry.json: tuning table entry 1: invalid config: warp tile M (48) does not divide block tile M (64)

// Errors at an op that only options cause (the sections are configured
// without them):
// RUN: not tile-opt %s -split-input-file --tile-configure=warp=48,32 2>&1 | FileCheck %s --check-prefix=OVERRIDE
// RUN: not tile-opt %s -split-input-file --tile-configure=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80

func.func @dynamic_shape(%a: memref<?x64xf32>, %b: memref<64x64xf32>, %c: memref<?x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #0 has dynamic shape 'memref<?x64xf32>'; only static shapes are supported yet}}
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x64xf32>) outs(%c : memref<?x64xf32>)
  return
}

// -----

func.func @dynamic_tensor_output(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>,
                                 %c: tensor<64x?xf32>) -> tensor<64x?xf32> {
  // expected-error @+1 {{'linalg.matmul' op operand #2 has dynamic shape 'tensor<64x?xf32>'; only static shapes are supported yet}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x?xf32>) -> tensor<64x?xf32>
  return %r : tensor<64x?xf32>
}

// -----

func.func @i32(%a: memref<64x64xi32>, %b: memref<64x64xi32>, %c: memref<64x64xi32>) {
  // expected-error @+1 {{'linalg.matmul' op element type 'i32' of operand #0 is not supported yet (f32, bf16 and f16 are)}}
  linalg.matmul ins(%a, %b : memref<64x64xi32>, memref<64x64xi32>) outs(%c : memref<64x64xi32>)
  return
}

// -----

// f32 inputs, f16 output: the output is rejected.
func.func @f16_output(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf16>) {
  // expected-error @+1 {{'linalg.matmul' op writes C of 'f16' from inputs of 'f32'; C must be f32 or the inputs' type}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// A of bf16, B of f16.
func.func @mixed_inputs(%a: memref<64x64xbf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has A of 'bf16' and B of 'f16'; both inputs must have the same element type}}
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// An fma config written on a bf16 matmul.
func.func @bf16_fma(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has 'bf16' inputs, which the fma strategy does not compute (it takes f32); bf16 and f16 matmuls use strategy = wgmma}}
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A wgmma config written on an f32 matmul is TF32, which wgmma reads only
// K-major: B stored K x N is refused (test/Transforms/configure-tf32-invalid.mlir
// has the others).
func.func @f32_wgmma(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has 'f32' inputs, which the wgmma strategy computes as TF32 only with both operands K-major (A stored M x K, B stored N x K); B is stored K x N (the fma strategy computes it in FP32)}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16]>}
    ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// The TMA cannot copy rows of K = 100 bf16 (200 bytes).
func.func @tma_unaligned(%a: memref<64x100xbf16>, %b: memref<100x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op cannot copy A (rows of K = 100) and B (rows of N = 64) 'bf16' elements with the TMA, which needs rows that are multiples of 16 bytes; use repack = true (padded copies made before the launch) or copy = registers}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = tma>}
    ins(%a, %b : memref<64x100xbf16>, memref<100x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A stored K x M: its stored rows are M = 100 bf16 (200 bytes) long, which
// the TMA cannot copy (K = 64 would do).
func.func @tma_unaligned_transposed_a(%a: memref<64x100xbf16>, %b: memref<64x64xbf16>, %c: memref<100x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op cannot copy A (rows of M = 100) and B (rows of N = 64) 'bf16' elements with the TMA, which needs rows that are multiples of 16 bytes; use repack = true (padded copies made before the launch) or copy = registers}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = tma>}
    ins(%a, %b : memref<64x100xbf16>, memref<64x64xbf16>) outs(%c : memref<100x64xf32>)
  return
}

// -----

// B stored N x K is one TMA box of BN rows a slab: 512 is over the box's
// 256 (with B row-major the same tile is eight boxes of 64 columns).
func.func @tma_box_transposed_b(%a: memref<512x512xbf16>, %b: memref<1024x512xbf16>, %c: memref<512x1024xf32>) {
  // expected-error @+1 {{'linalg.matmul' op cannot use tile config #tile.config<strategy = wgmma, block = [64, 512, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>: B stored N x K is copied in TMA boxes of block tile N = 512 rows, and a TMA box holds at most 256; use a block tile N of 256 or less, or copy = registers}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tile.config = #tile.config<strategy = wgmma, block = [64, 512, 64], warpgroup = [64, 256], mma = [64, 256, 16], copy = tma>}
    ins(%a, %b : memref<512x512xbf16>, memref<1024x512xbf16>) outs(%c : memref<512x1024xf32>)
  return
}

// -----

// A wgmma block tile K that is not one 128-byte row of bf16.
func.func @wgmma_block_k(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{block tile K (32) must be 64 for 16-bit elements: one 128-byte row of the swizzled layout}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 32], warpgroup = [64, 128], mma = [64, 128, 16]>}
    ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// wgmma instructions of 96 columns, two per warpgroup: the second would start
// 32 columns into a 64-column chunk of B and cross it, which one descriptor
// cannot express.
func.func @wgmma_instruction_crosses_chunk(%a: memref<64x64xbf16>, %b: memref<64x192xbf16>, %c: memref<64x192xf32>) {
  // expected-error @+1 {{the wgmma instruction tile N (96) must be a multiple or a divisor of 64 when a warpgroup issues several along N (192): B's descriptor cannot start inside a 64-column chunk and cross it}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 192, 64], warpgroup = [64, 192], mma = [64, 96, 16]>}
    ins(%a, %b : memref<64x64xbf16>, memref<64x192xbf16>) outs(%c : memref<64x192xf32>)
  return
}

// -----

// Two warpgroups of 96 columns: the second starts inside a chunk.
func.func @wgmma_warpgroup_crosses_chunk(%a: memref<64x64xbf16>, %b: memref<64x192xbf16>, %c: memref<64x192xf32>) {
  // expected-error @+1 {{the warpgroup tile N (96) must be a multiple or a divisor of 64 when a block has several along N (192): B's descriptor cannot start inside a 64-column chunk and cross it}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [64, 192, 64], warpgroup = [64, 96], mma = [64, 96, 16]>}
    ins(%a, %b : memref<64x64xbf16>, memref<64x192xbf16>) outs(%c : memref<64x192xf32>)
  return
}

// -----

// Split-K with wgmma adds f32 partial products atomically: a bf16 C cannot
// take them.
func.func @wgmma_split_k_bf16_c(%a: memref<64x128xbf16>, %b: memref<128x64xbf16>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{'linalg.matmul' op cannot use split_k = 2 with a 16-bit C: the wgmma strategy's split-K adds f32 partial products into C atomically, so C must be f32}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], split_k = 2>}
    ins(%a, %b : memref<64x128xbf16>, memref<128x64xbf16>) outs(%c : memref<64x64xbf16>)
  return
}

// -----

// A broadcast along m: C[m][n] += A[k] * B[k][n] (transposed operands are
// compiled: configure.mlir).
func.func @broadcast_a(%a: memref<64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op with indexing maps other than transposes of A and B (a broadcast operand, or C not indexed (m, n)) is not supported yet}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Strided memrefs (a 64x64 window of a matrix with rows of 128 elements,
// static or dynamic offsets and row strides) are compiled
// (test/Pipeline/strided-manifest.mlir, dynamic-layout.mlir); a fully
// dynamic layout (one-shot-bufferize's default at function boundaries) is
// not: its innermost stride may be anything.
func.func @dynamic_inner_stride(%a: memref<64x64xf32, strided<[?, ?], offset: ?>>, %b: memref<64x64xf32>,
                                %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #0 of type 'memref<64x64xf32, strided<[?, ?], offset: ?>>' has a dynamic innermost stride; the kernels read and write rows of contiguous elements}}
  linalg.matmul ins(%a, %b : memref<64x64xf32, strided<[?, ?], offset: ?>>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Every other column: the kernels read rows of contiguous elements.
func.func @column_stride(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                         %c: memref<64x64xf32, strided<[128, 2]>>) {
  // expected-error @+1 {{'linalg.matmul' op operand #2 of type 'memref<64x64xf32, strided<[128, 2]>>' has an innermost stride of 2; the kernels read and write rows of contiguous elements (stride 1)}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32, strided<[128, 2]>>)
  return
}

// -----

// One row read 64 times (a broadcast through a zero stride).
func.func @zero_stride(%a: memref<64x64xf32, strided<[0, 1]>>, %b: memref<64x64xf32>,
                       %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #0 of type 'memref<64x64xf32, strided<[0, 1]>>' has a stride of 0; the kernels take strides of at least 1}}
  linalg.matmul ins(%a, %b : memref<64x64xf32, strided<[0, 1]>>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// C's rows overlap: two elements of C at one address.
func.func @overlapping_c(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                         %c: memref<64x64xf32, strided<[32, 1]>>) {
  // expected-error @+1 {{'linalg.matmul' op writes C of type 'memref<64x64xf32, strided<[32, 1]>>', whose rows overlap (row stride 32 below its 64 columns): one address would hold several elements of C}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32, strided<[32, 1]>>)
  return
}

// -----

// (A's rows may overlap: it is only read.)
func.func @overlapping_batches_of_c(%a: memref<2x64x64xf32, strided<[64, 32, 1]>>, %b: memref<2x64x64xf32>,
                                    %c: memref<2x64x64xf32, strided<[4000, 64, 1]>>) {
  // expected-error @+1 {{'linalg.batch_matmul' op writes C of type 'memref<2x64x64xf32, strided<[4000, 64, 1]>>', whose matrices overlap (batch stride 4000 below the 4096 elements one matrix spans): one address would hold several elements of C}}
  linalg.batch_matmul ins(%a, %b : memref<2x64x64xf32, strided<[64, 32, 1]>>, memref<2x64x64xf32>) outs(%c : memref<2x64x64xf32, strided<[4000, 64, 1]>>)
  return
}

// -----

// Element offsets past 2^63 - 1.
func.func @huge_offset(%a: memref<64x64xf32, strided<[4611686018427387904, 1], offset: 4611686018427387904>>, %b: memref<64x64xf32>,
                       %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #0 of type 'memref<64x64xf32, strided<[4611686018427387904, 1], offset: 4611686018427387904>>' reaches past element 2^63 - 1, which 64-bit offsets do not address}}
  linalg.matmul ins(%a, %b : memref<64x64xf32, strided<[4611686018427387904, 1], offset: 4611686018427387904>>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @negative_offset(%a: memref<8x8xf32, strided<[8, 1], offset: -4>>, %b: memref<8x8xf32>,
                           %c: memref<8x8xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #0 of type 'memref<8x8xf32, strided<[8, 1], offset: -4>>' has a negative offset; the kernels address elements from the buffer's start}}
  linalg.matmul ins(%a, %b : memref<8x8xf32, strided<[8, 1], offset: -4>>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return
}

// -----

// Rows of A that overlap and are not on 16 bytes: the TMA cannot read them
// in place and the runtime cannot repack them (the model picks register
// copies; this config asks for the TMA).
func.func @overlapping_rows_repacked(%a: memref<128x64xbf16, strided<[60, 1]>>, %b: memref<64x128xbf16>,
                                     %c: memref<128x128xf32>) {
  // expected-error @+1 {{'linalg.matmul' op cannot copy A with the TMA: its rows overlap (a row stride below its row length), which the runtime cannot repack into rows on 16 bytes and the TMA cannot read in place; use copy = registers}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], repack = true>}
    ins(%a, %b : memref<128x64xbf16, strided<[60, 1]>>, memref<64x128xbf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// A layout map that is not strided.
func.func @not_strided(%a: memref<64x64xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, %b: memref<64x64xf32>,
                       %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #0 has the layout affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, which is not strided; only memrefs without a layout or with a strided one are supported}}
  linalg.matmul ins(%a, %b : memref<64x64xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @shared_memory_operand(%a: memref<64x64xf32>, %b: memref<64x64xf32, #gpu.address_space<workgroup>>,
                                 %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #1 is in memory space #gpu.address_space<workgroup>; only memrefs in the default memory space are supported}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @empty_k(%a: memref<64x0xf32>, %b: memref<0x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has an empty dimension (M = 64, N = 64, K = 0); there is nothing to compile}}
  linalg.matmul ins(%a, %b : memref<64x0xf32>, memref<0x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A batch of no matrices.
func.func @empty_batch(%a: memref<0x64x32xf32>, %b: memref<0x32x48xf32>, %c: memref<0x64x48xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op has an empty dimension (batch = 0, M = 64, N = 48, K = 32); there is nothing to compile}}
  linalg.batch_matmul ins(%a, %b : memref<0x64x32xf32>, memref<0x32x48xf32>) outs(%c : memref<0x64x48xf32>)
  return
}

// -----

// A 16x16 thread tile: 256 accumulators alone are over the register limit.
func.func @too_many_registers(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                              %c: memref<1024x1024xf32>) {
  // expected-error @+1 {{'linalg.matmul' op tile config #tile.config<block = [128, 128, 8], warp = [64, 128], thread = [16, 16], stages = 2, swizzle = 8, smem = pad(4), prefetch = true> cannot run on sm_90: an estimated 376 registers per thread (320 for the 16x16 thread tile, 32 staging, 24 overhead), over the limit of 255}}
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [64, 128], thread = [16, 16]>}
    ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// 2 stages x 64 x (256 + 4 + 256) floats = 264192 bytes.
func.func @too_much_shared_memory(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                                  %c: memref<1024x1024xf32>) {
  // expected-error @+1 {{'linalg.matmul' op tile config #tile.config<block = [256, 256, 64], warp = [64, 32], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true> cannot run on sm_90: 264192 bytes of shared memory per block, over the sm_90 limit of 232448}}
  linalg.matmul {tile.config = #tile.config<block = [256, 256, 64], warp = [64, 32], thread = [8, 8]>}
    ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// 1024 threads of 83 registers: more than the 65536 registers of an SM.
func.func @no_block_fits_on_an_sm(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                                  %c: memref<1024x1024xf32>) {
  // expected-error @+1 {{'linalg.matmul' op tile config #tile.config<block = [256, 128, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true> cannot run on sm_90: not even one block fits on an SM (limited by registers)}}
  linalg.matmul {tile.config = #tile.config<block = [256, 128, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// Every stage of a cp.async ring is a whole slice of shared memory: eight
// of 32 * (128 + 4 + 128) floats do not fit in a block's 227 KiB.
func.func @too_many_stages(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                           %c: memref<1024x1024xf32>) {
  // expected-error @+1 {{'linalg.matmul' op tile config #tile.config<block = [128, 128, 32], warp = [32, 64], thread = [8, 8], stages = 8, swizzle = 8, smem = pad(4), prefetch = true> cannot run on sm_90: 266240 bytes of shared memory per block, over the sm_90 limit of 232448}}
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 32], warp = [32, 64], thread = [8, 8], stages = 8>}
    ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

func.func @xor_layout(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                      %c: memref<1024x1024xf32>) {
  // expected-error @+1 {{'linalg.matmul' op shared-memory layout 'xor' is not supported yet (use none or pad<N>)}}
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = xor>}
    ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// (2^21 / 32)^2 = 2^32 blocks of 32x32.
func.func @grid_too_large(%a: memref<2097152x8xf32>, %b: memref<8x2097152xf32>,
                          %c: memref<2097152x2097152xf32>) {
  // expected-error @+1 {{'linalg.matmul' op needs 4294967296 thread blocks, over the grid limit of 2147483647}}
  linalg.matmul {tile.config = #tile.config<block = [32, 32, 8], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<2097152x8xf32>, memref<8x2097152xf32>) outs(%c : memref<2097152x2097152xf32>)
  return
}

// -----

// Fine as written; with warp=48,32 the config is checked again and rejected.
func.func @override_breaks_config(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                                  %c: memref<1024x1024xf32>) {
  // OVERRIDE: configure-invalid.mlir:[[@LINE+1]]:3: error: 'linalg.matmul' op cannot use tile config #tile.config<block = [64, 64, 16], warp = [48, 32], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>: warp tile M (48) does not divide block tile M (64)
  linalg.matmul {tile.config = #tile.config<block = [64, 64, 16], warp = [32, 32], thread = [4, 8]>}
    ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// 2 stages x 96 x (128 + 4 + 128) floats = 199680 bytes: within the 232448
// bytes of sm_90 (the default chip), over the 166912 of sm_80.
func.func @fits_sm90_not_sm80(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>,
                              %c: memref<1024x1024xf32>) {
  // SM80: configure-invalid.mlir:[[@LINE+1]]:3: error: 'linalg.matmul' op tile config #tile.config<block = [128, 128, 96], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true> cannot run on sm_80: 199680 bytes of shared memory per block, over the sm_80 limit of 166912
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 96], warp = [32, 64], thread = [8, 8]>}
    ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// An extent past 2^31 - 1: element offsets and tile counts would overflow.
func.func @extent_too_large(%a: memref<4294967296x8xf32>, %b: memref<8x16xf32>,
                            %c: memref<4294967296x16xf32>) {
  // expected-error @+1 {{'linalg.matmul' op operand #0 has an extent of 4294967296, over the limit of 2147483647}}
  linalg.matmul ins(%a, %b : memref<4294967296x8xf32>, memref<8x16xf32>) outs(%c : memref<4294967296x16xf32>)
  return
}

// -----

// Something other than a #tile.config under the name tile.config is an
// error, not silently replaced.
func.func @not_a_config(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op has a 'tile.config' attribute that is not a #tile.config: "block=64,64,16"}}
  linalg.matmul {tile.config = "block=64,64,16"} ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// occupancy = 8 with 256 threads caps registers at 65536 / (8 * 256) = 32
// per thread, below the 96 an 8x8 thread tile with prefetch needs.
func.func @occupancy_too_high(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  // expected-error @+1 {{cannot run on sm_90: occupancy 8 caps registers at 32 per thread, below the 96 the 8x8 thread tile needs}}
  linalg.matmul {tile.config = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], occupancy = 8>}
    ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>)
  return
}

// -----

// split_last names tiles of one matrix: 64x64 in 128x128 tiles is one.
func.func @wgmma_split_last_over_tiles(%a: memref<64x128xbf16>, %b: memref<128x64xbf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.matmul' op cannot use split_last = 2: 64x64 in block tiles of 128x128 has 1 tiles}}
  linalg.matmul {tile.config = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], split_k = 2, split_last = 2>}
    ins(%a, %b : memref<64x128xbf16>, memref<128x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}
