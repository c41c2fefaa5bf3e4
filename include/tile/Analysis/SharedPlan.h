//===- SharedPlan.h - where a kernel's tiles live in shared memory -*- C++ -*-===//
//
// The one computation of a kernel's shared-memory layout: each operand's
// tile layout (padding, 128-byte swizzle), alignment, bytes per stage, the
// order of the buffers (double buffering, a cp.async ring, an mbarrier
// ring), the TMA boxes that fill them, and the total a block requests. The
// passes that build the buffers, the cost model, the report and export all
// read it from here. Plain C++, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_SHAREDPLAN_H
#define TILE_ANALYSIS_SHAREDPLAN_H

#include "tile/Dialect/Tile/TileConfig.h"

#include <cstdint>
#include <string>
#include <utility>

namespace mlir {
namespace tile {

/// Bytes of one row of the 128-byte swizzle, and of one swizzle atom (8
/// rows): TMA writes and wgmma reads 128-byte-swizzled tiles whose atoms
/// start at 1024-byte-aligned addresses.
constexpr int64_t kSwizzleRowBytes = 128;
constexpr int64_t kSwizzleAtomBytes = 1024;
/// Bytes of one staging buffer of a TMA store (config store = tma): 64
/// rows of C by one 128-byte swizzle row, whatever C's element type.
constexpr int64_t kStagingRows = 64;
constexpr int64_t kStagingBytes = kStagingRows * kSwizzleRowBytes;
/// Bytes of one mbarrier.
constexpr int64_t kMbarrierBytes = 8;
/// Shared memory is 32 banks of 4 bytes: byte b is in bank (b / 4) % 32.
constexpr int64_t kSharedBanks = 32;
constexpr int64_t kSharedBankBytes = 4;

/// The bank of the shared-memory byte at `byteOffset` from a 128-byte
/// aligned base (every plan's buffers start on one).
inline int64_t sharedBank(int64_t byteOffset) {
  return byteOffset / kSharedBankBytes % kSharedBanks;
}

/// Byte offset, within a 128-byte-swizzled tile whose rows are 128 bytes
/// long, of byte `byteInRow` of row `row`: 16-byte granule g of row r is
/// stored at granule g ^ (r % 8) of the same row.
int64_t swizzle128Offset(int64_t row, int64_t byteInRow);

/// One TMA box: `rows` x `cols` elements of an operand, innermost (cols)
/// first in the tensor map.
struct TmaBox {
  int64_t rows = 0, cols = 0;
};

/// Which inputs of a matmul are stored transposed: A as K x M, B as N x K.
struct StoredTransposes {
  bool a = false, b = false;
};

/// One operand's slab in a wgmma slot, indexed (mn, k): (m, k) of A, (n, k)
/// of B. Every row is 128 bytes, 128-byte swizzled. K-major (A stored
/// M x K, B stored N x K): `rows` rows, one per mn, of BK elements.
/// MN-major (A stored K x M, B stored K x N): `chunks` chunks of
/// `rowElements` (128 bytes) mn each, every chunk BK rows (one per k),
/// `chunkBytes` apart. wgmma reads K-major operands with imm-trans 0 and
/// MN-major ones with imm-trans 1; the TMA fills a K-major slab with one
/// box of rows x BK and an MN-major one with a box of BK x rowElements per
/// chunk.
struct SlabOperand {
  bool mnMajor = false;
  int64_t rows = 0, rowElements = 0, chunks = 1, chunkBytes = 0;
  int64_t elementBytes = 2;
  /// Row and column of element (mn, k) in the slab seen as
  /// [chunks * rows][rowElements], before the swizzle (which permutes the
  /// 16-byte granules of each row).
  std::pair<int64_t, int64_t> position(int64_t mn, int64_t k) const;
  /// Byte offset of element (mn, k) from the slab's start before the
  /// swizzle: what a matrix descriptor's start address adds to reach it.
  int64_t linearOffset(int64_t mn, int64_t k) const;
  /// Byte offset of element (mn, k) as stored (the swizzle applied).
  int64_t offset(int64_t mn, int64_t k) const;
};

struct SharedPlan {
  SharedLayout layout = SharedLayout::None;
  int64_t elementBytes = 4;
  /// Buffers of each operand: 1 (one stage), 2 (double buffering) or the
  /// ring's slots.
  int64_t buffers = 1;
  /// Slot order: true when stage s is [A_s][B_s] at s * stageBytes (a
  /// cp.async or mbarrier ring); false for [A_0][A_1][B_0][B_1] (double
  /// buffering).
  bool interleaved = false;
  /// Alignment of every buffer: 16 bytes, or a swizzle atom (1024).
  int64_t alignment = 16;

  // The tile of A.
  /// fma: k-major [BK][BM + pad]; wgmma: BM rows of BK elements (K-major),
  /// 128-byte swizzled, one chunk; wgmma with A transposed (stored K x M):
  /// like B, BM / 64 chunks of BK rows of 64 elements (M-major), each
  /// 128-byte swizzled, `chunkBytesA` apart (`transposedA`).
  bool transposedA = false;
  int64_t rowsA = 0, rowElementsA = 0;
  int64_t chunksA = 1, chunkBytesA = 0;
  int64_t bytesA = 0;
  // The tile of B.
  /// fma: [BK][BN], or [BK][BN + pad] for a B stored N x K (its copy
  /// transposes it into the tile, as A's does); wgmma: BN / 64 chunks of
  /// BK rows of 64 elements (N-major), each 128-byte swizzled,
  /// `chunkBytesB` apart; wgmma with B
  /// transposed (stored N x K): like A, BN rows of BK elements (K-major),
  /// 128-byte swizzled, one chunk (`transposedB`).
  bool transposedB = false;
  int64_t rowsB = 0, rowElementsB = 0;
  int64_t chunksB = 1, chunkBytesB = 0;
  int64_t bytesB = 0;
  /// Bytes of one stage (the A and B tiles, each aligned).
  int64_t stageBytes = 0;
  /// wgmma with store = tma: the staging buffers of C (two per consumer
  /// warpgroup, kStagingBytes each, after the ring); 0 otherwise.
  int64_t stagingBuffers = 0;

  /// wgmma: the bytes the block rounds its dynamic shared base up by at run
  /// time to reach a 1024-byte boundary (the launch requests them too).
  int64_t alignmentSlack = 0;
  /// wgmma: the ring's mbarriers ("full" and "empty" per slot), in static
  /// shared memory.
  int64_t barrierBytes = 0;
  /// Dynamic shared memory per block (what the launch requests).
  int64_t dynamicBytes = 0;
  /// Everything the block takes (dynamic + static), checked against the
  /// chip's per-block limit.
  int64_t totalBytes = 0;

  /// TMA boxes of one stage: `boxesA` boxes of A, `boxesB` boxes of B (one
  /// per chunk of an MN-major slab; one for a K-major slab, or one per
  /// block of a cluster that shares it, each a part of its rows).
  TmaBox boxA, boxB;
  int64_t boxesA = 1, boxesB = 1;

  /// wgmma: the slabs of A and B as stored (in each buffer).
  SlabOperand slabA() const;
  SlabOperand slabB() const;

  /// Byte offsets (from the aligned base) of buffer `index` of A and B.
  int64_t offsetA(int64_t index) const;
  int64_t offsetB(int64_t index) const;
  /// Byte offset (from the aligned base) of staging buffer `index` (0 or
  /// 1) of consumer warpgroup `warpgroup`.
  int64_t offsetStaging(int64_t warpgroup, int64_t index) const;

  /// Byte offset, from the start of a buffer of A, of the tile's element in
  /// row `row`, column `col`: for fma stored row k, column m (k-major, rows
  /// of rowElementsA with the padding); for wgmma element (m, k) of the
  /// slab wherever slabA() stores it, the 128-byte swizzle applied. Under
  /// the XOR layout 16-byte granule g of row r is stored at granule
  /// g ^ (r mod granules per row).
  int64_t elementOffsetA(int64_t row, int64_t col) const;
  /// The same for B, row k, column n: fma rows of rowElementsB elements
  /// (BN, plus the pad for a B stored N x K); wgmma
  /// element (k, n) wherever slabB() stores it (column n in chunk n / 64,
  /// or row n of a transposed B).
  int64_t elementOffsetB(int64_t row, int64_t col) const;
};

/// The plan for `config` with elements of `elementBytes` bytes. For a wgmma
/// config, a transposed B (stored N x K) is laid out K-major like A (one
/// TMA box of BN x BK) and a transposed A (stored K x M) M-major like B (a
/// box of BK x 64 per chunk): the same bytes, another order. In the fma
/// plan a B stored N x K gets A's pad (its rows are stored down the tile's
/// columns, as A's are).
SharedPlan getSharedPlan(const TileConfig &config, int64_t elementBytes,
                         StoredTransposes stored = {});

/// Non-empty when the wgmma `config` cannot hold elements of
/// `elementBytes` bytes (a 128-byte swizzle row is BK elements; B chunks
/// are 64 columns): the first rule broken, with the numbers.
std::string checkWgmmaElementBytes(const TileConfig &config,
                                   int64_t elementBytes);

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_SHAREDPLAN_H
