//===- Contractions.h - which linalg contractions are matmuls -*- C++ -*-===//
//
// The forms in which front ends write a matmul, told apart with linalg's own
// contraction matchers (isaContractionOpInterface, inferContractionDims):
// tile-canonicalize-contractions rewrites a linalg.generic (or
// linalg.contract) that is a plain row-major matmul into linalg.matmul, and
// tile-configure explains why any other contraction-like op is not compiled.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_CONTRACTIONS_H
#define TILE_TRANSFORMS_CONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir {
namespace tile {

/// Which operands of a matmul are stored transposed: A as K x M (indexed
/// (k, m)), B as N x K (indexed (n, k)).
struct MatmulLayout {
  bool transposeA = false, transposeB = false;
  /// One batch loop, outermost in every operand: C[b] += A[b] * B[b]
  /// (linalg.batch_matmul; loops d0 = b, d1 = m, d2 = n, d3 = k).
  bool batched = false;
};

/// Whether `op` is one of the ops tile-opt compiles: linalg.matmul or
/// linalg.batch_matmul.
bool isCompiledMatmul(Operation *op);

/// Whether `op` computes C[m][n] += A[m][k] * B[k][n] on 2-d operands (A
/// indexed (m, k) or (k, m), B (k, n) or (n, k), C (m, n), in any loop
/// order), or the same per batch on 3-d operands whose first dimension is
/// one batch loop (C[b][m][n] += A[b][m][k] * B[b][k][n]; `layout->batched`) with a body of exactly arith.mulf then arith.addf into the output,
/// on f32, or on bf16/f16 inputs each extended to an f32 output with
/// arith.extf: the semantics of a linalg.matmul of those operand types
/// (with indexing maps where an operand is transposed). Returns the empty
/// string if so, filling `layout` when given, else why not (a phrase that
/// completes "is not a plain matmul: ...").
std::string whyNotPlainMatmul(linalg::LinalgOp op,
                              MatmulLayout *layout = nullptr);

/// The layout of a linalg.matmul's or linalg.batch_matmul's operands from
/// its indexing maps: the default maps, or user-defined maps that only
/// transpose A and/or B. Fails (broadcasts, a permuted C, another op)
/// otherwise.
FailureOr<MatmulLayout> getMatmulLayout(linalg::LinalgOp op);

/// The extents of a (batched) matmul in `layout`: the batch (1 when the
/// layout is not batched), then M, N and K of one matrix.
struct MatmulExtents {
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

/// The extents of a matmul in `layout` from the shapes of A (as stored) and
/// C, whose ranks the layout fixes (3 with the batch first, else 2).
MatmulExtents getMatmulExtents(MatmulLayout layout, ArrayRef<int64_t> shapeA,
                               ArrayRef<int64_t> shapeC);

/// The indexing maps of a linalg.matmul (loops d0 = m, d1 = n, d2 = k) or,
/// for a batched layout, of a linalg.batch_matmul (d0 = b, d1 = m, d2 = n,
/// d3 = k) with the operands in `layout`.
SmallVector<AffineMap, 3> getMatmulMaps(MLIRContext *context,
                                        MatmulLayout layout);

/// For a linalg op other than linalg.matmul and linalg.batch_matmul: why tile-opt does not compile
/// it, or the empty string if it is not contraction-like (it has no
/// reduction loop), which tile-opt leaves alone. A linalg.generic or
/// linalg.contract that is a plain (batched) matmul gets a reason too (it
/// must be rewritten first by tile-canonicalize-contractions).
std::string whyNotCompiled(linalg::LinalgOp op);

} // namespace tile
} // namespace mlir

#endif // TILE_TRANSFORMS_CONTRACTIONS_H
