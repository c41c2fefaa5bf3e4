//===- ThreadTile.cpp - a register tile of C in every lane ----------------===//
//
// The warp's 32 lanes form an LM x LN grid (LM = WM/TM, LN = WN/TN). Lane
// (lm, ln) holds TM x TN accumulators as (TM/VA) x (TN/VB) sub-tiles of
// VA x VB, the sub-tiles spread over the warp tile at strides LM*VA (rows)
// and LN*VB (columns): each fragment load is one VA- or VB-wide vector.load
// from shared memory, and the lanes of a warp read distinct 16-byte granules
// or share a broadcast. VA and VB are 4 when the thread tile and the shared
// row lengths allow (cost model: fragmentVectorWidth).
//
// The accumulators are loaded from C (or set to the fill value) before the K
// loop, carried through it as iter_args, and stored after it; loads and
// stores at the edge of C are guarded, one guard per vector.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Utils.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/TileLayout.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILETHREADTILE
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Where one lane's registers sit in its warp tile and how wide its vectors
/// are: the plain layout (Analysis/TileLayout.h) and the values of this
/// lane.
struct LaneValues : tile::LaneLayout {
  int64_t widthC;           // global C access width
  Value laneRow, laneCol;   // lm*VA, ln*VB
  Value warpRow0, warpCol0; // warp tile origin in the block tile
};

/// The shared buffer marked `operand` in `kernel`.
memref::ViewOp findSharedBuffer(gpu::GPUFuncOp kernel, StringRef operand) {
  memref::ViewOp result;
  kernel.walk([&](memref::ViewOp view) {
    auto mark = view->getAttrOfType<StringAttr>(kSharedBufferAttrName);
    if (mark && mark.getValue() == operand)
      result = view;
  });
  return result;
}

struct TileThreadTilePass
    : public mlir::tile::impl::TileThreadTileBase<TileThreadTilePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult tileThreads(gpu::GPUFuncOp kernel);
};

/// `piece` written into `vector` at `offset` (a vector.shuffle: it lowers
/// everywhere, unlike the strided-slice ops).
Value insertPiece(OpBuilder &b, Location loc, Value vector, Value piece,
                  int64_t offset) {
  int64_t width = cast<VectorType>(vector.getType()).getNumElements();
  int64_t pieceWidth = cast<VectorType>(piece.getType()).getNumElements();
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < width; ++i)
    mask.push_back(i >= offset && i < offset + pieceWidth ? width + i - offset
                                                          : i);
  return vector::ShuffleOp::create(b, loc, vector, piece, mask);
}

/// The `pieceWidth` elements of `vector` from `offset` on.
Value extractPiece(OpBuilder &b, Location loc, Value vector, int64_t offset,
                   int64_t pieceWidth) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < pieceWidth; ++i)
    mask.push_back(offset + i);
  return vector::ShuffleOp::create(b, loc, vector, vector, mask);
}

/// One k step's FMAs in 2x2 groups (two rows by two columns: four FMAs on
/// two A and two B values): for each pair of columns, the rows in pairs,
/// walking down for even column pairs and back up for odd ones. `accs`
/// (TM x TN/VB vectors of VB) is updated in place; each FMA is a 2-wide
/// vector.fma on a piece of an accumulator (LLVM scalarizes it in order).
void emitPairedFMAs(OpBuilder &b, Location loc, const LaneValues &layout,
                    ArrayRef<Value> fragA, ArrayRef<Value> fragB,
                    SmallVectorImpl<Value> &accs) {
  int64_t width = std::min<int64_t>(2, layout.widthB);
  auto pairType = VectorType::get({width}, b.getF32Type());
  SmallVector<Value> aSplats(layout.threadM);
  auto splatA = [&](int64_t r) {
    if (!aSplats[r])
      aSplats[r] = vector::BroadcastOp::create(
          b, loc, pairType,
          vector::ExtractOp::create(b, loc, fragA[r / layout.widthA],
                                    r % layout.widthA));
    return aSplats[r];
  };
  int64_t rowPairs = (layout.threadM + 1) / 2;
  for (int64_t q = 0; q < layout.threadN / width; ++q) {
    int64_t j = q * width / layout.widthB;
    int64_t offset = q * width % layout.widthB;
    Value bPair = width == layout.widthB
                      ? fragB[j]
                      : extractPiece(b, loc, fragB[j], offset, width);
    for (int64_t i = 0; i < rowPairs; ++i) {
      int64_t pair = q % 2 == 0 ? i : rowPairs - 1 - i;
      for (int64_t r = 2 * pair; r < std::min(2 * pair + 2, layout.threadM);
           ++r) {
        Value &acc = accs[r * layout.colGroups() + j];
        if (width == layout.widthB) {
          acc = vector::FMAOp::create(b, loc, splatA(r), bPair, acc);
          continue;
        }
        Value piece = extractPiece(b, loc, acc, offset, width);
        Value sum = vector::FMAOp::create(b, loc, splatA(r), bPair, piece);
        acc = insertPiece(b, loc, acc, sum, offset);
      }
    }
  }
}

/// `indices` (row, column) with the column moved `e` elements on.
SmallVector<Value> offsetColumn(OpBuilder &b, Location loc,
                                ArrayRef<Value> indices, int64_t e) {
  SmallVector<Value> at(indices);
  if (e > 0)
    at[1] = arith::AddIOp::create(b, loc, at[1], constIndex(b, loc, e));
  return at;
}

/// `a && b` for optional i1 values (null = true).
Value andConditions(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return arith::AndIOp::create(b, loc, x, y);
}

/// `index < bound` unless the bound is a constant that `index` cannot reach
/// (`maxIndex` is the largest value `index` can take); null means "true".
Value lessThan(OpBuilder &b, Location loc, Value index, int64_t maxIndex,
               OpFoldResult bound) {
  if (std::optional<int64_t> constant = getConstantIntValue(bound))
    if (maxIndex < *constant)
      return nullptr;
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index,
                               getValueOrCreateConstantIndexOp(b, loc, bound));
}

LogicalResult TileThreadTilePass::tileThreads(gpu::GPUFuncOp kernel) {
  ConfigAttr config = getConfig(kernel);
  MatmulProblem problem = *getMatmulProblem(kernel);
  KLoopParts parts = findKLoopParts(kernel);
  scf::ForOp loop = parts.loop;
  linalg::MatmulOp matmul = parts.matmul;
  scf::IfOp ifCompute = parts.ifCompute;
  auto warpC = matmul
                   ? matmul.getOutputs()[0].getDefiningOp<memref::SubViewOp>()
                   : nullptr;
  auto warpA = matmul
                   ? matmul.getInputs()[0].getDefiningOp<memref::SubViewOp>()
                   : nullptr;
  auto warpB = matmul
                   ? matmul.getInputs()[1].getDefiningOp<memref::SubViewOp>()
                   : nullptr;
  memref::ViewOp sharedA = findSharedBuffer(kernel, "A");
  memref::ViewOp sharedB = findSharedBuffer(kernel, "B");
  Value threadId;
  kernel.walk([&](gpu::ThreadIdOp op) { threadId = op; });
  if (!ifCompute || !warpC || !warpA || !warpB || !sharedA || !sharedB ||
      !threadId || loop.getNumRegionIterArgs() != 0)
    return kernel.emitError()
           << "tile-thread-tile: kernel body is not the form tile-warp-tile "
              "makes (a K loop whose warp matmul runs in an scf.if)";
  Location loc = matmul.getLoc();
  scf::IfOp ifFill = parts.ifFill;
  // Under split-K the warp's partial product is added into C atomically
  // after the loop (the product view is then a private partial tile).
  scf::IfOp ifAccumulate = parts.ifAccumulate;
  Value accumulateInto;
  if (ifAccumulate) {
    ifAccumulate.walk(
        [&](memref::AtomicRMWOp op) { accumulateInto = op.getMemref(); });
    if (!accumulateInto)
      return kernel.emitError()
             << "tile-thread-tile: lane 0's work after the K loop is not an "
                "atomic accumulation";
  }

  OpBuilder b(loop);
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Type f32 = b.getF32Type();
  LaneValues layout;
  static_cast<tile::LaneLayout &>(layout) = getLaneLayout(
      config.toTileConfig(), getKernelSharedPlan(config, problem));
  layout.widthC = getGlobalVectorWidths(config, problem).c;
  Value lane = arith::RemUIOp::create(b, loc, threadId, c(tile::kWarpSize));
  Value laneM = arith::DivUIOp::create(b, loc, lane, c(layout.lanesN));
  Value laneN = arith::RemUIOp::create(b, loc, lane, c(layout.lanesN));
  layout.laneRow = arith::MulIOp::create(b, loc, laneM, c(layout.widthA));
  layout.laneCol = arith::MulIOp::create(b, loc, laneN, c(layout.widthB));
  // The warp's origin, not the (clamped) offset of its views: the fragment
  // loads of a warp past the edge of C must stay inside the shared tile.
  std::tie(layout.warpRow0, layout.warpCol0) =
      emitWarpOrigin(b, loc, threadId, config);
  OpFoldResult warpRows = warpC.getMixedSizes()[0];
  OpFoldResult warpCols = warpC.getMixedSizes()[1];
  Value warpCValue = warpC;
  auto vecB = VectorType::get({layout.widthB}, f32);
  auto vecC = VectorType::get({layout.widthC}, f32);

  // Positions of this lane's accumulators in the warp tile of C, and
  // whether each lies inside C (edge tiles).
  SmallVector<Value> rowIndex, colIndex, rowValid;
  SmallVector<SmallVector<Value>> colValid; // [j][piece]
  for (int64_t r = 0; r < layout.threadM; ++r) {
    Value row = arith::AddIOp::create(b, loc, layout.laneRow,
                                      c(layout.rowOffset(r)));
    rowIndex.push_back(row);
    int64_t maxRow = layout.rowOffset(r) +
                     (layout.lanesM - 1) * layout.widthA;
    rowValid.push_back(lessThan(b, loc, row, maxRow, warpRows));
  }
  for (int64_t j = 0; j < layout.colGroups(); ++j) {
    Value col = arith::AddIOp::create(b, loc, layout.laneCol,
                                      c(layout.colOffset(j)));
    colIndex.push_back(col);
    SmallVector<Value> pieces;
    for (int64_t p = 0; p < layout.widthB / layout.widthC; ++p) {
      Value pieceCol = p == 0 ? col
                              : arith::AddIOp::create(b, loc, col,
                                                      c(p * layout.widthC))
                                    .getResult();
      int64_t maxCol = layout.colOffset(j) +
                       (layout.lanesN - 1) * layout.widthB + p * layout.widthC;
      pieces.push_back(lessThan(b, loc, pieceCol, maxCol, warpCols));
    }
    colValid.push_back(pieces);
  }

  // Initial accumulators: the fill value (the C initialisation, or zero for
  // a split-K partial product), or C where it exists.
  SmallVector<Value> init;
  Value zeroC = arith::ConstantOp::create(b, loc, b.getZeroAttr(vecC));
  Value fillSplat;
  if (ifFill)
    fillSplat = vector::BroadcastOp::create(
        b, loc, vecB,
        cast<linalg::FillOp>(ifFill.thenBlock()->front()).getInputs()[0]);
  for (int64_t r = 0; r < layout.threadM; ++r)
    for (int64_t j = 0; j < layout.colGroups(); ++j) {
      if (fillSplat) {
        init.push_back(fillSplat);
        continue;
      }
      Value acc = arith::ConstantOp::create(b, loc, b.getZeroAttr(vecB));
      for (int64_t p = 0; p < layout.widthB / layout.widthC; ++p) {
        Value col = p == 0 ? colIndex[j]
                           : arith::AddIOp::create(b, loc, colIndex[j],
                                                   c(p * layout.widthC))
                                 .getResult();
        Value valid = andConditions(b, loc, rowValid[r], colValid[j][p]);
        auto load = [&](OpBuilder &nb, Location nl) -> Value {
          SmallVector<Value> indices = {rowIndex[r], col};
          Value root = resolveToRoot(nb, nl, warpCValue, indices,
                                     /*throughRankReducing=*/vectorC);
          if (vectorC)
            return vector::LoadOp::create(nb, nl, vecC, root, indices,
                                          /*nontemporal=*/false,
                                          llvm::MaybeAlign(layout.widthC * 4));
          SmallVector<Value> elements;
          for (int64_t e = 0; e < layout.widthC; ++e)
            elements.push_back(memref::LoadOp::create(
                nb, nl, root, offsetColumn(nb, nl, indices, e)));
          return vector::FromElementsOp::create(nb, nl, vecC, elements);
        };
        Value piece;
        if (!valid) {
          piece = load(b, loc);
        } else {
          auto ifValid = scf::IfOp::create(
              b, loc, valid,
              [&](OpBuilder &nb, Location nl) {
                scf::YieldOp::create(nb, nl, load(nb, nl));
              },
              [&](OpBuilder &nb, Location nl) {
                scf::YieldOp::create(nb, nl, zeroC);
              });
          piece = ifValid.getResult(0);
        }
        acc = layout.widthC == layout.widthB
                  ? piece
                  : insertPiece(b, loc, acc, piece, p * layout.widthC);
      }
      init.push_back(acc);
    }

  // The K loop, now carrying the accumulators.
  auto newLoop = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep(), init);
  newLoop->setAttrs(loop->getAttrs());
  Block *newBody = newLoop.getBody();
  newBody->getOperations().splice(newBody->begin(),
                                  loop.getBody()->getOperations(),
                                  loop.getBody()->begin(),
                                  std::prev(loop.getBody()->end()));
  loop.getInductionVar().replaceAllUsesWith(newLoop.getInductionVar());

  // The k steps of one slice: TM + TN values from shared memory, TM*TN FMAs.
  b.setInsertionPoint(ifCompute);
  auto stepLoop = scf::ForOp::create(
      b, loc, c(0), c(config.getBlockK()), c(1), newLoop.getRegionIterArgs(),
      [&](OpBuilder &nb, Location nl, Value kk, ValueRange accs) {
        auto nc = [&](int64_t value) { return constIndex(nb, nl, value); };
        SmallVector<Value> fragA, fragB;
        auto vecA = VectorType::get({layout.widthA}, f32);
        for (int64_t i = 0; i < layout.rowGroups(); ++i) {
          Value row = arith::AddIOp::create(
              nb, nl, layout.warpRow0,
              arith::AddIOp::create(nb, nl, layout.laneRow,
                                    nc(i * layout.lanesM * layout.widthA)));
          fragA.push_back(vector::LoadOp::create(
              nb, nl, vecA, sharedA, ValueRange{kk, row},
              /*nontemporal=*/false, llvm::MaybeAlign(layout.widthA * 4)));
        }
        for (int64_t j = 0; j < layout.colGroups(); ++j) {
          Value col = arith::AddIOp::create(
              nb, nl, layout.warpCol0,
              arith::AddIOp::create(nb, nl, layout.laneCol,
                                    nc(layout.colOffset(j))));
          fragB.push_back(vector::LoadOp::create(
              nb, nl, vecB, sharedB, ValueRange{kk, col},
              /*nontemporal=*/false, llvm::MaybeAlign(layout.widthB * 4)));
        }
        SmallVector<Value> next;
        if (fmaOrder == "rows") {
          for (int64_t r = 0; r < layout.threadM; ++r) {
            Value a = vector::ExtractOp::create(
                nb, nl, fragA[r / layout.widthA], r % layout.widthA);
            Value aSplat = vector::BroadcastOp::create(nb, nl, vecB, a);
            for (int64_t j = 0; j < layout.colGroups(); ++j)
              next.push_back(vector::FMAOp::create(
                  nb, nl, aSplat, fragB[j], accs[r * layout.colGroups() + j]));
          }
        } else {
          next.assign(accs.begin(), accs.end());
          emitPairedFMAs(nb, nl, layout, fragA, fragB, next);
        }
        scf::YieldOp::create(nb, nl, next);
      });
  b.setInsertionPointToEnd(newBody);
  scf::YieldOp::create(b, loc, stepLoop.getResults());
  ifCompute.erase();
  loop.erase();

  // Store the accumulators where they lie inside C (under split-K: add them,
  // element by element, atomically).
  // Without split-K, the positions and guards are computed anew from the
  // lane's origin in C (passed through opaqueIndex): kept from before the
  // loop, the ones the C loads used would stay live through it, registers
  // that the edge kernels of C += A*B could not spare (4095x4097x4093,
  // 64x128x16: 168 -> 160 registers, 0.87x -> 0.98x cuBLAS). An element is
  // stored where it lies inside C (the warp tile is C's edge-clipped part).
  // Split-K's atomic adds keep the positions from before the loop: computed
  // anew they ran 3-17% slower (bench/results/2026-11-30-h200-epilogue.md).
  b.setInsertionPointAfter(newLoop);
  Value destination = ifAccumulate ? accumulateInto : warpCValue;
  Value root, rows, cols, originRow, originCol;
  if (!ifAccumulate) {
    SmallVector<Value> origin = {layout.laneRow, layout.laneCol};
    root = resolveToRoot(b, loc, destination, origin);
    auto rootType = cast<MemRefType>(root.getType());
    auto extent = [&](int64_t dim) -> Value {
      if (rootType.isDynamicDim(dim))
        return memref::DimOp::create(b, loc, root, dim);
      return c(rootType.getDimSize(dim));
    };
    rows = extent(0);
    cols = extent(1);
    originRow = opaqueIndex(b, loc, origin[0]);
    originCol = opaqueIndex(b, loc, origin[1]);
  }
  auto inside = [&](Value guard, Value index, Value bound) -> Value {
    if (!guard)
      return Value();
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                 bound);
  };
  for (int64_t r = 0; r < layout.threadM; ++r)
    for (int64_t j = 0; j < layout.colGroups(); ++j) {
      Value acc = newLoop.getResult(r * layout.colGroups() + j);
      Value row = ifAccumulate
                      ? rowIndex[r]
                      : arith::AddIOp::create(b, loc, originRow,
                                              c(layout.rowOffset(r)))
                            .getResult();
      for (int64_t p = 0; p < layout.widthB / layout.widthC; ++p) {
        Value piece =
            layout.widthC == layout.widthB
                ? acc
                : extractPiece(b, loc, acc, p * layout.widthC, layout.widthC);
        Value col, valid;
        if (ifAccumulate) {
          col = p == 0 ? colIndex[j]
                       : arith::AddIOp::create(b, loc, colIndex[j],
                                               c(p * layout.widthC))
                             .getResult();
          valid = andConditions(b, loc, rowValid[r], colValid[j][p]);
        } else {
          col = arith::AddIOp::create(
              b, loc, originCol, c(layout.colOffset(j) + p * layout.widthC));
          Value rowInside = inside(rowValid[r], row, rows);
          Value colInside = inside(colValid[j][p], col, cols);
          valid = andConditions(b, loc, rowInside, colInside);
        }
        OpBuilder::InsertionGuard guard(b);
        if (valid) {
          auto ifValid = scf::IfOp::create(b, loc, valid, false);
          b.setInsertionPointToStart(ifValid.thenBlock());
        }
        SmallVector<Value> indices = {row, col};
        Value target =
            ifAccumulate ? resolveToRoot(b, loc, destination, indices) : root;
        // A fused epilogue (Epilogue.h): applied to each element under the
        // store's guard, at C's global (row, col).
        if (!ifAccumulate && hasEpilogue(kernel))
          for (int64_t e = 0; e < layout.widthC; ++e) {
            Value element = vector::ExtractOp::create(b, loc, piece, e);
            Value at = e == 0 ? col
                              : arith::AddIOp::create(b, loc, col, c(e))
                                    .getResult();
            element = emitEpilogueValue(b, loc, kernel, element, row, at);
            piece = vector::InsertOp::create(b, loc, element, piece, e);
          }
        if (!ifAccumulate && vectorC) {
          target = resolveToRoot(b, loc, target, indices,
                                 /*throughRankReducing=*/true);
          vector::StoreOp::create(b, loc, piece, target, indices,
                                  /*nontemporal=*/false,
                                  llvm::MaybeAlign(layout.widthC * 4));
          continue;
        }
        for (int64_t e = 0; e < layout.widthC; ++e) {
          Value element = vector::ExtractOp::create(b, loc, piece, e);
          SmallVector<Value> at = offsetColumn(b, loc, indices, e);
          if (ifAccumulate)
            memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addf,
                                        element, target, at);
          else
            memref::StoreOp::create(b, loc, element, target, at);
        }
      }
    }
  // Vector accesses to C need their width's alignment; element accesses
  // (and split-K's atomics) need the element's.
  int64_t cAlignment = vectorC && !ifAccumulate ? layout.widthC * 4 : 4;
  kernel->setAttr(kCAlignmentAttrName, b.getI64IntegerAttr(cAlignment));
  if (ifFill)
    ifFill.erase();
  if (ifAccumulate)
    ifAccumulate.erase();
  eraseDeadOps(kernel.getBody());
  // The accumulators went through the fused epilogue on their way to C.
  eraseEpilogueLoop(kernel);
  setStage(kernel, KernelStage::Thread);
  return success();
}

void TileThreadTilePass::runOnOperation() {
  if (fmaOrder != "pairs" && fmaOrder != "rows") {
    getOperation()->emitError()
        << "tile-thread-tile: option 'fma-order' must be pairs or rows, got '"
        << fmaOrder << "'";
    return signalPassFailure();
  }
  FailureOr<SmallVector<gpu::GPUFuncOp>> kernels = getKernelsAtStage(
      getOperation(), KernelStage::Warp, "tile-thread-tile", Strategy::Fma);
  if (failed(kernels))
    return signalPassFailure();
  for (gpu::GPUFuncOp kernel : *kernels)
    if (failed(tileThreads(kernel)))
      return signalPassFailure();
}

} // namespace
