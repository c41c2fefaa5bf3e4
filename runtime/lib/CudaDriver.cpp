//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include "tile/runtime/tile_runtime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>

using namespace tile::runtime;

std::string tile::runtime::getCudaDriverLibraryName() {
  const char *name = std::getenv("TILE_CUDA_DRIVER_LIBRARY");
  if (name && *name)
    return name;
  return "libcuda.so.1";
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = nullptr;
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = nullptr;
  std::string message = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    message += std::string(": ") + text;
  return message;
}

namespace {
/// Binds `member` to symbol `name`; false (with `missing` set) when absent.
template <typename Function>
bool bind(void *handle, Function &member, const char *name,
          std::string &missing) {
  member = reinterpret_cast<Function>(dlsym(handle, name));
  if (!member && missing.empty())
    missing = name;
  return member != nullptr;
}

bool bindAll(void *handle, CudaDriver &d, std::string &missing) {
  // Versioned names are the ones cuda.h maps the plain names to; they all
  // exist since CUDA 11.
  bind(handle, d.cuInit, "cuInit", missing);
  bind(handle, d.cuDriverGetVersion, "cuDriverGetVersion", missing);
  bind(handle, d.cuGetErrorString, "cuGetErrorString", missing);
  bind(handle, d.cuGetErrorName, "cuGetErrorName", missing);
  bind(handle, d.cuDeviceGetCount, "cuDeviceGetCount", missing);
  bind(handle, d.cuDeviceGet, "cuDeviceGet", missing);
  bind(handle, d.cuDeviceGetName, "cuDeviceGetName", missing);
  bind(handle, d.cuDeviceGetAttribute, "cuDeviceGetAttribute", missing);
  bind(handle, d.cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId", missing);
  bind(handle, d.cuDeviceTotalMem, "cuDeviceTotalMem_v2", missing);
  bind(handle, d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", missing);
  bind(handle, d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
       missing);
  bind(handle, d.cuCtxSetCurrent, "cuCtxSetCurrent", missing);
  bind(handle, d.cuCtxGetCurrent, "cuCtxGetCurrent", missing);
  bind(handle, d.cuCtxSynchronize, "cuCtxSynchronize", missing);
  bind(handle, d.cuModuleLoadDataEx, "cuModuleLoadDataEx", missing);
  bind(handle, d.cuModuleUnload, "cuModuleUnload", missing);
  bind(handle, d.cuModuleGetFunction, "cuModuleGetFunction", missing);
  bind(handle, d.cuFuncGetAttribute, "cuFuncGetAttribute", missing);
  bind(handle, d.cuFuncSetAttribute, "cuFuncSetAttribute", missing);
  bind(handle, d.cuLaunchKernel, "cuLaunchKernel", missing);
  bind(handle, d.cuMemGetInfo, "cuMemGetInfo_v2", missing);
  bind(handle, d.cuMemAlloc, "cuMemAlloc_v2", missing);
  bind(handle, d.cuMemFree, "cuMemFree_v2", missing);
  bind(handle, d.cuMemcpyHtoD, "cuMemcpyHtoD_v2", missing);
  bind(handle, d.cuMemcpyDtoH, "cuMemcpyDtoH_v2", missing);
  bind(handle, d.cuMemcpyDtoD, "cuMemcpyDtoD_v2", missing);
  bind(handle, d.cuMemsetD32, "cuMemsetD32_v2", missing);
  bind(handle, d.cuStreamCreate, "cuStreamCreate", missing);
  bind(handle, d.cuStreamDestroy, "cuStreamDestroy_v2", missing);
  bind(handle, d.cuStreamSynchronize, "cuStreamSynchronize", missing);
  bind(handle, d.cuEventCreate, "cuEventCreate", missing);
  bind(handle, d.cuEventDestroy, "cuEventDestroy_v2", missing);
  bind(handle, d.cuEventRecord, "cuEventRecord", missing);
  bind(handle, d.cuEventSynchronize, "cuEventSynchronize", missing);
  // cuda.h maps cuEventElapsedTime to _v2 since 12.8; older drivers have
  // only the original, with the same prototype.
  std::string ignored;
  if (!bind(handle, d.cuEventElapsedTime, "cuEventElapsedTime_v2", ignored))
    bind(handle, d.cuEventElapsedTime, "cuEventElapsedTime", missing);
  // Optional: only kernels with clusters or tensor maps need them.
  bind(handle, d.cuLaunchKernelEx, "cuLaunchKernelEx", ignored);
  bind(handle, d.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", ignored);
  // Optional: only kernels whose tensor maps repack an operand need them.
  bind(handle, d.cuMemAllocAsync, "cuMemAllocAsync", ignored);
  bind(handle, d.cuMemFreeAsync, "cuMemFreeAsync", ignored);
  bind(handle, d.cuMemcpy2DAsync, "cuMemcpy2DAsync_v2", ignored);
  return missing.empty();
}

struct LoadedDriver {
  std::unique_ptr<CudaDriver> driver;
  std::string error;
  int status = TILE_SUCCESS;
};

std::mutex &getDriverMutex() {
  static std::mutex mutex;
  return mutex;
}

/// Loaded drivers by library name. Never unloaded: a driver library does not
/// support dlclose while contexts exist.
std::map<std::string, LoadedDriver> &getDrivers() {
  static auto *drivers = new std::map<std::string, LoadedDriver>();
  return *drivers;
}
} // namespace

const CudaDriver *tile::runtime::loadCudaDriver(std::string &error,
                                                int &status) {
  std::string name = getCudaDriverLibraryName();
  std::lock_guard<std::mutex> lock(getDriverMutex());
  auto it = getDrivers().find(name);
  if (it != getDrivers().end() && it->second.driver)
    return it->second.driver.get();

  void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    error = "no NVIDIA driver found (" + name +
            " could not be loaded: " + (reason ? reason : "unknown reason") +
            ")";
    status = TILE_ERROR_NO_DRIVER;
    return nullptr;
  }
  auto driver = std::make_unique<CudaDriver>();
  driver->libraryName = name;
  std::string missing;
  if (!bindAll(handle, *driver, missing)) {
    // Keep the handle: dlclose of a half-initialized driver is not worth the
    // risk, and the map entry is retried on the next call anyway.
    error = "the NVIDIA driver library " + name + " has no entry point '" +
            missing + "': the driver is too old or this is not libcuda";
    status = TILE_ERROR_DRIVER_TOO_OLD;
    return nullptr;
  }
  LoadedDriver &entry = getDrivers()[name];
  entry.driver = std::move(driver);
  return entry.driver.get();
}

bool tile::runtime::openCudaDevice(const CudaDriver &driver, int ordinal,
                                   CudaDevice &out, std::string &error,
                                   int &status) {
  CUresult result = driver.cuInit(0);
  if (result != CUDA_SUCCESS) {
    if (result == CUDA_ERROR_NO_DEVICE) {
      error = "no CUDA-capable GPU (cuInit: " + driver.describe(result) + ")";
      status = TILE_ERROR_NO_DEVICE;
    } else if (result == CUDA_ERROR_INSUFFICIENT_DRIVER ||
               result == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
               result == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
      error = "the NVIDIA driver cannot be used (cuInit: " +
              driver.describe(result) + ")";
      status = TILE_ERROR_DRIVER_TOO_OLD;
    } else if (result == CUDA_ERROR_STUB_LIBRARY) {
      error = "no NVIDIA driver found (" + driver.libraryName +
              " is the CUDA toolkit's stub library, not a driver)";
      status = TILE_ERROR_NO_DRIVER;
    } else {
      error = "CUDA driver initialization failed (cuInit: " +
              driver.describe(result) + ")";
      status = TILE_ERROR_NO_DEVICE;
    }
    return false;
  }
  int count = 0;
  result = driver.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    error = "no CUDA-capable GPU" +
            (result != CUDA_SUCCESS
                 ? " (cuDeviceGetCount: " + driver.describe(result) + ")"
                 : std::string(" (the driver sees no device)"));
    status = TILE_ERROR_NO_DEVICE;
    return false;
  }
  if (ordinal < 0 || ordinal >= count) {
    error = "device " + std::to_string(ordinal) + " does not exist (" +
            std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") +
            " found)";
    status = TILE_ERROR_INVALID_ARGUMENT;
    return false;
  }
  CudaDevice device;
  device.ordinal = ordinal;
  char name[256] = {0};
  if ((result = driver.cuDeviceGet(&device.device, ordinal)) != CUDA_SUCCESS ||
      (result = driver.cuDeviceGetName(name, sizeof(name) - 1,
                                       device.device)) != CUDA_SUCCESS ||
      (result = driver.cuDeviceGetAttribute(
           &device.computeMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
           device.device)) != CUDA_SUCCESS ||
      (result = driver.cuDeviceGetAttribute(
           &device.computeMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
           device.device)) != CUDA_SUCCESS ||
      (result = driver.cuDriverGetVersion(&device.driverVersion)) !=
          CUDA_SUCCESS) {
    error = "cannot query CUDA device " + std::to_string(ordinal) + ": " +
            driver.describe(result);
    status = TILE_ERROR_CUDA;
    return false;
  }
  device.name = name;
  out = device;
  return true;
}

std::string tile::runtime::formatCudaVersion(int driverVersion) {
  return std::to_string(driverVersion / 1000) + "." +
         std::to_string(driverVersion % 1000 / 10);
}

int tile::runtime::getMinimumDriverForPtx(int major, int minor) {
  // PTX ISA version -> first CUDA release whose driver JIT accepts it, from
  // the PTX ISA release history. PTX 6.x+ only: older PTX predates every
  // driver that supports a chip this project targets.
  static const struct {
    int ptx;
    int driver;
  } kTable[] = {
      {60, 9000},  {61, 9010},  {62, 9020},  {63, 10000}, {64, 10010},
      {65, 10020}, {70, 11000}, {71, 11010}, {72, 11020}, {73, 11030},
      {74, 11040}, {75, 11050}, {76, 11060}, {77, 11070}, {78, 11080},
      {80, 12000}, {81, 12010}, {82, 12020}, {83, 12030}, {84, 12040},
      {85, 12050}, {86, 12070}, {87, 12080}, {88, 12090}, {90, 13000},
      {91, 13010},
  };
  int ptx = major * 10 + minor;
  for (const auto &entry : kTable)
    if (entry.ptx == ptx)
      return entry.driver;
  return 0;
}
