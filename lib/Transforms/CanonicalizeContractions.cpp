//===- CanonicalizeContractions.cpp - generic matmuls to linalg.matmul ----===//
//
// Front ends write matmuls as linalg.generic (or linalg.contract) ops; the
// rest of the pipeline takes linalg.matmul and linalg.batch_matmul. Ops that
// are a plain (batched) matmul (Contractions.h says which; A and/or B may be
// transposed) are replaced by a linalg.matmul (linalg.batch_matmul) on the
// same operands, with indexing maps where an operand is transposed; all
// others are left for tile-configure to report. A linalg.transpose (on
// tensors) that makes A or B of a linalg.matmul is folded into the matmul's
// indexing maps: the matmul reads the transpose's input. An elementwise op
// on tensors that takes the matmul's result as an input and writes a
// tensor.empty (the destination-passing form front ends emit for a bias or
// an activation after a matmul) is rewritten to write the matmul's result
// instead, so that bufferization updates C in place and tile-fuse-epilogues
// can fuse it.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Contractions.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
    writeEpiloguesInPlace(rewriter);
  }

  /// Elementwise ops after a matmul on tensors that read its C (or the
  /// result of such an op before them) as an input of the output's type,
  /// read element by element, and write a tensor.empty they never read:
  /// each is rewritten into a linalg.generic that takes that value as its
  /// output instead (its block argument the output's), in program order,
  /// so that a chain of them becomes the in-place chain tile-fuse-epilogues
  /// fuses. The value must have no other use (it is overwritten).
  void writeEpiloguesInPlace(IRRewriter &rewriter) {
    // C of a matmul on tensors, or an op of the chain rewritten so far.
    DenseSet<Value> chain;
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
        continue;
      if (isCompiledMatmul(op)) {
        chain.insert(op->getResult(0));
        continue;
      }
      if (op.getNumDpsInits() != 1 ||
          op.getNumParallelLoops() != op.getNumLoops())
        continue;
      OpOperand *init = op.getDpsInitOperand(0);
      AffineMap identity =
          AffineMap::getMultiDimIdentityMap(op.getNumLoops(), op.getContext());
      if (op.getMatchingIndexingMap(init) != identity)
        continue;
      // Already in place on the chain.
      if (chain.contains(init->get())) {
        chain.insert(op->getResult(0));
        continue;
      }
      if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
          op.payloadUsesValueFromOperand(init))
        continue;
      OpOperand *source = nullptr;
      for (OpOperand *input : op.getDpsInputOperands())
        if (chain.contains(input->get()) && input->get().hasOneUse() &&
            input->get().getType() == init->get().getType() &&
            op.getMatchingIndexingMap(input) == identity)
          source = input;
      if (!source)
        continue;
      // (A named elementwise op, linalg.add say, becomes its generic form:
      // its maps, iterators and body.)
      unsigned sourceIndex = source->getOperandNumber();
      Value value = source->get();
      SmallVector<Value> inputs;
      SmallVector<AffineMap> maps;
      for (OpOperand *input : op.getDpsInputOperands())
        if (input != source) {
          inputs.push_back(input->get());
          maps.push_back(op.getMatchingIndexingMap(input));
        }
      maps.push_back(identity);
      rewriter.setInsertionPoint(op);
      auto inPlace = linalg::GenericOp::create(
          rewriter, op.getLoc(), op->getResultTypes(), inputs,
          ValueRange{value}, maps, op.getIteratorTypesArray());
      for (NamedAttribute attr : op->getDiscardableAttrs())
        inPlace->setAttr(attr.getName(), attr.getValue());
      rewriter.cloneRegionBefore(op->getRegion(0), inPlace.getRegion(),
                                 inPlace.getRegion().end());
      // The source's block argument is now the output's.
      Block &body = inPlace.getRegion().front();
      body.getArgument(sourceIndex)
          .replaceAllUsesWith(body.getArguments().back());
      body.eraseArgument(sourceIndex);
      Operation *empty = init->get().getDefiningOp();
      rewriter.replaceOp(op, inPlace->getResults());
      if (empty->use_empty())
        rewriter.eraseOp(empty);
      chain.insert(inPlace->getResult(0));
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
