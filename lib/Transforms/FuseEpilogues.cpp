//===- FuseEpilogues.cpp - elementwise ops after a matmul into its kernel -===//
//
// Marks the elementwise linalg ops that update a matmul's C in place right
// after it as its fused epilogue (Epilogue.h says which fuse) and records
// the program on the matmul; tile-block-tile moves them into the kernel.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEFUSEEPILOGUES
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileFuseEpiloguesPass
    : public mlir::tile::impl::TileFuseEpiloguesBase<TileFuseEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) &&
          !op->getParentOfType<gpu::GPUModuleOp>() &&
          op.hasPureBufferSemantics() && !op->hasAttr(kEpilogueAttrName))
        matmuls.push_back(op);
    });
    for (linalg::LinalgOp matmul : matmuls) {
      FusedEpilogue epilogue;
      Value c = matmul.getDpsInits()[0];
      for (Operation *op = matmul->getNextNode(); op; op = op->getNextNode()) {
        auto user = dyn_cast<linalg::LinalgOp>(op);
        bool usesC = user && llvm::is_contained(op->getOperands(), c);
        if (!usesC) {
          if (isMemoryEffectFree(op))
            continue;
          break;
        }
        if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
            !addEpilogueOp(matmul, user, epilogue).empty())
          break;
      }
      if (epilogue.ops.empty())
        continue;
      for (Operation *op : epilogue.ops)
        op->setAttr(kFusedEpilogueAttrName, UnitAttr::get(&getContext()));
      matmul->setAttr(kEpilogueAttrName,
                      buildEpilogueAttr(&getContext(), epilogue.kinds,
                                        epilogue.steps));
    }
  }
};

} // namespace
