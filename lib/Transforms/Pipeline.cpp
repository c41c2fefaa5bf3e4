//===- Pipeline.cpp - software pipelining of the K loop -------------------===//
//
// Restructures the K loop of a thread-tiled kernel as its config says:
//
//   stages = 2: two shared buffers; iteration k issues the global loads of
//   slice k+1 into registers before its FMAs and stores them into the other
//   buffer after, then one barrier. The last iteration re-reads its own slice
//   instead of being peeled (peeling made LLVM hoist all loads and spill).
//
//   stages = S >= 3: a ring of S buffers filled by the asynchronous copies
//   (cp.async) of tile-promote-shared: S-1 slices issued before the loop,
//   one per iteration into the buffer the previous iteration read, and
//   before the last k step a wait for the next slice and the one barrier.
//
//   prefetch = true: the fragments of k step kk+1 are loaded before the FMAs
//   of step kk; with two or more stages the first fragments of the next slice
//   are loaded right after the barrier and carried as iter_args, fenced by an
//   empty side-effecting inline asm so LLVM cannot merge them into the next
//   iteration's loads (which would undo the prefetch).
//
// The pass needs the loop body in the form tile-thread-tile makes: the slice
// copy (global loads, shared stores), a barrier, the k-step loop, a barrier.
// It moves and clones those parts; it does not invent new computation.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Utils.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tile-pipeline"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPIPELINE
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The parts of the K loop body, in order.
struct LoopParts {
  SmallVector<Operation *> copyLoads;  // global loads and pure index math
  SmallVector<Operation *> copyStores; // stores into shared memory
  scf::ForOp stepLoop;                 // the k steps of one slice
  SmallVector<Operation *> stepLoads;  // fragment loads (+ their indices)
  SmallVector<Operation *> stepCompute; // extracts, broadcasts, FMAs
  /// Values of stepLoads used by stepCompute: the fragments.
  SmallVector<Value> fragments;
};

bool writesMemory(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return op->getNumRegions() != 0 || !isPure(op);
  return effects.hasEffect<MemoryEffects::Write>();
}

/// Splits the K loop body into its parts; fails if it is not the form
/// tile-thread-tile makes.
FailureOr<LoopParts> analyzeLoop(scf::ForOp loop) {
  LoopParts parts;
  Block *body = loop.getBody();
  // Constants are loop invariant: out of the way first.
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
    if (op.hasTrait<OpTrait::ConstantLike>())
      op.moveBefore(loop);
  auto reject = [](const char *why) {
    LLVM_DEBUG(llvm::dbgs() << "K loop not pipelinable: " << why << "\n");
    return failure();
  };
  auto it = body->begin();
  for (; it != body->end() && !isa<gpu::BarrierOp>(*it); ++it) {
    if (it->getNumRegions() != 0)
      return reject("an op with regions in the slice copy");
    (writesMemory(&*it) ? parts.copyStores : parts.copyLoads)
        .push_back(&*it);
  }
  if (it == body->end())
    return reject("no barrier after the slice copy");
  ++it; // first barrier
  parts.stepLoop = dyn_cast<scf::ForOp>(*it);
  if (!parts.stepLoop)
    return reject("no k-step loop after the first barrier");
  ++it;
  if (!isa<gpu::BarrierOp>(*it))
    return reject("no barrier after the k-step loop");
  ++it;
  if (!isa<scf::YieldOp>(*it) ||
      !llvm::equal(it->getOperands(), parts.stepLoop.getResults()))
    return reject("the K loop does not yield the k-step loop's results");
  // Copy loads must not depend on copy stores (they move above them).
  llvm::SmallPtrSet<Operation *, 16> stores(parts.copyStores.begin(),
                                            parts.copyStores.end());
  for (Operation *op : parts.copyLoads)
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && stores.count(def))
        return reject("a global load depends on a shared store");

  // Fragment loads are the shared-memory loads of the step loop and the
  // index computations that only feed them.
  Block *step = parts.stepLoop.getBody();
  llvm::SetVector<Operation *> loadSide;
  for (Operation &op : llvm::reverse(step->without_terminator())) {
    bool isLoad = isa<vector::LoadOp, memref::LoadOp>(op);
    bool feedsOnlyLoads =
        !op.use_empty() && isPure(&op) &&
        llvm::all_of(op.getUsers(),
                     [&](Operation *user) { return loadSide.contains(user); });
    if (isLoad || feedsOnlyLoads)
      loadSide.insert(&op);
    if (op.getNumRegions() != 0)
      return reject("an op with regions in the k-step loop");
  }
  for (Operation &op : step->without_terminator()) {
    if (loadSide.contains(&op)) {
      parts.stepLoads.push_back(&op);
      continue;
    }
    parts.stepCompute.push_back(&op);
    for (Value operand : op.getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && loadSide.contains(def) && !llvm::is_contained(parts.fragments, operand))
        parts.fragments.push_back(operand);
  }
  return parts;
}

void cloneAll(OpBuilder &b, ArrayRef<Operation *> ops, IRMapping &map) {
  for (Operation *op : ops)
    b.clone(*op, map);
}

/// Keeps LLVM from merging the fragment loads just issued into later loads.
void emitPrefetchFence(OpBuilder &b, Location loc) {
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, ValueRange{}, "",
                            "~{memory}", /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

struct TilePipelinePass
    : public mlir::tile::impl::TilePipelineBase<TilePipelinePass> {
  void runOnOperation() override;

private:
  LogicalResult pipeline(gpu::GPUFuncOp kernel);
};

/// Start of the last slice of `loop`'s K range: lb + (ub - lb - 1) / BK * BK
/// (constants fold).
Value lastSliceStart(OpBuilder &b, Location loc, scf::ForOp loop,
                     int64_t blockK) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Value span = b.createOrFold<arith::SubIOp>(
      loc,
      b.createOrFold<arith::SubIOp>(loc, loop.getUpperBound(),
                                    loop.getLowerBound()),
      c(1));
  return b.createOrFold<arith::AddIOp>(
      loc, loop.getLowerBound(),
      b.createOrFold<arith::MulIOp>(
          loc, b.createOrFold<arith::DivUIOp>(loc, span, c(blockK)),
          c(blockK)));
}

/// Waits until at most `pending` of this thread's cp.async groups are in
/// flight (the token only orders the op in the IR).
void waitAsyncGroups(OpBuilder &b, Location loc, Value token, int64_t pending) {
  nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(pending));
}

/// Shared buffers of the kernel, and how to get buffer `index` of each,
/// where the shared-memory plan puts them. Double buffering lays out
/// [A0][A1][B0][B1] in the dynamic shared memory; buffer i of an operand is
/// a memref.view at a computed byte shift, so every access keeps an
/// identity-layout 2-d memref (and its explicit alignment).
struct SharedBuffers {
  memref::ViewOp viewA, viewB;
  bool doubled = false;
  SharedPlan plan;

  /// Maps the single-buffer views to buffer `index` (null: the single
  /// buffers themselves), created at `b`.
  void mapBuffer(OpBuilder &b, Location loc, Value index, IRMapping &map) {
    if (!doubled) {
      map.map(viewA.getResult(), viewA.getResult());
      map.map(viewB.getResult(), viewB.getResult());
      return;
    }
    for (auto [single, base, size] :
         {std::tuple{viewA, plan.offsetA(0), plan.offsetA(1) - plan.offsetA(0)},
          std::tuple{viewB, plan.offsetB(0),
                     plan.offsetB(1) - plan.offsetB(0)}}) {
      Value shift = arith::AddIOp::create(
          b, loc, constIndex(b, loc, base),
          arith::MulIOp::create(b, loc, index, constIndex(b, loc, size)));
      mapViewAt(b, loc, single, shift, map);
    }
  }

  /// cp.async stages lay out [A0][B0][A1][B1]...: stage i starts at byte
  /// i * stageBytes, its B buffer offsetB(0) after that. Maps the
  /// single-buffer views to the buffers of the stage at byte `shift`,
  /// created at `b`.
  void mapStage(OpBuilder &b, Location loc, Value shift, IRMapping &map) {
    mapViewAt(b, loc, viewA, shift, map);
    mapViewAt(b, loc, viewB,
              arith::AddIOp::create(b, loc, shift,
                                    constIndex(b, loc, plan.offsetB(0))),
              map);
  }

private:
  /// Maps `single` to the same view at byte `shift` of its source.
  static void mapViewAt(OpBuilder &b, Location loc, memref::ViewOp single,
                        Value shift, IRMapping &map) {
    auto buffer = memref::ViewOp::create(b, loc, single.getType(),
                                         single.getSource(), shift,
                                         ValueRange{});
    buffer->setAttrs(single->getAttrs());
    map.map(single.getResult(), buffer.getResult());
  }
};

LogicalResult TilePipelinePass::pipeline(gpu::GPUFuncOp kernel) {
  ConfigAttr config = getConfig(kernel);
  scf::ForOp loop = findKLoop(kernel);
  SharedBuffers buffers;
  kernel.walk([&](memref::ViewOp view) {
    auto mark = view->getAttrOfType<StringAttr>(kSharedBufferAttrName);
    if (mark && mark.getValue() == "A")
      buffers.viewA = view;
    if (mark && mark.getValue() == "B")
      buffers.viewB = view;
  });
  FailureOr<LoopParts> maybeParts =
      loop ? analyzeLoop(loop) : FailureOr<LoopParts>(failure());
  if (failed(maybeParts) || !buffers.viewA || !buffers.viewB)
    return kernel.emitError()
           << "tile-pipeline: K loop is not the form tile-thread-tile makes "
              "(slice copy, barrier, k-step loop, barrier)";
  LoopParts &parts = *maybeParts;
  int64_t stages = config.getStages();
  bool doubleBuffer = stages == 2; // register-staged copies
  bool async = stages >= 3;        // cp.async ring of `stages` buffers
  bool pipelined = stages >= 2;    // either: copies overlap the compute
  bool prefetch = config.getRegPrefetch();
  int64_t blockK = config.getBlockK();
  int64_t numAccs = loop.getNumRegionIterArgs();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };

  // The slice copy must be the kind the stage count needs.
  nvgpu::DeviceAsyncCreateGroupOp copyGroup;
  for (Operation *op : parts.copyStores)
    if (auto group = dyn_cast<nvgpu::DeviceAsyncCreateGroupOp>(op))
      copyGroup = group;
  if (async != static_cast<bool>(copyGroup))
    return kernel.emitError()
           << "tile-pipeline: " << stages << " stages need "
           << (async ? "the asynchronous copies (nvgpu.device_async_copy) "
                       "tile-promote-shared makes for 3 or more stages"
                     : "copies through registers, not asynchronous ones");

  // Two buffers of each operand (or `stages` of each, for cp.async), and
  // the launch's shared memory multiplied to match.
  FailureOr<MatmulProblem> problem = getMatmulProblem(kernel, "tile-pipeline");
  if (failed(problem))
    return failure();
  buffers.plan = getKernelSharedPlan(config, *problem);
  int64_t stageBytes = buffers.plan.stageBytes;
  if (pipelined) {
    buffers.doubled = doubleBuffer;
    setDynamicSharedBytes(getOperation(), kernel, buffers.plan.dynamicBytes);
  }

  // Clones the fragment loads of k step `kk` from the buffer mapped in
  // `buffer`; returns the fragments.
  auto loadFragments = [&](OpBuilder &ob, int64_t kk,
                           const IRMapping &buffer) {
    IRMapping map = buffer;
    map.map(parts.stepLoop.getInductionVar(), constIndex(ob, loc, kk));
    cloneAll(ob, parts.stepLoads, map);
    return llvm::map_to_vector(parts.fragments,
                               [&](Value v) { return map.lookup(v); });
  };
  // Clones the FMAs of one k step; returns the new accumulators.
  auto compute = [&](OpBuilder &ob, int64_t kk, ArrayRef<Value> fragments,
                     ValueRange accs) {
    IRMapping map;
    map.map(parts.stepLoop.getInductionVar(), constIndex(ob, loc, kk));
    map.map(parts.stepLoop.getRegionIterArgs(), accs);
    map.map(parts.fragments, fragments);
    cloneAll(ob, parts.stepCompute, map);
    auto yield = cast<scf::YieldOp>(parts.stepLoop.getBody()->getTerminator());
    return llvm::map_to_vector(yield.getOperands(),
                               [&](Value v) { return map.lookup(v); });
  };
  // Clones the slice copy: global loads at `k0`, stores into `buffer`.
  auto copySlice = [&](OpBuilder &ob, Value k0, const IRMapping &buffer,
                       bool loads, bool stores, IRMapping &map) {
    map.map(loop.getInductionVar(), k0);
    for (auto [from, to] : buffer.getValueMap())
      map.map(from, to);
    if (loads)
      cloneAll(ob, parts.copyLoads, map);
    if (stores)
      cloneAll(ob, parts.copyStores, map);
  };

  // Clones the asynchronous copy of the slice at `k0` into the stage
  // mapped in `buffer` (its own wait left out); returns its group's token.
  // A slice past the end of the K range (k0 >= ub) copies nothing: every
  // copy reads 0 elements and zero-fills.
  auto copyAsync = [&](OpBuilder &ob, Value k0, const IRMapping &buffer) {
    IRMapping map;
    copySlice(ob, k0, buffer, /*loads=*/true, /*stores=*/false, map);
    Value inRange = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::ult,
                                          k0, loop.getUpperBound());
    for (Operation *op : parts.copyStores) {
      if (isa<nvgpu::DeviceAsyncWaitOp>(op))
        continue;
      Operation *clone = ob.clone(*op, map);
      auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(clone);
      if (!copy)
        continue;
      OpBuilder before(copy);
      Value elements = copy.getSrcElements();
      if (!elements)
        elements =
            constIndex(before, loc, copy.getDstElements().getZExtValue());
      copy.getSrcElementsMutable().assign(arith::SelectOp::create(
          before, loc, inRange, elements, constIndex(before, loc, 0)));
    }
    return map.lookup(copyGroup.getAsyncToken());
  };

  // Start of the last slice of the loop's K range.
  Value lastK0;
  if (doubleBuffer)
    lastK0 = lastSliceStart(b, loc, loop, blockK);

  // Prologue (two stages): slice 0 into buffer 0, and its first fragments.
  SmallVector<Value> init(loop.getInitArgs());
  int64_t numFragments = 0;
  // With prefetch, the step-0 fragments of the first slice (in `buffer`,
  // after the prologue's barrier) become loop-carried values.
  auto carryFirstFragments = [&](const IRMapping &buffer) {
    if (!prefetch)
      return;
    SmallVector<Value> fragments = loadFragments(b, 0, buffer);
    emitPrefetchFence(b, loc);
    numFragments = fragments.size();
    llvm::append_range(init, fragments);
  };
  if (doubleBuffer) {
    IRMapping buffer0, copyMap;
    buffers.mapBuffer(b, loc, c(0), buffer0);
    copySlice(b, loop.getLowerBound(), buffer0, true, true, copyMap);
    gpu::BarrierOp::create(b, loc);
    carryFirstFragments(buffer0);
    init.push_back(c(0)); // index of the buffer the iteration reads
  }
  // Prologue (cp.async): slices 0..S-2 into stages 0..S-2 (those past the
  // end of a short K range copy nothing), then wait for slice 0.
  Value prologueToken;
  if (async) {
    IRMapping stage0;
    for (int64_t s = 0; s + 1 < stages; ++s) {
      IRMapping stage;
      buffers.mapStage(b, loc, c(s * stageBytes), stage);
      if (s == 0)
        stage0 = stage;
      Value k = s == 0 ? loop.getLowerBound()
                       : arith::AddIOp::create(b, loc, loop.getLowerBound(),
                                               c(s * blockK))
                             .getResult();
      prologueToken = copyAsync(b, k, stage);
    }
    waitAsyncGroups(b, loc, prologueToken, stages - 2);
    gpu::BarrierOp::create(b, loc);
    carryFirstFragments(stage0);
    init.push_back(c(0));                         // stage read
    init.push_back(c((stages - 1) * stageBytes)); // stage written
  }

  auto newLoop = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep(), init);
  newLoop->setAttrs(loop->getAttrs());
  OpBuilder lb = OpBuilder::atBlockBegin(newLoop.getBody());
  Value k0 = newLoop.getInductionVar();
  ValueRange iterArgs = newLoop.getRegionIterArgs();
  SmallVector<Value> accs(iterArgs.take_front(numAccs));
  SmallVector<Value> fragments;
  IRMapping current, next;
  Value nextIndex, nextRead, nextWrite, issuedToken;
  if (doubleBuffer) {
    Value index = iterArgs.back();
    nextIndex = arith::XOrIOp::create(lb, loc, index, constIndex(lb, loc, 1));
    buffers.mapBuffer(lb, loc, index, current);
    buffers.mapBuffer(lb, loc, nextIndex, next);
    fragments.assign(iterArgs.begin() + numAccs,
                     iterArgs.begin() + numAccs + numFragments);
    // The next slice (the last iteration re-reads its own) into registers.
    Value nextK0 = arith::MinUIOp::create(
        lb, loc, arith::AddIOp::create(lb, loc, k0, constIndex(lb, loc, blockK)),
        lastK0);
    IRMapping copyMap;
    copySlice(lb, nextK0, next, /*loads=*/true, /*stores=*/false, copyMap);
    // The stores clone later with the same map (their values are the loads').
    current.map(loop.getInductionVar(), k0);
    next.map(loop.getInductionVar(), nextK0);
    for (auto [from, to] : copyMap.getValueMap())
      next.map(from, to);
  } else if (async) {
    // The byte shifts of the stage this iteration reads and of the one it
    // writes (the one the previous iteration read) move on by a stage.
    auto rotate = [&](Value shift) {
      Value moved = arith::AddIOp::create(lb, loc, shift,
                                          constIndex(lb, loc, stageBytes));
      Value wraps =
          arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::eq, moved,
                                constIndex(lb, loc, stages * stageBytes));
      return arith::SelectOp::create(lb, loc, wraps, constIndex(lb, loc, 0),
                                     moved)
          .getResult();
    };
    Value readShift = iterArgs[iterArgs.size() - 2];
    Value writeShift = iterArgs.back();
    nextRead = rotate(readShift);
    nextWrite = rotate(writeShift);
    IRMapping write;
    buffers.mapStage(lb, loc, readShift, current);
    buffers.mapStage(lb, loc, nextRead, next);
    buffers.mapStage(lb, loc, writeShift, write);
    current.map(loop.getInductionVar(), k0);
    fragments.assign(iterArgs.begin() + numAccs,
                     iterArgs.begin() + numAccs + numFragments);
    // Slice k0 + (S-1)*BK (in the last S-1 iterations past K: its copies
    // read nothing, and the buffer it fills is not read again).
    Value issueK0 = arith::AddIOp::create(
        lb, loc, k0, constIndex(lb, loc, (stages - 1) * blockK));
    issuedToken = copyAsync(lb, issueK0, write);
  } else {
    buffers.mapBuffer(lb, loc, Value(), current); // the one buffer
    IRMapping copyMap;
    copySlice(lb, k0, current, true, true, copyMap);
    gpu::BarrierOp::create(lb, loc);
  }

  SmallVector<Value> nextFragments;
  if (prefetch && !pipelined)
    fragments = loadFragments(lb, 0, current);
  for (int64_t kk = 0; kk < blockK; ++kk) {
    if (!prefetch)
      fragments = loadFragments(lb, kk, current);
    else if (kk + 1 < blockK)
      nextFragments = loadFragments(lb, kk + 1, current);
    if (pipelined && kk == blockK - 1) {
      // Store the next slice into the other buffer (or wait for this
      // thread's copies of it: all but the S-2 groups issued after it);
      // once every thread has, its first fragments can be loaded (before
      // this step's FMAs).
      if (doubleBuffer)
        cloneAll(lb, parts.copyStores, next);
      else
        waitAsyncGroups(lb, loc, issuedToken, stages - 2);
      gpu::BarrierOp::create(lb, loc);
      if (prefetch) {
        nextFragments = loadFragments(lb, 0, next);
        emitPrefetchFence(lb, loc);
      }
    }
    accs = compute(lb, kk, fragments, accs);
    fragments = nextFragments;
  }
  if (!pipelined)
    gpu::BarrierOp::create(lb, loc); // before the next slice overwrites
  SmallVector<Value> yields(accs);
  if (pipelined) {
    if (prefetch)
      llvm::append_range(yields, fragments);
    if (doubleBuffer)
      yields.push_back(nextIndex);
    else
      llvm::append_range(yields, ValueRange{nextRead, nextWrite});
  }
  scf::YieldOp::create(lb, loc, yields);
  // No copy may still be writing shared memory when the kernel goes on.
  if (async) {
    b.setInsertionPointAfter(newLoop);
    waitAsyncGroups(b, loc, prologueToken, 0);
  }

  for (int64_t i = 0; i < numAccs; ++i)
    loop.getResult(i).replaceAllUsesWith(newLoop.getResult(i));
  loop.erase();
  if (pipelined)
    for (memref::ViewOp single : {buffers.viewA, buffers.viewB}) {
      if (!single->use_empty())
        return single.emitError()
               << "tile-pipeline: single shared buffer still used outside the "
                  "K loop";
      single.erase();
    }
  eraseDeadOps(kernel.getBody());
  setStage(kernel, KernelStage::Pipelined);
  return success();
}

void TilePipelinePass::runOnOperation() {
  FailureOr<SmallVector<gpu::GPUFuncOp>> kernels = getKernelsAtStage(
      getOperation(), KernelStage::Thread, "tile-pipeline", Strategy::Fma);
  if (failed(kernels))
    return signalPassFailure();
  for (gpu::GPUFuncOp kernel : *kernels)
    if (failed(pipeline(kernel)))
      return signalPassFailure();
}

} // namespace
