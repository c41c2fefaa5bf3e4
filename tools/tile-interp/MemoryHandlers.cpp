//===- MemoryHandlers.cpp - memref, vector and linalg ops -----------------===//
//
// Memrefs are MemRefDescs (buffer, byte offset, sizes, strides); views
// (subview, view, transpose) compute new descriptors and check that they lie
// inside their source; loads and stores locate their element through the
// descriptor, check every index against the memref's sizes and go through
// Exec's checked accessors. linalg.matmul and linalg.fill (what the kernels
// hold before thread tiling) run element by element through the same
// accessors, so their reads of shared memory take part in the race check.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"
#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tile::interp;

namespace {

/// Bytes of one lane of `type` in a frame (ints: 8) and in memory.
int64_t frameLaneBytes(Type type) {
  if (isa<IndexType, IntegerType>(type))
    return 8;
  if (auto floating = dyn_cast<FloatType>(type))
    return floating.getWidth() / 8;
  return 0;
}
int64_t memoryBytes(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() % 8 == 0 ? integer.getWidth() / 8 : 0;
  if (auto floating = dyn_cast<FloatType>(type))
    return floating.getWidth() % 8 == 0 ? floating.getWidth() / 8 : 0;
  return 0; // index and others: not stored in memory by these kernels
}

/// The indices in[first..first+rank) as integers.
void readIndices(Exec &exec, Thread &thread, const Inst &inst, unsigned first,
                 unsigned rank, int64_t *indices) {
  for (unsigned d = 0; d < rank; ++d)
    indices[d] = exec.index(thread, inst.in[first + d]);
}

/// Memory -> frame for one element (ints widen to 8 bytes).
void toFrame(uint8_t *frame, const uint8_t *memory, int64_t bytes, bool isInt) {
  if (!isInt) {
    std::memcpy(frame, memory, bytes);
    return;
  }
  uint64_t value = 0;
  std::memcpy(&value, memory, bytes);
  std::memcpy(frame, &value, 8);
}

//===----------------------------------------------------------------------===//
// Scalar and vector accesses
//===----------------------------------------------------------------------===//

/// memref.load: in = memref, indices; imm = rank, bytes, isInt.
void execLoad(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1];
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[0]);
  int64_t indices[kMaxRank], byte;
  readIndices(exec, thread, inst, 1, rank, indices);
  if (!exec.locate(thread, inst, desc, rank, {indices, rank}, 1, bytes, 0,
                   byte) ||
      !exec.checkAlignment(thread, inst, *desc.buffer, byte, bytes, "load"))
    return;
  const uint8_t *data = exec.read(thread, inst, *desc.buffer, byte, bytes);
  if (data)
    toFrame(thread.slot(inst.out[0]), data, bytes, inst.imm[2]);
}

/// memref.store: in = value, memref, indices; imm = rank, bytes.
void execStore(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1];
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[1]);
  int64_t indices[kMaxRank], byte;
  readIndices(exec, thread, inst, 2, rank, indices);
  if (!exec.locate(thread, inst, desc, rank, {indices, rank}, 1, bytes, 1,
                   byte) ||
      !exec.checkAlignment(thread, inst, *desc.buffer, byte, bytes, "store"))
    return;
  // Ints are little-endian in their 8-byte lane: the low bytes are the value.
  exec.write(thread, inst, *desc.buffer, byte, thread.slot(inst.in[0]), bytes);
}

LogicalResult compileLoadStore(Compiler &c, Operation *op) {
  bool isLoad = isa<memref::LoadOp>(op);
  Value memref = isLoad ? cast<memref::LoadOp>(op).getMemRef()
                        : cast<memref::StoreOp>(op).getMemRef();
  ValueRange indices = isLoad ? cast<memref::LoadOp>(op).getIndices()
                              : cast<memref::StoreOp>(op).getIndices();
  auto type = cast<MemRefType>(memref.getType());
  int64_t bytes = memoryBytes(type.getElementType());
  if (!bytes)
    return c.fail(op, "unsupported element type");
  c.noteAccess(bytes);
  Inst &inst = c.emit(isLoad ? execLoad : execStore, op);
  if (!isLoad)
    inst.in.push_back(c.use(cast<memref::StoreOp>(op).getValueToStore()));
  inst.in.push_back(c.use(memref));
  for (Value index : indices)
    inst.in.push_back(c.use(index));
  if (isLoad)
    inst.out = {c.def(op->getResult(0))};
  inst.imm = {type.getRank(), bytes,
              isa<IntegerType>(type.getElementType()) ? 1 : 0};
  return success();
}

/// vector.load: in = memref, indices; imm = rank, element bytes, lanes,
/// alignment.
void execVectorLoad(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1], lanes = inst.imm[2];
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[0]);
  int64_t indices[kMaxRank], byte;
  readIndices(exec, thread, inst, 1, rank, indices);
  if (!exec.locate(thread, inst, desc, rank, {indices, rank}, lanes, bytes, 0,
                   byte) ||
      !exec.checkAlignment(thread, inst, *desc.buffer, byte, inst.imm[3],
                           "vector.load"))
    return;
  const uint8_t *data =
      exec.read(thread, inst, *desc.buffer, byte, bytes * lanes);
  if (data)
    std::memcpy(thread.slot(inst.out[0]), data, bytes * lanes);
}

/// vector.store: in = value, memref, indices; imm as vector.load.
void execVectorStore(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1], lanes = inst.imm[2];
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[1]);
  int64_t indices[kMaxRank], byte;
  readIndices(exec, thread, inst, 2, rank, indices);
  if (!exec.locate(thread, inst, desc, rank, {indices, rank}, lanes, bytes, 1,
                   byte) ||
      !exec.checkAlignment(thread, inst, *desc.buffer, byte, inst.imm[3],
                           "vector.store"))
    return;
  exec.write(thread, inst, *desc.buffer, byte, thread.slot(inst.in[0]),
             bytes * lanes);
}

LogicalResult compileVectorLoadStore(Compiler &c, Operation *op) {
  bool isLoad = isa<vector::LoadOp>(op);
  Value base = isLoad ? cast<vector::LoadOp>(op).getBase()
                      : cast<vector::StoreOp>(op).getBase();
  ValueRange indices = isLoad ? cast<vector::LoadOp>(op).getIndices()
                              : cast<vector::StoreOp>(op).getIndices();
  VectorType vector = isLoad ? cast<vector::LoadOp>(op).getVectorType()
                             : cast<vector::StoreOp>(op).getVectorType();
  std::optional<uint64_t> alignment =
      isLoad ? cast<vector::LoadOp>(op).getAlignment()
             : cast<vector::StoreOp>(op).getAlignment();
  auto type = cast<MemRefType>(base.getType());
  if (vector.getRank() != 1 || !isa<FloatType>(vector.getElementType()) ||
      vector.getElementType() != type.getElementType())
    return c.fail(op, "only 1-d float vectors of the memref's element type");
  int64_t bytes = memoryBytes(vector.getElementType());
  c.noteAccess(bytes);
  Inst &inst = c.emit(isLoad ? execVectorLoad : execVectorStore, op);
  if (!isLoad)
    inst.in.push_back(c.use(cast<vector::StoreOp>(op).getValueToStore()));
  inst.in.push_back(c.use(base));
  for (Value index : indices)
    inst.in.push_back(c.use(index));
  if (isLoad)
    inst.out = {c.def(op->getResult(0))};
  inst.imm = {type.getRank(), bytes, vector.getNumElements(),
              alignment ? static_cast<int64_t>(*alignment) : bytes};
  return success();
}

/// memref.atomic_rmw: in = value, memref, indices; imm = rank, bytes, kind.
template <typename T>
void execAtomicAdd(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1];
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[1]);
  int64_t indices[kMaxRank], byte;
  readIndices(exec, thread, inst, 2, rank, indices);
  if (!exec.locate(thread, inst, desc, rank, {indices, rank}, 1, bytes, 1,
                   byte) ||
      !exec.checkAlignment(thread, inst, *desc.buffer, byte, bytes,
                           "atomic_rmw"))
    return;
  const uint8_t *old =
      exec.readForAtomic(thread, inst, *desc.buffer, byte, bytes);
  if (!old)
    return;
  T before, operand;
  std::memcpy(&before, old, sizeof(T));
  std::memcpy(&operand, thread.slot(inst.in[0]), sizeof(T));
  T after = before + operand;
  if (!exec.write(thread, inst, *desc.buffer, byte,
                  reinterpret_cast<const uint8_t *>(&after), sizeof(T),
                  /*atomic=*/true))
    return;
  std::memcpy(thread.slot(inst.out[0]), &before, sizeof(T));
}

LogicalResult compileAtomicRMW(Compiler &c, Operation *op) {
  auto atomic = cast<memref::AtomicRMWOp>(op);
  Type element = atomic.getMemRefType().getElementType();
  ExecFn fn = nullptr;
  if (atomic.getKind() == arith::AtomicRMWKind::addf)
    fn = element.isF32()   ? execAtomicAdd<float>
         : element.isF64() ? execAtomicAdd<double>
                           : nullptr;
  if (!fn)
    return c.fail(op, "only addf on f32/f64 is supported");
  int64_t bytes = memoryBytes(element);
  c.noteAccess(bytes);
  Inst &inst = c.emit(fn, op);
  inst.in = {c.use(atomic.getValue()), c.use(atomic.getMemref())};
  for (Value index : atomic.getIndices())
    inst.in.push_back(c.use(index));
  inst.out = {c.def(atomic.getResult())};
  inst.imm = {atomic.getMemRefType().getRank(), bytes};
  return success();
}

/// tile.atomic_addf: in = value (lanes f32), memref, indices; imm = rank,
/// lanes. One atomic add per lane, the first lane's address aligned to the
/// vector (what red.global.add.vN.f32 requires).
void execVectorAtomicAdd(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t lanes = inst.imm[1], bytes = 4;
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[1]);
  int64_t indices[kMaxRank], byte;
  readIndices(exec, thread, inst, 2, rank, indices);
  if (!exec.locate(thread, inst, desc, rank, {indices, rank}, lanes, bytes, 1,
                   byte) ||
      !exec.checkAlignment(thread, inst, *desc.buffer, byte, bytes * lanes,
                           "tile.atomic_addf"))
    return;
  const auto *values = reinterpret_cast<const float *>(thread.slot(inst.in[0]));
  for (int64_t lane = 0; lane < lanes; ++lane) {
    int64_t at = byte + lane * bytes;
    const uint8_t *old = exec.readForAtomic(thread, inst, *desc.buffer, at,
                                            bytes);
    if (!old)
      return;
    float before, after;
    std::memcpy(&before, old, sizeof(float));
    after = before + values[lane];
    if (!exec.write(thread, inst, *desc.buffer, at,
                    reinterpret_cast<const uint8_t *>(&after), bytes,
                    /*atomic=*/true))
      return;
  }
}

LogicalResult compileVectorAtomicAdd(Compiler &c, Operation *op) {
  auto atomic = cast<mlir::tile::AtomicAddFOp>(op);
  c.noteAccess(4);
  Inst &inst = c.emit(execVectorAtomicAdd, op);
  inst.in = {c.use(atomic.getValue()), c.use(atomic.getMemref())};
  for (Value index : atomic.getIndices())
    inst.in.push_back(c.use(index));
  inst.imm = {atomic.getMemref().getType().getRank(),
              atomic.getValue().getType().getNumElements()};
  return success();
}

//===----------------------------------------------------------------------===//
// Views and allocations
//===----------------------------------------------------------------------===//

std::string shapeText(const int64_t *sizes, unsigned rank) {
  std::string text;
  for (unsigned d = 0; d < rank; ++d)
    text += (d ? "x" : "") + std::to_string(sizes[d]);
  return rank ? text : "scalar";
}

/// memref.subview: in = source, dynamic offsets, sizes, strides;
/// imm = source rank, element bytes, then 3 x rank static values
/// (offsets, sizes, strides; kDynamic: the next operand), then a dropped
/// flag per source dimension.
void execSubView(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1];
  const MemRefDesc source = thread.at<MemRefDesc>(inst.in[0]);
  int64_t values[3][kMaxRank];
  unsigned next = 1;
  for (unsigned list = 0; list < 3; ++list)
    for (unsigned d = 0; d < rank; ++d) {
      int64_t value = inst.imm[2 + list * rank + d];
      values[list][d] = ShapedType::isDynamic(value)
                            ? exec.index(thread, inst.in[next++])
                            : value;
    }
  MemRefDesc result;
  result.buffer = source.buffer;
  result.byteOffset = source.byteOffset;
  result.alignedByte = source.alignedByte;
  unsigned kept = 0;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t offset = values[0][d], size = values[1][d], stride = values[2][d];
    bool inside = size > 0
                      ? offset >= 0 && stride >= 1 &&
                            offset + (size - 1) * stride < source.sizes[d]
                      : size == 0 && offset >= 0 && offset <= source.sizes[d];
    if (!inside) {
      std::string text = "memref.subview out of bounds: offsets [";
      for (unsigned e = 0; e < rank; ++e)
        text += (e ? ", " : "") + std::to_string(values[0][e]);
      text += "] sizes [";
      for (unsigned e = 0; e < rank; ++e)
        text += (e ? ", " : "") + std::to_string(values[1][e]);
      text += "] strides [";
      for (unsigned e = 0; e < rank; ++e)
        text += (e ? ", " : "") + std::to_string(values[2][e]);
      text += "] of a " + shapeText(source.sizes, rank) + " memref of " +
              source.buffer->name;
      return exec.fail(thread, inst, text);
    }
    result.byteOffset += offset * source.strides[d] * bytes;
    if (inst.imm[2 + 3 * rank + d])
      continue; // dropped unit dimension
    result.sizes[kept] = size;
    result.strides[kept] = source.strides[d] * stride;
    ++kept;
  }
  thread.at<MemRefDesc>(inst.out[0]) = result;
}

LogicalResult compileSubView(Compiler &c, Operation *op) {
  auto subview = cast<memref::SubViewOp>(op);
  MemRefType source = subview.getSourceType();
  int64_t bytes = memoryBytes(source.getElementType());
  if (!bytes)
    return c.fail(op, "unsupported element type");
  Inst &inst = c.emit(execSubView, op);
  inst.in = {c.use(subview.getSource())};
  for (Value v : subview.getOffsets())
    inst.in.push_back(c.use(v));
  for (Value v : subview.getSizes())
    inst.in.push_back(c.use(v));
  for (Value v : subview.getStrides())
    inst.in.push_back(c.use(v));
  inst.out = {c.def(subview.getResult())};
  inst.imm = {source.getRank(), bytes};
  llvm::append_range(inst.imm, subview.getStaticOffsets());
  llvm::append_range(inst.imm, subview.getStaticSizes());
  llvm::append_range(inst.imm, subview.getStaticStrides());
  llvm::SmallBitVector dropped = subview.getDroppedDims();
  for (unsigned d = 0; d < source.getRank(); ++d)
    inst.imm.push_back(dropped.test(d) ? 1 : 0);
  return success();
}

/// memref.view of a 1-d i8 buffer: in = source, byte shift, dynamic sizes;
/// imm = rank, element bytes, static sizes.
void execView(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1];
  const MemRefDesc source = thread.at<MemRefDesc>(inst.in[0]);
  int64_t shift = exec.index(thread, inst.in[1]);
  MemRefDesc result;
  result.buffer = source.buffer;
  unsigned next = 2;
  int64_t total = bytes;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t size = inst.imm[2 + d];
    result.sizes[d] = ShapedType::isDynamic(size)
                          ? exec.index(thread, inst.in[next++])
                          : size;
    total *= result.sizes[d];
  }
  for (int d = rank - 1, stride = 1; d >= 0; --d) {
    result.strides[d] = stride;
    stride *= result.sizes[d];
  }
  if (shift < 0 || shift + total > source.sizes[0])
    return exec.fail(thread, inst,
                     "memref.view of " + Twine(total) +
                         " bytes at byte shift " + Twine(shift) +
                         " reaches past the " + Twine(source.sizes[0]) +
                         " bytes of " + source.buffer->name +
                         (source.buffer->space == Space::Shared
                              ? " the launch provides (dynamic shared memory)"
                              : ""));
  if (shift % bytes != 0)
    return exec.fail(thread, inst,
                     "memref.view at byte shift " + Twine(shift) +
                         ", not a multiple of the element size " +
                         Twine(bytes));
  // LLVM's lowering: the aligned pointer moves by the shift, offset 0.
  result.byteOffset = source.byteOffset + shift;
  result.alignedByte = source.alignedByte + shift;
  thread.at<MemRefDesc>(inst.out[0]) = result;
}

LogicalResult compileView(Compiler &c, Operation *op) {
  auto view = cast<memref::ViewOp>(op);
  MemRefType type = view.getType();
  int64_t bytes = memoryBytes(type.getElementType());
  if (!bytes || view.getSource().getType().getRank() != 1)
    return c.fail(op, "unsupported memref.view");
  Inst &inst = c.emit(execView, op);
  inst.in = {c.use(view.getSource()), c.use(view.getByteShift())};
  for (Value v : view.getSizes())
    inst.in.push_back(c.use(v));
  inst.out = {c.def(view.getResult())};
  inst.imm = {type.getRank(), bytes};
  llvm::append_range(inst.imm, type.getShape());
  return success();
}

/// memref.transpose: imm = rank, permutation.
void execTranspose(Exec &, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  const MemRefDesc source = thread.at<MemRefDesc>(inst.in[0]);
  MemRefDesc result = source;
  for (unsigned d = 0; d < rank; ++d) {
    result.sizes[d] = source.sizes[inst.imm[1 + d]];
    result.strides[d] = source.strides[inst.imm[1 + d]];
  }
  thread.at<MemRefDesc>(inst.out[0]) = result;
}

LogicalResult compileTranspose(Compiler &c, Operation *op) {
  auto transpose = cast<memref::TransposeOp>(op);
  AffineMap permutation = transpose.getPermutation();
  if (!permutation.isPermutation())
    return c.fail(op, "not a permutation");
  Inst &inst = c.emit(execTranspose, op);
  inst.in = {c.use(transpose.getIn())};
  inst.out = {c.def(transpose.getResult())};
  inst.imm = {permutation.getNumResults()};
  for (unsigned d = 0; d < permutation.getNumResults(); ++d)
    inst.imm.push_back(permutation.getDimPosition(d));
  return success();
}

/// memref.cast: the same descriptor (the static sizes are checked).
void execCast(Exec &exec, Thread &thread, const Inst &inst) {
  const MemRefDesc &source = thread.at<MemRefDesc>(inst.in[0]);
  for (unsigned d = 0; d < inst.imm.size(); ++d)
    if (!ShapedType::isDynamic(inst.imm[d]) && inst.imm[d] != source.sizes[d])
      return exec.fail(thread, inst,
                       "memref.cast to a static size " + Twine(inst.imm[d]) +
                           " of a memref of size " + Twine(source.sizes[d]));
  thread.at<MemRefDesc>(inst.out[0]) = source;
}

LogicalResult compileCast(Compiler &c, Operation *op) {
  auto cast = llvm::cast<memref::CastOp>(op);
  auto type = dyn_cast<MemRefType>(cast.getType());
  if (!type)
    return c.fail(op, "unranked memrefs are not supported");
  Inst &inst = c.emit(execCast, op);
  inst.in = {c.use(cast.getSource())};
  inst.out = {c.def(cast.getResult())};
  llvm::append_range(inst.imm, type.getShape());
  return success();
}

/// memref.reinterpret_cast with a static offset, sizes and strides (an fma
/// kernel's view of B's repacked copy): the aligned pointer's buffer, the
/// op's layout. imm = rank, element bytes, offset, sizes, strides.
void execReinterpretCast(Exec &, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  const MemRefDesc source = thread.at<MemRefDesc>(inst.in[0]);
  MemRefDesc result = source;
  result.byteOffset = source.alignedByte + inst.imm[2] * inst.imm[1];
  for (unsigned d = 0; d < rank; ++d) {
    result.sizes[d] = inst.imm[3 + d];
    result.strides[d] = inst.imm[3 + rank + d];
  }
  thread.at<MemRefDesc>(inst.out[0]) = result;
}

LogicalResult compileReinterpretCast(Compiler &c, Operation *op) {
  auto cast = llvm::cast<memref::ReinterpretCastOp>(op);
  MemRefType type = cast.getType();
  int64_t bytes = memoryBytes(type.getElementType());
  if (!bytes)
    return c.fail(op, "unsupported element type");
  if (!cast.getOffsets().empty() || !cast.getSizes().empty() ||
      !cast.getStrides().empty())
    return c.fail(op, "only a static offset, sizes and strides are "
                      "supported");
  Inst &inst = c.emit(execReinterpretCast, op);
  inst.in = {c.use(cast.getSource())};
  inst.out = {c.def(cast.getResult())};
  inst.imm = {type.getRank(), bytes};
  llvm::append_range(inst.imm, cast.getStaticOffsets());
  llvm::append_range(inst.imm, cast.getStaticSizes());
  llvm::append_range(inst.imm, cast.getStaticStrides());
  return success();
}

/// memref.dim: in = memref, index; imm = rank.
void execDim(Exec &exec, Thread &thread, const Inst &inst) {
  int64_t dim = exec.index(thread, inst.in[1]);
  if (dim < 0 || dim >= inst.imm[0])
    return exec.fail(thread, inst, "memref.dim of dimension " + Twine(dim));
  thread.at<uint64_t>(inst.out[0]) = truncBits(
      thread.at<MemRefDesc>(inst.in[0]).sizes[dim], exec.program.indexBits);
}

LogicalResult compileDim(Compiler &c, Operation *op) {
  auto dim = cast<memref::DimOp>(op);
  auto type = dyn_cast<MemRefType>(dim.getSource().getType());
  if (!type)
    return c.fail(op, "unranked memrefs are not supported");
  Inst &inst = c.emit(execDim, op);
  inst.in = {c.use(dim.getSource()), c.use(dim.getIndex())};
  inst.out = {c.def(dim.getResult())};
  inst.imm = {type.getRank()};
  return success();
}

/// memref.alloca: a private buffer of this thread, NaN-filled.
/// in = dynamic sizes; imm = rank, element bytes, static sizes.
void execAlloca(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1];
  MemRefDesc result;
  unsigned next = 0;
  int64_t total = bytes;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t size = inst.imm[2 + d];
    result.sizes[d] = ShapedType::isDynamic(size)
                          ? exec.index(thread, inst.in[next++])
                          : size;
    if (result.sizes[d] < 0)
      return exec.fail(thread, inst, "memref.alloca of a negative size");
    total *= result.sizes[d];
  }
  for (int d = rank - 1, stride = 1; d >= 0; --d) {
    result.strides[d] = stride;
    stride *= result.sizes[d];
  }
  auto buffer = std::make_unique<Buffer>();
  buffer->name = "alloca";
  buffer->space = Space::Private;
  buffer->baseAlignment = 16;
  buffer->reset(total, 0xff, kNobody);
  result.buffer = buffer.get();
  thread.allocas.push_back(std::move(buffer));
  thread.at<MemRefDesc>(inst.out[0]) = result;
}

LogicalResult compileAlloca(Compiler &c, Operation *op) {
  auto alloca = cast<memref::AllocaOp>(op);
  MemRefType type = alloca.getType();
  int64_t bytes = memoryBytes(type.getElementType());
  if (!bytes || !type.getLayout().isIdentity())
    return c.fail(op, "unsupported memref.alloca");
  Inst &inst = c.emit(execAlloca, op);
  for (Value v : alloca.getDynamicSizes())
    inst.in.push_back(c.use(v));
  inst.out = {c.def(alloca.getResult())};
  inst.imm = {type.getRank(), bytes};
  llvm::append_range(inst.imm, type.getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Vector values
//===----------------------------------------------------------------------===//

/// vector.extract / vector.insert: imm = bytes moved, number of positions,
/// then per position (static value or kDynamic, stride in bytes, size of
/// the dimension); vector.insert appends the bytes of the whole vector.
int64_t positionOffset(Exec &exec, Thread &thread, const Inst &inst,
                       unsigned firstDynamic, bool &ok) {
  int64_t offset = 0;
  unsigned next = firstDynamic;
  for (int64_t p = 0; p < inst.imm[1]; ++p) {
    int64_t position = inst.imm[2 + 3 * p], stride = inst.imm[3 + 3 * p],
            size = inst.imm[4 + 3 * p];
    if (ShapedType::isDynamic(position))
      position = exec.index(thread, inst.in[next++]);
    if (position < 0 || position >= size) {
      exec.fail(thread, inst,
                "vector position " + Twine(position) +
                    " outside a dimension of " + Twine(size));
      ok = false;
      return 0;
    }
    offset += position * stride;
  }
  ok = true;
  return offset;
}

void execExtract(Exec &exec, Thread &thread, const Inst &inst) {
  bool ok;
  int64_t offset = positionOffset(exec, thread, inst, 1, ok);
  if (ok)
    std::memcpy(thread.slot(inst.out[0]), thread.slot(inst.in[0]) + offset,
                inst.imm[0]);
}

void execInsert(Exec &exec, Thread &thread, const Inst &inst) {
  bool ok;
  int64_t offset = positionOffset(exec, thread, inst, 2, ok);
  if (!ok)
    return;
  std::memcpy(thread.slot(inst.out[0]), thread.slot(inst.in[1]),
              inst.imm.back());
  std::memcpy(thread.slot(inst.out[0]) + offset, thread.slot(inst.in[0]),
              inst.imm[0]);
}

/// Fills imm with the positions of `position` into a vector of `type`.
LogicalResult positionImm(Compiler &c, Operation *op, VectorType type,
                          ArrayRef<int64_t> position, Inst &inst) {
  int64_t lane = frameLaneBytes(type.getElementType());
  if (!lane)
    return c.fail(op, "unsupported vector element type");
  ArrayRef<int64_t> shape = type.getShape();
  int64_t moved = lane;
  for (size_t d = position.size(); d < shape.size(); ++d)
    moved *= shape[d];
  inst.imm = {moved, static_cast<int64_t>(position.size())};
  for (size_t d = 0; d < position.size(); ++d) {
    if (position[d] == vector::ExtractOp::kPoisonIndex)
      return c.fail(op, "poison position");
    int64_t stride = lane;
    for (size_t e = d + 1; e < shape.size(); ++e)
      stride *= shape[e];
    inst.imm.append({position[d], stride, shape[d]});
  }
  return success();
}

LogicalResult compileExtract(Compiler &c, Operation *op) {
  auto extract = cast<vector::ExtractOp>(op);
  Inst &inst = c.emit(execExtract, op);
  inst.in = {c.use(extract.getSource())};
  for (Value v : extract.getDynamicPosition())
    inst.in.push_back(c.use(v));
  inst.out = {c.def(extract.getResult())};
  return positionImm(c, op, extract.getSourceVectorType(),
                     extract.getStaticPosition(), inst);
}

LogicalResult compileInsert(Compiler &c, Operation *op) {
  auto insert = cast<vector::InsertOp>(op);
  Inst &inst = c.emit(execInsert, op);
  inst.in = {c.use(insert.getValueToStore()), c.use(insert.getDest())};
  for (Value v : insert.getDynamicPosition())
    inst.in.push_back(c.use(v));
  inst.out = {c.def(insert.getResult())};
  if (failed(positionImm(c, op, insert.getDestVectorType(),
                         insert.getStaticPosition(), inst)))
    return failure();
  inst.imm.push_back(Compiler::storageSize(insert.getDestVectorType()));
  return success();
}

/// vector.broadcast: the source's bytes (imm[0]) repeated imm[1] times.
void execRepeat(Exec &, Thread &thread, const Inst &inst) {
  int64_t bytes = inst.imm[0];
  uint8_t *out = thread.slot(inst.out[0]);
  const uint8_t *in = thread.slot(inst.in[0]);
  for (int64_t i = 0; i < inst.imm[1]; ++i)
    std::memcpy(out + i * bytes, in, bytes);
}

LogicalResult compileBroadcast(Compiler &c, Operation *op) {
  Value source = op->getOperand(0);
  auto result = cast<VectorType>(op->getResult(0).getType());
  int64_t lane = frameLaneBytes(result.getElementType());
  if (!lane)
    return c.fail(op, "unsupported vector element type");
  int64_t bytes = lane, times = result.getNumElements();
  if (auto vector = dyn_cast<VectorType>(source.getType())) {
    // Only a source whose shape is a suffix of the result's (its copies
    // stacked); stretching a unit dimension is not supported.
    ArrayRef<int64_t> from = vector.getShape(), to = result.getShape();
    if (from.size() > to.size() ||
        !llvm::equal(from, to.take_back(from.size())))
      return c.fail(op, "unsupported broadcast (unit-dimension stretch)");
    bytes = lane * vector.getNumElements();
    times =
        result.getNumElements() / std::max<int64_t>(1, vector.getNumElements());
  }
  Inst &inst = c.emit(execRepeat, op);
  inst.in = {c.use(source)};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {bytes, times};
  return success();
}

/// vector.shuffle: imm = lane bytes, lanes of v1, mask.
void execShuffle(Exec &, Thread &thread, const Inst &inst) {
  int64_t lane = inst.imm[0], first = inst.imm[1];
  uint8_t *out = thread.slot(inst.out[0]);
  const uint8_t *a = thread.slot(inst.in[0]), *b = thread.slot(inst.in[1]);
  for (size_t i = 2; i < inst.imm.size(); ++i) {
    int64_t m = inst.imm[i];
    uint8_t *to = out + (i - 2) * lane;
    if (m < 0)
      std::memset(to, 0xff, lane); // poison
    else if (m < first)
      std::memcpy(to, a + m * lane, lane);
    else
      std::memcpy(to, b + (m - first) * lane, lane);
  }
}

LogicalResult compileShuffle(Compiler &c, Operation *op) {
  auto shuffle = cast<vector::ShuffleOp>(op);
  VectorType v1 = shuffle.getV1VectorType();
  if (v1.getRank() > 1 || shuffle.getResultVectorType().getRank() != 1)
    return c.fail(op, "only 1-d shuffles are supported");
  int64_t lane = frameLaneBytes(v1.getElementType());
  if (!lane)
    return c.fail(op, "unsupported vector element type");
  Inst &inst = c.emit(execShuffle, op);
  inst.in = {c.use(shuffle.getV1()), c.use(shuffle.getV2())};
  inst.out = {c.def(shuffle.getResult())};
  inst.imm = {lane, v1.getRank() == 0 ? 1 : v1.getNumElements()};
  llvm::append_range(inst.imm, shuffle.getMask());
  return success();
}

/// vector.from_elements: imm = lane bytes.
void execFromElements(Exec &, Thread &thread, const Inst &inst) {
  int64_t lane = inst.imm[0];
  uint8_t *out = thread.slot(inst.out[0]);
  for (size_t i = 0; i < inst.in.size(); ++i)
    std::memcpy(out + i * lane, thread.slot(inst.in[i]), lane);
}

LogicalResult compileFromElements(Compiler &c, Operation *op) {
  auto from = cast<vector::FromElementsOp>(op);
  int64_t lane = frameLaneBytes(from.getType().getElementType());
  if (!lane)
    return c.fail(op, "unsupported vector element type");
  Inst &inst = c.emit(execFromElements, op);
  for (Value v : from.getElements())
    inst.in.push_back(c.use(v));
  inst.out = {c.def(from.getResult())};
  inst.imm = {lane};
  return success();
}

//===----------------------------------------------------------------------===//
// linalg (kernels before thread tiling)
//===----------------------------------------------------------------------===//

/// linalg.fill of an f32, bf16 or f16 memref with a value of its element
/// type: in = value, memref; imm = rank, element bytes.
void execFill(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned rank = inst.imm[0];
  int64_t bytes = inst.imm[1];
  const MemRefDesc &desc = thread.at<MemRefDesc>(inst.in[1]);
  const uint8_t *value = thread.slot(inst.in[0]);
  int64_t count = 1;
  for (unsigned d = 0; d < rank; ++d)
    count *= desc.sizes[d];
  for (int64_t e = 0; e < count; ++e) {
    int64_t rest = e, linear = 0;
    for (int d = rank - 1; d >= 0; --d) {
      linear += rest % desc.sizes[d] * desc.strides[d];
      rest /= desc.sizes[d];
    }
    if (!exec.write(thread, inst, *desc.buffer,
                    desc.byteOffset + linear * bytes, value, bytes))
      return;
  }
}

/// 0: f32, 1: bf16, 2: f16 (the element types linalg ops are run on).
int64_t floatKind(Type type) {
  return type.isF32() ? 0 : type.isBF16() ? 1 : type.isF16() ? 2 : -1;
}

LogicalResult compileFill(Compiler &c, Operation *op) {
  auto fill = cast<linalg::FillOp>(op);
  auto type = dyn_cast<MemRefType>(fill.getOutputs()[0].getType());
  if (!type || floatKind(type.getElementType()) < 0 ||
      fill.getInputs()[0].getType() != type.getElementType())
    return c.fail(op, "only linalg.fill of an f32, bf16 or f16 value into a "
                      "memref of its type");
  int64_t bytes = memoryBytes(type.getElementType());
  c.noteAccess(bytes);
  Inst &inst = c.emit(execFill, op);
  inst.in = {c.use(fill.getInputs()[0]), c.use(fill.getOutputs()[0])};
  inst.imm = {type.getRank(), bytes};
  return success();
}

/// An element of kind `kind` (floatKind) as a float.
float loadElement(const uint8_t *p, int64_t kind) {
  if (kind == 0) {
    float value;
    std::memcpy(&value, p, 4);
    return value;
  }
  uint16_t bits;
  std::memcpy(&bits, p, 2);
  return kind == 1 ? bf16ToFloat(bits) : f16ToFloat(bits);
}

/// `value` rounded to kind `kind`, and its bytes in `out`.
float storeElement(uint8_t *out, float value, int64_t kind) {
  if (kind == 0) {
    std::memcpy(out, &value, 4);
    return value;
  }
  uint16_t bits = kind == 1 ? floatToBf16(value) : floatToF16(value);
  std::memcpy(out, &bits, 2);
  return kind == 1 ? bf16ToFloat(bits) : f16ToFloat(bits);
}

/// linalg.matmul on memrefs: C[i][j] = C[i][j] + A[i][k] * B[k][j] for k in
/// order, rounded as the op's body does: inputs widened to C's type
/// (arith.extf), then mulf and addf in C's type (each rounded to it).
/// in = A, B, C; imm = kinds of A, B, C.
void execMatmul(Exec &exec, Thread &thread, const Inst &inst) {
  const MemRefDesc &a = thread.at<MemRefDesc>(inst.in[0]);
  const MemRefDesc &b = thread.at<MemRefDesc>(inst.in[1]);
  const MemRefDesc &c = thread.at<MemRefDesc>(inst.in[2]);
  int64_t kindA = inst.imm[0], kindB = inst.imm[1], kindC = inst.imm[2];
  auto bytesOf = [](int64_t kind) { return kind == 0 ? 4 : 2; };
  int64_t m = c.sizes[0], n = c.sizes[1], k = a.sizes[1];
  if (a.sizes[0] != m || b.sizes[0] != k || b.sizes[1] != n)
    return exec.fail(thread, inst,
                     "linalg.matmul operand sizes disagree: A " +
                         Twine(a.sizes[0]) + "x" + Twine(a.sizes[1]) + ", B " +
                         Twine(b.sizes[0]) + "x" + Twine(b.sizes[1]) + ", C " +
                         Twine(m) + "x" + Twine(n));
  auto at = [](const MemRefDesc &d, int64_t i, int64_t j, int64_t bytes) {
    return d.byteOffset + (i * d.strides[0] + j * d.strides[1]) * bytes;
  };
  uint8_t scratch[4];
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t cAt = at(c, i, j, bytesOf(kindC));
      const uint8_t *cp =
          exec.read(thread, inst, *c.buffer, cAt, bytesOf(kindC));
      if (!cp)
        return;
      float acc = loadElement(cp, kindC);
      for (int64_t p = 0; p < k; ++p) {
        const uint8_t *ap =
            exec.read(thread, inst, *a.buffer, at(a, i, p, bytesOf(kindA)),
                      bytesOf(kindA));
        if (!ap)
          return;
        const uint8_t *bp =
            exec.read(thread, inst, *b.buffer, at(b, p, j, bytesOf(kindB)),
                      bytesOf(kindB));
        if (!bp)
          return;
        // Widening to C's type is exact unless C is narrower than an input
        // (not a form the kernels have).
        float x = storeElement(scratch, loadElement(ap, kindA), kindC);
        float y = storeElement(scratch, loadElement(bp, kindB), kindC);
        float product = storeElement(scratch, x * y, kindC);
        acc = storeElement(scratch, acc + product, kindC);
      }
      storeElement(scratch, acc, kindC);
      if (!exec.write(thread, inst, *c.buffer, cAt, scratch, bytesOf(kindC)))
        return;
    }
}

LogicalResult compileMatmul(Compiler &c, Operation *op) {
  auto matmul = cast<linalg::MatmulOp>(op);
  if (!matmul.hasPureBufferSemantics() || matmul.hasUserDefinedMaps())
    return c.fail(op, "only linalg.matmul on memrefs with the default maps");
  SmallVector<int64_t, 3> kinds;
  for (Value operand : matmul->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || type.getRank() != 2 || floatKind(type.getElementType()) < 0)
      return c.fail(op, "only linalg.matmul on 2-d f32, bf16 or f16 memrefs");
    kinds.push_back(floatKind(type.getElementType()));
    c.noteAccess(memoryBytes(type.getElementType()));
  }
  if ((kinds[2] != 0 && (kinds[0] != kinds[2] || kinds[1] != kinds[2])) ||
      (kinds[2] == 0 && kinds[0] != kinds[1]))
    return c.fail(op, "linalg.matmul element types: A and B alike, C f32 or "
                      "theirs");
  Inst &inst = c.emit(execMatmul, op);
  inst.in = {c.use(matmul.getInputs()[0]), c.use(matmul.getInputs()[1]),
             c.use(matmul.getOutputs()[0])};
  inst.imm = {kinds[0], kinds[1], kinds[2]};
  return success();
}

} // namespace

void mlir::tile::interp::registerMemoryHandlers(HandlerRegistry &registry) {
  registry.add(memref::LoadOp::getOperationName(), compileLoadStore);
  registry.add(memref::StoreOp::getOperationName(), compileLoadStore);
  registry.add(memref::AtomicRMWOp::getOperationName(), compileAtomicRMW);
  registry.add(mlir::tile::AtomicAddFOp::getOperationName(), compileVectorAtomicAdd);
  registry.add(memref::SubViewOp::getOperationName(), compileSubView);
  registry.add(memref::ViewOp::getOperationName(), compileView);
  registry.add(memref::TransposeOp::getOperationName(), compileTranspose);
  registry.add(memref::CastOp::getOperationName(), compileCast);
  registry.add(memref::ReinterpretCastOp::getOperationName(),
               compileReinterpretCast);
  registry.add(memref::DimOp::getOperationName(), compileDim);
  registry.add(memref::AllocaOp::getOperationName(), compileAlloca);
  registry.add(vector::LoadOp::getOperationName(), compileVectorLoadStore);
  registry.add(vector::StoreOp::getOperationName(), compileVectorLoadStore);
  registry.add(vector::ExtractOp::getOperationName(), compileExtract);
  registry.add(vector::InsertOp::getOperationName(), compileInsert);
  registry.add(vector::BroadcastOp::getOperationName(), compileBroadcast);
  registry.add(vector::ShuffleOp::getOperationName(), compileShuffle);
  registry.add(vector::FromElementsOp::getOperationName(), compileFromElements);
  registry.add(linalg::FillOp::getOperationName(), compileFill);
  registry.add(linalg::MatmulOp::getOperationName(), compileMatmul);
}
