//===- GpuHandlers.cpp - gpu, nvgpu and llvm.inline_asm ops ---------------===//
//
// Thread and block ids, gpu.barrier (the thread suspends; the executor
// releases the block when every thread waits at it), the dynamic shared
// memory, the cp.async family and the two inline asm forms the passes emit.
//
// cp.async follows PTX: a copy reads its source when issued (A and B are
// read-only), and writes its destination only when a
// device_async_wait completes its group (wait N completes all but the N most
// recent groups of the thread; create_group commits every copy of the thread
// not yet committed, whatever tokens it names). Until then the destination
// is "in flight": any access to it is an error.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile::interp;

namespace {

//===----------------------------------------------------------------------===//
// Ids and barriers
//===----------------------------------------------------------------------===//

enum class IdKind { Thread, Block, BlockDim, GridDim, Lane };

/// imm = dimension.
template <IdKind K> void execId(Exec &exec, Thread &thread, const Inst &inst) {
  int64_t dim = inst.imm[0], value = 0;
  switch (K) {
  case IdKind::Thread:
    value = thread.tid[dim];
    break;
  case IdKind::Block:
    value = exec.blockId[dim];
    break;
  case IdKind::BlockDim:
    value = exec.dims.block[dim];
    break;
  case IdKind::GridDim:
    value = exec.dims.grid[dim];
    break;
  case IdKind::Lane:
    value = thread.linearTid % 32;
    break;
  }
  thread.at<uint64_t>(inst.out[0]) = truncBits(value, exec.program.indexBits);
}

template <IdKind K, typename Op>
LogicalResult compileId(Compiler &c, Operation *op) {
  Inst &inst = c.emit(execId<K>, op);
  inst.out = {c.def(op->getResult(0))};
  int64_t dim = 0;
  if constexpr (K != IdKind::Lane)
    dim = static_cast<int64_t>(cast<Op>(op).getDimension());
  inst.imm = {dim};
  return success();
}

void execBarrier(Exec &, Thread &thread, const Inst &inst) {
  thread.barrier = &inst;
  thread.status = Status::AtBarrier;
}

LogicalResult compileBarrier(Compiler &c, Operation *op) {
  c.emit(execBarrier, op);
  return success();
}

void execDynamicShared(Exec &exec, Thread &thread, const Inst &inst) {
  MemRefDesc desc;
  desc.buffer = &exec.sharedMemory();
  desc.sizes[0] = exec.sharedMemory().bytes.size();
  desc.strides[0] = 1;
  thread.at<MemRefDesc>(inst.out[0]) = desc;
}

LogicalResult compileDynamicShared(Compiler &c, Operation *op) {
  c.emit(execDynamicShared, op).out = {c.def(op->getResult(0))};
  return success();
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

/// in = dst, dst indices, src, src indices[, src elements];
/// imm = dst rank, src rank, dst elements, element bytes, has src elements.
void execAsyncCopy(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned dstRank = inst.imm[0], srcRank = inst.imm[1];
  int64_t elements = inst.imm[2], bytes = inst.imm[3];
  unsigned srcAt = 1 + dstRank;
  const MemRefDesc &dst = thread.at<MemRefDesc>(inst.in[0]);
  const MemRefDesc &src = thread.at<MemRefDesc>(inst.in[srcAt]);
  int64_t dstIndices[kMaxRank], srcIndices[kMaxRank];
  for (unsigned d = 0; d < dstRank; ++d)
    dstIndices[d] = exec.index(thread, inst.in[1 + d]);
  for (unsigned d = 0; d < srcRank; ++d)
    srcIndices[d] = exec.index(thread, inst.in[srcAt + 1 + d]);
  int64_t srcElements =
      inst.imm[4] ? exec.index(thread, inst.in[srcAt + 1 + srcRank]) : elements;
  int64_t copyBytes = elements * bytes;
  if (copyBytes != 4 && copyBytes != 8 && copyBytes != 16)
    return exec.fail(thread, inst,
                     "cp.async of " + Twine(copyBytes) +
                         " bytes (PTX allows 4, 8 or 16)");
  if (srcElements < 0 || srcElements > elements)
    return exec.fail(thread, inst,
                     "cp.async reads " + Twine(srcElements) +
                         " source elements, more than the " + Twine(elements) +
                         " it writes");
  if (dst.buffer->space != Space::Shared)
    return exec.fail(thread, inst,
                     "cp.async into " + dst.buffer->name +
                         " (must be shared memory)");
  if (src.buffer->space != Space::Global)
    return exec.fail(thread, inst,
                     "cp.async from " + src.buffer->name +
                         " (must be global memory)");
  PendingCopy copy;
  copy.inst = &inst;
  copy.dst = dst.buffer;
  if (!exec.locate(thread, inst, dst, dstRank, {dstIndices, dstRank}, elements,
                   bytes, 0, copy.dstByte) ||
      !exec.checkAlignment(thread, inst, *dst.buffer, copy.dstByte, copyBytes,
                           "cp.async destination"))
    return;
  copy.data.assign(copyBytes, 0); // past src elements: zero-filled
  if (srcElements > 0) {
    int64_t srcByte;
    if (!exec.locate(thread, inst, src, srcRank, {srcIndices, srcRank},
                     srcElements, bytes, srcAt, srcByte) ||
        !exec.checkAlignment(thread, inst, *src.buffer, srcByte, copyBytes,
                             "cp.async source"))
      return;
    const uint8_t *data =
        exec.read(thread, inst, *src.buffer, srcByte, srcElements * bytes);
    if (!data)
      return;
    std::memcpy(copy.data.data(), data, srcElements * bytes);
  }
  exec.stats.asyncZeroFilledBytes += copyBytes - srcElements * bytes;
  if (!exec.issueAsyncCopy(thread, inst, std::move(copy)))
    return;
  thread.at<uint64_t>(inst.out[0]) = exec.stats.asyncCopies;
}

LogicalResult compileAsyncCopy(Compiler &c, Operation *op) {
  auto copy = cast<nvgpu::DeviceAsyncCopyOp>(op);
  auto dstType = cast<MemRefType>(copy.getDst().getType());
  auto srcType = cast<MemRefType>(copy.getSrc().getType());
  auto floating = dyn_cast<FloatType>(dstType.getElementType());
  if (!floating || dstType.getElementType() != srcType.getElementType())
    return c.fail(op, "unsupported cp.async element type");
  int64_t bytes = floating.getWidth() / 8;
  c.noteAccess(bytes);
  Inst &inst = c.emit(execAsyncCopy, op);
  inst.in = {c.use(copy.getDst())};
  for (Value v : copy.getDstIndices())
    inst.in.push_back(c.use(v));
  inst.in.push_back(c.use(copy.getSrc()));
  for (Value v : copy.getSrcIndices())
    inst.in.push_back(c.use(v));
  if (copy.getSrcElements())
    inst.in.push_back(c.use(copy.getSrcElements()));
  inst.out = {c.def(copy.getAsyncToken())};
  inst.imm = {dstType.getRank(), srcType.getRank(),
              static_cast<int64_t>(copy.getDstElements().getZExtValue()), bytes,
              copy.getSrcElements() ? 1 : 0};
  return success();
}

void execCreateGroup(Exec &, Thread &thread, const Inst &inst) {
  AsyncGroup group;
  group.copies.append(std::make_move_iterator(thread.uncommitted.begin()),
                      std::make_move_iterator(thread.uncommitted.end()));
  thread.uncommitted.clear();
  thread.groups.push_back(std::move(group));
  thread.at<uint64_t>(inst.out[0]) = thread.groups.size();
}

LogicalResult compileCreateGroup(Compiler &c, Operation *op) {
  c.emit(execCreateGroup, op).out = {c.def(op->getResult(0))};
  return success();
}

/// imm = the groups that may stay in flight.
void execAsyncWait(Exec &exec, Thread &thread, const Inst &inst) {
  exec.waitAsyncGroups(thread, inst, inst.imm[0]);
}

LogicalResult compileAsyncWait(Compiler &c, Operation *op) {
  auto wait = cast<nvgpu::DeviceAsyncWaitOp>(op);
  c.emit(execAsyncWait, op).imm = {
      static_cast<int64_t>(wait.getNumGroups().value_or(0))};
  return success();
}

//===----------------------------------------------------------------------===//
// llvm.inline_asm
//===----------------------------------------------------------------------===//

void execMov32(Exec &, Thread &thread, const Inst &inst) {
  thread.at<uint64_t>(inst.out[0]) =
      truncBits(thread.at<uint64_t>(inst.in[0]), 32);
}

/// Exactly the two forms the passes emit: `mov.b32 $0, $1;` ("=r,r", an
/// i32 through an opaque copy) and an empty side-effecting asm with a memory
/// clobber (a compiler fence: nothing to do on the host).
LogicalResult compileInlineAsm(Compiler &c, Operation *op) {
  auto asmOp = cast<LLVM::InlineAsmOp>(op);
  StringRef text = asmOp.getAsmString().trim();
  StringRef constraints = asmOp.getConstraints();
  if (text == "mov.b32 $0, $1;" && constraints == "=r,r" &&
      asmOp.getNumOperands() == 1 && asmOp->getNumResults() == 1 &&
      asmOp.getOperand(0).getType().isInteger(32) &&
      asmOp->getResult(0).getType().isInteger(32)) {
    Inst &inst = c.emit(execMov32, op);
    inst.in = {c.use(asmOp.getOperand(0))};
    inst.out = {c.def(asmOp->getResult(0))};
    return success();
  }
  if (text.empty() && constraints == "~{memory}" &&
      asmOp.getNumOperands() == 0 && asmOp->getNumResults() == 0 &&
      asmOp.getHasSideEffects())
    return success();
  return c.fail(op, "unsupported llvm.inline_asm \"" + asmOp.getAsmString() +
                        "\" with constraints \"" + constraints +
                        "\": only the identity `mov.b32 $0, $1;` (\"=r,r\") "
                        "and the empty asm with a memory clobber are "
                        "interpreted");
}

} // namespace

void mlir::tile::interp::registerGpuHandlers(HandlerRegistry &registry) {
  registry.add(gpu::ThreadIdOp::getOperationName(),
               compileId<IdKind::Thread, gpu::ThreadIdOp>);
  registry.add(gpu::BlockIdOp::getOperationName(),
               compileId<IdKind::Block, gpu::BlockIdOp>);
  registry.add(gpu::BlockDimOp::getOperationName(),
               compileId<IdKind::BlockDim, gpu::BlockDimOp>);
  registry.add(gpu::GridDimOp::getOperationName(),
               compileId<IdKind::GridDim, gpu::GridDimOp>);
  registry.add(gpu::LaneIdOp::getOperationName(),
               compileId<IdKind::Lane, gpu::LaneIdOp>);
  registry.add(gpu::BarrierOp::getOperationName(), compileBarrier);
  registry.add(gpu::DynamicSharedMemoryOp::getOperationName(),
               compileDynamicShared);
  registry.add(nvgpu::DeviceAsyncCopyOp::getOperationName(), compileAsyncCopy);
  registry.add(nvgpu::DeviceAsyncCreateGroupOp::getOperationName(),
               compileCreateGroup);
  registry.add(nvgpu::DeviceAsyncWaitOp::getOperationName(), compileAsyncWait);
  registry.add(LLVM::InlineAsmOp::getOperationName(), compileInlineAsm);
}
