//===- TileDialect.cpp - the tile dialect and #tile.config ----------------===//

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/TileDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/TileAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/TileOps.cpp.inc"

void TileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/TileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// tile.atomic_addf
//===----------------------------------------------------------------------===//

LogicalResult AtomicAddFOp::verify() {
  if (getValue().getType().getRank() != 1)
    return emitOpError() << "adds a 1-d vector, got "
                         << getValue().getType();
  MemRefType type = getMemref().getType();
  if (static_cast<int64_t>(getIndices().size()) != type.getRank())
    return emitOpError() << "takes " << type.getRank()
                         << " indices for its memref of rank "
                         << type.getRank() << ", got "
                         << getIndices().size();
  if (type.getRank() == 0)
    return emitOpError() << "needs a memref of rank 1 or more (the "
                            "vector's elements go along the innermost "
                            "dimension)";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return emitOpError() << "needs a memref whose innermost stride is 1 "
                            "(the vector's elements adjacent), got "
                         << type;
  return success();
}

//===----------------------------------------------------------------------===//
// #tile.config
//===----------------------------------------------------------------------===//

LogicalResult
ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   TileConfig config) {
  std::string error = checkConsistency(config);
  if (!error.empty())
    return emitError() << "invalid #tile.config: " << error;
  return success();
}

namespace {
/// Parses `[a, b, ...]` into `values`, which must then hold `count` sizes
/// (named by `what` in the message).
ParseResult parseSizeList(AsmParser &parser, SmallVectorImpl<int64_t> &values,
                          size_t count, StringRef what, StringRef dims) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t value;
            if (parser.parseInteger(value))
              return failure();
            values.push_back(value);
            return success();
          }))
    return failure();
  if (values.size() != count)
    return parser.emitError(loc) << what << " must have " << count
                                 << " sizes " << dims << ", got "
                                 << values.size();
  return success();
}

/// Parses `true` or `false`.
ParseResult parseBool(AsmParser &parser, StringRef key, bool &result) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef value;
  if (parser.parseKeyword(&value))
    return failure();
  if (value != "true" && value != "false")
    return parser.emitError(loc)
           << key << " must be true or false, got '" << value << "'";
  result = value == "true";
  return success();
}
} // namespace

Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  // Fields are collected first; the strategy (which may come anywhere)
  // decides the defaults and which names the tiles go by.
  SmallVector<int64_t> block, warp, thread, warpgroup, mma, cluster;
  std::optional<int64_t> stages, swizzle, occupancy, splitK, splitLast;
  std::optional<bool> prefetch, specialize, repack, persistent;
  std::optional<std::pair<SharedLayout, int64_t>> smem;
  std::optional<CopyKind> copy;
  std::optional<bool> tmaStore;
  Strategy strategy = Strategy::Fma;
  llvm::StringMap<SMLoc> seen;

  auto parseKeywordValue = [&](StringRef key, auto convert) -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef value;
    if (parser.parseKeyword(&value))
      return failure();
    if (!convert(value.str()))
      return parser.emitError(loc) << "unknown " << key << " '" << value
                                   << "'";
    return success();
  };
  auto parseField = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (!seen.try_emplace(key, loc).second)
      return parser.emitError(loc) << "field '" << key << "' given twice";
    if (parser.parseEqual())
      return failure();
    auto integer = [&](std::optional<int64_t> &field) -> ParseResult {
      int64_t value;
      if (parser.parseInteger(value))
        return failure();
      field = value;
      return success();
    };
    auto boolean = [&](std::optional<bool> &field) -> ParseResult {
      bool value;
      if (parseBool(parser, key, value))
        return failure();
      field = value;
      return success();
    };
    if (key == "strategy")
      return parseKeywordValue("strategy", [&](const std::string &text) {
        return parseStrategy(text, strategy);
      });
    if (key == "block")
      return parseSizeList(parser, block, 3, "block tile", "(M, N, K)");
    if (key == "warp")
      return parseSizeList(parser, warp, 2, "warp tile", "(M, N)");
    if (key == "thread")
      return parseSizeList(parser, thread, 2, "thread tile", "(M, N)");
    if (key == "warpgroup")
      return parseSizeList(parser, warpgroup, 2, "warpgroup tile", "(M, N)");
    if (key == "mma")
      return parseSizeList(parser, mma, 3, "mma instruction tile", "(M, N, K)");
    if (key == "cluster")
      return parseSizeList(parser, cluster, 2, "cluster", "(M, N)");
    if (key == "stages")
      return integer(stages);
    if (key == "swizzle")
      return integer(swizzle);
    if (key == "occupancy")
      return integer(occupancy);
    if (key == "split_k")
      return integer(splitK);
    if (key == "split_last")
      return integer(splitLast);
    if (key == "prefetch")
      return boolean(prefetch);
    if (key == "specialize")
      return boolean(specialize);
    if (key == "repack")
      return boolean(repack);
    if (key == "persistent")
      return boolean(persistent);
    if (key == "store")
      return parseKeywordValue("store", [&](const std::string &text) {
        if (text != "tma" && text != "registers")
          return false;
        tmaStore = text == "tma";
        return true;
      });
    if (key == "copy")
      return parseKeywordValue("copy kind", [&](const std::string &text) {
        CopyKind kind;
        if (!parseCopyKind(text, kind))
          return false;
        copy = kind;
        return true;
      });
    if (key == "smem") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      if (value == "pad") {
        int64_t pad;
        if (parser.parseLParen() || parser.parseInteger(pad) ||
            parser.parseRParen())
          return failure();
        smem = {SharedLayout::Pad, pad};
        return success();
      }
      SharedLayout layout;
      int64_t pad;
      if (value == "pad" ||
          !parseSharedLayout(value.str(), layout, pad))
        return parser.emitError(valueLoc)
               << "smem must be none, pad(N), xor or swizzle128, got '"
               << value << "'";
      smem = {layout, pad};
      return success();
    }
    return parser.emitError(loc)
           << "unknown field '" << key
           << "' (expected strategy, block, warp, thread, warpgroup, mma, "
              "stages, copy, specialize, repack, persistent, cluster, store, "
              "swizzle, smem, prefetch, occupancy, split_k or split_last)";
  };

  SMLoc start = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater()) &&
      (parser.parseCommaSeparatedList(AsmParser::Delimiter::None,
                                      parseField) ||
       parser.parseGreater()))
    return {};

  bool wgmma = strategy == Strategy::Wgmma;
  // The fields of the other strategy are errors, at the field.
  auto refuse = [&](StringRef key, StringRef instead) -> bool {
    auto it = seen.find(key);
    if (it == seen.end())
      return false;
    parser.emitError(it->second)
        << "field '" << key << "' is not used by the "
        << stringifyStrategy(strategy) << " strategy" << instead;
    return true;
  };
  if (wgmma ? refuse("warp", " (use warpgroup)") ||
                  refuse("thread", " (use mma)") || refuse("prefetch", "")
            : refuse("warpgroup", " (use warp)") ||
                  refuse("mma", " (use thread)") ||
                  refuse("specialize", "") ||
                  refuse("persistent", "") || refuse("cluster", "") ||
                  refuse("store", ""))
    return {};
  static const StringRef wgmmaRequired[] = {"block", "warpgroup", "mma"};
  static const StringRef fmaRequired[] = {"block", "warp", "thread"};
  for (StringRef required : wgmma ? ArrayRef<StringRef>(wgmmaRequired)
                                  : ArrayRef<StringRef>(fmaRequired))
    if (!seen.contains(required)) {
      parser.emitError(start) << "#tile.config needs the field '" << required
                              << "'";
      return {};
    }

  TileConfig c = wgmma ? TileConfig::wgmmaDefaults() : TileConfig();
  c.setBlock(block[0], block[1], block[2]);
  if (wgmma) {
    c.setWarp(warpgroup[0], warpgroup[1]);
    c.setThread(mma[0], mma[1]);
    c.mmaK = mma[2];
  } else {
    c.setWarp(warp[0], warp[1]);
    c.setThread(thread[0], thread[1]);
  }
  c.stages = stages.value_or(c.stages);
  c.swizzleGroup = swizzle.value_or(c.swizzleGroup);
  c.minBlocksPerSM = occupancy.value_or(c.minBlocksPerSM);
  c.splitK = splitK.value_or(c.splitK);
  c.splitLast = splitLast.value_or(c.splitLast);
  c.regPrefetch = prefetch.value_or(c.regPrefetch);
  c.specialize = specialize.value_or(c.specialize);
  c.repack = repack.value_or(c.repack);
  c.persistent = persistent.value_or(c.persistent);
  c.tmaStore = tmaStore.value_or(c.tmaStore);
  if (!cluster.empty()) {
    c.clusterM = cluster[0];
    c.clusterN = cluster[1];
  }
  if (smem)
    std::tie(c.smemLayout, c.smemPad) = *smem;
  if (wgmma) {
    c.copy = copy.value_or(c.copy);
  } else if (copy && *copy != fmaCopyKind(c.stages)) {
    parser.emitError(seen.lookup("copy"))
        << "with stages = " << c.stages << " the fma strategy copies through '"
        << stringifyCopyKind(fmaCopyKind(c.stages)) << "', not '"
        << stringifyCopyKind(*copy) << "'";
    return {};
  }
  return parser.getChecked<ConfigAttr>(start, parser.getContext(), c);
}

void ConfigAttr::print(AsmPrinter &printer) const {
  // The text of toString without its "#tile.config" prefix.
  std::string text = mlir::tile::toString(getConfig());
  printer << StringRef(text).drop_front(StringRef("#tile.config").size());
}

ConfigAttr mlir::tile::getConfig(Operation *op) {
  return op->getAttrOfType<ConfigAttr>(TileDialect::kConfigAttrName);
}

void mlir::tile::setConfig(Operation *op, ConfigAttr config) {
  op->setAttr(TileDialect::kConfigAttrName, config);
}
