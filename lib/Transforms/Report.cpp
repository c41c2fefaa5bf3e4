//===- Report.cpp - the cost model's table for every kernel ---------------===//
//
// Prints, for every configured matmul (or kernel made from one), what the
// cost model says about its config next to what ptxas reported once the
// kernel was exported: the seeds' arithmetic made visible, so a user sees
// why a tile size wins. fma kernels get the FP32 model's thread-tile
// arithmetic; wgmma kernels the tensor-core model's (warpgroups, setmaxnreg
// split, shared ring, TMA boxes, waves, the terms of the predicted time).
// With svg-dir=DIR it also writes a picture of each kernel's tiling
// (Analysis/KernelPicture.h) to DIR/<kernel>.svg. The IR is not changed.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/KernelPicture.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Transforms/Contractions.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEREPORT
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileReportPass : public mlir::tile::impl::TileReportBase<TileReportPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// "8 x " before the matrix shape of a batch of 8; nothing for one matrix.
std::string batchPrefix(const MatmulProblem &problem) {
  return problem.batched ? std::to_string(problem.batch) + " x " : "";
}

/// " (A stored K x M, B stored N x K)" for transposed operands, as the
/// kernel picture's title says it.
std::string storedSuffix(const MatmulProblem &problem) {
  if (!problem.transposeA && !problem.transposeB)
    return "";
  std::string both =
      problem.transposeA && problem.transposeB ? ", " : "";
  return " (" + std::string(problem.transposeA ? "A stored K x M" : "") +
         both + (problem.transposeB ? "B stored N x K" : "") + ")";
}

std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  if (type)
    os << type;
  else
    os << "f32";
  return name;
}

void printPtxas(llvm::raw_ostream &os, DictionaryAttr ptxas) {
  auto get = [&](StringRef key) {
    auto attr = ptxas.getAs<IntegerAttr>(key);
    return attr ? attr.getInt() : -1;
  };
  os << get("registers") << " registers, " << get("spill_stores")
     << " B spill stores, " << get("spill_loads") << " B spill loads, "
     << get("stack_bytes") << " B stack";
}

void printFmaReport(llvm::raw_ostream &os, StringRef name, ConfigAttr config,
                    const MatmulProblem &problem, const ChipInfo &chip,
                    std::optional<int64_t> sharedBytes, DictionaryAttr ptxas) {
  TileConfig c = config.toTileConfig();
  MatmulShape shape = getModelShape(problem);
  CostReport r = evaluate(c, chip, shape);
  auto percent = [](double x) { return llvm::format("%.0f%%", 100 * x); };
  os << "kernel " << name << ": " << batchPrefix(problem) << problem.m << "x"
     << problem.n << "x" << problem.k << " f32, C "
     << (problem.fill ? "= fill + A*B" : "+= A*B") << storedSuffix(problem)
     << "\n";
  os << "  config            " << toString(c) << "\n";
  os << "  launch            " << numBlocks(config, problem);
  if (problem.batched)
    os << " x " << problem.batch;
  os << " blocks x "
     << r.threadsPerBlock << " threads ("
     << c.numWarps() << " warps of " << c.lanesM() << "x" << c.lanesN()
     << " lanes)\n";
  os << "  shared memory     " << r.sharedBytes << " B/block (model)";
  if (sharedBytes)
    os << ", " << *sharedBytes << " B allocated";
  os << "\n";
  os << "  registers/thread  " << r.estimatedRegisters
     << " estimated = " << r.tileRegisters << " thread tile ("
     << c.threadM * c.threadN << " accumulators + "
     << (c.regPrefetch ? "2x" : "1x") << " " << c.threadM + c.threadN
     << " fragments) + " << r.stagingRegisters << " "
     << stagingRegistersName(c) << " + " << r.overheadRegisters
     << " overhead";
  if (ptxas) {
    os << "; ptxas: ";
    printPtxas(os, ptxas);
  }
  os << "\n";
  os << "  occupancy         " << r.blocksPerSM << " blocks/SM = "
     << r.warpsPerSM << " warps/SM (limited by " << r.occupancyLimiter
     << ", by the estimate)\n";
  os << "  intensity         global->shared "
     << llvm::format("%.1f", r.globalIntensity)
     << " FMA/element, shared->registers "
     << llvm::format("%.1f", r.sharedIntensity) << " FMA/element\n";
  os << "  inner k step      " << r.sharedLoadsPerStep << " shared loads + "
     << r.fmasPerStep << " FMAs per lane; issue-slot efficiency "
     << percent(r.issueEfficiency) << " (with scalar loads, as the FP32 "
     << "article counts: " << percent(r.articleEfficiency) << ")\n";
  os << "  K slice           " << r.sliceInstructions
     << " instructions per warp, " << percent(r.sliceEfficiency)
     << " of them FMAs (with the slice copy and loop overhead)\n";
  double seconds = predictSeconds(c, shape, chip);
  double flops = 2.0 * problem.batch * problem.m * problem.n * problem.k;
  os << "  model time        " << llvm::format("%.3f", seconds * 1e3)
     << " ms = " << llvm::format("%.1f", flops / seconds / 1e12)
     << " TFLOP/s (FP32 FMA peak "
     << llvm::format("%.1f", chip.peakFlops() / 1e12) << ")\n";
}

void printWgmmaReport(llvm::raw_ostream &os, StringRef name,
                      ConfigAttr config, const MatmulProblem &problem,
                      const ChipInfo &chip, std::optional<int64_t> sharedBytes,
                      DictionaryAttr ptxas) {
  TileConfig c = config.toTileConfig();
  MatmulShape shape = getModelShape(problem);
  shape.tf32 = computesTf32(c, shape.elementBytes);
  CostReport r = evaluate(c, chip, shape);
  WarpgroupRegisters regs = warpgroupRegisters(c);
  SharedPlan plan = getKernelSharedPlan(config, problem);
  auto us = [](double seconds) {
    return llvm::format("%.1f us", seconds * 1e6);
  };
  bool tma = c.copyKind() == CopyKind::Tma;
  int64_t consumers = c.numConsumers();
  os << "kernel " << name << ": " << batchPrefix(problem) << problem.m << "x"
     << problem.n << "x" << problem.k << " " << typeName(problem.elementType)
     << (shape.tf32 ? " as TF32" : "") << " -> "
     << typeName(problem.resultType) << ", C "
     << (problem.fill ? "= fill + A*B" : "+= A*B") << storedSuffix(problem)
     << "\n";
  os << "  config            " << toString(c) << "\n";
  if (c.persistent)
    os << "  launch            " << launchGrid(config, problem).first
       << " persistent blocks for " << numTiles(config, problem) * problem.batch
       << " tiles x ";
  else {
    os << "  launch            " << numBlocks(config, problem);
    if (problem.batched)
      os << " x " << problem.batch;
    os << " blocks x ";
  }
  os << r.threadsPerBlock << " threads (" << consumers
     << " consumer warpgroup" << (consumers > 1 ? "s" : "")
     << (c.specialize ? " + 1 producer warpgroup" : ", no producer") << ")\n";
  os << "  tiles             block " << c.blockM << "x" << c.blockN << "x"
     << c.blockK << ", warpgroup " << c.warpM << "x" << c.warpN
     << ", instruction m64n" << c.threadN << "k" << c.mmaK << " ("
     << (c.warpM / 64) * (c.warpN / c.threadN)
     << " per warpgroup and k step, " << c.blockK / c.mmaK
     << " k steps per slab)\n";
  // The register split tile-mbarrier-pipeline emits (setmaxnreg), next to
  // what the model counts each role to need.
  os << "  registers/thread  launch " << regs.launchRegisters << " ("
     << regs.blocksPerSM << " block" << (regs.blocksPerSM > 1 ? "s" : "")
     << "/SM budget); consumer needs " << regs.consumerNeed << " = "
     << regs.accumulators << " accumulators + "
     << regs.consumerNeed - regs.accumulators << " overhead";
  if (c.specialize)
    os << ", gets " << regs.consumerRegisters << " (setmaxnreg); producer ("
       << (tma ? "TMA" : "register copies") << ") needs " << regs.producerNeed
       << ", gets " << regs.producerRegisters << " (setmaxnreg)";
  else
    os << ", gets the launch's " << regs.consumerRegisters
       << " (no setmaxnreg)";
  if (!regs.whyNot.empty())
    os << "; too few to work";
  else if (!regs.hasHeadroom())
    os << "; below the estimate: spills likely";
  os << "\n";
  if (ptxas) {
    os << "  ptxas             ";
    printPtxas(os, ptxas);
    os << "\n";
  }
  os << "  shared memory     " << plan.totalBytes << " B/block (model) = "
     << c.stages << " stages x " << plan.stageBytes << " B (A "
     << plan.bytesA << " + B " << plan.bytesB << ") + ";
  if (plan.stagingBuffers)
    os << plan.stagingBuffers << " x " << kStagingBytes
       << " B staging buffers of C + ";
  os << plan.alignmentSlack << " B alignment slack (dynamic) + "
     << plan.barrierBytes << " B mbarriers (static)";
  if (sharedBytes)
    os << "; " << *sharedBytes << " B dynamic allocated";
  os << "\n";
  if (tma)
    os << "  copies            TMA boxes A "
       << (plan.boxesA > 1 ? std::to_string(plan.boxesA) + " x " : "")
       << plan.boxA.rows << "x" << plan.boxA.cols << ", B " << plan.boxesB
       << " x " << plan.boxB.rows << "x" << plan.boxB.cols << " per slab ("
       << plan.stageBytes << " B)\n";
  else
    os << "  copies            through registers: "
       << (c.specialize ? "the producer's 128 threads copy "
                        : "every thread copies ")
       << (c.blockM + c.blockN) * c.blockK << " elements per slab\n";
  if (tma && c.repack) {
    // What tile-export writes into the manifest's tensor maps.
    os << "  repack            ";
    bool any = false;
    auto [rowsA, colsA] = problem.storedShapeA();
    auto [rowsB, colsB] = problem.storedShapeB();
    auto [strideA, strideB] = repackRowStrides(shape);
    for (auto [operand, rows, cols, stride] :
         {std::tuple{"A", rowsA, colsA, strideA},
          {"B", rowsB, colsB, strideB}})
      if (stride) {
        os << (any ? ", " : "") << operand << " " << rows << "x" << cols
           << " into rows of " << stride;
        any = true;
      }
    if (any)
      os << " (the runtime's copies before the launch: "
         << us(repackSeconds(shape)) << ")\n";
    else
      os << "none (the rows start on 128 bytes)\n";
  }
  if (!r.fits) {
    os << "  does not fit      " << r.whyNot << "\n";
    return;
  }
  TensorCoreEstimate e = estimateTensorCore(c, shape, chip);
  os << "  occupancy         " << r.blocksPerSM << " blocks/SM (limited by "
     << r.occupancyLimiter << "); " << e.tiles << " tiles";
  if (e.splits > 1 && e.splitTiles < e.tiles)
    os << ", the last " << e.splitTiles << " in " << e.splits
       << " K splits (" << e.slabs << " slabs each, added into C "
       << "atomically), the others whole (" << ceilDiv(shape.k, c.blockK)
       << " slabs, C loaded and stored in place); " << e.blocks << " blocks";
  else if (e.splits > 1)
    os << " x " << e.splits << " K splits (" << e.slabs
       << " slabs each, added into C atomically)";
  os << " in " << e.waves
     << " wave" << (e.waves != 1 ? "s" : "") << " of "
     << chip.numSMs * r.blocksPerSM << "\n";
  os << "  intensity         " << llvm::format("%.1f", e.tileIntensity)
     << " FLOP/B into shared memory; "
     << llvm::format("%.1f", e.hbmIntensity) << " FLOP/B from HBM ("
     << llvm::format("%.3f", e.hbmBytes / 1e9) << " GB with L2 reuse over "
     << e.reuseM << "x" << e.reuseN << " of C per wave)\n";
  // TF32 kernels against the TF32 peak.
  double peakRatio = shape.tf32 ? kTf32PeakRatio : 1.0;
  os << "  per tile          tensor cores " << us(e.mmaSeconds) << " ("
     << llvm::format("%.0f%%", 100 * e.instructionEfficiency / peakRatio)
     << " of the SM's peak), " << (tma ? "TMA loads " : "register copies ")
     << us(e.loadSeconds) << ", prologue " << us(e.prologueSeconds)
     << ", epilogue " << us(e.epilogueSeconds) << "; edge waste "
     << llvm::format("%.0f%%", 100 * (1 - e.usefulFraction)) << "\n";
  double flops = 2.0 * problem.batch * problem.m * problem.n * problem.k;
  os << "  model time        " << llvm::format("%.3f", e.seconds * 1e3)
     << " ms = " << llvm::format("%.1f", flops / e.seconds / 1e12)
     << " TFLOP/s (bound by " << e.bound << "; launch " << us(e.launchSeconds);
  if (e.repackSeconds > 0)
    os << ", repack " << us(e.repackSeconds);
  os << (shape.tf32 ? "; TF32 tensor peak " : "; 16-bit tensor peak ")
     << llvm::format("%.1f", kTensorCorePeakFlops * peakRatio / 1e12)
     << ")\n";
}

void printReport(llvm::raw_ostream &os, StringRef name, ConfigAttr config,
                 const MatmulProblem &problem, const ChipInfo &chip,
                 std::optional<int64_t> sharedBytes, DictionaryAttr ptxas) {
  if (config.toTileConfig().isWgmma())
    return printWgmmaReport(os, name, config, problem, chip, sharedBytes,
                            ptxas);
  printFmaReport(os, name, config, problem, chip, sharedBytes, ptxas);
}

/// Bytes of a kernel element type (f32, bf16, f16); 0 for any other type.
int64_t kernelElementBytes(Type type) {
  if (!type)
    return 0;
  if (type.isF32())
    return 4;
  if (type.isBF16() || type.isF16())
    return 2;
  return 0;
}

/// Writes the picture of kernel `name` to `dir`/`name`.svg; an error at `op`
/// when the folder cannot be made or the file written.
LogicalResult writePicture(Operation *op, StringRef dir, StringRef name,
                           ConfigAttr config, const MatmulProblem &problem,
                           const ChipInfo &chip) {
  TileConfig c = config.toTileConfig();
  KernelPictureInput input;
  input.name = name.str();
  input.m = problem.m;
  input.n = problem.n;
  input.k = problem.k;
  input.elementType = typeName(problem.elementType);
  if (computesTf32(c, kernelElementBytes(problem.elementType)))
    input.elementType += " as TF32";
  input.elementBytes = kernelElementBytes(problem.elementType);
  input.resultType = typeName(problem.resultType);
  input.fill = problem.fill;
  input.transposeA = problem.transposeA;
  input.transposeB = problem.transposeB;
  CostReport cost = evaluate(c, chip, input.elementBytes, problem.transposeA,
                             problem.transposeB);
  if (cost.fits)
    input.blocksPerWave = cost.blocksPerSM * chip.numSMs;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return op->emitError() << "tile-report: cannot create " << dir << ": "
                           << ec.message();
  // A symbol may hold any character: a '/' would name a folder.
  std::string fileName = name.str() + ".svg";
  std::replace(fileName.begin(), fileName.end(), '/', '_');
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, fileName);
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec);
  if (!ec) {
    file << drawKernelPicture(c, input);
    file.close();
    ec = file.error();
  }
  if (ec) {
    file.clear_error();
    return op->emitError() << "tile-report: cannot write " << path << ": "
                           << ec.message();
  }
  return success();
}

void TileReportPass::runOnOperation() {
  std::optional<ChipInfo> chipInfo = lookupChip(chip);
  if (!chipInfo) {
    getOperation().emitError() << "tile-report: unknown chip '" << chip << "'";
    return signalPassFailure();
  }
  llvm::raw_ostream &os = llvm::outs();
  bool any = false, failedAny = false;
  // Kernels (any stage, lowered or not) carry config and problem, checked
  // before they are printed.
  auto reportKernel = [&](Operation *op) -> LogicalResult {
    FailureOr<ConfigAttr> config = getKernelConfig(op, "tile-report");
    if (failed(config))
      return failure();
    FailureOr<MatmulProblem> problem = getMatmulProblem(op, "tile-report");
    if (failed(problem))
      return failure();
    FailureOr<std::optional<int64_t>> sharedBytes =
        getDynamicSharedBytes(op, "tile-report");
    if (failed(sharedBytes))
      return failure();
    FailureOr<DictionaryAttr> ptxas = DictionaryAttr();
    if (Operation *module = op->getParentOp())
      ptxas = getPtxasReport(module, "tile-report");
    if (failed(ptxas))
      return failure();
    std::string name;
    if (auto symbol = dyn_cast<SymbolOpInterface>(op)) {
      name = symbol.getName().str();
    } else {
      llvm::raw_string_ostream nameStream(name);
      nameStream << "(" << op->getName() << " at " << op->getLoc() << ")";
    }
    printReport(os, name, *config, *problem, *chipInfo, *sharedBytes, *ptxas);
    any = true;
    if (!svgDir.empty() && kernelElementBytes(problem->elementType) != 0)
      return writePicture(op, svgDir, name, *config, *problem, *chipInfo);
    return success();
  };
  getOperation().walk([&](Operation *op) {
    if (op->hasAttr(kMatmulAttrName) && failed(reportKernel(op)))
      failedAny = true;
  });
  // Matmuls configured but not yet made kernels, of shapes tile-configure
  // accepts (static, extents from 1 to 2^31 - 1; A and B as stored). Their
  // pictures take the names tile-block-tile will give the kernels: the host
  // function's name, "_matmul" and the count of configured matmuls (batched
  // ones too) before this one in that function.
  llvm::DenseMap<Operation *, int64_t> countPerFunction;
  getOperation().walk([&](linalg::LinalgOp linalgOp) {
    ConfigAttr config = getConfig(linalgOp);
    if (!isCompiledMatmul(linalgOp) || !config ||
        linalgOp->getParentOfType<gpu::GPUFuncOp>())
      return;
    auto function = linalgOp->getParentOfType<FunctionOpInterface>();
    int64_t index = countPerFunction[function]++;
    FailureOr<MatmulLayout> layout = getMatmulLayout(linalgOp);
    if (failed(layout))
      return;
    linalg::LinalgOp op = linalgOp;
    auto a = dyn_cast<ShapedType>(op.getDpsInputs()[0].getType());
    auto c = dyn_cast<ShapedType>(op.getDpsInits()[0].getType());
    int64_t rank = layout->batched ? 3 : 2;
    if (!a || !c || !a.hasStaticShape() || !c.hasStaticShape() ||
        a.getRank() != rank || c.getRank() != rank)
      return;
    MatmulExtents extents =
        getMatmulExtents(*layout, a.getShape(), c.getShape());
    MatmulProblem problem;
    problem.batched = layout->batched;
    problem.batch = extents.batch;
    problem.transposeA = layout->transposeA;
    problem.transposeB = layout->transposeB;
    problem.m = extents.m;
    problem.n = extents.n;
    problem.k = extents.k;
    if (llvm::any_of(
            std::array{problem.m, problem.n, problem.k}, [](int64_t extent) {
              return extent < 1 || extent > std::numeric_limits<int32_t>::max();
            }) ||
        problem.batch < 1 || problem.batch > kMaxBatch)
      return;
    problem.elementType = a.getElementType();
    problem.resultType = c.getElementType();
    problem.fill = static_cast<bool>(getOutputFill(op));
    // Strided memref operands (tile-configure checked their layouts).
    for (auto [operand, layout] :
         llvm::zip(op->getOperands(),
                   std::array{&problem.layoutA, &problem.layoutB,
                              &problem.layoutC})) {
      auto memref = dyn_cast<MemRefType>(operand.getType());
      if (!memref)
        continue;
      FailureOr<std::optional<StridedLayout>> strided =
          getStridedLayout(memref);
      if (succeeded(strided))
        *layout = *strided;
    }
    std::string name;
    llvm::raw_string_ostream nameStream(name);
    nameStream << "(" << op->getName() << " at " << op.getLoc() << ")";
    printReport(os, name, config, problem, *chipInfo, std::nullopt, nullptr);
    any = true;
    if (svgDir.empty() || kernelElementBytes(problem.elementType) == 0)
      return;
    // The picture is of the kernel tile-block-tile will make: it folds a
    // fill of C with a constant into the kernel, except under split-K (the
    // fill then stays on the host and the kernel accumulates).
    FloatAttr fillValue;
    linalg::FillOp fill = getOutputFill(op);
    problem.fill =
        fill && numSplits(config.toTileConfig(), problem.k) == 1 &&
        matchPattern(fill.getInputs().front(), m_Constant(&fillValue));
    std::string kernelName =
        (function ? function.getName().str() : std::string("kernel")) +
        "_matmul" + std::to_string(index);
    if (failed(writePicture(op, svgDir, kernelName, config, problem,
                            *chipInfo)))
      failedAny = true;
  });
  os.flush();
  if (failedAny)
    return signalPassFailure();
  if (!any)
    os << "tile-report: no configured matmul or kernel\n";
  os.flush();
}

} // namespace
