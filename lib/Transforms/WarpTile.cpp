//===- WarpTile.cpp - split the block tile among warps --------------------===//
//
// Warp w = tid / 32 owns the WM x WN sub-tile at ((w / (BN/WN)) * WM,
// (w mod (BN/WN)) * WN) of the block tile. Its part of the slice matmul (and
// of the C initialisation) runs in lane 0 of the warp until thread tiling.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Utils.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEWARPTILE
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileWarpTilePass
    : public mlir::tile::impl::TileWarpTileBase<TileWarpTilePass> {
  void runOnOperation() override;

private:
  LogicalResult tileWarps(gpu::GPUFuncOp kernel);
};

LogicalResult TileWarpTilePass::tileWarps(gpu::GPUFuncOp kernel) {
  ConfigAttr config = getConfig(kernel);
  KLoopParts parts = findKLoopParts(kernel);
  scf::ForOp loop = parts.loop;
  linalg::MatmulOp matmul = parts.matmul;
  scf::IfOp ifCompute = parts.ifCompute;
  auto blockC = matmul
                    ? matmul.getOutputs()[0].getDefiningOp<memref::SubViewOp>()
                    : nullptr;
  auto sliceB =
      matmul ? matmul.getInputs()[1].getDefiningOp<memref::SubViewOp>()
             : nullptr;
  Value threadId;
  kernel.walk([&](gpu::ThreadIdOp op) { threadId = op; });
  if (!ifCompute || !blockC || !sliceB || !threadId)
    return kernel.emitError()
           << "tile-warp-tile: kernel body is not the form "
              "tile-promote-shared makes (a K loop whose slice matmul runs in "
              "an scf.if)";
  Location loc = matmul.getLoc();

  // Warp and lane indices, before the K loop (and the C initialisation).
  OpBuilder b(loop);
  scf::IfOp ifFill = parts.ifFill;
  if (ifFill)
    b.setInsertionPoint(ifFill);
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Value lane = arith::RemUIOp::create(b, loc, threadId, c(tile::kWarpSize));
  auto [warpRow0, warpCol0] = emitWarpOrigin(b, loc, threadId, config);
  auto [rowOffset, warpRows] = clipToExtent(b, loc, blockC.getMixedSizes()[0],
                                         warpRow0, config.getWarpM());
  auto [colOffset, warpCols] = clipToExtent(b, loc, blockC.getMixedSizes()[1],
                                         warpCol0, config.getWarpN());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Value warpC = memref::SubViewOp::create(b, loc, blockC, {rowOffset, colOffset},
                                          {warpRows, warpCols}, {one, one});
  Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        c(0));

  // Lane 0 of each warp initialises the warp's part of C.
  if (ifFill) {
    auto fill = cast<linalg::FillOp>(ifFill.thenBlock()->front());
    ifFill.getConditionMutable().assign(isLane0);
    fill.getOutputsMutable().assign(warpC);
  }

  // Under split-K, lane 0 then adds the warp's part of the partial product
  // into the warp's part of C.
  if (scf::IfOp ifAccumulate = parts.ifAccumulate) {
    memref::AtomicRMWOp atomic;
    ifAccumulate.walk([&](memref::AtomicRMWOp op) { atomic = op; });
    if (!atomic)
      return kernel.emitError() << "tile-warp-tile: thread 0's work after the "
                                   "K loop is not an atomic accumulation";
    narrowAtomicAccumulate(ifAccumulate, atomic.getMemref(), loc,
                           {rowOffset, colOffset}, {warpRows, warpCols}, warpC,
                           isLane0);
  }

  // ... and multiplies the warp's rows of the A slice by its columns of the
  // B slice.
  b.setInsertionPoint(matmul);
  OpFoldResult depth = sliceB.getMixedSizes()[0];
  Value warpA = memref::SubViewOp::create(b, loc, matmul.getInputs()[0],
                                          {rowOffset, zero}, {warpRows, depth},
                                          {one, one});
  Value warpB = memref::SubViewOp::create(b, loc, matmul.getInputs()[1],
                                          {zero, colOffset}, {depth, warpCols},
                                          {one, one});
  auto warpMatmul = linalg::MatmulOp::create(
      b, loc, ValueRange{warpA, warpB}, ValueRange{warpC});
  setConfig(warpMatmul, config);
  matmul.erase();
  ifCompute.getConditionMutable().assign(isLane0);
  eraseDeadOps(kernel.getBody());
  setStage(kernel, KernelStage::Warp);
  return success();
}

void TileWarpTilePass::runOnOperation() {
  FailureOr<SmallVector<gpu::GPUFuncOp>> kernels =
      getKernelsAtStage(getOperation(), KernelStage::Shared, "tile-warp-tile",
                        Strategy::Fma);
  if (failed(kernels))
    return signalPassFailure();
  for (gpu::GPUFuncOp kernel : *kernels)
    if (failed(tileWarps(kernel)))
      return signalPassFailure();
}

} // namespace
