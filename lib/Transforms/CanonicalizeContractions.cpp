//===- CanonicalizeContractions.cpp - generic matmuls to linalg.matmul ----===//
//
// Front ends write matmuls as linalg.generic (or linalg.contract) ops; the
// rest of the pipeline takes linalg.matmul. Ops that are a plain row-major
// matmul (Contractions.h says which) are replaced by a linalg.matmul on the
// same operands; all others are left for tile-configure to report.
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
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::GenericOp, linalg::ContractOp>(op.getOperation()) &&
          whyNotPlainMatmul(op).empty())
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : matmuls) {
      rewriter.setInsertionPoint(op);
      auto matmul = linalg::MatmulOp::create(
          rewriter, op.getLoc(), op->getResultTypes(), op.getDpsInputs(),
          op.getDpsInits());
      // Discardable attributes (a tile.config written on the op) carry over.
      for (NamedAttribute attr : op->getDiscardableAttrs())
        matmul->setAttr(attr.getName(), attr.getValue());
      rewriter.replaceOp(op, matmul->getResults());
    }
  }
};

} // namespace
