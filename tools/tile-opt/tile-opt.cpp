//===- tile-opt.cpp - the tile-opt driver ---------------------------------===//
//
// mlir-opt with the tile dialect, passes and pipelines added to the upstream
// ones the pipeline uses.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/InitAll.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tile::registerTilePasses();
  mlir::DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "tile-opt: compiles linalg.matmul to GPU kernels through the tiling "
      "hierarchy (block, shared memory, warp, thread tiles) to PTX/cubin.\n"
      "Start with --tile-matmul-to-ptx=\"output-dir=DIR report=true\"; "
      "each stage is also a pass (--tile-configure, --tile-block-tile, ...).\n",
      registry));
}
