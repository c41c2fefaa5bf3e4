//===- Runtime.cpp - The tile_runtime C API -------------------------------===//

#include "Artifact.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

using namespace tile::runtime;

namespace {
thread_local std::string lastError;

int fail(int status, std::string message) {
  lastError = std::move(message);
  return status;
}

int succeed() {
  lastError.clear();
  return TILE_SUCCESS;
}

/// Refuses a kernel whose params have dynamic offsets or strides, which only
/// `alternative` (the layouts' entry point) can check or launch.
bool checkStaticLayouts(const tile::runtime::KernelManifest &manifest,
                        const char *alternative, std::string &error) {
  if (!tile::runtime::hasDynamicLayout(manifest))
    return true;
  std::string fields;
  for (const tile::runtime::ParamInfo &param : manifest.params) {
    if (!tile::runtime::hasDynamicLayout(param))
      continue;
    std::string names;
    for (auto [name, value] :
         {std::pair{"offset", param.offset},
          {"batch_stride", param.batchStride},
          {"row_stride", param.rowStride},
          {"col_stride", param.colStride}})
      if (value == tile::runtime::kDynamic)
        names += (names.empty() ? "" : ", ") + std::string(name);
    fields += (fields.empty() ? "" : "; ") + param.name + ": " + names;
  }
  error = "kernel " + manifest.kernel +
          " has dynamic offsets or strides (" + fields + "); pass them with " +
          alternative;
  return false;
}

/// Launches `kernel` as `manifest` (the kernel's, or it with the launch's
/// layouts) describes it, then `values` (the dynamic fields').
int launchKernel(tile_kernel &kernel,
                 const tile::runtime::KernelManifest &manifest,
                 const tile_buffer *args, size_t numArgs,
                 const std::vector<int64_t> &values, void *stream);

/// A manifest is a few KiB; anything this large is the wrong file.
constexpr uint64_t kMaxManifestBytes = 16u << 20;

std::string quote(const std::string &text) { return "'" + text + "'"; }

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

std::string formatPointer(uint64_t pointer) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "0x%llx",
                static_cast<unsigned long long>(pointer));
  return buffer;
}
} // namespace

//===----------------------------------------------------------------------===//
// Pure checks
//===----------------------------------------------------------------------===//

bool tile::runtime::readWholeFile(const std::string &path, const char *what,
                                  uint64_t maxBytes, std::vector<char> &bytes,
                                  std::string &error, int &status) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    error = std::string("cannot read ") + what + " " + quote(path) + ": " +
            std::strerror(errno);
    status = TILE_ERROR_IO;
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    error = std::string("cannot read ") + what + " " + quote(path) +
            ": not a regular file";
    status = TILE_ERROR_IO;
    return false;
  }
  if (static_cast<uint64_t>(info.st_size) > maxBytes) {
    error = std::string("cannot read ") + what + " " + quote(path) + ": " +
            std::to_string(info.st_size) + " bytes is more than the " +
            std::to_string(maxBytes) + " expected";
    status = TILE_ERROR_IO;
    return false;
  }
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = std::string("cannot read ") + what + " " + quote(path) + ": " +
            std::strerror(errno);
    status = TILE_ERROR_IO;
    return false;
  }
  std::vector<char> result;
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    if (result.size() + count > maxBytes)
      break;
    result.insert(result.end(), buffer, buffer + count);
  }
  bool failed = std::ferror(file) != 0 || result.size() + count > maxBytes;
  std::fclose(file);
  if (failed) {
    error =
        std::string("cannot read ") + what + " " + quote(path) + ": read error";
    status = TILE_ERROR_IO;
    return false;
  }
  bytes = std::move(result);
  return true;
}

std::string tile::runtime::formatChip(int major, int minor) {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

bool tile::runtime::chooseBinary(const KernelManifest &manifest, int choice,
                                 int ordinal, const std::string &deviceName,
                                 int deviceMajor, int deviceMinor,
                                 BinaryFormat &format, std::string &error,
                                 int &status) {
  ChipVersion chip;
  if (!parseChip(manifest.target.chip, chip)) {
    error =
        "unsupported chip " + quote(manifest.target.chip) + " in the manifest";
    status = TILE_ERROR_INVALID_MANIFEST;
    return false;
  }
  bool exact = deviceMajor == chip.major && deviceMinor == chip.minor;
  bool newer = deviceMajor > chip.major ||
               (deviceMajor == chip.major && deviceMinor >= chip.minor);
  bool ptxRuns = chip.suffix == 'a' ? exact
                 : chip.suffix == 'f'
                     ? deviceMajor == chip.major && deviceMinor >= chip.minor
                     : newer;
  bool hasCubin = findBinary(manifest, BinaryFormat::Cubin) != nullptr;
  bool hasPtx = findBinary(manifest, BinaryFormat::Ptx) != nullptr;
  std::string mismatch = "artifact built for " + manifest.target.chip +
                         " but device " + std::to_string(ordinal) + " is " +
                         formatChip(deviceMajor, deviceMinor) + " (" +
                         deviceName + ")";

  if (choice == TILE_BINARY_CUBIN || choice == TILE_BINARY_PTX) {
    bool wantCubin = choice == TILE_BINARY_CUBIN;
    if (wantCubin ? !hasCubin : !hasPtx) {
      error = std::string("the artifact has no ") +
              (wantCubin ? "cubin" : "PTX") + " to load";
      status = TILE_ERROR_INVALID_ARGUMENT;
      return false;
    }
    if (wantCubin ? !exact : !ptxRuns) {
      error = mismatch + (wantCubin ? ": a cubin runs only on its own chip"
                                    : ": its PTX does not run there");
      status = TILE_ERROR_WRONG_DEVICE;
      return false;
    }
    format = wantCubin ? BinaryFormat::Cubin : BinaryFormat::Ptx;
    return true;
  }
  if (choice != TILE_BINARY_AUTO) {
    error = "unknown binary choice " + std::to_string(choice);
    status = TILE_ERROR_INVALID_ARGUMENT;
    return false;
  }
  if (hasCubin && exact) {
    format = BinaryFormat::Cubin;
    return true;
  }
  if (hasPtx && ptxRuns) {
    format = BinaryFormat::Ptx;
    return true;
  }
  error = mismatch + (hasPtx ? ": its PTX does not run there"
                             : ": its cubin runs only on " +
                                   manifest.target.chip + " and it has no PTX");
  status = TILE_ERROR_WRONG_DEVICE;
  return false;
}

bool tile::runtime::checkDriverForPtx(const KernelManifest &manifest,
                                      int driverVersion, std::string &error) {
  int major, minor;
  if (!parsePtxVersion(manifest.target.ptxVersion, major, minor))
    return true;
  int needed = getMinimumDriverForPtx(major, minor);
  if (needed == 0 || driverVersion >= needed)
    return true;
  error = "the NVIDIA driver supports CUDA " +
          formatCudaVersion(driverVersion) + " (driver API " +
          std::to_string(driverVersion) + ") but the kernel's PTX (ISA " +
          manifest.target.ptxVersion + ") needs CUDA " +
          formatCudaVersion(needed) + " or newer: update the driver";
  return false;
}

std::string tile::runtime::describeModuleLoadError(
    const KernelManifest &manifest, BinaryFormat format, int driverVersion,
    CUresult result, const std::string &driverText, const std::string &log) {
  std::string what = format == BinaryFormat::Cubin ? "cubin" : "PTX";
  std::string message;
  switch (result) {
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    message = "the " + what + " has no code this GPU can run (built for " +
              manifest.target.chip + ")";
    break;
  case CUDA_ERROR_INVALID_PTX:
    message = "the driver's JIT compiler rejected the PTX";
    break;
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    message = "the driver (CUDA " + formatCudaVersion(driverVersion) +
              ") does not support PTX ISA " + manifest.target.ptxVersion +
              ": update the NVIDIA driver";
    break;
  case CUDA_ERROR_INVALID_IMAGE:
    message = "the driver does not accept the " + what +
              " as a module image (corrupt, or built by a newer toolkit "
              "than the driver supports)";
    break;
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    message = "the driver has no PTX JIT compiler (libnvidia-ptxjitcompiler "
              "is missing)";
    break;
  case CUDA_ERROR_JIT_COMPILATION_DISABLED:
    message = "PTX JIT compilation is disabled (CUDA_DISABLE_PTX_JIT?)";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    message = "out of device memory while loading the module";
    break;
  default:
    message = "loading the " + what + " failed";
    break;
  }
  message += " [" + driverText + "]";
  if (!log.empty())
    message += "; JIT log: " + log;
  return message;
}

bool tile::runtime::checkLaunchArguments(const KernelManifest &manifest,
                                         const tile_buffer *args,
                                         size_t numArgs, std::string &error) {
  if (numArgs != manifest.params.size()) {
    std::string names;
    for (const ParamInfo &param : manifest.params)
      names += (names.empty() ? "" : ", ") + param.name;
    error = "kernel " + manifest.kernel + " takes " +
            std::to_string(manifest.params.size()) + " arguments (" + names +
            "), got " + std::to_string(numArgs);
    return false;
  }
  if (numArgs != 0 && !args) {
    error = "the argument array is null";
    return false;
  }
  for (size_t i = 0; i < numArgs; ++i) {
    const ParamInfo &param = manifest.params[i];
    const tile_buffer &arg = args[i];
    std::string what =
        "argument " + std::to_string(i) + " (" + param.name + ")";
    if (arg.device_ptr == 0) {
      error = what + " is a null device pointer";
      return false;
    }
    uint64_t needed = 0;
    int64_t batch = manifest.problem.batch;
    if (!getRequiredBytes(param, batch, needed)) {
      error = what + ": the param's layout overflows 64 bits";
      return false;
    }
    if (arg.size_bytes < needed) {
      std::string batched;
      if (batch > 1)
        batched = ", batch " + std::to_string(batch) + ", batch_stride " +
                  std::to_string(param.batchStride);
      error = what + " is too small: param " + param.name + " (" +
              std::to_string(param.rows) + "x" + std::to_string(param.cols) +
              " " + std::string(stringifyElementType(param.elementType)) +
              ", row_stride " + std::to_string(param.rowStride) +
              ", col_stride " + std::to_string(param.colStride) + batched +
              (param.offset ? ", offset " + std::to_string(param.offset)
                            : std::string()) +
              ") needs " + std::to_string(needed) +
              " bytes, the buffer holds " + std::to_string(arg.size_bytes);
      return false;
    }
    if (param.alignment > 1 && arg.device_ptr % param.alignment != 0) {
      error = what + " at " + formatPointer(arg.device_ptr) +
              " is not aligned to " + std::to_string(param.alignment) +
              " bytes, as the kernel assumes";
      return false;
    }
    // The TMA reads from 16-byte aligned bases (cuTensorMapEncodeTiled
    // refuses others); a valid manifest already asks that alignment.
    // A repacked param is read by the copy, not the TMA.
    for (size_t m = 0; m < manifest.tensorMaps.size(); ++m)
      if (manifest.tensorMaps[m].param == param.name &&
          manifest.tensorMaps[m].repackRowStride == 0 &&
          arg.device_ptr % 16 != 0) {
        error = what + " at " + formatPointer(arg.device_ptr) +
                " is not aligned to 16 bytes, as tensor map " +
                std::to_string(m) + " needs";
        return false;
      }
  }
  return true;
}

bool tile::runtime::getTensorMapEncoding(const KernelManifest &manifest,
                                         size_t index, const tile_buffer *args,
                                         TensorMapEncoding &out,
                                         std::string &error) {
  const TensorMapInfo &map = manifest.tensorMaps[index];
  int paramIndex = findParamIndex(manifest, map.param);
  if (paramIndex < 0) {
    error = "tensor map " + std::to_string(index) + " names param '" +
            map.param + "', which the kernel does not have";
    return false;
  }
  // The matrix as stored (a column-major param's transpose).
  const ParamInfo param = getStoredMatrix(manifest.params[paramIndex]);
  TensorMapEncoding encoding;
  switch (param.elementType) {
  case ElementType::BF16:
    encoding.dataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    break;
  case ElementType::F16:
    encoding.dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    break;
  case ElementType::F32:
    encoding.dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    break;
  default:
    error = "tensor map " + std::to_string(index) + " views param " +
            param.name + " of element type " +
            std::string(stringifyElementType(param.elementType)) +
            ", which the runtime does not map";
    return false;
  }
  uint64_t elementBytes = getElementTypeSize(param.elementType);
  encoding.rank = map.batched ? 3 : 2;
  // (A strided param's matrix starts `offset` elements past its pointer;
  // a repacked copy's at the copy's start.)
  encoding.globalAddress =
      args[paramIndex].device_ptr +
      (map.repackRowStride != 0
           ? 0
           : static_cast<uint64_t>(param.offset) * elementBytes);
  encoding.globalDim[0] = static_cast<uint64_t>(param.cols);
  encoding.globalDim[1] = static_cast<uint64_t>(param.rows);
  encoding.globalStrides[0] =
      static_cast<uint64_t>(map.repackRowStride != 0 ? map.repackRowStride
                                                     : param.rowStride) *
      elementBytes;
  encoding.boxDim[0] = map.box[1];
  encoding.boxDim[1] = map.box[0];
  encoding.elementStrides[0] = encoding.elementStrides[1] = 1;
  if (map.batched) {
    // The batch outermost, a box one matrix deep. The repacked copy holds
    // the matrices back to back (repackParams).
    encoding.globalDim[2] = static_cast<uint64_t>(manifest.problem.batch);
    // (A batch of one has no batch stride, and the map never steps it:
    // any the driver takes, the matrix's rows rounded up to 16 bytes.)
    uint64_t rowsBytes = static_cast<uint64_t>(param.rows) *
                         encoding.globalStrides[0];
    encoding.globalStrides[1] =
        map.repackRowStride != 0 ? rowsBytes
        : manifest.problem.batch > 1
            ? static_cast<uint64_t>(param.batchStride) * elementBytes
            : (rowsBytes + 15) / 16 * 16;
    encoding.boxDim[2] = 1;
    encoding.elementStrides[2] = 1;
  }
  encoding.interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  switch (map.swizzle) {
  case TensorMapSwizzle::None:
    encoding.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    break;
  case TensorMapSwizzle::B32:
    encoding.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
    break;
  case TensorMapSwizzle::B64:
    encoding.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
    break;
  case TensorMapSwizzle::B128:
    encoding.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    break;
  }
  switch (map.l2Promotion) {
  case TensorMapL2Promotion::None:
    encoding.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
    break;
  case TensorMapL2Promotion::B64:
    encoding.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
    break;
  case TensorMapL2Promotion::B128:
    encoding.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
    break;
  case TensorMapL2Promotion::B256:
    encoding.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
    break;
  }
  encoding.oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  out = encoding;
  return true;
}

//===----------------------------------------------------------------------===//
// Artifacts
//===----------------------------------------------------------------------===//

const ArtifactBinary *tile_artifact::findBinary(BinaryFormat format) const {
  for (const ArtifactBinary &binary : binaries)
    if (binary.info.format == format)
      return &binary;
  return nullptr;
}

namespace {
/// Fills the C view of the manifest. Every string it points to is owned by
/// the artifact.
void buildInfo(tile_artifact &artifact) {
  const KernelManifest &m = artifact.manifest;
  // Reserve first: `info` points into these strings.
  artifact.strings.clear();
  artifact.strings.reserve(8 + 4 * m.params.size() + 2 * m.tensorMaps.size());
  auto keep = [&](std::string_view text) {
    artifact.strings.emplace_back(text);
    return artifact.strings.back().c_str();
  };
  artifact.configShort = formatConfigShort(m.config);
  tile_kernel_info &info = artifact.info;
  info = tile_kernel_info();
  info.kernel = m.kernel.c_str();
  info.manifest_path = artifact.manifestPath.c_str();
  info.chip = m.target.chip.c_str();
  info.ptx_version = m.target.ptxVersion.c_str();
  const ArtifactBinary *cubin = artifact.findBinary(BinaryFormat::Cubin);
  const ArtifactBinary *ptx = artifact.findBinary(BinaryFormat::Ptx);
  info.cubin_path = cubin ? cubin->path.c_str() : nullptr;
  info.ptx_path = ptx ? ptx->path.c_str() : nullptr;
  for (int i = 0; i < 3; ++i) {
    info.grid[i] = m.launch.grid[i];
    info.block[i] = m.launch.block[i];
    info.cluster[i] = m.launch.cluster[i];
  }
  info.dynamic_shared_bytes = m.launch.dynamicSharedBytes;
  info.m = m.problem.m;
  info.n = m.problem.n;
  info.k = m.problem.k;
  info.element_type = keep(stringifyElementType(m.problem.elementType));
  info.accumulator_type = keep(stringifyElementType(m.problem.accumulatorType));
  info.c_init = keep(stringifyCInit(m.problem.cInit));
  info.c_fill_value = m.problem.cFillValue;
  info.batch = m.problem.batch;
  artifact.params.clear();
  for (const ParamInfo &param : m.params) {
    tile_param_info p;
    p.name = param.name.c_str();
    p.role = keep(stringifyParamRole(param.role));
    p.element_type = keep(stringifyElementType(param.elementType));
    p.rows = param.rows;
    p.cols = param.cols;
    p.row_stride = param.rowStride;
    p.col_stride = param.colStride;
    p.alignment = param.alignment;
    p.access = keep(stringifyParamAccess(param.access));
    p.element_bytes = getElementTypeSize(param.elementType);
    p.required_bytes = 0;
    getRequiredBytes(param, m.problem.batch, p.required_bytes);
    p.num_tensor_maps = 0;
    for (const TensorMapInfo &map : m.tensorMaps)
      p.num_tensor_maps += map.param == param.name;
    p.batch_stride = param.batchStride;
    p.offset = param.offset;
    artifact.params.push_back(p);
  }
  info.num_params = artifact.params.size();
  info.params = artifact.params.data();
  artifact.tensorMaps.clear();
  for (const TensorMapInfo &map : m.tensorMaps) {
    tile_tensor_map_info t;
    t.param = map.param.c_str();
    int index = findParamIndex(m, map.param);
    t.param_index = index < 0 ? 0 : static_cast<size_t>(index);
    t.box_rows = map.box[0];
    t.box_cols = map.box[1];
    t.swizzle = keep(stringifyTensorMapSwizzle(map.swizzle));
    t.l2_promotion = keep(stringifyTensorMapL2Promotion(map.l2Promotion));
    t.repack_row_stride = map.repackRowStride;
    artifact.tensorMaps.push_back(t);
  }
  info.num_tensor_maps = artifact.tensorMaps.size();
  info.tensor_maps =
      artifact.tensorMaps.empty() ? nullptr : artifact.tensorMaps.data();
  info.strategy = keep(stringifyKernelStrategy(m.config.strategy));
  info.config_text = m.config.text.c_str();
  info.config_short = artifact.configShort.c_str();
  info.registers = m.resources.registers;
  info.spill_stores = m.resources.spillStores;
  info.spill_loads = m.resources.spillLoads;
  info.stack_bytes = m.resources.stackBytes;
}

int openArtifact(const char *manifestPath, tile_artifact &artifact) {
  std::string error;
  int status = TILE_SUCCESS;
  std::vector<char> text;
  artifact.manifestPath = manifestPath;
  if (!readWholeFile(artifact.manifestPath, "manifest", kMaxManifestBytes, text,
                     error, status))
    return fail(status, error);
  if (!parseManifestJson(std::string_view(text.data(), text.size()),
                         artifact.manifest, error) ||
      !validateManifest(artifact.manifest, error))
    return fail(TILE_ERROR_INVALID_MANIFEST,
                artifact.manifestPath + ": " + error);

  std::string directory = directoryOf(artifact.manifestPath);
  for (const BinaryInfo &info : artifact.manifest.binaries) {
    ArtifactBinary binary;
    binary.info = info;
    binary.path = directory + "/" + info.file;
    // Compare the size before reading, so a wrong multi-GiB file is not
    // read at all; the limit also caps the read if the file grows meanwhile.
    struct stat fileInfo;
    if (stat(binary.path.c_str(), &fileInfo) == 0 &&
        S_ISREG(fileInfo.st_mode) &&
        static_cast<uint64_t>(fileInfo.st_size) != info.size)
      return fail(TILE_ERROR_BINARY_MISMATCH,
                  "binary " + quote(binary.path) +
                      " does not match the manifest: it is " +
                      std::to_string(fileInfo.st_size) +
                      " bytes, the manifest says " + std::to_string(info.size));
    if (!readWholeFile(binary.path, "binary", info.size, binary.bytes, error,
                       status))
      return fail(status,
                  error + " (named by " + quote(artifact.manifestPath) + ")");
    if (binary.bytes.size() != info.size)
      return fail(TILE_ERROR_BINARY_MISMATCH,
                  "binary " + quote(binary.path) +
                      " does not match the manifest: it is " +
                      std::to_string(binary.bytes.size()) +
                      " bytes, the manifest says " + std::to_string(info.size));
    uint64_t hash = fnv1a64(binary.bytes.data(), binary.bytes.size());
    if (hash != info.fnv1a64)
      return fail(TILE_ERROR_BINARY_MISMATCH,
                  "binary " + quote(binary.path) +
                      " does not match the manifest: its FNV-1a hash is " +
                      formatHex64(hash) + ", the manifest says " +
                      formatHex64(info.fnv1a64));
    binary.bytes.push_back('\0');
    artifact.binaries.push_back(std::move(binary));
  }
  buildInfo(artifact);
  return succeed();
}
} // namespace

extern "C" {

const char *tile_status_name(int status) {
  switch (status) {
  case TILE_SUCCESS:
    return "TILE_SUCCESS";
  case TILE_ERROR_INVALID_ARGUMENT:
    return "TILE_ERROR_INVALID_ARGUMENT";
  case TILE_ERROR_IO:
    return "TILE_ERROR_IO";
  case TILE_ERROR_INVALID_MANIFEST:
    return "TILE_ERROR_INVALID_MANIFEST";
  case TILE_ERROR_BINARY_MISMATCH:
    return "TILE_ERROR_BINARY_MISMATCH";
  case TILE_ERROR_NO_DRIVER:
    return "TILE_ERROR_NO_DRIVER";
  case TILE_ERROR_NO_DEVICE:
    return "TILE_ERROR_NO_DEVICE";
  case TILE_ERROR_DRIVER_TOO_OLD:
    return "TILE_ERROR_DRIVER_TOO_OLD";
  case TILE_ERROR_WRONG_DEVICE:
    return "TILE_ERROR_WRONG_DEVICE";
  case TILE_ERROR_LOAD_FAILED:
    return "TILE_ERROR_LOAD_FAILED";
  case TILE_ERROR_INVALID_LAUNCH_ARGS:
    return "TILE_ERROR_INVALID_LAUNCH_ARGS";
  case TILE_ERROR_LAUNCH_FAILED:
    return "TILE_ERROR_LAUNCH_FAILED";
  case TILE_ERROR_CUDA:
    return "TILE_ERROR_CUDA";
  case TILE_ERROR_TENSOR_MAP_FAILED:
    return "TILE_ERROR_TENSOR_MAP_FAILED";
  }
  return "unknown status";
}

const char *tile_last_error(void) { return lastError.c_str(); }

int tile_artifact_open(const char *manifestPath, tile_artifact **out) {
  if (!out)
    return fail(TILE_ERROR_INVALID_ARGUMENT, "tile_artifact_open: out is null");
  *out = nullptr;
  if (!manifestPath || !*manifestPath)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_artifact_open: no manifest path given");
  auto *artifact = new tile_artifact();
  int status = openArtifact(manifestPath, *artifact);
  if (status != TILE_SUCCESS) {
    delete artifact;
    return status;
  }
  *out = artifact;
  return succeed();
}

void tile_artifact_close(tile_artifact *artifact) { delete artifact; }

int tile_artifact_get_info(const tile_artifact *artifact,
                           tile_kernel_info *out) {
  if (!artifact || !out)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_artifact_get_info: null argument");
  *out = artifact->info;
  return succeed();
}

int tile_artifact_check_args(const tile_artifact *artifact,
                             const tile_buffer *args, size_t numArgs) {
  if (!artifact)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_artifact_check_args: artifact is null");
  std::string error;
  if (!checkStaticLayouts(artifact->manifest, "tile_artifact_check_layouts",
                          error) ||
      !checkLaunchArguments(artifact->manifest, args, numArgs, error))
    return fail(TILE_ERROR_INVALID_LAUNCH_ARGS, error);
  return succeed();
}

// tile_layout is ParamLayout's C face: the same four int64_t in order.
static_assert(sizeof(tile_layout) == sizeof(ParamLayout) &&
                  offsetof(tile_layout, offset) ==
                      offsetof(ParamLayout, offset) &&
                  offsetof(tile_layout, row_stride) ==
                      offsetof(ParamLayout, rowStride) &&
                  offsetof(tile_layout, col_stride) ==
                      offsetof(ParamLayout, colStride) &&
                  offsetof(tile_layout, batch_stride) ==
                      offsetof(ParamLayout, batchStride),
              "tile_layout and ParamLayout must match");

int tile_artifact_check_layouts(const tile_artifact *artifact,
                                const tile_buffer *args,
                                const tile_layout *layouts, size_t numArgs) {
  if (!artifact)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_artifact_check_layouts: artifact is null");
  std::string error;
  KernelManifest resolved;
  if (!resolveLayouts(artifact->manifest,
                      reinterpret_cast<const ParamLayout *>(layouts), numArgs,
                      resolved, error) ||
      !checkLaunchArguments(resolved, args, numArgs, error))
    return fail(TILE_ERROR_INVALID_LAUNCH_ARGS, error);
  return succeed();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

namespace {
/// Undoes a partial load.
void releaseKernel(tile_kernel &kernel) {
  if (!kernel.driver)
    return;
  if (kernel.module) {
    // cuModuleUnload needs the module's context current.
    kernel.driver->cuCtxSetCurrent(kernel.context);
    kernel.driver->cuModuleUnload(kernel.module);
    kernel.module = nullptr;
  }
  if (kernel.context) {
    kernel.driver->cuDevicePrimaryCtxRelease(kernel.device.device);
    kernel.context = nullptr;
  }
}

int loadKernel(const tile_artifact &artifact, const tile_load_options &options,
               tile_kernel &kernel) {
  std::string error;
  int status = TILE_SUCCESS;
  const CudaDriver *driver = loadCudaDriver(error, status);
  if (!driver)
    return fail(status, error);
  if (!openCudaDevice(*driver, options.device, kernel.device, error, status))
    return fail(status, error);
  const CudaDevice &device = kernel.device;

  BinaryFormat format;
  if (!chooseBinary(artifact.manifest, options.binary, device.ordinal,
                    device.name, device.computeMajor, device.computeMinor,
                    format, error, status))
    return fail(status, error);
  if (format == BinaryFormat::Ptx &&
      !checkDriverForPtx(artifact.manifest, device.driverVersion, error))
    return fail(TILE_ERROR_DRIVER_TOO_OLD, error);

  const LaunchInfo &launch = artifact.manifest.launch;
  const KernelManifest &manifest = artifact.manifest;
  uint64_t clusterBlocks = getClusterBlocks(launch);
  std::string driverCuda =
      "the driver (CUDA " + formatCudaVersion(device.driverVersion) + ")";
  if (clusterBlocks > 1 && !driver->cuLaunchKernelEx)
    return fail(TILE_ERROR_DRIVER_TOO_OLD,
                "kernel " + manifest.kernel + " runs in clusters of " +
                    std::to_string(clusterBlocks) +
                    " blocks, which needs cuLaunchKernelEx (CUDA 11.8 or "
                    "newer), and " +
                    driverCuda + " lacks it: update the driver");
  bool repacks =
      std::any_of(manifest.tensorMaps.begin(), manifest.tensorMaps.end(),
                  [](const TensorMapInfo &map) {
                    return map.repackRowStride != 0;
                  }) ||
      std::any_of(manifest.params.begin(), manifest.params.end(),
                  [](const ParamInfo &param) {
                    return param.repackRowStride != 0;
                  });
  if (repacks && (!driver->cuMemAllocAsync || !driver->cuMemFreeAsync ||
                  !driver->cuMemcpy2DAsync))
    return fail(TILE_ERROR_DRIVER_TOO_OLD,
                "kernel " + manifest.kernel +
                    " repacks an operand before each launch, which needs "
                    "cuMemAllocAsync, cuMemFreeAsync and cuMemcpy2DAsync "
                    "(CUDA 11.2 or newer), and " +
                    driverCuda + " lacks them: update the driver");
  if (repacks) {
    // cuMemAllocAsync allocates from the device's default memory pool:
    // a device without memory pools (some virtualised or older ones)
    // would fail every launch. A driver that cannot answer leaves it to
    // the allocation, which says why.
    int pools = 1;
    if (driver->cuDeviceGetAttribute(&pools,
                                     CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                                     device.device) == CUDA_SUCCESS &&
        pools == 0)
      return fail(TILE_ERROR_WRONG_DEVICE,
                  "kernel " + manifest.kernel +
                      " repacks an operand before each launch with "
                      "cuMemAllocAsync, which needs memory pools, and device " +
                      std::to_string(device.ordinal) + " (" + device.name +
                      ") has none");
  }
  if (!manifest.tensorMaps.empty() && !driver->cuTensorMapEncodeTiled)
    return fail(TILE_ERROR_DRIVER_TOO_OLD,
                "kernel " + manifest.kernel +
                    " takes tensor maps, which need "
                    "cuTensorMapEncodeTiled (CUDA 12.0 or newer), and " +
                    driverCuda + " lacks it: update the driver");
  if (clusterBlocks > 1) {
    // Drivers older than the attribute fail the query: then the launch
    // will say.
    int clusters = 1;
    if (driver->cuDeviceGetAttribute(&clusters,
                                     CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH,
                                     device.device) == CUDA_SUCCESS &&
        clusters == 0)
      return fail(TILE_ERROR_WRONG_DEVICE,
                  "kernel " + manifest.kernel + " runs in clusters of " +
                      std::to_string(clusterBlocks) + " blocks but device " +
                      std::to_string(device.ordinal) + " (" + device.name +
                      ") cannot launch thread block clusters");
  }
  int sharedLimit = 0;
  CUresult result = driver->cuDeviceGetAttribute(
      &sharedLimit, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
      device.device);
  if (result != CUDA_SUCCESS)
    return fail(TILE_ERROR_CUDA, "cannot query the shared memory limit: " +
                                     driver->describe(result));
  if (launch.dynamicSharedBytes > static_cast<unsigned>(sharedLimit))
    return fail(TILE_ERROR_WRONG_DEVICE,
                "kernel " + artifact.manifest.kernel + " needs " +
                    std::to_string(launch.dynamicSharedBytes) +
                    " bytes of dynamic shared memory but device " +
                    std::to_string(device.ordinal) + " allows at most " +
                    std::to_string(sharedLimit) + " per block");

  kernel.driver = driver;
  result = driver->cuDevicePrimaryCtxRetain(&kernel.context, device.device);
  if (result != CUDA_SUCCESS) {
    kernel.context = nullptr;
    return fail(TILE_ERROR_CUDA,
                "cannot retain the primary context of device " +
                    std::to_string(device.ordinal) + ": " +
                    driver->describe(result));
  }
  result = driver->cuCtxSetCurrent(kernel.context);
  if (result != CUDA_SUCCESS)
    return fail(TILE_ERROR_CUDA, "cannot make the primary context current: " +
                                     driver->describe(result));

  const ArtifactBinary *binary = artifact.findBinary(format);
  kernel.format = format;
  kernel.binaryPath = binary->path;
  // The JIT writes its diagnostics here; they are the useful part of a PTX
  // error ("ptxas fatal: ...").
  char errorLog[8192] = {0};
  int jitOptions[] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *jitValues[] = {errorLog,
                       reinterpret_cast<void *>(sizeof(errorLog) - 1)};
  result = driver->cuModuleLoadDataEx(&kernel.module, binary->bytes.data(), 2,
                                      jitOptions, jitValues);
  if (result != CUDA_SUCCESS) {
    kernel.module = nullptr;
    errorLog[sizeof(errorLog) - 1] = 0;
    std::string log = errorLog;
    while (!log.empty() && (log.back() == '\n' || log.back() == ' '))
      log.pop_back();
    int loadStatus = result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION
                         ? TILE_ERROR_DRIVER_TOO_OLD
                         : TILE_ERROR_LOAD_FAILED;
    return fail(loadStatus,
                quote(binary->path) + ": " +
                    describeModuleLoadError(artifact.manifest, format,
                                            device.driverVersion, result,
                                            driver->describe(result), log));
  }
  result = driver->cuModuleGetFunction(&kernel.function, kernel.module,
                                       artifact.manifest.kernel.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    return fail(TILE_ERROR_LOAD_FAILED,
                "manifest names kernel " + quote(artifact.manifest.kernel) +
                    " but the binary " + quote(binary->path) +
                    " has no such entry: the manifest does not match the "
                    "binary");
  if (result != CUDA_SUCCESS)
    return fail(TILE_ERROR_LOAD_FAILED, "cannot find kernel " +
                                            quote(artifact.manifest.kernel) +
                                            " in " + quote(binary->path) +
                                            ": " + driver->describe(result));

  if (launch.dynamicSharedBytes > kDefaultDynamicSharedLimit) {
    result = driver->cuFuncSetAttribute(
        kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        static_cast<int>(launch.dynamicSharedBytes));
    if (result != CUDA_SUCCESS)
      return fail(TILE_ERROR_LOAD_FAILED,
                  "cannot raise the dynamic shared memory limit of kernel " +
                      quote(artifact.manifest.kernel) + " to " +
                      std::to_string(launch.dynamicSharedBytes) +
                      " bytes: " + driver->describe(result));
  }
  if (clusterBlocks > kMaxPortableClusterBlocks) {
    result = driver->cuFuncSetAttribute(
        kernel.function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
        1);
    if (result != CUDA_SUCCESS)
      return fail(TILE_ERROR_LOAD_FAILED,
                  "cannot allow kernel " + quote(manifest.kernel) +
                      " a non-portable cluster size (" +
                      std::to_string(clusterBlocks) +
                      " blocks): " + driver->describe(result));
  }
  if (driver->cuFuncGetAttribute(&kernel.registers, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                 kernel.function) != CUDA_SUCCESS)
    kernel.registers = -1;
  if (driver->cuFuncGetAttribute(&kernel.localBytes,
                                 CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                                 kernel.function) != CUDA_SUCCESS)
    kernel.localBytes = -1;
  if (driver->cuFuncGetAttribute(&kernel.maxThreadsPerBlock,
                                 CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                 kernel.function) != CUDA_SUCCESS)
    kernel.maxThreadsPerBlock = -1;
  uint64_t threads =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  if (kernel.maxThreadsPerBlock > 0 &&
      threads > static_cast<uint64_t>(kernel.maxThreadsPerBlock))
    return fail(
        TILE_ERROR_LOAD_FAILED,
        "kernel " + quote(artifact.manifest.kernel) + " can run at most " +
            std::to_string(kernel.maxThreadsPerBlock) +
            " threads per block (it uses " + std::to_string(kernel.registers) +
            " registers per thread) but the manifest launches " +
            std::to_string(threads));
  kernel.manifest = artifact.manifest;
  return succeed();
}
} // namespace

int tile_kernel_load(const tile_artifact *artifact,
                     const tile_load_options *options, tile_kernel **out) {
  if (!out)
    return fail(TILE_ERROR_INVALID_ARGUMENT, "tile_kernel_load: out is null");
  *out = nullptr;
  if (!artifact)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_kernel_load: artifact is null");
  tile_load_options defaults = {0, TILE_BINARY_AUTO};
  auto *kernel = new tile_kernel();
  int status = loadKernel(*artifact, options ? *options : defaults, *kernel);
  if (status != TILE_SUCCESS) {
    // Keep the message: releasing calls into the driver, not into the API.
    releaseKernel(*kernel);
    delete kernel;
    return status;
  }
  *out = kernel;
  return TILE_SUCCESS;
}

int tile_kernel_get_load_info(const tile_kernel *kernel, tile_load_info *out) {
  if (!kernel || !out)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_kernel_get_load_info: null argument");
  *out = tile_load_info();
  out->device = kernel->device.ordinal;
  std::snprintf(out->device_name, sizeof(out->device_name), "%s",
                kernel->device.name.c_str());
  out->compute_major = kernel->device.computeMajor;
  out->compute_minor = kernel->device.computeMinor;
  out->driver_version = kernel->device.driverVersion;
  out->binary_format = kernel->format == BinaryFormat::Cubin ? "cubin" : "ptx";
  out->binary_path = kernel->binaryPath.c_str();
  out->registers = kernel->registers;
  out->local_bytes = kernel->localBytes;
  out->max_threads_per_block = kernel->maxThreadsPerBlock;
  out->context = kernel->context;
  return succeed();
}

} // extern "C"

namespace {
/// The stream-ordered buffer of a launch's repacked params, freed on the
/// stream (after the kernel) when the launch returns.
struct RepackBuffer {
  RepackBuffer(const CudaDriver &driver, CUstream stream)
      : driver(driver), stream(stream) {}
  ~RepackBuffer() {
    if (pointer)
      driver.cuMemFreeAsync(pointer, stream);
  }
  const CudaDriver &driver;
  CUstream stream;
  CUdeviceptr pointer = 0;
};

/// Enqueues the copies of every param a tensor map repacks (rows padded to
/// its repack_row_stride) into one buffer of `repack`, and points that
/// param's entry of `mapArgs` at its copy. A batched map's copy holds all
/// problem.batch matrices back to back, matrix b at b * rows *
/// repack_row_stride elements.
int repackParams(const KernelManifest &manifest, const tile_buffer *args,
                 RepackBuffer &repack, tile_buffer *mapArgs,
                 std::string &error) {
  struct Copy {
    int param;
    uint64_t offset, pitch, matrices;
  };
  Copy copies[kMaxTensorMaps];
  size_t numCopies = 0;
  uint64_t total = 0;
  auto add = [&](int index, int64_t rowStride, bool batched) {
    if (index < 0 || numCopies == kMaxTensorMaps ||
        std::any_of(copies, copies + numCopies,
                    [&](const Copy &c) { return c.param == index; }))
      return;
    const ParamInfo param = getStoredMatrix(manifest.params[index]);
    uint64_t pitch = static_cast<uint64_t>(rowStride) *
                     getElementTypeSize(param.elementType);
    uint64_t matrices =
        batched ? static_cast<uint64_t>(manifest.problem.batch) : 1;
    // Each copy starts on a 256-byte boundary (the TMA and the fma
    // kernel's 16-byte vectors need 16).
    total = (total + 255) / 256 * 256;
    copies[numCopies++] = {index, total, pitch, matrices};
    total += pitch * static_cast<uint64_t>(param.rows) * matrices;
  };
  for (const TensorMapInfo &map : manifest.tensorMaps)
    if (map.repackRowStride != 0)
      add(findParamIndex(manifest, map.param), map.repackRowStride,
          map.batched);
  // An fma kernel's repacked operand (one matrix): the kernel's parameter
  // becomes the copy (launchKernel).
  for (size_t i = 0; i < manifest.params.size(); ++i)
    if (manifest.params[i].repackRowStride != 0)
      add(static_cast<int>(i), manifest.params[i].repackRowStride, false);
  if (numCopies == 0)
    return TILE_SUCCESS;
  // tile_kernel_load refused drivers without these entry points.
  const CudaDriver &driver = repack.driver;
  CUresult result = driver.cuMemAllocAsync(&repack.pointer, total,
                                           repack.stream);
  if (result != CUDA_SUCCESS) {
    repack.pointer = 0;
    error = "cuMemAllocAsync of " + std::to_string(total) +
            " bytes for the repacked operands of kernel " + manifest.kernel +
            " failed: " + driver.describe(result);
    return TILE_ERROR_CUDA;
  }
  for (size_t i = 0; i < numCopies; ++i) {
    const ParamInfo param = getStoredMatrix(manifest.params[copies[i].param]);
    uint64_t elementBytes = getElementTypeSize(param.elementType);
    uint64_t rows = static_cast<uint64_t>(param.rows);
    uint64_t matrices = copies[i].matrices;
    uint64_t matrixBytes = copies[i].pitch * rows;
    // Matrices back to back in the source (batch_stride rows * row_stride)
    // are one run of rows at one pitch: a single copy of them all.
    // Otherwise one copy per matrix.
    bool oneCopy =
        matrices == 1 || static_cast<uint64_t>(param.batchStride) ==
                             rows * static_cast<uint64_t>(param.rowStride);
    uint64_t numCalls = oneCopy ? 1 : matrices;
    CUDA_MEMCPY2D copy = {};
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcPitch = static_cast<size_t>(param.rowStride) * elementBytes;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstPitch = copies[i].pitch;
    copy.WidthInBytes = static_cast<size_t>(param.cols) * elementBytes;
    copy.Height = static_cast<size_t>(oneCopy ? rows * matrices : rows);
    for (uint64_t b = 0; b < numCalls; ++b) {
      copy.srcDevice = args[copies[i].param].device_ptr +
                       (static_cast<uint64_t>(param.offset) +
                        b * static_cast<uint64_t>(param.batchStride)) *
                           elementBytes;
      copy.dstDevice = repack.pointer + copies[i].offset + b * matrixBytes;
      result = driver.cuMemcpy2DAsync(&copy, repack.stream);
      if (result != CUDA_SUCCESS) {
        error =
            "cuMemcpy2DAsync repacking param " + param.name + " (" +
            (matrices > 1 ? std::to_string(matrices) + " x " : std::string()) +
            std::to_string(param.rows) + "x" + std::to_string(param.cols) +
            ", rows " + std::to_string(copy.srcPitch) + " -> " +
            std::to_string(copy.dstPitch) + " bytes apart" +
            (numCalls > 1 ? ", matrix " + std::to_string(b) : std::string()) +
            ") of kernel " + manifest.kernel +
            " failed: " + driver.describe(result);
        return TILE_ERROR_CUDA;
      }
    }
    mapArgs[copies[i].param].device_ptr = repack.pointer + copies[i].offset;
    mapArgs[copies[i].param].size_bytes = matrixBytes * matrices;
  }
  return TILE_SUCCESS;
}
} // namespace

extern "C" {

int tile_kernel_launch(tile_kernel *kernel, const tile_buffer *args,
                       size_t numArgs, void *stream) {
  if (!kernel)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_kernel_launch: kernel is null");
  std::string error;
  if (!checkStaticLayouts(kernel->manifest, "tile_kernel_launch_layouts",
                          error))
    return fail(TILE_ERROR_INVALID_LAUNCH_ARGS, error);
  return launchKernel(*kernel, kernel->manifest, args, numArgs, {}, stream);
}

int tile_kernel_launch_layouts(tile_kernel *kernel, const tile_buffer *args,
                               const tile_layout *layouts, size_t numArgs,
                               void *stream) {
  if (!kernel)
    return fail(TILE_ERROR_INVALID_ARGUMENT,
                "tile_kernel_launch_layouts: kernel is null");
  std::string error;
  KernelManifest resolved;
  if (!resolveLayouts(kernel->manifest,
                      reinterpret_cast<const ParamLayout *>(layouts), numArgs,
                      resolved, error))
    return fail(TILE_ERROR_INVALID_LAUNCH_ARGS, error);
  return launchKernel(*kernel, resolved, args, numArgs,
                      getDynamicValues(kernel->manifest, resolved), stream);
}

} // extern "C"

namespace {
int launchKernel(tile_kernel &kernelRef, const KernelManifest &manifest,
                 const tile_buffer *args, size_t numArgs,
                 const std::vector<int64_t> &values, void *stream) {
  tile_kernel *kernel = &kernelRef;
  std::string error;
  if (!checkLaunchArguments(manifest, args, numArgs, error))
    return fail(TILE_ERROR_INVALID_LAUNCH_ARGS, error);
  const CudaDriver &driver = *kernel->driver;
  CUcontext current = nullptr;
  if (driver.cuCtxGetCurrent(&current) != CUDA_SUCCESS ||
      current != kernel->context) {
    CUresult result = driver.cuCtxSetCurrent(kernel->context);
    if (result != CUDA_SUCCESS)
      return fail(TILE_ERROR_CUDA, "cannot make the kernel's context "
                                   "current: " +
                                       driver.describe(result));
  }
  // Bare-pointer convention: each param is one 8-byte device pointer, then
  // each tensor map is 128 bytes by value. A valid manifest has 3 params and
  // at most kMaxTensorMaps maps; fixed arrays keep this path free of
  // allocations (tile_kernel_launch_layouts copies the manifest with the
  // launch's layouts first, and the values in a vector).
  // A kernel with dynamic offsets or strides takes their values after the
  // maps, an 8-byte integer each.
  constexpr size_t kMaxParams = 16, kMaxValues = 4 * kMaxParams;
  size_t numMaps = manifest.tensorMaps.size();
  if (numArgs > kMaxParams || numMaps > kMaxTensorMaps ||
      values.size() > kMaxValues)
    return fail(TILE_ERROR_INVALID_LAUNCH_ARGS,
                "kernel " + manifest.kernel + " has more than " +
                    std::to_string(kMaxParams) + " params or " +
                    std::to_string(kMaxTensorMaps) + " tensor maps");
  CUdeviceptr pointers[kMaxParams];
  CUtensorMap maps[kMaxTensorMaps];
  int64_t scalars[kMaxValues];
  void *params[kMaxParams + kMaxTensorMaps + kMaxValues];
  for (size_t i = 0; i < values.size(); ++i) {
    scalars[i] = values[i];
    params[numArgs + numMaps + i] = &scalars[i];
  }
  for (size_t i = 0; i < numArgs; ++i) {
    pointers[i] = args[i].device_ptr;
    params[i] = &pointers[i];
  }
  // Repacked params: one stream-ordered buffer holds a copy of each, rows
  // padded to the map's repack_row_stride; the maps view the copies, and
  // the buffer is freed on the stream after the kernel.
  tile_buffer mapArgs[kMaxParams];
  std::copy(args, args + numArgs, mapArgs);
  RepackBuffer repack(driver, static_cast<CUstream>(stream));
  if (int status = repackParams(manifest, args, repack, mapArgs, error);
      status != TILE_SUCCESS)
    return fail(status, error);
  for (size_t i = 0; i < numArgs; ++i)
    if (i < manifest.params.size() && manifest.params[i].repackRowStride != 0)
      pointers[i] = mapArgs[i].device_ptr;
  for (size_t i = 0; i < numMaps; ++i) {
    TensorMapEncoding e;
    if (!getTensorMapEncoding(manifest, i, mapArgs, e, error))
      return fail(TILE_ERROR_TENSOR_MAP_FAILED, error);
    if (!driver.cuTensorMapEncodeTiled)
      return fail(TILE_ERROR_DRIVER_TOO_OLD,
                  "the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or "
                  "newer) for the tensor maps of kernel " +
                      manifest.kernel);
    CUresult result = driver.cuTensorMapEncodeTiled(
        &maps[i], e.dataType, e.rank, reinterpret_cast<void *>(e.globalAddress),
        e.globalDim, e.globalStrides, e.boxDim, e.elementStrides, e.interleave,
        e.swizzle, e.l2Promotion, e.oobFill);
    if (result != CUDA_SUCCESS) {
      const TensorMapInfo &map = manifest.tensorMaps[i];
      const ParamInfo &param =
          manifest.params[findParamIndex(manifest, map.param)];
      // A batched map: the batch before the extents, and its stride.
      std::string batch, matrices;
      if (map.batched) {
        batch = std::to_string(e.globalDim[2]) + " x ";
        matrices =
            ", matrices " + std::to_string(e.globalStrides[1]) + " bytes apart";
      }
      return fail(TILE_ERROR_TENSOR_MAP_FAILED,
                  "cuTensorMapEncodeTiled failed for tensor map " +
                      std::to_string(i) + " of kernel " + manifest.kernel +
                      " (param " + param.name + " at " +
                      formatPointer(e.globalAddress) + ", " +
                      std::string(stringifyElementType(param.elementType)) +
                      " " + batch + std::to_string(param.rows) + "x" +
                      std::to_string(param.cols) + ", rows " +
                      std::to_string(e.globalStrides[0]) + " bytes apart" +
                      matrices + ", box " + std::to_string(map.box[0]) + "x" +
                      std::to_string(map.box[1]) + ", swizzle " +
                      std::string(stringifyTensorMapSwizzle(map.swizzle)) +
                      "): " + driver.describe(result));
    }
    params[numArgs + i] = &maps[i];
  }
  const LaunchInfo &launch = manifest.launch;
  bool cluster = getClusterBlocks(launch) > 1;
  CUresult result;
  if (cluster) {
    if (!driver.cuLaunchKernelEx)
      return fail(TILE_ERROR_DRIVER_TOO_OLD,
                  "the driver has no cuLaunchKernelEx (CUDA 11.8 or newer) "
                  "for the cluster launch of kernel " +
                      manifest.kernel);
    CUlaunchAttribute attribute = {};
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = launch.cluster[0];
    attribute.value.clusterDim.y = launch.cluster[1];
    attribute.value.clusterDim.z = launch.cluster[2];
    CUlaunchConfig config = {};
    config.gridDimX = launch.grid[0];
    config.gridDimY = launch.grid[1];
    config.gridDimZ = launch.grid[2];
    config.blockDimX = launch.block[0];
    config.blockDimY = launch.block[1];
    config.blockDimZ = launch.block[2];
    config.sharedMemBytes = launch.dynamicSharedBytes;
    config.hStream = static_cast<CUstream>(stream);
    config.attrs = &attribute;
    config.numAttrs = 1;
    result =
        driver.cuLaunchKernelEx(&config, kernel->function, params, nullptr);
  } else {
    result =
        driver.cuLaunchKernel(kernel->function, launch.grid[0], launch.grid[1],
                              launch.grid[2], launch.block[0], launch.block[1],
                              launch.block[2], launch.dynamicSharedBytes,
                              static_cast<CUstream>(stream), params, nullptr);
  }
  if (result != CUDA_SUCCESS)
    return fail(
        TILE_ERROR_LAUNCH_FAILED,
        std::string(cluster ? "cuLaunchKernelEx" : "cuLaunchKernel") +
            " failed for kernel " + manifest.kernel + " (grid " +
            std::to_string(launch.grid[0]) + "x" +
            std::to_string(launch.grid[1]) + "x" +
            std::to_string(launch.grid[2]) + ", block " +
            std::to_string(launch.block[0]) + "x" +
            std::to_string(launch.block[1]) + "x" +
            std::to_string(launch.block[2]) +
            (cluster ? ", cluster " + std::to_string(launch.cluster[0]) + "x" +
                           std::to_string(launch.cluster[1]) + "x" +
                           std::to_string(launch.cluster[2])
                     : std::string()) +
            ", " + std::to_string(launch.dynamicSharedBytes) +
            " bytes of dynamic shared memory): " + driver.describe(result));
  return succeed();
}
} // namespace

extern "C" {

void tile_kernel_unload(tile_kernel *kernel) {
  if (!kernel)
    return;
  releaseKernel(*kernel);
  delete kernel;
}

} // extern "C"
