//===- TileAttrs.td - tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TILEATTRS_TD
#define TILE_DIALECT_TILE_TILEATTRS_TD

include "tile/Dialect/Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_ConfigAttr : AttrDef<Tile_Dialect, "Config"> {
  let mnemonic = "config";
  let summary = "The tiling decision for one matmul";
  let description = [{
    Holds every choice the lowering of one `linalg.matmul` obeys:

    - `block = [BM, BN, BK]`: one thread block (CTA) computes a BM×BN tile of
      C, stepping through K in BK-deep slices staged in shared memory.
    - `warp = [WM, WN]`: each warp owns a WM×WN sub-tile of the block tile.
    - `thread = [TM, TN]`: each lane holds a TM×TN register tile of C.
    - `stages = S`: 1 = one shared-memory buffer (load, barrier, compute,
      barrier); 2 = double buffering, the global loads of slice k+1 in flight
      (in registers) while slice k is computed; 3 or more = S buffers filled
      by asynchronous copies (cp.async, no staging registers), S-1 slices in
      flight.
    - `swizzle = G`: launch order; the linear block index walks G block rows
      at a time so blocks running together share A rows and B columns in L2
      (G = 1 is plain row-major order).
    - `smem = none | pad(P) | xor`: layout of the A tile in shared memory
      (k-major): no change, each row padded by P elements, or 16-byte granules
      XOR-swizzled by the row index.
    - `prefetch = true | false`: register prefetch, the fragments of step k+1
      loaded from shared memory before the FMAs of step k.
    - `occupancy = N`: the kernel must fit N blocks per SM (`nvvm.minctasm`;
      ptxas then caps registers at 65536 / (N * threads) per thread). Omitted
      or 0: no hint, ptxas chooses.
    - `split_k = S`: split-K. The K dimension is divided into S chunks of
      whole K slices, each computed by its own block; the blocks of one tile
      add their partial products into C with atomic adds (so C must hold its
      initial value before the launch). Omitted or 1: no split.

    Threads per block = (BM/WM)·(BN/WN)·32, and a warp tile holds exactly 32
    thread tiles: (WM/TM)·(WN/TN) = 32.

    `stages`, `swizzle`, `smem`, `prefetch`, `occupancy` and `split_k` may
    be omitted; they default to 2, 8, pad(4), true, 0 and 1 (the last two are
    printed only when set).

    Example:
    ```mlir
    #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8],
                 stages = 2, swizzle = 8, smem = pad(4), prefetch = true>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "block tile M, N, K">:$blockTile,
    ArrayRefParameter<"int64_t", "warp tile M, N">:$warpTile,
    ArrayRefParameter<"int64_t", "thread tile M, N">:$threadTile,
    "int64_t":$stages,
    "int64_t":$swizzleGroup,
    "::mlir::tile::SharedLayout":$smemLayout,
    "int64_t":$smemPad,
    "bool":$regPrefetch,
    "int64_t":$minBlocksPerSM,
    "int64_t":$splitK
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getBlockM() const { return getBlockTile()[0]; }
    int64_t getBlockN() const { return getBlockTile()[1]; }
    int64_t getBlockK() const { return getBlockTile()[2]; }
    int64_t getWarpM() const { return getWarpTile()[0]; }
    int64_t getWarpN() const { return getWarpTile()[1]; }
    int64_t getThreadM() const { return getThreadTile()[0]; }
    int64_t getThreadN() const { return getThreadTile()[1]; }
    /// Warps along M and N in one block.
    int64_t getWarpsM() const { return getBlockM() / getWarpM(); }
    int64_t getWarpsN() const { return getBlockN() / getWarpN(); }
    int64_t getNumWarps() const { return getWarpsM() * getWarpsN(); }
    int64_t getNumThreads() const { return getNumWarps() * 32; }
    /// Lanes along M and N in one warp.
    int64_t getLanesM() const { return getWarpM() / getThreadM(); }
    int64_t getLanesN() const { return getWarpN() / getThreadN(); }
    /// The plain-C++ form of this config (for the cost model).
    ::mlir::tile::TileConfig toTileConfig() const;
    static ConfigAttr get(::mlir::MLIRContext *context,
                          const ::mlir::tile::TileConfig &config);
  }];
}

#endif // TILE_DIALECT_TILE_TILEATTRS_TD
