//===- TilePlugin.cpp - tile dialect and passes as an mlir-opt plugin -----===//
//
// Loaded by upstream mlir-opt:
//   mlir-opt --load-dialect-plugin=TilePlugin.so \
//            --load-pass-plugin=TilePlugin.so \
//            --pass-pipeline="builtin.module(tile-configure)" in.mlir
// Plugin passes register after option parsing: reach them through
// --pass-pipeline, not as --tile-... flags.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/InitAll.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TileDialect", LLVM_VERSION_STRING,
          [](::mlir::DialectRegistry *registry) {
            registry->insert<::mlir::tile::TileDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TilePasses", LLVM_VERSION_STRING,
          []() { ::mlir::tile::registerTilePasses(); }};
}
