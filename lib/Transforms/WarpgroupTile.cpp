//===- WarpgroupTile.cpp - split the block tile among warpgroups ----------===//
//
// The wgmma strategy's warp-level stage: consumer warpgroup g = tid / 128
// owns the WM x WN sub-tile at ((g / (BN/WN)) * WM, (g mod (BN/WN)) * WN)
// of the block tile. Its part of the slab product (and of the C
// initialisation) runs in the warpgroup's first thread until the
// instruction tile replaces it with wgmma. A producer warpgroup (with
// `specialize`) computes nothing.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"
#include "tile/Transforms/WgmmaSlabs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEWARPGROUPTILE
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileWarpgroupTilePass
    : public mlir::tile::impl::TileWarpgroupTileBase<TileWarpgroupTilePass> {
  void runOnOperation() override;

private:
  LogicalResult tileWarpgroups(gpu::GPUFuncOp kernel);
};

LogicalResult TileWarpgroupTilePass::tileWarpgroups(gpu::GPUFuncOp kernel) {
  ConfigAttr config = getConfig(kernel);
  MatmulProblem problem = *getMatmulProblem(kernel);
  scf::ForOp loop = findKLoop(kernel);
  FailureOr<ScalarSlabProduct> product =
      loop ? findScalarSlabProduct(loop) : FailureOr<ScalarSlabProduct>();
  auto blockC = succeeded(product)
                    ? product->cView.getDefiningOp<memref::SubViewOp>()
                    : nullptr;
  Value threadId;
  kernel.walk([&](gpu::ThreadIdOp op) { threadId = op; });
  if (!blockC || !threadId)
    return kernel.emitError()
           << "tile-warpgroup-tile: kernel body is not the form "
              "tile-promote-shared makes (a K loop whose slab product runs "
              "in an scf.if)";
  Location loc = loop.getLoc();

  // The warpgroup's place, before the K loop (and the C initialisation).
  OpBuilder b(loop);
  scf::IfOp ifFill;
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      if (!ifOp.thenBlock()->empty() &&
          isa<linalg::FillOp>(ifOp.thenBlock()->front())) {
        ifFill = ifOp;
        b.setInsertionPoint(ifFill);
        break;
      }
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Value warpgroup = arith::DivUIOp::create(b, loc, threadId, c(kWarpgroupSize));
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, threadId, c(kWarpgroupSize)), c(0));
  Value consumer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, warpgroup,
                            c(config.getWarpsM() * config.getWarpsN()));
  Value isLeader = arith::AndIOp::create(b, loc, first, consumer);
  auto [row0, col0] = emitWarpOrigin(b, loc, threadId, config);
  auto [rowOffset, rows] = clipToExtent(b, loc, blockC.getMixedSizes()[0],
                                        row0, config.getWarpM());
  auto [colOffset, cols] = clipToExtent(b, loc, blockC.getMixedSizes()[1],
                                        col0, config.getWarpN());
  OpFoldResult one = b.getIndexAttr(1);
  Value warpgroupC = memref::SubViewOp::create(
      b, loc, blockC, {rowOffset, colOffset}, {rows, cols}, {one, one});

  // The warpgroup's leader initialises its part of C.
  if (ifFill) {
    auto fill = cast<linalg::FillOp>(ifFill.thenBlock()->front());
    ifFill.getConditionMutable().assign(isLeader);
    fill.getOutputsMutable().assign(warpgroupC);
  }

  // Under split-K the leader then adds the warpgroup's part of the partial
  // product into its part of C, after the K loop.
  if (AtomicAccumulate accumulate = findAtomicAccumulate(loop))
    narrowAtomicAccumulate(accumulate.ifOp, accumulate.dest, loc,
                           {rowOffset, colOffset}, {rows, cols}, warpgroupC,
                           isLeader);

  // ... and multiplies the warpgroup's rows of the A slab by its columns of
  // the B slab. (Shared reads start at the warpgroup's origin, not at the
  // clipped offset: a warpgroup past the edge has nothing to compute.)
  scf::IfOp ifCompute = product->ifCompute;
  Block *body = ifCompute.thenBlock();
  eraseAllButTerminator(body);
  b.setInsertionPoint(body->getTerminator());
  emitScalarSlabProduct(b, loc, product->views, warpgroupC, row0, col0, rows,
                        cols, product->depth, config, problem.elementType,
                        problem.storedTransposes());
  ifCompute.getConditionMutable().assign(isLeader);
  eraseDeadOps(kernel.getBody());
  setStage(kernel, KernelStage::Warpgroup);
  return success();
}

void TileWarpgroupTilePass::runOnOperation() {
  FailureOr<SmallVector<gpu::GPUFuncOp>> kernels =
      getKernelsAtStage(getOperation(), KernelStage::Shared,
                        "tile-warpgroup-tile", Strategy::Wgmma);
  if (failed(kernels))
    return signalPassFailure();
  for (gpu::GPUFuncOp kernel : *kernels)
    if (failed(tileWarpgroups(kernel)))
      return signalPassFailure();
}

} // namespace
