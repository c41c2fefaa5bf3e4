//===- CostModelTest.cpp - the FP32 article's arithmetic ------------------===//
//
// The cost model must reproduce the numbers of the FP32 tiling article the
// project grew from, and say why a config does not fit.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/FmaModel.h"
#include "tile/Analysis/TuningTable.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mlir::tile;

namespace {

const ChipInfo &h200() {
  static const ChipInfo chip = *lookupChip("sm_90");
  return chip;
}

TileConfig config(int64_t blockM, int64_t blockN, int64_t blockK,
                  int64_t warpM, int64_t warpN, int64_t threadM,
                  int64_t threadN) {
  return TileConfig::withTiles(blockM, blockN, blockK, warpM, warpN, threadM,
                               threadN);
}

TEST(CostModel, ThreadTileRegistersFollowTheArticle) {
  // 8x8: 64 accumulators + 16 operands = 80; two operand sets: 96.
  EXPECT_EQ(threadTileRegisters(8, 8, /*prefetch=*/false), 80);
  EXPECT_EQ(threadTileRegisters(8, 8, /*prefetch=*/true), 96);
  // 8x16 with prefetch: 128 + 2*24 = 176; 16x16: 256 + 64 = 320 > 255.
  EXPECT_EQ(threadTileRegisters(8, 16, true), 176);
  EXPECT_EQ(threadTileRegisters(16, 16, true), 320);
  EXPECT_GT(threadTileRegisters(16, 16, true), h200().maxRegistersPerThread);
}

TEST(CostModel, IssueSlotEfficiencyFollowsTheArticle) {
  // 16 scalar LDS, 30-cycle latency, 64 FFMA: 64 / (16 + 22 + 64) = 63%.
  double without = issueSlotEfficiency(64, 8, 8, /*prefetch=*/false, 30);
  EXPECT_NEAR(without, 64.0 / 102.0, 1e-12);
  EXPECT_NEAR(without, 0.63, 0.005);
  // With prefetch the loads only take their issue slots: 64 / 80 = 80%.
  EXPECT_DOUBLE_EQ(issueSlotEfficiency(64, 8, 8, /*prefetch=*/true, 30), 0.8);
  // 16-byte loads (4 LDS.128 per step) leave fewer overhead slots.
  EXPECT_DOUBLE_EQ(issueSlotEfficiency(64, 2, 2, true, 30), 64.0 / 68.0);
  // A tiny tile cannot hide the latency even with prefetch.
  EXPECT_LT(issueSlotEfficiency(1, 1, 1, true, 30), 0.1);
}

TEST(CostModel, ThreadsPerBlockFollowTheArticle) {
  // A 128x128 block: 8x8 thread tiles -> 256 threads, 8x16 -> 128.
  EXPECT_EQ(config(128, 128, 8, 32, 64, 8, 8).numThreads(), 256);
  EXPECT_EQ(config(128, 128, 8, 32, 128, 8, 16).numThreads(), 128);
}

TEST(CostModel, ReferenceConfigOnH200) {
  TileConfig c = config(128, 128, 8, 32, 64, 8, 8);
  CostReport r = evaluate(c, h200());
  ASSERT_TRUE(r.fits) << r.whyNot;
  EXPECT_EQ(r.tileRegisters, 96);
  EXPECT_EQ(r.stagingRegisters, 8); // (128 + 128) * 8 / 256
  EXPECT_EQ(r.estimatedRegisters, 96 + 8 + 24);
  // Two buffers of [8][128 + 4] (A) and [8][128] (B) floats.
  EXPECT_EQ(r.sharedBytes, 2 * 8 * (132 + 128) * 4);
  // 128 registers x 256 threads: two blocks fill the 65536 registers.
  EXPECT_EQ(r.blocksPerSM, 2);
  EXPECT_EQ(r.warpsPerSM, 16);
  EXPECT_EQ(r.occupancyLimiter, "registers");
  EXPECT_DOUBLE_EQ(r.globalIntensity, 64.0);
  EXPECT_DOUBLE_EQ(r.sharedIntensity, 4.0); // the article's 4 FMAs per load
  EXPECT_EQ(r.sharedLoadsPerStep, 4);
  EXPECT_EQ(r.fmasPerStep, 64);
  EXPECT_NEAR(r.articleEfficiency, 0.8, 1e-12);
}

TEST(CostModel, SixteenBySixteenDoesNotFit) {
  TileConfig c = config(128, 128, 8, 64, 128, 16, 16);
  ASSERT_TRUE(checkConsistency(c).empty()) << checkConsistency(c);
  CostReport r = evaluate(c, h200());
  EXPECT_FALSE(r.fits);
  EXPECT_NE(r.whyNot.find("registers per thread"), std::string::npos)
      << r.whyNot;
  EXPECT_NE(r.whyNot.find("255"), std::string::npos) << r.whyNot;
}

// checkConsistency rejects a block of more than 1024 threads before the cost
// model sees it; the cost model says why too, for configs built in C++.
TEST(CostModel, TooManyThreadsDoesNotFit) {
  TileConfig c = config(256, 256, 8, 32, 32, 4, 8); // 64 warps
  CostReport r = evaluate(c, h200());
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.whyNot, "2048 threads per block, over the limit of 1024");
}

TEST(CostModel, SharedMemoryOverTheLimitDoesNotFit) {
  // One buffer (no staging registers) of [128][260] + [128][256] floats.
  TileConfig c = config(256, 256, 128, 64, 128, 8, 8);
  c.regPrefetch = false;
  c.stages = 1;
  CostReport r = evaluate(c, h200());
  EXPECT_FALSE(r.fits);
  EXPECT_NE(r.whyNot.find("bytes of shared memory"), std::string::npos)
      << r.whyNot;
  EXPECT_NE(r.whyNot.find("232448"), std::string::npos) << r.whyNot;
}

TEST(CostModel, FragmentVectorWidth) {
  EXPECT_EQ(fragmentVectorWidth(8, 132), 4);
  EXPECT_EQ(fragmentVectorWidth(8, 130), 2); // a row of 130 floats breaks 16B
  EXPECT_EQ(fragmentVectorWidth(6, 128), 2);
  EXPECT_EQ(fragmentVectorWidth(3, 128), 1);
}

TEST(CostModel, CandidatesAreValidAndFit) {
  MatmulShape shape{4096, 4096, 4096, 4};
  std::vector<TileConfig> candidates = candidateConfigs(shape, h200());
  ASSERT_FALSE(candidates.empty());
  for (const TileConfig &c : candidates) {
    EXPECT_TRUE(checkConsistency(c).empty()) << toString(c);
    EXPECT_TRUE(evaluate(c, h200()).fits) << toString(c);
    EXPECT_TRUE(hasRegisterHeadroom(c, h200())) << toString(c);
  }
  TileConfig chosen = defaultConfig(shape, h200());
  EXPECT_TRUE(evaluate(chosen, h200()).fits);
}

TEST(CostModel, CpAsyncStagesCarryAddressesNotValues) {
  // 128x256x8, 8x16 per lane, 256 threads: per slice 128 * 8 / 256 = 4
  // single-element A copies and 8 * 256 / 4 / 256 = 2 B vectors. Two stages
  // hold the (128 + 256) * 8 / 256 = 12 copied values in registers; a
  // cp.async ring holds a 64-bit address per copy instead, and each stage is
  // a whole slice of shared memory.
  TileConfig twoStages = config(128, 256, 8, 32, 128, 8, 16);
  TileConfig ring = twoStages;
  ring.stages = 3;
  CostReport two = evaluate(twoStages, h200());
  CostReport three = evaluate(ring, h200());
  ASSERT_TRUE(two.fits) << two.whyNot;
  ASSERT_TRUE(three.fits) << three.whyNot;
  EXPECT_EQ(two.stagingRegisters, 12);
  EXPECT_EQ(three.stagingRegisters, 2 * (4 + 2));
  EXPECT_EQ(three.sharedBytes, 3 * 8 * (132 + 256) * 4);
  // Copy instructions per thread and slice: two stages load 1 A vector and
  // store its 4 elements, and load and store 2 B vectors (9); the ring
  // issues 6 cp.async.
  EXPECT_EQ(two.sliceInstructions - three.sliceInstructions,
            (1 + 4 + 2 * 2) - 6);
}

TEST(CostModel, TransposedOperandsSwapTheirCopies) {
  // 128x256x8, 256 threads. A transposed A (K x M) is copied like B,
  // vectors along m: 128 * 8 / 4 / 256 = 1 cp.async; a transposed B (N x
  // K) like A, one element per cp.async: 8 * 256 / 256 = 8.
  TileConfig ring = config(128, 256, 8, 32, 128, 8, 16);
  ring.stages = 3;
  EXPECT_EQ(asyncCopiesPerThread(ring), 4 + 2);
  EXPECT_EQ(asyncCopiesPerThread(ring, /*transposeA=*/true, false), 1 + 2);
  EXPECT_EQ(asyncCopiesPerThread(ring, false, /*transposeB=*/true), 4 + 8);
  EXPECT_EQ(asyncCopiesPerThread(ring, true, true), 1 + 8);
  EXPECT_EQ(evaluate(ring, h200(), 4, false, true).stagingRegisters,
            2 * (4 + 8));
  // Two stages: the same values in registers, the copies' instructions
  // swapped (1 A vector loaded and stored, 2 B vectors each stored as 4
  // elements: 2 + 2 * 5 against 5 + 2 * 2).
  TileConfig two = config(128, 256, 8, 32, 128, 8, 16);
  CostReport plain = evaluate(two, h200());
  CostReport both = evaluate(two, h200(), 4, true, true);
  EXPECT_EQ(both.stagingRegisters, plain.stagingRegisters);
  EXPECT_EQ(both.sliceInstructions - plain.sliceInstructions,
            (2 + 2 * 5) - (5 + 2 * 2));
  // No cp.async ring for a transposed B, whose every element would be its
  // own copy.
  MatmulShape linear{4096, 4096, 4096, 4};
  linear.transposeB = true;
  for (const TileConfig &c : candidateConfigs(linear, h200()))
    EXPECT_LT(c.stages, 3) << toString(c);
}

TEST(CostModel, CpAsyncCandidatesNeedSixteenByteRowsOfB) {
  // A cp.async ring is a candidate where B's rows allow 16-byte copies
  // (N % 4 == 0); with N = 4097 every B element would be its own copy.
  auto hasRing = [](const std::vector<TileConfig> &configs) {
    return std::any_of(configs.begin(), configs.end(),
                       [](const TileConfig &c) { return c.stages >= 3; });
  };
  EXPECT_TRUE(hasRing(candidateConfigs({4096, 4096, 4096, 4}, h200())));
  // With N = 4097 every B element would be its own copy: no ring, and no
  // repacked twin either (B's padded copy is taken only when asked for).
  std::vector<TileConfig> odd = candidateConfigs({4095, 4097, 4093, 4}, h200());
  EXPECT_FALSE(hasRing(odd));
  EXPECT_TRUE(std::none_of(odd.begin(), odd.end(),
                           [](const TileConfig &c) { return c.repack; }));
}

TEST(FmaModel, NarrowCopiesAndRepackedB) {
  // B's rows off 16 bytes: its copies are narrow (the calibration's
  // narrow factor) unless the config repacks it, which costs the runtime's
  // copy of K x N elements instead.
  MatmulShape odd{2000, 3001, 1500, 4};
  TileConfig c = config(128, 128, 8, 32, 64, 8, 8);
  FmaTimeTerms narrow = fmaTimeTerms(c, odd, h200());
  EXPECT_TRUE(narrow.narrowB);
  EXPECT_EQ(narrow.repack, 0);
  TileConfig repacked = c;
  repacked.repack = true;
  FmaTimeTerms padded = fmaTimeTerms(repacked, odd, h200());
  EXPECT_FALSE(padded.narrowB);
  EXPECT_EQ(fmaRepackRowStride(odd), 3004);
  EXPECT_DOUBLE_EQ(padded.repack, fmaRepackSeconds(odd));
  // 5.3 us fixed, 0.7 ns a row, 2 x 1500 x 3001 x 4 bytes at 1.6 TB/s.
  EXPECT_NEAR(fmaRepackSeconds(odd),
              5.3e-6 + 1500 * 0.7e-9 + 2.0 * 1500 * 3001 * 4 / 1.6e12, 1e-12);
  FmaCalibration plain;
  plain.narrowCopyFactor = 1.25;
  double bound = std::max(narrow.compute, narrow.memory);
  EXPECT_DOUBLE_EQ(plain.seconds(narrow), bound * 1.25 + 4e-6);
  EXPECT_DOUBLE_EQ(plain.seconds(padded),
                   std::max(padded.compute, padded.memory) + 4e-6 +
                       padded.repack);
  // Not narrow, and nothing to repack, where N is a multiple of 4 or B is
  // transposed (the factor is for B's rows of N).
  EXPECT_FALSE(fmaTimeTerms(c, {2000, 3000, 1500, 4}, h200()).narrowB);
  MatmulShape transposed{2000, 3001, 1500, 4};
  transposed.transposeB = true;
  EXPECT_FALSE(fmaTimeTerms(c, transposed, h200()).narrowB);
  EXPECT_EQ(fmaRepackRowStride({2000, 3000, 1500, 4}), 0);
  EXPECT_EQ(fmaRepackRowStride(transposed), 0);
}

TEST(CostModel, RegisterHeadroom) {
  // 256 threads may use 255 registers: the 8x8 tile's estimate is far below.
  EXPECT_TRUE(hasRegisterHeadroom(config(128, 128, 8, 32, 64, 8, 8), h200()));
  // 512 threads share 65536 registers: 128 each, which the same thread tile
  // reaches once addresses and loop state are counted. It fits, but without
  // headroom (it spilled 16 bytes when the kernel also loads C).
  // An occupancy's cap is a budget, not a lack of room: the same tile with
  // occupancy = 2 (128 registers) keeps its headroom.
  TileConfig hinted = config(128, 128, 8, 32, 64, 8, 8);
  hinted.minBlocksPerSM = 2;
  EXPECT_TRUE(hasRegisterHeadroom(hinted, h200()));
  TileConfig big = config(256, 128, 8, 32, 64, 8, 8);
  EXPECT_TRUE(evaluate(big, h200()).fits);
  EXPECT_FALSE(hasRegisterHeadroom(big, h200()));
}

TEST(CostModel, PredictedOccupancyStillFits) {
  // tile-configure's occupancy hint sets a config's occupancy to the blocks
  // per SM the model predicts: the config must still fit with it.
  for (MatmulShape shape : {MatmulShape{4096, 4096, 4096, 4},
                            MatmulShape{16, 8192, 8192, 4},
                            MatmulShape{333, 517, 129, 4},
                            MatmulShape{127, 129, 255, 4}}) {
    for (TileConfig c : candidateConfigs(shape, h200())) {
      CostReport r = evaluate(c, h200());
      ASSERT_TRUE(r.fits) << toString(c);
      c.minBlocksPerSM = r.blocksPerSM;
      CostReport hinted = evaluate(c, h200());
      EXPECT_TRUE(hinted.fits) << toString(c) << ": " << hinted.whyNot;
      EXPECT_EQ(hinted.blocksPerSM, r.blocksPerSM) << toString(c);
    }
  }
}

TEST(CostModel, PredictionGrowsWithTheProblem) {
  TileConfig c = config(128, 128, 8, 32, 64, 8, 8);
  double small = predictSeconds(c, {1024, 1024, 1024, 4}, h200());
  double large = predictSeconds(c, {4096, 4096, 4096, 4}, h200());
  EXPECT_GT(large, 8 * small);
  // Model time never beats the FMA peak.
  double flops = 2.0 * 4096 * 4096 * 4096;
  EXPECT_GT(large, flops / h200().peakFlops());
}

TEST(CostModel, UnknownChip) { EXPECT_FALSE(lookupChip("sm_75").has_value()); }

} // namespace

namespace {

TEST(FmaModel, DefaultCalibrationIsTheModelsOwnSum) {
  // Without a fit the calibration leaves the terms as they are:
  // max(compute, memory) + atomics + the 4 us launch.
  TileConfig c = config(128, 128, 8, 32, 64, 8, 8);
  MatmulShape shape{4096, 4096, 4096, 4};
  FmaTimeTerms terms = fmaTimeTerms(c, shape, h200());
  FmaCalibration plain;
  EXPECT_DOUBLE_EQ(plain.seconds(terms), std::max(terms.compute, terms.memory) +
                                             terms.atomics + 4e-6);
  EXPECT_DOUBLE_EQ(predictSeconds(c, shape, h200(), plain),
                   plain.seconds(terms));
  // The built-in calibration is what predictSeconds uses.
  EXPECT_DOUBLE_EQ(predictSeconds(c, shape, h200()),
                   builtinFmaCalibration().seconds(terms));
  // Scales: a compute-bound kernel follows computeScale, not memoryScale.
  ASSERT_GT(terms.compute, 2 * terms.memory);
  FmaCalibration slower = plain;
  slower.computeScale = 0.5;
  slower.memoryScale = 3;
  EXPECT_DOUBLE_EQ(slower.seconds(terms),
                   std::max(0.5 * terms.compute, 3 * terms.memory) + 4e-6);
  // A config that does not fit has no finite terms or time.
  TileConfig huge = config(256, 256, 64, 64, 128, 16, 16);
  EXPECT_FALSE(std::isfinite(fmaTimeTerms(huge, shape, h200()).compute));
  EXPECT_FALSE(std::isfinite(predictSeconds(huge, shape, h200(), plain)));
}

TEST(FmaModel, RingResidencyAndAtomicsFactors) {
  // The terms say whether the slices come through a cp.async ring and how
  // many blocks are resident; the calibration's factors apply to exactly
  // those: the ring factor to stages >= 3, the residency factor once per
  // doubling of the resident blocks, the atomics scale to the split-K
  // atomics only.
  TileConfig two = config(64, 128, 8, 32, 64, 8, 8);
  two.minBlocksPerSM = 4;
  TileConfig ring = two;
  ring.stages = 3;
  MatmulShape shape{4096, 4096, 4096, 4};
  FmaTimeTerms twoTerms = fmaTimeTerms(two, shape, h200());
  FmaTimeTerms ringTerms = fmaTimeTerms(ring, shape, h200());
  EXPECT_FALSE(twoTerms.ring);
  EXPECT_TRUE(ringTerms.ring);
  EXPECT_EQ(twoTerms.resident, 4);
  EXPECT_EQ(twoTerms.warpsPerBlock, 4);
  EXPECT_EQ(twoTerms.slices, 4096 / 8);
  // 4096^2 / (64 * 128) = 2048 tiles over 132 SMs.
  EXPECT_EQ(twoTerms.blocksOnBusiestSM, 16);
  FmaCalibration plain;
  FmaCalibration fitted = plain;
  fitted.ringFactor = 0.8;
  fitted.residencyFactor = 0.9;
  fitted.atomicsScale = 0.25;
  double bound = std::max(twoTerms.compute, twoTerms.memory);
  // Four resident blocks: two doublings.
  EXPECT_DOUBLE_EQ(fitted.seconds(twoTerms), bound * 0.9 * 0.9 + 4e-6);
  double ringBound = std::max(ringTerms.compute, ringTerms.memory);
  EXPECT_DOUBLE_EQ(fitted.seconds(ringTerms),
                   ringBound * 0.8 * 0.9 * 0.9 + 4e-6);
  // One resident block: no residency factor.
  FmaTimeTerms one = twoTerms;
  one.resident = 1;
  EXPECT_DOUBLE_EQ(fitted.seconds(one), bound + 4e-6);
  // Split-K: only the atomics take the atomics scale.
  TileConfig split = config(64, 64, 16, 32, 32, 8, 4);
  split.splitK = 8;
  MatmulShape skinny{64, 64, 8192, 4};
  FmaTimeTerms splitTerms = fmaTimeTerms(split, skinny, h200());
  ASSERT_GT(splitTerms.atomics, 0);
  FmaCalibration atomicsOnly = plain;
  atomicsOnly.atomicsScale = 0.25;
  EXPECT_DOUBLE_EQ(atomicsOnly.seconds(splitTerms),
                   std::max(splitTerms.compute, splitTerms.memory) +
                       0.25 * splitTerms.atomics + 4e-6);
  // The built-in calibration reads every number from the table's model,
  // each under its own key, and fmaCalibrationFields() (what `tile-tune
  // fit` writes) names the same keys, in key order.
  const TuningTable &table = TuningTable::builtin("f32");
  const FmaCalibration &builtin = builtinFmaCalibration();
  std::vector<std::pair<std::string, double>> expected = {
      {"atomics_scale", builtin.atomicsScale},
      {"c_row_bytes", builtin.cRowBytes},
      {"compute_scale", builtin.computeScale},
      {"launch_seconds", builtin.launchSeconds},
      {"load_latency_seconds", builtin.loadLatencySeconds},
      {"memory_scale", builtin.memoryScale},
      {"narrow_copy_factor", builtin.narrowCopyFactor},
      {"residency_factor", builtin.residencyFactor},
      {"ring_factor", builtin.ringFactor},
      {"time_scale", builtin.timeScale}};
  for (const auto &[key, value] : expected) {
    std::optional<double> stored = table.getModelParameter(key);
    ASSERT_TRUE(stored.has_value()) << key;
    EXPECT_DOUBLE_EQ(*stored, value) << key;
  }
  const std::vector<FmaCalibrationField> &fields = fmaCalibrationFields();
  ASSERT_EQ(fields.size(), expected.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    EXPECT_EQ(fields[i].key, expected[i].first);
    EXPECT_DOUBLE_EQ(builtin.*fields[i].member, expected[i].second)
        << fields[i].key;
  }
}

TEST(FmaModel, CRowPiecesAndLoadLatency) {
  // C's row pieces: M x N / blockN of them. A K of 8 with large M and N
  // writes C and reads little: narrow tiles (more, shorter pieces) cost
  // more DRAM time once each piece costs extra bytes.
  MatmulShape flat{4096, 2048, 8, 4};
  TileConfig narrow = config(64, 32, 8, 32, 32, 8, 4);
  TileConfig wide = config(32, 128, 8, 32, 32, 8, 4);
  narrow.minBlocksPerSM = wide.minBlocksPerSM = 4;
  FmaTimeTerms narrowTerms = fmaTimeTerms(narrow, flat, h200());
  FmaTimeTerms wideTerms = fmaTimeTerms(wide, flat, h200());
  EXPECT_DOUBLE_EQ(narrowTerms.cRowSecondsPerByte,
                   4096.0 * 2048 / 32 / h200().dramBytesPerSecond);
  EXPECT_DOUBLE_EQ(wideTerms.cRowSecondsPerByte,
                   4096.0 * 2048 / 128 / h200().dramBytesPerSecond);
  EXPECT_DOUBLE_EQ(narrowTerms.dram, wideTerms.dram);
  EXPECT_DOUBLE_EQ(narrowTerms.memory,
                   std::max(narrowTerms.dram, narrowTerms.tile));
  FmaCalibration plain;
  FmaCalibration rows = plain;
  rows.cRowBytes = 48;
  // Without the row bytes both are memory-bound alike; with them the
  // narrow tile is slower, by its extra pieces.
  ASSERT_GT(narrowTerms.dram, narrowTerms.compute);
  ASSERT_GT(wideTerms.dram, wideTerms.compute);
  EXPECT_DOUBLE_EQ(plain.seconds(narrowTerms), plain.seconds(wideTerms));
  EXPECT_DOUBLE_EQ(rows.seconds(narrowTerms),
                   std::max(narrowTerms.dram +
                                48 * narrowTerms.cRowSecondsPerByte,
                            narrowTerms.tile) +
                       4e-6);
  EXPECT_GT(rows.seconds(narrowTerms), rows.seconds(wideTerms));

  // Loads per latency: A and B's bytes over the bytes in flight on the
  // active SMs. M = 2 (a matrix-vector product): 16x64x8 blocks, one
  // slice in flight through registers, two of a 3-stage ring.
  MatmulShape gemv{2, 5504, 6144, 4};
  TileConfig regs = config(16, 64, 8, 8, 32, 4, 2);
  regs.minBlocksPerSM = 8;
  TileConfig ring = regs;
  ring.stages = 3;
  FmaTimeTerms regsTerms = fmaTimeTerms(regs, gemv, h200());
  FmaTimeTerms ringTerms = fmaTimeTerms(ring, gemv, h200());
  // 5504 / 64 = 86 tiles: 86 active SMs, one block each.
  ASSERT_EQ(regsTerms.resident, 1);
  double bytes = (2.0 * 6144 + 6144.0 * 5504) * 4;
  EXPECT_DOUBLE_EQ(regsTerms.loadsPerLatency,
                   bytes / ((16 + 64) * 8 * 4 * 1 * 86.0));
  EXPECT_DOUBLE_EQ(ringTerms.loadsPerLatency,
                   bytes / ((16 + 64) * 8 * 4 * 2 * 86.0));
  FmaCalibration latency = plain;
  latency.loadLatencySeconds = 1e-6;
  // The latency bound is the largest term here.
  ASSERT_GT(1e-6 * regsTerms.loadsPerLatency,
            std::max(regsTerms.compute, regsTerms.memory));
  EXPECT_DOUBLE_EQ(latency.seconds(regsTerms),
                   1e-6 * regsTerms.loadsPerLatency + 4e-6);
  EXPECT_GT(latency.seconds(regsTerms), latency.seconds(ringTerms));
}

TEST(FmaModel, ShapeFormsAddRegistersToTheHint) {
  // The aligned, filled kernel is what evaluate() counts; partial tiles
  // (bounds checks) and an accumulating C add to it, and the hint's
  // blocks per SM count them.
  TileConfig c = config(64, 128, 16, 32, 32, 8, 4);
  MatmulShape aligned{1024, 1024, 1024, 4};
  aligned.readsC = false;
  MatmulShape edge = aligned;
  edge.m = 1021;
  MatmulShape kEdge = aligned;
  kEdge.k = 1023;
  MatmulShape acc = aligned;
  acc.readsC = true;
  EXPECT_EQ(shapeFormRegisters(c, aligned), 0);
  EXPECT_GT(shapeFormRegisters(c, edge), 0);
  EXPECT_EQ(shapeFormRegisters(c, kEdge), shapeFormRegisters(c, edge));
  EXPECT_GT(shapeFormRegisters(c, acc), 0);
  MatmulShape both = edge;
  both.readsC = true;
  EXPECT_EQ(shapeFormRegisters(c, both),
            shapeFormRegisters(c, edge) + shapeFormRegisters(c, acc));
  // The hint never exceeds the occupancy evaluate() predicts, and is that
  // occupancy for the aligned filled kernel.
  CostReport report = evaluate(c, h200());
  EXPECT_EQ(occupancyHintBlocks(c, aligned, h200()), report.blocksPerSM);
  for (const MatmulShape &s : {edge, acc, both})
    EXPECT_LE(occupancyHintBlocks(c, s, h200()), report.blocksPerSM);
  // 64x16x8 blocks of 4x2 tiles (the model's pick for the smallest
  // shapes): 20 + 5 + 24 = 49 registers estimated (56 allocated), 9 blocks
  // per SM; with the edge and accumulate forms 65 are counted (72
  // allocated), and the hint is 7 blocks.
  TileConfig small = config(64, 16, 8, 16, 16, 4, 2);
  MatmulShape tiny{14, 23, 27, 4};
  EXPECT_EQ(evaluate(small, h200()).estimatedRegisters, 49);
  EXPECT_EQ(evaluate(small, h200()).blocksPerSM, 9);
  EXPECT_EQ(shapeFormRegisters(small, tiny), 16);
  EXPECT_EQ(occupancyHintBlocks(small, tiny, h200()), 7);
  // 8x8 tiles: nothing added (the estimate's overhead holds the forms).
  TileConfig large = config(128, 128, 8, 32, 64, 8, 8);
  EXPECT_EQ(shapeFormRegisters(large, both), 0);
  EXPECT_EQ(occupancyHintBlocks(large, both, h200()),
            evaluate(large, h200()).blocksPerSM);
}

} // namespace

namespace {

TEST(FmaModel, ShortKTakesNoSliceLongerThanHalfOfIt) {
  // A K of one or two slices is unrolled whole and spilled (228x187x59 with
  // 32x32x64 blocks: 4.5 KB of spill stores); candidates keep BK <= K / 2,
  // or BK = 8.
  for (int64_t k : {1, 9, 31, 32, 59, 64}) {
    MatmulShape shape{228, 187, k, 4};
    std::vector<TileConfig> candidates = candidateConfigs(shape, h200());
    ASSERT_FALSE(candidates.empty()) << k;
    for (const TileConfig &c : candidates)
      EXPECT_TRUE(c.blockK == 8 || 2 * c.blockK <= k)
          << toShortString(c) << " for K = " << k;
  }
  // A long K keeps every slice length.
  std::vector<TileConfig> longK =
      candidateConfigs(MatmulShape{1024, 1024, 4096, 4}, h200());
  for (int64_t blockK : {8, 16, 32, 64})
    EXPECT_TRUE(
        std::any_of(longK.begin(), longK.end(),
                    [&](const TileConfig &c) { return c.blockK == blockK; }))
        << blockK;
  // The default pick obeys the same rule.
  EXPECT_LE(2 * defaultConfig(MatmulShape{228, 187, 59, 4}, h200()).blockK,
            59);
}

} // namespace

namespace {

TEST(FmaModel, ABatchCountsItsBlocksAndBytes) {
  // 64 matrices of 512x512x64: the blocks of every matrix share the SMs and
  // each matrix streams its own operands, so the batch's compute and memory
  // terms are those of one matrix times the waves and bytes it adds; a
  // batch of 1 is the plain matmul.
  TileConfig c = config(128, 128, 8, 32, 64, 8, 8);
  MatmulShape one{512, 512, 64, 4};
  MatmulShape batch = one;
  batch.batch = 64;
  FmaTimeTerms single = fmaTimeTerms(c, one, h200());
  FmaTimeTerms all = fmaTimeTerms(c, batch, h200());
  // The batch's 1024 tiles run like those of one 32768x512x64 matrix
  // (same tiles, same K); its bytes are 64 times one matrix's.
  FmaTimeTerms tall = fmaTimeTerms(c, MatmulShape{64 * 512, 512, 64, 4}, h200());
  EXPECT_DOUBLE_EQ(all.compute, tall.compute);
  EXPECT_GT(all.compute, single.compute);
  EXPECT_NEAR(all.memory / single.memory, 64.0, 1e-9);
  // Split-K is proposed where the tiles leave SMs idle: for one matrix of
  // 512x512x4096, not for 64 of them (1024 tiles fill the chip).
  MatmulShape deep{512, 512, 4096, 4};
  auto splits = [&](const MatmulShape &shape) {
    int64_t most = 1;
    for (const TileConfig &candidate : candidateConfigs(shape, h200()))
      most = std::max(most, candidate.splitK);
    return most;
  };
  EXPECT_GT(splits(deep), 1);
  deep.batch = 64;
  EXPECT_EQ(splits(deep), 1);
}

} // namespace

TEST(FmaFit, NelderMeadFindsAQuadraticsMinimum) {
  // A shifted, scaled bowl in four dimensions: its minimum, from far away.
  std::vector<double> best = nelderMead(
      {0, 0, 0, 0}, [](const std::vector<double> &x) {
        return (x[0] - 1.5) * (x[0] - 1.5) + 4 * (x[1] + 2) * (x[1] + 2) +
               0.25 * (x[2] - 3) * (x[2] - 3) + (x[3] - 0.1) * (x[3] - 0.1);
      });
  ASSERT_EQ(best.size(), 4u);
  EXPECT_NEAR(best[0], 1.5, 1e-4);
  EXPECT_NEAR(best[1], -2.0, 1e-4);
  EXPECT_NEAR(best[2], 3.0, 1e-4);
  EXPECT_NEAR(best[3], 0.1, 1e-4);
}

TEST(FmaFit, RecoversAKnownCalibrationFromItsOwnTimes) {
  // Times made by a known calibration for kernels that exercise each of its
  // numbers (compute- and memory-bound shapes, launch-bound tiny ones,
  // split-K atomics, cp.async rings, 1 to 8 resident blocks, narrow and
  // wide C tiles on memory-bound K-tiny shapes, matrix-vector shapes): the
  // fit from the built-in calibration predicts them again and finds every
  // number (memory_scale and c_row_bytes only apart with both widths of C
  // tile on memory-bound shapes).
  FmaCalibration truth;
  truth.computeScale = 1.4;
  truth.memoryScale = 2.5;
  truth.launchSeconds = 6e-6;
  truth.atomicsScale = 0.4;
  truth.ringFactor = 0.85;
  truth.residencyFactor = 0.93;
  truth.cRowBytes = 40;
  truth.loadLatencySeconds = 1.5e-6;
  std::vector<FmaFitPoint> points;
  // (Configs that cannot run, an occupancy whose register budget is too
  // small, have infinite terms and are left out, as tile-tune fit does.)
  auto add = [&](TileConfig c, MatmulShape shape) {
    FmaFitPoint p;
    p.terms = fmaTimeTerms(c, shape, h200());
    if (!std::isfinite(p.terms.compute))
      return;
    p.seconds = truth.seconds(p.terms);
    points.push_back(p);
  };
  std::vector<MatmulShape> shapes = {
      {4096, 4096, 4096, 4}, {2048, 1024, 512, 4}, {8, 8, 8, 4},
      {1, 16, 32, 4},        {300, 200, 7, 4},     {2, 5543, 6259, 4},
      {3000, 3, 2000, 4},    {777, 555, 333, 4},   {64, 64, 8192, 4},
      {8192, 64, 1024, 4},   {8192, 8192, 4, 4},   {4096, 6000, 16, 4}};
  for (const MatmulShape &shape : shapes)
    for (int64_t stages : {2, 3})
      for (int64_t occupancy : {1, 2, 4, 8}) {
        TileConfig big = config(128, 128, 8, 64, 32, 8, 8);
        TileConfig narrow = config(32, 16, 16, 16, 16, 4, 2);
        for (TileConfig c : {big, narrow}) {
          c.stages = stages;
          c.minBlocksPerSM = occupancy;
          add(c, shape);
        }
      }
  for (const MatmulShape &shape : {MatmulShape{64, 64, 8192, 4},
                                   MatmulShape{2, 5543, 6259, 4},
                                   MatmulShape{128, 256, 20000, 4}})
    for (int64_t splits : {2, 8, 32}) {
      TileConfig c = config(64, 64, 16, 32, 32, 8, 4);
      c.splitK = splits;
      add(c, shape);
    }
  ASSERT_GE(points.size(), 100u);
  // The built-in calibration does not predict them...
  EXPECT_GT(fmaFitError(points, builtinFmaCalibration()), 0.01);
  FmaCalibration fitted = fitFmaCalibration(points, builtinFmaCalibration());
  // ... the fitted one does: every time within 2%.
  EXPECT_LT(fmaFitError(points, fitted), 1e-4);
  EXPECT_DOUBLE_EQ(fmaWithin20(points, fitted), 1.0);
  for (const FmaFitPoint &p : points)
    EXPECT_NEAR(fitted.seconds(p.terms) / p.seconds, 1.0, 0.02);
  EXPECT_EQ(fitted.timeScale, 1);
  EXPECT_NEAR(fitted.computeScale, truth.computeScale, 0.05 * 1.4);
  EXPECT_NEAR(fitted.memoryScale, truth.memoryScale, 0.05 * 2.5);
  EXPECT_NEAR(fitted.launchSeconds, truth.launchSeconds, 0.05 * 6e-6);
  EXPECT_NEAR(fitted.atomicsScale, truth.atomicsScale, 0.05 * 0.4);
  EXPECT_NEAR(fitted.ringFactor, truth.ringFactor, 0.05);
  EXPECT_NEAR(fitted.residencyFactor, truth.residencyFactor, 0.05);
  EXPECT_NEAR(fitted.cRowBytes, truth.cRowBytes, 0.05 * 40);
  EXPECT_NEAR(fitted.loadLatencySeconds, truth.loadLatencySeconds,
              0.05 * 1.5e-6);
}

TEST(FmaFit, KeepsTheStartWhenNothingFitsBetter) {
  // Times the start predicts exactly: the fit returns it (no worse).
  FmaCalibration start = builtinFmaCalibration();
  std::vector<FmaFitPoint> points;
  for (MatmulShape shape : {MatmulShape{4096, 4096, 4096, 4},
                            MatmulShape{100, 200, 300, 4}}) {
    FmaFitPoint p;
    p.terms = fmaTimeTerms(config(128, 128, 8, 64, 32, 8, 8), shape, h200());
    p.seconds = start.seconds(p.terms);
    points.push_back(p);
  }
  FmaCalibration fitted = fitFmaCalibration(points, start);
  EXPECT_LE(fmaFitError(points, fitted), fmaFitError(points, start));
  EXPECT_LT(fmaFitError(points, fitted), 1e-12);
  EXPECT_EQ(fmaFitError({}, start), 0);
  EXPECT_EQ(fmaWithin20({}, start), 0);
}
