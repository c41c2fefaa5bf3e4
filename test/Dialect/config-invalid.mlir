// RUN: tile-opt %s --allow-unregistered-dialect -split-input-file -verify-diagnostics

// Every way a #tile.config can be rejected when it is parsed: one section
// per error of the parser (TileDialect.cpp) and the verifier
// (checkConsistency in TileConfig.cpp).

// Warp tile M does not divide block tile M.
// expected-error @+1 {{invalid #tile.config: warp tile M (48) does not divide block tile M (128)}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [48, 64], thread = [8, 8]>} : () -> ()

// -----

// Warp tile N does not divide block tile N.
// expected-error @+1 {{invalid #tile.config: warp tile N (48) does not divide block tile N (128)}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 48], thread = [8, 8]>} : () -> ()

// -----

// Thread tile M does not divide warp tile M.
// expected-error @+1 {{invalid #tile.config: thread tile M (3) does not divide warp tile M (32)}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [3, 8]>} : () -> ()

// -----

// Thread tile N does not divide warp tile N.
// expected-error @+1 {{invalid #tile.config: thread tile N (3) does not divide warp tile N (64)}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 3]>} : () -> ()

// -----

// A warp tile holding 64 thread tiles.
// expected-error @+1 {{invalid #tile.config: warp tile 32x64 holds 8x8 = 64 thread tiles of 4x8, but a warp has 32 lanes}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [4, 8]>} : () -> ()

// -----

// A warp tile holding 16 thread tiles.
// expected-error @+1 {{invalid #tile.config: warp tile 32x64 holds 4x4 = 16 thread tiles of 8x16, but a warp has 32 lanes}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 16]>} : () -> ()

// -----

// 2048 threads per block (8 x 8 warps).
// expected-error @+1 {{invalid #tile.config: block tile 256x256 with warp tile 32x32 needs 64 warps = 2048 threads per block, over the limit of 1024}}
"test.op"() {c = #tile.config<block = [256, 256, 8], warp = [32, 32], thread = [4, 8]>} : () -> ()

// -----

// Block tile M zero.
// expected-error @+1 {{invalid #tile.config: block tile M must be positive, got 0}}
"test.op"() {c = #tile.config<block = [0, 128, 8], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// Block tile N negative.
// expected-error @+1 {{invalid #tile.config: block tile N must be positive, got -128}}
"test.op"() {c = #tile.config<block = [128, -128, 8], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// Block tile K zero.
// expected-error @+1 {{invalid #tile.config: block tile K must be positive, got 0}}
"test.op"() {c = #tile.config<block = [128, 128, 0], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// Warp tile M negative.
// expected-error @+1 {{invalid #tile.config: warp tile M must be positive, got -32}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [-32, 64], thread = [8, 8]>} : () -> ()

// -----

// Warp tile N zero.
// expected-error @+1 {{invalid #tile.config: warp tile N must be positive, got 0}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 0], thread = [8, 8]>} : () -> ()

// -----

// Thread tile M zero.
// expected-error @+1 {{invalid #tile.config: thread tile M must be positive, got 0}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [0, 8]>} : () -> ()

// -----

// Thread tile N negative.
// expected-error @+1 {{invalid #tile.config: thread tile N must be positive, got -8}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, -8]>} : () -> ()

// -----

// An extent one over the limit of 65536.
// expected-error @+1 {{invalid #tile.config: block tile K (65537) is over the limit 65536}}
"test.op"() {c = #tile.config<block = [128, 128, 65537], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// A warp tile over the limit (checked before divisibility).
// expected-error @+1 {{invalid #tile.config: warp tile N (131072) is over the limit 65536}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 131072], thread = [8, 8]>} : () -> ()

// -----

// Block tile with 2 sizes.
// expected-error @+1 {{block tile must have 3 sizes (M, N, K), got 2}}
"test.op"() {c = #tile.config<block = [128, 128], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// Block tile with no size.
// expected-error @+1 {{block tile must have 3 sizes (M, N, K), got 0}}
"test.op"() {c = #tile.config<block = [], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// Warp tile with 3 sizes.
// expected-error @+1 {{warp tile must have 2 sizes (M, N), got 3}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64, 1], thread = [8, 8]>} : () -> ()

// -----

// Thread tile with 1 size.
// expected-error @+1 {{thread tile must have 2 sizes (M, N), got 1}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8]>} : () -> ()

// -----

// Missing block.
// expected-error @+1 {{#tile.config needs the field 'block'}}
"test.op"() {c = #tile.config<warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// Missing warp.
// expected-error @+1 {{#tile.config needs the field 'warp'}}
"test.op"() {c = #tile.config<block = [128, 128, 8], thread = [8, 8]>} : () -> ()

// -----

// Missing thread.
// expected-error @+1 {{#tile.config needs the field 'thread'}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64]>} : () -> ()

// -----

// No field at all.
// expected-error @+1 {{#tile.config needs the field 'block'}}
"test.op"() {c = #tile.config<>} : () -> ()

// -----

// Unknown field.
// expected-error @+1 {{unknown field 'tile' (expected strategy, block, warp, thread, warpgroup, mma, stages, copy, specialize, repack, persistent, cluster, store, swizzle, smem, prefetch, occupancy, split_k or split_last)}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], tile = 3>} : () -> ()

// -----

// A field given twice.
// expected-error @+1 {{field 'block' given twice}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], block = [64, 64, 8]>} : () -> ()

// -----

// An optional field given twice.
// expected-error @+1 {{field 'stages' given twice}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 1, stages = 2>} : () -> ()

// -----

// smem not none, pad(N) or xor.
// expected-error @+1 {{smem must be none, pad(N), xor or swizzle128, got 'swizzled'}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = swizzled>} : () -> ()

// -----

// smem given as a string.
// expected-error @+1 {{expected valid keyword}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = "xor">} : () -> ()

// -----

// pad without a count.
// expected-error @+1 {{expected '('}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = pad>} : () -> ()

// -----

// pad with a count that is not an integer.
// expected-error @+1 {{expected integer value}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = pad(x)>} : () -> ()

// -----

// pad with two counts.
// expected-error @+1 {{expected ')'}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = pad(4, 8)>} : () -> ()

// -----

// Negative padding.
// expected-error @+1 {{invalid #tile.config: shared-memory padding must not be negative, got -4}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = pad(-4)>} : () -> ()

// -----

// xor with block tile M not a multiple of 4.
// expected-error @+1 {{invalid #tile.config: xor layout needs block tile M (2) to be a multiple of 4 (16-byte granules)}}
"test.op"() {c = #tile.config<block = [2, 128, 8], warp = [1, 64], thread = [1, 2], smem = xor>} : () -> ()

// -----

// xor with 24 granules (block tile M 96), not a power of two.
// expected-error @+1 {{invalid #tile.config: xor layout needs a power-of-two number of 16-byte granules per row, block tile M 96 has 24}}
"test.op"() {c = #tile.config<block = [96, 128, 8], warp = [32, 64], thread = [8, 8], smem = xor>} : () -> ()

// -----

// prefetch not true or false.
// expected-error @+1 {{prefetch must be true or false, got 'yes'}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], prefetch = yes>} : () -> ()

// -----

// prefetch given as a number.
// expected-error @+1 {{expected valid keyword}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], prefetch = 1>} : () -> ()

// -----

// stages = 0.
// expected-error @+1 {{invalid #tile.config: stages must be at least 1, got 0}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 0>} : () -> ()

// -----

// stages not an integer.
// expected-error @+1 {{expected integer value}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = two>} : () -> ()

// -----

// swizzle = 0.
// expected-error @+1 {{invalid #tile.config: swizzle group must be at least 1, got 0}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], swizzle = 0>} : () -> ()

// -----

// swizzle negative.
// expected-error @+1 {{invalid #tile.config: swizzle group must be at least 1, got -2}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], swizzle = -2>} : () -> ()

// -----

// swizzle not an integer.
// expected-error @+1 {{expected integer value}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], swizzle = 1.5>} : () -> ()

// -----

// A size that is not an integer.
// expected-error @+1 {{expected integer value}}
"test.op"() {c = #tile.config<block = [128, x, 8], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// A size too large for 64 bits.
// expected-error @+1 {{integer value too large}}
"test.op"() {c = #tile.config<block = [99999999999999999999, 128, 8], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// A size list without brackets.
// expected-error @+1 {{expected '['}}
"test.op"() {c = #tile.config<block = 128, warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// A field without '='.
// expected-error @+1 {{expected '='}}
"test.op"() {c = #tile.config<block [128, 128, 8], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// A field name that is not a keyword.
// expected-error @+1 {{expected valid keyword}}
"test.op"() {c = #tile.config<1 = 2>} : () -> ()

// -----

// A trailing comma.
// expected-error @+1 {{expected valid keyword}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8],>} : () -> ()

// -----

// A missing comma between fields.
// expected-error @+1 {{expected '>'}}
"test.op"() {c = #tile.config<block = [128, 128, 8] warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// occupancy past the 32 blocks an SM can hold.
// expected-error @+1 {{invalid #tile.config: occupancy must be between 0 (no hint) and 32 blocks per SM, got 33}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], occupancy = 33>} : () -> ()

// -----

// Padding past the extent limit (it would overflow the shared-memory size).
// expected-error @+1 {{invalid #tile.config: shared-memory padding (1152921504606846976) is over the limit 65536}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = pad(1152921504606846976)>} : () -> ()

// -----

// Without the angle brackets: one error, where they are missing.
// expected-error @+1 {{expected '<'}}
"test.op"() {c = #tile.config} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: split_k must be between 1 (no split) and 1024, got 0}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], split_k = 0>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: split_k must be between 1 (no split) and 1024, got 2048}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], split_k = 2048>} : () -> ()

// -----

// wgmma instruction M other than 64.
// expected-error @+1 {{invalid #tile.config: wgmma instruction tile M must be 64, got 128}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [128, 256], mma = [128, 256, 16]>} : () -> ()

// -----

// wgmma instruction N not a multiple of 8.
// expected-error @+1 {{invalid #tile.config: wgmma instruction tile N must be a multiple of 8 from 8 to 256, got 12}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 96, 64], warpgroup = [64, 96], mma = [64, 12, 16]>} : () -> ()

// -----

// wgmma instruction N over 256.
// expected-error @+1 {{invalid #tile.config: wgmma instruction tile N must be a multiple of 8 from 8 to 256, got 264}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 264, 64], warpgroup = [64, 264], mma = [64, 264, 16]>} : () -> ()

// -----

// Warpgroup tile M not a multiple of 64.
// expected-error @+1 {{invalid #tile.config: warpgroup tile M (96) must be a multiple of 64, the M of one wgmma}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [96, 128, 64], warpgroup = [96, 128], mma = [64, 128, 16]>} : () -> ()

// -----

// Instruction N does not divide the warpgroup tile N.
// expected-error @+1 {{invalid #tile.config: wgmma instruction tile N (48) does not divide warpgroup tile N (128)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 48, 16]>} : () -> ()

// -----

// Warpgroup tile does not divide the block tile.
// expected-error @+1 {{invalid #tile.config: warpgroup tile N (96) does not divide block tile N (128)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 96], mma = [64, 96, 16]>} : () -> ()

// -----

// A k step wgmma does not have.
// expected-error @+1 {{invalid #tile.config: wgmma k step must be 8, 16 or 32, got 4}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 4]>} : () -> ()

// -----

// The k step does not divide the block tile K.
// expected-error @+1 {{invalid #tile.config: wgmma k step (16) does not divide block tile K (40)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 40], warpgroup = [64, 128], mma = [64, 128, 16]>} : () -> ()

// -----

// cp.async is not a wgmma copy.
// expected-error @+1 {{invalid #tile.config: copy 'cp_async' is not available for wgmma (use tma or registers)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = cp_async>} : () -> ()

// -----

// wgmma needs the 128-byte swizzle.
// expected-error @+1 {{invalid #tile.config: wgmma reads its operands in the 128-byte swizzled layout: smem must be swizzle128, got 'pad'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], smem = pad(4)>} : () -> ()

// -----

// A ring of one slot.
// expected-error @+1 {{invalid #tile.config: the wgmma ring needs at least 2 stages, got 1}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 1>} : () -> ()

// -----

// Too many warpgroups: 8 consumers and a producer = 1152 threads.
// expected-error @+1 {{invalid #tile.config: block tile 256x512 with warpgroup tile 64x256 needs 36 warps = 1152 threads per block, over the limit of 1024}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [256, 512, 64], warpgroup = [64, 256], mma = [64, 256, 16]>} : () -> ()

// -----

// The fields of the other strategy: warp for wgmma.
// expected-error @+1 {{field 'warp' is not used by the wgmma strategy (use warpgroup)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warp = [64, 128], mma = [64, 128, 16]>} : () -> ()

// -----

// thread for wgmma.
// expected-error @+1 {{field 'thread' is not used by the wgmma strategy (use mma)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], thread = [64, 128]>} : () -> ()

// -----

// prefetch for wgmma.
// expected-error @+1 {{field 'prefetch' is not used by the wgmma strategy}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], prefetch = true>} : () -> ()

// -----

// warpgroup for fma.
// expected-error @+1 {{field 'warpgroup' is not used by the fma strategy (use warp)}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warpgroup = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// mma for fma.
// expected-error @+1 {{field 'mma' is not used by the fma strategy (use thread)}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], mma = [8, 8, 1]>} : () -> ()

// -----

// specialize for fma.
// expected-error @+1 {{field 'specialize' is not used by the fma strategy}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], specialize = true>} : () -> ()

// -----

// An fma copy kind that its stages contradict.
// expected-error @+1 {{with stages = 2 the fma strategy copies through 'registers', not 'cp_async'}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], copy = cp_async>} : () -> ()

// -----

// TMA for fma (with 3 stages, which copy through cp.async).
// expected-error @+1 {{with stages = 3 the fma strategy copies through 'cp_async', not 'tma'}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 3, copy = tma>} : () -> ()

// -----

// The 128-byte swizzle for fma.
// expected-error @+1 {{invalid #tile.config: the swizzle128 layout needs the wgmma strategy}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], smem = swizzle128>} : () -> ()

// -----

// An unknown strategy.
// expected-error @+1 {{unknown strategy 'mma_sync'}}
"test.op"() {c = #tile.config<strategy = mma_sync, block = [128, 128, 8], warp = [32, 64], thread = [8, 8]>} : () -> ()

// -----

// An unknown copy kind.
// expected-error @+1 {{unknown copy kind 'bulk'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = bulk>} : () -> ()

// -----

// specialize that is not a bool.
// expected-error @+1 {{specialize must be true or false, got 'yes'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], specialize = yes>} : () -> ()

// -----

// A wgmma config without its instruction tile.
// expected-error @+1 {{#tile.config needs the field 'mma'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128]>} : () -> ()

// -----

// mma with two sizes.
// expected-error @+1 {{mma instruction tile must have 3 sizes (M, N, K), got 2}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128]>} : () -> ()

// -----

// Copies through registers without a producer warpgroup.
// expected-error @+1 {{invalid #tile.config: copy 'registers' needs specialize = true (a producer warpgroup does the copies)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = registers, specialize = false>} : () -> ()

// -----

// Repacking pads what the TMA reads: not for copies through registers.
// expected-error @+1 {{invalid #tile.config: repack = true needs copy = tma (it pads the rows the TMA reads), got copy 'registers'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = registers, repack = true>} : () -> ()

// -----

// repack that is not a bool.
// expected-error @+1 {{repack must be true or false, got 'maybe'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], repack = maybe>} : () -> ()

// -----

// store for fma.
// expected-error @+1 {{field 'store' is not used by the fma strategy}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], store = tma>} : () -> ()

// -----

// A store kind that does not exist.
// expected-error @+1 {{unknown store 'shared'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], store = shared>} : () -> ()

// -----

// TMA stores are the consumers' while a producer runs the TMA ring.
// expected-error @+1 {{invalid #tile.config: store = tma needs specialize = true and copy = tma (the consumer warpgroups stage C while the producer's TMA ring runs)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], specialize = false, store = tma>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: store = tma needs specialize = true and copy = tma (the consumer warpgroups stage C while the producer's TMA ring runs)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = registers, store = tma>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: store = tma does not combine with split_k = 2 (split-K adds into C atomically)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], split_k = 2, store = tma>} : () -> ()

// -----

// persistent for fma.
// expected-error @+1 {{field 'persistent' is not used by the fma strategy}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], persistent = true>} : () -> ()

// -----

// A persistent kernel's producer runs its TMA ring on from tile to tile:
// not without specialization.
// expected-error @+1 {{invalid #tile.config: persistent = true needs specialize = true and copy = tma (the producer's TMA ring runs on from tile to tile)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], specialize = false, persistent = true>} : () -> ()

// -----

// Nor with copies through registers.
// expected-error @+1 {{invalid #tile.config: persistent = true needs specialize = true and copy = tma (the producer's TMA ring runs on from tile to tile)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], copy = registers, persistent = true>} : () -> ()

// -----

// Nor with split-K (its blocks' K ranges differ).
// expected-error @+1 {{invalid #tile.config: persistent = true does not combine with split_k = 2}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], split_k = 2, persistent = true>} : () -> ()

// -----

// persistent that is not a bool.
// expected-error @+1 {{persistent must be true or false, got 'yes'}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], persistent = yes>} : () -> ()

// -----

// cluster for fma.
// expected-error @+1 {{field 'cluster' is not used by the fma strategy}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], cluster = [2, 1]>} : () -> ()

// -----

// A cluster has two extents (M, N).
// expected-error @+1 {{cluster must have 2 sizes (M, N), got 3}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [2, 1, 1]>} : () -> ()

// -----

// Only 1x1, 2x1 and 1x2 clusters are built.
// expected-error @+1 {{invalid #tile.config: cluster 2x2 is not available (1x1; 2x1: two blocks along M that share B's slabs; 1x2: two blocks along N that share A's slabs)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [2, 2]>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: cluster 4x1 is not available (1x1; 2x1: two blocks along M that share B's slabs; 1x2: two blocks along N that share A's slabs)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [4, 1]>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: cluster 1x4 is not available}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [1, 4]>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: cluster extents must be at least 1, got 0x1}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [0, 1]>} : () -> ()

// -----

// The producers multicast with the TMA: not without specialization ...
// expected-error @+1 {{invalid #tile.config: cluster 2x1 needs specialize = true and copy = tma (the producers multicast B's boxes with the TMA)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], specialize = false, cluster = [2, 1]>} : () -> ()

// -----

// ... nor with copies through registers.
// expected-error @+1 {{invalid #tile.config: cluster 2x1 needs specialize = true and copy = tma (the producers multicast B's boxes with the TMA)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], copy = registers, cluster = [2, 1]>} : () -> ()

// -----

// Not with split-K.
// expected-error @+1 {{invalid #tile.config: cluster 2x1 does not combine with split_k = 2}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], split_k = 2, cluster = [2, 1]>} : () -> ()

// -----

// B's slab is split in two (its 64-column chunks, or halves of its rows
// where B is stored N x K): block N of 192 has three chunks.
// expected-error @+1 {{invalid #tile.config: cluster 2x1 splits B's slab between the two blocks (its 64-element chunks, or halves of its rows): block tile N (192) must be a multiple of 128}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 192, 64], warpgroup = [64, 192], mma = [64, 192, 16], cluster = [2, 1]>} : () -> ()

// -----

// 1x2 splits A's slab: block M of 64 cannot.
// expected-error @+1 {{invalid #tile.config: cluster 1x2 splits A's slab between the two blocks (its 64-element chunks, or halves of its rows): block tile M (64) must be a multiple of 128}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [64, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], cluster = [1, 2]>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: cluster 1x2 needs specialize = true and copy = tma (the producers multicast A's boxes with the TMA)}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], copy = registers, cluster = [1, 2]>} : () -> ()

// -----

// split_last splits the last tiles split_k ways: it needs a split.
// expected-error @+1 {{invalid #tile.config: split_last = 3 splits the last tiles split_k ways, but split_k is 1}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], split_last = 3>} : () -> ()

// -----

// expected-error @+1 {{invalid #tile.config: split_last must be between 0 (every tile split) and 2^31 tiles, got -1}}
"test.op"() {c = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], split_k = 2, split_last = -1>} : () -> ()

// -----

// The fma strategy splits every tile or none.
// expected-error @+1 {{invalid #tile.config: split_last = 2 needs the wgmma strategy}}
"test.op"() {c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], split_k = 2, split_last = 2>} : () -> ()
