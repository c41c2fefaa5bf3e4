// RUN: tile-opt %s --allow-unregistered-dialect | tile-opt --allow-unregistered-dialect | FileCheck %s

// #tile.config prints every field (occupancy only when set), always in the
// order block, warp, thread, stages, swizzle, smem, prefetch, occupancy, and
// parses back to the same attribute
// (the RUN line prints, parses the print and prints again).

// Every field given.
// CHECK: "test.op"() {all_fields = #tile.config<block = [64, 128, 16], warp = [32, 32], thread = [4, 8], stages = 1, swizzle = 4, smem = pad(2), prefetch = false>} : () -> ()
"test.op"() {all_fields = #tile.config<block = [64, 128, 16], warp = [32, 32],
    thread = [4, 8], stages = 1, swizzle = 4, smem = pad(2), prefetch = false>}
    : () -> ()

// The optional fields omitted: stages, swizzle, smem and prefetch take their
// defaults 2, 8, pad(4), true.
// CHECK: "test.op"() {defaults = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>} : () -> ()
"test.op"() {defaults = #tile.config<block = [128, 128, 8], warp = [32, 64],
    thread = [8, 8]>} : () -> ()

// Fields in any order; printed in the canonical order.
// CHECK: "test.op"() {any_order = #tile.config<block = [64, 64, 16], warp = [16, 32], thread = [4, 4], stages = 1, swizzle = 2, smem = none, prefetch = false>} : () -> ()
"test.op"() {any_order = #tile.config<prefetch = false, smem = none,
    thread = [4, 4], swizzle = 2, warp = [16, 32], stages = 1,
    block = [64, 64, 16]>} : () -> ()

// Each shared-memory layout. pad(0) stays a padded layout: it is not
// folded into none.
// CHECK: "test.op"() {smem_none = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = none, prefetch = true>} : () -> ()
"test.op"() {smem_none = #tile.config<block = [128, 128, 8], warp = [32, 64],
    thread = [8, 8], smem = none>} : () -> ()
// CHECK: "test.op"() {smem_pad0 = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(0), prefetch = true>} : () -> ()
"test.op"() {smem_pad0 = #tile.config<block = [128, 128, 8], warp = [32, 64],
    thread = [8, 8], smem = pad(0)>} : () -> ()
// CHECK: "test.op"() {smem_pad8 = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(8), prefetch = true>} : () -> ()
"test.op"() {smem_pad8 = #tile.config<block = [128, 128, 8], warp = [32, 64],
    thread = [8, 8], smem = pad(8)>} : () -> ()
// Block tile M 128 = 32 granules of 16 bytes, a power of two.
// CHECK: "test.op"() {smem_xor = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = xor, prefetch = true>} : () -> ()
"test.op"() {smem_xor = #tile.config<block = [128, 128, 8], warp = [32, 64],
    thread = [8, 8], smem = xor>} : () -> ()
// Block tile M 4 = one granule (2^0), the smallest xor tile.
// CHECK: "test.op"() {smem_xor_one_granule = #tile.config<block = [4, 256, 8], warp = [4, 256], thread = [1, 32], stages = 2, swizzle = 8, smem = xor, prefetch = true>} : () -> ()
"test.op"() {smem_xor_one_granule = #tile.config<block = [4, 256, 8],
    warp = [4, 256], thread = [1, 32], smem = xor>} : () -> ()

// prefetch = false alone.
// CHECK: "test.op"() {no_prefetch = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = false>} : () -> ()
"test.op"() {no_prefetch = #tile.config<block = [128, 128, 8], warp = [32, 64],
    thread = [8, 8], prefetch = false>} : () -> ()

// stages = 1 and swizzle = 1, the smallest values allowed.
// CHECK: "test.op"() {one_stage = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 1, swizzle = 1, smem = pad(4), prefetch = true>} : () -> ()
"test.op"() {one_stage = #tile.config<block = [128, 128, 8], warp = [32, 64],
    thread = [8, 8], stages = 1, swizzle = 1>} : () -> ()

// Limits that are allowed: exactly 1024 threads per block (8 x 4 warps of
// 32 lanes) and an extent of exactly 65536.
// CHECK: "test.op"() {max_threads = #tile.config<block = [256, 128, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>} : () -> ()
"test.op"() {max_threads = #tile.config<block = [256, 128, 8], warp = [32, 32],
    thread = [4, 8]>} : () -> ()
// CHECK: "test.op"() {max_extent = #tile.config<block = [128, 128, 65536], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>} : () -> ()
"test.op"() {max_extent = #tile.config<block = [128, 128, 65536],
    warp = [32, 64], thread = [8, 8]>} : () -> ()

// On a function, as the passes find it.
// CHECK: func.func private @on_func() attributes {tile.config = #tile.config<block = [32, 32, 32], warp = [16, 32], thread = [4, 4], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>}
func.func private @on_func() attributes {tile.config = #tile.config<
    block = [32, 32, 32], warp = [16, 32], thread = [4, 4]>}

// -----

// occupancy is printed only when set.
// CHECK-LABEL: func.func @occupancy
// CHECK-SAME: c = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true, occupancy = 2>
// CHECK-SAME: d = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>
func.func @occupancy() attributes {c = #tile.config<occupancy = 2, block = [128, 128, 8], warp = [32, 64], thread = [8, 8]>,
                                   d = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], occupancy = 0>} {
  return
}

// -----

// split_k is printed only when above 1.
// CHECK-LABEL: func.func @split_k
// CHECK-SAME: c = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true, occupancy = 1, split_k = 8>
// CHECK-SAME: d = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], stages = 2, swizzle = 8, smem = pad(4), prefetch = true>
func.func @split_k() attributes {c = #tile.config<split_k = 8, occupancy = 1, block = [64, 64, 8], warp = [32, 32], thread = [4, 8]>,
                                 d = #tile.config<block = [64, 64, 8], warp = [32, 32], thread = [4, 8], split_k = 1>} {
  return
}

// -----

// split_last (wgmma) is printed only when above 0, after split_k.
// CHECK-LABEL: func.func @split_last
// CHECK-SAME: c = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, split_k = 6, split_last = 21>
// CHECK-SAME: d = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, split_k = 6>
func.func @split_last() attributes {c = #tile.config<split_last = 21, strategy = wgmma, split_k = 6, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16]>,
                                    d = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], split_k = 6, split_last = 0>} {
  return
}

// The wgmma strategy: warpgroup and mma name its tiles; copy and specialize
// are its own fields; prefetch is not printed.
// CHECK: "test.op"() {wgmma_all = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, copy = registers, specialize = true, swizzle = 4, smem = swizzle128, occupancy = 1>} : () -> ()
"test.op"() {wgmma_all = #tile.config<strategy = wgmma, block = [128, 128, 64],
    warpgroup = [64, 128], mma = [64, 64, 16], stages = 3, copy = registers,
    specialize = true, swizzle = 4, smem = swizzle128, occupancy = 1>}
    : () -> ()

// Its defaults: stages 4, a TMA ring filled by a producer warpgroup, launch
// swizzle 8, the 128-byte swizzle; the strategy may come last.
// CHECK: "test.op"() {wgmma_defaults = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>} : () -> ()
"test.op"() {wgmma_defaults = #tile.config<block = [128, 256, 64],
    warpgroup = [64, 256], mma = [64, 256, 16], strategy = wgmma>} : () -> ()

// repack is printed when true (after smem, before occupancy); false is the
// default and not printed.
// CHECK: "test.op"() {wgmma_repack = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true, occupancy = 2>} : () -> ()
"test.op"() {wgmma_repack = #tile.config<strategy = wgmma, block = [128, 128, 64],
    warpgroup = [64, 128], mma = [64, 128, 16], occupancy = 2, repack = true>} : () -> ()
// CHECK: "test.op"() {wgmma_no_repack = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>} : () -> ()
"test.op"() {wgmma_no_repack = #tile.config<strategy = wgmma, block = [128, 128, 64],
    warpgroup = [64, 128], mma = [64, 128, 16], repack = false>} : () -> ()

// An fma config repacks too (B's padded copy): printed after prefetch.
// CHECK: "test.op"() {fma_repack = #tile.config<block = [64, 128, 16], warp = [32, 64], thread = [8, 8], stages = 3, swizzle = 8, smem = pad(4), prefetch = true, repack = true, occupancy = 2>} : () -> ()
"test.op"() {fma_repack = #tile.config<block = [64, 128, 16], warp = [32, 64],
    thread = [8, 8], stages = 3, repack = true, occupancy = 2>} : () -> ()

// persistent is printed when true (after repack); false is the default and
// not printed.
// CHECK: "test.op"() {wgmma_persistent = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, repack = true, persistent = true, occupancy = 2>} : () -> ()
"test.op"() {wgmma_persistent = #tile.config<strategy = wgmma, persistent = true,
    block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], occupancy = 2, repack = true>} : () -> ()
// CHECK: "test.op"() {wgmma_not_persistent = #tile.config<strategy = wgmma, block = [128, 128, 64], warpgroup = [64, 128], mma = [64, 128, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>} : () -> ()
"test.op"() {wgmma_not_persistent = #tile.config<strategy = wgmma, block = [128, 128, 64],
    warpgroup = [64, 128], mma = [64, 128, 16], persistent = false>} : () -> ()

// An fma config may spell out its strategy and its copy kind (which its
// stages imply); neither is printed.
// CHECK: "test.op"() {fma_explicit = #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8], stages = 3, swizzle = 8, smem = pad(4), prefetch = true>} : () -> ()
"test.op"() {fma_explicit = #tile.config<strategy = fma, block = [128, 128, 8],
    warp = [32, 64], thread = [8, 8], stages = 3, copy = cp_async>} : () -> ()

// cluster is printed when not 1x1 (after persistent's place).
// CHECK: "test.op"() {wgmma_cluster = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, cluster = [2, 1]>} : () -> ()
"test.op"() {wgmma_cluster = #tile.config<strategy = wgmma, cluster = [2, 1],
    block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16]>} : () -> ()
// CHECK: "test.op"() {wgmma_cluster_n = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, cluster = [1, 2]>} : () -> ()
"test.op"() {wgmma_cluster_n = #tile.config<strategy = wgmma, cluster = [1, 2],
    block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16]>} : () -> ()
// CHECK: "test.op"() {wgmma_no_cluster = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>} : () -> ()
"test.op"() {wgmma_no_cluster = #tile.config<strategy = wgmma, cluster = [1, 1],
    block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16]>} : () -> ()
// A persistent kernel with a cluster: both printed (persistent first).
// CHECK: "test.op"() {wgmma_persistent_cluster = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, cluster = [2, 1]>} : () -> ()
"test.op"() {wgmma_persistent_cluster = #tile.config<strategy = wgmma, cluster = [2, 1], persistent = true,
    block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16]>} : () -> ()
// store = tma is printed last among the wgmma fields, only when set;
// store = registers is the default.
// CHECK: "test.op"() {wgmma_tma_store = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128, persistent = true, cluster = [2, 1], store = tma>} : () -> ()
"test.op"() {wgmma_tma_store = #tile.config<strategy = wgmma, store = tma, cluster = [2, 1], persistent = true,
    block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16]>} : () -> ()
// CHECK: "test.op"() {wgmma_register_store = #tile.config<strategy = wgmma, block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16], stages = 4, copy = tma, specialize = true, swizzle = 8, smem = swizzle128>} : () -> ()
"test.op"() {wgmma_register_store = #tile.config<strategy = wgmma, store = registers,
    block = [128, 256, 64], warpgroup = [64, 256], mma = [64, 256, 16]>} : () -> ()
