//===- LowerNVGPU.cpp - nvgpu ops and tile.atomic_addf to NVVM -----===//
//
// Lowers the nvgpu.device_async_copy / _create_group / _wait ops that
// tile-promote-shared makes for cp.async stages to NVVM, with upstream's
// NVGPU-to-NVVM patterns and a type converter that follows the gpu.module's
// data layout (its 32-bit index). Upstream's convert-nvgpu-to-nvvm pass
// converts index to i64 whatever the data layout says, which leaves casts
// between i64 and the i32 index of the rest of the kernel that nothing can
// reconcile. Runs before convert-gpu-to-nvvm, which converts the rest.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILELOWERNVGPU
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
/// An arrive marked tile.arrive_in_peer (tile-mbarrier-pipeline's release
/// of a slot in the other block of a 2-block cluster): the barrier's
/// address in this block's shared memory, mapped to the other block's
/// (mapa, cluster rank ^ 1), and an arrive on that shared::cluster address
/// with the default .release.cta semantics (the consumers only read the
/// slot, through wgmma groups that have retired; .release.cluster made a
/// 4096^3 kernel 1.55x slower, bench/results/2026-12-05-cluster.md).
/// (Upstream's lowering arrives in the block's own shared memory only.)
struct PeerArriveLowering
    : public ConvertOpToLLVMPattern<nvgpu::MBarrierArriveOp> {
  PeerArriveLowering(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(nvgpu::MBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasAttr(tile::kArriveInPeerAttrName))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    MemRefDescriptor barriers(adaptor.getBarriers());
    Value base = barriers.alignedPtr(rewriter, loc);
    auto sharedPtr = cast<LLVM::LLVMPointerType>(base.getType());
    Value local = LLVM::GEPOp::create(rewriter, loc, sharedPtr,
                                      rewriter.getI64Type(), base,
                                      ValueRange{adaptor.getMbarId()});
    Type i32 = rewriter.getI32Type();
    Value rank = NVVM::ClusterId::create(rewriter, loc, i32);
    Value peer = LLVM::XOrOp::create(
        rewriter, loc, rank,
        LLVM::ConstantOp::create(rewriter, loc, i32,
                                 rewriter.getI32IntegerAttr(1)));
    auto clusterPtr = LLVM::LLVMPointerType::get(
        context, static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value remote = NVVM::MapaOp::create(rewriter, loc, clusterPtr, local, peer);
    NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), remote, Value(),
                                   NVVM::MemScopeKind::CTA);
    // (The token is unused: a remote arrive returns none.)
    rewriter.replaceOp(op, LLVM::ConstantOp::create(
                               rewriter, loc, rewriter.getI64Type(),
                               rewriter.getI64IntegerAttr(0)));
    return success();
  }
};

/// tile.atomic_addf: the address of its first element, then one
/// `red.global.add.vN.f32` (the global address space's pointer, through
/// inline PTX: LLVM's NVPTX backend turns an atomicrmw fadd of a vector
/// into a compare-and-swap loop), or one atomicrmw fadd per element.
struct AtomicAddFLowering : public ConvertOpToLLVMPattern<tile::AtomicAddFOp> {
  AtomicAddFLowering(const LLVMTypeConverter &converter, bool vector)
      : ConvertOpToLLVMPattern(converter), vector(vector) {}

  LogicalResult
  matchAndRewrite(tile::AtomicAddFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address =
        getStridedElementPtr(rewriter, loc, op.getMemref().getType(),
                             adaptor.getMemref(), adaptor.getIndices());
    int64_t count = op.getValue().getType().getNumElements();
    SmallVector<Value> elements;
    for (int64_t e = 0; e < count; ++e)
      elements.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, adaptor.getValue(),
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                   rewriter.getI32IntegerAttr(e))));
    if (vector) {
      auto global = LLVM::LLVMPointerType::get(
          rewriter.getContext(),
          static_cast<unsigned>(NVVM::NVVMMemorySpace::Global));
      SmallVector<Value> operands = {
          LLVM::AddrSpaceCastOp::create(rewriter, loc, global, address)};
      llvm::append_range(operands, elements);
      std::string text = "red.global.add.v" + std::to_string(count) +
                         ".f32 [$0], {";
      std::string constraints = "l";
      for (int64_t e = 0; e < count; ++e) {
        text += (e ? ", $" : "$") + std::to_string(e + 1);
        constraints += ",f";
      }
      text += "};";
      constraints += ",~{memory}";
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange{}, operands, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
    } else {
      for (int64_t e = 0; e < count; ++e) {
        Value element =
            e == 0 ? address
                   : LLVM::GEPOp::create(rewriter, loc, address.getType(),
                                         rewriter.getF32Type(), address,
                                         ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(e)});
        LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::fadd,
                                  element, elements[e],
                                  LLVM::AtomicOrdering::monotonic);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  bool vector;
};

struct TileLowerNVGPUPass
    : public mlir::tile::impl::TileLowerNVGPUBase<
          TileLowerNVGPUPass> {
  using TileLowerNVGPUBase::TileLowerNVGPUBase;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    bool any = false;
    module.walk([&](Operation *op) {
      if (isa<nvgpu::NVGPUDialect, tile::TileDialect>(op->getDialect()))
        any = true;
    });
    if (!any)
      return;
    MLIRContext *context = &getContext();
    LowerToLLVMOptions options(context, DataLayout(module));
    LLVMTypeConverter converter(context, options);
    // GPU address spaces to NVVM's, as convert-gpu-to-nvvm maps them.
    configureGpuToNVVMTypeConverter(converter);
    // The async tokens only order the ops in the IR; cp.async groups are
    // implicit in PTX. They become a dummy i32 that the patterns drop.
    converter.addConversion([&](nvgpu::DeviceAsyncTokenType type) -> Type {
      return converter.convertType(IntegerType::get(context, 32));
    });
    // The wgmma strategy's mbarriers (a memref of i64 in shared memory),
    // their tokens, and the TMA's tensor maps (a pointer to the 128-byte
    // CUtensorMap), as upstream's convert-nvgpu-to-nvvm converts them.
    converter.addConversion([&](nvgpu::MBarrierGroupType type) -> Type {
      return converter.convertType(
          nvgpu::getMBarrierMemrefType(context, type));
    });
    converter.addConversion([&](nvgpu::MBarrierTokenType type) -> Type {
      return IntegerType::get(context, 64);
    });
    converter.addConversion([&](nvgpu::TensorMapDescriptorType type) -> Type {
      return LLVM::LLVMPointerType::get(context);
    });
    RewritePatternSet patterns(context);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);
    patterns.add<PeerArriveLowering>(converter);
    patterns.add<AtomicAddFLowering>(converter, vectorAtomics);
    LLVMConversionTarget target(*context);
    // The mbarriers become memref.globals in shared memory, lowered with
    // the rest of the memrefs by convert-gpu-to-nvvm.
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           memref::MemRefDialect, arith::ArithDialect>();
    target.addIllegalDialect<nvgpu::NVGPUDialect, tile::TileDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
