//===- Export.cpp - write kernels as PTX, cubin and manifest --------------===//
//
// For every gpu.module made from a matmul (lowered to NVVM, with an NVVM
// target attached): PTX through the target's serializer, a cubin through
// ptxas when it can be found, and the manifest of docs/artifact.md, written
// with the runtime's own manifest writer so both sides agree on the format.
// What ptxas -v reports (registers, spills, stack) goes into the manifest and
// onto the gpu.module as `tile.ptxas` for the report.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Utils.h"
#include "tile/runtime/Manifest.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEEXPORT
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;
namespace rt = ::tile::runtime;

namespace {

/// What ptxas -v said about one kernel.
struct PtxasReport {
  int64_t registers = -1, spillStores = -1, spillLoads = -1, stackBytes = -1;
};

/// The ptxas to run for `option` ("auto", "off" or a path); empty if none.
std::string findPtxas(StringRef option) {
  if (option == "off")
    return {};
  if (option != "auto")
    return option.str();
  SmallVector<std::string> candidates;
  for (const char *variable : {"CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"})
    if (std::optional<std::string> root = llvm::sys::Process::GetEnv(variable))
      candidates.push_back(*root + "/bin/ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  for (const std::string &candidate : candidates)
    if (llvm::sys::fs::can_execute(candidate))
      return candidate;
  if (llvm::ErrorOr<std::string> onPath =
          llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return {};
}

/// The integer right before `unit` in `line` ("... 122 registers").
int64_t numberBefore(StringRef line, StringRef unit) {
  size_t at = line.find(unit);
  if (at == StringRef::npos)
    return -1;
  StringRef head = line.take_front(at).rtrim();
  size_t start = head.find_last_not_of("0123456789");
  StringRef digits = start == StringRef::npos ? head : head.drop_front(start + 1);
  int64_t value;
  if (digits.getAsInteger(10, value))
    return -1;
  return value;
}

PtxasReport parsePtxasLog(StringRef log) {
  PtxasReport report;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    if (line.contains(" registers"))
      report.registers = numberBefore(line, " registers");
    if (line.contains("bytes stack frame")) {
      report.stackBytes = numberBefore(line, " bytes stack frame");
      report.spillStores = numberBefore(line, " bytes spill stores");
      report.spillLoads = numberBefore(line, " bytes spill loads");
    }
  }
  return report;
}

/// The PTX version the target's features ask for, as major * 10 + minor
/// ("+ptx83": 83); 0 if they name none, -1 if "+ptx" is not followed by a
/// version of two or three digits.
int64_t requestedPtxVersion(StringRef features) {
  SmallVector<StringRef> list;
  features.split(list, ',', -1, /*KeepEmpty=*/false);
  int64_t version = 0;
  for (StringRef feature : list) {
    feature = feature.trim();
    if (!feature.consume_front("+ptx"))
      continue;
    if (feature.size() < 2 || feature.size() > 3 ||
        !llvm::all_of(feature, llvm::isDigit) ||
        feature.getAsInteger(10, version))
      return -1;
  }
  return version;
}

/// The lowest PTX version LLVM's NVPTX backend accepts for `chip`: below it,
/// the backend stops the process with a fatal error. 0 where not known here.
int64_t minimumPtxVersion(StringRef chip) {
  return llvm::StringSwitch<int64_t>(chip)
      .Case("sm_80", 70)
      .Case("sm_86", 71)
      .Case("sm_87", 74)
      .Cases({"sm_89", "sm_90"}, 78)
      .Case("sm_90a", 80)
      .Default(0);
}

/// "8.3" for 83.
std::string formatPtxVersion(int64_t version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

/// The version of the `.version X.Y` directive of `ptx`, as major * 10 +
/// minor; 0 if there is none.
int64_t writtenPtxVersion(StringRef ptx) {
  SmallVector<StringRef> lines;
  ptx.split(lines, '\n');
  for (StringRef line : lines) {
    line = line.trim();
    if (!line.consume_front(".version"))
      continue;
    auto [major, minor] = line.trim().split('.');
    int64_t high, low;
    if (major.getAsInteger(10, high) || minor.getAsInteger(10, low) || low > 9)
      return 0;
    return high * 10 + low;
  }
  return 0;
}

/// Runs `ptxas -v` on `ptxFile`, writing `cubinFile`.
LogicalResult runPtxas(Operation *where, StringRef ptxas, StringRef chip,
                       StringRef ptxFile, StringRef cubinFile,
                       PtxasReport &report) {
  SmallString<128> logFile;
  if (llvm::sys::fs::createTemporaryFile("tile-ptxas", "log", logFile))
    return where->emitError() << "tile-export: cannot create a temporary file";
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxas, "-v", "-O3", arch, ptxFile, "-o",
                                 cubinFile};
  std::string error;
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/300, 0, &error);
  auto log = llvm::MemoryBuffer::getFile(logFile);
  std::string logText = log ? (*log)->getBuffer().str() : "";
  llvm::sys::fs::remove(logFile);
  if (status != 0)
    return where->emitError() << "tile-export: " << ptxas << " failed"
                              << (error.empty() ? "" : ": " + error) << "\n"
                              << logText;
  report = parsePtxasLog(logText);
  return success();
}

LogicalResult writeFile(Operation *where, StringRef path, StringRef data) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return where->emitError() << "tile-export: cannot write " << path << ": "
                              << ec.message();
  os << data;
  return success();
}

rt::BinaryInfo describeBinary(rt::BinaryFormat format, StringRef file,
                              StringRef data) {
  rt::BinaryInfo info;
  info.format = format;
  info.file = llvm::sys::path::filename(file).str();
  info.size = data.size();
  info.fnv1a64 = rt::fnv1a64(data.data(), data.size());
  return info;
}

struct TileExportPass
    : public mlir::tile::impl::TileExportBase<TileExportPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult exportModule(gpu::GPUModuleOp module, StringRef ptxas);
};

LogicalResult TileExportPass::exportModule(gpu::GPUModuleOp module,
                                           StringRef ptxas) {
  // The kernel (gpu.func before lowering, llvm.func after) carries the
  // problem and the config.
  Operation *kernel = nullptr;
  module.walk([&](Operation *op) {
    if (op->hasAttr(kMatmulAttrName))
      kernel = op;
  });
  if (!kernel)
    return success(); // not a kernel of this project
  if (isa<gpu::GPUFuncOp>(kernel))
    return kernel->emitError()
           << "tile-export: kernel is not lowered to NVVM yet (run the "
              "tile-matmul-to-ptx pipeline, or convert-gpu-to-nvvm first)";
  if (!isa<LLVM::LLVMFuncOp>(kernel))
    return kernel->emitError()
           << "tile-export: 'tile.matmul' belongs on a kernel (llvm.func "
              "after lowering), not on '"
           << kernel->getName() << "'";
  if (!kernel->hasAttr(TileDialect::kConfigAttrName) ||
      !kernel->hasAttr(kMatmulAttrName) ||
      !kernel->hasAttr(kSharedBytesAttrName))
    return kernel->emitError()
           << "tile-export: kernel lacks tile.config, tile.matmul or "
              "tile.dynamic_shared_bytes";
  FailureOr<ConfigAttr> checkedConfig = getKernelConfig(kernel, "tile-export");
  if (failed(checkedConfig))
    return failure();
  ConfigAttr config = *checkedConfig;
  FailureOr<MatmulProblem> checkedProblem =
      getMatmulProblem(kernel, "tile-export");
  if (failed(checkedProblem))
    return failure();
  const MatmulProblem &problem = *checkedProblem;
  FailureOr<std::optional<int64_t>> sharedBytes =
      getDynamicSharedBytes(kernel, "tile-export");
  if (failed(sharedBytes))
    return failure();
  FailureOr<std::optional<int64_t>> cAlignment =
      getCAlignment(kernel, "tile-export");
  if (failed(cAlignment))
    return failure();
  int64_t cBytes = problem.resultBytes();
  if (*cAlignment && **cAlignment % cBytes != 0)
    return kernel->emitError()
           << "tile-export: 'tile.c_alignment' (" << **cAlignment
           << " bytes) is not a multiple of C's element size (" << cBytes
           << " bytes)";
  int64_t blocks = numBlocks(config, problem);
  if (blocks > std::numeric_limits<int32_t>::max())
    return kernel->emitError() << "tile-export: the kernel needs " << blocks
                               << " thread blocks, over the grid limit of "
                               << std::numeric_limits<int32_t>::max();

  std::optional<ArrayAttr> targets = module.getTargets();
  auto target = targets && !targets->empty()
                    ? dyn_cast<NVVM::NVVMTargetAttr>((*targets)[0])
                    : nullptr;
  if (!target || targets->size() != 1)
    return module.emitError() << "tile-export: expects exactly one "
                                 "#nvvm.target on the gpu.module (run "
                                 "nvvm-attach-target)";

  // A PTX version below the chip's minimum would stop the process inside
  // LLVM (ptx-version=7.0 with sm_90).
  int64_t requested = requestedPtxVersion(target.getFeatures());
  if (requested < 0)
    return module.emitError()
           << "tile-export: the target's features '" << target.getFeatures()
           << "' name no PTX version (expected +ptx<major><minor>, as "
              "ptx-version=8.0 gives +ptx80)";
  if (int64_t minimum = minimumPtxVersion(target.getChip());
      requested > 0 && requested < minimum)
    return module.emitError()
           << "tile-export: PTX " << formatPtxVersion(requested)
           << " cannot target " << target.getChip() << ", which needs PTX "
           << formatPtxVersion(minimum) << " or later (ptx-version=)";

  // PTX through the NVVM target.
  auto serializer = cast<gpu::TargetAttrInterface>(target);
  std::unique_ptr<SymbolTable> symbolTable;
  gpu::TargetOptions options(
      /*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
      /*elfSection=*/{}, gpu::CompilationTarget::Assembly, [&]() {
        if (!symbolTable)
          symbolTable = std::make_unique<SymbolTable>(getOperation());
        return symbolTable.get();
      });
  std::optional<SmallVector<char, 0>> object;
  StringRef ptx;
  int64_t written = 0;
  auto serialize = [&]() -> LogicalResult {
    object = serializer.serializeToObject(module, options);
    if (!object)
      return module.emitError() << "tile-export: PTX generation failed";
    ptx = StringRef(object->data(), object->size()).rtrim('\0');
    // LLVM writes a version it does not know as its default (with a
    // warning): the manifest would then name a version the PTX does not
    // have.
    written = writtenPtxVersion(ptx);
    if (requested > 0 && written != requested)
      return module.emitError()
             << "tile-export: LLVM's NVPTX backend does not know PTX "
             << formatPtxVersion(requested) << " (ptx-version=); it wrote PTX "
             << formatPtxVersion(written);
    return success();
  };
  if (failed(serialize()))
    return failure();

  StringRef name = cast<SymbolOpInterface>(kernel).getName();
  bool writeFiles = !outputDir.empty();
  SmallString<256> ptxPath, cubinPath, manifestPath;
  if (writeFiles) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return module.emitError() << "tile-export: cannot create " << outputDir
                                << ": " << ec.message();
    for (auto [path, extension] :
         {std::pair{&ptxPath, ".ptx"}, {&cubinPath, ".cubin"},
          {&manifestPath, ".json"}}) {
      *path = outputDir;
      llvm::sys::path::append(*path, name + extension);
    }
  } else {
    for (auto [path, extension] :
         {std::pair{&ptxPath, "ptx"}, {&cubinPath, "cubin"}})
      if (llvm::sys::fs::createTemporaryFile("tile-kernel", extension, *path))
        return module.emitError() << "tile-export: no temporary file";
  }
  if (failed(writeFile(module, ptxPath, ptx)))
    return failure();

  // cubin (and the resource numbers) through ptxas.
  PtxasReport report;
  std::string cubin;
  if (!ptxas.empty()) {
    if (failed(runPtxas(module, ptxas, target.getChip(), ptxPath, cubinPath,
                        report)))
      return failure();
    // The occupancy never buys a spill: an fma kernel whose register budget
    // (nvvm.minctasm) makes ptxas spill or keep a stack is emitted again
    // with one block per SM less, down to no budget at all, until ptxas
    // reports neither. The config (and so the manifest) records the
    // occupancy the kernel was emitted with. wgmma kernels keep theirs: it
    // is the register pool their setmaxnreg split was made for.
    auto spills = [&] {
      return report.spillStores > 0 || report.spillLoads > 0 ||
             report.stackBytes > 0;
    };
    while (spills() && !config.isWgmma() && config.getMinBlocksPerSM() > 0) {
      TileConfig lowered = config.toTileConfig();
      int64_t from = lowered.minBlocksPerSM;
      lowered.minBlocksPerSM = from > 1 ? from - 1 : 0;
      config = ConfigAttr::get(module.getContext(), lowered);
      kernel->setAttr(TileDialect::kConfigAttrName, config);
      if (lowered.minBlocksPerSM > 0)
        kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                        Builder(module.getContext())
                            .getI32IntegerAttr(lowered.minBlocksPerSM));
      else
        kernel->removeAttr(NVVM::NVVMDialect::getMinctasmAttrName());
      if (failed(serialize()) || failed(writeFile(module, ptxPath, ptx)) ||
          failed(runPtxas(module, ptxas, target.getChip(), ptxPath, cubinPath,
                          report)))
        return failure();
    }
    auto buffer = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
    if (!buffer)
      return module.emitError() << "tile-export: ptxas wrote no " << cubinPath;
    cubin = (*buffer)->getBuffer().str();
    Builder b(module.getContext());
    module->setAttr(
        kPtxasAttrName,
        b.getDictionaryAttr(
            {b.getNamedAttr("registers", b.getI64IntegerAttr(report.registers)),
             b.getNamedAttr("spill_stores",
                            b.getI64IntegerAttr(report.spillStores)),
             b.getNamedAttr("spill_loads",
                            b.getI64IntegerAttr(report.spillLoads)),
             b.getNamedAttr("stack_bytes",
                            b.getI64IntegerAttr(report.stackBytes))}));
  }
  if (!writeFiles) {
    llvm::sys::fs::remove(ptxPath);
    llvm::sys::fs::remove(cubinPath);
    return success();
  }

  // The manifest.
  rt::KernelManifest manifest;
  manifest.kernel = name.str();
  manifest.target.chip = target.getChip().str();
  // The version the PTX declares (LLVM's default for the chip where the
  // target asks for none).
  std::string ptxVersion = written > 0 ? formatPtxVersion(written) : "8.0";
  manifest.target.ptxVersion = ptxVersion;
  if (!cubin.empty())
    manifest.binaries.push_back(
        describeBinary(rt::BinaryFormat::Cubin, cubinPath, cubin));
  manifest.binaries.push_back(
      describeBinary(rt::BinaryFormat::Ptx, ptxPath, ptx));
  // A batched kernel's grid has a row of blocks per matrix; a persistent
  // kernel's is what tile-mbarrier-pipeline gave it.
  auto [gridX, gridY] = launchGrid(config, problem);
  if (config.getPersistent()) {
    auto blocks = kernel->getAttrOfType<IntegerAttr>(kPersistentBlocksAttrName);
    // (Under 2^31 blocks: checked above.)
    int64_t tiles = numBlocks(config, problem) * problem.batch;
    if (!blocks || blocks.getInt() < 1 || blocks.getInt() > tiles)
      return kernel->emitError()
             << "tile-export: a persistent kernel needs '"
             << kPersistentBlocksAttrName
             << "', its grid, from 1 to its tiles (" << tiles
             << ") (tile-mbarrier-pipeline sets it)";
    gridX = blocks.getInt();
  }
  manifest.launch.grid = {static_cast<uint32_t>(gridX),
                          static_cast<uint32_t>(gridY), 1};
  manifest.launch.block = {static_cast<uint32_t>(config.getNumThreads()), 1, 1};
  // A cluster's blocks are consecutive along x (tile-block-tile pairs them
  // on one column of tiles).
  manifest.launch.cluster = {
      static_cast<uint32_t>(config.getClusterSize()), 1,
      1};
  manifest.launch.dynamicSharedBytes = static_cast<uint32_t>(**sharedBytes);
  manifest.problem.m = problem.m;
  manifest.problem.n = problem.n;
  manifest.problem.k = problem.k;
  manifest.problem.batch = problem.batch;
  auto elementTypeOf = [](Type type) {
    return type.isBF16()  ? rt::ElementType::BF16
           : type.isF16() ? rt::ElementType::F16
                          : rt::ElementType::F32;
  };
  int64_t inputBytes = problem.elementBytes();
  int64_t resultBytes = problem.resultBytes();
  manifest.problem.elementType = elementTypeOf(problem.elementType);
  manifest.problem.accumulatorType = rt::ElementType::F32;
  manifest.problem.cInit =
      problem.fill ? rt::CInit::Fill : rt::CInit::Accumulate;
  manifest.problem.cFillValue =
      problem.fill ? problem.fillValue.getValueAsDouble() : 0.0;
  TileConfig tc = config.toTileConfig();
  // The byte alignment each operand's accesses need: the global vector
  // widths of an fma kernel; for a wgmma kernel 16 bytes for what the TMA
  // reads (else one element), and for C what tile-wgmma or tile-thread-tile
  // recorded.
  // With repack = true an operand whose rows do not start on 128 bytes is
  // repacked by the runtime into rows padded to 128 bytes, and the TMA
  // reads the copy: the kernel never touches that buffer, which then needs
  // no more than element alignment.
  // (A transposed TMA reads rows of M, a transposed B rows of K.)
  int64_t repackA = 0, repackB = 0;
  if (tc.isWgmma() && tc.copyKind() == CopyKind::Tma && tc.repack)
    std::tie(repackA, repackB) = repackRowStrides(getModelShape(problem));
  int64_t alignA, alignB;
  if (tc.isWgmma()) {
    alignA = alignB = tc.copyKind() == CopyKind::Tma ? 16 : inputBytes;
    if (repackA)
      alignA = inputBytes;
    if (repackB)
      alignB = inputBytes;
  } else {
    GlobalVectorWidths widths = getGlobalVectorWidths(config, problem);
    alignA = widths.a * inputBytes;
    alignB = widths.b * inputBytes;
    // An fma kernel with repack = true reads B's copy (rows padded to 16
    // bytes), made by the runtime: the caller's B needs element alignment.
    repackB = getFmaRepackRowStride(config, problem);
    if (repackB)
      alignB = inputBytes;
  }
  int64_t alignC =
      *cAlignment ? **cAlignment
                 : (tc.isWgmma() ? resultBytes
                                 : getGlobalVectorWidths(config, problem).c *
                                       resultBytes);
  // A transposed operand is its logical matrix stored column-major:
  // element (i, j) at i + j * rows (its stored rows' stride). A strided
  // operand's offset and strides are its memref's; a dense one's rows are
  // its columns apart, its matrices one after another.
  auto param = [](const char *paramName, rt::ParamRole role,
                  rt::ElementType type, int64_t rows, int64_t cols,
                  int64_t alignment, rt::ParamAccess access,
                  std::optional<StridedLayout> layout = {},
                  bool transposed = false) {
    rt::ParamInfo info;
    info.name = paramName;
    info.role = role;
    info.elementType = type;
    info.rows = rows;
    info.cols = cols;
    // (A stored matrix of one row never uses its row stride: it gets its
    // length, so that the runtime reads its orientation as tile-opt means
    // it.)
    int64_t storedRows = transposed ? cols : rows;
    int64_t storedCols = transposed ? rows : cols;
    // A dynamic offset or stride is "dynamic" (the kernel takes it as a
    // parameter, even where one row never steps it).
    auto value = [](int64_t v) {
      return ShapedType::isDynamic(v) ? rt::kDynamic : v;
    };
    // (Unless its stride is a real pitch, at least the row's length: the
    // one the model and the TMA took, which must stay on 16 bytes for a
    // tensor map; a stride of 1 would read as column-major.)
    int64_t stride =
        layout && (storedRows > 1 || ShapedType::isDynamic(layout->rowStride) ||
                   layout->rowStride >= storedCols)
            ? value(layout->rowStride)
            : storedCols;
    info.rowStride = transposed ? 1 : stride;
    info.colStride = transposed ? stride : 1;
    if (layout) {
      info.offset = value(layout->offset);
      info.batchStride = value(layout->batchStride);
    }
    info.alignment = static_cast<uint32_t>(alignment);
    info.access = access;
    return info;
  };
  manifest.params = {
      param("A", rt::ParamRole::Lhs, manifest.problem.elementType, problem.m,
            problem.k, alignA, rt::ParamAccess::Read,
            problem.effectiveLayoutA(), problem.transposeA),
      param("B", rt::ParamRole::Rhs, manifest.problem.elementType, problem.k,
            problem.n, alignB, rt::ParamAccess::Read,
            problem.effectiveLayoutB(), problem.transposeB),
      param("C", rt::ParamRole::Result, elementTypeOf(problem.resultType),
            problem.m, problem.n, alignC,
            problem.fill ? rt::ParamAccess::Write : rt::ParamAccess::ReadWrite,
            problem.effectiveLayoutC())};
  // Only a batched kernel's parameters have a batch stride (the manifest
  // of a batch of 1 too).
  if (problem.batch == 1)
    for (rt::ParamInfo &info : manifest.params)
      info.batchStride = 0;
  if (!tc.isWgmma())
    manifest.params[1].repackRowStride = repackB;
  // A fused epilogue's operands (kernel parameters after C) and program.
  manifest.epilogue = rt::EpilogueInfo();
  if (Attribute attr = kernel->getAttr(kEpilogueAttrName)) {
    SmallVector<EpilogueOperandKind> kinds;
    std::vector<std::string> steps;
    std::string error;
    if (!readEpilogueAttr(attr, kinds, steps, error))
      return kernel->emitError() << "tile-export: tile.epilogue " << error;
    auto types =
        cast<DictionaryAttr>(attr).getAs<ArrayAttr>("types");
    if (!types)
      return kernel->emitError()
             << "tile-export: tile.epilogue has no operand types";
    for (auto [j, kind] : llvm::enumerate(kinds)) {
      Type element = cast<TypeAttr>(types[j]).getValue();
      std::string name = "E" + std::to_string(j);
      int64_t rows = kind == EpilogueOperandKind::Col ? 1 : problem.m;
      int64_t cols = kind == EpilogueOperandKind::Row ? 1 : problem.n;
      // (A strided operand's parameter: its layouts entry. The kernel
      // reads it one element at a time: element alignment.)
      std::optional<StridedLayout> layout = getEpilogueOperandLayout(attr, j);
      manifest.params.push_back(param(
          name.c_str(), rt::ParamRole::Epilogue, elementTypeOf(element), rows,
          cols, element.getIntOrFloatBitWidth() / 8, rt::ParamAccess::Read,
          layout));
      // In a batched kernel, an operand with one vector or matrix per batch
      // (per_batch; its parameter 3-d, the batch first) has them one after
      // another, or its layout's batch stride apart;
      // one shared by every matrix has no batch stride.
      rt::ParamInfo &added = manifest.params.back();
      if (problem.batch > 1 && isPerBatchEpilogueOperand(attr, j))
        added.batchStride = layout ? added.batchStride : rows * cols;
      else
        added.batchStride = 0;
      rt::EpilogueOperand operand;
      operand.param = name;
      operand.kind = kind == EpilogueOperandKind::Row
                         ? rt::EpilogueOperandKind::Row
                     : kind == EpilogueOperandKind::Col
                         ? rt::EpilogueOperandKind::Col
                         : rt::EpilogueOperandKind::Full;
      manifest.epilogue.operands.push_back(operand);
    }
    manifest.epilogue.steps = steps;
  }
  // The TMA's tensor maps (kernel parameters after A, B, C): the shared
  // plan's boxes, 128-byte swizzle.
  manifest.tensorMaps.clear();
  if (tc.copyKind() == CopyKind::Tma) {
    SharedPlan plan = getSharedPlan(tc, inputBytes, problem.storedTransposes());
    for (auto [name, box, repack] : {std::tuple{"A", plan.boxA, repackA},
                                     {"B", plan.boxB, repackB}}) {
      rt::TensorMapInfo map;
      map.param = name;
      map.repackRowStride = repack;
      // (A batched kernel's maps are 3-d: getTensorMapTypes.)
      map.batched = problem.batched;
      map.box = {static_cast<uint32_t>(box.rows),
                 static_cast<uint32_t>(box.cols)};
      map.swizzle = rt::TensorMapSwizzle::B128;
      // (As the kernel's descriptor types: getTensorMapTypes.)
      map.l2Promotion = rt::TensorMapL2Promotion::B128;
      manifest.tensorMaps.push_back(map);
    }
    // A TMA store's map of C, after A's and B's: one staging buffer (as
    // the kernel's descriptor type: getTensorMapTypes).
    if (tc.tmaStore) {
      rt::TensorMapInfo map;
      map.param = "C";
      map.batched = problem.batched;
      map.box = {
          static_cast<uint32_t>(kStagingRows),
          static_cast<uint32_t>(kSwizzleRowBytes / problem.resultBytes())};
      map.swizzle = rt::TensorMapSwizzle::B128;
      map.l2Promotion = rt::TensorMapL2Promotion::None;
      manifest.tensorMaps.push_back(map);
    }
  }
  manifest.config.store =
      tc.tmaStore ? rt::StoreKind::Tma : rt::StoreKind::Registers;
  manifest.config.strategy =
      tc.isWgmma() ? rt::KernelStrategy::Wgmma : rt::KernelStrategy::Fma;
  manifest.config.block = {tc.blockM, tc.blockN, tc.blockK};
  manifest.config.warp = {tc.warpM, tc.warpN};
  manifest.config.thread = {tc.threadM, tc.threadN};
  manifest.config.mma = {tc.threadM, tc.threadN, tc.mmaK};
  manifest.config.stages = tc.stages;
  switch (tc.copyKind()) {
  case CopyKind::Registers:
    manifest.config.copy = rt::CopyKind::Registers;
    break;
  case CopyKind::CpAsync:
    manifest.config.copy = rt::CopyKind::CpAsync;
    break;
  case CopyKind::Tma:
    manifest.config.copy = rt::CopyKind::Tma;
    break;
  }
  manifest.config.repack = tc.repack;
  manifest.config.specialize = tc.specialize;
  manifest.config.swizzle = tc.swizzleGroup;
  manifest.config.smem = stringifySharedLayout(tc.smemLayout);
  manifest.config.smemPad = tc.smemPad;
  manifest.config.prefetch = tc.regPrefetch;
  manifest.config.occupancy = tc.minBlocksPerSM;
  manifest.config.splitK = tc.splitK;
  manifest.config.splitLast = tc.splitLast;
  manifest.config.cluster = {tc.clusterM, tc.clusterN};
  manifest.config.persistent = tc.persistent;
  manifest.config.text = toString(tc);
  manifest.resources.registers = report.registers;
  manifest.resources.spillStores = report.spillStores;
  manifest.resources.spillLoads = report.spillLoads;
  manifest.resources.stackBytes = report.stackBytes;
  std::string error;
  if (!rt::validateManifest(manifest, error))
    return module.emitError() << "tile-export: the kernel's manifest would "
                                 "not be valid: "
                              << error;
  if (cubin.empty())
    llvm::sys::fs::remove(cubinPath); // none from an earlier run may linger
  return writeFile(module, manifestPath, rt::writeManifestJson(manifest));
}

void TileExportPass::runOnOperation() {
  std::string ptxasPath = findPtxas(ptxas);
  if (ptxas != "auto" && ptxas != "off" &&
      !llvm::sys::fs::can_execute(ptxasPath)) {
    getOperation().emitError() << "tile-export: ptxas '" << ptxas
                               << "' is not an executable file";
    return signalPassFailure();
  }
  for (auto module : getOperation().getOps<gpu::GPUModuleOp>())
    if (failed(exportModule(module, ptxasPath)))
      return signalPassFailure();
}

} // namespace
