//===- HalfPrecision.h - bf16 and f16 on the host ---------------*- C++ -*-===//
//
// Conversions between float and the 16-bit types the tensor-core kernels
// read and write, bit for bit as the GPU does them: float to bf16 and to f16
// rounds to nearest, ties to even (cvt.rn), with subnormals, infinities and
// overflow to infinity; NaN stays NaN (made quiet). Header-only: tile-run
// and the fake driver of the tests use the same code.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TOOLS_HALFPRECISION_H
#define TILE_RUNTIME_TOOLS_HALFPRECISION_H

#include <cstdint>
#include <cstring>

namespace tile::run {

inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// bf16 is the upper half of a float: exact.
inline float bf16ToFloat(uint16_t value) {
  return floatFromBits(static_cast<uint32_t>(value) << 16);
}

/// Round to nearest even on the lower 16 bits. A NaN keeps its sign and
/// upper payload bits and gets the quiet bit, so it cannot round to
/// infinity; rounding the largest finite floats overflows to infinity, as
/// on the GPU.
inline uint16_t floatToBf16(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

/// IEEE binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
inline float f16ToFloat(uint16_t value) {
  uint32_t sign = static_cast<uint32_t>(value & 0x8000u) << 16;
  uint32_t exponent = (value >> 10) & 0x1fu;
  uint32_t fraction = value & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: fraction * 2^-24, exact in float.
    float magnitude = static_cast<float>(fraction) * 0x1p-24f;
    return floatFromBits(floatBits(magnitude) | sign);
  }
  if (exponent == 31)
    return floatFromBits(sign | 0x7f800000u | (fraction << 13));
  return floatFromBits(sign | ((exponent + 112) << 23) | (fraction << 13));
}

/// Round to nearest even, to subnormals below 2^-14, to infinity from
/// 65520 on (the midpoint past the largest half, 65504).
inline uint16_t floatToF16(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN: quiet, with the upper payload bits.
    return static_cast<uint16_t>(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  if (magnitude >= 0x477ff000u) // 65520 and up, and infinity.
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (magnitude >= 0x38800000u) { // 2^-14 and up: a normal half.
    uint32_t rounding = 0xfffu + ((magnitude >> 13) & 1u);
    return static_cast<uint16_t>(sign |
                                 ((magnitude - 0x38000000u + rounding) >> 13));
  }
  // A subnormal half: the value in units of 2^-24. A float of exponent e
  // (biased) is mantissa * 2^(e - 150), so the units are mantissa >>
  // (126 - e), rounded to nearest even.
  uint32_t exponent = magnitude >> 23;
  uint32_t mantissa = magnitude & 0x7fffffu;
  if (exponent == 0)
    exponent = 1; // A float subnormal: far below half a unit.
  else
    mantissa |= 0x800000u;
  uint32_t shift = 126 - exponent;
  if (shift > 24)
    return sign;
  uint32_t units = mantissa >> shift;
  uint32_t rest = mantissa & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (units & 1u)))
    ++units;
  return static_cast<uint16_t>(sign | units);
}

} // namespace tile::run

#endif // TILE_RUNTIME_TOOLS_HALFPRECISION_H
