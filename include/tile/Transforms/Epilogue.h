//===- Epilogue.h - C in and out of a thread's accumulators ------*- C++ -*-===//
//
// The part of a matmul kernel both strategies share: a thread's f32
// accumulators are initialised from C (or the fill value) before the K loop
// and, after it, converted to C's element type and stored where they lie
// inside C. Edge guards are dropped where the tile's extent makes them
// statically true.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_EPILOGUE_H
#define TILE_TRANSFORMS_EPILOGUE_H

#include "tile/Transforms/Utils.h"

#include <string>
#include <vector>

namespace mlir {
namespace tile {

/// `width` consecutive accumulators of a thread, in one row of C, at
/// (row, col) from the thread's origin.
struct AccumulatorFragment {
  int64_t row = 0, col = 0;
};

/// Where one thread's accumulators lie in the tile of C it computes.
struct AccumulatorLayout {
  /// The thread's origin in the C view, and the largest value each can take
  /// (for dropping guards that always hold).
  Value originRow, originCol;
  int64_t maxOriginRow = 0, maxOriginCol = 0;
  /// Columns per fragment: each fragment is one vector<width x f32>.
  int64_t width = 1;
  SmallVector<AccumulatorFragment> fragments;
  /// Vector loads and stores of C (aligned to the fragment) instead of one
  /// element at a time.
  bool vectorAccess = false;
  /// The stores compute their positions anew from the origin passed through
  /// an empty inline asm (opaqueIndex): kept from the initialisation before
  /// the K loop, the positions would stay live through it (a 64-bit address
  /// per fragment).
  bool recomputeStorePositions = false;
  /// The stores add into C atomically (split-K's partial products; C is f32
  /// and there is no fused epilogue): each fragment by one
  /// `tile.atomic_addf` with `vectorAccess`, else one `memref.atomic_rmw
  /// addf` per element.
  bool atomicAdd = false;
};

/// `value` (an index) through an empty inline asm: the same number, which
/// LLVM cannot see is the same, so what is computed from it is computed
/// anew rather than kept from before.
Value opaqueIndex(OpBuilder &b, Location loc, Value value);

/// The initial accumulators, one vector<width x f32> per fragment: C's
/// elements (zero where a fragment lies outside the `rows` x `cols` view,
/// or where `enabled` is false) when `fill` is null, otherwise the fill
/// value broadcast.
SmallVector<Value> emitAccumulatorInit(OpBuilder &b, Location loc,
                                       const AccumulatorLayout &layout,
                                       Value cView, OpFoldResult rows,
                                       OpFoldResult cols, Value fill,
                                       Value enabled);

/// Stores `values` (one vector<width x f32> per fragment), converted to C's
/// element type, where they lie inside the `rows` x `cols` view `cView`
/// and `enabled` (may be null) holds; with `layout.atomicAdd`, adds them into
/// C atomically instead.
void emitAccumulatorStore(OpBuilder &b, Location loc,
                          const AccumulatorLayout &layout, ValueRange values,
                          Value cView, OpFoldResult rows, OpFoldResult cols,
                          Value enabled);

/// What emitAccumulatorStore would store for one fragment of `layout`
/// holding `value` (a vector<width x f32>): the kernel's fused epilogue
/// applied at its place in the `rows` x `cols` view `cView` (its operands
/// read only there; outside, the value is left as it is), converted to
/// C's element type. For a store that does not go through the fragment's
/// own address (a TMA store's staging buffer).
Value emitStoredValue(OpBuilder &b, Location loc,
                      const AccumulatorLayout &layout,
                      const AccumulatorFragment &fragment, Value value,
                      Value cView, OpFoldResult rows, OpFoldResult cols);

//===----------------------------------------------------------------------===//
// Fused epilogues (tile-fuse-epilogues)
//===----------------------------------------------------------------------===//

/// On a linalg.matmul and on its kernel: the fused epilogue, a dictionary
/// {operands = ["row" | "col" | "full", ...], steps = ["addf acc p0", ...]}
/// in the step language of tile/runtime/Manifest.h (EpilogueInfo). On the
/// kernel, also types = [element type per operand], and operand j is
/// parameter 3 + j (after C, before tensor maps): a memref<1 x n> (col),
/// memref<m x 1> (row) or memref<m x n> (full). A batched kernel's has
/// per_batch = [bool per operand]: an operand with one vector or matrix
/// per batch (true) is the same with the batch first (memref<batch x 1 x
/// n>, ...), read at the block's matrix (gpu.block_id y); the others are
/// shared by every matrix of the batch. An operand that is a strided memref
/// (a subview of a bigger buffer) keeps its offset and strides: the
/// kernel's has layouts = [array<i64: offset, row_stride[, batch_stride]>
/// per operand, empty for one without a layout] (-1 for a dynamic field,
/// batch_stride only on a per-batch operand), the layout of its parameter
/// (getOperandType: a row vector's elements are its rows, row_stride
/// apart; a column vector is one row, its elements contiguous).
constexpr llvm::StringLiteral kEpilogueAttrName = "tile.epilogue";
/// Marks a host linalg op that tile-fuse-epilogues fused into the kernel of
/// the matmul before it; tile-block-tile erases it.
constexpr llvm::StringLiteral kFusedEpilogueAttrName = "tile.fused_epilogue";
/// Marks the ops tile-block-tile adds to apply the epilogue in thread 0
/// (a barrier and an scf.if); tile-thread-tile and tile-wgmma replace them
/// by the epilogue on registers.
constexpr llvm::StringLiteral kEpilogueLoopAttrName = "tile.epilogue_loop";

/// Where an extra operand's element for C's (row, col) is: the runtime's
/// EpilogueOperandKind (tile/runtime/Manifest.h), kept apart so that this
/// header does not bring namespace ::tile next to mlir::tile.
enum class EpilogueOperandKind { Row, Col, Full };
StringRef stringifyEpilogueKind(EpilogueOperandKind kind);

/// A matmul's fused epilogue on the host: the linalg ops, in order, the
/// extra operands (memrefs of the host) and the program.
struct FusedEpilogue {
  SmallVector<Operation *> ops;
  SmallVector<Value> operands;
  SmallVector<EpilogueOperandKind> kinds;
  /// Per operand: one vector or matrix per batch (its first dimension the
  /// batch's, under a linalg.batch_matmul), or shared by every matrix.
  SmallVector<bool> perBatch;
  /// Per operand: the layout of its kernel parameter (std::nullopt: none,
  /// dense).
  SmallVector<std::optional<StridedLayout>> layouts;
  SmallVector<std::string> steps;
};

/// Whether `user`, a linalg op after `matmul` (a linalg.matmul or
/// linalg.batch_matmul) that uses its C, can be
/// fused after what `epilogue` holds: the empty string, and `epilogue`
/// extended by it, if so; otherwise why not (and `epilogue` unchanged).
std::string addEpilogueOp(linalg::LinalgOp matmul, linalg::LinalgOp user,
                          FusedEpilogue &epilogue);

/// The linalg ops marked fused that follow `matmul`, its epilogue rebuilt
/// from them (empty when there are none).
FailureOr<FusedEpilogue> collectFusedEpilogue(linalg::LinalgOp matmul);

/// {operands, steps} as the attribute kEpilogueAttrName holds.
DictionaryAttr buildEpilogueAttr(MLIRContext *context,
                                 ArrayRef<EpilogueOperandKind> kinds,
                                 ArrayRef<std::string> steps);
/// The attribute read back; false if malformed (`error` says why).
bool readEpilogueAttr(Attribute attr,
                      SmallVectorImpl<EpilogueOperandKind> &kinds,
                      std::vector<std::string> &steps, std::string &error);

/// The epilogue of `kernel`'s attribute on `acc` (an f32 scalar) at C's
/// global (row, col) of the block's matrix: loads each operand's element
/// there (converted to f32; a per-batch operand's of matrix gpu.block_id y)
/// and applies the steps. Returns `acc` when the kernel has none.
Value emitEpilogueValue(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                        Value acc, Value row, Value col);
/// The kernel parameter types of the epilogue's operands (after C), for a
/// problem of `batch` matrices of m x n.
SmallVector<Type> getEpilogueParamTypes(const FusedEpilogue &epilogue,
                                        int64_t batch, int64_t m, int64_t n);
/// The launch's arguments for them: vectors expanded to 1 x n / m x 1 (a
/// per-batch one to batch x 1 x n / batch x m x 1).
SmallVector<Value> createEpilogueLaunchArgs(OpBuilder &b, Location loc,
                                            const FusedEpilogue &epilogue);
/// tile-block-tile's epilogue: after a barrier, thread 0 applies the steps
/// to the rows x cols tile of C at (row0, col0) (`blockC` views it), in
/// place. Marked kEpilogueLoopAttrName.
void emitEpilogueLoop(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                      Value threadId, Value blockC, Value row0, Value col0,
                      OpFoldResult rows, OpFoldResult cols);
/// Whether operand `j` of the kernel epilogue attribute `attr` has one
/// vector or matrix per batch (its per_batch flag).
bool isPerBatchEpilogueOperand(Attribute attr, unsigned j);
/// The layout of operand `j`'s kernel parameter in the kernel epilogue
/// attribute `attr` (its layouts entry; std::nullopt for none).
std::optional<StridedLayout> getEpilogueOperandLayout(Attribute attr,
                                                      unsigned j);
/// The layouts entry of one operand: [offset, row_stride] (and
/// batch_stride for a per-batch operand), -1 for a dynamic field; empty
/// for no layout.
DenseI64ArrayAttr buildEpilogueLayoutAttr(
    MLIRContext *context, const std::optional<StridedLayout> &layout,
    bool perBatch);
/// Whether `kernel` has a fused epilogue.
bool hasEpilogue(gpu::GPUFuncOp kernel);
/// Erases the thread-0 epilogue tile-block-tile made (kEpilogueLoopAttrName).
void eraseEpilogueLoop(gpu::GPUFuncOp kernel);

} // namespace tile
} // namespace mlir

#endif // TILE_TRANSFORMS_EPILOGUE_H
