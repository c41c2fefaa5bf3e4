//===- Manifest.cpp - The kernel artifact manifest ------------------------===//
//
// A small JSON reader and writer for the manifest. Hand-written because the
// library must stay dependency-free and exception-free; the manifest is a few
// hundred bytes, so simplicity wins over speed everywhere here.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Manifest.h"

#include <charconv>
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
    {ParamRole::Result, "result"}};
constexpr EnumName<ParamAccess> kParamAccessNames[] = {
    {ParamAccess::Read, "read"},
    {ParamAccess::Write, "write"},
    {ParamAccess::ReadWrite, "readwrite"}};

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
         lhs.dynamicSharedBytes == rhs.dynamicSharedBytes;
}
bool tile::runtime::operator==(const ProblemInfo &lhs, const ProblemInfo &rhs) {
  return lhs.m == rhs.m && lhs.n == rhs.n && lhs.k == rhs.k &&
         lhs.elementType == rhs.elementType && lhs.cInit == rhs.cInit &&
         lhs.cFillValue == rhs.cFillValue;
}
bool tile::runtime::operator==(const ParamInfo &lhs, const ParamInfo &rhs) {
  return lhs.name == rhs.name && lhs.role == rhs.role &&
         lhs.elementType == rhs.elementType && lhs.rows == rhs.rows &&
         lhs.cols == rhs.cols && lhs.rowStride == rhs.rowStride &&
         lhs.colStride == rhs.colStride && lhs.alignment == rhs.alignment &&
         lhs.access == rhs.access;
}
bool tile::runtime::operator==(const ConfigInfo &lhs, const ConfigInfo &rhs) {
  return lhs.block == rhs.block && lhs.warp == rhs.warp &&
         lhs.thread == rhs.thread && lhs.stages == rhs.stages &&
         lhs.swizzle == rhs.swizzle && lhs.smem == rhs.smem &&
         lhs.smemPad == rhs.smemPad && lhs.prefetch == rhs.prefetch &&
         lhs.occupancy == rhs.occupancy && lhs.splitK == rhs.splitK &&
         lhs.text == rhs.text;
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
         lhs.params == rhs.params && lhs.config == rhs.config &&
         lhs.resources == rhs.resources;
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

bool tile::runtime::getRequiredElements(const ParamInfo &param,
                                        uint64_t &elements) {
  if (param.rows <= 0 || param.cols <= 0 || param.rowStride < 0 ||
      param.colStride < 0)
    return false;
  uint64_t rowPart, colPart, total;
  if (__builtin_mul_overflow(static_cast<uint64_t>(param.rows - 1),
                             static_cast<uint64_t>(param.rowStride),
                             &rowPart) ||
      __builtin_mul_overflow(static_cast<uint64_t>(param.cols - 1),
                             static_cast<uint64_t>(param.colStride),
                             &colPart) ||
      __builtin_add_overflow(rowPart, colPart, &total) ||
      __builtin_add_overflow(total, uint64_t(1), &total))
    return false;
  elements = total;
  return true;
}

bool tile::runtime::getRequiredBytes(const ParamInfo &param, uint64_t &bytes) {
  uint64_t elements;
  if (!getRequiredElements(param, elements))
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

const BinaryInfo *tile::runtime::findBinary(const KernelManifest &manifest,
                                            BinaryFormat format) {
  for (const BinaryInfo &binary : manifest.binaries)
    if (binary.format == format)
      return &binary;
  return nullptr;
}

std::string tile::runtime::formatConfigShort(const ConfigInfo &config) {
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
  if (config.occupancy > 0)
    text += "/o" + std::to_string(config.occupancy);
  if (config.splitK > 1)
    text += "/sk" + std::to_string(config.splitK);
  return text;
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

namespace {
void appendQuoted(std::string &out, std::string_view text) {
  static const char kDigits[] = "0123456789abcdef";
  out += '"';
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (byte < 0x20) {
        out += "\\u00";
        out += kDigits[byte >> 4];
        out += kDigits[byte & 0xf];
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

std::string quoted(std::string_view text) {
  std::string out;
  appendQuoted(out, text);
  return out;
}

/// Shortest text that reads back as the same double; always has a '.' or an
/// exponent so that readers see a real number.
void appendDouble(std::string &out, double value) {
  if (!std::isfinite(value)) {
    // JSON has no NaN or infinity; the reader rejects null for a number.
    out += "null";
    return;
  }
  char buffer[64];
  std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string_view text(buffer, result.ptr - buffer);
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos)
    out += ".0";
}

/// Writes `"key": value` pairs separated by ", ".
class InlineObject {
public:
  explicit InlineObject(std::string &out) : out(out) { out += '{'; }
  void key(std::string_view name) {
    if (!first)
      out += ", ";
    first = false;
    appendQuoted(out, name);
    out += ": ";
  }
  void field(std::string_view name, std::string_view value) {
    key(name);
    appendQuoted(out, value);
  }
  void field(std::string_view name, int64_t value) {
    key(name);
    out += std::to_string(value);
  }
  void fieldUnsigned(std::string_view name, uint64_t value) {
    key(name);
    out += std::to_string(value);
  }
  void fieldBool(std::string_view name, bool value) {
    key(name);
    out += value ? "true" : "false";
  }
  void fieldDouble(std::string_view name, double value) {
    key(name);
    appendDouble(out, value);
  }
  template <typename T, size_t N>
  void fieldArray(std::string_view name, const std::array<T, N> &values) {
    key(name);
    out += '[';
    for (size_t i = 0; i < N; ++i) {
      if (i != 0)
        out += ", ";
      out += std::to_string(values[i]);
    }
    out += ']';
  }
  void close() { out += '}'; }

private:
  std::string &out;
  bool first = true;
};
} // namespace

std::string tile::runtime::writeManifestJson(const KernelManifest &manifest) {
  std::string out = "{\n";
  out += "  \"format\": ";
  appendQuoted(out, kManifestFormat);
  out += ",\n  \"version\": " + std::to_string(manifest.version) + ",\n";
  out += "  \"kernel\": ";
  appendQuoted(out, manifest.kernel);
  out += ",\n  \"target\": ";
  {
    InlineObject object(out);
    object.field("chip", manifest.target.chip);
    object.field("ptx_version", manifest.target.ptxVersion);
    object.close();
  }
  out += ",\n  \"binaries\": [";
  for (size_t i = 0; i < manifest.binaries.size(); ++i) {
    const BinaryInfo &binary = manifest.binaries[i];
    out += i == 0 ? "\n    " : ",\n    ";
    InlineObject object(out);
    object.field("format", stringifyBinaryFormat(binary.format));
    object.field("file", binary.file);
    object.fieldUnsigned("size", binary.size);
    object.field("fnv1a64", formatHex64(binary.fnv1a64));
    object.close();
  }
  out += manifest.binaries.empty() ? "]" : "\n  ]";
  out += ",\n  \"launch\": ";
  {
    InlineObject object(out);
    object.fieldArray("grid", manifest.launch.grid);
    object.fieldArray("block", manifest.launch.block);
    object.fieldUnsigned("dynamic_shared_bytes",
                         manifest.launch.dynamicSharedBytes);
    object.close();
  }
  out += ",\n  \"problem\": ";
  {
    const ProblemInfo &problem = manifest.problem;
    InlineObject object(out);
    object.field("m", problem.m);
    object.field("n", problem.n);
    object.field("k", problem.k);
    object.field("element_type", stringifyElementType(problem.elementType));
    object.field("c_init", stringifyCInit(problem.cInit));
    object.fieldDouble("c_fill_value", problem.cFillValue);
    object.close();
  }
  out += ",\n  \"params\": [";
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const ParamInfo &param = manifest.params[i];
    out += i == 0 ? "\n    " : ",\n    ";
    InlineObject object(out);
    object.field("name", param.name);
    object.field("role", stringifyParamRole(param.role));
    object.field("element_type", stringifyElementType(param.elementType));
    object.field("rows", param.rows);
    object.field("cols", param.cols);
    object.field("row_stride", param.rowStride);
    object.field("col_stride", param.colStride);
    object.fieldUnsigned("alignment", param.alignment);
    object.field("access", stringifyParamAccess(param.access));
    object.close();
  }
  out += manifest.params.empty() ? "]" : "\n  ]";
  out += ",\n  \"config\": ";
  {
    const ConfigInfo &config = manifest.config;
    InlineObject object(out);
    object.fieldArray("block", config.block);
    object.fieldArray("warp", config.warp);
    object.fieldArray("thread", config.thread);
    object.field("stages", config.stages);
    object.field("swizzle", config.swizzle);
    object.field("smem", config.smem);
    object.field("smem_pad", config.smemPad);
    object.fieldBool("prefetch", config.prefetch);
    object.field("occupancy", config.occupancy);
    object.field("split_k", config.splitK);
    object.field("text", config.text);
    object.close();
  }
  out += ",\n  \"resources\": ";
  {
    const ResourceInfo &resources = manifest.resources;
    InlineObject object(out);
    object.field("registers", resources.registers);
    object.field("spill_stores", resources.spillStores);
    object.field("spill_loads", resources.spillLoads);
    object.field("stack_bytes", resources.stackBytes);
    object.close();
  }
  out += "\n}\n";
  return out;
}

//===----------------------------------------------------------------------===//
// JSON reader
//===----------------------------------------------------------------------===//

namespace {
struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolValue = false;
  /// A string's contents, or a number's source text.
  std::string text;
  std::vector<JsonValue> elements;
  std::vector<std::pair<std::string, JsonValue>> members;
};

/// Deep enough for any manifest, shallow enough that hostile input cannot
/// exhaust the stack.
constexpr unsigned kMaxDepth = 32;

std::string describeByte(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f)
    return std::string("'") + c + "'";
  static const char kDigits[] = "0123456789abcdef";
  return std::string("byte 0x") + kDigits[byte >> 4] + kDigits[byte & 0xf];
}

class JsonParser {
public:
  JsonParser(std::string_view text, std::string &error)
      : text(text), error(error) {}

  bool parseDocument(JsonValue &root) {
    skipSpace();
    if (!parseValue(root, 0))
      return false;
    skipSpace();
    if (!atEnd())
      return fail("unexpected " + describeByte(text[pos]) +
                  " after the end of the JSON value");
    return true;
  }

private:
  bool atEnd() const { return pos >= text.size(); }

  bool failAt(size_t atLine, size_t atColumn, const std::string &message) {
    error = "manifest: line " + std::to_string(atLine) + ", column " +
            std::to_string(atColumn) + ": " + message;
    return false;
  }
  bool fail(const std::string &message) {
    return failAt(line, pos - lineStart + 1, message);
  }
  bool failEnd() { return fail("unexpected end of input"); }

  void skipSpace() {
    while (!atEnd()) {
      char c = text[pos];
      if (c == '\n') {
        ++pos;
        ++line;
        lineStart = pos;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos;
      } else {
        break;
      }
    }
  }

  bool parseValue(JsonValue &value, unsigned depth) {
    if (atEnd())
      return failEnd();
    char c = text[pos];
    switch (c) {
    case '{':
      return parseObject(value, depth);
    case '[':
      return parseArray(value, depth);
    case '"':
      value.kind = JsonValue::Kind::String;
      return parseString(value.text);
    case 't':
      value.kind = JsonValue::Kind::Bool;
      value.boolValue = true;
      return parseLiteral("true");
    case 'f':
      value.kind = JsonValue::Kind::Bool;
      value.boolValue = false;
      return parseLiteral("false");
    case 'n':
      value.kind = JsonValue::Kind::Null;
      return parseLiteral("null");
    default:
      if (c == '-' || isDigit(c))
        return parseNumber(value);
      return fail("unexpected " + describeByte(c) + ", expected a value");
    }
  }

  bool parseLiteral(std::string_view literal) {
    for (size_t i = 0; i < literal.size(); ++i) {
      if (atEnd())
        return failEnd();
      if (text[pos] != literal[i])
        return fail("invalid literal, expected '" + std::string(literal) + "'");
      ++pos;
    }
    return true;
  }

  bool parseDigits() {
    if (atEnd())
      return failEnd();
    if (!isDigit(text[pos]))
      return fail("invalid number, expected a digit");
    while (!atEnd() && isDigit(text[pos]))
      ++pos;
    return true;
  }

  bool parseNumber(JsonValue &value) {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    if (atEnd())
      return failEnd();
    if (text[pos] == '0') {
      ++pos;
      if (!atEnd() && isDigit(text[pos]))
        return fail("invalid number, leading zeros are not allowed");
    } else if (!parseDigits()) {
      return false;
    }
    if (!atEnd() && text[pos] == '.') {
      ++pos;
      if (!parseDigits())
        return false;
    }
    if (!atEnd() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      if (!atEnd() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (!parseDigits())
        return false;
    }
    value.kind = JsonValue::Kind::Number;
    value.text = std::string(text.substr(start, pos - start));
    return true;
  }

  static int hexValue(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }

  /// Reads the 4 hex digits after "\u".
  bool parseHex4(unsigned &code) {
    code = 0;
    for (int i = 0; i < 4; ++i) {
      if (atEnd())
        return failEnd();
      int digit = hexValue(text[pos]);
      if (digit < 0)
        return fail("invalid \\u escape, expected 4 hex digits");
      code = code << 4 | digit;
      ++pos;
    }
    return true;
  }

  static void appendUtf8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | code >> 6);
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xe0 | code >> 12);
      out += static_cast<char>(0x80 | (code >> 6 & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | code >> 18);
      out += static_cast<char>(0x80 | (code >> 12 & 0x3f));
      out += static_cast<char>(0x80 | (code >> 6 & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  bool parseString(std::string &out) {
    ++pos; // The opening quote.
    out.clear();
    while (true) {
      if (atEnd())
        return failEnd();
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail(c == '\n' ? "unterminated string"
                              : "control character " + describeByte(c) +
                                    " in string");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      ++pos;
      if (atEnd())
        return failEnd();
      char escape = text[pos++];
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        out += escape;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned code;
        if (!parseHex4(code))
          return false;
        if (code >= 0xdc00 && code < 0xe000)
          return fail("invalid \\u escape, unpaired low surrogate");
        if (code >= 0xd800 && code < 0xdc00) {
          for (char expected : {'\\', 'u'}) {
            if (atEnd())
              return failEnd();
            if (text[pos] != expected)
              return fail("invalid \\u escape, unpaired high surrogate");
            ++pos;
          }
          unsigned low;
          if (!parseHex4(low))
            return false;
          if (low < 0xdc00 || low >= 0xe000)
            return fail("invalid \\u escape, unpaired high surrogate");
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        }
        if (code == 0)
          return fail("\\u0000 is not allowed in a manifest string");
        appendUtf8(out, code);
        break;
      }
      default:
        --pos;
        return fail("invalid escape '\\" + std::string(1, escape) +
                    "' in string");
      }
    }
  }

  bool parseArray(JsonValue &value, unsigned depth) {
    if (depth >= kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth) +
                  " levels");
    ++pos;
    value.kind = JsonValue::Kind::Array;
    skipSpace();
    if (atEnd())
      return failEnd();
    if (text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      JsonValue element;
      if (!parseValue(element, depth + 1))
        return false;
      value.elements.push_back(std::move(element));
      skipSpace();
      if (atEnd())
        return failEnd();
      if (text[pos] == ',') {
        ++pos;
        continue;
      }
      if (text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in array");
    }
  }

  bool parseObject(JsonValue &value, unsigned depth) {
    if (depth >= kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth) +
                  " levels");
    ++pos;
    value.kind = JsonValue::Kind::Object;
    skipSpace();
    if (atEnd())
      return failEnd();
    if (text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (atEnd())
        return failEnd();
      if (text[pos] != '"')
        return fail("expected a string key in object");
      size_t keyLine = line, keyColumn = pos - lineStart + 1;
      std::string key;
      if (!parseString(key))
        return false;
      for (const auto &member : value.members)
        if (member.first == key)
          return failAt(keyLine, keyColumn, "duplicate key " + quoted(key));
      skipSpace();
      if (atEnd())
        return failEnd();
      if (text[pos] != ':')
        return fail("expected ':' after object key");
      ++pos;
      skipSpace();
      JsonValue member;
      if (!parseValue(member, depth + 1))
        return false;
      value.members.emplace_back(std::move(key), std::move(member));
      skipSpace();
      if (atEnd())
        return failEnd();
      if (text[pos] == ',') {
        ++pos;
        continue;
      }
      if (text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in object");
    }
  }

  std::string_view text;
  std::string &error;
  size_t pos = 0;
  size_t line = 1;
  size_t lineStart = 0;
};

//===----------------------------------------------------------------------===//
// Manifest schema
//===----------------------------------------------------------------------===//

/// How a value looks, for "(got ...)" in messages.
std::string describeValue(const JsonValue &value) {
  switch (value.kind) {
  case JsonValue::Kind::Null:
    return "null";
  case JsonValue::Kind::Bool:
    return value.boolValue ? "true" : "false";
  case JsonValue::Kind::Number:
    return value.text;
  case JsonValue::Kind::String:
    if (value.text.size() > 40)
      return quoted(value.text.substr(0, 37) + "...");
    return quoted(value.text);
  case JsonValue::Kind::Array:
    return "an array";
  case JsonValue::Kind::Object:
    return "an object";
  }
  return "a value";
}

bool isInteger(const JsonValue &value) {
  return value.kind == JsonValue::Kind::Number &&
         value.text.find_first_of(".eE") == std::string::npos;
}

/// Reads the fields of one JSON object, recording which were consumed so
/// that unknown ones can be reported.
class FieldReader {
public:
  FieldReader(const JsonValue &object, std::string path, std::string &error)
      : object(object), path(std::move(path)), error(error),
        used(object.members.size(), false) {}

  std::string fieldPath(std::string_view key) const {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  bool fail(std::string_view key, const std::string &message) {
    error = "manifest: field '" + fieldPath(key) + "' " + message;
    return false;
  }

  bool failType(std::string_view key, const char *expected,
                const JsonValue &value) {
    return fail(key, std::string("must be ") + expected + " (got " +
                         describeValue(value) + ")");
  }

  const JsonValue *get(std::string_view key) {
    for (size_t i = 0; i < object.members.size(); ++i) {
      if (object.members[i].first == key) {
        used[i] = true;
        return &object.members[i].second;
      }
    }
    error = "manifest: missing field '" + fieldPath(key) + "'";
    return nullptr;
  }

  bool getString(std::string_view key, std::string &out) {
    const JsonValue *value = get(key);
    if (!value)
      return false;
    if (value->kind != JsonValue::Kind::String)
      return failType(key, "a string", *value);
    out = value->text;
    return true;
  }

  bool getInt(std::string_view key, int64_t &out, int64_t min, int64_t max) {
    const JsonValue *value = get(key);
    if (!value)
      return false;
    int64_t result;
    if (!toInt(*value, result))
      return failType(key, "an integer", *value);
    if (result < min || result > max)
      return fail(key, "must be an integer in [" + std::to_string(min) + ", " +
                           std::to_string(max) + "] (got " + value->text + ")");
    out = result;
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
    const JsonValue *value = get(key);
    if (!value)
      return false;
    if (value->kind != JsonValue::Kind::Number)
      return failType(key, "a number", *value);
    const char *begin = value->text.data();
    const char *end = begin + value->text.size();
    std::from_chars_result result = std::from_chars(begin, end, out);
    if (result.ec != std::errc() || result.ptr != end)
      return fail(key, "is out of range (got " + value->text + ")");
    return true;
  }

  bool getBool(std::string_view key, bool &out) {
    const JsonValue *value = get(key);
    if (!value)
      return false;
    if (value->kind != JsonValue::Kind::Bool)
      return failType(key, "true or false", *value);
    out = value->boolValue;
    return true;
  }

  /// An array of exactly N integers, each at least `min`.
  template <typename T, size_t N>
  bool getIntArray(std::string_view key, std::array<T, N> &out, int64_t min,
                   int64_t max, const char *expected) {
    const JsonValue *value = get(key);
    if (!value)
      return false;
    if (value->kind != JsonValue::Kind::Array || value->elements.size() != N)
      return failType(key, expected, *value);
    std::array<T, N> result;
    for (size_t i = 0; i < N; ++i) {
      int64_t element;
      if (!toInt(value->elements[i], element) || element < min || element > max)
        return fail(key, std::string("must be ") + expected + " (got " +
                             describeValue(value->elements[i]) + " at index " +
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
    const JsonValue *value = get(key);
    if (!value)
      return false;
    std::optional<Enum> result;
    if (value->kind == JsonValue::Kind::String)
      result = symbolize(value->text);
    if (!result)
      return failType(key, choices.c_str(), *value);
    out = *result;
    return true;
  }

  const JsonValue *getObject(std::string_view key) {
    const JsonValue *value = get(key);
    if (value && value->kind != JsonValue::Kind::Object) {
      failType(key, "an object", *value);
      return nullptr;
    }
    return value;
  }

  const JsonValue *getArray(std::string_view key) {
    const JsonValue *value = get(key);
    if (value && value->kind != JsonValue::Kind::Array) {
      failType(key, "an array", *value);
      return nullptr;
    }
    return value;
  }

  /// Fails on the first field that no getter asked for.
  bool finish() {
    for (size_t i = 0; i < used.size(); ++i)
      if (!used[i]) {
        error = "manifest: unknown field '" +
                fieldPath(object.members[i].first) + "'";
        return false;
      }
    return true;
  }

private:
  static bool toInt(const JsonValue &value, int64_t &out) {
    if (!isInteger(value))
      return false;
    const char *begin = value.text.data();
    const char *end = begin + value.text.size();
    std::from_chars_result result = std::from_chars(begin, end, out);
    return result.ec == std::errc() && result.ptr == end;
  }

  const JsonValue &object;
  std::string path;
  std::string &error;
  std::vector<bool> used;
};

std::string indexedPath(const char *name, size_t index) {
  return std::string(name) + "[" + std::to_string(index) + "]";
}

bool readTarget(const JsonValue &value, TargetInfo &target,
                std::string &error) {
  FieldReader reader(value, "target", error);
  return reader.getString("chip", target.chip) &&
         reader.getString("ptx_version", target.ptxVersion) && reader.finish();
}

bool readBinary(const JsonValue &value, size_t index, BinaryInfo &binary,
                std::string &error) {
  std::string path = indexedPath("binaries", index);
  if (value.kind != JsonValue::Kind::Object) {
    error = "manifest: field '" + path + "' must be an object (got " +
            describeValue(value) + ")";
    return false;
  }
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
                                      quoted(hash) + ")");
  return reader.finish();
}

bool readLaunch(const JsonValue &value, LaunchInfo &launch,
                std::string &error) {
  FieldReader reader(value, "launch", error);
  return reader.getIntArray("grid", launch.grid, 1, UINT32_MAX,
                            "3 positive integers") &&
         reader.getIntArray("block", launch.block, 1, UINT32_MAX,
                            "3 positive integers") &&
         reader.getUint32("dynamic_shared_bytes", launch.dynamicSharedBytes,
                          0) &&
         reader.finish();
}

bool readProblem(const JsonValue &value, ProblemInfo &problem,
                 std::string &error) {
  FieldReader reader(value, "problem", error);
  return reader.getInt("m", problem.m, 1, INT64_MAX) &&
         reader.getInt("n", problem.n, 1, INT64_MAX) &&
         reader.getInt("k", problem.k, 1, INT64_MAX) &&
         reader.getEnum("element_type", problem.elementType,
                        symbolizeElementType, listNames(kElementTypeNames)) &&
         reader.getEnum("c_init", problem.cInit, symbolizeCInit,
                        listNames(kCInitNames)) &&
         reader.getDouble("c_fill_value", problem.cFillValue) &&
         reader.finish();
}

bool readParam(const JsonValue &value, size_t index, ParamInfo &param,
               std::string &error) {
  std::string path = indexedPath("params", index);
  if (value.kind != JsonValue::Kind::Object) {
    error = "manifest: field '" + path + "' must be an object (got " +
            describeValue(value) + ")";
    return false;
  }
  FieldReader reader(value, path, error);
  return reader.getString("name", param.name) &&
         reader.getEnum("role", param.role, symbolizeParamRole,
                        listNames(kParamRoleNames)) &&
         reader.getEnum("element_type", param.elementType, symbolizeElementType,
                        listNames(kElementTypeNames)) &&
         reader.getInt("rows", param.rows, 1, INT64_MAX) &&
         reader.getInt("cols", param.cols, 1, INT64_MAX) &&
         reader.getInt("row_stride", param.rowStride, 0, INT64_MAX) &&
         reader.getInt("col_stride", param.colStride, 0, INT64_MAX) &&
         reader.getUint32("alignment", param.alignment, 1) &&
         reader.getEnum("access", param.access, symbolizeParamAccess,
                        listNames(kParamAccessNames)) &&
         reader.finish();
}

bool readConfig(const JsonValue &value, ConfigInfo &config,
                std::string &error) {
  FieldReader reader(value, "config", error);
  return reader.getIntArray("block", config.block, 1, INT64_MAX,
                            "3 positive integers") &&
         reader.getIntArray("warp", config.warp, 1, INT64_MAX,
                            "2 positive integers") &&
         reader.getIntArray("thread", config.thread, 1, INT64_MAX,
                            "2 positive integers") &&
         reader.getInt("stages", config.stages, 1, INT64_MAX) &&
         reader.getInt("swizzle", config.swizzle, 0, INT64_MAX) &&
         reader.getString("smem", config.smem) &&
         reader.getInt("smem_pad", config.smemPad, 0, INT64_MAX) &&
         reader.getBool("prefetch", config.prefetch) &&
         reader.getInt("occupancy", config.occupancy, 0, 32) &&
         reader.getInt("split_k", config.splitK, 1, INT64_MAX) &&
         reader.getString("text", config.text) && reader.finish();
}

bool readResources(const JsonValue &value, ResourceInfo &resources,
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
  const JsonValue *array = reader.getArray(key);
  if (!array)
    return false;
  out.assign(array->elements.size(), T());
  for (size_t i = 0; i < array->elements.size(); ++i)
    if (!readElement(array->elements[i], i, out[i], error))
      return false;
  return true;
}

bool readManifest(const JsonValue &root, KernelManifest &manifest,
                  std::string &error) {
  if (root.kind != JsonValue::Kind::Object) {
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
    return reader.fail("format", "must be " + quoted(kManifestFormat) +
                                     " (got " + quoted(format) +
                                     "): this is not a tile kernel manifest");
  const JsonValue *version = reader.get("version");
  if (!version)
    return false;
  if (!isInteger(*version))
    return reader.failType("version", "an integer", *version);
  if (version->text != std::to_string(kManifestVersion)) {
    error = "manifest: unsupported format version " + version->text +
            " (this runtime reads version " + std::to_string(kManifestVersion) +
            ")";
    return false;
  }
  manifest.version = kManifestVersion;

  if (!reader.getString("kernel", manifest.kernel))
    return false;
  const JsonValue *target = reader.getObject("target");
  if (!target || !readTarget(*target, manifest.target, error))
    return false;

  if (!readArray(reader, "binaries", manifest.binaries, readBinary, error))
    return false;

  const JsonValue *launch = reader.getObject("launch");
  if (!launch || !readLaunch(*launch, manifest.launch, error))
    return false;
  const JsonValue *problem = reader.getObject("problem");
  if (!problem || !readProblem(*problem, manifest.problem, error))
    return false;

  if (!readArray(reader, "params", manifest.params, readParam, error))
    return false;

  const JsonValue *config = reader.getObject("config");
  if (!config || !readConfig(*config, manifest.config, error))
    return false;
  const JsonValue *resources = reader.getObject("resources");
  if (!resources || !readResources(*resources, manifest.resources, error))
    return false;
  return reader.finish();
}
} // namespace

bool tile::runtime::parseManifestJson(std::string_view text,
                                      KernelManifest &out, std::string &error) {
  JsonValue root;
  JsonParser parser(text, error);
  if (!parser.parseDocument(root))
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

bool validateParam(const KernelManifest &manifest, const ParamInfo &param,
                   std::string &error) {
  std::string what = "param " + quoted(param.name) + " (" +
                     std::string(stringifyParamRole(param.role)) + ")";
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
  uint64_t bytes;
  if (!getRequiredBytes(param, bytes) || bytes > uint64_t(INT64_MAX))
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
  if ((param.alignment & (param.alignment - 1)) != 0)
    return invalid(error, what + " alignment " +
                              std::to_string(param.alignment) +
                              " is not a power of two");
  if (param.role == ParamRole::Result) {
    if (problem.cInit == CInit::Accumulate &&
        param.access != ParamAccess::ReadWrite)
      return invalid(error,
                     what +
                         " must have access \"readwrite\" when c_init is "
                         "\"accumulate\" (got " +
                         quoted(stringifyParamAccess(param.access)) + ")");
    if (param.access == ParamAccess::Read)
      return invalid(error, what + " must be written (access \"write\" or "
                                   "\"readwrite\", got \"read\")");
  } else if (param.access != ParamAccess::Read) {
    return invalid(error, what + " must have access \"read\" (got " +
                              quoted(stringifyParamAccess(param.access)) + ")");
  }
  return true;
}
} // namespace

bool tile::runtime::validateManifest(const KernelManifest &manifest,
                                     std::string &error) {
  if (manifest.version != kManifestVersion)
    return invalid(error, "unsupported format version " +
                              std::to_string(manifest.version) +
                              " (this runtime reads version " +
                              std::to_string(kManifestVersion) + ")");
  if (manifest.kernel.empty())
    return invalid(error, "field 'kernel' must not be empty");
  if (manifest.kernel.find_first_of(" \t\r\n") != std::string::npos)
    return invalid(error, "kernel name " + quoted(manifest.kernel) +
                              " contains white space");

  ChipVersion chip;
  if (!parseChip(manifest.target.chip, chip))
    return invalid(error, "unsupported chip " + quoted(manifest.target.chip) +
                              " in 'target.chip' (expected an NVIDIA chip "
                              "name like \"sm_90\")");
  int ptxMajor, ptxMinor;
  if (!parsePtxVersion(manifest.target.ptxVersion, ptxMajor, ptxMinor))
    return invalid(error, "field 'target.ptx_version' must look like \"8.0\" "
                          "(got " +
                              quoted(manifest.target.ptxVersion) + ")");

  if (manifest.binaries.empty())
    return invalid(error, "no binaries listed");
  for (size_t i = 0; i < manifest.binaries.size(); ++i) {
    const BinaryInfo &binary = manifest.binaries[i];
    if (binary.file.empty())
      return invalid(error, "field 'binaries[" + std::to_string(i) +
                                "].file' must not be empty");
    if (binary.file[0] == '/')
      return invalid(error, "binary file " + quoted(binary.file) +
                                " must be relative to the manifest's folder");
    for (size_t j = 0; j < i; ++j)
      if (manifest.binaries[j].format == binary.format)
        return invalid(error, "two binaries of format " +
                                  quoted(stringifyBinaryFormat(binary.format)));
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

  if (!std::isfinite(manifest.problem.cFillValue))
    return invalid(error, "field 'problem.c_fill_value' must be finite");

  if (manifest.params.size() != 3)
    return invalid(error, "a matmul kernel takes 3 params (lhs, rhs, "
                          "result), the manifest lists " +
                              std::to_string(manifest.params.size()));
  for (ParamRole role : {ParamRole::Lhs, ParamRole::Rhs, ParamRole::Result}) {
    int count = 0;
    for (const ParamInfo &param : manifest.params)
      count += param.role == role;
    if (count != 1)
      return invalid(error, std::to_string(count) + " params have role " +
                                quoted(stringifyParamRole(role)) +
                                ", expected exactly one");
  }
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    const ParamInfo &param = manifest.params[i];
    if (param.name.empty())
      return invalid(error, "field 'params[" + std::to_string(i) +
                                "].name' must not be empty");
    for (size_t j = 0; j < i; ++j)
      if (manifest.params[j].name == param.name)
        return invalid(error, "two params are named " + quoted(param.name));
    if (!validateParam(manifest, param, error))
      return false;
  }

  const ResourceInfo &resources = manifest.resources;
  if (resources.registers < -1 || resources.spillStores < -1 ||
      resources.spillLoads < -1 || resources.stackBytes < -1)
    return invalid(error, "resources must be counts, or -1 when unknown");
  return true;
}
