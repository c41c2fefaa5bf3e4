//===- CanonicalizeContractions.cpp - generic matmuls to linalg.matmul ----===//
//
// Front ends write matmuls as linalg.generic (or linalg.contract) ops; the
// rest of the pipeline takes linalg.matmul. Ops that are a plain matmul
// (Contractions.h says which; A and/or B may be transposed) are replaced by
// a linalg.matmul on the same operands, with indexing maps where an operand
// is transposed; all others are left for tile-configure to report. A
// linalg.transpose (on tensors) that makes A or B of a linalg.matmul is
// folded into the matmul's indexing maps: the matmul reads the transpose's
// input.
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
      auto matmul = linalg::MatmulOp::create(
          rewriter, op.getLoc(), op->getResultTypes(), op.getDpsInputs(),
          op.getDpsInits());
      setLayout(matmul, layout);
      // Discardable attributes (a tile.config written on the op) carry over.
      for (NamedAttribute attr : op->getDiscardableAttrs())
        matmul->setAttr(attr.getName(), attr.getValue());
      rewriter.replaceOp(op, matmul->getResults());
    }
    // linalg.transpose -> linalg.matmul: the matmul reads the transpose's
    // input with the other layout of that operand.
    SmallVector<linalg::MatmulOp> all;
    getOperation()->walk([&](linalg::MatmulOp op) { all.push_back(op); });
    for (linalg::MatmulOp matmul : all) {
      FailureOr<MatmulLayout> layout = getMatmulLayout(matmul);
      if (failed(layout) || !matmul.hasPureTensorSemantics())
        continue;
      bool changed = false;
      for (unsigned index : {0u, 1u}) {
        auto transpose = matmul.getDpsInputs()[index]
                             .getDefiningOp<linalg::TransposeOp>();
        if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
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

  /// Gives `matmul` the indexing maps of `layout` (the default maps, which
  /// the printer leaves out, for neither operand transposed).
  static void setLayout(linalg::MatmulOp matmul, MatmulLayout layout) {
    SmallVector<Attribute> maps;
    for (AffineMap map : getMatmulMaps(matmul.getContext(), layout))
      maps.push_back(AffineMapAttr::get(map));
    matmul.setIndexingMapsAttr(ArrayAttr::get(matmul.getContext(), maps));
  }
};

} // namespace
