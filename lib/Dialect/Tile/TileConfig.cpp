//===- TileConfig.cpp - the tiling decision as plain C++ ------------------===//

#include "tile/Dialect/Tile/TileConfig.h"

#include <algorithm>

#include <functional>
#include <sstream>
#include <tuple>

using namespace mlir::tile;

const char *mlir::tile::stringifyStrategy(Strategy strategy) {
  switch (strategy) {
  case Strategy::Fma:
    return "fma";
  case Strategy::Wgmma:
    return "wgmma";
  }
  return "unknown";
}

const char *mlir::tile::stringifyCopyKind(CopyKind copy) {
  switch (copy) {
  case CopyKind::Registers:
    return "registers";
  case CopyKind::CpAsync:
    return "cp_async";
  case CopyKind::Tma:
    return "tma";
  }
  return "unknown";
}

const char *mlir::tile::stringifySharedLayout(SharedLayout layout) {
  switch (layout) {
  case SharedLayout::None:
    return "none";
  case SharedLayout::Pad:
    return "pad";
  case SharedLayout::Xor:
    return "xor";
  case SharedLayout::Swizzle128:
    return "swizzle128";
  }
  return "unknown";
}

CopyKind mlir::tile::fmaCopyKind(int64_t stages) {
  return stages >= 3 ? CopyKind::CpAsync : CopyKind::Registers;
}

CopyKind TileConfig::copyKind() const {
  return isWgmma() ? copy : fmaCopyKind(stages);
}

bool mlir::tile::parseStrategy(const std::string &text, Strategy &strategy) {
  for (Strategy s : {Strategy::Fma, Strategy::Wgmma})
    if (text == stringifyStrategy(s)) {
      strategy = s;
      return true;
    }
  return false;
}

bool mlir::tile::parseCopyKind(const std::string &text, CopyKind &copy) {
  for (CopyKind c : {CopyKind::Registers, CopyKind::CpAsync, CopyKind::Tma})
    if (text == stringifyCopyKind(c)) {
      copy = c;
      return true;
    }
  return false;
}

TileConfig TileConfig::wgmmaDefaults(int64_t elementBytes) {
  TileConfig c = withTiles(128, 256, 128 / elementBytes, 64, 256, 64, 256);
  c.strategy = Strategy::Wgmma;
  c.mmaK = 32 / elementBytes;
  c.stages = 4;
  c.copy = CopyKind::Tma;
  c.specialize = true;
  c.smemLayout = SharedLayout::Swizzle128;
  c.smemPad = 0;
  c.regPrefetch = false;
  return c;
}

/// Every field, for comparing and hashing.
static auto fields(const TileConfig &c) {
  return std::make_tuple(c.strategy, c.blockM, c.blockN, c.blockK, c.warpM,
                         c.warpN, c.threadM, c.threadN, c.stages,
                         c.swizzleGroup, c.smemLayout, c.smemPad,
                         c.regPrefetch, c.minBlocksPerSM, c.splitK, c.splitLast,
                         c.mmaK,
                         c.copyKind(), c.specialize, c.repack,
                         c.persistent, c.clusterM, c.clusterN, c.tmaStore);
}

bool TileConfig::operator==(const TileConfig &o) const {
  return fields(*this) == fields(o);
}

size_t mlir::tile::hashValue(const TileConfig &config) {
  size_t hash = 0;
  std::apply(
      [&](const auto &...field) {
        ((hash = hash * 1000003u ^
                 std::hash<int64_t>()(static_cast<int64_t>(field))),
         ...);
      },
      fields(config));
  return hash;
}

namespace {
/// Builds one message with the numbers in it.
struct Message {
  std::ostringstream os;
  template <typename T> Message &operator<<(const T &value) {
    os << value;
    return *this;
  }
  operator std::string() const { return os.str(); }
};

/// Non-empty if `value` is not a usable tile extent.
std::string checkExtent(const char *what, int64_t value) {
  if (value <= 0)
    return Message() << what << " must be positive, got " << value;
  if (value > kMaxTileExtent)
    return Message() << what << " (" << value << ") is over the limit "
                     << kMaxTileExtent;
  return {};
}

/// Non-empty unless `part` divides `whole`.
std::string checkDivides(const char *partName, int64_t part,
                         const char *wholeName, int64_t whole) {
  if (whole % part == 0)
    return {};
  return Message() << partName << " (" << part << ") does not divide "
                   << wholeName << " (" << whole << ")";
}
} // namespace

namespace {
/// The rules of the Wgmma strategy (tile shapes, copies, layout).
std::string checkWgmma(const TileConfig &c) {
  // One wgmma is m64nNk16 (bf16/f16): N a multiple of 8 up to 256.
  if (c.threadM != 64)
    return Message() << "wgmma instruction tile M must be 64, got "
                     << c.threadM;
  if (c.threadN % 8 != 0 || c.threadN > 256)
    return Message() << "wgmma instruction tile N must be a multiple of 8 "
                        "from 8 to 256, got "
                     << c.threadN;
  if (c.warpM % 64 != 0)
    return Message() << "warpgroup tile M (" << c.warpM
                     << ") must be a multiple of 64, the M of one wgmma";
  if (std::string e = checkDivides("wgmma instruction tile N", c.threadN,
                                   "warpgroup tile N", c.warpN);
      !e.empty())
    return e;
  if (c.mmaK != 8 && c.mmaK != 16 && c.mmaK != 32)
    return Message() << "wgmma k step must be 8, 16 or 32, got " << c.mmaK;
  if (std::string e =
          checkDivides("wgmma k step", c.mmaK, "block tile K", c.blockK);
      !e.empty())
    return e;
  if (c.copy == CopyKind::CpAsync)
    return Message() << "copy 'cp_async' is not available for wgmma (use tma "
                        "or registers)";
  if (c.copy == CopyKind::Registers && !c.specialize)
    return Message() << "copy 'registers' needs specialize = true (a "
                        "producer warpgroup does the copies)";
  if (c.repack && c.copy != CopyKind::Tma)
    return Message() << "repack = true needs copy = tma (it pads the rows "
                        "the TMA reads), got copy '"
                     << stringifyCopyKind(c.copy) << "'";
  if (c.persistent && (!c.specialize || c.copy != CopyKind::Tma))
    return Message() << "persistent = true needs specialize = true and copy "
                        "= tma (the producer's TMA ring runs on from tile to "
                        "tile)";
  if (c.persistent && c.splitK > 1)
    return Message() << "persistent = true does not combine with split_k = "
                     << c.splitK;
  if (c.tmaStore && (!c.specialize || c.copy != CopyKind::Tma))
    return Message() << "store = tma needs specialize = true and copy = tma "
                        "(the consumer warpgroups stage C while the "
                        "producer's TMA ring runs)";
  if (c.tmaStore && c.splitK > 1)
    return Message() << "store = tma does not combine with split_k = "
                     << c.splitK << " (split-K adds into C atomically)";
  if (c.clusterM < 1 || c.clusterN < 1)
    return Message() << "cluster extents must be at least 1, got "
                     << c.clusterM << "x" << c.clusterN;
  if (c.clusterSize() > 1) {
    bool alongM = c.clusterM == 2 && c.clusterN == 1;
    bool alongN = c.clusterM == 1 && c.clusterN == 2;
    if (!alongM && !alongN)
      return Message() << "cluster " << c.clusterM << "x" << c.clusterN
                       << " is not available (1x1; 2x1: two blocks along "
                          "M that share B's slabs; 1x2: two blocks along N "
                          "that share A's slabs)";
    const char *shared = alongM ? "B" : "A";
    if (!c.specialize || c.copy != CopyKind::Tma)
      return Message() << "cluster " << c.clusterM << "x" << c.clusterN
                       << " needs specialize = true and copy = tma (the "
                          "producers multicast "
                       << shared << "'s boxes with the TMA)";
    if (c.splitK > 1)
      return Message() << "cluster " << c.clusterM << "x" << c.clusterN
                       << " does not combine with split_k = " << c.splitK;
    int64_t extent = alongM ? c.blockN : c.blockM;
    if (extent % 128 != 0)
      return Message() << "cluster " << c.clusterM << "x" << c.clusterN
                       << " splits " << shared
                       << "'s slab between the two blocks (its 64-element "
                          "chunks, or halves of its rows): block tile "
                       << (alongM ? "N" : "M") << " (" << extent
                       << ") must be a multiple of 128";
  }
  if (c.smemLayout != SharedLayout::Swizzle128)
    return Message() << "wgmma reads its operands in the 128-byte swizzled "
                        "layout: smem must be swizzle128, got '"
                     << stringifySharedLayout(c.smemLayout) << "'";
  if (c.regPrefetch)
    return Message() << "register prefetch is an fma option; wgmma reads "
                        "shared memory itself (prefetch must be false)";
  if (c.stages < 2)
    return Message() << "the wgmma ring needs at least 2 stages, got "
                     << c.stages;
  return {};
}

/// The rules of the Fma strategy (lanes of a warp; no Wgmma fields).
std::string checkFma(const TileConfig &c) {
  int64_t lanes = c.lanesM() * c.lanesN();
  if (lanes != kWarpSize)
    return Message() << "warp tile " << c.warpM << "x" << c.warpN
                     << " holds " << c.lanesM() << "x" << c.lanesN() << " = "
                     << lanes << " thread tiles of " << c.threadM << "x"
                     << c.threadN << ", but a warp has " << kWarpSize
                     << " lanes";
  if (c.mmaK != 1)
    return Message() << "an fma instruction has k step 1, got " << c.mmaK;
  if (c.copy == CopyKind::Tma)
    return Message() << "copy 'tma' needs the wgmma strategy";
  if (c.specialize)
    return Message() << "warp specialization needs the wgmma strategy";
  if (c.persistent)
    return Message() << "persistent = true needs the wgmma strategy";
  if (c.tmaStore)
    return Message() << "store = tma needs the wgmma strategy";
  if (c.splitLast > 0)
    return Message() << "split_last = " << c.splitLast
                     << " needs the wgmma strategy";
  if (c.clusterM != 1 || c.clusterN != 1)
    return Message() << "a cluster (" << c.clusterM << "x" << c.clusterN
                     << ") needs the wgmma strategy";
  if (c.smemLayout == SharedLayout::Swizzle128)
    return Message() << "the swizzle128 layout needs the wgmma strategy";
  return {};
}
} // namespace

std::string mlir::tile::checkConsistency(const TileConfig &c) {
  bool wgmma = c.isWgmma();
  const std::pair<const char *, int64_t> extents[] = {
      {"block tile M", c.blockM},
      {"block tile N", c.blockN},
      {"block tile K", c.blockK},
      {wgmma ? "warpgroup tile M" : "warp tile M", c.warpM},
      {wgmma ? "warpgroup tile N" : "warp tile N", c.warpN},
      {wgmma ? "wgmma instruction tile M" : "thread tile M", c.threadM},
      {wgmma ? "wgmma instruction tile N" : "thread tile N", c.threadN},
      {wgmma ? "wgmma k step" : "instruction k step", c.mmaK},
  };
  for (auto [name, value] : extents)
    if (std::string error = checkExtent(name, value); !error.empty())
      return error;
  if (std::string e = checkDivides(wgmma ? "warpgroup tile M" : "warp tile M",
                                   c.warpM, "block tile M", c.blockM);
      !e.empty())
    return e;
  if (std::string e = checkDivides(wgmma ? "warpgroup tile N" : "warp tile N",
                                   c.warpN, "block tile N", c.blockN);
      !e.empty())
    return e;
  if (wgmma) {
    if (std::string e = checkWgmma(c); !e.empty())
      return e;
  } else {
    if (std::string e =
            checkDivides("thread tile M", c.threadM, "warp tile M", c.warpM);
        !e.empty())
      return e;
    if (std::string e =
            checkDivides("thread tile N", c.threadN, "warp tile N", c.warpN);
        !e.empty())
      return e;
    if (std::string e = checkFma(c); !e.empty())
      return e;
  }
  if (c.numThreads() > 1024)
    return Message() << "block tile " << c.blockM << "x" << c.blockN
                     << " with " << (wgmma ? "warpgroup" : "warp") << " tile "
                     << c.warpM << "x" << c.warpN << " needs "
                     << c.numWarps() << " warps = " << c.numThreads()
                     << " threads per block, over the limit of 1024";
  if (c.stages < 1)
    return Message() << "stages must be at least 1, got " << c.stages;
  // Shared memory grows with the stages (the cost model multiplies them by a
  // stage's bytes); more than this never fits.
  constexpr int64_t kMaxStages = 64;
  if (c.stages > kMaxStages)
    return Message() << "stages (" << c.stages << ") is over the limit "
                     << kMaxStages;
  if (c.swizzleGroup < 1)
    return Message() << "swizzle group must be at least 1, got "
                     << c.swizzleGroup;
  if (c.splitK < 1 || c.splitK > 1024)
    return Message() << "split_k must be between 1 (no split) and 1024, got "
                     << c.splitK;
  if (c.splitLast < 0 || c.splitLast > (int64_t(1) << 31))
    return Message() << "split_last must be between 0 (every tile split) "
                        "and 2^31 tiles, got "
                     << c.splitLast;
  if (c.splitLast > 0 && c.splitK == 1)
    return Message() << "split_last = " << c.splitLast
                     << " splits the last tiles split_k ways, but split_k "
                        "is 1";
  if (c.minBlocksPerSM < 0 || c.minBlocksPerSM > 32)
    return Message() << "occupancy must be between 0 (no hint) and 32 blocks "
                        "per SM, got "
                     << c.minBlocksPerSM;
  if (c.smemLayout == SharedLayout::Pad && c.smemPad < 0)
    return Message() << "shared-memory padding must not be negative, got "
                     << c.smemPad;
  if (c.smemPad > kMaxTileExtent)
    return Message() << "shared-memory padding (" << c.smemPad
                     << ") is over the limit " << kMaxTileExtent;
  if (c.smemLayout != SharedLayout::Pad && c.smemPad != 0)
    return Message() << "shared-memory padding " << c.smemPad
                     << " given for layout '"
                     << stringifySharedLayout(c.smemLayout)
                     << "', which takes none";
  if (c.smemLayout == SharedLayout::Xor) {
    // The swizzle permutes the 16-byte granules (4 elements) of one A row.
    if (c.blockM % 4 != 0)
      return Message() << "xor layout needs block tile M (" << c.blockM
                       << ") to be a multiple of 4 (16-byte granules)";
    int64_t granules = c.blockM / 4;
    if ((granules & (granules - 1)) != 0)
      return Message() << "xor layout needs a power-of-two number of "
                          "16-byte granules per row, block tile M "
                       << c.blockM << " has " << granules;
  }
  return {};
}

std::string mlir::tile::toString(const TileConfig &c) {
  std::ostringstream os;
  os << "#tile.config<";
  if (c.isWgmma()) {
    os << "strategy = wgmma, block = [" << c.blockM << ", " << c.blockN
       << ", " << c.blockK << "], warpgroup = [" << c.warpM << ", " << c.warpN
       << "], mma = [" << c.threadM << ", " << c.threadN << ", " << c.mmaK
       << "], stages = " << c.stages
       << ", copy = " << stringifyCopyKind(c.copy)
       << ", specialize = " << (c.specialize ? "true" : "false")
       << ", swizzle = " << c.swizzleGroup
       << ", smem = " << stringifySharedLayout(c.smemLayout);
    if (c.repack)
      os << ", repack = true";
    if (c.persistent)
      os << ", persistent = true";
    if (c.clusterSize() > 1)
      os << ", cluster = [" << c.clusterM << ", " << c.clusterN << "]";
    if (c.tmaStore)
      os << ", store = tma";
  } else {
    os << "block = [" << c.blockM << ", " << c.blockN << ", " << c.blockK
       << "], warp = [" << c.warpM << ", " << c.warpN << "], thread = ["
       << c.threadM << ", " << c.threadN << "], stages = " << c.stages
       << ", swizzle = " << c.swizzleGroup
       << ", smem = " << stringifySharedLayout(c.smemLayout);
    if (c.smemLayout == SharedLayout::Pad)
      os << "(" << c.smemPad << ")";
    os << ", prefetch = " << (c.regPrefetch ? "true" : "false");
    if (c.repack)
      os << ", repack = true";
  }
  if (c.minBlocksPerSM > 0)
    os << ", occupancy = " << c.minBlocksPerSM;
  if (c.splitK > 1)
    os << ", split_k = " << c.splitK;
  if (c.splitLast > 0)
    os << ", split_last = " << c.splitLast;
  os << ">";
  return os.str();
}

std::string mlir::tile::toShortString(const TileConfig &c) {
  std::ostringstream os;
  if (c.isWgmma()) {
    os << "wgmma/" << c.blockM << "x" << c.blockN << "x" << c.blockK << "/"
       << c.warpM << "x" << c.warpN << "/m" << c.threadM << "n" << c.threadN
       << "k" << c.mmaK << "/s" << c.stages << "/"
       << stringifyCopyKind(c.copy) << (c.repack ? "/rp" : "")
       << (c.specialize ? "/ws" : "") << "/g" << c.swizzleGroup;
    // (The runtime's short form of a manifest's config has the same order.)
    if (c.clusterSize() > 1)
      os << "/c" << c.clusterM << "x" << c.clusterN;
    os << (c.persistent ? "/p" : "") << (c.tmaStore ? "/ts" : "");
  } else {
    os << c.blockM << "x" << c.blockN << "x" << c.blockK << "/" << c.warpM
       << "x" << c.warpN << "/" << c.threadM << "x" << c.threadN << "/s"
       << c.stages << "/g" << c.swizzleGroup << "/"
       << stringifySharedLayout(c.smemLayout);
    if (c.smemLayout == SharedLayout::Pad)
      os << c.smemPad;
    os << (c.regPrefetch ? "/pf" : "/nopf") << (c.repack ? "/rp" : "");
  }
  if (c.minBlocksPerSM > 0)
    os << "/o" << c.minBlocksPerSM;
  if (c.splitK > 1)
    os << "/sk" << c.splitK;
  if (c.splitLast > 0)
    os << "l" << c.splitLast;
  return os.str();
}

bool mlir::tile::parseSharedLayout(const std::string &text,
                                   SharedLayout &layout, int64_t &pad) {
  for (SharedLayout plain :
       {SharedLayout::None, SharedLayout::Xor, SharedLayout::Swizzle128})
    if (text == stringifySharedLayout(plain)) {
      layout = plain;
      pad = 0;
      return true;
    }
  if (text.rfind("pad", 0) != 0)
    return false;
  std::string digits = text.substr(3);
  if (digits.size() >= 2 &&
      ((digits.front() == '<' && digits.back() == '>') ||
       (digits.front() == '(' && digits.back() == ')')))
    digits = digits.substr(1, digits.size() - 2);
  if (digits.empty() || digits.size() > 9)
    return false;
  int64_t value = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '9')
      return false;
    value = value * 10 + (ch - '0');
  }
  layout = SharedLayout::Pad;
  pad = value;
  return true;
}

std::string mlir::tile::sharedLayoutToString(SharedLayout layout,
                                             int64_t pad) {
  if (layout == SharedLayout::Pad)
    return "pad" + std::to_string(pad);
  return stringifySharedLayout(layout);
}

int64_t mlir::tile::splitKChunk(const TileConfig &c, int64_t k) {
  int64_t perSplit = (k + c.splitK - 1) / c.splitK;
  return (perSplit + c.blockK - 1) / c.blockK * c.blockK;
}

int64_t mlir::tile::numSplits(const TileConfig &c, int64_t k) {
  int64_t chunk = splitKChunk(c, k);
  return (k + chunk - 1) / chunk;
}

int64_t mlir::tile::splitTileCount(const TileConfig &c, int64_t tiles,
                                   int64_t k) {
  if (numSplits(c, k) == 1)
    return 0;
  return c.splitLast > 0 ? std::min(c.splitLast, tiles) : tiles;
}

int64_t mlir::tile::blocksPerMatrix(const TileConfig &c, int64_t tiles,
                                    int64_t k) {
  int64_t split = splitTileCount(c, tiles, k);
  return tiles - split + split * numSplits(c, k);
}
