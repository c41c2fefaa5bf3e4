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
// can fuse it. A cast to bf16 or f16 at the end of such a chain, on a
// matmul of inputs of that type whose C starts at a constant, makes the
// chain store that type: tile-opt computes a 16-bit C in f32 and rounds it
// once, when it is stored, which is what the f32 chain then the cast does.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Contractions.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
      linalg::LinalgOp matmul =
          createMatmul(rewriter, op, layout, op->getResultTypes(),
                       op.getDpsInits()[0]);
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
      // (A transpose of a transpose: both fold, and the layout is the
      // operand's own again.)
      for (unsigned index : {0u, 1u}) {
        while (auto transpose = matmul.getDpsInputs()[index]
                                    .getDefiningOp<linalg::TransposeOp>()) {
          if (transpose.getPermutation() != ArrayRef<int64_t>(swap) ||
              !transpose.hasPureTensorSemantics())
            break;
          matmul->setOperand(index, transpose.getInput());
          bool &flag = index == 0 ? layout->transposeA : layout->transposeB;
          flag = !flag;
          changed = true;
          if (transpose->use_empty())
            rewriter.eraseOp(transpose);
        }
      }
      if (changed)
        setLayout(matmul, *layout);
    }
    writeEpiloguesInPlace(rewriter);
    narrowCastChains(rewriter);
    if (failed(checkInPlaceUpdates()))
      signalPassFailure();
  }

  /// A linalg op (other than a matmul) that updates a matmul's result on
  /// tensors in place (its init) while the result is used elsewhere too:
  /// bufferization gives the op a copy of C, so it is no epilogue of the
  /// kernel and would stay in host code, which no kernel runs. An error at
  /// the op (after bufferization nothing ties the copy to the matmul).
  LogicalResult checkInPlaceUpdates() {
    LogicalResult result = success();
    getOperation()->walk([&](linalg::LinalgOp matmul) {
      if (!isCompiledMatmul(matmul) || !matmul.hasPureTensorSemantics() ||
          matmul->getNumResults() != 1)
        return;
      for (OpOperand &use : matmul->getResult(0).getUses()) {
        auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
        if (!user || isCompiledMatmul(user) || !user.isDpsInit(&use) ||
            llvm::all_of(matmul->getResult(0).getUsers(),
                         [&](Operation *other) { return other == user; }))
          continue;
        StringRef name = matmul->getName().getStringRef();
        InFlightDiagnostic diag =
            user.emitOpError()
            << "updates the result of a " << name
            << " in place, but that result is used elsewhere too: "
               "bufferization gives this op a copy of C, so it is not fused "
               "into the kernel and would stay in host code, which no kernel "
               "runs (an op that is the result's only use is fused)";
        diag.attachNote(matmul.getLoc()) << "the " << name;
        result = failure();
      }
    });
    return result;
  }

  /// The linalg ops before `value` on a chain that ends at a matmul: each
  /// writes the value before it in place (its one output, of the identity
  /// map, all loops parallel), and each value on the way has one use.
  /// Returns the matmul and fills `links` (the ops after it, in order), or
  /// null.
  static linalg::LinalgOp
  findChainMatmul(Value value, SmallVectorImpl<linalg::LinalgOp> &links) {
    while (value.hasOneUse()) {
      auto op = value.getDefiningOp<linalg::LinalgOp>();
      if (!op || !op.hasPureTensorSemantics() || op->getNumResults() != 1)
        return nullptr;
      if (isCompiledMatmul(op)) {
        std::reverse(links.begin(), links.end());
        return op;
      }
      if (op.getNumDpsInits() != 1 ||
          op.getNumParallelLoops() != op.getNumLoops() ||
          op.getMatchingIndexingMap(op.getDpsInitOperand(0)) !=
              AffineMap::getMultiDimIdentityMap(op.getNumLoops(),
                                                op.getContext()))
        return nullptr;
      links.push_back(op);
      value = op.getDpsInits()[0];
    }
    return nullptr;
  }

  /// A cast of a matmul's result (or of the end of an in-place chain of
  /// elementwise ops on it, writeEpiloguesInPlace's) to bf16 or f16: an
  /// elementwise op whose output is a tensor.empty of that type it does
  /// not read, one input the f32 value (the identity map, no other use),
  /// and whose body yields an arith.truncf from f32. When the matmul's
  /// inputs are of that type and its C is a linalg.fill of a constant that
  /// type holds exactly, the chain is made to store that type: the fill
  /// and the matmul get C of the narrow type, each op of the chain updates
  /// it in place (its output's block argument widened to f32 with
  /// arith.extf where the body reads it, what it yields rounded with
  /// arith.truncf), and the cast becomes one more such op (the f32 input's
  /// block argument replaced by the widened output). tile-opt keeps a
  /// 16-bit C in f32 from the first product to the store, where it rounds
  /// once, so the kernel computes what the f32 program and its cast did.
  void narrowCastChains(IRRewriter &rewriter) {
    SmallVector<linalg::LinalgOp> casts;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op->getNumResults() == 1 &&
          op.getNumDpsInits() == 1 &&
          op.getNumParallelLoops() == op.getNumLoops())
        casts.push_back(op);
    });
    for (linalg::LinalgOp castOp : casts) {
      OpOperand *init = castOp.getDpsInitOperand(0);
      MLIRContext *context = castOp.getContext();
      AffineMap identity =
          AffineMap::getMultiDimIdentityMap(castOp.getNumLoops(), context);
      auto initType = dyn_cast<RankedTensorType>(init->get().getType());
      if (!initType || castOp.getMatchingIndexingMap(init) != identity ||
          !init->get().getDefiningOp<tensor::EmptyOp>() ||
          castOp.payloadUsesValueFromOperand(init))
        continue;
      Type narrow = initType.getElementType();
      Block *body = castOp.getBlock();
      auto trunc = body ? body->getTerminator()
                              ->getOperand(0)
                              .getDefiningOp<arith::TruncFOp>()
                        : nullptr;
      // (A rounding mode of its own would be lost: the kernel rounds what
      // it stores to nearest even. And a linalg op that reads the cast's
      // result could become one more op of the chain, in place here or on
      // another run of this pass, and lose the cast's rounding.)
      if (!(narrow.isBF16() || narrow.isF16()) || !trunc ||
          !trunc.getIn().getType().isF32() || trunc.getRoundingmodeAttr() ||
          llvm::any_of(castOp->getResult(0).getUsers(), [](Operation *user) {
            return isa<linalg::LinalgOp>(user);
          }))
        continue;
      Type f32 = Float32Type::get(context);
      OpOperand *source = nullptr;
      linalg::LinalgOp matmul;
      SmallVector<linalg::LinalgOp> links;
      for (OpOperand *input : castOp.getDpsInputOperands()) {
        if (input->get().getType() != initType.clone(f32) ||
            castOp.getMatchingIndexingMap(input) != identity)
          continue;
        links.clear();
        if ((matmul = findChainMatmul(input->get(), links))) {
          source = input;
          break;
        }
      }
      if (!source)
        continue;
      // The matmul: inputs of the narrow type, C a fill of a constant it
      // holds exactly, used only here.
      auto fill = matmul.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
      if (!fill || !fill->getResult(0).hasOneUse() ||
          llvm::any_of(matmul.getDpsInputs(), [&](Value v) {
            return getElementTypeOrSelf(v.getType()) != narrow;
          }))
        continue;
      auto constant = fill.value().getDefiningOp<arith::ConstantFloatOp>();
      if (!constant || !constant.getType().isF32())
        continue;
      APFloat start = constant.value();
      bool losesInfo = false;
      start.convert(cast<FloatType>(narrow).getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
      if (losesInfo)
        continue;
      FailureOr<MatmulLayout> layout = getMatmulLayout(matmul);
      if (failed(layout))
        continue;

      // The fill and the matmul, of C of the narrow type.
      Location loc = fill.getLoc();
      rewriter.setInsertionPoint(fill);
      Value fillOutput = fill.getDpsInits()[0];
      // (The sizes of the fill's tensor.empty where it has one, so that
      // nothing is left reading it.)
      auto fillEmpty = fillOutput.getDefiningOp<tensor::EmptyOp>();
      Value empty = tensor::EmptyOp::create(
          rewriter, loc,
          fillEmpty ? fillEmpty.getMixedSizes()
                    : tensor::getMixedSizes(rewriter, loc, fillOutput),
          narrow);
      Value value =
          arith::ConstantOp::create(rewriter, loc, FloatAttr::get(narrow, start));
      Value c = linalg::FillOp::create(rewriter, loc, value, empty)
                    ->getResult(0);
      auto narrowed = [&](Value v) {
        return cast<RankedTensorType>(v.getType()).clone(narrow);
      };
      rewriter.setInsertionPoint(matmul);
      c = createMatmul(rewriter, matmul, *layout, TypeRange{narrowed(c)}, c)
              ->getResult(0);

      // Each op of the chain, and the cast last: a generic that updates C
      // in place, reading it through arith.extf. `drop` is the operand the
      // generic leaves out (the cast's f32 input), replaced in the body by
      // the widened output.
      auto rewrite = [&](linalg::LinalgOp op, OpOperand *drop,
                         bool roundYield) {
        linalg::GenericOp generic =
            createInPlaceGeneric(rewriter, op, drop, c, narrowed(c));
        Block &block = generic.getRegion().front();
        BlockArgument output = block.getArguments().back();
        output.setType(narrow);
        rewriter.setInsertionPointToStart(&block);
        Value wide = arith::ExtFOp::create(rewriter, op.getLoc(), f32, output);
        if (drop) {
          BlockArgument dropped = block.getArgument(drop->getOperandNumber());
          rewriter.replaceAllUsesWith(dropped, wide);
          block.eraseArgument(drop->getOperandNumber());
        } else {
          rewriter.replaceAllUsesExcept(output, wide, wide.getDefiningOp());
        }
        if (roundYield) {
          Operation *yield = block.getTerminator();
          rewriter.setInsertionPoint(yield);
          yield->setOperand(0, arith::TruncFOp::create(
                                   rewriter, op.getLoc(), narrow,
                                   yield->getOperand(0)));
        }
        c = generic->getResult(0);
      };
      for (linalg::LinalgOp link : links)
        rewrite(link, nullptr, /*roundYield=*/true);
      rewrite(castOp, source, /*roundYield=*/false);
      Operation *castEmpty = init->get().getDefiningOp();
      rewriter.replaceAllUsesWith(castOp->getResult(0), c);
      // The old ops, last first: each one's result had its one use in the
      // next.
      rewriter.eraseOp(castOp);
      for (linalg::LinalgOp link : llvm::reverse(links))
        rewriter.eraseOp(link);
      rewriter.eraseOp(matmul);
      rewriter.eraseOp(fill);
      for (Operation *op : {castEmpty, fillOutput.getDefiningOp()})
        if (op && isa<tensor::EmptyOp>(op) && op->use_empty())
          rewriter.eraseOp(op);
      if (constant->use_empty())
        rewriter.eraseOp(constant);
    }
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
      // Of several such inputs (a residual add of two matmuls' results),
      // the one made last: the others are then computed before its kernel
      // runs, and can be its epilogue's extra operands.
      OpOperand *source = nullptr;
      for (OpOperand *input : op.getDpsInputOperands()) {
        // (Read by this op alone, element by element: C * C reads it
        // through two inputs; C + C^T would need a copy of C.)
        if (!chain.contains(input->get()) ||
            !llvm::all_of(input->get().getUses(),
                          [&](OpOperand &use) {
                            return use.getOwner() == op &&
                                   op.isDpsInput(&use) &&
                                   op.getMatchingIndexingMap(&use) == identity;
                          }) ||
            input->get().getType() != init->get().getType())
          continue;
        Operation *maker = input->get().getDefiningOp();
        Operation *chosen = source ? source->get().getDefiningOp() : nullptr;
        if (!chosen || !maker || maker->getBlock() != chosen->getBlock() ||
            chosen->isBeforeInBlock(maker))
          source = input;
      }
      if (!source)
        continue;
      // (A named elementwise op, linalg.add say, becomes its generic form:
      // its maps, iterators and body.)
      unsigned sourceIndex = source->getOperandNumber();
      linalg::GenericOp inPlace =
          createInPlaceGeneric(rewriter, op, source, source->get(),
                               op->getResultTypes()[0]);
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

  /// A linalg.matmul (linalg.batch_matmul) of `layout` in place of `op`, at
  /// the rewriter's insertion point: `op`'s inputs, the init `init` and
  /// result types `resultTypes` (none on memrefs), `op`'s discardable
  /// attributes (a tile.config written on it) carried over.
  static linalg::LinalgOp createMatmul(IRRewriter &rewriter,
                                       linalg::LinalgOp op,
                                       const MatmulLayout &layout,
                                       TypeRange resultTypes, Value init) {
    linalg::LinalgOp matmul;
    if (layout.batched)
      matmul = linalg::BatchMatmulOp::create(rewriter, op.getLoc(), resultTypes,
                                             op.getDpsInputs(), init);
    else
      matmul = linalg::MatmulOp::create(rewriter, op.getLoc(), resultTypes,
                                        op.getDpsInputs(), init);
    setLayout(matmul, layout);
    for (NamedAttribute attr : op->getDiscardableAttrs())
      matmul->setAttr(attr.getName(), attr.getValue());
    return matmul;
  }

  /// The generic form of the elementwise op `op` (a named one, linalg.add
  /// say, too: its maps, iterators and body), just before it, that writes
  /// `output` in place (the identity map, result type `resultType`) and no
  /// longer takes the input `drop` (if any); its body is `op`'s, block
  /// arguments included (`drop`'s and the output's are the caller's to
  /// rewire). `op`'s discardable attributes carry over.
  static linalg::GenericOp createInPlaceGeneric(IRRewriter &rewriter,
                                                linalg::LinalgOp op,
                                                OpOperand *drop, Value output,
                                                Type resultType) {
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands())
      if (input != drop) {
        inputs.push_back(input->get());
        maps.push_back(op.getMatchingIndexingMap(input));
      }
    maps.push_back(
        AffineMap::getMultiDimIdentityMap(op.getNumLoops(), op.getContext()));
    rewriter.setInsertionPoint(op);
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{resultType}, inputs,
        ValueRange{output}, maps, op.getIteratorTypesArray());
    for (NamedAttribute attr : op->getDiscardableAttrs())
      generic->setAttr(attr.getName(), attr.getValue());
    rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                               generic.getRegion().end());
    return generic;
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
