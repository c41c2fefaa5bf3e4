//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TILEOPS_TD
#define TILE_DIALECT_TILE_TILEOPS_TD

include "tile/Dialect/Tile/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

def Tile_AtomicAddFOp : Tile_Op<"atomic_addf"> {
  let summary = "Adds a vector of f32 into adjacent elements, each atomically";
  let description = [{
    Adds element `e` of `value` (a vector of 2 or 4 f32) into element
    `[i0, ..., i(r-2), i(r-1) + e]` of `memref`: one atomic add per element
    (the vector is not one atomic operation), with relaxed ordering and no
    result. The first element's address must be aligned to the vector's
    size (8 or 16 bytes), and the elements adjacent in memory (an innermost
    stride of 1).

    tile-wgmma makes it for a split-K kernel's pairs of accumulator columns.
    tile-lower-nvgpu lowers it to one `red.global.add.v2.f32` or
    `.v4.f32` (PTX ISA 8.1, sm_90), or with `vector-atomics=false` to one
    `atom.global.add.f32` per element.

    ```mlir
    tile.atomic_addf %pair, %C[%row, %col] : vector<2xf32>, memref<200x300xf32>
    ```
  }];
  let arguments = (ins FixedVectorOfLengthAndType<[2, 4], [F32]>:$value,
                       Arg<MemRefOf<[F32]>, "the memref added into",
                           [MemRead, MemWrite]>:$memref,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $memref `[` $indices `]` attr-dict `:` type($value) `,`
    type($memref)
  }];
  let hasVerifier = 1;
}

#endif // TILE_DIALECT_TILE_TILEOPS_TD
