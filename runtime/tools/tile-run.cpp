//===- tile-run.cpp - Inspect, verify and time kernel artifacts -----------===//
//
// tile-run info ARTIFACT...     the manifest summary (no GPU needed)
// tile-run verify ARTIFACT...   run on random inputs, compare with float64
// tile-run bench ARTIFACT...    time against cuBLAS (pure FP32 SGEMM for f32
//                               kernels, GemmEx of the same types for bf16
//                               and f16, GemmEx in TF32 for TF32 kernels,
//                               GemmStridedBatchedEx for batched kernels;
//                               cuBLASLt, or the GEMM and an NVRTC-compiled
//                               elementwise kernel, for fused epilogues)
//
// See `tile-run --help` and docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#include "../lib/Artifact.h"
#include "GpuLibraries.h"
#include "TileRun.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tile::run;
using namespace tile::runtime;

namespace {

const char *const kUsage =
    R"(tile-run: inspect, verify and time tile kernel artifacts

usage:
  tile-run info ARTIFACT...
  tile-run verify [options] ARTIFACT...
  tile-run bench [options] ARTIFACT...
  tile-run --help

ARTIFACT is a kernel manifest (NAME.json, with the binaries it names beside
it) or a folder, which stands for every *.json in it in natural order
(matmul_512 before matmul_4096).

commands:
  info     Print what each manifest says, after checking that its binaries
           match their sizes and hashes. Needs no GPU.
  verify   Run each kernel once on random inputs, uniform in [-1, 1) and
           rounded to the inputs' type (f32, bf16 or f16), and compare C
           with a float64 reference of exactly those values: computed on the
           host when batch*m*n*k <= 2^31, else with cuBLAS DGEMM on the GPU
           (one per matrix of a batched kernel, whose every matrix is
           checked, C[b] against C0[b] + A[b]*B[b]). With c_init "fill", C
           is poisoned with NaN before the launch; with "accumulate", C
           starts as random C0 (of C's type) and the reference is C0 + A*B.
           A kernel passes when no element is NaN or Inf, every element
           is within 1e-3 (or the float32 rounding bound for k terms, when
           larger) of |C0| + sum_k |a||b| of the reference, plus half an
           ulp of a bf16 or f16 C, the relative Frobenius-norm error
           ||C - ref|| / ||ref|| is at most 1e-5 (2^-24*sqrt(k) when
           larger, and at least t*2^-24/16 for bf16 or f16 inputs, whose
           tensor cores truncate, t the terms one block sums: k or a
           split-K chunk; plus 2^-8 for a bf16 C, 2^-11 for f16), and
           nothing was written outside C's elements (padding and a guard
           after the buffer are checked). A TF32 kernel (f32 inputs with
           config strategy wgmma: tensor cores that read each input with
           10 mantissa bits; its types read "tf32 -> f32") is allowed
           2^-8 more per element, relative to |C0| + sum_k |a||b| (twice
           the 2^-9 a product of two such inputs may lose), and a norm
           error of the bf16 and f16 rule or 2^-8, the larger; an f32 fma
           kernel keeps the strict f32 rule, which TF32 arithmetic fails.
           One line per artifact; a failure names the first bad element
           and the kernel's block tiles of C that hold bad elements (how
           many; the 3 with the most, with the rows and columns they
           span). Exit status 1 when any fails.
  bench    Per artifact: warm-up launches, then the median of --iters
           launches, each timed with CUDA events, rotating among enough
           buffer sets that together they are more than twice the L2 cache
           (so inputs do not stay in L2). Then cuBLAS on the same data, timed
           the same way: for f32 kernels SGEMM in pedantic math mode (plain
           FP32 FMA, no TF32); for bf16 and f16 kernels cublasGemmEx with
           the kernel's input and C types and FP32 compute, in the default
           math mode (tensor cores); for TF32 kernels cublasGemmEx with f32
           A, B and C and CUBLAS_COMPUTE_32F_FAST_TF32 (inputs read as
           TF32, as the kernel reads them) in the default math mode, which
           the note "cuBLAS ran in TF32" and the JSON and CSV cublas_call
           (ending in "_tf32") say, also for the cuBLASLt and batched
           baselines below; for a fused bias, ReLU, GELU (tanh form,
           recognized by value in any equal order of its steps), bias +
           ReLU or bias + GELU epilogue, and any of those scaled by alpha
           with a full-size operand (a residual) times beta added before
           the activation, cublasLtMatmul with the same epilogue, alpha and
           beta, the operand as its C, and the compute type above; for a
           batched kernel (problem.batch > 1) the strided batched GEMM,
           cublasGemmStridedBatchedEx with the params' batch strides (f32:
           FP32 pedantic compute, CUBLAS_COMPUTE_32F_PEDANTIC; bf16, f16
           and TF32: as cublasGemmEx). Any other fused epilogue (and a
           batched kernel's): the GEMM above, then a separate elementwise
           kernel generated from the manifest's program and compiled with
           NVRTC, timed together ("+epilogue" in cublas_call) once its C
           agrees with the kernel's (else, or without NVRTC, the plain
           GEMM, noted). Prints a table: kernel, shape MxNxK
           (BATCH x MxNxK for a batched kernel), types (when a kernel is not
           all f32: inputs -> C), config, ms, TFLOP/s (2*batch*m*n*k /
           time), cuBLAS ms, cuBLAS TFLOP/s and ratio (cuBLAS time / ours:
           above 1 means faster than cuBLAS).
           Progress goes to stderr.

options:
  --device N        CUDA device ordinal (default 0)
  --binary KIND     auto (default: the cubin when the device is the
                    artifact's chip, else the PTX), cubin or ptx
  --seed N          random seed for the inputs (default: fresh each run;
                    printed so that a run can be repeated)
  --reference KIND  verify: auto (default), host or cublas
  --tolerance X     verify: relative error threshold instead of the default
  --warmup N        bench: warm-up launches (default 10)
  --iters N         bench: timed launches (default 50, at least 20)
  --layout P.F=N    a dynamic offset or stride's value (repeatable): param
                    P's field F (offset, row_stride, col_stride or
                    batch_stride) is N elements, in every artifact where
                    that field is "dynamic" (elsewhere ignored). Dynamic
                    fields not given are one 16-byte step past the densest
                    layout: offset 16 bytes, rows (and matrices) 16 bytes
                    further apart than the columns rounded up to 16 bytes
  --no-cublas       bench: leave out the cuBLAS comparison
  --json FILE       bench: also write the results as JSON
  --csv FILE        bench: also write the results as CSV
  --help            this text

environment:
  TILE_CUDA_DRIVER_LIBRARY  the driver library to load (default libcuda.so.1)
  TILE_CUBLAS_LIBRARY       a cuBLAS library to try first; then
                            libcublas.so.13, .so.12 and .so on the loader's
                            path, $CUDA_HOME/lib64 and /usr/local/cuda/lib64
  TILE_CUBLASLT_LIBRARY     a cuBLASLt library to try first (fused
                            epilogue baselines; none: not used, the GEMM
                            and a separate epilogue kernel instead); then
                            libcublasLt.so.13, .so.12, .so as for cuBLAS
  TILE_NVRTC_LIBRARY        an NVRTC library to try first (the separate
                            epilogue kernel; none: no such kernel); then
                            libnvrtc.so.13, .so.12, .so as for cuBLAS
  TILE_NVML_LIBRARY         NVML, for the driver version and clocks
                            (default libnvidia-ml.so.1; optional)

exit status:
  0 everything passed, 1 an artifact failed or could not be run,
  2 bad usage, 3 no NVIDIA driver or GPU
)";

enum ExitCode { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitNoGpu = 3 };

/// Elements after C's buffer that must stay untouched.
constexpr size_t kGuardElements = 64;
/// Problems up to this many multiply-adds get the host float64 reference.
constexpr double kHostReferenceLimit = 2147483648.0;
/// Buffer sets are carved from one allocation at this alignment.
constexpr uint64_t kSetAlignment = 256;

struct Options {
  std::string command;
  std::vector<std::string> artifacts;
  int device = 0;
  int binary = TILE_BINARY_AUTO;
  bool haveSeed = false;
  uint64_t seed = 0;
  std::string reference = "auto";
  double tolerance = 0;
  int warmup = 10;
  int iters = 50;
  bool cublas = true;
  std::string jsonPath, csvPath;
  /// --layout: (param, field) -> value.
  std::map<std::pair<std::string, std::string>, int64_t> layouts;
};

std::string format(const char *pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), pattern, value);
  return buffer;
}

/// "96x80x72", or "4 x 96x80x72" for a batch of 4.
std::string formatShape(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  std::string shape =
      std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  return batch > 1 ? std::to_string(batch) + " x " + shape : shape;
}

std::string formatBytes(double bytes) {
  if (bytes >= 1024.0 * 1024 * 1024)
    return format("%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  if (bytes >= 1024.0 * 1024)
    return format("%.1f MiB", bytes / (1024.0 * 1024));
  return format("%.0f KiB", bytes / 1024.0);
}

uint64_t roundUp(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

uint64_t freshSeed() {
  auto now = std::chrono::high_resolution_clock::now().time_since_epoch();
  Random random(static_cast<uint64_t>(now.count()) ^
                (static_cast<uint64_t>(getpid()) << 32));
  // Keep seeds short enough to type.
  return random.next() % 1000000000ull;
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

bool parseInteger(const std::string &text, long long min, long long max,
                  long long &value) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long long result = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || result < min || result > max)
    return false;
  value = result;
  return true;
}

bool usageError(const std::string &message) {
  std::fprintf(stderr, "tile-run: %s\nrun 'tile-run --help' for usage\n",
               message.c_str());
  return false;
}

bool parseOptions(int argc, char **argv, Options &options) {
  if (argc < 2)
    return usageError("no command given");
  options.command = argv[1];
  if (options.command != "info" && options.command != "verify" &&
      options.command != "bench")
    return usageError("unknown command '" + options.command + "'");
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      options.artifacts.push_back(arg);
      continue;
    }
    if (arg == "--no-cublas") {
      options.cublas = false;
      continue;
    }
    std::string name = arg, value;
    size_t equals = arg.find('=');
    if (equals != std::string::npos) {
      name = arg.substr(0, equals);
      value = arg.substr(equals + 1);
    } else {
      static const char *const kWithValue[] = {
          "--device", "--binary", "--seed", "--reference", "--tolerance",
          "--warmup", "--iters",  "--json", "--csv", "--layout"};
      bool takesValue = false;
      for (const char *known : kWithValue)
        takesValue |= name == known;
      if (!takesValue)
        return usageError("unknown option '" + arg + "'");
      if (i + 1 >= argc)
        return usageError("option '" + name + "' needs a value");
      value = argv[++i];
    }
    long long number;
    if (name == "--device") {
      if (!parseInteger(value, 0, INT_MAX, number))
        return usageError("--device needs a device ordinal, got '" + value +
                          "'");
      options.device = static_cast<int>(number);
    } else if (name == "--binary") {
      if (value == "auto")
        options.binary = TILE_BINARY_AUTO;
      else if (value == "cubin")
        options.binary = TILE_BINARY_CUBIN;
      else if (value == "ptx")
        options.binary = TILE_BINARY_PTX;
      else
        return usageError("--binary must be auto, cubin or ptx, got '" + value +
                          "'");
    } else if (name == "--seed") {
      char *end = nullptr;
      errno = 0;
      unsigned long long seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || value[0] == '-' || errno != 0 || *end != '\0')
        return usageError("--seed needs a non-negative integer, got '" + value +
                          "'");
      options.seed = seed;
      options.haveSeed = true;
    } else if (name == "--reference") {
      if (value != "auto" && value != "host" && value != "cublas")
        return usageError("--reference must be auto, host or cublas, got '" +
                          value + "'");
      options.reference = value;
    } else if (name == "--tolerance") {
      char *end = nullptr;
      double tolerance = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(tolerance > 0))
        return usageError("--tolerance needs a positive number, got '" + value +
                          "'");
      options.tolerance = tolerance;
    } else if (name == "--warmup") {
      if (!parseInteger(value, 0, 1000000, number))
        return usageError("--warmup needs a count, got '" + value + "'");
      options.warmup = static_cast<int>(number);
    } else if (name == "--iters") {
      if (!parseInteger(value, 0, 1000000, number))
        return usageError("--iters needs a count, got '" + value + "'");
      if (number < 20)
        return usageError("--iters must be at least 20 (a median of fewer "
                          "launches is noise), got " +
                          value);
      options.iters = static_cast<int>(number);
    } else if (name == "--json") {
      options.jsonPath = value;
    } else if (name == "--csv") {
      options.csvPath = value;
    } else if (name == "--layout") {
      size_t dot = value.find('.'), eq = value.find('=');
      std::string field =
          dot < eq && eq != std::string::npos
              ? value.substr(dot + 1, eq - dot - 1)
              : std::string();
      char *end = nullptr;
      long long n = eq == std::string::npos
                        ? -1
                        : std::strtoll(value.c_str() + eq + 1, &end, 10);
      if (field.empty() || dot == 0 || n < 0 || !end || *end != '\0' ||
          end == value.c_str() + eq + 1 ||
          (field != "offset" && field != "row_stride" &&
           field != "col_stride" && field != "batch_stride"))
        return usageError("--layout needs PARAM.FIELD=N (FIELD offset, "
                          "row_stride, col_stride or batch_stride; N a "
                          "non-negative integer), got '" +
                          value + "'");
      options.layouts[{value.substr(0, dot), field}] = n;
    } else {
      return usageError("unknown option '" + name + "'");
    }
  }
  if (options.artifacts.empty())
    return usageError("no artifact given");
  return true;
}

//===----------------------------------------------------------------------===//
// GPU state
//===----------------------------------------------------------------------===//

/// The device, its primary context (retained and current) and one stream.
class Gpu {
public:
  ~Gpu() {
    if (stream)
      driver->cuStreamDestroy(stream);
    if (context)
      driver->cuDevicePrimaryCtxRelease(device.device);
  }

  /// Returns a tile_status; `error` says why on failure.
  int open(int ordinal, std::string &error) {
    int status = TILE_SUCCESS;
    driver = loadCudaDriver(error, status);
    if (!driver)
      return status;
    if (!openCudaDevice(*driver, ordinal, device, error, status))
      return status;
    CUresult result = driver->cuDevicePrimaryCtxRetain(&context, device.device);
    if (result != CUDA_SUCCESS) {
      context = nullptr;
      error = "cannot retain the primary context: " + driver->describe(result);
      return TILE_ERROR_CUDA;
    }
    if (!check(driver->cuCtxSetCurrent(context), "cuCtxSetCurrent", error) ||
        !check(driver->cuDeviceGetAttribute(
                   &smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                   device.device),
               "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)", error) ||
        !check(driver->cuDeviceGetAttribute(
                   &l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device.device),
               "cuDeviceGetAttribute(L2_CACHE_SIZE)", error) ||
        !check(driver->cuDeviceTotalMem(&totalMemory, device.device),
               "cuDeviceTotalMem", error) ||
        !check(driver->cuStreamCreate(&stream, 0), "cuStreamCreate", error))
      return TILE_ERROR_CUDA;
    // Informational only: newer drivers may not report these.
    if (driver->cuDeviceGetAttribute(&clockKhz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
                                     device.device) != CUDA_SUCCESS)
      clockKhz = 0;
    if (driver->cuDeviceGetAttribute(&memoryClockKhz,
                                     CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                                     device.device) != CUDA_SUCCESS)
      memoryClockKhz = 0;
    char busId[64] = {0};
    if (driver->cuDeviceGetPCIBusId(busId, sizeof(busId) - 1, device.device) ==
        CUDA_SUCCESS)
      pciBusId = busId;
    nvml = queryNvml(pciBusId);
    return TILE_SUCCESS;
  }

  bool check(CUresult result, const std::string &what,
             std::string &error) const {
    if (result == CUDA_SUCCESS)
      return true;
    error = what + " failed: " + driver->describe(result);
    return false;
  }

  /// After a failure: false when the context itself is broken (a kernel
  /// fault is sticky), so nothing more can run in this process.
  bool healthy() const { return driver->cuCtxSynchronize() == CUDA_SUCCESS; }

  unsigned maxSmClockMhz() const {
    return nvml.maxSmClockMhz ? nvml.maxSmClockMhz : clockKhz / 1000;
  }
  unsigned maxMemoryClockMhz() const {
    return nvml.maxMemoryClockMhz ? nvml.maxMemoryClockMhz
                                  : memoryClockKhz / 1000;
  }

  std::string describe() const {
    std::string text = "GPU " + std::to_string(device.ordinal) + ": " +
                       device.name + ", " + std::to_string(smCount) + " SMs, " +
                       formatChip(device.computeMajor, device.computeMinor) +
                       ", " + formatBytes(static_cast<double>(totalMemory)) +
                       ", L2 " + formatBytes(l2Bytes) + "\n";
    text += "driver " +
            (nvml.driverVersion.empty() ? std::string("(version unknown)")
                                        : nvml.driverVersion) +
            ", CUDA " + formatCudaVersion(device.driverVersion) +
            " (driver API " + std::to_string(device.driverVersion) + ")";
    if (maxSmClockMhz())
      text += ", SM clock max " + std::to_string(maxSmClockMhz()) + " MHz";
    if (maxMemoryClockMhz())
      text +=
          ", memory clock max " + std::to_string(maxMemoryClockMhz()) + " MHz";
    return text;
  }

  const CudaDriver *driver = nullptr;
  CudaDevice device;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  int smCount = 0, l2Bytes = 0, clockKhz = 0, memoryClockKhz = 0;
  size_t totalMemory = 0;
  std::string pciBusId;
  NvmlInfo nvml;
};

/// One device allocation, freed on destruction.
class DeviceMemory {
public:
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;
  ~DeviceMemory() {
    if (pointer)
      driver->cuMemFree(pointer);
  }

  bool allocate(const Gpu &gpu, size_t size, const char *what,
                std::string &error) {
    driver = gpu.driver;
    bytes = size;
    if (!gpu.check(driver->cuMemAlloc(&pointer, std::max<size_t>(size, 1)),
                   std::string("cuMemAlloc of ") + formatBytes(size) + " for " +
                       what,
                   error)) {
      pointer = 0;
      return false;
    }
    return true;
  }

  const CudaDriver *driver = nullptr;
  CUdeviceptr pointer = 0;
  size_t bytes = 0;
};

/// Timing events, destroyed on destruction.
class Events {
public:
  ~Events() {
    for (CUevent event : events)
      driver->cuEventDestroy(event);
  }
  bool create(const Gpu &gpu, size_t count, std::string &error) {
    driver = gpu.driver;
    for (size_t i = 0; i < count; ++i) {
      CUevent event = nullptr;
      if (!gpu.check(driver->cuEventCreate(&event, CU_EVENT_DEFAULT),
                     "cuEventCreate", error))
        return false;
      events.push_back(event);
    }
    return true;
  }
  CUevent operator[](size_t index) const { return events[index]; }

private:
  const CudaDriver *driver = nullptr;
  std::vector<CUevent> events;
};

/// A cuBLAS handle on the tool's stream, in pedantic (pure FP32) math.
class CublasSession {
public:
  ~CublasSession() {
    if (handle)
      cublas->destroy(handle);
  }
  bool open(const Cublas &library, const Gpu &gpu, std::string &error) {
    cublas = &library;
    CublasStatus status = cublas->create(&handle);
    if (status != 0) {
      handle = nullptr;
      error = "cublasCreate failed: " + cublas->describe(status);
      return false;
    }
    if ((status = cublas->setStream(handle, gpu.stream)) != 0 ||
        (status = cublas->setMathMode(handle, CUBLAS_PEDANTIC_MATH)) != 0) {
      error = "cuBLAS setup failed: " + cublas->describe(status);
      return false;
    }
    if (cublas->getVersion(handle, &version) != 0)
      version = 0;
    return true;
  }
  std::string describe() const {
    std::string text = "cuBLAS";
    if (version)
      text += " " + std::to_string(version / 10000) + "." +
              std::to_string(version / 100 % 100) + "." +
              std::to_string(version % 100);
    return text + " (" + cublas->path + "), pedantic FP32 math";
  }

  const Cublas *cublas = nullptr;
  CublasHandle handle = nullptr;
  int version = 0;
};

/// An opened artifact and its loaded kernel.
struct LoadedArtifact {
  ~LoadedArtifact() {
    tile_kernel_unload(kernel);
    tile_artifact_close(artifact);
  }
  tile_artifact *artifact = nullptr;
  tile_kernel *kernel = nullptr;
  tile_load_info load;
  const KernelManifest *manifest = nullptr;
  /// For a kernel with dynamic offsets or strides: each param's layout at
  /// launch, and the manifest with them (what `manifest` points to).
  std::vector<ParamLayout> layouts;
  KernelManifest resolved;
};

/// The layouts a kernel with dynamic offsets or strides is run with: the
/// --layout values, else one 16-byte step past the densest. False (and
/// `error`) for a --layout that names a param the kernel lacks.
bool chooseLayouts(const KernelManifest &manifest, const Options &options,
                   std::vector<ParamLayout> &layouts, std::string &error) {
  // A --layout that names no param of the kernel is a typo, not a field to
  // skip.
  for (const auto &[key, value] : options.layouts)
    if (findParamIndex(manifest, key.first) < 0) {
      error = "--layout " + key.first + "." + key.second + "=" +
              std::to_string(value) + " names param '" + key.first +
              "', which kernel " + manifest.kernel + " does not have";
      return false;
    }
  for (const ParamInfo &param : manifest.params) {
    ParamLayout layout = getParamLayout(param);
    int64_t step =
        std::max<int64_t>(1, 16 / int64_t(getElementTypeSize(param.elementType)));
    auto roundUp = [&](int64_t v) {
      return v > INT64_MAX / 2 ? v : (v + step - 1) / step * step;
    };
    auto pick = [&](const char *field, int64_t &value, int64_t fallback) {
      if (value != kDynamic)
        return;
      auto it = options.layouts.find({param.name, field});
      value = it != options.layouts.end() ? it->second : fallback;
    };
    pick("offset", layout.offset, step);
    pick("row_stride", layout.rowStride, roundUp(param.cols) + step);
    pick("col_stride", layout.colStride, roundUp(param.rows) + step);
    ParamInfo matrix = param;
    matrix.offset = 0;
    matrix.rowStride = layout.rowStride;
    matrix.colStride = layout.colStride;
    uint64_t elements = 0;
    getRequiredElements(matrix, 1, elements);
    pick("batch_stride", layout.batchStride,
         roundUp(int64_t(elements)) + step);
    layouts.push_back(layout);
  }
  return true;
}

/// Launches the loaded kernel on `args`, with its layouts where it has
/// dynamic offsets or strides.
int launchLoaded(const LoadedArtifact &loaded,
                 const std::vector<tile_buffer> &args, void *stream) {
  if (loaded.layouts.empty())
    return tile_kernel_launch(loaded.kernel, args.data(), args.size(), stream);
  return tile_kernel_launch_layouts(
      loaded.kernel, args.data(),
      reinterpret_cast<const tile_layout *>(loaded.layouts.data()),
      args.size(), stream);
}

bool openAndLoad(const std::string &path, const Options &options,
                 LoadedArtifact &out, std::string &error) {
  if (tile_artifact_open(path.c_str(), &out.artifact) != TILE_SUCCESS) {
    error = tile_last_error();
    return false;
  }
  out.manifest = &out.artifact->manifest;
  if (hasDynamicLayout(*out.manifest)) {
    if (!chooseLayouts(*out.manifest, options, out.layouts, error) ||
        !resolveLayouts(*out.manifest, out.layouts.data(), out.layouts.size(),
                        out.resolved, error))
      return false;
    out.manifest = &out.resolved;
  }
  for (const ParamInfo &param : out.manifest->params)
    if (param.elementType != ElementType::F32 &&
        param.elementType != ElementType::BF16 &&
        param.elementType != ElementType::F16) {
      error = "param " + param.name + " has element type " +
              std::string(stringifyElementType(param.elementType)) +
              "; tile-run runs f32, bf16 and f16 kernels only";
      return false;
    }
  tile_load_options load = {options.device, options.binary};
  if (tile_kernel_load(out.artifact, &load, &out.kernel) != TILE_SUCCESS ||
      tile_kernel_get_load_info(out.kernel, &out.load) != TILE_SUCCESS) {
    error = tile_last_error();
    return false;
  }
  return true;
}

/// The manifest's params as [lhs, rhs, result].
struct Operands {
  const ParamInfo *a, *b, *c;
  explicit Operands(const KernelManifest &manifest)
      : a(findParam(manifest, ParamRole::Lhs)),
        b(findParam(manifest, ParamRole::Rhs)),
        c(findParam(manifest, ParamRole::Result)) {}
};

/// What a buffer for `param` of a kernel of `batch` matrices holds.
uint64_t requiredElements(const ParamInfo &param, int64_t batch) {
  uint64_t elements = 0;
  getRequiredElements(param, batch, elements);
  return elements;
}

//===----------------------------------------------------------------------===//
// info
//===----------------------------------------------------------------------===//

int runInfo(const std::vector<std::string> &paths) {
  int exitCode = kExitOk;
  for (size_t index = 0; index < paths.size(); ++index) {
    tile_artifact *artifact = nullptr;
    if (tile_artifact_open(paths[index].c_str(), &artifact) != TILE_SUCCESS) {
      std::fprintf(stderr, "tile-run: %s\n", tile_last_error());
      exitCode = kExitFailed;
      continue;
    }
    const KernelManifest &m = artifact->manifest;
    const ProblemInfo &p = m.problem;
    if (index != 0)
      std::printf("\n");
    std::printf("%s (%s)\n", m.kernel.c_str(), paths[index].c_str());
    std::printf("  target     %s, PTX ISA %s\n", m.target.chip.c_str(),
                m.target.ptxVersion.c_str());
    for (size_t i = 0; i < m.binaries.size(); ++i) {
      const BinaryInfo &b = m.binaries[i];
      std::printf("  %-10s %-5s %s, %llu bytes, fnv1a64 %s (verified)\n",
                  i == 0 ? "binaries" : "",
                  std::string(stringifyBinaryFormat(b.format)).c_str(),
                  b.file.c_str(), static_cast<unsigned long long>(b.size),
                  formatHex64(b.fnv1a64).c_str());
    }
    std::string init = p.cInit == CInit::Accumulate
                           ? "C += A*B"
                           : "C = " + format("%g", p.cFillValue) + " + A*B";
    if (p.batch > 1)
      init = (p.cInit == CInit::Accumulate
                  ? "C[b] += A[b]*B[b]"
                  : "C[b] = " + format("%g", p.cFillValue) + " + A[b]*B[b]") +
             " for b < " + std::to_string(p.batch);
    std::printf("  problem    %s, m=%lld n=%lld k=%lld, %s inputs, %s "
                "accumulation (c_init %s)\n",
                init.c_str(), static_cast<long long>(p.m),
                static_cast<long long>(p.n), static_cast<long long>(p.k),
                std::string(stringifyElementType(p.elementType)).c_str(),
                std::string(stringifyElementType(p.accumulatorType)).c_str(),
                std::string(stringifyCInit(p.cInit)).c_str());
    const LaunchInfo &l = m.launch;
    std::string cluster;
    if (getClusterBlocks(l) > 1)
      cluster = ", cluster " + std::to_string(l.cluster[0]) + "x" +
                std::to_string(l.cluster[1]) + "x" +
                std::to_string(l.cluster[2]);
    std::printf("  launch     grid %ux%ux%u, block %ux%ux%u%s, %u bytes "
                "dynamic shared memory\n",
                l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1],
                l.block[2], cluster.c_str(), l.dynamicSharedBytes);
    for (size_t i = 0; i < m.params.size(); ++i) {
      const ParamInfo &q = m.params[i];
      uint64_t bytes = 0;
      getRequiredBytes(q, p.batch, bytes);
      std::string batched;
      if (p.batch > 1)
        batched = std::to_string(p.batch) + " x ";
      std::string batchStride;
      auto text = [](int64_t v) {
        return v == kDynamic ? std::string("dynamic") : std::to_string(v);
      };
      if (q.batchStride != 0)
        batchStride = ", batch_stride " + text(q.batchStride);
      if (q.offset != 0)
        batchStride += ", offset " + text(q.offset);
      std::string needs = hasDynamicLayout(q)
                              ? std::string("needs what its layout spans")
                              : "needs " + std::to_string(bytes) + " bytes";
      std::printf(
          "  %-10s %-3s %-6s %s %s%lldx%lld, strides %s,%s%s, "
          "align %u, %s, %s\n",
          i == 0 ? "params" : "", q.name.c_str(),
          std::string(stringifyParamRole(q.role)).c_str(),
          std::string(stringifyElementType(q.elementType)).c_str(),
          batched.c_str(), static_cast<long long>(q.rows),
          static_cast<long long>(q.cols), text(q.rowStride).c_str(),
          text(q.colStride).c_str(), batchStride.c_str(), q.alignment,
          std::string(stringifyParamAccess(q.access)).c_str(), needs.c_str());
    }
    for (size_t i = 0; i < m.tensorMaps.size(); ++i) {
      const TensorMapInfo &t = m.tensorMaps[i];
      std::printf(
          "  %-10s %zu  %-3s box %ux%u (rows x cols), swizzle %s, L2 "
          "promotion %s\n",
          i == 0 ? "maps" : "", i, t.param.c_str(), t.box[0], t.box[1],
          std::string(stringifyTensorMapSwizzle(t.swizzle)).c_str(),
          std::string(stringifyTensorMapL2Promotion(t.l2Promotion)).c_str());
    }
    if (!m.epilogue.empty()) {
      // The steps in order, then what each extra operand is.
      std::string steps;
      for (const std::string &step : m.epilogue.steps)
        steps += (steps.empty() ? "" : "; ") + step;
      std::string operands;
      for (size_t j = 0; j < m.epilogue.operands.size(); ++j)
        operands += (j == 0 ? " (" : ", ") + ("p" + std::to_string(j)) + " = " +
                    m.epilogue.operands[j].param + ", " +
                    std::string(stringifyEpilogueOperandKind(
                        m.epilogue.operands[j].kind));
      if (!operands.empty())
        operands += ")";
      std::printf("  epilogue   %s%s\n",
                  steps.empty() ? "(no steps)" : steps.c_str(),
                  operands.c_str());
    }
    std::printf("  config     %s\n", formatConfigShort(m.config).c_str());
    if (!m.config.text.empty())
      std::printf("             %s\n", m.config.text.c_str());
    const ResourceInfo &r = m.resources;
    if (r.registers < 0)
      std::printf("  resources  unknown (ptxas was not run)\n");
    else
      std::printf("  resources  %lld registers, %lld spill stores, %lld "
                  "spill loads, %lld stack bytes\n",
                  static_cast<long long>(r.registers),
                  static_cast<long long>(r.spillStores),
                  static_cast<long long>(r.spillLoads),
                  static_cast<long long>(r.stackBytes));
    tile_artifact_close(artifact);
  }
  return exitCode;
}

//===----------------------------------------------------------------------===//
// verify
//===----------------------------------------------------------------------===//

/// float64 reference with cuBLAS DGEMM: value = init + A*B, then
/// magnitude = |init| + |A|*|B| with a second DGEMM.
bool computeCublasReference(const Gpu &gpu, const Cublas &library,
                            const float *a, const float *b, const float *c0,
                            double fillValue, int64_t m, int64_t n, int64_t k,
                            Reference &out, std::string &error) {
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX) {
    error = "the problem is too large for cuBLAS's 32-bit sizes";
    return false;
  }
  CublasSession session;
  if (!session.open(library, gpu, error))
    return false;
  const CudaDriver &d = *gpu.driver;
  size_t aCount = static_cast<size_t>(m * k),
         bCount = static_cast<size_t>(k * n),
         cCount = static_cast<size_t>(m * n);
  DeviceMemory da, db, dc;
  if (!da.allocate(gpu, aCount * sizeof(double), "the DGEMM reference",
                   error) ||
      !db.allocate(gpu, bCount * sizeof(double), "the DGEMM reference",
                   error) ||
      !dc.allocate(gpu, cCount * sizeof(double), "the DGEMM reference", error))
    return false;
  std::vector<double> staging(std::max({aCount, bCount, cCount}));
  const double one = 1.0;
  for (int pass = 0; pass < 2; ++pass) {
    // Pass 0: the values; pass 1: the magnitudes.
    auto convert = [&](const float *values, size_t count) {
      for (size_t i = 0; i < count; ++i)
        staging[i] = pass == 0 ? static_cast<double>(values[i])
                               : std::fabs(static_cast<double>(values[i]));
    };
    convert(a, aCount);
    if (!gpu.check(
            d.cuMemcpyHtoD(da.pointer, staging.data(), aCount * sizeof(double)),
            "cuMemcpyHtoD", error))
      return false;
    convert(b, bCount);
    if (!gpu.check(
            d.cuMemcpyHtoD(db.pointer, staging.data(), bCount * sizeof(double)),
            "cuMemcpyHtoD", error))
      return false;
    for (size_t i = 0; i < cCount; ++i) {
      double init = c0 ? static_cast<double>(c0[i]) : fillValue;
      staging[i] = pass == 0 ? init : std::fabs(init);
    }
    if (!gpu.check(
            d.cuMemcpyHtoD(dc.pointer, staging.data(), cCount * sizeof(double)),
            "cuMemcpyHtoD", error))
      return false;
    // Row-major C = A*B is column-major C^T = B^T * A^T; beta = 1 adds the
    // initial value already in C.
    CublasStatus status = library.dgemm(
        session.handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n),
        static_cast<int>(m), static_cast<int>(k), &one,
        reinterpret_cast<const double *>(db.pointer), static_cast<int>(n),
        reinterpret_cast<const double *>(da.pointer), static_cast<int>(k), &one,
        reinterpret_cast<double *>(dc.pointer), static_cast<int>(n));
    if (status != 0) {
      error = "cublasDgemm failed: " + library.describe(status);
      return false;
    }
    std::vector<double> &target = pass == 0 ? out.value : out.magnitude;
    target.resize(cCount);
    if (!gpu.check(d.cuStreamSynchronize(gpu.stream),
                   "cuStreamSynchronize after DGEMM", error) ||
        !gpu.check(
            d.cuMemcpyDtoH(target.data(), dc.pointer, cCount * sizeof(double)),
            "cuMemcpyDtoH", error))
      return false;
  }
  return true;
}

struct VerifyOutcome {
  bool pass = false;
  /// The context is broken: stop running.
  bool fatal = false;
  std::string line;
};

VerifyOutcome verifyArtifact(const Gpu &gpu, const Options &options,
                             const std::string &path, uint64_t seed) {
  VerifyOutcome outcome;
  std::string error;
  auto failLine = [&](const std::string &name, const std::string &shape,
                      const std::string &why) {
    outcome.line = name + "  " + shape + "  FAIL  seed " +
                   std::to_string(seed) + "\n    " + why;
    return outcome;
  };

  LoadedArtifact loaded;
  if (!openAndLoad(path, options, loaded, error)) {
    if (!loaded.manifest)
      return failLine(path, "-", error);
    const ProblemInfo &p = loaded.manifest->problem;
    return failLine(loaded.manifest->kernel,
                    formatShape(p.m, p.n, p.k, p.batch), error);
  }
  const KernelManifest &manifest = *loaded.manifest;
  const ProblemInfo &problem = manifest.problem;
  const int64_t m = problem.m, n = problem.n, k = problem.k;
  // A batched kernel: `batch` matrices of each, dense one after another on
  // the host, b * batch_stride apart in the buffers.
  const int64_t batch = problem.batch;
  std::string name = manifest.kernel;
  std::string shape = formatShape(m, n, k, batch);
  Operands ops(manifest);
  bool accumulate = problem.cInit == CInit::Accumulate;
  const CudaDriver &d = *gpu.driver;
  ElementType cType = ops.c->elementType;

  // Logical inputs, dense row-major, rounded to the types of their buffers:
  // the reference computes with exactly what the kernel reads.
  std::vector<float> a(static_cast<size_t>(batch * m * k)),
      b(static_cast<size_t>(batch * k * n)), c0;
  fillUniform(a, seed, 1);
  fillUniform(b, seed, 2);
  roundToElementType(a, ops.a->elementType);
  roundToElementType(b, ops.b->elementType);
  if (accumulate) {
    c0.resize(static_cast<size_t>(batch * m * n));
    fillUniform(c0, seed, 3);
    roundToElementType(c0, cType);
  }

  // Buffers as the params lay them out; C gets a guard after its end.
  uint64_t aElements = requiredElements(*ops.a, batch);
  uint64_t bElements = requiredElements(*ops.b, batch);
  uint64_t cElements = requiredElements(*ops.c, batch);
  unsigned aBytes = getElementTypeSize(ops.a->elementType);
  unsigned bBytes = getElementTypeSize(ops.b->elementType);
  unsigned cBytes = getElementTypeSize(cType);
  DeviceMemory da, db, dc;
  if (!da.allocate(gpu, aElements * aBytes, "A", error) ||
      !db.allocate(gpu, bElements * bBytes, "B", error) ||
      !dc.allocate(gpu, (cElements + kGuardElements) * cBytes, "C", error))
    return failLine(name, shape, error);
  {
    std::vector<char> staging(aElements * aBytes, 0);
    // A's or B's rows or matrices may overlap (only read, so allowed): the
    // reference takes the values the buffer ends up holding.
    scatterBatchElements(a.data(), *ops.a, batch, staging.data());
    gatherBatchElements(staging.data(), *ops.a, batch, a.data());
    if (!gpu.check(d.cuMemcpyHtoD(da.pointer, staging.data(), staging.size()),
                   "cuMemcpyHtoD(A)", error))
      return failLine(name, shape, error);
    staging.assign(bElements * bBytes, 0);
    scatterBatchElements(b.data(), *ops.b, batch, staging.data());
    gatherBatchElements(staging.data(), *ops.b, batch, b.data());
    if (!gpu.check(d.cuMemcpyHtoD(db.pointer, staging.data(), staging.size()),
                   "cuMemcpyHtoD(B)", error))
      return failLine(name, shape, error);
  }
  // C poisoned with NaN, C0 in its elements when the kernel accumulates.
  std::vector<char> cBuffer((cElements + kGuardElements) * cBytes);
  fillPoison(cBuffer.data(), cElements + kGuardElements, cType);
  if (accumulate)
    scatterBatchElements(c0.data(), *ops.c, batch, cBuffer.data());
  if (!gpu.check(d.cuMemcpyHtoD(dc.pointer, cBuffer.data(), cBuffer.size()),
                 "cuMemcpyHtoD(C)", error))
    return failLine(name, shape, error);

  // A fused epilogue's operands (params after C): random, rounded to their
  // types, dense row-major for the reference.
  // In a batched kernel, one with a batch_stride has a matrix (or vector)
  // per batch, one without is shared by all.
  size_t numEpilogue = manifest.epilogue.operands.size();
  std::vector<std::vector<float>> epilogueValues(numEpilogue);
  std::vector<bool> epiloguePerBatch(numEpilogue);
  std::vector<std::unique_ptr<DeviceMemory>> epilogueMemory;
  for (size_t j = 0; j < numEpilogue; ++j) {
    const ParamInfo &param = manifest.params[3 + j];
    epiloguePerBatch[j] = batch > 1 && param.batchStride > 0;
    int64_t matrices = epiloguePerBatch[j] ? batch : 1;
    epilogueValues[j].resize(
        static_cast<size_t>(matrices * param.rows * param.cols));
    fillUniform(epilogueValues[j], seed, 10 + j);
    roundToElementType(epilogueValues[j], param.elementType);
    uint64_t elements = requiredElements(param, batch);
    unsigned bytes = getElementTypeSize(param.elementType);
    epilogueMemory.push_back(std::make_unique<DeviceMemory>());
    if (!epilogueMemory.back()->allocate(gpu, elements * bytes,
                                         "an epilogue operand", error))
      return failLine(name, shape, error);
    std::vector<char> staging(elements * bytes, 0);
    scatterBatchElements(epilogueValues[j].data(), param, matrices,
                         staging.data());
    // (Its vectors or matrices may overlap, as A's and B's may: the
    // reference takes what the buffer holds.)
    gatherBatchElements(staging.data(), param, matrices,
                        epilogueValues[j].data());
    if (!gpu.check(d.cuMemcpyHtoD(epilogueMemory.back()->pointer,
                                  staging.data(), staging.size()),
                   "cuMemcpyHtoD(epilogue operand)", error))
      return failLine(name, shape, error);
  }

  std::vector<tile_buffer> args(manifest.params.size());
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const ParamInfo &param = manifest.params[i];
    const DeviceMemory &memory =
        param.role == ParamRole::Epilogue ? *epilogueMemory[i - 3]
        : param.role == ParamRole::Lhs    ? da
        : param.role == ParamRole::Rhs    ? db
                                          : dc;
    uint64_t bytes = 0;
    getRequiredBytes(param, batch, bytes);
    args[i] = {memory.pointer, bytes};
  }
  if (launchLoaded(loaded, args, gpu.stream) != TILE_SUCCESS)
    return failLine(name, shape, tile_last_error());
  CUresult result = d.cuStreamSynchronize(gpu.stream);
  if (result != CUDA_SUCCESS) {
    outcome.fatal = !gpu.healthy();
    return failLine(name, shape,
                    "the kernel failed while running: " + d.describe(result));
  }
  if (!gpu.check(d.cuMemcpyDtoH(cBuffer.data(), dc.pointer, cBuffer.size()),
                 "cuMemcpyDtoH(C)", error))
    return failLine(name, shape, error);

  // Everything in C's buffer that is not one of its elements (padding and
  // the guard) must still hold the poison.
  {
    std::vector<bool> isElement(cElements + kGuardElements, false);
    for (int64_t l = 0; l < batch; ++l)
      for (int64_t i = 0; i < ops.c->rows; ++i)
        for (int64_t j = 0; j < ops.c->cols; ++j)
          isElement[ops.c->offset + l * ops.c->batchStride +
                    i * ops.c->rowStride +
                    j * ops.c->colStride] = true;
    uint64_t stray = 0, first = 0;
    for (size_t i = 0; i < isElement.size(); ++i)
      if (!isElement[i] && !isPoison(cBuffer.data(), i, cType) && stray++ == 0)
        first = i;
    if (stray != 0)
      return failLine(name, shape,
                      std::to_string(stray) +
                          " values were written outside C's elements "
                          "(first at element offset " +
                          std::to_string(first) +
                          (first >= cElements ? ", past the end of C"
                                              : ", in C's padding") +
                          ")");
  }
  std::vector<float> c(static_cast<size_t>(batch * m * n));
  gatherBatchElements(cBuffer.data(), *ops.c, batch, c.data());

  Reference reference;
  bool useHost =
      options.reference == "host" ||
      (options.reference == "auto" &&
       static_cast<double>(batch) * m * n * k <= kHostReferenceLimit);
  std::string referenceName = useHost ? "host f64" : "cuBLAS DGEMM";
  if (useHost) {
    computeBatchedHostReference(a.data(), b.data(),
                                accumulate ? c0.data() : nullptr,
                                problem.cFillValue, batch, m, n, k, reference);
  } else {
    const Cublas *cublas = loadCublas(error);
    if (!cublas)
      return failLine(name, shape,
                      "cannot compute the reference: " + error +
                          "; the problem is too large for the host "
                          "reference by default (--reference host forces "
                          "it)");
    // One DGEMM per matrix of a batched kernel.
    Reference one;
    for (int64_t l = 0; l < batch; ++l) {
      if (!computeCublasReference(
              gpu, *cublas, a.data() + l * m * k, b.data() + l * k * n,
              accumulate ? c0.data() + l * m * n : nullptr, problem.cFillValue,
              m, n, k, batch == 1 ? reference : one, error))
        return failLine(name, shape, "cannot compute the reference: " + error);
      if (batch > 1) {
        reference.value.insert(reference.value.end(), one.value.begin(),
                               one.value.end());
        reference.magnitude.insert(reference.magnitude.end(),
                                   one.magnitude.begin(), one.magnitude.end());
      }
    }
  }
  if (!manifest.epilogue.empty() &&
      !applyEpilogueReference(manifest.epilogue, epilogueValues,
                              epiloguePerBatch, batch, m, n, reference,
                              error))
    return failLine(name, shape, "cannot apply the epilogue: " + error);
  // A TF32 kernel's inputs lose their low mantissa bits on the tensor
  // cores: its own tolerances (an f32 fma kernel keeps the strict rule).
  bool tf32 = isTf32Kernel(manifest);
  double relativeTolerance =
      options.tolerance > 0
          ? options.tolerance
          : getDefaultRelativeTolerance(problem.elementType, cType, k,
                                        getTermsPerBlock(manifest, k), tf32);
  // Where bad elements lie, by the tiles the kernel's blocks write (a
  // manifest without a config has 1x1 blocks: no tiles to speak of).
  TileShape tile;
  if (manifest.config.block[0] * manifest.config.block[1] > 1)
    tile = {manifest.config.block[0], manifest.config.block[1]};
  CheckResult check =
      checkResult(c.data(), reference, m, n, relativeTolerance,
                  getElementTolerance(k, cType, tf32), batch, tile);
  outcome.pass = check.pass;
  std::string types = formatElementTypes(manifest);
  outcome.line = name + "  " + shape + "  rel_err " +
                 format("%.3e", check.relativeError) + "  max_abs " +
                 format("%.3e", check.maxAbsoluteError) + "  " +
                 (check.pass ? "PASS" : "FAIL") + "  seed " +
                 std::to_string(seed) + "  (" + loaded.load.binary_format +
                 ", " + std::string(stringifyCInit(problem.cInit)) + ", " +
                 (types == "f32" ? std::string() : types + ", ") +
                 referenceName + " reference)";
  // The values a kernel with dynamic offsets or strides ran with.
  const KernelManifest &own = loaded.artifact->manifest;
  for (size_t i = 0; i < own.params.size() && !loaded.layouts.empty(); ++i) {
    const ParamInfo &param = own.params[i];
    const ParamLayout &layout = loaded.layouts[i];
    std::string fields;
    for (auto [field, dynamic, value] :
         {std::tuple{"offset", param.offset, layout.offset},
          {"batch_stride", param.batchStride, layout.batchStride},
          {"row_stride", param.rowStride, layout.rowStride},
          {"col_stride", param.colStride, layout.colStride}})
      if (dynamic == kDynamic)
        fields += std::string(fields.empty() ? "" : " ") + field + "=" +
                  std::to_string(value);
    if (!fields.empty())
      outcome.line += "  " + param.name + "{" + fields + "}";
  }
  if (!check.pass)
    outcome.line += "\n    " + check.reason;
  return outcome;
}

int runVerify(const Gpu &gpu, const Options &options,
              const std::vector<std::string> &paths) {
  uint64_t seed = options.haveSeed ? options.seed : freshSeed();
  std::printf("%s\nseed %llu\n", gpu.describe().c_str(),
              static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  int failed = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (paths.size() > 1)
      std::fprintf(stderr, "[%zu/%zu] %s ...\n", i + 1, paths.size(),
                   paths[i].c_str());
    VerifyOutcome outcome = verifyArtifact(gpu, options, paths[i], seed);
    std::printf("%s\n", outcome.line.c_str());
    std::fflush(stdout);
    failed += !outcome.pass;
    if (outcome.fatal) {
      std::printf("the CUDA context is unusable after that failure: %zu "
                  "remaining artifact(s) not run\n",
                  paths.size() - i - 1);
      failed += static_cast<int>(paths.size() - i - 1);
      break;
    }
  }
  std::printf("%zu passed, %d failed\n", paths.size() - failed, failed);
  return failed == 0 ? kExitOk : kExitFailed;
}

//===----------------------------------------------------------------------===//
// bench
//===----------------------------------------------------------------------===//

struct BenchRow {
  std::string kernel, path, shape, config, configText, binary, note;
  /// "f32", or "bf16 -> bf16" (inputs -> C); and the element types.
  std::string types, elementType, resultType;
  /// How cuBLAS ran: "sgemm" (pedantic FP32), "gemm_ex" (FP32 compute,
  /// default math), "gemm_strided_batched_ex" (a batched kernel),
  /// "lt_<epilogue>", each with "_tf32" appended for a TF32 kernel's
  /// baseline (CUBLAS_COMPUTE_32F_FAST_TF32), then "+epilogue" when the
  /// GEMM was followed by the separate elementwise epilogue kernel
  /// ("sgemm+epilogue", "gemm_ex_tf32+epilogue"); empty when it did not.
  std::string cublasCall;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  bool ok = false;
  int sets = 0;
  double ms = NAN, minMs = NAN, maxMs = NAN, tflops = NAN;
  double cublasMs = NAN, cublasTflops = NAN, ratio = NAN;
};

void addNote(BenchRow &row, const std::string &note) {
  row.note += (row.note.empty() ? "" : "; ") + note;
}

/// Times `launch(i)` (which enqueues work on the stream) `iters` times after
/// `warmup` untimed calls; per-launch event pairs, median of the times.
template <typename Launch>
bool timeLaunches(const Gpu &gpu, int warmup, int iters, Launch launch,
                  std::vector<double> &times, std::string &error) {
  const CudaDriver &d = *gpu.driver;
  for (int i = 0; i < warmup; ++i)
    if (!launch(i, error))
      return false;
  Events events;
  if (!events.create(gpu, 2 * static_cast<size_t>(iters), error))
    return false;
  for (int i = 0; i < iters; ++i) {
    if (!gpu.check(d.cuEventRecord(events[2 * i], gpu.stream), "cuEventRecord",
                   error) ||
        !launch(warmup + i, error) ||
        !gpu.check(d.cuEventRecord(events[2 * i + 1], gpu.stream),
                   "cuEventRecord", error))
      return false;
  }
  if (!gpu.check(d.cuEventSynchronize(events[2 * iters - 1]),
                 "waiting for the timed launches", error))
    return false;
  times.clear();
  for (int i = 0; i < iters; ++i) {
    float ms = 0;
    if (!gpu.check(d.cuEventElapsedTime(&ms, events[2 * i], events[2 * i + 1]),
                   "cuEventElapsedTime", error))
      return false;
    times.push_back(ms);
  }
  return true;
}

/// cudaDataType_t of `type` (f32, bf16 or f16).
int toCudaDataType(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return CUDA_R_16BF;
  case ElementType::F16:
    return CUDA_R_16F;
  default:
    return CUDA_R_32F;
  }
}

/// Where the plan's operands and C lie in a buffer set of the bench's pool.
struct GemmOffsets {
  uint64_t first = 0, second = 0, result = 0;
};

/// Where param `index`'s first element is in a buffer set whose params
/// start at `offsets` (a strided param's matrix starts `offset` elements
/// past its buffer).
uint64_t paramStart(const KernelManifest &manifest,
                    const std::vector<uint64_t> &offsets, size_t index) {
  const ParamInfo &param = manifest.params[index];
  return offsets[index] + static_cast<uint64_t>(param.offset) *
                              getElementTypeSize(param.elementType);
}

/// How cuBLAS computes a kernel's baseline: the cublasComputeType_t of
/// cublasGemmEx, cublasGemmStridedBatchedEx and cuBLASLt, and whether the
/// handle leaves its pedantic math mode for the call. f32 kernels: plain
/// FP32 (CUBLAS_COMPUTE_32F_PEDANTIC, SGEMM's arithmetic in pedantic math);
/// bf16 and f16: FP32 compute on the tensor cores (CUBLAS_COMPUTE_32F,
/// default math); TF32 kernels (isTf32Kernel): f32 data with the inputs
/// read as TF32 (CUBLAS_COMPUTE_32F_FAST_TF32), the same arithmetic as the
/// kernel's, in the default math mode like the other tensor-core baselines
/// (the handle's pedantic mode is for the FP32 ones).
struct BaselineMath {
  int computeType = CUBLAS_COMPUTE_32F_PEDANTIC;
  bool defaultMath = false;
  bool tf32 = false;
};

BaselineMath getBaselineMath(const KernelManifest &manifest) {
  BaselineMath math;
  const ParamInfo *result = findParam(manifest, ParamRole::Result);
  if (isTf32Kernel(manifest)) {
    math.computeType = CUBLAS_COMPUTE_32F_FAST_TF32;
    math.defaultMath = true;
    math.tf32 = true;
  } else if (manifest.problem.elementType != ElementType::F32 ||
             (result && result->elementType != ElementType::F32)) {
    math.computeType = CUBLAS_COMPUTE_32F;
    math.defaultMath = true;
  }
  return math;
}

/// Fills the row's cuBLAS columns from the timed `times` of cuBLAS's
/// `call`; a TF32 baseline says so in the call ("_tf32") and a note.
void recordBaseline(BenchRow &row, const std::string &call,
                    const BaselineMath &math,
                    const std::vector<double> &times) {
  row.cublasCall = call + (math.tf32 ? "_tf32" : "");
  if (math.tf32)
    addNote(row, "cuBLAS ran in TF32 (CUBLAS_COMPUTE_32F_FAST_TF32)");
  row.cublasMs = median(times);
  row.cublasTflops = getTflops(row.batch, row.m, row.n, row.k, row.cublasMs);
  row.ratio = row.cublasMs / row.ms;
}

/// C's param: its index and the bytes of its buffer in a set (of `batch`
/// matrices). False, with `error`, when the manifest has none.
bool findResultBuffer(const KernelManifest &manifest, int &index,
                      uint64_t &bytes, std::string &error, int64_t batch = 1) {
  const ParamInfo *result = findParam(manifest, ParamRole::Result);
  index = result ? findParamIndex(manifest, result->name) : -1;
  if (index < 0 || !getRequiredBytes(*result, batch, bytes)) {
    error = "no result param";
    return false;
  }
  return true;
}

/// C's elements in buffer set `setBase` (params at `offsets`), as floats in
/// C's row-major order; the `batch` matrices of a batched kernel one after
/// another.
bool readResult(const Gpu &gpu, const KernelManifest &manifest,
                CUdeviceptr setBase, const std::vector<uint64_t> &offsets,
                std::vector<float> &dense, std::string &error,
                int64_t batch = 1) {
  int index = -1;
  uint64_t bytes = 0;
  if (!findResultBuffer(manifest, index, bytes, error, batch))
    return false;
  const ParamInfo &param = manifest.params[index];
  std::vector<char> buffer(bytes);
  if (!gpu.check(gpu.driver->cuStreamSynchronize(gpu.stream),
                 "cuStreamSynchronize", error) ||
      !gpu.check(gpu.driver->cuMemcpyDtoH(buffer.data(),
                                          setBase + offsets[index], bytes),
                 "cuMemcpyDtoH(C)", error))
    return false;
  dense.assign(static_cast<size_t>(batch * param.rows * param.cols), 0.0f);
  gatherBatchElements(buffer.data(), param, batch, dense.data());
  return true;
}

/// The separate elementwise kernel of a fused epilogue's GEMM baseline
/// (generateEpilogueKernel in TileRun.h): generated from the manifest's
/// program, compiled by NVRTC for the device (a cubin, or PTX for the
/// driver's JIT when NVRTC cannot write cubins), loaded with
/// cuModuleLoadDataEx and launched with cuLaunchKernel on the tool's
/// stream: blocks of 256 threads, at most 8 per SM, in a grid-stride loop.
class EpilogueKernel {
public:
  EpilogueKernel() = default;
  EpilogueKernel(const EpilogueKernel &) = delete;
  EpilogueKernel &operator=(const EpilogueKernel &) = delete;
  ~EpilogueKernel() {
    if (module)
      gpu->driver->cuModuleUnload(module);
  }

  /// False, with `error`, when the kernel cannot be generated, NVRTC is
  /// missing or does not compile it, or the driver does not load it.
  bool build(const Gpu &gpu, const KernelManifest &manifest,
             const std::vector<uint64_t> &offsets, std::string &error) {
    this->gpu = &gpu;
    if (!generateEpilogueKernel(manifest, kernel, error))
      return false;
    const Nvrtc *nvrtc = loadNvrtc(error);
    if (!nvrtc)
      return false;
    NvrtcImage image;
    const int major = gpu.device.computeMajor, minor = gpu.device.computeMinor;
    if (!compileWithNvrtc(*nvrtc, kernel.source, kernel.name, major, minor,
                          image, error)) {
      error = "NVRTC (" + nvrtc->path + ") could not compile it: " + error;
      return false;
    }
    const char *what = image.cubin ? "cubin" : "PTX";
    char log[4096] = {0};
    int options[] = {CU_JIT_ERROR_LOG_BUFFER,
                     CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1)};
    CUresult result = gpu.driver->cuModuleLoadDataEx(
        &module, image.bytes.data(), 2, options, values);
    if (result != CUDA_SUCCESS) {
      module = nullptr;
      error = std::string("cuModuleLoadDataEx of NVRTC's ") + what +
              " failed: " + gpu.driver->describe(result) +
              (log[0] ? std::string(": ") + log : std::string());
      return false;
    }
    if (!gpu.check(gpu.driver->cuModuleGetFunction(&function, module,
                                                   kernel.name.c_str()),
                   "cuModuleGetFunction(" + kernel.name + ")", error))
      return false;
    for (int index : kernel.params)
      starts.push_back(paramStart(manifest, offsets, index));
    pointers.resize(starts.size());
    for (CUdeviceptr &pointer : pointers)
      args.push_back(&pointer);
    // A grid-stride loop: enough blocks to fill every SM (8 of 256 threads
    // are 2048, an SM's most), fewer when the elements need fewer.
    uint64_t needed =
        (kernel.elements + kernel.blockThreads - 1) / kernel.blockThreads;
    blocks = static_cast<unsigned>(std::max<uint64_t>(
        1, std::min<uint64_t>(
               needed, 8 * static_cast<uint64_t>(std::max(gpu.smCount, 1)))));
    int nvrtcMajor = 0, nvrtcMinor = 0;
    std::string version;
    if (nvrtc->version(&nvrtcMajor, &nvrtcMinor) == 0)
      version =
          " " + std::to_string(nvrtcMajor) + "." + std::to_string(nvrtcMinor);
    description = "NVRTC" + version + ", " +
                  (image.cubin ? "sm_" : "compute_") + std::to_string(major) +
                  std::to_string(minor) + " " + what + ", " +
                  std::to_string(blocks) + " blocks of " +
                  std::to_string(kernel.blockThreads) + " threads";
    return true;
  }

  /// Enqueues the kernel on buffer set `setBase` (params at the offsets
  /// `build` was given).
  bool launch(CUdeviceptr setBase, std::string &error) {
    for (size_t i = 0; i < starts.size(); ++i)
      pointers[i] = setBase + starts[i];
    CUresult result =
        gpu->driver->cuLaunchKernel(function, blocks, 1, 1, kernel.blockThreads,
                                    1, 1, 0, gpu->stream, args.data(), nullptr);
    if (result != CUDA_SUCCESS) {
      error = "cuLaunchKernel failed for the epilogue kernel " + kernel.name +
              ": " + gpu->driver->describe(result);
      return false;
    }
    return true;
  }

  /// "NVRTC 13.0, sm_90 cubin, 1056 blocks of 256 threads".
  std::string description;

private:
  const Gpu *gpu = nullptr;
  EpilogueKernelSource kernel;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  unsigned blocks = 1;
  std::vector<uint64_t> starts;
  std::vector<CUdeviceptr> pointers;
  std::vector<void *> args;
};

bool timeCublasLt(const Gpu &gpu, const KernelManifest &manifest,
                  const GemmPlan &plan, const GemmOffsets &gemmOffsets,
                  const Options &options, uint64_t sets, uint64_t setBytes,
                  CUdeviceptr poolPointer, const std::vector<uint64_t> &offsets,
                  float beta, const BaselineMath &math,
                  const std::vector<float> &ours, BenchRow &row,
                  std::vector<double> &times, std::string &error);

BenchRow benchArtifact(const Gpu &gpu, CublasSession *cublas,
                       const Options &options, const std::string &path,
                       uint64_t seed, bool &fatal) {
  BenchRow row;
  row.path = path;
  row.kernel = path;
  std::string error;
  LoadedArtifact loaded;
  bool ready = openAndLoad(path, options, loaded, error);
  if (loaded.manifest) {
    const KernelManifest &manifest = *loaded.manifest;
    const ProblemInfo &problem = manifest.problem;
    row.kernel = manifest.kernel;
    row.m = problem.m;
    row.n = problem.n;
    row.k = problem.k;
    row.batch = problem.batch;
    row.shape = formatShape(problem.m, problem.n, problem.k, problem.batch);
    row.config = formatConfigShort(manifest.config);
    row.configText = manifest.config.text;
    row.types = formatElementTypes(manifest);
    row.elementType = stringifyElementType(problem.elementType);
    if (const ParamInfo *c = findParam(manifest, ParamRole::Result))
      row.resultType = stringifyElementType(c->elementType);
  }
  if (!ready) {
    row.note = error;
    return row;
  }
  const KernelManifest &manifest = *loaded.manifest;
  const ProblemInfo &problem = manifest.problem;
  row.binary = loaded.load.binary_format;
  const CudaDriver &d = *gpu.driver;

  // One buffer set holds A, B and C; sets are carved from one allocation.
  size_t numParams = manifest.params.size();
  std::vector<uint64_t> offsets(numParams), bytes(numParams);
  uint64_t setBytes = 0;
  for (size_t i = 0; i < numParams; ++i) {
    getRequiredBytes(manifest.params[i], problem.batch, bytes[i]);
    uint64_t alignment =
        std::max<uint64_t>(kSetAlignment, manifest.params[i].alignment);
    setBytes = roundUp(setBytes, alignment);
    offsets[i] = setBytes;
    setBytes += bytes[i];
  }
  setBytes = roundUp(setBytes, 4096);
  uint64_t l2 = static_cast<uint64_t>(std::max(gpu.l2Bytes, 0));
  uint64_t neededSets = 2 * l2 / setBytes + 1;
  uint64_t sets = std::min<uint64_t>(std::max<uint64_t>(neededSets, 2), 4096);
  size_t freeBytes = 0, totalBytes = 0;
  if (!gpu.check(d.cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo",
                 error)) {
    row.note = error;
    return row;
  }
  uint64_t usable = static_cast<uint64_t>(freeBytes * 0.8);
  if (sets * setBytes > usable)
    sets = usable / setBytes;
  if (sets == 0) {
    row.note = "needs " + formatBytes(static_cast<double>(setBytes)) +
               " of device memory, " +
               formatBytes(static_cast<double>(freeBytes)) + " free";
    return row;
  }
  if (sets < neededSets)
    addNote(row, "only " + std::to_string(sets) +
                     " buffer sets fit in memory: inputs may hit in L2");
  row.sets = static_cast<int>(sets);

  DeviceMemory pool;
  if (!pool.allocate(gpu, sets * setBytes, "the buffer sets", error) ||
      !gpu.check(d.cuMemsetD32(pool.pointer, 0, sets * setBytes / 4),
                 "cuMemsetD32", error)) {
    row.note = error;
    return row;
  }
  // Random inputs into set 0, copied to the others: the same data for every
  // launch and for cuBLAS. Each param from its own stream (A 1, B 2, a
  // fused epilogue's operand j 10 + j, as verify's), so that no two hold
  // the same values: the epilogue checks below tell one operand from
  // another.
  uint64_t epilogueStream = 10;
  for (size_t i = 0; i < numParams; ++i) {
    const ParamInfo &param = manifest.params[i];
    if (param.role == ParamRole::Result)
      continue;
    std::vector<float> dense(
        static_cast<size_t>(problem.batch * param.rows * param.cols));
    fillUniform(dense, seed,
                param.role == ParamRole::Lhs   ? 1
                : param.role == ParamRole::Rhs ? 2
                                               : epilogueStream++);
    std::vector<char> staging(bytes[i], 0);
    scatterBatchElements(dense.data(), param, problem.batch, staging.data());
    if (!gpu.check(
            d.cuMemcpyHtoD(pool.pointer + offsets[i], staging.data(), bytes[i]),
            "cuMemcpyHtoD", error)) {
      row.note = error;
      return row;
    }
    for (uint64_t s = 1; s < sets; ++s)
      if (!gpu.check(d.cuMemcpyDtoD(pool.pointer + s * setBytes + offsets[i],
                                    pool.pointer + offsets[i], bytes[i]),
                     "cuMemcpyDtoD", error)) {
        row.note = error;
        return row;
      }
  }
  auto argsFor = [&](int launch) {
    std::vector<tile_buffer> args(numParams);
    uint64_t base = pool.pointer + (launch % sets) * setBytes;
    for (size_t i = 0; i < numParams; ++i)
      args[i] = {base + offsets[i], bytes[i]};
    return args;
  };
  std::vector<std::vector<tile_buffer>> argSets;
  for (uint64_t s = 0; s < sets; ++s)
    argSets.push_back(argsFor(static_cast<int>(s)));

  std::vector<double> times;
  auto launchOurs = [&](int i, std::string &launchError) {
    const std::vector<tile_buffer> &args = argSets[i % sets];
    if (launchLoaded(loaded, args, gpu.stream) != TILE_SUCCESS) {
      launchError = tile_last_error();
      return false;
    }
    return true;
  };
  if (!timeLaunches(gpu, options.warmup, options.iters, launchOurs, times,
                    error)) {
    row.note = error;
    fatal = !gpu.healthy();
    return row;
  }
  row.ms = median(times);
  row.minMs = *std::min_element(times.begin(), times.end());
  row.maxMs = *std::max_element(times.begin(), times.end());
  row.tflops = getTflops(row.batch, row.m, row.n, row.k, row.ms);
  row.ok = true;

  if (!cublas) {
    return row;
  }
  GemmPlan plan;
  std::string reason;
  if (!planColumnMajorGemm(manifest, plan, reason)) {
    addNote(row, "cuBLAS n/a: " + reason);
    return row;
  }
  // (cuBLAS gets each matrix's first element: a strided param's starts
  // `offset` elements past its buffer.)
  auto offsetOf = [&](ParamRole role) {
    for (size_t i = 0; i < numParams; ++i)
      if (manifest.params[i].role == role)
        return paramStart(manifest, offsets, i);
    return uint64_t(0);
  };
  const GemmOffsets gemmOffsets = {offsetOf(plan.first), offsetOf(plan.second),
                                   offsetOf(ParamRole::Result)};
  const float alpha = 1.0f;
  // The kernel's fill value is a constant cuBLAS cannot add; beta = 0 does
  // the same arithmetic.
  const float beta = problem.cInit == CInit::Accumulate ? 1.0f : 0.0f;
  const ParamInfo *result = findParam(manifest, ParamRole::Result);
  const BaselineMath math = getBaselineMath(manifest);
  const bool batched = plan.batch > 1;
  const std::string plainGemm =
      batched ? "the plain strided batched GEMM" : "the plain GEMM";
  if (!manifest.epilogue.empty() && !batched) {
    // The fair baseline for a fused epilogue is cuBLASLt with the same
    // epilogue in its kernel; without one, the GEMM followed by a separate
    // elementwise kernel (below).
    std::string ltError;
    // The kernel's C of set 0, to check that cuBLASLt computes the same
    // (C = the epilogue of A*B: the same in every launch; a kernel that
    // accumulates changes C with each one, and is not checked).
    std::vector<float> ours;
    if (problem.cInit == CInit::Fill &&
        !readResult(gpu, manifest, pool.pointer, offsets, ours, ltError)) {
      fatal = !gpu.healthy();
      addNote(row, "cuBLAS n/a: " + ltError);
      return row;
    }
    if (timeCublasLt(gpu, manifest, plan, gemmOffsets, options, sets, setBytes,
                     pool.pointer, offsets, beta, math, ours, row, times,
                     ltError))
      return row;
    fatal = !gpu.healthy();
    if (fatal)
      return row;
    addNote(row, "cuBLASLt n/a: " + ltError);
  }

  // The GEMM of every other baseline, one launch on buffer set i % sets:
  // for a batched kernel the strided batched GEMM (f32 with
  // CUBLAS_COMPUTE_32F_PEDANTIC in the session's pedantic math mode, the
  // same plain FP32 arithmetic as SGEMM; bf16, f16 and TF32 as GemmEx);
  // bf16 and f16: cublasGemmEx with the kernel's types and FP32 compute;
  // TF32: f32 A, B and C with the inputs read as TF32, as the kernel reads
  // them; f32: SGEMM. All but SGEMM in the default math mode (tensor
  // cores), restored to pedantic after.
  const Cublas &library = *cublas->cublas;
  const CublasHandle handle = cublas->handle;
  const int inputType = toCudaDataType(problem.elementType);
  const int resultType = toCudaDataType(result->elementType);
  const int transFirst = plan.transFirst ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int transSecond = plan.transSecond ? CUBLAS_OP_T : CUBLAS_OP_N;
  auto setBase = [&](int i) { return pool.pointer + (i % sets) * setBytes; };
  std::string call;
  std::function<bool(int, std::string &)> gemm;
  if (batched) {
    if (!library.gemmStridedBatchedEx) {
      addNote(row, "cuBLAS n/a: " + library.path +
                       " has no cublasGemmStridedBatchedEx");
      return row;
    }
    call = "gemm_strided_batched_ex";
    gemm = [&](int i, std::string &launchError) {
      uint64_t base = setBase(i);
      CublasStatus status = library.gemmStridedBatchedEx(
          handle, transFirst, transSecond, static_cast<int>(plan.m),
          static_cast<int>(plan.n), static_cast<int>(plan.k), &alpha,
          reinterpret_cast<const void *>(base + gemmOffsets.first), inputType,
          static_cast<int>(plan.ldFirst), plan.strideFirst,
          reinterpret_cast<const void *>(base + gemmOffsets.second), inputType,
          static_cast<int>(plan.ldSecond), plan.strideSecond, &beta,
          reinterpret_cast<void *>(base + gemmOffsets.result), resultType,
          static_cast<int>(plan.ldResult), plan.strideResult,
          static_cast<int>(plan.batch), math.computeType, CUBLAS_GEMM_DEFAULT);
      if (status != 0) {
        launchError =
            "cublasGemmStridedBatchedEx failed: " + library.describe(status);
        return false;
      }
      return true;
    };
  } else if (math.computeType != CUBLAS_COMPUTE_32F_PEDANTIC) {
    if (!library.gemmEx) {
      addNote(row, "cuBLAS n/a: " + library.path + " has no cublasGemmEx");
      return row;
    }
    call = "gemm_ex";
    gemm = [&](int i, std::string &launchError) {
      uint64_t base = setBase(i);
      CublasStatus status = library.gemmEx(
          handle, transFirst, transSecond, static_cast<int>(plan.m),
          static_cast<int>(plan.n), static_cast<int>(plan.k), &alpha,
          reinterpret_cast<const void *>(base + gemmOffsets.first), inputType,
          static_cast<int>(plan.ldFirst),
          reinterpret_cast<const void *>(base + gemmOffsets.second), inputType,
          static_cast<int>(plan.ldSecond), &beta,
          reinterpret_cast<void *>(base + gemmOffsets.result), resultType,
          static_cast<int>(plan.ldResult), math.computeType,
          CUBLAS_GEMM_DEFAULT);
      if (status != 0) {
        launchError = "cublasGemmEx failed: " + library.describe(status);
        return false;
      }
      return true;
    };
  } else {
    call = "sgemm";
    gemm = [&](int i, std::string &launchError) {
      uint64_t base = setBase(i);
      CublasStatus status = library.sgemm(
          handle, transFirst, transSecond, static_cast<int>(plan.m),
          static_cast<int>(plan.n), static_cast<int>(plan.k), &alpha,
          reinterpret_cast<const float *>(base + gemmOffsets.first),
          static_cast<int>(plan.ldFirst),
          reinterpret_cast<const float *>(base + gemmOffsets.second),
          static_cast<int>(plan.ldSecond), &beta,
          reinterpret_cast<float *>(base + gemmOffsets.result),
          static_cast<int>(plan.ldResult));
      if (status != 0) {
        launchError = "cublasSgemm failed: " + library.describe(status);
        return false;
      }
      return true;
    };
  }
  // Runs `work` in the baseline's math mode (the default one for the
  // tensor-core baselines), the handle back in pedantic math after.
  auto inMathMode = [&](const std::function<bool()> &work,
                        std::string &modeError) {
    if (math.defaultMath) {
      CublasStatus status = library.setMathMode(handle, CUBLAS_DEFAULT_MATH);
      if (status != 0) {
        modeError = "cublasSetMathMode failed: " + library.describe(status);
        return false;
      }
    }
    bool done = work();
    if (math.defaultMath)
      library.setMathMode(handle, CUBLAS_PEDANTIC_MATH);
    return done;
  };

  // A fused epilogue cuBLASLt does not run (or not here): the GEMM, then a
  // separate elementwise kernel that applies the program to C, both
  // between the same events. Checked on set 0 after the timing: the
  // kernel and the baseline each run once more there from the same C
  // (poisoned for fill, random C0 for accumulate), and their C must agree
  // as cuBLASLt's D must (a relative norm difference of at most 1e-2 for a
  // 16-bit C or TF32 inputs, 1e-4 for f32); else the plain GEMM is timed.
  std::unique_ptr<EpilogueKernel> epilogueKernel;
  if (!manifest.epilogue.empty()) {
    epilogueKernel = std::make_unique<EpilogueKernel>();
    std::string why;
    if (!epilogueKernel->build(gpu, manifest, offsets, why)) {
      epilogueKernel.reset();
      fatal = !gpu.healthy();
      if (fatal) {
        addNote(row, "cuBLAS n/a: " + why);
        return row;
      }
      addNote(row, "no separate epilogue kernel: " + why + "; cuBLAS ran " +
                       plainGemm + ", without the epilogue");
    }
  }
  if (epilogueKernel) {
    int resultIndex = -1;
    uint64_t resultBytes = 0;
    if (!findResultBuffer(manifest, resultIndex, resultBytes, error,
                          problem.batch)) {
      addNote(row, "cuBLAS n/a: " + error);
      return row;
    }
    // C's starting bytes for both runs.
    const ParamInfo &c = manifest.params[resultIndex];
    const uint64_t cElements = resultBytes / getElementTypeSize(c.elementType);
    std::vector<char> start(resultBytes);
    fillPoison(start.data(), cElements, c.elementType);
    if (problem.cInit == CInit::Accumulate) {
      std::vector<float> c0(
          static_cast<size_t>(problem.batch * c.rows * c.cols));
      fillUniform(c0, seed, 3);
      roundToElementType(c0, c.elementType);
      scatterBatchElements(c0.data(), c, problem.batch, start.data());
    }
    auto resetC = [&](std::string &resetError) {
      return gpu.check(d.cuMemcpyHtoD(pool.pointer + offsets[resultIndex],
                                      start.data(), start.size()),
                       "cuMemcpyHtoD(C)", resetError);
    };
    std::vector<float> ours, theirs;
    if (!resetC(error) || !launchOurs(0, error) ||
        !readResult(gpu, manifest, pool.pointer, offsets, ours, error,
                    problem.batch)) {
      addNote(row, "cuBLAS n/a: running the kernel for the epilogue check: " +
                       error);
      fatal = !gpu.healthy();
      return row;
    }
    auto withEpilogue = [&](int i, std::string &launchError) {
      return gemm(i, launchError) &&
             epilogueKernel->launch(setBase(i), launchError);
    };
    bool ran = inMathMode(
        [&] {
          return timeLaunches(gpu, options.warmup, options.iters, withEpilogue,
                              times, error) &&
                 resetC(error) && withEpilogue(0, error) &&
                 readResult(gpu, manifest, pool.pointer, offsets, theirs, error,
                            problem.batch);
        },
        error);
    if (!ran) {
      fatal = !gpu.healthy();
      if (fatal) {
        addNote(row, "cuBLAS n/a: " + error);
        return row;
      }
      addNote(row,
              "the GEMM with the separate epilogue kernel failed: " + error +
                  "; cuBLAS ran " + plainGemm + ", without the epilogue");
    } else {
      BaselineDifference difference = compareWithKernel(ours, theirs);
      double limit =
          result->elementType == ElementType::F32 && !math.tf32 ? 1e-4 : 1e-2;
      if (difference.relative <= limit) {
        addNote(row,
                "cuBLAS ran the GEMM, then a separate elementwise kernel for "
                "the epilogue (" +
                    epilogueKernel->description +
                    "); its C agrees with the kernel's C (relative norm "
                    "difference " +
                    format("%.2g", difference.relative) + ", " +
                    std::to_string(difference.differing) + " of " +
                    std::to_string(ours.size()) + " elements differ)");
        recordBaseline(row, call, math, times);
        row.cublasCall += "+epilogue";
        return row;
      }
      // (A NaN on either side fails the comparison.)
      addNote(row, "the GEMM then the separate epilogue kernel (" +
                       epilogueKernel->description +
                       ") gave a C that differs from the kernel's C "
                       "(relative norm difference " +
                       format("%.3g", difference.relative) + ", over " +
                       format("%.0e", limit) +
                       "): not the same computation; cuBLAS ran " + plainGemm +
                       ", without the epilogue");
    }
  }
  bool timed = inMathMode(
      [&] {
        return timeLaunches(gpu, options.warmup, options.iters, gemm, times,
                            error);
      },
      error);
  if (!timed) {
    addNote(row, "cuBLAS n/a: " + error);
    fatal = !gpu.healthy();
    return row;
  }
  recordBaseline(row, call, math, times);
  return row;
}

/// Times cuBLASLt's matmul with the epilogue that matches the manifest's
/// (bias, ReLU, GELU, bias then ReLU or GELU), on the same buffers as the
/// kernel; fills the row's cuBLAS columns. False, with `error`, when none
/// matches or cuBLASLt refuses.
bool timeCublasLt(const Gpu &gpu, const KernelManifest &manifest,
                  const GemmPlan &plan, const GemmOffsets &gemmOffsets,
                  const Options &options, uint64_t sets, uint64_t setBytes,
                  CUdeviceptr poolPointer, const std::vector<uint64_t> &offsets,
                  float beta, const BaselineMath &math,
                  const std::vector<float> &ours, BenchRow &row,
                  std::vector<double> &times, std::string &error) {
  LtEpilogue match;
  if (!matchLtEpilogue(manifest.epilogue, match, error))
    return false;
  const ProblemInfo &problem = manifest.problem;
  const ParamInfo *result = findParam(manifest, ParamRole::Result);
  int biasParam = -1;
  if (match.biasOperand >= 0) {
    const EpilogueOperand &operand =
        manifest.epilogue.operands[match.biasOperand];
    // cuBLASLt adds its bias per row of its column-major D: per column of
    // C when it computes C^T (first operand B), per row otherwise.
    bool perColumn = operand.kind == EpilogueOperandKind::Col;
    if (perColumn != (plan.first == ParamRole::Rhs)) {
      error = std::string("a bias per ") + (perColumn ? "column" : "row") +
              " of C in this layout";
      return false;
    }
    biasParam = findParamIndex(manifest, operand.param);
    if (biasParam < 0) {
      error = "no param " + operand.param;
      return false;
    }
    // cuBLASLt reads its bias as one contiguous vector: a row vector
    // (m x 1) whose elements are a stride apart is not one.
    const ParamInfo &bias = manifest.params[biasParam];
    bool contiguous = perColumn ? bias.colStride == 1 || bias.cols == 1
                                : bias.rowStride == 1 || bias.rows == 1;
    if (!contiguous) {
      error = "a bias whose elements are " +
              std::to_string(perColumn ? bias.colStride : bias.rowStride) +
              " apart (cuBLASLt's bias is contiguous)";
      return false;
    }
  }
  // The residual is cuBLASLt's C (D the kernel's C): the same type and
  // layout as the kernel's C. An accumulating kernel's C0 needs that slot.
  int residualParam = -1;
  int64_t ldResidual = 0;
  if (match.residualOperand >= 0) {
    const std::string &name =
        manifest.epilogue.operands[match.residualOperand].param;
    residualParam = findParamIndex(manifest, name);
    if (residualParam < 0) {
      error = "no param " + name;
      return false;
    }
    if (beta != 0) {
      error = "C += A*B with a full-size operand (cuBLASLt has one C)";
      return false;
    }
    const ParamInfo &residual = manifest.params[residualParam];
    if (residual.elementType != result->elementType) {
      error = std::string("a full-size operand of type ") +
              std::string(stringifyElementType(residual.elementType)) +
              " beside a C of type " +
              std::string(stringifyElementType(result->elementType)) +
              " (cuBLASLt's C and D share a type)";
      return false;
    }
    // C row-major (cuBLAS computes C^T, first operand B): the residual's
    // rows; column-major: its columns.
    bool rowMajor = plan.first == ParamRole::Rhs;
    bool dense = rowMajor ? residual.colStride == 1 || residual.cols == 1
                          : residual.rowStride == 1 || residual.rows == 1;
    if (!dense) {
      error = std::string("a full-size operand not ") +
              (rowMajor ? "row" : "column") + "-major like C";
      return false;
    }
    ldResidual = rowMajor ? (residual.rows == 1 ? residual.cols
                                                : residual.rowStride)
                          : (residual.cols == 1 ? residual.rows
                                                : residual.colStride);
    if (ldResidual < (rowMajor ? residual.cols : residual.rows)) {
      error = "a full-size operand with overlapping " +
              std::string(rowMajor ? "rows" : "columns");
      return false;
    }
  }
  const CublasLt *lt = loadCublasLt(error);
  if (!lt)
    return false;
  CublasLtHandle handle = nullptr;
  CublasLtObject desc = nullptr, aLayout = nullptr, bLayout = nullptr,
                 cLayout = nullptr, dLayout = nullptr, preference = nullptr;
  CUdeviceptr workspace = 0;
  const size_t workspaceBytes = size_t(32) << 20;
  auto cleanup = [&] {
    if (preference)
      lt->preferenceDestroy(preference);
    for (CublasLtObject layout : {aLayout, bLayout, cLayout, dLayout})
      if (layout)
        lt->layoutDestroy(layout);
    if (desc)
      lt->descDestroy(desc);
    if (handle)
      lt->destroy(handle);
    if (workspace)
      gpu.driver->cuMemFree(workspace);
  };
  auto check = [&](CublasStatus status, const char *what) {
    if (status != 0)
      error = std::string(what) + " failed: cuBLAS status " +
              std::to_string(status);
    return status == 0;
  };
  int inputType = toCudaDataType(problem.elementType);
  int resultType = toCudaDataType(result->elementType);
  int transA = plan.transFirst ? CUBLAS_OP_T : CUBLAS_OP_N;
  int transB = plan.transSecond ? CUBLAS_OP_T : CUBLAS_OP_N;
  int epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  switch (match.kind) {
  case LtEpilogue::Default:
    break;
  case LtEpilogue::Bias:
    epilogue = CUBLASLT_EPILOGUE_BIAS;
    break;
  case LtEpilogue::Relu:
    epilogue = CUBLASLT_EPILOGUE_RELU;
    break;
  case LtEpilogue::BiasRelu:
    epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
    break;
  case LtEpilogue::Gelu:
    epilogue = CUBLASLT_EPILOGUE_GELU;
    break;
  case LtEpilogue::BiasGelu:
    epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
    break;
  }
  uint64_t maxWorkspace = workspaceBytes;
  bool ok =
      check(lt->create(&handle), "cublasLtCreate") &&
      gpu.check(gpu.driver->cuMemAlloc(&workspace, workspaceBytes),
                "cuMemAlloc(cuBLASLt workspace)", error) &&
      // The compute type of the plain baseline: FP32 pedantic for f32 (as
      // the SGEMM baseline), FP32 compute on tensor cores for bf16/f16 (as
      // cublasGemmEx's), TF32 for a TF32 kernel.
      check(lt->descCreate(&desc, math.computeType, CUDA_R_32F),
            "cublasLtMatmulDescCreate") &&
      check(lt->descSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transA,
                                 sizeof(transA)),
            "setting TRANSA") &&
      check(lt->descSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &transB,
                                 sizeof(transB)),
            "setting TRANSB") &&
      check(lt->descSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                 &epilogue, sizeof(epilogue)),
            "setting the epilogue") &&
      check(lt->layoutCreate(&aLayout, inputType,
                             plan.transFirst ? plan.k : plan.m,
                             plan.transFirst ? plan.m : plan.k, plan.ldFirst),
            "cublasLtMatrixLayoutCreate(A)") &&
      check(lt->layoutCreate(&bLayout, inputType,
                             plan.transSecond ? plan.n : plan.k,
                             plan.transSecond ? plan.k : plan.n, plan.ldSecond),
            "cublasLtMatrixLayoutCreate(B)") &&
      check(lt->layoutCreate(&dLayout, resultType, plan.m, plan.n,
                             plan.ldResult),
            "cublasLtMatrixLayoutCreate(D)") &&
      check(lt->preferenceCreate(&preference),
            "cublasLtMatmulPreferenceCreate") &&
      check(lt->preferenceSetAttribute(preference,
                                       CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                       &maxWorkspace, sizeof(maxWorkspace)),
            "setting the workspace");
  if (ok && residualParam >= 0)
    ok = check(lt->layoutCreate(&cLayout, resultType, plan.m, plan.n,
                                ldResidual),
               "cublasLtMatrixLayoutCreate(C)");
  if (ok && biasParam >= 0) {
    int biasType = toCudaDataType(manifest.params[biasParam].elementType);
    ok = check(lt->descSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                    &biasType, sizeof(biasType)),
               "setting the bias type");
  }
  CublasLtHeuristic heuristic{};
  int found = 0;
  if (ok)
    ok = check(lt->heuristic(handle, desc, aLayout, bLayout,
                             cLayout ? cLayout : dLayout, dLayout, preference,
                             1, &heuristic, &found),
               "cublasLtMatmulAlgoGetHeuristic");
  if (ok && found < 1) {
    error = "cuBLASLt has no algorithm for this epilogue and types";
    ok = false;
  }
  if (!ok) {
    cleanup();
    return false;
  }
  // act(alpha * (C0 + A*B) + ...) is act(alpha * A*B + alpha * C0 + ...):
  // an accumulating kernel's beta is alpha.
  const float alpha = static_cast<float>(match.alpha);
  const float ltBeta = static_cast<float>(
      residualParam >= 0 ? match.beta : beta * match.alpha);
  auto launch = [&](int i, std::string &launchError) {
    uint64_t base = poolPointer + (i % sets) * setBytes;
    if (biasParam >= 0) {
      uint64_t bias = base + paramStart(manifest, offsets, biasParam);
      CublasStatus status = lt->descSetAttribute(
          desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
      if (status != 0) {
        launchError = "setting the bias pointer failed: cuBLAS status " +
                      std::to_string(status);
        return false;
      }
    }
    void *d = reinterpret_cast<void *>(base + gemmOffsets.result);
    const void *c =
        residualParam >= 0
            ? reinterpret_cast<const void *>(
                  base + paramStart(manifest, offsets, residualParam))
            : d;
    CublasStatus status = lt->matmul(
        handle, desc, &alpha,
        reinterpret_cast<const void *>(base + gemmOffsets.first), aLayout,
        reinterpret_cast<const void *>(base + gemmOffsets.second), bLayout,
        &ltBeta, c, cLayout ? cLayout : dLayout, d, dLayout, heuristic.algo,
        reinterpret_cast<void *>(workspace), workspaceBytes, gpu.stream);
    if (status != 0) {
      launchError = "cublasLtMatmul failed: cuBLAS status " +
                    std::to_string(status);
      return false;
    }
    return true;
  };
  bool timed = timeLaunches(gpu, options.warmup, options.iters, launch, times,
                            error);
  // cuBLASLt's D on set 0 against the kernel's C there (the same inputs):
  // a baseline that computes something else is no baseline. Their sums
  // run in other orders, and a 16-bit C rounds each: agreement is a
  // relative norm difference of at most 1e-2 (16-bit C) or 1e-4 (f32).
  // TF32 inputs get 1e-2 too: each side may be 2^-8 off the exact
  // product (verify's TF32 tolerance), and one may truncate the inputs
  // where the other rounds them.
  std::string agreement;
  if (timed && !ours.empty()) {
    std::string launchError;
    std::vector<float> theirs;
    // D (set 0's C, which holds the kernel's result) is poisoned first
    // (all bits set: NaN in f32, bf16 and f16; whole 32-bit words, so a
    // 16-bit C's last element may keep its value), so that a D cuBLASLt
    // does not write shows.
    int resultIndex = -1;
    uint64_t resultBytes = 0;
    if (!findResultBuffer(manifest, resultIndex, resultBytes, error) ||
        !gpu.check(gpu.driver->cuMemsetD32(poolPointer + offsets[resultIndex],
                                           0xffffffffu, resultBytes / 4),
                   "cuMemsetD32(D)", error)) {
      timed = false;
    } else if (!launch(0, launchError)) {
      error = launchError;
      timed = false;
    } else if (!readResult(gpu, manifest, poolPointer, offsets, theirs,
                           error)) {
      timed = false;
    } else {
      BaselineDifference difference = compareWithKernel(ours, theirs);
      const double relative = difference.relative;
      const uint64_t differing = difference.differing;
      double limit =
          result->elementType == ElementType::F32 && !math.tf32 ? 1e-4 : 1e-2;
      // (An all-zero C compares nothing: no agreement to claim. A NaN
      // fails the second comparison.)
      if (difference.oursNorm == 0) {
        error = "the kernel's C is all zeros: nothing to compare cuBLASLt's "
                "D with";
        timed = false;
      } else if (!(relative <= limit)) {
        error = "cuBLASLt's " + std::string(match.name()) +
                " epilogue gave a D that differs from the kernel's C "
                "(relative norm difference " +
                format("%.3g", relative) + ", over " + format("%.0e", limit) +
                "): not the same computation";
        timed = false;
      } else {
        agreement = "; its D agrees with the kernel's C (relative norm "
                    "difference " +
                    format("%.2g", relative) + ", " +
                    std::to_string(differing) + " of " +
                    std::to_string(ours.size()) + " elements differ)";
      }
    }
  }
  cleanup();
  if (!timed)
    return false;
  std::string scales;
  if (match.alpha != 1)
    scales += ", alpha " + format("%.6g", match.alpha);
  if (residualParam >= 0)
    scales += ", the full-size operand " + manifest.params[residualParam].name +
              " as C (beta " + format("%.6g", match.beta) + ")";
  addNote(row, std::string("cuBLAS ran cuBLASLt with its ") + match.name() +
                   " epilogue" + scales + agreement);
  recordBaseline(row, std::string("lt_") + match.name(), math, times);
  return true;
}

std::string formatCell(double value, const char *pattern) {
  return std::isfinite(value) ? format(pattern, value) : std::string("n/a");
}

void printTable(const std::vector<BenchRow> &rows) {
  // A "types" column after the shape when a kernel is not all f32, so that
  // tables of f32 kernels stay as they were.
  bool showTypes = false;
  for (const BenchRow &row : rows)
    showTypes |= !row.types.empty() && row.types != "f32";
  std::vector<std::string> headers = {
      "kernel",  "shape MxNxK", "config",         "ms",
      "TFLOP/s", "cuBLAS ms",   "cuBLAS TFLOP/s", "ratio"};
  std::vector<bool> rightAligned = {false, false, false, true,
                                    true,  true,  true,  true};
  if (showTypes) {
    headers.insert(headers.begin() + 2, "types");
    rightAligned.insert(rightAligned.begin() + 2, false);
  }
  size_t columns = headers.size();
  std::vector<std::vector<std::string>> cells;
  for (const BenchRow &row : rows) {
    std::vector<std::string> line;
    if (!row.ok)
      line = {row.kernel,
              row.shape.empty() ? "-" : row.shape,
              row.config.empty() ? "-" : row.config,
              "error",
              "-",
              "-",
              "-",
              "-"};
    else
      line = {row.kernel,
              row.shape,
              row.config,
              formatCell(row.ms, "%.4f"),
              formatCell(row.tflops, "%.2f"),
              formatCell(row.cublasMs, "%.4f"),
              formatCell(row.cublasTflops, "%.2f"),
              formatCell(row.ratio, "%.2f")};
    if (showTypes)
      line.insert(line.begin() + 2, row.types.empty() ? "-" : row.types);
    cells.push_back(line);
  }
  std::vector<size_t> widths(columns);
  for (size_t c = 0; c < columns; ++c) {
    widths[c] = headers[c].size();
    for (const auto &line : cells)
      widths[c] = std::max(widths[c], line[c].size());
  }
  auto printLine = [&](const std::vector<std::string> &line) {
    std::string text = "|";
    for (size_t c = 0; c < columns; ++c) {
      std::string padding(widths[c] - line[c].size(), ' ');
      text += " " + (rightAligned[c] ? padding + line[c] : line[c] + padding) +
              " |";
    }
    std::printf("%s\n", text.c_str());
  };
  printLine(headers);
  std::string rule = "|";
  for (size_t c = 0; c < columns; ++c)
    rule += rightAligned[c] ? std::string(widths[c] + 1, '-') + ":|"
                            : std::string(widths[c] + 2, '-') + "|";
  std::printf("%s\n", rule.c_str());
  for (const auto &line : cells)
    printLine(line);
  bool anyNote = false;
  for (const BenchRow &row : rows)
    if (!row.note.empty()) {
      if (!anyNote)
        std::printf("\n");
      anyNote = true;
      std::printf("%s: %s\n", row.kernel.c_str(), row.note.c_str());
    }
}

std::string jsonNumber(double value) {
  return std::isfinite(value) ? format("%.6g", value) : std::string("null");
}

bool writeFile(const std::string &path, const std::string &text,
               std::string &error) {
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  ok &= std::fclose(file) == 0;
  if (!ok)
    error = "cannot write '" + path + "'";
  return ok;
}

std::string benchJson(const Gpu &gpu, const CublasSession *cublas,
                      const Options &options, uint64_t seed,
                      const std::vector<BenchRow> &rows) {
  std::string out = "{\n  \"gpu\": {";
  out += "\"name\": " + quoteJson(gpu.device.name);
  out += ", \"ordinal\": " + std::to_string(gpu.device.ordinal);
  out += ", \"chip\": " + quoteJson(formatChip(gpu.device.computeMajor,
                                               gpu.device.computeMinor));
  out += ", \"sm_count\": " + std::to_string(gpu.smCount);
  out += ", \"memory_bytes\": " + std::to_string(gpu.totalMemory);
  out += ", \"l2_bytes\": " + std::to_string(gpu.l2Bytes);
  out += ", \"pci_bus_id\": " + quoteJson(gpu.pciBusId);
  out += ", \"driver_version\": " + quoteJson(gpu.nvml.driverVersion);
  out += ", \"cuda_driver_api\": " + std::to_string(gpu.device.driverVersion);
  out += ", \"sm_clock_max_mhz\": " + std::to_string(gpu.maxSmClockMhz());
  out +=
      ", \"memory_clock_max_mhz\": " + std::to_string(gpu.maxMemoryClockMhz());
  out += "},\n  \"cublas\": ";
  if (cublas)
    out += "{\"library\": " + quoteJson(cublas->cublas->path) +
           ", \"version\": " + std::to_string(cublas->version) +
           ", \"math_mode\": \"pedantic\", \"gemm_ex_math_mode\": "
           "\"default\"}";
  else
    out += "null";
  out += ",\n  \"warmup\": " + std::to_string(options.warmup);
  out += ",\n  \"iters\": " + std::to_string(options.iters);
  out += ",\n  \"seed\": " + std::to_string(seed);
  out += ",\n  \"results\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const BenchRow &r = rows[i];
    out += i == 0 ? "\n    {" : ",\n    {";
    out += "\"kernel\": " + quoteJson(r.kernel);
    out += ", \"manifest\": " + quoteJson(r.path);
    out += ", \"ok\": " + std::string(r.ok ? "true" : "false");
    out += ", \"m\": " + std::to_string(r.m);
    out += ", \"n\": " + std::to_string(r.n);
    out += ", \"k\": " + std::to_string(r.k);
    out += ", \"batch\": " + std::to_string(r.batch);
    out += ", \"element_type\": " + quoteJson(r.elementType);
    out += ", \"result_type\": " + quoteJson(r.resultType);
    out += ", \"config\": " + quoteJson(r.config);
    out += ", \"config_text\": " + quoteJson(r.configText);
    out += ", \"binary\": " + quoteJson(r.binary);
    out += ", \"buffer_sets\": " + std::to_string(r.sets);
    out += ", \"ms\": " + jsonNumber(r.ms);
    out += ", \"min_ms\": " + jsonNumber(r.minMs);
    out += ", \"max_ms\": " + jsonNumber(r.maxMs);
    out += ", \"tflops\": " + jsonNumber(r.tflops);
    out += ", \"cublas_call\": " + quoteJson(r.cublasCall);
    out += ", \"cublas_ms\": " + jsonNumber(r.cublasMs);
    out += ", \"cublas_tflops\": " + jsonNumber(r.cublasTflops);
    out += ", \"ratio\": " + jsonNumber(r.ratio);
    out += ", \"note\": " + quoteJson(r.note) + "}";
  }
  out += rows.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvNumber(double value) {
  return std::isfinite(value) ? format("%.6g", value) : std::string();
}

std::string benchCsv(const Gpu &gpu, const std::vector<BenchRow> &rows) {
  std::string out = "kernel,manifest,ok,m,n,k,config,binary,buffer_sets,ms,"
                    "min_ms,max_ms,tflops,cublas_ms,cublas_tflops,ratio,"
                    "note,gpu,driver_version,cuda_driver_api,"
                    "sm_clock_max_mhz,memory_clock_max_mhz,element_type,"
                    "result_type,cublas_call,batch\n";
  for (const BenchRow &r : rows) {
    out += csvField(r.kernel) + "," + csvField(r.path) + "," +
           (r.ok ? "1" : "0") + "," + std::to_string(r.m) + "," +
           std::to_string(r.n) + "," + std::to_string(r.k) + "," +
           csvField(r.config) + "," + r.binary + "," + std::to_string(r.sets) +
           "," + csvNumber(r.ms) + "," + csvNumber(r.minMs) + "," +
           csvNumber(r.maxMs) + "," + csvNumber(r.tflops) + "," +
           csvNumber(r.cublasMs) + "," + csvNumber(r.cublasTflops) + "," +
           csvNumber(r.ratio) + "," + csvField(r.note) + "," +
           csvField(gpu.device.name) + "," + csvField(gpu.nvml.driverVersion) +
           "," + std::to_string(gpu.device.driverVersion) + "," +
           std::to_string(gpu.maxSmClockMhz()) + "," +
           std::to_string(gpu.maxMemoryClockMhz()) + "," + r.elementType + "," +
           r.resultType + "," + r.cublasCall + "," + std::to_string(r.batch) +
           "\n";
  }
  return out;
}

int runBench(const Gpu &gpu, const Options &options,
             const std::vector<std::string> &paths) {
  uint64_t seed = options.haveSeed ? options.seed : freshSeed();
  std::unique_ptr<CublasSession> cublas;
  std::string cublasNote;
  if (options.cublas) {
    std::string error;
    const Cublas *library = loadCublas(error);
    if (library) {
      cublas = std::make_unique<CublasSession>();
      if (!cublas->open(*library, gpu, error))
        cublas.reset();
    }
    if (!cublas)
      cublasNote = "cuBLAS comparison left out: " + error;
  } else {
    cublasNote = "cuBLAS comparison left out (--no-cublas)";
  }
  std::printf("%s\n%s\nwarm-up %d, timed launches %d (median), seed %llu\n",
              gpu.describe().c_str(),
              cublas ? cublas->describe().c_str() : cublasNote.c_str(),
              options.warmup, options.iters,
              static_cast<unsigned long long>(seed));
  std::fflush(stdout);

  std::vector<BenchRow> rows;
  bool fatal = false;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::fprintf(stderr, "[%zu/%zu] %s ...\n", i + 1, paths.size(),
                 paths[i].c_str());
    if (fatal) {
      BenchRow row;
      row.kernel = row.path = paths[i];
      row.note = "not run: the CUDA context is unusable after an earlier "
                 "failure";
      rows.push_back(row);
      continue;
    }
    rows.push_back(
        benchArtifact(gpu, cublas.get(), options, paths[i], seed, fatal));
  }
  std::printf("\n");
  printTable(rows);

  int exitCode = kExitOk;
  for (const BenchRow &row : rows)
    if (!row.ok)
      exitCode = kExitFailed;
  std::string error;
  if (!options.jsonPath.empty() &&
      !writeFile(options.jsonPath,
                 benchJson(gpu, cublas.get(), options, seed, rows), error)) {
    std::fprintf(stderr, "tile-run: %s\n", error.c_str());
    exitCode = kExitFailed;
  }
  if (!options.csvPath.empty() &&
      !writeFile(options.csvPath, benchCsv(gpu, rows), error)) {
    std::fprintf(stderr, "tile-run: %s\n", error.c_str());
    exitCode = kExitFailed;
  }
  return exitCode;
}

} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 ||
        std::strcmp(argv[i], "-h") == 0 ||
        (i == 1 && std::strcmp(argv[i], "help") == 0)) {
      std::fputs(kUsage, stdout);
      return kExitOk;
    }
  Options options;
  if (!parseOptions(argc, argv, options))
    return kExitUsage;
  std::vector<std::string> paths;
  std::string error;
  if (!expandArtifactPaths(options.artifacts, paths, error)) {
    std::fprintf(stderr, "tile-run: %s\n", error.c_str());
    return kExitFailed;
  }
  if (options.command == "info")
    return runInfo(paths);

  Gpu gpu;
  int status = gpu.open(options.device, error);
  if (status != TILE_SUCCESS) {
    std::fprintf(stderr, "tile-run: %s\n", error.c_str());
    return status == TILE_ERROR_NO_DRIVER || status == TILE_ERROR_NO_DEVICE ||
                   status == TILE_ERROR_DRIVER_TOO_OLD
               ? kExitNoGpu
               : kExitFailed;
  }
  if (options.command == "verify")
    return runVerify(gpu, options, paths);
  return runBench(gpu, options, paths);
}
