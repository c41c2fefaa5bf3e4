//===- TileDialect.cpp - the tile dialect and #tile.config ----------------===//

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/TileDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #tile.config
//===----------------------------------------------------------------------===//

TileConfig ConfigAttr::toTileConfig() const {
  TileConfig c =
      TileConfig::withTiles(getBlockM(), getBlockN(), getBlockK(), getWarpM(),
                            getWarpN(), getThreadM(), getThreadN());
  c.stages = getStages();
  c.swizzleGroup = getSwizzleGroup();
  c.smemLayout = getSmemLayout();
  c.smemPad = getSmemPad();
  c.regPrefetch = getRegPrefetch();
  c.minBlocksPerSM = getMinBlocksPerSM();
  c.splitK = getSplitK();
  return c;
}

ConfigAttr ConfigAttr::get(MLIRContext *context, const TileConfig &c) {
  return get(context, {c.blockM, c.blockN, c.blockK}, {c.warpM, c.warpN},
             {c.threadM, c.threadN}, c.stages, c.swizzleGroup, c.smemLayout,
             c.smemPad, c.regPrefetch, c.minBlocksPerSM, c.splitK);
}

LogicalResult
ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> blockTile, ArrayRef<int64_t> warpTile,
                   ArrayRef<int64_t> threadTile, int64_t stages,
                   int64_t swizzleGroup, SharedLayout smemLayout,
                   int64_t smemPad, bool regPrefetch,
                   int64_t minBlocksPerSM, int64_t splitK) {
  if (blockTile.size() != 3)
    return emitError() << "block tile must have 3 sizes (M, N, K), got "
                       << blockTile.size();
  if (warpTile.size() != 2)
    return emitError() << "warp tile must have 2 sizes (M, N), got "
                       << warpTile.size();
  if (threadTile.size() != 2)
    return emitError() << "thread tile must have 2 sizes (M, N), got "
                       << threadTile.size();
  TileConfig c = TileConfig::withTiles(blockTile[0], blockTile[1],
                                       blockTile[2], warpTile[0], warpTile[1],
                                       threadTile[0], threadTile[1]);
  c.stages = stages;
  c.swizzleGroup = swizzleGroup;
  c.smemLayout = smemLayout;
  c.smemPad = smemPad;
  c.regPrefetch = regPrefetch;
  c.minBlocksPerSM = minBlocksPerSM;
  c.splitK = splitK;
  std::string error = checkConsistency(c);
  if (!error.empty())
    return emitError() << "invalid #tile.config: " << error;
  return success();
}

namespace {
/// Parses `[a, b, ...]` into `values`.
ParseResult parseSizeList(AsmParser &parser, SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      });
}
} // namespace

Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  TileConfig defaults;
  SmallVector<int64_t> block, warp, thread;
  int64_t stages = defaults.stages;
  int64_t swizzle = defaults.swizzleGroup;
  SharedLayout layout = defaults.smemLayout;
  int64_t pad = defaults.smemPad;
  bool prefetch = defaults.regPrefetch;
  int64_t occupancy = defaults.minBlocksPerSM;
  int64_t splitK = defaults.splitK;
  llvm::StringSet<> seen;

  auto parseField = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc) << "field '" << key << "' given twice";
    if (parser.parseEqual())
      return failure();
    if (key == "block")
      return parseSizeList(parser, block);
    if (key == "warp")
      return parseSizeList(parser, warp);
    if (key == "thread")
      return parseSizeList(parser, thread);
    if (key == "stages")
      return parser.parseInteger(stages);
    if (key == "swizzle")
      return parser.parseInteger(swizzle);
    if (key == "occupancy")
      return parser.parseInteger(occupancy);
    if (key == "split_k")
      return parser.parseInteger(splitK);
    if (key == "prefetch") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      if (value != "true" && value != "false")
        return parser.emitError(valueLoc)
               << "prefetch must be true or false, got '" << value << "'";
      prefetch = value == "true";
      return success();
    }
    if (key == "smem") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      if (value == "none") {
        layout = SharedLayout::None;
        pad = 0;
        return success();
      }
      if (value == "xor") {
        layout = SharedLayout::Xor;
        pad = 0;
        return success();
      }
      if (value == "pad") {
        layout = SharedLayout::Pad;
        if (parser.parseLParen() || parser.parseInteger(pad) ||
            parser.parseRParen())
          return failure();
        return success();
      }
      return parser.emitError(valueLoc)
             << "smem must be none, pad(N) or xor, got '" << value << "'";
    }
    return parser.emitError(loc)
           << "unknown field '" << key
           << "' (expected block, warp, thread, stages, swizzle, smem, "
              "prefetch, occupancy or split_k)";
  };

  SMLoc start = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater()) &&
      (parser.parseCommaSeparatedList(AsmParser::Delimiter::None,
                                      parseField) ||
       parser.parseGreater()))
    return {};
  for (StringRef required : {"block", "warp", "thread"})
    if (!seen.contains(required)) {
      parser.emitError(start) << "#tile.config needs the field '" << required
                              << "'";
      return {};
    }
  return parser.getChecked<ConfigAttr>(start, parser.getContext(), block, warp,
                                       thread, stages, swizzle, layout, pad,
                                       prefetch, occupancy, splitK);
}

void ConfigAttr::print(AsmPrinter &printer) const {
  auto printList = [&](ArrayRef<int64_t> values) {
    printer << "[";
    llvm::interleaveComma(values, printer);
    printer << "]";
  };
  printer << "<block = ";
  printList(getBlockTile());
  printer << ", warp = ";
  printList(getWarpTile());
  printer << ", thread = ";
  printList(getThreadTile());
  printer << ", stages = " << getStages() << ", swizzle = " << getSwizzleGroup()
          << ", smem = " << stringifySharedLayout(getSmemLayout());
  if (getSmemLayout() == SharedLayout::Pad)
    printer << "(" << getSmemPad() << ")";
  printer << ", prefetch = " << (getRegPrefetch() ? "true" : "false");
  if (getMinBlocksPerSM() > 0)
    printer << ", occupancy = " << getMinBlocksPerSM();
  if (getSplitK() > 1)
    printer << ", split_k = " << getSplitK();
  printer << ">";
}

ConfigAttr mlir::tile::getConfig(Operation *op) {
  return op->getAttrOfType<ConfigAttr>(TileDialect::kConfigAttrName);
}

void mlir::tile::setConfig(Operation *op, ConfigAttr config) {
  op->setAttr(TileDialect::kConfigAttrName, config);
}
