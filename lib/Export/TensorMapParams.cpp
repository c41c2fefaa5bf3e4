//===- TensorMapParams.cpp - tensor maps as by-value kernel parameters ----===//
//
// A TMA kernel's tensor maps travel as 128-byte __grid_constant__ kernel
// parameters: the runtime encodes them at each launch and the TMA reads
// them through the parameter's generic address, with no copy to device
// memory. MLIR's lowering cannot take !nvgpu.tensormap.descriptor
// parameters, so they become pointers (phase gpu), and the lowered
// llvm.func marks those pointers by-value grid constants (phase llvm).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILETENSORMAPPARAMS
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Bytes and alignment of a CUtensorMap.
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlignment = 64;

struct TileTensorMapParamsPass
    : public mlir::tile::impl::TileTensorMapParamsBase<
          TileTensorMapParamsPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  void retype(gpu::GPUFuncOp kernel);
  void markGridConstants(LLVM::LLVMFuncOp kernel);
};

void TileTensorMapParamsPass::retype(gpu::GPUFuncOp kernel) {
  Block &entry = kernel.getBody().front();
  auto ptrType = LLVM::LLVMPointerType::get(&getContext());
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  OpBuilder b(&entry, entry.begin());
  bool changed = false;
  for (auto [index, type] : llvm::enumerate(inputs)) {
    if (!isa<nvgpu::TensorMapDescriptorType>(type))
      continue;
    BlockArgument arg = entry.getArgument(index);
    // The body keeps the descriptor, now a cast of the pointer.
    arg.setType(ptrType);
    auto cast = UnrealizedConversionCastOp::create(b, kernel.getLoc(),
                                                   TypeRange{type}, arg);
    arg.replaceAllUsesExcept(cast.getResult(0), cast);
    type = ptrType;
    kernel.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(kTensorMapAlignment));
    changed = true;
  }
  if (changed)
    kernel.setFunctionType(b.getFunctionType(inputs, {}));
}

void TileTensorMapParamsPass::markGridConstants(LLVM::LLVMFuncOp kernel) {
  // The lowered tensor-map parameters are the pointers after (A, B, C)
  // that kept their 64-byte alignment mark.
  Builder b(&getContext());
  for (unsigned index = 3; index < kernel.getNumArguments(); ++index) {
    auto align = kernel.getArgAttrOfType<IntegerAttr>(
        index, LLVM::LLVMDialect::getAlignAttrName());
    if (!isa<LLVM::LLVMPointerType>(kernel.getArgument(index).getType()) ||
        !align || align.getInt() != kTensorMapAlignment)
      continue;
    kernel.setArgAttr(
        index, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), kTensorMapBytes)));
    kernel.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                      b.getUnitAttr());
  }
}

void TileTensorMapParamsPass::runOnOperation() {
  if (phase != "gpu" && phase != "llvm") {
    getOperation().emitError()
        << "tile-tensor-map-params: option 'phase' must be gpu or llvm, got '"
        << phase << "'";
    return signalPassFailure();
  }
  if (phase == "gpu") {
    ModuleOp module = getOperation();
    module.walk([&](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        retype(kernel);
    });
    // The host passes the descriptors through the same cast.
    module.walk([&](gpu::LaunchFuncOp launch) {
      OpBuilder b(launch);
      for (OpOperand &operand : launch.getKernelOperandsMutable()) {
        Type type = operand.get().getType();
        if (!isa<nvgpu::TensorMapDescriptorType>(type))
          continue;
        operand.set(UnrealizedConversionCastOp::create(
                        b, launch.getLoc(),
                        TypeRange{LLVM::LLVMPointerType::get(&getContext())},
                        operand.get())
                        .getResult(0));
      }
    });
    return;
  }
  getOperation().walk([&](LLVM::LLVMFuncOp kernel) {
    if (kernel->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
      markGridConstants(kernel);
  });
}

} // namespace
