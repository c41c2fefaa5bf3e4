//===- DynamicLayoutParams.cpp - dynamic offsets and strides as params ----===//
//
// A kernel operand whose memref type has a dynamic offset or stride
// (`strided<[?, 1], offset: ?>`) cannot be a bare pointer: MLIR's NVVM
// lowering takes only static layouts that way. Each such parameter becomes
// the buffer's bare pointer (a memref of the same shape without a layout)
// plus one i64 parameter per dynamic field, appended after the kernel's
// other parameters; the body rebuilds the operand with
// memref.reinterpret_cast, and every gpu.launch_func passes the pointer
// and the values of its memref.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEDYNAMICLAYOUTPARAMS
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A parameter with a dynamic layout: its index, type, and which of its
/// layout's fields (offset, then the strides outermost first) are dynamic.
struct DynamicParam {
  unsigned index;
  MemRefType type;
  int64_t offset;
  SmallVector<int64_t> strides;
};

/// The parameters of `kernel` whose memref types have a dynamic offset or
/// stride.
SmallVector<DynamicParam> findDynamicParams(gpu::GPUFuncOp kernel) {
  SmallVector<DynamicParam> params;
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || memref.getLayout().isIdentity())
      continue;
    DynamicParam param;
    param.index = index;
    param.type = memref;
    if (failed(memref.getStridesAndOffset(param.strides, param.offset)))
      continue;
    if (!ShapedType::isDynamic(param.offset) &&
        llvm::none_of(param.strides, ShapedType::isDynamic))
      continue;
    params.push_back(param);
  }
  return params;
}

struct TileDynamicLayoutParamsPass
    : public mlir::tile::impl::TileDynamicLayoutParamsBase<
          TileDynamicLayoutParamsPass> {
  using Base::Base;
  void runOnOperation() override;
};

void TileDynamicLayoutParamsPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  auto i64 = IntegerType::get(context, 64);
  llvm::DenseMap<Operation *, SmallVector<DynamicParam>> rewritten;
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    SmallVector<DynamicParam> params = findDynamicParams(kernel);
    if (params.empty())
      return;
    Block &entry = kernel.getBody().front();
    Location loc = kernel.getLoc();
    OpBuilder b(&entry, entry.begin());
    SmallVector<Type> inputs(kernel.getArgumentTypes());
    unsigned numParams = inputs.size();
    for (const DynamicParam &param : params) {
      BlockArgument arg = entry.getArgument(param.index);
      // The bare pointer: the same shape, no layout.
      auto bare = MemRefType::get(param.type.getShape(),
                                  param.type.getElementType(), AffineMap(),
                                  param.type.getMemorySpace());
      arg.setType(bare);
      inputs[param.index] = bare;
      // Each dynamic field: a new i64 parameter, an index in the body.
      auto next = [&]() -> OpFoldResult {
        inputs.push_back(i64);
        BlockArgument value = entry.addArgument(i64, loc);
        return arith::IndexCastOp::create(b, loc, b.getIndexType(), value)
            .getResult();
      };
      OpFoldResult offset = ShapedType::isDynamic(param.offset)
                                ? next()
                                : OpFoldResult(b.getIndexAttr(param.offset));
      SmallVector<OpFoldResult> strides, sizes;
      for (int64_t stride : param.strides)
        strides.push_back(ShapedType::isDynamic(stride)
                              ? next()
                              : OpFoldResult(b.getIndexAttr(stride)));
      for (int64_t size : param.type.getShape())
        sizes.push_back(b.getIndexAttr(size));
      auto view = memref::ReinterpretCastOp::create(b, loc, param.type, arg,
                                                    offset, sizes, strides);
      arg.replaceAllUsesExcept(view.getResult(), view);
    }
    // (The new parameters have no attributes.)
    SmallVector<DictionaryAttr> attrs;
    for (unsigned i = 0; i < inputs.size(); ++i)
      attrs.push_back(i < numParams ? kernel.getArgAttrDict(i)
                                    : DictionaryAttr::get(context));
    kernel.setFunctionType(b.getFunctionType(inputs, {}));
    kernel.setAllArgAttrs(attrs);
    rewritten[kernel] = params;
  });
  if (rewritten.empty())
    return;
  // The host passes each such memref's buffer and its offset and strides.
  module.walk([&](gpu::LaunchFuncOp launch) {
    auto *kernel = SymbolTable::lookupNearestSymbolFrom(
        launch, launch.getKernelAttr());
    auto it = rewritten.find(kernel);
    if (it == rewritten.end())
      return;
    OpBuilder b(launch);
    Location loc = launch.getLoc();
    SmallVector<Value> operands(launch.getKernelOperands());
    SmallVector<Value> values;
    for (const DynamicParam &param : it->second) {
      Value memref = operands[param.index];
      auto metadata =
          memref::ExtractStridedMetadataOp::create(b, loc, memref);
      SmallVector<OpFoldResult> sizes, strides;
      int64_t stride = 1;
      for (int64_t size : llvm::reverse(param.type.getShape())) {
        strides.push_back(b.getIndexAttr(stride));
        stride *= size;
      }
      std::reverse(strides.begin(), strides.end());
      for (int64_t size : param.type.getShape())
        sizes.push_back(b.getIndexAttr(size));
      auto bare = MemRefType::get(param.type.getShape(),
                                  param.type.getElementType(), AffineMap(),
                                  param.type.getMemorySpace());
      operands[param.index] = memref::ReinterpretCastOp::create(
          b, loc, bare, metadata.getBaseBuffer(), b.getIndexAttr(0), sizes,
          strides);
      auto append = [&](Value index) {
        values.push_back(arith::IndexCastOp::create(b, loc, i64, index));
      };
      if (ShapedType::isDynamic(param.offset))
        append(metadata.getOffset());
      for (auto [d, s] : llvm::enumerate(param.strides))
        if (ShapedType::isDynamic(s))
          append(metadata.getStrides()[d]);
    }
    llvm::append_range(operands, values);
    launch.getKernelOperandsMutable().assign(operands);
  });
}

} // namespace
