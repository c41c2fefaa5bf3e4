//===- GpuLibraries.cpp - cuBLAS and NVML, loaded at run time -------------===//

#include "GpuLibraries.h"

#include <cstdlib>
#include <dlfcn.h>
#include <memory>
#include <mutex>

using namespace tile::run;

std::string Cublas::describe(CublasStatus status) const {
  std::string text = "cuBLAS status " + std::to_string(status);
  if (getStatusString)
    if (const char *name = getStatusString(status))
      text += std::string(" (") + name + ")";
  return text;
}

namespace {
/// $`variable`, then `stem`.so.13, .so.12 and .so on the loader's path, then
/// the same names in $CUDA_HOME/lib64 and /usr/local/cuda/lib64.
std::vector<std::string> getLibraryCandidates(const char *variable,
                                              const std::string &stem) {
  const std::string names[] = {stem + ".so.13", stem + ".so.12", stem + ".so"};
  std::vector<std::string> candidates;
  if (const char *path = std::getenv(variable); path && *path)
    candidates.push_back(path);
  std::vector<std::string> dirs = {""};
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    dirs.push_back(std::string(home) + "/lib64/");
  dirs.push_back("/usr/local/cuda/lib64/");
  for (const std::string &dir : dirs)
    for (const std::string &name : names)
      candidates.push_back(dir + name);
  return candidates;
}
} // namespace

std::vector<std::string> tile::run::getCublasCandidates() {
  return getLibraryCandidates("TILE_CUBLAS_LIBRARY", "libcublas");
}

namespace {
template <typename Function>
bool bind(void *handle, Function &member, const char *name) {
  member = reinterpret_cast<Function>(dlsym(handle, name));
  return member != nullptr;
}

/// The first of `candidates` that loads and has every entry point
/// `bindAll(handle, library, need)` asks for with `need(member, name)`;
/// null when none does, with each candidate that lacks one added to
/// `tried` ("; PATH lacks NAME").
template <typename Library, typename BindAll>
std::unique_ptr<Library>
openFirst(const std::vector<std::string> &candidates, BindAll bindAll,
          std::string &tried) {
  for (const std::string &candidate : candidates) {
    void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      continue;
    auto library = std::make_unique<Library>();
    library->path = candidate;
    const char *missing = nullptr;
    auto need = [&](auto &member, const char *name) {
      if (!missing && !bind(handle, member, name))
        missing = name;
    };
    bindAll(handle, *library, need);
    if (!missing)
      return library;
    tried += "; " + candidate + " lacks " + missing;
    dlclose(handle);
  }
  return nullptr;
}

bool bindCublas(void *handle, Cublas &c, std::string &missing) {
  struct Entry {
    bool bound;
    const char *name;
  } entries[] = {
      {bind(handle, c.create, "cublasCreate_v2"), "cublasCreate_v2"},
      {bind(handle, c.destroy, "cublasDestroy_v2"), "cublasDestroy_v2"},
      {bind(handle, c.getVersion, "cublasGetVersion_v2"),
       "cublasGetVersion_v2"},
      {bind(handle, c.setStream, "cublasSetStream_v2"), "cublasSetStream_v2"},
      {bind(handle, c.setMathMode, "cublasSetMathMode"), "cublasSetMathMode"},
      {bind(handle, c.sgemm, "cublasSgemm_v2"), "cublasSgemm_v2"},
      {bind(handle, c.dgemm, "cublasDgemm_v2"), "cublasDgemm_v2"},
  };
  bind(handle, c.getStatusString, "cublasGetStatusString");
  bind(handle, c.gemmEx, "cublasGemmEx");
  bind(handle, c.gemmStridedBatchedEx, "cublasGemmStridedBatchedEx");
  for (const Entry &entry : entries)
    if (!entry.bound) {
      missing = entry.name;
      return false;
    }
  return true;
}

struct CublasState {
  std::once_flag once;
  std::unique_ptr<Cublas> cublas;
  std::string error;
};
} // namespace

const Cublas *tile::run::loadCublas(std::string &error) {
  static CublasState state;
  std::call_once(state.once, [] {
    std::string tried;
    for (const std::string &candidate : getCublasCandidates()) {
      void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char *reason = dlerror();
        // Only a file that exists but fails to load is worth reporting.
        std::string text = reason ? reason : "";
        if (text.find("No such file") == std::string::npos &&
            text.find("cannot open shared object file") == std::string::npos)
          tried += "; " + text;
        continue;
      }
      auto cublas = std::make_unique<Cublas>();
      cublas->path = candidate;
      std::string missing;
      if (!bindCublas(handle, *cublas, missing)) {
        tried += "; " + candidate + " lacks " + missing;
        continue;
      }
      state.cublas = std::move(cublas);
      return;
    }
    state.error = "cuBLAS not found (tried $TILE_CUBLAS_LIBRARY, "
                  "libcublas.so.13, libcublas.so.12, libcublas.so, "
                  "$CUDA_HOME/lib64 and /usr/local/cuda/lib64" +
                  tried + ")";
  });
  if (!state.cublas)
    error = state.error;
  return state.cublas.get();
}

const CublasLt *tile::run::loadCublasLt(std::string &error) {
  static std::once_flag once;
  static std::unique_ptr<CublasLt> loaded;
  static std::string failure;
  std::call_once(once, [] {
    // "none": cuBLASLt's fused epilogues are not wanted (the GEMM and a
    // separate elementwise kernel are the baseline).
    if (const char *given = std::getenv("TILE_CUBLASLT_LIBRARY");
        given && std::string(given) == "none") {
      failure = "cuBLASLt not used ($TILE_CUBLASLT_LIBRARY=none)";
      return;
    }
    std::string tried;
    loaded = openFirst<CublasLt>(
        getLibraryCandidates("TILE_CUBLASLT_LIBRARY", "libcublasLt"),
        [](void *, CublasLt &lt, auto &need) {
          need(lt.create, "cublasLtCreate");
          need(lt.destroy, "cublasLtDestroy");
          need(lt.descCreate, "cublasLtMatmulDescCreate");
          need(lt.descDestroy, "cublasLtMatmulDescDestroy");
          need(lt.descSetAttribute, "cublasLtMatmulDescSetAttribute");
          need(lt.layoutCreate, "cublasLtMatrixLayoutCreate");
          need(lt.layoutDestroy, "cublasLtMatrixLayoutDestroy");
          need(lt.preferenceCreate, "cublasLtMatmulPreferenceCreate");
          need(lt.preferenceDestroy, "cublasLtMatmulPreferenceDestroy");
          need(lt.preferenceSetAttribute,
               "cublasLtMatmulPreferenceSetAttribute");
          need(lt.heuristic, "cublasLtMatmulAlgoGetHeuristic");
          need(lt.matmul, "cublasLtMatmul");
        },
        tried);
    if (loaded)
      return;
    failure = "cuBLASLt not found (tried $TILE_CUBLASLT_LIBRARY, "
              "libcublasLt.so.13, .so.12, .so, $CUDA_HOME/lib64 and "
              "/usr/local/cuda/lib64" +
              tried + ")";
  });
  if (!loaded)
    error = failure;
  return loaded.get();
}

std::string Nvrtc::describe(NvrtcResult result) const {
  std::string text = "NVRTC status " + std::to_string(result);
  if (getErrorString)
    if (const char *name = getErrorString(result))
      text += std::string(" (") + name + ")";
  return text;
}

std::vector<std::string> tile::run::getNvrtcCandidates() {
  return getLibraryCandidates("TILE_NVRTC_LIBRARY", "libnvrtc");
}

const Nvrtc *tile::run::loadNvrtc(std::string &error) {
  static std::once_flag once;
  static std::unique_ptr<Nvrtc> loaded;
  static std::string failure;
  std::call_once(once, [] {
    // "none": the separate epilogue kernel is not wanted (the plain GEMM
    // is the baseline).
    if (const char *given = std::getenv("TILE_NVRTC_LIBRARY");
        given && std::string(given) == "none") {
      failure = "NVRTC not used ($TILE_NVRTC_LIBRARY=none)";
      return;
    }
    std::string tried;
    loaded = openFirst<Nvrtc>(
        getNvrtcCandidates(),
        [](void *handle, Nvrtc &nvrtc, auto &need) {
          need(nvrtc.version, "nvrtcVersion");
          need(nvrtc.getErrorString, "nvrtcGetErrorString");
          need(nvrtc.createProgram, "nvrtcCreateProgram");
          need(nvrtc.destroyProgram, "nvrtcDestroyProgram");
          need(nvrtc.compileProgram, "nvrtcCompileProgram");
          need(nvrtc.getPTXSize, "nvrtcGetPTXSize");
          need(nvrtc.getPTX, "nvrtcGetPTX");
          need(nvrtc.getProgramLogSize, "nvrtcGetProgramLogSize");
          need(nvrtc.getProgramLog, "nvrtcGetProgramLog");
          // Both or neither: a cubin needs its size.
          if (!bind(handle, nvrtc.getCUBINSize, "nvrtcGetCUBINSize") ||
              !bind(handle, nvrtc.getCUBIN, "nvrtcGetCUBIN")) {
            nvrtc.getCUBINSize = nullptr;
            nvrtc.getCUBIN = nullptr;
          }
        },
        tried);
    if (loaded)
      return;
    failure = "NVRTC not found (tried $TILE_NVRTC_LIBRARY, libnvrtc.so.13, "
              ".so.12, .so, $CUDA_HOME/lib64 and /usr/local/cuda/lib64" +
              tried + ")";
  });
  if (!loaded)
    error = failure;
  return loaded.get();
}

bool tile::run::compileWithNvrtc(const Nvrtc &nvrtc, const std::string &source,
                                 const std::string &name, int major, int minor,
                                 NvrtcImage &image, std::string &error) {
  image = NvrtcImage();
  image.cubin = nvrtc.getCUBINSize && nvrtc.getCUBIN;
  std::string arch = std::string("--gpu-architecture=") +
                     (image.cubin ? "sm_" : "compute_") +
                     std::to_string(major) + std::to_string(minor);
  const char *options[] = {arch.c_str(), "--fmad=false"};
  for (const char *option : options)
    image.options += (image.options.empty() ? "" : " ") + std::string(option);
  NvrtcProgram program = nullptr;
  NvrtcResult result = nvrtc.createProgram(
      &program, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr);
  if (result != 0) {
    error = "nvrtcCreateProgram failed: " + nvrtc.describe(result);
    return false;
  }
  result = nvrtc.compileProgram(program, 2, options);
  size_t logBytes = 0;
  if (nvrtc.getProgramLogSize(program, &logBytes) == 0 && logBytes > 1) {
    std::vector<char> log(logBytes + 1, '\0');
    if (nvrtc.getProgramLog(program, log.data()) == 0)
      image.log = log.data();
    while (!image.log.empty() &&
           (image.log.back() == '\n' || image.log.back() == ' '))
      image.log.pop_back();
  }
  bool ok = result == 0;
  if (!ok) {
    error = "nvrtcCompileProgram (" + image.options +
            ") failed: " + nvrtc.describe(result) +
            (image.log.empty() ? std::string() : ": " + image.log);
  } else {
    size_t bytes = 0;
    NvrtcResult (*getSize)(NvrtcProgram, size_t *) =
        image.cubin ? nvrtc.getCUBINSize : nvrtc.getPTXSize;
    NvrtcResult (*get)(NvrtcProgram, char *) =
        image.cubin ? nvrtc.getCUBIN : nvrtc.getPTX;
    const char *what = image.cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX";
    if ((result = getSize(program, &bytes)) != 0 || bytes == 0) {
      error = std::string(what) + "Size failed: " +
              (result != 0 ? nvrtc.describe(result) : std::string("empty"));
      ok = false;
    } else {
      image.bytes.assign(bytes, '\0');
      if ((result = get(program, image.bytes.data())) != 0) {
        error = std::string(what) + " failed: " + nvrtc.describe(result);
        ok = false;
      }
    }
  }
  nvrtc.destroyProgram(&program);
  return ok;
}

NvmlInfo tile::run::queryNvml(const std::string &pciBusId) {
  NvmlInfo info;
  const char *library = std::getenv("TILE_NVML_LIBRARY");
  void *handle = dlopen(library && *library ? library : "libnvidia-ml.so.1",
                        RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return info;
  using NvmlDevice = struct nvmlDevice_st *;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*getDriverVersion)(char *, unsigned) = nullptr;
  int (*getHandle)(const char *, NvmlDevice *) = nullptr;
  int (*getMaxClock)(NvmlDevice, int, unsigned *) = nullptr;
  int (*getClock)(NvmlDevice, int, unsigned *) = nullptr;
  if (!bind(handle, init, "nvmlInit_v2") ||
      !bind(handle, shutdown, "nvmlShutdown") || init() != 0)
    return info;
  // nvmlClockType_t: NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2.
  const int kClockSm = 1, kClockMemory = 2;
  char version[96] = {0};
  if (bind(handle, getDriverVersion, "nvmlSystemGetDriverVersion") &&
      getDriverVersion(version, sizeof(version) - 1) == 0)
    info.driverVersion = version;
  NvmlDevice device = nullptr;
  if (!pciBusId.empty() &&
      bind(handle, getHandle, "nvmlDeviceGetHandleByPciBusId_v2") &&
      getHandle(pciBusId.c_str(), &device) == 0) {
    if (bind(handle, getMaxClock, "nvmlDeviceGetMaxClockInfo")) {
      if (getMaxClock(device, kClockSm, &info.maxSmClockMhz) != 0)
        info.maxSmClockMhz = 0;
      if (getMaxClock(device, kClockMemory, &info.maxMemoryClockMhz) != 0)
        info.maxMemoryClockMhz = 0;
    }
    if (bind(handle, getClock, "nvmlDeviceGetClockInfo")) {
      if (getClock(device, kClockSm, &info.smClockMhz) != 0)
        info.smClockMhz = 0;
      if (getClock(device, kClockMemory, &info.memoryClockMhz) != 0)
        info.memoryClockMhz = 0;
    }
  }
  shutdown();
  // NVML stays loaded: unloading it is not worth the risk for a tool.
  return info;
}
