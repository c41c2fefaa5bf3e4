//===- TileRun.cpp - The host-side parts of tile-run ----------------------===//

#include "TileRun.h"
#include "HalfPrecision.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <map>
#include <sys/stat.h>
#include <thread>
#include <tuple>

using namespace tile::run;
using tile::runtime::findParam;

uint64_t Random::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float Random::uniform() {
  // 24 random bits scaled to [0, 2), minus 1: exact in float.
  return static_cast<float>(static_cast<double>(next() >> 40) * 0x1p-23 - 1.0);
}

void tile::run::fillUniform(std::vector<float> &values, uint64_t seed,
                            uint64_t stream) {
  Random random(seed ^ (stream * 0xd1342543de82ef95ull));
  for (float &value : values)
    value = random.uniform();
}

void tile::run::scatterMatrix(const float *dense, const ParamInfo &param,
                              float *buffer) {
  for (int64_t i = 0; i < param.rows; ++i)
    for (int64_t j = 0; j < param.cols; ++j)
      buffer[param.offset + i * param.rowStride + j * param.colStride] =
          dense[i * param.cols + j];
}

void tile::run::gatherMatrix(const float *buffer, const ParamInfo &param,
                             float *dense) {
  for (int64_t i = 0; i < param.rows; ++i)
    for (int64_t j = 0; j < param.cols; ++j)
      dense[i * param.cols + j] =
          buffer[param.offset + i * param.rowStride + j * param.colStride];
}

void tile::run::roundToElementType(std::vector<float> &values,
                                   ElementType type) {
  if (type == ElementType::BF16)
    for (float &value : values)
      value = bf16ToFloat(floatToBf16(value));
  else if (type == ElementType::F16)
    for (float &value : values)
      value = f16ToFloat(floatToF16(value));
}

float tile::run::loadElement(const void *buffer, uint64_t index,
                             ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return bf16ToFloat(static_cast<const uint16_t *>(buffer)[index]);
  case ElementType::F16:
    return f16ToFloat(static_cast<const uint16_t *>(buffer)[index]);
  default:
    return static_cast<const float *>(buffer)[index];
  }
}

void tile::run::storeElement(void *buffer, uint64_t index, float value,
                             ElementType type) {
  switch (type) {
  case ElementType::BF16:
    static_cast<uint16_t *>(buffer)[index] = floatToBf16(value);
    return;
  case ElementType::F16:
    static_cast<uint16_t *>(buffer)[index] = floatToF16(value);
    return;
  default:
    static_cast<float *>(buffer)[index] = value;
    return;
  }
}

void tile::run::scatterElements(const float *dense, const ParamInfo &param,
                                void *buffer) {
  for (int64_t i = 0; i < param.rows; ++i)
    for (int64_t j = 0; j < param.cols; ++j)
      storeElement(buffer, param.offset + i * param.rowStride + j * param.colStride,
                   dense[i * param.cols + j], param.elementType);
}

void tile::run::gatherElements(const void *buffer, const ParamInfo &param,
                               float *dense) {
  for (int64_t i = 0; i < param.rows; ++i)
    for (int64_t j = 0; j < param.cols; ++j)
      dense[i * param.cols + j] = loadElement(
          buffer, param.offset + i * param.rowStride + j * param.colStride, param.elementType);
}

void tile::run::scatterBatchElements(const float *dense, const ParamInfo &param,
                                     int64_t batch, void *buffer) {
  uint64_t matrix = static_cast<uint64_t>(param.rows * param.cols);
  unsigned bytes = runtime::getElementTypeSize(param.elementType);
  for (int64_t b = 0; b < batch; ++b)
    scatterElements(dense + b * matrix, param,
                    static_cast<char *>(buffer) +
                        static_cast<uint64_t>(b * param.batchStride) * bytes);
}

void tile::run::gatherBatchElements(const void *buffer, const ParamInfo &param,
                                    int64_t batch, float *dense) {
  uint64_t matrix = static_cast<uint64_t>(param.rows * param.cols);
  unsigned bytes = runtime::getElementTypeSize(param.elementType);
  for (int64_t b = 0; b < batch; ++b)
    gatherElements(static_cast<const char *>(buffer) +
                       static_cast<uint64_t>(b * param.batchStride) * bytes,
                   param, dense + b * matrix);
}

uint32_t tile::run::getPoisonBits(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return 0x7fe5u;
  case ElementType::F16:
    return 0x7e5au;
  default:
    return 0x7fc0a5a5u;
  }
}

void tile::run::fillPoison(void *buffer, uint64_t elements, ElementType type) {
  uint32_t bits = getPoisonBits(type);
  if (runtime::getElementTypeSize(type) == 2) {
    auto *words = static_cast<uint16_t *>(buffer);
    for (uint64_t i = 0; i < elements; ++i)
      words[i] = static_cast<uint16_t>(bits);
  } else {
    auto *words = static_cast<uint32_t *>(buffer);
    for (uint64_t i = 0; i < elements; ++i)
      words[i] = bits;
  }
}

bool tile::run::isPoison(const void *buffer, uint64_t index, ElementType type) {
  uint32_t bits = getPoisonBits(type);
  if (runtime::getElementTypeSize(type) == 2)
    return static_cast<const uint16_t *>(buffer)[index] == bits;
  return static_cast<const uint32_t *>(buffer)[index] == bits;
}

void tile::run::computeHostReference(const float *a, const float *b,
                                     const float *c0, double fillValue,
                                     int64_t m, int64_t n, int64_t k,
                                     Reference &out, unsigned threads) {
  out.value.assign(static_cast<size_t>(m * n), 0.0);
  out.magnitude.assign(static_cast<size_t>(m * n), 0.0);
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<int64_t>(threads, m));
  std::atomic<int64_t> nextRow{0};
  auto work = [&]() {
    for (int64_t i; (i = nextRow.fetch_add(1)) < m;) {
      double *value = &out.value[i * n];
      double *magnitude = &out.magnitude[i * n];
      for (int64_t j = 0; j < n; ++j) {
        value[j] = c0 ? static_cast<double>(c0[i * n + j]) : fillValue;
        magnitude[j] = std::fabs(value[j]);
      }
      // i-k-j order: the inner loop streams rows of B and vectorizes.
      for (int64_t kk = 0; kk < k; ++kk) {
        double x = a[i * k + kk];
        double absX = std::fabs(x);
        const float *row = b + kk * n;
        for (int64_t j = 0; j < n; ++j) {
          double y = row[j];
          value[j] += x * y;
          magnitude[j] += absX * std::fabs(y);
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &thread : pool)
    thread.join();
}

void tile::run::computeBatchedHostReference(const float *a, const float *b,
                                            const float *c0, double fillValue,
                                            int64_t batch, int64_t m, int64_t n,
                                            int64_t k, Reference &out,
                                            unsigned threads) {
  if (batch == 1) {
    computeHostReference(a, b, c0, fillValue, m, n, k, out, threads);
    return;
  }
  out.value.clear();
  out.magnitude.clear();
  out.value.reserve(static_cast<size_t>(batch * m * n));
  out.magnitude.reserve(static_cast<size_t>(batch * m * n));
  Reference one;
  for (int64_t i = 0; i < batch; ++i) {
    computeHostReference(a + i * m * k, b + i * k * n,
                         c0 ? c0 + i * m * n : nullptr, fillValue, m, n, k, one,
                         threads);
    out.value.insert(out.value.end(), one.value.begin(), one.value.end());
    out.magnitude.insert(out.magnitude.end(), one.magnitude.begin(),
                         one.magnitude.end());
  }
}

namespace {
/// Half an ulp, relative, of a result of `type` (its unit roundoff), and
/// half its smallest subnormal; 0 for f32, whose rounding is the
/// accumulation's.
double getOutputRounding(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return 0x1p-8;
  case ElementType::F16:
    return 0x1p-11;
  default:
    return 0;
  }
}
double getOutputUnderflow(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return 0x1p-134;
  case ElementType::F16:
    return 0x1p-25;
  default:
    return 0;
  }
}

/// The relative error of a product of two f32 values as a TF32 kernel's
/// tensor cores read them (each with 10 explicit mantissa bits, off by
/// less than 2^-10): less than 2^-9 (plus 2^-20, which twice this covers).
constexpr double kTf32ProductError = 0x1p-9;
} // namespace

bool tile::run::isTf32Kernel(const KernelManifest &manifest) {
  return manifest.problem.elementType == ElementType::F32 &&
         manifest.config.strategy == runtime::KernelStrategy::Wgmma;
}

double tile::run::getDefaultRelativeTolerance(ElementType inputType,
                                              ElementType resultType, int64_t k,
                                              int64_t blockTerms, bool tf32) {
  double accumulation =
      std::max(1e-5, 0x1p-24 * std::sqrt(static_cast<double>(k)));
  if (blockTerms <= 0 || blockTerms > k)
    blockTerms = k;
  // Tensor cores: bf16, f16 and TF32 kernels share the truncating adder.
  if (tf32 || inputType == ElementType::BF16 || inputType == ElementType::F16)
    accumulation =
        std::max(accumulation, 0x1p-24 * static_cast<double>(blockTerms) / 16);
  if (tf32)
    accumulation = std::max(accumulation, 2 * kTf32ProductError);
  return accumulation + getOutputRounding(resultType);
}

int64_t tile::run::getTermsPerBlock(const KernelManifest &manifest,
                                    int64_t k) {
  int64_t splits = manifest.config.splitK;
  int64_t tileK = std::max<int64_t>(1, manifest.config.block[2]);
  if (splits <= 1 || k <= 0)
    return k;
  int64_t chunk = (k + splits - 1) / splits;
  chunk = (chunk + tileK - 1) / tileK * tileK;
  return std::min(k, chunk);
}

double tile::run::getElementTolerance(int64_t k) {
  double nu = static_cast<double>(k + 2) * 0x1p-24;
  double gamma = nu < 0.5 ? nu / (1 - nu) : 1.0;
  return std::max(1e-3, 2 * gamma);
}

double ElementTolerance::bound(double reference, double magnitude) const {
  double accumulated = accumulation * magnitude;
  return accumulated + rounding * (std::fabs(reference) + accumulated) +
         absolute;
}

ElementTolerance
tile::run::getElementTolerance(int64_t k, ElementType resultType, bool tf32) {
  ElementTolerance tolerance;
  tolerance.accumulation =
      getElementTolerance(k) + (tf32 ? 2 * kTf32ProductError : 0.0);
  tolerance.rounding = getOutputRounding(resultType);
  tolerance.absolute = getOutputUnderflow(resultType);
  return tolerance;
}

std::string tile::run::formatElementTypes(const KernelManifest &manifest) {
  const ParamInfo *c = findParam(manifest, ParamRole::Result);
  ElementType input = manifest.problem.elementType;
  ElementType result = c ? c->elementType : input;
  // A TF32 kernel's f32 inputs are read as TF32: say so where its types
  // show, as its tolerances and baseline differ from an f32 kernel's.
  if (isTf32Kernel(manifest))
    return "tf32 -> " + std::string(runtime::stringifyElementType(result));
  if (input == ElementType::F32 && result == ElementType::F32)
    return "f32";
  return std::string(runtime::stringifyElementType(input)) + " -> " +
         std::string(runtime::stringifyElementType(result));
}

namespace {
std::string formatNumber(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}
} // namespace

CheckResult tile::run::checkResult(const float *c, const Reference &reference,
                                   int64_t m, int64_t n,
                                   double relativeTolerance,
                                   double elementTolerance, int64_t batch,
                                   TileShape tile) {
  ElementTolerance tolerance;
  tolerance.accumulation = elementTolerance;
  return checkResult(c, reference, m, n, relativeTolerance, tolerance, batch,
                     tile);
}

CheckResult tile::run::checkResult(const float *c, const Reference &reference,
                                   int64_t m, int64_t n,
                                   double relativeTolerance,
                                   const ElementTolerance &elementTolerance,
                                   int64_t batch, TileShape tile) {
  CheckResult result;
  double errorSquares = 0, referenceSquares = 0;
  int64_t firstNonFinite = -1, firstOverBound = -1;
  // Bad elements per tile of C, by (batch, tile row, tile column).
  struct BadTile {
    uint64_t count = 0;
    int64_t firstRow = 0, lastRow = 0, firstCol = 0, lastCol = 0;
  };
  std::map<std::tuple<int64_t, int64_t, int64_t>, BadTile> badTiles;
  auto noteBad = [&](int64_t index) {
    if (tile.rows <= 0 || tile.cols <= 0)
      return;
    int64_t row = index / n % m, col = index % n;
    auto [it, added] = badTiles.try_emplace(
        {index / (m * n), row / tile.rows, col / tile.cols});
    BadTile &bad = it->second;
    if (added) {
      bad.firstRow = bad.lastRow = row;
      bad.firstCol = bad.lastCol = col;
    }
    ++bad.count;
    bad.firstRow = std::min(bad.firstRow, row);
    bad.lastRow = std::max(bad.lastRow, row);
    bad.firstCol = std::min(bad.firstCol, col);
    bad.lastCol = std::max(bad.lastCol, col);
  };
  for (int64_t index = 0; index < batch * m * n; ++index) {
    double expected = reference.value[index];
    float got = c[index];
    if (!std::isfinite(got)) {
      if (result.nonFinite++ == 0)
        firstNonFinite = index;
      noteBad(index);
      continue;
    }
    double error = static_cast<double>(got) - expected;
    errorSquares += error * error;
    referenceSquares += expected * expected;
    result.maxAbsoluteError =
        std::max(result.maxAbsoluteError, std::fabs(error));
    if (std::fabs(error) >
        elementTolerance.bound(expected, reference.magnitude[index])) {
      if (result.overBound++ == 0)
        firstOverBound = index;
      noteBad(index);
    }
  }
  result.relativeError = referenceSquares > 0
                             ? std::sqrt(errorSquares / referenceSquares)
                             : std::sqrt(errorSquares);
  int64_t bad = firstNonFinite >= 0 ? firstNonFinite : firstOverBound;
  if (bad >= 0) {
    result.badBatch = bad / (m * n);
    result.badRow = bad / n % m;
    result.badCol = bad % n;
    result.badValue = c[bad];
    result.badExpected = reference.value[bad];
  }
  std::string where;
  if (bad >= 0)
    where = " (first at " +
            (batch > 1 ? "[" + std::to_string(result.badBatch) + "]"
                       : std::string()) +
            "[" + std::to_string(result.badRow) + "][" +
            std::to_string(result.badCol) + "]: got " +
            formatNumber("%.9g", result.badValue) + ", expected " +
            formatNumber("%.9g", result.badExpected) + ")";
  if (result.nonFinite != 0)
    result.reason = std::to_string(result.nonFinite) +
                    " elements are NaN or Inf, e.g. never written" + where;
  else if (result.overBound != 0)
    result.reason = std::to_string(result.overBound) +
                    " elements are off by more than rounding allows" + where;
  else if (!(result.relativeError <= relativeTolerance))
    result.reason =
        "relative error " + formatNumber("%.3e", result.relativeError) +
        " is over the tolerance " + formatNumber("%.3e", relativeTolerance);
  if (!badTiles.empty()) {
    int64_t tilesDown = (m + tile.rows - 1) / tile.rows;
    int64_t tilesAcross = (n + tile.cols - 1) / tile.cols;
    std::vector<std::pair<std::tuple<int64_t, int64_t, int64_t>, BadTile>>
        most(badTiles.begin(), badTiles.end());
    // The most bad elements first; equal counts in C's order.
    std::stable_sort(most.begin(), most.end(),
                     [](const auto &a, const auto &b) {
                       return a.second.count > b.second.count;
                     });
    result.reason += "\n    in " + std::to_string(badTiles.size()) + " of " +
                     std::to_string(batch * tilesDown * tilesAcross) + " " +
                     std::to_string(tile.rows) + "x" +
                     std::to_string(tile.cols) + " tiles of C";
    for (size_t i = 0; i < std::min<size_t>(most.size(), 3); ++i) {
      auto [batchIndex, tileRow, tileCol] = most[i].first;
      const BadTile &bad = most[i].second;
      result.reason +=
          std::string(i == 0 ? "; most in tile " : ", ") +
          (batch > 1 ? "[" + std::to_string(batchIndex) + "]" : std::string()) +
          "[" + std::to_string(tileRow) + "][" + std::to_string(tileCol) +
          "] (" + std::to_string(bad.count) + ", rows " +
          std::to_string(bad.firstRow) + "-" + std::to_string(bad.lastRow) +
          ", cols " + std::to_string(bad.firstCol) + "-" +
          std::to_string(bad.lastCol) + ")";
    }
  }
  result.pass = result.reason.empty();
  return result;
}

namespace {
struct MatrixLayout {
  bool rowMajor = true;
  int64_t ld = 0;
};

bool getMatrixLayout(const ParamInfo &param, MatrixLayout &layout,
                     std::string &reason) {
  // A dimension of extent 1 never uses its stride.
  if ((param.colStride == 1 || param.cols == 1) &&
      (param.rows == 1 || param.rowStride >= param.cols)) {
    layout.rowMajor = true;
    layout.ld = param.rows == 1 ? param.cols : param.rowStride;
    return true;
  }
  if ((param.rowStride == 1 || param.rows == 1) &&
      (param.cols == 1 || param.colStride >= param.rows)) {
    layout.rowMajor = false;
    layout.ld = param.cols == 1 ? param.rows : param.colStride;
    return true;
  }
  reason = "param " + param.name + " (row_stride " +
           std::to_string(param.rowStride) + ", col_stride " +
           std::to_string(param.colStride) +
           ") is neither row- nor column-major";
  return false;
}
} // namespace

namespace {
std::vector<std::string> splitWords(const std::string &text) {
  std::vector<std::string> words;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find(' ', begin);
    if (end == std::string::npos)
      end = text.size();
    if (end > begin)
      words.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return words;
}

bool isZeroConstant(const std::string &word) {
  if (word.empty() || word[0] == 'p' || word[0] == 's' || word == "acc")
    return false;
  char *end = nullptr;
  double value = std::strtod(word.c_str(), &end);
  return end && *end == '\0' && value == 0.0;
}

/// `words` is "<op> <x> <y>" with {x, y} = {`value`, other}, either order;
/// sets `other`.
bool binaryWith(const std::vector<std::string> &words,
                std::initializer_list<const char *> ops, const std::string &value,
                std::string &other) {
  if (words.size() != 3 ||
      std::none_of(ops.begin(), ops.end(),
                   [&](const char *op) { return words[0] == op; }))
    return false;
  if (words[1] == value)
    other = words[2];
  else if (words[2] == value)
    other = words[1];
  else
    return false;
  return true;
}
} // namespace

double tile::run::geluTanh(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

namespace {
/// The accumulators a program is evaluated at to tell GELU: 41 points
/// over [-6, 6], 0, +-1e-3 (where GELU is about x/2) and +-20 (where it
/// is x or 0).
std::vector<double> getGeluSamples() {
  std::vector<double> samples;
  for (int i = 0; i <= 40; ++i)
    samples.push_back(-6.0 + 0.3 * i);
  for (double x : {0.0, 1e-3, -1e-3, 20.0, -20.0})
    samples.push_back(x);
  return samples;
}

std::string formatNumber(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.9g", value);
  return buffer;
}

/// Whether `steps` computes geluTanh(acc + p) at every sample accumulator,
/// where p is operands[bias] (0 when `bias` < 0; `operands` may then be
/// null), within a relative 1e-5 of max(|GELU|, 1e-6). Otherwise sets
/// `mismatch` to the sample that differs most (a NaN first).
bool agreesWithGelu(const std::vector<tile::runtime::EpilogueStep> &steps,
                    const double *operands, int bias, std::string &mismatch) {
  double p = bias >= 0 ? operands[bias] : 0.0;
  bool agrees = true;
  double worst = -1, worstAcc = 0, worstValue = 0, worstExpected = 0;
  for (double acc : getGeluSamples()) {
    double magnitude = 0;
    double value =
        tile::runtime::evalEpilogue(steps, acc, 0.0, operands, magnitude);
    double expected = geluTanh(acc + p);
    double scale = std::max(std::fabs(expected), 1e-6);
    double difference = std::fabs(value - expected);
    // A NaN fails the comparison: it differs.
    if (difference <= 1e-5 * scale)
      continue;
    if (std::isnan(difference))
      difference = HUGE_VAL;
    if (agrees || difference > worst) {
      worst = difference;
      worstAcc = acc;
      worstValue = value;
      worstExpected = expected;
    }
    agrees = false;
  }
  if (agrees)
    return true;
  std::string operand = "p" + std::to_string(bias);
  mismatch = "at acc = " + formatNumber(worstAcc);
  if (bias >= 0)
    mismatch += ", " + operand + " = " + formatNumber(p);
  mismatch += " it gives " + formatNumber(worstValue) + " where GELU(" +
              (bias >= 0 ? "acc + " + operand : std::string("acc")) + ") is " +
              formatNumber(worstExpected);
  return false;
}
/// The general form of matchLtEpilogue (TileRun.h): act(alpha * acc +
/// beta * R + bias), read off the program's values and checked at samples.
bool matchAffineLtEpilogue(const tile::runtime::EpilogueInfo &epilogue,
                           LtEpilogue &result) {
  std::vector<tile::runtime::EpilogueStep> steps;
  std::string error;
  if (!tile::runtime::parseEpilogueSteps(
          epilogue.steps, epilogue.operands.size(), steps, error))
    return false;
  int residual = -1, bias = -1;
  for (size_t j = 0; j < epilogue.operands.size(); ++j) {
    bool full =
        epilogue.operands[j].kind == tile::runtime::EpilogueOperandKind::Full;
    int &slot = full ? residual : bias;
    if (slot >= 0)
      return false; // two full-size operands, or two vectors
    slot = static_cast<int>(j);
  }
  std::vector<double> operands(epilogue.operands.size(), 0.0);
  auto value = [&](double acc, double r, double b) {
    if (residual >= 0)
      operands[residual] = r;
    if (bias >= 0)
      operands[bias] = b;
    double magnitude = 0;
    return tile::runtime::evalEpilogue(steps, acc, 0.0, operands.data(),
                                       magnitude);
  };
  enum Act { None, Relu, Gelu };
  for (Act act : {None, Relu, Gelu}) {
    auto apply = [&](double x) {
      return act == None ? x : act == Relu ? std::max(x, 0.0) : geluTanh(x);
    };
    // act(c * P) - act(-c * P) is c * P for ReLU and GELU at P = 1000
    // (GELU(-1000 |c|) is 0 to double precision for |c| above 0.01), and
    // 2 c P for none.
    const double probe = 1000.0;
    double span = act == None ? 2 * probe : probe;
    auto coefficient = [&](int input) {
      double at[3] = {0, 0, 0};
      at[input] = probe;
      double plus = value(at[0], at[1], at[2]);
      at[input] = -probe;
      double minus = value(at[0], at[1], at[2]);
      return (plus - minus) / span;
    };
    double alpha = coefficient(0);
    double beta = residual >= 0 ? coefficient(1) : 0.0;
    double biasScale = bias >= 0 ? coefficient(2) : 1.0;
    // (A program that does not use acc, or an operand, is not a matmul
    // cuBLASLt runs: alpha 0 could skip the product.)
    if (!std::isfinite(alpha) || !std::isfinite(beta) || alpha == 0 ||
        std::fabs(biasScale - 1.0) > 1e-5 || (residual >= 0 && beta == 0))
      continue;
    bool agrees = true;
    for (double acc : getGeluSamples())
      for (double r : {-1.5, 0.0, 0.7})
        for (double b : {-1.5, 0.0, 0.7}) {
          // (An operand the program lacks stays 0.)
          if ((residual < 0 && r != 0) || (bias < 0 && b != 0))
            continue;
          double expected = apply(alpha * acc + beta * r + b);
          double got = value(acc, r, b);
          // A NaN fails the comparison.
          if (!(std::fabs(got - expected) <=
                1e-5 * std::max(std::fabs(expected), 1e-6)))
            agrees = false;
        }
    if (!agrees)
      continue;
    static constexpr LtEpilogue::Kind kinds[3][2] = {
        {LtEpilogue::Default, LtEpilogue::Bias},
        {LtEpilogue::Relu, LtEpilogue::BiasRelu},
        {LtEpilogue::Gelu, LtEpilogue::BiasGelu}};
    result.kind = kinds[act][bias >= 0];
    result.biasOperand = bias;
    result.residualOperand = residual;
    result.alpha = alpha;
    result.beta = beta;
    return true;
  }
  return false;
}
} // namespace

bool tile::run::matchLtEpilogue(const runtime::EpilogueInfo &epilogue,
                                LtEpilogue &result, std::string &reason) {
  auto fail = [&](const std::string &why) {
    reason = "no cuBLASLt epilogue computes " + why;
    return false;
  };
  result.alpha = 1;
  result.beta = 0;
  result.residualOperand = -1;
  std::vector<std::vector<std::string>> steps;
  for (const std::string &step : epilogue.steps)
    steps.push_back(splitWords(step));
  auto isRelu = [&](const std::vector<std::string> &words,
                    const std::string &value) {
    std::string other;
    return binaryWith(words, {"maximumf", "maxnumf"}, value, other) &&
           isZeroConstant(other);
  };
  auto biasOperand = [&](const std::vector<std::string> &words) {
    std::string other;
    if (!binaryWith(words, {"addf"}, "acc", other) || other.size() < 2 ||
        other[0] != 'p')
      return -1;
    char *end = nullptr;
    long index = std::strtol(other.c_str() + 1, &end, 10);
    if (!end || *end != '\0' || index < 0 ||
        index >= static_cast<long>(epilogue.operands.size()) ||
        epilogue.operands[index].kind == runtime::EpilogueOperandKind::Full)
      return -1;
    return static_cast<int>(index);
  };
  // GELU by value: the program evaluated at sample accumulators (and bias
  // values) against geluTanh, so that any equal order of its steps
  // matches. `geluMismatch` says why a program with tanh is not GELU.
  std::string geluMismatch;
  auto isGelu = [&](int bias) {
    std::vector<runtime::EpilogueStep> parsed;
    if (!runtime::parseEpilogueSteps(epilogue.steps, epilogue.operands.size(),
                                     parsed, geluMismatch))
      return false;
    if (bias < 0)
      return agreesWithGelu(parsed, nullptr, -1, geluMismatch);
    std::vector<double> operands(epilogue.operands.size(), 0.0);
    for (double p : {-2.0, 0.5, 3.0}) {
      operands[bias] = p;
      if (!agreesWithGelu(parsed, operands.data(), bias, geluMismatch))
        return false;
    }
    return true;
  };
  if (steps.size() == 1 && isRelu(steps[0], "acc")) {
    result.kind = LtEpilogue::Relu;
    result.biasOperand = -1;
  } else if (steps.size() == 1 && biasOperand(steps[0]) >= 0) {
    result.kind = LtEpilogue::Bias;
    result.biasOperand = biasOperand(steps[0]);
  } else if (steps.size() == 2 && biasOperand(steps[0]) >= 0 &&
             isRelu(steps[1], "s0")) {
    result.kind = LtEpilogue::BiasRelu;
    result.biasOperand = biasOperand(steps[0]);
  } else if (!steps.empty() && epilogue.operands.empty() && isGelu(-1)) {
    result.kind = LtEpilogue::Gelu;
    result.biasOperand = -1;
  } else if (!steps.empty() && epilogue.operands.size() == 1 &&
             biasOperand(steps[0]) >= 0 && isGelu(biasOperand(steps[0]))) {
    result.kind = LtEpilogue::BiasGelu;
    result.biasOperand = biasOperand(steps[0]);
  } else if (matchAffineLtEpilogue(epilogue, result)) {
    return true;
  } else {
    std::string program;
    for (const std::string &step : epilogue.steps)
      program += (program.empty() ? "" : "; ") + step;
    bool hasTanh = std::any_of(steps.begin(), steps.end(), [](auto &words) {
      return !words.empty() && words[0] == "tanh";
    });
    std::string why = "'" + program +
                      "' (only act(alpha * acc + beta * R + bias): act none, "
                      "ReLU or GELU in its tanh form, R one full-size "
                      "operand, the bias one per row or column)";
    if (hasTanh && !geluMismatch.empty())
      why += ": not GELU, " + geluMismatch;
    return fail(why);
  }
  if (epilogue.operands.size() != (result.biasOperand >= 0 ? 1u : 0u))
    return fail("a program with operands it does not use");
  return true;
}

bool tile::run::planColumnMajorGemm(const KernelManifest &manifest,
                                    GemmPlan &plan, std::string &reason) {
  const ParamInfo *a = findParam(manifest, ParamRole::Lhs);
  const ParamInfo *b = findParam(manifest, ParamRole::Rhs);
  const ParamInfo *c = findParam(manifest, ParamRole::Result);
  if (!a || !b || !c) {
    reason = "the manifest lacks a lhs, rhs or result param";
    return false;
  }
  MatrixLayout la, lb, lc;
  if (!getMatrixLayout(*a, la, reason) || !getMatrixLayout(*b, lb, reason) ||
      !getMatrixLayout(*c, lc, reason))
    return false;
  const auto &problem = manifest.problem;
  GemmPlan result;
  result.k = problem.k;
  result.ldResult = lc.ld;
  if (lc.rowMajor) {
    // Row-major C is column-major C^T = B^T * A^T.
    result.m = problem.n;
    result.n = problem.m;
    result.first = ParamRole::Rhs;
    result.second = ParamRole::Lhs;
    // Row-major B read column-major is B^T already; column-major B is B.
    result.transFirst = !lb.rowMajor;
    result.ldFirst = lb.ld;
    result.transSecond = !la.rowMajor;
    result.ldSecond = la.ld;
  } else {
    result.m = problem.m;
    result.n = problem.n;
    result.first = ParamRole::Lhs;
    result.second = ParamRole::Rhs;
    result.transFirst = la.rowMajor;
    result.ldFirst = la.ld;
    result.transSecond = lb.rowMajor;
    result.ldSecond = lb.ld;
  }
  for (int64_t value : {result.m, result.n, result.k, result.ldFirst,
                        result.ldSecond, result.ldResult})
    if (value > INT_MAX) {
      reason = "a size or leading dimension exceeds cuBLAS's 32-bit int";
      return false;
    }
  // A batched kernel: the strided batched GEMM, each operand's matrices
  // its param's batch_stride apart.
  result.batch = problem.batch;
  if (result.batch > 1) {
    const ParamInfo *first = result.first == ParamRole::Lhs ? a : b;
    const ParamInfo *second = result.second == ParamRole::Lhs ? a : b;
    result.strideFirst = first->batchStride;
    result.strideSecond = second->batchStride;
    result.strideResult = c->batchStride;
    if (result.batch > INT_MAX) {
      reason = "the batch exceeds cuBLAS's 32-bit int";
      return false;
    }
  }
  plan = result;
  return true;
}

double tile::run::median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  if (values.size() % 2 == 1)
    return values[middle];
  return (values[middle - 1] + values[middle]) / 2;
}

static bool isDigitChar(char c) { return c >= '0' && c <= '9'; }

bool tile::run::naturalLess(const std::string &lhs, const std::string &rhs) {
  size_t i = 0, j = 0;
  while (i < lhs.size() && j < rhs.size()) {
    if (isDigitChar(lhs[i]) && isDigitChar(rhs[j])) {
      size_t iEnd = i, jEnd = j;
      while (iEnd < lhs.size() && isDigitChar(lhs[iEnd]))
        ++iEnd;
      while (jEnd < rhs.size() && isDigitChar(rhs[jEnd]))
        ++jEnd;
      // Compare as numbers: skip leading zeros, then length, then digits.
      size_t iStart = i, jStart = j;
      while (iStart + 1 < iEnd && lhs[iStart] == '0')
        ++iStart;
      while (jStart + 1 < jEnd && rhs[jStart] == '0')
        ++jStart;
      size_t iLength = iEnd - iStart, jLength = jEnd - jStart;
      if (iLength != jLength)
        return iLength < jLength;
      int order = lhs.compare(iStart, iLength, rhs, jStart, jLength);
      if (order != 0)
        return order < 0;
      i = iEnd;
      j = jEnd;
      continue;
    }
    if (lhs[i] != rhs[j])
      return static_cast<unsigned char>(lhs[i]) <
             static_cast<unsigned char>(rhs[j]);
    ++i;
    ++j;
  }
  if ((lhs.size() - i) != (rhs.size() - j))
    return lhs.size() - i < rhs.size() - j;
  return lhs < rhs;
}

bool tile::run::expandArtifactPaths(const std::vector<std::string> &paths,
                                    std::vector<std::string> &manifests,
                                    std::string &error) {
  std::vector<std::string> result;
  for (const std::string &path : paths) {
    struct stat info;
    if (stat(path.c_str(), &info) != 0) {
      error = "'" + path + "': " + std::strerror(errno);
      return false;
    }
    if (!S_ISDIR(info.st_mode)) {
      result.push_back(path);
      continue;
    }
    DIR *dir = opendir(path.c_str());
    if (!dir) {
      error = "'" + path + "': " + std::strerror(errno);
      return false;
    }
    std::vector<std::string> names;
    while (struct dirent *entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
        names.push_back(name);
    }
    closedir(dir);
    if (names.empty()) {
      error = "folder '" + path + "' holds no *.json manifest";
      return false;
    }
    std::sort(names.begin(), names.end(), naturalLess);
    std::string prefix = path.back() == '/' ? path : path + "/";
    for (const std::string &name : names)
      result.push_back(prefix + name);
  }
  manifests = std::move(result);
  return true;
}

double tile::run::getTflops(int64_t batch, int64_t m, int64_t n, int64_t k,
                            double milliseconds) {
  if (!(milliseconds > 0))
    return 0;
  return 2.0 * static_cast<double>(batch) * static_cast<double>(m) *
         static_cast<double>(n) * static_cast<double>(k) /
         (milliseconds * 1e-3) / 1e12;
}

bool tile::run::applyEpilogueReference(
    const runtime::EpilogueInfo &epilogue,
    const std::vector<std::vector<float>> &operands,
    const std::vector<bool> &perBatch, int64_t batch, int64_t m, int64_t n,
    Reference &reference, std::string &error) {
  std::vector<runtime::EpilogueStep> steps;
  if (!runtime::parseEpilogueSteps(epilogue.steps, epilogue.operands.size(),
                                   steps, error))
    return false;
  size_t count = epilogue.operands.size();
  if (operands.size() != count) {
    error = std::to_string(operands.size()) + " operands for an epilogue of " +
            std::to_string(count);
    return false;
  }
  if (!perBatch.empty() && perBatch.size() != count) {
    error = std::to_string(perBatch.size()) +
            " per-batch flags for an epilogue of " + std::to_string(count);
    return false;
  }
  if (reference.value.size() != static_cast<size_t>(batch * m * n) ||
      reference.magnitude.size() != reference.value.size()) {
    error = "the reference has " + std::to_string(reference.value.size()) +
            " values, not " + std::to_string(batch * m * n);
    return false;
  }
  // Per operand: its rows and columns, and the values between its
  // matrices (0 when one is shared).
  std::vector<int64_t> rows(count), cols(count), strides(count);
  for (size_t j = 0; j < count; ++j) {
    runtime::EpilogueOperandKind kind = epilogue.operands[j].kind;
    rows[j] = kind == runtime::EpilogueOperandKind::Col ? 1 : m;
    cols[j] = kind == runtime::EpilogueOperandKind::Row ? 1 : n;
    bool each = !perBatch.empty() && perBatch[j];
    strides[j] = each ? rows[j] * cols[j] : 0;
    int64_t values = (each ? batch : 1) * rows[j] * cols[j];
    if (operands[j].size() != static_cast<size_t>(values)) {
      error = "epilogue operand " + std::to_string(j) + " has " +
              std::to_string(operands[j].size()) + " values, not " +
              std::to_string(values);
      return false;
    }
  }
  std::vector<double> at(count);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        for (size_t e = 0; e < count; ++e)
          at[e] = operands[e][b * strides[e] +
                              (rows[e] == 1 ? 0 : i) * cols[e] +
                              (cols[e] == 1 ? 0 : j)];
        size_t index = static_cast<size_t>((b * m + i) * n + j);
        double magnitude = 0;
        reference.value[index] =
            runtime::evalEpilogue(steps, reference.value[index],
                                  reference.magnitude[index], at.data(),
                                  magnitude);
        reference.magnitude[index] = magnitude;
      }
  return true;
}

//===----------------------------------------------------------------------===//
// The elementwise epilogue kernel of the bench's GEMM baseline
//===----------------------------------------------------------------------===//

namespace {
/// An f32 constant as a CUDA C literal that reads back as exactly that
/// float: 9 significant digits, a decimal point or exponent, the f suffix;
/// a negative one in parentheses. A number beyond f32's range (a manifest
/// may write 1e39, which its f32 rounding makes infinite, as the fused
/// kernel's constant is) is an infinity from its bits: CUDA C has no literal
/// for one.
std::string formatFloatLiteral(double value) {
  const float rounded = static_cast<float>(value);
  if (std::isinf(rounded))
    return rounded > 0 ? "__uint_as_float(0x7f800000u)"
                       : "__uint_as_float(0xff800000u)";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.9g",
                static_cast<double>(rounded));
  std::string text = buffer;
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  text += "f";
  return text[0] == '-' ? "(" + text + ")" : text;
}

/// The CUDA C type a buffer of `type` is read through (16-bit types as
/// their bits).
const char *getStorageType(tile::runtime::ElementType type) {
  return type == tile::runtime::ElementType::F32 ? "float" : "unsigned short";
}

/// `value` (an expression of the storage type) as a float.
std::string loadAsFloat(tile::runtime::ElementType type,
                        const std::string &value) {
  switch (type) {
  case tile::runtime::ElementType::BF16:
    return "tile_bf16_to_f32(" + value + ")";
  case tile::runtime::ElementType::F16:
    return "tile_f16_to_f32(" + value + ")";
  default:
    return value;
  }
}

/// The float expression `value` rounded to `type`'s storage.
std::string storeAs(tile::runtime::ElementType type, const std::string &value) {
  switch (type) {
  case tile::runtime::ElementType::BF16:
    return "tile_f32_to_bf16(" + value + ")";
  case tile::runtime::ElementType::F16:
    return "tile_f32_to_f16(" + value + ")";
  default:
    return value;
  }
}

/// `term * stride` as an index expression ("" for a stride of 0).
std::string scaled(const char *term, int64_t stride, const char *suffix) {
  if (stride == 0)
    return "";
  return std::string(term) + " * " + std::to_string(stride) + suffix;
}

std::string joinTerms(const std::vector<std::string> &terms) {
  std::string sum;
  for (const std::string &term : terms)
    if (!term.empty())
      sum += (sum.empty() ? "" : " + ") + term;
  return sum.empty() ? "0" : sum;
}

/// One step's value as a CUDA C float expression of its args.
std::string stepExpression(const tile::runtime::EpilogueStep &step) {
  std::vector<std::string> args;
  for (const tile::runtime::EpilogueArg &arg : step.args) {
    switch (arg.kind) {
    case tile::runtime::EpilogueArg::Acc:
      args.push_back("acc");
      break;
    case tile::runtime::EpilogueArg::Operand:
      args.push_back("v" + std::to_string(arg.index));
      break;
    case tile::runtime::EpilogueArg::Step:
      args.push_back("s" + std::to_string(arg.index));
      break;
    case tile::runtime::EpilogueArg::Constant:
      args.push_back(formatFloatLiteral(arg.constant));
      break;
    }
  }
  const std::string &op = step.op;
  if (op == "negf")
    return "-" + args[0];
  if (op == "tanh")
    return "tanhf(" + args[0] + ")";
  static const std::pair<const char *, const char *> infix[] = {
      {"addf", " + "}, {"subf", " - "}, {"mulf", " * "}, {"divf", " / "}};
  for (const auto &[name, symbol] : infix)
    if (op == name)
      return args[0] + symbol + args[1];
  static const std::pair<const char *, const char *> calls[] = {
      {"maximumf", "tile_maximumf"},
      {"minimumf", "tile_minimumf"},
      {"maxnumf", "fmaxf"},
      {"minnumf", "fminf"}};
  for (const auto &[name, function] : calls)
    if (op == name)
      return std::string(function) + "(" + args[0] + ", " + args[1] + ")";
  return "";
}
} // namespace

bool tile::run::generateEpilogueKernel(const KernelManifest &manifest,
                                       EpilogueKernelSource &kernel,
                                       std::string &error) {
  using runtime::ElementType;
  using runtime::EpilogueOperandKind;
  const runtime::EpilogueInfo &epilogue = manifest.epilogue;
  if (epilogue.empty()) {
    error = "the kernel has no fused epilogue";
    return false;
  }
  std::vector<runtime::EpilogueStep> steps;
  if (!runtime::parseEpilogueSteps(epilogue.steps, epilogue.operands.size(),
                                   steps, error))
    return false;
  const runtime::ProblemInfo &problem = manifest.problem;
  const int64_t m = problem.m, n = problem.n, batch = problem.batch;
  kernel = EpilogueKernelSource();
  const ParamInfo *c = findParam(manifest, ParamRole::Result);
  if (!c) {
    error = "no result param";
    return false;
  }
  kernel.params.push_back(runtime::findParamIndex(manifest, c->name));
  auto supported = [&](const ParamInfo &param) {
    if (param.elementType == ElementType::F32 ||
        param.elementType == ElementType::BF16 ||
        param.elementType == ElementType::F16)
      return true;
    error = "param " + param.name + " has element type " +
            std::string(runtime::stringifyElementType(param.elementType));
    return false;
  };
  if (!supported(*c))
    return false;
  if (c->rows != m || c->cols != n) {
    error = "C is " + std::to_string(c->rows) + "x" + std::to_string(c->cols) +
            ", not " + std::to_string(m) + "x" + std::to_string(n);
    return false;
  }
  std::vector<const ParamInfo *> operands;
  for (size_t j = 0; j < epilogue.operands.size(); ++j) {
    const runtime::EpilogueOperand &operand = epilogue.operands[j];
    int index = runtime::findParamIndex(manifest, operand.param);
    if (index < 0) {
      error = "no param " + operand.param + " for epilogue operand p" +
              std::to_string(j);
      return false;
    }
    const ParamInfo &param = manifest.params[index];
    if (!supported(param))
      return false;
    int64_t rows = operand.kind == EpilogueOperandKind::Col ? 1 : m;
    int64_t cols = operand.kind == EpilogueOperandKind::Row ? 1 : n;
    if (param.rows != rows || param.cols != cols) {
      error = "epilogue operand p" + std::to_string(j) + " (" + param.name +
              ", " +
              std::string(runtime::stringifyEpilogueOperandKind(operand.kind)) +
              ") is " + std::to_string(param.rows) + "x" +
              std::to_string(param.cols) + ", not " + std::to_string(rows) +
              "x" + std::to_string(cols);
      return false;
    }
    kernel.params.push_back(index);
    operands.push_back(&param);
  }
  kernel.elements = static_cast<uint64_t>(batch * m * n);

  // 32-bit indices when the loop index (below twice the elements plus a
  // block: e + stride) and every param's largest index fit.
  bool wide = 2 * kernel.elements + kernel.blockThreads >= (uint64_t(1) << 32);
  for (int index : kernel.params) {
    uint64_t required = 0;
    if (!runtime::getRequiredElements(manifest.params[index], batch,
                                      required) ||
        required >= (uint64_t(1) << 32))
      wide = true;
  }
  const char *suffix = wide ? "ull" : "u";
  auto constant = [&](int64_t value) { return std::to_string(value) + suffix; };

  bool usesBf16 = false, usesF16 = false, usesMaximum = false,
       usesMinimum = false;
  auto noteType = [&](ElementType type) {
    usesBf16 |= type == ElementType::BF16;
    usesF16 |= type == ElementType::F16;
  };
  noteType(c->elementType);
  std::vector<bool> used(operands.size(), false);
  for (const runtime::EpilogueStep &step : steps) {
    usesMaximum |= step.op == "maximumf";
    usesMinimum |= step.op == "minimumf";
    for (const runtime::EpilogueArg &arg : step.args)
      if (arg.kind == runtime::EpilogueArg::Operand)
        used[arg.index] = true;
  }
  for (size_t j = 0; j < operands.size(); ++j)
    if (used[j])
      noteType(operands[j]->elementType);

  // C's contiguous dimension is the loop's fastest: its rows when
  // row_stride is the smaller stride (column-major, or one column), else its
  // columns.
  bool rowsInner = n == 1 || (m > 1 && c->rowStride < c->colStride);
  auto describeParam = [&](const ParamInfo &param) {
    std::string text =
        "\"" + param.name + "\" " +
        std::string(runtime::stringifyElementType(param.elementType)) + ", " +
        std::to_string(param.rows) + "x" + std::to_string(param.cols) +
        ", row_stride " + std::to_string(param.rowStride) + ", col_stride " +
        std::to_string(param.colStride);
    if (batch > 1)
      text += param.batchStride > 0
                  ? ", batch_stride " + std::to_string(param.batchStride)
                  : std::string(", one for every matrix");
    return text;
  };

  std::string s;
  s += "// tile-run bench: the fused epilogue of \"" + manifest.kernel +
       "\" as a separate\n"
       "// elementwise kernel, run after cuBLAS has written C = A*B (c_init "
       "fill) or\n"
       "// C0 + A*B (accumulate). Generated from the manifest; compile with "
       "--fmad=false.\n";
  s += "//   C  " + describeParam(*c) + "\n";
  for (size_t j = 0; j < operands.size(); ++j)
    s += "//   p" + std::to_string(j) + " " +
         std::string(
             runtime::stringifyEpilogueOperandKind(epilogue.operands[j].kind)) +
         " " + describeParam(*operands[j]) + "\n";
  s += "//   steps:";
  for (size_t i = 0; i < epilogue.steps.size(); ++i)
    s += (i ? " | " : " ") + epilogue.steps[i];
  s += "\n// Every step in f32; C read as f32 and rounded once to its type on "
       "the store.\n\n";
  s += std::string("typedef ") +
       (wide ? "unsigned long long" : "unsigned int") + " tile_index;\n";
  if (usesBf16)
    s += "\n"
         "static __device__ __forceinline__ float tile_bf16_to_f32(unsigned "
         "short h) {\n"
         "  return __uint_as_float(((unsigned int)h) << 16);\n"
         "}\n"
         "// Round to nearest even; a NaN stays a (quiet) NaN.\n"
         "static __device__ __forceinline__ unsigned short "
         "tile_f32_to_bf16(float f) {\n"
         "  unsigned int u = __float_as_uint(f);\n"
         "  if ((u & 0x7fffffffu) > 0x7f800000u)\n"
         "    return (unsigned short)((u >> 16) | 0x0040u);\n"
         "  return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);\n"
         "}\n";
  if (usesF16)
    s += "\n"
         "#ifdef __CUDA_ARCH__\n"
         "static __device__ __forceinline__ float tile_f16_to_f32(unsigned "
         "short h) {\n"
         "  float f;\n"
         "  asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h));\n"
         "  return f;\n"
         "}\n"
         "// Round to nearest even.\n"
         "static __device__ __forceinline__ unsigned short "
         "tile_f32_to_f16(float f) {\n"
         "  unsigned short h;\n"
         "  asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f));\n"
         "  return h;\n"
         "}\n"
         "#endif\n";
  if (usesMaximum)
    s += "\n"
         "// arith.maximumf: NaN when either is NaN, -0 below +0.\n"
         "static __device__ __forceinline__ float tile_maximumf(float a, "
         "float b) {\n"
         "  if (a != a || b != b)\n"
         "    return a + b;\n"
         "  if (a == b)\n"
         "    return __uint_as_float(__float_as_uint(a) & "
         "__float_as_uint(b));\n"
         "  return a > b ? a : b;\n"
         "}\n";
  if (usesMinimum)
    s += "\n"
         "// arith.minimumf: NaN when either is NaN, -0 below +0.\n"
         "static __device__ __forceinline__ float tile_minimumf(float a, "
         "float b) {\n"
         "  if (a != a || b != b)\n"
         "    return a + b;\n"
         "  if (a == b)\n"
         "    return __uint_as_float(__float_as_uint(a) | "
         "__float_as_uint(b));\n"
         "  return a < b ? a : b;\n"
         "}\n";

  s += "\nextern \"C\" __global__ void __launch_bounds__(" +
       std::to_string(kernel.blockThreads) + ")\n" + kernel.name + "(" +
       getStorageType(c->elementType) + " *__restrict__ c";
  for (size_t j = 0; j < operands.size(); ++j)
    s += std::string(", const ") + getStorageType(operands[j]->elementType) +
         " *__restrict__ p" + std::to_string(j);
  s += ") {\n";
  s += "  const tile_index total = " + constant(batch * m * n) + ";\n";
  s += "  const tile_index stride = (tile_index)gridDim.x * blockDim.x;\n";
  s += "  for (tile_index e = (tile_index)blockIdx.x * blockDim.x + "
       "threadIdx.x; e < total;\n       e += stride) {\n";
  const int64_t inner = rowsInner ? m : n, outer = rowsInner ? n : m;
  const char *innerName = rowsInner ? "i" : "j";
  const char *outerName = rowsInner ? "j" : "i";
  s += std::string("    // Consecutive threads along C's ") +
       (rowsInner ? "columns (column-major C)" : "rows (row-major C)") + ".\n";
  s += std::string("    const tile_index ") + innerName + " = e % " +
       constant(inner) + ";\n";
  if (batch > 1) {
    s += std::string("    const tile_index ") + outerName + " = e / " +
         constant(inner) + " % " + constant(outer) + ";\n";
    s += "    const tile_index b = e / " + constant(m * n) + ";\n";
  } else {
    s += std::string("    const tile_index ") + outerName + " = e / " +
         constant(inner) + ";\n";
  }
  auto batchTerm = [&](const ParamInfo &param) {
    return batch > 1 ? scaled("b", param.batchStride, suffix) : std::string();
  };
  s += "    const tile_index at = " +
       joinTerms({batchTerm(*c), scaled("i", c->rowStride, suffix),
                  scaled("j", c->colStride, suffix)}) +
       ";\n";
  std::string accumulator = loadAsFloat(c->elementType, "c[at]");
  if (problem.cInit == runtime::CInit::Fill && problem.cFillValue != 0)
    accumulator += " + " + formatFloatLiteral(problem.cFillValue);
  s += "    const float acc = " + accumulator + ";\n";
  for (size_t j = 0; j < operands.size(); ++j) {
    if (!used[j])
      continue;
    const ParamInfo &param = *operands[j];
    std::vector<std::string> terms = {batchTerm(param)};
    EpilogueOperandKind kind = epilogue.operands[j].kind;
    if (kind != EpilogueOperandKind::Col)
      terms.push_back(scaled("i", param.rowStride, suffix));
    if (kind != EpilogueOperandKind::Row)
      terms.push_back(scaled("j", param.colStride, suffix));
    std::string name = "p" + std::to_string(j);
    s += "    const float v" + std::to_string(j) + " = " +
         loadAsFloat(param.elementType, name + "[" + joinTerms(terms) + "]") +
         ";\n";
  }
  for (size_t i = 0; i < steps.size(); ++i)
    s += "    const float s" + std::to_string(i) + " = " +
         stepExpression(steps[i]) + "; // " + epilogue.steps[i] + "\n";
  std::string result =
      steps.empty() ? "acc" : "s" + std::to_string(steps.size() - 1);
  s += "    c[at] = " + storeAs(c->elementType, result) + ";\n";
  s += "  }\n}\n";
  kernel.source = std::move(s);
  return true;
}

tile::run::BaselineDifference
tile::run::compareWithKernel(const std::vector<float> &ours,
                             const std::vector<float> &theirs) {
  BaselineDifference result;
  double difference = 0, norm = 0;
  size_t count = std::min(ours.size(), theirs.size());
  for (size_t i = 0; i < count; ++i) {
    double delta = static_cast<double>(theirs[i]) - ours[i];
    difference += delta * delta;
    norm += static_cast<double>(ours[i]) * ours[i];
    // (NaN != NaN: a NaN counts as differing.)
    result.differing += !(theirs[i] == ours[i]);
  }
  result.oursNorm = std::sqrt(norm);
  result.relative =
      difference == 0 ? 0.0 : std::sqrt(difference / std::max(norm, 1e-300));
  if (ours.size() != theirs.size())
    result.relative = NAN;
  return result;
}
