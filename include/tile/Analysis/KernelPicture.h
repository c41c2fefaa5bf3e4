//===- KernelPicture.h - an SVG picture of a kernel's tiling ----*- C++ -*-===//
//
// Draws what a #tile.config makes of one matmul as an SVG document: the
// block tile split into warp tiles (warpgroup tiles for wgmma), a warp tile
// split among its lanes and one lane's register fragment (or a warpgroup
// tile split into wgmma instruction tiles and one instruction's accumulator
// layout), the shared-memory layout of A and B with the bank of every
// element, and the swizzled launch order as a grid of block ids.
// Everything is computed from the config, the problem and the shared plan
// (SharedPlan.h, TileLayout.h); the SVG is plain text. `tile-report
// svg-dir=DIR` writes one per kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_KERNELPICTURE_H
#define TILE_ANALYSIS_KERNELPICTURE_H

#include "tile/Dialect/Tile/TileConfig.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace tile {

/// The kernel a picture is of.
struct KernelPictureInput {
  /// The kernel's name (its gpu.func, or the one tile-block-tile gives it).
  std::string name;
  int64_t m = 1, n = 1, k = 1;
  /// Element type of A and B ("f32", "bf16", "f16") and its bytes; of C.
  std::string elementType = "f32";
  int64_t elementBytes = 4;
  std::string resultType = "f32";
  /// C = fill + A*B (true) or C += A*B.
  bool fill = false;
  /// A stored K x M, B stored N x K (the matmul reads them transposed).
  bool transposeA = false, transposeB = false;
  /// Blocks the chip runs at once (SMs x blocks per SM by the cost model),
  /// outlined in the launch order; 0 for none.
  int64_t blocksPerWave = 0;
};

/// Most stored rows of A and B the shared-memory map draws (a pattern of
/// the padding or the swizzle repeats every 8 rows), most elements of a row,
/// and most tile rows and columns of the launch-order grid.
constexpr int64_t kPictureSharedRows = 8;
constexpr int64_t kPictureRowElements = 136;
constexpr int64_t kPictureGridTiles = 16;

/// The picture of `kernel` under `config` as an SVG document.
std::string drawKernelPicture(const TileConfig &config,
                              const KernelPictureInput &kernel);

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_KERNELPICTURE_H
