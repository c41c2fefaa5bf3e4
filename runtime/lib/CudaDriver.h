//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The runtime must build and run its tests on machines without CUDA, so it
// never includes cuda.h nor links libcuda: it dlopens libcuda.so.1 and
// declares the few types, enum values and prototypes it uses. The numeric
// values below are the driver API's own (cuda.h); they are part of its ABI.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIB_CUDADRIVER_H
#define TILE_RUNTIME_LIB_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tile::runtime {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
  CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
  CUDA_ERROR_INVALID_CLUSTER_SIZE = 912,
};

/// CUdevice_attribute values.
enum : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
  CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH = 120,
};

/// CUfunction_attribute values.
enum : int {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
};

/// CUjit_option values.
enum : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/// Flags.
enum : unsigned {
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DEFAULT = 0,
};

/// Dynamic shared memory above this needs an explicit opt-in per kernel.
inline constexpr unsigned kDefaultDynamicSharedLimit = 48 * 1024;

/// CUlaunchAttributeID values.
enum : int {
  CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
};

/// CUlaunchAttributeValue: a 64-byte union (with pointer members, hence
/// 8-byte aligned); the runtime sets only clusterDim.
union CUlaunchAttributeValue {
  alignas(8) char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
};

/// CUlaunchAttribute: the id, padding to 8 bytes, the value.
struct CUlaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  CUlaunchAttributeValue value;
};

/// CUlaunchConfig, what cuLaunchKernelEx takes.
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

// The layout of cuda.h (CUDA 12 and 13) on 64-bit Linux.
static_assert(sizeof(CUlaunchAttributeValue) == 64, "CUlaunchAttributeValue");
static_assert(sizeof(CUlaunchAttribute) == 72 &&
                  offsetof(CUlaunchAttribute, value) == 8,
              "CUlaunchAttribute");
static_assert(sizeof(CUlaunchConfig) == 56 &&
                  offsetof(CUlaunchConfig, hStream) == 32 &&
                  offsetof(CUlaunchConfig, attrs) == 40 &&
                  offsetof(CUlaunchConfig, numAttrs) == 48,
              "CUlaunchConfig");

/// CUtensorMap: 128 opaque bytes. cuTensorMapEncodeTiled needs 64-byte
/// alignment; cuda.h of CUDA 13 declares 128, which is kept here.
struct alignas(128) CUtensorMap {
  uint64_t opaque[16];
};
static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap");

/// CUtensorMapDataType values.
enum : int {
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9,
};

/// CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion and
/// CUtensorMapFloatOOBfill values.
enum : int {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B = 1,
  CU_TENSOR_MAP_SWIZZLE_64B = 2,
  CU_TENSOR_MAP_SWIZZLE_128B = 3,
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_64B = 1,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
};

/// CUmemorytype values.
enum : int {
  CU_MEMORYTYPE_DEVICE = 2,
};

/// CUDA_MEMCPY2D (CUDA_MEMCPY2D_v2): a 2-d copy, what cuMemcpy2DAsync
/// takes. The runtime copies device to device only.
struct CUDA_MEMCPY2D {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};
static_assert(sizeof(CUDA_MEMCPY2D) == 128 &&
                  offsetof(CUDA_MEMCPY2D, srcDevice) == 32 &&
                  offsetof(CUDA_MEMCPY2D, dstDevice) == 88 &&
                  offsetof(CUDA_MEMCPY2D, WidthInBytes) == 112,
              "CUDA_MEMCPY2D");

/// The driver entry points the runtime and tile-run use. Where cuda.h maps a
/// name to a versioned symbol (cuMemAlloc -> cuMemAlloc_v2), the member holds
/// that versioned symbol, with the same prototype.
struct CudaDriver {
  std::string libraryName;
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuGetErrorName)(CUresult error, const char **text);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDeviceGetPCIBusId)(char *busId, int length, CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxGetCurrent)(CUcontext *context);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuFuncGetAttribute)(int *value, int attribute,
                                 CUfunction function);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuMemGetInfo)(size_t *freeBytes, size_t *totalBytes);
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuMemsetD32)(CUdeviceptr dst, unsigned value, size_t count);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start,
                                 CUevent end);

  // Optional entry points: null when the driver lacks them (the runtime
  // then refuses the kernels that need them, as too new for the driver).
  /// CUDA 11.8 and newer; launches with a thread block cluster.
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *config,
                               CUfunction function, void **params,
                               void **extra);
  /// CUDA 12.0 and newer. The enum arguments are ints, as in cuda.h.
  CUresult (*cuTensorMapEncodeTiled)(
      CUtensorMap *tensorMap, int dataType, uint32_t rank, void *globalAddress,
      const uint64_t *globalDim, const uint64_t *globalStrides,
      const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
      int swizzle, int l2Promotion, int oobFill);

  /// CUDA 11.2 and newer: stream-ordered allocation and the 2-d copy, for
  /// the repacked operands of a tensor map (repack_row_stride).
  CUresult (*cuMemAllocAsync)(CUdeviceptr *pointer, size_t bytes,
                              CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr pointer, CUstream stream);
  CUresult (*cuMemcpy2DAsync)(const CUDA_MEMCPY2D *copy, CUstream stream);

  /// "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected".
  std::string describe(CUresult result) const;
};

/// The library to dlopen: $TILE_CUDA_DRIVER_LIBRARY when set and not empty,
/// else "libcuda.so.1".
std::string getCudaDriverLibraryName();

/// Loads the driver library named by getCudaDriverLibraryName() (once per
/// name; a driver is never unloaded) and resolves every entry point. Does
/// not call cuInit. On failure returns null, sets `error` and `status` (a
/// tile_status: TILE_ERROR_NO_DRIVER or TILE_ERROR_DRIVER_TOO_OLD).
const CudaDriver *loadCudaDriver(std::string &error, int &status);

/// The device and what the runtime needs to know about it.
struct CudaDevice {
  CUdevice device = 0;
  int ordinal = 0;
  std::string name;
  int computeMajor = 0, computeMinor = 0;
  int driverVersion = 0;
};

/// Calls cuInit and looks up device `ordinal`. On failure sets `error` and
/// `status` (TILE_ERROR_NO_DEVICE, TILE_ERROR_DRIVER_TOO_OLD,
/// TILE_ERROR_INVALID_ARGUMENT or TILE_ERROR_CUDA).
bool openCudaDevice(const CudaDriver &driver, int ordinal, CudaDevice &out,
                    std::string &error, int &status);

/// "12.0" for 12000.
std::string formatCudaVersion(int driverVersion);

/// The oldest driver API version (cuDriverGetVersion) whose JIT compiler
/// accepts PTX ISA `major`.`minor`, or 0 when the table does not know it.
int getMinimumDriverForPtx(int major, int minor);

} // namespace tile::runtime

#endif // TILE_RUNTIME_LIB_CUDADRIVER_H
