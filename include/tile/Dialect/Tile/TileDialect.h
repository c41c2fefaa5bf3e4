//===- TileDialect.h - the tile dialect -------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TILEDIALECT_H
#define TILE_DIALECT_TILE_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Dialect/Tile/TileDialect.h.inc"

#include "tile/Dialect/Tile/TileAttrs.h"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/TileOps.h.inc"

#endif // TILE_DIALECT_TILE_TILEDIALECT_H
