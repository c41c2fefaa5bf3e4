//===- CostModel.cpp - the FP32 SIMT matmul cost model --------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/FmaModel.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Analysis/TuningTable.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

using namespace mlir::tile;

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// Registers for addresses, thread indices, loop counters and the shared
/// buffer index: what ptxas needs beyond the tile and the staging registers
/// (the article's "~20-30"; 24 matches ptxas within a few registers for the
/// 128x128x8 kernel).
constexpr int64_t kOverheadRegisters = 24;
/// Instructions per warp and K slice besides FMAs, fragment loads and the
/// slice copy: barrier, loop counter, address and buffer-index updates.
constexpr int64_t kSliceOverheadInstructions = 16;
/// Atomic float additions into global memory per second (L2 atomics).
constexpr double kAtomicsPerSecond = 5e10;
/// Launch and tail cost of one kernel, seconds.
constexpr double kLaunchSeconds = 4e-6;
/// Registers the bounds-checked edge form and the accumulating epilogue add
/// to the estimate, for thread tiles of fewer than 64 FMAs (shapeFormRegisters).
/// ptxas 13.0 without a register budget (occupancy-hint=false), 1024^3
/// against 1021x1019x1023, C filled or accumulated: 64x128x16 blocks of 8x4
/// tiles (estimate 92) took 80 aligned, 87 accumulating, 105-106 with edges;
/// 32x32x16 blocks of 4x2 (estimate 52) 44-46 aligned, 56 with edges (and
/// 8 bytes of spills filled). 8x8 tiles stay within the estimate's overhead:
/// 64x256x8 (estimate 128) took 121-128 and 128x128x8 (128) 120-130 in
/// every form.
constexpr int64_t kEdgeRegisters = 12;
constexpr int64_t kAccumulateRegisters = 4;
/// Measured FMA rate over what the issue model predicts (stalls the model
/// does not see): 128x128x8 blocks of 8x8 thread tiles at 4096^3 reached
/// 46.9 of the 66.9 TFLOP/s peak on the H200 with a predicted slice
/// efficiency of 0.90 (bench/results/2026-11-29-h200-variants-4096.md).
constexpr double kStallFactor = 0.78;

/// Empirical corrections from the first tuning run over the benchmark list
/// (bench/results/2026-11-29-h200-tune.json, 219 kernels on the H200); the
/// issue model alone does not see these effects:
/// - thread tiles with fewer FMAs per k step reached a smaller share of the
///   FMA peak than their load counts predict (8x8: ~0.70 of peak, 4x8 and
///   8x4: 0.55-0.62, at the same block sizes and large shapes);
/// - with the same block and the thread tile transposed, TM >= TN was faster
///   every time (8x4 over 4x8 by 7-37%, 4x2 over 2x4 by 20-33%);
/// - unrolled K slices of more than ~1200 instructions per warp (BK = 64
///   with 4x8 tiles) ran 10-20% slower than the same tile with a smaller BK.
/// After the FMA order in 2x2 groups and per-element C accesses (second
/// tuning run, bench/results/2026-11-29-h200-retune-*.json), 4x4 tiles at
/// 1000^3-1024^3 ran at 0.72-0.82 of the fastest 4x8/8x4/8x8 configs where
/// the factors of that time predicted 0.96: 16-FMA tiles went from 0.75 to
/// 0.6, smaller ones from 0.6 to 0.45.
double threadTileFactor(const TileConfig &c) {
  int64_t fmas = c.threadM * c.threadN;
  double factor = fmas >= 64 ? 1.0 : fmas >= 32 ? 0.87 : fmas >= 16 ? 0.6 : 0.45;
  if (c.threadM < c.threadN)
    factor *= 0.9;
  return factor;
}
double sliceLengthFactor(int64_t sliceInstructions) {
  return sliceInstructions > 1200 ? 0.85 : 1.0;
}

/// Share of peak issue a scheduler reaches with `warps` resident warps: one
/// warp leaves most latency uncovered, four cover it.
double latencyHiding(double warps) {
  if (warps >= 4)
    return 1.0;
  if (warps >= 3)
    return 0.93;
  if (warps >= 2)
    return 0.82;
  if (warps >= 1)
    return 0.6;
  return 0.6 * warps;
}
} // namespace

std::optional<ChipInfo> mlir::tile::lookupChip(const std::string &name) {
  if (name == "sm_90") {
    // H100/H200 SXM (GH100): 132 SMs, 128 FP32 lanes per SM, 228 KiB of
    // shared memory per SM of which 227 KiB per block.
    return ChipInfo{"sm_90", 132,   1024,  2048, 32,  65536, 255,
                    8,       233472, 232448, 1024, 128,  1.98, 30,
                    4.3e12,  50 * 1024 * 1024};
  }
  if (name == "sm_80") {
    // A100 SXM: 108 SMs, 64 FP32 lanes per SM, 164 KiB shared per SM.
    return ChipInfo{"sm_80", 108,   1024,  2048, 32,  65536, 255,
                    8,       167936, 166912, 1024, 64,   1.41, 30,
                    1.9e12,  40 * 1024 * 1024};
  }
  return std::nullopt;
}

int64_t mlir::tile::threadTileRegisters(int64_t threadM, int64_t threadN,
                                        bool prefetch) {
  return threadM * threadN + (prefetch ? 2 : 1) * (threadM + threadN);
}

double mlir::tile::issueSlotEfficiency(int64_t fmas, int64_t loadsA,
                                       int64_t loadsB, bool prefetch,
                                       int64_t latency) {
  int64_t loads = loadsA + loadsB;
  int64_t idle;
  if (prefetch) {
    // The last load of this step (issued at cycle loads-1) must be back when
    // the next step's FMAs start (cycle 2*loads + fmas).
    idle = std::max<int64_t>(0, loads - 1 + latency - (2 * loads + fmas));
  } else {
    // The first FMA needs A[0] (issued at cycle 0) and B[0] (issued at cycle
    // loadsA): it can start once B[0] is back.
    idle = std::max<int64_t>(0, loadsA + latency - loads);
  }
  return static_cast<double>(fmas) / static_cast<double>(loads + idle + fmas);
}

int64_t mlir::tile::asyncCopiesPerThread(const TileConfig &config,
                                         bool transposeA, bool transposeB) {
  int64_t threads = config.numThreads();
  // Vectors along m (a transposed A) or n (B); single elements along k.
  int64_t widthA = transposeA && config.blockM % 4 == 0 ? 4 : 1;
  int64_t widthB = !transposeB && config.blockN % 4 == 0 ? 4 : 1;
  return ceilDiv(config.blockM * config.blockK / widthA, threads) +
         ceilDiv(config.blockK * config.blockN / widthB, threads);
}

int64_t mlir::tile::stagingRegisters(const TileConfig &config, bool transposeA,
                                     bool transposeB) {
  // cp.async: no values pass through registers, but each copy's global
  // address becomes a 64-bit pointer carried through the K loop (LLVM
  // strength-reduces the per-slice address arithmetic into them).
  if (config.stages >= 3)
    return 2 * asyncCopiesPerThread(config, transposeA, transposeB);
  // One stage holds the copied values only briefly.
  if (config.stages < 2)
    return 0;
  int64_t elements = (config.blockM + config.blockN) * config.blockK;
  return ceilDiv(elements, config.numThreads());
}

const char *mlir::tile::stagingRegistersName(const TileConfig &config) {
  return config.stages >= 3 ? "cp.async addresses" : "staging";
}

int64_t mlir::tile::fragmentVectorWidth(int64_t threadExtent,
                                        int64_t rowStride) {
  for (int64_t width : {4, 2})
    if (threadExtent % width == 0 && rowStride % width == 0)
      return width;
  return 1;
}

CostReport mlir::tile::evaluate(const TileConfig &c, const ChipInfo &chip,
                                int64_t elementBytes, bool transposeA,
                                bool transposeB) {
  if (c.isWgmma())
    return evaluateTensorCore(c, chip, elementBytes);
  CostReport r;
  // Tiles that leave no warp per block or no lane per warp (zero, or wider
  // than the tile above, from options) do not fit: the counts below would
  // divide by zero. (Other inconsistencies are evaluated as they are.)
  if (c.blockM <= 0 || c.blockN <= 0 || c.blockK <= 0 || c.threadM <= 0 ||
      c.threadN <= 0 || c.warpM < c.threadM || c.warpN < c.threadN ||
      c.blockM < c.warpM || c.blockN < c.warpN) {
    std::string why = checkConsistency(c);
    r.whyNot = why.empty() ? "tile sizes that hold no warp or lane" : why;
    r.fits = false;
    return r;
  }
  r.threadsPerBlock = c.numThreads();
  r.tileRegisters = threadTileRegisters(c.threadM, c.threadN, c.regPrefetch);
  r.stagingRegisters = stagingRegisters(c, transposeA, transposeB);
  r.overheadRegisters = kOverheadRegisters;
  r.estimatedRegisters =
      r.tileRegisters + r.stagingRegisters + r.overheadRegisters;
  SharedPlan plan = getSharedPlan(c, elementBytes, {transposeA, transposeB});
  r.sharedBytes = plan.totalBytes;

  r.globalIntensity = static_cast<double>(c.blockM * c.blockN) /
                      static_cast<double>(c.blockM + c.blockN);
  r.sharedIntensity = static_cast<double>(c.threadM * c.threadN) /
                      static_cast<double>(c.threadM + c.threadN);
  int64_t widthA = fragmentVectorWidth(c.threadM, plan.rowElementsA);
  int64_t widthB = fragmentVectorWidth(c.threadN, plan.rowElementsB);
  int64_t loadsA = c.threadM / widthA, loadsB = c.threadN / widthB;
  r.sharedLoadsPerStep = loadsA + loadsB;
  r.fmasPerStep = c.threadM * c.threadN;
  r.issueEfficiency = issueSlotEfficiency(r.fmasPerStep, loadsA, loadsB,
                                          c.regPrefetch,
                                          chip.sharedLoadLatency);
  r.articleEfficiency =
      issueSlotEfficiency(r.fmasPerStep, c.threadM, c.threadN, c.regPrefetch,
                          chip.sharedLoadLatency);
  // The slice copy per thread: A vectors along k, each stored as single
  // elements (k-major), B vectors stored as vectors; with cp.async (3 or
  // more stages) one instruction per A element and per B vector. A
  // transposed operand swaps its copy: a transposed A is copied like B
  // (vectors along m), a transposed B like A (vectors along k).
  int64_t copyWidthA = (transposeA ? c.blockM : c.blockK) % 4 == 0 ? 4 : 1;
  int64_t copyWidthB = (transposeB ? c.blockK : c.blockN) % 4 == 0 ? 4 : 1;
  int64_t vectorsA =
      ceilDiv(c.blockM * c.blockK / copyWidthA, r.threadsPerBlock);
  int64_t vectorsB =
      ceilDiv(c.blockK * c.blockN / copyWidthB, r.threadsPerBlock);
  int64_t copy =
      c.stages >= 3
          ? asyncCopiesPerThread(c, transposeA, transposeB)
          : vectorsA * (transposeA ? 2 : 1 + copyWidthA) +
                vectorsB * (transposeB ? 1 + copyWidthB : 2);
  int64_t fmas = r.fmasPerStep * c.blockK;
  r.sliceInstructions = fmas + r.sharedLoadsPerStep * c.blockK + copy +
                        kSliceOverheadInstructions;
  r.sliceEfficiency = static_cast<double>(fmas) / r.sliceInstructions;
  // Lanes with the same lane row share (broadcast) an A granule: an A
  // fragment load touches lanesM distinct ones, a B load lanesN.
  auto wavefronts = [](int64_t granules, int64_t width) {
    return ceilDiv(granules * width * 4, 128);
  };
  r.sharedWavefrontsPerStep = loadsA * wavefronts(c.lanesM(), widthA) +
                              loadsB * wavefronts(c.lanesN(), widthB);
  // Per SM and cycle: 4 warp instructions issue, 1 wavefront is served.
  r.sharedBandwidthFactor =
      std::min(1.0, static_cast<double>(r.fmasPerStep) /
                        (4.0 * r.sharedWavefrontsPerStep));

  if (c.minBlocksPerSM > 0) {
    int64_t cap = chip.registersPerSM / (c.minBlocksPerSM * r.threadsPerBlock);
    cap = std::min(cap / chip.registerAllocUnit * chip.registerAllocUnit,
                   chip.maxRegistersPerThread);
    r.registerCap = cap;
  }

  std::ostringstream why;
  if (r.threadsPerBlock > chip.maxThreadsPerBlock)
    why << r.threadsPerBlock << " threads per block, over the limit of "
        << chip.maxThreadsPerBlock;
  else if (r.estimatedRegisters > chip.maxRegistersPerThread)
    why << "an estimated " << r.estimatedRegisters << " registers per thread ("
        << r.tileRegisters << " for the " << c.threadM << "x" << c.threadN
        << " thread tile, " << r.stagingRegisters << " "
        << stagingRegistersName(c) << ", " << r.overheadRegisters
        << " overhead), over the limit of "
        << chip.maxRegistersPerThread;
  else if (r.registerCap > 0 && r.registerCap < r.tileRegisters)
    why << "occupancy " << c.minBlocksPerSM << " caps registers at "
        << r.registerCap << " per thread, below the " << r.tileRegisters
        << " the " << c.threadM << "x" << c.threadN << " thread tile needs";
  else if (r.sharedBytes > chip.sharedBytesPerBlock)
    why << r.sharedBytes << " bytes of shared memory per block, over the "
        << chip.name << " limit of " << chip.sharedBytesPerBlock;
  r.whyNot = why.str();
  r.fits = r.whyNot.empty();
  if (!r.fits)
    return r;

  // Occupancy: registers are allocated per warp in units of 8 per thread.
  int64_t regsPerThread = roundUp(r.estimatedRegisters, chip.registerAllocUnit);
  if (r.registerCap > 0)
    regsPerThread = std::min(regsPerThread, r.registerCap);
  int64_t warpsPerBlock = c.numWarps();
  int64_t byRegisters =
      (chip.registersPerSM / (regsPerThread * tile::kWarpSize)) / warpsPerBlock;
  int64_t byShared =
      chip.sharedBytesPerSM / (r.sharedBytes + chip.sharedBytesReserved);
  int64_t byThreads = chip.maxThreadsPerSM / r.threadsPerBlock;
  r.blocksPerSM = chip.maxBlocksPerSM;
  r.occupancyLimiter = "blocks per SM";
  auto limit = [&](int64_t value, const char *why) {
    if (value < r.blocksPerSM) {
      r.blocksPerSM = value;
      r.occupancyLimiter = why;
    }
  };
  limit(byThreads, "threads");
  limit(byRegisters, "registers");
  limit(byShared, "shared memory");
  r.warpsPerSM = r.blocksPerSM * warpsPerBlock;
  if (r.blocksPerSM == 0) {
    r.fits = false;
    r.whyNot = "not even one block fits on an SM (limited by " +
               r.occupancyLimiter + ")";
  }
  return r;
}

bool mlir::tile::hasRegisterHeadroom(const TileConfig &c, const ChipInfo &chip,
                                     const MatmulShape &shape) {
  if (c.isWgmma())
    return warpgroupRegisters(c).hasHeadroom();
  CostReport r = evaluate(c, chip, shape);
  int64_t cap = std::min(chip.registersPerSM / r.threadsPerBlock /
                             chip.registerAllocUnit * chip.registerAllocUnit,
                         chip.maxRegistersPerThread);
  // An occupancy's tighter cap is a budget chosen on purpose (the occupancy
  // hint), not a lack of room: not counted here.
  return r.estimatedRegisters + 8 <= cap;
}

FmaTimeTerms mlir::tile::fmaTimeTerms(const TileConfig &c, const MatmulShape &s,
                                      const ChipInfo &chip) {
  CostReport r = evaluate(c, chip, s);
  if (!r.fits) {
    double inf = std::numeric_limits<double>::infinity();
    FmaTimeTerms infinite{inf, inf, inf, inf};
    infinite.dram = infinite.tile = inf;
    return infinite;
  }
  // Split-K: every tile's K range is divided among `splits` blocks. Counts
  // of blocks and bytes are doubles: for extents near 2^31 and small tiles
  // they do not fit in 64 bits.
  int64_t splits = numSplits(c, s.k);
  double tiles = static_cast<double>(ceilDiv(s.m, c.blockM)) *
                 ceilDiv(s.n, c.blockN) * splits * s.batch;
  int64_t slices = splitKChunk(c, s.k) / c.blockK;
  // The busiest SM runs ceil(tiles / SMs) blocks, up to blocksPerSM at once.
  double blocksOnBusiestSM = std::ceil(tiles / chip.numSMs);
  int64_t resident = static_cast<int64_t>(
      std::min(blocksOnBusiestSM, static_cast<double>(r.blocksPerSM)));
  double hiding = latencyHiding(resident * c.numWarps() / 4.0);
  double fmasPerBlock =
      static_cast<double>(c.blockM * c.blockN) * slices * c.blockK;
  double cyclesPerBlock =
      fmasPerBlock /
      (chip.fmaPerSMPerCycle * r.sliceEfficiency * hiding *
       r.sharedBandwidthFactor * threadTileFactor(c) *
       sliceLengthFactor(r.sliceInstructions) * kStallFactor);
  FmaTimeTerms terms;
  terms.compute = blocksOnBusiestSM * cyclesPerBlock / (chip.clockGHz * 1e9);
  // Each block streams its A rows and B columns; L2 serves most of it.
  double tileBytes =
      tiles * (c.blockM + c.blockN) * slices * c.blockK * s.elementBytes;
  double m = s.m, n = s.n, k = s.k;
  double dramBytes = (m * k + k * n + 2 * m * n) * s.elementBytes * s.batch;
  terms.dram = dramBytes / chip.dramBytesPerSecond;
  terms.tile = tileBytes / (2.5 * chip.dramBytesPerSecond);
  terms.memory = std::max(terms.dram, terms.tile);
  terms.cRowSecondsPerByte =
      m * n * s.batch / c.blockN / chip.dramBytesPerSecond;
  terms.ring = c.stages >= 3;
  double inFlightBytes = static_cast<double>(c.blockM + c.blockN) *
                         c.blockK * s.elementBytes *
                         (terms.ring ? c.stages - 1 : 1) *
                         std::max<int64_t>(resident, 1);
  double activeSMs = std::min(tiles, static_cast<double>(chip.numSMs));
  terms.loadsPerLatency = (m * k + k * n) * s.elementBytes * s.batch /
                          (inFlightBytes * activeSMs);
  // Under split-K every block adds its partial tile into C atomically.
  terms.atomics =
      splits > 1 ? static_cast<double>(splits) * s.m * s.n * s.batch /
                       kAtomicsPerSecond
                 : 0.0;
  terms.narrowB = !s.transposeB && !c.repack &&
                  std::gcd(s.n, s.layoutAlignB) * s.elementBytes % 16 != 0;
  terms.repack = c.repack ? fmaRepackSeconds(s) : 0.0;
  terms.launch = kLaunchSeconds;
  terms.blocksOnBusiestSM = blocksOnBusiestSM;
  terms.resident = resident;
  terms.slices = slices;
  terms.warpsPerBlock = c.numWarps();
  return terms;
}

double FmaCalibration::seconds(const FmaTimeTerms &t) const {
  double factor = (t.ring ? ringFactor : 1.0) *
                  std::pow(residencyFactor, std::log2(std::max(1.0, t.resident)));
  // With cRowBytes = 0 this is t.memory.
  double memory = std::max(t.dram + cRowBytes * t.cRowSecondsPerByte, t.tile);
  double bound = std::max({computeScale * t.compute, memoryScale * memory,
                           loadLatencySeconds * t.loadsPerLatency});
  double narrow = t.narrowB ? narrowCopyFactor : 1.0;
  return timeScale * (bound * factor * narrow + atomicsScale * t.atomics) +
         launchSeconds + t.repack;
}

const std::vector<FmaCalibrationField> &mlir::tile::fmaCalibrationFields() {
  static const std::vector<FmaCalibrationField> fields = {
      {"atomics_scale", &FmaCalibration::atomicsScale},
      {"c_row_bytes", &FmaCalibration::cRowBytes},
      {"compute_scale", &FmaCalibration::computeScale},
      {"launch_seconds", &FmaCalibration::launchSeconds},
      {"load_latency_seconds", &FmaCalibration::loadLatencySeconds},
      {"memory_scale", &FmaCalibration::memoryScale},
      {"narrow_copy_factor", &FmaCalibration::narrowCopyFactor},
      {"residency_factor", &FmaCalibration::residencyFactor},
      {"ring_factor", &FmaCalibration::ringFactor},
      {"time_scale", &FmaCalibration::timeScale}};
  return fields;
}

const FmaCalibration &mlir::tile::builtinFmaCalibration() {
  static const FmaCalibration calibration = [] {
    FmaCalibration result;
    const TuningTable &table = TuningTable::builtin("f32");
    for (const FmaCalibrationField &field : fmaCalibrationFields())
      if (std::optional<double> value = table.getModelParameter(field.key))
        result.*field.member = *value;
    return result;
  }();
  return calibration;
}

double mlir::tile::predictSeconds(const TileConfig &c, const MatmulShape &s,
                                  const ChipInfo &chip) {
  return predictSeconds(c, s, chip, builtinFmaCalibration());
}

double mlir::tile::predictSeconds(const TileConfig &c, const MatmulShape &s,
                                  const ChipInfo &chip,
                                  const FmaCalibration &calibration) {
  if (c.isWgmma())
    return estimateTensorCore(c, s, chip).seconds;
  FmaTimeTerms terms = fmaTimeTerms(c, s, chip);
  if (!std::isfinite(terms.compute))
    return std::numeric_limits<double>::infinity();
  return calibration.seconds(terms);
}

int64_t mlir::tile::shapeFormRegisters(const TileConfig &c,
                                       const MatmulShape &s) {
  if (c.isWgmma() || c.threadM * c.threadN >= 64)
    return 0;
  bool edge =
      s.m % c.blockM != 0 || s.n % c.blockN != 0 || s.k % c.blockK != 0;
  return (edge ? kEdgeRegisters : 0) + (s.readsC ? kAccumulateRegisters : 0);
}

int64_t mlir::tile::occupancyHintBlocks(const TileConfig &c,
                                        const MatmulShape &s,
                                        const ChipInfo &chip) {
  CostReport r = evaluate(c, chip, s);
  if (!r.fits || c.isWgmma())
    return r.blocksPerSM;
  int64_t registers = roundUp(r.estimatedRegisters + shapeFormRegisters(c, s),
                              chip.registerAllocUnit);
  int64_t byRegisters =
      chip.registersPerSM / (registers * tile::kWarpSize) / c.numWarps();
  return std::min(r.blocksPerSM, byRegisters);
}

std::vector<TileConfig>
mlir::tile::candidateConfigs(const MatmulShape &shape, const ChipInfo &chip) {
  if (shape.tensorCores())
    return tensorCoreCandidates(shape, chip);
  std::vector<TileConfig> result;
  for (int64_t blockM : {256, 128, 64, 32, 16})
    for (int64_t blockN : {256, 128, 64, 32, 16})
      for (int64_t blockK : {8, 16, 32, 64})
        for (auto [threadM, threadN] :
             {std::pair<int64_t, int64_t>{8, 8}, {8, 16}, {16, 8}, {4, 8},
              {8, 4}, {4, 4}, {2, 4}, {4, 2}})
          for (int64_t lanesM : {1, 2, 4, 8, 16}) {
            TileConfig c = TileConfig::withTiles(
                blockM, blockN, blockK, lanesM * threadM,
                (tile::kWarpSize / lanesM) * threadN, threadM, threadN);
            if (!checkConsistency(c).empty())
              continue;
            // A K range of one or two slices is unrolled whole, bounds
            // checks and all, and its live ranges outgrow any register
            // budget: 32x32x64 blocks of 4x2 tiles at 228x187x59 took 255
            // registers and 4.5 KB of spill stores without an occupancy,
            // 32x128x32 at 391x1207x31 8.6 KB (bench/check-spills.py --seed
            // 1 --total 1000 --in f32: 13 of 1000 kernels, all with K at
            // most 2 * BK). A BK over 8 needs two full slices of K.
            if (blockK > 8 && shape.k < 2 * blockK)
              continue;
            // Fewer than 4 warps (one per scheduler) ran at half speed in
            // the tuning runs (64x64 blocks of 2 warps at 3000^3: 19.6
            // TFLOP/s against 37.6 for 4 warps).
            if (c.numThreads() < 4 * tile::kWarpSize)
              continue;
            if (!evaluate(c, chip, shape).fits ||
                !hasRegisterHeadroom(c, chip, shape))
              continue;
            // Each at two stages through registers and, where B's rows
            // allow 16-byte copies, at three with cp.async (a B row of
            // single-element copies needs a 64-bit address per element:
            // 4095x4097x4093 ran 0.81x cuBLAS that way against 0.96x with
            // registers, bench/results/2026-11-29-h200-cp-async.md).
            // A transposed B (stored N x K) is copied one element per
            // cp.async whatever N is: register copies only. A strided B's
            // offset and row stride narrow its copies the same way.
            // (No repacked twins: B's padded copy, repack = true, is taken
            // only when asked for. Measured against the same configs
            // reading B in place on 66 held-out shapes where a joint refit
            // of the narrow-copy term picked it, it ran 0.95x geomean,
            // 0.65-1.12x: bench/results/2026-12-06-h100-f32-repack.md.)
            std::vector<TileConfig> staged = {c};
            if (std::gcd(shape.n, shape.layoutAlignB) % 4 == 0 &&
                !shape.transposeB) {
              TileConfig async = c;
              async.stages = 3;
              if (evaluate(async, chip, shape).fits &&
                  hasRegisterHeadroom(async, chip, shape))
                staged.push_back(async);
            }
            // Split-K where the tiles alone leave SMs idle and K is long
            // enough for every split to have several slices.
            // (A double: for extents near 2^31, small tiles and a batch
            // the count does not fit in 64 bits.)
            double tiles = static_cast<double>(ceilDiv(shape.m, blockM)) *
                           ceilDiv(shape.n, blockN) * shape.batch;
            for (const TileConfig &base : staged) {
              result.push_back(base);
              for (int64_t splits : {2, 4, 8, 16, 32}) {
                TileConfig split = base;
                split.splitK = splits;
                if (tiles * splits > 4 * chip.numSMs ||
                    numSplits(split, shape.k) != splits ||
                    splitKChunk(split, shape.k) < 4 * blockK)
                  break;
                result.push_back(split);
              }
            }
          }
  return result;
}

std::vector<TileConfig>
mlir::tile::rankedCandidates(const MatmulShape &shape, const ChipInfo &chip) {
  if (shape.tensorCores())
    return rankedTensorCoreCandidates(shape, chip);
  struct Ranked {
    TileConfig config;
    double seconds;
    int64_t wavefronts;
  };
  std::vector<Ranked> ranked;
  for (const TileConfig &c : candidateConfigs(shape, chip))
    ranked.push_back({c, predictSeconds(c, shape, chip),
                      evaluate(c, chip, shape).sharedWavefrontsPerStep});
  // Candidates come larger tiles first, so the stable sort keeps them first
  // among equals.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked &a, const Ranked &b) {
                     if (std::abs(a.seconds - b.seconds) >
                         1e-3 * std::min(a.seconds, b.seconds))
                       return a.seconds < b.seconds;
                     return a.wavefronts < b.wavefronts;
                   });
  std::vector<TileConfig> result;
  for (const Ranked &r : ranked)
    result.push_back(r.config);
  return result;
}

TileConfig mlir::tile::defaultConfig(const MatmulShape &shape,
                                     const ChipInfo &chip) {
  if (shape.tensorCores())
    return defaultTensorCoreConfig(shape, chip);
  std::vector<TileConfig> ranked = rankedCandidates(shape, chip);
  return ranked.empty() ? TileConfig() : ranked.front();
}
