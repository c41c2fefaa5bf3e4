//===- FakeCublas.cpp - A host-only stand-in for libcublas ----------------===//
//
// Exports the cuBLAS entry points tile-run resolves, with cuBLAS's
// prototypes, and computes on the host: with the fake driver, device
// pointers are host pointers. tile-run's tests point TILE_CUBLAS_LIBRARY here
// to run `bench` with its cuBLAS comparison and `verify --reference cublas`
// without a GPU.
//
//   TILE_FAKE_CUBLAS_LOG   a file; each call that differs from the one before
//                          appends a line with every argument but the
//                          pointers, and the handle's math mode
//
// GemmEx and GemmStridedBatchedEx take CUBLAS_COMPUTE_32F (68), and
// CUBLAS_COMPUTE_32F_FAST_TF32 (77, f32 A, B and C only: A and B rounded to
// TF32 before the products); GemmStridedBatchedEx also
// CUBLAS_COMPUTE_32F_PEDANTIC (69). Other compute types are refused
// (CUBLAS_STATUS_NOT_SUPPORTED), so a test sees which one tile-run asked for.
//
// Built a second time with TILE_FAKE_CUBLAS_NO_STRIDED_BATCHED defined: a
// cuBLAS without cublasGemmStridedBatchedEx.
//
//===----------------------------------------------------------------------===//

#include "HalfPrecision.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
using Status = int;
struct FakeHandle {
  void *stream = nullptr;
  int mathMode = 0;
};

std::string lastLogged;

void logCall(const std::string &line) {
  const char *path = std::getenv("TILE_FAKE_CUBLAS_LOG");
  if (!path || !*path || line == lastLogged)
    return;
  lastLogged = line;
  if (FILE *file = std::fopen(path, "a")) {
    std::fprintf(file, "%s\n", line.c_str());
    std::fclose(file);
  }
}

/// cudaDataType_t: CUDA_R_32F 0, CUDA_R_16F 2, CUDA_R_16BF 14.
bool validType(int type) { return type == 0 || type == 2 || type == 14; }

/// cublasComputeType_t values (cublas_api.h).
constexpr int kCompute32F = 68, kCompute32FPedantic = 69,
              kCompute32FFastTf32 = 77;

/// Whether `computeType` may compute with these types: FAST_TF32 reads f32
/// A and B and writes an f32 C.
bool validCompute(int computeType, int aType, int bType, int cType) {
  if (!validType(aType) || !validType(bType) || !validType(cType))
    return false;
  if (computeType == kCompute32FFastTf32)
    return aType == 0 && bType == 0 && cType == 0;
  return computeType == kCompute32F;
}

/// An f32 input as FAST_TF32 reads it: 10 explicit mantissa bits, rounded
/// to nearest (ties away from zero); infinities and NaN as they are.
double toTf32(double value) {
  float single = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &single, sizeof(bits));
  if ((bits & 0x7f800000u) != 0x7f800000u)
    bits = (bits + 0x1000u) & 0xffffe000u;
  std::memcpy(&single, &bits, sizeof(bits));
  return single;
}

double load(const void *base, int64_t index, int type) {
  switch (type) {
  case 14:
    return tile::run::bf16ToFloat(static_cast<const uint16_t *>(base)[index]);
  case 2:
    return tile::run::f16ToFloat(static_cast<const uint16_t *>(base)[index]);
  default:
    return static_cast<const float *>(base)[index];
  }
}

void store(void *base, int64_t index, double value, int type) {
  float rounded = static_cast<float>(value);
  switch (type) {
  case 14:
    static_cast<uint16_t *>(base)[index] = tile::run::floatToBf16(rounded);
    return;
  case 2:
    static_cast<uint16_t *>(base)[index] = tile::run::floatToF16(rounded);
    return;
  default:
    static_cast<float *>(base)[index] = rounded;
  }
}

/// Column-major C = alpha * op(A) * op(B) + beta * C (BLAS semantics; C is
/// not read when beta is 0).
template <typename LoadA, typename LoadB, typename LoadC, typename Store>
void gemm(int transA, int transB, int m, int n, int k, double alpha, int lda,
          int ldb, double beta, int ldc, LoadA loadA, LoadB loadB, LoadC loadC,
          Store storeC) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        double a = transA ? loadA(l + i * lda) : loadA(i + l * lda);
        double b = transB ? loadB(j + l * ldb) : loadB(l + j * ldb);
        sum += a * b;
      }
      double value = alpha * sum;
      if (beta != 0)
        value += beta * loadC(i + j * ldc);
      storeC(i + j * ldc, value);
    }
}

std::string describe(const char *name, const FakeHandle *handle, int transA,
                     int transB, int m, int n, int k, double alpha, int lda,
                     int ldb, double beta, int ldc) {
  char text[256];
  std::snprintf(text, sizeof(text),
                "%s math=%d transa=%d transb=%d m=%d n=%d k=%d alpha=%g "
                "lda=%d ldb=%d beta=%g ldc=%d",
                name, handle->mathMode, transA, transB, m, n, k, alpha, lda,
                ldb, beta, ldc);
  return text;
}
} // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

FAKE_API Status cublasCreate_v2(FakeHandle **handle) {
  *handle = new FakeHandle();
  return 0;
}

FAKE_API Status cublasDestroy_v2(FakeHandle *handle) {
  delete handle;
  return 0;
}

FAKE_API Status cublasGetVersion_v2(FakeHandle *, int *version) {
  *version = 130001; // 13.0.1
  return 0;
}

FAKE_API Status cublasSetStream_v2(FakeHandle *handle, void *stream) {
  handle->stream = stream;
  return 0;
}

FAKE_API Status cublasSetMathMode(FakeHandle *handle, int mode) {
  handle->mathMode = mode;
  return 0;
}

FAKE_API const char *cublasGetStatusString(Status status) {
  return status == 0 ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_FAKE_ERROR";
}

FAKE_API Status cublasSgemm_v2(FakeHandle *handle, int transA, int transB,
                               int m, int n, int k, const float *alpha,
                               const float *a, int lda, const float *b, int ldb,
                               const float *beta, float *c, int ldc) {
  logCall(describe("sgemm", handle, transA, transB, m, n, k, *alpha, lda, ldb,
                   *beta, ldc));
  gemm(
      transA, transB, m, n, k, *alpha, lda, ldb, *beta, ldc,
      [&](int64_t i) { return static_cast<double>(a[i]); },
      [&](int64_t i) { return static_cast<double>(b[i]); },
      [&](int64_t i) { return static_cast<double>(c[i]); },
      [&](int64_t i, double value) { c[i] = static_cast<float>(value); });
  return 0;
}

FAKE_API Status cublasDgemm_v2(FakeHandle *handle, int transA, int transB,
                               int m, int n, int k, const double *alpha,
                               const double *a, int lda, const double *b,
                               int ldb, const double *beta, double *c,
                               int ldc) {
  logCall(describe("dgemm", handle, transA, transB, m, n, k, *alpha, lda, ldb,
                   *beta, ldc));
  auto at = [](const double *base) {
    return [base](int64_t i) { return base[i]; };
  };
  gemm(transA, transB, m, n, k, *alpha, lda, ldb, *beta, ldc, at(a), at(b),
       at(c), [&](int64_t i, double value) { c[i] = value; });
  return 0;
}

FAKE_API Status cublasGemmEx(FakeHandle *handle, int transA, int transB, int m,
                             int n, int k, const void *alpha, const void *a,
                             int aType, int lda, const void *b, int bType,
                             int ldb, const void *beta, void *c, int cType,
                             int ldc, int computeType, int algo) {
  // CUBLAS_COMPUTE_32F or _FAST_TF32: alpha and beta are floats.
  if (!validCompute(computeType, aType, bType, cType))
    return 15; // CUBLAS_STATUS_NOT_SUPPORTED
  bool tf32 = computeType == kCompute32FFastTf32;
  double alphaValue = *static_cast<const float *>(alpha);
  double betaValue = *static_cast<const float *>(beta);
  char types[96];
  std::snprintf(types, sizeof(types),
                " atype=%d btype=%d ctype=%d compute=%d "
                "algo=%d",
                aType, bType, cType, computeType, algo);
  logCall(describe("gemm_ex", handle, transA, transB, m, n, k, alphaValue, lda,
                   ldb, betaValue, ldc) +
          types);
  auto input = [&](double value) { return tf32 ? toTf32(value) : value; };
  gemm(
      transA, transB, m, n, k, alphaValue, lda, ldb, betaValue, ldc,
      [&](int64_t i) { return input(load(a, i, aType)); },
      [&](int64_t i) { return input(load(b, i, bType)); },
      [&](int64_t i) { return load(c, i, cType); },
      [&](int64_t i, double value) { store(c, i, value, cType); });
  return 0;
}

#ifndef TILE_FAKE_CUBLAS_NO_STRIDED_BATCHED
FAKE_API Status cublasGemmStridedBatchedEx(
    FakeHandle *handle, int transA, int transB, int m, int n, int k,
    const void *alpha, const void *a, int aType, int lda, long long strideA,
    const void *b, int bType, int ldb, long long strideB, const void *beta,
    void *c, int cType, int ldc, long long strideC, int batchCount,
    int computeType, int algo) {
  // CUBLAS_COMPUTE_32F, _PEDANTIC or _FAST_TF32: alpha and beta are
  // floats.
  bool pedantic = computeType == kCompute32FPedantic && validType(aType) &&
                  validType(bType) && validType(cType);
  if ((!pedantic && !validCompute(computeType, aType, bType, cType)) ||
      batchCount < 0)
    return 15; // CUBLAS_STATUS_NOT_SUPPORTED
  bool tf32 = computeType == kCompute32FFastTf32;
  double alphaValue = *static_cast<const float *>(alpha);
  double betaValue = *static_cast<const float *>(beta);
  char extra[192];
  std::snprintf(extra, sizeof(extra),
                " atype=%d btype=%d ctype=%d compute=%d algo=%d "
                "stridea=%lld strideb=%lld stridec=%lld batch=%d",
                aType, bType, cType, computeType, algo, strideA, strideB,
                strideC, batchCount);
  logCall(describe("gemm_strided_batched_ex", handle, transA, transB, m, n, k,
                   alphaValue, lda, ldb, betaValue, ldc) +
          extra);
  auto input = [&](double value) { return tf32 ? toTf32(value) : value; };
  for (int64_t i = 0; i < batchCount; ++i) {
    int64_t offsetA = i * strideA, offsetB = i * strideB, offsetC = i * strideC;
    gemm(
        transA, transB, m, n, k, alphaValue, lda, ldb, betaValue, ldc,
        [&](int64_t at) { return input(load(a, offsetA + at, aType)); },
        [&](int64_t at) { return input(load(b, offsetB + at, bType)); },
        [&](int64_t at) { return load(c, offsetC + at, cType); },
        [&](int64_t at, double value) {
          store(c, offsetC + at, value, cType);
        });
  }
  return 0;
}
#endif // TILE_FAKE_CUBLAS_NO_STRIDED_BATCHED
