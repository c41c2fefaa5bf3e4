//===- TileConfig.cpp - the tiling decision as plain C++ ------------------===//

#include "tile/Dialect/Tile/TileConfig.h"

#include <sstream>

using namespace mlir::tile;

const char *mlir::tile::stringifySharedLayout(SharedLayout layout) {
  switch (layout) {
  case SharedLayout::None:
    return "none";
  case SharedLayout::Pad:
    return "pad";
  case SharedLayout::Xor:
    return "xor";
  }
  return "unknown";
}

bool TileConfig::operator==(const TileConfig &o) const {
  return blockM == o.blockM && blockN == o.blockN && blockK == o.blockK &&
         warpM == o.warpM && warpN == o.warpN && threadM == o.threadM &&
         threadN == o.threadN && stages == o.stages &&
         swizzleGroup == o.swizzleGroup && smemLayout == o.smemLayout &&
         smemPad == o.smemPad && regPrefetch == o.regPrefetch &&
         minBlocksPerSM == o.minBlocksPerSM && splitK == o.splitK;
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

std::string mlir::tile::checkConsistency(const TileConfig &c) {
  const std::pair<const char *, int64_t> extents[] = {
      {"block tile M", c.blockM},   {"block tile N", c.blockN},
      {"block tile K", c.blockK},   {"warp tile M", c.warpM},
      {"warp tile N", c.warpN},     {"thread tile M", c.threadM},
      {"thread tile N", c.threadN},
  };
  for (auto [name, value] : extents)
    if (std::string error = checkExtent(name, value); !error.empty())
      return error;
  if (std::string e =
          checkDivides("warp tile M", c.warpM, "block tile M", c.blockM);
      !e.empty())
    return e;
  if (std::string e =
          checkDivides("warp tile N", c.warpN, "block tile N", c.blockN);
      !e.empty())
    return e;
  if (std::string e =
          checkDivides("thread tile M", c.threadM, "warp tile M", c.warpM);
      !e.empty())
    return e;
  if (std::string e =
          checkDivides("thread tile N", c.threadN, "warp tile N", c.warpN);
      !e.empty())
    return e;
  int64_t lanes = c.lanesM() * c.lanesN();
  if (lanes != kWarpSize)
    return Message() << "warp tile " << c.warpM << "x" << c.warpN
                     << " holds " << c.lanesM() << "x" << c.lanesN() << " = "
                     << lanes << " thread tiles of " << c.threadM << "x"
                     << c.threadN << ", but a warp has " << kWarpSize
                     << " lanes";
  if (c.numThreads() > 1024)
    return Message() << "block tile " << c.blockM << "x" << c.blockN
                     << " with warp tile " << c.warpM << "x" << c.warpN
                     << " needs " << c.numWarps() << " warps = "
                     << c.numThreads()
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
  os << "#tile.config<block = [" << c.blockM << ", " << c.blockN << ", "
     << c.blockK << "], warp = [" << c.warpM << ", " << c.warpN
     << "], thread = [" << c.threadM << ", " << c.threadN
     << "], stages = " << c.stages << ", swizzle = " << c.swizzleGroup
     << ", smem = " << stringifySharedLayout(c.smemLayout);
  if (c.smemLayout == SharedLayout::Pad)
    os << "(" << c.smemPad << ")";
  os << ", prefetch = " << (c.regPrefetch ? "true" : "false");
  if (c.minBlocksPerSM > 0)
    os << ", occupancy = " << c.minBlocksPerSM;
  if (c.splitK > 1)
    os << ", split_k = " << c.splitK;
  os << ">";
  return os.str();
}

std::string mlir::tile::toShortString(const TileConfig &c) {
  std::ostringstream os;
  os << c.blockM << "x" << c.blockN << "x" << c.blockK << "/" << c.warpM
     << "x" << c.warpN << "/" << c.threadM << "x" << c.threadN << "/s"
     << c.stages << "/g" << c.swizzleGroup << "/"
     << stringifySharedLayout(c.smemLayout);
  if (c.smemLayout == SharedLayout::Pad)
    os << c.smemPad;
  os << (c.regPrefetch ? "/pf" : "/nopf");
  if (c.minBlocksPerSM > 0)
    os << "/o" << c.minBlocksPerSM;
  if (c.splitK > 1)
    os << "/sk" << c.splitK;
  return os.str();
}

bool mlir::tile::parseSharedLayout(const std::string &text,
                                   SharedLayout &layout, int64_t &pad) {
  if (text == "none" || text == "xor") {
    layout = text == "none" ? SharedLayout::None : SharedLayout::Xor;
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
