//===- TensorCoreModel.cpp - the cost model of the wgmma strategy ---------===//
//
// Registers, shared memory and occupancy of a wgmma config, and the config
// tile-configure picks for a bf16/f16 matmul.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/SharedPlan.h"

#include <algorithm>
#include <sstream>

using namespace mlir::tile;

namespace {
/// Registers a consumer thread needs besides its accumulators: descriptors,
/// ring index and phase, loop counter, C addresses.
constexpr int64_t kConsumerOverheadRegisters = 40;
/// Registers a specialized block's producer warpgroup keeps (setmaxnreg).
constexpr int64_t kProducerRegisters = 40;
/// The most registers setmaxnreg can give a thread.
constexpr int64_t kMaxSetmaxnreg = 240;
} // namespace

bool mlir::tile::tmaRowsAligned(const MatmulShape &shape) {
  return (shape.k * shape.elementBytes) % 16 == 0 &&
         (shape.n * shape.elementBytes) % 16 == 0;
}

CostReport mlir::tile::evaluateTensorCore(const TileConfig &c,
                                          const ChipInfo &chip,
                                          int64_t elementBytes) {
  CostReport r;
  r.threadsPerBlock = c.numThreads();
  // One f32 accumulator register per element of the warpgroup tile, spread
  // over its 128 threads.
  r.tileRegisters = c.warpM * c.warpN / kWarpgroupSize;
  r.overheadRegisters = kConsumerOverheadRegisters;
  r.estimatedRegisters = r.tileRegisters + r.overheadRegisters;
  SharedPlan plan = getSharedPlan(c, elementBytes);
  r.sharedBytes = plan.totalBytes;
  r.globalIntensity = static_cast<double>(c.blockM * c.blockN) /
                      static_cast<double>(c.blockM + c.blockN);
  std::ostringstream why;
  if (chip.name != "sm_90")
    why << "wgmma needs sm_90 (Hopper); " << chip.name << " has none";
  else if (r.estimatedRegisters > kMaxSetmaxnreg)
    why << "about " << r.estimatedRegisters
        << " registers per consumer thread, over the " << kMaxSetmaxnreg
        << " a warpgroup can hold: the " << c.warpM << "x" << c.warpN
        << " warpgroup tile has " << r.tileRegisters
        << " accumulators per thread";
  else if (r.sharedBytes > chip.sharedBytesPerBlock)
    why << r.sharedBytes << " bytes of shared memory per block, over the "
        << chip.name << " limit of " << chip.sharedBytesPerBlock;
  r.whyNot = why.str();
  r.fits = r.whyNot.empty();
  if (!r.fits)
    return r;
  // Registers of the whole block: consumers at their estimate, a producer
  // warpgroup at what setmaxnreg leaves it.
  int64_t consumerRegs = (r.estimatedRegisters + 7) / 8 * 8;
  int64_t blockRegs = c.numConsumers() * kWarpgroupSize * consumerRegs +
                      (c.specialize ? kWarpgroupSize * kProducerRegisters : 0);
  int64_t byRegisters = chip.registersPerSM / std::max<int64_t>(1, blockRegs);
  int64_t byShared =
      chip.sharedBytesPerSM / (r.sharedBytes + chip.sharedBytesReserved);
  int64_t byThreads = chip.maxThreadsPerSM / r.threadsPerBlock;
  r.blocksPerSM = std::min({byRegisters, byShared, byThreads,
                            chip.maxBlocksPerSM});
  r.occupancyLimiter = r.blocksPerSM == byShared      ? "shared memory"
                       : r.blocksPerSM == byRegisters ? "registers"
                                                      : "threads";
  r.warpsPerSM = r.blocksPerSM * c.numWarps();
  if (r.blocksPerSM < 1) {
    r.fits = false;
    r.whyNot = "the block's registers do not fit on one SM";
  }
  return r;
}

TileConfig mlir::tile::defaultTensorCoreConfig(const MatmulShape &shape,
                                               const ChipInfo &chip) {
  TileConfig c = TileConfig::wgmmaDefaults();
  c.copy = tmaRowsAligned(shape) ? CopyKind::Tma : CopyKind::Registers;
  return c;
}
