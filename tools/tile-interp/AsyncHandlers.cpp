//===- AsyncHandlers.cpp - mbarriers, TMA copies, proxy fences ------------===//
//
// The asynchronous machinery of the wgmma kernels, modelled on the PTX ISA:
//
//   * nvgpu.mbarrier.create gives the block a group of mbarrier objects (in
//     static shared memory, at staticBase + 8 * id); init sets the arrival
//     count of every phase; arrive counts one arrival (a release: the
//     thread's vector clock joins the phase's); arrive.expect_tx adds
//     transaction bytes first. A phase completes when its arrivals are all
//     in and its transaction bytes have all completed; then the next phase
//     starts with the full count. try_wait.parity P returns when the phase
//     of parity P has completed, i.e. when the current (incomplete) phase's
//     parity is not P: waiting for the current phase's parity blocks the
//     thread (the others run), waiting for the previous phase's returns at
//     once (an acquire of that phase's clock).
//   * nvgpu.tma.async.load reads the box from the global matrix at issue (A
//     and B are read-only), zero outside the matrix, and writes it to shared
//     memory in the tensor map's layout (the 128-byte swizzle on the
//     destination's address bits: 16-byte granule bits [4:6] XOR address
//     bits [7:9], which needs a 1024-byte-aligned destination); the bytes
//     land, and complete their transaction count on the mbarrier, when no
//     thread can run. Until then the destination is in flight.
//   * memref.extract_aligned_pointer_as_index: the address of a shared
//     memref in the 32-bit shared window (the dynamic shared memory starts
//     at a base that is not 1024-aligned, so the kernels' alignment
//     arithmetic runs for real).
//   * nvvm.fence.proxy async.shared: no data moves; it is recorded, and a
//     wgmma that reads bytes a thread stored needs that thread's fence after
//     the store and ordered before the wgmma (WgmmaHandlers.cpp).
//   * nvvm.setmaxregister: no effect but that it is warpgroup-aligned (its
//     warpgroup's threads must all execute it: checked when the block ends).
//   * nvvm.barrier id = I number_of_threads = N (bar.sync I, N): a named
//     barrier; the N threads of a round each wait until all have arrived
//     and leave ordered after every one of them (their vector clocks
//     joined). N must be a multiple of 32 and the same for every thread of
//     the round; I is 1-15 (0 is gpu.barrier's).
//   * nvgpu.tma.async.store reads its 128-byte-swizzled shared source at
//     issue (each byte's writer ordered before the issuing thread, and a
//     generic-proxy store fenced by its thread: fence.proxy.async) and
//     writes the box's elements inside the matrix to global memory (nothing
//     past its edges). nvvm.cp.async.bulk.commit.group groups the thread's
//     stores; nvvm.cp.async.bulk.wait_group N (.read or not) completes all
//     but its N newest groups. Until a wait completes a store, a write of
//     its source (by any thread) is an error; at the wait the thread reads
//     the source again, so that a later write not ordered after the wait
//     is a data race. A thread that returns with a store not waited for is
//     an error.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tile::interp;

namespace {

//===----------------------------------------------------------------------===//
// Addresses
//===----------------------------------------------------------------------===//

/// in = memref; the address of its aligned pointer.
void execAlignedPointer(Exec &exec, Thread &thread, const Inst &inst) {
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[0]);
  thread.at<uint64_t>(inst.out[0]) = truncBits(
      desc.buffer->address + desc.alignedByte, exec.program.indexBits);
}

LogicalResult compileAlignedPointer(Compiler &c, Operation *op) {
  auto extract = cast<memref::ExtractAlignedPointerAsIndexOp>(op);
  Inst &inst = c.emit(execAlignedPointer, op);
  inst.in = {c.use(extract.getSource())};
  inst.out = {c.def(extract.getResult())};
  return success();
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

/// A group value: its first mbarrier id and its size.
uint64_t groupValue(unsigned first, unsigned count) {
  return first | (static_cast<uint64_t>(count) << 32);
}

/// The mbarrier `group`[`index`] (slots), checked: in the group, initialised
/// and its init ordered before this thread's use. Null after an error.
Mbarrier *useBarrier(Exec &exec, Thread &thread, const Inst &inst,
                     uint32_t groupSlot, uint32_t indexSlot, unsigned &id,
                     bool forInit = false) {
  uint64_t group = thread.at<uint64_t>(groupSlot);
  unsigned first = group & 0xffffffffu, count = group >> 32;
  int64_t index = exec.index(thread, indexSlot);
  if (index < 0 || index >= count) {
    exec.fail(thread, inst,
              "mbarrier index " + Twine(index) + " outside its group of " +
                  Twine(count));
    return nullptr;
  }
  id = first + index;
  Mbarrier &barrier = exec.mbarriers[id];
  if (forInit)
    return &barrier;
  if (!barrier.initialized) {
    exec.fail(thread, inst,
              "uses mbarrier #" + Twine(id) + " (shared address " +
                  Twine(exec.staticBase + 8 * id) +
                  ") before any mbarrier.init");
    return nullptr;
  }
  if (!exec.orderedBefore(thread, barrier.initThread, barrier.initEpoch,
                          barrier.initClock)) {
    exec.fail(thread, inst,
              "uses mbarrier #" + Twine(id) + ", whose mbarrier.init by " +
                  exec.who(barrier.initThread) +
                  " is not ordered before this use (no barrier after the "
                  "init)");
    return nullptr;
  }
  return &barrier;
}

bool predicateOff(Thread &thread, const Inst &inst, unsigned at) {
  return at < inst.in.size() && (thread.at<uint64_t>(inst.in[at]) & 1) == 0;
}

void execMbarrierCreate(Exec &, Thread &thread, const Inst &inst) {
  thread.at<uint64_t>(inst.out[0]) = groupValue(inst.imm[0], inst.imm[1]);
}

LogicalResult compileMbarrierCreate(Compiler &c, Operation *op) {
  auto create = cast<nvgpu::MBarrierCreateOp>(op);
  auto type = cast<nvgpu::MBarrierGroupType>(create.getBarriers().getType());
  if (!nvgpu::NVGPUDialect::isSharedMemoryAddressSpace(type.getMemorySpace()))
    return c.fail(op, "only mbarriers in shared memory are supported");
  Inst &inst = c.emit(execMbarrierCreate, op);
  inst.out = {c.def(create.getBarriers())};
  inst.imm = {c.program.mbarriers, type.getNumBarriers()};
  c.program.mbarriers += type.getNumBarriers();
  c.program.usesAsync = true;
  return success();
}

/// in = group, index, count[, predicate].
void execMbarrierInit(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned id;
  Mbarrier *barrier = useBarrier(exec, thread, inst, inst.in[0], inst.in[1], id,
                                 /*forInit=*/true);
  if (!barrier || predicateOff(thread, inst, 3))
    return;
  int64_t count = exec.index(thread, inst.in[2]);
  if (count < 1 || count >= (1 << 20))
    return exec.fail(thread, inst,
                     "mbarrier.init with an arrival count of " + Twine(count) +
                         " (PTX: 1 to 2^20 - 1)");
  if (barrier->initialized)
    return exec.fail(thread, inst,
                     "mbarrier #" + Twine(id) + " initialised again (by " +
                         exec.who(thread.gid) + "; first by " +
                         exec.who(barrier->initThread) + ")");
  barrier->initialized = true;
  barrier->expected = barrier->pending = count;
  barrier->tx = 0;
  barrier->phase = 0;
  barrier->initThread = thread.gid;
  barrier->initClock = exec.ownClock(thread);
  barrier->initEpoch = exec.epoch;
}

LogicalResult compileMbarrierInit(Compiler &c, Operation *op) {
  auto init = cast<nvgpu::MBarrierInitOp>(op);
  Inst &inst = c.emit(execMbarrierInit, op);
  inst.in = {c.use(init.getBarriers()), c.use(init.getMbarId()),
             c.use(init.getCount())};
  if (init.getPredicate())
    inst.in.push_back(c.use(init.getPredicate()));
  return success();
}

/// One arrival (after `tx` more expected transaction bytes).
void arrive(Exec &exec, Thread &thread, const Inst &inst, unsigned id,
            Mbarrier &barrier, int64_t tx) {
  barrier.tx += tx;
  barrier.phaseTx += tx;
  if (--barrier.pending < 0)
    return exec.fail(thread, inst,
                     "arrives on mbarrier #" + Twine(id) +
                         " more often than its count (" +
                         Twine(barrier.expected) +
                         ") in one phase: the phase still waits for " +
                         Twine(barrier.tx) + " transaction bytes");
  if (!inst.out.empty())
    thread.at<uint64_t>(inst.out[0]) = barrier.phase;
  exec.release(thread, barrier);
  exec.maybeCompletePhase(id);
}

/// in = group, index.
void execMbarrierArrive(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned id;
  if (Mbarrier *barrier =
          useBarrier(exec, thread, inst, inst.in[0], inst.in[1], id))
    arrive(exec, thread, inst, id, *barrier, 0);
}

LogicalResult compileMbarrierArrive(Compiler &c, Operation *op) {
  auto arriveOp = cast<nvgpu::MBarrierArriveOp>(op);
  Inst &inst = c.emit(execMbarrierArrive, op);
  inst.in = {c.use(arriveOp.getBarriers()), c.use(arriveOp.getMbarId())};
  inst.out = {c.def(arriveOp.getToken())};
  return success();
}

/// in = group, index, tx bytes[, predicate].
void execMbarrierArriveExpectTx(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned id;
  Mbarrier *barrier =
      useBarrier(exec, thread, inst, inst.in[0], inst.in[1], id);
  if (!barrier || predicateOff(thread, inst, 3))
    return;
  int64_t tx = exec.index(thread, inst.in[2]);
  if (tx < 0 || tx >= (1 << 20))
    return exec.fail(thread, inst,
                     "mbarrier.arrive.expect_tx of " + Twine(tx) +
                         " bytes (PTX: 0 to 2^20 - 1)");
  arrive(exec, thread, inst, id, *barrier, tx);
}

LogicalResult compileMbarrierArriveExpectTx(Compiler &c, Operation *op) {
  auto arriveOp = cast<nvgpu::MBarrierArriveExpectTxOp>(op);
  Inst &inst = c.emit(execMbarrierArriveExpectTx, op);
  inst.in = {c.use(arriveOp.getBarriers()), c.use(arriveOp.getMbarId()),
             c.use(arriveOp.getTxcount())};
  if (arriveOp.getPredicate())
    inst.in.push_back(c.use(arriveOp.getPredicate()));
  return success();
}

/// in = group, index, parity. Blocks while the current phase has the
/// parity asked for; else returns, ordered after the last completed phase.
void execMbarrierTryWait(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned id;
  Mbarrier *barrier =
      useBarrier(exec, thread, inst, inst.in[0], inst.in[1], id);
  if (!barrier)
    return;
  uint32_t parity = thread.at<uint64_t>(inst.in[2]) & 1;
  if ((barrier->phase & 1) == parity)
    return exec.blockOnMbarrier(thread, inst, id);
  if (barrier->phase > 0)
    exec.acquire(thread, id);
}

LogicalResult compileMbarrierTryWait(Compiler &c, Operation *op) {
  auto wait = cast<nvgpu::MBarrierTryWaitParityOp>(op);
  Inst &inst = c.emit(execMbarrierTryWait, op);
  inst.in = {c.use(wait.getBarriers()), c.use(wait.getMbarId()),
             c.use(wait.getPhaseParity())};
  return success();
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

/// The checks a TMA copy (`store` false: global to shared) and a TMA store
/// (shared to global) share: the map is one the launch made and can be
/// encoded, the shared side is in shared memory, the map's rank is the
/// operation's, the shared side is the map's contiguous box (a 3-d box is
/// 1 x rows x cols), and it is aligned for the map's swizzle. Returns the
/// map and sets `address` (the box's shared address), or fails `thread`
/// with the reason and returns null.
const TensorMap *checkTmaBox(Exec &exec, Thread &thread, const Inst &inst,
                             uint64_t mapId, const MemRefDesc &box,
                             unsigned rank, bool store, int64_t &address) {
  const char *op = store ? "TMA store" : "TMA copy";
  const char *side = store ? "TMA store source" : "TMA destination";
  if (mapId >= exec.tensorMaps.size()) {
    exec.fail(thread, inst,
              Twine("the tensor map operand is not one the launch made "
                    "(nvgpu.tma.create.descriptor of ") +
                  (store ? "C" : "A or B") + ")");
    return nullptr;
  }
  const TensorMap &map = exec.tensorMaps[mapId];
  if (!map.invalid.empty()) {
    exec.fail(thread, inst,
              "the tensor map of " + map.name +
                  " cannot be encoded: " + map.invalid);
    return nullptr;
  }
  if (box.buffer->space != Space::Shared) {
    exec.fail(thread, inst,
              Twine(store ? "TMA store from " : "TMA copy into ") +
                  box.buffer->name + " (must be shared memory)");
    return nullptr;
  }
  if (rank != map.rank) {
    exec.fail(thread, inst,
              "a " + Twine(rank) + "-d " + op + " with the " +
                  Twine(map.rank) + "-d tensor map of " + map.name);
    return nullptr;
  }
  unsigned d = rank == 3 ? 1 : 0;
  if ((rank == 3 && box.sizes[0] != 1) || box.sizes[d] != map.boxRows ||
      box.sizes[d + 1] != map.boxCols || box.strides[d] != map.boxCols ||
      box.strides[d + 1] != 1) {
    exec.fail(thread, inst,
              Twine(side) + " of " + Twine(box.sizes[d]) + "x" +
                  Twine(box.sizes[d + 1]) + " elements (strides " +
                  Twine(box.strides[d]) + ", " + Twine(box.strides[d + 1]) +
                  ") is not the tensor map's contiguous " +
                  Twine(map.boxRows) + "x" + Twine(map.boxCols) + " box");
    return nullptr;
  }
  address = exec.sharedMemory().address + box.byteOffset;
  int64_t needed = map.swizzle128 ? 1024 : 128;
  if (address % needed != 0) {
    exec.fail(thread, inst,
              Twine(side) + " at shared address " + Twine(address) +
                  " (shared memory byte " + Twine(box.byteOffset) +
                  ") is not " + Twine(needed) + "-byte aligned" +
                  (map.swizzle128 ? " (the 128-byte swizzle's atoms "
                                    "are 1024 bytes)"
                                  : ""));
    return nullptr;
  }
  return &map;
}

/// in = tensor map, coordinates (innermost first), group, index, dst
/// [, predicate]; imm = number of coordinates.
void execTmaLoad(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  uint64_t mapId = thread.at<uint64_t>(inst.in[0]);
  // (An unusable map fails before the barrier is touched.)
  if (mapId >= exec.tensorMaps.size() ||
      !exec.tensorMaps[mapId].invalid.empty()) {
    int64_t unused;
    checkTmaBox(exec, thread, inst, mapId,
                thread.at<MemRefDesc>(inst.in[3 + rank]), rank,
                /*store=*/false, unused);
    return;
  }
  unsigned id;
  Mbarrier *barrier =
      useBarrier(exec, thread, inst, inst.in[1 + rank], inst.in[2 + rank], id);
  if (!barrier || predicateOff(thread, inst, 4 + rank))
    return;
  const MemRefDesc &dst = thread.at<MemRefDesc>(inst.in[3 + rank]);
  int64_t address;
  const TensorMap *checked = checkTmaBox(exec, thread, inst, mapId, dst, rank,
                                         /*store=*/false, address);
  if (!checked)
    return;
  const TensorMap &map = *checked;
  bool batched = rank == 3;
  int64_t col0 = exec.index(thread, inst.in[1]);
  int64_t row0 = exec.index(thread, inst.in[2]);
  int64_t matrix = batched ? exec.index(thread, inst.in[3]) : 0;
  int64_t eb = map.elementBytes, rowBytes = map.boxCols * eb;
  PendingTma copy;
  copy.dstByte = dst.byteOffset;
  copy.barrier = id;
  // Outside the matrix (rows, columns, or a matrix past the batch): zero.
  copy.data.assign(map.boxRows * rowBytes, 0);
  const uint8_t *global = map.global->bytes.data();
  for (int64_t r = 0; r < map.boxRows; ++r) {
    int64_t row = row0 + r;
    if (row < 0 || row >= map.rows || matrix < 0 || matrix >= map.batch)
      continue;
    for (int64_t col = 0; col < map.boxCols; ++col) {
      int64_t c = col0 + col;
      if (c < 0 || c >= map.cols)
        continue;
      int64_t linear = r * rowBytes + col * eb;
      int64_t to = linear;
      if (map.swizzle128) {
        int64_t at = address + linear;
        to = (at ^ (((at >> 7) & 7) << 4)) - address;
      }
      std::memcpy(copy.data.data() + to,
                  global + map.offset * eb +
                      (matrix * map.batchStride + row * map.rowStride + c) *
                          eb,
                  eb);
    }
  }
  exec.issueTma(thread, inst, std::move(copy));
}

LogicalResult compileTmaLoad(Compiler &c, Operation *op) {
  auto load = cast<nvgpu::TmaAsyncLoadOp>(op);
  if (load.getMulticastMask())
    return c.fail(op, "TMA multicast is not supported");
  size_t rank = load.getCoordinates().size();
  if (rank != 2 && rank != 3)
    return c.fail(op, "only 2-d and 3-d TMA copies are supported");
  auto type = cast<MemRefType>(load.getDst().getType());
  if (type.getRank() != static_cast<int64_t>(rank))
    return c.fail(op, "a TMA destination whose rank is not the copy's");
  c.noteAccess(type.getElementTypeBitWidth() / 8);
  Inst &inst = c.emit(execTmaLoad, op);
  inst.in = {c.use(load.getTensorMapDescriptor())};
  for (Value v : load.getCoordinates())
    inst.in.push_back(c.use(v));
  inst.in.append({c.use(load.getBarriers()), c.use(load.getMbarId()),
                  c.use(load.getDst())});
  if (load.getPredicate())
    inst.in.push_back(c.use(load.getPredicate()));
  inst.imm = {static_cast<int64_t>(load.getCoordinates().size())};
  c.program.usesAsync = true;
  return success();
}

/// Whether `thread` may read shared byte `byte` as the async proxy (a TMA
/// store's source): its writer, if a thread, fenced it (fence.proxy.async
/// after the store) and that fence is ordered before `thread`'s point.
/// Fails with the reason otherwise.
bool asyncProxySees(Exec &exec, Thread &thread, const Inst &inst,
                    int64_t byte) {
  const Shadow &shadow =
      exec.sharedMemory().shadow[byte / exec.sharedMemory().granule];
  if (shadow.writer < 0)
    return true; // nobody, the host or the async proxy itself
  Thread &writer = exec.threads[shadow.writer % exec.threadsPerBlock];
  auto fence = std::upper_bound(
      writer.proxyFences.begin(), writer.proxyFences.end(), shadow.writeClock,
      [](uint32_t clock, const std::pair<uint32_t, uint32_t> &f) {
        return clock < f.first;
      });
  bool fenced = fence != writer.proxyFences.end() &&
                (fence->second != exec.epoch ||
                 thread.vc[writer.linearTid] >= fence->first);
  if (!fenced)
    exec.fail(thread, inst,
              "TMA store reads " + exec.sharedMemory().describe(byte) +
                  ", stored by thread " + Twine(writer.linearTid) +
                  " through the generic proxy with no fence.proxy.async of "
                  "that thread between the store and the synchronisation "
                  "that orders it before the TMA store (the async proxy may "
                  "not see it)");
  return fenced;
}

/// in = source, tensor map, coordinates (innermost first); imm = number of
/// coordinates.
void execTmaStore(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  const MemRefDesc &src = thread.at<MemRefDesc>(inst.in[0]);
  uint64_t mapId = thread.at<uint64_t>(inst.in[1]);
  // (A read-only C is said before what is wrong with the box.)
  if (mapId < exec.tensorMaps.size() &&
      exec.tensorMaps[mapId].invalid.empty() &&
      exec.tensorMaps[mapId].global->readOnly)
    return exec.fail(thread, inst,
                     "TMA store into " + exec.tensorMaps[mapId].name +
                         ", which is read-only");
  int64_t address;
  const TensorMap *checked = checkTmaBox(exec, thread, inst, mapId, src, rank,
                                         /*store=*/true, address);
  if (!checked)
    return;
  const TensorMap &map = *checked;
  bool batched = rank == 3;
  int64_t col0 = exec.index(thread, inst.in[2]);
  int64_t row0 = exec.index(thread, inst.in[3]);
  int64_t matrix = batched ? exec.index(thread, inst.in[4]) : 0;
  int64_t eb = map.elementBytes, rowBytes = map.boxCols * eb;
  int64_t size = map.boxRows * rowBytes;
  // The source as the async proxy reads it now (checked: written, its
  // writers ordered before this thread and fenced).
  PendingBulkStore store;
  store.inst = &inst;
  store.srcByte = src.byteOffset;
  const uint8_t *bytes =
      exec.read(thread, inst, exec.sharedMemory(), src.byteOffset, size);
  if (!bytes)
    return;
  store.data.assign(bytes, bytes + size);
  Buffer &shared = exec.sharedMemory();
  for (int64_t at = 0; at < size; at += shared.granule)
    if (!asyncProxySees(exec, thread, inst, src.byteOffset + at))
      return;
  // The source stays the TMA's until a wait completes the store.
  for (int64_t g = src.byteOffset / shared.granule,
               last = (src.byteOffset + size - 1) / shared.granule;
       g <= last; ++g) {
    ++shared.shadow[g].bulkReads;
    shared.shadow[g].bulkReader = thread.gid;
  }
  // The box's elements inside the matrix go to global memory.
  for (int64_t r = 0; r < map.boxRows; ++r) {
    int64_t row = row0 + r;
    if (row < 0 || row >= map.rows || matrix < 0 || matrix >= map.batch)
      continue;
    for (int64_t col = 0; col < map.boxCols; ++col) {
      int64_t c = col0 + col;
      if (c < 0 || c >= map.cols)
        continue;
      int64_t from = r * rowBytes + col * eb;
      if (map.swizzle128) {
        int64_t at = address + from;
        from = (at ^ (((at >> 7) & 7) << 4)) - address;
      }
      int64_t to = (map.offset + matrix * map.batchStride +
                    row * map.rowStride + c) *
                   eb;
      if (!exec.write(thread, inst, *map.global, to, store.data.data() + from,
                      eb))
        return;
    }
  }
  thread.bulkUncommitted.push_back(std::move(store));
}

LogicalResult compileTmaStore(Compiler &c, Operation *op) {
  auto store = cast<nvgpu::TmaAsyncStoreOp>(op);
  if (store.getPredicate())
    return c.fail(op, "a predicated TMA store is not modelled");
  size_t rank = store.getCoordinates().size();
  if (rank != 2 && rank != 3)
    return c.fail(op, "only 2-d and 3-d TMA stores are supported");
  auto type = cast<MemRefType>(store.getSrc().getType());
  if (type.getRank() != static_cast<int64_t>(rank))
    return c.fail(op, "a TMA store source whose rank is not the store's");
  c.noteAccess(type.getElementTypeBitWidth() / 8);
  Inst &inst = c.emit(execTmaStore, op);
  inst.in = {c.use(store.getSrc()), c.use(store.getTensorMapDescriptor())};
  for (Value v : store.getCoordinates())
    inst.in.push_back(c.use(v));
  inst.imm = {static_cast<int64_t>(rank)};
  c.program.usesAsync = true;
  return success();
}

void execBulkCommit(Exec &, Thread &thread, const Inst &) {
  thread.bulkGroups.push_back(std::move(thread.bulkUncommitted));
  thread.bulkUncommitted.clear();
}

LogicalResult compileBulkCommit(Compiler &c, Operation *op) {
  c.emit(execBulkCommit, op);
  c.program.usesAsync = true;
  return success();
}

/// imm = the groups that may stay pending.
void execBulkWait(Exec &exec, Thread &thread, const Inst &inst) {
  while (static_cast<int64_t>(thread.bulkGroups.size()) > inst.imm[0]) {
    std::vector<PendingBulkStore> group = std::move(thread.bulkGroups.front());
    thread.bulkGroups.pop_front();
    Buffer &shared = exec.sharedMemory();
    for (const PendingBulkStore &store : group) {
      int64_t size = store.data.size();
      for (int64_t g = store.srcByte / shared.granule,
                   last = (store.srcByte + size - 1) / shared.granule;
           g <= last; ++g)
        --shared.shadow[g].bulkReads;
      // (The TMA's read is done by now: what comes after the wait in this
      // thread, or ordered after it, may write the source.)
      if (!exec.read(thread, inst, shared, store.srcByte, size))
        return;
    }
  }
}

LogicalResult compileBulkWait(Compiler &c, Operation *op) {
  auto wait = cast<NVVM::CpAsyncBulkWaitGroupOp>(op);
  Inst &inst = c.emit(execBulkWait, op);
  inst.imm = {static_cast<int64_t>(wait.getGroup())};
  c.program.usesAsync = true;
  return success();
}

/// in = barrier id, thread count (i32).
void execNamedBarrier(Exec &exec, Thread &thread, const Inst &inst) {
  uint32_t id = thread.at<uint32_t>(inst.in[0]);
  int64_t count = thread.at<uint32_t>(inst.in[1]);
  if (id == 0 || id >= 16)
    return exec.fail(thread, inst,
                     "named barrier " + Twine(id) +
                         " (bar.sync takes 1-15 here; 0 is the block's, "
                         "gpu.barrier)");
  if (count <= 0 || count % 32 != 0 || count > exec.threadsPerBlock)
    return exec.fail(thread, inst,
                     "named barrier of " + Twine(count) +
                         " threads (a multiple of 32, at most the block's " +
                         Twine(exec.threadsPerBlock) + ")");
  NamedBarrier &barrier = exec.namedBarriers[id];
  if (barrier.expected == 0)
    barrier.expected = count;
  else if (barrier.expected != count)
    return exec.fail(thread, inst,
                     "named barrier " + Twine(id) + " reached with " +
                         Twine(count) + " threads while " +
                         Twine(barrier.arrived.size()) +
                         " wait at it for " + Twine(barrier.expected));
  for (size_t i = 0; i < thread.vc.size(); ++i)
    barrier.joinedVC[i] = std::max(barrier.joinedVC[i], thread.vc[i]);
  barrier.arrived.push_back(thread.linearTid);
  if (static_cast<int64_t>(barrier.arrived.size()) < barrier.expected) {
    thread.status = Status::Blocked;
    thread.blockedOn = BlockedOn::NamedBarrier;
    thread.waitNamedBarrier = id;
    return;
  }
  // Everyone leaves ordered after everyone's arrival.
  for (unsigned t : barrier.arrived) {
    Thread &other = exec.threads[t];
    for (size_t i = 0; i < other.vc.size(); ++i)
      other.vc[i] = std::max(other.vc[i], barrier.joinedVC[i]);
    if (!other.vc.empty())
      ++other.vc[other.linearTid];
    if (&other != &thread) {
      other.status = Status::Running;
      other.blockedOn = BlockedOn::Nothing;
    }
  }
  barrier.expected = 0;
  barrier.arrived.clear();
  std::fill(barrier.joinedVC.begin(), barrier.joinedVC.end(), 0);
  ++exec.wakes;
}

LogicalResult compileNamedBarrier(Compiler &c, Operation *op) {
  auto barrier = cast<NVVM::BarrierOp>(op);
  if (!barrier.getBarrierId() || !barrier.getNumberOfThreads() ||
      barrier.getReductionOp())
    return c.fail(op, "only named barriers with an id and a thread count "
                      "(bar.sync id, count) are modelled (gpu.barrier is "
                      "the block's)");
  Inst &inst = c.emit(execNamedBarrier, op);
  inst.in = {c.use(barrier.getBarrierId()), c.use(barrier.getNumberOfThreads())};
  c.program.usesAsync = true;
  return success();
}

//===----------------------------------------------------------------------===//
// Fences and register counts
//===----------------------------------------------------------------------===//

/// fence.proxy.async: the thread's clock moves on, so that its stores before
/// the fence have smaller clocks than the fence.
void execProxyFence(Exec &exec, Thread &thread, const Inst &) {
  if (thread.vc.empty())
    return;
  uint32_t clock = ++thread.vc[thread.linearTid];
  thread.proxyFences.push_back({clock, exec.epoch});
}

LogicalResult compileProxyFence(Compiler &c, Operation *op) {
  auto fence = cast<NVVM::FenceProxyOp>(op);
  if (fence.getKind() != NVVM::ProxyKind::async_shared &&
      fence.getKind() != NVVM::ProxyKind::async)
    return c.fail(op, "only fence.proxy.async (shared memory) is interpreted");
  c.emit(execProxyFence, op);
  c.program.usesAsync = true;
  return success();
}

void execSetMaxRegister(Exec &exec, Thread &thread, const Inst &inst) {
  exec.noteAligned(thread, inst);
}

LogicalResult compileSetMaxRegister(Compiler &c, Operation *op) {
  c.emit(execSetMaxRegister, op);
  c.program.usesAsync = true;
  return success();
}

} // namespace

void mlir::tile::interp::registerAsyncHandlers(HandlerRegistry &registry) {
  registry.add(memref::ExtractAlignedPointerAsIndexOp::getOperationName(),
               compileAlignedPointer);
  registry.add(nvgpu::MBarrierCreateOp::getOperationName(),
               compileMbarrierCreate);
  registry.add(nvgpu::MBarrierInitOp::getOperationName(), compileMbarrierInit);
  registry.add(nvgpu::MBarrierArriveOp::getOperationName(),
               compileMbarrierArrive);
  registry.add(nvgpu::MBarrierArriveExpectTxOp::getOperationName(),
               compileMbarrierArriveExpectTx);
  registry.add(nvgpu::MBarrierTryWaitParityOp::getOperationName(),
               compileMbarrierTryWait);
  registry.add(nvgpu::TmaAsyncLoadOp::getOperationName(), compileTmaLoad);
  registry.add(nvgpu::TmaAsyncStoreOp::getOperationName(), compileTmaStore);
  registry.add(NVVM::CpAsyncBulkCommitGroupOp::getOperationName(),
               compileBulkCommit);
  registry.add(NVVM::CpAsyncBulkWaitGroupOp::getOperationName(),
               compileBulkWait);
  registry.add(NVVM::BarrierOp::getOperationName(), compileNamedBarrier);
  registry.add(NVVM::FenceProxyOp::getOperationName(), compileProxyFence);
  registry.add(NVVM::SetMaxRegisterOp::getOperationName(),
               compileSetMaxRegister);
}
