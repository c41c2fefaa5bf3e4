// A hand-written wgmma kernel for the negative tests of wgmma-oracle.mlir,
// which change one line of it with sed: C (64x8, f32) += A (64x256) * B
// (256x8), bf16, in one block of two warpgroups. Warpgroup 1 is the
// producer: its thread 128 brings the 4 slabs of 64 k (A 64x64 and B 64x64,
// whose columns past 8 are the TMA's zero fill) into a ring of 2 slots,
// 128-byte swizzled, through "full" mbarriers, after waiting on the slot's
// "empty" one. Warpgroup 0 waits for each slab, issues 4 wgmma m64n8k16
// (A K-major, B N-major; descriptors: leading byte offset 16 for A and the
// 8192-byte B chunk, stride byte offset 1024, 128-byte swizzle), leaves the
// group in flight (wait_group 1) and releases the previous slab's slot.
// Thread t of warpgroup 0 holds C[16 (t / 32) + (t % 32) / 4 (+ 8)]
// [2 (t % 4) (+ 1)].

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!ring = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!acc = !llvm.struct<(f32, f32, f32, f32)>
!smem = memref<?xi8, #gpu.address_space<workgroup>>
!slab = memref<64x64xbf16, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @ring(%A: memref<64x256xbf16>, %B: memref<256x8xbf16>, %C: memref<64x8xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    // 2 slots of 16384 bytes and 1024 to align the first.
    %bytes = arith.constant 33792 : i32
    %castA = memref.cast %A : memref<64x256xbf16> to memref<*xbf16>
    %mapA = nvgpu.tma.create.descriptor %castA box[%c64, %c64] : memref<*xbf16> -> !tmap
    %castB = memref.cast %B : memref<256x8xbf16> to memref<*xbf16>
    %mapB = nvgpu.tma.create.descriptor %castB box[%c64, %c64] : memref<*xbf16> -> !tmap
    gpu.launch_func @kernels::@ring blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        dynamic_shared_memory_size %bytes
        args(%A : memref<64x256xbf16>, %B : memref<256x8xbf16>, %C : memref<64x8xf32>, %mapA : !tmap, %mapB : !tmap)
    return
  }

  gpu.module @kernels attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
    gpu.func @ring(%A: memref<64x256xbf16>, %B: memref<256x8xbf16>, %C: memref<64x8xf32>, %mapA: !tmap, %mapB: !tmap) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>,
                    tile.matmul = {c_init = "accumulate", c_type = f32, element_type = bf16, k = 256 : i64, m = 64 : i64, n = 8 : i64}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c1023 = arith.constant 1023 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %ticks = arith.constant 10000000 : index
      %mask = arith.constant 262143 : i64
      %c4_i64 = arith.constant 4 : i64
      %c2_i64 = arith.constant 2 : i64
      %c128_i64 = arith.constant 128 : i64
      // A: leading byte offset 16, stride byte offset 1024, 128-byte swizzle.
      %fieldsA = arith.constant 4611686293305360384 : i64
      // B: leading byte offset 8192 (the next 64-column chunk), stride 1024.
      %fieldsB = arith.constant 4611686293338849280 : i64
      %tid = gpu.thread_id x
      %group = arith.divui %tid, %c128 : index
      %inGroup = arith.remui %tid, %c128 : index
      %leader = arith.cmpi eq, %inGroup, %c0 : index
      // The dynamic shared memory from a 1024-byte boundary on.
      %smem = gpu.dynamic_shared_memory : !smem
      %address = memref.extract_aligned_pointer_as_index %smem : !smem -> index
      %negated = arith.subi %c0, %address : index
      %base = arith.andi %negated, %c1023 : index
      %full = nvgpu.mbarrier.create -> !ring
      %empty = nvgpu.mbarrier.create -> !ring
      %thread0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %thread0 {
        nvgpu.mbarrier.init %full[%c0], %c1 : !ring
        nvgpu.mbarrier.init %full[%c1], %c1 : !ring
        nvgpu.mbarrier.init %empty[%c0], %c1 : !ring
        nvgpu.mbarrier.init %empty[%c1], %c1 : !ring
      }
      gpu.barrier
      %producer = arith.cmpi eq, %group, %c1 : index
      // The producer's loop runs in its leader alone (the others would
      // only wait, and one that fell two phases behind on an empty barrier
      // would read a later phase's parity and wait forever).
      %runsLoop = arith.cmpi eq, %inGroup, %c0 : index
      scf.if %producer {
        scf.if %runsLoop {
        scf.for %k = %c0 to %c4 step %c1 {
          %slot = arith.remui %k, %c2 : index
          %round = arith.divui %k, %c2 : index
          // A slot's second use waits until the consumer released the first.
          %reuse = arith.cmpi uge, %k, %c2 : index
          scf.if %reuse {
            %previous = arith.subi %round, %c1 : index
            %parityIndex = arith.remui %previous, %c2 : index
            %parity = arith.index_cast %parityIndex : index to i1
            nvgpu.mbarrier.try_wait.parity %empty[%slot], %parity, %ticks : !ring
          }
          scf.if %leader {
            %slotOffset = arith.muli %slot, %c16384 : index
            %startA = arith.addi %base, %slotOffset : index
            %viewA = memref.view %smem[%startA][] : !smem to !slab
            %startB = arith.addi %startA, %c8192 : index
            %viewB = memref.view %smem[%startB][] : !smem to !slab
            %k0 = arith.muli %k, %c64 : index
            nvgpu.mbarrier.arrive.expect_tx %full[%slot], %c16384 : !ring
            nvgpu.tma.async.load %mapA[%k0, %c0], %full[%slot] to %viewA : !tmap, !ring -> !slab
            nvgpu.tma.async.load %mapB[%c0, %k0], %full[%slot] to %viewB : !tmap, !ring -> !slab
          }
        }
        }
      } else {
        // This thread's accumulators: C[row][col], [row][col + 1],
        // [row + 8][col], [row + 8][col + 1].
        %warp = arith.divui %inGroup, %c32 : index
        %lane = arith.remui %inGroup, %c32 : index
        %warpRow = arith.muli %warp, %c16 : index
        %laneRow = arith.divui %lane, %c4 : index
        %row = arith.addi %warpRow, %laneRow : index
        %row8 = arith.addi %row, %c8 : index
        %quad = arith.remui %lane, %c4 : index
        %col = arith.muli %quad, %c2 : index
        %col1 = arith.addi %col, %c1 : index
        %v0 = memref.load %C[%row, %col] : memref<64x8xf32>
        %v1 = memref.load %C[%row, %col1] : memref<64x8xf32>
        %v2 = memref.load %C[%row8, %col] : memref<64x8xf32>
        %v3 = memref.load %C[%row8, %col1] : memref<64x8xf32>
        %undef = llvm.mlir.undef : !acc
        %a0 = llvm.insertvalue %v0, %undef[0] : !acc
        %a1 = llvm.insertvalue %v1, %a0[1] : !acc
        %a2 = llvm.insertvalue %v2, %a1[2] : !acc
        %init = llvm.insertvalue %v3, %a2[3] : !acc
        %result = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!acc) {
          %slot = arith.remui %k, %c2 : index
          %round = arith.divui %k, %c2 : index
          %parityIndex = arith.remui %round, %c2 : index
          %fullParity = arith.index_cast %parityIndex : index to i1
          // The other parity, for the test that waits for the wrong one.
          %true = arith.constant true
          %otherParity = arith.xori %fullParity, %true : i1
          nvgpu.mbarrier.try_wait.parity %full[%slot], %fullParity, %ticks : !ring
          %slotOffset = arith.muli %slot, %c16384 : index
          %startA = arith.addi %base, %slotOffset : index
          %viewA = memref.view %smem[%startA][] : !smem to !slab
          %startB = arith.addi %startA, %c8192 : index
          %viewB = memref.view %smem[%startB][] : !smem to !slab
          %pointerA = memref.extract_aligned_pointer_as_index %viewA : !slab -> index
          %pointerB = memref.extract_aligned_pointer_as_index %viewB : !slab -> index
          %wideA = arith.index_castui %pointerA : index to i64
          %maskedA = arith.andi %wideA, %mask : i64
          %shiftedA = arith.shrui %maskedA, %c4_i64 : i64
          %descA = arith.ori %shiftedA, %fieldsA : i64
          %wideB = arith.index_castui %pointerB : index to i64
          %maskedB = arith.andi %wideB, %mask : i64
          %shiftedB = arith.shrui %maskedB, %c4_i64 : i64
          %descB = arith.ori %shiftedB, %fieldsB : i64
          nvvm.wgmma.fence.aligned
          %d0 = nvvm.wgmma.mma_async %descA, %descB, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !acc -> !acc
          // k steps: A 16 elements (32 bytes) on, B 16 rows of 128 bytes.
          %descA1 = arith.addi %descA, %c2_i64 : i64
          %descB1 = arith.addi %descB, %c128_i64 : i64
          %d1 = nvvm.wgmma.mma_async %descA1, %descB1, %d0, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !acc -> !acc
          %descA2 = arith.addi %descA1, %c2_i64 : i64
          %descB2 = arith.addi %descB1, %c128_i64 : i64
          %d2 = nvvm.wgmma.mma_async %descA2, %descB2, %d1, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !acc -> !acc
          %descA3 = arith.addi %descA2, %c2_i64 : i64
          %descB3 = arith.addi %descB2, %c128_i64 : i64
          %d3 = nvvm.wgmma.mma_async %descA3, %descB3, %d2, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !acc -> !acc
          nvvm.wgmma.commit.group.sync.aligned
          nvvm.wgmma.wait.group.sync.aligned 1
          // The previous slab's group is retired: its slot is free.
          %hasPrevious = arith.cmpi uge, %k, %c1 : index
          %release = arith.andi %hasPrevious, %leader : i1
          scf.if %release {
            %previous = arith.subi %k, %c1 : index
            %previousSlot = arith.remui %previous, %c2 : index
            %token = nvgpu.mbarrier.arrive %empty[%previousSlot] : !ring -> !nvgpu.mbarrier.token
          }
          scf.yield %d3 : !acc
        }
        nvvm.wgmma.wait.group.sync.aligned 0
        %r0 = llvm.extractvalue %result[0] : !acc
        %r1 = llvm.extractvalue %result[1] : !acc
        %r2 = llvm.extractvalue %result[2] : !acc
        %r3 = llvm.extractvalue %result[3] : !acc
        memref.store %r0, %C[%row, %col] : memref<64x8xf32>
        memref.store %r1, %C[%row, %col1] : memref<64x8xf32>
        memref.store %r2, %C[%row8, %col] : memref<64x8xf32>
        memref.store %r3, %C[%row8, %col1] : memref<64x8xf32>
      }
      gpu.return
    }
  }
}
