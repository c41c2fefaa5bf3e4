//===- EpilogueKernelTest.cpp - The bench's elementwise epilogue kernel ---===//
//
// generateEpilogueKernel (tools/TileRun.h) writes the CUDA C kernel that
// bench runs after cuBLAS's GEMM for a fused epilogue cuBLASLt does not
// have. Without a GPU: its text (each step kind, operand indices, the
// broadcast dimension of bias vectors, layouts and strides, C's rounding,
// the loop's order), and what it computes, built for the host by the host's
// C++ compiler (FakeHostKernel.h) and run on buffers laid out as the
// manifest says, against runtime::evalEpilogue (the reference verify uses).
// Where a real NVRTC is installed (it needs no GPU), that it compiles each
// kind of source for sm_90, cubin and PTX.
//
//===----------------------------------------------------------------------===//

#include "FakeHostKernel.h"
#include "GpuLibraries.h"
#include "HalfPrecision.h"
#include "TestUtils.h"
#include "TileRun.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

using namespace tile::run;
using namespace tile::runtime;
using namespace tile::test;

// NvrtcTest compiles with the installed NVRTC in this process; NVRTC keeps
// an allocation of its own until exit, which LeakSanitizer (the sanitizer
// build, scripts/test.sh) would report as this binary's leak.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libnvrtc\n";
}

namespace {

struct OperandSpec {
  EpilogueOperandKind kind;
  ElementType type = ElementType::F32;
  /// 0: dense (row-major for a full operand).
  int64_t rowStride = 0, colStride = 0, batchStride = 0, offset = 0;
};

/// An m x n kernel (k 8) with C of `cType` at the given layout and an
/// epilogue of `steps` over `operands` (params E0, E1, ... after C).
KernelManifest makeEpilogueManifest(int64_t m, int64_t n, ElementType cType,
                                    int64_t cRowStride, int64_t cColStride,
                                    const std::vector<std::string> &steps,
                                    const std::vector<OperandSpec> &operands,
                                    int64_t batch = 1, int64_t cOffset = 0) {
  KernelManifest manifest = makeExampleManifest();
  manifest.kernel = "epilogue_test";
  manifest.problem.m = m;
  manifest.problem.n = n;
  manifest.problem.k = 8;
  manifest.problem.batch = batch;
  manifest.problem.cInit = CInit::Fill;
  ParamInfo &a = manifest.params[0], &b = manifest.params[1],
            &c = manifest.params[2];
  a.rows = m, a.cols = 8, a.rowStride = 8, a.colStride = 1;
  b.rows = 8, b.cols = n, b.rowStride = n, b.colStride = 1;
  c.rows = m, c.cols = n, c.rowStride = cRowStride, c.colStride = cColStride;
  c.elementType = cType;
  c.offset = cOffset;
  if (batch > 1) {
    a.batchStride = m * 8;
    b.batchStride = 8 * n;
    uint64_t elements = 0;
    getRequiredElements(c, 1, elements);
    c.batchStride = static_cast<int64_t>(elements) + 5 - cOffset;
  }
  for (size_t j = 0; j < operands.size(); ++j) {
    const OperandSpec &spec = operands[j];
    ParamInfo param;
    param.name = "E" + std::to_string(j);
    param.role = ParamRole::Epilogue;
    param.elementType = spec.type;
    param.rows = spec.kind == EpilogueOperandKind::Col ? 1 : m;
    param.cols = spec.kind == EpilogueOperandKind::Row ? 1 : n;
    param.rowStride = spec.rowStride ? spec.rowStride : param.cols;
    param.colStride = spec.colStride ? spec.colStride : 1;
    param.batchStride = spec.batchStride;
    param.offset = spec.offset;
    param.alignment = 4;
    param.access = ParamAccess::Read;
    manifest.params.push_back(param);
    manifest.epilogue.operands.push_back({param.name, spec.kind});
  }
  manifest.epilogue.steps = steps;
  return manifest;
}

EpilogueKernelSource generate(const KernelManifest &manifest) {
  EpilogueKernelSource kernel;
  std::string error;
  EXPECT_TRUE(generateEpilogueKernel(manifest, kernel, error)) << error;
  return kernel;
}

/// Whether `source` has `line` as one of its lines, leading spaces aside.
bool hasLine(const std::string &source, const std::string &line) {
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos)
      end = source.size();
    size_t first = source.find_first_not_of(' ', start);
    if (first < end && source.compare(first, end - first, line) == 0)
      return true;
    start = end + 1;
  }
  return false;
}

#define EXPECT_LINE(source, line)                                              \
  EXPECT_TRUE(hasLine(source, line)) << "no line '" << (line) << "' in:\n"     \
                                     << (source)

//===----------------------------------------------------------------------===//
// The source's text
//===----------------------------------------------------------------------===//

TEST(EpilogueKernelTest, EachStepKindIsItsF32Expression) {
  KernelManifest manifest = makeEpilogueManifest(
      96, 80, ElementType::F32, 80, 1,
      {"addf acc p0", "subf s0 p1", "mulf p1 s1", "divf s2 -2", "maximumf s3 0",
       "minimumf 1.5 s4", "maxnumf s5 acc", "minnumf s6 p0", "negf s7",
       "tanh s8", "mulf 0.0447149985 s9", "addf 1 s10"},
      {{EpilogueOperandKind::Col}, {EpilogueOperandKind::Row}});
  EpilogueKernelSource kernel = generate(manifest);
  const std::string &s = kernel.source;
  EXPECT_LINE(s, "const float s0 = acc + v0; // addf acc p0");
  EXPECT_LINE(s, "const float s1 = s0 - v1; // subf s0 p1");
  EXPECT_LINE(s, "const float s2 = v1 * s1; // mulf p1 s1");
  EXPECT_LINE(s, "const float s3 = s2 / (-2.0f); // divf s2 -2");
  EXPECT_LINE(s, "const float s4 = tile_maximumf(s3, 0.0f); // maximumf s3 0");
  EXPECT_LINE(s,
              "const float s5 = tile_minimumf(1.5f, s4); // minimumf 1.5 s4");
  EXPECT_LINE(s, "const float s6 = fmaxf(s5, acc); // maxnumf s5 acc");
  EXPECT_LINE(s, "const float s7 = fminf(s6, v0); // minnumf s6 p0");
  EXPECT_LINE(s, "const float s8 = -s7; // negf s7");
  EXPECT_LINE(s, "const float s9 = tanhf(s8); // tanh s8");
  // Constants read back as exactly the f32 the manifest means.
  EXPECT_LINE(s, "const float s10 = 0.0447149985f * s9; // mulf "
                 "0.0447149985 s9");
  EXPECT_LINE(s, "const float s11 = 1.0f + s10; // addf 1 s10");
  EXPECT_EQ(std::strtof("0.0447149985", nullptr), 0.0447149985f);
  // The last step is stored; an f32 C as it is.
  EXPECT_LINE(s, "c[at] = s11;");
  EXPECT_LINE(s, "const float acc = c[at];");
  // maximumf and minimumf propagate NaN and order -0 below +0 (not fmaxf).
  EXPECT_LINE(s, "static __device__ __forceinline__ float tile_maximumf(float "
                 "a, float b) {");
  EXPECT_LINE(s, "return __uint_as_float(__float_as_uint(a) & "
                 "__float_as_uint(b));");
  EXPECT_LINE(s, "return __uint_as_float(__float_as_uint(a) | "
                 "__float_as_uint(b));");
  // An all-f32 kernel has no 16-bit conversions.
  EXPECT_EQ(s.find("tile_f32_to_bf16"), std::string::npos) << s;
  EXPECT_EQ(s.find("tile_f32_to_f16"), std::string::npos) << s;
  EXPECT_EQ(kernel.name, "tile_epilogue");
  EXPECT_EQ(kernel.elements, 96u * 80u);
  EXPECT_EQ(kernel.blockThreads, 256u);
  EXPECT_NE(s.find("extern \"C\" __global__ void __launch_bounds__(256)\n"
                   "tile_epilogue(float *__restrict__ c, const float "
                   "*__restrict__ p0, const float *__restrict__ p1) {"),
            std::string::npos)
      << s;
  // C's param, then the operands' (manifest.params indices).
  EXPECT_EQ(kernel.params, (std::vector<int>{2, 3, 4}));
}

TEST(EpilogueKernelTest, OperandsAreReadThroughTheirParamsLayout) {
  // C 96 x 80, rows 88 apart. p0 one value per row of C (96, every 2nd
  // element: row_stride 2), p1 one per column (80, col_stride 3), p2 a full
  // operand stored column-major with 100 between columns, p3 unused.
  KernelManifest manifest = makeEpilogueManifest(
      96, 80, ElementType::F32, 88, 1,
      {"addf acc p0", "mulf s0 p1", "addf s1 p2"},
      {{EpilogueOperandKind::Row, ElementType::F32, 2, 1, 0, 7},
       {EpilogueOperandKind::Col, ElementType::BF16, 80, 3},
       {EpilogueOperandKind::Full, ElementType::F16, 1, 100},
       {EpilogueOperandKind::Col}});
  EpilogueKernelSource kernel = generate(manifest);
  const std::string &s = kernel.source;
  // The row bias follows i, the column bias j; the offset is in the
  // pointer tile-run passes, not in the index.
  EXPECT_LINE(s, "const float v0 = p0[i * 2u];");
  EXPECT_LINE(s, "const float v1 = tile_bf16_to_f32(p1[j * 3u]);");
  EXPECT_LINE(s, "const float v2 = tile_f16_to_f32(p2[i * 1u + j * 100u]);");
  EXPECT_EQ(s.find("const float v3"), std::string::npos) << s;
  EXPECT_LINE(s, "const tile_index at = i * 88u + j * 1u;");
  EXPECT_NE(s.find("tile_epilogue(float *__restrict__ c, const float "
                   "*__restrict__ p0, const unsigned short *__restrict__ p1, "
                   "const unsigned short *__restrict__ p2, const float "
                   "*__restrict__ p3) {"),
            std::string::npos)
      << s;
  EXPECT_EQ(kernel.params, (std::vector<int>{2, 3, 4, 5, 6}));
  // The operands' order is the epilogue's, whatever the params' order.
  std::swap(manifest.params[3], manifest.params[5]);
  kernel = generate(manifest);
  EXPECT_EQ(kernel.params, (std::vector<int>{2, 5, 4, 3, 6}));
  EXPECT_LINE(kernel.source, "const float v0 = p0[i * 2u];");
}

TEST(EpilogueKernelTest, CRoundsOnceToItsType) {
  auto source = [](ElementType type) {
    return generate(makeEpilogueManifest(16, 8, type, 8, 1,
                                         {"maximumf acc 0", "tanh s0"}, {}))
        .source;
  };
  std::string bf16 = source(ElementType::BF16);
  EXPECT_LINE(bf16, "const float acc = tile_bf16_to_f32(c[at]);");
  EXPECT_LINE(bf16, "c[at] = tile_f32_to_bf16(s1);");
  EXPECT_NE(bf16.find("tile_epilogue(unsigned short *__restrict__ c) {"),
            std::string::npos)
      << bf16;
  // Round to nearest even, NaN kept.
  EXPECT_LINE(bf16, "return (unsigned short)((u + 0x7fffu + ((u >> 16) & "
                    "1u)) >> 16);");
  EXPECT_LINE(bf16, "return (unsigned short)((u >> 16) | 0x0040u);");
  EXPECT_EQ(bf16.find("tile_f16_to"), std::string::npos) << bf16;
  std::string f16 = source(ElementType::F16);
  EXPECT_LINE(f16, "const float acc = tile_f16_to_f32(c[at]);");
  EXPECT_LINE(f16, "c[at] = tile_f32_to_f16(s1);");
  EXPECT_LINE(f16, "asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f));");
  EXPECT_LINE(f16, "asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h));");
  EXPECT_EQ(f16.find("bf16"), std::string::npos) << f16;
  std::string f32 = source(ElementType::F32);
  EXPECT_LINE(f32, "c[at] = s1;");
  EXPECT_EQ(f32.find("f16"), std::string::npos) << f32;
}

TEST(EpilogueKernelTest, ThreadsRunAlongCsContiguousDimension) {
  // Row-major C: consecutive threads take consecutive columns.
  std::string rowMajor = generate(makeEpilogueManifest(96, 80, ElementType::F32,
                                                       80, 1, {"negf acc"}, {}))
                             .source;
  EXPECT_LINE(rowMajor, "const tile_index j = e % 80u;");
  EXPECT_LINE(rowMajor, "const tile_index i = e / 80u;");
  EXPECT_LINE(rowMajor, "const tile_index at = i * 80u + j * 1u;");
  EXPECT_LINE(rowMajor, "const tile_index total = 7680u;");
  EXPECT_LINE(rowMajor, "typedef unsigned int tile_index;");
  // A grid-stride loop.
  EXPECT_LINE(rowMajor,
              "const tile_index stride = (tile_index)gridDim.x * blockDim.x;");
  EXPECT_LINE(rowMajor, "for (tile_index e = (tile_index)blockIdx.x * "
                        "blockDim.x + threadIdx.x; e < total;");
  EXPECT_LINE(rowMajor, "e += stride) {");
  // Column-major C (columns 100 apart): consecutive rows.
  std::string columnMajor =
      generate(makeEpilogueManifest(96, 80, ElementType::F32, 1, 100,
                                    {"negf acc"}, {}))
          .source;
  EXPECT_LINE(columnMajor, "const tile_index i = e % 96u;");
  EXPECT_LINE(columnMajor, "const tile_index j = e / 96u;");
  EXPECT_LINE(columnMajor, "const tile_index at = i * 1u + j * 100u;");
  // One column: rows are what is contiguous.
  std::string column = generate(makeEpilogueManifest(96, 1, ElementType::F32, 1,
                                                     1, {"negf acc"}, {}))
                           .source;
  EXPECT_LINE(column, "const tile_index i = e % 96u;");
}

TEST(EpilogueKernelTest, BatchedKernelsCoverEveryMatrix) {
  // 3 matrices of 96 x 80 (C's 7685 apart); p0 a column bias per matrix,
  // p1 a row bias shared by all.
  KernelManifest manifest = makeEpilogueManifest(
      96, 80, ElementType::F32, 80, 1, {"addf acc p0", "addf s0 p1"},
      {{EpilogueOperandKind::Col, ElementType::F32, 0, 0, 80},
       {EpilogueOperandKind::Row}},
      3);
  EpilogueKernelSource kernel = generate(manifest);
  const std::string &s = kernel.source;
  EXPECT_EQ(kernel.elements, 3u * 96u * 80u);
  EXPECT_LINE(s, "const tile_index total = 23040u;");
  EXPECT_LINE(s, "const tile_index j = e % 80u;");
  EXPECT_LINE(s, "const tile_index i = e / 80u % 96u;");
  EXPECT_LINE(s, "const tile_index b = e / 7680u;");
  EXPECT_LINE(s, "const tile_index at = b * 7685u + i * 80u + j * 1u;");
  EXPECT_LINE(s, "const float v0 = p0[b * 80u + j * 1u];");
  EXPECT_LINE(s, "const float v1 = p1[i * 1u];");
}

TEST(EpilogueKernelTest, FillValueAndWideIndices) {
  KernelManifest manifest =
      makeEpilogueManifest(96, 80, ElementType::F32, 80, 1, {"tanh acc"}, {});
  manifest.problem.cFillValue = 0.5;
  EXPECT_LINE(generate(manifest).source, "const float acc = c[at] + 0.5f;");
  // An accumulating kernel's C0 is already in C: nothing to add.
  manifest.problem.cInit = CInit::Accumulate;
  EXPECT_LINE(generate(manifest).source, "const float acc = c[at];");
  // Over 2^31 elements: 64-bit indices.
  manifest = makeEpilogueManifest(65536, 40000, ElementType::BF16, 40000, 1,
                                  {"tanh acc"}, {});
  std::string s = generate(manifest).source;
  EXPECT_LINE(s, "typedef unsigned long long tile_index;");
  EXPECT_LINE(s, "const tile_index total = 2621440000ull;");
  EXPECT_LINE(s, "const tile_index j = e % 40000ull;");
}

TEST(EpilogueKernelTest, ConstantsBeyondF32AreInfinities) {
  // The manifest takes any finite number and rounds it to f32, as the
  // fused kernel's constant is: 1e39 is +inf, which CUDA C has no literal
  // for ("inf.0f" does not compile).
  KernelManifest manifest = makeEpilogueManifest(
      8, 8, ElementType::F32, 8, 1,
      {"minimumf acc 1e39", "maximumf s0 -1e39", "negf -1e39"}, {});
  std::string s = generate(manifest).source;
  EXPECT_LINE(s, "const float s0 = tile_minimumf(acc, "
                 "__uint_as_float(0x7f800000u)); // minimumf acc 1e39");
  EXPECT_LINE(s, "const float s1 = tile_maximumf(s0, "
                 "__uint_as_float(0xff800000u)); // maximumf s0 -1e39");
  EXPECT_LINE(s, "const float s2 = -__uint_as_float(0xff800000u); // negf "
                 "-1e39");
  EXPECT_EQ(s.find("inf"), std::string::npos) << s;
  // The largest finite f32 stays a literal.
  manifest.epilogue.steps = {"mulf acc 3.4028235e38"};
  EXPECT_LINE(generate(manifest).source,
              "const float s0 = acc * 3.40282347e+38f; // mulf acc "
              "3.4028235e38");
}

TEST(EpilogueKernelTest, RefusesWhatItCannotBuild) {
  EpilogueKernelSource kernel;
  std::string error;
  KernelManifest plain =
      makeEpilogueManifest(8, 8, ElementType::F32, 8, 1, {}, {});
  EXPECT_FALSE(generateEpilogueKernel(plain, kernel, error));
  EXPECT_EQ(error, "the kernel has no fused epilogue");
  KernelManifest bad =
      makeEpilogueManifest(8, 8, ElementType::F32, 8, 1, {"powf acc 2"}, {});
  EXPECT_FALSE(generateEpilogueKernel(bad, kernel, error));
  EXPECT_NE(error.find("unknown op 'powf'"), std::string::npos) << error;
  KernelManifest wrong =
      makeEpilogueManifest(8, 4, ElementType::F32, 4, 1, {"addf acc p0"},
                           {{EpilogueOperandKind::Row}});
  wrong.params[3].rows = 4;
  EXPECT_FALSE(generateEpilogueKernel(wrong, kernel, error));
  EXPECT_EQ(error, "epilogue operand p0 (E0, row) is 4x1, not 8x1");
  wrong.epilogue.operands[0].param = "missing";
  EXPECT_FALSE(generateEpilogueKernel(wrong, kernel, error));
  EXPECT_EQ(error, "no param missing for epilogue operand p0");
}

TEST(EpilogueKernelTest, ComparesLikeTheCublasLtCheck) {
  BaselineDifference same = compareWithKernel({1, 2, 3}, {1, 2, 3});
  EXPECT_EQ(same.relative, 0);
  EXPECT_EQ(same.differing, 0u);
  BaselineDifference zeros = compareWithKernel({0, 0}, {0, 0});
  EXPECT_EQ(zeros.relative, 0);
  EXPECT_EQ(zeros.oursNorm, 0);
  BaselineDifference off = compareWithKernel({3, 4}, {3, 4.5f});
  EXPECT_DOUBLE_EQ(off.relative, 0.1);
  EXPECT_DOUBLE_EQ(off.oursNorm, 5);
  EXPECT_EQ(off.differing, 1u);
  BaselineDifference nan = compareWithKernel({1, 2}, {1, NAN});
  EXPECT_TRUE(std::isnan(nan.relative));
  EXPECT_FALSE(nan.relative <= 1e-2);
  EXPECT_EQ(nan.differing, 1u);
  EXPECT_TRUE(std::isnan(compareWithKernel({1, 2}, {1}).relative));
}

//===----------------------------------------------------------------------===//
// What the source computes, built for the host
//===----------------------------------------------------------------------===//

/// The generated kernel of `manifest` built for the host and run on random
/// buffers (every param's, laid out as the manifest says, C's too), with
/// fewer threads than elements so the grid-stride loop turns. Expects every
/// element of C to be evalEpilogue of its inputs within the f32 rounding of
/// the steps (their magnitude, 2^-22 of it) plus C's own rounding, and the
/// rest of C's buffer untouched.
class HostKernelTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (access(TILE_HOST_CXX, X_OK) != 0)
      GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  }

  /// Builds and loads `manifest`'s kernel; null on failure (reported).
  HostKernelLaunch build(const KernelManifest &manifest,
                         EpilogueKernelSource &kernel) {
    std::string error;
    if (!generateEpilogueKernel(manifest, kernel, error)) {
      ADD_FAILURE() << error;
      return nullptr;
    }
    std::string library = dir.file("kernel" + std::to_string(built++) + ".so");
    std::string log;
    if (!buildHostKernel(TILE_HOST_CXX, TILE_RUNTIME_TOOLS_DIR, kernel.source,
                         kernel.name, library, log)) {
      ADD_FAILURE() << "the host compiler refused:\n"
                    << log << "\n"
                    << kernel.source;
      return nullptr;
    }
    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      ADD_FAILURE() << dlerror();
      return nullptr;
    }
    handles.push_back(handle);
    auto launch = reinterpret_cast<HostKernelLaunch>(
        dlsym(handle, kHostKernelLaunchSymbol));
    if (!launch)
      ADD_FAILURE() << "no " << kHostKernelLaunchSymbol;
    return launch;
  }

  void TearDown() override {
    for (void *handle : handles)
      dlclose(handle);
  }

  /// Runs `manifest`'s kernel on random buffers (C's values in [-3, 3),
  /// the operands' in [-1, 1); `special` and `operandSpecial[j]` written
  /// over the first elements of C's and operand j's matrix 0) and checks
  /// it against evalEpilogue unless `compare` is false. `first`, when not
  /// null, gets C's first 16 values (row-major, matrix 0).
  void runAndCheck(const KernelManifest &manifest, uint64_t seed,
                   std::vector<float> *first = nullptr,
                   const std::vector<float> &special = {},
                   const std::vector<std::vector<float>> &operandSpecial = {},
                   bool compare = true) {
    EpilogueKernelSource kernel;
    HostKernelLaunch launch = build(manifest, kernel);
    if (!launch)
      return;
    const int64_t batch = manifest.problem.batch;
    // Every param the kernel takes: a buffer of its type with random values
    // everywhere (padding too).
    std::vector<std::vector<char>> buffers;
    std::vector<unsigned long long> pointers;
    for (size_t p = 0; p < kernel.params.size(); ++p) {
      const ParamInfo &param = manifest.params[kernel.params[p]];
      uint64_t elements = 0;
      ASSERT_TRUE(getRequiredElements(param, batch, elements));
      std::vector<float> values(elements);
      fillUniform(values, seed, 20 + p);
      if (p == 0)
        for (float &value : values)
          value *= 3;
      std::vector<char> buffer(elements *
                               getElementTypeSize(param.elementType));
      for (uint64_t e = 0; e < elements; ++e)
        storeElement(buffer.data(), e, values[e], param.elementType);
      const std::vector<float> &overwrite =
          p == 0 ? special
                 : (p - 1 < operandSpecial.size() ? operandSpecial[p - 1]
                                                  : std::vector<float>());
      for (size_t e = 0; e < overwrite.size(); ++e) {
        // Element e of the dense matrix 0 (row-major).
        int64_t i = static_cast<int64_t>(e) / param.cols,
                j = static_cast<int64_t>(e) % param.cols;
        storeElement(buffer.data(),
                     param.offset + i * param.rowStride + j * param.colStride,
                     overwrite[e], param.elementType);
      }
      buffers.push_back(std::move(buffer));
    }
    for (size_t p = 0; p < buffers.size(); ++p) {
      const ParamInfo &param = manifest.params[kernel.params[p]];
      pointers.push_back(reinterpret_cast<unsigned long long>(
          buffers[p].data() +
          param.offset * getElementTypeSize(param.elementType)));
    }
    const std::vector<char> before = buffers[0];
    std::vector<void *> params;
    for (unsigned long long &pointer : pointers)
      params.push_back(&pointer);
    // Fewer threads than elements, so that each thread goes round the
    // grid-stride loop (3 blocks of 16: __launch_bounds__ binds nothing on
    // the host; with blocks of kernel.blockThreads, 768 threads, no test's C
    // is big enough for a second turn).
    unsigned grid[3] = {3, 1, 1}, block[3] = {16, 1, 1};
    launch(params.data(), grid, block);

    std::vector<EpilogueStep> steps;
    std::string error;
    ASSERT_TRUE(parseEpilogueSteps(manifest.epilogue.steps,
                                   manifest.epilogue.operands.size(), steps,
                                   error))
        << error;
    const ParamInfo &c = manifest.params[kernel.params[0]];
    const double rounding = c.elementType == ElementType::BF16  ? 0x1p-8
                            : c.elementType == ElementType::F16 ? 0x1p-11
                                                                : 0.0;
    const double fill = manifest.problem.cInit == CInit::Fill
                            ? static_cast<float>(manifest.problem.cFillValue)
                            : 0.0;
    std::vector<bool> isElement(before.size() /
                                getElementTypeSize(c.elementType));
    int bad = 0;
    std::vector<double> operands(manifest.epilogue.operands.size());
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < c.rows; ++i)
        for (int64_t j = 0; j < c.cols; ++j) {
          int64_t at =
              c.offset + b * c.batchStride + i * c.rowStride + j * c.colStride;
          isElement[at] = true;
          double acc = loadElement(before.data(), at, c.elementType) + fill;
          for (size_t e = 0; e < operands.size(); ++e) {
            const ParamInfo &param = manifest.params[kernel.params[e + 1]];
            EpilogueOperandKind kind = manifest.epilogue.operands[e].kind;
            int64_t index = param.offset + b * param.batchStride;
            if (kind != EpilogueOperandKind::Col)
              index += i * param.rowStride;
            if (kind != EpilogueOperandKind::Row)
              index += j * param.colStride;
            operands[e] =
                loadElement(buffers[e + 1].data(), index, param.elementType);
          }
          double magnitude = 0;
          double want = evalEpilogue(steps, acc, std::fabs(acc),
                                     operands.data(), magnitude);
          double got = loadElement(buffers[0].data(), at, c.elementType);
          if (first && b == 0 && i * c.cols + j < 16)
            first->push_back(static_cast<float>(got));
          double bound = 0x1p-22 * magnitude + rounding * std::fabs(want) +
                         (rounding ? 0x1p-24 : 0x1p-140);
          if (compare && !(std::fabs(got - want) <= bound) &&
              !(std::isnan(got) && std::isnan(want)) && bad++ < 5)
            ADD_FAILURE() << "[" << b << "][" << i << "][" << j << "]: " << got
                          << ", want " << want << " (bound " << bound << ")\n"
                          << (bad == 1 ? kernel.source : "");
        }
    // Nothing else of C's buffer changed.
    unsigned bytes = getElementTypeSize(c.elementType);
    for (size_t e = 0; e < isElement.size(); ++e)
      if (!isElement[e] &&
          std::memcmp(before.data() + e * bytes, buffers[0].data() + e * bytes,
                      bytes) != 0 &&
          bad++ < 5)
        ADD_FAILURE() << "element " << e << " of C's buffer, outside C, "
                      << "changed";
  }

  TempDir dir;
  int built = 0;
  std::vector<void *> handles;
};

TEST_F(HostKernelTest, EveryStepKindOnStridedOperandsOfEachType) {
  // C f32 13 x 11 at offset 5, rows 14 apart; p0 per column (every 2nd
  // element, offset 1), p1 per row in bf16 (rows 3 apart), p2 a full f16
  // operand stored column-major with padding; every op.
  KernelManifest manifest = makeEpilogueManifest(
      13, 11, ElementType::F32, 14, 1,
      {"addf acc p0", "mulf s0 p1", "subf s1 p2", "divf s2 1.5",
       "maximumf s3 -0.25", "minimumf s4 p0", "maxnumf s5 p1", "minnumf s6 2",
       "negf s7", "tanh s8", "addf s9 acc", "mulf s10 0.0447149985"},
      {{EpilogueOperandKind::Col, ElementType::F32, 0, 2, 0, 1},
       {EpilogueOperandKind::Row, ElementType::BF16, 3, 1},
       {EpilogueOperandKind::Full, ElementType::F16, 1, 15, 0, 2}},
      1, 5);
  runAndCheck(manifest, 1);
}

TEST_F(HostKernelTest, BiasGeluIntoABf16ColumnMajorBatchWithAFillValue) {
  // The compiler's bias + GELU with bf16 constants (not cuBLASLt's GELU),
  // then a shared full operand added: 3 matrices of 9 x 7, C bf16
  // column-major (columns 10 apart), c_init fill 0.5; p0 a bias per row
  // and matrix, p1 one f32 operand for every matrix.
  KernelManifest manifest = makeEpilogueManifest(
      9, 7, ElementType::BF16, 1, 10,
      {"addf acc p0", "mulf s0 s0", "mulf s1 s0", "mulf 0.0446777344 s2",
       "addf s0 s3", "mulf 0.796875 s4", "tanh s5", "addf 1 s6", "mulf 0.5 s0",
       "mulf s8 s7", "addf s9 p1"},
      {{EpilogueOperandKind::Row, ElementType::BF16, 1, 1, 9},
       {EpilogueOperandKind::Full, ElementType::F32, 7, 1, 0}},
      3);
  manifest.problem.cFillValue = 0.5;
  runAndCheck(manifest, 2);
}

TEST_F(HostKernelTest, AnF16CThatAccumulates) {
  KernelManifest manifest = makeEpilogueManifest(
      17, 5, ElementType::F16, 5, 1,
      {"tanh acc", "subf s0 acc", "mulf s1 -3", "minnumf s2 acc"}, {}, 2);
  manifest.problem.cInit = CInit::Accumulate;
  runAndCheck(manifest, 3);
}

TEST_F(HostKernelTest, InfiniteConstantsCompileAndClamp) {
  // min(acc, +inf), then max(that, -inf): acc again.
  KernelManifest manifest =
      makeEpilogueManifest(7, 5, ElementType::F32, 5, 1,
                           {"minimumf acc 1e39", "maximumf s0 -1e39"}, {});
  runAndCheck(manifest, 5);
}

TEST_F(HostKernelTest, MaximumfAndMinimumfPropagateNanAndOrderZeros) {
  // C 1 x 4 against p0: (-0, +0), (+0, -0), (NaN, 1), (1, NaN).
  const float nan = std::nanf("");
  const std::vector<float> c = {-0.0f, 0.0f, nan, 1.0f};
  const std::vector<std::vector<float>> p = {{0.0f, -0.0f, 1.0f, nan}};
  for (const char *op : {"maximumf", "minimumf", "maxnumf", "minnumf"}) {
    KernelManifest manifest = makeEpilogueManifest(
        1, 4, ElementType::F32, 4, 1, {std::string(op) + " acc p0"},
        {{EpilogueOperandKind::Full}});
    std::vector<float> got;
    runAndCheck(manifest, 4, &got, c, p, /*compare=*/false);
    ASSERT_EQ(got.size(), 4u) << op;
    bool maximum = op[1] == 'a';
    bool propagates = op[3] == 'i'; // maximumf, minimumf
    // The zeros: +0 for a maximum, -0 for a minimum, in either order (the
    // num forms may give either).
    if (propagates) {
      for (int i = 0; i < 2; ++i)
        EXPECT_EQ(std::signbit(got[i]), !maximum) << op << " " << i;
      EXPECT_TRUE(std::isnan(got[2])) << op;
      EXPECT_TRUE(std::isnan(got[3])) << op;
    } else {
      EXPECT_EQ(got[2], 1.0f) << op;
      EXPECT_EQ(got[3], 1.0f) << op;
    }
  }
}

//===----------------------------------------------------------------------===//
// A real NVRTC, where one is installed
//===----------------------------------------------------------------------===//

TEST(NvrtcTest, CompilesTheGeneratedKernels) {
  std::string error;
  const Nvrtc *nvrtc = loadNvrtc(error);
  if (!nvrtc)
    GTEST_SKIP() << error;
  std::vector<KernelManifest> manifests = {
      makeEpilogueManifest(
          13, 11, ElementType::F32, 14, 1,
          {"addf acc p0", "mulf s0 p1", "subf s1 p2", "divf s2 1.5",
           "maximumf s3 -0.25", "minimumf s4 p0", "maxnumf s5 p1",
           "minnumf s6 2", "negf s7", "tanh s8"},
          {{EpilogueOperandKind::Col, ElementType::F32, 0, 2, 0, 1},
           {EpilogueOperandKind::Row, ElementType::BF16, 3, 1},
           {EpilogueOperandKind::Full, ElementType::F16, 1, 15, 0, 2}},
          1, 5),
      makeEpilogueManifest(
          9, 7, ElementType::BF16, 1, 10, {"addf acc p0", "tanh s0"},
          {{EpilogueOperandKind::Row, ElementType::BF16, 1, 1, 9}}, 3),
      makeEpilogueManifest(17, 5, ElementType::F16, 5, 1, {"tanh acc"}, {}),
      makeEpilogueManifest(65536, 40000, ElementType::BF16, 40000, 1,
                           {"maximumf acc 0"}, {}),
      makeEpilogueManifest(8, 8, ElementType::F32, 8, 1,
                           {"minimumf acc 1e39", "maximumf s0 -1e39"}, {})};
  // A copy without the cubin entry points compiles PTX.
  Nvrtc ptxOnly = *nvrtc;
  ptxOnly.getCUBINSize = nullptr;
  ptxOnly.getCUBIN = nullptr;
  for (const KernelManifest &manifest : manifests) {
    EpilogueKernelSource kernel = generate(manifest);
    NvrtcImage image;
    EXPECT_TRUE(compileWithNvrtc(*nvrtc, kernel.source, kernel.name, 9, 0,
                                 image, error))
        << error << "\n"
        << kernel.source;
    EXPECT_EQ(image.cubin, nvrtc->getCUBIN != nullptr);
    EXPECT_FALSE(image.bytes.empty());
    ASSERT_TRUE(compileWithNvrtc(ptxOnly, kernel.source, kernel.name, 9, 0,
                                 image, error))
        << error;
    EXPECT_FALSE(image.cubin);
    EXPECT_EQ(image.options, "--gpu-architecture=compute_90 --fmad=false");
    std::string ptx(image.bytes.data());
    EXPECT_NE(ptx.find(".entry tile_epilogue("), std::string::npos) << ptx;
    if (manifest.params[2].elementType == ElementType::F16) {
      EXPECT_NE(ptx.find("cvt.rn.f16.f32"), std::string::npos) << ptx;
    }
  }
  // No contraction: a product then a sum stay two roundings.
  KernelManifest manifest = makeEpilogueManifest(
      96, 80, ElementType::F32, 80, 1, {"mulf acc p0", "addf s0 p1"},
      {{EpilogueOperandKind::Col}, {EpilogueOperandKind::Row}});
  NvrtcImage image;
  ASSERT_TRUE(compileWithNvrtc(ptxOnly, generate(manifest).source,
                               "tile_epilogue", 9, 0, image, error))
      << error;
  std::string ptx(image.bytes.data());
  EXPECT_NE(ptx.find("mul.rn.f32"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("add.rn.f32"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("fma.rn.f32"), std::string::npos) << ptx;
  // A source that does not compile: NVRTC's log in the error.
  EXPECT_FALSE(compileWithNvrtc(*nvrtc,
                                "extern \"C\" __global__ void k() { "
                                "undeclared(); }",
                                "k", 9, 0, image, error));
  EXPECT_NE(error.find("nvrtcCompileProgram (--gpu-architecture="),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("undeclared"), std::string::npos) << error;
}

} // namespace
