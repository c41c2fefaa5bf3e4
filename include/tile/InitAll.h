//===- InitAll.h - registration of everything tile-opt provides -*- C++ -*-===//
//
// The embedding API: a tool that wants the tile dialect and passes calls
// registerTileDialects on its DialectRegistry and registerTilePasses once.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INITALL_H
#define TILE_INITALL_H

namespace mlir {
class DialectRegistry;
namespace tile {

/// Adds the tile dialect, the upstream dialects the pipeline creates ops of,
/// and the interfaces the lowering needs (bufferization models, conversion to
/// LLVM, NVVM target serialization, translation to LLVM IR) to `registry`.
void registerTileDialects(DialectRegistry &registry);

/// Registers the tile passes and pipelines (and the upstream passes the
/// pipeline uses) with the global registry, so they can be parsed from a
/// pipeline string and listed by --help.
void registerTilePasses();

} // namespace tile
} // namespace mlir

#endif // TILE_INITALL_H
