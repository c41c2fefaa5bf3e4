//===- Contractions.cpp - which linalg contractions are matmuls -----------===//
//
// Uses linalg's contraction matchers for the structure (two inputs, one
// output, projected-permutation maps, a multiply-add body, the M/N/K/batch
// classification of the loops) and checks the rest exactly: linalg's body
// matcher lets any chain of unary ops through (an arith.negf between the
// multiply and the add is still a "contraction" to it), so the body of a
// plain matmul is matched op by op here.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Contractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace mlir::tile;

namespace {

/// "d0, d2" for loop positions {0, 2}.
std::string listLoops(ArrayRef<unsigned> loops) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(loops, os, [&](unsigned loop) { os << "d" << loop; });
  return text;
}

/// The operand indexed by `map` in terms of the loops' roles, e.g. "[k][m]"
/// for (d2, d0) when d0 is M and d2 is K.
std::string describeIndexing(AffineMap map, unsigned m, unsigned n,
                             unsigned k, std::optional<unsigned> batch) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (AffineExpr result : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    unsigned position = dim ? dim.getPosition() : ~0u;
    os << "[" << (position == m       ? "m"
                  : position == n     ? "n"
                  : position == k     ? "k"
                  : batch && position == *batch ? "b"
                                                : "?")
       << "]";
  }
  return text;
}

/// Whether `map` is exactly (d_first, d_second), or (d_batch, d_first,
/// d_second) when `batch` is given.
bool indexes(AffineMap map, unsigned first, unsigned second,
             std::optional<unsigned> batch) {
  SmallVector<AffineExpr, 3> expected;
  if (batch)
    expected.push_back(getAffineDimExpr(*batch, map.getContext()));
  expected.push_back(getAffineDimExpr(first, map.getContext()));
  expected.push_back(getAffineDimExpr(second, map.getContext()));
  return map.getNumSymbols() == 0 &&
         map.getResults() == ArrayRef<AffineExpr>(expected);
}

/// Whether `value` is the block argument `arg` as an f32: the argument
/// itself when it is f32, else its arith.extf to f32.
bool isF32Operand(Value value, BlockArgument arg) {
  if (arg.getType().isF32())
    return value == arg;
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg && ext.getType().isF32();
}

/// Whether the body of `op` is exactly yield(addf(C, mulf(A', B'))), with
/// the operands of either op in either order and A', B' as in isF32Operand.
bool isPlainMatmulBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3)
    return false;
  BlockArgument a = body->getArgument(0), b = body->getArgument(1),
                c = body->getArgument(2);
  size_t expectedOps = a.getType().isF32() ? 3 : 5; // (2 extf,) mul, add, yield
  if (body->getOperations().size() != expectedOps)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value product = add.getLhs() == c ? add.getRhs()
                  : add.getRhs() == c ? add.getLhs()
                                      : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  return (isF32Operand(mul.getLhs(), a) && isF32Operand(mul.getRhs(), b)) ||
         (isF32Operand(mul.getLhs(), b) && isF32Operand(mul.getRhs(), a));
}

Type elementTypeOf(Value value) { return getElementTypeOrSelf(value); }

} // namespace

std::string mlir::tile::whyNotPlainMatmul(linalg::LinalgOp op,
                                          MatmulLayout *layout) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!linalg::isaContractionOpInterface(op)) {
    os << "not a contraction (linalg's matcher: "
       << linalg::detail::getMatchContractionMessage(
              linalg::detail::isContractionInterfaceImpl(op))
       << ")";
    return text;
  }
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty()) {
    os << "a contraction without an M, an N and a K dimension (a "
          "matrix-vector or vector product)";
    return text;
  }
  if (dims->batch.size() > 1) {
    os << "a contraction with " << dims->batch.size()
       << " batch dimensions (" << listLoops(dims->batch)
       << "); one is supported";
    return text;
  }
  if (dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1) {
    os << "a contraction with " << dims->m.size() << " M ("
       << listLoops(dims->m) << "), " << dims->n.size() << " N ("
       << listLoops(dims->n) << ") and " << dims->k.size() << " K ("
       << listLoops(dims->k) << ") dimensions; one of each is supported";
    return text;
  }
  bool batched = dims->batch.size() == 1;
  if (op.getNumLoops() != (batched ? 4u : 3u)) {
    os << "a contraction with " << op.getNumLoops()
       << " loops, of which only d" << dims->m[0] << ", d" << dims->n[0]
       << " and d" << dims->k[0] << " are M, N and K";
    return text;
  }
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  std::optional<unsigned> batch;
  if (batched)
    batch = dims->batch[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MatmulLayout found;
  found.batched = batched;
  found.transposeA = indexes(maps[0], k, m, batch);
  found.transposeB = indexes(maps[1], n, k, batch);
  if (!(found.transposeA || indexes(maps[0], m, k, batch)) ||
      !(found.transposeB || indexes(maps[1], k, n, batch)) ||
      !indexes(maps[2], m, n, batch)) {
    os << "a " << (batched ? "batched matmul" : "matmul") << " of C"
       << describeIndexing(maps[2], m, n, k, batch) << " += A"
       << describeIndexing(maps[0], m, n, k, batch) << " * B"
       << describeIndexing(maps[1], m, n, k, batch)
       << (batched ? " (A [b][m][k] or [b][k][m], B [b][k][n] or [b][n][k] "
                     "and C [b][m][n] are supported)"
                   : " (A [m][k] or [k][m], B [k][n] or [n][k] and C [m][n] "
                     "are supported)");
    return text;
  }
  Type aType = elementTypeOf(op.getDpsInputs()[0]),
       bType = elementTypeOf(op.getDpsInputs()[1]),
       cType = elementTypeOf(op.getDpsInits()[0]);
  if (aType != bType || !cType.isF32() ||
      !(aType.isF32() || aType.isBF16() || aType.isF16())) {
    os << "a matmul of '" << aType << "' and '" << bType << "' into '"
       << cType << "'"
       << " (f32 inputs, or bf16 or f16 inputs extended to f32, into an f32 "
          "output are supported)";
    return text;
  }
  if (!isPlainMatmulBody(op)) {
    os << "a contraction whose body is not C + A * B (arith.mulf, then "
          "arith.addf into the output, after an arith.extf to f32 of each "
          "bf16 or f16 input)";
    return text;
  }
  if (layout)
    *layout = found;
  return text;
}

SmallVector<AffineMap, 3> mlir::tile::getMatmulMaps(MLIRContext *context,
                                                    MatmulLayout layout) {
  unsigned first = layout.batched ? 1 : 0, loops = first + 3;
  AffineExpr b = getAffineDimExpr(0, context),
             m = getAffineDimExpr(first, context),
             n = getAffineDimExpr(first + 1, context),
             k = getAffineDimExpr(first + 2, context);
  auto map = [&](AffineExpr row, AffineExpr col) {
    SmallVector<AffineExpr, 3> results;
    if (layout.batched)
      results.push_back(b);
    results.append({row, col});
    return AffineMap::get(loops, 0, results, context);
  };
  return {layout.transposeA ? map(k, m) : map(m, k),
          layout.transposeB ? map(n, k) : map(k, n), map(m, n)};
}

MatmulExtents mlir::tile::getMatmulExtents(MatmulLayout layout,
                                           ArrayRef<int64_t> shapeA,
                                           ArrayRef<int64_t> shapeC) {
  // The matrices' dimensions come after the batch's.
  unsigned first = layout.batched ? 1 : 0;
  MatmulExtents extents;
  if (layout.batched)
    extents.batch = shapeC[0];
  extents.m = shapeC[first];
  extents.n = shapeC[first + 1];
  extents.k = shapeA[first + (layout.transposeA ? 0 : 1)];
  return extents;
}

bool mlir::tile::isCompiledMatmul(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
}

FailureOr<MatmulLayout> mlir::tile::getMatmulLayout(linalg::LinalgOp op) {
  if (!isCompiledMatmul(op))
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3)
    return failure();
  bool batched = isa<linalg::BatchMatmulOp>(op);
  for (bool transposeA : {false, true})
    for (bool transposeB : {false, true}) {
      MatmulLayout layout{transposeA, transposeB, batched};
      if (ArrayRef<AffineMap>(maps) ==
          ArrayRef<AffineMap>(getMatmulMaps(op->getContext(), layout)))
        return layout;
    }
  return failure();
}

std::string mlir::tile::whyNotCompiled(linalg::LinalgOp op) {
  if (isCompiledMatmul(op) || op.getNumReductionLoops() == 0)
    return std::string();
  std::string reason;
  MatmulLayout layout;
  if (linalg::isaConvolutionOpInterface(op))
    reason = "a convolution";
  else
    reason = whyNotPlainMatmul(op, &layout);
  if (reason.empty())
    reason = std::string(layout.batched ? "a batched matmul" : "a matmul") +
             " in " + op->getName().getStringRef().str() +
             " form, which tile-canonicalize-contractions makes a " +
             (layout.batched ? "linalg.batch_matmul" : "linalg.matmul") +
             " (tile-matmul-to-ptx runs it first)";
  return reason;
}
