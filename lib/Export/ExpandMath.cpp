//===- ExpandMath.cpp - math ops of fused epilogues to arith -------------===//
//
// A fused epilogue may compute math.tanh (GELU's tanh form). convert-gpu-
// to-nvvm would make it a call to libdevice's __nv_tanhf, which the exported
// PTX cannot resolve (no libdevice is linked). Upstream's polynomial
// approximation rewrites it into arith and math.fma ops (a rational
// approximation on a clamped input, accurate to a few ulp) that NVVM
// lowers to plain instructions.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEEXPANDMATH
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
struct TileExpandMathPass
    : public mlir::tile::impl::TileExpandMathBase<TileExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateTanhPattern(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Anything left would become an unresolved libdevice call.
    WalkResult left = getOperation().walk([](math::TanhOp op) {
      op.emitOpError() << "was not expanded into arith ops (only f32 tanh "
                          "is; the kernel would call libdevice, which is "
                          "not linked)";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
