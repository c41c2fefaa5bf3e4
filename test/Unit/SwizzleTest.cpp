//===- SwizzleTest.cpp - the launch order is a bijection ------------------===//
//
// Builds the swizzled (tile row, tile column) computation that
// tile-block-tile emits, with constant block indices so that it folds, and
// checks over many grids and group sizes (full and partial last groups) that
// every tile is visited exactly once and that the order is the grouped one.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/TileLayout.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::tile;

namespace {

class SwizzleTest : public ::testing::Test {
protected:
  SwizzleTest() {
    context.loadDialect<arith::ArithDialect>();
    module = ModuleOp::create(UnknownLoc::get(&context));
  }
  ~SwizzleTest() override { module->erase(); }

  /// The (row, col) the emitted IR computes for block `pid`.
  std::pair<int64_t, int64_t> tileOf(int64_t pid, int64_t tilesM,
                                     int64_t tilesN, int64_t group) {
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Location loc = b.getUnknownLoc();
    Value blockId = constIndex(b, loc, pid);
    auto [row, col] =
        emitSwizzledTileIndex(b, loc, blockId, tilesM, tilesN, group);
    std::optional<int64_t> r = getConstantIntValue(row);
    std::optional<int64_t> c = getConstantIntValue(col);
    EXPECT_TRUE(r && c) << "the swizzle did not fold to constants";
    module.getBody()->clear();
    return {r.value_or(-1), c.value_or(-1)};
  }

  MLIRContext context;
  ModuleOp module;
};

TEST_F(SwizzleTest, BijectionForEveryGridAndGroup) {
  for (int64_t tilesM : {1, 2, 3, 7, 8, 9, 16, 33})
    for (int64_t tilesN : {1, 2, 5, 8, 13})
      for (int64_t group : {1, 2, 3, 4, 8, 64}) {
        std::set<std::pair<int64_t, int64_t>> seen;
        for (int64_t pid = 0; pid < tilesM * tilesN; ++pid) {
          auto [row, col] = tileOf(pid, tilesM, tilesN, group);
          ASSERT_GE(row, 0);
          ASSERT_LT(row, tilesM);
          ASSERT_GE(col, 0);
          ASSERT_LT(col, tilesN);
          ASSERT_TRUE(seen.insert({row, col}).second)
              << "tile (" << row << ", " << col << ") visited twice, grid "
              << tilesM << "x" << tilesN << " group " << group;
        }
        EXPECT_EQ(static_cast<int64_t>(seen.size()), tilesM * tilesN);
      }
}

// A group larger than the grid (swizzle = 2^63 - 1 in a config) is the whole
// grid: the same order as a group of tilesM rows, and no overflow of
// group * tilesN (found with the fuzzer's extreme values, as
// UndefinedBehaviorSanitizer's signed overflow in tile-block-tile).
// The plain computation (Analysis/TileLayout.h: the report's picture of the
// launch order) gives the tile the emitted IR computes, block for block.
TEST_F(SwizzleTest, PlainOrderMatchesTheEmittedIR) {
  for (int64_t tilesM : {1, 3, 8, 9, 33})
    for (int64_t tilesN : {1, 5, 13})
      for (int64_t group : {1, 3, 8, 64})
        for (int64_t pid = 0; pid < tilesM * tilesN; ++pid) {
          TilePosition plain = swizzledTileIndex(pid, tilesM, tilesN, group);
          ASSERT_EQ(tileOf(pid, tilesM, tilesN, group),
                    std::make_pair(plain.row, plain.col))
              << "block " << pid << ", grid " << tilesM << "x" << tilesN
              << ", group " << group;
        }
  int64_t huge = std::numeric_limits<int64_t>::max();
  TilePosition last = swizzledTileIndex(34, 5, 7, huge);
  EXPECT_EQ(tileOf(34, 5, 7, huge), std::make_pair(last.row, last.col));
}

TEST_F(SwizzleTest, HugeGroupIsTheWholeGrid) {
  int64_t huge = std::numeric_limits<int64_t>::max();
  for (int64_t pid = 0; pid < 5 * 7; ++pid)
    EXPECT_EQ(tileOf(pid, 5, 7, huge), tileOf(pid, 5, 7, 5)) << pid;
}

TEST_F(SwizzleTest, GroupOfOneIsRowMajor) {
  for (int64_t pid = 0; pid < 12; ++pid)
    EXPECT_EQ(tileOf(pid, 3, 4, 1), std::make_pair(pid / 4, pid % 4));
}

TEST_F(SwizzleTest, GroupsWalkDownTheirRowsFirst) {
  // 10 tile rows in groups of 4: rows 0-3, 4-7, then a partial group 8-9.
  int64_t tilesM = 10, tilesN = 3, group = 4;
  EXPECT_EQ(tileOf(0, tilesM, tilesN, group), std::make_pair(int64_t(0), int64_t(0)));
  EXPECT_EQ(tileOf(1, tilesM, tilesN, group), std::make_pair(int64_t(1), int64_t(0)));
  EXPECT_EQ(tileOf(3, tilesM, tilesN, group), std::make_pair(int64_t(3), int64_t(0)));
  EXPECT_EQ(tileOf(4, tilesM, tilesN, group), std::make_pair(int64_t(0), int64_t(1)));
  EXPECT_EQ(tileOf(12, tilesM, tilesN, group), std::make_pair(int64_t(4), int64_t(0)));
  // The partial group has 2 rows.
  EXPECT_EQ(tileOf(24, tilesM, tilesN, group), std::make_pair(int64_t(8), int64_t(0)));
  EXPECT_EQ(tileOf(25, tilesM, tilesN, group), std::make_pair(int64_t(9), int64_t(0)));
  EXPECT_EQ(tileOf(26, tilesM, tilesN, group), std::make_pair(int64_t(8), int64_t(1)));
  EXPECT_EQ(tileOf(29, tilesM, tilesN, group), std::make_pair(int64_t(9), int64_t(2)));
}

} // namespace
