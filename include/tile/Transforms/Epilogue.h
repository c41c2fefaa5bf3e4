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
/// and `enabled` (may be null) holds.
void emitAccumulatorStore(OpBuilder &b, Location loc,
                          const AccumulatorLayout &layout, ValueRange values,
                          Value cView, OpFoldResult rows, OpFoldResult cols,
                          Value enabled);

} // namespace tile
} // namespace mlir

#endif // TILE_TRANSFORMS_EPILOGUE_H
