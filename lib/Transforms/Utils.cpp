//===- Utils.cpp - helpers the tile passes share ----------------------===//

#include "tile/Transforms/Utils.h"
#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/SharedPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

static constexpr std::pair<KernelStage, llvm::StringLiteral> kStageNames[] = {
    {KernelStage::Block, "block"},
    {KernelStage::Shared, "shared"},
    {KernelStage::Warp, "warp"},
    {KernelStage::Thread, "thread"},
    {KernelStage::Warpgroup, "warpgroup"},
    {KernelStage::Instruction, "instruction"},
    {KernelStage::Pipelined, "pipelined"},
};

int mlir::tile::stageRank(KernelStage stage) {
  switch (stage) {
  case KernelStage::Block:
    return 0;
  case KernelStage::Shared:
    return 1;
  case KernelStage::Warp:
  case KernelStage::Warpgroup:
    return 2;
  case KernelStage::Thread:
  case KernelStage::Instruction:
    return 3;
  case KernelStage::Pipelined:
    return 4;
  }
  return 0;
}

StringRef mlir::tile::stringifyStage(KernelStage stage) {
  for (auto [value, name] : kStageNames)
    if (value == stage)
      return name;
  return "unknown";
}

std::optional<KernelStage> mlir::tile::getStage(gpu::GPUFuncOp kernel) {
  auto name = kernel->getAttrOfType<StringAttr>(kStageAttrName);
  if (!name)
    return std::nullopt;
  for (auto [value, text] : kStageNames)
    if (name.getValue() == text)
      return value;
  return std::nullopt;
}

void mlir::tile::setStage(gpu::GPUFuncOp kernel, KernelStage stage) {
  kernel->setAttr(kStageAttrName,
                  StringAttr::get(kernel.getContext(), stringifyStage(stage)));
}

linalg::FillOp mlir::tile::getOutputFill(linalg::MatmulOp matmul) {
  Value output = matmul.getOutputs().front();
  if (auto fill = output.getDefiningOp<linalg::FillOp>())
    return fill;
  auto previous = dyn_cast_or_null<linalg::FillOp>(matmul->getPrevNode());
  if (previous && previous.hasPureBufferSemantics() &&
      previous.getOutputs().front() == output)
    return previous;
  return {};
}

DictionaryAttr mlir::tile::buildMatmulAttr(MLIRContext *context,
                                           const MatmulProblem &problem) {
  Builder b(context);
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("m", b.getI64IntegerAttr(problem.m)),
      b.getNamedAttr("n", b.getI64IntegerAttr(problem.n)),
      b.getNamedAttr("k", b.getI64IntegerAttr(problem.k)),
      b.getNamedAttr("c_init",
                     b.getStringAttr(problem.fill ? "fill" : "accumulate")),
      b.getNamedAttr("element_type", TypeAttr::get(problem.elementType)),
      b.getNamedAttr("c_type", TypeAttr::get(problem.resultType)),
  };
  if (problem.fill)
    entries.push_back(b.getNamedAttr("c_fill", problem.fillValue));
  return b.getDictionaryAttr(entries);
}

std::optional<MatmulProblem>
mlir::tile::getMatmulProblem(Operation *kernel) {
  auto dict = kernel->getAttrOfType<DictionaryAttr>(kMatmulAttrName);
  if (!dict)
    return std::nullopt;
  auto m = dict.getAs<IntegerAttr>("m");
  auto n = dict.getAs<IntegerAttr>("n");
  auto k = dict.getAs<IntegerAttr>("k");
  auto init = dict.getAs<StringAttr>("c_init");
  auto elementType = dict.getAs<TypeAttr>("element_type");
  auto resultType = dict.getAs<TypeAttr>("c_type");
  if (!m || !n || !k || !init || !elementType || !resultType)
    return std::nullopt;
  MatmulProblem problem;
  problem.elementType = elementType.getValue();
  problem.resultType = resultType.getValue();
  problem.m = m.getInt();
  problem.n = n.getInt();
  problem.k = k.getInt();
  problem.fill = init.getValue() == "fill";
  if (problem.fill) {
    problem.fillValue = dict.getAs<FloatAttr>("c_fill");
    if (!problem.fillValue)
      return std::nullopt;
  }
  return problem;
}

FailureOr<SmallVector<gpu::GPUFuncOp>>
mlir::tile::getKernelsAtStage(Operation *root, KernelStage stage,
                              StringRef passName,
                              std::optional<Strategy> strategy) {
  SmallVector<gpu::GPUFuncOp> kernels;
  bool failed = false;
  root->walk([&](gpu::GPUFuncOp kernel) {
    std::optional<KernelStage> current = getStage(kernel);
    if (!current)
      return; // not a kernel of this project
    if (ConfigAttr config = getConfig(kernel);
        strategy && config && config.getStrategy() != *strategy)
      return; // the other strategy's passes lower it
    if (*current == stage) {
      if (!getConfig(kernel) || !getMatmulProblem(kernel)) {
        kernel.emitError() << passName << ": kernel at stage '"
                           << stringifyStage(*current)
                           << "' lacks its 'tile.config' or 'tile.matmul' "
                              "attribute";
        failed = true;
        return;
      }
      kernels.push_back(kernel);
      return;
    }
    if (stageRank(*current) < stageRank(stage)) {
      kernel.emitError() << passName << " expects kernels at stage '"
                         << stringifyStage(stage) << "', but this one is at '"
                         << stringifyStage(*current)
                         << "': run the passes in pipeline order";
      failed = true;
    }
  });
  if (failed)
    return failure();
  return kernels;
}

Value mlir::tile::constIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

std::pair<Value, Value>
mlir::tile::emitSwizzledTileIndex(OpBuilder &b, Location loc, Value blockId,
                                  int64_t tilesM, int64_t tilesN,
                                  int64_t group) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  // Triton's GROUP_M order / CUTLASS's threadblock swizzle.
  Value tilesPerGroup = c(group * tilesN);
  Value groupId = b.createOrFold<arith::DivUIOp>(loc, blockId, tilesPerGroup);
  Value firstRow = b.createOrFold<arith::MulIOp>(loc, groupId, c(group));
  Value rowsLeft = b.createOrFold<arith::SubIOp>(loc, c(tilesM), firstRow);
  Value groupRows = b.createOrFold<arith::MinUIOp>(loc, rowsLeft, c(group));
  Value inGroup = b.createOrFold<arith::RemUIOp>(loc, blockId, tilesPerGroup);
  Value rowInGroup = b.createOrFold<arith::RemUIOp>(loc, inGroup, groupRows);
  Value row = b.createOrFold<arith::AddIOp>(loc, firstRow, rowInGroup);
  Value col = b.createOrFold<arith::DivUIOp>(loc, inGroup, groupRows);
  return {row, col};
}

int64_t mlir::tile::numTiles(ConfigAttr config, const MatmulProblem &problem) {
  return ceilDiv(problem.m, config.getBlockM()) *
         ceilDiv(problem.n, config.getBlockN());
}

int64_t mlir::tile::numBlocks(ConfigAttr config, const MatmulProblem &problem) {
  return numTiles(config, problem) *
         numSplits(config.toTileConfig(), problem.k);
}

void mlir::tile::emitAtomicAccumulate(OpBuilder &b, Location loc, Value from,
                                      Value to) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  Value rows = memref::DimOp::create(b, loc, from, 0);
  Value cols = memref::DimOp::create(b, loc, from, 1);
  scf::ForOp::create(
      b, loc, zero, rows, one, ValueRange{},
      [&](OpBuilder &rb, Location rl, Value i, ValueRange) {
        scf::ForOp::create(
            rb, rl, zero, cols, one, ValueRange{},
            [&](OpBuilder &cb, Location cl, Value j, ValueRange) {
              Value value =
                  memref::LoadOp::create(cb, cl, from, ValueRange{i, j});
              memref::AtomicRMWOp::create(cb, cl, arith::AtomicRMWKind::addf,
                                          value, to, ValueRange{i, j});
              scf::YieldOp::create(cb, cl);
            });
        scf::YieldOp::create(rb, rl);
      });
}

static int64_t largestWidthDividing(int64_t x, int64_t y) {
  for (int64_t width : {4, 2})
    if (x % width == 0 && y % width == 0)
      return width;
  return 1;
}

GlobalVectorWidths
mlir::tile::getGlobalVectorWidths(ConfigAttr config,
                                  const MatmulProblem &problem) {
  GlobalVectorWidths widths;
  widths.a = largestWidthDividing(problem.k, config.getBlockK());
  widths.b = largestWidthDividing(problem.n, config.getBlockN());
  int64_t fragmentB =
      fragmentVectorWidth(config.getThreadN(), config.getBlockN());
  widths.c = largestWidthDividing(problem.n, fragmentB);
  return widths;
}

Value mlir::tile::resolveToRoot(OpBuilder &b, Location loc, Value view,
                                SmallVectorImpl<Value> &indices) {
  while (auto subview = view.getDefiningOp<memref::SubViewOp>()) {
    if (!llvm::all_of(subview.getMixedStrides(), [](OpFoldResult stride) {
          return isConstantIntValue(stride, 1);
        }))
      break;
    if (subview.getSourceType().getRank() != subview.getType().getRank())
      break;
    for (auto [index, offset] :
         llvm::zip_equal(indices, subview.getMixedOffsets())) {
      if (isConstantIntValue(offset, 0))
        continue;
      index = b.createOrFold<arith::AddIOp>(
          loc, getValueOrCreateConstantIndexOp(b, loc, offset), index);
    }
    view = subview.getSource();
  }
  return view;
}

scf::ForOp mlir::tile::findKLoop(gpu::GPUFuncOp kernel) {
  scf::ForOp loop;
  kernel.walk([&](scf::ForOp op) {
    if (op->hasAttr(kKLoopAttrName))
      loop = op;
  });
  return loop;
}

KLoopParts mlir::tile::findKLoopParts(gpu::GPUFuncOp kernel) {
  KLoopParts parts;
  parts.loop = findKLoop(kernel);
  if (!parts.loop)
    return parts;
  parts.loop.walk([&](linalg::MatmulOp op) { parts.matmul = op; });
  if (parts.matmul)
    parts.ifCompute = dyn_cast<scf::IfOp>(parts.matmul->getParentOp());
  if (!parts.ifCompute)
    return parts;
  Value condition = parts.ifCompute.getCondition();
  for (Operation *op = parts.loop->getPrevNode(); op && !parts.ifFill;
       op = op->getPrevNode())
    if (auto candidate = dyn_cast<scf::IfOp>(op);
        candidate && candidate.getCondition() == condition &&
        isa<linalg::FillOp>(candidate.thenBlock()->front()))
      parts.ifFill = candidate;
  for (Operation *op = parts.loop->getNextNode(); op && !parts.ifAccumulate;
       op = op->getNextNode())
    if (auto candidate = dyn_cast<scf::IfOp>(op);
        candidate && candidate.getCondition() == condition)
      parts.ifAccumulate = candidate;
  return parts;
}

void mlir::tile::setDynamicSharedBytes(Operation *root, gpu::GPUFuncOp kernel,
                                       int64_t bytes) {
  Builder b(kernel.getContext());
  kernel->setAttr(kSharedBytesAttrName, b.getI64IntegerAttr(bytes));
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  root->walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() != module.getSymName() ||
        launch.getKernelName() != kernel.getName())
      return;
    OpBuilder host(launch);
    launch.getDynamicSharedMemorySizeMutable().assign(
        arith::ConstantIntOp::create(host, launch.getLoc(), host.getI32Type(),
                                     bytes));
  });
}

/// Last op first, so that an op whose only users were just erased is seen
/// dead too.
static void eraseDeadOpsIn(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
    if (isOpTriviallyDead(&op)) {
      op.erase();
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        eraseDeadOpsIn(nested);
  }
}

void mlir::tile::eraseDeadOps(Region &region) {
  for (Block &block : region)
    eraseDeadOpsIn(block);
}

std::pair<Value, Value> mlir::tile::emitWarpOrigin(OpBuilder &b, Location loc,
                                                   Value threadId,
                                                   ConfigAttr config) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  int64_t unit = config.isWgmma() ? kWarpgroupSize : tile::kWarpSize;
  Value warp = arith::DivUIOp::create(b, loc, threadId, c(unit));
  Value warpM = arith::DivUIOp::create(b, loc, warp, c(config.getWarpsN()));
  Value warpN = arith::RemUIOp::create(b, loc, warp, c(config.getWarpsN()));
  return {arith::MulIOp::create(b, loc, warpM, c(config.getWarpM())),
          arith::MulIOp::create(b, loc, warpN, c(config.getWarpN()))};
}

SmallVector<Type, 2> mlir::tile::getTensorMapTypes(MLIRContext *context,
                                                   ConfigAttr config,
                                                   Type elementType) {
  SharedPlan plan = getSharedPlan(config.toTileConfig(),
                                  elementType.getIntOrFloatBitWidth() / 8);
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<Type, 2> types;
  for (TmaBox box : {plan.boxA, plan.boxB})
    types.push_back(nvgpu::TensorMapDescriptorType::get(
        context,
        MemRefType::get({box.rows, box.cols}, elementType,
                        MemRefLayoutAttrInterface(), workgroup),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE));
  return types;
}

SmallVector<Value, 2> mlir::tile::createTensorMaps(OpBuilder &b, Location loc,
                                                   ConfigAttr config, Value a,
                                                   Value bMat) {
  Type elementType = cast<MemRefType>(a.getType()).getElementType();
  SmallVector<Type, 2> types =
      getTensorMapTypes(b.getContext(), config, elementType);
  SmallVector<Value, 2> maps;
  SmallVector<Value, 2> operands = {a, bMat};
  for (auto [operand, type] : llvm::zip(operands, types)) {
    auto mapType = cast<nvgpu::TensorMapDescriptorType>(type);
    Value unranked = memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(elementType, Attribute()), operand);
    SmallVector<Value> box;
    for (int64_t size : mapType.getTensor().getShape())
      box.push_back(constIndex(b, loc, size));
    maps.push_back(nvgpu::TmaCreateDescriptorOp::create(b, loc, mapType,
                                                        unranked, box));
  }
  return maps;
}

std::pair<OpFoldResult, OpFoldResult>
mlir::tile::clipToExtent(OpBuilder &b, Location loc, OpFoldResult extent,
                         Value origin, int64_t size) {
  if (getConstantIntValue(extent)) // a full block tile: every part is full
    return {origin, b.getIndexAttr(size)};
  Value extentValue = getValueOrCreateConstantIndexOp(b, loc, extent);
  Value offset = arith::MinUIOp::create(b, loc, origin, extentValue);
  Value left = arith::SubIOp::create(b, loc, extentValue, offset);
  Value clipped = arith::MinUIOp::create(b, loc, left, constIndex(b, loc, size));
  return {offset, clipped};
}

std::pair<Value, Value> mlir::tile::findTileOrigin(gpu::GPUFuncOp kernel) {
  Value row, col;
  kernel.walk([&](Operation *op) {
    auto mark = op->getAttrOfType<StringAttr>(kTileOriginAttrName);
    if (!mark || op->getNumResults() != 1)
      return;
    (mark.getValue() == "row" ? row : col) = op->getResult(0);
  });
  return {row, col};
}
