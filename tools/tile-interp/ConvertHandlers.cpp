//===- ConvertHandlers.cpp - bf16 and f16: arith.extf and arith.truncf ----===//
//
// The wgmma kernels hold bf16 or f16 inputs (and C, when its type is the
// inputs'), 2 bytes per element in memory and in a frame lane. Arithmetic
// happens in f32: arith.extf widens exactly, arith.truncf rounds to nearest
// even (the default rounding of the op), with the IEEE rules for overflow,
// subnormals and NaN. Scalars and vectors share the handlers.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile::interp;

uint16_t mlir::tile::interp::floatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  // Round to nearest, ties to even, on the 16 bits dropped.
  bits += 0x7fffu + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

float mlir::tile::interp::f16ToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
  float value;
  if (exponent == 0) { // zero or subnormal: mantissa * 2^-24
    value = std::ldexp(static_cast<float>(mantissa), -24);
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits |= sign;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  uint32_t bits = exponent == 0x1f
                      ? sign | 0x7f800000u | (mantissa << 13)
                      : sign | ((exponent + 112) << 23) | (mantissa << 13);
  std::memcpy(&value, &bits, 4);
  return value;
}

uint16_t mlir::tile::interp::floatToF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN
    return sign | 0x7e00;
  if (magnitude >= 0x477ff000u) // >= 65520 rounds to infinity
    return sign | 0x7c00;
  if (magnitude < 0x38800000u) { // below 2^-14: a subnormal or zero
    float absolute;
    std::memcpy(&absolute, &magnitude, 4);
    // An exact scaling to units of 2^-24, then an integer rounded to
    // nearest even (the default rounding mode).
    return sign | static_cast<uint16_t>(std::nearbyint(absolute * 16777216.0f));
  }
  uint32_t half =
      ((((magnitude >> 23) - 112) << 10) | ((magnitude >> 13) & 0x3ff));
  uint32_t rest = magnitude & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // a carry into the exponent is right, up to infinity
  return sign | static_cast<uint16_t>(half);
}

namespace {

enum class Format { F16, BF16, F32, F64 };

std::optional<Format> formatOf(Type type) {
  if (type.isF16())
    return Format::F16;
  if (type.isBF16())
    return Format::BF16;
  if (type.isF32())
    return Format::F32;
  if (type.isF64())
    return Format::F64;
  return std::nullopt;
}

int64_t laneBytes(Format format) {
  switch (format) {
  case Format::F16:
  case Format::BF16:
    return 2;
  case Format::F32:
    return 4;
  case Format::F64:
    return 8;
  }
  return 0;
}

double load(const uint8_t *lane, Format format) {
  switch (format) {
  case Format::F16: {
    uint16_t bits;
    std::memcpy(&bits, lane, 2);
    return f16ToFloat(bits);
  }
  case Format::BF16: {
    uint16_t bits;
    std::memcpy(&bits, lane, 2);
    return bf16ToFloat(bits);
  }
  case Format::F32: {
    float value;
    std::memcpy(&value, lane, 4);
    return value;
  }
  case Format::F64: {
    double value;
    std::memcpy(&value, lane, 8);
    return value;
  }
  }
  return 0;
}

/// Stores `value` (a widened f16, bf16 or f32, or an f64) rounded to
/// `format`.
void store(uint8_t *lane, double value, Format format) {
  switch (format) {
  case Format::F16: {
    // Only from f32 or narrower (compileConvert): exact in float.
    uint16_t bits = floatToF16(static_cast<float>(value));
    std::memcpy(lane, &bits, 2);
    return;
  }
  case Format::BF16: {
    uint16_t bits = floatToBf16(static_cast<float>(value));
    std::memcpy(lane, &bits, 2);
    return;
  }
  case Format::F32: {
    float narrow = static_cast<float>(value);
    std::memcpy(lane, &narrow, 4);
    return;
  }
  case Format::F64:
    std::memcpy(lane, &value, 8);
    return;
  }
}

/// imm = lanes, source format, result format.
void execConvert(Exec &, Thread &thread, const Inst &inst) {
  int64_t lanes = inst.imm[0];
  auto from = static_cast<Format>(inst.imm[1]);
  auto to = static_cast<Format>(inst.imm[2]);
  const uint8_t *in = thread.slot(inst.in[0]);
  uint8_t *out = thread.slot(inst.out[0]);
  // Lanes may shrink in place: read every lane first.
  double values[64];
  for (int64_t i = 0; i < lanes; ++i)
    values[i] = load(in + i * laneBytes(from), from);
  for (int64_t i = 0; i < lanes; ++i)
    store(out + i * laneBytes(to), values[i], to);
}

LogicalResult compileConvert(Compiler &c, Operation *op) {
  bool widen = isa<arith::ExtFOp>(op);
  if (!widen) {
    auto trunc = cast<arith::TruncFOp>(op);
    if (trunc.getRoundingmode() &&
        *trunc.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return c.fail(op, "only arith.truncf rounding to nearest even is "
                        "supported");
  }
  Type fromType = op->getOperand(0).getType();
  Type toType = op->getResult(0).getType();
  int64_t lanes = 1;
  if (auto vector = dyn_cast<VectorType>(fromType)) {
    lanes = vector.getNumElements();
    fromType = vector.getElementType();
    toType = cast<VectorType>(toType).getElementType();
  }
  std::optional<Format> from = formatOf(fromType), to = formatOf(toType);
  if (!from || !to || lanes > 64)
    return c.fail(op, "unsupported float conversion (f16, bf16, f32, f64; "
                      "up to 64 lanes)");
  if ((*from == Format::F64 && (*to == Format::F16 || *to == Format::BF16)))
    return c.fail(op, "f64 to a 16-bit float would round twice: not "
                      "supported");
  Inst &inst = c.emit(execConvert, op);
  inst.in = {c.use(op->getOperand(0))};
  inst.out = {c.def(op->getResult(0))};
  inst.imm = {lanes, static_cast<int64_t>(*from), static_cast<int64_t>(*to)};
  return success();
}

} // namespace

void mlir::tile::interp::registerConvertHandlers(HandlerRegistry &registry) {
  registry.add(arith::ExtFOp::getOperationName(), compileConvert);
  registry.add(arith::TruncFOp::getOperationName(), compileConvert);
}
