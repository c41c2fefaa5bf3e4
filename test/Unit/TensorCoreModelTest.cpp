//===- TensorCoreModelTest.cpp - the wgmma strategy's cost model ----------===//
//
// The tensor-core model must reproduce the tiling article's traffic and
// shared-memory figures, predict the H200 measurements of the 128x256x64
// kernel within a stated factor, choose sensible configs for small, skinny
// and unaligned shapes, and only ever propose configs that follow the rules.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/SharedPlan.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::tile;

namespace {

const ChipInfo &h200() {
  static const ChipInfo chip = *lookupChip("sm_90");
  return chip;
}

MatmulShape bf16(int64_t m, int64_t n, int64_t k) {
  MatmulShape s{m, n, k, 2};
  s.resultBytes = 4;
  s.readsC = false; // the benchmark's form: C = 0 + A*B, C f32
  return s;
}

/// The kernel measured on the H200: 128x256x64, two 64x256 consumer
/// warpgroups, m64n256k16, 4 stages, specialized, the TMA where rows allow.
TileConfig measured(const MatmulShape &shape) {
  TileConfig c = TileConfig::wgmmaDefaults();
  c.copy = tmaRowsAligned(shape) ? CopyKind::Tma : CopyKind::Registers;
  return c;
}

TEST(TensorCoreModel, ArticleTrafficTable) {
  // Seed 004: an N = 8192 bf16 matmul moves (2 n^2 (n/t) + n^2) * 2 bytes
  // with t x t tiles: 137.6 / 68.9 / 34.5 / 17.3 / 8.7 GB for t = 16..256.
  MatmulShape s{8192, 8192, 8192, 2};
  s.resultBytes = 2;
  s.readsC = false;
  const std::pair<int64_t, double> table[] = {
      {16, 137.6}, {32, 68.9}, {64, 34.5}, {128, 17.3}, {256, 8.7}};
  for (auto [t, gigabytes] : table) {
    double bytes = matmulTrafficBytes(s, t, t);
    double n = 8192;
    EXPECT_DOUBLE_EQ(bytes, (2 * n * n * (n / t) + n * n) * 2) << t;
    EXPECT_NEAR(bytes / 1e9, gigabytes, 0.05) << t;
  }
  // C read as well (C += A*B) adds one more pass over C.
  s.readsC = true;
  EXPECT_DOUBLE_EQ(matmulTrafficBytes(s, 256, 256) -
                       matmulTrafficBytes(MatmulShape{8192, 8192, 8192, 2, 2,
                                                      false},
                                          256, 256),
                   8192.0 * 8192 * 2);
}

TEST(TensorCoreModel, ArticleSharedMemoryThroughThePlan) {
  // Seed 004: two 128x128 bf16 tiles take 64 KiB: the plan's two stages of
  // a 128x128x64 block hold A 128x128 and B 128x128 over the two slabs.
  TileConfig c = TileConfig::wgmmaDefaults();
  c.setBlock(128, 128, 64);
  c.setWarp(64, 128);
  c.setThread(64, 128);
  c.stages = 2;
  SharedPlan two = getSharedPlan(c, 2);
  EXPECT_EQ(two.buffers * two.stageBytes, 64 * 1024);
  // Three stages of 128x64 (A) and 64x256 (B) bf16: 144 KiB, plus the
  // alignment slack and six mbarriers in what the model charges a block.
  c = TileConfig::wgmmaDefaults();
  c.stages = 3;
  SharedPlan three = getSharedPlan(c, 2);
  EXPECT_EQ(three.buffers * three.stageBytes, 144 * 1024);
  CostReport r = evaluate(c, h200(), 2);
  EXPECT_EQ(r.sharedBytes, 144 * 1024 + 1024 + 6 * 8);
  EXPECT_EQ(r.blocksPerSM, 1);
}

TEST(TensorCoreModel, SetmaxnregSplit) {
  // 2 consumers + 1 producer = 384 threads at one block per SM: 168
  // registers each at launch; the TMA producer keeps 40 and the consumers
  // get (168 * 384 - 40 * 128) / 256 = 232.
  TileConfig c = TileConfig::wgmmaDefaults();
  WarpgroupRegisters regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.blocksPerSM, 1);
  EXPECT_EQ(regs.launchRegisters, 168);
  EXPECT_EQ(regs.producerRegisters, 40);
  EXPECT_EQ(regs.consumerRegisters, 232);
  EXPECT_EQ(regs.accumulators, 128);
  EXPECT_EQ(regs.consumerNeed, 128 + 72);
  EXPECT_TRUE(regs.hasHeadroom());
  // Copies through registers: the producer keeps 104 and the consumers
  // share the rest: (168 * 384 - 104 * 128) / 256 = 200 = 128 + 72 (the
  // split that compiled without spills; tile-mbarrier-pipeline emits the
  // same).
  c.copy = CopyKind::Registers;
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.consumerRegisters, 200);
  EXPECT_EQ(regs.producerRegisters, 104);
  EXPECT_EQ(regs.producerNeed, 104);
  EXPECT_TRUE(regs.whyNot.empty());
  EXPECT_TRUE(regs.hasHeadroom());
  // Two blocks per SM of this block cannot hold the accumulators: 80 at
  // launch, (80 * 384 - 40 * 128) / 256 = 100 -> 96 per consumer. The text
  // is tile-mbarrier-pipeline's error (test/Transforms/
  // mbarrier-pipeline-invalid.mlir), and tile-configure refuses the config.
  c = TileConfig::wgmmaDefaults();
  c.minBlocksPerSM = 2;
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.launchRegisters, 80);
  EXPECT_EQ(regs.consumerRegisters, 96);
  EXPECT_EQ(regs.whyNot,
            "2 block(s) per SM of 384 threads leave 96 registers per "
            "consumer thread (for 128 accumulators) and 40 per producer "
            "thread");
  EXPECT_FALSE(evaluate(c, h200(), 2).fits);
  // With register copies at two blocks per SM the producer keeps 104 and
  // the consumers get (80 * 384 - 104 * 128) / 256 = 68 -> 64, below their
  // 128 accumulators + 16: refused.
  c.copy = CopyKind::Registers;
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.producerRegisters, 104);
  EXPECT_EQ(regs.consumerRegisters, 64);
  EXPECT_FALSE(regs.whyNot.empty());
  // A 128x128 warpgroup tile alone (256 threads) at two blocks per SM:
  // 128 at launch, consumer (128 * 256 - 40 * 128) / 128 = 216.
  c = TileConfig::wgmmaDefaults();
  c.setBlock(128, 128, 64);
  c.setWarp(128, 128);
  c.setThread(64, 128);
  c.stages = 3;
  c.minBlocksPerSM = 2;
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.launchRegisters, 128);
  EXPECT_EQ(regs.consumerRegisters, 216);
  EXPECT_EQ(regs.consumerNeed, 200);
  EXPECT_TRUE(regs.hasHeadroom());
  CostReport r = evaluate(c, h200(), 2);
  EXPECT_TRUE(r.fits) << r.whyNot;
  EXPECT_EQ(r.blocksPerSM, 2);
  // At one block per SM 256 threads start with 65536 / 256 = 256, capped
  // at 255 (not rounded: the cap is what ptxas may use); setmaxnreg then
  // gives the consumer its maximum.
  c.minBlocksPerSM = 0;
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.launchRegisters, 255);
  EXPECT_EQ(regs.consumerRegisters, 240);
  // Small warpgroup tiles need at least 168 (64x64: 32 accumulators + 72
  // would be 104, and 104 spilled): with register copies the producer
  // keeps 104 and the consumer the rest ((255 * 256 - 104 * 128) / 128 =
  // 406, capped at 240); the TMA's 240 has headroom too.
  c = TileConfig::wgmmaDefaults();
  c.setBlock(64, 64, 64);
  c.setWarp(64, 64);
  c.setThread(64, 64);
  c.copy = CopyKind::Registers;
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.accumulators, 32);
  EXPECT_EQ(regs.consumerNeed, 168);
  EXPECT_EQ(regs.consumerRegisters, 240);
  EXPECT_EQ(regs.producerRegisters, 104);
  EXPECT_TRUE(regs.whyNot.empty());
  EXPECT_TRUE(regs.hasHeadroom());
  // Two such consumers (128x64 blocks, 384 threads at 168): (168 * 384 -
  // 104 * 128) / 256 = 200 each.
  c.setBlock(128, 64, 64);
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.launchRegisters, 168);
  EXPECT_EQ(regs.consumerRegisters, 200);
  EXPECT_EQ(regs.producerRegisters, 104);
  EXPECT_TRUE(regs.hasHeadroom());
  c.setBlock(64, 64, 64);
  c.copy = CopyKind::Tma;
  EXPECT_TRUE(warpgroupRegisters(c).hasHeadroom());
  // ptxas compiles every role under the launch count: at two blocks per SM
  // of 256 threads (128 each) an m64n256k16 instruction (128 accumulators
  // + 26) does not compile, an m64n192k16 does.
  c.setBlock(64, 256, 64);
  c.setWarp(64, 256);
  c.setThread(64, 256);
  c.minBlocksPerSM = 2;
  EXPECT_EQ(warpgroupRegisters(c).launchRegisters, 128);
  EXPECT_EQ(evaluate(c, h200(), 2).whyNot,
            "the m64n256k16 instruction needs 154 registers per thread at "
            "launch, and 2 block(s) per SM of 256 threads start with 128; "
            "lower the occupancy or the instruction N");
  c.setBlock(64, 192, 64);
  c.setWarp(64, 192);
  c.setThread(64, 192);
  EXPECT_TRUE(evaluate(c, h200(), 2).fits) << evaluate(c, h200(), 2).whyNot;
  // Not specialized: no setmaxnreg, every thread under the launch cap.
  c = TileConfig::wgmmaDefaults();
  c.specialize = false;
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.launchRegisters, 255);
  EXPECT_EQ(regs.consumerRegisters, 255);
  EXPECT_EQ(regs.producerRegisters, 0);
  EXPECT_TRUE(regs.hasHeadroom());
  // Four 64x256 consumers without a producer: 512 threads start with 128,
  // too few for 128 accumulators + 16.
  c.setBlock(256, 256, 64);
  regs = warpgroupRegisters(c);
  EXPECT_EQ(regs.launchRegisters, 128);
  EXPECT_EQ(regs.whyNot, "1 block(s) per SM of 512 threads leave 128 "
                         "registers per thread (for 128 accumulators)");
  EXPECT_FALSE(evaluate(c, h200(), 2).fits);
}

TEST(TensorCoreModel, PredictsTheMeasurements) {
  // Within 5% of what the H200 measured for the 128x256x64 kernel (4
  // stages, TMA, specialized, C = 0 + A*B in f32).
  struct Case {
    MatmulShape shape;
    double tflops;
  };
  MatmulShape f16 = bf16(4096, 4096, 4096);
  f16.f16 = true;
  const Case cases[] = {
      {bf16(4096, 4096, 4096), 708.7},
      {bf16(8192, 8192, 8192), 723.6},
      {f16, 679.9},
  };
  for (const Case &c : cases) {
    double flops = 2.0 * c.shape.m * c.shape.n * c.shape.k;
    double predicted = flops / predictSeconds(measured(c.shape), c.shape,
                                              h200()) / 1e12;
    EXPECT_NEAR(predicted / c.tflops, 1.0, 0.05)
        << c.shape.m << "x" << c.shape.n << "x" << c.shape.k << (c.shape.f16 ? " f16" : " bf16")
        << ": predicted " << predicted << " TFLOP/s";
  }
  TensorCoreEstimate e = estimateTensorCore(measured(bf16(4096, 4096, 4096)),
                                            bf16(4096, 4096, 4096), h200());
  EXPECT_EQ(e.bound, "tensor cores");
  EXPECT_EQ(e.tiles, 512);
  EXPECT_EQ(e.waves, 4);
  EXPECT_EQ(e.blocksPerSM, 1);
  // 128 x 256 x 4096 x 2 FLOPs at 0.82 of 989 / 132 TFLOP/s.
  EXPECT_NEAR(e.mmaSeconds * 1e6,
              2.0 * 128 * 256 * 4096 / (989e12 / 132 * 0.82) * 1e6, 1e-6);
  // The TMA moves (128 + 256) x 4096 bf16 per tile at 80 GB/s: under the
  // tensor-core time, so the loads are hidden.
  EXPECT_NEAR(e.loadSeconds * 1e6, 384.0 * 4096 * 2 / 80e9 * 1e6, 1e-6);
  EXPECT_LT(e.loadSeconds, e.mmaSeconds);
  // Unaligned rows: the copies through registers bound the same tiles.
  e = estimateTensorCore(measured(bf16(4095, 4097, 4093)),
                         bf16(4095, 4097, 4093), h200());
  EXPECT_EQ(e.bound, "register copies");
}

TEST(TensorCoreModel, Rankings) {
  // The model's orderings at 4096^3 bf16, against the measured kernel M
  // (128x256x64, 4 stages, specialized).
  MatmulShape shape = bf16(4096, 4096, 4096);
  TileConfig m = measured(shape);
  double base = predictSeconds(m, shape, h200());
  auto ratio = [&](const TileConfig &c) {
    return predictSeconds(c, shape, h200()) / base;
  };
  // 128x128 tiles carry 4/3 of the bytes per FLOP into shared memory: the
  // TMA's L2 bandwidth bounds them, at least 10% slower.
  TileConfig square = m;
  square.setBlock(128, 128, 64);
  square.setWarp(64, 128);
  square.setThread(64, 128);
  EXPECT_GT(ratio(square), 1.1);
  EXPECT_EQ(estimateTensorCore(square, shape, h200()).bound, "L2->shared");
  // Two stages keep one slab in flight: 63 slabs x 0.8 us of latency is
  // more than the tile's tensor-core time.
  TileConfig two = m;
  two.stages = 2;
  EXPECT_GT(ratio(two), 1.1);
  EXPECT_EQ(estimateTensorCore(two, shape, h200()).bound, "ring latency");
  // Three stages hide it; more change nothing.
  TileConfig three = m, six = m;
  three.stages = 3;
  six.stages = 6; // over the shared memory of a block: does not fit
  EXPECT_NEAR(ratio(three), 1.0, 1e-9);
  EXPECT_FALSE(std::isfinite(predictSeconds(six, shape, h200())));
  // Without specialization: 0.9 of the main-loop rate.
  TileConfig plain = m;
  plain.specialize = false;
  EXPECT_GT(ratio(plain), 1.05);
  EXPECT_LT(ratio(plain), 1.12);
  // A narrower instruction (m64n128k16, two per k step): 0.95.
  TileConfig narrow = m;
  narrow.setThread(64, 128);
  EXPECT_GT(ratio(narrow), 1.02);
  // f16 is 1 / 0.96 slower in the main loop.
  MatmulShape half = shape;
  half.f16 = true;
  EXPECT_GT(predictSeconds(m, half, h200()) / base, 1.03);
  // C += A*B reads C before the main loop: a little slower, not more than
  // the extra pass over C's 64 MiB at 4.3 TB/s plus its exposure.
  MatmulShape acc = shape;
  acc.readsC = true;
  double extra = predictSeconds(m, acc, h200()) - base;
  EXPECT_GT(extra, 0);
  EXPECT_LT(extra, 20e-6);
}

TEST(TensorCoreModel, Choices) {
  // Large square: the measured 128x256 tile class, one block per SM.
  TileConfig big = defaultConfig(bf16(4096, 4096, 4096), h200());
  EXPECT_TRUE(big.isWgmma());
  EXPECT_EQ(big.blockM * big.blockN, 128 * 256) << toShortString(big);
  EXPECT_EQ(big.copy, CopyKind::Tma);
  EXPECT_TRUE(big.specialize);
  // The default is never predicted slower than the measured config.
  EXPECT_LE(predictSeconds(big, bf16(4096, 4096, 4096), h200()),
            predictSeconds(measured(bf16(4096, 4096, 4096)),
                           bf16(4096, 4096, 4096), h200()));
  // Tiny: a 64-wide block, not one 128x256 block for a 64x64 problem.
  TileConfig tiny = defaultConfig(bf16(64, 64, 64), h200());
  EXPECT_EQ(tiny.blockN, 64) << toShortString(tiny);
  EXPECT_EQ(tiny.blockM, 64) << toShortString(tiny);
  // Skinny M: BM = 64 (16 rows in 64 rather than 128 or 256).
  TileConfig skinny = defaultConfig(bf16(16, 8192, 8192), h200());
  EXPECT_EQ(skinny.blockM, 64) << toShortString(skinny);
  // More blocks than SMs: 128 tiles of 64 columns or more.
  EXPECT_LE(skinny.blockN, 128) << toShortString(skinny);
  // Unaligned rows, large: the TMA on repacked copies. The copies (two
  // 33 MB matrices, about 0.1 ms) cost less than copying every slab through
  // registers (2.25 ms measured for the 128x256 register-copy kernel).
  TileConfig odd = defaultConfig(bf16(4095, 4097, 4093), h200());
  EXPECT_EQ(odd.copy, CopyKind::Tma) << toShortString(odd);
  EXPECT_TRUE(odd.repack) << toShortString(odd);
  EXPECT_TRUE(odd.specialize);
  TensorCoreEstimate oddEstimate =
      estimateTensorCore(odd, bf16(4095, 4097, 4093), h200());
  EXPECT_NEAR(oddEstimate.repackSeconds, repackSeconds(bf16(4095, 4097, 4093)),
              1e-12);
  // 2 x (5.3 us + 4095 rows x 0.7 ns + 2 x 33.5 MB / 1.6 TB/s) = 100.2 us.
  EXPECT_NEAR(repackSeconds(bf16(4095, 4097, 4093)) * 1e6, 100.2, 0.1);
  // Aligned rows repack nothing; one unaligned operand is one copy.
  EXPECT_EQ(repackSeconds(bf16(4096, 4096, 4096)), 0.0);
  EXPECT_NEAR(repackSeconds(bf16(64, 64, 30)) * 1e6,
              5.3 + 64 * 0.7e-3 + 2.0 * 64 * 30 * 2 / 1.6e6, 1e-6);
  // Unaligned rows, tiny: the two copies' fixed cost (10.6 us) is more
  // than one slab through registers; the register-copy kernel with two
  // consumer warpgroups (the structures that compiled without spills).
  TileConfig tinyOdd = defaultConfig(bf16(37, 42, 29), h200());
  EXPECT_EQ(tinyOdd.copy, CopyKind::Registers) << toShortString(tinyOdd);
  EXPECT_FALSE(tinyOdd.repack) << toShortString(tinyOdd);
  EXPECT_EQ(tinyOdd.numConsumers(), 2) << toShortString(tinyOdd);
  // An odd N: no warpgroup tile of 128 accumulators (they spilled with
  // single-element C stores); register copies with smaller ones (their
  // consumers get at least the 168 registers they need), not the repacking
  // copies.
  TileConfig oddN = defaultConfig(bf16(37, 41, 29), h200());
  EXPECT_EQ(oddN.copy, CopyKind::Registers) << toShortString(oddN);
  EXPECT_FALSE(oddN.repack) << toShortString(oddN);
  EXPECT_LE(oddN.warpM * oddN.warpN / 128, 64) << toShortString(oddN);
  EXPECT_GE(warpgroupRegisters(oddN).consumerRegisters, 168)
      << toShortString(oddN);
  // f32 shapes keep the FMA model.
  EXPECT_FALSE(defaultConfig({4096, 4096, 4096, 4}, h200()).isWgmma());
}

TEST(TensorCoreModel, CandidatesFollowTheRules) {
  std::mt19937 rng(20261201);
  std::uniform_real_distribution<double> logSize(0, std::log(8192.0));
  int64_t total = 0;
  for (int i = 0; i < 40; ++i) {
    MatmulShape shape = bf16(std::max<int64_t>(1, std::exp(logSize(rng))),
                             std::max<int64_t>(1, std::exp(logSize(rng))),
                             std::max<int64_t>(1, std::exp(logSize(rng))));
    shape.f16 = i % 2;
    shape.readsC = i % 3 == 0;
    std::vector<TileConfig> candidates = candidateConfigs(shape, h200());
    ASSERT_FALSE(candidates.empty()) << shape.m << "x" << shape.n << "x"
                                     << shape.k;
    bool anySpecialized = false;
    for (const TileConfig &c : candidates) {
      std::string where = toShortString(c) + " for " +
                          std::to_string(shape.m) + "x" +
                          std::to_string(shape.n) + "x" +
                          std::to_string(shape.k);
      EXPECT_TRUE(c.isWgmma()) << where;
      EXPECT_EQ(checkConsistency(c), "") << where;
      EXPECT_EQ(checkWgmmaElementBytes(c, 2), "") << where;
      CostReport r = evaluate(c, h200(), 2);
      EXPECT_TRUE(r.fits) << where << ": " << r.whyNot;
      EXPECT_LE(r.sharedBytes, h200().sharedBytesPerBlock) << where;
      EXPECT_GE(r.blocksPerSM, std::max<int64_t>(1, c.minBlocksPerSM))
          << where;
      WarpgroupRegisters regs = warpgroupRegisters(c);
      EXPECT_TRUE(regs.hasHeadroom()) << where;
      // Aligned rows: the TMA in place. Others: registers, or the TMA on
      // repacked copies.
      if (tmaRowsAligned(shape))
        EXPECT_TRUE(c.copy == CopyKind::Tma && !c.repack) << where;
      else
        EXPECT_EQ(c.copy == CopyKind::Tma, c.repack) << where;
      EXPECT_EQ(c.blockN % 64, 0) << where;
      EXPECT_LE(c.blockM, 256) << where;
      int64_t consumers = c.numConsumers();
      EXPECT_TRUE(consumers == 1 || consumers == 2 || consumers == 4)
          << where;
      EXPECT_TRUE(c.warpN == c.blockN || 2 * c.warpN == c.blockN) << where;
      // Warpgroup tiles one wgmma tall; register copies with two consumer
      // warpgroups or more (the structures that compiled without spills).
      EXPECT_EQ(c.warpM, 64) << where;
      if (shape.n % 2 != 0) {
        EXPECT_LE(c.warpN, 128) << where;
      }
      if (c.copy == CopyKind::Registers) {
        EXPECT_GE(consumers, 2) << where;
      }
      EXPECT_GE(c.stages, 2) << where;
      // Split-K: f32 C, tiles short of a wave, every chunk at least a ring
      // of slabs, at most two waves of blocks (never split_last).
      if (c.splitK > 1) {
        int64_t tiles =
            ((shape.m + c.blockM - 1) / c.blockM) *
            ((shape.n + c.blockN - 1) / c.blockN);
        int64_t perWave = h200().numSMs * r.blocksPerSM;
        EXPECT_EQ(shape.resultBytes, 4) << where;
        EXPECT_EQ(c.splitLast, 0) << where;
        EXPECT_LT(tiles, perWave) << where;
        EXPECT_LE(tiles * c.splitK, 2 * perWave) << where;
        EXPECT_EQ(numSplits(c, shape.k), c.splitK) << where;
        EXPECT_GE(splitKChunk(c, shape.k) / c.blockK, c.stages) << where;
      }
      EXPECT_TRUE(std::isfinite(predictSeconds(c, shape, h200()))) << where;
      anySpecialized |= c.specialize;
    }
    EXPECT_TRUE(anySpecialized);
    TileConfig chosen = defaultConfig(shape, h200());
    EXPECT_TRUE(chosen.specialize);
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), chosen),
              candidates.end());
    total += candidates.size();
  }
  EXPECT_GT(total, 40);
}

TEST(TensorCoreModel, BlocksOf192ColumnsOnlyUnderOneWaveOf128x256) {
  auto has192 = [](const MatmulShape &shape) {
    std::vector<TileConfig> candidates = candidateConfigs(shape, h200());
    return std::any_of(candidates.begin(), candidates.end(),
                       [](const TileConfig &c) { return c.blockN == 192; });
  };
  // 12 x 7 = 84 tiles of 128x256 on 132 SMs: 192-column blocks are
  // candidates, three 64-column chunks of B, one m64n192k16 per k step.
  MatmulShape under = bf16(1512, 1588, 1334);
  ASSERT_TRUE(has192(under));
  for (const TileConfig &c : candidateConfigs(under, h200()))
    if (c.blockN == 192) {
      EXPECT_EQ(c.warpN, 192) << toShortString(c);
      EXPECT_TRUE(c.threadN == 192 || c.threadN == 64) << toShortString(c);
      EXPECT_TRUE(checkConsistency(c).empty()) << toShortString(c);
    }
  // A whole wave of 128x256 tiles or more, and there are none: at 3000^3
  // (288 tiles) they measured slower.
  EXPECT_FALSE(has192(bf16(3000, 3000, 3000)));
  EXPECT_FALSE(has192(bf16(1536, 2816, 1024))); // 12 x 11 = 132 tiles
  EXPECT_TRUE(has192(bf16(1536, 2560, 1024)));  // 12 x 10 = 120 tiles
  // The batch counts: 4 matrices of 84 tiles are 336.
  MatmulShape batched = under;
  batched.batch = 4;
  EXPECT_FALSE(has192(batched));
  // Measured for 16-bit inputs only: not for TF32.
  MatmulShape tf32{1512, 1588, 1334, 4};
  tf32.tf32 = true;
  tf32.transposeB = true;
  ASSERT_FALSE(candidateConfigs(tf32, h200()).empty());
  EXPECT_FALSE(has192(tf32));
}

TEST(TensorCoreModel, EveryCandidatePassesThePassSplit) {
  // The split tile-mbarrier-pipeline emits is the one the model counted:
  // no candidate is one the pass would refuse.
  for (MatmulShape shape : {bf16(4096, 4096, 4096), bf16(1000, 1000, 1000),
                            bf16(4095, 4097, 4093), bf16(16, 8192, 8192)})
    for (const TileConfig &c : candidateConfigs(shape, h200())) {
      WarpgroupRegisters regs = warpgroupRegisters(c);
      EXPECT_EQ(regs.whyNot, "") << toShortString(c);
      if (c.specialize) {
        int64_t used = kWarpgroupSize * regs.producerRegisters +
                       kWarpgroupSize * c.numConsumers() *
                           regs.consumerRegisters;
        EXPECT_LE(used, regs.launchRegisters * c.numThreads())
            << toShortString(c);
        EXPECT_LE(regs.launchRegisters * c.numThreads() * regs.blocksPerSM,
                  65536)
            << toShortString(c);
      }
    }
}

TEST(TensorCoreModel, SplitK) {
  // 128x1024x8192: 32 tiles of 64x64 leave 100 of 132 SMs idle; split-K
  // fills them (measured on the H200: 6 splits 0.0134 ms, none 0.0307 ms).
  MatmulShape deep = bf16(128, 1024, 8192);
  TileConfig chosen = defaultConfig(deep, h200());
  ASSERT_GT(chosen.splitK, 1) << toShortString(chosen);
  TensorCoreEstimate e = estimateTensorCore(chosen, deep, h200());
  EXPECT_EQ(e.splits, chosen.splitK);
  EXPECT_EQ(e.slabs, splitKChunk(chosen, 8192) / 64);
  int64_t perWave = h200().numSMs * e.blocksPerSM;
  EXPECT_EQ(e.waves, (e.tiles * e.splits + perWave - 1) / perWave);
  // The atomic adds of the wave's partial tiles: more than storing them.
  TileConfig whole = chosen;
  whole.splitK = 1;
  TensorCoreEstimate w = estimateTensorCore(whole, deep, h200());
  EXPECT_EQ(w.splits, 1);
  EXPECT_EQ(w.slabs, 128);
  EXPECT_GT(e.epilogueSeconds, w.epilogueSeconds);
  EXPECT_GT(e.hbmBytes, w.hbmBytes);
  EXPECT_LT(predictSeconds(chosen, deep, h200()),
            predictSeconds(whole, deep, h200()));
  // Each split's products count once: the same useful fraction.
  EXPECT_NEAR(e.usefulFraction, w.usefulFraction, 1e-12);
  // No split with a 16-bit C (no atomic add of that type without rounding
  // each partial sum) or when the tiles already fill a wave.
  MatmulShape bf16C = deep;
  bf16C.resultBytes = 2;
  for (const TileConfig &c : candidateConfigs(bf16C, h200()))
    EXPECT_EQ(c.splitK, 1) << toShortString(c);
  for (const TileConfig &c : candidateConfigs(bf16(4096, 4096, 4096), h200()))
    EXPECT_EQ(c.splitK, 1) << toShortString(c);
  // K too short for two chunks of a ring each: none either.
  for (const TileConfig &c : candidateConfigs(bf16(128, 1024, 128), h200()))
    EXPECT_EQ(c.splitK, 1) << toShortString(c);
}

TEST(TensorCoreModel, SplitLast) {
  // 2056^3 in 128x256 tiles: 17 x 9 = 153 tiles, one full wave of 132 and
  // 21 tiles in a second. split_last = 21 with split_k = 6: 132 whole
  // blocks and 21 x 6 split ones, the split tiles' C once more per split.
  MatmulShape shape = bf16(2056, 2056, 2056);
  TileConfig whole = measured(bf16(4096, 4096, 4096));
  TileConfig last = whole;
  last.splitK = 6;
  last.splitLast = 21;
  TensorCoreEstimate w = estimateTensorCore(whole, shape, h200());
  TensorCoreEstimate e = estimateTensorCore(last, shape, h200());
  ASSERT_EQ(w.tiles, 153);
  EXPECT_EQ(w.blocks, 153);
  EXPECT_EQ(w.waves, 2);
  EXPECT_EQ(e.splits, 6);
  EXPECT_EQ(e.splitTiles, 21);
  EXPECT_EQ(e.blocks, 132 + 21 * 6);
  EXPECT_EQ(e.slabs, 6); // a chunk: ceil(33 / 6) slabs
  EXPECT_TRUE(std::isfinite(e.seconds));
  // Every tile split six ways: 918 blocks.
  TileConfig all = last;
  all.splitLast = 0;
  TensorCoreEstimate a = estimateTensorCore(all, shape, h200());
  EXPECT_EQ(a.splitTiles, 153);
  EXPECT_EQ(a.blocks, 918);
  EXPECT_GT(e.hbmBytes, w.hbmBytes);
  EXPECT_LT(e.hbmBytes, a.hbmBytes);
  // Measured slower than unsplit on an H100 (2056^3, 3000^3,
  // 6000x1000x3000): the model never proposes it, here or anywhere.
  for (MatmulShape s : {shape, bf16(3000, 3000, 3000), bf16(6000, 1000, 3000),
                        bf16(128, 1024, 8192)})
    for (const TileConfig &c : candidateConfigs(s, h200()))
      EXPECT_EQ(c.splitLast, 0) << toShortString(c);
}

TEST(TensorCoreModel, WavesAndEdgeWaste) {
  // 4095x4097 with 128x256 tiles: 32 x 17 = 544 tiles, 5 waves of 132;
  // the last column of tiles holds one column of 256.
  MatmulShape shape = bf16(4095, 4097, 4093);
  TensorCoreEstimate e = estimateTensorCore(measured(shape), shape, h200());
  EXPECT_EQ(e.tiles, 544);
  EXPECT_EQ(e.waves, 5);
  EXPECT_EQ(e.slabs, 64);
  EXPECT_NEAR(e.usefulFraction,
              4095.0 * 4097 * 4093 / (544.0 * 128 * 256 * 64 * 64), 1e-12);
  // More SMs' worth of tiles never predicts less time.
  TileConfig c = measured(bf16(4096, 4096, 4096));
  EXPECT_LT(predictSeconds(c, bf16(4096, 4096, 4096), h200()),
            predictSeconds(c, bf16(8192, 8192, 8192), h200()));
}

TEST(TensorCoreModel, PersistentKernelsPayTheFirstSlabOnce) {
  // 4096^3 with 128x256 tiles: 512 tiles, 4 waves of 132 blocks. The
  // persistent kernel's producer fills the next tile's slots during the
  // epilogue: the prologue (the first slab's latency) once instead of once
  // per wave; the epilogue stays in every wave.
  MatmulShape shape = bf16(4096, 4096, 4096);
  TileConfig c = measured(shape);
  TileConfig p = c;
  p.persistent = true;
  TensorCoreEstimate e = estimateTensorCore(c, shape, h200());
  TensorCoreEstimate q = estimateTensorCore(p, shape, h200());
  ASSERT_EQ(e.waves, 4);
  EXPECT_EQ(q.waves, 4);
  EXPECT_GT(e.prologueSeconds, 0);
  EXPECT_NEAR(e.seconds - q.seconds, 3 * e.prologueSeconds, 1e-12);
  // One wave: nothing to overlap, the same time.
  MatmulShape small = bf16(1024, 1024, 4096);
  EXPECT_NEAR(predictSeconds(p, small, h200()),
              predictSeconds(c, small, h200()), 1e-12);
}

TEST(TensorCoreModel, PersistentWithTheStoreOverWholeTilesPastOneWave) {
  // The model makes a TMA store persistent where every tile is whole and
  // the tiles take more than one wave (modelTakesPersistent).
  TileConfig c = measured(bf16(4096, 4096, 4096));
  c.tmaStore = true;
  const ChipInfo &chip = h200();
  // 512 whole 128x256 tiles.
  EXPECT_TRUE(modelTakesPersistent(bf16(4096, 4096, 4096), c, 1, chip));
  // Without the store: no.
  TileConfig registers = c;
  registers.tmaStore = false;
  EXPECT_FALSE(
      modelTakesPersistent(bf16(4096, 4096, 4096), registers, 1, chip));
  // A partial tile row or column: no.
  EXPECT_FALSE(modelTakesPersistent(bf16(4032, 4096, 4096), c, 1, chip));
  EXPECT_FALSE(modelTakesPersistent(bf16(4096, 4032, 4096), c, 1, chip));
  // 2048^3: 128 tiles, one wave of 132 blocks. 4224x2048: 264 whole
  // tiles, past one wave of one block per SM, exactly one of two.
  EXPECT_FALSE(modelTakesPersistent(bf16(2048, 2048, 2048), c, 1, chip));
  EXPECT_TRUE(modelTakesPersistent(bf16(4224, 2048, 4096), c, 1, chip));
  EXPECT_FALSE(modelTakesPersistent(bf16(4224, 2048, 4096), c, 2, chip));
  EXPECT_TRUE(modelTakesPersistent(bf16(4352, 2048, 4096), c, 2, chip));
  // The batch's matrices count: 8 x 2048^3 is 1024 tiles.
  MatmulShape batched = bf16(2048, 2048, 2048);
  batched.batch = 8;
  EXPECT_TRUE(modelTakesPersistent(batched, c, 1, chip));
  // C read first (no store), a cluster: no.
  MatmulShape accumulate = bf16(4096, 4096, 4096);
  accumulate.readsC = true;
  EXPECT_FALSE(modelTakesPersistent(accumulate, c, 1, chip));
  TileConfig cluster = c;
  cluster.clusterM = 2;
  EXPECT_FALSE(modelTakesPersistent(bf16(4096, 4096, 4096), cluster, 1, chip));
  // And the candidates: the persistent twin of a staged config exactly
  // where the rule holds.
  for (MatmulShape shape : {bf16(4096, 4096, 4096), bf16(3000, 3000, 3000),
                            bf16(2048, 2048, 2048), batched}) {
    int64_t persistent = 0;
    for (const TileConfig &k : tensorCoreCandidates(shape, chip)) {
      if (!k.persistent)
        continue;
      ++persistent;
      TileConfig unpersisted = k;
      unpersisted.persistent = false;
      int64_t blocks = evaluateTensorCore(unpersisted, chip, 2).blocksPerSM;
      EXPECT_TRUE(k.tmaStore);
      EXPECT_TRUE(modelTakesPersistent(shape, unpersisted, blocks, chip))
          << shape.m << "x" << shape.n << ": " << toShortString(k);
    }
    // 3000 is no multiple of 64: every tile shape leaves partial tiles.
    // The others have whole tiles past one wave (2048^3: 128x128 ones and
    // smaller).
    EXPECT_EQ(persistent > 0, shape.m != 3000) << shape.m << "x" << shape.n;
  }
  // Where the rule holds the persistent twin ranks first: it pays the first
  // slab once.
  EXPECT_TRUE(rankedTensorCoreCandidates(batched, chip).front().persistent);
}

TEST(TensorCoreModel, AClusterHalvesBsLoadsAndCostsItsFactor) {
  // 3000x5000x2000: N = 5000 bf16 rows (10000 bytes) are off 128-byte
  // lines, so B's boxes take more lines and the TMA's L2 traffic binds the
  // 128x256 tiles. A 2x1 cluster loads half of B per block: the load term
  // loses half of B's bytes, A's stay.
  MatmulShape shape = bf16(3000, 5000, 2000);
  TileConfig c = measured(shape);
  ASSERT_EQ(c.copy, CopyKind::Tma);
  TileConfig cl = c;
  cl.clusterM = 2;
  ASSERT_EQ(checkConsistency(cl), "");
  TensorCoreEstimate e = estimateTensorCore(c, shape, h200());
  TensorCoreEstimate q = estimateTensorCore(cl, shape, h200());
  EXPECT_EQ(e.bound, "L2->shared");
  // The load term: a tile's rows of A and columns of B inside the problem
  // (3000 / 24 = 125 and 5000 / 20 = 250 on average), K = 2000 deep, each
  // with its line factor, at 80 GB/s; in the cluster half of B's.
  double a = 125 * tmaLineFactor(0, 2000, 2) * 2000 * 2 / 80e9;
  double b = 250 * tmaLineFactor(0, 5000, 2) * 2000 * 2 / 80e9;
  EXPECT_NEAR(e.loadSeconds, a + b, 1e-9 * e.loadSeconds);
  EXPECT_NEAR(q.loadSeconds, a + b / 2, 1e-9 * e.loadSeconds);
  EXPECT_LT(q.seconds, e.seconds);
  // Where the tensor cores bind (4096^3), the loads were hidden anyway:
  // the cluster costs its factor (4%) and nothing else.
  MatmulShape square = bf16(4096, 4096, 4096);
  TileConfig s = measured(square), sc = s;
  sc.clusterM = 2;
  TensorCoreEstimate f = estimateTensorCore(s, square, h200());
  TensorCoreEstimate g = estimateTensorCore(sc, square, h200());
  EXPECT_EQ(f.bound, "tensor cores");
  EXPECT_NEAR((g.seconds - g.launchSeconds) / (f.seconds - f.launchSeconds),
              1.04, 1e-9);
  // The model proposes no cluster (on request only).
  for (const TileConfig &candidate : candidateConfigs(shape, h200()))
    EXPECT_EQ(candidate.clusterSize(), 1);
}

} // namespace

TEST(TensorCoreModel, StridedOperandsDecideInPlaceTmaAndRepacks) {
  // Dense bf16: rows of K = 64 and N = 128 elements (128 and 256 bytes).
  MatmulShape shape{128, 128, 64, 2};
  EXPECT_TRUE(tmaRowsAligned(shape));
  EXPECT_EQ(repackRowStride(64, 2), 0);
  // Repacked rows are padded to 128 bytes (a TMA box row per line), rows
  // on 16 bytes but not on 128 included.
  EXPECT_EQ(repackRowStride(65, 2), 128);
  EXPECT_EQ(repackRowStride(72, 2), 128);
  EXPECT_EQ(repackRowStride(128, 2), 0);
  EXPECT_TRUE(rowsStartOn(16, 72, 2));
  EXPECT_FALSE(rowsStartOn(128, 72, 2));
  EXPECT_TRUE(rowsStartOn(128, 4104, 2, 64));
  // A strided A whose offset and row stride have 4 in common (8 bytes): the
  // TMA cannot start its rows on 16 bytes, though K is aligned; the copy's
  // rows are K long.
  shape.layoutAlignA = 4;
  EXPECT_FALSE(tmaRowsAligned(shape));
  EXPECT_EQ(repackRowStride(64, 2, 4), 64);
  EXPECT_GT(repackSeconds(shape), 0);
  // 8 elements in common (16 bytes): the TMA can read it in place, even
  // with K odd; repack = true still copies it, into rows on 128 bytes.
  shape.layoutAlignA = 8;
  EXPECT_TRUE(tmaRowsAligned(shape));
  EXPECT_EQ(repackRowStride(63, 2, 8), 64);
  EXPECT_GT(repackSeconds(shape), 0);
  // 64 in common (128 bytes): nothing to repack.
  EXPECT_EQ(repackRowStride(63, 2, 64), 0);
  // Overlapping rows can be read in place but not repacked: on 16 bytes
  // they stay in place even with repack = true.
  shape.overlapRowsA = true;
  EXPECT_TRUE(canRepack(shape));
  EXPECT_EQ(repackRowStride(64, 2, 8, /*overlap=*/true), 0);
  EXPECT_EQ(repackSeconds(shape), 0);
  shape.layoutAlignA = 2;
  EXPECT_FALSE(canRepack(shape));
  // The candidates then copy through registers only.
  for (const TileConfig &c : tensorCoreCandidates(shape, h200()))
    EXPECT_EQ(c.copyKind(), CopyKind::Registers) << toString(c);
  EXPECT_FALSE(tensorCoreCandidates(shape, h200()).empty());
  // A transposed B's stored rows are K long: its repack cost counts K.
  MatmulShape linear{128, 128, 63, 2};
  linear.transposeB = true;
  MatmulShape plain = linear;
  plain.transposeB = false;
  plain.k = 64;
  plain.n = 127;
  // (Plain: B's rows of N = 127 repack; linear: B's rows of K = 63.)
  EXPECT_GT(repackSeconds(linear), 0);
  EXPECT_GT(repackSeconds(plain), 0);
  linear.k = 64;
  linear.n = 127;
  EXPECT_EQ(repackSeconds(linear), 0);
}

TEST(TensorCoreModel, RowsOffLinesLoadTwiceOrRepack) {
  // Where rows start within 128-byte lines: all on lines 1; all 16 bytes in
  // 2; all 64 bytes in 1.25; rows of 4104 bf16 (8208 bytes) start 0, 16,
  // ..., 112 bytes in, one eighth each: (1 + 3 x 1.25 + 4 x 2) / 8.
  EXPECT_EQ(tmaLineFactor(0, 4096, 2), 1.0);
  EXPECT_EQ(tmaLineFactor(8, 4160, 2), 2.0);
  EXPECT_EQ(tmaLineFactor(32, 4160, 2), 1.25);
  EXPECT_DOUBLE_EQ(tmaLineFactor(0, 4104, 2), (1 + 3 * 1.25 + 4 * 2) / 8);
  // Rows of 4112 (8224 bytes) start 0, 32, 64, 96 bytes in.
  EXPECT_DOUBLE_EQ(tmaLineFactor(0, 4112, 2), (1 + 3 * 1.25) / 4);

  // 4096^3 bf16, 128x256 tiles: A's slab 128 x 64, B's 64 x 256. A strided
  // A whose rows all start 16 bytes into a line (offset 8, rows of 4160)
  // read in place counts its bytes twice: (2 x 128 + 256) / (128 + 256) of
  // the dense load time.
  MatmulShape dense = bf16(4096, 4096, 4096);
  TileConfig c = measured(dense);
  TensorCoreEstimate aligned = estimateTensorCore(c, dense, h200());
  MatmulShape offA = dense;
  offA.layoutAlignA = 8;
  offA.offsetA = 8;
  offA.rowStrideA = 4160;
  TensorCoreEstimate inPlace = estimateTensorCore(c, offA, h200());
  EXPECT_NEAR(inPlace.loadSeconds / aligned.loadSeconds, 512.0 / 384, 1e-9);
  EXPECT_EQ(inPlace.repackSeconds, 0);
  // Both operands off the lines: twice the bytes.
  MatmulShape offBoth = offA;
  offBoth.layoutAlignB = 8;
  offBoth.offsetB = 8;
  offBoth.rowStrideB = 4160;
  EXPECT_NEAR(estimateTensorCore(c, offBoth, h200()).loadSeconds /
                  aligned.loadSeconds,
              2.0, 1e-9);
  // Repacked, the TMA reads rows on lines again; the copies are counted.
  c.repack = true;
  TensorCoreEstimate repacked = estimateTensorCore(c, offA, h200());
  EXPECT_NEAR(repacked.loadSeconds, aligned.loadSeconds, 1e-15);
  EXPECT_GT(repacked.repackSeconds, 0);
  // Overlapping rows are never repacked: in place, counted twice.
  offA.overlapRowsA = true;
  EXPECT_NEAR(estimateTensorCore(c, offA, h200()).loadSeconds /
                  aligned.loadSeconds,
              512.0 / 384, 1e-9);

  // A dense 4096x4104x4104 (rows of 8208 bytes: on 16, not 128): the
  // candidates hold the TMA in place and on repacked copies, and the TMA
  // in place is predicted slower per flop than at 4096x4160x4160.
  MatmulShape odd = bf16(4096, 4104, 4104);
  bool inPlaceSeen = false, repackSeen = false;
  for (const TileConfig &t : tensorCoreCandidates(odd, h200()))
    if (t.copyKind() == CopyKind::Tma)
      (t.repack ? repackSeen : inPlaceSeen) = true;
  EXPECT_TRUE(inPlaceSeen);
  EXPECT_TRUE(repackSeen);
  MatmulShape even = bf16(4096, 4160, 4160);
  TileConfig t = measured(odd);
  EXPECT_GT(predictSeconds(t, odd, h200()) / (4104.0 * 4104),
            predictSeconds(t, even, h200()) / (4160.0 * 4160));
  // A copy that must be made (rows off 16 bytes) pads to 128 bytes; then
  // an operand the TMA can read in place stays there (300x520x1001 f16: A's
  // rows of 1001 are copied into rows of 1024, B's of 520 are not).
  MatmulShape both{300, 520, 1001, 2};
  EXPECT_EQ(repackRowStrides(both), std::make_pair(int64_t(1024), int64_t(0)));
  both.k = 1024;
  EXPECT_EQ(repackRowStrides(both), std::make_pair(int64_t(0), int64_t(576)));
  both.n = 521;
  both.k = 1001;
  EXPECT_EQ(repackRowStrides(both),
            std::make_pair(int64_t(1024), int64_t(576)));
  // Rows already on lines: no repack candidates.
  for (const TileConfig &u : tensorCoreCandidates(even, h200()))
    EXPECT_FALSE(u.repack) << toString(u);
}

TEST(TensorCoreModel, RegisterCopiesReadingCKeepConsumersSmall) {
  // Rows of K = 5 (10 bytes): the TMA on a repacked copy, or copies
  // through registers. With C read (C += A*B) no register-copy candidate
  // has consumers of 128 accumulators (they spilled at setmaxnreg 200), so
  // the TMA's remain; with C only written, they remain candidates.
  MatmulShape acc = bf16(1034, 2016, 5);
  acc.readsC = true;
  bool tma = false;
  for (const TileConfig &c : tensorCoreCandidates(acc, h200())) {
    tma |= c.copyKind() == CopyKind::Tma;
    if (c.copyKind() == CopyKind::Registers) {
      EXPECT_LE(c.warpM * c.warpN / 128, 64) << toString(c);
    }
  }
  EXPECT_TRUE(tma);
  EXPECT_EQ(defaultTensorCoreConfig(acc, h200()).copyKind(), CopyKind::Tma);
  MatmulShape fill = acc;
  fill.readsC = false;
  bool wide = false;
  for (const TileConfig &c : tensorCoreCandidates(fill, h200()))
    wide |= c.copyKind() == CopyKind::Registers && c.warpM * c.warpN / 128 > 64;
  EXPECT_TRUE(wide);
}

TEST(TensorCoreModel, BatchedKernelsWith64BitOffsetsReadingCKeepLoneConsumersSmall) {
  // 204 x 6101x3814x680, C += A*B with an f32 C: offsets past 2^31 - 1. A
  // lone consumer of 64 accumulators or more spilled there (8 and 64
  // bytes); two consumers and 64x64 blocks did not. Without the 64-bit
  // offsets, with one matrix, or with C only written, such consumers stay
  // candidates.
  MatmulShape shape = bf16(6101, 3814, 680);
  shape.batch = 204;
  shape.readsC = true;
  shape.offsets64 = true;
  auto loneWide = [](const MatmulShape &s) {
    bool any = false;
    for (const TileConfig &c : tensorCoreCandidates(s, h200()))
      any |= c.numConsumers() == 1 && c.warpM * c.warpN / 128 >= 64;
    return any;
  };
  EXPECT_FALSE(loneWide(shape));
  EXPECT_FALSE(tensorCoreCandidates(shape, h200()).empty());
  MatmulShape narrow = shape;
  narrow.offsets64 = false;
  EXPECT_TRUE(loneWide(narrow));
  MatmulShape one = shape;
  one.batch = 1;
  EXPECT_TRUE(loneWide(one));
  MatmulShape fill = shape;
  fill.readsC = false;
  EXPECT_TRUE(loneWide(fill));
  MatmulShape bf16C = shape;
  bf16C.resultBytes = 2;
  EXPECT_TRUE(loneWide(bf16C));
}

TEST(TensorCoreModel, TheBatchMultipliesTilesFlopsAndBytes) {
  // 8 x 2048^3 against one 2048^3: eight times the tiles, the same
  // per-tile share of useful flops, eight times the HBM bytes; and over a
  // wave's worth of tiles, about eight times the time.
  TileConfig c = TileConfig::wgmmaDefaults();
  MatmulShape one = bf16(2048, 2048, 2048);
  MatmulShape eight = one;
  eight.batch = 8;
  TensorCoreEstimate e1 = estimateTensorCore(c, one, h200());
  TensorCoreEstimate e8 = estimateTensorCore(c, eight, h200());
  EXPECT_EQ(e8.tiles, 8 * e1.tiles);
  EXPECT_DOUBLE_EQ(e8.usefulFraction, e1.usefulFraction);
  EXPECT_DOUBLE_EQ(e8.hbmBytes, 8 * e1.hbmBytes);
  EXPECT_GT(e8.seconds, 6 * e1.seconds);
  EXPECT_LT(e8.seconds, 9 * e1.seconds);
}

namespace {
/// An f32 matmul asked for as TF32, stored as TF32 needs (B N x K).
MatmulShape tf32(int64_t m, int64_t n, int64_t k) {
  MatmulShape s{m, n, k, 4};
  s.readsC = false;
  s.transposeB = true;
  s.tf32 = true;
  return s;
}
} // namespace

TEST(TensorCoreModel, Tf32NeedsKMajorOperands) {
  MatmulShape s = tf32(1024, 1024, 1024);
  EXPECT_EQ(checkTf32Layout(s), "");
  EXPECT_TRUE(s.tensorCores());
  s.transposeB = false;
  EXPECT_EQ(checkTf32Layout(s), "B is stored K x N");
  EXPECT_TRUE(tensorCoreCandidates(s, h200()).empty());
  s.transposeB = true;
  s.transposeA = true;
  EXPECT_EQ(checkTf32Layout(s), "A is stored K x M");
  EXPECT_TRUE(tensorCoreCandidates(s, h200()).empty());
  // Without the request an f32 shape is the FMA model's.
  MatmulShape fp32 = tf32(1024, 1024, 1024);
  fp32.tf32 = false;
  EXPECT_FALSE(fp32.tensorCores());
  for (const TileConfig &c : candidateConfigs(fp32, h200()))
    EXPECT_FALSE(c.isWgmma());
}

TEST(TensorCoreModel, Tf32CandidatesHold32F32PerRow) {
  // Every TF32 candidate has a block tile K of 32 (a 128-byte row of f32)
  // and the k8 instruction, follows the element rules for 4 bytes, and the
  // default is a wgmma config.
  for (MatmulShape s : {tf32(4096, 4096, 4096), tf32(700, 300, 1001),
                        tf32(16, 8192, 8192), tf32(1, 1, 1)}) {
    std::vector<TileConfig> candidates = candidateConfigs(s, h200());
    ASSERT_FALSE(candidates.empty()) << s.m << "x" << s.n << "x" << s.k;
    for (const TileConfig &c : candidates) {
      EXPECT_TRUE(c.isWgmma());
      EXPECT_EQ(c.blockK, 32);
      EXPECT_EQ(c.mmaK, 8);
      EXPECT_EQ(checkWgmmaElementBytes(c, 4), "") << toString(c);
      EXPECT_EQ(checkConsistency(c), "") << toString(c);
    }
    TileConfig chosen = defaultConfig(s, h200());
    EXPECT_TRUE(chosen.isWgmma());
    EXPECT_EQ(chosen.mmaK, 8);
  }
  EXPECT_EQ(TileConfig::wgmmaDefaults(4).blockK, 32);
  EXPECT_EQ(TileConfig::wgmmaDefaults(4).mmaK, 8);
  EXPECT_EQ(TileConfig::wgmmaDefaults().blockK, 64);
  EXPECT_EQ(TileConfig::wgmmaDefaults().mmaK, 16);
}

TEST(TensorCoreModel, Tf32RunsAtHalfTheBf16Rate) {
  // Where the tensor cores bind, the same tiles (128x256, two consumers)
  // take twice as long in TF32 (half the rate) on twice the bytes per
  // element: the model's 4096^3 prediction is near 2x bf16's.
  MatmulShape b = bf16(4096, 4096, 4096);
  b.transposeB = true;
  TileConfig cb = TileConfig::wgmmaDefaults(2);
  TileConfig ct = TileConfig::wgmmaDefaults(4);
  TensorCoreEstimate eb = estimateTensorCore(cb, b, h200());
  TensorCoreEstimate et = estimateTensorCore(ct, tf32(4096, 4096, 4096), h200());
  EXPECT_NEAR(et.mmaSeconds / eb.mmaSeconds, 2.0, 1e-9);
  EXPECT_GT(et.seconds / eb.seconds, 1.6);
  EXPECT_LT(et.seconds / eb.seconds, 2.2);
  EXPECT_EQ(et.bound, std::string("tensor cores"));
}
