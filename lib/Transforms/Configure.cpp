//===- Configure.cpp - choose a #tile.config for every matmul -------------===//
//
// The one place where tiling decisions are made. Precedence: pass options
// (field by field) > a config the user wrote on the op > the tuning table >
// the cost model's default. Every matmul leaves with a config that runs on
// the chip, or with an error at the op saying why not.
//
// The element type picks the strategy: f32 matmuls are computed with FMAs
// (strategy fma), bf16 and f16 ones on Hopper's tensor cores (strategy
// wgmma, f32 accumulators, C f32 or the inputs' type).
//
// Does not yet handle: dynamic shapes, other element types (and TF32 for
// f32), broadcast operands (indexing maps other than transposes of A and
// B), a linalg.transpose writing A or B on memrefs, memref layouts other
// than static strides and offsets with contiguous rows, and linalg ops
// other than linalg.matmul and linalg.batch_matmul that reduce
// (matrix-vector products, convolutions, linalg.generic contractions that
// are not a plain or batched matmul). Each is an error at the op, never a
// silent fallback.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/FmaModel.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Analysis/TuningTable.h"
#include "tile/Transforms/Contractions.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include <cinttypes>
#include <numeric>
#include <cstdio>

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tile-configure"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECONFIGURE
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Only the matmul becomes a kernel: a linalg op that makes A or B before
/// it (a prologue: a linalg.transpose, a cast, ...) or uses C after it (an
/// epilogue: a bias, an activation, ...) would stay in host code, which no
/// kernel runs, and the artifact would silently compute the matmul alone.
/// Each is an error at that op. Found through the SSA values (the operand
/// itself, on tensors or memrefs); other host ops that use C after the
/// matmul are found through views too (findHostAccess, findHostReader).
/// Other matmuls become kernels of their own and are not counted.
/// "1, 0, 2" for the permutation {1, 0, 2}.
std::string permutationText(ArrayRef<int64_t> permutation) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(permutation, os);
  return text;
}

/// A linalg op in host code that writes the memref `operand` before `op`
/// (in its block) and that `op`'s kernel would read: the writers of
/// `operand` before `op`, last first, up to the first that sets all of it.
/// An op fused into a kernel's epilogue, or a matmul that becomes a kernel
/// accumulating onto its C, updates what was there, so the ops before it
/// count too; a matmul whose kernel starts C from its fill (the linalg.fill
/// right before it, getOutputFill) overwrites it: what came before does not
/// count. Null if none.
linalg::LinalgOp findHostWriter(linalg::LinalgOp op, Value operand) {
  SmallVector<linalg::LinalgOp> writers;
  for (OpOperand &use : operand.getUses()) {
    auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (user && user.isDpsInit(&use) && user->getBlock() == op->getBlock() &&
        user->isBeforeInBlock(op))
      writers.push_back(user);
  }
  llvm::sort(writers, [](linalg::LinalgOp a, linalg::LinalgOp b) {
    return b->isBeforeInBlock(a);
  });
  for (linalg::LinalgOp writer : writers) {
    if (writer->hasAttr(kFusedEpilogueAttrName))
      continue;
    if (isCompiledMatmul(writer)) {
      if (getOutputFill(writer))
        return {};
      continue;
    }
    return writer;
  }
  return {};
}

/// Whether `user` runs after `op`: its ancestor in the block of `op`, or of
/// the first op around `op` whose block holds it, comes later in that
/// block. (A use inside a loop around `op` but before it in the loop body
/// does not count: it runs before `op` in the first iteration.)
bool runsAfter(Operation *op, Operation *user) {
  for (Operation *scope = op; scope && scope->getBlock();
       scope = scope->getParentOp()) {
    if (Operation *anchor = scope->getBlock()->findAncestorOpInBlock(*user))
      return anchor != scope && scope->isBeforeInBlock(anchor);
    if (scope->hasTrait<OpTrait::IsIsolatedFromAbove>())
      break;
  }
  return false;
}

/// The next matmul after `op` in its block that becomes a kernel writing the
/// same C (what is used after it is that one's result, and its own check
/// names it; the fill its kernel starts from is no use of C, by
/// startsCompiledMatmul). Null if none.
Operation *findNextWriterOfC(linalg::LinalgOp op) {
  Value c = op.getDpsInits()[0];
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (auto other = dyn_cast<linalg::LinalgOp>(next);
        other && isCompiledMatmul(next) && other.getDpsInits()[0] == c)
      return next;
  return nullptr;
}

/// Whether `op` is the `linalg.fill` that a matmul's kernel starts its C
/// from (getOutputFill: folded into that kernel, so it is no host access of
/// an earlier matmul's C it overwrites).
bool startsCompiledMatmul(Operation *op) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill)
    return false;
  SmallVector<Operation *, 2> candidates;
  if (fill.hasPureBufferSemantics())
    candidates.push_back(fill->getNextNode());
  else
    llvm::append_range(candidates, fill->getResult(0).getUsers());
  return llvm::any_of(candidates, [&](Operation *next) {
    auto matmul = dyn_cast_or_null<linalg::LinalgOp>(next);
    return matmul && isCompiledMatmul(next) && getOutputFill(matmul) == fill;
  });
}

/// Whether `a` comes before `b` in program order where both are in one
/// block, or under ops `anchorA` and `anchorB` of one block.
bool comesFirst(Operation *a, Operation *anchorA, Operation *b,
                Operation *anchorB) {
  if (anchorA && anchorB && anchorA != anchorB)
    return anchorA->isBeforeInBlock(anchorB);
  return a->getBlock() == b->getBlock() && a->isBeforeInBlock(b);
}

/// The values that hold what `value` holds once `user` passes it on
/// through control flow: for a loop's init, the loop's iteration argument
/// and its result; for a value a loop's body yields, the iteration argument
/// (the next iteration's) and the loop's result; for a value an scf.if,
/// scf.index_switch or scf.execute_region yields, its result. Empty for
/// any other use.
SmallVector<Value> passedOnTo(Operation *user, Value value) {
  SmallVector<Value> values;
  auto addTied = [&](LoopLikeOpInterface loop, unsigned index) {
    if (index < loop.getRegionIterArgs().size())
      values.push_back(loop.getRegionIterArgs()[index]);
    if (std::optional<ResultRange> results = loop.getLoopResults();
        results && index < results->size())
      values.push_back((*results)[index]);
  };
  if (auto loop = dyn_cast<LoopLikeOpInterface>(user)) {
    for (auto [index, init] : llvm::enumerate(loop.getInitsMutable()))
      if (init.get() == value)
        addTied(loop, index);
    return values;
  }
  if (!user->hasTrait<OpTrait::IsTerminator>())
    return values;
  Operation *parent = user->getParentOp();
  if (auto loop = dyn_cast_or_null<LoopLikeOpInterface>(parent)) {
    if (auto yielded = loop.getYieldedValuesMutable())
      for (auto [index, operand] : llvm::enumerate(*yielded))
        if (operand.get() == value && operand.getOwner() == user)
          addTied(loop, index);
  } else if (isa_and_nonnull<scf::IfOp, scf::IndexSwitchOp,
                             scf::ExecuteRegionOp>(parent) &&
             parent->getNumResults() == user->getNumOperands()) {
    for (auto [index, operand] : llvm::enumerate(user->getOperands()))
      if (operand == value)
        values.push_back(parent->getResult(index));
  }
  return values;
}

/// A host op that accesses C of the memref matmul `op` after it and is lost
/// there (nothing runs the host code after the kernel's launch).
struct HostAccess {
  Operation *op = nullptr;
  /// Whether it only writes C.
  bool writes = false;
  /// Where `op` accesses a buffer that C is a view of (not C or a view of
  /// C): the op that makes C (or a view C is made from) from that buffer.
  Operation *viewOf = nullptr;
};

/// A host op other than an unfused linalg one that uses C of the memref
/// matmul `op` (C itself, a view of it: a subview, a cast, a reshape, any
/// effect-free op that makes a memref of it; what a loop or an scf.if it
/// is passed to holds; or a buffer C is a view of) after it, and reads or
/// writes it there, or passes it to a call (which declares no effects).
/// Searched up to `bound` (the next matmul writing C) if there is one, in
/// nested regions too. The first such op in block order of its ancestor.
HostAccess findHostAccess(linalg::LinalgOp op, Operation *bound) {
  SmallVector<Value> views{op.getDpsInits()[0]};
  // The buffers C is a view of (the steps getViewRoot takes), each with
  // the op that makes its view.
  llvm::DenseMap<Value, Operation *> viewOf;
  for (Value view = views.front();
       auto maker = view.getDefiningOp<ViewLikeOpInterface>();) {
    view = maker.getViewSource();
    viewOf.try_emplace(view, maker);
    views.push_back(view);
  }
  HostAccess first;
  Operation *firstAnchor = nullptr;
  auto addView = [&](Value value, Value from) {
    if (!isa<BaseMemRefType>(value.getType()) ||
        llvm::is_contained(views, value))
      return;
    views.push_back(value);
    if (Operation *maker = viewOf.lookup(from))
      viewOf.try_emplace(value, maker);
  };
  for (size_t i = 0; i < views.size(); ++i) {
    Value view = views[i];
    for (Operation *user : view.getUsers()) {
      if (user == op.getOperation() || isCompiledMatmul(user) ||
          user->hasAttr(kFusedEpilogueAttrName) || startsCompiledMatmul(user))
        continue;
      if (isa<LoopLikeOpInterface>(user) ||
          user->hasTrait<OpTrait::IsTerminator>()) {
        for (Value passed : passedOnTo(user, view))
          addView(passed, view);
        continue;
      }
      if (isMemoryEffectFree(user)) {
        for (Value result : user->getResults())
          addView(result, view);
        continue;
      }
      bool reads = isa<CallOpInterface>(user) ||
                   hasEffect<MemoryEffects::Read>(user, view);
      bool writes = hasEffect<MemoryEffects::Write>(user, view);
      if ((!reads && !writes) || !runsAfter(op, user))
        continue;
      // (Past the next writer of C in the block, or outside the block,
      // which runs after that writer too: the writer's to report.)
      Operation *anchor = op->getBlock()->findAncestorOpInBlock(*user);
      if (bound && (!anchor || !anchor->isBeforeInBlock(bound)))
        continue;
      if (!first.op || comesFirst(user, anchor, first.op, firstAnchor) ||
          (anchor && !firstAnchor)) {
        first = {user, !reads, viewOf.lookup(view)};
        firstAnchor = anchor;
      }
    }
  }
  return first;
}

/// A host op that uses the result of the tensor matmul `op` (or a slice,
/// cast or reshape of it, or an insert_slice into it) other than to pass it
/// on: a `tensor.extract`, a `tensor.insert`, a call, a vector read, a
/// buffer made of it, a linalg op that is not fused (one that uses the
/// result itself is the epilogue's error), any op but these: ops that pass
/// the result on (a terminator: a return or a yield; a loop's or branch
/// op's operand; an insert_slice of it into another tensor; its extent;
/// another matmul that becomes a kernel; the fill its kernel starts from)
/// bufferize to no host access. The first in program order where that is
/// known. Null if none.
Operation *findHostReader(linalg::LinalgOp op) {
  SmallVector<Value> views{op->getResult(0)};
  Operation *first = nullptr;
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers()) {
      // Views of it, and an insert_slice into it (the whole result is its
      // buffer still; an insert_slice of it into another tensor passes it
      // on: in place where it was computed in a slice of that tensor).
      auto insert = dyn_cast<tensor::InsertSliceOp>(user);
      if (isa<tensor::ExtractSliceOp, tensor::CastOp, tensor::CollapseShapeOp,
              tensor::ExpandShapeOp>(user) ||
          (insert && insert.getDest() == views[i])) {
        if (!llvm::is_contained(views, user->getResult(0)))
          views.push_back(user->getResult(0));
        continue;
      }
      // Passed on through a loop or an scf.if: what that holds.
      if (isa<LoopLikeOpInterface>(user) ||
          user->hasTrait<OpTrait::IsTerminator>()) {
        for (Value passed : passedOnTo(user, views[i]))
          if (!llvm::is_contained(views, passed))
            views.push_back(passed);
        continue;
      }
      if (isa<tensor::DimOp, RegionBranchOpInterface>(user) ||
          (insert && insert.getSource() == views[i]) ||
          isCompiledMatmul(user) || user->hasAttr(kFusedEpilogueAttrName) ||
          startsCompiledMatmul(user))
        continue;
      if (!first || comesFirst(user, nullptr, first, nullptr))
        first = user;
    }
  return first;
}

/// `reported`: the host accesses of C already reported against another
/// matmul (one whose result reaches it too, through a loop): not again.
LogicalResult checkHostNeighbours(linalg::LinalgOp op,
                                  llvm::DenseSet<Operation *> &reported) {
  auto hostLinalg = [](Operation *other) -> linalg::LinalgOp {
    auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(other);
    return linalgOp && !isCompiledMatmul(other) ? linalgOp
                                                : linalg::LinalgOp();
  };
  StringRef opName = op->getName().getStringRef();
  for (auto [index, input] : llvm::enumerate(op.getDpsInputs())) {
    Operation *maker = hostLinalg(input.getDefiningOp());
    // On memrefs, what findHostWriter finds.
    if (!maker && isa<MemRefType>(input.getType()))
      maker = findHostWriter(op, input);
    if (!maker)
      continue;
    StringRef operand = index == 0 ? "A" : "B";
    InFlightDiagnostic diag = maker->emitOpError()
                              << "makes operand " << operand << " of a "
                              << opName << ": ";
    // The permutation that swaps the matrix dimensions (the one
    // tile-canonicalize-contractions folds).
    static constexpr int64_t kSwap[] = {1, 0}, kBatchSwap[] = {0, 2, 1};
    auto transpose = dyn_cast<linalg::TransposeOp>(maker);
    bool swapsMatrix =
        transpose && transpose.getPermutation() ==
                         (isa<linalg::BatchMatmulOp>(op.getOperation())
                              ? ArrayRef<int64_t>(kBatchSwap)
                              : ArrayRef<int64_t>(kSwap));
    if (transpose && transpose.hasPureTensorSemantics() && swapsMatrix)
      diag << "tile-canonicalize-contractions folds this linalg.transpose "
              "into the matmul's indexing maps (tile-matmul-to-ptx runs it "
              "first)";
    else if (transpose && !swapsMatrix)
      diag << "a linalg.transpose with permutation ["
           << permutationText(transpose.getPermutation())
           << "] is not folded into the matmul (only one that swaps the "
              "matrix dimensions is: [1, 0], or [0, 2, 1] for a "
              "linalg.batch_matmul)";
    else if (isa<linalg::TransposeOp>(maker))
      diag << "a linalg.transpose on memrefs is not folded into the matmul "
              "(the kernel would read the operand before the transpose); "
              "on tensors tile-canonicalize-contractions folds it, and a "
              "linalg.matmul with indexing maps reads a transposed operand "
              "directly";
    else
      diag << "only the matmul becomes a kernel; linalg ops that compute "
              "its operands are not supported yet (this one would stay in "
              "host code, which no kernel runs)";
    diag.attachNote(op.getLoc()) << "the " << opName;
    return diag;
  }
  // The first user of C after the matmul that tile-fuse-epilogues did not
  // fuse (in block order on memrefs, before the next matmul writing C).
  Operation *epilogue = nullptr;
  Operation *nextWriter =
      op->getNumResults() == 1 ? nullptr : findNextWriterOfC(op);
  // (The fill a later matmul's kernel starts from is that kernel's.)
  auto hostEpilogue = [&](Operation *user) {
    return hostLinalg(user) && !startsCompiledMatmul(user);
  };
  if (op->getNumResults() == 1) {
    for (Operation *user : op->getResult(0).getUsers())
      if (!epilogue && hostEpilogue(user))
        epilogue = user;
  } else {
    for (Operation *user : op.getDpsInits()[0].getUsers())
      if (hostEpilogue(user) && !user->hasAttr(kFusedEpilogueAttrName) &&
          user->getBlock() == op->getBlock() && op->isBeforeInBlock(user) &&
          (!nextWriter || user->isBeforeInBlock(nextWriter)) &&
          (!epilogue || user->isBeforeInBlock(epilogue)))
        epilogue = user;
  }
  if (!epilogue) {
    // Other host ops that read C after the matmul (a memref.copy or
    // memref.load of it or of a view of it, a call taking it, on memrefs; a
    // tensor.extract of the result or of a slice of it, a call, on
    // tensors), or on memrefs write into it: lost the same way.
    HostAccess access;
    if (op->getNumResults() == 1) {
      access.op = findHostReader(op);
      access.writes = isa_and_nonnull<tensor::InsertOp>(access.op);
    } else
      access = findHostAccess(op, nextWriter);
    if (!access.op)
      return success();
    // (Failed already, against the other matmul.)
    if (!reported.insert(access.op).second)
      return failure();
    StringRef lost = "only the matmul and its fused epilogue become a "
                     "kernel; this op would stay in host code, which no "
                     "kernel runs (elementwise linalg ops that update C in "
                     "place are fused)";
    InFlightDiagnostic diag = access.op->emitOpError();
    if (access.viewOf)
      diag << (access.writes ? "writes into" : "reads")
           << " a buffer that the result of a " << opName
           << " is a view of, in host code: " << lost;
    else
      diag << (access.writes ? "writes into the result of a "
                             : "reads the result of a ")
           << opName << " in host code: " << lost;
    diag.attachNote(op.getLoc()) << "the " << opName;
    if (access.viewOf)
      diag.attachNote(access.viewOf->getLoc())
          << "the " << opName
          << "'s C is a view of that buffer, through this op";
    return diag;
  }
  // Why it is not fused: what fusing it after the fused ops would say.
  std::string why;
  FailureOr<FusedEpilogue> fused = collectFusedEpilogue(op);
  if (failed(fused))
    return failure();
  bool adjacent = true;
  for (Operation *between = fused->ops.empty() ? op.getOperation()
                                               : fused->ops.back();
       (between = between->getNextNode()) && between != epilogue;)
    // (An allocation, of the op's own output say, touches no C.)
    if (!isMemoryEffectFree(between) &&
        !isa<memref::AllocOp, memref::AllocaOp>(between))
      adjacent = false;
  if (!adjacent)
    why = "other ops with memory effects come between it and the matmul";
  else
    why = addEpilogueOp(op, cast<linalg::LinalgOp>(epilogue), *fused);
  if (why.empty())
    why = "it can be, but tile-fuse-epilogues did not run before "
          "tile-configure (the tile-matmul-to-ptx pipeline runs it)";
  InFlightDiagnostic diag =
      epilogue->emitOpError()
      << "uses the result of a " << opName
      << " and is not fused into its kernel: " << why
      << " (only the matmul and its fused epilogue become a kernel; this "
         "op would stay in host code, which no kernel runs)";
  diag.attachNote(op.getLoc()) << "the " << opName;
  return diag;
}

/// Checks that operand #`index` of `op` has a layout the kernels address:
/// none, or strides and offset (static, or dynamic: taken at launch) with
/// contiguous rows; C's elements each at their own address (checked here
/// for static strides, by the runtime at launch for dynamic ones). Emits
/// the reason at the op otherwise.
LogicalResult checkLayout(linalg::LinalgOp op, MemRefType type,
                          int64_t index) {
  if (type.getLayout().isIdentity())
    return success();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return op.emitOpError()
           << "operand #" << index << " has the layout " << type.getLayout()
           << ", which is not strided; only memrefs without a layout or with "
              "a strided one are supported";
  auto dynamic = [](int64_t value) { return ShapedType::isDynamic(value); };
  if (dynamic(strides.back()))
    return op.emitOpError()
           << "operand #" << index << " of type " << type
           << " has a dynamic innermost stride; the kernels read and write "
              "rows of contiguous elements (cast it to a layout whose "
              "innermost stride is 1, such as strided<[?, 1], offset: ?>)";
  if (!dynamic(offset) && offset < 0)
    return op.emitOpError()
           << "operand #" << index << " of type " << type
           << " has a negative offset; the kernels address elements from "
              "the buffer's start";
  if (strides.back() != 1)
    return op.emitOpError()
           << "operand #" << index << " of type " << type
           << " has an innermost stride of " << strides.back()
           << "; the kernels read and write rows of contiguous elements "
              "(stride 1)";
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (!dynamic(stride) && stride < 1)
      return op.emitOpError()
             << "operand #" << index << " of type " << type
             << " has a stride of " << stride
             << "; the kernels take strides of at least 1";
  // A dynamic offset or stride: the runtime checks the launch's values
  // (bounds, and for C that no two elements share an address).
  if (dynamic(offset) || llvm::any_of(strides, dynamic))
    return success();
  int64_t last = offset, term;
  for (auto [extent, stride] : llvm::zip(type.getShape(), strides))
    if (llvm::MulOverflow(extent - 1, stride, term) ||
        llvm::AddOverflow(last, term, last))
      return op.emitOpError()
             << "operand #" << index << " of type " << type
             << " reaches past element 2^63 - 1, which 64-bit offsets do "
                "not address";
  // C's rows (and matrices) must not overlap: the kernel's blocks write
  // them concurrently.
  if (index == 2) {
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rank = type.getRank();
    int64_t cols = shape[rank - 1], rowStride = strides[rank - 2];
    if (shape[rank - 2] > 1 && rowStride < cols)
      return op.emitOpError()
             << "writes C of type " << type << ", whose rows overlap (row "
             << "stride " << rowStride << " below its " << cols
             << " columns): one address would hold several elements of C";
    if (rank == 3 && shape[0] > 1) {
      int64_t matrix = (shape[1] - 1) * rowStride + cols;
      if (strides[0] < matrix)
        return op.emitOpError()
               << "writes C of type " << type << ", whose matrices overlap "
               << "(batch stride " << strides[0] << " below the " << matrix
               << " elements one matrix spans): one address would hold "
                  "several elements of C";
    }
  }
  return success();
}

enum class Overlap { None, Shared, Unknown };

/// Whether the elements of two views of one buffer (their types' offsets
/// and strides from its start) overlap: each is a set of runs of contiguous
/// elements (rows, where the innermost stride is 1; else single elements),
/// compared sorted.
Overlap overlapOf(MemRefType a, MemRefType b) {
  // At most this many runs each are compared (else: not known).
  constexpr int64_t kMaxRuns = int64_t(1) << 20;
  auto runs = [&](MemRefType type,
                  SmallVector<std::pair<int64_t, int64_t>> &out) -> bool {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic) || !type.hasStaticShape())
      return false;
    ArrayRef<int64_t> shape = type.getShape();
    // The dimensions a run's start steps through, and a run's length.
    bool rows = !shape.empty() && strides.back() == 1;
    ArrayRef<int64_t> outer = rows ? shape.drop_back() : shape;
    int64_t length = rows ? shape.back() : 1;
    int64_t count = 1;
    for (int64_t extent : outer)
      if (llvm::MulOverflow(count, extent, count) || count > kMaxRuns)
        return false;
    if (length == 0 || count == 0)
      return true;
    SmallVector<int64_t> index(outer.size(), 0);
    for (int64_t run = 0; run < count; ++run) {
      int64_t start = offset;
      for (auto [i, at] : llvm::enumerate(index))
        start += at * strides[i];
      out.push_back({start, start + length});
      for (int64_t d = index.size() - 1; d >= 0; --d) {
        if (++index[d] < outer[d])
          break;
        index[d] = 0;
      }
    }
    llvm::sort(out);
    return true;
  };
  SmallVector<std::pair<int64_t, int64_t>> runsA, runsB;
  if (!runs(a, runsA) || !runs(b, runsB))
    return Overlap::Unknown;
  for (size_t i = 0, j = 0; i < runsA.size() && j < runsB.size();) {
    if (runsA[i].second <= runsB[j].first)
      ++i;
    else if (runsB[j].second <= runsA[i].first)
      ++j;
    else
      return Overlap::Shared;
  }
  return Overlap::None;
}

/// The kernel's blocks write C while others read A and B: on memrefs, C
/// must share no element with either (views of one buffer, or one value).
/// (A fused epilogue's operand is no view of C's buffer: addEpilogueOp.)
LogicalResult checkNoAliasing(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return success();
  Value c = op.getDpsInits()[0];
  bool exactC = true;
  Value bufferC = getViewRoot(c, &exactC);
  for (auto [index, input] : llvm::enumerate(op.getDpsInputs())) {
    bool exact = exactC;
    if (getViewRoot(input, &exact) != bufferC)
      continue;
    StringRef name = index == 0 ? "A" : "B";
    Overlap overlap = input == c ? Overlap::Shared
                      : exact    ? overlapOf(cast<MemRefType>(input.getType()),
                                             cast<MemRefType>(c.getType()))
                                 : Overlap::Unknown;
    if (overlap == Overlap::None)
      continue;
    InFlightDiagnostic diag = op.emitOpError();
    if (overlap == Overlap::Shared)
      diag << "writes C, which shares elements with operand " << name
           << " (one buffer): the kernel's blocks write C while others "
              "still read "
           << name
           << ", so the result would depend on their order (copy it to a "
              "buffer of its own first)";
    else
      diag << "writes C, a view of the buffer that operand " << name
           << " is a view of, with offsets or strides not known at compile "
              "time: the two may share elements, which the kernel's blocks "
              "would write and read at once (give them static layouts, or "
              "buffers of their own)";
    return diag;
  }
  return success();
}

/// Checks that the pipeline can lower `op`; emits the reason at the op
/// otherwise. Fills `shape`. `reported` as for checkHostNeighbours.
LogicalResult checkSupported(linalg::LinalgOp op, MatmulShape &shape,
                             Type &elementType,
                             llvm::DenseSet<Operation *> &reported) {
  FailureOr<MatmulLayout> layout = getMatmulLayout(op);
  if (failed(layout))
    return op.emitOpError()
           << "with indexing maps other than transposes of A and B (a "
              "broadcast operand, or C not indexed "
           << (isa<linalg::BatchMatmulOp>(op.getOperation()) ? "(b, m, n)"
                                                             : "(m, n)")
           << ") is not supported yet";
  if (failed(checkHostNeighbours(op, reported)))
    return failure();
  if (failed(checkNoAliasing(op)))
    return failure();
  // A batched matmul's operands are 3-d, the batch first.
  int64_t rank = layout->batched ? 3 : 2;
  SmallVector<ShapedType> types;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    if (!type || type.getRank() != rank)
      return op.emitOpError() << "operand of type " << operand.getType()
                              << " is not a " << rank << "-d memref or tensor";
    types.push_back(type);
  }
  elementType = types[0].getElementType();
  for (auto [index, type] : llvm::enumerate(types)) {
    if (!type.hasStaticShape())
      return op.emitOpError()
             << "operand #" << index << " has dynamic shape " << type
             << "; only static shapes are supported yet";
    Type element = type.getElementType();
    if (!element.isF32() && !element.isBF16() && !element.isF16())
      return op.emitOpError()
             << "element type " << element << " of operand #" << index
             << " is not supported yet (f32, bf16 and f16 are)";
    if (index == 1 && element != elementType)
      return op.emitOpError()
             << "has A of " << elementType << " and B of " << element
             << "; both inputs must have the same element type";
    if (index == 2 && !element.isF32() && element != elementType)
      return op.emitOpError()
             << "writes C of " << element << " from inputs of "
             << elementType << "; C must be f32 or the inputs' type";
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (failed(checkLayout(op, memref, index)))
        return failure();
      if (Attribute space = memref.getMemorySpace()) {
        InFlightDiagnostic diag = op.emitOpError()
                                  << "operand #" << index
                                  << " is in memory space ";
        if (auto integer = dyn_cast<IntegerAttr>(space))
          diag << integer.getInt();
        else
          diag << space;
        return diag << "; only memrefs in the default memory space are "
                       "supported";
      }
    }
    // Products of extents (element counts, tile counts) must fit in 64 bits
    // and element offsets in the kernel's index type.
    for (int64_t extent : type.getShape())
      if (extent > std::numeric_limits<int32_t>::max())
        return op.emitOpError()
               << "operand #" << index << " has an extent of " << extent
               << ", over the limit of " << std::numeric_limits<int32_t>::max();
  }
  shape.transposeA = layout->transposeA;
  shape.transposeB = layout->transposeB;
  // (The op's verifier checks that every operand has C's batch.)
  MatmulExtents extents =
      getMatmulExtents(*layout, types[0].getShape(), types[2].getShape());
  shape.batch = extents.batch;
  shape.m = extents.m;
  shape.n = extents.n;
  shape.k = extents.k;
  if (layout->batched) {
    if (shape.batch > kMaxBatch)
      return op.emitOpError()
             << "has a batch of " << shape.batch << " matrices, over the "
             << "limit of " << kMaxBatch
             << " (the kernel's grid has a row of blocks per matrix)";
    // Element offsets must fit in 64 bits (the kernel's widest index).
    for (auto [index, type] : llvm::enumerate(types)) {
      int64_t elements;
      if (llvm::MulOverflow(type.getDimSize(0),
                            type.getDimSize(1) * type.getDimSize(2),
                            elements))
        return op.emitOpError()
               << "operand #" << index << " has " << type.getDimSize(0)
               << " x " << type.getDimSize(1) << " x " << type.getDimSize(2)
               << " elements, over the 2^63 - 1 that 64-bit offsets address";
    }
  }
  // Whether some operand reaches past element 2^31 - 1 (tile-block-tile's
  // 64-bit index arithmetic; largestOperandSpan once the kernel has a
  // problem). (An empty operand, refused below, reaches none.)
  for (ShapedType type : types)
    if (getElementSpan(type) > std::numeric_limits<int32_t>::max())
      shape.offsets64 = true;
  // And a fused epilogue's strided operands (checkHostNeighbours found its
  // ops fusable).
  // (Their kernel parameters' spans: a batch of one's dynamic batch
  // stride is static there.)
  if (FailureOr<FusedEpilogue> fused = collectFusedEpilogue(op);
      succeeded(fused))
    for (Type type :
         getEpilogueParamTypes(*fused, shape.batch, shape.m, shape.n))
      if (getElementSpan(cast<MemRefType>(type)) >
          std::numeric_limits<int32_t>::max())
        shape.offsets64 = true;
  // Strided operands: what their rows' starts are aligned to.
  for (auto [index, type] : llvm::enumerate(types)) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      continue;
    FailureOr<std::optional<StridedLayout>> layout = getStridedLayout(memref);
    if (failed(layout)) // (checkLayout accepted it: cannot happen)
      return op.emitOpError() << "operand #" << index << " of type " << memref
                              << " has a layout the kernels do not take";
    int64_t bytes = memref.getElementTypeBitWidth() / 8;
    int64_t alignment = layoutAlignment(*layout, bytes);
    (index == 0 ? shape.layoutAlignA
                : index == 1 ? shape.layoutAlignB : shape.layoutAlignC) =
        alignment;
    int64_t rows = memref.getDimSize(memref.getRank() - 2);
    int64_t cols = memref.getDimSize(memref.getRank() - 1);
    if (*layout && index < 2) {
      // (The models see a dynamic offset or stride as its densest value.)
      StridedLayout assumed =
          assumedLayout(**layout, rows, cols, bytes, /*padded=*/false);
      (index == 0 ? shape.offsetA : shape.offsetB) = assumed.offset;
      (index == 0 ? shape.rowStrideA : shape.rowStrideB) = assumed.rowStride;
    }
    // Rows of A or B that overlap (only read, so allowed).
    if (*layout && index < 2 && rows > 1 &&
        !ShapedType::isDynamic((*layout)->rowStride) &&
        (*layout)->rowStride < cols)
      (index == 0 ? shape.overlapRowsA : shape.overlapRowsB) = true;
  }
  shape.elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  shape.resultBytes = types[2].getElementType().getIntOrFloatBitWidth() / 8;
  shape.f16 = elementType.isF16();
  shape.readsC = !getOutputFill(op);
  if (shape.m == 0 || shape.n == 0 || shape.k == 0 || shape.batch == 0)
    return op.emitOpError() << "has an empty dimension ("
                            << (layout->batched
                                    ? "batch = " + std::to_string(shape.batch) +
                                          ", "
                                    : std::string())
                            << "M = " << shape.m << ", N = " << shape.n
                            << ", K = " << shape.k
                            << "); there is nothing to compile";
  return success();
}

/// Checks that `config`'s strategy can compute `shape`'s element types and
/// that its copies can reach the operands; emits the reason at `op`.
LogicalResult checkStrategy(linalg::LinalgOp op, const TileConfig &config,
                            const MatmulShape &shape, Type elementType) {
  bool sixteenBit = shape.elementBytes == 2;
  if (!config.isWgmma() && sixteenBit)
    return op.emitOpError()
           << "has " << elementType
           << " inputs, which the fma strategy does not compute (it takes "
              "f32); bf16 and f16 matmuls use strategy = wgmma";
  // f32 inputs on the tensor cores are TF32, which wgmma reads K-major
  // only.
  if (config.isWgmma() && !sixteenBit)
    if (std::string why = checkTf32Layout(shape); !why.empty())
      return op.emitOpError()
             << "has " << elementType
             << " inputs, which the wgmma strategy computes as TF32 only "
                "with both operands K-major (A stored M x K, B stored N x "
                "K); "
             << why << " (the fma strategy computes it in FP32)";
  if (!config.isWgmma() && config.repack && !fmaRepacksB(shape)) {
    // What the runtime's copy for an fma kernel takes: B alone, row-major,
    // dense and one matrix, and only where its rows are off 16 bytes.
    std::string why =
        shape.transposeB ? "B is stored N x K"
        : shape.layoutAlignB != 0
            ? "B is a strided memref"
        : shape.batch > 1
            ? "the matmul is batched (batch = " + std::to_string(shape.batch) +
                  ")"
            : "B's rows (N = " + std::to_string(shape.n) +
                  ") already start on 16 bytes";
    return op.emitOpError()
           << "cannot use tile config " << toString(config)
           << ": repack = true with the fma strategy has the runtime copy B "
              "(row-major, dense, one matrix) into rows padded to 16 bytes "
              "where N is not a multiple of 4, but "
           << why << "; use repack = false";
  }
  if (!config.isWgmma())
    return success();
  if (std::string error = checkWgmmaElementBytes(config, shape.elementBytes);
      !error.empty())
    return op.emitOpError() << "cannot use tile config " << toString(config)
                            << ": " << error;
  // B stored N x K is one K-major box of BN rows a slab (A stored K x M
  // is in chunks of 64; BM > 256 is refused above for either A).
  if (config.copy == CopyKind::Tma && shape.transposeB && config.blockN > 256)
    return op.emitOpError()
           << "cannot use tile config " << toString(config)
           << ": B stored N x K is copied in TMA boxes of block tile N = "
           << config.blockN
           << " rows, and a TMA box holds at most 256; use a block tile N of "
              "256 or less, or copy = registers";
  if (config.copy == CopyKind::Tma && !config.repack && !tmaRowsAligned(shape))
    return op.emitOpError()
           << "cannot copy A (rows of " << (shape.transposeA ? "M = " : "K = ")
           << shape.storedColsA() << ") and B (rows of "
           << (shape.transposeB ? "K = " : "N = ")
           << (shape.transposeB ? shape.k : shape.n) << ") " << elementType
           << " elements with the TMA, which needs rows that are multiples "
              "of 16 bytes; use repack = true (padded copies made before "
              "the launch) or copy = registers";
  if (config.copy == CopyKind::Tma && config.repack && !canRepack(shape))
    return op.emitOpError()
           << "cannot copy " << (shape.overlapRowsA ? "A" : "B")
           << " with the TMA: its rows overlap (a row stride below its "
              "row length), which the runtime cannot repack into rows on "
              "16 bytes and the TMA cannot read in place; use copy = "
              "registers";
  // A 2x1 cluster's blocks take vertically adjacent tiles and split each
  // slab of B between them, a 1x2 cluster's horizontally adjacent ones and
  // split A's.
  if (config.clusterSize() > 1) {
    std::string cluster =
        std::to_string(config.clusterM) + "x" + std::to_string(config.clusterN);
    int64_t tilesM = ceilDiv(shape.m, config.blockM);
    if (tilesM % config.clusterM != 0)
      return op.emitOpError()
             << "cannot use cluster " << cluster << ": M = " << shape.m
             << " in block tiles of " << config.blockM << " rows is "
             << tilesM << " tile rows, not a multiple of " << config.clusterM
             << " (the blocks of a cluster take tiles of the same column)";
    int64_t tilesN = ceilDiv(shape.n, config.blockN);
    if (tilesN % config.clusterN != 0)
      return op.emitOpError()
             << "cannot use cluster " << cluster << ": N = " << shape.n
             << " in block tiles of " << config.blockN << " columns is "
             << tilesN << " tile columns, not a multiple of " << config.clusterN
             << " (the blocks of a cluster take tiles of the same row)";
  }
  // A TMA store writes C's rows in boxes of 64 rows by 128 bytes from a
  // 16-byte aligned start.
  if (config.tmaStore) {
    if (shape.layoutAlignC && shape.layoutAlignC * shape.resultBytes % 16)
      return op.emitOpError()
             << "cannot use store = tma: C's offset and strides (multiples of "
             << shape.layoutAlignC << " elements of " << shape.resultBytes
             << " bytes) do not keep its rows on 16 bytes, which the TMA "
                "needs; use store = registers";
    if (!shape.layoutAlignC && shape.n * shape.resultBytes % 16 != 0)
      return op.emitOpError()
             << "cannot use store = tma: C's rows (N = " << shape.n
             << " elements of " << shape.resultBytes
             << " bytes) are not on 16 bytes, which the TMA needs; use "
                "store = registers";
    int64_t boxCols = kSwizzleRowBytes / shape.resultBytes;
    if (config.warpN % boxCols != 0)
      return op.emitOpError()
             << "cannot use store = tma: it writes C " << boxCols
             << " columns (128 bytes) at a time, and warpgroup tile N = "
             << config.warpN << " is not a multiple of " << boxCols;
  }
  // split_last names tiles of one matrix.
  if (int64_t tiles =
          ceilDiv(shape.m, config.blockM) * ceilDiv(shape.n, config.blockN);
      config.splitLast > tiles)
    return op.emitOpError()
           << "cannot use split_last = " << config.splitLast << ": "
           << shape.m << "x" << shape.n << " in block tiles of "
           << config.blockM << "x" << config.blockN << " has " << tiles
           << " tiles";
  // Split-K adds f32 partial products into C with atomic adds.
  if (config.splitK > 1 && shape.resultBytes != 4)
    return op.emitOpError()
           << "cannot use split_k = " << config.splitK << " with a "
           << (shape.resultBytes * 8)
           << "-bit C: the wgmma strategy's split-K adds f32 partial "
              "products into C atomically, so C must be f32";
  return success();
}

struct TileConfigurePass
    : public mlir::tile::impl::TileConfigureBase<TileConfigurePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Applies the pass options to `config`; false (after an error) if an
  /// option is malformed.
  LogicalResult applyOverrides(TileConfig &config, Operation *where);
  LogicalResult configure(linalg::LinalgOp op, const ChipInfo &chipInfo,
                          const TuningTable *table);
  /// Host ops that use C after a matmul, reported once each.
  llvm::DenseSet<Operation *> reportedHostAccesses;
};

LogicalResult TileConfigurePass::applyOverrides(TileConfig &c,
                                                Operation *where) {
  auto badOption = [&](StringRef name, const Twine &what) {
    return where->emitError() << "tile-configure: option '" << name << "' "
                              << what;
  };
  if (!blockTile.empty()) {
    if (blockTile.size() != 3)
      return badOption("block", "needs 3 sizes (M,N,K), got " +
                                    Twine(blockTile.size()));
    c.setBlock(blockTile[0], blockTile[1], blockTile[2]);
  }
  if (!warpTile.empty()) {
    if (warpTile.size() != 2)
      return badOption("warp",
                       "needs 2 sizes (M,N), got " + Twine(warpTile.size()));
    c.setWarp(warpTile[0], warpTile[1]);
  }
  if (!threadTile.empty()) {
    if (threadTile.size() != 2)
      return badOption("thread",
                       "needs 2 sizes (M,N), got " + Twine(threadTile.size()));
    c.setThread(threadTile[0], threadTile[1]);
  }
  if (stages < 0)
    return badOption("stages",
                     "must be positive (0 keeps the chosen value), got " +
                         Twine(stages));
  if (stages != 0)
    c.stages = stages;
  if (swizzle < 0)
    return badOption("swizzle", "must be at least 1, got " + Twine(swizzle));
  if (swizzle != 0)
    c.swizzleGroup = swizzle;
  if (!smem.empty() && !parseSharedLayout(smem, c.smemLayout, c.smemPad))
    return badOption("smem", "must be none, pad<N>, xor or swizzle128, got '" +
                                 smem + "'");
  if (occupancy < 0)
    return badOption("occupancy",
                     "must be positive (0 keeps the chosen value), got " +
                         Twine(occupancy));
  if (occupancy != 0)
    c.minBlocksPerSM = occupancy;
  if (splitK < 0)
    return badOption("split-k",
                     "must be positive (0 keeps the chosen value), got " +
                         Twine(splitK));
  if (splitK != 0)
    c.splitK = splitK;
  if (splitLast < -1)
    return badOption("split-last",
                     "must be 0 (every tile split), a number of tiles, or -1 "
                     "(keep the chosen value), got " +
                         Twine(splitLast));
  if (splitLast >= 0)
    c.splitLast = splitLast;
  if (!prefetch.empty()) {
    if (prefetch != "true" && prefetch != "false")
      return badOption("prefetch",
                       "must be true or false, got '" + prefetch + "'");
    c.regPrefetch = prefetch == "true";
  }
  if (!copy.empty() && !parseCopyKind(copy, c.copy))
    return badOption("copy",
                     "must be registers, cp_async or tma, got '" + copy + "'");
  // A wgmma kernel's repacking pads what the TMA reads: another copy kind
  // has no use for it. (An fma kernel's copies of B read its padded copy
  // whatever the stages.)
  if (!copy.empty() && c.copy != CopyKind::Tma && c.isWgmma())
    c.repack = false;
  if (!repack.empty()) {
    if (repack != "true" && repack != "false")
      return badOption("repack", "must be true or false, got '" + repack + "'");
    c.repack = repack == "true";
    // Repacked copies are for the TMA: without a copy option, repack = true
    // takes the TMA (the chosen config may copy through registers).
    if (c.repack && copy.empty() && c.isWgmma())
      c.copy = CopyKind::Tma;
  }
  if (!specialize.empty()) {
    if (specialize != "true" && specialize != "false")
      return badOption("specialize",
                       "must be true or false, got '" + specialize + "'");
    c.specialize = specialize == "true";
  }
  if (!persistent.empty()) {
    if (persistent != "true" && persistent != "false")
      return badOption("persistent",
                       "must be true or false, got '" + persistent + "'");
    c.persistent = persistent == "true";
  }
  if (!store.empty()) {
    if (store != "tma" && store != "registers")
      return badOption("store", "must be tma or registers, got '" + store +
                                    "'");
    c.tmaStore = store == "tma";
  }
  if (!cluster.empty()) {
    int64_t m = 0, n = 0;
    char x = 0, rest = 0;
    if (std::sscanf(cluster.c_str(), "%" SCNd64 "%c%" SCNd64 "%c", &m, &x, &n,
                    &rest) != 3 ||
        x != 'x')
      return badOption("cluster",
                       "must be MxN (1x1, 2x1 or 1x2), got '" + cluster + "'");
    c.clusterM = m;
    c.clusterN = n;
    // A cluster's blocks multicast with the TMA from a producer warpgroup:
    // without copy and specialize options, a cluster takes both.
    if (c.clusterSize() > 1 && c.isWgmma()) {
      if (copy.empty())
        c.copy = CopyKind::Tma;
      if (specialize.empty())
        c.specialize = true;
    }
  }
  return success();
}

LogicalResult TileConfigurePass::configure(linalg::LinalgOp op,
                                           const ChipInfo &chipInfo,
                                           const TuningTable *givenTable) {
  MatmulShape shape;
  Type elementType;
  if (failed(checkSupported(op, shape, elementType, reportedHostAccesses)))
    return failure();

  Attribute written = op->getAttr(TileDialect::kConfigAttrName);
  if (written && !isa<ConfigAttr>(written))
    return op.emitOpError() << "has a '" << TileDialect::kConfigAttrName
                            << "' attribute that is not a #tile.config: "
                            << written;
  // TF32 where asked for and the layout allows it; a config written on
  // the op decides for itself (its strategy).
  if (tf32 && shape.elementBytes == 4 &&
      !op->hasAttr(TileDialect::kConfigAttrName)) {
    shape.tf32 = true;
    if (std::string why = checkTf32Layout(shape); !why.empty()) {
      op.emitWarning() << "tf32: wgmma reads TF32 operands only K-major (A "
                          "stored M x K, B stored N x K), and "
                       << why << "; this matmul is computed in FP32 (fma)";
      shape.tf32 = false;
    } else if (candidateConfigs(shape, chipInfo).empty()) {
      // The tensor-core model proposes nothing: a chip without wgmma, or
      // rows the TMA can read neither in place nor repacked (TF32 takes
      // no register copies).
      op.emitWarning() << "tf32: the cost model has no TF32 config for this "
                          "matmul on "
                       << chipInfo.name
                       << " (wgmma needs sm_90, and TF32 copies need rows "
                          "the TMA can read, in place or repacked); this "
                          "matmul is computed in FP32 (fma)";
      shape.tf32 = false;
    }
  }
  TileConfig config;
  [[maybe_unused]] const char *source;
  bool chosenHere = false, fromTable = false;
  std::string typeName;
  llvm::raw_string_ostream(typeName) << elementType;
  const TuningTable &table =
      givenTable ? *givenTable : TuningTable::builtin(typeName);
  if (ConfigAttr existing = getConfig(op)) {
    config = existing.toTileConfig();
    source = "written on the op";
  } else if (std::optional<TuningTable::Match> tuned =
                 // The table's entries were measured on dense row-major
                 // operands, one matrix per launch (a strided operand
                 // whose offset and strides are on 16 bytes reads as a
                 // dense one; for the TMA of 16-bit A and B, on 128-byte
                 // lines: rows off the lines read in place cost up to
                 // 1.7x, bench/results/2026-12-03-h200-tma-lines.md, which
                 // the model weighs against repacking them).
                 // TF32 has no table (the f32 one is of fma configs).
                 shape.tf32 || shape.transposeA || shape.transposeB ||
                         isa<linalg::BatchMatmulOp>(op.getOperation()) ||
                         llvm::any_of(
                             std::array<std::array<int64_t, 3>, 3>{
                                 {{shape.layoutAlignA, shape.elementBytes,
                                   shape.elementBytes == 2 ? 128 : 16},
                                  {shape.layoutAlignB, shape.elementBytes,
                                   shape.elementBytes == 2 ? 128 : 16},
                                  {shape.layoutAlignC, shape.resultBytes, 16}}},
                             [](std::array<int64_t, 3> operand) {
                               return operand[0] != 0 &&
                                      operand[0] * operand[1] % operand[2] != 0;
                             })
                     ? std::nullopt
                     : table.nearest(chipInfo.name, typeName, shape.m,
                                     shape.n, shape.k,
                                     TuningTable::kDefaultRadius)) {
    // The exact shape's entry, or the nearest measured shape's (a shape
    // class): both were measured fastest with this config.
    config = tuned->entry->config;
    source = tuned->distance == 0 ? "tuning table" : "tuning table, nearest";
    // A persistent entry holds for its own shape: measured against the
    // same config launched one block per tile, persistent kernels gained
    // up to 7% on some shapes of whole tiles (4096^3, 8192x1024x1024), lost
    // 1-4% on others (128x128 tiles at 2048^3 and 8192^3) and mostly lost
    // 3-15% on shapes with partial tiles (3000^3, 4095x4097x4093,
    // 697x7192x6082; bench/results/2026-12-06-h100-wgmma-tune.md), which a
    // neighbour's shape may have.
    // So does a split of its last tiles alone (split_last counts the tiles
    // past its own grid's last full wave): a neighbour gets the config
    // without a split.
    if (tuned->distance != 0) {
      config.persistent = false;
      if (config.splitLast > 0) {
        config.splitK = 1;
        config.splitLast = 0;
      }
    }
    // An fma entry measured on B's padded copy: a shape whose B needs none
    // (N a multiple of 4, or B transposed or strided) reads B in place.
    if (!config.isWgmma() && config.repack && !fmaRepacksB(shape))
      config.repack = false;
    chosenHere = fromTable = true;
  } else {
    config = defaultConfig(shape, chipInfo);
    source = "cost model";
    chosenHere = true;
  }
  TileConfig chosen = config;
  if (failed(applyOverrides(config, op)))
    return failure();
  // A table entry that the options contradict (a persistent entry with
  // split-k= or copy=registers, one without a producer with
  // persistent=true): the cost model's config with the same options, as
  // without a table. (A split of K not asked for is dropped below where it
  // conflicts.)
  TileConfig unsplit = config;
  if (splitK == 0)
    unsplit.splitK = 1;
  if (fromTable && !checkConsistency(unsplit).empty()) {
    config = defaultConfig(shape, chipInfo);
    chosen = config;
    if (failed(applyOverrides(config, op)))
      return failure();
    fromTable = false;
    source = "cost model (the options contradict the tuning table's entry)";
  }
  // The tables were measured with C stored from registers: the store
  // through the TMA is the cost model's to add (after the options, which
  // may rule it out or ask for it) where it predicts it faster and the
  // staging buffers fit.
  if (fromTable && store.empty() && config.isWgmma() &&
      modelTakesTmaStore(shape, config)) {
    TileConfig staged = config;
    staged.tmaStore = true;
    CostReport r = evaluateTensorCore(staged, chipInfo, shape.elementBytes);
    if (r.fits &&
        r.blocksPerSM >= std::max<int64_t>(1, staged.minBlocksPerSM) &&
        estimateTensorCore(staged, shape, chipInfo).seconds <
            estimateTensorCore(config, shape, chipInfo).seconds) {
      config = staged;
      source = "tuning table, C through TMA stores by the cost model";
    }
  }
  // The model's own store where the options rule it out (copy = registers,
  // specialize = false, a split of K, warpgroup tiles narrower than a box):
  // C from registers, as before the model chose it.
  if (chosenHere && store.empty() && config.tmaStore &&
      !modelTakesTmaStore(shape, config))
    config.tmaStore = false;
  auto consistent = [&](TileConfig trial) {
    if (splitK == 0)
      trial.splitK = 1;
    return checkConsistency(trial).empty();
  };
  // Where the chosen config cannot take what the options ask for: the cost
  // model's best-ranked config that, with the same options, `accepts`
  // becomes the config (`why` its source). True if one did; failure() after
  // an option error. `anyConsistent` (if given) says whether a candidate
  // was consistent after the options.
  auto takeBestRanked =
      [&](llvm::function_ref<bool(const TileConfig &)> accepts,
          const char *why, bool *anyConsistent = nullptr) -> FailureOr<bool> {
    for (const TileConfig &candidate : rankedCandidates(shape, chipInfo)) {
      TileConfig trial = candidate;
      if (failed(applyOverrides(trial, op)))
        return failure();
      if (anyConsistent)
        *anyConsistent |= consistent(trial);
      if (accepts(trial)) {
        config = trial;
        chosen = candidate;
        fromTable = false;
        source = why;
        return true;
      }
    }
    return false;
  };
  // A cluster asked for where the chosen config cannot take one (the
  // shared operand's block extent off 128, an odd number of tile rows of a
  // 2x1 cluster or tile columns of a 1x2 one, a split of K, no producer):
  // the cost model's best-ranked config that can, with the same options.
  auto takesCluster = [&](const TileConfig &trial) {
    return trial.clusterSize() <= 1 ||
           (consistent(trial) &&
            ceilDiv(shape.m, trial.blockM) % trial.clusterM == 0 &&
            ceilDiv(shape.n, trial.blockN) % trial.clusterN == 0);
  };
  if (chosenHere && config.isWgmma() && !takesCluster(config)) {
    bool anyConsistent = false;
    FailureOr<bool> found =
        takeBestRanked(takesCluster,
                       "cost model, the best that takes the cluster",
                       &anyConsistent);
    if (failed(found))
      return failure();
    // Every candidate that can hold a cluster gives an odd number of tile
    // rows (2x1) or columns (1x2). (Where none can, the options rule it
    // out: the config's rule that they break is said below, as it is for
    // tiles given as options.)
    bool alongM = config.clusterM > 1;
    if (!*found && anyConsistent && blockTile.empty())
      return op.emitOpError()
             << "cannot use cluster " << config.clusterM << "x"
             << config.clusterN << ": every config the cost model ranks for "
             << shape.m << "x" << shape.n << "x" << shape.k
             << " that can hold one (block tile " << (alongM ? "N" : "M")
             << " a multiple of 128) gives an odd number of tile "
             << (alongM ? "rows" : "columns");
  }
  // A TMA store asked for where the chosen config cannot take one (copies
  // through registers, no producer, warpgroup tiles narrower than a box of
  // C): the cost model's best-ranked config that can, with the same
  // options. (Where none can, the rule broken is said below.)
  auto takesStore = [&](const TileConfig &trial) {
    return !trial.tmaStore ||
           (consistent(trial) &&
            trial.warpN % (kSwizzleRowBytes / shape.resultBytes) == 0);
  };
  if (chosenHere && config.isWgmma() && !takesStore(config) &&
      failed(takeBestRanked(takesStore,
                            "cost model, the best that takes the TMA store")))
    return failure();
  // A table entry's occupancy and split-K were measured with its tile
  // sizes; when the options change those, they are the options' to set.
  if (fromTable && config.tileSizes() != chosen.tileSizes()) {
    if (occupancy == 0)
      config.minBlocksPerSM = 0;
    if (splitK == 0)
      config.splitK = 1;
    if (splitLast < 0)
      config.splitLast = 0;
    if (persistent.empty())
      config.persistent = false;
  }
  // Split-K adds partial products into C atomically: no block holds the
  // final value to apply a fused epilogue to. A split chosen here is
  // dropped; one asked for is an error.
  if (op->hasAttr(kEpilogueAttrName) && config.splitK > 1) {
    if (splitK != 0 || !chosenHere)
      return op.emitOpError()
             << "split_k = " << config.splitK
             << " cannot run a fused epilogue (the blocks add partial "
                "products into C atomically, so none holds the final value)";
    config.splitK = 1;
  }
  // A persistent kernel walks whole tiles, a cluster's two blocks take
  // whole tiles of one column and a TMA store writes C whole: persistent =
  // true, a cluster or store = tma asked for drops a split-K chosen here
  // (one asked for too is the config's error).
  if ((config.persistent || config.clusterSize() > 1 || config.tmaStore) &&
      config.splitK > 1 &&
      splitK == 0 && chosenHere)
    config.splitK = 1;
  // A table's split-K was measured with an f32 C (the tables are keyed by
  // the inputs' type): with a 16-bit C it cannot run, so it is dropped; a
  // split asked for is the error of checkStrategy.
  if (fromTable && splitK == 0 && config.splitK > 1 &&
      shape.resultBytes != 4)
    config.splitK = 1;
  // The same for the tensor-core model's occupancy (a register budget for
  // its own tiles and stages; the FP32 model leaves occupancy to the hint
  // below).
  if (chosenHere && !fromTable && config.isWgmma() && occupancy == 0 &&
      (config.tileSizes() != chosen.tileSizes() ||
       config.stages != chosen.stages ||
       config.specialize != chosen.specialize))
    config.minBlocksPerSM = 0;
  // Copies through registers asked for where the chosen config has one
  // consumer warpgroup (the model proposes register copies with two or
  // more only: a lone consumer spilled, TensorCoreModel.cpp; 2223x3792x6121
  // tt with copy=registers on the model's 64x256 tiles: 2848 bytes): the
  // cost model's best-ranked config with two consumers or more, with the
  // same options. (Tiles given as options are kept.)
  auto takesRegisterCopies = [&](const TileConfig &trial) {
    return trial.copyKind() != CopyKind::Registers ||
           trial.numConsumers() >= 2;
  };
  if (chosenHere && config.isWgmma() && !copy.empty() && blockTile.empty() &&
      warpTile.empty() && !takesRegisterCopies(config) &&
      failed(takeBestRanked(
          [&](const TileConfig &trial) {
            if (!takesRegisterCopies(trial) || !consistent(trial))
              return false;
            CostReport r =
                evaluateTensorCore(trial, chipInfo, shape.elementBytes);
            return r.fits &&
                   r.blocksPerSM >= std::max<int64_t>(1, trial.minBlocksPerSM);
          },
          "cost model, the best with two consumer warpgroups for copies "
          "through registers")))
    return failure();
  // The model's ring depth was for its own tiles: with the options' larger
  // tiles (and no stages option) the ring gets as many slots as fit the
  // chip's shared memory, down to 2.
  if (chosenHere && config.isWgmma() && stages == 0 &&
      (config.tileSizes() != chosen.tileSizes() ||
       config.tmaStore != chosen.tmaStore))
    while (config.stages > 2 &&
           getSharedPlan(config, shape.elementBytes).totalBytes >
               chipInfo.sharedBytesPerBlock)
      --config.stages;
  // A model pick whose staging buffers the options dropped (store =
  // registers) gets the slots they took back, as many as fit and the K
  // loop fills.
  if (chosenHere && config.isWgmma() && stages == 0 && chosen.tmaStore &&
      !config.tmaStore && config.tileSizes() == chosen.tileSizes()) {
    int64_t slabs = ceilDiv(shape.k, config.blockK);
    while (config.stages < slabs) {
      TileConfig deeper = config;
      ++deeper.stages;
      CostReport r = evaluate(deeper, chipInfo, shape);
      if (!r.fits || r.blocksPerSM < std::max<int64_t>(1, config.minBlocksPerSM))
        break;
      config = deeper;
    }
  }
  // Persistent blocks by the cost model's rule (modelTakesPersistent: C
  // through TMA stores, every tile whole, more than a wave), for the final
  // config: its own pick, a table entry it gave the store (measured one
  // block per tile without it), or either after the options (tiles, the
  // ring fitted to them, the occupancy, store=, or what a persistent kernel
  // cannot run: a split of K, a cluster, no producer). Not where the
  // persistent option is given, nor for a table entry measured persistent
  // with its own tiles. (After the ring is fitted to the options' tiles.)
  if (chosenHere && persistent.empty() && config.isWgmma() &&
      !(fromTable && chosen.persistent &&
        config.tileSizes() == chosen.tileSizes())) {
    TileConfig trial = config;
    trial.persistent = false;
    TileConfig persistentTrial = trial;
    persistentTrial.persistent = true;
    CostReport r = evaluateTensorCore(trial, chipInfo, shape.elementBytes);
    config.persistent =
        consistent(persistentTrial) && r.fits &&
        modelTakesPersistent(shape, trial, r.blocksPerSM, chipInfo);
    if (fromTable && config.persistent)
      source = "tuning table, persistent by the cost model's rule";
  }
  // A split of K dropped above (or never chosen) takes a chosen split_last
  // with it; a split_last asked for without a split is the config's error.
  if (config.splitK == 1 && splitLast < 0)
    config.splitLast = 0;
  LLVM_DEBUG(llvm::dbgs() << "matmul " << shape.batch << " x " << shape.m
                          << "x" << shape.n << "x"
                          << shape.k << ": " << toString(config) << " ("
                          << source << ", then options)\n");

  if (std::string error = checkConsistency(config); !error.empty())
    return op.emitOpError()
           << "cannot use tile config " << toString(config) << ": " << error;
  if (config.smemLayout == SharedLayout::Xor)
    return op.emitOpError()
           << "shared-memory layout 'xor' is not supported yet (use none or "
              "pad<N>)";
  // The final config's strategy decides (a config written on the op, or
  // tile options, may make an f32 matmul wgmma, TF32, or fma).
  shape.tf32 = computesTf32(config, shape.elementBytes);
  if (failed(checkStrategy(op, config, shape, elementType)))
    return failure();
  CostReport report = evaluate(config, chipInfo, shape);
  if (!report.fits)
    return op.emitOpError() << "tile config " << toString(config)
                            << " cannot run on " << chipInfo.name << ": "
                            << report.whyNot;
  // A register budget for ptxas: the blocks per SM the cost model predicts
  // for the final config. Without it ptxas may take a few registers more
  // than the model counted and lose a block per SM (bounds-checked edge
  // tiles most of all: 333x517x129 went from 0.028 to 0.015 ms; large
  // aligned shapes are unchanged; bench/results, 2026-11-29). The budget
  // is at least the model's register estimate, so the config still fits,
  // and it counts what the shape's edge and accumulate forms add
  // (occupancyHintBlocks); where ptxas would still spill under it,
  // tile-export lowers it.
  if (occupancyHint && chosenHere && config.minBlocksPerSM == 0) {
    int64_t hint = occupancyHintBlocks(config, shape, chipInfo);
    if (hint > 1)
      config.minBlocksPerSM = hint;
  }
  // One block per tile and split of K (the splits multiply tiles that fit
  // in 32 bits, so the product fits in 64).
  constexpr int64_t kMaxBlocks = std::numeric_limits<int32_t>::max();
  int64_t blocks =
      ceilDiv(shape.m, config.blockM) * ceilDiv(shape.n, config.blockN);
  if (blocks <= kMaxBlocks)
    blocks = blocksPerMatrix(config, blocks, shape.k);
  if (blocks > kMaxBlocks)
    return op.emitOpError()
           << "needs " << blocks << " thread blocks, over the grid limit of "
           << std::numeric_limits<int32_t>::max();
  setConfig(op, ConfigAttr::get(op.getContext(), config));
  return success();
}

void TileConfigurePass::runOnOperation() {
  Operation *root = getOperation();
  reportedHostAccesses.clear();
  std::optional<ChipInfo> chipInfo = lookupChip(chip);
  if (!chipInfo) {
    root->emitError() << "tile-configure: unknown chip '" << chip
                      << "' (known: sm_80, sm_90)";
    return signalPassFailure();
  }
  // No table given: the built-in one of each matmul's element type.
  const TuningTable *table = nullptr;
  std::optional<TuningTable> loaded;
  if (tuningTable == "none") {
    loaded.emplace();
    table = &*loaded;
  } else if (!tuningTable.empty()) {
    llvm::Expected<TuningTable> parsed = TuningTable::load(tuningTable);
    if (!parsed) {
      root->emitError() << "tile-configure: "
                        << llvm::toString(parsed.takeError());
      return signalPassFailure();
    }
    loaded = std::move(*parsed);
    table = &*loaded;
  }
  // Malformed options are reported once, before looking at any op.
  TileConfig probe;
  if (failed(applyOverrides(probe, root)))
    return signalPassFailure();

  bool failedAny = false;
  int64_t matmuls = 0;
  SmallVector<Operation *> hostOnly;
  root->walk([&](linalg::LinalgOp op) {
    // Kernels made by tile-block-tile hold linalg ops of their own.
    if (op->getParentOfType<gpu::GPUModuleOp>())
      return;
    if (isCompiledMatmul(op)) {
      ++matmuls;
      if (failed(configure(op, *chipInfo, table)))
        failedAny = true;
      return;
    }
    // Every other linalg op that reduces is contraction-like: never left
    // behind in host code without a word.
    if (std::string reason = whyNotCompiled(op); !reason.empty()) {
      op->emitOpError() << "is not supported yet: it is " << reason
                        << "; tile-opt compiles linalg.matmul on 2-d "
                           "operands and linalg.batch_matmul on 3-d ones";
      failedAny = true;
    } else if (!isa<linalg::FillOp>(op.getOperation()) &&
               !op->hasAttr(kFusedEpilogueAttrName)) {
      // Elementwise ops and copies that are no prologue or epilogue of a
      // matmul (those are errors, from configure()). A fill is C's
      // initialisation: folded into the kernel, or (under split-K) left to
      // the host on purpose.
      hostOnly.push_back(op);
    }
  });
  if (failedAny)
    return signalPassFailure();
  if (warnUncompiled)
    for (Operation *op : hostOnly)
      op->emitWarning() << "'" << op->getName()
                        << "' is not compiled: tile-opt makes kernels of "
                           "linalg.matmul ops only; this op stays in host "
                           "code, which no kernel runs";
  // Nothing to compile: no matmul, and no kernel made by an earlier run.
  if (warnUncompiled && matmuls == 0 &&
      !root->walk([](gpu::GPUFuncOp kernel) {
             return kernel->hasAttr(kMatmulAttrName) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
           }).wasInterrupted())
    root->emitWarning() << "tile-configure: no linalg.matmul to compile; "
                           "the output has no kernel";
}

} // namespace
