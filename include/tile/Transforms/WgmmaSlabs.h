//===- WgmmaSlabs.h - the wgmma strategy's shared-memory slabs --*- C++ -*-===//
//
// What the wgmma strategy's passes share about its shared memory: where a
// slot of the ring is (the shared plan's offsets from a 1024-byte-aligned
// base), the 128-byte swizzle as index arithmetic, and the two ways a
// BM x BK slab of A and a BK x BN slab of B reach a slot (the TMA, or
// loads through registers).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_WGMMASLABS_H
#define TILE_TRANSFORMS_WGMMASLABS_H

#include "tile/Analysis/SharedPlan.h"
#include "tile/Transforms/Utils.h"

namespace mlir {
namespace tile {

/// Marks the K loop's compute (the slab product) of a wgmma kernel, and the
/// copy of a slab into its slot.
constexpr llvm::StringLiteral kSlabComputeAttrName = "tile.slab_compute";
constexpr llvm::StringLiteral kSlabCopyAttrName = "tile.slab_copy";
/// Marks the constant that names the ring slot an iteration uses (0 until
/// tile-mbarrier-pipeline makes the ring).
constexpr llvm::StringLiteral kSlotAttrName = "tile.slot";

/// Column of element `col` of row `row` in a 128-byte-swizzled tile whose
/// rows are 128 bytes: 16-byte granule g of the row is stored at granule
/// g ^ (row % 8) (what the TMA writes with CU_TENSOR_MAP_SWIZZLE_128B and
/// wgmma reads with swizzle mode 1).
Value emitSwizzledColumn(OpBuilder &b, Location loc, Value row, Value col,
                         int64_t elementBytes);

/// The views of one ring slot: each operand's slab as
/// [chunks * rows][rowElements] (SlabOperand: A as [BM][BK] and B as
/// [chunks * BK][64] when A is stored M x K and B K x N; chunk c of an
/// MN-major slab holds mn 64c..64c+63, k-row r at row c * BK + r) and each
/// TMA box's part of it alone (the TMA's destinations: each chunk of an
/// MN-major slab; a K-major slab whole, or the parts of its rows that the
/// blocks of a cluster share out, SharedPlan::boxesA / boxesB).
struct SlabViews {
  Value a, b;
  SmallVector<Value> aChunks, bChunks;
};

/// Row and column, the column swizzled, of element (mn, k) of an operand's
/// slab in its whole view (SlabViews::a or b). `line` is what
/// emitSlabLine computed for mn (outside any loop over k).
struct SlabLine {
  /// K-major: the row (mn); MN-major: the chunk (mn / 64).
  Value rowOrChunk;
  /// MN-major: the column in the chunk (mn % 64).
  Value column;
};
SlabLine emitSlabLine(OpBuilder &b, Location loc, const SlabOperand &slab,
                      Value mn);
std::pair<Value, Value> emitSlabPosition(OpBuilder &b, Location loc,
                                         const SlabOperand &slab,
                                         const SlabLine &line, Value k);
/// The byte offset of element (mn, 0) from the slab's start, before the
/// swizzle (SlabOperand::linearOffset with an mn known at run time).
Value emitSlabLinearOffset(OpBuilder &b, Location loc,
                           const SlabOperand &slab, Value mn);

/// The 1024-byte-aligned start of the dynamic shared memory `smem`: its
/// byte offset from `smem` (the plan requests 1024 bytes of slack for it).
Value emitAlignedBase(OpBuilder &b, Location loc, Value smem);

/// The views of slot `slot` of the ring, from the aligned base `base`.
SlabViews emitSlabViews(OpBuilder &b, Location loc, Value smem, Value base,
                        Value slot, const SharedPlan &plan, Type elementType);

/// Where a slab comes from: its first k, the block tile's origin in C and
/// the problem.
struct SlabSource {
  Value k0, row0, col0;
  MatmulProblem problem;
};

/// The TMA copy of a slab into `views`, as one thread issues it: the
/// expected bytes on barrier `slot` of `barriers`, then for A and for B one
/// box (K-major) or one box per chunk (MN-major). Rows and columns past the
/// matrix read as zero.
void emitTmaSlabCopy(OpBuilder &b, Location loc, Value descA, Value descB,
                     Value barriers, Value slot, const SlabViews &views,
                     const SlabSource &source, const SharedPlan &plan);

/// The copy of a slab through registers by `numThreads` threads, this one
/// being `thread` (0-based): element by element from A and B as stored (any
/// row length, any alignment; consecutive threads along a stored row) into
/// the swizzled slot; elements past the matrix are zero. Ends with the proxy
/// fence that makes the stores visible to wgmma (the async proxy).
void emitRegisterSlabCopy(OpBuilder &b, Location loc, Value thread,
                          int64_t numThreads, Value globalA, Value globalB,
                          const SlabViews &views, const SlabSource &source,
                          ConfigAttr config);

/// The product of the slabs in `views` computed one element at a time:
/// C[i][j] += sum_kk A_s[rowOrigin + i][kk] * B_s[kk][colOrigin + j] over
/// i < rows, j < cols, kk < depth of the C view `cView`, reading the
/// swizzled layout (the shared plan's, for operands stored as `stored`
/// says), accumulating in f32. The reference form of the slab product that
/// tile-wgmma replaces with wgmma instructions.
void emitScalarSlabProduct(OpBuilder &b, Location loc, const SlabViews &views,
                           Value cView, Value rowOrigin, Value colOrigin,
                           OpFoldResult rows, OpFoldResult cols,
                           OpFoldResult depth, ConfigAttr config,
                           Type elementType, StoredTransposes stored = {});

/// The scalar slab product in a kernel's K loop, as emitScalarSlabProduct
/// made it, with the values it was made from.
struct ScalarSlabProduct {
  /// The scf.if (marked tile.slab_compute) the product runs in.
  scf::IfOp ifCompute;
  SlabViews views;
  Value cView, rowOrigin, colOrigin, rows, cols;
  /// A constant depth is an attribute: the constant lives inside the
  /// product, which the passes replace.
  OpFoldResult depth;
};
FailureOr<ScalarSlabProduct> findScalarSlabProduct(scf::ForOp kLoop);

/// The views of the K loop's slot marked tile.shared "A" and "B".
SlabViews findSlabViews(scf::ForOp kLoop);

/// tile-promote-shared for a wgmma kernel: the K loop over BK-deep slabs of
/// A and B in one slot of 128-byte-swizzled shared memory (TMA or register
/// copies), the slab product in thread 0.
LogicalResult promoteToSwizzledSlabs(gpu::GPUFuncOp kernel, Operation *root);

/// Bytes one slab brings into a slot (the TMA's expected transaction
/// count): every box whole, zero-filled parts included.
int64_t slabTransactionBytes(const SharedPlan &plan);

} // namespace tile
} // namespace mlir

#endif // TILE_TRANSFORMS_WGMMASLABS_H
