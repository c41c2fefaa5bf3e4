//===- TileRunHostTest.cpp - tile-run's host-side computations ------------===//

#include "HalfPrecision.h"
#include "TestUtils.h"
#include "TileRun.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace tile::run;
using namespace tile::runtime;
using namespace tile::test;

namespace {

TEST(RandomTest, UniformInRangeAndRepeatable) {
  std::vector<float> a(10000), b(10000), c(10000);
  fillUniform(a, 42, 1);
  fillUniform(b, 42, 1);
  fillUniform(c, 42, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  double sum = 0;
  for (float value : a) {
    EXPECT_GE(value, -1.0f);
    EXPECT_LT(value, 1.0f);
    // On the 2^-23 grid: exact in float and in the reference's double.
    double scaled = (static_cast<double>(value) + 1.0) * 0x1p23;
    EXPECT_EQ(scaled, std::floor(scaled));
    sum += value;
  }
  EXPECT_LT(std::fabs(sum / a.size()), 0.05);
  // Known first values pin the generator: --seed must repeat across builds.
  Random random(0);
  EXPECT_EQ(random.next(), 0xe220a8397b1dcdafull);
}

//===----------------------------------------------------------------------===//
// bf16 and f16
//===----------------------------------------------------------------------===//

uint16_t bf16Of(uint32_t floatBitsIn) {
  return floatToBf16(floatFromBits(floatBitsIn));
}
uint16_t f16Of(uint32_t floatBitsIn) {
  return floatToF16(floatFromBits(floatBitsIn));
}

TEST(HalfPrecisionTest, Bf16RoundsToNearestEven) {
  EXPECT_EQ(bf16Of(0x3f800000u), 0x3f80u); // 1
  EXPECT_EQ(bf16Of(0x3f807fffu), 0x3f80u); // below half an ulp
  EXPECT_EQ(bf16Of(0x3f808000u), 0x3f80u); // a tie, to even (down)
  EXPECT_EQ(bf16Of(0x3f808001u), 0x3f81u); // above half
  EXPECT_EQ(bf16Of(0x3f818000u), 0x3f82u); // a tie, to even (up)
  EXPECT_EQ(bf16Of(0xbf818000u), 0xbf82u); // negative ties alike
  EXPECT_EQ(bf16Of(0x3fffffffu), 0x4000u); // the carry reaches the exponent
  EXPECT_EQ(bf16Of(0x80000000u), 0x8000u); // -0
  // Subnormals round like normals (bf16 has float's exponent range).
  EXPECT_EQ(bf16Of(0x00000001u), 0x0000u);
  EXPECT_EQ(bf16Of(0x00008000u), 0x0000u); // a tie, to even
  EXPECT_EQ(bf16Of(0x00018000u), 0x0002u); // a tie, to even
  EXPECT_EQ(bf16Of(0x00010000u), 0x0001u);
  EXPECT_EQ(bf16Of(0x00400000u), 0x0040u);
  EXPECT_EQ(bf16Of(0x007fffffu), 0x0080u); // up to the smallest normal
  // Infinities stay; the largest floats overflow to infinity.
  EXPECT_EQ(bf16Of(0x7f800000u), 0x7f80u);
  EXPECT_EQ(bf16Of(0xff800000u), 0xff80u);
  EXPECT_EQ(bf16Of(0x7f7f7fffu), 0x7f7fu);
  EXPECT_EQ(bf16Of(0x7f7f8000u), 0x7f80u);
  EXPECT_EQ(bf16Of(0xff7fffffu), 0xff80u);
  // NaN stays NaN, quiet, with its sign and upper payload, even when only
  // the lower 16 bits are set (truncation would make it infinity).
  EXPECT_EQ(bf16Of(0x7fc00000u), 0x7fc0u);
  EXPECT_EQ(bf16Of(0x7f800001u), 0x7fc0u);
  EXPECT_EQ(bf16Of(0x7f810000u), 0x7fc1u);
  EXPECT_EQ(bf16Of(0xffc12345u), 0xffc1u);
  EXPECT_EQ(bf16Of(0x7fffffffu), 0x7fffu);
}

TEST(HalfPrecisionTest, Bf16ToFloatIsExact) {
  EXPECT_EQ(bf16ToFloat(0x3f80u), 1.0f);
  EXPECT_EQ(bf16ToFloat(0xc040u), -3.0f);
  EXPECT_EQ(bf16ToFloat(0x0001u), std::ldexp(1.0f, -133));
  EXPECT_EQ(bf16ToFloat(0x7f80u), INFINITY);
  EXPECT_TRUE(std::signbit(bf16ToFloat(0x8000u)));
  EXPECT_TRUE(std::isnan(bf16ToFloat(0x7fc0u)));
  // Every bf16 comes back from float unchanged (NaN as a NaN).
  for (uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    float value = bf16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value))
      EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(value)))) << bits;
    else
      ASSERT_EQ(floatToBf16(value), bits) << bits;
  }
}

TEST(HalfPrecisionTest, F16RoundsToNearestEven) {
  EXPECT_EQ(f16Of(0x3f800000u), 0x3c00u); // 1
  EXPECT_EQ(f16Of(0xc0000000u), 0xc000u); // -2
  EXPECT_EQ(f16Of(0x3f801000u), 0x3c00u); // 1 + 2^-11: a tie, to even
  EXPECT_EQ(f16Of(0x3f801001u), 0x3c01u);
  EXPECT_EQ(f16Of(0x3f803000u), 0x3c02u); // 1 + 3*2^-11: a tie, to even
  EXPECT_EQ(f16Of(0x80000000u), 0x8000u); // -0
  // The top of the range: 65504 is the largest half; from the midpoint
  // 65520 on it is infinity.
  EXPECT_EQ(f16Of(0x477fe000u), 0x7bffu);
  EXPECT_EQ(f16Of(0x477fefffu), 0x7bffu);
  EXPECT_EQ(f16Of(0x477ff000u), 0x7c00u);
  EXPECT_EQ(f16Of(0xc77ff000u), 0xfc00u);
  EXPECT_EQ(f16Of(0x7f7fffffu), 0x7c00u);
  EXPECT_EQ(f16Of(0x7f800000u), 0x7c00u);
  EXPECT_EQ(f16Of(0xff800000u), 0xfc00u);
  // Subnormal halves: units of 2^-24.
  EXPECT_EQ(f16Of(0x38800000u), 0x0400u); // 2^-14, the smallest normal
  EXPECT_EQ(floatToF16(std::ldexp(1023.0f, -24)), 0x03ffu);
  EXPECT_EQ(floatToF16(std::ldexp(2047.0f, -25)), 0x0400u); // tie, to even
  EXPECT_EQ(floatToF16(std::ldexp(2045.0f, -25)), 0x03feu); // tie, to even
  EXPECT_EQ(f16Of(0x33800000u), 0x0001u); // 2^-24, the smallest
  EXPECT_EQ(f16Of(0x33000000u), 0x0000u); // 2^-25: a tie, to even (zero)
  EXPECT_EQ(f16Of(0x33000001u), 0x0001u);
  EXPECT_EQ(f16Of(0x33400000u), 0x0001u); // 1.5 * 2^-25
  EXPECT_EQ(f16Of(0x33c00000u), 0x0002u); // 1.5 * 2^-24: tie, to even
  EXPECT_EQ(f16Of(0x34200000u), 0x0002u); // 2.5 * 2^-24: tie, to even
  EXPECT_EQ(f16Of(0xb3c00000u), 0x8002u);
  EXPECT_EQ(f16Of(0x32ffffffu), 0x0000u);
  EXPECT_EQ(f16Of(0x00000001u), 0x0000u); // a float subnormal
  EXPECT_EQ(f16Of(0x80400000u), 0x8000u);
  // NaN: quiet, sign and upper payload kept, never infinity.
  EXPECT_EQ(f16Of(0x7fc00000u), 0x7e00u);
  EXPECT_EQ(f16Of(0x7f800001u), 0x7e00u);
  EXPECT_EQ(f16Of(0xff812000u), 0xfe09u);
}

TEST(HalfPrecisionTest, F16ToFloatIsExact) {
  EXPECT_EQ(f16ToFloat(0x3c00u), 1.0f);
  EXPECT_EQ(f16ToFloat(0x0001u), std::ldexp(1.0f, -24));
  EXPECT_EQ(f16ToFloat(0x03ffu), std::ldexp(1023.0f, -24));
  EXPECT_EQ(f16ToFloat(0x0400u), std::ldexp(1.0f, -14));
  EXPECT_EQ(f16ToFloat(0x7bffu), 65504.0f);
  EXPECT_EQ(f16ToFloat(0xfbffu), -65504.0f);
  EXPECT_EQ(f16ToFloat(0x7c00u), INFINITY);
  EXPECT_EQ(f16ToFloat(0xfc00u), -INFINITY);
  EXPECT_TRUE(std::isnan(f16ToFloat(0x7e00u)));
  EXPECT_TRUE(std::isnan(f16ToFloat(0x7c01u)));
  EXPECT_TRUE(std::signbit(f16ToFloat(0x8000u)));
  EXPECT_TRUE(std::signbit(f16ToFloat(0x8001u)));
  for (uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    float value = f16ToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value))
      EXPECT_TRUE(std::isnan(f16ToFloat(floatToF16(value)))) << bits;
    else
      ASSERT_EQ(floatToF16(value), bits) << bits;
  }
}

#ifdef __FLT16_MAX__
TEST(HalfPrecisionTest, F16AgreesWithTheCompilersConversion) {
  // The compiler's float -> _Float16 rounds to nearest even too; compare
  // on random bit patterns over the whole float range and densely around
  // the half range's edges.
  Random random(2024);
  auto check = [](uint32_t bits) {
    float value = floatFromBits(bits);
    if (std::isnan(value))
      return;
    _Float16 half = static_cast<_Float16>(value);
    uint16_t expected;
    std::memcpy(&expected, &half, sizeof(expected));
    ASSERT_EQ(floatToF16(value), expected) << std::hex << bits;
  };
  for (int i = 0; i < 1000000; ++i)
    check(static_cast<uint32_t>(random.next()));
  for (uint32_t bits = 0x32800000u; bits < 0x39000000u; bits += 97)
    check(bits);
  for (uint32_t bits = 0x477f0000u; bits < 0x47810000u; ++bits)
    check(bits);
}
#endif

ParamInfo makeParam(int64_t rows, int64_t cols, int64_t rowStride,
                    int64_t colStride) {
  ParamInfo param;
  param.name = "X";
  param.rows = rows;
  param.cols = cols;
  param.rowStride = rowStride;
  param.colStride = colStride;
  return param;
}

TEST(LayoutTest, ScatterGatherRoundTrip) {
  ParamInfo param = makeParam(3, 4, 1, 5); // column-major, padded
  std::vector<float> dense(12);
  for (int i = 0; i < 12; ++i)
    dense[i] = static_cast<float>(i);
  uint64_t elements = 0;
  ASSERT_TRUE(getRequiredElements(param, 1, elements));
  std::vector<float> buffer(elements, -1.0f);
  scatterMatrix(dense.data(), param, buffer.data());
  // Element (1, 2) of the dense matrix is 6, at 1 + 2*5 in the buffer.
  EXPECT_EQ(buffer[11], 6.0f);
  EXPECT_EQ(buffer[3], -1.0f); // padding untouched
  std::vector<float> back(12, 0.0f);
  gatherMatrix(buffer.data(), param, back.data());
  EXPECT_EQ(back, dense);
}

TEST(LayoutTest, BatchesLieBatchStrideApart) {
  // Two 2x3 row-major matrices, 10 elements apart: the second starts at 10.
  ParamInfo param = makeParam(2, 3, 3, 1);
  param.batchStride = 10;
  std::vector<float> dense(12);
  for (int i = 0; i < 12; ++i)
    dense[i] = static_cast<float>(i);
  uint64_t elements = 0;
  ASSERT_TRUE(getRequiredElements(param, 2, elements));
  EXPECT_EQ(elements, 16u);
  std::vector<float> buffer(elements, -1.0f);
  scatterBatchElements(dense.data(), param, 2, buffer.data());
  EXPECT_EQ(buffer[5], 5.0f);
  EXPECT_EQ(buffer[6], -1.0f); // the gap is untouched
  EXPECT_EQ(buffer[10], 6.0f);
  EXPECT_EQ(buffer[15], 11.0f);
  std::vector<float> back(12, 0.0f);
  gatherBatchElements(buffer.data(), param, 2, back.data());
  EXPECT_EQ(back, dense);
  // bf16 buffers: the offset counts elements, not bytes.
  param.elementType = ElementType::BF16;
  std::vector<uint16_t> half(elements, 0);
  scatterBatchElements(dense.data(), param, 2, half.data());
  EXPECT_EQ(bf16ToFloat(half[10]), 6.0f);
  gatherBatchElements(half.data(), param, 2, back.data());
  EXPECT_EQ(back, dense);
}

TEST(ReferenceTest, BatchedIsOneProductPerMatrix) {
  const int64_t batch = 3, m = 4, n = 5, k = 6;
  std::vector<float> a(batch * m * k), b(batch * k * n), c0(batch * m * n);
  fillUniform(a, 3, 1);
  fillUniform(b, 3, 2);
  fillUniform(c0, 3, 3);
  Reference all;
  computeBatchedHostReference(a.data(), b.data(), c0.data(), 0, batch, m, n, k,
                              all, 2);
  ASSERT_EQ(all.value.size(), static_cast<size_t>(batch * m * n));
  ASSERT_EQ(all.magnitude.size(), all.value.size());
  for (int64_t l = 0; l < batch; ++l) {
    Reference one;
    computeHostReference(a.data() + l * m * k, b.data() + l * k * n,
                         c0.data() + l * m * n, 0, m, n, k, one, 1);
    for (int64_t i = 0; i < m * n; ++i) {
      EXPECT_EQ(all.value[l * m * n + i], one.value[i]);
      EXPECT_EQ(all.magnitude[l * m * n + i], one.magnitude[i]);
    }
  }
  // The fill value instead of C0.
  computeBatchedHostReference(a.data(), b.data(), nullptr, 0.5, batch, m, n, k,
                              all);
  Reference last;
  computeHostReference(a.data() + 2 * m * k, b.data() + 2 * k * n, nullptr, 0.5,
                       m, n, k, last);
  EXPECT_EQ(all.value[2 * m * n + 7], last.value[7]);
}

TEST(ReferenceTest, SmallProductByHand) {
  // A = [1 2; 3 4], B = [5 -6; 7 8].
  float a[] = {1, 2, 3, 4}, b[] = {5, -6, 7, 8}, c0[] = {1, 0, 0, -1};
  Reference fill, accumulate;
  computeHostReference(a, b, nullptr, 0.5, 2, 2, 2, fill);
  EXPECT_EQ(fill.value, (std::vector<double>{19.5, 10.5, 43.5, 14.5}));
  EXPECT_EQ(fill.magnitude, (std::vector<double>{19.5, 22.5, 43.5, 50.5}));
  computeHostReference(a, b, c0, 0.0, 2, 2, 2, accumulate);
  EXPECT_EQ(accumulate.value, (std::vector<double>{20, 10, 43, 13}));
  EXPECT_EQ(accumulate.magnitude, (std::vector<double>{20, 22, 43, 51}));
}

TEST(ReferenceTest, ThreadsDoNotChangeTheResult) {
  int64_t m = 37, n = 23, k = 51;
  std::vector<float> a(m * k), b(k * n), c0(m * n);
  fillUniform(a, 1, 1);
  fillUniform(b, 1, 2);
  fillUniform(c0, 1, 3);
  Reference one, many;
  computeHostReference(a.data(), b.data(), c0.data(), 0, m, n, k, one, 1);
  computeHostReference(a.data(), b.data(), c0.data(), 0, m, n, k, many, 8);
  EXPECT_EQ(one.value, many.value);
  EXPECT_EQ(one.magnitude, many.magnitude);
  // Spot-check one element against a direct sum.
  double expected = c0[5 * n + 7];
  for (int64_t kk = 0; kk < k; ++kk)
    expected += static_cast<double>(a[5 * k + kk]) * b[kk * n + 7];
  EXPECT_DOUBLE_EQ(one.value[5 * n + 7], expected);
}

/// A float32 result as a kernel would produce it: `order` 0 sums k upwards,
/// 1 downwards, 2 pairwise; `tf32` rounds the inputs to TF32 first.
std::vector<float> simulateKernel(const std::vector<float> &a,
                                  const std::vector<float> &b,
                                  const std::vector<float> &c0, int64_t m,
                                  int64_t n, int64_t k, int order,
                                  bool tf32 = false) {
  auto round = [&](float value) {
    if (!tf32)
      return value;
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits = (bits + 0x1000u) & 0xffffe000u;
    std::memcpy(&value, &bits, 4);
    return value;
  };
  std::vector<float> c(m * n);
  std::vector<float> products(k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = c0.empty() ? 0.0f : c0[i * n + j];
      if (order == 2) {
        for (int64_t kk = 0; kk < k; ++kk)
          products[kk] = round(a[i * k + kk]) * round(b[kk * n + j]);
        for (int64_t width = 1; width < k; width *= 2)
          for (int64_t kk = 0; kk + width < k; kk += 2 * width)
            products[kk] += products[kk + width];
        sum += products[0];
      } else {
        for (int64_t step = 0; step < k; ++step) {
          int64_t kk = order == 0 ? step : k - 1 - step;
          sum = std::fma(round(a[i * k + kk]), round(b[kk * n + j]), sum);
        }
      }
      c[i * n + j] = sum;
    }
  return c;
}

class CheckTest : public ::testing::Test {
protected:
  void SetUp() override {
    a.resize(m * k);
    b.resize(k * n);
    c0.resize(m * n);
    fillUniform(a, 3, 1);
    fillUniform(b, 3, 2);
    fillUniform(c0, 3, 3);
    computeHostReference(a.data(), b.data(), c0.data(), 0, m, n, k, reference);
  }
  CheckResult check(const std::vector<float> &c) {
    return checkResult(c.data(), reference, m, n,
                       getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, k),
                       getElementTolerance(k));
  }
  const int64_t m = 24, n = 20, k = 4096;
  std::vector<float> a, b, c0;
  Reference reference;
};

TEST_F(CheckTest, CorrectFloat32KernelsPass) {
  for (int order = 0; order < 3; ++order) {
    CheckResult result = check(simulateKernel(a, b, c0, m, n, k, order));
    EXPECT_TRUE(result.pass) << "order " << order << ": " << result.reason;
    EXPECT_GT(result.relativeError, 0);
    EXPECT_LT(result.relativeError, 1e-5);
  }
}

TEST_F(CheckTest, Tf32Fails) {
  CheckResult result = check(simulateKernel(a, b, c0, m, n, k, 0, true));
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.nonFinite, 0u);
  EXPECT_GT(result.relativeError, 1e-5);
  EXPECT_EQ(result.reason.rfind("relative error ", 0), 0u) << result.reason;
}

TEST_F(CheckTest, ElementLeftAtInitialValueFails) {
  std::vector<float> c = simulateKernel(a, b, c0, m, n, k, 0);
  c[7 * n + 3] = c0[7 * n + 3];
  CheckResult result = check(c);
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.overBound, 1u);
  EXPECT_EQ(result.badRow, 7);
  EXPECT_EQ(result.badCol, 3);
  EXPECT_EQ(result.reason.rfind("1 elements are off by more than rounding "
                                "allows (first at [7][3]: got ",
                                0),
            0u)
      << result.reason;
}

/// The reference of `batch` m x n x k products of random A and B (from
/// `seed`), C starting at 0.
Reference randomBatchedReference(int64_t batch, int64_t m, int64_t n,
                                 int64_t k, uint64_t seed) {
  std::vector<float> a(batch * m * k), b(batch * k * n);
  fillUniform(a, seed, 1);
  fillUniform(b, seed, 2);
  Reference reference;
  computeBatchedHostReference(a.data(), b.data(), nullptr, 0, batch, m, n, k,
                              reference);
  return reference;
}

TEST(BatchedCheckTest, ResultsNameTheBatch) {
  // Three 8x8 results checked as one: a wrong element of the last names
  // its batch, row and column; the norm is over all of them.
  const int64_t batch = 3, m = 8, n = 8, k = 64;
  Reference reference = randomBatchedReference(batch, m, n, k, 5);
  std::vector<float> c(reference.value.begin(), reference.value.end());
  CheckResult result = checkResult(c.data(), reference, m, n, 1e-5,
                                   getElementTolerance(k), batch);
  EXPECT_TRUE(result.pass) << result.reason;
  c[2 * m * n + 3 * n + 5] += 1.0f;
  result = checkResult(c.data(), reference, m, n, 1e-5, getElementTolerance(k),
                       batch);
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.badBatch, 2);
  EXPECT_EQ(result.badRow, 3);
  EXPECT_EQ(result.badCol, 5);
  EXPECT_NE(result.reason.find("1 elements are off by more than rounding "
                               "allows (first at [2][3][5]: got "),
            std::string::npos)
      << result.reason;
  // Checked as one matrix, the last batch would go unseen.
  EXPECT_TRUE(
      checkResult(c.data(), reference, m, n, 1.0, getElementTolerance(k)).pass);
  // A NaN in batch 1.
  c[2 * m * n + 3 * n + 5] -= 1.0f;
  c[m * n] = NAN;
  result = checkResult(c.data(), reference, m, n, 1e-5, getElementTolerance(k),
                       batch);
  EXPECT_NE(result.reason.find("first at [1][0][0]: got nan"),
            std::string::npos)
      << result.reason;
}

TEST(CheckResultTest, NamesTheTilesWhereBadElementsLie) {
  // Two 10x12 results in 4x8 tiles (3 x 2 of them each, the last row and
  // column of tiles partial). Bad: a 2x3 patch in tile [1][1] of batch 0,
  // one NaN in tile [2][0] of batch 1, one element in tile [0][0] of
  // batch 1; the patch has the most and comes first, then C's order.
  const int64_t batch = 2, m = 10, n = 12, k = 16;
  Reference reference = randomBatchedReference(batch, m, n, k, 9);
  std::vector<float> c(reference.value.begin(), reference.value.end());
  for (int64_t row = 5; row <= 6; ++row)
    for (int64_t col = 9; col <= 11; ++col)
      c[row * n + col] += 1.0f;
  c[m * n + 9 * n + 2] = NAN;
  c[m * n + 1 * n + 7] -= 1.0f;
  CheckResult result = checkResult(c.data(), reference, m, n, 1e-5,
                                   getElementTolerance(k), batch, {4, 8});
  EXPECT_FALSE(result.pass);
  EXPECT_NE(result.reason.find(
                "in 3 of 12 4x8 tiles of C; most in tile [0][1][1] (6, rows "
                "5-6, cols 9-11), [1][0][0] (1, rows 1-1, cols 7-7), "
                "[1][2][0] (1, rows 9-9, cols 2-2)"),
            std::string::npos)
      << result.reason;
  // Without a tile shape the summary is left out; one matrix names no
  // batch.
  result = checkResult(c.data(), reference, m, n, 1e-5,
                       getElementTolerance(k), batch);
  EXPECT_EQ(result.reason.find("tiles of C"), std::string::npos)
      << result.reason;
  result = checkResult(c.data(), reference, m, n, 1e-5,
                       getElementTolerance(k), 1, {4, 8});
  EXPECT_NE(result.reason.find("in 1 of 6 4x8 tiles of C; most in tile "
                               "[1][1] (6, rows 5-6, cols 9-11)"),
            std::string::npos)
      << result.reason;
  // A pass says nothing of tiles.
  std::vector<float> good(reference.value.begin(), reference.value.end());
  result = checkResult(good.data(), reference, m, n, 1e-5,
                       getElementTolerance(k), batch, {4, 8});
  EXPECT_TRUE(result.pass) << result.reason;
}

TEST_F(CheckTest, NaNFails) {
  std::vector<float> c = simulateKernel(a, b, c0, m, n, k, 0);
  c[m * n - 1] = NAN;
  c[m * n - 2] = INFINITY;
  CheckResult result = check(c);
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.nonFinite, 2u);
  EXPECT_EQ(result.badRow, m - 1);
  EXPECT_EQ(result.badCol, n - 2);
  EXPECT_EQ(result.reason.rfind("2 elements are NaN or Inf", 0), 0u)
      << result.reason;
}

TEST_F(CheckTest, ExactResultHasNoError) {
  std::vector<float> c(m * n);
  for (int64_t i = 0; i < m * n; ++i)
    c[i] = static_cast<float>(reference.value[i]);
  CheckResult result = check(c);
  EXPECT_TRUE(result.pass);
  EXPECT_LT(result.relativeError, 1e-7);
}

TEST(ToleranceTest, Values) {
  EXPECT_EQ(getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, 4096), 1e-5);
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, 1 << 20),
                   0x1p-24 * 1024);
  EXPECT_EQ(getElementTolerance(4096), 1e-3);
  double large = getElementTolerance(100000);
  EXPECT_GT(large, 2 * 100002 * 0x1p-24);
  EXPECT_LT(large, 2.05 * 100002 * 0x1p-24);
}

TEST(ToleranceTest, Bf16AndF16Results) {
  // The norm tolerance adds half an ulp of the result type, relative.
  EXPECT_EQ(getDefaultRelativeTolerance(ElementType::F32, ElementType::BF16, 4096),
            1e-5 + 0x1p-8);
  EXPECT_EQ(getDefaultRelativeTolerance(ElementType::F32, ElementType::F16, 4096),
            1e-5 + 0x1p-11);
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::F32, ElementType::BF16, 1 << 20),
                   0x1p-24 * 1024 + 0x1p-8);
  // Per element: the f32 accumulation bound, then the output's rounding of
  // the accumulated value (at most |ref| + the accumulation error) and,
  // among subnormals, half the smallest one.
  ElementTolerance f32 = getElementTolerance(4096, ElementType::F32);
  EXPECT_EQ(f32.accumulation, 1e-3);
  EXPECT_EQ(f32.rounding, 0);
  EXPECT_EQ(f32.absolute, 0);
  EXPECT_EQ(f32.bound(5.0, 100.0), 0.1);
  ElementTolerance bf16 = getElementTolerance(4096, ElementType::BF16);
  EXPECT_EQ(bf16.accumulation, 1e-3);
  EXPECT_EQ(bf16.rounding, 0x1p-8);
  EXPECT_EQ(bf16.absolute, 0x1p-134);
  EXPECT_DOUBLE_EQ(bf16.bound(5.0, 100.0),
                   0.1 + 0x1p-8 * (5.0 + 0.1) + 0x1p-134);
  EXPECT_DOUBLE_EQ(bf16.bound(-5.0, 100.0), bf16.bound(5.0, 100.0));
  ElementTolerance f16 = getElementTolerance(100000, ElementType::F16);
  EXPECT_EQ(f16.accumulation, getElementTolerance(100000));
  EXPECT_EQ(f16.rounding, 0x1p-11);
  EXPECT_EQ(f16.absolute, 0x1p-25);
}

TEST(ToleranceTest, Bf16AndF16InputsAllowTruncatingTensorCores) {
  // f32 inputs keep the sqrt(k) rule (TF32 must fail it); bf16 and f16
  // inputs add (terms one block sums)*2^-24/16 for the tensor cores'
  // truncating adder.
  EXPECT_EQ(getDefaultRelativeTolerance(ElementType::BF16, ElementType::F32,
                                        2048),
            1e-5);
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::BF16,
                                               ElementType::F32, 32768),
                   32768 * 0x1p-24 / 16);
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::F16,
                                               ElementType::BF16, 8192),
                   8192 * 0x1p-24 / 16 + 0x1p-8);
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::F32,
                                               ElementType::F32, 32768),
                   0x1p-24 * std::sqrt(32768.0));
  // Split-K: each block sums its chunk only (the sqrt rule still counts the
  // whole sum).
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::BF16,
                                               ElementType::F32, 32768, 10944),
                   10944 * 0x1p-24 / 16);
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::BF16,
                                               ElementType::F32, 32768, 2048),
                   0x1p-24 * std::sqrt(32768.0));
  KernelManifest manifest;
  manifest.config.block = {64, 64, 64};
  EXPECT_EQ(getTermsPerBlock(manifest, 32768), 32768);
  manifest.config.splitK = 3;
  EXPECT_EQ(getTermsPerBlock(manifest, 32768), 10944); // ceil(32768/3) to 64
  manifest.config.splitK = 16;
  EXPECT_EQ(getTermsPerBlock(manifest, 100), 64);
  EXPECT_EQ(getTermsPerBlock(manifest, 40), 40);
}

/// A tensor core's accumulation: 16 products summed exactly, then added to
/// the f32 accumulator rounding toward zero; `skip` drops the products
/// [skip, skip + 64) (a slab a kernel never loaded) when not negative.
std::vector<float> truncatingTensorCoreSum(const std::vector<float> &a,
                                           const std::vector<float> &b,
                                           int64_t m, int64_t n, int64_t k,
                                           int64_t skip = -1) {
  std::vector<float> c(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0;
      for (int64_t k0 = 0; k0 < k; k0 += 16) {
        double part = 0;
        for (int64_t kk = k0; kk < std::min(k, k0 + 16); ++kk)
          if (skip < 0 || kk < skip || kk >= skip + 64)
            part += static_cast<double>(a[i * k + kk]) * b[kk * n + j];
        double sum = static_cast<double>(acc) + part;
        acc = static_cast<float>(sum);
        if (std::fabs(static_cast<double>(acc)) > std::fabs(sum))
          acc = std::nextafter(acc, 0.0f);
      }
      c[i * n + j] = acc;
    }
  return c;
}

TEST(ToleranceTest, TruncatingAccumulationOverDeepK) {
  // Deep K with bf16 inputs: the truncation's bias (about 0.02 k*2^-24, as
  // measured on H200 wgmma kernels) is over the f32 rule but within the
  // tensor-core one; a kernel that skips one 64-deep slab fails both.
  const int64_t m = 8, n = 8, k = 32768;
  std::vector<float> a(m * k), b(k * n);
  fillUniform(a, 11, 1);
  fillUniform(b, 11, 2);
  roundToElementType(a, ElementType::BF16);
  roundToElementType(b, ElementType::BF16);
  Reference reference;
  computeHostReference(a.data(), b.data(), nullptr, 0, m, n, k, reference);
  double tensorCore =
      getDefaultRelativeTolerance(ElementType::BF16, ElementType::F32, k);
  double f32 = getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, k);
  std::vector<float> c = truncatingTensorCoreSum(a, b, m, n, k);
  CheckResult result =
      checkResult(c.data(), reference, m, n, tensorCore, getElementTolerance(k));
  EXPECT_TRUE(result.pass) << result.reason;
  EXPECT_GT(result.relativeError, f32);
  EXPECT_LT(result.relativeError, tensorCore / 2);
  std::vector<float> skipped = truncatingTensorCoreSum(a, b, m, n, k, 4096);
  result = checkResult(skipped.data(), reference, m, n, tensorCore,
                       getElementTolerance(k));
  EXPECT_FALSE(result.pass);
}

//===----------------------------------------------------------------------===//
// TF32 kernels: f32 inputs on the tensor cores
//===----------------------------------------------------------------------===//

TEST(Tf32Test, F32InputsWithStrategyWgmmaAreTf32) {
  // The wgmma example with f32 inputs (and C) is a TF32 kernel; its bf16
  // original, the f32 fma example and an fma kernel of bf16 are not.
  KernelManifest wgmma = makeWgmmaExampleManifest();
  EXPECT_FALSE(isTf32Kernel(wgmma));
  KernelManifest tf32 = wgmma;
  tf32.problem.elementType = ElementType::F32;
  for (ParamInfo &param : tf32.params)
    param.elementType = ElementType::F32;
  EXPECT_TRUE(isTf32Kernel(tf32));
  KernelManifest fma = makeExampleManifest();
  EXPECT_FALSE(isTf32Kernel(fma));
  fma.problem.elementType = ElementType::BF16;
  EXPECT_FALSE(isTf32Kernel(fma));
  // The strategy alone decides between TF32 and plain f32.
  tf32.config.strategy = KernelStrategy::Fma;
  EXPECT_FALSE(isTf32Kernel(tf32));
  // Where tables and verify's line show the types.
  EXPECT_EQ(formatElementTypes(makeExampleManifest()), "f32");
  tf32.config.strategy = KernelStrategy::Wgmma;
  EXPECT_EQ(formatElementTypes(tf32), "tf32 -> f32");
  EXPECT_EQ(formatElementTypes(wgmma), "bf16 -> bf16");
}

TEST(ToleranceTest, Tf32Values) {
  // The norm: the tensor-core rule, at least 2^-8; the f32 rule without
  // tf32, whatever k.
  for (int64_t k : {7, 4096, 20000}) {
    EXPECT_EQ(getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, k,
                                          0, true),
              0x1p-8)
        << k;
    EXPECT_LT(
        getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, k),
        1e-4)
        << k;
  }
  // Deep enough that the truncating adder's rule is the larger (2^22 terms:
  // 2^-6), and a split-K chunk's terms count, as for bf16.
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(
                       ElementType::F32, ElementType::F32, 1 << 22, 0, true),
                   0x1p-6);
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(ElementType::F32,
                                               ElementType::F32, 1 << 22,
                                               1 << 20, true),
                   0x1p-8);
  EXPECT_EQ(getDefaultRelativeTolerance(ElementType::F32, ElementType::F32,
                                        1 << 22, 0, true),
            getDefaultRelativeTolerance(ElementType::BF16, ElementType::F32,
                                        1 << 22));
  // A 16-bit C adds its rounding.
  EXPECT_DOUBLE_EQ(getDefaultRelativeTolerance(
                       ElementType::F32, ElementType::BF16, 4096, 0, true),
                   0x1p-8 + 0x1p-8);
  // Per element: 2 * 2^-9 on top of the f32 accumulation part.
  ElementTolerance f32 = getElementTolerance(4096, ElementType::F32);
  ElementTolerance tf32 = getElementTolerance(4096, ElementType::F32, true);
  EXPECT_EQ(f32.accumulation, 1e-3);
  EXPECT_EQ(tf32.accumulation, 1e-3 + 2 * 0x1p-9);
  EXPECT_EQ(tf32.rounding, 0);
  EXPECT_EQ(tf32.absolute, 0);
  EXPECT_DOUBLE_EQ(tf32.bound(5.0, 100.0), (1e-3 + 0x1p-8) * 100.0);
  EXPECT_EQ(getElementTolerance(100000, ElementType::F32, true).accumulation,
            getElementTolerance(100000) + 0x1p-8);
  ElementTolerance bf16 = getElementTolerance(4096, ElementType::BF16, true);
  EXPECT_EQ(bf16.accumulation, 1e-3 + 0x1p-8);
  EXPECT_EQ(bf16.rounding, 0x1p-8);
}

/// `values` as TF32 tensor cores read them: 10 explicit mantissa bits, the
/// low 13 truncated (`truncate`) or rounded to nearest, ties away.
std::vector<float> asTf32(std::vector<float> values, bool truncate) {
  for (float &value : values) {
    uint32_t bits = floatBits(value);
    if (!truncate)
      bits += 0x1000u;
    value = floatFromBits(bits & 0xffffe000u);
  }
  return values;
}

class Tf32CheckTest : public ::testing::TestWithParam<int64_t> {
protected:
  void SetUp() override {
    k = GetParam();
    a.resize(m * k);
    b.resize(k * n);
    fillUniform(a, 17, 1);
    fillUniform(b, 17, 2);
    computeHostReference(a.data(), b.data(), nullptr, 0, m, n, k, reference);
  }
  /// A TF32 kernel's C: the inputs read as TF32, their products summed by
  /// the truncating tensor-core adder (truncatingTensorCoreSum).
  std::vector<float> tf32Kernel(bool truncate) const {
    return truncatingTensorCoreSum(asTf32(a, truncate), asTf32(b, truncate), m,
                                   n, k);
  }
  CheckResult check(const std::vector<float> &c, bool tf32) const {
    return checkResult(c.data(), reference, m, n,
                       getDefaultRelativeTolerance(
                           ElementType::F32, ElementType::F32, k, 0, tf32),
                       getElementTolerance(k, ElementType::F32, tf32));
  }
  const int64_t m = 12, n = 10;
  int64_t k = 0;
  std::vector<float> a, b;
  Reference reference;
};

TEST_P(Tf32CheckTest, TruncatedAndRoundedInputsPass) {
  // Truncated inputs give a relative norm error of 7.0e-4 to 7.3e-4 here,
  // rounded ones 2.6e-4 to 3.1e-4: within a quarter of 2^-8, far over the
  // f32 rule.
  for (bool truncate : {true, false}) {
    std::vector<float> c = tf32Kernel(truncate);
    CheckResult result = check(c, true);
    EXPECT_TRUE(result.pass)
        << (truncate ? "truncated: " : "rounded: ") << result.reason;
    EXPECT_LT(result.relativeError, 0x1p-8 / 4);
    EXPECT_FALSE(check(c, false).pass);
  }
}

TEST_P(Tf32CheckTest, IndexBugsFail) {
  std::vector<float> good = tf32Kernel(true);
  // An element left at its initial value (0: C starts at 0 here).
  std::vector<float> c = good;
  c[5 * n + 3] = 0;
  CheckResult result = check(c, true);
  EXPECT_FALSE(result.pass);
  EXPECT_NE(result.reason.find("[5][3]"), std::string::npos)
      << "(or the norm) " << result.reason;
  // Rows 2 and 3 swapped (a wrong row index).
  c = good;
  for (int64_t j = 0; j < n; ++j)
    std::swap(c[2 * n + j], c[3 * n + j]);
  result = check(c, true);
  EXPECT_FALSE(result.pass);
  EXPECT_GT(result.overBound, static_cast<uint64_t>(n) / 2) << result.reason;
  EXPECT_EQ(result.badRow, 2) << result.reason;
}

INSTANTIATE_TEST_SUITE_P(SmallAndDeepK, Tf32CheckTest,
                         ::testing::Values(7, 1000, 20000));

TEST(LtEpilogueTest, MatchesBiasReluAndBoth) {
  auto program = [](std::vector<std::string> steps,
                    std::vector<EpilogueOperandKind> kinds) {
    EpilogueInfo info;
    info.steps = std::move(steps);
    for (size_t j = 0; j < kinds.size(); ++j)
      info.operands.push_back({"E" + std::to_string(j), kinds[j]});
    return info;
  };
  LtEpilogue match;
  std::string reason;
  ASSERT_TRUE(matchLtEpilogue(
      program({"addf acc p0", "maximumf s0 0.0"}, {EpilogueOperandKind::Col}),
      match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::BiasRelu);
  EXPECT_EQ(match.biasOperand, 0);
  EXPECT_STREQ(match.name(), "bias_relu");
  // Either argument order, maxnumf, a row bias.
  ASSERT_TRUE(matchLtEpilogue(
      program({"addf p0 acc", "maxnumf 0 s0"}, {EpilogueOperandKind::Row}),
      match, reason));
  EXPECT_EQ(match.kind, LtEpilogue::BiasRelu);
  ASSERT_TRUE(matchLtEpilogue(program({"addf acc p0"},
                                      {EpilogueOperandKind::Col}),
                              match, reason));
  EXPECT_EQ(match.kind, LtEpilogue::Bias);
  ASSERT_TRUE(matchLtEpilogue(program({"maximumf acc 0"}, {}), match, reason));
  EXPECT_EQ(match.kind, LtEpilogue::Relu);
  EXPECT_EQ(match.biasOperand, -1);
  // Not cuBLASLt's: ReLU before the bias, a clamp at another value, an
  // unused operand, tanh, a constant added, a scaled bias, two vectors,
  // two full-size operands, the residual under ReLU beside one outside,
  // acc squared, the residual alone (acc unused: alpha 0).
  for (const EpilogueInfo &other :
       {program({"maximumf acc 0", "addf s0 p0"}, {EpilogueOperandKind::Col}),
        program({"maximumf acc 1"}, {}), program({"addf acc 1.5"}, {}),
        program({"addf acc p0", "mulf s0 2"}, {EpilogueOperandKind::Col}),
        program({"addf acc p0", "addf s0 p1"},
                {EpilogueOperandKind::Col, EpilogueOperandKind::Row}),
        program({"addf acc p0", "addf s0 p1"},
                {EpilogueOperandKind::Full, EpilogueOperandKind::Full}),
        program({"maximumf acc 0", "addf s0 p0"},
                {EpilogueOperandKind::Full}),
        program({"mulf acc acc"}, {}),
        program({"mulf p0 1.0"}, {EpilogueOperandKind::Full}),
        program({"maximumf acc 0"}, {EpilogueOperandKind::Full}),
        program({"maximumf acc 0"}, {EpilogueOperandKind::Col}),
        program({"addf acc p1"}, {EpilogueOperandKind::Col}),
        program({"tanh acc"}, {})}) {
    EXPECT_FALSE(matchLtEpilogue(other, match, reason));
    EXPECT_NE(reason.find("no cuBLASLt epilogue computes"), std::string::npos)
        << reason;
  }
}

TEST(LtEpilogueTest, MatchesScalesAndResidualsByValue) {
  auto program = [](std::vector<std::string> steps,
                    std::vector<EpilogueOperandKind> kinds) {
    EpilogueInfo info;
    info.steps = std::move(steps);
    for (size_t j = 0; j < kinds.size(); ++j)
      info.operands.push_back({"E" + std::to_string(j), kinds[j]});
    return info;
  };
  LtEpilogue match;
  std::string reason;
  // alpha * acc: cuBLASLt's default epilogue with alpha.
  ASSERT_TRUE(matchLtEpilogue(program({"mulf acc 2.5"}, {}), match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::Default);
  EXPECT_STREQ(match.name(), "default");
  EXPECT_DOUBLE_EQ(match.alpha, 2.5);
  EXPECT_EQ(match.beta, 0);
  EXPECT_EQ(match.residualOperand, -1);
  EXPECT_EQ(match.biasOperand, -1);
  // A residual add: the operand as C, beta 1.
  ASSERT_TRUE(matchLtEpilogue(program({"addf acc p0"},
                                      {EpilogueOperandKind::Full}),
                              match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::Default);
  EXPECT_EQ(match.residualOperand, 0);
  EXPECT_DOUBLE_EQ(match.alpha, 1);
  EXPECT_DOUBLE_EQ(match.beta, 1);
  // ReLU(0.5 * acc + bias + 0.25 * R), the operands in either order: bias
  // then ReLU, beta 0.25 (f32 constants: 0.5 and 0.25 are exact).
  ASSERT_TRUE(matchLtEpilogue(
      program({"mulf acc 0.5", "mulf p1 0.25", "addf s0 p0", "addf s2 s1",
               "maximumf s3 0"},
              {EpilogueOperandKind::Row, EpilogueOperandKind::Full}),
      match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::BiasRelu);
  EXPECT_EQ(match.biasOperand, 0);
  EXPECT_EQ(match.residualOperand, 1);
  EXPECT_DOUBLE_EQ(match.alpha, 0.5);
  EXPECT_DOUBLE_EQ(match.beta, 0.25);
  // A negative scale under ReLU; a residual subtracted.
  ASSERT_TRUE(matchLtEpilogue(program({"mulf acc -2", "maximumf s0 0"}, {}),
                              match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::Relu);
  EXPECT_DOUBLE_EQ(match.alpha, -2);
  ASSERT_TRUE(matchLtEpilogue(program({"subf acc p0"},
                                      {EpilogueOperandKind::Full}),
                              match, reason))
      << reason;
  EXPECT_DOUBLE_EQ(match.beta, -1);
  // GELU(acc + R): GELU with the residual as C.
  const std::vector<std::string> residualGelu = {
      "addf acc p0", "mulf s0 s0",
      "mulf s1 s0",  "mulf 0.0447149985 s2",
      "addf s0 s3",  "mulf 0.797884583 s4",
      "tanh s5",     "addf 1 s6",
      "mulf 0.5 s0", "mulf s8 s7"};
  ASSERT_TRUE(matchLtEpilogue(
      program(residualGelu, {EpilogueOperandKind::Full}), match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::Gelu);
  EXPECT_EQ(match.residualOperand, 0);
  EXPECT_NEAR(match.beta, 1, 1e-6);
  // The plain forms keep alpha 1, beta 0 and no residual after a match
  // that set them.
  ASSERT_TRUE(matchLtEpilogue(program({"addf acc p0"},
                                      {EpilogueOperandKind::Col}),
                              match, reason));
  EXPECT_EQ(match.kind, LtEpilogue::Bias);
  EXPECT_EQ(match.alpha, 1);
  EXPECT_EQ(match.beta, 0);
  EXPECT_EQ(match.residualOperand, -1);
}

TEST(LtEpilogueTest, MatchesGeluByValue) {
  auto program = [](std::vector<std::string> steps,
                    std::vector<EpilogueOperandKind> kinds) {
    EpilogueInfo info;
    info.steps = std::move(steps);
    for (size_t j = 0; j < kinds.size(); ++j)
      info.operands.push_back({"E" + std::to_string(j), kinds[j]});
    return info;
  };
  EXPECT_EQ(geluTanh(0), 0);
  EXPECT_NEAR(geluTanh(1), 0.8411919906, 1e-9);
  EXPECT_NEAR(geluTanh(-1), -0.1588080094, 1e-9);
  LtEpilogue match;
  std::string reason;
  // The compiler's bias per column then GELU (tanh form).
  const std::vector<std::string> biasGelu = {
      "addf acc p0", "mulf s0 s0",
      "mulf s1 s0",  "mulf 0.0447149985 s2",
      "addf s0 s3",  "mulf 0.797884583 s4",
      "tanh s5",     "addf 1 s6",
      "mulf 0.5 s0", "mulf s8 s7"};
  ASSERT_TRUE(matchLtEpilogue(program(biasGelu, {EpilogueOperandKind::Col}),
                              match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::BiasGelu);
  EXPECT_EQ(match.biasOperand, 0);
  EXPECT_STREQ(match.name(), "bias_gelu");
  // A row bias, the bias's args swapped (the row-major restriction is
  // tile-run's, as for Bias).
  std::vector<std::string> swapped = biasGelu;
  swapped[0] = "addf p0 acc";
  ASSERT_TRUE(matchLtEpilogue(program(swapped, {EpilogueOperandKind::Row}),
                              match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::BiasGelu);
  EXPECT_EQ(match.biasOperand, 0);

  // GELU alone: the same with acc for s0.
  const std::vector<std::string> gelu = {
      "mulf acc acc", "mulf s0 acc",         "mulf 0.0447149985 s1",
      "addf acc s2",  "mulf 0.797884583 s3", "tanh s4",
      "addf 1 s5",    "mulf 0.5 acc",        "mulf s7 s6"};
  ASSERT_TRUE(matchLtEpilogue(program(gelu, {}), match, reason)) << reason;
  EXPECT_EQ(match.kind, LtEpilogue::Gelu);
  EXPECT_EQ(match.biasOperand, -1);
  EXPECT_STREQ(match.name(), "gelu");

  // Algebraically equal orders: x * 0.5 at the end; (1 + tanh) * x * 0.5
  // with the inner x * (c + c' x^2); 0.5 x + 0.5 x tanh; bias then GELU
  // with x * 0.5 at the end and the constants' exact decimals.
  for (const std::vector<std::string> &steps :
       std::vector<std::vector<std::string>>{
           {"mulf acc acc", "mulf acc s0", "mulf s1 0.044715", "addf s2 acc",
            "mulf s3 0.7978845608", "tanh s4", "addf s5 1", "mulf s6 acc",
            "mulf s7 0.5"},
           {"mulf acc acc", "mulf 0.0356774081 s0", "addf s1 0.797884583",
            "mulf s2 acc", "tanh s3", "addf 1 s4", "mulf s5 acc",
            "mulf s6 0.5"},
           {"mulf acc acc", "mulf s0 acc", "mulf s1 0.044715", "addf s2 acc",
            "mulf s3 0.7978845608", "tanh s4", "mulf 0.5 acc", "mulf s6 s5",
            "addf s6 s7"}}) {
    ASSERT_TRUE(matchLtEpilogue(program(steps, {}), match, reason)) << reason;
    EXPECT_EQ(match.kind, LtEpilogue::Gelu);
  }
  ASSERT_TRUE(matchLtEpilogue(
      program({"addf p0 acc", "mulf s0 s0", "mulf s0 s1", "mulf s2 0.044715",
               "addf s3 s0", "mulf s4 0.7978845608", "tanh s5", "addf s6 1",
               "mulf s7 s0", "mulf s8 0.5"},
              {EpilogueOperandKind::Col}),
      match, reason))
      << reason;
  EXPECT_EQ(match.kind, LtEpilogue::BiasGelu);

  // Not cuBLASLt's GELU: another constant (0.04 for 0.044715); the same
  // after a bias; tanh alone; x * tanh(x).
  std::vector<std::string> wrong = gelu;
  wrong[2] = "mulf 0.04 s1";
  std::vector<std::string> wrongBias = biasGelu;
  wrongBias[3] = "mulf 0.04 s2";
  for (const EpilogueInfo &other :
       {program(wrong, {}), program(wrongBias, {EpilogueOperandKind::Col}),
        program({"tanh acc"}, {}), program({"tanh acc", "mulf s0 acc"}, {})}) {
    EXPECT_FALSE(matchLtEpilogue(other, match, reason));
    EXPECT_NE(reason.find("no cuBLASLt epilogue computes"), std::string::npos)
        << reason;
    EXPECT_NE(reason.find("not GELU, at acc = "), std::string::npos) << reason;
  }
  EXPECT_FALSE(matchLtEpilogue(program(wrongBias, {EpilogueOperandKind::Col}),
                               match, reason));
  EXPECT_NE(reason.find(", p0 = "), std::string::npos) << reason;
  EXPECT_NE(reason.find("GELU(acc + p0)"), std::string::npos) << reason;

  // Not bias then GELU: the operand used again after
  // the bias; GELU of acc beside an unused bias step; GELU with an unused
  // operand; GELU then the bias (cuBLASLt adds its bias first); a second
  // operand.
  std::vector<std::string> biasTwice = biasGelu;
  biasTwice.push_back("addf s9 p0");
  const std::vector<std::string> unusedBias = {
      "addf acc p0",  "mulf acc acc",
      "mulf s1 acc",  "mulf 0.0447149985 s2",
      "addf acc s3",  "mulf 0.797884583 s4",
      "tanh s5",      "addf 1 s6",
      "mulf 0.5 acc", "mulf s8 s7"};
  std::vector<std::string> biasAfter = gelu;
  biasAfter.push_back("addf s8 p0");
  for (const EpilogueInfo &other :
       {program(biasTwice, {EpilogueOperandKind::Col}),
        program(unusedBias, {EpilogueOperandKind::Col}),
        program(gelu, {EpilogueOperandKind::Col}),
        program(biasAfter, {EpilogueOperandKind::Col}),
        program(biasGelu,
                {EpilogueOperandKind::Col, EpilogueOperandKind::Col})}) {
    EXPECT_FALSE(matchLtEpilogue(other, match, reason));
    EXPECT_NE(reason.find("no cuBLASLt epilogue computes"), std::string::npos)
        << reason;
  }
}

TEST(ElementTypeTest, TypedBuffersAndPoison) {
  ParamInfo param;
  param.name = "X";
  param.rows = 2;
  param.cols = 3;
  param.rowStride = 4; // padded rows
  param.colStride = 1;
  std::vector<float> dense = {1.0f, -2.5f, 0.1f, 65504.0f, 1e-7f, 3.0f};
  for (ElementType type :
       {ElementType::F32, ElementType::BF16, ElementType::F16}) {
    param.elementType = type;
    unsigned bytes = getElementTypeSize(type);
    std::vector<char> buffer(8 * bytes);
    fillPoison(buffer.data(), 8, type);
    for (int i = 0; i < 8; ++i) {
      EXPECT_TRUE(isPoison(buffer.data(), i, type));
      EXPECT_TRUE(std::isnan(loadElement(buffer.data(), i, type)));
    }
    scatterElements(dense.data(), param, buffer.data());
    // Padding untouched, elements no longer poison.
    EXPECT_TRUE(isPoison(buffer.data(), 3, type));
    EXPECT_TRUE(isPoison(buffer.data(), 7, type));
    EXPECT_FALSE(isPoison(buffer.data(), 4, type));
    std::vector<float> back(6);
    gatherElements(buffer.data(), param, back.data());
    std::vector<float> rounded = dense;
    roundToElementType(rounded, type);
    EXPECT_EQ(back, rounded);
  }
  // What the rounding gives.
  std::vector<float> values = {0.1f, 65504.0f, 1e-7f};
  roundToElementType(values, ElementType::BF16);
  EXPECT_EQ(floatBits(values[0]), 0x3dcd0000u);
  EXPECT_EQ(values[1], 65536.0f);
  values = {0.1f, 65504.0f, 1e-7f};
  roundToElementType(values, ElementType::F16);
  EXPECT_EQ(values[0], f16ToFloat(0x2e66u));
  EXPECT_EQ(values[1], 65504.0f);
  EXPECT_EQ(values[2], std::ldexp(2.0f, -24)); // a subnormal half
  EXPECT_EQ(getPoisonBits(ElementType::F32), 0x7fc0a5a5u);
  EXPECT_EQ(getPoisonBits(ElementType::BF16), 0x7fe5u);
  EXPECT_EQ(getPoisonBits(ElementType::F16), 0x7e5au);
  KernelManifest manifest = makeExampleManifest();
  EXPECT_EQ(formatElementTypes(manifest), "f32");
  EXPECT_EQ(formatElementTypes(makeWgmmaExampleManifest()), "bf16 -> bf16");
  manifest.problem.elementType = ElementType::F16;
  EXPECT_EQ(formatElementTypes(manifest), "f16 -> f32");
}

/// Rounds a float32 result to `type` as a kernel's epilogue does.
std::vector<float> roundedTo(std::vector<float> values, ElementType type) {
  roundToElementType(values, type);
  return values;
}

TEST_F(CheckTest, CorrectBf16AndF16ResultsPass) {
  // Inputs rounded to bf16 (and f16), accumulated in f32 in three orders,
  // the sum rounded to the result type once.
  for (ElementType type : {ElementType::BF16, ElementType::F16}) {
    std::vector<float> ra = roundedTo(a, type), rb = roundedTo(b, type),
                       rc0 = roundedTo(c0, type);
    Reference typed;
    computeHostReference(ra.data(), rb.data(), rc0.data(), 0, m, n, k, typed);
    for (int order = 0; order < 3; ++order) {
      std::vector<float> c =
          roundedTo(simulateKernel(ra, rb, rc0, m, n, k, order), type);
      CheckResult result = checkResult(c.data(), typed, m, n,
                                       getDefaultRelativeTolerance(type, type, k),
                                       getElementTolerance(k, type));
      EXPECT_TRUE(result.pass) << stringifyElementType(type) << " order "
                               << order << ": " << result.reason;
      // The rounding shows: more error than f32 allows.
      EXPECT_GT(result.relativeError, 1e-5);
      // An f32 C of the same kernel passes with f32 tolerances.
      std::vector<float> f32 = simulateKernel(ra, rb, rc0, m, n, k, order);
      result = checkResult(f32.data(), typed, m, n,
                           getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, k),
                           getElementTolerance(k, ElementType::F32));
      EXPECT_TRUE(result.pass) << result.reason;
      // Rounded to the input type where it must not be: the norm shows it.
      result = checkResult(c.data(), typed, m, n,
                           getDefaultRelativeTolerance(ElementType::F32, ElementType::F32, k),
                           getElementTolerance(k, ElementType::F32));
      EXPECT_FALSE(result.pass);
      EXPECT_EQ(result.reason.rfind("relative error ", 0), 0u) << result.reason;
    }
  }
}

TEST_F(CheckTest, Bf16ElementOverTheBoundFails) {
  std::vector<float> ra = roundedTo(a, ElementType::BF16),
                     rb = roundedTo(b, ElementType::BF16),
                     rc0 = roundedTo(c0, ElementType::BF16);
  Reference typed;
  computeHostReference(ra.data(), rb.data(), rc0.data(), 0, m, n, k, typed);
  std::vector<float> c =
      roundedTo(simulateKernel(ra, rb, rc0, m, n, k, 0), ElementType::BF16);
  ElementTolerance tolerance = getElementTolerance(k, ElementType::BF16);
  // Just inside the bound passes, just outside fails.
  int64_t at = 5 * n + 6;
  double bound = tolerance.bound(typed.value[at], typed.magnitude[at]);
  c[at] = static_cast<float>(typed.value[at] + 0.99 * bound);
  EXPECT_TRUE(checkResult(c.data(), typed, m, n, 1.0, tolerance).pass);
  c[at] = static_cast<float>(typed.value[at] + 1.01 * bound);
  CheckResult result = checkResult(c.data(), typed, m, n, 1.0, tolerance);
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.overBound, 1u);
  EXPECT_EQ(result.badRow, 5);
  EXPECT_EQ(result.badCol, 6);
  // NaN never passes, whatever the tolerance.
  c[at] = NAN;
  tolerance.accumulation = 1e9;
  result = checkResult(c.data(), typed, m, n, 1e9, tolerance);
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.nonFinite, 1u);
}

//===----------------------------------------------------------------------===//
// cuBLAS layout mapping, checked by running the planned column-major GEMM
// on the host.
//===----------------------------------------------------------------------===//

/// Reference BLAS semantics: C(i,j) = sum_l op(X)(i,l) * op(Y)(l,j), all
/// column-major with leading dimensions.
void columnMajorGemm(bool transX, bool transY, int64_t m, int64_t n, int64_t k,
                     const float *x, int64_t ldx, const float *y, int64_t ldy,
                     float *c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        double xv = transX ? x[l + i * ldx] : x[i + l * ldx];
        double yv = transY ? y[j + l * ldy] : y[l + j * ldy];
        sum += xv * yv;
      }
      c[i + j * ldc] = static_cast<float>(sum);
    }
}

KernelManifest layoutManifest(bool aRowMajor, bool bRowMajor, bool cRowMajor) {
  KernelManifest manifest = makeExampleManifest();
  int64_t m = 5, n = 3, k = 4;
  manifest.problem.m = m;
  manifest.problem.n = n;
  manifest.problem.k = k;
  auto set = [](ParamInfo &param, int64_t rows, int64_t cols, bool rowMajor) {
    param.rows = rows;
    param.cols = cols;
    // Padded leading dimensions, to catch a swapped ld.
    param.rowStride = rowMajor ? cols + 2 : 1;
    param.colStride = rowMajor ? 1 : rows + 3;
  };
  set(manifest.params[0], m, k, aRowMajor);
  set(manifest.params[1], k, n, bRowMajor);
  set(manifest.params[2], m, n, cRowMajor);
  return manifest;
}

TEST(GemmPlanTest, AllRowAndColumnMajorCombinations) {
  for (int combo = 0; combo < 8; ++combo) {
    KernelManifest manifest = layoutManifest(combo & 1, combo & 2, combo & 4);
    std::string error;
    ASSERT_TRUE(validateManifest(manifest, error)) << error;
    GemmPlan plan;
    std::string reason;
    ASSERT_TRUE(planColumnMajorGemm(manifest, plan, reason)) << reason;

    const ParamInfo &pa = manifest.params[0], &pb = manifest.params[1],
                    &pc = manifest.params[2];
    int64_t m = 5, n = 3, k = 4;
    std::vector<float> a(m * k), b(k * n);
    fillUniform(a, combo, 1);
    fillUniform(b, combo, 2);
    uint64_t aElements, bElements, cElements;
    getRequiredElements(pa, 1, aElements);
    getRequiredElements(pb, 1, bElements);
    getRequiredElements(pc, 1, cElements);
    std::vector<float> aBuffer(aElements), bBuffer(bElements),
        cBuffer(cElements, 0.0f);
    scatterMatrix(a.data(), pa, aBuffer.data());
    scatterMatrix(b.data(), pb, bBuffer.data());
    const float *first =
        plan.first == ParamRole::Lhs ? aBuffer.data() : bBuffer.data();
    const float *second =
        plan.second == ParamRole::Lhs ? aBuffer.data() : bBuffer.data();
    columnMajorGemm(plan.transFirst, plan.transSecond, plan.m, plan.n, plan.k,
                    first, plan.ldFirst, second, plan.ldSecond, cBuffer.data(),
                    plan.ldResult);
    std::vector<float> c(m * n);
    gatherMatrix(cBuffer.data(), pc, c.data());
    Reference reference;
    computeHostReference(a.data(), b.data(), nullptr, 0, m, n, k, reference);
    for (int64_t i = 0; i < m * n; ++i)
      EXPECT_NEAR(c[i], reference.value[i], 1e-5) << "layout " << combo;
  }
}

TEST(GemmPlanTest, BatchedKernelsGetTheStridedBatchedGemm) {
  // Every layout as a batch of 3, each param's matrices apart by what they
  // span plus a different gap: the planned strided batched GEMM (matrix i
  // of each operand at i times its stride) computes every batch.
  const int64_t batch = 3;
  for (int combo = 0; combo < 8; ++combo) {
    KernelManifest manifest = layoutManifest(combo & 1, combo & 2, combo & 4);
    manifest.problem.batch = batch;
    manifest.launch.grid = {1, static_cast<uint32_t>(batch), 1};
    int64_t gap = 1;
    for (ParamInfo &param : manifest.params) {
      uint64_t elements = 0;
      ASSERT_TRUE(getRequiredElements(param, 1, elements));
      // Different gaps, each stride a multiple of the param's alignment.
      int64_t unit = std::max<int64_t>(
          1, param.alignment / getElementTypeSize(param.elementType));
      param.batchStride = (static_cast<int64_t>(elements) + unit * gap++ +
                           unit - 1) / unit * unit;
    }
    std::string error;
    ASSERT_TRUE(validateManifest(manifest, error)) << error;
    GemmPlan plan;
    std::string reason;
    ASSERT_TRUE(planColumnMajorGemm(manifest, plan, reason)) << reason;
    const ParamInfo &pa = manifest.params[0], &pb = manifest.params[1],
                    &pc = manifest.params[2];
    EXPECT_EQ(plan.batch, batch);
    EXPECT_EQ(plan.strideResult, pc.batchStride);
    EXPECT_EQ(plan.strideFirst,
              plan.first == ParamRole::Lhs ? pa.batchStride : pb.batchStride);
    EXPECT_EQ(plan.strideSecond,
              plan.second == ParamRole::Lhs ? pa.batchStride : pb.batchStride);

    int64_t m = 5, n = 3, k = 4;
    std::vector<float> a(batch * m * k), b(batch * k * n);
    fillUniform(a, combo, 1);
    fillUniform(b, combo, 2);
    uint64_t aElements, bElements, cElements;
    ASSERT_TRUE(getRequiredElements(pa, batch, aElements));
    ASSERT_TRUE(getRequiredElements(pb, batch, bElements));
    ASSERT_TRUE(getRequiredElements(pc, batch, cElements));
    std::vector<float> aBuffer(aElements), bBuffer(bElements),
        cBuffer(cElements, 0.0f);
    scatterBatchElements(a.data(), pa, batch, aBuffer.data());
    scatterBatchElements(b.data(), pb, batch, bBuffer.data());
    const float *first =
        plan.first == ParamRole::Lhs ? aBuffer.data() : bBuffer.data();
    const float *second =
        plan.second == ParamRole::Lhs ? aBuffer.data() : bBuffer.data();
    for (int64_t i = 0; i < plan.batch; ++i)
      columnMajorGemm(plan.transFirst, plan.transSecond, plan.m, plan.n, plan.k,
                      first + i * plan.strideFirst, plan.ldFirst,
                      second + i * plan.strideSecond, plan.ldSecond,
                      cBuffer.data() + i * plan.strideResult, plan.ldResult);
    std::vector<float> c(batch * m * n);
    gatherBatchElements(cBuffer.data(), pc, batch, c.data());
    Reference reference;
    computeBatchedHostReference(a.data(), b.data(), nullptr, 0, batch, m, n, k,
                                reference);
    ASSERT_EQ(reference.value.size(), c.size());
    for (int64_t i = 0; i < batch * m * n; ++i)
      EXPECT_NEAR(c[i], reference.value[i], 1e-5) << "layout " << combo;
  }
  // An unbatched plan is a batch of one without strides.
  GemmPlan plan;
  std::string reason;
  ASSERT_TRUE(planColumnMajorGemm(makeExampleManifest(), plan, reason));
  EXPECT_EQ(plan.batch, 1);
  EXPECT_EQ(plan.strideFirst, 0);
  EXPECT_EQ(plan.strideResult, 0);
}

TEST(GemmPlanTest, RowMajorIsTheUsualSwap) {
  GemmPlan plan;
  std::string reason;
  ASSERT_TRUE(planColumnMajorGemm(makeExampleManifest(), plan, reason));
  EXPECT_EQ(plan.first, ParamRole::Rhs);
  EXPECT_EQ(plan.second, ParamRole::Lhs);
  EXPECT_FALSE(plan.transFirst);
  EXPECT_FALSE(plan.transSecond);
  EXPECT_EQ(plan.ldFirst, 4096);
  EXPECT_EQ(plan.ldResult, 4096);
}

TEST(GemmPlanTest, OtherLayoutsAreNamed) {
  KernelManifest manifest = makeExampleManifest();
  manifest.params[0].rowStride = 8192;
  manifest.params[0].colStride = 2;
  GemmPlan plan;
  std::string reason;
  EXPECT_FALSE(planColumnMajorGemm(manifest, plan, reason));
  EXPECT_EQ(reason, "param A (row_stride 8192, col_stride 2) is neither row- "
                    "nor column-major");
  manifest = makeExampleManifest();
  manifest.problem.n = manifest.params[1].cols = manifest.params[2].cols =
      1ll << 31;
  manifest.params[1].rowStride = manifest.params[2].rowStride = 1ll << 31;
  EXPECT_FALSE(planColumnMajorGemm(manifest, plan, reason));
  EXPECT_EQ(reason, "a size or leading dimension exceeds cuBLAS's 32-bit int");
}

TEST(StatisticsTest, Median) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({5}), 5);
  EXPECT_EQ(median({}), 0);
  EXPECT_DOUBLE_EQ(getTflops(1, 4096, 4096, 4096, 1.0), 137.438953472);
  EXPECT_EQ(getTflops(1, 1, 1, 1, 0), 0);
  // A batch counts every matrix's flops: 2 * batch * m * n * k.
  EXPECT_DOUBLE_EQ(getTflops(8, 4096, 4096, 4096, 1.0), 8 * 137.438953472);
}

TEST(PathsTest, NaturalOrder) {
  EXPECT_TRUE(naturalLess("matmul_512", "matmul_4096"));
  EXPECT_FALSE(naturalLess("matmul_4096", "matmul_512"));
  EXPECT_TRUE(naturalLess("a2", "a10"));
  EXPECT_TRUE(naturalLess("a10", "b"));
  EXPECT_TRUE(naturalLess("a", "a1"));
  EXPECT_TRUE(naturalLess("m_08", "m_9"));
  EXPECT_FALSE(naturalLess("same", "same"));
}

TEST(PathsTest, FoldersExpandToManifests) {
  std::vector<std::string> manifests;
  std::string error;
  std::string dir = std::string(TILE_RUNTIME_TEST_DIR) + "/fixtures";
  ASSERT_TRUE(expandArtifactPaths({dir}, manifests, error)) << error;
  EXPECT_EQ(manifests,
            (std::vector<std::string>{dir + "/tile_test_matmul_accumulate.json",
                                      dir + "/tile_test_matmul_bf16_tma.json",
                                      dir + "/tile_test_matmul_f16.json",
                                      dir + "/tile_test_matmul_fill.json",
                                      dir + "/tile_test_matmul_strided.json"}));
  EXPECT_FALSE(expandArtifactPaths({dir + "/absent.json"}, manifests, error));
  EXPECT_EQ(error, "'" + dir + "/absent.json': No such file or directory");
  TempDir empty;
  EXPECT_FALSE(expandArtifactPaths({empty.path()}, manifests, error));
  EXPECT_EQ(error, "folder '" + empty.path() + "' holds no *.json manifest");
}

} // namespace

TEST(EpilogueReferenceTest, BiasPerRowAndColumnThenRelu) {
  // C is 2 x 3; p0 per row (2), p1 per column (3).
  EpilogueInfo epilogue;
  epilogue.operands = {{"E0", EpilogueOperandKind::Row},
                       {"E1", EpilogueOperandKind::Col}};
  epilogue.steps = {"addf acc p0", "addf s0 p1", "maximumf s1 0"};
  Reference reference;
  reference.value = {1, 2, 3, 4, 5, 6};
  reference.magnitude = {1, 1, 1, 1, 1, 1};
  std::vector<std::vector<float>> operands = {{-10, 0}, {0, 1, -7}};
  std::string error;
  ASSERT_TRUE(
      applyEpilogueReference(epilogue, operands, {}, 1, 2, 3, reference,
                             error))
      << error;
  std::vector<double> want = {0, 0, 0, 4, 6, 0};
  EXPECT_EQ(reference.value, want);
  operands[1].pop_back();
  EXPECT_FALSE(applyEpilogueReference(epilogue, operands, {}, 1, 2, 3,
                                      reference, error));
  EXPECT_NE(error.find("epilogue operand 1 has 2 values, not 3"),
            std::string::npos);
}

TEST(EpilogueReferenceTest, BatchedOperandsPerMatrixOrShared) {
  // Two matrices of 2 x 3: p0 per column shared by both, p1 per row and
  // matrix (2 x 2 values), p2 a full operand per matrix.
  EpilogueInfo epilogue;
  epilogue.operands = {{"E0", EpilogueOperandKind::Col},
                       {"E1", EpilogueOperandKind::Row},
                       {"E2", EpilogueOperandKind::Full}};
  epilogue.steps = {"addf acc p0", "mulf s0 p1", "subf s1 p2"};
  Reference reference;
  reference.value = {1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60};
  reference.magnitude.assign(12, 1);
  std::vector<std::vector<float>> operands = {
      {100, 200, 300},
      {1, 2, 3, 4},
      {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}};
  std::string error;
  Reference one = reference;
  ASSERT_TRUE(applyEpilogueReference(epilogue, operands,
                                     {false, true, true}, 2, 2, 3, one,
                                     error))
      << error;
  // Matrix 1's element (1, 2): (60 + 300) * 4 - 11.
  std::vector<double> want = {101, 201, 301, 205, 406, 607,
                              324, 653, 982, 551, 990, 1429};
  EXPECT_EQ(one.value, want);
  // Sizes follow the flags: a per-matrix p0 needs 6 values.
  one = reference;
  EXPECT_FALSE(applyEpilogueReference(epilogue, operands, {true, true, true},
                                      2, 2, 3, one, error));
  EXPECT_NE(error.find("epilogue operand 0 has 3 values, not 6"),
            std::string::npos);
  EXPECT_FALSE(applyEpilogueReference(epilogue, operands, {true}, 2, 2, 3,
                                      one, error));
  EXPECT_NE(error.find("1 per-batch flags for an epilogue of 3"),
            std::string::npos);
  EXPECT_FALSE(applyEpilogueReference(epilogue, operands,
                                      {false, true, true}, 3, 2, 3, one,
                                      error));
  EXPECT_NE(error.find("the reference has 12 values, not 18"),
            std::string::npos);
}
