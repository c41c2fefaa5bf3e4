//===- TileConfig.h - the tiling decision as plain C++ ----------*- C++ -*-===//
//
// The fields of #tile.config as a plain struct, with the consistency rules
// that the attribute's verifier applies. No MLIR dependency: the cost model,
// the tuner and unit tests use it directly.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TILECONFIG_H
#define TILE_DIALECT_TILE_TILECONFIG_H

#include <array>
#include <cstdint>
#include <string>

namespace mlir {
namespace tile {

/// Layout of the k-major A tile in shared memory.
enum class SharedLayout : uint8_t {
  /// Rows of BM elements, nothing added.
  None,
  /// Each row padded by `smemPad` elements.
  Pad,
  /// 16-byte granules of each row XOR-swizzled with the row index.
  Xor,
};

const char *stringifySharedLayout(SharedLayout layout);

/// Threads in a warp on every NVIDIA GPU this project targets.
constexpr int64_t kWarpSize = 32;
/// Largest tile extent any config may name (keeps all products in range).
constexpr int64_t kMaxTileExtent = 1 << 16;

struct TileConfig {
  int64_t blockM = 128, blockN = 128, blockK = 8;
  int64_t warpM = 32, warpN = 64;
  int64_t threadM = 8, threadN = 8;
  int64_t stages = 2;
  int64_t swizzleGroup = 8;
  SharedLayout smemLayout = SharedLayout::Pad;
  int64_t smemPad = 4;
  bool regPrefetch = true;
  /// Blocks per SM the kernel must fit (nvvm.minctasm: ptxas then caps the
  /// registers per thread at 65536 / (blocks * threads)); 0 = no hint.
  int64_t minBlocksPerSM = 0;
  /// Split-K: the K dimension is divided among this many blocks per tile of
  /// C, which add their partial products into C atomically; 1 = no split.
  int64_t splitK = 1;

  /// A config with these tile sizes and every other field at its default.
  static TileConfig withTiles(int64_t blockM, int64_t blockN, int64_t blockK,
                              int64_t warpM, int64_t warpN, int64_t threadM,
                              int64_t threadN) {
    TileConfig c;
    c.setBlock(blockM, blockN, blockK);
    c.setWarp(warpM, warpN);
    c.setThread(threadM, threadN);
    return c;
  }
  void setBlock(int64_t m, int64_t n, int64_t k) {
    blockM = m;
    blockN = n;
    blockK = k;
  }
  void setWarp(int64_t m, int64_t n) {
    warpM = m;
    warpN = n;
  }
  void setThread(int64_t m, int64_t n) {
    threadM = m;
    threadN = n;
  }
  /// Block M, N, K, warp M, N and thread M, N, for comparing tile sizes.
  std::array<int64_t, 7> tileSizes() const {
    return {blockM, blockN, blockK, warpM, warpN, threadM, threadN};
  }

  int64_t warpsM() const { return blockM / warpM; }
  int64_t warpsN() const { return blockN / warpN; }
  int64_t numWarps() const { return warpsM() * warpsN(); }
  int64_t numThreads() const { return numWarps() * kWarpSize; }
  int64_t lanesM() const { return warpM / threadM; }
  int64_t lanesN() const { return warpN / threadN; }

  bool operator==(const TileConfig &other) const;
  bool operator!=(const TileConfig &other) const { return !(*this == other); }
};

/// K extent one split of `k` covers: ceil(k / splitK) rounded up to whole
/// K slices of the block tile.
int64_t splitKChunk(const TileConfig &config, int64_t k);
/// Splits that have work for `k` (fewer than splitK when k is short).
int64_t numSplits(const TileConfig &config, int64_t k);

/// Checks that the config describes a well-formed tiling, independent of any
/// problem shape or chip. Returns an empty string when it does, otherwise
/// the first rule broken, with the numbers (e.g. "warp tile M (48) does not
/// divide block tile M (128)").
std::string checkConsistency(const TileConfig &config);

/// The config in the attribute's syntax: #tile.config<block = [..], ...>.
std::string toString(const TileConfig &config);

/// Parses a shared-memory layout as written in options and tuning tables:
/// "none", "xor", or "pad<N>" / "padN" / "pad(N)". Returns false if `text`
/// is none of these.
bool parseSharedLayout(const std::string &text, SharedLayout &layout,
                       int64_t &pad);

/// The layout as parseSharedLayout reads it back ("none", "xor", "pad4").
std::string sharedLayoutToString(SharedLayout layout, int64_t pad);

/// A short form for tables: 128x128x8/32x64/8x8/s2/g8/pad4/pf.
std::string toShortString(const TileConfig &config);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TILECONFIG_H
