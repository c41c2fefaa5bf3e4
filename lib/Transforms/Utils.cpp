//===- Utils.cpp - helpers the tile passes share ----------------------===//

#include "tile/Transforms/Utils.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/SharedPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <numeric>

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

linalg::FillOp mlir::tile::getOutputFill(linalg::LinalgOp matmul) {
  Value output = matmul.getDpsInits().front();
  if (auto fill = output.getDefiningOp<linalg::FillOp>())
    return fill;
  auto previous = dyn_cast_or_null<linalg::FillOp>(matmul->getPrevNode());
  if (previous && previous.hasPureBufferSemantics() &&
      previous.getOutputs().front() == output)
    return previous;
  return {};
}

FailureOr<std::optional<StridedLayout>>
mlir::tile::getStridedLayout(MemRefType type) {
  if (type.getLayout().isIdentity())
    return std::optional<StridedLayout>();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      (!ShapedType::isDynamic(offset) && offset < 0) ||
      (type.getRank() != 2 && type.getRank() != 3) || strides.back() != 1)
    return failure();
  StridedLayout layout;
  layout.offset = offset;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (!ShapedType::isDynamic(stride) && stride < 1)
      return failure();
  layout.rowStride = strides[strides.size() - 2];
  if (type.getRank() == 3)
    layout.batchStride = strides[0];
  return std::optional<StridedLayout>(layout);
}

int64_t mlir::tile::getElementSpan(ShapedType type) {
  if (llvm::is_contained(type.getShape(), 0))
    return 0;
  auto memref = dyn_cast<MemRefType>(type);
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (!memref || memref.getLayout().isIdentity()) {
    uint64_t elements = 1;
    for (int64_t extent : type.getShape())
      elements = llvm::SaturatingMultiply(elements, uint64_t(extent));
    return int64_t(std::min<uint64_t>(elements, INT64_MAX));
  }
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::numeric_limits<int64_t>::max();
  uint64_t span = llvm::SaturatingAdd(uint64_t(offset), uint64_t(1));
  for (auto [extent, stride] : llvm::zip(type.getShape(), strides))
    span = llvm::SaturatingAdd(
        span, llvm::SaturatingMultiply(uint64_t(extent - 1), uint64_t(stride)));
  return int64_t(std::min<uint64_t>(span, INT64_MAX));
}

MemRefType mlir::tile::getOperandType(ArrayRef<int64_t> shape, Type element,
                                      const std::optional<StridedLayout> &layout) {
  if (!layout)
    return MemRefType::get(shape, element);
  SmallVector<int64_t, 3> strides;
  if (shape.size() == 3)
    strides.push_back(layout->batchStride);
  strides.append({layout->rowStride, 1});
  return MemRefType::get(
      shape, element,
      StridedLayoutAttr::get(element.getContext(), layout->offset, strides));
}

int64_t mlir::tile::layoutAlignment(const std::optional<StridedLayout> &layout,
                                    int64_t elementBytes) {
  if (!layout)
    return 0;
  int64_t assumed = std::max<int64_t>(1, kDynamicLayoutBytes / elementBytes);
  int64_t alignment = 0;
  for (int64_t value : {layout->offset, layout->rowStride, layout->batchStride})
    alignment = std::gcd(alignment,
                         ShapedType::isDynamic(value) ? assumed : value);
  return alignment;
}

StridedLayout mlir::tile::assumedLayout(const StridedLayout &layout,
                                        int64_t rows, int64_t cols,
                                        int64_t elementBytes, bool padded) {
  int64_t step = std::max<int64_t>(1, kDynamicLayoutBytes / elementBytes);
  int64_t pad = padded ? step : 0;
  StridedLayout out = layout;
  if (ShapedType::isDynamic(out.offset))
    out.offset = pad;
  if (ShapedType::isDynamic(out.rowStride))
    out.rowStride = (cols + step - 1) / step * step + pad;
  if (ShapedType::isDynamic(out.batchStride))
    out.batchStride = (rows - 1) * out.rowStride +
                      (cols + step - 1) / step * step + pad;
  return out;
}

/// `layout`, or the dense layout of a batch of `rows` x `cols` matrices.
static StridedLayout effectiveLayout(const std::optional<StridedLayout> &layout,
                                     bool batched, int64_t rows, int64_t cols) {
  if (layout)
    return *layout;
  StridedLayout dense;
  dense.rowStride = cols;
  dense.batchStride = batched ? rows * cols : 0;
  return dense;
}

StridedLayout MatmulProblem::effectiveLayoutA() const {
  auto [rows, cols] = storedShapeA();
  return effectiveLayout(layoutA, batched, rows, cols);
}
StridedLayout MatmulProblem::effectiveLayoutB() const {
  auto [rows, cols] = storedShapeB();
  return effectiveLayout(layoutB, batched, rows, cols);
}
StridedLayout MatmulProblem::effectiveLayoutC() const {
  return effectiveLayout(layoutC, batched, m, n);
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
  if (problem.batched)
    entries.push_back(b.getNamedAttr("batch", b.getI64IntegerAttr(problem.batch)));
  if (problem.transposeA)
    entries.push_back(b.getNamedAttr("transpose_a", b.getBoolAttr(true)));
  if (problem.transposeB)
    entries.push_back(b.getNamedAttr("transpose_b", b.getBoolAttr(true)));
  for (auto [key, layout] :
       {std::pair<StringRef, const std::optional<StridedLayout> *>{
            "layout_a", &problem.layoutA},
        {"layout_b", &problem.layoutB},
        {"layout_c", &problem.layoutC}}) {
    if (!*layout)
      continue;
    // (A dynamic field is -1 in the attribute.)
    auto value = [](int64_t v) { return ShapedType::isDynamic(v) ? -1 : v; };
    SmallVector<int64_t, 3> values = {value((*layout)->offset),
                                      value((*layout)->rowStride)};
    if (problem.batched)
      values.push_back(value((*layout)->batchStride));
    entries.push_back(b.getNamedAttr(key, b.getDenseI64ArrayAttr(values)));
  }
  return b.getDictionaryAttr(entries);
}

/// An error at `op` about its attribute `name`: "<pass>: '<name>' ...".
static InFlightDiagnostic emitAttrError(Operation *op, StringRef passName,
                                        StringRef name) {
  InFlightDiagnostic diag = op->emitError();
  if (!passName.empty())
    diag << passName << ": ";
  diag << "'" << name << "' ";
  return diag;
}

/// `attr` as the IR shows it, or "nothing".
static std::string describe(Attribute attr) {
  if (!attr)
    return "nothing";
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

/// The value of `attr` if it is an integer (signless or index) in
/// [min, max].
static std::optional<int64_t> integerIn(Attribute attr, int64_t min,
                                        int64_t max) {
  auto integer = dyn_cast_or_null<IntegerAttr>(attr);
  if (!integer || !integer.getType().isSignlessIntOrIndex() ||
      integer.getValue().getSignificantBits() > 64)
    return std::nullopt;
  int64_t value = integer.getValue().getSExtValue();
  if (value < min || value > max)
    return std::nullopt;
  return value;
}

/// Largest extent of a problem (tile-configure's limit).
static constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();

FailureOr<MatmulProblem> mlir::tile::getMatmulProblem(Operation *kernel,
                                                      StringRef passName) {
  Attribute attr = kernel->getAttr(kMatmulAttrName);
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  if (!dict) {
    InFlightDiagnostic diag = emitAttrError(kernel, passName, kMatmulAttrName);
    if (!attr)
      return diag << "is missing";
    return diag << "must be a dictionary {m, n, k, element_type, c_type, c_init[, c_fill]}, got "
                << attr;
  }
  MatmulProblem problem;
  for (auto [key, out] : {std::pair<StringRef, int64_t *>{"m", &problem.m},
                          {"n", &problem.n},
                          {"k", &problem.k}}) {
    std::optional<int64_t> value = integerIn(dict.get(key), 1, kMaxExtent);
    if (!value)
      return emitAttrError(kernel, passName, kMatmulAttrName)
             << "needs '" << key << "', an integer from 1 to " << kMaxExtent
             << ", got " << describe(dict.get(key));
    *out = *value;
  }
  if (Attribute batch = dict.get("batch")) {
    std::optional<int64_t> value = integerIn(batch, 1, kMaxBatch);
    if (!value)
      return emitAttrError(kernel, passName, kMatmulAttrName)
             << "needs 'batch', an integer from 1 to " << kMaxBatch
             << " where present, got " << describe(batch);
    problem.batched = true;
    problem.batch = *value;
  }
  auto init = dict.getAs<StringAttr>("c_init");
  if (!init || (init.getValue() != "accumulate" && init.getValue() != "fill"))
    return emitAttrError(kernel, passName, kMatmulAttrName)
           << "needs 'c_init', \"accumulate\" or \"fill\", got "
           << describe(dict.get("c_init"));
  auto elementType = dict.getAs<TypeAttr>("element_type");
  auto resultType = dict.getAs<TypeAttr>("c_type");
  if (!elementType ||
      !isa<Float32Type, BFloat16Type, Float16Type>(elementType.getValue()))
    return emitAttrError(kernel, passName, kMatmulAttrName)
           << "needs 'element_type', f32, bf16 or f16, got "
           << describe(dict.get("element_type"));
  if (!resultType || (!resultType.getValue().isF32() &&
                      resultType.getValue() != elementType.getValue()))
    return emitAttrError(kernel, passName, kMatmulAttrName)
           << "needs 'c_type', f32 or the element type, got "
           << describe(dict.get("c_type"));
  problem.elementType = elementType.getValue();
  problem.resultType = resultType.getValue();
  problem.fill = init.getValue() == "fill";
  if (problem.fill) {
    problem.fillValue = dict.getAs<FloatAttr>("c_fill");
    if (!problem.fillValue ||
        problem.fillValue.getType() != problem.resultType)
      return emitAttrError(kernel, passName, kMatmulAttrName)
             << "needs 'c_fill', a float of c_type ("
             << describe(TypeAttr::get(problem.resultType)) << "), where c_init is \"fill\", got "
             << describe(dict.get("c_fill"));
  }
  for (auto [key, out] :
       {std::pair<StringRef, bool *>{"transpose_a", &problem.transposeA},
        {"transpose_b", &problem.transposeB}}) {
    Attribute value = dict.get(key);
    if (!value)
      continue;
    auto flag = dyn_cast<BoolAttr>(value);
    if (!flag)
      return emitAttrError(kernel, passName, kMatmulAttrName)
             << "needs '" << key << "', a bool where present, got "
             << describe(value);
    *out = flag.getValue();
  }
  for (auto [key, out] :
       {std::pair<StringRef, std::optional<StridedLayout> *>{"layout_a",
                                                             &problem.layoutA},
        {"layout_b", &problem.layoutB},
        {"layout_c", &problem.layoutC}}) {
    Attribute value = dict.get(key);
    if (!value)
      continue;
    auto array = dyn_cast<DenseI64ArrayAttr>(value);
    size_t size = problem.batched ? 3 : 2;
    auto fieldOk = [&](size_t i, int64_t least) {
      return array[i] == -1 || array[i] >= least;
    };
    if (!array || array.size() != static_cast<int64_t>(size) ||
        !fieldOk(0, 0) || !fieldOk(1, 1) ||
        (problem.batched && !fieldOk(2, 1)))
      return emitAttrError(kernel, passName, kMatmulAttrName)
             << "needs '" << key << "', array<i64: offset, row_stride"
             << (problem.batched ? ", batch_stride" : "")
             << "> (offset at least 0, strides at least 1, -1 for a dynamic "
                "one) where present, got "
             << describe(value);
    auto field = [&](size_t i) {
      return array[i] == -1 ? ShapedType::kDynamic : array[i];
    };
    StridedLayout layout;
    layout.offset = field(0);
    layout.rowStride = field(1);
    if (problem.batched)
      layout.batchStride = field(2);
    *out = layout;
  }
  return problem;
}

FailureOr<ConfigAttr> mlir::tile::getKernelConfig(Operation *kernel,
                                                  StringRef passName) {
  Attribute attr = kernel->getAttr(TileDialect::kConfigAttrName);
  if (auto config = dyn_cast_or_null<ConfigAttr>(attr))
    return config;
  return emitAttrError(kernel, passName, TileDialect::kConfigAttrName)
         << "must be a #tile.config, got " << describe(attr);
}

FailureOr<std::optional<int64_t>>
mlir::tile::getDynamicSharedBytes(Operation *kernel, StringRef passName) {
  Attribute attr = kernel->getAttr(kSharedBytesAttrName);
  if (!attr)
    return std::optional<int64_t>();
  std::optional<int64_t> bytes = integerIn(attr, 0, kMaxExtent);
  if (!bytes)
    return emitAttrError(kernel, passName, kSharedBytesAttrName)
           << "must be an integer from 0 to " << kMaxExtent << ", got " << attr;
  return bytes;
}

FailureOr<std::optional<int64_t>>
mlir::tile::getCAlignment(Operation *kernel, StringRef passName) {
  Attribute attr = kernel->getAttr(kCAlignmentAttrName);
  if (!attr)
    return std::optional<int64_t>();
  std::optional<int64_t> bytes = integerIn(attr, 2, 16);
  if (!bytes || !llvm::isPowerOf2_64(*bytes))
    return emitAttrError(kernel, passName, kCAlignmentAttrName)
           << "must be 2, 4, 8 or 16 (bytes), got " << attr;
  return bytes;
}

FailureOr<DictionaryAttr> mlir::tile::getPtxasReport(Operation *module,
                                                     StringRef passName) {
  Attribute attr = module->getAttr(kPtxasAttrName);
  if (!attr)
    return DictionaryAttr();
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict || !llvm::all_of(dict, [](NamedAttribute entry) {
        return integerIn(entry.getValue(), std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::max())
            .has_value();
      }))
    return emitAttrError(module, passName, kPtxasAttrName)
           << "must be a dictionary of integers (registers, spill_stores, "
              "spill_loads, stack_bytes), got "
           << attr;
  return dict;
}

/// Whether `type` is memref<rows x cols x element> with `layout` (none: no
/// layout attribute) and no memory space.
static bool isOperandType(Type type, int64_t rows, int64_t cols,
                          Type element, std::optional<int64_t> batch = {},
                          const std::optional<StridedLayout> &layout = {}) {
  SmallVector<int64_t, 3> shape;
  if (batch)
    shape.push_back(*batch);
  shape.append({rows, cols});
  return type == getOperandType(shape, element, layout);
}

/// A kernel at its pass's stage has a well-formed config and problem, and
/// parameters (A, B, C) of the problem's shapes and types, followed by the
/// tensor maps of A and B where the config copies with TMA.
static LogicalResult checkKernel(gpu::GPUFuncOp kernel, StringRef passName) {
  FailureOr<ConfigAttr> config = getKernelConfig(kernel, passName);
  if (failed(config))
    return failure();
  FailureOr<MatmulProblem> problem = getMatmulProblem(kernel, passName);
  if (failed(problem))
    return failure();
  bool tma = config->getCopy() == CopyKind::Tma;
  ArrayRef<Type> inputs = kernel.getFunctionType().getInputs();
  // (A batched kernel's maps are 3-d, the batch outermost.)
  auto isTensorMap = [&](Type type) {
    auto map = dyn_cast<nvgpu::TensorMapDescriptorType>(type);
    return map && map.getTensor().getRank() == (problem->batched ? 3 : 2);
  };
  // A fused epilogue's operands come after C (Epilogue.h).
  size_t epilogue = 0;
  if (Attribute attr = kernel->getAttr(kEpilogueAttrName)) {
    SmallVector<EpilogueOperandKind> kinds;
    std::vector<std::string> steps;
    std::string error;
    if (!readEpilogueAttr(attr, kinds, steps, error))
      return emitAttrError(kernel, passName, kEpilogueAttrName)
             << "(the fused epilogue) " << error;
    epilogue = kinds.size();
    if (!problem->batched && cast<DictionaryAttr>(attr).get("per_batch"))
      return emitAttrError(kernel, passName, kEpilogueAttrName)
             << "(the fused epilogue) has per_batch, but the kernel is not "
                "batched";
    for (auto [j, kind] : llvm::enumerate(kinds)) {
      if (inputs.size() <= 3 + j)
        break;
      int64_t rows = kind == EpilogueOperandKind::Col ? 1 : problem->m;
      int64_t cols = kind == EpilogueOperandKind::Row ? 1 : problem->n;
      // One per batch (per_batch) has the batch first.
      auto type = dyn_cast<MemRefType>(inputs[3 + j]);
      std::optional<int64_t> perBatch;
      if (isPerBatchEpilogueOperand(attr, j))
        perBatch = problem->batch;
      std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
      if (perBatch)
        shape = std::to_string(*perBatch) + "x" + shape;
      std::optional<StridedLayout> layout = getEpilogueOperandLayout(attr, j);
      if (!type || !isOperandType(inputs[3 + j], rows, cols,
                                  type.getElementType(), perBatch, layout))
        return kernel.emitError()
               << passName << ": kernel parameter " << 3 + j
               << " must be the fused epilogue's "
               << (perBatch ? "per-batch " : "") << stringifyEpilogueKind(kind)
               << " operand, a memref<" << shape << "x...>"
               << (layout ? " with the layout its layouts entry gives" : "")
               << ", got " << inputs[3 + j];
    }
  }
  size_t maps = 3 + epilogue;
  std::optional<int64_t> matrices;
  if (problem->batched)
    matrices = problem->batch;
  auto [rowsA, colsA] = problem->storedShapeA();
  auto [rowsB, colsB] = problem->storedShapeB();
  // A TMA store's kernel takes C's map after A's and B's.
  bool tmaStore = tma && config->getConfig().tmaStore;
  size_t mapCount = tma ? (tmaStore ? 3 : 2) : 0;
  if (inputs.size() == 3u + mapCount + epilogue &&
      isOperandType(inputs[0], rowsA, colsA, problem->elementType,
                    matrices, problem->layoutA) &&
      isOperandType(inputs[1], rowsB, colsB, problem->elementType,
                    matrices, problem->layoutB) &&
      isOperandType(inputs[2], problem->m, problem->n, problem->resultType,
                    matrices, problem->layoutC) &&
      (!tma || (isTensorMap(inputs[maps]) && isTensorMap(inputs[maps + 1]))) &&
      (!tmaStore || isTensorMap(inputs[maps + 2]))) {
    // A TMA store writes each consumer warpgroup's tile of C in boxes of
    // 64 rows by 128 bytes.
    int64_t boxCols = kSwizzleRowBytes / problem->resultBytes();
    if (tmaStore && config->getWarpN() % boxCols != 0)
      return kernel.emitError()
             << passName << ": 'tile.config' has store = tma, which writes C "
             << boxCols << " " << problem->resultType
             << " columns (128 bytes) at a time, but warpgroup tile N = "
             << config->getWarpN() << " is not a multiple of " << boxCols;
    return success();
  }
  std::string expected;
  llvm::raw_string_ostream os(expected);
  auto shapeOf = [&](int64_t rows, int64_t cols) {
    SmallVector<int64_t, 3> shape;
    if (matrices)
      shape.push_back(*matrices);
    shape.append({rows, cols});
    return shape;
  };
  os << getOperandType(shapeOf(rowsA, colsA), problem->elementType,
                       problem->layoutA)
     << ", "
     << getOperandType(shapeOf(rowsB, colsB), problem->elementType,
                       problem->layoutB)
     << ", "
     << getOperandType(shapeOf(problem->m, problem->n), problem->resultType,
                       problem->layoutC)
     << (!tma ? ""
         : problem->batched
             ? ", !nvgpu.tensormap.descriptor (3-d), "
               "!nvgpu.tensormap.descriptor (3-d)"
             : ", !nvgpu.tensormap.descriptor, !nvgpu.tensormap.descriptor")
     << (!tmaStore          ? ""
         : problem->batched ? ", !nvgpu.tensormap.descriptor (3-d)"
                            : ", !nvgpu.tensormap.descriptor");
  InFlightDiagnostic diag = kernel.emitError();
  diag << passName << ": kernel parameters must be (A, B, C"
       << (epilogue ? ", the fused epilogue's operands" : "")
       << (tma ? ", tensor map of A, tensor map of B" : "")
       << (tmaStore ? ", tensor map of C" : "") << ") of types "
       << expected << " as 'tile.matmul' and 'tile.config' say, got (";
  llvm::interleaveComma(inputs, diag);
  return diag << ")";
}

FailureOr<SmallVector<gpu::GPUFuncOp>>
mlir::tile::getKernelsAtStage(Operation *root, KernelStage stage,
                              StringRef passName,
                              std::optional<Strategy> strategy) {
  SmallVector<gpu::GPUFuncOp> kernels;
  bool failed = false;
  root->walk([&](gpu::GPUFuncOp kernel) {
    std::optional<KernelStage> current = getStage(kernel);
    if (!current) {
      // Not a kernel of this project, unless it says it is one.
      if (Attribute attr = kernel->getAttr(kStageAttrName)) {
        InFlightDiagnostic diag =
            emitAttrError(kernel, passName, kStageAttrName)
            << "must be one of ";
        llvm::interleaveComma(kStageNames, diag, [&](const auto &entry) {
          diag << "\"" << entry.second << "\"";
        });
        diag << ", got " << attr;
        failed = true;
      }
      return;
    }
    if (ConfigAttr config = getConfig(kernel);
        strategy && config && config.getStrategy() != *strategy)
      return; // the other strategy's passes lower it
    if (*current == stage) {
      if (!kernel->hasAttr(TileDialect::kConfigAttrName) ||
          !kernel->hasAttr(kMatmulAttrName)) {
        kernel.emitError() << passName << ": kernel at stage '"
                           << stringifyStage(*current)
                           << "' lacks its 'tile.config' or 'tile.matmul' "
                              "attribute";
        failed = true;
        return;
      }
      if (::mlir::failed(checkKernel(kernel, passName))) {
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
  // A group of more rows than the grid has is the whole grid (the order is
  // the same), and group * tilesN stays in range.
  group = std::min(group, tilesM);
  // Triton's GROUP_M order / CUTLASS's threadblock swizzle. Every divisor
  // is a constant: a group has `group` rows but the last, whose row count
  // is known too, so the row and column in the group are a select between
  // two divisions by constants (multiplies and shifts). A division by a
  // value would be a subroutine call in SASS, and ptxas moves reads of
  // wgmma accumulators above the wait for their group when such a call
  // lies between the group and the wait: where a persistent kernel
  // computes the next tile's origin (found on the GPU: wrong elements in
  // the first columns of a tile's accumulator fragments).
  Value tilesPerGroup = c(group * tilesN);
  Value groupId = b.createOrFold<arith::DivUIOp>(loc, blockId, tilesPerGroup);
  Value firstRow = b.createOrFold<arith::MulIOp>(loc, groupId, c(group));
  Value inGroup = b.createOrFold<arith::RemUIOp>(loc, blockId, tilesPerGroup);
  Value rowInGroup = b.createOrFold<arith::RemUIOp>(loc, inGroup, c(group));
  Value col = b.createOrFold<arith::DivUIOp>(loc, inGroup, c(group));
  if (int64_t lastRows = tilesM % group) {
    Value isLast = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, groupId, c(tilesM / group));
    rowInGroup = b.createOrFold<arith::SelectOp>(
        loc, isLast,
        b.createOrFold<arith::RemUIOp>(loc, inGroup, c(lastRows)),
        rowInGroup);
    col = b.createOrFold<arith::SelectOp>(
        loc, isLast, b.createOrFold<arith::DivUIOp>(loc, inGroup, c(lastRows)),
        col);
  }
  Value row = b.createOrFold<arith::AddIOp>(loc, firstRow, rowInGroup);
  return {row, col};
}

/// a * b for a, b >= 0, or INT64_MAX where the product does not fit.
static int64_t saturatingProduct(int64_t a, int64_t b) {
  bool overflow = false;
  uint64_t product = llvm::SaturatingMultiply<uint64_t>(a, b, &overflow);
  if (overflow || product > uint64_t(std::numeric_limits<int64_t>::max()))
    return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(product);
}

int64_t mlir::tile::numTiles(ConfigAttr config, const MatmulProblem &problem) {
  return saturatingProduct(ceilDiv(problem.m, config.getBlockM()),
                           ceilDiv(problem.n, config.getBlockN()));
}

int64_t mlir::tile::numBlocks(ConfigAttr config, const MatmulProblem &problem) {
  TileConfig tc = config.toTileConfig();
  int64_t tiles = numTiles(config, problem);
  int64_t splits = numSplits(tc, problem.k);
  if (tc.splitLast > 0 && tiles <= std::numeric_limits<int32_t>::max() &&
      splits > 1)
    return blocksPerMatrix(tc, tiles, problem.k);
  return saturatingProduct(tiles, splits);
}

std::pair<int64_t, int64_t>
mlir::tile::launchGrid(ConfigAttr config, const MatmulProblem &problem,
                       int64_t resident) {
  if (!config.toTileConfig().persistent)
    return {numBlocks(config, problem), problem.batch};
  if (resident <= 0)
    resident = lookupChip("sm_90")->numSMs *
               std::max<int64_t>(1, config.toTileConfig().minBlocksPerSM);
  int64_t blocks = std::min(
      saturatingProduct(numBlocks(config, problem), problem.batch), resident);
  // Whole clusters (the tiles are whole clusters' worth: tile-configure
  // pairs the tile rows, or columns).
  int64_t cluster = config.toTileConfig().clusterSize();
  blocks = std::max(cluster, blocks - blocks % cluster);
  return {blocks, 1};
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

AtomicAccumulate mlir::tile::findAtomicAccumulate(Operation *loop) {
  AtomicAccumulate result;
  for (Operation *op = loop->getNextNode(); op && !result;
       op = op->getNextNode())
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      ifOp.walk([&](memref::AtomicRMWOp rmw) {
        result.ifOp = ifOp;
        result.dest = rmw.getMemref();
      });
  return result;
}

void mlir::tile::narrowAtomicAccumulate(scf::IfOp ifAccumulate, Value dest,
                                        Location loc,
                                        ArrayRef<OpFoldResult> offsets,
                                        ArrayRef<OpFoldResult> sizes,
                                        Value partial, Value condition) {
  OpBuilder b(ifAccumulate);
  OpFoldResult one = b.getIndexAttr(1);
  Value window =
      memref::SubViewOp::create(b, loc, dest, offsets, sizes, {one, one});
  Block *body = ifAccumulate.thenBlock();
  eraseAllButTerminator(body);
  b.setInsertionPoint(body->getTerminator());
  emitAtomicAccumulate(b, loc, partial, window);
  ifAccumulate.getConditionMutable().assign(condition);
}

void mlir::tile::eraseAllButTerminator(Block *block) {
  while (&block->front() != block->getTerminator())
    block->getTerminator()->getPrevNode()->erase();
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
  int64_t inputBytes = problem.elementBytes();
  int64_t resultBytes = problem.resultBytes();
  SharedPlan plan = getKernelSharedPlan(config, problem);
  // A strided operand's vectors must also stay aligned to its offset and
  // strides (std::gcd(x, 0) is x: a dense operand's rows decide alone).
  auto rowA = [&](int64_t cols) {
    return std::gcd(cols, layoutAlignment(problem.layoutA, inputBytes));
  };
  auto rowB = [&](int64_t cols) {
    return std::gcd(cols, layoutAlignment(problem.layoutB, inputBytes));
  };
  // A transposed A is stored in shared memory with the same vectors, in
  // rows of BM plus the pad, which must keep them aligned too.
  widths.a =
      problem.transposeA
          ? largestWidthDividing(rowA(problem.m), std::gcd(config.getBlockM(),
                                                           plan.rowElementsA))
          : largestWidthDividing(rowA(problem.k), config.getBlockK());
  // An fma kernel with repack = true reads B's padded copy, whose rows are
  // on 16 bytes.
  int64_t repackedB = getFmaRepackRowStride(config, problem);
  widths.b = problem.transposeB
                 ? largestWidthDividing(rowB(problem.k), config.getBlockK())
             : repackedB
                 ? largestWidthDividing(repackedB, config.getBlockN())
                 : largestWidthDividing(rowB(problem.n), config.getBlockN());
  // C is stored in the lanes' B fragment vectors (or parts of them); a B
  // stored N x K has padded rows in shared memory, which may narrow them.
  int64_t fragmentB =
      fragmentVectorWidth(config.getThreadN(), plan.rowElementsB);
  widths.c = largestWidthDividing(
      std::gcd(problem.n, layoutAlignment(problem.layoutC, resultBytes)),
      fragmentB);
  return widths;
}

SharedPlan mlir::tile::getKernelSharedPlan(ConfigAttr config,
                                           const MatmulProblem &problem) {
  return getSharedPlan(config.toTileConfig(), problem.elementBytes(),
                       problem.storedTransposes());
}

int64_t mlir::tile::getFmaRepackRowStride(ConfigAttr config,
                                          const MatmulProblem &problem) {
  return config && !config.isWgmma() && config.getConfig().repack
             ? fmaRepackRowStride(getModelShape(problem))
             : 0;
}

Value mlir::tile::resolveToRoot(OpBuilder &b, Location loc, Value view,
                                SmallVectorImpl<Value> &indices,
                                bool throughRankReducing) {
  while (auto subview = view.getDefiningOp<memref::SubViewOp>()) {
    if (!llvm::all_of(subview.getMixedStrides(), [](OpFoldResult stride) {
          return isConstantIntValue(stride, 1);
        }))
      break;
    // A rank-reducing subview (a batched kernel's matrix) drops unit
    // dimensions: their index is the offset alone.
    if (!throughRankReducing &&
        subview.getSourceType().getRank() != subview.getType().getRank())
      break;
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<Value> sourceIndices;
    auto next = indices.begin();
    for (auto [dim, offset] : llvm::enumerate(subview.getMixedOffsets())) {
      if (dropped.test(dim)) {
        sourceIndices.push_back(getValueOrCreateConstantIndexOp(b, loc, offset));
        continue;
      }
      Value index = *next++;
      sourceIndices.push_back(
          isConstantIntValue(offset, 0)
              ? index
              : b.createOrFold<arith::AddIOp>(
                    loc, getValueOrCreateConstantIndexOp(b, loc, offset),
                    index));
    }
    indices.assign(sourceIndices.begin(), sourceIndices.end());
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

void mlir::tile::forEachLaunchOf(
    Operation *root, gpu::GPUFuncOp kernel,
    llvm::function_ref<void(gpu::LaunchFuncOp)> fn) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  root->walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() == module.getSymName() &&
        launch.getKernelName() == kernel.getName())
      fn(launch);
  });
}

void mlir::tile::setDynamicSharedBytes(Operation *root, gpu::GPUFuncOp kernel,
                                       int64_t bytes) {
  Builder b(kernel.getContext());
  kernel->setAttr(kSharedBytesAttrName, b.getI64IntegerAttr(bytes));
  forEachLaunchOf(root, kernel, [&](gpu::LaunchFuncOp launch) {
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
                                                   Type elementType,
                                                   StoredTransposes stored,
                                                   bool batched,
                                                   Type resultType) {
  SharedPlan plan = getSharedPlan(config.toTileConfig(),
                                  elementType.getIntOrFloatBitWidth() / 8,
                                  stored);
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<Type, 2> types;
  for (TmaBox box : {plan.boxA, plan.boxB}) {
    SmallVector<int64_t, 3> shape;
    if (batched)
      shape.push_back(1);
    shape.append({box.rows, box.cols});
    types.push_back(nvgpu::TensorMapDescriptorType::get(
        context,
        MemRefType::get(shape, elementType,
                        MemRefLayoutAttrInterface(), workgroup),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        // 128-byte L2 promotion: as fast as 256 bytes on 128-byte lines,
        // 12% faster where rows are off them, 4-5% on batched kernels
        // (bench/results/2026-12-06-h100-l2-promotion.md). tile-export
        // writes the same into the manifest.
        nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE));
  }
  // A TMA store's map of C: one staging buffer, 64 rows by a 128-byte
  // swizzle row (32 f32 or 64 bf16/f16 columns); what lies past C's edges
  // is not written.
  if (config.getConfig().tmaStore && resultType) {
    SmallVector<int64_t, 3> shape;
    if (batched)
      shape.push_back(1);
    shape.append({kStagingRows,
                  kSwizzleRowBytes / (resultType.getIntOrFloatBitWidth() / 8)});
    types.push_back(nvgpu::TensorMapDescriptorType::get(
        context,
        MemRefType::get(shape, resultType, MemRefLayoutAttrInterface(),
                        workgroup),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE));
  }
  return types;
}

SmallVector<Value, 2> mlir::tile::createTensorMaps(OpBuilder &b, Location loc,
                                                   ConfigAttr config, Value a,
                                                   Value bMat,
                                                   StoredTransposes stored,
                                                   Value cMat) {
  auto aType = cast<MemRefType>(a.getType());
  Type resultType =
      cMat ? cast<MemRefType>(cMat.getType()).getElementType() : Type();
  SmallVector<Type, 2> types =
      getTensorMapTypes(b.getContext(), config, aType.getElementType(),
                        stored, aType.getRank() == 3, resultType);
  SmallVector<Value, 2> maps;
  SmallVector<Value, 3> operands = {a, bMat};
  if (types.size() == 3)
    operands.push_back(cMat);
  for (auto [operand, type] : llvm::zip(operands, types)) {
    auto mapType = cast<nvgpu::TensorMapDescriptorType>(type);
    Type elementType = cast<MemRefType>(operand.getType()).getElementType();
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

Value mlir::tile::getBlockMatrix(OpBuilder &b, gpu::GPUFuncOp kernel,
                                unsigned index, Value batchId) {
  Value arg = kernel.getArgument(index);
  auto type = cast<MemRefType>(arg.getType());
  if (type.getRank() != 3)
    return arg;
  Block &entry = kernel.getBody().front();
  auto isBlockY = [](OpFoldResult offset) {
    auto value = dyn_cast<Value>(offset);
    auto id = value ? value.getDefiningOp<gpu::BlockIdOp>() : nullptr;
    return id && id.getDimension() == gpu::Dimension::y;
  };
  for (Operation *user : arg.getUsers())
    if (auto matrix = dyn_cast<memref::SubViewOp>(user))
      if (matrix->getBlock() == &entry && matrix.getType().getRank() == 2 &&
          isBlockY(matrix.getMixedOffsets()[0]) &&
          matrix.hasUnitStride() &&
          matrix.getStaticSizes() ==
              ArrayRef<int64_t>{1, type.getDimSize(1), type.getDimSize(2)})
        return matrix;
  Location loc = kernel.getLoc();
  if (!batchId)
    batchId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  SmallVector<OpFoldResult> offsets = {batchId, b.getIndexAttr(0),
                                       b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                     b.getIndexAttr(type.getDimSize(1)),
                                     b.getIndexAttr(type.getDimSize(2))};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  auto matrixType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().drop_front(), type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(matrixType), arg,
                                   offsets, sizes, strides);
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

int64_t mlir::tile::largestOperandSpan(const MatmulProblem &problem) {
  // (Saturating: tile-configure refuses operands of 2^63 elements and
  // more, but tile-block-tile may run on a config written by hand.) A
  // dynamic offset or stride may take any value at launch.
  if (problem.hasDynamicLayout())
    return std::numeric_limits<int64_t>::max();
  auto span = [&](StridedLayout layout, std::pair<int64_t, int64_t> stored) {
    uint64_t total = llvm::SaturatingAdd(
        static_cast<uint64_t>(layout.offset),
        llvm::SaturatingMultiply(static_cast<uint64_t>(problem.batch - 1),
                                 static_cast<uint64_t>(layout.batchStride)));
    total = llvm::SaturatingAdd(
        total, llvm::SaturatingMultiply(
                   static_cast<uint64_t>(stored.first - 1),
                   static_cast<uint64_t>(layout.rowStride)));
    return llvm::SaturatingAdd(total, static_cast<uint64_t>(stored.second));
  };
  uint64_t largest =
      std::max({span(problem.effectiveLayoutA(), problem.storedShapeA()),
                span(problem.effectiveLayoutB(), problem.storedShapeB()),
                span(problem.effectiveLayoutC(), {problem.m, problem.n})});
  return largest > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
             ? std::numeric_limits<int64_t>::max()
             : static_cast<int64_t>(largest);
}

MatmulShape mlir::tile::getModelShape(const MatmulProblem &problem) {
  MatmulShape shape;
  shape.m = problem.m;
  shape.n = problem.n;
  shape.k = problem.k;
  shape.batch = problem.batch;
  shape.elementBytes = problem.elementBytes();
  shape.resultBytes = problem.resultBytes();
  shape.readsC = !problem.fill;
  shape.f16 = problem.elementType && problem.elementType.isF16();
  shape.layoutAlignA = layoutAlignment(problem.layoutA, shape.elementBytes);
  shape.layoutAlignB = layoutAlignment(problem.layoutB, shape.elementBytes);
  shape.layoutAlignC = layoutAlignment(problem.layoutC, shape.resultBytes);
  shape.overlapRowsA = problem.overlapRowsA();
  shape.overlapRowsB = problem.overlapRowsB();
  // (The models see a dynamic offset or stride as its densest value.)
  if (problem.layoutA) {
    auto [rows, cols] = problem.storedShapeA();
    StridedLayout a = assumedLayout(*problem.layoutA, rows, cols,
                                    shape.elementBytes, /*padded=*/false);
    shape.offsetA = a.offset;
    shape.rowStrideA = a.rowStride;
  }
  if (problem.layoutB) {
    auto [rows, cols] = problem.storedShapeB();
    StridedLayout b = assumedLayout(*problem.layoutB, rows, cols,
                                    shape.elementBytes, /*padded=*/false);
    shape.offsetB = b.offset;
    shape.rowStrideB = b.rowStride;
  }
  shape.transposeA = problem.transposeA;
  shape.transposeB = problem.transposeB;
  shape.offsets64 =
      largestOperandSpan(problem) > std::numeric_limits<int32_t>::max();
  return shape;
}

std::optional<BlockView> mlir::tile::findBlockView(Value operand, bool transposed) {
  BlockView view;
  if (transposed) {
    view.transpose = operand.getDefiningOp<memref::TransposeOp>();
    if (!view.transpose)
      return std::nullopt;
    operand = view.transpose.getIn();
  }
  view.subview = operand.getDefiningOp<memref::SubViewOp>();
  if (!view.subview)
    return std::nullopt;
  view.offsets = view.subview.getMixedOffsets();
  view.sizes = view.subview.getMixedSizes();
  if (transposed) {
    std::swap(view.offsets[0], view.offsets[1]);
    std::swap(view.sizes[0], view.sizes[1]);
  }
  return view;
}

Value mlir::tile::getViewRoot(Value value, bool *typeOffsets) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
    if (typeOffsets &&
        !isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, memref::ReinterpretCastOp,
             memref::TransposeOp>(view.getOperation()))
      *typeOffsets = false;
    value = view.getViewSource();
  }
  return value;
}
