//===- TileLayout.cpp - where each block, warp and lane works -------------===//

#include "tile/Analysis/TileLayout.h"

#include "tile/Analysis/CostModel.h"

#include <algorithm>

using namespace mlir::tile;

TilePosition mlir::tile::swizzledTileIndex(int64_t blockId, int64_t tilesM,
                                           int64_t tilesN, int64_t group) {
  group = std::min(group, tilesM);
  int64_t tilesPerGroup = group * tilesN;
  int64_t firstRow = blockId / tilesPerGroup * group;
  int64_t groupRows = std::min(tilesM - firstRow, group);
  int64_t inGroup = blockId % tilesPerGroup;
  return {firstRow + inGroup % groupRows, inGroup / groupRows};
}

int64_t mlir::tile::swizzledBlockId(TilePosition tile, int64_t tilesM,
                                    int64_t tilesN, int64_t group) {
  group = std::min(group, tilesM);
  int64_t firstRow = tile.row / group * group;
  int64_t groupRows = std::min(tilesM - firstRow, group);
  return firstRow * tilesN + tile.col * groupRows + (tile.row - firstRow);
}

TilePosition mlir::tile::warpTileOrigin(const TileConfig &config,
                                        int64_t warp) {
  return {warp / config.warpsN() * config.warpM,
          warp % config.warpsN() * config.warpN};
}

LaneLayout mlir::tile::getLaneLayout(const TileConfig &config,
                                     const SharedPlan &plan) {
  LaneLayout layout;
  layout.threadM = config.threadM;
  layout.threadN = config.threadN;
  layout.widthA = fragmentVectorWidth(config.threadM, plan.rowElementsA);
  layout.widthB = fragmentVectorWidth(config.threadN, plan.rowElementsB);
  layout.lanesM = config.lanesM();
  layout.lanesN = config.lanesN();
  return layout;
}

TilePosition mlir::tile::wgmmaAccumulatorPosition(int64_t thread,
                                                  int64_t reg) {
  int64_t group = reg / 4, half = reg / 2 % 2, element = reg % 2;
  return {16 * (thread / 32) + thread % 32 / 4 + 8 * half,
          8 * group + 2 * (thread % 4) + element};
}
