//===- Epilogue.cpp - C in and out of a thread's accumulators -------------===//

#include "tile/Transforms/Epilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// `index < bound`, or null (true) when `maxIndex` (the largest value the
/// index can take) is below a constant bound.
Value lessThan(OpBuilder &b, Location loc, Value index, int64_t maxIndex,
               OpFoldResult bound) {
  if (std::optional<int64_t> constant = getConstantIntValue(bound))
    if (maxIndex < *constant)
      return nullptr;
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                               getValueOrCreateConstantIndexOp(b, loc, bound));
}

Value andAll(OpBuilder &b, Location loc, ArrayRef<Value> conditions) {
  Value result;
  for (Value condition : conditions) {
    if (!condition)
      continue;
    result = result ? arith::AndIOp::create(b, loc, result, condition)
                          .getResult()
                    : condition;
  }
  return result;
}

/// Runs `body` under `condition` (directly when it is null); `body`
/// returns the values the scf.if yields, `otherwise` those of its else.
SmallVector<Value>
guarded(OpBuilder &b, Location loc, Value condition, TypeRange types,
        function_ref<SmallVector<Value>(OpBuilder &, Location)> body,
        function_ref<SmallVector<Value>(OpBuilder &, Location)> otherwise) {
  if (!condition)
    return body(b, loc);
  if (types.empty()) {
    auto ifOp = scf::IfOp::create(b, loc, condition, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body(b, loc);
    return {};
  }
  auto ifOp = scf::IfOp::create(
      b, loc, condition,
      [&](OpBuilder &nb, Location nl) {
        scf::YieldOp::create(nb, nl, body(nb, nl));
      },
      [&](OpBuilder &nb, Location nl) {
        scf::YieldOp::create(nb, nl, otherwise(nb, nl));
      });
  return SmallVector<Value>(ifOp.getResults().begin(), ifOp.getResults().end());
}

/// Positions and guards of one fragment.
struct Place {
  Value row, col;
  Value rowValid;
  SmallVector<Value> colValid; // per element (one for vector access)
};

Place locate(OpBuilder &b, Location loc, const AccumulatorLayout &layout,
             const AccumulatorFragment &fragment, OpFoldResult rows,
             OpFoldResult cols) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Place place;
  place.row = fragment.row == 0
                  ? layout.originRow
                  : arith::AddIOp::create(b, loc, layout.originRow,
                                          c(fragment.row))
                        .getResult();
  place.col = fragment.col == 0
                  ? layout.originCol
                  : arith::AddIOp::create(b, loc, layout.originCol,
                                          c(fragment.col))
                        .getResult();
  place.rowValid = lessThan(b, loc, place.row,
                            layout.maxOriginRow + fragment.row, rows);
  int64_t pieces = layout.vectorAccess ? 1 : layout.width;
  for (int64_t e = 0; e < pieces; ++e) {
    Value col = e == 0 ? place.col
                       : arith::AddIOp::create(b, loc, place.col, c(e))
                             .getResult();
    place.colValid.push_back(
        lessThan(b, loc, col, layout.maxOriginCol + fragment.col + e, cols));
  }
  return place;
}

/// The memref C's accesses go to, with `indices` made relative to it.
Value root(OpBuilder &b, Location loc, Value cView,
           SmallVectorImpl<Value> &indices) {
  return resolveToRoot(b, loc, cView, indices);
}

} // namespace

SmallVector<Value> mlir::tile::emitAccumulatorInit(
    OpBuilder &b, Location loc, const AccumulatorLayout &layout, Value cView,
    OpFoldResult rows, OpFoldResult cols, Value fill, Value enabled) {
  Type f32 = b.getF32Type();
  auto vecType = VectorType::get({layout.width}, f32);
  SmallVector<Value> init;
  if (fill) {
    // The fill value has C's type; the accumulators are f32.
    if (fill.getType() != f32)
      fill = arith::ExtFOp::create(b, loc, f32, fill);
    Value splat = vector::BroadcastOp::create(b, loc, vecType, fill);
    init.assign(layout.fragments.size(), splat);
    return init;
  }
  Type cType = cast<MemRefType>(cView.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  Value zeroVector =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(vecType));
  auto widen = [&](OpBuilder &nb, Location nl, Value value) -> Value {
    if (getElementTypeOrSelf(value.getType()) == f32)
      return value;
    Type to = isa<VectorType>(value.getType())
                  ? Type(VectorType::get({layout.width}, f32))
                  : f32;
    return arith::ExtFOp::create(nb, nl, to, value);
  };
  for (const AccumulatorFragment &fragment : layout.fragments) {
    Place place = locate(b, loc, layout, fragment, rows, cols);
    if (layout.vectorAccess) {
      Value valid = andAll(b, loc, {enabled, place.rowValid, place.colValid[0]});
      init.push_back(guarded(
          b, loc, valid, vecType,
          [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
            SmallVector<Value> indices = {place.row, place.col};
            Value memref = root(nb, nl, cView, indices);
            Value loaded = vector::LoadOp::create(
                nb, nl, VectorType::get({layout.width}, cType), memref,
                indices, /*nontemporal=*/false,
                llvm::MaybeAlign(layout.width *
                                 cType.getIntOrFloatBitWidth() / 8));
            return {widen(nb, nl, loaded)};
          },
          [&](OpBuilder &, Location) -> SmallVector<Value> {
            return {zeroVector};
          })[0]);
      continue;
    }
    SmallVector<Value> elements;
    for (int64_t e = 0; e < layout.width; ++e) {
      Value valid =
          andAll(b, loc, {enabled, place.rowValid, place.colValid[e]});
      elements.push_back(guarded(
          b, loc, valid, f32,
          [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
            SmallVector<Value> indices = {place.row, place.col};
            if (e > 0)
              indices[1] = arith::AddIOp::create(nb, nl, indices[1],
                                                 constIndex(nb, nl, e));
            Value memref = root(nb, nl, cView, indices);
            return {widen(nb, nl,
                          memref::LoadOp::create(nb, nl, memref, indices))};
          },
          [&](OpBuilder &, Location) -> SmallVector<Value> {
            return {zero};
          })[0]);
    }
    init.push_back(vector::FromElementsOp::create(b, loc, vecType, elements));
  }
  return init;
}

Value mlir::tile::opaqueIndex(OpBuilder &b, Location loc, Value value) {
  Type i32 = b.getI32Type();
  Value narrow = arith::IndexCastUIOp::create(b, loc, i32, value);
  auto copy = LLVM::InlineAsmOp::create(
      b, loc, TypeRange{i32}, ValueRange{narrow}, "mov.b32 $0, $1;", "=r,r",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                      copy.getResult(0));
}

void mlir::tile::emitAccumulatorStore(OpBuilder &b, Location loc,
                                      const AccumulatorLayout &givenLayout,
                                      ValueRange values, Value cView,
                                      OpFoldResult rows, OpFoldResult cols,
                                      Value enabled) {
  AccumulatorLayout layout = givenLayout;
  if (layout.recomputeStorePositions) {
    layout.originRow = opaqueIndex(b, loc, layout.originRow);
    layout.originCol = opaqueIndex(b, loc, layout.originCol);
  }
  Type cType = cast<MemRefType>(cView.getType()).getElementType();
  for (auto [fragment, value] : llvm::zip(layout.fragments, values)) {
    Place place = locate(b, loc, layout, fragment, rows, cols);
    // f32 accumulators to C's type.
    Value converted = value;
    if (!cType.isF32())
      converted = arith::TruncFOp::create(
          b, loc, VectorType::get({layout.width}, cType), value);
    if (layout.vectorAccess) {
      Value valid = andAll(b, loc, {enabled, place.rowValid, place.colValid[0]});
      guarded(
          b, loc, valid, {},
          [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
            SmallVector<Value> indices = {place.row, place.col};
            Value memref = root(nb, nl, cView, indices);
            vector::StoreOp::create(
                nb, nl, converted, memref, indices, /*nontemporal=*/false,
                llvm::MaybeAlign(layout.width *
                                 cType.getIntOrFloatBitWidth() / 8));
            return {};
          },
          {});
      continue;
    }
    for (int64_t e = 0; e < layout.width; ++e) {
      Value valid =
          andAll(b, loc, {enabled, place.rowValid, place.colValid[e]});
      guarded(
          b, loc, valid, {},
          [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
            SmallVector<Value> indices = {place.row, place.col};
            if (e > 0)
              indices[1] = arith::AddIOp::create(nb, nl, indices[1],
                                                 constIndex(nb, nl, e));
            Value memref = root(nb, nl, cView, indices);
            Value element = vector::ExtractOp::create(nb, nl, converted, e);
            memref::StoreOp::create(nb, nl, element, memref, indices);
            return {};
          },
          {});
    }
  }
}
