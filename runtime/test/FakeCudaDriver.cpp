//===- FakeCudaDriver.cpp - A host-only stand-in for libcuda.so.1 ---------===//
//
// Exports the driver entry points the runtime resolves, with the driver's
// prototypes, and emulates a GPU on the host: device memory is host memory,
// and a "launch" of the test kernels runs a float32 matmul on the CPU. Tests
// point TILE_CUDA_DRIVER_LIBRARY here to exercise loading, launching and
// tile-run end to end without a GPU.
//
// Behaviour is set through environment variables, read on every call:
//   TILE_FAKE_CUDA_INIT_RESULT     what cuInit returns (default 0)
//   TILE_FAKE_CUDA_DEVICES         device count (default 1)
//   TILE_FAKE_CUDA_CC              compute capability as 90, 100 (default 90)
//   TILE_FAKE_CUDA_DRIVER_VERSION  cuDriverGetVersion (default 13000)
//   TILE_FAKE_CUDA_LOAD_RESULT     what cuModuleLoadDataEx returns
//   TILE_FAKE_CUDA_LAUNCH_RESULT   what cuLaunchKernel returns
//   TILE_FAKE_CUDA_MAX_THREADS     the kernel's max threads per block
//   TILE_FAKE_CUDA_L2_BYTES        L2 size (default 1 MiB)
//   TILE_FAKE_CUDA_EVENT_MS        every event-timed interval (default 0.25)
//   TILE_FAKE_CUDA_MATMUL          "m n k fill|accumulate fill_value rsA csA
//                                   rsB csB rsC csC": what a launch computes
//   TILE_FAKE_CUDA_REPORT          if set, print what is still allocated at
//                                  exit
//   TILE_FAKE_CUDA_BUG             none, skip-last (leave C's last element),
//                                  ignore-c0, tf32 (round inputs to TF32),
//                                  stray (write past the end of C), fault
//                                  (a sticky illegal-address error)
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
using CUresult = int;
using CUdeviceptr = unsigned long long;

struct FakeContext {
  int unused;
};
struct FakeModule {
  std::string image;
  int functions = 0;
};
struct FakeFunction {
  FakeModule *module;
  std::string name;
};
struct FakeEvent {
  int unused;
};
struct FakeStream {
  int unused;
};

struct State {
  FakeContext context;
  FakeContext *current = nullptr;
  int primaryRefs = 0;
  long liveAllocations = 0;
  int liveModules = 0;
  int liveStreams = 0;
  int liveEvents = 0;
  int launches = 0;
  int maxDynamicShared = 0;
  CUresult sticky = 0;
  unsigned lastGrid[3] = {0, 0, 0};
  unsigned lastBlock[3] = {0, 0, 0};
  unsigned lastShared = 0;
  unsigned long long lastArgs[3] = {0, 0, 0};
};
State state;

/// With TILE_FAKE_CUDA_REPORT set, says at exit what was never released,
/// so that tests of tile-run (a separate process) can check its cleanup.
struct ExitReport {
  ~ExitReport() {
    if (std::getenv("TILE_FAKE_CUDA_REPORT"))
      std::fprintf(stderr,
                   "fake-cuda: live allocations %ld, modules %d, streams %d, "
                   "events %d, primary refs %d\n",
                   state.liveAllocations, state.liveModules, state.liveStreams,
                   state.liveEvents, state.primaryRefs);
  }
} exitReport;

long envLong(const char *name, long fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::strtol(value, nullptr, 10) : fallback;
}

std::string envString(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

int computeCapability() {
  return static_cast<int>(envLong("TILE_FAKE_CUDA_CC", 90));
}

float roundToTf32(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits &= 0xffffe000u;
  std::memcpy(&value, &bits, sizeof(bits));
  return value;
}

/// The "kernel": C (+)= A * B as TILE_FAKE_CUDA_MATMUL describes it.
void runMatmul(float *a, float *b, float *c) {
  std::string spec = envString("TILE_FAKE_CUDA_MATMUL");
  if (spec.empty())
    return;
  long long m, n, k, rsA, csA, rsB, csB, rsC, csC;
  char init[32];
  double fill;
  if (std::sscanf(spec.c_str(),
                  "%lld %lld %lld %31s %lf %lld %lld %lld %lld "
                  "%lld %lld",
                  &m, &n, &k, init, &fill, &rsA, &csA, &rsB, &csB, &rsC,
                  &csC) != 11)
    return;
  std::string bug = envString("TILE_FAKE_CUDA_BUG");
  bool accumulate = std::strcmp(init, "accumulate") == 0 && bug != "ignore-c0";
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j) {
      if (bug == "skip-last" && i == m - 1 && j == n - 1)
        continue;
      float *out = &c[i * rsC + j * csC];
      float sum = accumulate ? *out : static_cast<float>(fill);
      for (long long kk = 0; kk < k; ++kk) {
        float x = a[i * rsA + kk * csA], y = b[kk * rsB + j * csB];
        if (bug == "tf32") {
          x = roundToTf32(x);
          y = roundToTf32(y);
        }
        sum = std::fma(x, y, sum);
      }
      *out = sum;
    }
  if (bug == "stray")
    c[(m - 1) * rsC + (n - 1) * csC + 1] = 1.0f;
}
} // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

//===----------------------------------------------------------------------===//
// Test controls
//===----------------------------------------------------------------------===//

FAKE_API void tileFakeCudaReset() { state = State(); }
FAKE_API int tileFakeCudaPrimaryRefs() { return state.primaryRefs; }
FAKE_API long tileFakeCudaLiveAllocations() { return state.liveAllocations; }
FAKE_API int tileFakeCudaLiveModules() { return state.liveModules; }
FAKE_API int tileFakeCudaLaunches() { return state.launches; }
FAKE_API int tileFakeCudaMaxDynamicShared() { return state.maxDynamicShared; }
FAKE_API void tileFakeCudaLastLaunch(unsigned *grid, unsigned *block,
                                     unsigned *shared,
                                     unsigned long long *args) {
  for (int i = 0; i < 3; ++i) {
    grid[i] = state.lastGrid[i];
    block[i] = state.lastBlock[i];
    args[i] = state.lastArgs[i];
  }
  *shared = state.lastShared;
}

//===----------------------------------------------------------------------===//
// Driver API
//===----------------------------------------------------------------------===//

FAKE_API CUresult cuInit(unsigned) {
  return static_cast<CUresult>(envLong("TILE_FAKE_CUDA_INIT_RESULT", 0));
}

FAKE_API CUresult cuDriverGetVersion(int *version) {
  *version = static_cast<int>(envLong("TILE_FAKE_CUDA_DRIVER_VERSION", 13000));
  return 0;
}

FAKE_API CUresult cuGetErrorName(CUresult error, const char **text) {
  switch (error) {
  case 0:
    *text = "CUDA_SUCCESS";
    return 0;
  case 1:
    *text = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 100:
    *text = "CUDA_ERROR_NO_DEVICE";
    return 0;
  case 209:
    *text = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return 0;
  case 218:
    *text = "CUDA_ERROR_INVALID_PTX";
    return 0;
  case 222:
    *text = "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    return 0;
  case 500:
    *text = "CUDA_ERROR_NOT_FOUND";
    return 0;
  case 700:
    *text = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return 0;
  case 701:
    *text = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    return 0;
  }
  *text = nullptr;
  return 1;
}

FAKE_API CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case 100:
    *text = "no CUDA-capable device is detected";
    return 0;
  case 700:
    *text = "an illegal memory access was encountered";
    return 0;
  case 701:
    *text = "too many resources requested for launch";
    return 0;
  }
  *text = "fake driver error";
  return 0;
}

FAKE_API CUresult cuDeviceGetCount(int *count) {
  *count = static_cast<int>(envLong("TILE_FAKE_CUDA_DEVICES", 1));
  return 0;
}

FAKE_API CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= envLong("TILE_FAKE_CUDA_DEVICES", 1))
    return 101;
  *device = ordinal;
  return 0;
}

FAKE_API CUresult cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, length, "Fake GPU");
  return 0;
}

FAKE_API CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 1: // MAX_THREADS_PER_BLOCK
    *value = 1024;
    return 0;
  case 13: // CLOCK_RATE, kHz
    *value = 1980000;
    return 0;
  case 16: // MULTIPROCESSOR_COUNT
    *value = 132;
    return 0;
  case 36: // MEMORY_CLOCK_RATE, kHz
    *value = 3201000;
    return 0;
  case 38: // L2_CACHE_SIZE
    *value = static_cast<int>(envLong("TILE_FAKE_CUDA_L2_BYTES", 1 << 20));
    return 0;
  case 75: // COMPUTE_CAPABILITY_MAJOR
    *value = computeCapability() / 10;
    return 0;
  case 76: // COMPUTE_CAPABILITY_MINOR
    *value = computeCapability() % 10;
    return 0;
  case 97: // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
    *value = 232448;
    return 0;
  }
  return 1;
}

FAKE_API CUresult cuDeviceGetPCIBusId(char *busId, int length, int) {
  std::snprintf(busId, length, "0000:00:00.0");
  return 0;
}

FAKE_API CUresult cuDeviceTotalMem_v2(size_t *bytes, int) {
  *bytes = size_t(8) << 30;
  return 0;
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(FakeContext **context, int) {
  ++state.primaryRefs;
  *context = &state.context;
  return 0;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(int) {
  --state.primaryRefs;
  return 0;
}

FAKE_API CUresult cuCtxSetCurrent(FakeContext *context) {
  state.current = context;
  return 0;
}

FAKE_API CUresult cuCtxGetCurrent(FakeContext **context) {
  *context = state.current;
  return 0;
}

FAKE_API CUresult cuCtxSynchronize() { return state.sticky; }

FAKE_API CUresult cuModuleLoadDataEx(FakeModule **module, const void *image,
                                     unsigned numOptions, int *options,
                                     void **values) {
  CUresult result =
      static_cast<CUresult>(envLong("TILE_FAKE_CUDA_LOAD_RESULT", 0));
  if (result != 0) {
    // Fill the JIT error log as the driver does.
    char *log = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (options[i] == 5)
        log = static_cast<char *>(values[i]);
      if (options[i] == 6)
        size = reinterpret_cast<size_t>(values[i]);
    }
    if (log && size > 0)
      std::snprintf(log, size, "ptxas fatal   : fake JIT failure\n");
    return result;
  }
  auto *loaded = new FakeModule();
  loaded->image = static_cast<const char *>(image);
  ++state.liveModules;
  *module = loaded;
  return 0;
}

FAKE_API CUresult cuModuleUnload(FakeModule *module) {
  --state.liveModules;
  delete module;
  return 0;
}

FAKE_API CUresult cuModuleGetFunction(FakeFunction **function,
                                      FakeModule *module, const char *name) {
  std::string entry = std::string(".entry ") + name;
  size_t at = module->image.find(entry);
  char next =
      at == std::string::npos || at + entry.size() >= module->image.size()
          ? 0
          : module->image[at + entry.size()];
  if (at == std::string::npos || !(next == '(' || next == ' ' || next == '\n'))
    return 500;
  // Functions live as long as the process: the driver ties them to the
  // module, and tests look at nothing but counts.
  static FakeFunction functions[16];
  FakeFunction &slot = functions[module->functions++ % 16];
  slot.module = module;
  slot.name = name;
  *function = &slot;
  return 0;
}

FAKE_API CUresult cuFuncGetAttribute(int *value, int attribute,
                                     FakeFunction *) {
  switch (attribute) {
  case 0: // MAX_THREADS_PER_BLOCK
    *value = static_cast<int>(envLong("TILE_FAKE_CUDA_MAX_THREADS", 1024));
    return 0;
  case 3: // LOCAL_SIZE_BYTES
    *value = 0;
    return 0;
  case 4: // NUM_REGS
    *value = 40;
    return 0;
  }
  return 1;
}

FAKE_API CUresult cuFuncSetAttribute(FakeFunction *, int attribute, int value) {
  if (attribute == 8)
    state.maxDynamicShared = value;
  return 0;
}

FAKE_API CUresult cuLaunchKernel(FakeFunction *, unsigned gridX, unsigned gridY,
                                 unsigned gridZ, unsigned blockX,
                                 unsigned blockY, unsigned blockZ,
                                 unsigned sharedBytes, FakeStream *,
                                 void **params, void **) {
  CUresult result =
      static_cast<CUresult>(envLong("TILE_FAKE_CUDA_LAUNCH_RESULT", 0));
  if (result != 0)
    return result;
  if (state.sticky != 0)
    return state.sticky;
  ++state.launches;
  unsigned grid[3] = {gridX, gridY, gridZ};
  unsigned block[3] = {blockX, blockY, blockZ};
  for (int i = 0; i < 3; ++i) {
    state.lastGrid[i] = grid[i];
    state.lastBlock[i] = block[i];
    state.lastArgs[i] = *static_cast<CUdeviceptr *>(params[i]);
  }
  state.lastShared = sharedBytes;
  if (envString("TILE_FAKE_CUDA_BUG") == "fault") {
    state.sticky = 700;
    return 0;
  }
  runMatmul(reinterpret_cast<float *>(state.lastArgs[0]),
            reinterpret_cast<float *>(state.lastArgs[1]),
            reinterpret_cast<float *>(state.lastArgs[2]));
  return 0;
}

FAKE_API CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *totalBytes) {
  *freeBytes = size_t(4) << 30;
  *totalBytes = size_t(8) << 30;
  return 0;
}

FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  // Device allocations are 256-byte aligned; fresh memory is not zeroed.
  size_t rounded = (bytes + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded);
  if (!memory)
    return 2;
  std::memset(memory, 0xcd, rounded);
  ++state.liveAllocations;
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  return 0;
}

FAKE_API CUresult cuMemFree_v2(CUdeviceptr pointer) {
  if (!pointer)
    return 1;
  --state.liveAllocations;
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}

FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                  size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return state.sticky;
}

FAKE_API CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return state.sticky;
}

FAKE_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src,
                                  size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst),
              reinterpret_cast<const void *>(src), bytes);
  return state.sticky;
}

FAKE_API CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value,
                                 size_t count) {
  auto *words = reinterpret_cast<unsigned *>(dst);
  for (size_t i = 0; i < count; ++i)
    words[i] = value;
  return state.sticky;
}

FAKE_API CUresult cuStreamCreate(FakeStream **stream, unsigned) {
  ++state.liveStreams;
  *stream = new FakeStream();
  return 0;
}

FAKE_API CUresult cuStreamDestroy_v2(FakeStream *stream) {
  --state.liveStreams;
  delete stream;
  return 0;
}

FAKE_API CUresult cuStreamSynchronize(FakeStream *) { return state.sticky; }

FAKE_API CUresult cuEventCreate(FakeEvent **event, unsigned) {
  ++state.liveEvents;
  *event = new FakeEvent();
  return 0;
}

FAKE_API CUresult cuEventDestroy_v2(FakeEvent *event) {
  --state.liveEvents;
  delete event;
  return 0;
}

FAKE_API CUresult cuEventRecord(FakeEvent *, FakeStream *) { return 0; }

FAKE_API CUresult cuEventSynchronize(FakeEvent *) { return state.sticky; }

FAKE_API CUresult cuEventElapsedTime(float *milliseconds, FakeEvent *,
                                     FakeEvent *) {
  const char *value = std::getenv("TILE_FAKE_CUDA_EVENT_MS");
  *milliseconds = value && *value ? std::strtof(value, nullptr) : 0.25f;
  return 0;
}
