//===- CanonicalizeContractions.cpp - generic matmuls to linalg.matmul ----===//
//
// Front ends write matmuls as linalg.generic (or linalg.contract) ops; the
// rest of the pipeline takes linalg.matmul and linalg.batch_matmul. Ops that
// are a plain (batched) matmul (Contractions.h says which; A and/or B may be
// transposed) are replaced by a linalg.matmul (linalg.batch_matmul) on the
// same operands, with indexing maps where an operand is transposed; all
// others are left for tile-configure to report. A linalg.transpose (on
// tensors) that makes A or B of a linalg.matmul is folded into the matmul's
// indexing maps: the matmul reads the transpose's input.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Contractions.h"
#include "tile/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECANONICALIZECONTRACTIONS
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileCanonicalizeContractionsPass
    : public mlir::tile::impl::TileCanonicalizeContractionsBase<
          TileCanonicalizeContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, MatmulLayout>> matmuls;
    getOperation()->walk([&](linalg::LinalgOp op) {
      MatmulLayout layout;
      if (isa<linalg::GenericOp, linalg::ContractOp>(op.getOperation()) &&
          whyNotPlainMatmul(op, &layout).empty())
        matmuls.push_back({op, layout});
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, layout] : matmuls) {
      rewriter.setInsertionPoint(op);
      linalg::LinalgOp matmul;
      if (layout.batched)
        matmul = linalg::BatchMatmulOp::create(
            rewriter, op.getLoc(), op->getResultTypes(), op.getDpsInputs(),
            op.getDpsInits());
      else
        matmul = linalg::MatmulOp::create(rewriter, op.getLoc(),
                                          op->getResultTypes(),
                                          op.getDpsInputs(), op.getDpsInits());
      setLayout(matmul, layout);
      // Discardable attributes (a tile.config written on the op) carry over.
      for (NamedAttribute attr : op->getDiscardableAttrs())
        matmul->setAttr(attr.getName(), attr.getValue());
      rewriter.replaceOp(op, matmul->getResults());
    }
    // linalg.transpose -> linalg.matmul: the matmul reads the transpose's
    // input with the other layout of that operand. For a batched matmul
    // the transpose swaps the last two dimensions and keeps the batch.
    SmallVector<linalg::LinalgOp> all;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isCompiledMatmul(op))
        all.push_back(op);
    });
    for (linalg::LinalgOp matmul : all) {
      FailureOr<MatmulLayout> layout = getMatmulLayout(matmul);
      if (failed(layout) || !matmul.hasPureTensorSemantics())
        continue;
      SmallVector<int64_t, 3> swap =
          layout->batched ? SmallVector<int64_t, 3>{0, 2, 1}
                          : SmallVector<int64_t, 3>{1, 0};
      bool changed = false;
      for (unsigned index : {0u, 1u}) {
        auto transpose = matmul.getDpsInputs()[index]
                             .getDefiningOp<linalg::TransposeOp>();
        if (!transpose ||
            transpose.getPermutation() != ArrayRef<int64_t>(swap) ||
            !transpose.hasPureTensorSemantics())
          continue;
        matmul->setOperand(index, transpose.getInput());
        bool &flag = index == 0 ? layout->transposeA : layout->transposeB;
        flag = !flag;
        changed = true;
        if (transpose->use_empty())
          rewriter.eraseOp(transpose);
      }
      if (changed)
        setLayout(matmul, *layout);
    }
  }

  /// Gives `matmul` (a linalg.matmul or linalg.batch_matmul) the indexing
  /// maps of `layout` (the default maps, which the printer leaves out, for
  /// neither operand transposed).
  static void setLayout(linalg::LinalgOp matmul, MatmulLayout layout) {
    SmallVector<Attribute> maps;
    for (AffineMap map : getMatmulMaps(matmul->getContext(), layout))
      maps.push_back(AffineMapAttr::get(map));
    matmul->setAttr("indexing_maps",
                    ArrayAttr::get(matmul->getContext(), maps));
  }
};

} // namespace
