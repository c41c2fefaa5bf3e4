//===- TuningTable.h - measured best configs by shape -----------*- C++ -*-===//
//
// A tuning table maps (chip, element type, M, N, K) to the config that was
// measured fastest. tile-configure consults it before the cost model: the
// exact shape, else the nearest measured shape of the same alignment class
// within a radius in log space (nearest()), else nothing. The
// tables built into tile-opt are tuning/h200-f32.json (fma configs),
// tuning/h200-bf16.json and tuning/h200-f16.json (wgmma configs) of the
// source tree, one per element type.
//
// Format:
//   {"chip": "sm_90", "element_type": "f32",
//    "entries": [{"m": 4096, "n": 4096, "k": 4096,
//                 "block": [128, 128, 8], "warp": [32, 64], "thread": [8, 8],
//                 "stages": 2, "swizzle": 8, "smem": "pad4", "prefetch": true,
//                 "occupancy": 2, "split_k": 1,
//                 ...any other keys (measurements) are ignored}]}
// An optional "model" object holds numbers for the cost model (its
// calibration: {"time_scale": 0.7, ...}); every value must be a number.
// stages, swizzle, smem, prefetch, occupancy and split_k may be omitted (then
// the #tile.config defaults apply); when present they must be well-typed. In a
// table of bf16 or f16 elements every entry is a wgmma config: its fields
// default to that strategy's (TileConfig::wgmmaDefaults), "warp" is the
// warpgroup tile, "thread" the instruction's [64, N], and "copy"
// ("tma"/"registers"), "specialize" and "repack" (true/false) may be given.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_TUNINGTABLE_H
#define TILE_ANALYSIS_TUNINGTABLE_H

#include "tile/Dialect/Tile/TileConfig.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tile {

class TuningTable {
public:
  struct Entry {
    int64_t m = 0, n = 0, k = 0;
    TileConfig config;
  };

  /// Parses a table; errors name the entry and field at fault.
  static llvm::Expected<TuningTable> parse(llvm::StringRef json);
  /// Reads and parses the file at `path`.
  static llvm::Expected<TuningTable> load(llvm::StringRef path);
  /// The table compiled into the library for `elementType` ("f32",
  /// "bf16"); an empty table for a type without one.
  static const TuningTable &builtin(llvm::StringRef elementType = "f32");

  /// The config for an exact shape match on this table's chip and element
  /// type.
  std::optional<TileConfig> lookup(llvm::StringRef chip,
                                   llvm::StringRef elementType, int64_t m,
                                   int64_t n, int64_t k) const;

  /// The entry nearest to M x N x K in log space on this table's chip and
  /// element type: the largest |ln(x / x')| over the three extents is the
  /// distance, and only entries within `radius` count (0.25: every extent
  /// within a factor of e^0.25 = 1.28). A neighbour must agree with the
  /// shape on the class of its rows of N and of K elements: for f32, whether
  /// they are multiples of 16 bytes (4 elements: the vector widths of the
  /// global copies and whether cp.async copies B rows in 16-byte pieces
  /// follow from it); for bf16 and f16, whether they are on the TMA's
  /// 128-byte lines (64 elements), on 16 bytes only (8: the TMA can read
  /// them in place, at a cost) or on neither (only repacked). The nearest
  /// wins; among equals the first listed.
  /// An exact match is at distance 0.
  struct Match {
    const Entry *entry = nullptr;
    double distance = 0;
  };
  /// The radius tile-configure uses: every extent within a factor of
  /// e^0.25 = 1.28 of the entry's.
  static constexpr double kDefaultRadius = 0.25;
  std::optional<Match> nearest(llvm::StringRef chip,
                               llvm::StringRef elementType, int64_t m,
                               int64_t n, int64_t k, double radius) const;
  /// The distance nearest() uses between two shapes.
  static double logDistance(int64_t m, int64_t n, int64_t k, int64_t m2,
                            int64_t n2, int64_t k2);

  /// A number of the table's optional "model" object (the cost model's
  /// calibration that `tile-tune fit` writes, e.g. "time_scale").
  std::optional<double> getModelParameter(llvm::StringRef key) const;
  const std::vector<std::pair<std::string, double>> &
  getModelParameters() const {
    return model;
  }

  const std::string &getChip() const { return chip; }
  const std::string &getElementType() const { return elementType; }
  const std::vector<Entry> &getEntries() const { return entries; }

private:
  std::string chip;
  std::string elementType;
  std::vector<Entry> entries;
  std::vector<std::pair<std::string, double>> model;
};

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_TUNINGTABLE_H
