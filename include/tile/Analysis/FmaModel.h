//===- FmaModel.h - calibration and shape forms of the FP32 model -*- C++
//-*-===//
//
// The FP32 cost model's time terms and their calibration against
// measurements (tile-tune fit), and what a shape's kernel forms add to the
// register estimate (the occupancy hint). Declared apart from CostModel.h,
// which most passes include.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_FMAMODEL_H
#define TILE_ANALYSIS_FMAMODEL_H

#include "tile/Analysis/CostModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace mlir {
namespace tile {

/// The FP32 model's time terms for a config and shape, before the
/// calibration of FmaCalibration: compute (waves of blocks at the issue
/// model's rate), memory (DRAM and L2 traffic), the split-K atomics, and
/// the launch. All infinite when the config does not fit.
struct FmaTimeTerms {
  double compute = 0, memory = 0, atomics = 0, launch = 0;
  /// The schedule behind the terms: blocks on the busiest SM, how many of
  /// them are resident at once, K slices per block, warps per block.
  double blocksOnBusiestSM = 0, resident = 0, slices = 0, warpsPerBlock = 0;
  /// Whether the slices come through a cp.async ring (stages >= 3).
  bool ring = false;
  /// The memory term's parts: DRAM traffic and L2-to-SM tile traffic, in
  /// seconds (memory = max(dram, tile)).
  double dram = 0, tile = 0;
  /// C's row pieces: one per row of each block tile (M x N / blockN over
  /// the batch), over the DRAM bandwidth: seconds per byte that each piece
  /// costs beyond its own (FmaCalibration::cRowBytes).
  double cRowSecondsPerByte = 0;
  /// A and B's bytes over the bytes the active SMs keep in flight (the
  /// resident blocks' slices being copied: stages - 1 of them through a
  /// cp.async ring, one through registers): the time the loads take per
  /// second of load latency (FmaCalibration::loadLatencySeconds).
  double loadsPerLatency = 0;
  /// B's slice copies are single elements (or pairs) because its rows do
  /// not start on 16 bytes (row-major B with N not a multiple of 4, and no
  /// repacked copy): FmaCalibration::narrowCopyFactor.
  bool narrowB = false;
  /// The runtime's padded copy of B before the launch (repack = true), in
  /// seconds; 0 without one.
  double repack = 0;
};
FmaTimeTerms fmaTimeTerms(const TileConfig &config, const MatmulShape &shape,
                          const ChipInfo &chip);

/// Calibration of the FP32 model's predicted time against measurements:
///   seconds = timeScale * (max(computeScale * compute, memoryScale * memory',
///             loadLatencySeconds * loadsPerLatency) * ring * residency
///             * narrow + atomicsScale * atomics) + launchSeconds + repack
///   memory' = max(dram + cRowBytes * cRowSecondsPerByte, tile)
/// where ring is ringFactor for a config with a cp.async ring (stages >= 3)
/// and 1 otherwise, narrow is narrowCopyFactor where B's copies are narrow
/// (FmaTimeTerms::narrowB) and 1 otherwise, and residency is residencyFactor ^ log2(resident
/// blocks per SM). The numbers come from `tile-tune fit` over measured
/// kernels (tuning/h200-f32.json's "model" object, embedded at build
/// time); the defaults (all 1, the model's 4 us launch) leave the terms as
/// the model computes them. All but timeScale change the ranking.
struct FmaCalibration {
  double timeScale = 1, computeScale = 1, memoryScale = 1;
  double launchSeconds = 4e-6;
  double atomicsScale = 1, ringFactor = 1, residencyFactor = 1;
  /// DRAM bytes each row piece of a C tile costs beyond its own (partial
  /// bursts at its ends), and the load latency that bounds a kernel with
  /// few bytes in flight; 0 leaves both out.
  double cRowBytes = 0, loadLatencySeconds = 0;
  /// What copying B's slices in single elements or pairs (rows not on 16
  /// bytes) costs over 16-byte vectors, as a factor on the bound.
  double narrowCopyFactor = 1;
  /// The terms combined under this calibration.
  double seconds(const FmaTimeTerms &terms) const;
};
/// A calibration number and its key in a tuning table's "model" object.
struct FmaCalibrationField {
  const char *key;
  double FmaCalibration::*member;
};
/// Every number of FmaCalibration, in the order of their keys: what
/// builtinFmaCalibration() reads from the table and `tile-tune fit` writes.
const std::vector<FmaCalibrationField> &fmaCalibrationFields();

/// The calibration of the built-in f32 tuning table ("model"), or the
/// defaults when it has none.
const FmaCalibration &builtinFmaCalibration();

/// predictSeconds (CostModel.h, calibrated by builtinFmaCalibration()) under
/// another calibration (tile-tune fit).
double predictSeconds(const TileConfig &config, const MatmulShape &shape,
                      const ChipInfo &chip, const FmaCalibration &calibration);

/// One measured fma kernel for fitting a calibration: the model's terms of
/// its config and shape (fmaTimeTerms) and its measured time.
struct FmaFitPoint {
  FmaTimeTerms terms;
  double seconds = 0;
};

/// Mean squared log error of `calibration`'s times over `points` (so that
/// short and long kernels count alike); 0 for no points.
double fmaFitError(llvm::ArrayRef<FmaFitPoint> points,
                   const FmaCalibration &calibration);

/// Share of `points` whose time under `calibration` is within 20% of the
/// measured one.
double fmaWithin20(llvm::ArrayRef<FmaFitPoint> points,
                   const FmaCalibration &calibration);

/// The calibration that minimises fmaFitError over `points`: Nelder-Mead
/// over the logarithms of its nine numbers (timeScale stays 1; compute,
/// memory and atomics absorb `start`'s timeScale), from `start` (a number
/// `start` leaves at 0, cRowBytes or loadLatencySeconds, starts at 32 bytes
/// or 1 us). `start` itself when nothing fits better.
FmaCalibration fitFmaCalibration(llvm::ArrayRef<FmaFitPoint> points,
                                 const FmaCalibration &start);

/// Minimises `f` from `start` (Nelder-Mead: reflect, expand, contract,
/// shrink; initial steps of 0.5 along each coordinate, `iterationsPerDim`
/// iterations per dimension).
std::vector<double>
nelderMead(std::vector<double> start,
           llvm::function_ref<double(const std::vector<double> &)> f,
           int iterationsPerDim = 400);

/// Registers the kernel forms a shape needs add to evaluate()'s estimate
/// (which counts the interior, aligned kernel): bounds checks where the
/// shape leaves partial tiles (limits and predicates of the slice copy and
/// the C stores), and C's loads where the kernel accumulates into C; for
/// thread tiles of fewer than 64 FMAs (the estimate's overhead holds both
/// for larger ones).
int64_t shapeFormRegisters(const TileConfig &config, const MatmulShape &shape);

/// The occupancy hint for a config the compiler chose: the blocks per SM
/// the model predicts once shapeFormRegisters() is counted, so that the
/// register budget it implies holds what the kernel's forms add.
int64_t occupancyHintBlocks(const TileConfig &config, const MatmulShape &shape,
                            const ChipInfo &chip);

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_FMAMODEL_H
