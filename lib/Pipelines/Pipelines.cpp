//===- Pipelines.cpp - tile-opt's pass pipelines --------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tile/Transforms/Passes.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tile;

/// The fma strategy (FP32): warp tiles, thread (register) tiles of FMAs,
/// double buffering or a cp.async ring with register prefetch.
static void addFmaStrategyPasses(OpPassManager &pm,
                                 const MatmulToPTXOptions &options) {
  pm.addPass(createTileWarpTile());
  TileThreadTileOptions threadTile;
  threadTile.fmaOrder = options.fmaOrder;
  threadTile.vectorC = options.vectorC;
  pm.addPass(createTileThreadTile(threadTile));
  pm.addPass(createTilePipeline());
}

/// The wgmma strategy (bf16/f16 on Hopper's tensor cores): warpgroup
/// tiles, wgmma instruction tiles, an mbarrier ring filled by the TMA (or
/// a producer's copies) with warp specialization.
static void addWgmmaStrategyPasses(OpPassManager &pm,
                                   const MatmulToPTXOptions &options) {
  pm.addPass(createTileWarpgroupTile());
  pm.addPass(createTileWgmma());
  TileMbarrierPipelineOptions mbarrier;
  mbarrier.persistentBlocks = options.persistentBlocks;
  pm.addPass(createTileMbarrierPipeline(mbarrier));
}

/// Whether the target has red.global.add.v2/v4.f32: sm_90 or later and
/// PTX ISA 8.1 or later. (A chip or version that does not parse says no;
/// tile-export reports a malformed one.)
static bool hasVectorAtomics(StringRef chip, StringRef ptxVersion) {
  unsigned sm = 0, major = 0, minor = 0;
  StringRef digits = chip;
  if (!digits.consume_front("sm_"))
    return false;
  digits = digits.take_while([](char c) { return llvm::isDigit(c); });
  auto [majorText, minorText] = ptxVersion.split('.');
  if (digits.getAsInteger(10, sm) || majorText.getAsInteger(10, major) ||
      minorText.getAsInteger(10, minor))
    return false;
  return sm >= 90 && (major > 8 || (major == 8 && minor >= 1));
}

static TileReportOptions reportOptions(const MatmulToPTXOptions &options) {
  TileReportOptions report;
  report.chip = options.chip;
  report.svgDir = options.svgDir;
  return report;
}

/// The tiling stages; `reportAfterConfigure` prints the cost-model table
/// once the configs are chosen.
static void addTilingPasses(OpPassManager &pm,
                            const MatmulToPTXOptions &options,
                            bool reportAfterConfigure) {
  // Matmuls written as linalg.generic or linalg.contract become
  // linalg.matmul; tile-configure reports the contractions that are not.
  pm.addPass(createTileCanonicalizeContractions());
  // Tensor-level matmuls (including the fill-then-matmul form) become
  // memref-level ones; a module without tensors is left as it is.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Elementwise ops that update C right after a matmul become its kernel's
  // epilogue.
  pm.addPass(createTileFuseEpilogues());

  TileConfigureOptions configure;
  configure.chip = options.chip;
  configure.blockTile.assign(options.blockTile.begin(), options.blockTile.end());
  configure.warpTile.assign(options.warpTile.begin(), options.warpTile.end());
  configure.threadTile.assign(options.threadTile.begin(),
                              options.threadTile.end());
  configure.stages = options.stages;
  configure.swizzle = options.swizzle;
  configure.smem = options.smem;
  configure.prefetch = options.prefetch;
  configure.copy = options.copy;
  configure.specialize = options.specialize;
  configure.repack = options.repack;
  configure.persistent = options.persistent;
  configure.cluster = options.cluster;
  configure.store = options.store;
  configure.tf32 = options.tf32;
  configure.occupancy = options.occupancy;
  configure.splitK = options.splitK;
  configure.splitLast = options.splitLast;
  configure.occupancyHint = options.occupancyHint;
  configure.tuningTable = options.tuningTable;
  // Linalg ops left in host code, and a module with nothing to compile, get
  // a warning rather than no word.
  configure.warnUncompiled = true;
  pm.addPass(createTileConfigure(configure));
  if (reportAfterConfigure)
    pm.addPass(createTileReport(reportOptions(options)));
  TileBlockTileOptions blockTile;
  blockTile.indexBitwidth = options.indexBitwidth;
  pm.addPass(createTileBlockTile(blockTile));
  pm.addPass(createTilePromoteShared());
  // From here on each strategy has its own passes; each pass lowers the
  // kernels of its strategy and leaves the others alone.
  addFmaStrategyPasses(pm, options);
  addWgmmaStrategyPasses(pm, options);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::tile::buildMatmulTilingPipeline(OpPassManager &pm,
                                           const MatmulToPTXOptions &options) {
  addTilingPasses(pm, options, /*reportAfterConfigure=*/options.report ||
                                   !options.svgDir.empty());
}

void mlir::tile::buildMatmulToPTXPipeline(OpPassManager &pm,
                                          const MatmulToPTXOptions &options) {
  // The report comes once, at the end, with what ptxas said next to the
  // model's estimates.
  addTilingPasses(pm, options, /*reportAfterConfigure=*/false);

  // Device code to NVVM (the device half of upstream's
  // gpu-lower-to-nvvm-pipeline; host code stays at the gpu.launch_func level,
  // the runtime launches kernels from their manifests).
  TileTensorMapParamsOptions gpuParams, llvmParams;
  gpuParams.phase = "gpu";
  llvmParams.phase = "llvm";
  pm.addPass(createTileTensorMapParams(gpuParams));
  pm.addPass(createTileDynamicLayoutParams());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(memref::createFoldMemRefAliasOpsPass());
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createStripDebugInfoPass());
  TileLowerNVGPUOptions lowerNVGPU;
  lowerNVGPU.vectorAtomics =
      hasVectorAtomics(options.chip, options.ptxVersion);
  device.addPass(createTileLowerNVGPU(lowerNVGPU));
  device.addPass(createTileExpandMath());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  // NVVM ops that are PTX (wgmma, mbarrier waits) become inline assembly.
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(createTileExternDynamicShared());
  device.addPass(LLVM::createNVVMOptimizeForTargetPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  pm.addPass(createTileTensorMapParams(llvmParams));

  TileAttachTargetOptions target;
  target.chip = options.chip;
  std::string version = options.ptxVersion;
  version.erase(std::remove(version.begin(), version.end(), '.'),
                version.end());
  target.features = "+ptx" + version;
  target.optLevel = options.optLevel;
  pm.addPass(createTileAttachTarget(target));

  TileExportOptions exportOptions;
  exportOptions.outputDir = options.outputDir;
  exportOptions.ptxas = options.ptxas;
  pm.addPass(createTileExport(exportOptions));
  if (options.report || !options.svgDir.empty())
    pm.addPass(createTileReport(reportOptions(options)));
}

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<MatmulToPTXOptions>(
      "tile-matmul-to-ptx",
      "Compile every linalg.matmul to a GPU kernel: tiling, NVVM lowering, "
      "PTX/cubin and manifest export",
      buildMatmulToPTXPipeline);
  PassPipelineRegistration<MatmulToPTXOptions>(
      "tile-matmul-tiling",
      "Only the tiling stages of tile-matmul-to-ptx: every linalg.matmul "
      "becomes a kernel of SIMT code and its launch",
      buildMatmulTilingPipeline);
}
