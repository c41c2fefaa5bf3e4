// RUN: not tile-interp %s | FileCheck %s

// Hand-written kernels that show what tile-interp catches. Most compute an
// 8x8x8 C += A*B with 64 threads: thread (i, j) = (tid / 8, tid % 8) stages
// A[i][j] and B[i][j] in shared memory, then computes C[i][j]. The correct
// forms pass; each broken one fails with the reason.

!raw = memref<?xi8, #gpu.address_space<workgroup>>
!tile = memref<8x8xf32, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
gpu.module @kernels {

// CHECK: PASS staged m=8 n=8 k=8 max-rel-err=
gpu.func @staged(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c256][] : !raw to !tile
  %a = memref.load %A[%i, %j] : memref<8x8xf32>
  memref.store %a, %sa[%i, %j] : !tile
  %b = memref.load %B[%i, %j] : memref<8x8xf32>
  memref.store %b, %sb[%i, %j] : !tile
  gpu.barrier
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %sa[%i, %k] : !tile
    %y = memref.load %sb[%k, %j] : !tile
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}

// Without the barrier, thread 0 reads A[0][1] from shared memory before
// thread 1 stores it.
// CHECK: FAIL missing_barrier m=8 n=8 k=8: data race: writes shared memory byte 4 read by thread 0 of block 0 with no barrier in between [block 0, thread 1]
// CHECK-NEXT: at: memref.store
gpu.func @missing_barrier(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c256][] : !raw to !tile
  %a = memref.load %A[%i, %j] : memref<8x8xf32>
  memref.store %a, %sa[%i, %j] : !tile
  %b = memref.load %B[%i, %j] : memref<8x8xf32>
  memref.store %b, %sb[%i, %j] : !tile
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %sa[%i, %k] : !tile
    %y = memref.load %sb[%k, %j] : !tile
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}

// B's slice read transposed: the values are wrong.
// CHECK: FAIL wrong_index m=8 n=8 k=8: 64 of 64 elements of C wrong; first wrong element (0, 0) got {{.*}} want
gpu.func @wrong_index(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c256][] : !raw to !tile
  %a = memref.load %A[%i, %j] : memref<8x8xf32>
  memref.store %a, %sa[%i, %j] : !tile
  %b = memref.load %B[%i, %j] : memref<8x8xf32>
  memref.store %b, %sb[%i, %j] : !tile
  gpu.barrier
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %sa[%i, %k] : !tile
    %y = memref.load %sb[%j, %k] : !tile
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}

// The k loop reads A one column to the right: A[i][8] in its last step.
// CHECK: FAIL out_of_bounds m=8 n=8 k=8: out-of-bounds access: index [0, 8] outside the 8x8 memref<8x8xf32> of A [block 0, thread 0]
// CHECK-NEXT: at: {{.*}}memref.load %arg0
gpu.func @out_of_bounds(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %k1 = arith.addi %k, %c1 : index
    %x = memref.load %A[%i, %k1] : memref<8x8xf32>
    %y = memref.load %B[%k, %j] : memref<8x8xf32>
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}

// B's shared tile placed 128 bytes too far: past the 512 bytes the kernel
// declares (reading it would read another kernel's shared memory).
// CHECK: FAIL view_past_shared_memory m=8 n=8 k=8: memref.view of 256 bytes at byte shift 384 reaches past the 512 bytes of shared memory the launch provides (dynamic shared memory) [block 0, thread 0]
gpu.func @view_past_shared_memory(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c384 = arith.constant 384 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c384][] : !raw to !tile
  gpu.return
}

// The same staging with cp.async: each thread's two copies form a group,
// waited for before the barrier.
// CHECK: PASS async_copy m=8 n=8 k=8 max-rel-err=
gpu.func @async_copy(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c256][] : !raw to !tile
  %t1 = nvgpu.device_async_copy %A[%i, %j], %sa[%i, %j], 1 : memref<8x8xf32> to !tile
  %t2 = nvgpu.device_async_copy %B[%i, %j], %sb[%i, %j], 1 : memref<8x8xf32> to !tile
  %g = nvgpu.device_async_create_group %t1, %t2
  nvgpu.device_async_wait %g {numGroups = 0 : i32}
  gpu.barrier
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %sa[%i, %k] : !tile
    %y = memref.load %sb[%k, %j] : !tile
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}

// Without the wait, the copies may not have landed when the barrier is
// passed: the data read is stale.
// CHECK: FAIL missing_async_wait m=8 n=8 k=8: reads shared memory byte 0 before a device_async_wait completed this thread's cp.async into it (a missing wait: the data is stale) [block 0, thread 0]
// CHECK-NEXT: at: {{.*}}memref.load
gpu.func @missing_async_wait(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c256][] : !raw to !tile
  %t1 = nvgpu.device_async_copy %A[%i, %j], %sa[%i, %j], 1 : memref<8x8xf32> to !tile
  %t2 = nvgpu.device_async_copy %B[%i, %j], %sb[%i, %j], 1 : memref<8x8xf32> to !tile
  %g = nvgpu.device_async_create_group %t1, %t2
  gpu.barrier
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %sa[%i, %k] : !tile
    %y = memref.load %sb[%k, %j] : !tile
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  nvgpu.device_async_wait %g {numGroups = 0 : i32}
  gpu.return
}

// A and B in two groups; the wait lets the newer one (B's) stay in flight.
// CHECK: FAIL wait_leaves_group_in_flight m=8 n=8 k=8: reads shared memory byte 256 before a device_async_wait completed this thread's cp.async into it (a missing wait: the data is stale) [block 0, thread 0]
gpu.func @wait_leaves_group_in_flight(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c256][] : !raw to !tile
  %t1 = nvgpu.device_async_copy %A[%i, %j], %sa[%i, %j], 1 : memref<8x8xf32> to !tile
  %g1 = nvgpu.device_async_create_group %t1
  %t2 = nvgpu.device_async_copy %B[%i, %j], %sb[%i, %j], 1 : memref<8x8xf32> to !tile
  %g2 = nvgpu.device_async_create_group %t2
  nvgpu.device_async_wait %g2 {numGroups = 1 : i32}
  gpu.barrier
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %x0 = memref.load %sa[%i, %c0] : !tile
  %y0 = memref.load %sb[%c0, %c0] : !tile
  %p = math.fma %x0, %y0, %c : f32
  memref.store %p, %C[%i, %j] : memref<8x8xf32>
  nvgpu.device_async_wait %g2 {numGroups = 0 : i32}
  gpu.return
}

// K = 5 staged as 8-deep tiles: the copies of columns / rows past K read no
// source element and zero-fill (cp.async's src-size), so the extra products
// are zero.
// CHECK: PASS async_zero_fill m=8 n=8 k=5 max-rel-err=
gpu.func @async_zero_fill(%A: memref<8x5xf32>, %B: memref<5x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 5 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %sb = memref.view %smem[%c256][] : !raw to !tile
  %ja = arith.minui %j, %c4 : index
  %jin = arith.cmpi ult, %j, %c5 : index
  %na = arith.select %jin, %c1, %c0 : index
  %t1 = nvgpu.device_async_copy %A[%i, %ja], %sa[%i, %j], 1, %na : memref<8x5xf32> to !tile
  %ib = arith.minui %i, %c4 : index
  %iin = arith.cmpi ult, %i, %c5 : index
  %nb = arith.select %iin, %c1, %c0 : index
  %t2 = nvgpu.device_async_copy %B[%ib, %j], %sb[%i, %j], 1, %nb : memref<5x8xf32> to !tile
  %g = nvgpu.device_async_create_group %t1, %t2
  nvgpu.device_async_wait %g {numGroups = 0 : i32}
  gpu.barrier
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %sa[%i, %k] : !tile
    %y = memref.load %sb[%k, %j] : !tile
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}

// Copies issued and never waited for.
// CHECK: FAIL copies_never_waited m=8 n=8 k=8: thread returned with 1 cp.async copies still in flight (0 never committed to a group): no device_async_wait completed them; the first was issued here [block 0, thread 0]
gpu.func @copies_never_waited(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.dynamic_shared_bytes = 512 : i64, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %smem = gpu.dynamic_shared_memory : !raw
  %sa = memref.view %smem[%c0][] : !raw to !tile
  %t1 = nvgpu.device_async_copy %A[%i, %j], %sa[%i, %j], 1 : memref<8x8xf32> to !tile
  %g = nvgpu.device_async_create_group %t1
  gpu.return
}

// Half the threads skip the barrier: on a GPU the others wait forever.
// CHECK: FAIL divergent_barrier m=8 n=8 k=8: barrier never reached by thread 32 (it returned) while thread 0 waits here: a deadlock on the GPU
gpu.func @divergent_barrier(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x
  %low = arith.cmpi ult, %tid, %c32 : index
  scf.if %low {
    gpu.barrier
  }
  gpu.return
}

// A kernel that only writes C (c_init = "fill") must not read it: C starts
// as NaN and uninitialised.
// CHECK: FAIL fill_reads_c m=8 n=8 k=8: reads C[0][0], which nothing wrote before (uninitialised) [block 0, thread 0]
gpu.func @fill_reads_c(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.matmul = {c_init = "fill", c_fill = 0.0 : f32, c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j = arith.remui %tid, %c8 : index
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %A[%i, %k] : memref<8x8xf32>
    %y = memref.load %B[%k, %j] : memref<8x8xf32>
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}

// Inline asm other than the two forms the passes emit is not guessed at.
// CHECK: FAIL unknown_asm m=8 n=8 k=8: cannot interpret the kernel: unsupported llvm.inline_asm "add.u32 $0, $1, 1;"
gpu.func @unknown_asm(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %tid = gpu.thread_id x
  %t = arith.index_castui %tid : index to i32
  %u = llvm.inline_asm "add.u32 $0, $1, 1;", "=r,r" %t : (i32) -> i32
  gpu.return
}
}

// Index arithmetic wraps at the kernel's index width: j + (2^32 - 1) + 1 is
// j with a 32-bit index (it would be out of bounds with a 64-bit one).
// CHECK: PASS index_wraps_at_32_bits m=8 n=8 k=8 max-rel-err=
gpu.module @narrow attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
gpu.func @index_wraps_at_32_bits(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 8 : i64, n = 8 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %big = arith.constant 4294967295 : index
  %tid = gpu.thread_id x
  %i = arith.divui %tid, %c8 : index
  %j0 = arith.remui %tid, %c8 : index
  %jm1 = arith.addi %j0, %big : index
  %j = arith.addi %jm1, %c1 : index
  %c = memref.load %C[%i, %j] : memref<8x8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
    %x = memref.load %A[%i, %k] : memref<8x8xf32>
    %y = memref.load %B[%k, %j] : memref<8x8xf32>
    %p = math.fma %x, %y, %acc : f32
    scf.yield %p : f32
  }
  memref.store %r, %C[%i, %j] : memref<8x8xf32>
  gpu.return
}
}

// Launch order: a 16x32 C in 8x16 tiles, four blocks of one warp. Block b
// computes tile (b mod 2, b / 2): down a group of two tile rows, then one
// column right, which is the order of swizzle = 2 and not that of
// swizzle = 1 (row by row).
// CHECK: PASS order_swizzle_2 m=16 n=32 k=8 max-rel-err=
// CHECK: FAIL order_swizzle_1 m=16 n=32 k=8: launch order: C[0][16] (tile 0, 1) was written by block 2; the config's order (swizzle = 1) gives that tile to block 1
gpu.module @order {
gpu.func @order_swizzle_2(%A: memref<16x8xf32>, %B: memref<8x32xf32>, %C: memref<16x32xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 1, 1>, tile.config = #tile.config<block = [8, 16, 8], warp = [8, 16], thread = [2, 2], stages = 1, swizzle = 2, smem = none, prefetch = false>, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 16 : i64, n = 32 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %bid = gpu.block_id x
  %tid = gpu.thread_id x
  %tr = arith.remui %bid, %c2 : index
  %tc = arith.divui %bid, %c2 : index
  %row0 = arith.muli %tr, %c8 : index
  %col0 = arith.muli %tc, %c16 : index
  scf.for %e = %tid to %c128 step %c32 {
    %li = arith.divui %e, %c16 : index
    %lj = arith.remui %e, %c16 : index
    %i = arith.addi %row0, %li : index
    %j = arith.addi %col0, %lj : index
    %c = memref.load %C[%i, %j] : memref<16x32xf32>
    %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
      %x = memref.load %A[%i, %k] : memref<16x8xf32>
      %y = memref.load %B[%k, %j] : memref<8x32xf32>
      %p = math.fma %x, %y, %acc : f32
      scf.yield %p : f32
    }
    memref.store %r, %C[%i, %j] : memref<16x32xf32>
  }
  gpu.return
}
gpu.func @order_swizzle_1(%A: memref<16x8xf32>, %B: memref<8x32xf32>, %C: memref<16x32xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 1, 1>, tile.config = #tile.config<block = [8, 16, 8], warp = [8, 16], thread = [2, 2], stages = 1, swizzle = 1, smem = none, prefetch = false>, tile.matmul = {c_init = "accumulate", c_type = f32, element_type = f32, k = 8 : i64, m = 16 : i64, n = 32 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %bid = gpu.block_id x
  %tid = gpu.thread_id x
  %tr = arith.remui %bid, %c2 : index
  %tc = arith.divui %bid, %c2 : index
  %row0 = arith.muli %tr, %c8 : index
  %col0 = arith.muli %tc, %c16 : index
  scf.for %e = %tid to %c128 step %c32 {
    %li = arith.divui %e, %c16 : index
    %lj = arith.remui %e, %c16 : index
    %i = arith.addi %row0, %li : index
    %j = arith.addi %col0, %lj : index
    %c = memref.load %C[%i, %j] : memref<16x32xf32>
    %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %c) -> (f32) {
      %x = memref.load %A[%i, %k] : memref<16x8xf32>
      %y = memref.load %B[%k, %j] : memref<8x32xf32>
      %p = math.fma %x, %y, %acc : f32
      scf.yield %p : f32
    }
    memref.store %r, %C[%i, %j] : memref<16x32xf32>
  }
  gpu.return
}
}
}
