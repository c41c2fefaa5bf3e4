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
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"

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

/// in = tensor map, coordinates (innermost first), group, index, dst
/// [, predicate]; imm = number of coordinates.
void execTmaLoad(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  uint64_t mapId = thread.at<uint64_t>(inst.in[0]);
  if (mapId >= exec.tensorMaps.size())
    return exec.fail(thread, inst,
                     "the tensor map operand is not one the launch made "
                     "(nvgpu.tma.create.descriptor of A or B)");
  const TensorMap &map = exec.tensorMaps[mapId];
  if (!map.invalid.empty())
    return exec.fail(thread, inst,
                     "the tensor map of " + map.name +
                         " cannot be encoded: " + map.invalid);
  unsigned id;
  Mbarrier *barrier =
      useBarrier(exec, thread, inst, inst.in[1 + rank], inst.in[2 + rank], id);
  if (!barrier || predicateOff(thread, inst, 4 + rank))
    return;
  const MemRefDesc &dst = thread.at<MemRefDesc>(inst.in[3 + rank]);
  if (dst.buffer->space != Space::Shared)
    return exec.fail(thread, inst,
                     "TMA copy into " + dst.buffer->name +
                         " (must be shared memory)");
  // (A 3-d copy's destination is 1 x rows x cols: its last two dimensions
  // are the box.)
  bool batched = rank == 3;
  if (rank != map.rank)
    return exec.fail(thread, inst,
                     "a " + Twine(rank) + "-d TMA copy with the " +
                         Twine(map.rank) + "-d tensor map of " + map.name);
  unsigned d = batched ? 1 : 0;
  if ((batched && dst.sizes[0] != 1) || dst.sizes[d] != map.boxRows ||
      dst.sizes[d + 1] != map.boxCols || dst.strides[d] != map.boxCols ||
      dst.strides[d + 1] != 1)
    return exec.fail(thread, inst,
                     "TMA destination of " + Twine(dst.sizes[d]) + "x" +
                         Twine(dst.sizes[d + 1]) + " elements (strides " +
                         Twine(dst.strides[d]) + ", " +
                         Twine(dst.strides[d + 1]) +
                         ") is not the tensor map's contiguous " +
                         Twine(map.boxRows) + "x" + Twine(map.boxCols) +
                         " box");
  int64_t address = exec.sharedMemory().address + dst.byteOffset;
  int64_t needed = map.swizzle128 ? 1024 : 128;
  if (address % needed != 0)
    return exec.fail(thread, inst,
                     "TMA destination at shared address " + Twine(address) +
                         " (shared memory byte " + Twine(dst.byteOffset) +
                         ") is not " + Twine(needed) + "-byte aligned" +
                         (map.swizzle128 ? " (the 128-byte swizzle's atoms "
                                           "are 1024 bytes)"
                                         : ""));
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
  registry.add(NVVM::FenceProxyOp::getOperationName(), compileProxyFence);
  registry.add(NVVM::SetMaxRegisterOp::getOperationName(),
               compileSetMaxRegister);
}
