//===- Utils.h - helpers the tile passes share --------------*- C++ -*-===//
//
// The contract between the passes: a kernel made by tile-block-tile is a
// gpu.func with parameters (A, B, C) that records its config (`tile.config`),
// its problem (`tile.matmul`) and how far it has been lowered (`tile.stage`).
// Each pass transforms the kernels at the stage before its own.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_UTILS_H
#define TILE_TRANSFORMS_UTILS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Dialect/Tile/TileDialect.h"

#include <optional>

namespace mlir {
namespace tile {

/// How far a kernel has been lowered. The stages in between depend on the
/// strategy: fma kernels go Block, Shared, Warp, Thread, Pipelined; wgmma
/// kernels Block, Shared, Warpgroup, Instruction, Pipelined.
enum class KernelStage {
  Block,       // tile-block-tile: swizzled block tile, matmul in thread 0
  Shared,      // tile-promote-shared: K loop over shared-memory slices
  Warp,        // fma, tile-warp-tile: one matmul per warp, in lane 0
  Thread,      // fma, tile-thread-tile: register tiles in every lane
  Warpgroup,   // wgmma, tile-warpgroup-tile: one slab product per warpgroup
  Instruction, // wgmma, tile-wgmma: wgmma instruction tiles
  Pipelined,   // tile-pipeline / tile-mbarrier-pipeline: the copies overlap
};

/// Position of `stage` in the order of its strategy's pipeline.
int stageRank(KernelStage stage);

constexpr llvm::StringLiteral kStageAttrName = "tile.stage";
constexpr llvm::StringLiteral kMatmulAttrName = "tile.matmul";
/// Marks the K loop of a kernel.
constexpr llvm::StringLiteral kKLoopAttrName = "tile.k_loop";
/// Dynamic shared memory bytes per block of a kernel.
constexpr llvm::StringLiteral kSharedBytesAttrName =
    "tile.dynamic_shared_bytes";
/// Byte alignment the kernel's accesses to C need (set by tile-thread-tile;
/// the manifest's C alignment).
constexpr llvm::StringLiteral kCAlignmentAttrName = "tile.c_alignment";
/// Marks the memref.view of a shared-memory buffer with its operand ("A"/"B").
constexpr llvm::StringLiteral kSharedBufferAttrName = "tile.shared";
/// Marks the ops that compute the block tile's origin in C ("row"/"col").
constexpr llvm::StringLiteral kTileOriginAttrName = "tile.tile_origin";
/// Marks the i1 of a split_last kernel that holds in the blocks computing
/// part of a split tile (false in those computing a whole tile): tile-wgmma
/// gives whole tiles a plain load and store of C, split ones atomic adds.
constexpr llvm::StringLiteral kSplitBlockAttrName = "tile.split_block";
/// On a TMA load of a slab: the operand it copies ("A" or "B"), so that
/// tile-mbarrier-pipeline finds the boxes of the operand a cluster's blocks
/// share (B in 2x1, A in 1x2) to multicast.
constexpr llvm::StringLiteral kTmaOperandAttrName = "tile.tma_operand";
/// On an nvgpu.mbarrier.arrive: the arrive is on the barrier at the same
/// place in the other block of a 2-block cluster (its shared memory mapped
/// with mapa; the default .release.cta semantics); tile-lower-nvgpu lowers
/// it so.
constexpr llvm::StringLiteral kArriveInPeerAttrName = "tile.arrive_in_peer";

/// A persistent kernel's grid, its blocks (set by tile-mbarrier-pipeline;
/// the manifest's grid).
constexpr llvm::StringLiteral kPersistentBlocksAttrName =
    "tile.persistent_blocks";
/// Marks a kernel parameter that is the tensor map of an operand ("A"/"B").
constexpr llvm::StringLiteral kTensorMapAttrName = "tile.tensor_map";
/// Marks the scf.if in which a consumer warpgroup's leader waits until its
/// TMA stores of C have read their staging buffers (tile-wgmma, config
/// store = tma); tile-mbarrier-pipeline moves it after a persistent
/// kernel's tile loop.
constexpr llvm::StringLiteral kStoreDrainAttrName = "tile.store_drain";
/// What ptxas reported for the kernel of a gpu.module (set by tile-export):
/// registers, spill_stores, spill_loads, stack_bytes.
constexpr llvm::StringLiteral kPtxasAttrName = "tile.ptxas";

llvm::StringRef stringifyStage(KernelStage stage);
std::optional<KernelStage> getStage(gpu::GPUFuncOp kernel);
void setStage(gpu::GPUFuncOp kernel, KernelStage stage);

/// Where the elements of a strided operand are (a memref with a strided
/// layout, such as a subview of a bigger buffer), in elements from the
/// buffer's start: element (i, j) of stored matrix b at
/// offset + b * batchStride + i * rowStride + j. Rows are contiguous; the
/// strides are at least 1 (batchStride is 0 for a plain matmul). A field
/// may be ShapedType::kDynamic (a memref type's `?`): the kernel takes its
/// value at launch, as a parameter (tile-dynamic-layout-params), and
/// assumes it a multiple of kDynamicLayoutBytes bytes.
struct StridedLayout {
  int64_t offset = 0, rowStride = 0, batchStride = 0;
  bool operator==(const StridedLayout &other) const {
    return offset == other.offset && rowStride == other.rowStride &&
           batchStride == other.batchStride;
  }
  /// Whether some field is dynamic.
  bool isDynamic() const {
    return ShapedType::isDynamic(offset) || ShapedType::isDynamic(rowStride) ||
           ShapedType::isDynamic(batchStride);
  }
};

/// What the compiler assumes of a dynamic offset or stride when it picks
/// vector widths and TMA copies: a multiple of this many bytes, so that
/// every row starts where a 16-byte vector or the TMA may read it. The
/// alignment it then relies on is the manifest's param `alignment` (at most
/// this), which the runtime checks each launch's values against.
constexpr int64_t kDynamicLayoutBytes = 16;

/// `layout` with each dynamic field replaced by a value the kernel may be
/// launched with, for an operand of `batch` x `rows` x `cols` elements of
/// `elementBytes` bytes: with `padded` false the densest (offset 0, rows
/// `cols` rounded up to kDynamicLayoutBytes apart, matrices one after
/// another); with `padded` true one step of kDynamicLayoutBytes more each
/// (offset, row stride and batch stride all off the dense ones), which
/// is what tile-interp and tile-run pick to show that a kernel reads them.
StridedLayout assumedLayout(const StridedLayout &layout, int64_t rows,
                            int64_t cols, int64_t elementBytes, bool padded);

/// The strided layout of `type` (static or dynamic offset and strides,
/// innermost stride 1, the others at least 1), or std::nullopt for a memref
/// without a layout attribute (the identity layout: dense rows). Fails for
/// any other layout (tile-configure says why at the op).
FailureOr<std::optional<StridedLayout>> getStridedLayout(MemRefType type);

/// The most elements from its buffer's start that an operand of `type`
/// reaches: offset + the sum of (extent - 1) * stride + 1 for a strided
/// memref (saturating; INT64_MAX where a field is dynamic, which may reach
/// any element), the element count otherwise (0 for an empty one).
int64_t getElementSpan(ShapedType type);

/// The memref type of an operand: `shape` of `element` with `layout`
/// (std::nullopt: no layout attribute).
MemRefType getOperandType(ArrayRef<int64_t> shape, Type element,
                          const std::optional<StridedLayout> &layout);

/// The greatest common divisor of a layout's offset and strides: the
/// largest number of elements that every row start of the operand is
/// aligned to, relative to the buffer's start; 0 for the identity layout
/// (then the rows' own length decides). A dynamic field counts as the
/// kDynamicLayoutBytes / `elementBytes` elements it is assumed a multiple
/// of.
int64_t layoutAlignment(const std::optional<StridedLayout> &layout,
                        int64_t elementBytes);

/// The problem a kernel computes: C[m][n] (+)= A[m][k] * B[k][n].
struct MatmulProblem {
  int64_t m = 0, n = 0, k = 0;
  /// A batched matmul (linalg.batch_matmul): the parameters are
  /// batch x (the matrix), the batch first, and block y of the grid
  /// computes matrix y. A plain matmul has 2-d parameters and batch 1; a
  /// batched one may have a batch of 1 too.
  bool batched = false;
  int64_t batch = 1;
  /// Operands stored transposed: the kernel's A parameter is K x M (A^T,
  /// row-major) and/or its B parameter N x K (B^T, row-major: nn.Linear's
  /// weight layout). The product is the same; only the addressing differs.
  bool transposeA = false, transposeB = false;
  /// The shapes of the A and B parameters as stored.
  std::pair<int64_t, int64_t> storedShapeA() const {
    return transposeA ? std::pair{k, m} : std::pair{m, k};
  }
  std::pair<int64_t, int64_t> storedShapeB() const {
    return transposeB ? std::pair{n, k} : std::pair{k, n};
  }
  /// The same, for the shared plan.
  StoredTransposes storedTransposes() const {
    return {transposeA, transposeB};
  }
  /// Element types of A and B, and of C (f32, or the inputs' type: the f32
  /// accumulators are converted when C is stored).
  Type elementType, resultType;
  /// Bytes of an element of A and B, and of C (4, f32's, where the type
  /// is not set).
  int64_t elementBytes() const {
    return elementType ? elementType.getIntOrFloatBitWidth() / 8 : 4;
  }
  int64_t resultBytes() const {
    return resultType ? resultType.getIntOrFloatBitWidth() / 8 : 4;
  }
  /// True when C is only written: C = fillValue + A*B (the matmul's output
  /// was a linalg.fill); false when C is read and accumulated into.
  bool fill = false;
  /// The fill value (meaningful when `fill`).
  FloatAttr fillValue;
  /// The parameters' layouts where they are strided memrefs (A and B as
  /// stored); std::nullopt for a memref without a layout (dense rows).
  std::optional<StridedLayout> layoutA, layoutB, layoutC;
  /// Where element (i, j) of the stored operand is, as a StridedLayout: the
  /// parameter's own, or the dense one of `rows` x `cols` matrices.
  StridedLayout effectiveLayoutA() const;
  StridedLayout effectiveLayoutB() const;
  StridedLayout effectiveLayoutC() const;
  /// Whether the stored rows of A (B) overlap: a strided layout whose row
  /// stride is below the row length, with more than one row.
  bool overlapRowsA() const {
    auto [rows, cols] = storedShapeA();
    return layoutA && rows > 1 && !ShapedType::isDynamic(layoutA->rowStride) &&
           layoutA->rowStride < cols;
  }
  bool overlapRowsB() const {
    auto [rows, cols] = storedShapeB();
    return layoutB && rows > 1 && !ShapedType::isDynamic(layoutB->rowStride) &&
           layoutB->rowStride < cols;
  }
  /// Whether some operand has a dynamic offset or stride.
  bool hasDynamicLayout() const {
    return (layoutA && layoutA->isDynamic()) ||
           (layoutB && layoutB->isDynamic()) ||
           (layoutC && layoutC->isDynamic());
  }
};

/// The shape the cost models see for `problem` (its layouts, transposes,
/// element sizes, batch).
MatmulShape getModelShape(const MatmulProblem &problem);

/// The linalg.fill that gives `matmul`'s output its value, if any: the
/// tensor form's fill of the output, or a fill of the same buffer right
/// before the matmul (which tile-block-tile folds into the kernel). C is
/// then only written.
linalg::FillOp getOutputFill(linalg::LinalgOp matmul);

/// The most matrices a batched matmul may have: its kernel's grid has one
/// block row per matrix, and a grid's y dimension holds at most 65535.
inline constexpr int64_t kMaxBatch = 65535;

DictionaryAttr buildMatmulAttr(MLIRContext *context,
                               const MatmulProblem &problem);

// Checked readers of the attributes above. An attribute that is missing (where
// it is needed) or malformed is an error at the op that carries it, naming the
// attribute and what is wrong ("<passName>: 'tile.matmul' ..."), and failure:
// IR written by hand or edited between passes never crashes a pass.

/// The problem recorded in `tile.matmul` of a kernel (gpu.func, or the
/// llvm.func it was lowered to): a dictionary of m, n, k (integers from 1 to
/// 2^31 - 1), element_type (f32, bf16 or f16), c_type (f32 or the element type), c_init
/// ("accumulate" or "fill") and, for "fill", c_fill (an f32 float), and
/// optionally transpose_a / transpose_b (bools, absent means false; written
/// only when true) and layout_a / layout_b / layout_c (a strided operand's
/// array<i64: offset, row_stride> or, batched, array<i64: offset,
/// row_stride, batch_stride>; absent for a memref without a layout).
FailureOr<MatmulProblem> getMatmulProblem(Operation *kernel,
                                          StringRef passName = {});
/// The kernel's `tile.config`, which must be a #tile.config.
FailureOr<ConfigAttr> getKernelConfig(Operation *kernel,
                                      StringRef passName = {});
/// `tile.dynamic_shared_bytes` (an integer from 0 to 2^31 - 1), or
/// std::nullopt where the kernel has none.
FailureOr<std::optional<int64_t>>
getDynamicSharedBytes(Operation *kernel, StringRef passName = {});
/// `tile.c_alignment` (2, 4, 8 or 16), or std::nullopt where the kernel has none.
FailureOr<std::optional<int64_t>> getCAlignment(Operation *kernel,
                                                StringRef passName = {});
/// `tile.ptxas` of a gpu.module (a dictionary of integers), or a null
/// attribute where it has none.
FailureOr<DictionaryAttr> getPtxasReport(Operation *module,
                                         StringRef passName = {});

/// The kernels under `root` that are at `stage` (and follow `strategy`,
/// when given: kernels of the other strategy are left alone). A kernel at an earlier
/// stage is an error (the pass before this one did not run); kernels at later
/// stages are left alone. `passName` names the pass for the message. A
/// kernel at `stage` must have a well-formed `tile.config` and `tile.matmul`
/// and parameters (A, B, C[, tensor maps]) of the problem's shapes; a malformed `tile.stage`
/// is an error too.
FailureOr<SmallVector<gpu::GPUFuncOp>>
getKernelsAtStage(Operation *root, KernelStage stage, StringRef passName,
                  std::optional<Strategy> strategy = std::nullopt);

/// The K loop of `kernel` (the scf.for marked `tile.k_loop`), or null.
scf::ForOp findKLoop(gpu::GPUFuncOp kernel);

/// A kernel's K loop and the guarded work around it, as tile-promote-shared
/// and tile-warp-tile leave it. Members not found are null.
struct KLoopParts {
  scf::ForOp loop;
  /// The matmul inside the loop and the scf.if (thread or lane 0) it runs in.
  linalg::MatmulOp matmul;
  scf::IfOp ifCompute;
  /// Under the same condition: the C initialisation before the loop (an
  /// scf.if whose first op is a linalg.fill), and the first scf.if after the
  /// loop (split-K's accumulation into C).
  scf::IfOp ifFill;
  scf::IfOp ifAccumulate;
};
KLoopParts findKLoopParts(gpu::GPUFuncOp kernel);

/// Calls `fn` on every gpu.launch_func under `root` that launches `kernel`
/// (its gpu.module and its name).
void forEachLaunchOf(Operation *root, gpu::GPUFuncOp kernel,
                     llvm::function_ref<void(gpu::LaunchFuncOp)> fn);

/// Records that `kernel` needs `bytes` of dynamic shared memory per block:
/// on the kernel (`tile.dynamic_shared_bytes`) and on every gpu.launch_func
/// of it under `root`.
void setDynamicSharedBytes(Operation *root, gpu::GPUFuncOp kernel,
                           int64_t bytes);

/// Erases the ops in `region` whose results are unused and that have no
/// side effects (what a rewrite leaves behind), innermost and last first.
void eraseDeadOps(Region &region);

/// Origin (row, column) in the block tile of the warp tile of the thread
/// `threadId`: warp w = tid / 32 owns rows (w / (BN/WN))*WM and columns
/// (w mod (BN/WN))*WN. For a wgmma config the same for the warpgroup tile
/// of warpgroup w = tid / 128.
std::pair<Value, Value> emitWarpOrigin(OpBuilder &b, Location loc,
                                       Value threadId, ConfigAttr config);

/// The part of a block-tile extent `extent` (rows or columns of the block's
/// tile of C) that falls in the sub-tile of `size` starting at `origin`:
/// the offset min(origin, extent) and the size clamp(extent - origin, 0,
/// size), so that a sub-tile entirely past the edge gets an empty view
/// inside the tile. Static when the block tile is always full.
std::pair<OpFoldResult, OpFoldResult> clipToExtent(OpBuilder &b, Location loc,
                                                   OpFoldResult extent,
                                                   Value origin, int64_t size);

/// The block tile's origin (row, column) in C, as tile-block-tile marked it;
/// nulls when the marks are missing.
std::pair<Value, Value> findTileOrigin(gpu::GPUFuncOp kernel);

/// The largest element count one of the problem's operands reaches:
/// offset + (batch-1)*batch stride + (rows-1)*row stride + cols (dense
/// operands: batch*rows*cols), saturated at INT64_MAX. Above 2^31 - 1 the
/// kernel's index arithmetic is 64-bit.
int64_t largestOperandSpan(const MatmulProblem &problem);

/// The matrix kernel parameter `index` (0: A, 1: B, 2: C) holds for this
/// block: the parameter itself, or in a batched kernel (3-d parameters) the
/// rank-reducing subview of the block's matrix, grid y. An existing such
/// subview in the kernel's entry block is reused; else one is made at `b`'s
/// insertion point (in the entry block) on `batchId`, or on a new
/// gpu.block_id y when that is null.
Value getBlockMatrix(OpBuilder &b, gpu::GPUFuncOp kernel, unsigned index,
                     Value batchId = Value());

/// An index constant.
Value constIndex(OpBuilder &b, Location loc, int64_t value);

/// (tile row, tile column) of the block with linear index `blockId` in a
/// grid of tilesM x tilesN tiles visited in groups of `group` tile rows:
/// consecutive block indices walk down a group's rows first, then move one
/// tile column right; the last group may have fewer rows. A bijection from
/// [0, tilesM*tilesN) onto the grid. Every divisor is a constant (the last
/// group's row count is known: a select between two divisions), since a
/// division by a value is a subroutine call in SASS that ptxas lets wgmma
/// accumulator reads pass. Built with createOrFold, so constant inputs fold
/// to constants (the unit test relies on it).
std::pair<Value, Value> emitSwizzledTileIndex(OpBuilder &b, Location loc,
                                              Value blockId, int64_t tilesM,
                                              int64_t tilesN, int64_t group);

/// Follows `view` through unit-stride memref.subview ops to the memref they
/// view, adding the subview offsets to `indices`. Accesses the passes emit
/// go to that root memref directly (fold-memref-alias-ops would drop their
/// `alignment` attribute, and with it the 16-byte accesses). A
/// rank-reducing subview (a batched kernel's matrix) ends the walk unless
/// `throughRankReducing`: then `indices` gain the dropped dimensions'
/// offsets, for vector accesses that index nothing but their memref.
Value resolveToRoot(OpBuilder &b, Location loc, Value view,
                    SmallVectorImpl<Value> &indices,
                    bool throughRankReducing = false);

/// The block's view of A or B that tile-block-tile made: a subview of the
/// stored operand, seen through a memref.transpose when the operand is
/// transposed. Offsets and sizes are in the matmul's (row, column) order.
struct BlockView {
  memref::SubViewOp subview;
  memref::TransposeOp transpose;
  SmallVector<OpFoldResult> offsets, sizes;
};
std::optional<BlockView> findBlockView(Value operand, bool transposed);

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The tensor-map types of A and B for a TMA kernel: one box of the shared
/// plan each (A: BM x BK, or BK x 64 when A is stored transposed; B:
/// BK x 64, or BN x BK when B is stored transposed), 128-byte swizzle,
/// out-of-bounds elements read as zero.
/// `batched`: the maps of a batched kernel are 3-d, the batch outermost and
/// a box one matrix deep (1 x rows x cols), so that a box never reads into
/// the next matrix: rows and columns past a matrix read as zero.
/// With `resultType` (C's element type) and a config with store = tma, a
/// third: C's, one staging buffer (64 rows by 128 bytes), 128-byte
/// swizzle, no L2 promotion.
SmallVector<Type, 2> getTensorMapTypes(MLIRContext *context,
                                       ConfigAttr config, Type elementType,
                                       StoredTransposes stored = {},
                                       bool batched = false,
                                       Type resultType = {});

/// Host side of a TMA kernel: the tensor maps of `a` and `b`
/// (nvgpu.tma.create.descriptor, which calls cuTensorMapEncodeTiled); 3-d
/// maps (getTensorMapTypes' `batched`) for 3-d operands.
/// With `cMat` and a config with store = tma, C's map too.
SmallVector<Value, 2> createTensorMaps(OpBuilder &b, Location loc,
                                       ConfigAttr config, Value a, Value bMat,
                                       StoredTransposes stored = {},
                                       Value cMat = {});

/// Tiles of C of the kernel for `problem` under `config`.
int64_t numTiles(ConfigAttr config, const MatmulProblem &problem);
/// Thread blocks of the kernel: one per tile and split of K. Both counts
/// saturate at INT64_MAX (a kernel written by hand may ask for more).
int64_t numBlocks(ConfigAttr config, const MatmulProblem &problem);
/// The grid a kernel is launched with, {x, y}: {numBlocks, batch}, or for a
/// persistent config {min(tiles of every matrix, resident), 1}; `resident`
/// 0 is the SMs of sm_90 times the config's occupancy (at least 1).
std::pair<int64_t, int64_t> launchGrid(ConfigAttr config,
                                       const MatmulProblem &problem,
                                       int64_t resident = 0);

/// Adds every element of the 2-d memref `from` to the same position of `to`
/// with memref.atomic_rmw addf (a loop nest): how the blocks of one tile
/// combine their partial products under split-K.
void emitAtomicAccumulate(OpBuilder &b, Location loc, Value from, Value to);

/// Split-K's accumulation of a block's partial tile into C: the first
/// scf.if after `loop` whose body adds into `dest` with
/// memref.atomic_rmw. Null `ifOp` when there is none (no split-K).
struct AtomicAccumulate {
  scf::IfOp ifOp;
  Value dest;
  explicit operator bool() const { return static_cast<bool>(ifOp); }
};
AtomicAccumulate findAtomicAccumulate(Operation *loop);

/// Rewrites the accumulation `ifAccumulate` (into `dest`) so that, under
/// `condition`, it adds the 2-d `partial` into the window of `dest` at
/// `offsets` of `sizes`: how a warp or a warpgroup takes over its part of
/// the block's accumulation.
void narrowAtomicAccumulate(scf::IfOp ifAccumulate, Value dest, Location loc,
                            ArrayRef<OpFoldResult> offsets,
                            ArrayRef<OpFoldResult> sizes, Value partial,
                            Value condition);

/// Erases every op of `block` but its terminator, users before definitions.
void eraseAllButTerminator(Block *block);

/// Vector widths (elements) of the kernel's global accesses: A and B slice
/// copies (the largest of 4, 2, 1 that divides both the operand's row
/// length and the slice's row length, so every vector stays aligned: K and
/// BK for A, N and BN for B; M and BM for a transposed A, K and BK for a
/// transposed B, whose rows run along m and k) and C
/// loads/stores (which also divide the B fragment width).
struct GlobalVectorWidths {
  int64_t a, b, c;
};
GlobalVectorWidths getGlobalVectorWidths(ConfigAttr config,
                                         const MatmulProblem &problem);

/// The row stride of B's padded copy that an fma kernel with repack = true
/// reads (fmaRepackRowStride: the manifest's repack_row_stride); 0 for any
/// other kernel (B read in place, or a wgmma kernel's TMA copies).
int64_t getFmaRepackRowStride(ConfigAttr config, const MatmulProblem &problem);

/// The shared-memory plan of the kernel that `config` makes for `problem`:
/// its element size and its operands as stored (a transposed operand's
/// tile differs: padded rows for fma, MN-major slabs for wgmma). Every
/// transform that lays out or addresses the shared tiles takes its plan
/// from here, so that none of them sees another layout.
SharedPlan getKernelSharedPlan(ConfigAttr config, const MatmulProblem &problem);

/// The buffer `value` views: through view-like ops (subview, cast,
/// reinterpret_cast, reshapes, memref.view, ...) to the value they start
/// from. `typeOffsets`, if given, becomes false where one of them is not a
/// view whose type's offset and strides count from its source's start (a
/// memref.view shifts it by bytes).
Value getViewRoot(Value value, bool *typeOffsets = nullptr);

} // namespace tile
} // namespace mlir

#endif // TILE_TRANSFORMS_UTILS_H
