//===- MbarrierPipeline.cpp - the wgmma K loop through an mbarrier ring ---===//
//
// The wgmma strategy's software pipeline: the one shared-memory slot of the
// earlier stages becomes a ring of S slots, each with a "full" mbarrier
// (the slab has landed) and an "empty" one (every consumer warpgroup is
// done with it).
//
// With `specialize`, the block's last warpgroup is the producer: it lowers
// its registers (setmaxnreg) and, slab after slab, waits until the slot is
// empty and fills it (one thread issues the TMA boxes with the expected
// bytes, or all 128 threads copy through registers, fence and arrive). The
// consumer warpgroups raise their registers and, slab after slab, wait
// until the slot is full, issue the slab's wgmma group, wait until at most
// one group is in flight and release the previous slab's slot: the wgmma
// of slab k overlaps the wait for slab k+1 and the copies run S-1 slabs
// ahead.
//
// Without `specialize` (TMA copies only) every warpgroup computes and
// thread 0 issues slab k + S - 1 once its slot is empty.
//
// The pass moves and clones what the earlier passes made (the slot's views,
// the TMA copy, the wgmma group) with the slot, the slab and the barriers
// remapped; a register copy is emitted anew for the producer's 128 threads.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"
#include "tile/Transforms/WgmmaSlabs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEMBARRIERPIPELINE
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Ticks a try_wait may suspend before it retries.
constexpr int64_t kWaitTicks = 10000000;

/// The pieces of the single-slot K loop that tile-wgmma leaves.
struct SlotLoop {
  scf::ForOp loop;
  arith::ConstantIndexOp slot;
  Operation *copy = nullptr;      // scf.if (TMA) or scf.execute_region
  scf::IfOp compute;              // the wgmma group
  Value barriers;                 // the TMA's one "full" barrier, if any
  Value row0, col0;               // the block tile's origin in C
};

FailureOr<SlotLoop> analyze(gpu::GPUFuncOp kernel) {
  SlotLoop parts;
  parts.loop = findKLoop(kernel);
  if (!parts.loop)
    return failure();
  for (Operation &op : *parts.loop.getBody()) {
    if (op.hasAttr(kSlotAttrName))
      parts.slot = dyn_cast<arith::ConstantIndexOp>(op);
    if (op.hasAttr(kSlabCopyAttrName))
      parts.copy = &op;
    if (op.hasAttr(kSlabComputeAttrName))
      parts.compute = dyn_cast<scf::IfOp>(op);
    if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op))
      parts.barriers = wait.getBarriers();
  }
  std::tie(parts.row0, parts.col0) = findTileOrigin(kernel);
  if (!parts.slot || !parts.copy || !parts.compute || !parts.row0 ||
      !parts.col0 ||
      parts.compute.getNumResults() != parts.loop.getNumRegionIterArgs())
    return failure();
  return parts;
}

/// Makes the specialized kernel persistent once each role's work for one
/// tile sits in its tile loop (`tileLoops`): what the kernel computed from
/// its block id before the roles (the tile's origin, its views of A, B and
/// C, a batched kernel's matrix) is computed anew at the start of each
/// loop's body from the loop's tile, and the launch gets the persistent
/// grid.
LogicalResult makePersistent(gpu::GPUFuncOp kernel, scf::IfOp roles,
                             ArrayRef<scf::ForOp> tileLoops,
                             const MatmulProblem &problem, ConfigAttr config,
                             int64_t resident, Value clusterRank,
                             Operation *root) {
  Block &entry = kernel.getBody().front();
  SmallVector<Operation *> slice;
  llvm::SmallPtrSet<Operation *, 32> inSlice;
  for (Operation &op : llvm::make_range(entry.begin(), roles->getIterator())) {
    bool depends = isa<gpu::BlockIdOp>(op);
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && inSlice.count(def))
          depends = true;
    });
    if (!depends)
      continue;
    // (Each role computes it anew per tile: the producer in its leader
    // thread, the consumers in all theirs. A read may run there; a write
    // would run in other threads than before, and as often as tiles.)
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(&op);
    bool readsAtMost =
        effects && llvm::all_of(*effects, [](const auto &effect) {
          return isa<MemoryEffects::Read>(effect.getEffect());
        });
    if (!isa<gpu::BlockIdOp>(op) && !readsAtMost)
      return op.emitError()
             << "tile-mbarrier-pipeline: a persistent kernel computes what "
                "depends on the block's tile once per tile in each role, but "
                "this op, before the roles, may write memory";
    slice.push_back(&op);
    inSlice.insert(&op);
  }
  int64_t tilesPerMatrix = numTiles(config, problem);
  for (scf::ForOp tiles : tileLoops) {
    Location loc = tiles.getLoc();
    OpBuilder b = OpBuilder::atBlockBegin(tiles.getBody());
    // A cluster's loop walks pairs of tiles: its block's tile is the
    // pair's tile of its rank (what block id x stood for).
    Value tile = tiles.getInductionVar();
    if (clusterRank)
      tile = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, tile,
              constIndex(b, loc, config.getClusterSize())),
          clusterRank);
    Value tileInMatrix = tile, matrix = constIndex(b, loc, 0);
    if (problem.batch > 1) {
      tileInMatrix = arith::RemUIOp::create(b, loc, tile,
                                            constIndex(b, loc, tilesPerMatrix));
      matrix = arith::DivUIOp::create(b, loc, tile,
                                      constIndex(b, loc, tilesPerMatrix));
    }
    // What block id x, y (or z) stood for: the tile in its matrix, the
    // matrix.
    auto coordinate = [&](gpu::BlockIdOp id) -> Value {
      switch (id.getDimension()) {
      case gpu::Dimension::x:
        return tileInMatrix;
      case gpu::Dimension::y:
        return matrix;
      default:
        return constIndex(b, loc, 0);
      }
    };
    IRMapping map;
    for (Operation *op : slice) {
      if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
        map.map(id.getResult(), coordinate(id));
        continue;
      }
      b.clone(*op, map);
    }
    for (Operation *op : slice)
      for (Value result : op->getResults())
        result.replaceUsesWithIf(map.lookup(result), [&](OpOperand &use) {
          return tiles->isProperAncestor(use.getOwner());
        });
    // Block ids the earlier passes read where they are used (a batched
    // kernel's C accesses take the matrix from block y).
    SmallVector<gpu::BlockIdOp> inner;
    tiles.getBody()->walk([&](gpu::BlockIdOp id) { inner.push_back(id); });
    for (gpu::BlockIdOp id : inner) {
      id.replaceAllUsesWith(coordinate(id));
      id.erase();
    }
  }
  // Nothing else may read the block's id: it names no tile any more. (The
  // slice's old ops are unused now.)
  for (Operation *op : llvm::reverse(slice))
    if (op->use_empty())
      op->erase();
  WalkResult stray = kernel.walk([&](gpu::BlockIdOp id) {
    bool onlyBounds = llvm::all_of(id->getUses(), [&](OpOperand &use) {
      auto loop = dyn_cast<scf::ForOp>(use.getOwner());
      return loop && llvm::is_contained(tileLoops, loop) &&
             use.get() == loop.getLowerBound();
    });
    return onlyBounds ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (stray.wasInterrupted())
    return kernel.emitError()
           << "tile-mbarrier-pipeline: a persistent kernel reads the block id "
              "outside its tile loops";
  // The grid: what fits on the chip at once (launchGrid), in the kernel's
  // known grid size (which gpu.grid_dim folds to) and in its launches.
  auto [gridX, gridY] = launchGrid(config, problem, resident);
  kernel.setKnownGridSizeAttr(DenseI32ArrayAttr::get(
      kernel.getContext(),
      {static_cast<int32_t>(gridX), static_cast<int32_t>(gridY), 1}));
  kernel->setAttr(kPersistentBlocksAttrName,
                  IntegerAttr::get(IntegerType::get(kernel.getContext(), 64),
                                   gridX));
  forEachLaunchOf(root, kernel, [&](gpu::LaunchFuncOp launch) {
    OpBuilder hb(launch);
    launch.getGridSizeXMutable().assign(constIndex(hb, launch.getLoc(), gridX));
    launch.getGridSizeYMutable().assign(constIndex(hb, launch.getLoc(), gridY));
  });
  return success();
}

struct TileMbarrierPipelinePass
    : public mlir::tile::impl::TileMbarrierPipelineBase<
          TileMbarrierPipelinePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult pipeline(gpu::GPUFuncOp kernel);
};

/// `index % 2` as an i1 (an mbarrier phase parity).
Value parityOf(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(
      b, loc, b.getI1Type(),
      arith::RemUIOp::create(b, loc, index, constIndex(b, loc, 2)));
}

void waitParity(OpBuilder &b, Location loc, Value barriers, Value slot,
                Value parity) {
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                         constIndex(b, loc, kWaitTicks), slot);
}

/// Clones the ops of `body` (without its terminator) that `keep` accepts,
/// in order, through `map`.
void cloneBody(OpBuilder &b, Block *body, IRMapping &map,
               function_ref<bool(Operation &)> keep) {
  for (Operation &op : body->without_terminator())
    if (keep(op))
      b.clone(op, map);
}

LogicalResult TileMbarrierPipelinePass::pipeline(gpu::GPUFuncOp kernel) {
  ConfigAttr config = getConfig(kernel);
  MatmulProblem problem = *getMatmulProblem(kernel);
  FailureOr<SlotLoop> maybeParts = analyze(kernel);
  if (failed(maybeParts))
    return kernel.emitError()
           << "tile-mbarrier-pipeline: K loop is not the form tile-wgmma "
              "makes (a slot, a slab copy and a wgmma group marked in it)";
  SlotLoop &parts = *maybeParts;
  bool tma = config.getCopy() == CopyKind::Tma;
  // What the producer's register copies read: A and B, or a batched
  // kernel's matrices of this block.
  OpBuilder entry = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Value matrixA = getBlockMatrix(entry, kernel, 0),
        matrixB = getBlockMatrix(entry, kernel, 1);
  bool specialize = config.getSpecialize();
  // (The config's verifier makes a persistent kernel specialized, with the
  // TMA and without split-K.)
  bool persistent = config.getPersistent();
  // A cluster's blocks (the verifier makes it specialized, with the TMA and
  // without split-K; tile-configure gives a 2x1 one an even number of tile
  // rows, a 1x2 one an even number of tile columns).
  int64_t clusterSize = config.getClusterSize();
  bool cluster = clusterSize > 1;
  Value clusterRank =
      cluster ? gpu::ClusterBlockIdOp::create(entry, kernel.getLoc(),
                                              gpu::Dimension::x)
                    .getResult()
              : Value();
  // (The config's verifier makes register copies specialized.)
  scf::ForOp loop = parts.loop;
  Location loc = loop.getLoc();
  MLIRContext *context = &getContext();
  int64_t stages = config.getStages();
  int64_t blockK = config.getBlockK();
  int64_t slabs = ceilDiv(problem.k, blockK);
  int64_t consumers = config.getWarpsM() * config.getWarpsN();
  SharedPlan plan = getKernelSharedPlan(config, problem);
  // A cluster's producers split the boxes of the operand its blocks share
  // between them: B's in a 2x1 cluster (blocks of one tile column), A's in
  // a 1x2 one (of one tile row). The verifier makes that operand's block
  // extent a multiple of 128, so it has an even number of boxes (64-element
  // chunks, or halves of its rows: SharedPlan::boxesA / boxesB).
  StringRef sharedOperand = config.getClusterM() > 1 ? "B" : "A";
  assert(
      (!cluster ||
       (sharedOperand == "A" ? plan.boxesA : plan.boxesB) % clusterSize == 0) &&
      "the verifier gives a cluster's shared operand an even number of "
      "boxes");
  Value threadId;
  kernel.walk([&](gpu::ThreadIdOp op) { threadId = op; });

  OpBuilder b(loop);
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  // The block's K range: all of K (slabs 0 .. slabs - 1 from k = 0), or
  // under split-K its chunk, from the loop's lower bound, with as many
  // slabs as the chunk holds (the last chunk may hold fewer).
  Value kBegin = loop.getLowerBound();
  bool wholeK = isConstantIntValue(getAsOpFoldResult(kBegin), 0);
  Value splitSlabs;
  if (!wholeK)
    splitSlabs = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc, loop.getUpperBound(), kBegin),
            c(blockK - 1)),
        c(blockK));
  auto slabCount = [&](OpBuilder &sb) -> Value {
    return wholeK ? constIndex(sb, loc, slabs) : splitSlabs;
  };
  // Slab k's first element along K.
  auto slabStart = [&](OpBuilder &sb, Value k) -> Value {
    Value offset = arith::MulIOp::create(sb, loc, k, constIndex(sb, loc, blockK));
    if (wholeK)
      return offset;
    return arith::AddIOp::create(sb, loc, kBegin, offset);
  };
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto groupType = nvgpu::MBarrierGroupType::get(context, workgroup, stages);

  // The ring's barriers, made by thread 0 before anything waits on them:
  // "full" counts the TMA's one arrive (plus its bytes) or the producer's
  // 128 arrives; "empty" one arrive per consumer warpgroup (of each block
  // of a cluster: a slot is refilled in both blocks at once).
  Value full = nvgpu::MBarrierCreateOp::create(b, loc, groupType);
  Value empty = nvgpu::MBarrierCreateOp::create(b, loc, groupType);
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, threadId, c(0));
  {
    auto ifInit = scf::IfOp::create(b, loc, isThread0, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInit.thenBlock());
    int64_t fullCount = tma ? 1 : kWarpgroupSize;
    for (int64_t s = 0; s < stages; ++s) {
      nvgpu::MBarrierInitOp::create(b, loc, full, c(fullCount), c(s), Value());
      nvgpu::MBarrierInitOp::create(b, loc, empty,
                                    c(consumers * clusterSize), c(s), Value());
    }
    // The other block of a cluster arrives on these barriers and its TMA
    // completes bytes on them: their initialisation is made visible to
    // the cluster ...
    if (cluster)
      NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  if (cluster) {
    // ... before any block of it goes on.
    NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
  } else {
    gpu::BarrierOp::create(b, loc);
  }

  Value warpgroup = arith::DivUIOp::create(b, loc, threadId, c(kWarpgroupSize));
  Value inGroup = arith::RemUIOp::create(b, loc, threadId, c(kWarpgroupSize));
  Value isLeader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, inGroup, c(0));
  Value trueValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  Block *oldBody = loop.getBody();
  Operation *oldCopy = parts.copy;
  scf::IfOp oldCompute = parts.compute;

  // The mapping every clone of the loop body starts from.
  auto baseMap = [&](Value k0, Value slot) {
    IRMapping map;
    map.map(loop.getInductionVar(), k0);
    map.map(parts.slot.getResult(), slot);
    if (parts.barriers)
      map.map(parts.barriers, full);
    return map;
  };
  // Slab `k` (an index value) into its slot, by the producer or thread 0.
  // Clones the slot's views and the TMA copy, or emits the register copy of
  // the producer's threads.
  auto emitFill = [&](OpBuilder &fb, Value k, Value ring, Value issuer) {
    Value k0 = slabStart(fb, k);
    Value slot =
        arith::RemUIOp::create(fb, loc, ring, constIndex(fb, loc, stages));
    IRMapping map = baseMap(k0, slot);
    if (tma)
      map.map(cast<scf::IfOp>(oldCopy).getCondition(), issuer);
    cloneBody(fb, oldBody, map, [&](Operation &op) {
      if (&op == parts.slot.getOperation())
        return false; // the slot is mapped, not cloned
      return op.isBeforeInBlock(oldCopy) ? !isa<gpu::BarrierOp>(op)
                                         : (&op == oldCopy && tma);
    });
    if (tma && cluster) {
      // The shared operand's boxes (an even number) split between the
      // blocks of the cluster by cluster rank, each multicast into both
      // blocks' slot, on the barrier at the slot's place in each: every
      // block's full barrier still expects the whole slab.
      SmallVector<nvgpu::TmaAsyncLoadOp> boxes;
      map.lookup(oldCopy)->walk([&](nvgpu::TmaAsyncLoadOp load) {
        auto operand = load->getAttrOfType<StringAttr>(kTmaOperandAttrName);
        if (operand && operand.getValue() == sharedOperand)
          boxes.push_back(load);
      });
      for (auto [index, load] : llvm::enumerate(boxes)) {
        OpBuilder lb(load);
        Value mask = arith::ConstantOp::create(
            lb, loc, lb.getI16IntegerAttr((1 << clusterSize) - 1));
        auto ifMine = scf::IfOp::create(
            lb, loc,
            arith::CmpIOp::create(
                lb, loc, arith::CmpIPredicate::eq, clusterRank,
                constIndex(lb, loc, static_cast<int64_t>(index) % clusterSize)),
            false);
        load->moveBefore(ifMine.thenBlock()->getTerminator());
        load.getMulticastMaskMutable().assign(mask);
      }
    }
    if (tma)
      return;
    // Copies through registers by the producer's 128 threads, each
    // arriving on the slot's full barrier after its proxy fence.
    SlabViews views;
    for (Operation &op : oldBody->without_terminator())
      if (auto view = dyn_cast<memref::ViewOp>(op))
        if (auto mark = view->getAttrOfType<StringAttr>(kSharedBufferAttrName))
          (mark.getValue() == "A" ? views.a : views.b) =
              map.lookup(view.getResult());
    Value producerThread = arith::SubIOp::create(
        fb, loc, threadId, constIndex(fb, loc, consumers * kWarpgroupSize));
    SlabSource source{k0, parts.row0, parts.col0, problem};
    emitRegisterSlabCopy(fb, loc, producerThread, kWarpgroupSize, matrixA,
                         matrixB, views, source, config);
    nvgpu::MBarrierArriveOp::create(
        fb, loc, nvgpu::MBarrierTokenType::get(context), full, slot);
  };
  // A consumer warpgroup's release of a slot: an arrive on its empty
  // barrier, and in a cluster on the other block's too (which refills its
  // slot only when this block's consumers are done with it as well: they
  // read the B boxes it multicasts).
  auto release = [&](OpBuilder &rb, Value slot) {
    nvgpu::MBarrierArriveOp::create(
        rb, loc, nvgpu::MBarrierTokenType::get(context), empty, slot);
    if (cluster)
      nvgpu::MBarrierArriveOp::create(
          rb, loc, nvgpu::MBarrierTokenType::get(context), empty, slot)
          ->setAttr(kArriveInPeerAttrName, rb.getUnitAttr());
  };
  // The consumers' iteration for slab `k` of the tile, number `ring` in
  // the ring (the same but in a persistent kernel, whose ring runs on from
  // tile to tile): wait until its slot is full, issue the wgmma group
  // (leaving one group in flight), release the previous slab's slot.
  auto emitConsume = [&](OpBuilder &cb, Value k, Value ring, ValueRange accs) {
    auto cc = [&](int64_t value) { return constIndex(cb, loc, value); };
    Value k0 = slabStart(cb, k);
    Value slot = arith::RemUIOp::create(cb, loc, ring, cc(stages));
    waitParity(
        cb, loc, full, slot,
        parityOf(cb, loc, arith::DivUIOp::create(cb, loc, ring, cc(stages))));
    IRMapping map = baseMap(k0, slot);
    for (auto [old, current] : llvm::zip(loop.getRegionIterArgs(), accs))
      map.map(old, current);
    map.map(oldCompute.getCondition(), trueValue);
    // Everything up to the wgmma group but the copy, the waits, the
    // barriers and the slot itself (which is mapped).
    cloneBody(cb, oldBody, map, [&](Operation &op) {
      if (&op == parts.slot.getOperation() || &op == oldCopy ||
          isa<gpu::BarrierOp, nvgpu::MBarrierTryWaitParityOp>(op))
        return false;
      return &op == oldCompute.getOperation() ||
             op.isBeforeInBlock(oldCompute);
    });
    auto compute = cast<scf::IfOp>(map.lookup(oldCompute.getOperation()));
    compute.walk([](NVVM::WgmmaWaitGroupSyncOp wait) { wait.setGroup(1); });
    // (A persistent kernel's first slab of a tile does not: the tile
    // before released its last slot after its last wgmma group.)
    Value hasPrevious =
        arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::uge, k, cc(1));
    auto ifRelease = scf::IfOp::create(
        cb, loc, arith::AndIOp::create(cb, loc, hasPrevious, isLeader), false);
    {
      OpBuilder::InsertionGuard guard(cb);
      cb.setInsertionPointToStart(ifRelease.thenBlock());
      Value previous = arith::RemUIOp::create(
          cb, loc, arith::SubIOp::create(cb, loc, ring, cc(1)), cc(stages));
      release(cb, previous);
    }
    return compute.getResults();
  };
  // The slot of slab `k` is free once its previous round was released.
  // (From slab S on: the first S slabs find their slots unused.)
  auto waitEmpty = [&](OpBuilder &wb, Value k) {
    auto wc = [&](int64_t value) { return constIndex(wb, loc, value); };
    Value reuse =
        arith::CmpIOp::create(wb, loc, arith::CmpIPredicate::uge, k, wc(stages));
    auto ifReuse = scf::IfOp::create(wb, loc, reuse, false);
    OpBuilder::InsertionGuard guard(wb);
    wb.setInsertionPointToStart(ifReuse.thenBlock());
    Value slot = arith::RemUIOp::create(wb, loc, k, wc(stages));
    Value round = arith::DivUIOp::create(wb, loc, k, wc(stages));
    Value previous = arith::SubIOp::create(wb, loc, round, wc(1));
    waitParity(wb, loc, empty, slot, parityOf(wb, loc, previous));
  };

  // A persistent kernel's loop over tiles, in each role: from the block's
  // id in steps of the grid over the tiles of every matrix, carrying the
  // ring's number of the tile's first slab (each tile has the same slabs).
  // In a cluster: from the cluster's id in steps of the clusters over the
  // pairs of tiles (the tiles of a cluster, tile-block-tile's order).
  int64_t allTiles = numTiles(config, problem) * problem.batch;
  scf::ForOp producerTiles, consumerTiles;
  scf::IfOp rolesIf;
  // Without persistence, returns 0 and leaves `tb` where it is; else
  // creates the role's tile loop (into `tiles`), moves `tb` into its body
  // and returns the ring's number of the tile's first slab.
  auto enterTileLoop = [&](OpBuilder &tb, scf::ForOp &tiles) -> Value {
    if (!persistent)
      return constIndex(tb, loc, 0);
    Value first = cluster ? gpu::ClusterIdOp::create(tb, loc, gpu::Dimension::x)
                                .getResult()
                          : gpu::BlockIdOp::create(tb, loc, gpu::Dimension::x)
                                .getResult();
    Value step = cluster
                     ? gpu::ClusterDimOp::create(tb, loc, gpu::Dimension::x)
                           .getResult()
                     : gpu::GridDimOp::create(tb, loc, gpu::Dimension::x)
                           .getResult();
    tiles = scf::ForOp::create(
        tb, loc, first, constIndex(tb, loc, allTiles / clusterSize), step,
        ValueRange{constIndex(tb, loc, 0)},
        [&](OpBuilder &bb, Location, Value, ValueRange base) {
          scf::YieldOp::create(
              bb, loc,
              ValueRange{arith::AddIOp::create(bb, loc, base[0], slabCount(bb))
                             .getResult()});
        });
    tb.setInsertionPointToStart(tiles.getBody());
    return tiles.getRegionIterArgs()[0];
  };
  // Slab `k` of the tile whose first slab is `base`: its number in the ring.
  auto ringOf = [&](OpBuilder &rb, Value base, Value k) -> Value {
    return persistent ? arith::AddIOp::create(rb, loc, base, k) : k;
  };

  if (specialize) {
    // The block's registers, what ptxas allocates at launch under the
    // kernel's register cap (nvvm.minctasm: at least one block per SM, or
    // the config's occupancy), shared out between the roles; setmaxnreg.inc
    // would wait forever for registers past them. The cost model counts
    // with the same split (warpgroupRegisters).
    WarpgroupRegisters split = warpgroupRegisters(config.toTileConfig());
    if (!split.whyNot.empty())
      return kernel.emitError() << "tile-mbarrier-pipeline: " << split.whyNot
                                << "; lower the occupancy or the warpgroup "
                                   "tile";
    int64_t launchRegs = split.launchRegisters;
    int64_t producerRegs = split.producerRegisters;
    int64_t consumerRegs = split.consumerRegisters;
    // setmaxnreg.inc takes registers from the pool the other role freed,
    // .dec gives them back: a role above the launch count increases.
    auto setRegisters = [&](OpBuilder &rb, int64_t regs) {
      NVVM::SetMaxRegisterOp::create(
          rb, loc, rb.getI32IntegerAttr(regs),
          NVVM::SetMaxRegisterActionAttr::get(
              context, regs > launchRegs ? NVVM::SetMaxRegisterAction::increase
                                         : NVVM::SetMaxRegisterAction::decrease));
    };
    Value isProducer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             warpgroup, c(consumers));
    scf::ForOp consumerLoop;
    auto roles = scf::IfOp::create(
        b, loc, isProducer,
        [&](OpBuilder &pb, Location) {
          setRegisters(pb, producerRegs);
          // With the TMA, the loop (its waits included) runs in the leader
          // alone: the others would only wait, and a thread that falls two
          // or more phases behind on an empty barrier (a warp the scheduler
          // leaves asleep) reads the parity of a later phase and waits
          // forever, so the block never ends. Register copies need all
          // 128 threads, each ordered by its own arrive on the full
          // barrier.
          bool leaderOnly = tma;
          {
            OpBuilder::InsertionGuard guard(pb);
            if (leaderOnly) {
              auto ifLeader = scf::IfOp::create(pb, loc, isLeader, false);
              pb.setInsertionPointToStart(ifLeader.thenBlock());
            }
            // A persistent kernel's tiles, each with its slabs numbered on
            // in the ring from `base`.
            Value base = enterTileLoop(pb, producerTiles);
            scf::ForOp::create(
                pb, loc, constIndex(pb, loc, 0), slabCount(pb),
                constIndex(pb, loc, 1), ValueRange{},
                [&](OpBuilder &lb, Location, Value k, ValueRange) {
                  Value ring = ringOf(lb, base, k);
                  waitEmpty(lb, ring);
                  emitFill(lb, k, ring, leaderOnly ? trueValue : isLeader);
                  scf::YieldOp::create(lb, loc);
                });
          }
          scf::YieldOp::create(pb, loc);
        },
        [&](OpBuilder &cb, Location) {
          setRegisters(cb, consumerRegs);
          OpBuilder::InsertionGuard guard(cb);
          Value base = enterTileLoop(cb, consumerTiles);
          consumerLoop = scf::ForOp::create(
              cb, loc, constIndex(cb, loc, 0), slabCount(cb),
              constIndex(cb, loc, 1), loop.getInitArgs(),
              [&](OpBuilder &lb, Location, Value k, ValueRange accs) {
                scf::YieldOp::create(
                    lb, loc, emitConsume(lb, k, ringOf(lb, base, k), accs));
              });
          consumerLoop->setAttr(kKLoopAttrName, cb.getUnitAttr());
          NVVM::WgmmaWaitGroupSyncOp::create(cb, loc, 0);
          if (persistent) {
            // The tile's last slot is free once its group has retired:
            // released before the epilogue, so that the producer fills S
            // slots of the next tile while the consumers store C.
            auto ifRelease = scf::IfOp::create(cb, loc, isLeader, false);
            OpBuilder::InsertionGuard releaseGuard(cb);
            cb.setInsertionPointToStart(ifRelease.thenBlock());
            Value last = arith::AddIOp::create(
                cb, loc, base,
                arith::SubIOp::create(cb, loc, slabCount(cb),
                                      constIndex(cb, loc, 1)));
            release(cb, arith::RemUIOp::create(cb, loc, last,
                                               constIndex(cb, loc, stages)));
          } else {
            scf::YieldOp::create(cb, loc);
          }
        });
    // The accumulators live in the consumers' registers only: their
    // initialisation (C's loads) and the epilogue move into the consumer
    // branch, where setmaxnreg has given the registers (the producer keeps
    // only a few, and code after the branches would run under both
    // budgets).
    if (persistent) {
      OpBuilder end = OpBuilder::atBlockEnd(roles.elseBlock());
      scf::YieldOp::create(end, loc);
    }
    // Where the consumers' work for one tile goes: the branch, or the body
    // of its tile loop (after the K loop's wait: the epilogue; at its start:
    // the reads the accumulators start from).
    Block *consumerBody =
        persistent ? consumerTiles.getBody() : roles.elseBlock();
    Operation *afterRaise = &roles.elseBlock()->front();
    Block *top = roles->getBlock();
    for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
             std::next(loop->getIterator()), top->without_terminator().end())))
      op.moveBefore(consumerBody->getTerminator());
    loop.replaceAllUsesWith(consumerLoop.getResults());
    // A TMA store's drain waits once, after the last tile (each tile's
    // first box waits for the stores before it).
    if (persistent) {
      SmallVector<Operation *> drains;
      consumerBody->walk([&](scf::IfOp op) {
        if (op->hasAttr(kStoreDrainAttrName))
          drains.push_back(op);
      });
      if (!drains.empty()) {
        OpBuilder db(roles.elseBlock()->getTerminator());
        Value inGroup = arith::RemUIOp::create(
            db, loc, threadId, constIndex(db, loc, kWarpgroupSize));
        auto drain = scf::IfOp::create(
            db, loc,
            arith::CmpIOp::create(db, loc, arith::CmpIPredicate::eq, inGroup,
                                  constIndex(db, loc, 0)),
            false);
        drain->setAttr(kStoreDrainAttrName, db.getUnitAttr());
        db.setInsertionPointToStart(drain.thenBlock());
        NVVM::CpAsyncBulkWaitGroupOp::create(db, loc, db.getI32IntegerAttr(0),
                                             db.getUnitAttr());
        for (Operation *op : drains)
          op->erase();
      }
    }
    SmallVector<Operation *> before;
    for (Operation &op : llvm::make_range(top->begin(), roles->getIterator()))
      before.push_back(&op);
    for (Operation *op : llvm::reverse(before)) {
      if (op->getNumResults() == 0 || op == loop.getOperation())
        continue;
      // (The old loop, erased below, still takes the initial values.)
      bool usedOnlyThere = llvm::all_of(op->getUsers(), [&](Operation *user) {
        return user == loop.getOperation() ||
               roles.getElseRegion().isAncestor(user->getParentRegion());
      });
      std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
          getEffectsRecursively(op);
      bool readsAtMost =
          effects && llvm::all_of(*effects, [](const auto &effect) {
            return isa<MemoryEffects::Read>(effect.getEffect());
          });
      if (usedOnlyThere && readsAtMost) {
        if (persistent)
          op->moveBefore(&consumerBody->front());
        else
          op->moveAfter(afterRaise);
      }
    }
    rolesIf = roles;
  } else {
    // Thread 0 issues slabs 0 .. S-2 before the loop ...
    {
      auto ifPrologue = scf::IfOp::create(b, loc, isThread0, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifPrologue.thenBlock());
      for (int64_t k = 0; k < std::min(stages - 1, slabs); ++k) {
        if (wholeK) {
          emitFill(b, c(k), c(k), trueValue);
          continue;
        }
        // A split-K chunk may hold fewer slabs than the ring's prologue.
        auto ifInRange = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c(k),
                                  splitSlabs),
            false);
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(ifInRange.thenBlock());
        emitFill(b, c(k), c(k), trueValue);
      }
    }
    auto ringLoop = scf::ForOp::create(
        b, loc, c(0), slabCount(b), c(1), loop.getInitArgs(),
        [&](OpBuilder &lb, Location, Value k, ValueRange accs) {
          ValueRange next = emitConsume(lb, k, k, accs);
          // ... and slab k + S - 1, into the slot slab k - 1 leaves (at
          // k = 0, the ring's last slot, not used yet).
          Value ahead = arith::AddIOp::create(lb, loc, k,
                                              constIndex(lb, loc, stages - 1));
          Value issue = arith::AndIOp::create(
              lb, loc, isThread0,
              arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ult, ahead,
                                    slabCount(lb)));
          auto ifIssue = scf::IfOp::create(lb, loc, issue, false);
          {
            OpBuilder::InsertionGuard guard(lb);
            lb.setInsertionPointToStart(ifIssue.thenBlock());
            waitEmpty(lb, ahead);
            emitFill(lb, ahead, ahead, trueValue);
          }
          scf::YieldOp::create(lb, loc, next);
        });
    ringLoop->setAttr(kKLoopAttrName, b.getUnitAttr());
    b.setInsertionPointAfter(ringLoop);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    loop.replaceAllUsesWith(ringLoop.getResults());
  }
  loop.erase();
  // The single slot's barrier (and its initialisation) are no longer used.
  if (parts.barriers) {
    SmallVector<Operation *> users(parts.barriers.getUsers());
    for (Operation *user : users) {
      Operation *parent = user->getParentOp();
      user->erase();
      if (auto ifOp = dyn_cast<scf::IfOp>(parent);
          ifOp && ifOp.getNumResults() == 0 &&
          ifOp.thenBlock()->without_terminator().empty())
        ifOp.erase();
    }
    parts.barriers.getDefiningOp()->erase();
  }
  if (cluster) {
    // No block of a cluster leaves while the other may still arrive on its
    // barriers; the launch takes the cluster's shape from the kernel
    // (.reqnctapercluster): its blocks are consecutive along x, for a 1x2
    // cluster too (tile-block-tile gives them the tiles of their cluster).
    kernel.walk([&](gpu::ReturnOp ret) {
      OpBuilder rb(ret);
      NVVM::ClusterArriveOp::create(rb, loc, UnitAttr());
      NVVM::ClusterWaitOp::create(rb, loc, UnitAttr());
    });
    kernel->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    DenseI32ArrayAttr::get(
                        context, {static_cast<int32_t>(clusterSize), 1, 1}));
  }
  setDynamicSharedBytes(getOperation(), kernel, plan.dynamicBytes);
  eraseDeadOps(kernel.getBody());
  if (persistent) {
    if (failed(makePersistent(kernel, rolesIf, {producerTiles, consumerTiles},
                              problem, config, persistentBlocks, clusterRank,
                              getOperation())))
      return failure();
    eraseDeadOps(kernel.getBody());
  }
  setStage(kernel, KernelStage::Pipelined);
  return success();
}

void TileMbarrierPipelinePass::runOnOperation() {
  if (persistentBlocks < 0 ||
      persistentBlocks > std::numeric_limits<int32_t>::max()) {
    getOperation()->emitError()
        << "tile-mbarrier-pipeline: persistent-blocks must be from 0 (the "
           "chip's) to "
        << std::numeric_limits<int32_t>::max() << ", got "
        << static_cast<int64_t>(persistentBlocks);
    return signalPassFailure();
  }
  FailureOr<SmallVector<gpu::GPUFuncOp>> kernels =
      getKernelsAtStage(getOperation(), KernelStage::Instruction,
                        "tile-mbarrier-pipeline", Strategy::Wgmma);
  if (failed(kernels))
    return signalPassFailure();
  for (gpu::GPUFuncOp kernel : *kernels)
    if (failed(pipeline(kernel)))
      return signalPassFailure();
}

} // namespace
