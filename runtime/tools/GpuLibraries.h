//===- GpuLibraries.h - cuBLAS and NVML, loaded at run time -----*- C++ -*-===//
//
// tile-run compares against cuBLAS and reports clocks from NVML; both are
// dlopened (no CUDA headers or libraries at build time) and both are
// optional: without them tile-run says what is missing and carries on.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TOOLS_GPULIBRARIES_H
#define TILE_RUNTIME_TOOLS_GPULIBRARIES_H

#include "../lib/CudaDriver.h"

#include <string>
#include <vector>

namespace tile::run {

using CublasHandle = struct cublasContext *;
using CublasStatus = int;

/// cublasOperation_t, cublasMath_t, cublasComputeType_t and
/// cublasGemmAlgo_t values (cublas_api.h), cudaDataType_t values
/// (library_types.h).
enum : int {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_GEMM_DEFAULT = -1,
  CUDA_R_32F = 0,
  CUDA_R_16F = 2,
  CUDA_R_16BF = 14,
};

struct Cublas {
  std::string path;
  CublasStatus (*create)(CublasHandle *handle);
  CublasStatus (*destroy)(CublasHandle handle);
  CublasStatus (*getVersion)(CublasHandle handle, int *version);
  CublasStatus (*setStream)(CublasHandle handle, runtime::CUstream stream);
  CublasStatus (*setMathMode)(CublasHandle handle, int mode);
  CublasStatus (*sgemm)(CublasHandle handle, int transA, int transB, int m,
                        int n, int k, const float *alpha, const float *a,
                        int lda, const float *b, int ldb, const float *beta,
                        float *c, int ldc);
  CublasStatus (*dgemm)(CublasHandle handle, int transA, int transB, int m,
                        int n, int k, const double *alpha, const double *a,
                        int lda, const double *b, int ldb, const double *beta,
                        double *c, int ldc);
  /// Optional (cuBLAS 11.4+).
  const char *(*getStatusString)(CublasStatus status);
  /// Optional: the bf16 and f16 comparison needs it. Types are
  /// cudaDataType_t, the compute type a cublasComputeType_t.
  CublasStatus (*gemmEx)(CublasHandle handle, int transA, int transB, int m,
                         int n, int k, const void *alpha, const void *a,
                         int aType, int lda, const void *b, int bType, int ldb,
                         const void *beta, void *c, int cType, int ldc,
                         int computeType, int algo);

  std::string describe(CublasStatus status) const;
};

/// Where tile-run looks for cuBLAS, in order: $TILE_CUBLAS_LIBRARY,
/// libcublas.so.13, .so.12 and .so on the loader's path, then the same names
/// in $CUDA_HOME/lib64 and /usr/local/cuda/lib64.
std::vector<std::string> getCublasCandidates();

/// Loads the first candidate that has every entry point (once per process).
/// Null with `error` listing what was tried when none does.
const Cublas *loadCublas(std::string &error);

/// What NVML says about the driver and the device; empty when NVML is
/// missing.
struct NvmlInfo {
  std::string driverVersion; // "580.65.06"
  unsigned maxSmClockMhz = 0, maxMemoryClockMhz = 0;
  unsigned smClockMhz = 0, memoryClockMhz = 0;
};

/// Loads $TILE_NVML_LIBRARY, else libnvidia-ml.so.1. `pciBusId` as
/// cuDeviceGetPCIBusId gives it. Never fails: fields that
/// cannot be read stay empty or 0.
NvmlInfo queryNvml(const std::string &pciBusId);

} // namespace tile::run

#endif // TILE_RUNTIME_TOOLS_GPULIBRARIES_H
