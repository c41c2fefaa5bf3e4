//===- GpuLibraries.h - cuBLAS and NVML, loaded at run time -----*- C++ -*-===//
//
// tile-run compares against cuBLAS (and cuBLASLt, and cuBLAS followed by an
// elementwise kernel NVRTC compiles, for fused epilogues) and reports clocks
// from NVML; all are dlopened (no CUDA headers or libraries at build time)
// and all are optional: without them tile-run says what is missing and
// carries on.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TOOLS_GPULIBRARIES_H
#define TILE_RUNTIME_TOOLS_GPULIBRARIES_H

#include "../lib/CudaDriver.h"

#include <cstdint>
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
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77, // f32 data, inputs read as TF32
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
  /// Optional: the bf16, f16 and TF32 comparison needs it. Types are
  /// cudaDataType_t, the compute type a cublasComputeType_t.
  CublasStatus (*gemmEx)(CublasHandle handle, int transA, int transB, int m,
                         int n, int k, const void *alpha, const void *a,
                         int aType, int lda, const void *b, int bType, int ldb,
                         const void *beta, void *c, int cType, int ldc,
                         int computeType, int algo);
  /// Optional: the batched kernels' baseline needs it. As gemmEx, with the
  /// elements between consecutive matrices of A, B and C (long long in
  /// cuBLAS's prototype) and the number of matrices.
  CublasStatus (*gemmStridedBatchedEx)(
      CublasHandle handle, int transA, int transB, int m, int n, int k,
      const void *alpha, const void *a, int aType, int lda, long long strideA,
      const void *b, int bType, int ldb, long long strideB, const void *beta,
      void *c, int cType, int ldc, long long strideC, int batchCount,
      int computeType, int algo);

  std::string describe(CublasStatus status) const;
};

/// cuBLASLt, for the fused-epilogue baseline (bias, ReLU, GELU, bias + ReLU,
/// bias + GELU run inside cuBLAS's own kernel). Handles and descriptors are
/// opaque pointers; enum values are those of cublasLt.h (CUDA 12 and 13).
using CublasLtHandle = struct cublasLtContext *;
using CublasLtObject = void *; // a matmul, layout or preference descriptor
enum : int {
  CUBLASLT_MATMUL_DESC_TRANSA = 3,
  CUBLASLT_MATMUL_DESC_TRANSB = 4,
  CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
  CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26,
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,
  CUBLASLT_EPILOGUE_DEFAULT = 1,
  CUBLASLT_EPILOGUE_RELU = 2,
  CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6,
  CUBLASLT_EPILOGUE_GELU = 32,      // the tanh approximation
  CUBLASLT_EPILOGUE_GELU_BIAS = 36, // GELU | BIAS: the bias, then GELU
};
/// cublasLtMatmulHeuristicResult_t.
struct CublasLtHeuristic {
  uint64_t algo[8];
  size_t workspaceSize;
  CublasStatus state;
  float wavesCount;
  int reserved[4];
};
struct CublasLt {
  std::string path;
  CublasStatus (*create)(CublasLtHandle *handle);
  CublasStatus (*destroy)(CublasLtHandle handle);
  CublasStatus (*descCreate)(CublasLtObject *desc, int computeType,
                             int scaleType);
  CublasStatus (*descDestroy)(CublasLtObject desc);
  CublasStatus (*descSetAttribute)(CublasLtObject desc, int attribute,
                                   const void *value, size_t bytes);
  CublasStatus (*layoutCreate)(CublasLtObject *layout, int type,
                               uint64_t rows, uint64_t cols, int64_t ld);
  CublasStatus (*layoutDestroy)(CublasLtObject layout);
  CublasStatus (*preferenceCreate)(CublasLtObject *preference);
  CublasStatus (*preferenceDestroy)(CublasLtObject preference);
  CublasStatus (*preferenceSetAttribute)(CublasLtObject preference,
                                         int attribute, const void *value,
                                         size_t bytes);
  CublasStatus (*heuristic)(CublasLtHandle handle, CublasLtObject desc,
                            CublasLtObject a, CublasLtObject b,
                            CublasLtObject c, CublasLtObject d,
                            CublasLtObject preference, int requested,
                            CublasLtHeuristic *results, int *returned);
  CublasStatus (*matmul)(CublasLtHandle handle, CublasLtObject desc,
                         const void *alpha, const void *a, CublasLtObject aDesc,
                         const void *b, CublasLtObject bDesc,
                         const void *beta, const void *c, CublasLtObject cDesc,
                         void *d, CublasLtObject dDesc, const void *algo,
                         void *workspace, size_t workspaceBytes,
                         runtime::CUstream stream);
};

/// Loads $TILE_CUBLASLT_LIBRARY, else libcublasLt.so.13, .so.12 or .so on
/// the loader's path or in $CUDA_HOME/lib64 and /usr/local/cuda/lib64
/// (once per process). Null with `error` when none has every entry point.
const CublasLt *loadCublasLt(std::string &error);

/// NVRTC, the runtime compiler, for the bench's separate elementwise
/// epilogue kernel (generateEpilogueKernel in TileRun.h). Prototypes as in
/// nvrtc.h (CUDA 11 to 13); nvrtcResult is an int, 0 for success.
using NvrtcProgram = struct _nvrtcProgram *;
using NvrtcResult = int;
struct Nvrtc {
  std::string path;
  NvrtcResult (*version)(int *major, int *minor);
  const char *(*getErrorString)(NvrtcResult result);
  NvrtcResult (*createProgram)(NvrtcProgram *program, const char *source,
                               const char *name, int numHeaders,
                               const char *const *headers,
                               const char *const *includeNames);
  NvrtcResult (*destroyProgram)(NvrtcProgram *program);
  NvrtcResult (*compileProgram)(NvrtcProgram program, int numOptions,
                                const char *const *options);
  NvrtcResult (*getPTXSize)(NvrtcProgram program, size_t *bytes);
  NvrtcResult (*getPTX)(NvrtcProgram program, char *ptx);
  NvrtcResult (*getProgramLogSize)(NvrtcProgram program, size_t *bytes);
  NvrtcResult (*getProgramLog)(NvrtcProgram program, char *log);
  /// Optional (CUDA 11.1+): the cubin of a compilation for a real
  /// architecture (--gpu-architecture=sm_XY). Without them tile-run
  /// compiles PTX.
  NvrtcResult (*getCUBINSize)(NvrtcProgram program, size_t *bytes);
  NvrtcResult (*getCUBIN)(NvrtcProgram program, char *cubin);

  std::string describe(NvrtcResult result) const;
};

/// Where tile-run looks for NVRTC, in order: $TILE_NVRTC_LIBRARY, then
/// libnvrtc.so.13, .so.12 and .so on the loader's path, then the same names
/// in $CUDA_HOME/lib64 and /usr/local/cuda/lib64.
std::vector<std::string> getNvrtcCandidates();

/// Loads the first candidate that has every entry point (once per process).
/// Null with `error` listing what was tried when none does.
const Nvrtc *loadNvrtc(std::string &error);

/// What compileWithNvrtc produced: a cubin for the device's architecture
/// (when NVRTC has nvrtcGetCUBIN) or PTX for the driver to compile, the
/// options it was compiled with and NVRTC's log.
struct NvrtcImage {
  std::vector<char> bytes; // PTX ends in its NUL
  bool cubin = false;
  std::string options;
  std::string log;
};

/// Compiles `source` for compute capability `major`.`minor`: with
/// --gpu-architecture=sm_XY into a cubin when NVRTC has nvrtcGetCUBIN, else
/// with --gpu-architecture=compute_XY into PTX; always --fmad=false (no
/// contraction of a multiply and an add into one rounding). False, with
/// `error` (NVRTC's log included), when it does not compile.
bool compileWithNvrtc(const Nvrtc &nvrtc, const std::string &source,
                      const std::string &name, int major, int minor,
                      NvrtcImage &image, std::string &error);

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
