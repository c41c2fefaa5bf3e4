//===- AttachTarget.cpp - an NVVM target per kernel, by strategy ----------===//
//
// wgmma and setmaxnreg exist only for the architecture-specific target
// (sm_90a), while FP32 kernels run on any sm_90 part: each gpu.module gets
// the chip its kernel's strategy needs.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEATTACHTARGET
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileAttachTargetPass
    : public mlir::tile::impl::TileAttachTargetBase<TileAttachTargetPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// Whether the kernel in `module` is of the wgmma strategy.
bool holdsWgmmaKernel(gpu::GPUModuleOp module) {
  bool wgmma = false;
  module.walk([&](Operation *op) {
    if (ConfigAttr config = getConfig(op); config && op->hasAttr(kMatmulAttrName))
      wgmma |= config.isWgmma();
  });
  return wgmma;
}

void TileAttachTargetPass::runOnOperation() {
  MLIRContext *context = &getContext();
  for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
    std::string moduleChip = chip;
    // The architecture-specific variant of the chip (sm_90 -> sm_90a).
    if (holdsWgmmaKernel(module) && !moduleChip.empty() &&
        moduleChip.back() != 'a')
      moduleChip += "a";
    auto target = NVVM::NVVMTargetAttr::get(
        context, optLevel, "nvptx64-nvidia-cuda", moduleChip, features);
    module.setTargetsAttr(ArrayAttr::get(context, {target}));
  }
}

} // namespace
