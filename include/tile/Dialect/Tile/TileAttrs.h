//===- TileAttrs.h - tile dialect attributes --------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TILEATTRS_H
#define TILE_DIALECT_TILE_TILEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "tile/Dialect/Tile/TileConfig.h"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/TileAttrs.h.inc"

namespace mlir {
namespace tile {
/// The #tile.config on `op` (under the name "tile.config"), or null.
ConfigAttr getConfig(Operation *op);
/// Writes `config` on `op` under the name "tile.config".
void setConfig(Operation *op, ConfigAttr config);
} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TILEATTRS_H
