//===- CostModel.h - the FP32 SIMT matmul cost model ------------*- C++ -*-===//
//
// The arithmetic of the tiling hierarchy as a library: for a config and a
// chip, how many registers a thread needs, how much shared memory a block
// takes, how many blocks fit on an SM, the arithmetic intensity at each tier
// of the memory hierarchy and the issue-slot efficiency of the inner loop.
// The model follows the FP32 tiling article the project grew from (8x8 thread
// tile: 80 registers, 96 with register prefetch; issue-slot efficiency 63%
// without prefetch, 80% with it). Plain C++, no MLIR: the config pass, the
// report pass, the tuner and unit tests all use it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_COSTMODEL_H
#define TILE_ANALYSIS_COSTMODEL_H

#include "tile/Dialect/Tile/TileConfig.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tile {

/// The limits and rates of one chip that the model uses.
struct ChipInfo {
  std::string name;               // "sm_90"
  int64_t numSMs;                 // streaming multiprocessors
  int64_t maxThreadsPerBlock;     // 1024
  int64_t maxThreadsPerSM;        // 2048
  int64_t maxBlocksPerSM;         // 32
  int64_t registersPerSM;         // 65536 32-bit registers
  int64_t maxRegistersPerThread;  // 255
  int64_t registerAllocUnit;      // registers per thread are allocated in 8s
  int64_t sharedBytesPerSM;       // usable shared memory per SM
  int64_t sharedBytesPerBlock;    // per-block opt-in limit
  int64_t sharedBytesReserved;    // per-block reservation by the system
  int64_t fmaPerSMPerCycle;       // FP32 FMA lanes per SM
  double clockGHz;                // boost clock
  int64_t sharedLoadLatency;      // cycles, conflict-free LDS
  double dramBytesPerSecond;      // device-memory bandwidth
  int64_t l2Bytes;                // L2 cache size

  /// FP32 FMA peak in FLOP/s (2 FLOPs per FMA).
  double peakFlops() const {
    return 2.0 * numSMs * fmaPerSMPerCycle * clockGHz * 1e9;
  }
};

/// The chip named `name` ("sm_90"), if the model knows it.
std::optional<ChipInfo> lookupChip(const std::string &name);

/// A matmul problem: C[M][N] (+)= A[M][K] * B[K][N].
struct MatmulShape {
  int64_t m = 0, n = 0, k = 0;
  int64_t elementBytes = 4;
};

/// Register need of the thread tile itself, as the article counts it:
/// TM*TN accumulators plus TM+TN operands, twice that with prefetch.
int64_t threadTileRegisters(int64_t threadM, int64_t threadN, bool prefetch);

/// The issue-slot efficiency of one k step of the inner loop, after the
/// article's scheduler trace: the step issues `loadsA` then `loadsB` shared
/// loads, one per cycle, then `fmas` FMAs. Without prefetch the first FMA
/// waits for its operands: the first B load (issued after the A loads) comes
/// back `latency` cycles after its issue. With prefetch the loads are for the
/// next step, so only their issue slots count (and any latency the FMAs of
/// one step cannot cover). Returns FMA slots / all slots.
double issueSlotEfficiency(int64_t fmas, int64_t loadsA, int64_t loadsB,
                           bool prefetch, int64_t latency);

/// Registers per thread that carry the slice copy through the K loop: the
/// elements of A and B held between the global load and the shared store of
/// the next slice (stages = 2), or the 64-bit global addresses of the
/// cp.async copies (stages >= 3, two registers per copy); 0 for one stage.
int64_t stagingRegisters(const TileConfig &config);

/// Asynchronous copies per thread and slice with 3 or more stages: one per A
/// element (cp.async cannot transpose) and one per B vector (4 elements
/// where BN allows).
int64_t asyncCopiesPerThread(const TileConfig &config);

/// What stagingRegisters() counts, for reports: "staging" (copied values)
/// or "cp.async addresses".
const char *stagingRegistersName(const TileConfig &config);

/// Vector width (elements) of the fragment loads from shared memory for the
/// thread tile's M (A) or N (B) extent.
int64_t fragmentVectorWidth(int64_t threadExtent, int64_t rowStride);

/// Everything the model says about one config.
struct CostReport {
  // Registers per thread.
  int64_t tileRegisters = 0;    // accumulators + fragments (article's count)
  int64_t stagingRegisters = 0; // the slice copy's (see stagingRegisters())
  int64_t overheadRegisters = 0; // addresses, indices, loop counters
  int64_t estimatedRegisters = 0;
  /// The per-thread register cap the config's occupancy hint implies (0: no
  /// hint): 65536 / (blocks * threads), in allocation units, at most 255.
  int64_t registerCap = 0;
  // Shared memory per block.
  int64_t sharedBytes = 0;
  // Occupancy.
  int64_t threadsPerBlock = 0;
  int64_t blocksPerSM = 0;
  int64_t warpsPerSM = 0;
  std::string occupancyLimiter; // "registers", "shared memory", "threads"...
  // Arithmetic intensity: FMAs per element moved.
  double globalIntensity = 0; // per element loaded into shared memory
  double sharedIntensity = 0; // per element loaded into registers
  // Inner loop.
  int64_t sharedLoadsPerStep = 0; // per lane per k step (vector loads)
  int64_t fmasPerStep = 0;
  double issueEfficiency = 0; // with this config's loads and prefetch
  double articleEfficiency = 0; // same, counting scalar loads (the article's)
  // One K slice, per warp: FMA instructions over all instructions issued
  // (FMAs, fragment loads, the slice copy's global loads and shared stores,
  // barrier and loop overhead), assuming 16-byte global accesses.
  int64_t sliceInstructions = 0;
  double sliceEfficiency = 0;
  // Shared-memory wavefronts (128 bytes each, one per SM and cycle) one warp
  // needs per k step for its fragment loads: a load whose lanes touch more
  // than 8 distinct 16-byte granules takes several.
  int64_t sharedWavefrontsPerStep = 0;
  // Share of the FMA issue rate left when the fragment loads of all warps
  // compete for the shared-memory pipe (1 = not shared-memory bound).
  double sharedBandwidthFactor = 1;
  // Fit.
  bool fits = true;
  std::string whyNot; // why the config cannot run on the chip
};

/// Evaluates `config` on `chip` for element size `elementBytes`.
CostReport evaluate(const TileConfig &config, const ChipInfo &chip,
                    int64_t elementBytes = 4);

/// Whether the register estimate leaves headroom below the per-thread cap
/// that the block size implies (65536 / threads, at most 255): 8 registers.
/// The config's occupancy, a register budget chosen on purpose, is ignored.
/// Configs at the cap spill as soon as ptxas needs a few more than the
/// estimate (512-thread 256x128x8 blocks: 128 registers, 16 bytes of spills
/// when the kernel also loads C, 25% slower; bench/results, 2026-11-29).
bool hasRegisterHeadroom(const TileConfig &config, const ChipInfo &chip);

/// Predicted kernel time in seconds for `shape` (a ranking model: waves of
/// blocks, padded edge tiles, issue efficiency, memory traffic).
double predictSeconds(const TileConfig &config, const MatmulShape &shape,
                      const ChipInfo &chip);

/// The configs the model and the tuner consider for a shape (valid and fitting
/// on the chip).
std::vector<TileConfig> candidateConfigs(const MatmulShape &shape,
                                         const ChipInfo &chip);

/// The candidates ranked by predicted time, best first; configs whose
/// predictions are within 0.1% are ordered by the shared-memory wavefronts
/// of their fragment loads (fewer first), then by larger tiles.
std::vector<TileConfig> rankedCandidates(const MatmulShape &shape,
                                         const ChipInfo &chip);

/// The model's default for a shape: the first of rankedCandidates (f32);
/// for 16-bit elements the tensor-core model's choice.
TileConfig defaultConfig(const MatmulShape &shape, const ChipInfo &chip);

//===----------------------------------------------------------------------===//
// The tensor-core (wgmma) strategy (TensorCoreModel.cpp)
//===----------------------------------------------------------------------===//

/// Whether the TMA can copy the operands of `shape`: every row of A (K
/// elements) and B (N elements) a multiple of 16 bytes long.
bool tmaRowsAligned(const MatmulShape &shape);

/// `evaluate` for a wgmma config: registers per consumer thread, shared
/// memory from the shared plan, blocks per SM, and whether it fits.
CostReport evaluateTensorCore(const TileConfig &config, const ChipInfo &chip,
                              int64_t elementBytes);

/// The tensor-core config for a 16-bit `shape` on `chip` (sm_90).
TileConfig defaultTensorCoreConfig(const MatmulShape &shape,
                                   const ChipInfo &chip);

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_COSTMODEL_H
