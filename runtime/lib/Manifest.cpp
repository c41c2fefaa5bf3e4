//===- Manifest.cpp - The kernel artifact manifest ------------------------===//
//
// The manifest's schema over nlohmann-json: the writer builds a JSON tree and
// lays it out as docs/artifact.md shows; the reader checks the syntax, then
// reads every field with its type, range and path. nlohmann is used without
// exceptions (JSON_NOEXCEPTION, allow_exceptions = false): every value's type
// is checked before it is converted, so no input makes it throw or abort.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Manifest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tile::runtime;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

namespace {
template <typename Enum> struct EnumName {
  Enum value;
  std::string_view name;
};

constexpr EnumName<ElementType> kElementTypeNames[] = {
    {ElementType::F32, "f32"},   {ElementType::F16, "f16"},
    {ElementType::BF16, "bf16"}, {ElementType::I8, "i8"},
    {ElementType::I32, "i32"},   {ElementType::F64, "f64"}};
constexpr EnumName<BinaryFormat> kBinaryFormatNames[] = {
    {BinaryFormat::Cubin, "cubin"}, {BinaryFormat::Ptx, "ptx"}};
constexpr EnumName<CInit> kCInitNames[] = {{CInit::Fill, "fill"},
                                           {CInit::Accumulate, "accumulate"}};
constexpr EnumName<ParamRole> kParamRoleNames[] = {
    {ParamRole::Lhs, "lhs"},
    {ParamRole::Rhs, "rhs"},
    {ParamRole::Result, "result"},
    {ParamRole::Epilogue, "epilogue"}};
constexpr EnumName<EpilogueOperandKind> kEpilogueOperandKindNames[] = {
    {EpilogueOperandKind::Row, "row"},
    {EpilogueOperandKind::Col, "col"},
    {EpilogueOperandKind::Full, "full"}};

constexpr EnumName<ParamAccess> kParamAccessNames[] = {
    {ParamAccess::Read, "read"},
    {ParamAccess::Write, "write"},
    {ParamAccess::ReadWrite, "readwrite"}};
constexpr EnumName<KernelStrategy> kKernelStrategyNames[] = {
    {KernelStrategy::Fma, "fma"}, {KernelStrategy::Wgmma, "wgmma"}};
constexpr EnumName<CopyKind> kCopyKindNames[] = {
    {CopyKind::Registers, "registers"},
    {CopyKind::CpAsync, "cp_async"},
    {CopyKind::Tma, "tma"}};
constexpr EnumName<StoreKind> kStoreKindNames[] = {
    {StoreKind::Registers, "registers"}, {StoreKind::Tma, "tma"}};
constexpr EnumName<TensorMapSwizzle> kTensorMapSwizzleNames[] = {
    {TensorMapSwizzle::None, "none"},
    {TensorMapSwizzle::B32, "32B"},
    {TensorMapSwizzle::B64, "64B"},
    {TensorMapSwizzle::B128, "128B"}};
constexpr EnumName<TensorMapL2Promotion> kTensorMapL2PromotionNames[] = {
    {TensorMapL2Promotion::None, "none"},
    {TensorMapL2Promotion::B64, "64B"},
    {TensorMapL2Promotion::B128, "128B"},
    {TensorMapL2Promotion::B256, "256B"}};

template <typename Enum, size_t N>
std::string_view lookupName(const EnumName<Enum> (&names)[N], Enum value) {
  for (const EnumName<Enum> &entry : names)
    if (entry.value == value)
      return entry.name;
  return "unknown";
}

template <typename Enum, size_t N>
std::optional<Enum> lookupValue(const EnumName<Enum> (&names)[N],
                                std::string_view text) {
  for (const EnumName<Enum> &entry : names)
    if (entry.name == text)
      return entry.value;
  return std::nullopt;
}

/// "a", "b" or "c" for messages.
template <typename Enum, size_t N>
std::string listNames(const EnumName<Enum> (&names)[N]) {
  std::string result;
  for (size_t i = 0; i < N; ++i) {
    if (i != 0)
      result += i + 1 == N ? " or " : ", ";
    result += '"';
    result += names[i].name;
    result += '"';
  }
  return result;
}
} // namespace

std::string_view tile::runtime::stringifyElementType(ElementType type) {
  return lookupName(kElementTypeNames, type);
}
std::string_view tile::runtime::stringifyBinaryFormat(BinaryFormat format) {
  return lookupName(kBinaryFormatNames, format);
}
std::string_view tile::runtime::stringifyCInit(CInit init) {
  return lookupName(kCInitNames, init);
}
std::string_view tile::runtime::stringifyParamRole(ParamRole role) {
  return lookupName(kParamRoleNames, role);
}
std::string_view tile::runtime::stringifyParamAccess(ParamAccess access) {
  return lookupName(kParamAccessNames, access);
}
std::string_view
tile::runtime::stringifyKernelStrategy(KernelStrategy strategy) {
  return lookupName(kKernelStrategyNames, strategy);
}
std::string_view tile::runtime::stringifyCopyKind(CopyKind copy) {
  return lookupName(kCopyKindNames, copy);
}
std::string_view tile::runtime::stringifyStoreKind(StoreKind store) {
  return lookupName(kStoreKindNames, store);
}
std::string_view
tile::runtime::stringifyTensorMapSwizzle(TensorMapSwizzle swizzle) {
  return lookupName(kTensorMapSwizzleNames, swizzle);
}
std::string_view
tile::runtime::stringifyTensorMapL2Promotion(TensorMapL2Promotion promotion) {
  return lookupName(kTensorMapL2PromotionNames, promotion);
}

std::optional<ElementType>
tile::runtime::symbolizeElementType(std::string_view text) {
  return lookupValue(kElementTypeNames, text);
}
std::optional<BinaryFormat>
tile::runtime::symbolizeBinaryFormat(std::string_view text) {
  return lookupValue(kBinaryFormatNames, text);
}
std::optional<CInit> tile::runtime::symbolizeCInit(std::string_view text) {
  return lookupValue(kCInitNames, text);
}
std::optional<ParamRole>
tile::runtime::symbolizeParamRole(std::string_view text) {
  return lookupValue(kParamRoleNames, text);
}
std::optional<ParamAccess>
tile::runtime::symbolizeParamAccess(std::string_view text) {
  return lookupValue(kParamAccessNames, text);
}
std::optional<KernelStrategy>
tile::runtime::symbolizeKernelStrategy(std::string_view text) {
  return lookupValue(kKernelStrategyNames, text);
}
std::optional<CopyKind>
tile::runtime::symbolizeCopyKind(std::string_view text) {
  return lookupValue(kCopyKindNames, text);
}
std::optional<StoreKind>
tile::runtime::symbolizeStoreKind(std::string_view text) {
  return lookupValue(kStoreKindNames, text);
}
std::optional<TensorMapSwizzle>
tile::runtime::symbolizeTensorMapSwizzle(std::string_view text) {
  return lookupValue(kTensorMapSwizzleNames, text);
}
std::optional<TensorMapL2Promotion>
tile::runtime::symbolizeTensorMapL2Promotion(std::string_view text) {
  return lookupValue(kTensorMapL2PromotionNames, text);
}

unsigned tile::runtime::getElementTypeSize(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::I8:
    return 1;
  case ElementType::F64:
    return 8;
  }
  return 1;
}

unsigned tile::runtime::getSwizzleBytes(TensorMapSwizzle swizzle) {
  switch (swizzle) {
  case TensorMapSwizzle::None:
    return 0;
  case TensorMapSwizzle::B32:
    return 32;
  case TensorMapSwizzle::B64:
    return 64;
  case TensorMapSwizzle::B128:
    return 128;
  }
  return 0;
}

ParamInfo tile::runtime::getStoredMatrix(const ParamInfo &param) {
  ParamInfo stored = param;
  // Column-major: rows contiguous. A 1 x N param with both strides 1 (how
  // tile-opt writes a transposed operand of one row: A with M = 1, B with
  // K = 1) is stored as N rows of one element.
  bool columnMajor =
      param.rowStride == 1 &&
      (param.colStride != 1 || (param.rows == 1 && param.cols > 1));
  if (columnMajor) {
    stored.rows = param.cols;
    stored.cols = param.rows;
    stored.rowStride = param.colStride;
    stored.colStride = 1;
  }
  return stored;
}

uint64_t tile::runtime::getClusterBlocks(const LaunchInfo &launch) {
  return uint64_t(launch.cluster[0]) * launch.cluster[1] * launch.cluster[2];
}

//===----------------------------------------------------------------------===//
// Equality
//===----------------------------------------------------------------------===//

bool tile::runtime::operator==(const TargetInfo &lhs, const TargetInfo &rhs) {
  return lhs.chip == rhs.chip && lhs.ptxVersion == rhs.ptxVersion;
}
bool tile::runtime::operator==(const BinaryInfo &lhs, const BinaryInfo &rhs) {
  return lhs.format == rhs.format && lhs.file == rhs.file &&
         lhs.size == rhs.size && lhs.fnv1a64 == rhs.fnv1a64;
}
bool tile::runtime::operator==(const LaunchInfo &lhs, const LaunchInfo &rhs) {
  return lhs.grid == rhs.grid && lhs.block == rhs.block &&
         lhs.cluster == rhs.cluster &&
         lhs.dynamicSharedBytes == rhs.dynamicSharedBytes;
}
bool tile::runtime::operator==(const ProblemInfo &lhs, const ProblemInfo &rhs) {
  return lhs.m == rhs.m && lhs.n == rhs.n && lhs.k == rhs.k &&
         lhs.elementType == rhs.elementType &&
         lhs.accumulatorType == rhs.accumulatorType && lhs.cInit == rhs.cInit &&
         lhs.cFillValue == rhs.cFillValue && lhs.batch == rhs.batch;
}
bool tile::runtime::operator==(const ParamInfo &lhs, const ParamInfo &rhs) {
  return lhs.name == rhs.name && lhs.role == rhs.role &&
         lhs.elementType == rhs.elementType && lhs.rows == rhs.rows &&
         lhs.cols == rhs.cols && lhs.rowStride == rhs.rowStride &&
         lhs.colStride == rhs.colStride && lhs.alignment == rhs.alignment &&
         lhs.access == rhs.access && lhs.batchStride == rhs.batchStride &&
         lhs.offset == rhs.offset && lhs.repackRowStride == rhs.repackRowStride;
}
bool tile::runtime::operator==(const TensorMapInfo &lhs,
                               const TensorMapInfo &rhs) {
  return lhs.param == rhs.param && lhs.box == rhs.box &&
         lhs.swizzle == rhs.swizzle && lhs.l2Promotion == rhs.l2Promotion &&
         lhs.repackRowStride == rhs.repackRowStride &&
         lhs.batched == rhs.batched;
}
bool tile::runtime::operator==(const ConfigInfo &lhs, const ConfigInfo &rhs) {
  return lhs.strategy == rhs.strategy && lhs.block == rhs.block &&
         lhs.warp == rhs.warp && lhs.thread == rhs.thread &&
         lhs.mma == rhs.mma && lhs.stages == rhs.stages &&
         lhs.copy == rhs.copy && lhs.repack == rhs.repack &&
         lhs.specialize == rhs.specialize &&
         lhs.swizzle == rhs.swizzle && lhs.smem == rhs.smem &&
         lhs.smemPad == rhs.smemPad && lhs.prefetch == rhs.prefetch &&
         lhs.occupancy == rhs.occupancy && lhs.splitK == rhs.splitK &&
         lhs.splitLast == rhs.splitLast &&
         lhs.cluster == rhs.cluster && lhs.persistent == rhs.persistent &&
         lhs.store == rhs.store && lhs.text == rhs.text;
}
bool tile::runtime::operator==(const ResourceInfo &lhs,
                               const ResourceInfo &rhs) {
  return lhs.registers == rhs.registers && lhs.spillStores == rhs.spillStores &&
         lhs.spillLoads == rhs.spillLoads && lhs.stackBytes == rhs.stackBytes;
}
bool tile::runtime::operator==(const KernelManifest &lhs,
                               const KernelManifest &rhs) {
  return lhs.version == rhs.version && lhs.kernel == rhs.kernel &&
         lhs.target == rhs.target && lhs.binaries == rhs.binaries &&
         lhs.launch == rhs.launch && lhs.problem == rhs.problem &&
         lhs.params == rhs.params && lhs.tensorMaps == rhs.tensorMaps &&
         lhs.epilogue == rhs.epilogue &&
         lhs.config == rhs.config && lhs.resources == rhs.resources;
}

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

uint64_t tile::runtime::fnv1a64(const void *data, size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string tile::runtime::formatHex64(uint64_t value) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i) {
    text[i] = kDigits[value & 0xf];
    value >>= 4;
  }
  return text;
}

bool tile::runtime::parseHex64(std::string_view text, uint64_t &value) {
  if (text.size() != 16)
    return false;
  uint64_t result = 0;
  for (char c : text) {
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else
      return false;
    result = result << 4 | digit;
  }
  value = result;
  return true;
}

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool tile::runtime::parseChip(std::string_view chip, ChipVersion &version) {
  if (chip.substr(0, 3) != "sm_")
    return false;
  std::string_view rest = chip.substr(3);
  size_t digits = 0;
  while (digits < rest.size() && isDigit(rest[digits]))
    ++digits;
  // Two or three digits (sm_90, sm_100), no leading zero.
  if (digits < 2 || digits > 3 || rest[0] == '0')
    return false;
  char suffix = 0;
  if (digits + 1 == rest.size() && (rest[digits] == 'a' || rest[digits] == 'f'))
    suffix = rest[digits];
  else if (digits != rest.size())
    return false;
  int number = 0;
  for (size_t i = 0; i < digits; ++i)
    number = number * 10 + (rest[i] - '0');
  version.major = number / 10;
  version.minor = number % 10;
  version.suffix = suffix;
  return true;
}

bool tile::runtime::parsePtxVersion(std::string_view text, int &major,
                                    int &minor) {
  size_t dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 2 ||
      dot + 2 != text.size())
    return false;
  int value = 0;
  for (size_t i = 0; i < dot; ++i) {
    if (!isDigit(text[i]))
      return false;
    value = value * 10 + (text[i] - '0');
  }
  if (!isDigit(text[dot + 1]))
    return false;
  major = value;
  minor = text[dot + 1] - '0';
  return true;
}

bool tile::runtime::getRequiredElements(const ParamInfo &param, int64_t batch,
                                        uint64_t &elements) {
  if (param.rows <= 0 || param.cols <= 0 || param.rowStride < 0 ||
      param.colStride < 0 || batch < 1 || (batch > 1 && param.batchStride < 0))
    return false;
  uint64_t rowPart, colPart, batchPart = 0, total;
  if (__builtin_mul_overflow(static_cast<uint64_t>(param.rows - 1),
                             static_cast<uint64_t>(param.rowStride),
                             &rowPart) ||
      __builtin_mul_overflow(static_cast<uint64_t>(param.cols - 1),
                             static_cast<uint64_t>(param.colStride),
                             &colPart) ||
      (batch > 1 &&
       __builtin_mul_overflow(static_cast<uint64_t>(batch - 1),
                              static_cast<uint64_t>(param.batchStride),
                              &batchPart)) ||
      __builtin_add_overflow(rowPart, colPart, &total) ||
      __builtin_add_overflow(total, batchPart, &total) ||
      __builtin_add_overflow(total, uint64_t(1), &total) || param.offset < 0 ||
      __builtin_add_overflow(total, static_cast<uint64_t>(param.offset),
                             &total))
    return false;
  elements = total;
  return true;
}

bool tile::runtime::getRequiredBytes(const ParamInfo &param, int64_t batch,
                                     uint64_t &bytes) {
  uint64_t elements;
  if (!getRequiredElements(param, batch, elements))
    return false;
  return !__builtin_mul_overflow(
      elements, uint64_t(getElementTypeSize(param.elementType)), &bytes);
}

const ParamInfo *tile::runtime::findParam(const KernelManifest &manifest,
                                          ParamRole role) {
  for (const ParamInfo &param : manifest.params)
    if (param.role == role)
      return &param;
  return nullptr;
}

int tile::runtime::findParamIndex(const KernelManifest &manifest,
                                  std::string_view name) {
  for (size_t i = 0; i < manifest.params.size(); ++i)
    if (manifest.params[i].name == name)
      return static_cast<int>(i);
  return -1;
}

const BinaryInfo *tile::runtime::findBinary(const KernelManifest &manifest,
                                            BinaryFormat format) {
  for (const BinaryInfo &binary : manifest.binaries)
    if (binary.format == format)
      return &binary;
  return nullptr;
}

namespace {
/// The wgmma short form: wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8.
std::string formatWgmmaConfigShort(const ConfigInfo &config) {
  auto join = [](const auto &values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i)
      text += (i == 0 ? "" : "x") + std::to_string(values[i]);
    return text;
  };
  std::string text = "wgmma/" + join(config.block) + "/" + join(config.warp) +
                     "/m" + std::to_string(config.mma[0]) + "n" +
                     std::to_string(config.mma[1]) + "k" +
                     std::to_string(config.mma[2]) + "/s" +
                     std::to_string(config.stages) + "/";
  switch (config.copy) {
  case CopyKind::Tma:
    text += "tma";
    break;
  case CopyKind::CpAsync:
    text += "cpasync";
    break;
  case CopyKind::Registers:
    text += "regs";
    break;
  }
  if (config.repack)
    text += "/rp";
  if (config.specialize)
    text += "/ws";
  text += "/g" + std::to_string(config.swizzle);
  if (config.smem != "swizzle128") {
    text += "/" + config.smem;
    if (config.smem == "pad")
      text += std::to_string(config.smemPad);
  }
  if (config.cluster[0] * config.cluster[1] != 1)
    text += "/c" + join(config.cluster);
  if (config.persistent)
    text += "/p";
  if (config.store == StoreKind::Tma)
    text += "/ts";
  if (config.occupancy > 0)
    text += "/o" + std::to_string(config.occupancy);
  if (config.splitK > 1)
    text += "/sk" + std::to_string(config.splitK);
  if (config.splitLast > 0)
    text += "l" + std::to_string(config.splitLast);
  return text;
}
} // namespace

std::string tile::runtime::formatConfigShort(const ConfigInfo &config) {
  if (config.strategy == KernelStrategy::Wgmma)
    return formatWgmmaConfigShort(config);
  // The FMA form predates the strategies: tables and results compare by it.
  std::string text =
      std::to_string(config.block[0]) + "x" + std::to_string(config.block[1]) +
      "x" + std::to_string(config.block[2]) + "/" +
      std::to_string(config.warp[0]) + "x" + std::to_string(config.warp[1]) +
      "/" + std::to_string(config.thread[0]) + "x" +
      std::to_string(config.thread[1]) + "/s" + std::to_string(config.stages) +
      "/g" + std::to_string(config.swizzle) + "/" + config.smem;
  if (config.smem == "pad")
    text += std::to_string(config.smemPad);
  text += config.prefetch ? "/pf" : "/nopf";
  if (config.repack)
    text += "/rp";
  if (config.occupancy > 0)
    text += "/o" + std::to_string(config.occupancy);
  if (config.splitK > 1)
    text += "/sk" + std::to_string(config.splitK);
  return text;
}

//===----------------------------------------------------------------------===//
// JSON values
//===----------------------------------------------------------------------===//

namespace {
/// Objects keep their keys in document order: the writer emits the order of
/// docs/artifact.md, and the reader reports the first unknown field as it
/// appears in the file.
using Json = nlohmann::ordered_json;

/// `value` as compact JSON. Strings that are not valid UTF-8 get U+FFFD for
/// the bad bytes instead of failing (nlohmann's default would throw, which
/// without exceptions aborts).
std::string dumpJson(const Json &value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// An offset or stride as the manifest writes it: the number, or "dynamic".
Json layoutValue(int64_t value) {
  return value == kDynamic ? Json("dynamic") : Json(value);
}

} // namespace

std::string tile::runtime::quoteJson(std::string_view text) {
  return dumpJson(Json(std::string(text)));
}

namespace {
/// How a value looks, for "(got ...)" in messages.
std::string describeValue(const Json &value) {
  if (value.is_string()) {
    const std::string &text = value.get_ref<const std::string &>();
    return quoteJson(text.size() > 40 ? text.substr(0, 37) + "..." : text);
  }
  if (value.is_array())
    return "an array";
  if (value.is_object())
    return "an object";
  return dumpJson(value);
}
} // namespace

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

namespace {
template <typename T, size_t N>
Json toJsonArray(const std::array<T, N> &values) {
  Json array = Json::array();
  for (const T &value : values)
    array.push_back(value);
  return array;
}

/// The manifest as a JSON tree, keys in the order of docs/artifact.md.
Json toJson(const KernelManifest &manifest) {
  Json root = Json::object();
  root["format"] = kManifestFormat;
  root["version"] = manifest.version;
  root["kernel"] = manifest.kernel;
  root["target"] = {{"chip", manifest.target.chip},
                    {"ptx_version", manifest.target.ptxVersion}};
  Json binaries = Json::array();
  for (const BinaryInfo &binary : manifest.binaries)
    binaries.push_back({{"format", stringifyBinaryFormat(binary.format)},
                        {"file", binary.file},
                        {"size", binary.size},
                        {"fnv1a64", formatHex64(binary.fnv1a64)}});
  root["binaries"] = std::move(binaries);
  const LaunchInfo &launch = manifest.launch;
  root["launch"] = {{"grid", toJsonArray(launch.grid)},
                    {"block", toJsonArray(launch.block)},
                    {"cluster", toJsonArray(launch.cluster)},
                    {"dynamic_shared_bytes", launch.dynamicSharedBytes}};
  const ProblemInfo &problem = manifest.problem;
  Json problemJson = {{"m", problem.m}, {"n", problem.n}, {"k", problem.k}};
  // Optional: written only for batched kernels.
  if (problem.batch != 1)
    problemJson["batch"] = problem.batch;
  problemJson["element_type"] = stringifyElementType(problem.elementType);
  problemJson["accumulator_type"] =
      stringifyElementType(problem.accumulatorType);
  problemJson["c_init"] = stringifyCInit(problem.cInit);
  problemJson["c_fill_value"] = problem.cFillValue;
  root["problem"] = std::move(problemJson);
  Json params = Json::array();
  for (const ParamInfo &param : manifest.params) {
    Json entry = {{"name", param.name},
                  {"role", stringifyParamRole(param.role)},
                  {"element_type", stringifyElementType(param.elementType)},
                  {"rows", param.rows},
                  {"cols", param.cols},
                  {"row_stride", layoutValue(param.rowStride)},
                  {"col_stride", layoutValue(param.colStride)}};
    // Optional: the params of batched kernels have one (and only they).
    if (param.batchStride != 0)
      entry["batch_stride"] = layoutValue(param.batchStride);
    // Optional: a strided operand's offset, when not 0.
    if (param.offset != 0)
      entry["offset"] = layoutValue(param.offset);
    // Optional: an fma kernel's repacked operand.
    if (param.repackRowStride != 0)
      entry["repack_row_stride"] = param.repackRowStride;
    entry["alignment"] = param.alignment;
    entry["access"] = stringifyParamAccess(param.access);
    params.push_back(std::move(entry));
  }
  root["params"] = std::move(params);
  Json tensorMaps = Json::array();
  for (const TensorMapInfo &map : manifest.tensorMaps) {
    Json entry = {
        {"param", map.param},
        {"box", toJsonArray(map.box)},
        {"swizzle", stringifyTensorMapSwizzle(map.swizzle)},
        {"l2_promotion", stringifyTensorMapL2Promotion(map.l2Promotion)}};
    if (map.repackRowStride != 0)
      entry["repack_row_stride"] = map.repackRowStride;
    // Optional: the maps of batched kernels are (and only they).
    if (map.batched)
      entry["batched"] = true;
    tensorMaps.push_back(std::move(entry));
  }
  root["tensor_maps"] = std::move(tensorMaps);
  // Optional: written only for kernels with a fused epilogue.
  if (!manifest.epilogue.empty()) {
    Json operands = Json::array();
    for (const EpilogueOperand &operand : manifest.epilogue.operands)
      operands.push_back(
          {{"param", operand.param},
           {"kind", stringifyEpilogueOperandKind(operand.kind)}});
    Json steps = Json::array();
    for (const std::string &step : manifest.epilogue.steps)
      steps.push_back(step);
    root["epilogue"] = {{"operands", std::move(operands)},
                        {"steps", std::move(steps)}};
  }
  const ConfigInfo &config = manifest.config;
  Json configJson = {{"strategy", stringifyKernelStrategy(config.strategy)},
                     {"block", toJsonArray(config.block)},
                     {"warp", toJsonArray(config.warp)},
                     {"thread", toJsonArray(config.thread)},
                     {"mma", toJsonArray(config.mma)},
                     {"stages", config.stages},
                     {"copy", stringifyCopyKind(config.copy)}};
  // Optional: written only for kernels built with repack = true.
  if (config.repack)
    configJson["repack"] = true;
  configJson["specialize"] = config.specialize;
  configJson["swizzle"] = config.swizzle;
  configJson["smem"] = config.smem;
  configJson["smem_pad"] = config.smemPad;
  configJson["prefetch"] = config.prefetch;
  configJson["occupancy"] = config.occupancy;
  configJson["split_k"] = config.splitK;
  // Optional: written only for kernels that split their last tiles alone.
  if (config.splitLast > 0)
    configJson["split_last"] = config.splitLast;
  configJson["cluster"] = toJsonArray(config.cluster);
  configJson["persistent"] = config.persistent;
  // Optional: written only for kernels that store C through the TMA.
  if (config.store == StoreKind::Tma)
    configJson["store"] = stringifyStoreKind(config.store);
  configJson["text"] = config.text;
  root["config"] = std::move(configJson);
  const ResourceInfo &resources = manifest.resources;
  root["resources"] = {{"registers", resources.registers},
                       {"spill_stores", resources.spillStores},
                       {"spill_loads", resources.spillLoads},
                       {"stack_bytes", resources.stackBytes}};
  return root;
}

/// `value` on one line, with ", " and ": " between items. Scalars are
/// nlohmann's (shortest round-trip doubles with a ".0" when integral, null
/// for NaN and infinities, escaped strings).
void appendInline(std::string &out, const Json &value) {
  if (value.is_object()) {
    out += '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!first)
        out += ", ";
      first = false;
      out += quoteJson(it.key());
      out += ": ";
      appendInline(out, it.value());
    }
    out += '}';
  } else if (value.is_array()) {
    out += '[';
    for (size_t i = 0; i < value.size(); ++i) {
      if (i != 0)
        out += ", ";
      appendInline(out, value[i]);
    }
    out += ']';
  } else {
    out += dumpJson(value);
  }
}
} // namespace

std::string tile::runtime::writeManifestJson(const KernelManifest &manifest) {
  // The top-level fields one per line; an array of objects (binaries,
  // params, tensor_maps) one element per line; everything else on its
  // field's line.
  Json root = toJson(manifest);
  std::string out = "{";
  bool first = true;
  for (auto it = root.begin(); it != root.end(); ++it) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += quoteJson(it.key());
    out += ": ";
    const Json &value = it.value();
    if (value.is_array() && !value.empty() && value[0].is_object()) {
      out += '[';
      for (size_t i = 0; i < value.size(); ++i) {
        out += i == 0 ? "\n    " : ",\n    ";
        appendInline(out, value[i]);
      }
      out += "\n  ]";
    } else {
      appendInline(out, value);
    }
  }
  out += "\n}\n";
  return out;
}

//===----------------------------------------------------------------------===//
// Reader: syntax
//===----------------------------------------------------------------------===//

namespace {
/// Deep enough for any manifest, shallow enough that hostile input cannot
/// make the tree absurdly deep.
constexpr unsigned kMaxDepth = 32;

/// One pass of nlohmann's SAX parser over the text before the tree is
/// built, for what the tree cannot tell: where a syntax error is, duplicate
/// keys (the tree keeps the last), nesting depth, NUL in strings. Tracks the
/// path of the current value for the messages.
class SyntaxChecker : public nlohmann::json_sax<Json> {
public:
  SyntaxChecker(std::string_view text, std::string &error)
      : text(text), error(error) {}

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t &) override {
    return value();
  }
  bool string(string_t &text) override {
    if (text.find('\0') != std::string::npos)
      return fail("field '" + path() +
                  "' contains \\u0000, which a manifest string may not");
    return value();
  }
  bool binary(binary_t &) override { return value(); }

  bool start_object(std::size_t) override { return open(true); }
  bool key(string_t &name) override {
    Frame &frame = frames.back();
    if (name.find('\0') != std::string::npos) {
      frame.key.clear();
      std::string where = path();
      return fail("a key" + (where.empty() ? "" : " in '" + where + "'") +
                  " contains \\u0000, which a manifest string may not");
    }
    for (const std::string &seen : frame.keys)
      if (seen == name) {
        frame.key = name;
        return fail("duplicate field '" + path() + "'");
      }
    frame.keys.push_back(name);
    frame.key = name;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &exception) override {
    // `position` counts the bytes read, the failing one included; reading
    // past the end counts one more.
    size_t offset = position == 0 ? 0 : std::min(position - 1, text.size());
    size_t line = 1, lineStart = 0;
    for (size_t i = 0; i < offset; ++i)
      if (text[i] == '\n') {
        ++line;
        lineStart = i + 1;
      }
    std::string message = describeParseError(exception.what());
    if (offset >= text.size() &&
        message.find("unexpected end of input") == std::string::npos)
      message = "unexpected end of input (" + message + ")";
    error = "manifest: line " + std::to_string(line) + ", column " +
            std::to_string(offset - lineStart + 1) + ": " + message;
    return false;
  }

private:
  struct Frame {
    bool object;
    /// The current key (objects) or element index (arrays).
    std::string key;
    size_t index = 0;
    std::vector<std::string> keys;
  };

  /// "[json.exception.parse_error.101] parse error at line 1, column 4:
  /// syntax error while parsing array - unexpected number literal; expected
  /// ']'" without the exception id, nlohmann's position (its column counts
  /// differently) and the "last read" token (which may span many bytes).
  static std::string describeParseError(std::string_view what) {
    size_t bracket = what.find("] ");
    if (what.substr(0, 1) == "[" && bracket != std::string_view::npos)
      what.remove_prefix(bracket + 2);
    if (what.substr(0, 11) == "parse error") {
      size_t colon = what.find(": ");
      if (colon != std::string_view::npos)
        what.remove_prefix(colon + 2);
    }
    std::string message(what);
    size_t lastRead = message.find("; last read: '");
    if (lastRead != std::string::npos) {
      size_t expected = message.rfind("'; expected ");
      message = message.substr(0, lastRead) +
                (expected != std::string::npos && expected > lastRead
                     ? message.substr(expected + 1)
                     : std::string());
    }
    return message;
  }

  std::string path() const {
    std::string result;
    for (const Frame &frame : frames) {
      if (frame.object) {
        if (frame.key.empty())
          continue;
        if (!result.empty())
          result += '.';
        result += frame.key;
      } else {
        result += "[" + std::to_string(frame.index) + "]";
      }
    }
    return result;
  }

  /// A complete value in the current frame: the next array element.
  bool value() {
    if (!frames.empty() && !frames.back().object)
      ++frames.back().index;
    return true;
  }

  bool open(bool object) {
    if (frames.size() >= kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth) +
                  " levels at '" + path() + "'");
    frames.push_back(Frame{object, "", 0, {}});
    return true;
  }

  bool close() {
    frames.pop_back();
    return value();
  }

  bool fail(const std::string &message) {
    error = "manifest: " + message;
    return false;
  }

  std::string_view text;
  std::string &error;
  std::vector<Frame> frames;
};

/// Why a manifest of `version` is refused.
std::string describeVersionMismatch(int64_t version) {
  std::string message =
      "unsupported format version " + std::to_string(version) +
      " (this runtime reads version " + std::to_string(kManifestVersion) + ")";
  if (version < kManifestVersion)
    message += ": the artifact was written by an older tile-opt; compile the "
               "kernel again";
  return message;
}

/// Parses `text` into `root`: the syntax check, then the tree.
bool parseJson(std::string_view text, Json &root, std::string &error) {
  SyntaxChecker checker(text, error);
  if (!Json::sax_parse(text.begin(), text.end(), &checker))
    return false;
  root = Json::parse(text.begin(), text.end(), nullptr,
                     /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    // The checker accepted what the parser refuses: not expected to happen.
    error = "manifest: not valid JSON";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Reader: the manifest's fields
//===----------------------------------------------------------------------===//

/// A number written without fraction or exponent that fits 64 bits.
bool toInt(const Json &value, int64_t &out) {
  if (value.is_number_unsigned()) {
    uint64_t number = value.get<uint64_t>();
    if (number > uint64_t(INT64_MAX))
      return false;
    out = static_cast<int64_t>(number);
    return true;
  }
  if (value.is_number_integer()) {
    out = value.get<int64_t>();
    return true;
  }
  return false;
}

/// Reads the fields of one JSON object, recording which were consumed so
/// that unknown ones can be reported.
class FieldReader {
public:
  FieldReader(const Json &object, std::string path, std::string &error)
      : path(std::move(path)), error(error) {
    for (auto it = object.begin(); it != object.end(); ++it)
      members.push_back({&it.key(), &it.value(), false});
  }

  std::string fieldPath(std::string_view key) const {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  bool fail(std::string_view key, const std::string &message) {
    error = "manifest: field '" + fieldPath(key) + "' " + message;
    return false;
  }

  bool failType(std::string_view key, const std::string &expected,
                const Json &value) {
    return fail(key,
                "must be " + expected + " (got " + describeValue(value) + ")");
  }

  const Json *get(std::string_view key) {
    for (Member &member : members) {
      if (*member.key == key) {
        member.used = true;
        return member.value;
      }
    }
    error = "manifest: missing field '" + fieldPath(key) + "'";
    return nullptr;
  }

  bool getString(std::string_view key, std::string &out) {
    const Json *value = get(key);
    if (!value)
      return false;
    if (!value->is_string())
      return failType(key, "a string", *value);
    out = value->get_ref<const std::string &>();
    return true;
  }

  bool getInt(std::string_view key, int64_t &out, int64_t min, int64_t max) {
    const Json *value = get(key);
    if (!value)
      return false;
    int64_t result;
    if (!toInt(*value, result))
      return failType(key, "an integer", *value);
    if (result < min || result > max)
      return fail(key, "must be an integer in [" + std::to_string(min) + ", " +
                           std::to_string(max) + "] (got " +
                           describeValue(*value) + ")");
    out = result;
    return true;
  }

  /// An integer in [min, max], or the string "dynamic" (kDynamic).
  bool getIntOrDynamic(std::string_view key, int64_t &out, int64_t min,
                       int64_t max) {
    const Json *value = get(key);
    if (!value)
      return false;
    if (value->is_string()) {
      if (value->get_ref<const std::string &>() != "dynamic")
        return fail(key, "must be an integer in [" + std::to_string(min) +
                             ", " + std::to_string(max) +
                             "] or \"dynamic\" (got " +
                             describeValue(*value) + ")");
      out = kDynamic;
      return true;
    }
    return getInt(key, out, min, max);
  }

  bool getOptionalIntOrDynamic(std::string_view key, int64_t &out,
                               int64_t min, int64_t max) {
    for (const Member &member : members)
      if (*member.key == key)
        return getIntOrDynamic(key, out, min, max);
    return true;
  }

  bool getUint32(std::string_view key, uint32_t &out, uint32_t min) {
    int64_t value;
    if (!getInt(key, value, min, UINT32_MAX))
      return false;
    out = static_cast<uint32_t>(value);
    return true;
  }

  bool getDouble(std::string_view key, double &out) {
    const Json *value = get(key);
    if (!value)
      return false;
    if (!value->is_number())
      return failType(key, "a number", *value);
    out = value->get<double>();
    return true;
  }

  bool getBool(std::string_view key, bool &out) {
    const Json *value = get(key);
    if (!value)
      return false;
    if (!value->is_boolean())
      return failType(key, "true or false", *value);
    out = value->get<bool>();
    return true;
  }

  /// An array of exactly N integers in [min, max].
  template <typename T, size_t N>
  bool getIntArray(std::string_view key, std::array<T, N> &out, int64_t min,
                   int64_t max, const char *expected) {
    const Json *value = get(key);
    if (!value)
      return false;
    if (!value->is_array() || value->size() != N)
      return failType(key, expected, *value);
    std::array<T, N> result;
    for (size_t i = 0; i < N; ++i) {
      int64_t element;
      const Json &item = (*value)[i];
      if (!toInt(item, element) || element < min || element > max)
        return fail(key, std::string("must be ") + expected + " (got " +
                             describeValue(item) + " at index " +
                             std::to_string(i) + ")");
      result[i] = static_cast<T>(element);
    }
    out = result;
    return true;
  }

  template <typename Enum>
  bool getEnum(std::string_view key, Enum &out,
               std::optional<Enum> (*symbolize)(std::string_view),
               const std::string &choices) {
    const Json *value = get(key);
    if (!value)
      return false;
    std::optional<Enum> result;
    if (value->is_string())
      result = symbolize(value->get_ref<const std::string &>());
    if (!result)
      return failType(key, choices, *value);
    out = *result;
    return true;
  }

  /// An integer in [min, max] that may be absent (then `out` is kept).
  bool has(std::string_view key) const {
    for (const Member &member : members)
      if (*member.key == key)
        return true;
    return false;
  }

  bool getOptionalBool(std::string_view key, bool &out) {
    for (const Member &member : members)
      if (*member.key == key)
        return getBool(key, out);
    return true;
  }

  bool getOptionalInt(std::string_view key, int64_t &out, int64_t min,
                      int64_t max) {
    for (const Member &member : members)
      if (*member.key == key)
        return getInt(key, out, min, max);
    return true;
  }

  const Json *getObject(std::string_view key) {
    const Json *value = get(key);
    if (value && !value->is_object()) {
      failType(key, "an object", *value);
      return nullptr;
    }
    return value;
  }

  const Json *getArray(std::string_view key) {
    const Json *value = get(key);
    if (value && !value->is_array()) {
      failType(key, "an array", *value);
      return nullptr;
    }
    return value;
  }

  /// Fails on the first field that no getter asked for.
  bool finish() {
    for (const Member &member : members)
      if (!member.used) {
        error = "manifest: unknown field '" + fieldPath(*member.key) + "'";
        return false;
      }
    return true;
  }

private:
  struct Member {
    const std::string *key;
    const Json *value;
    bool used;
  };
  std::vector<Member> members;
  std::string path;
  std::string &error;
};

std::string indexedPath(const char *name, size_t index) {
  return std::string(name) + "[" + std::to_string(index) + "]";
}

/// Fails unless element `index` of the array `name` is an object.
bool checkElementObject(const Json &value, const std::string &path,
                        std::string &error) {
  if (value.is_object())
    return true;
  error = "manifest: field '" + path + "' must be an object (got " +
          describeValue(value) + ")";
  return false;
}

bool readTarget(const Json &value, TargetInfo &target, std::string &error) {
  FieldReader reader(value, "target", error);
  return reader.getString("chip", target.chip) &&
         reader.getString("ptx_version", target.ptxVersion) && reader.finish();
}

bool readBinary(const Json &value, size_t index, BinaryInfo &binary,
                std::string &error) {
  std::string path = indexedPath("binaries", index);
  if (!checkElementObject(value, path, error))
    return false;
  FieldReader reader(value, path, error);
  int64_t size;
  std::string hash;
  if (!reader.getEnum("format", binary.format, symbolizeBinaryFormat,
                      listNames(kBinaryFormatNames)) ||
      !reader.getString("file", binary.file) ||
      !reader.getInt("size", size, 0, INT64_MAX) ||
      !reader.getString("fnv1a64", hash))
    return false;
  binary.size = static_cast<uint64_t>(size);
  if (!parseHex64(hash, binary.fnv1a64))
    return reader.fail("fnv1a64", "must be 16 lowercase hex digits (got " +
                                      quoteJson(hash) + ")");
  return reader.finish();
}

bool readLaunch(const Json &value, LaunchInfo &launch, std::string &error) {
  FieldReader reader(value, "launch", error);
  return reader.getIntArray("grid", launch.grid, 1, UINT32_MAX,
                            "3 positive integers") &&
         reader.getIntArray("block", launch.block, 1, UINT32_MAX,
                            "3 positive integers") &&
         reader.getIntArray("cluster", launch.cluster, 1, UINT32_MAX,
                            "3 positive integers") &&
         reader.getUint32("dynamic_shared_bytes", launch.dynamicSharedBytes,
                          0) &&
         reader.finish();
}

bool readProblem(const Json &value, ProblemInfo &problem, std::string &error) {
  FieldReader reader(value, "problem", error);
  return reader.getInt("m", problem.m, 1, INT64_MAX) &&
         reader.getInt("n", problem.n, 1, INT64_MAX) &&
         reader.getInt("k", problem.k, 1, INT64_MAX) &&
         reader.getOptionalInt("batch", problem.batch, 1, kMaxBatch) &&
         reader.getEnum("element_type", problem.elementType,
                        symbolizeElementType, listNames(kElementTypeNames)) &&
         reader.getEnum("accumulator_type", problem.accumulatorType,
                        symbolizeElementType, listNames(kElementTypeNames)) &&
         reader.getEnum("c_init", problem.cInit, symbolizeCInit,
                        listNames(kCInitNames)) &&
         reader.getDouble("c_fill_value", problem.cFillValue) &&
         reader.finish();
}

bool readParam(const Json &value, size_t index, ParamInfo &param,
               std::string &error) {
  std::string path = indexedPath("params", index);
  if (!checkElementObject(value, path, error))
    return false;
  FieldReader reader(value, path, error);
  return reader.getString("name", param.name) &&
         reader.getEnum("role", param.role, symbolizeParamRole,
                        listNames(kParamRoleNames)) &&
         reader.getEnum("element_type", param.elementType, symbolizeElementType,
                        listNames(kElementTypeNames)) &&
         reader.getInt("rows", param.rows, 1, INT64_MAX) &&
         reader.getInt("cols", param.cols, 1, INT64_MAX) &&
         reader.getIntOrDynamic("row_stride", param.rowStride, 0,
                                INT64_MAX) &&
         reader.getIntOrDynamic("col_stride", param.colStride, 0,
                                INT64_MAX) &&
         reader.getOptionalIntOrDynamic("batch_stride", param.batchStride, 1,
                                        INT64_MAX) &&
         reader.getOptionalIntOrDynamic("offset", param.offset, 1,
                                        INT64_MAX) &&
         reader.getOptionalInt("repack_row_stride", param.repackRowStride, 1,
                               INT64_MAX) &&
         reader.getUint32("alignment", param.alignment, 1) &&
         reader.getEnum("access", param.access, symbolizeParamAccess,
                        listNames(kParamAccessNames)) &&
         reader.finish();
}

bool readTensorMap(const Json &value, size_t index, TensorMapInfo &map,
                   std::string &error) {
  std::string path = indexedPath("tensor_maps", index);
  if (!checkElementObject(value, path, error))
    return false;
  FieldReader reader(value, path, error);
  return reader.getString("param", map.param) &&
         reader.getIntArray("box", map.box, 1, UINT32_MAX,
                            "2 positive integers (rows, cols)") &&
         reader.getEnum("swizzle", map.swizzle, symbolizeTensorMapSwizzle,
                        listNames(kTensorMapSwizzleNames)) &&
         reader.getEnum("l2_promotion", map.l2Promotion,
                        symbolizeTensorMapL2Promotion,
                        listNames(kTensorMapL2PromotionNames)) &&
         reader.getOptionalInt("repack_row_stride", map.repackRowStride, 1,
                               INT64_MAX) &&
         reader.getOptionalBool("batched", map.batched) && reader.finish();
}

bool readConfig(const Json &value, ConfigInfo &config, std::string &error) {
  FieldReader reader(value, "config", error);
  return reader.getEnum("strategy", config.strategy, symbolizeKernelStrategy,
                        listNames(kKernelStrategyNames)) &&
         reader.getIntArray("block", config.block, 1, INT64_MAX,
                            "3 positive integers") &&
         reader.getIntArray("warp", config.warp, 1, INT64_MAX,
                            "2 positive integers") &&
         reader.getIntArray("thread", config.thread, 1, INT64_MAX,
                            "2 positive integers") &&
         reader.getIntArray("mma", config.mma, 1, INT64_MAX,
                            "3 positive integers") &&
         reader.getInt("stages", config.stages, 1, INT64_MAX) &&
         reader.getEnum("copy", config.copy, symbolizeCopyKind,
                        listNames(kCopyKindNames)) &&
         reader.getOptionalBool("repack", config.repack) &&
         reader.getBool("specialize", config.specialize) &&
         reader.getInt("swizzle", config.swizzle, 0, INT64_MAX) &&
         reader.getString("smem", config.smem) &&
         reader.getInt("smem_pad", config.smemPad, 0, INT64_MAX) &&
         reader.getBool("prefetch", config.prefetch) &&
         reader.getInt("occupancy", config.occupancy, 0, 32) &&
         reader.getInt("split_k", config.splitK, 1, INT64_MAX) &&
         reader.getOptionalInt("split_last", config.splitLast, 1,
                               INT64_MAX) &&
         reader.getIntArray("cluster", config.cluster, 1, INT64_MAX,
                            "2 positive integers") &&
         reader.getBool("persistent", config.persistent) &&
         (!reader.has("store") ||
          reader.getEnum("store", config.store, symbolizeStoreKind,
                         listNames(kStoreKindNames))) &&
         reader.getString("text", config.text) && reader.finish();
}

bool readResources(const Json &value, ResourceInfo &resources,
                   std::string &error) {
  FieldReader reader(value, "resources", error);
  return reader.getInt("registers", resources.registers, -1, INT64_MAX) &&
         reader.getInt("spill_stores", resources.spillStores, -1, INT64_MAX) &&
         reader.getInt("spill_loads", resources.spillLoads, -1, INT64_MAX) &&
         reader.getInt("stack_bytes", resources.stackBytes, -1, INT64_MAX) &&
         reader.finish();
}

/// Reads the array field `key` into `out`, one element at a time with
/// `readElement(value, index, element, error)`.
template <typename T, typename ReadElement>
bool readArray(FieldReader &reader, const char *key, std::vector<T> &out,
               ReadElement readElement, std::string &error) {
  const Json *array = reader.getArray(key);
  if (!array)
    return false;
  out.assign(array->size(), T());
  for (size_t i = 0; i < array->size(); ++i)
    if (!readElement((*array)[i], i, out[i], error))
      return false;
  return true;
}

bool readEpilogueOperand(const Json &value, size_t index,
                         EpilogueOperand &operand, std::string &error) {
  std::string path = indexedPath("epilogue.operands", index);
  if (!checkElementObject(value, path, error))
    return false;
  FieldReader reader(value, path, error);
  return reader.getString("param", operand.param) &&
         reader.getEnum("kind", operand.kind, symbolizeEpilogueOperandKind,
                        listNames(kEpilogueOperandKindNames)) &&
         reader.finish();
}

bool readEpilogueStepText(const Json &value, size_t index, std::string &step,
                          std::string &error) {
  if (!value.is_string()) {
    error = "manifest: field '" + indexedPath("epilogue.steps", index) +
            "' must be a string (got " + describeValue(value) + ")";
    return false;
  }
  step = value.get_ref<const std::string &>();
  return true;
}

bool readEpilogue(const Json &value, EpilogueInfo &epilogue,
                  std::string &error) {
  FieldReader reader(value, "epilogue", error);
  if (!readArray(reader, "operands", epilogue.operands, readEpilogueOperand,
                 error) ||
      !readArray(reader, "steps", epilogue.steps, readEpilogueStepText,
                 error) ||
      !reader.finish())
    return false;
  std::vector<EpilogueStep> steps;
  std::string why;
  if (!parseEpilogueSteps(epilogue.steps, epilogue.operands.size(), steps,
                          why)) {
    error = "manifest: field 'epilogue.steps': " + why;
    return false;
  }
  return true;
}

bool readManifest(const Json &root, KernelManifest &manifest,
                  std::string &error) {
  if (!root.is_object()) {
    error = "manifest: the top level must be a JSON object (got " +
            describeValue(root) + ")";
    return false;
  }
  FieldReader reader(root, "", error);

  // Format and version first: a manifest of another version may have other
  // fields, and "unsupported version" is the useful message then.
  std::string format;
  if (!reader.getString("format", format))
    return false;
  if (format != kManifestFormat)
    return reader.fail("format", "must be " + quoteJson(kManifestFormat) +
                                     " (got " + quoteJson(format) +
                                     "): this is not a tile kernel manifest");
  const Json *version = reader.get("version");
  if (!version)
    return false;
  int64_t versionNumber;
  if (!toInt(*version, versionNumber))
    return reader.failType("version", "an integer", *version);
  if (versionNumber != kManifestVersion) {
    error = "manifest: " + describeVersionMismatch(versionNumber);
    return false;
  }
  manifest.version = kManifestVersion;

  if (!reader.getString("kernel", manifest.kernel))
    return false;
  const Json *target = reader.getObject("target");
  if (!target || !readTarget(*target, manifest.target, error))
    return false;

  if (!readArray(reader, "binaries", manifest.binaries, readBinary, error))
    return false;

  const Json *launch = reader.getObject("launch");
  if (!launch || !readLaunch(*launch, manifest.launch, error))
    return false;
  const Json *problem = reader.getObject("problem");
  if (!problem || !readProblem(*problem, manifest.problem, error))
    return false;

  if (!readArray(reader, "params", manifest.params, readParam, error) ||
      !readArray(reader, "tensor_maps", manifest.tensorMaps, readTensorMap,
                 error))
    return false;

  if (reader.has("epilogue")) {
    const Json *epilogue = reader.getObject("epilogue");
    if (!epilogue || !readEpilogue(*epilogue, manifest.epilogue, error))
      return false;
  }

  const Json *config = reader.getObject("config");
  if (!config || !readConfig(*config, manifest.config, error))
    return false;
  const Json *resources = reader.getObject("resources");
  if (!resources || !readResources(*resources, manifest.resources, error))
    return false;
  return reader.finish();
}
} // namespace

bool tile::runtime::parseManifestJson(std::string_view text,
                                      KernelManifest &out, std::string &error) {
  Json root;
  if (!parseJson(text, root, error))
    return false;
  KernelManifest manifest;
  if (!readManifest(root, manifest, error))
    return false;
  out = std::move(manifest);
  return true;
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

namespace {
bool invalid(std::string &error, const std::string &message) {
  error = "manifest: " + message;
  return false;
}

std::string formatExtent(int64_t rows, int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

template <typename T, size_t N>
std::string formatDims(const std::array<T, N> &dims) {
  std::string text;
  for (size_t i = 0; i < N; ++i)
    text += (i == 0 ? "" : "x") + std::to_string(dims[i]);
  return text;
}

std::string quoteType(ElementType type) {
  return quoteJson(stringifyElementType(type));
}

bool isKernelElementType(ElementType type) {
  return type == ElementType::F32 || type == ElementType::BF16 ||
         type == ElementType::F16;
}

bool validateElementTypes(const KernelManifest &manifest,
                          const ParamInfo &param, const std::string &what,
                          std::string &error) {
  ElementType input = manifest.problem.elementType;
  if (param.role == ParamRole::Epilogue) {
    if (!isKernelElementType(param.elementType))
      return invalid(error, what + " has element type " +
                                quoteType(param.elementType) +
                                " (\"f32\", \"bf16\" or \"f16\")");
    return true;
  }
  if (param.role != ParamRole::Result) {
    if (param.elementType != input)
      return invalid(
          error, what + " has element type " + quoteType(param.elementType) +
                     " but the problem's element_type is " + quoteType(input));
    return true;
  }
  if (param.elementType == ElementType::F32 || param.elementType == input)
    return true;
  if (input == ElementType::F32)
    return invalid(error, what + " has element type " +
                              quoteType(param.elementType) +
                              " but f32 inputs need an f32 result");
  return invalid(error, what + " has element type " +
                            quoteType(param.elementType) +
                            "; a result is \"f32\" or the problem's "
                            "element_type " +
                            quoteType(input));
}

bool validateCluster(const KernelManifest &manifest, const ChipVersion &chip,
                     std::string &error) {
  const LaunchInfo &launch = manifest.launch;
  uint64_t blocks = getClusterBlocks(launch);
  for (int i = 0; i < 3; ++i)
    if (launch.cluster[i] == 0)
      return invalid(error, "launch cluster dimensions must be positive");
  if (blocks > kMaxClusterBlocks)
    return invalid(
        error, "launch cluster " + formatDims(launch.cluster) + " has " +
                   std::to_string(blocks) + " blocks; the limit is " +
                   std::to_string(kMaxClusterBlocks) + " (" +
                   std::to_string(kMaxPortableClusterBlocks) + " portable)");
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] % launch.cluster[i] != 0)
      return invalid(error, "launch grid " + formatDims(launch.grid) +
                                " is not a whole number of clusters " +
                                formatDims(launch.cluster));
  if (blocks > 1 && chip.major < 9)
    return invalid(error, "thread block clusters (launch cluster " +
                              formatDims(launch.cluster) +
                              ") need sm_90 or newer (target.chip is " +
                              quoteJson(manifest.target.chip) + ")");
  const ConfigInfo &config = manifest.config;
  if (config.cluster[0] < 1 || config.cluster[1] < 1 ||
      uint64_t(config.cluster[0]) * uint64_t(config.cluster[1]) != blocks)
    return invalid(error, "config cluster " + formatDims(config.cluster) +
                              " and launch cluster " +
                              formatDims(launch.cluster) +
                              " do not have the same number of blocks");
  return true;
}

bool validateTensorMap(const KernelManifest &manifest, size_t index,
                       const ChipVersion &chip, std::string &error) {
  const TensorMapInfo &map = manifest.tensorMaps[index];
  std::string what = "tensor_maps[" + std::to_string(index) + "]";
  int paramIndex = findParamIndex(manifest, map.param);
  if (paramIndex < 0)
    return invalid(error, what + " names param " + quoteJson(map.param) +
                              ", which the manifest does not have");
  // The map reads the matrix as stored: a column-major param's transpose.
  const ParamInfo param = getStoredMatrix(manifest.params[paramIndex]);
  std::string paramWhat = "param " + quoteJson(param.name) + " (" +
                          std::string(stringifyParamRole(param.role)) + ")";
  if (param.role == ParamRole::Result) {
    // The kernel's TMA stores write C through it (a staged epilogue); a
    // kernel that stores C from registers takes no map of it.
    if (manifest.config.store != StoreKind::Tma)
      return invalid(error, what + " views " + paramWhat +
                                " but config.store is " +
                                quoteJson(stringifyStoreKind(
                                    manifest.config.store)) +
                                ": only a kernel that stores C through the "
                                "TMA (store \"tma\") takes a tensor map of "
                                "its result");
    // The TMA writes C in place: a repacked copy would never reach C.
    if (map.repackRowStride != 0)
      return invalid(error, what + " views " + paramWhat +
                                " with repack_row_stride " +
                                std::to_string(map.repackRowStride) +
                                "; the TMA store writes C in place, a map "
                                "of the result never repacks");
  }
  if (chip.major < 9)
    return invalid(error, what +
                              ": tensor maps need sm_90 or newer "
                              "(target.chip is " +
                              quoteJson(manifest.target.chip) + ")");
  // A batched kernel's maps are 3-d, the batch outermost: a box stays in
  // one matrix. A 2-d map over several matrices would let a box read rows
  // of the next one where the kernel expects zeros past the edge.
  // (The kernel of a linalg.batch_matmul with a batch of one has 3-d maps
  // too: their batch stride is never stepped.)
  int64_t batch = manifest.problem.batch;
  if (!map.batched && batch >= 2)
    return invalid(error, what + " views " + paramWhat +
                              " of a batched kernel (problem.batch " +
                              std::to_string(batch) +
                              ") but is not batched: a batched kernel's "
                              "tensor maps must be batched (a 2-d map over "
                              "several matrices would let a box read the "
                              "next matrix)");
  if (param.colStride != 1)
    return invalid(error, what + " views " + paramWhat + " with row_stride " +
                              std::to_string(param.rowStride) +
                              " and col_stride " +
                              std::to_string(param.colStride) +
                              "; a tensor map needs row_stride or col_stride "
                              "1 (a row- or column-major matrix)");
  for (int i = 0; i < 2; ++i)
    if (map.box[i] < 1 || map.box[i] > 256)
      return invalid(error, what + " box " + formatDims(map.box) +
                                " (rows x cols) must be 1 to 256 elements "
                                "in each dimension");
  unsigned elementBytes = getElementTypeSize(param.elementType);
  uint64_t boxBytes = uint64_t(map.box[1]) * elementBytes;
  std::string boxWhat = what + " box of " + std::to_string(map.box[1]) + " " +
                        std::string(stringifyElementType(param.elementType)) +
                        " columns is " + std::to_string(boxBytes) +
                        " bytes wide";
  if (boxBytes % 16 != 0)
    return invalid(error, boxWhat + "; the TMA needs a multiple of 16 bytes");
  unsigned span = getSwizzleBytes(map.swizzle);
  if (span != 0 && boxBytes > span)
    return invalid(error,
                   boxWhat + ", more than its " +
                       std::string(stringifyTensorMapSwizzle(map.swizzle)) +
                       " swizzle span");
  if (map.repackRowStride != 0) {
    // The TMA reads the runtime's repacked copy: its rows are the param's
    // columns padded to 128 bytes (a TMA box row per 128-byte line; 16
    // bytes, the least the TMA takes, in artifacts of earlier versions),
    // nothing more, so that the copy's size follows from the param's (and
    // cannot wrap).
    uint64_t rowBytes = uint64_t(param.cols) * elementBytes;
    uint64_t paddedBytes = (rowBytes + 127) / 128 * 128;
    if (uint64_t(map.repackRowStride) * elementBytes ==
        (rowBytes + 15) / 16 * 16)
      paddedBytes = (rowBytes + 15) / 16 * 16;
    if (!manifest.config.repack)
      return invalid(error, what + " has repack_row_stride " +
                                std::to_string(map.repackRowStride) +
                                " but the config does not repack (its "
                                "'repack' is false)");
    if (uint64_t(map.repackRowStride) * elementBytes != paddedBytes)
      return invalid(error, what + " repacks " + paramWhat + " (" +
                                std::to_string(param.cols) +
                                " columns) into rows of " +
                                std::to_string(map.repackRowStride) +
                                " elements; repack_row_stride must be the "
                                "columns padded to 128 bytes (" +
                                std::to_string(paddedBytes / elementBytes) +
                                ") or to 16 bytes");
    if (param.rowStride < param.cols)
      return invalid(error, what + " repacks " + paramWhat +
                                " whose row_stride " +
                                std::to_string(param.rowStride) +
                                " is below its " +
                                std::to_string(param.cols) +
                                " columns; the copy reads whole rows");
    // A batched map's copy holds every matrix, one after another.
    uint64_t copyRows = uint64_t(param.rows), matrixBytes = 0, copyBytes = 0;
    bool tooLarge =
        uint64_t(param.rows) > (uint64_t(1) << 32) ||
        paddedBytes > (uint64_t(1) << 40) ||
        __builtin_mul_overflow(uint64_t(param.rows), paddedBytes,
                               &matrixBytes) ||
        (map.batched &&
         __builtin_mul_overflow(copyRows, uint64_t(batch), &copyRows)) ||
        __builtin_mul_overflow(copyRows, paddedBytes, &copyBytes) ||
        copyBytes > (uint64_t(1) << 48);
    if (tooLarge)
      return invalid(error, what + " repacks " + paramWhat + " of " +
                                (map.batched ? std::to_string(batch) + " x "
                                             : std::string()) +
                                formatExtent(param.rows, param.cols) +
                                " into a copy of more than 2^48 bytes");
    // The copy's matrices are the map's batch stride apart.
    if (map.batched && matrixBytes >= (uint64_t(1) << 40))
      return invalid(error, what + " repacks " + paramWhat + " of " +
                                formatExtent(param.rows, param.cols) +
                                " into matrices of " +
                                std::to_string(matrixBytes) +
                                " bytes; the TMA needs a batch stride below "
                                "2^40 bytes");
  } else {
    // (A map of the result cannot repack: the TMA store writes C in place.)
    std::string orRepack = param.role == ParamRole::Result
                               ? std::string()
                               : std::string(" (or repack_row_stride)");
    uint64_t strideBytes = uint64_t(param.rowStride) * elementBytes;
    if (strideBytes % 16 != 0 || strideBytes >= (uint64_t(1) << 40))
      return invalid(error, what + " views " + paramWhat + " whose rows are " +
                                std::to_string(strideBytes) +
                                " bytes apart (row_stride " +
                                std::to_string(param.rowStride) +
                                "); the TMA needs a multiple of 16 bytes "
                                "below 2^40" +
                                orRepack);
    uint64_t batchBytes = uint64_t(param.batchStride) * elementBytes;
    if (map.batched && batch > 1 &&
        (batchBytes % 16 != 0 || batchBytes >= (uint64_t(1) << 40)))
      return invalid(error, what + " views " + paramWhat +
                                " whose matrices are " +
                                std::to_string(batchBytes) +
                                " bytes apart (batch_stride " +
                                std::to_string(param.batchStride) +
                                "); the TMA needs a multiple of 16 bytes "
                                "below 2^40" +
                                orRepack);
    if ((uint64_t(param.offset) * elementBytes) % 16 != 0)
      return invalid(error, what + " views " + paramWhat +
                                " whose first element is at offset " +
                                std::to_string(param.offset) + " (" +
                                std::to_string(uint64_t(param.offset) *
                                               elementBytes) +
                                " bytes); the TMA needs a multiple of 16 "
                                "bytes" +
                                orRepack);
  }
  // (kMaxBatch keeps a batch far below the limit.)
  if (uint64_t(param.rows) > (uint64_t(1) << 32) ||
      uint64_t(param.cols) > (uint64_t(1) << 32) ||
      (map.batched && uint64_t(batch) > (uint64_t(1) << 32)))
    return invalid(error, what + " views " + paramWhat + " of " +
                              (map.batched ? std::to_string(batch) + " x "
                                           : std::string()) +
                              formatExtent(param.rows, param.cols) +
                              "; the TMA allows at most 2^32 elements per "
                              "dimension");
  if (param.alignment < 16 && map.repackRowStride == 0)
    return invalid(error, what + " views " + paramWhat + " with alignment " +
                              std::to_string(param.alignment) +
                              (param.role == ParamRole::Result
                                   ? "; the TMA store needs a 16-byte aligned "
                                     "base pointer: with store \"tma\" the "
                                     "result's alignment must be at least 16"
                                   : "; the TMA needs 16-byte aligned base "
                                     "pointers"));
  return true;
}

/// config.store "tma" against the rest of the config and the tensor maps:
/// the TMA store of C is the staged epilogue of a warp-specialized wgmma
/// kernel whose tiles arrive by TMA, writes each element once (no split-K
/// atomics), and goes through one map of the result param (each map's own
/// rules are validateTensorMap's).
bool validateStore(const KernelManifest &manifest, std::string &error) {
  const ConfigInfo &config = manifest.config;
  if (config.store != StoreKind::Tma)
    return true;
  if (config.strategy != KernelStrategy::Wgmma)
    return invalid(error, "config.store \"tma\" needs strategy \"wgmma\" "
                          "(got " +
                              quoteJson(stringifyKernelStrategy(
                                  config.strategy)) +
                              "): only the wgmma kernels stage C for a TMA "
                              "store");
  if (config.copy != CopyKind::Tma)
    return invalid(error, "config.store \"tma\" needs copy \"tma\" (got " +
                              quoteJson(stringifyCopyKind(config.copy)) +
                              ")");
  if (!config.specialize)
    return invalid(error, "config.store \"tma\" needs specialize true (the "
                          "consumer warpgroups stage C while the producer's "
                          "TMA ring runs)");
  if (config.splitK != 1)
    return invalid(error, "config.store \"tma\" does not combine with "
                          "split_k " +
                              std::to_string(config.splitK) +
                              " (split-K adds into C atomically)");
  const ParamInfo *result = findParam(manifest, ParamRole::Result);
  size_t maps = 0;
  for (const TensorMapInfo &map : manifest.tensorMaps)
    maps += result && map.param == result->name;
  if (result && maps != 1)
    return invalid(error, "config.store \"tma\" needs exactly one tensor "
                          "map of the result param " +
                              quoteJson(result->name) + " (the manifest has " +
                              std::to_string(maps) + ")");
  return true;
}

/// The batch (problem.batch) against the rest of the manifest: its range
/// and the grid's y dimension.
bool validateBatch(const KernelManifest &manifest, std::string &error) {
  int64_t batch = manifest.problem.batch;
  if (batch < 1)
    return invalid(error, "field 'problem.batch' must be at least 1 (got " +
                              std::to_string(batch) + ")");
  if (batch > kMaxBatch)
    return invalid(error, "problem.batch " + std::to_string(batch) +
                              " is over " + std::to_string(kMaxBatch) +
                              ", the launch grid's y limit (a batched kernel "
                              "runs its batch on grid y)");
  if (batch == 1)
    return true;
  std::string batched =
      "a batched kernel (problem.batch " + std::to_string(batch) + ")";
  // A persistent kernel's blocks walk the tiles of every matrix along x.
  if (manifest.config.persistent) {
    if (manifest.launch.grid[1] != 1)
      return invalid(error, "launch grid " + formatDims(manifest.launch.grid) +
                                " of a persistent " + batched.substr(2) +
                                " has " +
                                std::to_string(manifest.launch.grid[1]) +
                                " blocks along y: its blocks walk the tiles "
                                "of every matrix along x (1 along y)");
    return true;
  }
  if (manifest.launch.grid[1] != batch)
    return invalid(error, "launch grid " + formatDims(manifest.launch.grid) +
                              " has " +
                              std::to_string(manifest.launch.grid[1]) +
                              " blocks along y but problem.batch is " +
                              std::to_string(batch) + ": " + batched +
                              " runs one matrix per grid y index");
  return true;
}

/// A param's batch_stride: on A, B and C of a batched kernel (C's matrices
/// apart), on no param of an unbatched one; an epilogue param of a batched
/// kernel has one (a vector or matrix per batch) or none (0: one shared by
/// every matrix).
bool validateBatchStride(const KernelManifest &manifest, const ParamInfo &param,
                         const std::string &what, std::string &error) {
  int64_t batch = manifest.problem.batch;
  if (batch == 1) {
    if (param.batchStride != 0)
      return invalid(error, what + " has batch_stride " +
                                std::to_string(param.batchStride) +
                                " but problem.batch is 1: only the params of "
                                "a batched kernel have one");
    return true;
  }
  if (param.batchStride == 0 && param.role == ParamRole::Epilogue)
    return true;
  if (param.batchStride == 0)
    return invalid(error, what +
                              " has no batch_stride, which the lhs, rhs "
                              "and result params of a batched kernel "
                              "(problem.batch " +
                              std::to_string(batch) + ") need");
  if (param.batchStride < 0)
    return invalid(error, what + " batch_stride must be positive (got " +
                              std::to_string(param.batchStride) + ")");
  // (What one matrix spans from its first element: the offset aside.)
  ParamInfo fromFirst = param;
  fromFirst.offset = 0;
  uint64_t matrix = 0;
  if (param.role == ParamRole::Result &&
      getRequiredElements(fromFirst, 1, matrix) &&
      uint64_t(param.batchStride) < matrix)
    return invalid(error, what + " batches overlap: batch_stride " +
                              std::to_string(param.batchStride) +
                              " is below the " + std::to_string(matrix) +
                              " elements one matrix spans (row_stride " +
                              std::to_string(param.rowStride) +
                              ", col_stride " +
                              std::to_string(param.colStride) + ")");
  // Every matrix's base keeps the alignment the kernel assumes for the
  // first one.
  uint64_t strideBytes = uint64_t(param.batchStride) *
                         getElementTypeSize(param.elementType);
  if (param.alignment > 1 && strideBytes % param.alignment != 0)
    return invalid(error, what + " batch_stride " +
                              std::to_string(param.batchStride) + " (" +
                              std::to_string(strideBytes) +
                              " bytes) is not a multiple of its alignment " +
                              std::to_string(param.alignment) +
                              ": matrix 1 would start misaligned");
  return true;
}

bool validateParam(const KernelManifest &manifest, const ParamInfo &param,
                   std::string &error) {
  std::string what = "param " + quoteJson(param.name) + " (" +
                     std::string(stringifyParamRole(param.role)) + ")";
  if (!validateElementTypes(manifest, param, what, error))
    return false;
  const ProblemInfo &problem = manifest.problem;
  int64_t rows = 0, cols = 0;
  const char *shape = "";
  switch (param.role) {
  case ParamRole::Lhs:
    rows = problem.m, cols = problem.k, shape = "m x k";
    break;
  case ParamRole::Rhs:
    rows = problem.k, cols = problem.n, shape = "k x n";
    break;
  case ParamRole::Result:
    rows = problem.m, cols = problem.n, shape = "m x n";
    break;
  case ParamRole::Epilogue: {
    // Its shape is the epilogue operand's that names it.
    const EpilogueOperand *operand = nullptr;
    for (const EpilogueOperand &candidate : manifest.epilogue.operands)
      if (candidate.param == param.name)
        operand = &candidate;
    if (!operand)
      return invalid(error, what + " is no operand of the epilogue");
    rows = operand->kind == EpilogueOperandKind::Col ? 1 : problem.m;
    cols = operand->kind == EpilogueOperandKind::Row ? 1 : problem.n;
    shape = operand->kind == EpilogueOperandKind::Row   ? "m x 1"
            : operand->kind == EpilogueOperandKind::Col ? "1 x n"
                                                        : "m x n";
    break;
  }
  }
  if (param.rows != rows || param.cols != cols)
    return invalid(error, what + " is " + formatExtent(param.rows, param.cols) +
                              " but the problem's " + shape + " is " +
                              formatExtent(rows, cols));
  if (param.rowStride <= 0 || param.colStride <= 0)
    return invalid(error, what + " strides must be positive (row_stride " +
                              std::to_string(param.rowStride) +
                              ", col_stride " +
                              std::to_string(param.colStride) + ")");
  if (!validateBatchStride(manifest, param, what, error))
    return false;
  uint64_t bytes;
  if (!getRequiredBytes(param, problem.batch, bytes) ||
      bytes > uint64_t(INT64_MAX))
    return invalid(error, what + " layout needs more bytes than fit in 64 "
                                 "bits");
  if (param.role == ParamRole::Result && param.rows > 1 && param.cols > 1) {
    // Two result elements at one address would race. These two cases are
    // the row-major and column-major families (with any padding).
    bool rowsApart = param.rowStride / param.cols >= param.colStride;
    bool colsApart = param.colStride / param.rows >= param.rowStride;
    if (!rowsApart && !colsApart)
      return invalid(error, what +
                                " layout maps two elements to one "
                                "address (row_stride " +
                                std::to_string(param.rowStride) +
                                ", col_stride " +
                                std::to_string(param.colStride) + ")");
  }
  if (param.repackRowStride != 0) {
    // An fma kernel reads the runtime's copy of B (one matrix, rows padded
    // to 16 bytes): the manifest says so in the config and on B alone.
    uint64_t elementBytes = getElementTypeSize(param.elementType);
    std::string stride = std::to_string(param.repackRowStride);
    if (!manifest.config.repack)
      return invalid(error, what + " has repack_row_stride " + stride +
                                " but the config does not repack (its "
                                "'repack' is false)");
    if (manifest.config.strategy != KernelStrategy::Fma ||
        param.role != ParamRole::Rhs || problem.batch != 1 ||
        param.colStride != 1 || hasDynamicLayout(param))
      return invalid(error, what + " has repack_row_stride " + stride +
                                ", which only the rhs param of an fma "
                                "kernel of one matrix, row-major with a "
                                "static layout, may have (a wgmma kernel "
                                "repacks in its tensor_maps)");
    if (param.repackRowStride < param.cols ||
        uint64_t(param.repackRowStride) * elementBytes % 16 != 0)
      return invalid(error, what + " has repack_row_stride " + stride +
                                ": the copy's rows must hold its " +
                                std::to_string(param.cols) +
                                " columns and start on 16 bytes");
  }
  if ((param.alignment & (param.alignment - 1)) != 0)
    return invalid(error, what + " alignment " +
                              std::to_string(param.alignment) +
                              " is not a power of two");
  // The caller's pointer has the alignment; the kernel's accesses assume
  // it of the first element too.
  uint64_t offsetBytes =
      uint64_t(param.offset) * getElementTypeSize(param.elementType);
  if (offsetBytes % param.alignment != 0)
    return invalid(error, what + " offset " + std::to_string(param.offset) +
                              " (" + std::to_string(offsetBytes) +
                              " bytes) is not a multiple of its alignment " +
                              std::to_string(param.alignment) +
                              ": its first element would be misaligned");
  if (param.role == ParamRole::Result) {
    if (problem.cInit == CInit::Accumulate &&
        param.access != ParamAccess::ReadWrite)
      return invalid(error,
                     what +
                         " must have access \"readwrite\" when c_init is "
                         "\"accumulate\" (got " +
                         quoteJson(stringifyParamAccess(param.access)) + ")");
    if (param.access == ParamAccess::Read)
      return invalid(error, what + " must be written (access \"write\" or "
                                   "\"readwrite\", got \"read\")");
  } else if (param.access != ParamAccess::Read) {
    return invalid(error, what + " must have access \"read\" (got " +
                              quoteJson(stringifyParamAccess(param.access)) +
                              ")");
  }
  return true;
}
} // namespace

namespace {
bool validateStaticManifest(const KernelManifest &manifest,
                            std::string &error);

/// The checks of dynamic offsets and strides that need no launch: offset,
/// batch_stride of a batched kernel and the stored rows' stride (the other
/// one 1), on any param (an epilogue operand may be strided too).
bool validateDynamicFields(const KernelManifest &manifest,
                           std::string &error) {
  for (const ParamInfo &param : manifest.params) {
    if (!hasDynamicLayout(param))
      continue;
    std::string what = "param " + quoteJson(param.name) + " (" +
                       std::string(stringifyParamRole(param.role)) + ")";
    bool rowDynamic = param.rowStride == kDynamic;
    bool colDynamic = param.colStride == kDynamic;
    if ((rowDynamic && param.colStride != 1) ||
        (colDynamic && param.rowStride != 1))
      return invalid(error, what + " has a dynamic " +
                                (rowDynamic ? "row_stride" : "col_stride") +
                                " but its " +
                                (rowDynamic ? "col_stride" : "row_stride") +
                                " is not 1: the kernels read rows (or "
                                "columns) of contiguous elements");
    if (param.batchStride == kDynamic && manifest.problem.batch == 1)
      return invalid(error, what + " has a dynamic batch_stride but "
                                   "problem.batch is 1: only the params of "
                                   "a batched kernel have one");
  }
  return true;
}

/// `param` with each dynamic field at the densest value it could be
/// launched with (multiples of its alignment; a tensor map's 16 bytes).
ParamInfo densestLayout(const ParamInfo &param, int64_t batch) {
  ParamInfo out = param;
  int64_t bytes = getElementTypeSize(param.elementType);
  int64_t step = std::max<int64_t>(1, int64_t(param.alignment) / bytes);
  step = std::max<int64_t>(step, 16 / bytes);
  // (A value past what rounds up within 64 bits stays as it is; the
  // checks that follow refuse its layout.)
  auto roundUp = [&](int64_t value) {
    return value > INT64_MAX - step ? value : (value + step - 1) / step * step;
  };
  if (out.offset == kDynamic)
    out.offset = 0;
  if (out.rowStride == kDynamic)
    out.rowStride = roundUp(out.cols);
  if (out.colStride == kDynamic)
    out.colStride = roundUp(out.rows);
  if (out.batchStride == kDynamic) {
    ParamInfo matrix = out;
    matrix.offset = 0;
    uint64_t elements = 0;
    getRequiredElements(matrix, 1, elements);
    out.batchStride = roundUp(int64_t(elements));
    (void)batch;
  }
  return out;
}
} // namespace

bool tile::runtime::hasDynamicLayout(const ParamInfo &param) {
  return param.offset == kDynamic || param.rowStride == kDynamic ||
         param.colStride == kDynamic || param.batchStride == kDynamic;
}

bool tile::runtime::hasDynamicLayout(const KernelManifest &manifest) {
  for (const ParamInfo &param : manifest.params)
    if (hasDynamicLayout(param))
      return true;
  return false;
}

ParamLayout tile::runtime::getParamLayout(const ParamInfo &param) {
  ParamLayout layout;
  layout.offset = param.offset;
  layout.rowStride = param.rowStride;
  layout.colStride = param.colStride;
  layout.batchStride = param.batchStride;
  return layout;
}

bool tile::runtime::validateManifest(const KernelManifest &manifest,
                                     std::string &error) {
  if (!hasDynamicLayout(manifest))
    return validateStaticManifest(manifest, error);
  if (!validateDynamicFields(manifest, error))
    return false;
  KernelManifest densest = manifest;
  for (ParamInfo &param : densest.params)
    param = densestLayout(param, manifest.problem.batch);
  return validateStaticManifest(densest, error);
}

bool tile::runtime::resolveLayouts(const KernelManifest &manifest,
                                   const ParamLayout *layouts,
                                   size_t numLayouts, KernelManifest &out,
                                   std::string &error) {
  if (numLayouts != manifest.params.size()) {
    error = "kernel " + manifest.kernel + " takes " +
            std::to_string(manifest.params.size()) + " layouts, got " +
            std::to_string(numLayouts);
    return false;
  }
  if (numLayouts != 0 && !layouts) {
    error = "the layout array is null";
    return false;
  }
  KernelManifest resolved = manifest;
  for (size_t i = 0; i < numLayouts; ++i) {
    ParamInfo &param = resolved.params[i];
    const ParamLayout &layout = layouts[i];
    std::string what =
        "argument " + std::to_string(i) + " (" + param.name + ")";
    uint64_t bytes = getElementTypeSize(param.elementType);
    struct Field {
      const char *name;
      int64_t *manifestValue;
      int64_t value;
      int64_t least;
    } fields[] = {{"offset", &param.offset, layout.offset, 0},
                  {"row_stride", &param.rowStride, layout.rowStride, 1},
                  {"col_stride", &param.colStride, layout.colStride, 1},
                  {"batch_stride", &param.batchStride, layout.batchStride,
                   manifest.problem.batch > 1 ? 1 : 0}};
    for (Field &field : fields) {
      if (*field.manifestValue != kDynamic) {
        if (field.value != *field.manifestValue) {
          error = what + ": " + field.name + " " +
                  std::to_string(field.value) + " differs from the kernel's " +
                  std::to_string(*field.manifestValue) +
                  " (static in its manifest)";
          return false;
        }
        continue;
      }
      if (field.value < field.least) {
        error = what + ": " + field.name + " " + std::to_string(field.value) +
                " is below " + std::to_string(field.least);
        return false;
      }
      uint64_t fieldBytes;
      if (__builtin_mul_overflow(uint64_t(field.value), bytes, &fieldBytes) ||
          (param.alignment > 1 && fieldBytes % param.alignment != 0)) {
        error = what + ": " + field.name + " " + std::to_string(field.value) +
                " (" + std::to_string(uint64_t(field.value) * bytes) +
                " bytes) is not a multiple of the " +
                std::to_string(param.alignment) +
                " bytes the kernel assumes of its dynamic offset and strides";
        return false;
      }
      *field.manifestValue = field.value;
    }
  }
  if (!validateStaticManifest(resolved, error)) {
    error = "with the launch's layouts, " + error;
    return false;
  }
  out = std::move(resolved);
  return true;
}

std::vector<int64_t>
tile::runtime::getDynamicValues(const KernelManifest &manifest,
                                const KernelManifest &resolved) {
  std::vector<int64_t> values;
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const ParamInfo &param = manifest.params[i];
    const ParamInfo &value = resolved.params[i];
    if (param.offset == kDynamic)
      values.push_back(value.offset);
    if (param.batchStride == kDynamic)
      values.push_back(value.batchStride);
    if (param.rowStride == kDynamic)
      values.push_back(value.rowStride);
    if (param.colStride == kDynamic)
      values.push_back(value.colStride);
  }
  return values;
}

namespace {
bool validateStaticManifest(const KernelManifest &manifest,
                            std::string &error) {
  if (manifest.version != kManifestVersion)
    return invalid(error, describeVersionMismatch(manifest.version));
  if (manifest.kernel.empty())
    return invalid(error, "field 'kernel' must not be empty");
  if (manifest.kernel.find_first_of(" \t\r\n") != std::string::npos)
    return invalid(error, "kernel name " + quoteJson(manifest.kernel) +
                              " contains white space");

  ChipVersion chip;
  if (!parseChip(manifest.target.chip, chip))
    return invalid(error, "unsupported chip " +
                              quoteJson(manifest.target.chip) +
                              " in 'target.chip' (expected an NVIDIA chip "
                              "name like \"sm_90\")");
  int ptxMajor, ptxMinor;
  if (!parsePtxVersion(manifest.target.ptxVersion, ptxMajor, ptxMinor))
    return invalid(error, "field 'target.ptx_version' must look like \"8.0\" "
                          "(got " +
                              quoteJson(manifest.target.ptxVersion) + ")");

  if (manifest.binaries.empty())
    return invalid(error, "no binaries listed");
  for (size_t i = 0; i < manifest.binaries.size(); ++i) {
    const BinaryInfo &binary = manifest.binaries[i];
    if (binary.file.empty())
      return invalid(error, "field 'binaries[" + std::to_string(i) +
                                "].file' must not be empty");
    if (binary.file[0] == '/')
      return invalid(error, "binary file " + quoteJson(binary.file) +
                                " must be relative to the manifest's folder");
    for (size_t j = 0; j < i; ++j)
      if (manifest.binaries[j].format == binary.format)
        return invalid(error,
                       "two binaries of format " +
                           quoteJson(stringifyBinaryFormat(binary.format)));
  }

  const LaunchInfo &launch = manifest.launch;
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] == 0 || launch.block[i] == 0)
      return invalid(error, "launch dimensions must be positive");
  if (launch.grid[0] > 0x7fffffffu || launch.grid[1] > 65535 ||
      launch.grid[2] > 65535)
    return invalid(error, "launch grid " + std::to_string(launch.grid[0]) +
                              "x" + std::to_string(launch.grid[1]) + "x" +
                              std::to_string(launch.grid[2]) +
                              " is over the limits (2^31-1, 65535, 65535)");
  uint64_t threads =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  if (threads > 1024 || launch.block[2] > 64)
    return invalid(error, "launch block " + std::to_string(launch.block[0]) +
                              "x" + std::to_string(launch.block[1]) + "x" +
                              std::to_string(launch.block[2]) + " has " +
                              std::to_string(threads) +
                              " threads; the limit is 1024 (and 64 in z)");

  if (!validateCluster(manifest, chip, error))
    return false;

  const ProblemInfo &problem = manifest.problem;
  if (!isKernelElementType(problem.elementType))
    return invalid(error, "element type " + quoteType(problem.elementType) +
                              " in 'problem.element_type' is not supported "
                              "(\"f32\", \"bf16\" or \"f16\")");
  if (problem.accumulatorType != ElementType::F32)
    return invalid(error, "field 'problem.accumulator_type' must be \"f32\" "
                          "(got " +
                              quoteType(problem.accumulatorType) + ")");
  if (!std::isfinite(problem.cFillValue))
    return invalid(error, "field 'problem.c_fill_value' must be finite");

  size_t epilogueParams = manifest.epilogue.operands.size();
  if (manifest.params.size() != 3 + epilogueParams)
    return invalid(error, "a matmul kernel takes 3 params (lhs, rhs, "
                          "result) and one per epilogue operand (" +
                              std::to_string(epilogueParams) +
                              "), the manifest lists " +
                              std::to_string(manifest.params.size()));
  for (size_t i = 0; i < manifest.params.size(); ++i)
    if ((i >= 3) != (manifest.params[i].role == ParamRole::Epilogue))
      return invalid(error, "params[" + std::to_string(i) + "] has role " +
                                quoteJson(stringifyParamRole(
                                    manifest.params[i].role)) +
                                "; the epilogue's params come after A, B "
                                "and C");
  for (size_t j = 0; j < epilogueParams; ++j)
    if (manifest.epilogue.operands[j].param != manifest.params[3 + j].name)
      return invalid(error, "epilogue operand " + std::to_string(j) +
                                " names param " +
                                quoteJson(manifest.epilogue.operands[j].param) +
                                ", not params[" + std::to_string(3 + j) +
                                "] (" + quoteJson(manifest.params[3 + j].name) +
                                ")");
  for (ParamRole role : {ParamRole::Lhs, ParamRole::Rhs, ParamRole::Result}) {
    int count = 0;
    for (const ParamInfo &param : manifest.params)
      count += param.role == role;
    if (count != 1)
      return invalid(error, std::to_string(count) + " params have role " +
                                quoteJson(stringifyParamRole(role)) +
                                ", expected exactly one");
  }
  if (!validateBatch(manifest, error))
    return false;
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const ParamInfo &param = manifest.params[i];
    if (param.name.empty())
      return invalid(error, "field 'params[" + std::to_string(i) +
                                "].name' must not be empty");
    for (size_t j = 0; j < i; ++j)
      if (manifest.params[j].name == param.name)
        return invalid(error, "two params are named " + quoteJson(param.name));
    if (!validateParam(manifest, param, error))
      return false;
  }

  if (manifest.tensorMaps.size() > kMaxTensorMaps)
    return invalid(error, std::to_string(manifest.tensorMaps.size()) +
                              " tensor maps; a kernel takes at most " +
                              std::to_string(kMaxTensorMaps));
  if (!validateStore(manifest, error))
    return false;
  for (size_t i = 0; i < manifest.tensorMaps.size(); ++i) {
    if (!validateTensorMap(manifest, i, chip, error))
      return false;
  }

  const ResourceInfo &resources = manifest.resources;
  if (resources.registers < -1 || resources.spillStores < -1 ||
      resources.spillLoads < -1 || resources.stackBytes < -1)
    return invalid(error, "resources must be counts, or -1 when unknown");
  return true;
}
} // namespace

//===----------------------------------------------------------------------===//
// Fused epilogues
//===----------------------------------------------------------------------===//

namespace {

bool isUnaryEpilogueOp(std::string_view op) {
  return op == "negf" || op == "tanh";
}
bool isBinaryEpilogueOp(std::string_view op) {
  return op == "addf" || op == "subf" || op == "mulf" || op == "divf" ||
         op == "maximumf" || op == "minimumf" || op == "maxnumf" ||
         op == "minnumf";
}
} // namespace

bool tile::runtime::operator==(const EpilogueOperand &lhs,
                               const EpilogueOperand &rhs) {
  return lhs.param == rhs.param && lhs.kind == rhs.kind;
}
bool tile::runtime::operator==(const EpilogueInfo &lhs,
                               const EpilogueInfo &rhs) {
  return lhs.operands == rhs.operands && lhs.steps == rhs.steps;
}

std::string_view
tile::runtime::stringifyEpilogueOperandKind(EpilogueOperandKind kind) {
  return lookupName(kEpilogueOperandKindNames, kind);
}
std::optional<EpilogueOperandKind>
tile::runtime::symbolizeEpilogueOperandKind(std::string_view text) {
  return lookupValue(kEpilogueOperandKindNames, text);
}

bool tile::runtime::parseEpilogueStep(std::string_view text, size_t index,
                                      size_t operands, EpilogueStep &step,
                                      std::string &error) {
  std::vector<std::string> words;
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == ' ')
      ++pos;
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos)
      end = text.size();
    if (end > pos)
      words.emplace_back(text.substr(pos, end - pos));
    pos = end;
  }
  auto fail = [&](const std::string &why) {
    error = "epilogue step " + std::to_string(index) + " \"" +
            std::string(text) + "\": " + why;
    return false;
  };
  if (words.empty())
    return fail("empty");
  step = EpilogueStep();
  step.op = words[0];
  size_t arity = isUnaryEpilogueOp(step.op)    ? 1
                 : isBinaryEpilogueOp(step.op) ? 2
                                               : 0;
  if (arity == 0)
    return fail("unknown op '" + step.op +
                "' (negf, tanh, addf, subf, mulf, divf, maximumf, minimumf, "
                "maxnumf, minnumf)");
  if (words.size() != arity + 1)
    return fail("'" + step.op + "' takes " + std::to_string(arity) +
                (arity == 1 ? " arg" : " args"));
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string &word = words[i];
    EpilogueArg arg;
    auto number = [&](size_t from, int64_t &value) {
      if (from >= word.size() || word.size() - from > 6)
        return false;
      value = 0;
      for (size_t c = from; c < word.size(); ++c) {
        if (word[c] < '0' || word[c] > '9')
          return false;
        value = value * 10 + (word[c] - '0');
      }
      return true;
    };
    if (word == "acc") {
      arg.kind = EpilogueArg::Acc;
    } else if (word[0] == 'p' && number(1, arg.index)) {
      arg.kind = EpilogueArg::Operand;
      if (static_cast<size_t>(arg.index) >= operands)
        return fail("operand " + word + " of " + std::to_string(operands));
    } else if (word[0] == 's' && number(1, arg.index)) {
      arg.kind = EpilogueArg::Step;
      if (static_cast<size_t>(arg.index) >= index)
        return fail("step " + word + " is not an earlier step");
    } else {
      char *end = nullptr;
      double value = std::strtod(word.c_str(), &end);
      if (end != word.c_str() + word.size() || !std::isfinite(value))
        return fail("arg '" + word +
                    "' is not acc, p<j>, s<i> or a finite number");
      arg.kind = EpilogueArg::Constant;
      arg.constant = static_cast<double>(static_cast<float>(value));
    }
    step.args.push_back(arg);
  }
  return true;
}

bool tile::runtime::parseEpilogueSteps(const std::vector<std::string> &texts,
                                       size_t operands,
                                       std::vector<EpilogueStep> &steps,
                                       std::string &error) {
  steps.assign(texts.size(), EpilogueStep());
  for (size_t i = 0; i < texts.size(); ++i)
    if (!parseEpilogueStep(texts[i], i, operands, steps[i], error))
      return false;
  return true;
}

double tile::runtime::evalEpilogue(const std::vector<EpilogueStep> &steps,
                                   double acc, double accMagnitude,
                                   const double *operands,
                                   double &magnitude) {
  std::vector<double> values(steps.size()), magnitudes(steps.size());
  double value = acc;
  magnitude = accMagnitude;
  for (size_t i = 0; i < steps.size(); ++i) {
    const EpilogueStep &step = steps[i];
    double in[2] = {0, 0}, inMagnitude[2] = {0, 0};
    for (size_t a = 0; a < step.args.size() && a < 2; ++a) {
      const EpilogueArg &arg = step.args[a];
      switch (arg.kind) {
      case EpilogueArg::Acc:
        in[a] = acc;
        inMagnitude[a] = accMagnitude;
        break;
      case EpilogueArg::Operand:
        in[a] = operands[arg.index];
        break;
      case EpilogueArg::Step:
        in[a] = values[arg.index];
        inMagnitude[a] = magnitudes[arg.index];
        break;
      case EpilogueArg::Constant:
        in[a] = arg.constant;
        break;
      }
    }
    const std::string &op = step.op;
    double out = 0, outMagnitude = 0;
    if (op == "negf") {
      out = -in[0];
      outMagnitude = inMagnitude[0];
    } else if (op == "tanh") {
      out = std::tanh(in[0]);
      outMagnitude = inMagnitude[0];
    } else if (op == "addf" || op == "subf") {
      out = op == "addf" ? in[0] + in[1] : in[0] - in[1];
      outMagnitude = inMagnitude[0] + inMagnitude[1];
    } else if (op == "mulf") {
      out = in[0] * in[1];
      outMagnitude = std::fabs(in[0]) * inMagnitude[1] +
                     std::fabs(in[1]) * inMagnitude[0];
    } else if (op == "divf") {
      out = in[0] / in[1];
      double b = std::max(std::fabs(in[1]) - inMagnitude[1] * 1e-3, 1e-30);
      outMagnitude = inMagnitude[0] / b + std::fabs(out) * inMagnitude[1] / b;
    } else {
      bool max = op == "maximumf" || op == "maxnumf";
      out = max ? std::max(in[0], in[1]) : std::min(in[0], in[1]);
      outMagnitude = std::max(inMagnitude[0], inMagnitude[1]);
    }
    // The step's own f32 rounding.
    outMagnitude += std::fabs(out);
    values[i] = value = out;
    magnitudes[i] = magnitude = outMagnitude;
  }
  return value;
}
