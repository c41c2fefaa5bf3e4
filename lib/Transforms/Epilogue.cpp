//===- Epilogue.cpp - C in and out of a thread's accumulators -------------===//

#include "tile/Transforms/Epilogue.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/runtime/Manifest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstdio>

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

/// The memref C's accesses go to, with `indices` made relative to it: a
/// batched kernel's C itself, the block's matrix index first (a
/// rank-reducing subview left in place would be folded into the accesses
/// by fold-memref-alias-ops, which drops their alignment: the pairs of C
/// went out as single elements, 2.1x slower at 64 x 512x512x64 bf16).
/// C's row and column are the last two indices.
Value root(OpBuilder &b, Location loc, Value cView,
           SmallVectorImpl<Value> &indices) {
  return resolveToRoot(b, loc, cView, indices, /*throughRankReducing=*/true);
}

/// The kernel `b` builds into (none before the op is placed in one).
gpu::GPUFuncOp enclosingKernel(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  auto kernel = block ? dyn_cast<gpu::GPUFuncOp>(block->getParentOp())
                      : gpu::GPUFuncOp();
  if (!kernel && block)
    kernel = block->getParentOp()->getParentOfType<gpu::GPUFuncOp>();
  return kernel;
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
  // A fused epilogue is applied on the f32 values, under the store's guard
  // (its operands are read only where C is written), at C's global indices.
  gpu::GPUFuncOp kernel = enclosingKernel(b);
  bool fused = hasEpilogue(kernel);
  auto toC = [&](OpBuilder &nb, Location nl, Value v) -> Value {
    if (cType.isF32())
      return v;
    Type to = isa<VectorType>(v.getType())
                  ? Type(VectorType::get({layout.width}, cType))
                  : cType;
    return arith::TruncFOp::create(nb, nl, to, v);
  };
  for (auto [fragment, value] : llvm::zip(layout.fragments, values)) {
    Place place = locate(b, loc, layout, fragment, rows, cols);
    // f32 accumulators to C's type.
    Value converted = value;
    if (!cType.isF32() && !fused)
      converted = arith::TruncFOp::create(
          b, loc, VectorType::get({layout.width}, cType), value);
    if (layout.vectorAccess) {
      Value valid = andAll(b, loc, {enabled, place.rowValid, place.colValid[0]});
      guarded(
          b, loc, valid, {},
          [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
            SmallVector<Value> indices = {place.row, place.col};
            Value memref = root(nb, nl, cView, indices);
            // The fragment's elements added into C by one tile.atomic_addf.
            if (layout.atomicAdd) {
              AtomicAddFOp::create(nb, nl, value, memref, indices);
              return {};
            }
            if (fused) {
              Value result = value;
              Value row = indices.end()[-2], col0 = indices.back();
              for (int64_t e = 0; e < layout.width; ++e) {
                Value col = e == 0 ? col0
                                   : arith::AddIOp::create(
                                         nb, nl, col0, constIndex(nb, nl, e))
                                         .getResult();
                Value element = vector::ExtractOp::create(nb, nl, value, e);
                element = emitEpilogueValue(nb, nl, kernel, element, row, col);
                result =
                    vector::InsertOp::create(nb, nl, element, result, e);
              }
              converted = toC(nb, nl, result);
            }
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
            Value row = indices.end()[-2], col = indices.back();
            Value element;
            if (layout.atomicAdd) {
              memref::AtomicRMWOp::create(
                  nb, nl, arith::AtomicRMWKind::addf,
                  vector::ExtractOp::create(nb, nl, value, e), memref,
                  indices);
              return {};
            }
            if (fused) {
              element = vector::ExtractOp::create(nb, nl, value, e);
              element = toC(nb, nl,
                            emitEpilogueValue(nb, nl, kernel, element, row,
                                              col));
            } else {
              element = vector::ExtractOp::create(nb, nl, converted, e);
            }
            memref::StoreOp::create(nb, nl, element, memref, indices);
            return {};
          },
          {});
    }
  }
}

Value mlir::tile::emitStoredValue(OpBuilder &b, Location loc,
                                  const AccumulatorLayout &layout,
                                  const AccumulatorFragment &fragment,
                                  Value value, Value cView, OpFoldResult rows,
                                  OpFoldResult cols) {
  Type cType = cast<MemRefType>(cView.getType()).getElementType();
  gpu::GPUFuncOp kernel = enclosingKernel(b);
  auto cVector = VectorType::get({layout.width}, cType);
  auto toC = [&](OpBuilder &nb, Location nl, Value v) -> Value {
    return cType.isF32() ? v : arith::TruncFOp::create(nb, nl, cVector, v);
  };
  if (!hasEpilogue(kernel))
    return toC(b, loc, value);
  // The epilogue's operands are read only at C's elements: elsewhere the
  // value is the accumulators' (and lands outside C, where nothing is
  // written).
  Place place = locate(b, loc, layout, fragment, rows, cols);
  SmallVector<Value> elements;
  for (int64_t e = 0; e < layout.width; ++e) {
    Value colValid = place.colValid[layout.vectorAccess ? 0 : e];
    Value valid = andAll(b, loc, {place.rowValid, colValid});
    Value element = vector::ExtractOp::create(b, loc, value, e);
    elements.push_back(guarded(
        b, loc, valid, b.getF32Type(),
        [&](OpBuilder &nb, Location nl) -> SmallVector<Value> {
          SmallVector<Value> indices = {place.row, place.col};
          if (e > 0)
            indices[1] = arith::AddIOp::create(nb, nl, indices[1],
                                               constIndex(nb, nl, e));
          root(nb, nl, cView, indices);
          return {emitEpilogueValue(nb, nl, kernel, element,
                                    indices.end()[-2], indices.back())};
        },
        [&](OpBuilder &, Location) -> SmallVector<Value> {
          return {element};
        })[0]);
  }
  return toC(b, loc,
             vector::FromElementsOp::create(
                 b, loc, VectorType::get({layout.width}, b.getF32Type()),
                 elements));
}

//===----------------------------------------------------------------------===//
// Fused epilogues
//===----------------------------------------------------------------------===//

namespace rt = ::tile::runtime;

namespace {

/// The step-language name of a body op, or empty.
StringRef stepName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case<arith::AddFOp>([](auto) { return "addf"; })
      .Case<arith::SubFOp>([](auto) { return "subf"; })
      .Case<arith::MulFOp>([](auto) { return "mulf"; })
      .Case<arith::DivFOp>([](auto) { return "divf"; })
      .Case<arith::MaximumFOp>([](auto) { return "maximumf"; })
      .Case<arith::MinimumFOp>([](auto) { return "minimumf"; })
      .Case<arith::MaxNumFOp>([](auto) { return "maxnumf"; })
      .Case<arith::MinNumFOp>([](auto) { return "minnumf"; })
      .Case<arith::NegFOp>([](auto) { return "negf"; })
      .Case<math::TanhOp>([](auto) { return "tanh"; })
      .Default([](Operation *) { return StringRef(); });
}

std::string formatConstant(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", static_cast<float>(value));
  return text;
}

bool isEpilogueElementType(Type type) {
  return type.isF32() || type.isBF16() || type.isF16();
}

} // namespace

StringRef mlir::tile::stringifyEpilogueKind(EpilogueOperandKind kind) {
  switch (kind) {
  case EpilogueOperandKind::Row:
    return "row";
  case EpilogueOperandKind::Col:
    return "col";
  case EpilogueOperandKind::Full:
    return "full";
  }
  return "full";
}

/// The layout of the kernel parameter for an extra operand of memref type
/// `type` (its matrix or vector, after the batch's dimension when
/// `perBatch`): std::nullopt for a memref without a layout; a full operand's
/// offset and strides (rows contiguous); a row vector's elements as the
/// rows of its m x 1 parameter (any stride); a column vector as the one row
/// of its 1 x n parameter (elements contiguous, rows n apart). Empty, or
/// why the kernels cannot read it.
static std::string getParamLayout(MemRefType type, EpilogueOperandKind kind,
                                  bool perBatch, int64_t batch, int64_t n,
                                  std::optional<StridedLayout> &layout) {
  layout.reset();
  if (type.getLayout().isIdentity())
    return "";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return "an extra operand has a layout that is not strided";
  auto dynamic = [](int64_t value) { return ShapedType::isDynamic(value); };
  if (!dynamic(offset) && offset < 0)
    return "an extra operand has a negative offset";
  for (int64_t stride : strides)
    if (!dynamic(stride) && stride < 1)
      return "an extra operand has a stride below 1 (the kernels take "
             "strides of at least 1)";
  StridedLayout result;
  result.offset = offset;
  // (A batch of one never steps it: static, as tile-block-tile makes
  // A's, B's and C's.)
  if (perBatch)
    result.batchStride =
        batch == 1 && dynamic(strides.front()) ? 1 : strides.front();
  int64_t inner = strides.back();
  if (kind == EpilogueOperandKind::Row) {
    result.rowStride = inner;
  } else {
    if (inner != 1)
      return "an extra operand's elements along C's columns are not "
             "contiguous (its innermost stride is " +
             (dynamic(inner) ? std::string("dynamic") : std::to_string(inner)) +
             ", not 1)";
    result.rowStride =
        kind == EpilogueOperandKind::Col ? n : strides[strides.size() - 2];
  }
  layout = result;
  return "";
}

std::string mlir::tile::addEpilogueOp(linalg::LinalgOp matmul,
                                      linalg::LinalgOp user,
                                      FusedEpilogue &epilogue) {
  if (!matmul.hasPureBufferSemantics() || !user.hasPureBufferSemantics())
    return "only epilogues on memrefs are fused (bufferize first)";
  Value c = matmul.getDpsInits()[0];
  auto cType = cast<MemRefType>(c.getType());
  // A batched matmul's C is batch x m x n: its loops are (b, m, n).
  bool batched = isa<linalg::BatchMatmulOp>(matmul.getOperation());
  unsigned loops = batched ? 3 : 2;
  int64_t batch = batched ? cType.getDimSize(0) : 1;
  int64_t m = cType.getDimSize(loops - 2), n = cType.getDimSize(loops - 1);
  if (user.getNumDpsInits() == 1 && user.getDpsInits()[0] != c)
    if (auto out = dyn_cast<MemRefType>(user.getDpsInits()[0].getType());
        out && out.getShape() == cType.getShape() &&
        isa<FloatType>(out.getElementType()) &&
        out.getElementType() != cType.getElementType())
      return "it writes C's values to a buffer of another element type (a "
             "cast is fused only as the store of a matmul of inputs of that "
             "type: tile-canonicalize-contractions makes one on tensors "
             "store it where C starts at a constant the type holds exactly, "
             "nothing else uses the f32 result, the cast rounds to nearest "
             "even and no linalg op reads what it makes)";
  if (user.getNumDpsInits() != 1 || user.getDpsInits()[0] != c)
    return "it does not update the matmul's C in place (only elementwise "
           "ops whose one output is C are fused)";
  if (user.getNumLoops() != loops ||
      user.getNumParallelLoops() != user.getNumLoops())
    return batched ? "it is not elementwise over C (a reduction or another "
                     "loop structure: only ops with three parallel loops "
                     "over a batched C are fused)"
                   : "it is not elementwise over C (a reduction or another "
                     "loop structure: only ops with two parallel loops "
                     "over C are fused)";
  MLIRContext *context = user->getContext();
  // The batch loop (batched only), C's row and column loops.
  AffineExpr db = getAffineDimExpr(0, context);
  AffineExpr d0 = getAffineDimExpr(loops - 2, context),
             d1 = getAffineDimExpr(loops - 1, context);
  auto identity = AffineMap::getMultiDimIdentityMap(loops, context);
  if (user.getMatchingIndexingMap(user.getDpsInitOperand(0)) != identity)
    return "it does not write C element by element (the output's indexing "
           "map is not the identity)";
  // What each block argument of the body is: the running value of C, or
  // an extra operand.
  FusedEpilogue result = epilogue;
  std::string current =
      epilogue.steps.empty() ? "acc"
                             : "s" + std::to_string(epilogue.steps.size() - 1);
  Block *body = user.getBlock();
  if (!body)
    return "it has no body";
  DenseMap<Value, std::string> names;
  for (OpOperand &operand : user->getOpOperands()) {
    Value value = operand.get();
    Value arg = user.getMatchingBlockArgument(&operand);
    AffineMap map = user.getMatchingIndexingMap(&operand);
    if (value == c) {
      if (map != identity)
        return "it reads C other than element by element";
      names[arg] = current;
      continue;
    }
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || !type.hasStaticShape() ||
        !isEpilogueElementType(type.getElementType()))
      return "an extra operand is not a memref of static shape of f32, "
             "bf16 or f16";
    // (Distinct function arguments are taken not to alias.)
    if (getViewRoot(value) == getViewRoot(c))
      return "an extra operand is a view of C's buffer, which the kernel "
             "writes while it reads the operand";
    // The operand's shape and map, and under a batched matmul whether it
    // has one matrix (vector) per batch, its first dimension the batch's.
    ArrayRef<int64_t> shape = type.getShape();
    ArrayRef<AffineExpr> results = map.getResults();
    bool perBatch = batched && !results.empty() && results[0] == db &&
                    shape[0] == batch;
    if (perBatch) {
      shape = shape.drop_front();
      results = results.drop_front();
    }
    auto is = [&](ArrayRef<AffineExpr> exprs, ArrayRef<int64_t> sizes) {
      return map.isProjectedPermutation() && results == exprs &&
             shape == sizes;
    };
    EpilogueOperandKind kind;
    if (is({d1}, {n}))
      kind = EpilogueOperandKind::Col;
    else if (is({d0}, {m}))
      kind = EpilogueOperandKind::Row;
    else if (is({d0, d1}, {m, n}))
      kind = EpilogueOperandKind::Full;
    else if (batched)
      return "an extra operand is neither a vector along C's rows or "
             "columns (a 1-d memref indexed by one of the loops, or one "
             "such vector per batch: batch x m or batch x n, indexed (b, m) "
             "or (b, n)) nor an operand of one matrix's shape (m x n, "
             "indexed (m, n)) or of C's (batch x m x n) read element by "
             "element";
    else
      return "an extra operand is neither a vector along C's rows or "
             "columns (a 1-d memref indexed by one of the loops) nor an "
             "operand of C's shape read element by element";
    std::optional<StridedLayout> layout;
    if (std::string why = getParamLayout(type, kind, perBatch, batch, n, layout);
        !why.empty())
      return why;
    // The kernel's launch sits where the matmul was: the operand must exist
    // there.
    if (Operation *def = value.getDefiningOp())
      if (def->getBlock() == matmul->getBlock() &&
          !def->isBeforeInBlock(matmul))
        return "an extra operand is made after the matmul";
    names[arg] = "p" + std::to_string(result.operands.size());
    result.operands.push_back(value);
    result.kinds.push_back(kind);
    result.perBatch.push_back(perBatch);
    result.layouts.push_back(layout);
  }
  auto argName = [&](Value value, std::string &name) -> std::string {
    if (auto it = names.find(value); it != names.end()) {
      name = it->second;
      return "";
    }
    if (auto constant = value.getDefiningOp<arith::ConstantFloatOp>()) {
      // (The steps, the manifest and the runtime's reference take finite
      // numbers: an infinity or a NaN would be written as a word.)
      double number = constant.value().convertToDouble();
      name = formatConstant(number);
      if (!std::isfinite(static_cast<float>(number)))
        return "its body uses the constant " + name +
               ", which is not finite (a fused epilogue takes finite "
               "constants only)";
      return "";
    }
    return "its body uses a value that is not an argument, a float "
           "constant or an earlier op of the body";
  };
  Value yieldedValue = body->getTerminator()->getOperand(0);
  for (Operation &op : body->without_terminator()) {
    if (isa<arith::ConstantFloatOp>(op))
      continue;
    // The program computes in f32: widening an operand or a value to f32
    // changes nothing, and neither does rounding the value stored to C's
    // type (the store does). A rounding anywhere else would be lost.
    if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      bool widens = isa<arith::ExtFOp>(op) && op.getResult(0).getType().isF32();
      auto truncf = dyn_cast<arith::TruncFOp>(op);
      if (truncf && truncf.getRoundingmodeAttr())
        return "its body rounds a value with a rounding mode of its own "
               "(arith.truncf " +
               arith::stringifyRoundingMode(*truncf.getRoundingmode()).str() +
               "); the fused epilogue rounds what it stores to nearest even";
      bool roundsStored = truncf && op.getResult(0) == yieldedValue &&
                          op.getResult(0).getType() == cType.getElementType();
      if (!widens && !roundsStored)
        return isa<arith::ExtFOp>(op)
                   ? "its body widens a value to a type other than f32 "
                     "(the fused epilogue computes in f32)"
                   : "its body rounds a value (arith.truncf) other than the "
                     "one it stores to C's type; the fused epilogue computes "
                     "in f32 and rounds only what it stores";
      std::string name;
      if (std::string why = argName(op.getOperand(0), name); !why.empty())
        return why;
      // (A name alone: an operand, a step, acc or a constant.)
      if (auto it = names.find(op.getOperand(0)); it != names.end())
        names[op.getResult(0)] = it->second;
      else
        return "its body widens or rounds a constant, which a fused "
               "epilogue does not (write the constant in f32)";
      continue;
    }
    StringRef name = stepName(&op);
    if (name.empty())
      return ("its body has '" + op.getName().getStringRef() +
              "', which a fused epilogue does not compute (addf, subf, "
              "mulf, divf, maximumf, minimumf, maxnumf, minnumf, negf, "
              "tanh; arith.extf to f32, and arith.truncf of the value "
              "stored)")
          .str();
    std::string text = name.str();
    for (Value operand : op.getOperands()) {
      std::string arg;
      if (std::string why = argName(operand, arg); !why.empty())
        return why;
      text += " " + arg;
    }
    names[op.getResult(0)] = "s" + std::to_string(result.steps.size());
    result.steps.push_back(text);
  }
  std::string yielded;
  if (std::string why =
          argName(body->getTerminator()->getOperand(0), yielded);
      !why.empty())
    return why;
  // The value stored is the last step's: a yield of something else becomes
  // one more step (x + 0 would change -0; max(x, x) is x).
  if (yielded != "s" + std::to_string(result.steps.size() - 1) ||
      result.steps.empty())
    result.steps.push_back("maximumf " + yielded + " " + yielded);
  result.ops.push_back(user);
  epilogue = std::move(result);
  return "";
}

FailureOr<FusedEpilogue>
mlir::tile::collectFusedEpilogue(linalg::LinalgOp matmul) {
  FusedEpilogue epilogue;
  for (Operation *op = matmul->getNextNode(); op; op = op->getNextNode()) {
    if (!op->hasAttr(kFusedEpilogueAttrName)) {
      if (isMemoryEffectFree(op))
        continue;
      break;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    std::string why =
        linalgOp ? addEpilogueOp(matmul, linalgOp, epilogue) : "not linalg";
    if (!why.empty())
      return op->emitOpError() << "is marked " << kFusedEpilogueAttrName
                               << " but cannot be fused: " << why;
  }
  return epilogue;
}

DictionaryAttr
mlir::tile::buildEpilogueAttr(MLIRContext *context,
                              ArrayRef<EpilogueOperandKind> kinds,
                              ArrayRef<std::string> steps) {
  Builder b(context);
  SmallVector<Attribute> operandNames, stepTexts;
  for (EpilogueOperandKind kind : kinds)
    operandNames.push_back(
        b.getStringAttr(stringifyEpilogueKind(kind)));
  for (const std::string &step : steps)
    stepTexts.push_back(b.getStringAttr(step));
  return b.getDictionaryAttr(
      {b.getNamedAttr("operands", b.getArrayAttr(operandNames)),
       b.getNamedAttr("steps", b.getArrayAttr(stepTexts))});
}

bool mlir::tile::readEpilogueAttr(Attribute attr,
                                  SmallVectorImpl<EpilogueOperandKind> &kinds,
                                  std::vector<std::string> &steps,
                                  std::string &error) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  auto operands = dict ? dict.getAs<ArrayAttr>("operands") : ArrayAttr();
  auto stepTexts = dict ? dict.getAs<ArrayAttr>("steps") : ArrayAttr();
  auto types = dict ? dict.getAs<ArrayAttr>("types") : ArrayAttr();
  auto perBatch = dict ? dict.getAs<ArrayAttr>("per_batch") : ArrayAttr();
  auto layouts = dict ? dict.getAs<ArrayAttr>("layouts") : ArrayAttr();
  // A layouts entry: empty, or offset and row stride (and a per-batch
  // operand's batch stride), each -1 (dynamic) or at least 0 / 1.
  auto layoutOk = [&](auto pair) {
    auto [j, entry] = pair;
    auto array = dyn_cast<DenseI64ArrayAttr>(entry);
    if (!array)
      return false;
    if (array.empty())
      return true;
    bool each = perBatch && j < perBatch.size() &&
                cast<BoolAttr>(perBatch[j]).getValue();
    if (array.size() != (each ? 3 : 2))
      return false;
    for (auto [i, value] : llvm::enumerate(array.asArrayRef()))
      if (value != -1 && value < (i == 0 ? 0 : 1))
        return false;
    return true;
  };
  if (!operands || !stepTexts ||
      dict.size() != 2u + (types ? 1 : 0) + (perBatch ? 1 : 0) +
                         (layouts ? 1 : 0) ||
      (types && types.size() != operands.size()) ||
      (types && !llvm::all_of(types, [](Attribute type) {
         return isa<TypeAttr>(type);
       })) ||
      (perBatch && (!types || perBatch.size() != operands.size() ||
                    !llvm::all_of(perBatch, [](Attribute flag) {
                      return isa<BoolAttr>(flag);
                    }))) ||
      (layouts && (!types || layouts.size() != operands.size() ||
                   !llvm::all_of(llvm::enumerate(layouts), layoutOk)))) {
    error = "is not a dictionary {operands = [...], steps = [...]} (and, on "
            "a kernel, types = [one per operand], on a batched one "
            "per_batch = [one bool per operand], and where an operand is "
            "strided layouts = [one array<i64: offset, row_stride> per "
            "operand (with batch_stride where per_batch), empty for none, "
            "-1 for a dynamic field])";
    return false;
  }
  kinds.clear();
  steps.clear();
  for (Attribute operand : operands) {
    auto text = dyn_cast<StringAttr>(operand);
    std::optional<EpilogueOperandKind> kind;
    for (EpilogueOperandKind candidate :
         {EpilogueOperandKind::Row, EpilogueOperandKind::Col,
          EpilogueOperandKind::Full})
      if (text && text.getValue() == stringifyEpilogueKind(candidate))
        kind = candidate;
    if (!kind) {
      error = "has an operand that is not \"row\", \"col\" or \"full\"";
      return false;
    }
    kinds.push_back(*kind);
  }
  for (Attribute step : stepTexts) {
    auto text = dyn_cast<StringAttr>(step);
    if (!text) {
      error = "has a step that is not a string";
      return false;
    }
    steps.push_back(text.getValue().str());
  }
  std::vector<rt::EpilogueStep> parsed;
  return rt::parseEpilogueSteps(steps, kinds.size(), parsed, error);
}

bool mlir::tile::isPerBatchEpilogueOperand(Attribute attr, unsigned j) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  auto flags = dict ? dict.getAs<ArrayAttr>("per_batch") : ArrayAttr();
  auto flag =
      flags && j < flags.size() ? dyn_cast<BoolAttr>(flags[j]) : BoolAttr();
  return flag && flag.getValue();
}

std::optional<StridedLayout>
mlir::tile::getEpilogueOperandLayout(Attribute attr, unsigned j) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  auto layouts = dict ? dict.getAs<ArrayAttr>("layouts") : ArrayAttr();
  auto array = layouts && j < layouts.size()
                   ? dyn_cast<DenseI64ArrayAttr>(layouts[j])
                   : DenseI64ArrayAttr();
  if (!array || array.size() < 2)
    return std::nullopt;
  auto field = [&](int64_t i) {
    return array[i] == -1 ? ShapedType::kDynamic : array[i];
  };
  StridedLayout layout;
  layout.offset = field(0);
  layout.rowStride = field(1);
  if (array.size() == 3)
    layout.batchStride = field(2);
  return layout;
}

DenseI64ArrayAttr mlir::tile::buildEpilogueLayoutAttr(
    MLIRContext *context, const std::optional<StridedLayout> &layout,
    bool perBatch) {
  SmallVector<int64_t> fields;
  if (layout) {
    auto field = [](int64_t value) {
      return ShapedType::isDynamic(value) ? -1 : value;
    };
    fields = {field(layout->offset), field(layout->rowStride)};
    if (perBatch)
      fields.push_back(field(layout->batchStride));
  }
  return DenseI64ArrayAttr::get(context, fields);
}

bool mlir::tile::hasEpilogue(gpu::GPUFuncOp kernel) {
  return kernel && kernel->hasAttr(kEpilogueAttrName);
}

Value mlir::tile::emitEpilogueValue(OpBuilder &b, Location loc,
                                    gpu::GPUFuncOp kernel, Value acc,
                                    Value row, Value col) {
  if (!hasEpilogue(kernel))
    return acc;
  SmallVector<EpilogueOperandKind> kinds;
  std::vector<std::string> texts;
  std::string error;
  std::vector<rt::EpilogueStep> steps;
  // Verified where the attribute was made and by the kernel's readers.
  if (!readEpilogueAttr(kernel->getAttr(kEpilogueAttrName), kinds, texts,
                        error) ||
      !rt::parseEpilogueSteps(texts, kinds.size(), steps, error))
    return acc;
  Type f32 = b.getF32Type();
  Value zero = constIndex(b, loc, 0);
  Value batchId;
  SmallVector<Value> operands(kinds.size());
  auto operand = [&](int64_t j) -> Value {
    if (operands[j])
      return operands[j];
    Value memref = kernel.getArgument(3 + j);
    SmallVector<Value> indices;
    // A per-batch operand (batch first): the block's matrix, which the
    // grid's y dimension walks.
    if (isPerBatchEpilogueOperand(kernel->getAttr(kEpilogueAttrName), j)) {
      if (!batchId)
        batchId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
      indices.push_back(batchId);
    }
    switch (kinds[j]) {
    case EpilogueOperandKind::Row:
      indices.append({row, zero});
      break;
    case EpilogueOperandKind::Col:
      indices.append({zero, col});
      break;
    case EpilogueOperandKind::Full:
      indices.append({row, col});
      break;
    }
    Value value = memref::LoadOp::create(b, loc, memref, indices);
    if (value.getType() != f32)
      value = arith::ExtFOp::create(b, loc, f32, value);
    return operands[j] = value;
  };
  SmallVector<Value> values;
  for (const rt::EpilogueStep &step : steps) {
    SmallVector<Value> args;
    for (const rt::EpilogueArg &arg : step.args) {
      switch (arg.kind) {
      case rt::EpilogueArg::Acc:
        args.push_back(acc);
        break;
      case rt::EpilogueArg::Operand:
        args.push_back(operand(arg.index));
        break;
      case rt::EpilogueArg::Step:
        args.push_back(values[arg.index]);
        break;
      case rt::EpilogueArg::Constant:
        args.push_back(arith::ConstantOp::create(
            b, loc, b.getF32FloatAttr(static_cast<float>(arg.constant))));
        break;
      }
    }
    const std::string &op = step.op;
    Value out;
    if (op == "negf")
      out = arith::NegFOp::create(b, loc, args[0]);
    else if (op == "addf")
      out = arith::AddFOp::create(b, loc, args[0], args[1]);
    else if (op == "subf")
      out = arith::SubFOp::create(b, loc, args[0], args[1]);
    else if (op == "mulf")
      out = arith::MulFOp::create(b, loc, args[0], args[1]);
    else if (op == "divf")
      out = arith::DivFOp::create(b, loc, args[0], args[1]);
    else if (op == "maximumf")
      out = args[0] == args[1]
                ? args[0]
                : arith::MaximumFOp::create(b, loc, args[0], args[1])
                      .getResult();
    else if (op == "minimumf")
      out = arith::MinimumFOp::create(b, loc, args[0], args[1]);
    else if (op == "maxnumf")
      out = arith::MaxNumFOp::create(b, loc, args[0], args[1]);
    else if (op == "minnumf")
      out = arith::MinNumFOp::create(b, loc, args[0], args[1]);
    else if (op == "tanh")
      out = math::TanhOp::create(b, loc, args[0]);
    else
      llvm_unreachable("epilogue steps are checked when they are read");
    values.push_back(out);
  }
  return values.empty() ? acc : values.back();
}

void mlir::tile::eraseEpilogueLoop(gpu::GPUFuncOp kernel) {
  SmallVector<Operation *> marked;
  for (Operation &op : kernel.getBody().front())
    if (op.hasAttr(kEpilogueLoopAttrName))
      marked.push_back(&op);
  for (Operation *op : llvm::reverse(marked))
    op->erase();
}

SmallVector<Type>
mlir::tile::getEpilogueParamTypes(const FusedEpilogue &epilogue,
                                  int64_t batch, int64_t m, int64_t n) {
  SmallVector<Type> types;
  for (auto [value, kind, perBatch, layout] :
       llvm::zip(epilogue.operands, epilogue.kinds, epilogue.perBatch,
                 epilogue.layouts)) {
    Type element = cast<MemRefType>(value.getType()).getElementType();
    SmallVector<int64_t> shape = {m, n};
    if (kind == EpilogueOperandKind::Row)
      shape = {m, 1};
    else if (kind == EpilogueOperandKind::Col)
      shape = {1, n};
    if (perBatch)
      shape.insert(shape.begin(), batch);
    types.push_back(getOperandType(shape, element, layout));
  }
  return types;
}

SmallVector<Value>
mlir::tile::createEpilogueLaunchArgs(OpBuilder &b, Location loc,
                                     const FusedEpilogue &epilogue) {
  SmallVector<Value> args;
  for (auto [value, kind, perBatch, layout] :
       llvm::zip(epilogue.operands, epilogue.kinds, epilogue.perBatch,
                 epilogue.layouts)) {
    auto type = cast<MemRefType>(value.getType());
    // The parameter's shape: a vector's own dimension gets a unit one
    // beside it.
    SmallVector<int64_t> paramShape(type.getShape());
    if (kind == EpilogueOperandKind::Row)
      paramShape.push_back(1);
    else if (kind == EpilogueOperandKind::Col)
      paramShape.insert(paramShape.end() - 1, 1);
    MemRefType paramType =
        getOperandType(paramShape, type.getElementType(), layout);
    if (layout && kind != EpilogueOperandKind::Full) {
      // A strided vector: a view of its buffer with the parameter's sizes,
      // its own offset and element stride (a row vector's rows, a column
      // vector's columns), and the batch stride of a per-batch one: read
      // from the operand's type (its metadata where dynamic), not from
      // `layout`, so that gpu.launch_func's verifier holds the two to the
      // same layout.
      SmallVector<int64_t> ownStrides;
      int64_t ownOffset;
      (void)type.getStridesAndOffset(ownStrides, ownOffset);
      // The view's fields: its batch stride (a batch of one never steps
      // it: static 1, as getParamLayout makes it), its row stride (a
      // column vector is one row: its length, never stepped) and its
      // innermost (a row vector's unit dimension: 1; a column vector's
      // elements: its own, which tile-fuse-epilogues found 1).
      int64_t batchStride = perBatch ? ownStrides.front() : 0;
      if (perBatch && type.getDimSize(0) == 1 &&
          ShapedType::isDynamic(batchStride))
        batchStride = 1;
      int64_t rowStride = kind == EpilogueOperandKind::Row
                              ? ownStrides.back()
                              : paramShape.back();
      int64_t inner =
          kind == EpilogueOperandKind::Row ? 1 : ownStrides.back();
      memref::ExtractStridedMetadataOp metadata;
      if (llvm::any_of(ArrayRef<int64_t>{ownOffset, batchStride, rowStride},
                       ShapedType::isDynamic))
        metadata = memref::ExtractStridedMetadataOp::create(b, loc, value);
      // (Field `index` of the metadata: 0 the offset, then the strides.)
      auto field = [&](int64_t stat, unsigned index) -> OpFoldResult {
        if (!ShapedType::isDynamic(stat))
          return b.getIndexAttr(stat);
        if (index == 0)
          return metadata.getOffset();
        return metadata.getStrides()[index - 1];
      };
      SmallVector<OpFoldResult> sizes, strides;
      SmallVector<int64_t> staticStrides;
      for (int64_t extent : paramShape)
        sizes.push_back(b.getIndexAttr(extent));
      unsigned rank = type.getRank();
      if (perBatch) {
        strides.push_back(field(batchStride, 1));
        staticStrides.push_back(batchStride);
      }
      strides.push_back(field(rowStride, rank));
      staticStrides.push_back(rowStride);
      strides.push_back(b.getIndexAttr(inner));
      staticStrides.push_back(inner);
      auto viewType = MemRefType::get(
          paramShape, type.getElementType(),
          StridedLayoutAttr::get(b.getContext(), ownOffset, staticStrides));
      args.push_back(memref::ReinterpretCastOp::create(
          b, loc, viewType, value, field(ownOffset, 0), sizes, strides));
      continue;
    }
    if (kind == EpilogueOperandKind::Full) {
      // (A layout spelled other than strided<...> is cast to it.)
      args.push_back(value.getType() == paramType
                         ? value
                         : memref::CastOp::create(b, loc, paramType, value)
                               .getResult());
      continue;
    }
    // A dense vector: expanded to the parameter's shape (its dimension and
    // the unit one beside it one group, after the batch's).
    int64_t last = type.getRank() - 1;
    SmallVector<ReassociationIndices> groups;
    if (perBatch)
      groups.push_back({0});
    groups.push_back({last, last + 1});
    args.push_back(
        memref::ExpandShapeOp::create(b, loc, paramType, value, groups));
  }
  return args;
}

void mlir::tile::emitEpilogueLoop(OpBuilder &b, Location loc,
                                  gpu::GPUFuncOp kernel, Value threadId,
                                  Value blockC, Value row0, Value col0,
                                  OpFoldResult rows, OpFoldResult cols) {
  UnitAttr mark = b.getUnitAttr();
  gpu::BarrierOp::create(b, loc)->setAttr(kEpilogueLoopAttrName, mark);
  // Its own condition (`< 1`, not the matmul's `== 0`): the later passes
  // find the matmul's parts by their condition.
  auto isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         threadId, constIndex(b, loc, 1));
  isThread0->setAttr(kEpilogueLoopAttrName, mark);
  auto ifOp = scf::IfOp::create(b, loc, isThread0, false);
  ifOp->setAttr(kEpilogueLoopAttrName, mark);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  auto rowLoop = scf::ForOp::create(
      b, loc, zero, getValueOrCreateConstantIndexOp(b, loc, rows), one);
  b.setInsertionPointToStart(rowLoop.getBody());
  auto colLoop = scf::ForOp::create(
      b, loc, zero, getValueOrCreateConstantIndexOp(b, loc, cols), one);
  b.setInsertionPointToStart(colLoop.getBody());
  Value i = rowLoop.getInductionVar(), j = colLoop.getInductionVar();
  Type f32 = b.getF32Type();
  Type cType = cast<MemRefType>(blockC.getType()).getElementType();
  Value value = memref::LoadOp::create(b, loc, blockC, ValueRange{i, j});
  if (cType != f32)
    value = arith::ExtFOp::create(b, loc, f32, value);
  Value row = arith::AddIOp::create(b, loc, row0, i);
  Value col = arith::AddIOp::create(b, loc, col0, j);
  value = emitEpilogueValue(b, loc, kernel, value, row, col);
  if (cType != f32)
    value = arith::TruncFOp::create(b, loc, cType, value);
  memref::StoreOp::create(b, loc, value, blockC, ValueRange{i, j});
}
