//===- TileAttrs.td - tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TILEATTRS_TD
#define TILE_DIALECT_TILE_TILEATTRS_TD

include "tile/Dialect/Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_ConfigAttr : AttrDef<Tile_Dialect, "Config"> {
  let mnemonic = "config";
  let summary = "The tiling decision for one matmul";
  let description = [{
    Holds every choice the lowering of one `linalg.matmul` obeys. The
    `strategy` says which instruction computes the tile, and with it which
    passes lower the kernel.

    **`strategy = fma`** (the default; FP32): FMAs on register tiles.

    - `block = [BM, BN, BK]`: one thread block (CTA) computes a BM×BN tile of
      C, stepping through K in BK-deep slices staged in shared memory.
    - `warp = [WM, WN]`: each warp owns a WM×WN sub-tile of the block tile.
    - `thread = [TM, TN]`: each lane holds a TM×TN register tile of C.
    - `stages = S`: 1 = one shared-memory buffer (load, barrier, compute,
      barrier); 2 = double buffering, the global loads of slice k+1 in flight
      (in registers) while slice k is computed; 3 or more = S buffers filled
      by asynchronous copies (cp.async, no staging registers), S-1 slices in
      flight. (The copy kind follows from the stages: `copy` is `registers`
      for 1 or 2, `cp_async` for 3 or more; it may be written, and must then
      agree.)
    - `smem = none | pad(P) | xor`: layout of the A tile in shared memory
      (k-major): no change, each row padded by P elements, or 16-byte granules
      XOR-swizzled by the row index. With `pad(P)` a B stored N x K (copied
      into its k-major tile as A is) gets the same pad.
    - `prefetch = true | false`: register prefetch, the fragments of step k+1
      loaded from shared memory before the FMAs of step k.

    Threads per block = (BM/WM)·(BN/WN)·32, and a warp tile holds exactly 32
    thread tiles: (WM/TM)·(WN/TN) = 32.

    **`strategy = wgmma`** (bf16/f16 on sm_90a): Hopper tensor cores.

    - `block = [BM, BN, BK]`: as above; BK·(element bytes) = 128, one row of
      the 128-byte swizzle.
    - `warpgroup = [WM, WN]`: each consumer warpgroup (4 warps, 128 threads)
      owns a WM×WN sub-tile; WM a multiple of 64.
    - `mma = [64, IN, IK]`: one `wgmma.mma_async` instruction computes a
      64×IN tile over IK of K (IN a multiple of 8 up to 256; IK = 16 for
      bf16/f16); a warpgroup issues (WM/64)·(WN/IN) of them per k step.
    - `stages = S`: the shared-memory ring has S slots of A and B slabs, each
      slot with a "full" and an "empty" mbarrier (S >= 2).
    - `copy = tma | registers`: slabs are brought in by the TMA (row strides a
      multiple of 16 bytes), or loaded by threads and stored in the swizzled
      layout (any shape).
    - `repack = true | false` (copy = tma only): A or B whose rows are not a
      multiple of 16 bytes (K or N not a multiple of 8 bf16/f16 elements) is
      first copied, by the runtime before the launch, into a buffer whose
      rows are padded to 16 bytes, and the TMA reads that copy; operands
      with aligned rows are read in place. Without it such shapes need
      `copy = registers`. For the fma strategy (any stages): a row-major,
      dense B of one matrix whose rows are off 16 bytes (N not a multiple
      of 4) is read from the runtime's copy with rows padded to 16 bytes
      (the manifest's `repack_row_stride` on B), so that its slice copies
      are 16-byte vectors and a cp.async ring can take them; any other B is
      refused by tile-configure.
    - `specialize = true | false`: a producer warpgroup only issues the copies
      and the consumer warpgroups only issue wgmma.
    - `persistent = true | false` (specialize = true, copy = tma, no split-K):
      the grid has at most as many blocks as fit on the chip at once (its
      SMs times the occupancy) and each block computes the tiles t, t + G,
      t + 2G, ... of C (G the grid; the tiles of every matrix of a batch in
      one sequence), the ring's slabs numbered on from tile to tile, so the
      producer fills the next tile's slots while the consumers store C.
    - `cluster = [CM, CN]` (specialize = true, copy = tma, no split-K): a
      thread-block cluster. `[1, 1]` (the default) is none;
      `[2, 1]` pairs blocks 2i and 2i+1 on vertically adjacent tiles of one
      column (the swizzled order walks pairs of tile rows): they read the
      same slab of B, so each block's producer loads half of B's boxes (BN
      a multiple of 128: half of its 64-column chunks, or where B is stored
      N×K a box of half its rows) and the TMA multicasts them into both
      blocks' shared memory; a slot is refilled once the consumers of both
      blocks have released it. The tile rows of C must be even in number.
      `[1, 2]` pairs them on horizontally adjacent tiles of one row (the
      order walks pairs of tile columns) and shares A's slab the same way
      (BM a multiple of 128; an even number of tile columns). Both launch
      as clusters of 2 blocks along the grid's x. A persistent kernel's
      clusters walk the pairs of tiles (cluster c takes pairs c, c + G/2,
      ...; its grid G whole clusters).
    - `store = tma | registers` (tma: specialize = true, copy = tma, no
      split-K): how C is written. `registers` (the default): each thread
      stores its accumulators. `tma`: each consumer warpgroup stages its
      tile, 64 rows by 128 bytes (32 f32 or 64 bf16/f16 columns) at a time,
      in two shared-memory buffers of its own (128-byte swizzled, after the
      ring), and its leader writes each with a TMA store, which runs on
      while the warpgroup fills the other buffer and, in a persistent
      kernel, after the last while it computes its next tile (C's rows and
      first element on 16 bytes; WN a
      multiple of the box's columns). The fused epilogue is applied before
      the values are staged; what lies past C's edges is not written.
    - `smem = swizzle128`: the layout wgmma reads (the only one).

    Threads per block = (BM/WM)·(BN/WN)·128, plus 128 when specialized.

    **Both:**

    - `swizzle = G`: launch order; the linear block index walks G block rows
      at a time so blocks running together share A rows and B columns in L2
      (G = 1 is plain row-major order).
    - `occupancy = N`: the kernel must fit N blocks per SM (`nvvm.minctasm`;
      ptxas then caps registers at 65536 / (N * threads) per thread). Omitted
      or 0: no hint, ptxas chooses.
    - `split_k = S`: split-K. The K dimension is divided into S chunks of
      whole K slices, each computed by its own block; the blocks of one tile
      add their partial products into C with atomic adds (so C must hold its
      initial value before the launch). Omitted or 1: no split. With
      wgmma, C must be f32 (the partial products are f32) and the kernel
      has no fused epilogue.
    - `split_last = T` (wgmma, with split_k = S > 1): only the last T tiles
      of the launch order (of each matrix) are split S ways; every other
      tile is computed whole by one block, which adds its product into C
      the same way. The grid holds (tiles - T) + T·S blocks: where the
      whole tiles fill the chip's waves exactly, the split ones fill the
      last wave with blocks S times shorter instead of leaving it mostly
      idle (a data-parallel + split-K hybrid, the simplest stream-K).
      Omitted or 0: every tile is split. The cost model does not choose
      it (measured slower than unsplit: the whole tiles' atomic adds).

    Omitted fields take the strategy's defaults: for fma stages = 2,
    swizzle = 8, smem = pad(4), prefetch = true; for wgmma stages = 4,
    copy = tma, specialize = true, swizzle = 8, smem = swizzle128,
    repack = false, persistent = false, store = registers; occupancy 0,
    split_k 1 and
    split_last 0 (these five, and store = tma, printed only when set).

    Examples:
    ```mlir
    #tile.config<block = [128, 128, 8], warp = [32, 64], thread = [8, 8],
                 stages = 2, swizzle = 8, smem = pad(4), prefetch = true>
    #tile.config<strategy = wgmma, block = [128, 256, 64],
                 warpgroup = [64, 256], mma = [64, 256, 16], stages = 4,
                 copy = tma, specialize = true, swizzle = 8,
                 smem = swizzle128>
    ```
  }];
  let parameters = (ins
    AttrParameter<"::mlir::tile::TileConfig", "the tiling decision">:$config
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::mlir::tile::Strategy getStrategy() const { return getConfig().strategy; }
    bool isWgmma() const { return getConfig().isWgmma(); }
    int64_t getBlockM() const { return getConfig().blockM; }
    int64_t getBlockN() const { return getConfig().blockN; }
    int64_t getBlockK() const { return getConfig().blockK; }
    int64_t getWarpM() const { return getConfig().warpM; }
    int64_t getWarpN() const { return getConfig().warpN; }
    int64_t getThreadM() const { return getConfig().threadM; }
    int64_t getThreadN() const { return getConfig().threadN; }
    int64_t getMmaK() const { return getConfig().mmaK; }
    int64_t getStages() const { return getConfig().stages; }
    int64_t getSwizzleGroup() const { return getConfig().swizzleGroup; }
    ::mlir::tile::SharedLayout getSmemLayout() const {
      return getConfig().smemLayout;
    }
    int64_t getSmemPad() const { return getConfig().smemPad; }
    bool getRegPrefetch() const { return getConfig().regPrefetch; }
    int64_t getMinBlocksPerSM() const { return getConfig().minBlocksPerSM; }
    int64_t getSplitK() const { return getConfig().splitK; }
    int64_t getSplitLast() const { return getConfig().splitLast; }
    ::mlir::tile::CopyKind getCopy() const { return getConfig().copyKind(); }
    bool getSpecialize() const { return getConfig().specialize; }
    bool getPersistent() const { return getConfig().persistent; }
    int64_t getClusterM() const { return getConfig().clusterM; }
    int64_t getClusterN() const { return getConfig().clusterN; }
    int64_t getClusterSize() const { return getConfig().clusterSize(); }
    /// Warps (fma) or consumer warpgroups (wgmma) along M and N in a block.
    int64_t getWarpsM() const { return getConfig().warpsM(); }
    int64_t getWarpsN() const { return getConfig().warpsN(); }
    int64_t getNumWarps() const { return getConfig().numWarps(); }
    int64_t getNumThreads() const { return getConfig().numThreads(); }
    /// Lanes along M and N in one warp (fma).
    int64_t getLanesM() const { return getConfig().lanesM(); }
    int64_t getLanesN() const { return getConfig().lanesN(); }
    /// The plain-C++ form of this config (for the cost model).
    ::mlir::tile::TileConfig toTileConfig() const { return getConfig(); }
  }];
}

#endif // TILE_DIALECT_TILE_TILEATTRS_TD
