//===- TileLayout.h - where each block, warp and lane works -----*- C++ -*-===//
//
// The arithmetic of the tiling hierarchy as plain C++ (no MLIR): which tile
// of C each block of the swizzled launch order computes, where each warp's
// (or warpgroup's) tile lies in the block tile, where a lane's register
// tile lies in its warp tile (fma), and where a thread's accumulators lie in
// a wgmma instruction tile. The passes emit the same arithmetic as IR
// (tile-thread-tile takes its lane layout from here; the launch order is
// unit-tested against the IR tile-block-tile emits); the report's kernel
// picture draws it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_TILELAYOUT_H
#define TILE_ANALYSIS_TILELAYOUT_H

#include "tile/Analysis/SharedPlan.h"
#include "tile/Dialect/Tile/TileConfig.h"

#include <cstdint>

namespace mlir {
namespace tile {

/// Rows of one wgmma instruction tile (m64nNk16).
constexpr int64_t kWgmmaInstructionM = 64;

/// A (row, column) position.
struct TilePosition {
  int64_t row = 0, col = 0;
  bool operator==(const TilePosition &other) const {
    return row == other.row && col == other.col;
  }
};

/// (tile row, tile column) of the block with linear index `blockId` in a
/// grid of tilesM x tilesN tiles visited in groups of `group` tile rows
/// (Triton's GROUP_M order): consecutive block indices walk down a group's
/// rows first, then move one tile column right; the last group may have
/// fewer rows; a group larger than the grid is the whole grid. What
/// emitSwizzledTileIndex (Transforms/Utils.h) emits as IR.
TilePosition swizzledTileIndex(int64_t blockId, int64_t tilesM,
                               int64_t tilesN, int64_t group);

/// The block that computes tile `tile`: the inverse of swizzledTileIndex.
int64_t swizzledBlockId(TilePosition tile, int64_t tilesM, int64_t tilesN,
                        int64_t group);

/// Origin (row, column) in the block tile of the tile of warp `warp` (fma)
/// or consumer warpgroup `warp` (wgmma): rows (w / (BN/WN)) * WM, columns
/// (w mod (BN/WN)) * WN. What emitWarpOrigin emits as IR.
TilePosition warpTileOrigin(const TileConfig &config, int64_t warp);

/// fma: where a lane's TM x TN accumulators lie in its warp tile. The 32
/// lanes form an LM x LN grid (LM = WM/TM, LN = WN/TN), lane l at (l / LN,
/// l mod LN); its accumulators are (TM/VA) x (TN/VB) sub-tiles of VA x VB
/// spread over the warp tile at strides LM*VA (rows) and LN*VB (columns),
/// so each fragment load from shared memory is one VA- or VB-wide vector.
struct LaneLayout {
  int64_t threadM = 1, threadN = 1;
  /// Fragment vector widths (elements) of A and B.
  int64_t widthA = 1, widthB = 1;
  int64_t lanesM = 1, lanesN = 1;

  int64_t rowGroups() const { return threadM / widthA; }
  int64_t colGroups() const { return threadN / widthB; }
  /// Row of accumulator row `r` (0..TM-1), relative to the lane's origin.
  int64_t rowOffset(int64_t r) const {
    return (r / widthA) * lanesM * widthA + r % widthA;
  }
  /// Column of column group `j` (0..TN/VB-1), relative to the lane's origin.
  int64_t colOffset(int64_t j) const { return j * lanesN * widthB; }
  /// Column of accumulator column `c` (0..TN-1), relative to the origin.
  int64_t columnOffset(int64_t c) const {
    return colOffset(c / widthB) + c % widthB;
  }
  /// The origin of lane `lane` in its warp tile.
  TilePosition laneOrigin(int64_t lane) const {
    return {lane / lanesN * widthA, lane % lanesN * widthB};
  }
};

/// The lane layout of an fma `config` whose A tile has `plan`'s rows.
LaneLayout getLaneLayout(const TileConfig &config, const SharedPlan &plan);

/// wgmma: (row, column) in a 64 x N instruction tile of accumulator
/// register `reg` of warpgroup thread `thread` (0..127): for every 8-column
/// group j, rows 16 * (t / 32) + (t % 32) / 4 and 8 more, columns
/// 8j + 2 * (t % 4) and the next; register 4j + 2h + e holds row +8h,
/// column +e.
TilePosition wgmmaAccumulatorPosition(int64_t thread, int64_t reg);

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_TILELAYOUT_H
