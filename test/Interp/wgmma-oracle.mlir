// The wgmma checks of tile-interp on the hand-written ring kernel of
// Inputs/wgmma-ring.mlir (C 64x8 += A 64x256 * B 256x8, a TMA producer
// warpgroup and a ring of 2 slots), each variant one sed away from it.

// As written, it passes; 4 mbarriers, 8 TMA boxes, 16 wgmma, 7 phases (4 of
// the full barriers, 3 of the empty ones).
// RUN: tile-interp %S/Inputs/wgmma-ring.mlir --print-stats | FileCheck %s --check-prefix=OK
// OK: PASS ring m=64 n=8 k=256 max-rel-err=
// OK: async: dynamic shared memory at {{[0-9]+}}, 4 mbarriers, 7 phases completed, 8 TMA copies (65536 B), 16 wgmma

// A wrong descriptor: A's stride byte offset (8-row groups) of 512, not
// 1024. The wgmma reads other rows: C is wrong.
// RUN: sed 's/4611686293305360384/4611686155866406912/' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=STRIDE
// STRIDE: FAIL ring m=64 n=8 k=256: {{[0-9]+}} of 512 elements of C wrong

// The TMA writes the slabs unswizzled, the wgmma reads them swizzled.
// RUN: sed 's/swizzle = swizzle_128b/swizzle = none/' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=SWIZZLE
// SWIZZLE: FAIL ring m=64 n=8 k=256: 512 of 512 elements of C wrong

// No wait on the full barrier: the wgmma reads a slot whose copy nothing
// orders before it (warps 1-3 run late, after the copy landed: a data race;
// had they run first, the read of a slot nothing wrote).
// RUN: sed '/try_wait.parity %%full/d' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=NO-WAIT
// NO-WAIT: FAIL ring m=64 n=8 k=256: data race: wgmma operand A reads shared memory byte {{[0-9]+}} (shared address {{[0-9]+}}), written by the TMA copy that completed on mbarrier #0 (phase 0), with nothing ordering that write before the wgmma (a missing or wrong wait on the full barrier) [block 0, thread 127]
// NO-WAIT-NEXT: at: {{.*}} = nvvm.wgmma.mma_async

// The wrong parity: waiting for the phase before the current one returns at
// once for warp 0; warps 1-3, which run late, find slab 0 landed and wait
// for a phase that never comes.
// RUN: sed 's/%%fullParity, %%ticks/%%otherParity, %%ticks/' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=PARITY
// PARITY: FAIL ring m=64 n=8 k=256: deadlock: every thread that has not returned waits, and no copy is in flight; 129 blocked, 0 at a gpu.barrier, 127 returned
// PARITY-NEXT: thread 0 (and 31 more) waits for the rest of warpgroup 0 at a warpgroup-collective op (32 of 128 arrived) at: {{.*}} = nvvm.wgmma.mma_async
// PARITY-NEXT: thread 32 (and 95 more) waits for the phase of parity 1 of mbarrier #0 (1 phases completed; the current one still expects 1 arrivals and 0 transaction bytes) at: nvgpu.mbarrier.try_wait.parity
// PARITY-NEXT: thread 128 waits for the phase of parity 0 of mbarrier #2 (0 phases completed;{{.*}}
// PARITY-NEXT: [block 0]

// All 128 producer threads run the producer loop, the leader alone issues
// the copies: the other threads only wait on the empty barriers. Run late
// (warps 1-3), they find slot 0's empty barrier two phases on, read the
// parity they wait for as the current phase's and wait forever (on the GPU
// a warp left asleep does the same: the block never ends).
// RUN: sed 's/%%runsLoop = arith.cmpi eq, %%inGroup/%%runsLoop = arith.cmpi uge, %%inGroup/' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=LAG
// LAG: FAIL ring m=64 n=8 k=256: deadlock: every thread that has not returned waits, and no copy is in flight; 96 blocked, 0 at a gpu.barrier, 160 returned (an mbarrier parity tells a phase from the next one only: a thread that fell two phases behind waits for a later phase, one that may never come)
// LAG-NEXT: thread 160 (and 95 more) waits for the phase of parity 0 of mbarrier #2 (2 phases completed; the current one still expects 1 arrivals and 0 transaction bytes) at: nvgpu.mbarrier.try_wait.parity
// LAG-NEXT: [block 0]

// The slot of slab k - 1 released while its wgmma group is in flight:
// wait_group 2 leaves it pending, or no wait_group before the release. The
// producer's next TMA into it is the error.
// RUN: sed 's/wait.group.sync.aligned 1/wait.group.sync.aligned 2/' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=EARLY
// RUN: sed '/wait.group.sync.aligned 1/d' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=EARLY
// EARLY: FAIL ring m=64 n=8 k=256: TMA copy overwrites shared memory byte {{[0-9]+}} (shared address {{[0-9]+}}), which wgmma group 1 of warpgroup 0 reads, before that group was retired: no wgmma.wait_group of that warpgroup retired it before this write (a slot released too early) [block 0, thread 128]
// EARLY-NEXT: at: nvgpu.tma.async.load

// The slots aligned to 512 bytes only: a TMA box with the 128-byte swizzle
// lands at 1536 (the dynamic shared memory starts at 1040).
// RUN: sed 's/arith.constant 1023 : index/arith.constant 511 : index/' %S/Inputs/wgmma-ring.mlir | not tile-interp --shared-base=1040 | FileCheck %s --check-prefix=ALIGN
// ALIGN: FAIL ring m=64 n=8 k=256: TMA destination at shared address 1536 (shared memory byte 496) is not 1024-byte aligned (the 128-byte swizzle's atoms are 1024 bytes) [block 0, thread 128]

// No wgmma.fence between the accumulators' insertvalues and the wgmma.
// RUN: sed '/wgmma.fence.aligned/d' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=FENCE
// FENCE: FAIL ring m=64 n=8 k=256: the accumulators of thread 0 were written (insertvalue) after its last wgmma.fence (it executed none): the wgmma may read them before those writes

// No wait_group 0 before the accumulators are read.
// RUN: sed '/wait.group.sync.aligned 0/d' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=RESULT
// RESULT: FAIL ring m=64 n=8 k=256: extractvalue reads the accumulators of wgmma group 4 before a wgmma.wait_group retired that group (4 committed, 3 retired): the registers are undefined until then

// The consumer releases the slot it is reading instead of the previous one:
// the producer waits for a slot that is never released, the consumer for a
// slab that is never copied.
// RUN: sed 's/arrive %%empty\[%%previousSlot\]/arrive %%empty[%%slot]/' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=DEADLOCK
// DEADLOCK: FAIL ring m=64 n=8 k=256: deadlock: every thread that has not returned waits, and no copy is in flight; 129 blocked, 0 at a gpu.barrier, 127 returned
// DEADLOCK-NEXT: thread 0 (and 127 more) waits for the phase of parity 1 of mbarrier #0 (1 phases completed; the current one still expects 1 arrivals and 0 transaction bytes) at: nvgpu.mbarrier.try_wait.parity
// DEADLOCK-NEXT: thread 128 waits for the phase of parity 0 of mbarrier #2 (0 phases completed; the current one still expects 1 arrivals and 0 transaction bytes) at: nvgpu.mbarrier.try_wait.parity

// The consumers stop after 3 of the 4 slabs: nobody waits for the
// producer's last load (on the GPU it could write shared memory after the
// block ended). It lands while warps 1-3 still run; had every thread
// returned first, the error would be the copies still in flight.
// RUN: sed -e 's/      %%c4 = arith.constant 4 : index/      %%c4 = arith.constant 4 : index\n      %%c3 = arith.constant 3 : index/' -e 's/%%result = scf.for %%k = %%c0 to %%c4 step/%%result = scf.for %%k = %%c0 to %%c3 step/' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=IN-FLIGHT
// IN-FLIGHT: FAIL ring m=64 n=8 k=256: the block's threads all returned without waiting for phase 1 of mbarrier #1, which TMA copies completed (loads nobody waits for) [block 0]

// The producer does not wait for the empty barrier: its second arrival in
// one phase of a full barrier (count 1) is an error.
// RUN: sed '/try_wait.parity %%empty/d' %S/Inputs/wgmma-ring.mlir | not tile-interp | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: FAIL ring m=64 n=8 k=256: arrives on mbarrier #0 more often than its count (1) in one phase: the phase still waits for 32768 transaction bytes [block 0, thread 128]

// Copies through registers without the proxy fence: wgmma reads through the
// async proxy what the producer stored through the generic one (the IR
// after tile-wgmma, and the pipelined kernel).
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir %bufferize --tile-configure="block=64,64,64 warp=64,64 thread=64,64 stages=2 copy=registers occupancy=1" --tile-block-tile --tile-promote-shared --tile-warpgroup-tile --tile-wgmma | sed '/nvvm.fence.proxy/d' | not tile-interp --kernel=acc_matmul0 | FileCheck %s --check-prefix=PROXY
// RUN: tile-opt %S/Inputs/wgmma-problems.mlir --tile-matmul-tiling="block=64,64,64 warp=64,64 thread=64,64 stages=2 copy=registers occupancy=1" | sed '/nvvm.fence.proxy/d' | not tile-interp --kernel=acc_matmul0 | FileCheck %s --check-prefix=PROXY
// PROXY: FAIL acc_matmul0 m=70 n=72 k=136: wgmma operand A reads shared memory byte {{[0-9]+}} (shared address {{[0-9]+}}), stored by thread {{[0-9]+}} through the generic proxy with no fence.proxy.async of that thread between the store and the synchronisation that orders it before the wgmma (the async proxy may not see it)
