//===- Manifest.h - The kernel artifact manifest ----------------*- C++ -*-===//
//
// The manifest (JSON) that describes one compiled kernel: which binaries hold
// it, how to launch it and what its parameters are. docs/artifact.md defines
// the format; this header is its one definition in code. The compiler writes
// manifests and the runtime reads them through it, so the two cannot drift.
//
// Plain C++17 without exceptions or RTTI (the compiler links this library and
// is built with -fno-exceptions -fno-rtti). The implementation reads and
// writes JSON with nlohmann-json, which this header does not expose.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_MANIFEST_H
#define TILE_RUNTIME_MANIFEST_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile::runtime {

/// The value of the manifest's "format" field.
inline constexpr std::string_view kManifestFormat = "tile-kernel";
/// The one manifest version this code reads and writes.
inline constexpr int64_t kManifestVersion = 1;

enum class ElementType { F32, F16, BF16, I8, I32, F64 };
enum class BinaryFormat { Cubin, Ptx };
enum class CInit { Fill, Accumulate };
enum class ParamRole { Lhs, Rhs, Result };
enum class ParamAccess { Read, Write, ReadWrite };

std::string_view stringifyElementType(ElementType type);
std::string_view stringifyBinaryFormat(BinaryFormat format);
std::string_view stringifyCInit(CInit init);
std::string_view stringifyParamRole(ParamRole role);
std::string_view stringifyParamAccess(ParamAccess access);

std::optional<ElementType> symbolizeElementType(std::string_view text);
std::optional<BinaryFormat> symbolizeBinaryFormat(std::string_view text);
std::optional<CInit> symbolizeCInit(std::string_view text);
std::optional<ParamRole> symbolizeParamRole(std::string_view text);
std::optional<ParamAccess> symbolizeParamAccess(std::string_view text);

/// Bytes per element.
unsigned getElementTypeSize(ElementType type);

struct TargetInfo {
  /// "sm_90", "sm_90a", ...
  std::string chip;
  /// PTX ISA version of the PTX file, "8.0".
  std::string ptxVersion;
};

struct BinaryInfo {
  BinaryFormat format = BinaryFormat::Ptx;
  /// Relative to the manifest's folder.
  std::string file;
  uint64_t size = 0;
  uint64_t fnv1a64 = 0;
};

struct LaunchInfo {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t dynamicSharedBytes = 0;
};

struct ProblemInfo {
  int64_t m = 0, n = 0, k = 0;
  ElementType elementType = ElementType::F32;
  CInit cInit = CInit::Accumulate;
  double cFillValue = 0.0;
};

struct ParamInfo {
  std::string name;
  ParamRole role = ParamRole::Lhs;
  ElementType elementType = ElementType::F32;
  /// Logical extents: A is m x k, B is k x n, C is m x n.
  int64_t rows = 0, cols = 0;
  /// Element (i, j) is at base[i * rowStride + j * colStride].
  int64_t rowStride = 0, colStride = 1;
  /// Byte alignment the kernel assumes for the base pointer.
  uint32_t alignment = 1;
  ParamAccess access = ParamAccess::Read;
};

/// The #tile.config the kernel was built with.
struct ConfigInfo {
  std::array<int64_t, 3> block = {1, 1, 1};
  std::array<int64_t, 2> warp = {1, 1};
  std::array<int64_t, 2> thread = {1, 1};
  int64_t stages = 1;
  int64_t swizzle = 1;
  std::string smem = "none";
  int64_t smemPad = 0;
  bool prefetch = false;
  /// Blocks per SM the kernel was built to fit (nvvm.minctasm); 0 = no hint.
  int64_t occupancy = 0;
  /// Blocks sharing one tile's K dimension (1 = no split); they add into C
  /// atomically, so such kernels always accumulate.
  int64_t splitK = 1;
  std::string text;
};

/// What ptxas reported at compile time; -1 where ptxas was not run.
struct ResourceInfo {
  int64_t registers = -1;
  int64_t spillStores = -1;
  int64_t spillLoads = -1;
  int64_t stackBytes = -1;
};

struct KernelManifest {
  int64_t version = kManifestVersion;
  std::string kernel;
  TargetInfo target;
  std::vector<BinaryInfo> binaries;
  LaunchInfo launch;
  ProblemInfo problem;
  std::vector<ParamInfo> params;
  ConfigInfo config;
  ResourceInfo resources;
};

bool operator==(const TargetInfo &lhs, const TargetInfo &rhs);
bool operator==(const BinaryInfo &lhs, const BinaryInfo &rhs);
bool operator==(const LaunchInfo &lhs, const LaunchInfo &rhs);
bool operator==(const ProblemInfo &lhs, const ProblemInfo &rhs);
bool operator==(const ParamInfo &lhs, const ParamInfo &rhs);
bool operator==(const ConfigInfo &lhs, const ConfigInfo &rhs);
bool operator==(const ResourceInfo &lhs, const ResourceInfo &rhs);
bool operator==(const KernelManifest &lhs, const KernelManifest &rhs);
inline bool operator!=(const KernelManifest &lhs, const KernelManifest &rhs) {
  return !(lhs == rhs);
}

/// The manifest as JSON: two-space indented, keys in the order of
/// docs/artifact.md, one line per top-level field and per element of an
/// array of objects, ", " and ": " between items, ending in a newline.
/// Numbers and strings are as nlohmann-json writes them. The same manifest
/// always gives the same bytes.
std::string writeManifestJson(const KernelManifest &manifest);

/// Parses `text` into `out`. Checks JSON syntax (no duplicate keys, at most
/// 32 levels of nesting, no \u0000 in strings), the format and version, and
/// that every field is present with the right type and no field is unknown.
/// On failure returns false and sets `error` to one line starting with
/// "manifest: " that names the field, or for a syntax error gives the line
/// and column of the byte where parsing stopped. Does not check consistency
/// between fields: see validateManifest.
bool parseManifestJson(std::string_view text, KernelManifest &out,
                       std::string &error);

/// Checks the fields against each other: three params with roles lhs, rhs,
/// result whose extents match m, n, k; positive launch dimensions with at
/// most 1024 threads per block; a known chip; at most one binary per format.
/// On failure returns false and sets `error` to one line.
bool validateManifest(const KernelManifest &manifest, std::string &error);

/// `text` as a JSON string literal, quotes included, escaped as nlohmann-json
/// does; bytes that are not UTF-8 become U+FFFD. The one JSON string escaper
/// of the runtime: the manifest writer and tile-run's --json output use it.
std::string quoteJson(std::string_view text);

/// 64-bit FNV-1a of `size` bytes.
uint64_t fnv1a64(const void *data, size_t size);

/// 16 lowercase hex digits.
std::string formatHex64(uint64_t value);

/// Accepts exactly 16 lowercase hex digits.
bool parseHex64(std::string_view text, uint64_t &value);

/// A chip name "sm_XY" split up: sm_90 is 9.0, sm_100a is 10.0 with suffix
/// 'a' (arch-specific: runs on that compute capability only).
struct ChipVersion {
  int major = 0;
  int minor = 0;
  /// 0, 'a' (arch-specific) or 'f' (family-specific).
  char suffix = 0;
};
bool parseChip(std::string_view chip, ChipVersion &version);

/// "8.0" -> 8, 0.
bool parsePtxVersion(std::string_view text, int &major, int &minor);

/// Elements a buffer must hold for `param`:
/// (rows-1)*rowStride + (cols-1)*colStride + 1. False if that overflows.
bool getRequiredElements(const ParamInfo &param, uint64_t &elements);

/// Bytes a buffer must hold for `param`. False if that overflows.
bool getRequiredBytes(const ParamInfo &param, uint64_t &bytes);

/// The param with `role`, or null.
const ParamInfo *findParam(const KernelManifest &manifest, ParamRole role);

/// The binary of `format`, or null.
const BinaryInfo *findBinary(const KernelManifest &manifest,
                             BinaryFormat format);

/// The config in the compiler's short form for tables:
/// 128x128x8/32x64/8x8/s2/g8/pad4/pf.
std::string formatConfigShort(const ConfigInfo &config);

} // namespace tile::runtime

#endif // TILE_RUNTIME_MANIFEST_H
