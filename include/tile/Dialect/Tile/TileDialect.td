//===- TileDialect.td - the tile dialect -------------------*- tablegen -*-===//
//
// The tile dialect carries the tiling decision for one matmul through the
// pipeline: one pass chooses a #tile.config, every later pass obeys it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TILEDIALECT_TD
#define TILE_DIALECT_TILE_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tiling decisions for GPU matmul kernels";
  let description = [{
    The `tile` dialect holds the attributes through which tile-opt's passes
    communicate: `#tile.config` records the whole tiling decision for one
    `linalg.matmul` (block, warp and thread tiles, pipeline stages, launch
    swizzle, shared-memory layout). The configuration pass writes it on the op
    (or keeps the one a user wrote); every later pass reads it. Its one
    operation, `tile.atomic_addf`, is the split-K epilogue's vector of
    atomic adds into C, until `tile-lower-nvgpu` makes it PTX.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute that holds a #tile.config on an op.
    static constexpr ::llvm::StringLiteral kConfigAttrName = "tile.config";
  }];
}

#endif // TILE_DIALECT_TILE_TILEDIALECT_TD
