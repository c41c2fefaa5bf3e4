//===- TileDialect.h - the tile dialect -------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TILEDIALECT_H
#define TILE_DIALECT_TILE_TILEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tile/Dialect/Tile/TileDialect.h.inc"

#include "tile/Dialect/Tile/TileAttrs.h"

#endif // TILE_DIALECT_TILE_TILEDIALECT_H
