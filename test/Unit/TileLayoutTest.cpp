//===- TileLayoutTest.cpp - warps, lanes, wgmma accumulators, launch order ===//

#include "tile/Analysis/TileLayout.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir::tile;

namespace {

TEST(TileLayout, WarpTileOrigins) {
  // 128x128 blocks of 32x64 warp tiles: 4 x 2 warps, row-major.
  TileConfig c;
  EXPECT_EQ(warpTileOrigin(c, 0), (TilePosition{0, 0}));
  EXPECT_EQ(warpTileOrigin(c, 1), (TilePosition{0, 64}));
  EXPECT_EQ(warpTileOrigin(c, 3), (TilePosition{32, 64}));
  EXPECT_EQ(warpTileOrigin(c, 6), (TilePosition{96, 0}));
}

TEST(TileLayout, LanesCoverTheWarpTileOnce) {
  // 32x64 warp tile, 8x8 thread tiles: lanes 4 x 8, sub-tiles of 4x4, 16
  // rows and 32 columns apart.
  TileConfig c;
  LaneLayout layout = getLaneLayout(c, getSharedPlan(c, 4));
  EXPECT_EQ(layout.widthA, 4);
  EXPECT_EQ(layout.widthB, 4);
  EXPECT_EQ(layout.lanesM, 4);
  EXPECT_EQ(layout.lanesN, 8);
  EXPECT_EQ(layout.laneOrigin(9), (TilePosition{4, 4}));
  EXPECT_EQ(layout.rowOffset(3), 3);
  EXPECT_EQ(layout.rowOffset(4), 16);
  EXPECT_EQ(layout.columnOffset(5), 33);
  std::set<std::pair<int64_t, int64_t>> seen;
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t r = 0; r < c.threadM; ++r)
      for (int64_t col = 0; col < c.threadN; ++col) {
        TilePosition origin = layout.laneOrigin(lane);
        int64_t row = origin.row + layout.rowOffset(r);
        int64_t column = origin.col + layout.columnOffset(col);
        ASSERT_LT(row, c.warpM);
        ASSERT_LT(column, c.warpN);
        ASSERT_TRUE(seen.insert({row, column}).second);
      }
  EXPECT_EQ(seen.size(), size_t(32 * 64));
  // A padded row of odd length allows only scalar A fragments.
  TileConfig odd = c;
  odd.smemPad = 1;
  EXPECT_EQ(getLaneLayout(odd, getSharedPlan(odd, 4)).widthA, 1);
}

TEST(TileLayout, WgmmaAccumulatorsCoverTheInstructionTileOnce) {
  std::set<std::pair<int64_t, int64_t>> seen;
  for (int64_t thread = 0; thread < 128; ++thread)
    for (int64_t reg = 0; reg < 128; ++reg) {
      TilePosition at = wgmmaAccumulatorPosition(thread, reg);
      ASSERT_LT(at.row, 64);
      ASSERT_LT(at.col, 256);
      ASSERT_TRUE(seen.insert({at.row, at.col}).second);
    }
  EXPECT_EQ(seen.size(), size_t(64 * 256));
  EXPECT_EQ(wgmmaAccumulatorPosition(0, 2), (TilePosition{8, 0}));
  EXPECT_EQ(wgmmaAccumulatorPosition(0, 5), (TilePosition{0, 9}));
  EXPECT_EQ(wgmmaAccumulatorPosition(37, 1), (TilePosition{17, 3}));
}

TEST(TileLayout, BlockIdIsTheInverseOfTheLaunchOrder) {
  for (int64_t tilesM : {1, 3, 8, 10, 33})
    for (int64_t tilesN : {1, 4, 13})
      for (int64_t group : {1, 3, 4, 8, 1000})
        for (int64_t pid = 0; pid < tilesM * tilesN; ++pid)
          ASSERT_EQ(swizzledBlockId(swizzledTileIndex(pid, tilesM, tilesN,
                                                      group),
                                    tilesM, tilesN, group),
                    pid);
  // 10 tile rows in groups of 4, 3 columns: the partial group's rows.
  EXPECT_EQ(swizzledBlockId({9, 2}, 10, 3, 4), 29);
  EXPECT_EQ(swizzledBlockId({0, 1}, 10, 3, 4), 4);
}

} // namespace
