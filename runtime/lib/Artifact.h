//===- Artifact.h - Runtime internals behind the C API ----------*- C++ -*-===//
//
// The structs behind the C API's opaque handles and the pure checks the C
// API is made of, exposed for tile-run and the unit tests. The checks take
// plain data (a manifest, a compute capability, buffers), so they are tested
// without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIB_ARTIFACT_H
#define TILE_RUNTIME_LIB_ARTIFACT_H

#include "CudaDriver.h"
#include "tile/runtime/Manifest.h"
#include "tile/runtime/tile_runtime.h"

#include <string>
#include <vector>

namespace tile::runtime {

struct ArtifactBinary {
  BinaryInfo info;
  /// The manifest's folder joined with info.file.
  std::string path;
  /// The file's bytes followed by one NUL, which cuModuleLoadDataEx needs
  /// to find the end of PTX text.
  std::vector<char> bytes;
};

/// Reads a whole file. Fails (with a message naming `what` and the path)
/// when it is missing, not a regular file, or larger than `maxBytes`.
bool readWholeFile(const std::string &path, const char *what, uint64_t maxBytes,
                   std::vector<char> &bytes, std::string &error, int &status);

/// "sm_90" for 9.0, "sm_100" for 10.0.
std::string formatChip(int major, int minor);

/// Picks the binary to load on a device of compute capability
/// `deviceMajor`.`deviceMinor` for `choice` (a tile_binary_choice). A cubin
/// runs only on exactly its chip; PTX also on newer chips unless the chip
/// is arch-specific (sm_90a). On failure sets `error` and `status`.
bool chooseBinary(const KernelManifest &manifest, int choice, int ordinal,
                  const std::string &deviceName, int deviceMajor,
                  int deviceMinor, BinaryFormat &format, std::string &error,
                  int &status);

/// Fails when the driver (cuDriverGetVersion) is older than the first one
/// that JIT-compiles the manifest's PTX version.
bool checkDriverForPtx(const KernelManifest &manifest, int driverVersion,
                       std::string &error);

/// Words for a failed cuModuleLoadDataEx; `log` is the JIT error log.
std::string describeModuleLoadError(const KernelManifest &manifest,
                                    BinaryFormat format, int driverVersion,
                                    CUresult result,
                                    const std::string &driverText,
                                    const std::string &log);

/// Checks launch arguments against the manifest's params: count, null
/// pointers, sizes (of a batched kernel's, every matrix) and alignment (the
/// param's, and 16 bytes for a param a tensor map views in place; a
/// repacked one is read by the copy and needs only its own).
/// The message names the argument and param.
bool checkLaunchArguments(const KernelManifest &manifest,
                          const tile_buffer *args, size_t numArgs,
                          std::string &error);

/// The arguments of one cuTensorMapEncodeTiled call (docs/artifact.md).
/// A batched map has rank 3, the batch outermost; a 2-d one uses the
/// first `rank` entries of each array (and rank - 1 strides).
struct TensorMapEncoding {
  int dataType = 0;
  uint32_t rank = 2;
  uint64_t globalAddress = 0;
  /// Innermost first: {cols, rows, batch}.
  uint64_t globalDim[3] = {0, 0, 0};
  /// Bytes between rows, and between matrices.
  uint64_t globalStrides[2] = {0, 0};
  /// Innermost first: {box cols, box rows, 1}.
  uint32_t boxDim[3] = {0, 0, 0};
  uint32_t elementStrides[3] = {1, 1, 1};
  int interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  int swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  int l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  int oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// What encodes tensor map `index` of the manifest over the buffers `args`
/// (one per param, checked by checkLaunchArguments). A map of the result
/// param (a TMA store of C) is encoded as an in-place map of A or B is.
/// False with `error` when the map's param is missing or of an element type
/// the TMA does not take here.
bool getTensorMapEncoding(const KernelManifest &manifest, size_t index,
                          const tile_buffer *args, TensorMapEncoding &out,
                          std::string &error);

} // namespace tile::runtime

struct tile_artifact {
  std::string manifestPath;
  tile::runtime::KernelManifest manifest;
  std::vector<tile::runtime::ArtifactBinary> binaries;

  // Storage behind the C view in `info`.
  std::string configShort;
  std::vector<std::string> strings;
  std::vector<tile_param_info> params;
  std::vector<tile_tensor_map_info> tensorMaps;
  tile_kernel_info info;

  const tile::runtime::ArtifactBinary *
  findBinary(tile::runtime::BinaryFormat format) const;
};

struct tile_kernel {
  const tile::runtime::CudaDriver *driver = nullptr;
  tile::runtime::CudaDevice device;
  tile::runtime::CUcontext context = nullptr;
  tile::runtime::CUmodule module = nullptr;
  tile::runtime::CUfunction function = nullptr;
  tile::runtime::KernelManifest manifest;
  tile::runtime::BinaryFormat format = tile::runtime::BinaryFormat::Ptx;
  std::string binaryPath;
  int registers = -1;
  int localBytes = -1;
  int maxThreadsPerBlock = -1;
};

#endif // TILE_RUNTIME_LIB_ARTIFACT_H
