//===- InitAll.cpp - registration of everything tile-opt provides ---------===//

#include "tile/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Transforms/Passes.h"

void mlir::tile::registerTileDialects(DialectRegistry &registry) {
  registry.insert<TileDialect>();
  // The pipeline goes from linalg/tensor through bufferization, gpu, scf,
  // vector and memref to NVVM and LLVM, then serializes through the NVVM
  // target: every dialect, interface model and translation on that path.
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

void mlir::tile::registerTilePasses() {
  // The upstream passes as well: a pipeline printed by --dump-pass-pipeline
  // or a crash reproducer then parses again in a tool that registered only
  // these. Registering a pass twice (mlir-opt loading the plugin) is a no-op.
  registerAllPasses();
  registerTileTransformsPasses();
  registerTilePipelines();
}
