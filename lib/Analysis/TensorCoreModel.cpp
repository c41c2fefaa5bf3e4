//===- TensorCoreModel.cpp - the cost model of the wgmma strategy ---------===//
//
// Registers (and their setmaxnreg split), shared memory, occupancy and a
// predicted time of a wgmma config on a bf16/f16 (or TF32) matmul, the
// candidates tile-configure and tile-tune choose from, and the default
// config.
//
// The time model, per wave of blocks (ceil(tiles / (SMs * blocks per SM))
// waves, the last one with the blocks left):
//
//   wave = max(tensor cores, loads, HBM share, ring latency) + exposed
//
//   tensor cores  b * 2 * BM * BN * K' / (989e12 / 132 * efficiency)
//                 (b blocks on the busiest SM share its tensor cores; K'
//                 is K rounded up to whole slabs; the efficiency is the
//                 calibrated main-loop share times factors for the
//                 instruction N, consumer warpgroups per SM, f16, and the
//                 non-specialized ring)
//   loads         TMA: b * (A rows + B columns inside the problem) * K *
//                 bytes / L2->shared bandwidth per SM (B columns halved
//                 in a 2x1 cluster: each block loads half of B's boxes,
//                 multicast to both; A rows in a 1x2 one); copies through
//                 registers: every slab element / one producer's copy rate
//                 (the producers of the b blocks copy side by side)
//   HBM share     the wave's share of the whole problem's HBM traffic
//                 (matmulTrafficBytes with the L2 reuse of one wave in the
//                 launch swizzle's order) / HBM bandwidth
//   ring latency  (slabs - 1) * slab latency / (stages - 1): a ring of S
//                 slots keeps S - 1 slabs in flight
//   exposed       (first slab's latency + C read + C written) / b: with one
//                 block per SM a block's prologue and epilogue are not
//                 overlapped with computation; with b blocks they overlap
//                 the others' main loops. A persistent kernel pays the
//                 first slab's latency once, not once per wave (its
//                 producer fills the next tile's slots during the
//                 epilogue); not calibrated (bench/results/
//                 2026-12-05-h200-wgmma-persistent.md: 1.5-3% measured
//                 with 64x256 warpgroup tiles, slower with 64x128 ones)
//
// plus the launch. The constants are calibrated to the H200 measurements
// of the 128x256x64 kernel (tile-run bench, cuBLAS in the same run); each
// says which measurement it comes from, or that it is assumed.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/SharedPlan.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

using namespace mlir::tile;

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

/// The least the pass accepts (below, the split cannot work at all):
/// consumers at their accumulators + 16, producers at setmaxnreg's minimum.
constexpr int64_t kMinConsumerOverhead = 16;
constexpr int64_t kMinSetmaxnreg = 24;
/// ptxas compiles the whole kernel under its launch register count, also
/// the code that setmaxnreg.inc gives more: one wgmma m64nNk16 needs its
/// N / 2 accumulators and this many more registers at launch. ptxas 13.0
/// refused m64n256k16 under 128 ("Insufficient registers (128) to compile
/// instruction ... register target of 154 or higher") and compiled
/// m64n192k16 under 128.
constexpr int64_t kWgmmaInstructionOverhead = 26;

//===----------------------------------------------------------------------===//
// Rates of the H200 (sm_90)
//===----------------------------------------------------------------------===//

/// Share of an SM's tensor peak that the main loop of the 128x256x64
/// kernel (two 64x256 consumer warpgroups, m64n256k16, 4 TMA stages,
/// specialized, one block per SM, swizzle 128) reaches. The calibration
/// anchors are the H200 measurements of that kernel (tile-run bench, C =
/// 0 + A*B in f32, cuBLAS in the same run; not yet recorded under
/// bench/results): 4096^3 bf16 708.7 TFLOP/s (0.194 ms; cuBLAS 754.6),
/// 8192^3 bf16 723.6 (1.520 ms; cuBLAS 764.9), 4096^3 f16 679.9 (cuBLAS
/// 723.2). Whole kernels at 0.72-0.73 of the peak; with this model's
/// prologue, epilogue and wave terms the main loop is at 0.80-0.84, and
/// 0.82 predicts all three within 3% (TensorCoreModelTest checks 5%).
constexpr double kMainLoopEfficiency = 0.82;
/// f16 against bf16: 4096^3 f16 ran at 679.9 TFLOP/s against bf16's 708.7
/// (0.96), and cuBLAS at 723.2 against 754.6 (0.96): the same tensor-core
/// rate on paper, lower in practice for both.
constexpr double kF16Factor = 0.96;
/// L2 -> shared memory bandwidth of one SM (TMA). Not measured directly.
/// The hand-written reference kernel's load-only probe
/// (/work/shared/reference/mlir-wgmma-endstate, ws_loadonly: the TMA ring
/// of 256x128x64 blocks alone at 4096^3) moved 512 x 384 x 4096 x 2 bytes
/// in 0.195 ms, launch and tail included: 8.3 TB/s, 63 GB/s per SM. The
/// 128x256 kernel above moves the same bytes and takes 0.194 ms in all
/// while tensor-core bound, so with the model's max(tensor cores, loads)
/// the bandwidth must be above ~73 GB/s (the bytes of a tile over its main
/// loop): 80 GB/s is assumed. It makes 128x128 tiles (1.33x the bytes per
/// FLOP) L2-bound at ~0.7 of the tensor peak.
constexpr double kL2ToSharedBytesPerSecondPerSM = 80e9;
/// Elements per second one producer warpgroup copies through registers
/// (2-byte loads, bounds-checked, swizzled stores into shared memory).
/// Calibrated to the one register-copy timing recorded: 4095x4097x4093
/// bf16 with 128x256x64 blocks, 4 stages, specialized took 2.254 ms on the
/// H200 (bench/results/2026-12-01-h200-wgmma.md; 5 waves bound by the
/// copies), which this rate reproduces (the earlier placeholder, 1.06e9,
/// predicted 7.46 ms).
constexpr double kRegisterCopyElementsPerSecond = 3.5e9;
/// Latency of one slab's copy (TMA from HBM through L2 into shared memory,
/// the mbarrier's completion): assumed, not measured (a DRAM round trip
/// of the H100/H200 class is ~0.6-0.8 us under load). It is the prologue of
/// every block and, divided by the S - 1 slabs in flight, the shortest time
/// per slab a ring of S slots sustains.
constexpr double kSlabLatencySeconds = 0.8e-6;
/// A TMA store's epilogue (store = tma): the consumers write the tile's
/// accumulators into shared memory (about 128 bytes a cycle) and meet
/// twice per box at their named barrier, while the TMA writes C (behind
/// the next tile's main loop in a persistent kernel; its bytes counted with
/// the rest of the HBM traffic). Assumed from the shared-memory store rate and a barrier's
/// latency, not calibrated.
constexpr double kStagingBytesPerSecondPerSM = 250e9;
constexpr double kStagingBoxSeconds = 0.1e-6;
/// Launch and tail of one kernel: the FP32 model's figure (the same launch
/// path).
constexpr double kLaunchSeconds = 4e-6;
/// Split-K's f32 atomic adds into C (atom.global.add.f32 through L2), per
/// second over the chip. A lower bound from the H200 measurements
/// (bench/results/2026-12-02-h200-wgmma-splitk.md): 16x8192x8192 with
/// 64x256 tiles ran 38.6 us with 4 splits and 38.2 us with 2, so 262144
/// more adds cost at most ~1 us; 128x1024x8192 took 13.7 us with 8 splits
/// and 13.8 us with 4. The FP32 model's 5e10 made the wgmma model predict
/// 10 us of adds there and pick fewer splits and smaller tiles than the
/// measurements favour.
constexpr double kAtomicsPerSecond = 3e11;
/// The runtime's repacking copy (cuMemcpy2DAsync device to device, from
/// rows of any byte length into padded rows, with its
/// stream-ordered allocation), measured on the H200 with
/// bench/probe/memcpy2d.cu (CUDA-event medians of 20, 2026-12-01): 1x3
/// 5.3 us, 37x13 6.0 us (the fixed cost); 8192x17 11.0 us (per row about
/// 0.7 ns once the bytes are negligible); 4095x4093 50.0 us and 8191x8191
/// 178.6 us (about 1.6 TB/s read plus written once the rows are long).
/// Within 15% of all ten probed shapes.
constexpr double kRepackFixedSeconds = 5.3e-6;

/// A TMA box row of a 128-byte swizzled slab is 128 bytes: where the
/// stored rows start on 128-byte lines each is one line.
constexpr int64_t kTmaLineBytes = 128;

/// An operand the TMA reads in place whose rows do not start on 128 bytes:
/// each box row spans two lines, and its slab bytes count this many times:
/// rows that start an odd multiple of 16 bytes into a line (five 32-byte
/// sectors a row instead of four) kMisalignedTmaFactor, rows on 32 bytes
/// kSectorAlignedTmaFactor. On the H200 (bench/results/
/// 2026-12-03-h200-tma-lines.md, 4096^3 bf16, 128x256x64 tiles, 4 stages)
/// rows 16 bytes into a line made the kernel 1.16x slower for A alone,
/// 1.36x for B alone, 1.73x for both (1.89x with B stored N x K), rows 64
/// bytes in 1.22x for both; a dense 4096x4104x4104 (rows 16 bytes further
/// into a line each) ran 1.37x slower per flop than 4096x4160x4160.
constexpr double kMisalignedTmaFactor = 2.0;
constexpr double kSectorAlignedTmaFactor = 1.25;
constexpr double kRepackRowSeconds = 0.7e-9;
constexpr double kRepackBytesPerSecond = 1.6e12;

/// Tensor-core rate of a wgmma instruction N relative to m64n256k16: a
/// smaller N reads the same 64x16 A fragment for fewer products. Only N =
/// 256 is measured (the constant above); the others are assumed.
double instructionNFactor(int64_t n) {
  if (n >= 256)
    return 1.0;
  if (n >= 192)
    return 0.98;
  if (n >= 128)
    return 0.95;
  if (n >= 64)
    return 0.85;
  if (n >= 32)
    return 0.65;
  return 0.45;
}

/// Consumer warpgroups resident on an SM: one alone waits for its own
/// wgmma groups and slabs with nothing to fill the gaps. Assumed (the
/// measured kernels had two).
double consumersFactor(int64_t consumersPerSM) {
  return consumersPerSM >= 2 ? 1.0 : 0.9;
}

/// Without specialization the first consumer warpgroup's thread 0 also
/// waits for empty slots and issues the TMA: assumed 0.9 (an ablation
/// candidate, never the default).
constexpr double kNonSpecializedFactor = 0.9;
/// What a cluster costs beyond its loads (the blocks wait for each other's
/// releases and at cluster barriers, and the launch places pairs; measured
/// on 2x1 clusters, taken for 1x2 too):
/// the same config ran 0.7-6.1% slower in a cluster on seven shapes the
/// tensor cores bound (geomean 2.5%; 2048^3 to 8 x 2048^3, H200;
/// 0.1-1.6% faster on three on the H100, bench/results/
/// 2026-12-05-cluster.md). Where L2->shared binds it
/// buys what the halved B traffic gives (3000x5000x2000: 1.25x). The
/// candidates have no clusters: with them the model picked one on 21 of
/// 180 random shapes, which ran at geomean 0.95x of its pick without
/// (H100, same results file); a cluster is built on request.
constexpr double kClusterFactor = 1.04;

} // namespace

bool mlir::tile::rowsStartOn(int64_t bytes, int64_t cols,
                             int64_t elementBytes, int64_t layoutAlign) {
  return (layoutAlign ? layoutAlign : cols) * elementBytes % bytes == 0;
}

namespace {
/// Whether the TMA can read the stored rows of A (`b` false) or B in
/// place: rows and their start on 16 bytes.
bool tmaInPlace(const MatmulShape &shape, bool b) {
  return rowsStartOn(16, b ? shape.storedColsB() : shape.storedColsA(),
                     shape.elementBytes,
                     b ? shape.layoutAlignB : shape.layoutAlignA);
}
} // namespace

bool mlir::tile::tmaRowsAligned(const MatmulShape &shape) {
  return tmaInPlace(shape, false) && tmaInPlace(shape, true);
}

int64_t mlir::tile::repackRowStride(int64_t cols, int64_t elementBytes,
                                    int64_t layoutAlign, bool overlap) {
  if (rowsStartOn(kTmaLineBytes, cols, elementBytes, layoutAlign) ||
      (overlap && rowsStartOn(16, cols, elementBytes, layoutAlign)))
    return 0;
  return roundUp(cols, kTmaLineBytes / elementBytes);
}

double mlir::tile::tmaLineFactor(int64_t offset, int64_t rowStride,
                                 int64_t elementBytes) {
  // The rows' starts within a line repeat after at most 128 rows.
  int64_t first = offset * elementBytes % kTmaLineBytes;
  int64_t step = rowStride * elementBytes % kTmaLineBytes;
  double sum = 0;
  for (int64_t r = 0; r < kTmaLineBytes; ++r) {
    int64_t start = (first + r * step) % kTmaLineBytes;
    sum += start == 0        ? 1.0
           : start % 32 == 0 ? kSectorAlignedTmaFactor
                             : kMisalignedTmaFactor;
  }
  return sum / kTmaLineBytes;
}

std::pair<int64_t, int64_t>
mlir::tile::repackRowStrides(const MatmulShape &shape) {
  int64_t colsA = shape.storedColsA(), colsB = shape.storedColsB();
  int64_t perLine = kTmaLineBytes / shape.elementBytes;
  bool needA = !tmaInPlace(shape, false), needB = !tmaInPlace(shape, true);
  // (A copy that must be made anyway pads its rows to the lines; one that
  // need not be is made only when no other is: at 300x520x1001 f16 a
  // second copy for B's 1040-byte rows cost 4 us on a 12 us kernel.)
  if (needA || needB)
    return {needA ? roundUp(colsA, perLine) : 0,
            needB ? roundUp(colsB, perLine) : 0};
  return {repackRowStride(colsA, shape.elementBytes, shape.layoutAlignA,
                          shape.overlapRowsA),
          repackRowStride(colsB, shape.elementBytes, shape.layoutAlignB,
                          shape.overlapRowsB)};
}

/// The runtime's repacking copies of `allRows` rows of `cols` elements
/// (`elementBytes` each) in `copies` cuMemcpy2DAsync calls, at the measured
/// rates (kRepackFixedSeconds and below).
static double repackCopySeconds(double allRows, int64_t cols,
                                int64_t elementBytes, int64_t copies) {
  return copies * kRepackFixedSeconds + allRows * kRepackRowSeconds +
         2.0 * allRows * cols * elementBytes / kRepackBytesPerSecond;
}

double mlir::tile::repackSeconds(const MatmulShape &shape) {
  // A batch's matrices are copied together where they lie back to back (a
  // dense operand), else one copy each (a strided one, counted so even
  // where its matrices happen to be adjacent).
  auto copy = [&](int64_t rows, int64_t cols, int64_t stride,
                  int64_t layoutAlign) {
    if (stride == 0)
      return 0.0;
    return repackCopySeconds(static_cast<double>(rows) * shape.batch, cols,
                             shape.elementBytes,
                             layoutAlign == 0 ? 1 : shape.batch);
  };
  auto [strideA, strideB] = repackRowStrides(shape);
  return copy(shape.storedRowsA(), shape.storedColsA(), strideA,
              shape.layoutAlignA) +
         copy(shape.storedRowsB(), shape.storedColsB(), strideB,
              shape.layoutAlignB);
}

bool mlir::tile::fmaRepacksB(const MatmulShape &shape) {
  return !shape.tensorCores() && !shape.transposeB && shape.layoutAlignB == 0 &&
         shape.batch == 1 &&
         shape.n * shape.elementBytes % 16 != 0;
}

int64_t mlir::tile::fmaRepackRowStride(const MatmulShape &shape) {
  return fmaRepacksB(shape) ? roundUp(shape.n, 16 / shape.elementBytes) : 0;
}

double mlir::tile::fmaRepackSeconds(const MatmulShape &shape) {
  return fmaRepacksB(shape) ? repackCopySeconds(static_cast<double>(shape.k),
                                                shape.n, shape.elementBytes, 1)
                            : 0.0;
}

bool mlir::tile::modelTakesTmaStore(const MatmulShape &shape,
                                    const TileConfig &c) {
  int64_t alignC = shape.layoutAlignC ? shape.layoutAlignC : shape.n;
  return c.isWgmma() && c.specialize && c.copyKind() == CopyKind::Tma &&
         c.splitK == 1 && !shape.readsC &&
         alignC * shape.resultBytes % 16 == 0 &&
         c.warpN % (kSwizzleRowBytes / shape.resultBytes) == 0;
}

bool mlir::tile::modelTakesPersistent(const MatmulShape &shape,
                                      const TileConfig &c,
                                      int64_t blocksPerSM,
                                      const ChipInfo &chip) {
  if (!c.tmaStore || !modelTakesTmaStore(shape, c) || c.clusterSize() > 1 ||
      shape.m % c.blockM != 0 || shape.n % c.blockN != 0)
    return false;
  int64_t tiles = shape.m / c.blockM * (shape.n / c.blockN) * shape.batch;
  return tiles > chip.numSMs * std::max<int64_t>(1, blocksPerSM);
}

bool mlir::tile::canRepack(const MatmulShape &shape) {
  // Rows not on 16 bytes must be repacked (the TMA cannot read them in
  // place), which overlapping rows cannot be.
  return !(!tmaInPlace(shape, false) && shape.overlapRowsA) &&
         !(!tmaInPlace(shape, true) && shape.overlapRowsB);
}

WarpgroupRegisters mlir::tile::warpgroupRegisters(const TileConfig &c) {
  WarpgroupRegisters r;
  int64_t threads = c.numThreads();
  // (At least one: evaluate() may see an inconsistent config, warp tiles
  // larger than the block tile, before checkConsistency refuses it.)
  int64_t consumers = std::max<int64_t>(1, c.numConsumers());
  r.blocksPerSM = std::max<int64_t>(1, c.minBlocksPerSM);
  r.launchRegisters = std::min<int64_t>(
      255, 65536 / std::max<int64_t>(1, threads * r.blocksPerSM) / 8 * 8);
  r.accumulators = c.warpM * c.warpN / kWarpgroupSize;
  r.consumerNeed = std::max(r.accumulators + kConsumerOverheadRegisters,
                            kMinConsumerNeed);
  std::ostringstream why;
  if (!c.specialize) {
    // Every warpgroup computes under the launch cap; no setmaxnreg.
    r.consumerRegisters = r.launchRegisters;
    if (r.consumerRegisters < r.accumulators + kMinConsumerOverhead)
      why << r.blocksPerSM << " block(s) per SM of " << threads
          << " threads leave " << r.consumerRegisters
          << " registers per thread (for " << r.accumulators
          << " accumulators)";
    r.whyNot = why.str();
    return r;
  }
  int64_t blockRegs = r.launchRegisters * threads;
  if (c.copyKind() == CopyKind::Tma) {
    r.producerRegisters = kTmaProducerRegisters;
    r.producerNeed = kTmaProducerRegisters;
    r.consumerRegisters = std::min<int64_t>(
        kMaxSetmaxnregRegisters,
        (blockRegs - kWarpgroupSize * r.producerRegisters) /
            (kWarpgroupSize * consumers) / 8 * 8);
  } else {
    // The producer keeps what it needs and the consumers share the rest,
    // as with the TMA (giving the producer the rest instead left small
    // tiles' consumers at 168, and one of 64 accumulators reading C with
    // odd-column stores spilled there).
    r.producerNeed = kRegisterCopyProducerRegisters;
    r.producerRegisters = kRegisterCopyProducerRegisters;
    r.consumerRegisters = std::min<int64_t>(
        kMaxSetmaxnregRegisters,
        (blockRegs - kWarpgroupSize * r.producerRegisters) /
            (kWarpgroupSize * consumers) / 8 * 8);
  }
  if (r.consumerRegisters < r.accumulators + kMinConsumerOverhead ||
      r.producerRegisters < kMinSetmaxnreg)
    why << r.blocksPerSM << " block(s) per SM of " << threads
        << " threads leave " << r.consumerRegisters
        << " registers per consumer thread (for " << r.accumulators
        << " accumulators) and " << r.producerRegisters
        << " per producer thread";
  r.whyNot = why.str();
  return r;
}

double mlir::tile::matmulTrafficBytes(const MatmulShape &s, int64_t reuseM,
                                      int64_t reuseN) {
  double a = static_cast<double>(s.m) * s.k * s.elementBytes;
  double b = static_cast<double>(s.k) * s.n * s.elementBytes;
  double c = static_cast<double>(s.m) * s.n * s.resultBytes;
  return a * ceilDiv(s.n, std::max<int64_t>(1, reuseN)) +
         b * ceilDiv(s.m, std::max<int64_t>(1, reuseM)) +
         c * (s.readsC ? 2 : 1);
}

CostReport mlir::tile::evaluateTensorCore(const TileConfig &c,
                                          const ChipInfo &chip,
                                          int64_t elementBytes) {
  CostReport r;
  // A config the verifier refuses (a zero or larger-than-block warpgroup
  // tile, from options) does not fit: its counts would divide by zero.
  if (std::string why = checkConsistency(c); !why.empty()) {
    r.whyNot = why;
    r.fits = false;
    return r;
  }
  r.threadsPerBlock = c.numThreads();
  WarpgroupRegisters regs = warpgroupRegisters(c);
  // One f32 accumulator register per element of the warpgroup tile, spread
  // over its 128 threads.
  r.tileRegisters = regs.accumulators;
  r.overheadRegisters = regs.consumerNeed - regs.accumulators;
  r.estimatedRegisters = regs.consumerNeed;
  r.registerCap = regs.consumerRegisters;
  SharedPlan plan = getSharedPlan(c, elementBytes);
  r.sharedBytes = plan.totalBytes;
  r.globalIntensity = static_cast<double>(c.blockM * c.blockN) /
                      static_cast<double>(c.blockM + c.blockN);
  std::ostringstream why;
  // (The block's threads are at most 1024 by checkConsistency.)
  if (chip.name != "sm_90")
    why << "wgmma needs sm_90 (Hopper); " << chip.name << " has none";
  else if (regs.accumulators + kMinConsumerOverhead > kMaxSetmaxnregRegisters)
    why << "the " << c.warpM << "x" << c.warpN << " warpgroup tile has "
        << regs.accumulators << " accumulators per thread, and with "
        << kMinConsumerOverhead << " more registers that is over the "
        << kMaxSetmaxnregRegisters << " a warpgroup thread can hold";
  else if (!regs.whyNot.empty())
    why << regs.whyNot << "; lower the occupancy or the warpgroup tile";
  else if (c.threadN / 2 + kWgmmaInstructionOverhead > regs.launchRegisters)
    why << "the m64n" << c.threadN << "k" << c.mmaK << " instruction needs "
        << c.threadN / 2 + kWgmmaInstructionOverhead
        << " registers per thread at launch, and " << regs.blocksPerSM
        << " block(s) per SM of " << r.threadsPerBlock << " threads start with "
        << regs.launchRegisters
        << "; lower the occupancy or the instruction N";
  else if (r.sharedBytes > chip.sharedBytesPerBlock)
    why << r.sharedBytes << " bytes of shared memory per block, over the "
        << chip.name << " limit of " << chip.sharedBytesPerBlock;
  r.whyNot = why.str();
  r.fits = r.whyNot.empty();
  if (!r.fits)
    return r;
  // Registers a thread holds at launch: a specialized kernel's cap
  // (setmaxnreg shares out exactly that); otherwise what the consumers
  // need, at most the cap.
  int64_t perThread =
      c.specialize
          ? regs.launchRegisters
          : std::min(regs.launchRegisters,
                     roundUp(regs.consumerNeed, chip.registerAllocUnit));
  // At least one block per SM by each limit: the cap is 65536 registers
  // over the block's threads, the block's shared memory is within the
  // per-block limit, which with the reservation is the SM's.
  int64_t byRegisters =
      chip.registersPerSM / std::max<int64_t>(1, perThread * r.threadsPerBlock);
  int64_t byShared =
      chip.sharedBytesPerSM / (r.sharedBytes + chip.sharedBytesReserved);
  int64_t byThreads = chip.maxThreadsPerSM / r.threadsPerBlock;
  r.blocksPerSM = chip.maxBlocksPerSM;
  r.occupancyLimiter = "blocks per SM";
  auto limit = [&](int64_t value, const char *what) {
    if (value < r.blocksPerSM) {
      r.blocksPerSM = value;
      r.occupancyLimiter = what;
    }
  };
  limit(byThreads, "threads");
  limit(byRegisters, "registers");
  limit(byShared, "shared memory");
  assert(r.blocksPerSM >= 1 && "a wgmma block that fits has an SM");
  r.warpsPerSM = r.blocksPerSM * c.numWarps();
  return r;
}

TensorCoreEstimate mlir::tile::estimateTensorCore(const TileConfig &c,
                                                  const MatmulShape &s,
                                                  const ChipInfo &chip) {
  TensorCoreEstimate e;
  e.seconds = std::numeric_limits<double>::infinity();
  CostReport r = evaluateTensorCore(c, chip, s.elementBytes);
  int64_t tilesM = ceilDiv(s.m, c.blockM), tilesN = ceilDiv(s.n, c.blockN);
  // (A batched matmul has the tiles of each matrix.)
  int64_t matrixTiles = tilesM * tilesN;
  e.tiles = matrixTiles * s.batch;
  // Under split-K a block computes a chunk of whole slabs of one tile (the
  // last chunk may be shorter: counted as long as the others, since the
  // wave waits for its longest block).
  e.splits = numSplits(c, s.k);
  int64_t allSlabs = ceilDiv(s.k, c.blockK);
  e.slabs = e.splits > 1 ? splitKChunk(c, s.k) / c.blockK : allSlabs;
  int64_t kPerBlock = e.slabs * c.blockK;
  e.blocksPerSM = r.blocksPerSM;
  double flops = 2.0 * s.m * s.n * s.k * s.batch;
  double paddedFlops =
      2.0 * e.tiles * c.blockM * c.blockN * allSlabs * c.blockK;
  e.usefulFraction = flops / paddedFlops;
  e.launchSeconds = kLaunchSeconds;
  if (!r.fits || e.blocksPerSM < 1)
    return e;
  int64_t sms = chip.numSMs;
  int64_t perWave = sms * e.blocksPerSM;
  // split_last: the last tiles of each matrix split, the others whole.
  bool splitLast = c.splitLast > 0 && e.splits > 1;
  e.splitTiles = splitTileCount(c, matrixTiles, s.k) * s.batch;
  int64_t wholeBlocks = e.tiles - e.splitTiles;
  int64_t blocks = wholeBlocks + e.splitTiles * e.splits;
  e.blocks = blocks;
  e.waves = ceilDiv(blocks, perWave);

  // One block alone on an SM.
  e.instructionEfficiency =
      kMainLoopEfficiency * instructionNFactor(c.threadN) *
      consumersFactor(c.numConsumers() *
                      std::min<int64_t>(e.blocksPerSM,
                                        ceilDiv(blocks, sms))) *
      (c.specialize ? 1.0 : kNonSpecializedFactor) *
      (s.f16                             ? kF16Factor
       : computesTf32(c, s.elementBytes) ? kTf32PeakRatio
                                         : 1.0);
  double smFlops = kTensorCorePeakFlops / sms * e.instructionEfficiency;
  e.mmaSeconds = 2.0 * c.blockM * c.blockN * kPerBlock / smFlops;
  // A whole tile's block under split_last: all of K.
  double wholeScale = static_cast<double>(allSlabs) / e.slabs;
  // Rows of A and columns of B inside the problem, on average per tile:
  // the TMA reads nothing outside it (the box's rest is zero-filled).
  double rowsA = static_cast<double>(s.m) / tilesM;
  double colsB = static_cast<double>(s.n) / tilesN;
  // An operand read in place (not repacked) with rows off 128-byte lines
  // counts its bytes more (tmaLineFactor).
  std::pair<int64_t, int64_t> strides{0, 0};
  if (c.copyKind() == CopyKind::Tma && c.repack)
    strides = repackRowStrides(s);
  auto lineFactor = [&](int64_t cols, int64_t repackStride, int64_t offset,
                        int64_t rowStride) {
    if (repackStride != 0)
      return 1.0;
    return tmaLineFactor(offset, rowStride ? rowStride : cols, s.elementBytes);
  };
  // In a cluster each block loads its part of the operand the blocks share
  // (B in a 2x1 cluster, A in a 1x2 one) and the TMA multicasts it.
  double tmaBytes =
      (rowsA *
           lineFactor(s.storedColsA(), strides.first, s.offsetA, s.rowStrideA) /
           static_cast<double>(c.clusterN) +
       colsB *
           lineFactor(s.storedColsB(), strides.second, s.offsetB,
                      s.rowStrideB) /
           static_cast<double>(c.clusterM)) *
      std::min(s.k, kPerBlock) * s.elementBytes;
  double copyElements =
      static_cast<double>(c.blockM + c.blockN) * kPerBlock;
  bool registerCopies = c.copyKind() == CopyKind::Registers;
  e.loadSeconds = registerCopies
                      ? copyElements / kRegisterCopyElementsPerSecond
                      : tmaBytes / kL2ToSharedBytesPerSecondPerSM;
  // C of one tile, written after the main loop (and read before it): all
  // the wave's blocks at about the same time, through HBM.
  double cBytes = rowsA * colsB * s.resultBytes;
  int64_t concurrent = std::min(blocks, perWave);
  double cSeconds = std::max(cBytes / kL2ToSharedBytesPerSecondPerSM,
                             concurrent * cBytes / chip.dramBytesPerSecond);
  e.epilogueSeconds = cSeconds;
  if (c.tmaStore) {
    int64_t boxesPerWarpgroup =
        (c.warpM / 64) * ceilDiv(c.warpN * s.resultBytes, kSwizzleRowBytes);
    e.epilogueSeconds = cBytes / kStagingBytesPerSecondPerSM +
                        boxesPerWarpgroup * kStagingBoxSeconds;
  }
  e.prologueSeconds =
      std::max(kSlabLatencySeconds, s.readsC ? cSeconds : 0.0);
  // Under split_last a whole tile's block reads C before its loop (the
  // fill stays on the host) and stores it after, as an unsplit kernel does.
  double wholePrologueSeconds = std::max(kSlabLatencySeconds, cSeconds);
  if (e.splits > 1) {
    // The partial tiles go into C by atomic adds (C is read by them, not
    // before the loop).
    e.epilogueSeconds = std::max(
        cSeconds, concurrent * rowsA * colsB / kAtomicsPerSecond);
    e.prologueSeconds = kSlabLatencySeconds;
  }

  // The whole problem's HBM traffic, with the L2 reuse of one wave: the
  // launch order walks `swizzle` tile rows at a time, so a wave covers that
  // many rows and perWave / rows columns of tiles.
  // (Under split-K a wave holds the same chunk of consecutive tiles.)
  // (The launch walks a batch's matrices one after another: a wave shares
  // rows and columns within one matrix only.)
  int64_t waveTiles = std::min(matrixTiles, concurrent);
  int64_t waveRows = std::min<int64_t>({c.swizzleGroup, tilesM, waveTiles});
  int64_t waveCols = std::min<int64_t>(tilesN, ceilDiv(waveTiles, waveRows));
  e.reuseM = waveRows * c.blockM;
  e.reuseN = waveCols * c.blockN;
  e.hbmBytes = matmulTrafficBytes(s, e.reuseM, e.reuseN) * s.batch;
  // Split-K reads and writes C once more per further split (C assumed to
  // leave L2 between them), for the split tiles' share of C.
  if (e.splits > 1)
    e.hbmBytes += (2.0 * (e.splits - 1) * s.m * s.n * s.resultBytes *
                       e.splitTiles / e.tiles +
                   (s.readsC ? 0.0 : static_cast<double>(s.m) * s.n *
                                         s.resultBytes)) *
                  s.batch;
  e.hbmSeconds = e.hbmBytes / chip.dramBytesPerSecond;
  e.tileIntensity = 2.0 * c.blockM * c.blockN /
                    (static_cast<double>(c.blockM + c.blockN) * s.elementBytes);
  e.hbmIntensity = flops / e.hbmBytes;

  // After the first slab (the prologue), a ring of S slots keeps S - 1
  // slabs in flight.
  auto ringSeconds = [&](int64_t slabs) {
    return (slabs - 1) * kSlabLatencySeconds /
           static_cast<double>(c.stages - 1);
  };
  // A wave of `inWave` blocks: of a split's K, or with `wholeTiles` the
  // whole tiles of split_last (all of K, C read and stored in place);
  // `bound` names its largest term.
  auto waveSeconds = [&](int64_t inWave, std::string *bound,
                         bool wholeTiles = false) {
    double scale = wholeTiles ? wholeScale : 1.0;
    // Blocks on the busiest SM.
    int64_t b = ceilDiv(inWave, sms);
    double mma = b * e.mmaSeconds * scale;
    double load = registerCopies
                      ? std::max(e.loadSeconds * scale,
                                 b * copyElements * scale * s.elementBytes /
                                     kL2ToSharedBytesPerSecondPerSM)
                      : b * e.loadSeconds * scale;
    double hbm = e.hbmSeconds * inWave * scale /
                 (wholeBlocks * wholeScale + e.splitTiles * e.splits);
    double ring = ringSeconds(wholeTiles ? allSlabs : e.slabs);
    double busy = std::max({mma, load, hbm, ring});
    if (bound)
      *bound = busy == mma    ? "tensor cores"
               : busy == load ? (registerCopies ? "register copies"
                                                : "L2->shared")
               : busy == hbm  ? "HBM"
                              : "ring latency";
    // A persistent kernel's producer fills the next tile's slots while
    // the consumers store C: the first slab's latency is paid once per
    // block (below), not once per tile. The consumers' stores of C still
    // come between two tiles' main loops.
    double epilogue = wholeTiles ? cSeconds : e.epilogueSeconds;
    double prologue = wholeTiles ? wholePrologueSeconds : e.prologueSeconds;
    double exposed = c.persistent ? epilogue : prologue + epilogue;
    return busy + exposed / b;
  };
  double total = 0;
  if (splitLast && wholeBlocks > 0) {
    // The whole tiles' full waves, then a wave of the rest of them beside
    // the split tiles' blocks, which take the slots as they free up: as
    // long as the longest whole block, or the pair's work spread over the
    // chip, whichever is more.
    int64_t fullWaves = wholeBlocks / perWave, rest = wholeBlocks % perWave;
    double whole = waveSeconds(perWave, &e.bound, /*wholeTiles=*/true);
    double split = waveSeconds(perWave, nullptr);
    total += fullWaves * whole;
    int64_t splitBlocks = e.splitTiles * e.splits;
    double spread = (rest * whole + splitBlocks * split) / perWave;
    double tail =
        rest > 0 ? std::max(waveSeconds(rest, nullptr, /*wholeTiles=*/true),
                            spread)
                 : std::max(split, spread);
    total += tail;
  } else {
    int64_t fullWaves = blocks / perWave, rest = blocks % perWave;
    if (fullWaves > 0)
      total += fullWaves * waveSeconds(perWave, &e.bound);
    if (rest > 0)
      total += waveSeconds(rest, fullWaves > 0 ? nullptr : &e.bound);
  }
  if (c.persistent)
    total += e.prologueSeconds;
  if (c.copyKind() == CopyKind::Tma && c.repack)
    e.repackSeconds = repackSeconds(s);
  if (c.clusterSize() > 1)
    total *= kClusterFactor;
  e.seconds = total + e.launchSeconds + e.repackSeconds;
  return e;
}

namespace {
/// A wgmma config with these tiles and the strategy's other defaults.
TileConfig wgmmaConfig(int64_t elementBytes, int64_t blockM, int64_t blockN,
                       int64_t warpM, int64_t warpN, int64_t instructionN,
                       int64_t stages, CopyKind copy, bool specialize,
                       int64_t occupancy) {
  TileConfig c = TileConfig::wgmmaDefaults(elementBytes);
  c.setBlock(blockM, blockN, c.blockK);
  c.setWarp(warpM, warpN);
  c.setThread(64, instructionN);
  c.stages = stages;
  c.copy = copy;
  c.specialize = specialize;
  c.minBlocksPerSM = occupancy;
  return c;
}

/// The launch swizzle group for `c` on `shape`: 8 tile rows (what the
/// measured kernels use; with fewer tile rows the order is the same as with
/// all of them), unless a group of 1-32 rows the grid has predicts a
/// shorter time (only the HBM term depends on it: a wave of tiles shares A
/// rows and B columns in L2).
int64_t chooseSwizzle(TileConfig c, const MatmulShape &shape,
                      const ChipInfo &chip) {
  int64_t tilesM = ceilDiv(shape.m, c.blockM);
  int64_t best = 8;
  c.swizzleGroup = best;
  double bestSeconds = estimateTensorCore(c, shape, chip).seconds;
  for (int64_t group : {1, 2, 4, 16, 32}) {
    if (group > tilesM || group == best)
      continue;
    c.swizzleGroup = group;
    double seconds = estimateTensorCore(c, shape, chip).seconds;
    if (seconds < bestSeconds * (1 - 1e-3)) {
      best = group;
      bestSeconds = seconds;
    }
  }
  return best;
}
/// Split-K variants of `c`, for shapes whose tiles leave SMs idle: f32 C
/// (the partial products are added atomically), 2-16 splits that each get
/// at least as many slabs as the ring has slots, and no more blocks than two
/// full waves. Chosen by the predicted time like every other candidate.
void appendSplitKCandidates(const TileConfig &c, const MatmulShape &shape,
                            const ChipInfo &chip, int64_t blocksPerSM,
                            std::vector<TileConfig> &result) {
  int64_t tiles = ceilDiv(shape.m, c.blockM) * ceilDiv(shape.n, c.blockN) *
                  shape.batch;
  int64_t perWave = chip.numSMs * blocksPerSM;
  if (shape.resultBytes != 4)
    return;
  // (Where the tiles fill more than a wave, a split of the last wave's
  // tiles alone, split_last, is not proposed: measured on an H100 it ran
  // 11-16% slower than the same config unsplit at 2056^3, 3000^3 and
  // 6000x1000x3000, its whole tiles' blocks adding their C into place
  // atomically; bench/results/2026-12-06-h100-split-last.md.)
  if (tiles >= perWave)
    return;
  for (int64_t splits : {2, 3, 4, 6, 8, 12, 16}) {
    TileConfig split = c;
    split.splitK = splits;
    if (numSplits(split, shape.k) != splits ||
        splitKChunk(split, shape.k) / c.blockK < c.stages ||
        tiles * splits > 2 * perWave)
      continue;
    split.swizzleGroup = chooseSwizzle(split, shape, chip);
    result.push_back(split);
  }
}
} // namespace

std::string mlir::tile::checkTf32Layout(const MatmulShape &shape) {
  if (shape.transposeA)
    return "A is stored K x M";
  if (!shape.transposeB)
    return "B is stored K x N";
  return {};
}

std::vector<TileConfig>
mlir::tile::tensorCoreCandidates(const MatmulShape &shape,
                                 const ChipInfo &chip) {
  std::vector<TileConfig> result;
  if (!shape.tensorCores() || chip.name != "sm_90" ||
      (shape.tf32 && !checkTf32Layout(shape).empty()))
    return result;
  // Aligned rows: the TMA reads A and B in place. Others: copies through
  // registers, or the TMA on the runtime's repacked copies (whose cost the
  // estimate adds).
  bool aligned = tmaRowsAligned(shape);
  // (Overlapping rows the TMA cannot read in place cannot be repacked
  // either: register copies only.)
  std::vector<CopyKind> copies;
  if (aligned || canRepack(shape))
    copies.push_back(CopyKind::Tma);
  std::pair<int64_t, int64_t> lineStrides = repackRowStrides(shape);
  bool lineRepack = lineStrides.first != 0 || lineStrides.second != 0;
  // TF32 copies through registers spilled: the producer's 4-byte copies
  // at its 104 registers, in 5 of 400 random shapes with rows off 16 bytes
  // (12-96 bytes: K split 3-6 ways, K of one or two slabs, 1392x251x222
  // at any ring depth), while the TMA on the repacked copies spilled in
  // none of 600 (bench/check-spills.py --seed 20261218 and 20261220
  // --count 50 --in f32 --transpose-b --options tf32=true, and --seed
  // 20261219 --aligned; ptxas 13.0; bench/results/2026-12-05-tf32-spills.md).
  // So TF32 takes the TMA only (register copies still compile when asked
  // for).
  if (!aligned && !shape.tf32)
    copies.push_back(CopyKind::Registers);
  // C through TMA stores where the staging buffers fit beside the ring
  // (at the config's occupancy): measured 1.02-1.17x faster than stores
  // from registers on the H100 (bench/results/2026-12-06-h100-tma-store.md).
  auto appendStaged = [&](const TileConfig &c) {
    if (!modelTakesTmaStore(shape, c))
      return;
    TileConfig staged = c;
    staged.tmaStore = true;
    CostReport r = evaluateTensorCore(staged, chip, shape.elementBytes);
    if (!r.fits || r.blocksPerSM < std::max<int64_t>(1, c.minBlocksPerSM))
      return;
    result.push_back(staged);
    // And persistent where every tile is whole (modelTakesPersistent).
    if (modelTakesPersistent(shape, staged, r.blocksPerSM, chip)) {
      staged.persistent = true;
      result.push_back(staged);
    }
  };
  // B is stored in 64-column chunks (BN a multiple of 64); a TMA box holds
  // at most 256 rows (BM <= 256).
  // BN = 192 (three chunks, m64n192 instructions) only where 128x256 tiles
  // fill less than one wave: there it puts more SMs to work or wastes less
  // of the last tile column. Measured on the H100 against the model's
  // picks without it: 1.13x at 1512x1588x1334 (84 tiles of 128x256 on 132
  // SMs, 108 of 128x192), 1.11x at 7787x326x4857 (N = 326: 512 columns
  // computed in 256-wide tiles, 384 in 192-wide ones), 1.06x at
  // 5273x190x6704; but where 128x256 tiles take several waves 128x192
  // ones ran slower (2056^3 0.96x, 3000^3 0.92x, 5000^3 0.99x,
  // 2035x6738x1331 0.98x; 4096^3 0.86x), which the model, over-predicting
  // the 128x256 kernels of rows off 128-byte lines there by 7-20%, did
  // not see (bench/results/2026-12-07-h100-block-n192.md).
  // (16-bit inputs only: TF32's were not measured.)
  auto oneWaveOf256 = [&] {
    return shape.elementBytes == 2 &&
           ceilDiv(shape.m, 128) * ceilDiv(shape.n, 256) * shape.batch <
               chip.numSMs;
  };
  for (CopyKind copy : copies)
  for (int64_t blockM : {256, 128, 64})
    for (int64_t blockN : {256, 192, 128, 64})
      for (int64_t warpN : {blockN, blockN / 2})
        // Warpgroup tiles one wgmma tall, as the measured kernel's. Taller
        // ones (two or four m64 rows per warpgroup) spilled at edge shapes
        // where the 64-row ones did not: 128x128 tiles with 128
        // accumulators in 10 of 66 random bf16/f16 kernels at setmaxnreg
        // 200 (3370x1x1: 248 bytes even at 255 registers without
        // setmaxnreg), 256x64 in 2 of 2 (bench/check-spills.py --seed 1
        // --count 10, ptxas 13.0; bench/results/2026-12-01-wgmma-spills.md).
        // They still compile when written on the op.
        for (int64_t warpM : {64}) {
          if (warpM > blockM || blockM % warpM != 0)
            continue;
          if (blockN == 192 && !oneWaveOf256())
            continue;
          int64_t consumers = (blockM / warpM) * (blockN / warpN);
          if (consumers != 1 && consumers != 2 && consumers != 4)
            continue;
          // Copies through registers with two consumer warpgroups or more,
          // as the measured kernel: a lone 64x256 consumer (256 threads,
          // 255 registers at launch) spilled 96-264 bytes in 10 of 52
          // random bf16/f16 shapes (all with N < 64; even at 255 registers
          // without setmaxnreg), two of them in 128x256 blocks in 0 of 28
          // (bench/check-spills.py --seed 1 --count 10, ptxas 13.0;
          // bench/results/2026-12-01-wgmma-spills.md).
          if (copy == CopyKind::Registers && consumers < 2)
            continue;
          // Nor, where the TMA can take the shape, with consumers of 128
          // accumulators that read C (C += A*B): 1034x2016x5 bf16 and f16
          // with two 64x256 consumers spilled 4 bytes at setmaxnreg 200
          // (ptxas 13.0; 208 did not, which leaves the register-copy
          // producer 88 of its 104; bench/check-spills.py --seed 20261209
          // --count 10, bench/results/2026-12-03-wgmma-spills.md).
          // Consumers of 64 or fewer get at least 200 with two of them (the
          // producer keeps 104): none of them spilled reading C
          // (bench/results/2026-12-04-h200-wgmma-small-register-copies.md).
          if (copy == CopyKind::Registers && shape.readsC &&
              copies.size() > 1 && warpM * warpN / kWarpgroupSize > 64)
            continue;
          // Nor a lone consumer of 64 accumulators or more that reads an
          // f32 C in a batched kernel with 64-bit offsets: 204 x
          // 6101x3814x680 (64x256 blocks) spilled 8 bytes at occupancy 2
          // and at 1 (255 registers) alike, 906 x 70x4121x4182 (64x128) 64
          // bytes at occupancy 2, bf16 and f16; two consumers (128x256,
          // 128x128), 64x64 blocks, a bf16 C, a fill, 32-bit offsets (a
          // batch of 20) and one matrix with 64-bit offsets
          // (50000x50000x64) did not (ptxas 13.0; bench/check-spills.py
          // --seed 20261213 --count 25 --batch-max 256 and --seed 20261214
          // --count 50 --batch-max 1024,
          // bench/results/2026-12-03-wgmma-batched-spills.md).
          if (shape.offsets64 && shape.batch > 1 && shape.readsC &&
              shape.resultBytes == 4 && consumers == 1 &&
              warpM * warpN / kWarpgroupSize >= 64)
            continue;
          // An odd N makes C's stores single elements at odd columns, each
          // with its own guard: 64x256 warpgroup tiles (128 accumulators a
          // thread) then spilled 72-196 bytes in 6 of 21 random bf16/f16
          // kernels with odd N (TMA and register copies alike), 64x128 and
          // 64x64 ones in 0 of 37, and with even N none of 66 spilled
          // (bench/wgmma-random.txt, ptxas 13.0; bench/results/
          // 2026-12-01-wgmma-repack.md). A strided C at an odd offset or
          // row stride stores single elements the same way (with an even
          // N: 248 and 52 bytes of spills in 2 of 11 such bf16/f16
          // kernels, bench/strided.txt).
          if (std::gcd(shape.n, shape.layoutAlignC) % 2 != 0 &&
              warpM * warpN / kWarpgroupSize > 64)
            continue;
          // The instruction covers the warpgroup tile's N, or 128 or 64 of
          // it (several instructions per k step).
          std::vector<int64_t> instructionNs = {warpN};
          for (int64_t n : {128, 64})
            if (n < warpN && warpN % n == 0)
              instructionNs.push_back(n);
          for (int64_t instructionN : instructionNs)
            for (bool specialize : {true, false}) {
              // Without a producer only the TMA copies.
              if (!specialize && copy != CopyKind::Tma)
                continue;
              // Occupancy: one block per SM, or a register budget for 2-4
              // (specialized kernels share out the registers of that many
              // blocks; the others get the hint at configure time).
              for (int64_t occupancy : {0, 2, 3, 4}) {
                if (!specialize && occupancy > 0)
                  continue;
                // Up to what fits, and no deeper than the K loop (slots
                // past its slabs are never filled).
                int64_t slabs = ceilDiv(shape.k, 128 / shape.elementBytes);
                for (int64_t stages = 2; stages <= std::max<int64_t>(2, slabs);
                     ++stages) {
                  TileConfig c =
                      wgmmaConfig(shape.elementBytes, blockM, blockN, warpM,
                                  warpN, instructionN, stages, copy,
                                  specialize, occupancy);
                  c.repack = copy == CopyKind::Tma && !aligned;
                  if (!checkConsistency(c).empty() ||
                      !checkWgmmaElementBytes(c, shape.elementBytes).empty())
                    break;
                  CostReport r = evaluateTensorCore(c, chip, shape.elementBytes);
                  // More stages only take more shared memory.
                  if (!r.fits || r.blocksPerSM < std::max<int64_t>(1, occupancy))
                    break;
                  if (!warpgroupRegisters(c).hasHeadroom())
                    break;
                  c.swizzleGroup = chooseSwizzle(c, shape, chip);
                  result.push_back(c);
                  appendStaged(c);
                  appendSplitKCandidates(c, shape, chip, r.blocksPerSM,
                                         result);
                  // Rows on 16 bytes but off 128-byte lines: the TMA
                  // reads them in place, or repacked copies.
                  if (copy == CopyKind::Tma && aligned && lineRepack) {
                    c.repack = true;
                    result.push_back(c);
                    appendStaged(c);
                    appendSplitKCandidates(c, shape, chip, r.blocksPerSM,
                                           result);
                  }
                }
              }
            }
        }
  return result;
}

std::vector<TileConfig>
mlir::tile::rankedTensorCoreCandidates(const MatmulShape &shape,
                                       const ChipInfo &chip) {
  struct Ranked {
    TileConfig config;
    TensorCoreEstimate estimate;
  };
  std::vector<Ranked> ranked;
  for (const TileConfig &c : tensorCoreCandidates(shape, chip))
    ranked.push_back({c, estimateTensorCore(c, shape, chip)});
  // Predictions within 0.1% (several configs hitting the same HBM bound,
  // say) are ordered by fewer padded products, specialized first, then by
  // more stages (more slack for latency the model does not see), then as
  // enumerated (larger tiles first).
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked &a, const Ranked &b) {
                     double x = a.estimate.seconds, y = b.estimate.seconds;
                     if (std::abs(x - y) > 1e-3 * std::min(x, y))
                       return x < y;
                     if (a.estimate.usefulFraction != b.estimate.usefulFraction)
                       return a.estimate.usefulFraction >
                              b.estimate.usefulFraction;
                     if (a.config.specialize != b.config.specialize)
                       return a.config.specialize;
                     return a.config.stages > b.config.stages;
                   });
  std::vector<TileConfig> result;
  for (const Ranked &r : ranked)
    result.push_back(r.config);
  return result;
}

TileConfig mlir::tile::defaultTensorCoreConfig(const MatmulShape &shape,
                                               const ChipInfo &chip) {
  for (const TileConfig &c : rankedTensorCoreCandidates(shape, chip))
    if (c.specialize)
      return c;
  // Nothing fits (not sm_90): the strategy's defaults, which tile-configure
  // then rejects with the reason.
  TileConfig c = TileConfig::wgmmaDefaults(shape.elementBytes);
  c.repack = !tmaRowsAligned(shape);
  return c;
}
