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

/// Which instruction computes the tile: the strategy the passes follow.
enum class Strategy : uint8_t {
  /// FP32 FMAs on thread (register) tiles: warp tile -> lane tile.
  Fma,
  /// Hopper tensor cores: wgmma instruction tiles per warpgroup (sm_90a),
  /// operands read from 128-byte-swizzled shared memory.
  Wgmma,
};

/// How the tiles of A and B reach shared memory.
enum class CopyKind : uint8_t {
  /// Global loads into registers, then shared stores (by every thread, or by
  /// the producer warpgroup when specialized).
  Registers,
  /// cp.async: global to shared memory without registers (sm_80+).
  CpAsync,
  /// The TMA (bulk tensor copy engine, sm_90): one thread issues a whole
  /// box; completion is counted on an mbarrier.
  Tma,
};

/// Layout of the tiles in shared memory.
enum class SharedLayout : uint8_t {
  /// Rows of BM elements, nothing added.
  None,
  /// Each row padded by `smemPad` elements.
  Pad,
  /// 16-byte granules of each row XOR-swizzled with the row index.
  Xor,
  /// The 128-byte swizzle that the TMA writes and wgmma reads: in each
  /// 1024-byte atom of 8 rows of 128 bytes, 16-byte granule g of row r sits
  /// at granule g ^ (r % 8).
  Swizzle128,
};

const char *stringifyStrategy(Strategy strategy);
const char *stringifyCopyKind(CopyKind copy);
const char *stringifySharedLayout(SharedLayout layout);

/// Threads in a warp on every NVIDIA GPU this project targets.
constexpr int64_t kWarpSize = 32;
/// Threads in a warpgroup (4 warps), the unit that issues one wgmma.
constexpr int64_t kWarpgroupSize = 128;
/// Largest tile extent any config may name (keeps all products in range).
constexpr int64_t kMaxTileExtent = 1 << 16;

/// The tiling decision for one matmul. The same fields serve both
/// strategies: for Wgmma, `warpM x warpN` is the tile of one consumer
/// warpgroup and `threadM x threadN x mmaK` the shape of one wgmma
/// instruction (m64nNk16 for bf16/f16).
struct TileConfig {
  Strategy strategy = Strategy::Fma;
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
  /// With splitK > 1 and this above 0: only the last `splitLast` tiles of
  /// the launch order (of each matrix) are split; the others are computed
  /// whole, one block each, and add their product into C like a split.
  /// For a grid whose last wave would hold few tiles: the split tiles fill
  /// that wave with shorter blocks (Wgmma only). 0 = every tile is split.
  int64_t splitLast = 0;
  /// K extent of one instruction: 1 for FMAs, 16 for wgmma on bf16/f16.
  int64_t mmaK = 1;
  /// How A and B reach shared memory. For Fma it follows from `stages`
  /// (registers for 1 or 2, cp.async for 3 or more).
  CopyKind copy = CopyKind::Registers;
  /// Warp specialization: a producer warpgroup only issues the copies, the
  /// consumer warpgroups only compute (Wgmma only).
  bool specialize = false;
  /// Wgmma with copy = tma only: an A or B whose rows break the TMA's
  /// 16-byte rule (K or N not a multiple of 16 bytes of elements) is first
  /// copied by the runtime into a buffer whose rows are padded to 16 bytes
  /// (one strided device-to-device copy before the launch), and the TMA
  /// reads that copy. Operands with aligned rows are read in place.
  bool repack = false;
  /// A persistent kernel (Wgmma with specialize = true and copy = tma, no
  /// split-K): the grid holds at most as many blocks as fit on the chip at
  /// once, and each block walks the tiles of C (of every matrix of a batch)
  /// from its block id in steps of the grid, its TMA ring running on from
  /// tile to tile: the producer fills the next tile's slabs while the
  /// consumers store the last tile's C.
  bool persistent = false;
  /// A thread-block cluster of clusterM x clusterN blocks (Wgmma with
  /// specialize = true and copy = tma, no split-K; 1 x 1: no cluster). 2 x 1:
  /// the two blocks of a cluster compute vertically adjacent tiles of C,
  /// which read the same slab of B; each block's producer loads half of B's
  /// boxes (its 64-column chunks, or a box of half its rows where B is
  /// stored N x K) and the TMA multicasts them into both blocks' shared
  /// memory, so each block reads a third less from L2 (128x256x64 tiles).
  /// 1 x 2: horizontally adjacent tiles, which share A's slab the same way.
  int64_t clusterM = 1, clusterN = 1;
  /// C written by TMA stores (Wgmma with specialize = true and copy = tma,
  /// no split-K): each consumer warpgroup stages its accumulators, 64 rows
  /// by 128 bytes at a time, in two shared-memory buffers of its own
  /// (128-byte swizzled) and one thread writes each to C with a TMA store,
  /// which runs on while the warpgroup fills the other buffer (and, in a
  /// persistent kernel, after the last while it computes its next tile).
  /// false: the threads store C from their registers.
  bool tmaStore = false;

  /// The defaults of the Wgmma strategy: a 128x256x64 block of two 64x256
  /// consumer warpgroups with m64n256k16 instructions, a 4-slot TMA ring
  /// filled by a producer warpgroup, the 128-byte swizzle. For inputs of
  /// `elementBytes` bytes: block tile K is one 128-byte swizzled row (64
  /// bf16/f16 elements, 32 f32 ones computed as TF32) and the k step 32
  /// bytes (k16, k8 for TF32).
  static TileConfig wgmmaDefaults(int64_t elementBytes = 2);

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

  bool isWgmma() const { return strategy == Strategy::Wgmma; }
  /// How A and B reach shared memory (for Fma: what `stages` implies).
  CopyKind copyKind() const;
  /// Warps (Fma) or consumer warpgroups (Wgmma) along M and N in one block.
  int64_t warpsM() const { return blockM / warpM; }
  int64_t warpsN() const { return blockN / warpN; }
  /// Consumer warpgroups of a Wgmma block.
  int64_t numConsumers() const { return warpsM() * warpsN(); }
  /// Warps of one block: all of them compute for Fma; for Wgmma four per
  /// warpgroup, plus the producer's when specialized.
  int64_t numWarps() const {
    if (!isWgmma())
      return warpsM() * warpsN();
    return (numConsumers() + (specialize ? 1 : 0)) * kWarpgroupSize /
           kWarpSize;
  }
  int64_t numThreads() const { return numWarps() * kWarpSize; }
  /// Blocks of one cluster (1: no cluster).
  int64_t clusterSize() const { return clusterM * clusterN; }
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
/// Of one matrix's `tiles` tiles, how many have their K split among blocks:
/// none without a split of `k`, all of them at split_last 0, else the last
/// min(split_last, tiles).
int64_t splitTileCount(const TileConfig &config, int64_t tiles, int64_t k);
/// Blocks of one matrix's `tiles` tiles: one per tile and split, or with
/// split_last, one per whole tile and one per split of the last tiles.
int64_t blocksPerMatrix(const TileConfig &config, int64_t tiles, int64_t k);

/// Checks that the config describes a well-formed tiling, independent of any
/// problem shape or chip. Returns an empty string when it does, otherwise
/// the first rule broken, with the numbers (e.g. "warp tile M (48) does not
/// divide block tile M (128)").
std::string checkConsistency(const TileConfig &config);

/// The config in the attribute's syntax: #tile.config<block = [..], ...>.
std::string toString(const TileConfig &config);

/// The copy kind an Fma config with `stages` uses.
CopyKind fmaCopyKind(int64_t stages);

/// Parses a strategy ("fma", "wgmma") or copy kind ("registers",
/// "cp_async", "tma"); false if `text` is none of these.
bool parseStrategy(const std::string &text, Strategy &strategy);
bool parseCopyKind(const std::string &text, CopyKind &copy);

/// Parses a shared-memory layout as written in options and tuning tables:
/// "none", "xor", "swizzle128", or "pad<N>" / "padN" / "pad(N)". Returns
/// false if `text` is none of these.
bool parseSharedLayout(const std::string &text, SharedLayout &layout,
                       int64_t &pad);

/// The layout as parseSharedLayout reads it back ("none", "xor", "pad4").
std::string sharedLayoutToString(SharedLayout layout, int64_t pad);

/// A short form for tables: 128x128x8/32x64/8x8/s2/g8/pad4/pf (Fma);
/// wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8 (Wgmma).
std::string toShortString(const TileConfig &config);

/// For hashing a config (the attribute's storage key).
size_t hashValue(const TileConfig &config);
inline size_t hash_value(const TileConfig &config) { return hashValue(config); }

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TILECONFIG_H
