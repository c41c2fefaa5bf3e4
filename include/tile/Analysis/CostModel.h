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
  /// Bytes of an element of A and B.
  int64_t elementBytes = 4;
  /// Bytes of an element of C, and whether C is read (C += A*B) or only
  /// written (C = fill + A*B). Only the tensor-core model uses them (its
  /// epilogue); the FP32 model counts C as read and written.
  int64_t resultBytes = 4;
  bool readsC = true;
  /// 16-bit inputs that are f16 rather than bf16 (the tensor-core model's
  /// rates differ slightly).
  bool f16 = false;
  /// A stored K x M, B stored N x K (transposed operands): the FP32 copies
  /// of such an operand run along the other dimension.
  bool transposeA = false, transposeB = false;
  /// Independent matmuls of this shape in one launch (a batched matmul):
  /// they multiply the blocks and the bytes. (Last, so that brace
  /// initialisers {m, n, k, elementBytes, ...} keep their meaning.)
  int64_t batch = 1;
  /// Strided operands (A and B as stored, C): the greatest common divisor
  /// of the offset and strides, in elements; 0 for a dense operand (its
  /// rows' length decides). The TMA needs rows and starts on 16 bytes.
  int64_t layoutAlignA = 0, layoutAlignB = 0, layoutAlignC = 0;
  /// A's or B's stored rows overlap (a strided operand read with a row
  /// stride below its row length): the runtime cannot repack it (its 2-d
  /// copy reads whole rows), so the TMA reads it in place or not at all.
  bool overlapRowsA = false, overlapRowsB = false;
  /// Strided A and B (as stored): the first element's offset and the row
  /// stride, in elements, which place the rows within the TMA's 128-byte
  /// lines; a row stride of 0 for a dense operand (rows of storedCols).
  int64_t offsetA = 0, rowStrideA = 0, offsetB = 0, rowStrideB = 0;
  /// Some operand reaches past element 2^31 - 1: the kernel's index
  /// arithmetic is 64-bit (tile-block-tile), which costs registers.
  bool offsets64 = false;
  /// f32 inputs computed on the tensor cores as TF32 (wgmma .tf32: each
  /// input keeps 10 of its 23 mantissa bits), asked for with
  /// tile-configure's `tf32`; never the default.
  bool tf32 = false;

  /// The tensor-core strategy's shapes: 16-bit inputs, or TF32.
  bool tensorCores() const { return elementBytes == 2 || tf32; }

  /// A's and B's shapes as stored: A M x K (K x M transposed), B K x N
  /// (N x K transposed).
  int64_t storedRowsA() const { return transposeA ? k : m; }
  int64_t storedColsA() const { return transposeA ? m : k; }
  int64_t storedRowsB() const { return transposeB ? n : k; }
  int64_t storedColsB() const { return transposeB ? k : n; }
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
/// `transposeA`/`transposeB`: the operands are stored transposed, which
/// swaps which of them is copied element by element under cp.async.
int64_t stagingRegisters(const TileConfig &config, bool transposeA = false,
                         bool transposeB = false);

/// Asynchronous copies per thread and slice with 3 or more stages: one per
/// element of the operand whose stored rows run along k (A, or a transposed
/// B: cp.async cannot transpose) and one per vector of the other (4
/// elements where BN, or BM for a transposed A, allows).
int64_t asyncCopiesPerThread(const TileConfig &config, bool transposeA = false,
                             bool transposeB = false);

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

/// Evaluates `config` on `chip` for element size `elementBytes`, with A
/// and/or B stored transposed (the FP32 slice copies differ, and a
/// transposed B's shared tile takes A's pad: more shared bytes, and with an
/// odd pad narrower B fragment loads).
CostReport evaluate(const TileConfig &config, const ChipInfo &chip,
                    int64_t elementBytes = 4, bool transposeA = false,
                    bool transposeB = false);
/// The same for `shape`'s element size and stored transposes.
inline CostReport evaluate(const TileConfig &config, const ChipInfo &chip,
                           const MatmulShape &shape) {
  return evaluate(config, chip, shape.elementBytes, shape.transposeA,
                  shape.transposeB);
}

/// Whether the register estimate leaves headroom below the per-thread cap
/// that the block size implies (65536 / threads, at most 255): 8 registers.
/// The config's occupancy, a register budget chosen on purpose, is ignored.
/// For wgmma configs: whether the setmaxnreg split covers the estimated
/// needs (WarpgroupRegisters::hasHeadroom).
/// Configs at the cap spill as soon as ptxas needs a few more than the
/// estimate (512-thread 256x128x8 blocks: 128 registers, 16 bytes of spills
/// when the kernel also loads C, 25% slower; bench/results, 2026-11-29).
bool hasRegisterHeadroom(const TileConfig &config, const ChipInfo &chip,
                         const MatmulShape &shape = MatmulShape());

/// Predicted kernel time in seconds for `shape` (a ranking model: waves of
/// blocks, padded edge tiles, issue efficiency, memory traffic); for wgmma
/// configs estimateTensorCore's.
double predictSeconds(const TileConfig &config, const MatmulShape &shape,
                      const ChipInfo &chip);

/// The configs the model and the tuner consider for a shape (valid and fitting
/// on the chip): FMA configs for f32, tensorCoreCandidates for 16-bit
/// elements and TF32 (MatmulShape::tensorCores).
std::vector<TileConfig> candidateConfigs(const MatmulShape &shape,
                                         const ChipInfo &chip);

/// The candidates ranked by predicted time, best first; configs whose
/// predictions are within 0.1% are ordered by the shared-memory wavefronts
/// of their fragment loads (fewer first), then by larger tiles.
std::vector<TileConfig> rankedCandidates(const MatmulShape &shape,
                                         const ChipInfo &chip);

/// The model's default for a shape: the first of rankedCandidates (f32);
/// for 16-bit elements defaultTensorCoreConfig.
TileConfig defaultConfig(const MatmulShape &shape, const ChipInfo &chip);

//===----------------------------------------------------------------------===//
// The tensor-core (wgmma) strategy (TensorCoreModel.cpp)
//===----------------------------------------------------------------------===//

/// Whether the TMA can copy the operands of `shape` in place: every row of
/// A (K elements) and B (N elements) a multiple of 16 bytes long, or for a
/// strided operand its offset and strides (layoutAlignA/B).
bool tmaRowsAligned(const MatmulShape &shape);

/// Whether the rows of a matrix with `cols` columns of `elementBytes` each
/// start on multiples of `bytes`: `cols` times the element size, or for a
/// strided operand (`layoutAlign`, see MatmulShape) its offset and strides.
bool rowsStartOn(int64_t bytes, int64_t cols, int64_t elementBytes,
                 int64_t layoutAlign = 0);

/// The row stride, in elements, of the runtime's repacked copy of a matrix
/// with `cols` columns of `elementBytes` each, made with repack = true:
/// cols rounded up to 128 bytes, so that each TMA box row is one 128-byte
/// line; 0 when its rows already start on 128 bytes (nothing to repack),
/// or when they `overlap` but start on 16 bytes (read in place: overlapping
/// rows cannot be repacked).
int64_t repackRowStride(int64_t cols, int64_t elementBytes,
                        int64_t layoutAlign = 0, bool overlap = false);

/// The row strides of the copies the runtime makes of A and B (as stored)
/// for a config with repack = true (0: read in place): the operands whose
/// rows the TMA cannot read in place (off 16 bytes), padded to 128 bytes;
/// where there are none, those off 128-byte lines (repackRowStride).
std::pair<int64_t, int64_t> repackRowStrides(const MatmulShape &shape);

/// How many times the TMA's slab bytes of an operand read in place count,
/// for rows that start `offset` elements into the buffer, `rowStride` apart
/// (`elementBytes` each): the average over the rows of 1 for a row on a
/// 128-byte line, more for one that spans two (measured on the H200).
double tmaLineFactor(int64_t offset, int64_t rowStride, int64_t elementBytes);

/// Seconds the runtime's repacking takes for `shape` (a strided
/// device-to-device copy of each of A and B that repackRowStride repacks,
/// into rows padded to 128 bytes); 0 when neither is.
double repackSeconds(const MatmulShape &shape);

/// FP32 (fma) kernels with repack = true: B, row-major, dense and one
/// matrix, whose rows do not start on 16 bytes (N not a multiple of 4), is
/// read from a copy the runtime makes before the launch with rows of
/// fmaRepackRowStride() elements (N rounded up to 16 bytes), so that its
/// slice copies are 16-byte vectors (cp.async rings included). Whether
/// `shape` is one, the copy's row stride (0 when it is not) and the copy's
/// time (repackSeconds' measured rates, B alone).
bool fmaRepacksB(const MatmulShape &shape);
int64_t fmaRepackRowStride(const MatmulShape &shape);
double fmaRepackSeconds(const MatmulShape &shape);

/// Whether the runtime can repack every operand of `shape` that the TMA
/// cannot read in place (none has overlapping rows).
bool canRepack(const MatmulShape &shape);

/// Whether the model writes C of `shape` through TMA stores (store = tma)
/// under `config`: a specialized TMA config without split-K whose
/// warpgroup tile is whole boxes of C (128 bytes wide), C's rows and first
/// element on 16 bytes, and C only written (C = fill + A*B: a kernel that
/// reads C measured 3% slower with the store, 8 x 2048^3 bf16 on the H100,
/// bench/results/2026-12-06-h100-tma-store.md).
bool modelTakesTmaStore(const MatmulShape &shape, const TileConfig &config);

/// Whether the model makes a config that stores C through the TMA
/// persistent (one block per SM slot walks the tiles; the TMA's writes of
/// one tile overlap the next tile's main loop): `config` takes the store
/// (tmaStore set), every tile of the problem is whole (M and N multiples
/// of the block tile) and the tiles fill more than one wave of
/// `blocksPerSM` blocks on each SM. Drawn from the H100 probe of bench/
/// results/2026-12-06-h100-tma-store.md (1.007-1.110x over one block per
/// tile on all 8 such shapes, 0.85-1.09x where tiles are partial; without
/// the store 0.92-1.09x, 2026-12-05-h100-persistent-rule.md) and checked on
/// 46 held-out random shapes (2026-12-06-h100-persistent-store.md: geomean
/// 1.105x, worst 0.900x, 41 at 0.98x or better).
bool modelTakesPersistent(const MatmulShape &shape, const TileConfig &config,
                          int64_t blocksPerSM, const ChipInfo &chip);

/// How a wgmma block's registers are shared out among its warpgroups. One
/// rule for the cost model and tile-mbarrier-pipeline (which emits the
/// setmaxnreg instructions with these numbers).
///
/// A specialized kernel is compiled with a register cap (nvvm.minctasm:
/// max(1, occupancy) blocks per SM): every thread starts with
/// launchRegisters = min(255, 65536 / (threads * blocks) rounded down to
/// 8), and setmaxnreg.inc would wait forever for registers past the block's
/// launchRegisters * threads. The producer keeps what it needs
/// (kTmaProducerRegisters with the TMA, kRegisterCopyProducerRegisters with
/// copies through registers) and the consumers share the rest, rounded down
/// to 8 (at most 240 each). A role above
/// launchRegisters raises its registers (setmaxnreg.inc), one at or below
/// lowers them (.dec). A non-specialized kernel has no setmaxnreg: every
/// thread is a consumer under the cap.
struct WarpgroupRegisters {
  /// Blocks per SM the register budget is for: max(1, occupancy).
  int64_t blocksPerSM = 1;
  /// Registers per thread at launch (the cap ptxas compiles under).
  int64_t launchRegisters = 0;
  /// setmaxnreg values; producer 0 when not specialized, consumer then the
  /// cap.
  int64_t producerRegisters = 0, consumerRegisters = 0;
  /// f32 accumulators per consumer thread: WM * WN / 128.
  int64_t accumulators = 0;
  /// Registers a consumer thread needs to run without spilling (its
  /// accumulators plus kConsumerOverheadRegisters, at least
  /// kMinConsumerNeed: descriptors, ring slot and phase, the epilogue's C
  /// addresses and guards), and what a producer
  /// needs (kTmaProducerRegisters, or kRegisterCopyProducerRegisters when
  /// it copies through registers): the model's estimates.
  int64_t consumerNeed = 0, producerNeed = 0;
  /// Non-empty when the split cannot work at all (the pass refuses it): a
  /// consumer below its accumulators + 16 or a producer below 24. The text
  /// is the pass's error message without its "tile-mbarrier-pipeline: "
  /// prefix and its advice.
  std::string whyNot;
  /// Whether the budgets cover the estimated needs (no spills expected).
  bool hasHeadroom() const {
    return whyNot.empty() && consumerRegisters >= consumerNeed &&
           (producerRegisters == 0 || producerRegisters >= producerNeed);
  }
};

/// Dense bf16/f16 tensor-core peak of the H200 SXM in FLOP/s (the
/// datasheet's 989 TFLOP/s without sparsity), shared by its 132 SMs: the
/// tensor-core model's rate (wgmma needs sm_90, so no other chip has one).
constexpr double kTensorCorePeakFlops = 989e12;
/// The dense TF32 tensor rate against the 16-bit one on the H100/H200:
/// half (NVIDIA's data sheets: 494.7 against 989.4 TFLOP/s on the SXM
/// parts; an m64nNk8 tf32 wgmma takes as long as an m64nNk16 bf16 one).
/// Not yet measured with these kernels.
constexpr double kTf32PeakRatio = 0.5;

/// setmaxnreg value of a producer warpgroup that only issues TMA copies
/// (one thread, few registers; the consumers get the rest).
constexpr int64_t kTmaProducerRegisters = 40;
/// Registers the model counts a consumer to need besides its accumulators,
/// whatever the copy. With two 64x256 consumers and copies through registers, 200
/// (128 + 72) for the consumers and 104 for the producer compiled without
/// spills across the smoke and random shapes of 2026-12-01; 192 / 120
/// spilled the consumers, 208 / 88 the producer (tile-mbarrier-pipeline's
/// numbers since commit d6971be). TMA consumers need about as many: a
/// 128x192 warpgroup tile (192 accumulators at setmaxnreg 240) compiled
/// without spills at 4096^3 but spilled 12-20 bytes at 1000^3 and
/// 1001x1003x1005 (bf16, ptxas 13.0), whose epilogues guard C's edges.
/// Configs above the need still compile; the model counts them as likely
/// to spill (no headroom) and proposes none.
constexpr int64_t kConsumerOverheadRegisters = 72;
/// The least the model counts a consumer to need, whatever its tile: with
/// copies through registers and a split that gave consumers their
/// accumulators + 72 (the producer the rest), consumers of 32 and 64
/// accumulators spilled 8-112 bytes at edge shapes (bench/check-spills.py
/// --seed 1 --count 10, ptxas 13.0: 64x64 warpgroup tiles at 104 needed
/// 112, 128x64 at 136 needed 160, 64x128 at 136 needed 168; found by
/// raising the consumers' setmaxnreg in the PTX until ptxas stopped
/// spilling; bench/results/2026-12-01-wgmma-spills.md). The guarded
/// epilogue's addresses do not shrink with the tile.
constexpr int64_t kMinConsumerNeed = 168;
/// What a producer that copies through registers needs: the least of the
/// budgets above that compiled without spills.
constexpr int64_t kRegisterCopyProducerRegisters = 104;
/// The most registers setmaxnreg gives a thread.
constexpr int64_t kMaxSetmaxnregRegisters = 240;

WarpgroupRegisters warpgroupRegisters(const TileConfig &config);

/// HBM traffic of a matmul whose blocks share operands in L2 in groups of
/// `reuseM` x `reuseN` elements of C: every element of A is read
/// ceil(n / reuseN) times, every element of B ceil(m / reuseM) times, C is
/// written once (and read once when `readsC`). For a square n^3 problem with
/// reuse tile t and C of the inputs' type: (2 n^2 (n / t) + n^2) * bytes,
/// the tiling article's table (8192^3 bf16: 137.6 GB at t = 16, 8.7 GB at
/// t = 256).
double matmulTrafficBytes(const MatmulShape &shape, int64_t reuseM,
                          int64_t reuseN);

/// What the tensor-core model says about a wgmma config on a shape: the
/// terms of its predicted time.
struct TensorCoreEstimate {
  // The grid.
  int64_t tiles = 0;        // tiles of C: ceil(M / BM) * ceil(N / BN) * batch
  int64_t splits = 1;       // split-K chunks per tile (blocks = tiles * splits)
  int64_t splitTiles = 0;   // with split_last: the split tiles (of all
                            // matrices); the others' blocks take all of K
  int64_t blocks = 0;       // the grid
  int64_t slabs = 0;        // K steps of BK of one block: ceil(K / BK), or
                            // its chunk's under split-K
  int64_t blocksPerSM = 0;  // resident at once
  int64_t waves = 0;        // ceil(tiles * splits / (SMs * blocksPerSM))
  /// Useful share of the computed products (1 - edge waste):
  /// M * N * K / (tiles * BM * BN * slabs * BK).
  double usefulFraction = 0;
  // One block alone on an SM.
  // Share of the 16-bit tensor peak its wgmma reach (TF32's factor,
  // kTf32PeakRatio, included).
  double instructionEfficiency = 0;
  double mmaSeconds = 0;    // 2 * BM * BN * slabs * BK / (SM rate * eff.)
  double loadSeconds = 0;   // A and B slabs: L2 -> shared memory (TMA), or
                            // the producer's copies through registers
  double prologueSeconds = 0; // first slab's latency (plus reading C)
  double epilogueSeconds = 0; // C from registers to global memory (under
                              // split-K: the atomic adds of the wave's
                              // partial tiles)
  // The whole problem.
  int64_t reuseM = 0, reuseN = 0; // C extent of a wave (L2 reuse)
  double hbmBytes = 0, hbmSeconds = 0;
  double launchSeconds = 0;
  /// The runtime's padded copies of A and B before the launch (repack =
  /// true and rows that break the TMA's 16-byte rule); 0 without.
  double repackSeconds = 0;
  /// Predicted kernel time (with the repacking copies), and which bound the full waves hit
  /// ("tensor cores", "L2->shared", "register copies", "HBM").
  double seconds = 0;
  std::string bound;
  // Global intensity: FLOPs per byte into shared memory, and per HBM byte.
  double tileIntensity = 0, hbmIntensity = 0;
};

/// The tensor-core model's estimate; `seconds` is infinite when the config
/// does not fit on the chip.
TensorCoreEstimate estimateTensorCore(const TileConfig &config,
                                      const MatmulShape &shape,
                                      const ChipInfo &chip);

/// `evaluate` for a wgmma config: registers per consumer thread and their
/// setmaxnreg split, shared memory from the shared plan, blocks per SM, and
/// whether it fits.
CostReport evaluateTensorCore(const TileConfig &config, const ChipInfo &chip,
                              int64_t elementBytes);

/// Non-empty when wgmma cannot compute `shape`'s f32 inputs as TF32: it
/// reads TF32 operands only K-major (PTX: the transposes are for 16-bit
/// types), so A must be stored M x K and B N x K (nn.Linear's weight); the
/// sentence says which operand is stored otherwise.
std::string checkTf32Layout(const MatmulShape &shape);

/// Whether `config` computes inputs of `elementBytes` bytes as TF32: the
/// wgmma strategy on f32 (the one meaning of TF32 everywhere: tile-configure,
/// the models, the report, tile-interp).
inline bool computesTf32(const TileConfig &config, int64_t elementBytes) {
  return config.isWgmma() && elementBytes == 4;
}

/// The wgmma configs the model and the tuner consider for a tensor-core
/// `shape` (16-bit, or TF32 stored as checkTf32Layout needs; every one
/// consistent, fitting on the chip, and with register headroom under its
/// setmaxnreg split).
std::vector<TileConfig> tensorCoreCandidates(const MatmulShape &shape,
                                             const ChipInfo &chip);

/// tensorCoreCandidates ranked by estimateTensorCore, best first.
std::vector<TileConfig> rankedTensorCoreCandidates(const MatmulShape &shape,
                                                   const ChipInfo &chip);

/// The tensor-core config for a tensor-core `shape` on `chip` (sm_90): the
/// specialized candidate with the smallest predicted time.
TileConfig defaultTensorCoreConfig(const MatmulShape &shape,
                                   const ChipInfo &chip);

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_COSTMODEL_H
