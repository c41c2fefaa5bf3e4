//===- ArithHandlers.cpp - arith and math ops -----------------------------===//
//
// Integers and index values live in 8-byte lanes, truncated to their width
// (index: the kernel's index width, from the gpu.module's data layout), so
// index arithmetic wraps exactly where the GPU's does. Floats are computed
// in their own type: f32 in float (an FMA is std::fma), f64 in double.
// Scalars and vectors share the handlers (a scalar is one lane).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile::interp;

namespace {

/// Lanes of a scalar (1) or vector type, and its element type.
std::pair<int64_t, Type> lanesOf(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return {vector.getNumElements(), vector.getElementType()};
  return {1, type};
}

bool isF32(Type type) { return type.isF32(); }
bool isF64(Type type) { return type.isF64(); }

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// Appends the frame bytes of one element (`bits` of a float, or an integer
/// truncated to `intBits`).
void appendInt(std::vector<uint8_t> &bytes, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    bytes.push_back(static_cast<uint8_t>(value >> (8 * i)));
}
void appendFloat(std::vector<uint8_t> &bytes, const APFloat &value) {
  APInt bits = value.bitcastToAPInt();
  for (unsigned i = 0; i < bits.getBitWidth() / 8; ++i)
    bytes.push_back(
        static_cast<uint8_t>(bits.extractBitsAsZExtValue(8, 8 * i)));
}

LogicalResult compileConstant(Compiler &c, Operation *op) {
  auto constant = cast<arith::ConstantOp>(op);
  Attribute value = constant.getValue();
  Type type = constant.getType();
  std::vector<uint8_t> bytes;
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (isa<IndexType, IntegerType>(type)) {
      appendInt(bytes,
                truncBits(integer.getValue().getSExtValue(), c.bitsOf(type)));
      c.defConstant(constant, bytes);
      return success();
    }
  }
  if (auto floating = dyn_cast<FloatAttr>(value)) {
    appendFloat(bytes, floating.getValue());
    c.defConstant(constant, bytes);
    return success();
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value);
      dense && isa<VectorType>(type)) {
    Type element = dense.getElementType();
    if (isa<IndexType, IntegerType>(element)) {
      for (const APInt &v : dense.getValues<APInt>())
        appendInt(bytes, truncBits(v.getSExtValue(), c.bitsOf(element)));
    } else if (isa<FloatType>(element)) {
      for (const APFloat &v : dense.getValues<APFloat>())
        appendFloat(bytes, v);
    } else {
      return c.fail(op, "unsupported vector constant");
    }
    c.defConstant(constant, bytes);
    return success();
  }
  return c.fail(op, "unsupported constant");
}

LogicalResult compilePoison(Compiler &c, Operation *op) {
  std::vector<uint8_t> bytes(Compiler::storageSize(op->getResult(0).getType()),
                             0xff);
  c.defConstant(op->getResult(0), bytes);
  return success();
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

enum class IntOp {
  Add,
  Sub,
  Mul,
  DivU,
  RemU,
  DivS,
  RemS,
  CeilDivU,
  CeilDivS,
  FloorDivS,
  MinU,
  MaxU,
  MinS,
  MaxS,
  And,
  Or,
  Xor,
  Shl,
  ShrU,
  ShrS
};
constexpr int64_t kNsw = 1, kNuw = 2;

/// Whether `value` fits in `bits` bits as a signed / unsigned number.
bool fitsSigned(__int128 value, unsigned bits) {
  __int128 lo = -(__int128(1) << (bits - 1)), hi = (__int128(1) << (bits - 1));
  return value >= lo && value < hi;
}
bool fitsUnsigned(__int128 value, unsigned bits) {
  return value >= 0 && value < (__int128(1) << bits);
}

/// imm: bits, lanes, overflow flags.
template <IntOp K>
void execIntBinary(Exec &exec, Thread &thread, const Inst &inst) {
  unsigned bits = inst.imm[0];
  int64_t lanes = inst.imm[1], flags = inst.imm[2];
  const uint64_t *a = &thread.at<uint64_t>(inst.in[0]);
  const uint64_t *b = &thread.at<uint64_t>(inst.in[1]);
  uint64_t *r = &thread.at<uint64_t>(inst.out[0]);
  for (int64_t i = 0; i < lanes; ++i) {
    uint64_t ux = truncBits(a[i], bits), uy = truncBits(b[i], bits);
    int64_t sx = sextBits(a[i], bits), sy = sextBits(b[i], bits);
    uint64_t v = 0;
    bool divides = K == IntOp::DivU || K == IntOp::RemU || K == IntOp::DivS ||
                   K == IntOp::RemS || K == IntOp::CeilDivU ||
                   K == IntOp::CeilDivS || K == IntOp::FloorDivS;
    if (divides && uy == 0)
      return exec.fail(thread, inst, "division by zero");
    bool isSigned = K == IntOp::DivS || K == IntOp::RemS ||
                    K == IntOp::CeilDivS || K == IntOp::FloorDivS;
    if (isSigned && sy == -1 && sx == sextBits(uint64_t(1) << (bits - 1), bits))
      return exec.fail(thread, inst, "signed division overflow");
    switch (K) {
    case IntOp::Add:
      v = ux + uy;
      break;
    case IntOp::Sub:
      v = ux - uy;
      break;
    case IntOp::Mul:
      v = ux * uy;
      break;
    case IntOp::DivU:
      v = ux / uy;
      break;
    case IntOp::RemU:
      v = ux % uy;
      break;
    case IntOp::DivS:
      v = static_cast<uint64_t>(sx / sy);
      break;
    case IntOp::RemS:
      v = static_cast<uint64_t>(sx % sy);
      break;
    case IntOp::CeilDivU:
      v = ux / uy + (ux % uy != 0);
      break;
    case IntOp::CeilDivS: {
      int64_t q = sx / sy;
      if (sx % sy != 0 && ((sx < 0) == (sy < 0)))
        ++q;
      v = static_cast<uint64_t>(q);
      break;
    }
    case IntOp::FloorDivS: {
      int64_t q = sx / sy;
      if (sx % sy != 0 && ((sx < 0) != (sy < 0)))
        --q;
      v = static_cast<uint64_t>(q);
      break;
    }
    case IntOp::MinU:
      v = std::min(ux, uy);
      break;
    case IntOp::MaxU:
      v = std::max(ux, uy);
      break;
    case IntOp::MinS:
      v = static_cast<uint64_t>(std::min(sx, sy));
      break;
    case IntOp::MaxS:
      v = static_cast<uint64_t>(std::max(sx, sy));
      break;
    case IntOp::And:
      v = ux & uy;
      break;
    case IntOp::Or:
      v = ux | uy;
      break;
    case IntOp::Xor:
      v = ux ^ uy;
      break;
    case IntOp::Shl:
    case IntOp::ShrU:
    case IntOp::ShrS:
      if (uy >= bits)
        return exec.fail(thread, inst,
                         "shift by " + Twine(uy) + " >= " + Twine(bits) +
                             " bits (poison)");
      v = K == IntOp::Shl    ? ux << uy
          : K == IntOp::ShrU ? ux >> uy
                             : static_cast<uint64_t>(sx >> uy);
      break;
    }
    if (flags && (K == IntOp::Add || K == IntOp::Sub || K == IntOp::Mul)) {
      __int128 exactS = K == IntOp::Add   ? __int128(sx) + sy
                        : K == IntOp::Sub ? __int128(sx) - sy
                                          : __int128(sx) * sy;
      __int128 exactU = K == IntOp::Add   ? __int128(ux) + uy
                        : K == IntOp::Sub ? __int128(ux) - __int128(uy)
                                          : __int128(ux) * uy;
      if ((flags & kNsw) && !fitsSigned(exactS, bits))
        return exec.fail(thread, inst,
                         "signed overflow of an op marked nsw "
                         "(poison)");
      if ((flags & kNuw) && !fitsUnsigned(exactU, bits))
        return exec.fail(thread, inst,
                         "unsigned overflow of an op marked "
                         "nuw (poison)");
    }
    r[i] = truncBits(v, bits);
  }
}

template <IntOp K> LogicalResult compileIntBinary(Compiler &c, Operation *op) {
  auto [lanes, element] = lanesOf(op->getResult(0).getType());
  unsigned bits = c.bitsOf(element);
  if (bits == 0 || bits > 64)
    return c.fail(op, "unsupported integer type");
  int64_t flags = 0;
  if (auto overflow =
          op->getAttrOfType<arith::IntegerOverflowFlagsAttr>("overflowFlags")) {
    if (bitEnumContainsAll(overflow.getValue(),
                           arith::IntegerOverflowFlags::nsw))
      flags |= kNsw;
    if (bitEnumContainsAll(overflow.getValue(),
                           arith::IntegerOverflowFlags::nuw))
      flags |= kNuw;
  }
  Inst &inst = c.emit(execIntBinary<K>, op);
  inst.in = {c.use(op->getOperand(0)), c.use(op->getOperand(1))};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {bits, lanes, flags};
  return success();
}

/// imm: bits, lanes, predicate.
void execCmpI(Exec &, Thread &thread, const Inst &inst) {
  unsigned bits = inst.imm[0];
  int64_t lanes = inst.imm[1];
  auto predicate = static_cast<arith::CmpIPredicate>(inst.imm[2]);
  const uint64_t *a = &thread.at<uint64_t>(inst.in[0]);
  const uint64_t *b = &thread.at<uint64_t>(inst.in[1]);
  uint64_t *r = &thread.at<uint64_t>(inst.out[0]);
  for (int64_t i = 0; i < lanes; ++i) {
    uint64_t ux = truncBits(a[i], bits), uy = truncBits(b[i], bits);
    int64_t sx = sextBits(a[i], bits), sy = sextBits(b[i], bits);
    bool v = false;
    switch (predicate) {
    case arith::CmpIPredicate::eq:
      v = ux == uy;
      break;
    case arith::CmpIPredicate::ne:
      v = ux != uy;
      break;
    case arith::CmpIPredicate::slt:
      v = sx < sy;
      break;
    case arith::CmpIPredicate::sle:
      v = sx <= sy;
      break;
    case arith::CmpIPredicate::sgt:
      v = sx > sy;
      break;
    case arith::CmpIPredicate::sge:
      v = sx >= sy;
      break;
    case arith::CmpIPredicate::ult:
      v = ux < uy;
      break;
    case arith::CmpIPredicate::ule:
      v = ux <= uy;
      break;
    case arith::CmpIPredicate::ugt:
      v = ux > uy;
      break;
    case arith::CmpIPredicate::uge:
      v = ux >= uy;
      break;
    }
    r[i] = v;
  }
}

LogicalResult compileCmpI(Compiler &c, Operation *op) {
  auto cmp = cast<arith::CmpIOp>(op);
  auto [lanes, element] = lanesOf(cmp.getLhs().getType());
  Inst &inst = c.emit(execCmpI, op);
  inst.in = {c.use(cmp.getLhs()), c.use(cmp.getRhs())};
  inst.out = {c.def(cmp.getResult())};
  inst.imm = {c.bitsOf(element), lanes,
              static_cast<int64_t>(cmp.getPredicate())};
  return success();
}

/// Scalar condition: imm = bytes. Vector condition: imm = lanes, lane bytes.
void execSelect(Exec &, Thread &thread, const Inst &inst) {
  bool take = thread.at<uint64_t>(inst.in[0]) & 1;
  std::memcpy(thread.slot(inst.out[0]), thread.slot(inst.in[take ? 1 : 2]),
              inst.imm[0]);
}
void execSelectLanes(Exec &, Thread &thread, const Inst &inst) {
  int64_t lanes = inst.imm[0], laneBytes = inst.imm[1];
  const uint64_t *cond = &thread.at<uint64_t>(inst.in[0]);
  for (int64_t i = 0; i < lanes; ++i)
    std::memcpy(thread.slot(inst.out[0]) + i * laneBytes,
                thread.slot(inst.in[(cond[i] & 1) ? 1 : 2]) + i * laneBytes,
                laneBytes);
}

LogicalResult compileSelect(Compiler &c, Operation *op) {
  auto select = cast<arith::SelectOp>(op);
  bool laneWise = isa<VectorType>(select.getCondition().getType());
  Inst &inst = c.emit(laneWise ? execSelectLanes : execSelect, op);
  inst.in = {c.use(select.getCondition()), c.use(select.getTrueValue()),
             c.use(select.getFalseValue())};
  inst.out = {c.def(select.getResult())};
  if (!laneWise) {
    inst.imm = {static_cast<int64_t>(Compiler::storageSize(select.getType()))};
    return success();
  }
  auto vector = cast<VectorType>(select.getType());
  int64_t lanes = vector.getNumElements();
  inst.imm = {lanes, static_cast<int64_t>(Compiler::storageSize(vector)) /
                         std::max<int64_t>(lanes, 1)};
  if (!isa<IndexType, IntegerType>(vector.getElementType()) &&
      !isa<FloatType>(vector.getElementType()))
    return c.fail(op, "unsupported select type");
  if (isa<FloatType>(vector.getElementType()))
    inst.imm[1] = cast<FloatType>(vector.getElementType()).getWidth() / 8;
  return success();
}

/// imm: source bits, result bits, lanes, signed.
void execIntCast(Exec &, Thread &thread, const Inst &inst) {
  unsigned from = inst.imm[0], to = inst.imm[1];
  int64_t lanes = inst.imm[2];
  bool isSigned = inst.imm[3];
  const uint64_t *a = &thread.at<uint64_t>(inst.in[0]);
  uint64_t *r = &thread.at<uint64_t>(inst.out[0]);
  for (int64_t i = 0; i < lanes; ++i) {
    uint64_t wide = isSigned ? static_cast<uint64_t>(sextBits(a[i], from))
                             : truncBits(a[i], from);
    r[i] = truncBits(wide, to);
  }
}

template <bool Signed>
LogicalResult compileIntCast(Compiler &c, Operation *op) {
  auto [lanes, from] = lanesOf(op->getOperand(0).getType());
  Type to = lanesOf(op->getResult(0).getType()).second;
  Inst &inst = c.emit(execIntCast, op);
  inst.in = {c.use(op->getOperand(0))};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {c.bitsOf(from), c.bitsOf(to), lanes, Signed ? 1 : 0};
  if (!inst.imm[0] || !inst.imm[1])
    return c.fail(op, "unsupported cast");
  return success();
}

//===----------------------------------------------------------------------===//
// Floats
//===----------------------------------------------------------------------===//

enum class FloatOp { Add, Sub, Mul, Div, MaximumF, MinimumF, MaxNumF, MinNumF };

template <typename T, FloatOp K>
void execFloatBinary(Exec &, Thread &thread, const Inst &inst) {
  int64_t lanes = inst.imm[0];
  const T *a = &thread.at<T>(inst.in[0]);
  const T *b = &thread.at<T>(inst.in[1]);
  T *r = &thread.at<T>(inst.out[0]);
  for (int64_t i = 0; i < lanes; ++i) {
    T x = a[i], y = b[i];
    switch (K) {
    case FloatOp::Add:
      r[i] = x + y;
      break;
    case FloatOp::Sub:
      r[i] = x - y;
      break;
    case FloatOp::Mul:
      r[i] = x * y;
      break;
    case FloatOp::Div:
      r[i] = x / y;
      break;
    case FloatOp::MaximumF:
      r[i] = std::isnan(x) || std::isnan(y)
                 ? std::numeric_limits<T>::quiet_NaN()
                 : std::max(x, y);
      break;
    case FloatOp::MinimumF:
      r[i] = std::isnan(x) || std::isnan(y)
                 ? std::numeric_limits<T>::quiet_NaN()
                 : std::min(x, y);
      break;
    case FloatOp::MaxNumF:
      r[i] = std::fmax(x, y);
      break;
    case FloatOp::MinNumF:
      r[i] = std::fmin(x, y);
      break;
    }
  }
}

template <FloatOp K>
LogicalResult compileFloatBinary(Compiler &c, Operation *op) {
  auto [lanes, element] = lanesOf(op->getResult(0).getType());
  ExecFn fn = isF32(element)   ? execFloatBinary<float, K>
              : isF64(element) ? execFloatBinary<double, K>
                               : nullptr;
  if (!fn)
    return c.fail(op, "unsupported float type (f32 and f64 only)");
  Inst &inst = c.emit(fn, op);
  inst.in = {c.use(op->getOperand(0)), c.use(op->getOperand(1))};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {lanes};
  return success();
}

/// A unary float op on f32 or f64 (scalars or vectors), computed lane by
/// lane by `Op<T>::run`.
template <template <typename> class Op>
LogicalResult compileUnaryFloat(Compiler &c, Operation *op) {
  auto [lanes, element] = lanesOf(op->getResult(0).getType());
  ExecFn fn = isF32(element)   ? Op<float>::run
              : isF64(element) ? Op<double>::run
                               : nullptr;
  if (!fn)
    return c.fail(op, "unsupported float type (f32 and f64 only)");
  Inst &inst = c.emit(fn, op);
  inst.in = {c.use(op->getOperand(0))};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {lanes};
  return success();
}

template <typename T> struct ExecNegF {
  static void run(Exec &, Thread &thread, const Inst &inst) {
    for (int64_t i = 0; i < inst.imm[0]; ++i)
      (&thread.at<T>(inst.out[0]))[i] = -(&thread.at<T>(inst.in[0]))[i];
  }
};

/// math.tanh (a fused epilogue's; on the GPU tile-expand-math replaces it
/// with a polynomial approximation a few ulp from this).
template <typename T> struct ExecTanh {
  static void run(Exec &, Thread &thread, const Inst &inst) {
    for (int64_t i = 0; i < inst.imm[0]; ++i)
      (&thread.at<T>(inst.out[0]))[i] =
          std::tanh((&thread.at<T>(inst.in[0]))[i]);
  }
};

/// a * b + c with one rounding (math.fma, vector.fma).
template <typename T> void execFma(Exec &, Thread &thread, const Inst &inst) {
  int64_t lanes = inst.imm[0];
  const T *a = &thread.at<T>(inst.in[0]);
  const T *b = &thread.at<T>(inst.in[1]);
  const T *acc = &thread.at<T>(inst.in[2]);
  T *r = &thread.at<T>(inst.out[0]);
  for (int64_t i = 0; i < lanes; ++i)
    r[i] = std::fma(a[i], b[i], acc[i]);
}

LogicalResult compileFma(Compiler &c, Operation *op) {
  auto [lanes, element] = lanesOf(op->getResult(0).getType());
  ExecFn fn = isF32(element)   ? execFma<float>
              : isF64(element) ? execFma<double>
                               : nullptr;
  if (!fn)
    return c.fail(op, "unsupported float type (f32 and f64 only)");
  Inst &inst = c.emit(fn, op);
  inst.in = {c.use(op->getOperand(0)), c.use(op->getOperand(1)),
             c.use(op->getOperand(2))};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {lanes};
  return success();
}

template <typename T> void execCmpF(Exec &, Thread &thread, const Inst &inst) {
  int64_t lanes = inst.imm[0];
  auto predicate = static_cast<arith::CmpFPredicate>(inst.imm[1]);
  const T *a = &thread.at<T>(inst.in[0]);
  const T *b = &thread.at<T>(inst.in[1]);
  uint64_t *r = &thread.at<uint64_t>(inst.out[0]);
  for (int64_t i = 0; i < lanes; ++i) {
    T x = a[i], y = b[i];
    bool unordered = std::isnan(x) || std::isnan(y);
    bool v = false;
    using P = arith::CmpFPredicate;
    switch (predicate) {
    case P::AlwaysFalse:
      v = false;
      break;
    case P::OEQ:
      v = !unordered && x == y;
      break;
    case P::OGT:
      v = !unordered && x > y;
      break;
    case P::OGE:
      v = !unordered && x >= y;
      break;
    case P::OLT:
      v = !unordered && x < y;
      break;
    case P::OLE:
      v = !unordered && x <= y;
      break;
    case P::ONE:
      v = !unordered && x != y;
      break;
    case P::ORD:
      v = !unordered;
      break;
    case P::UEQ:
      v = unordered || x == y;
      break;
    case P::UGT:
      v = unordered || x > y;
      break;
    case P::UGE:
      v = unordered || x >= y;
      break;
    case P::ULT:
      v = unordered || x < y;
      break;
    case P::ULE:
      v = unordered || x <= y;
      break;
    case P::UNE:
      v = unordered || x != y;
      break;
    case P::UNO:
      v = unordered;
      break;
    case P::AlwaysTrue:
      v = true;
      break;
    }
    r[i] = v;
  }
}

LogicalResult compileCmpF(Compiler &c, Operation *op) {
  auto cmp = cast<arith::CmpFOp>(op);
  auto [lanes, element] = lanesOf(cmp.getLhs().getType());
  ExecFn fn = isF32(element)   ? execCmpF<float>
              : isF64(element) ? execCmpF<double>
                               : nullptr;
  if (!fn)
    return c.fail(op, "unsupported float type (f32 and f64 only)");
  Inst &inst = c.emit(fn, op);
  inst.in = {c.use(cmp.getLhs()), c.use(cmp.getRhs())};
  inst.out = {c.def(cmp.getResult())};
  inst.imm = {lanes, static_cast<int64_t>(cmp.getPredicate())};
  return success();
}

/// Integer -> float: imm = bits, lanes, signed.
template <typename T>
void execIntToFloat(Exec &, Thread &thread, const Inst &inst) {
  unsigned bits = inst.imm[0];
  const uint64_t *a = &thread.at<uint64_t>(inst.in[0]);
  T *r = &thread.at<T>(inst.out[0]);
  for (int64_t i = 0; i < inst.imm[1]; ++i)
    r[i] = inst.imm[2] ? static_cast<T>(sextBits(a[i], bits))
                       : static_cast<T>(truncBits(a[i], bits));
}

template <bool Signed>
LogicalResult compileIntToFloat(Compiler &c, Operation *op) {
  auto [lanes, from] = lanesOf(op->getOperand(0).getType());
  Type to = lanesOf(op->getResult(0).getType()).second;
  ExecFn fn = isF32(to)   ? execIntToFloat<float>
              : isF64(to) ? execIntToFloat<double>
                          : nullptr;
  if (!fn || !c.bitsOf(from))
    return c.fail(op, "unsupported conversion");
  Inst &inst = c.emit(fn, op);
  inst.in = {c.use(op->getOperand(0))};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {c.bitsOf(from), lanes, Signed ? 1 : 0};
  return success();
}

} // namespace

void mlir::tile::interp::registerArithHandlers(HandlerRegistry &registry) {
  registry.add(arith::ConstantOp::getOperationName(), compileConstant);
  registry.add(ub::PoisonOp::getOperationName(), compilePoison);
  registry.add(arith::AddIOp::getOperationName(), compileIntBinary<IntOp::Add>);
  registry.add(arith::SubIOp::getOperationName(), compileIntBinary<IntOp::Sub>);
  registry.add(arith::MulIOp::getOperationName(), compileIntBinary<IntOp::Mul>);
  registry.add(arith::DivUIOp::getOperationName(),
               compileIntBinary<IntOp::DivU>);
  registry.add(arith::RemUIOp::getOperationName(),
               compileIntBinary<IntOp::RemU>);
  registry.add(arith::DivSIOp::getOperationName(),
               compileIntBinary<IntOp::DivS>);
  registry.add(arith::RemSIOp::getOperationName(),
               compileIntBinary<IntOp::RemS>);
  registry.add(arith::CeilDivUIOp::getOperationName(),
               compileIntBinary<IntOp::CeilDivU>);
  registry.add(arith::CeilDivSIOp::getOperationName(),
               compileIntBinary<IntOp::CeilDivS>);
  registry.add(arith::FloorDivSIOp::getOperationName(),
               compileIntBinary<IntOp::FloorDivS>);
  registry.add(arith::MinUIOp::getOperationName(),
               compileIntBinary<IntOp::MinU>);
  registry.add(arith::MaxUIOp::getOperationName(),
               compileIntBinary<IntOp::MaxU>);
  registry.add(arith::MinSIOp::getOperationName(),
               compileIntBinary<IntOp::MinS>);
  registry.add(arith::MaxSIOp::getOperationName(),
               compileIntBinary<IntOp::MaxS>);
  registry.add(arith::AndIOp::getOperationName(), compileIntBinary<IntOp::And>);
  registry.add(arith::OrIOp::getOperationName(), compileIntBinary<IntOp::Or>);
  registry.add(arith::XOrIOp::getOperationName(), compileIntBinary<IntOp::Xor>);
  registry.add(arith::ShLIOp::getOperationName(), compileIntBinary<IntOp::Shl>);
  registry.add(arith::ShRUIOp::getOperationName(),
               compileIntBinary<IntOp::ShrU>);
  registry.add(arith::ShRSIOp::getOperationName(),
               compileIntBinary<IntOp::ShrS>);
  registry.add(arith::CmpIOp::getOperationName(), compileCmpI);
  registry.add(arith::SelectOp::getOperationName(), compileSelect);
  registry.add(arith::IndexCastOp::getOperationName(), compileIntCast<true>);
  registry.add(arith::IndexCastUIOp::getOperationName(), compileIntCast<false>);
  registry.add(arith::ExtSIOp::getOperationName(), compileIntCast<true>);
  registry.add(arith::ExtUIOp::getOperationName(), compileIntCast<false>);
  registry.add(arith::TruncIOp::getOperationName(), compileIntCast<false>);
  registry.add(arith::SIToFPOp::getOperationName(), compileIntToFloat<true>);
  registry.add(arith::UIToFPOp::getOperationName(), compileIntToFloat<false>);
  registry.add(arith::AddFOp::getOperationName(),
               compileFloatBinary<FloatOp::Add>);
  registry.add(arith::SubFOp::getOperationName(),
               compileFloatBinary<FloatOp::Sub>);
  registry.add(arith::MulFOp::getOperationName(),
               compileFloatBinary<FloatOp::Mul>);
  registry.add(arith::DivFOp::getOperationName(),
               compileFloatBinary<FloatOp::Div>);
  registry.add(arith::MaximumFOp::getOperationName(),
               compileFloatBinary<FloatOp::MaximumF>);
  registry.add(arith::MinimumFOp::getOperationName(),
               compileFloatBinary<FloatOp::MinimumF>);
  registry.add(arith::MaxNumFOp::getOperationName(),
               compileFloatBinary<FloatOp::MaxNumF>);
  registry.add(arith::MinNumFOp::getOperationName(),
               compileFloatBinary<FloatOp::MinNumF>);
  registry.add(arith::NegFOp::getOperationName(),
               compileUnaryFloat<ExecNegF>);
  registry.add(arith::CmpFOp::getOperationName(), compileCmpF);
  registry.add(math::FmaOp::getOperationName(), compileFma);
  registry.add(math::TanhOp::getOperationName(),
               compileUnaryFloat<ExecTanh>);
  registry.add(vector::FMAOp::getOperationName(), compileFma);
}
