//===- CostModel.cpp - the FP32 SIMT matmul cost model --------------------===//

#include "tile/Analysis/CostModel.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
/// Cycles a block spends per K slice outside the FMAs of its warps: the
/// barrier and the global loads' issue.
constexpr int64_t kSliceOverheadCycles = 40;
/// Launch and tail cost of one kernel, seconds.
constexpr double kLaunchSeconds = 3e-6;
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

int64_t mlir::tile::stagingRegisters(const TileConfig &config) {
  if (config.stages < 2)
    return 0;
  int64_t elements = (config.blockM + config.blockN) * config.blockK;
  return ceilDiv(elements, config.numThreads());
}

int64_t mlir::tile::fragmentVectorWidth(int64_t threadExtent,
                                        int64_t rowStride) {
  for (int64_t width : {4, 2})
    if (threadExtent % width == 0 && rowStride % width == 0)
      return width;
  return 1;
}

/// Elements per row of the A tile in shared memory.
static int64_t sharedRowA(const TileConfig &c) {
  return c.blockM + (c.smemLayout == SharedLayout::Pad ? c.smemPad : 0);
}

CostReport mlir::tile::evaluate(const TileConfig &c, const ChipInfo &chip,
                                int64_t elementBytes) {
  CostReport r;
  r.threadsPerBlock = c.numThreads();
  r.tileRegisters = threadTileRegisters(c.threadM, c.threadN, c.regPrefetch);
  r.stagingRegisters = stagingRegisters(c);
  r.overheadRegisters = kOverheadRegisters;
  r.estimatedRegisters =
      r.tileRegisters + r.stagingRegisters + r.overheadRegisters;
  int64_t buffers = std::max<int64_t>(1, c.stages);
  r.sharedBytes =
      buffers * c.blockK * (sharedRowA(c) + c.blockN) * elementBytes;

  r.globalIntensity = static_cast<double>(c.blockM * c.blockN) /
                      static_cast<double>(c.blockM + c.blockN);
  r.sharedIntensity = static_cast<double>(c.threadM * c.threadN) /
                      static_cast<double>(c.threadM + c.threadN);
  int64_t widthA = fragmentVectorWidth(c.threadM, sharedRowA(c));
  int64_t widthB = fragmentVectorWidth(c.threadN, c.blockN);
  int64_t loadsA = c.threadM / widthA, loadsB = c.threadN / widthB;
  r.sharedLoadsPerStep = loadsA + loadsB;
  r.fmasPerStep = c.threadM * c.threadN;
  r.issueEfficiency = issueSlotEfficiency(r.fmasPerStep, loadsA, loadsB,
                                          c.regPrefetch,
                                          chip.sharedLoadLatency);
  r.articleEfficiency =
      issueSlotEfficiency(r.fmasPerStep, c.threadM, c.threadN, c.regPrefetch,
                          chip.sharedLoadLatency);

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
    why << "an estimated " << r.estimatedRegisters
        << " registers per thread (" << r.tileRegisters << " for the "
        << c.threadM << "x" << c.threadN << " thread tile, "
        << r.stagingRegisters << " staging, " << r.overheadRegisters
        << " overhead), over the limit of " << chip.maxRegistersPerThread;
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
      (chip.registersPerSM / (regsPerThread * kWarpSize)) / warpsPerBlock;
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

double mlir::tile::predictSeconds(const TileConfig &c, const MatmulShape &s,
                                  const ChipInfo &chip) {
  CostReport r = evaluate(c, chip, s.elementBytes);
  if (!r.fits)
    return std::numeric_limits<double>::infinity();
  int64_t tiles = ceilDiv(s.m, c.blockM) * ceilDiv(s.n, c.blockN);
  int64_t slices = ceilDiv(s.k, c.blockK);
  // The busiest SM runs ceil(tiles / SMs) blocks, up to blocksPerSM at once.
  int64_t blocksOnBusiestSM = ceilDiv(tiles, chip.numSMs);
  int64_t resident = std::min(blocksOnBusiestSM, r.blocksPerSM);
  // Fewer than two warps per scheduler leave latency uncovered.
  double warpsPerScheduler = resident * c.numWarps() / 4.0;
  double hiding = std::min(1.0, 0.5 + 0.25 * warpsPerScheduler);
  double fmasPerBlock =
      static_cast<double>(c.blockM * c.blockN) * slices * c.blockK;
  double cyclesPerBlock =
      fmasPerBlock / (chip.fmaPerSMPerCycle * r.issueEfficiency * hiding) +
      slices * kSliceOverheadCycles;
  double computeSeconds =
      blocksOnBusiestSM * cyclesPerBlock / (chip.clockGHz * 1e9);
  // Each block streams its A rows and B columns; L2 serves most of it.
  double tileBytes = static_cast<double>(tiles) * (c.blockM + c.blockN) *
                     slices * c.blockK * s.elementBytes;
  double dramBytes =
      static_cast<double>(s.m * s.k + s.k * s.n + 2 * s.m * s.n) *
      s.elementBytes;
  double memorySeconds = std::max(dramBytes / chip.dramBytesPerSecond,
                                  tileBytes / (2.5 * chip.dramBytesPerSecond));
  return std::max(computeSeconds, memorySeconds) + kLaunchSeconds;
}

std::vector<TileConfig>
mlir::tile::candidateConfigs(const MatmulShape &shape, const ChipInfo &chip) {
  std::vector<TileConfig> result;
  for (int64_t blockM : {256, 128, 64, 32})
    for (int64_t blockN : {256, 128, 64, 32})
      for (int64_t blockK : {8, 16, 32})
        for (auto [threadM, threadN] :
             {std::pair<int64_t, int64_t>{8, 8}, {4, 8}, {8, 4}, {4, 4}})
          for (int64_t lanesM : {2, 4, 8}) {
            TileConfig c;
            c.blockM = blockM;
            c.blockN = blockN;
            c.blockK = blockK;
            c.threadM = threadM;
            c.threadN = threadN;
            c.warpM = lanesM * threadM;
            c.warpN = (kWarpSize / lanesM) * threadN;
            if (!checkConsistency(c).empty())
              continue;
            if (c.numThreads() < 64)
              continue;
            if (!evaluate(c, chip, shape.elementBytes).fits)
              continue;
            result.push_back(c);
          }
  return result;
}

TileConfig mlir::tile::defaultConfig(const MatmulShape &shape,
                                     const ChipInfo &chip) {
  TileConfig best;
  double bestSeconds = std::numeric_limits<double>::infinity();
  for (const TileConfig &c : candidateConfigs(shape, chip)) {
    double seconds = predictSeconds(c, shape, chip);
    // Prefer the larger tile on (near) ties: fewer blocks, more reuse.
    if (seconds < bestSeconds * 0.999) {
      best = c;
      bestSeconds = seconds;
    }
  }
  return best;
}
