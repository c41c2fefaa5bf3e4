//===- Passes.td - tile-opt's passes -----------------------*- tablegen -*-===//
//
// One pass per stage of the tiling hierarchy. Each reads the #tile.config
// that `tile-configure` wrote on the matmul and does one thing.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCanonicalizeContractions : Pass<"tile-canonicalize-contractions"> {
  let summary = "Rewrite linalg.generic and linalg.contract ops that are "
                "plain matmuls into linalg.matmul";
  let description = [{
    Front ends often write a matmul as a `linalg.generic` (or, since MLIR
    21, a `linalg.contract`). This pass, the first of the `tile-matmul-to-ptx`
    and `tile-matmul-tiling` pipelines, replaces such an op by a
    `linalg.matmul` on the same operands (tensors or memrefs, keeping its
    discardable attributes, such as a `tile.config`) when it is a plain
    matmul, its operands row-major or transposed, and by a
    `linalg.batch_matmul` when it is the same per matrix of a batch:

    - linalg's `isaContractionOpInterface` holds (two inputs, one output,
      projected-permutation indexing maps, a reduction loop, a multiply-add
      body) and `inferContractionDims` finds at most one batch dimension and
      exactly one M, one N and one K loop, and no other loop;
    - a batch loop indexes the first dimension of every operand (A
      (b, m, k) or (b, k, m), B (b, k, n) or (b, n, k), C (b, m, n)); the
      `linalg.batch_matmul`'s maps name it d0 (then d1 = m, d2 = n, d3 = k);
    - A is indexed (m, k) or (k, m) (stored K x M), B (k, n) or (n, k)
      (stored N x K, nn.Linear's weight) and C (m, n), in whatever order the
      loops come; a transposed operand becomes the `linalg.matmul`'s
      `indexing_maps` (loops d0 = m, d1 = n, d2 = k);
    - the body is exactly `linalg.yield (arith.addf C, (arith.mulf A', B'))`
      (the operands of each op in either order), where A' and B' are the
      inputs themselves on f32, or their `arith.extf` to f32 on bf16 or f16,
      and C is f32: the semantics of a `linalg.matmul` of those types. Fast-
      math flags of the body's ops are dropped (a `linalg.matmul` has none;
      dropping them takes licences away, it grants none).
      The body is matched op by op because linalg's body matcher lets any
      chain of unary ops through (an `arith.negf` of the product still
      makes a contraction to it).

    A `linalg.transpose` (permutation [1, 0], on tensors) that makes A or B
    of a `linalg.matmul` (or, with permutation [0, 2, 1], of a
    `linalg.batch_matmul`) is folded into the matmul's indexing maps: the
    matmul reads the transpose's input (two transposes cancel, and a chain
    of them folds one after another), and the transpose is erased when
    nothing else uses it.

    Elementwise ops on tensors after a matmul in the destination-passing
    form front ends emit (torch-mlir writes each op into a new
    `tensor.empty`, the matmul's result one of its inputs) are rewritten
    to update the matmul's result in place, so that bufferization keeps
    them on C and `tile-fuse-epilogues` can fuse them: an op with parallel
    loops, one output of the identity map whose init is a `tensor.empty`
    its body does not read, and an input of the output's type, read
    element by element, that is the matmul's result (or the result of an
    op rewritten before it, for a chain) and has no other use, becomes a
    `linalg.generic` with that value as its output (its block argument the
    output's); a named op (`linalg.add`, ...) becomes its generic form.
    Of several such inputs (two matmuls' results added) the one made last
    is written, so that the other is ready before its kernel runs. An op
    that already takes a matmul's result as its output while the result
    is used elsewhere too is an error at the op: bufferization would give
    it a copy of C, and it would stay in host code.
    Other ops stay as they are, and `tile-configure` says at the op why it
    is not fused.

    A cast to bf16 or f16 at the end of such a chain (an op as above whose
    output is a `tensor.empty` of that type, one input the f32 value, and
    whose body yields an `arith.truncf` from f32, rounding to nearest
    even, and whose result no linalg op reads) makes the chain store that
    type when the matmul's inputs are of it and its C is a `linalg.fill`
    of a constant the type holds exactly, used nowhere else: the fill and the matmul get C of the 16-bit type, each op of the
    chain updates it in place (its output read through `arith.extf` to
    f32, what it yields rounded with `arith.truncf`), and the cast becomes
    one more such op, the f32 input replaced by the widened output. tile-opt
    keeps a 16-bit C in f32 from the first product to the store, where it
    rounds once, so the kernel computes what the f32 chain and the cast
    did. A cast it leaves (f32 inputs, another 16-bit type than the
    inputs', C accumulated onto a tensor, a start the type does not hold,
    a rounding mode, an op on its result that would lose its rounding
    fused after it) stays outside the kernel and is reported at the op.

    Every other op is left as it is; `tile-configure` then reports each
    contraction-like op that is not a `linalg.matmul` or
    `linalg.batch_matmul` at the op, saying what it is (two batch
    dimensions, a broadcast, another body or element type, ...).

    Example: the generic below becomes
    `linalg.matmul ins(%A, %B : ...) outs(%C : ...)`.
    ```mlir
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                     affine_map<(m, n, k) -> (k, n)>,
                                     affine_map<(m, n, k) -> (m, n)>],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%A, %B : memref<64x32xbf16>, memref<32x48xbf16>)
        outs(%C : memref<64x48xf32>) {
    ^bb0(%a: bf16, %b: bf16, %c: f32):
      %a32 = arith.extf %a : bf16 to f32
      %b32 = arith.extf %b : bf16 to f32
      %p = arith.mulf %a32, %b32 : f32
      %s = arith.addf %c, %p : f32
      linalg.yield %s : f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TileFuseEpilogues : Pass<"tile-fuse-epilogues", "ModuleOp"> {
  let summary = "Fuse elementwise linalg ops after a linalg.matmul or "
                "linalg.batch_matmul into its kernel's epilogue";
  let description = [{
    Runs after bufferization, before `tile-configure`. For each
    `linalg.matmul` and `linalg.batch_matmul` on memrefs, the linalg ops
    that follow it in its block (ops without memory effects in between are
    skipped) and update its C in place element by element are fused, one
    after another, while each can be: parallel loops over C (two; three,
    the batch first, for a batched C), C the one output with the identity
    map, every other input an f32/bf16/f16 memref of static shape that is
    either a vector along C's columns (`memref<n>` indexed by the column
    loop: a bias per column, as nn.Linear has), along its rows
    (`memref<m>`, the row loop) or of one matrix's shape (a residual, or
    C's old value for beta*C), made before the matmul. Under a batched
    matmul each of these is shared by every matrix, or has one per matrix
    with the batch first (`memref<batch x n>` indexed (b, n),
    `memref<batch x m>`, `memref<batch x m x n>` with the identity map).
    An input may be strided (a subview of a bigger buffer:
    `strided<[S, 1], offset: O>`, static or `?`): its offset and strides
    at least 0 and 1, the elements along C's columns contiguous (a
    matrix's rows and a column vector; a row vector's elements may be any
    stride apart). The kernel's parameter keeps the layout (a vector as an
    m x 1 or 1 x n view of its buffer, `memref.reinterpret_cast` on the
    host), `tile.epilogue` on the kernel lists it (`layouts`) for the
    manifest, and a dynamic field becomes a parameter of the launch, as
    A's, B's and C's do.
    The body is made of `arith` `addf`, `subf`, `mulf`, `divf`,
    `maximumf`, `minimumf`, `maxnumf`, `minnumf`, `negf`, `math` `tanh`
    and float constants (ReLU is `maximumf(x, 0)`; alpha is
    `mulf(x, alpha)`; GELU's tanh form is
    `0.5 x (1 + tanh(0.7978845608 (x + 0.044715 x^3)))`, whose `math.tanh`
    the device pipeline's `tile-expand-math` turns into arith ops), and
    `arith.extf` to f32 and an `arith.truncf` of the value stored to C's
    type, which change nothing: the program computes in f32 and rounds
    what it stores to C's type. `linalg.generic` and the named elementwise
    ops (`linalg.add`, `linalg.max`, ...) alike. (With a 16-bit C the ops
    one by one would round C to its type after the matmul and after each
    op; the kernel keeps the values between them in f32 and rounds once,
    on the store: it may differ from them by those roundings.)

    The matmul gets `tile.epilogue = {operands = [...], steps = [...]}`
    (the program in the step language of docs/artifact.md: `addf acc p0`,
    `maximumf s0 0`) and each fused op `tile.fused_epilogue`.
    `tile-block-tile` passes the extra operands to the kernel after C and
    erases the fused ops; the kernel applies the steps to each f32
    accumulator between the K loop and the store of C (thread 0 does it on
    the whole tile until `tile-thread-tile` or `tile-wgmma` makes the
    accumulators registers). An op that uses C after the matmul and is not
    fused stays an error of `tile-configure`, which says why it is not.
  }];
}

def TileConfigure : Pass<"tile-configure"> {
  let summary = "Choose a #tile.config for every linalg.matmul";
  let description = [{
    Attaches `tile.config = #tile.config<...>` to every `linalg.matmul` (and
    `linalg.batch_matmul`) under the pass's root. The config comes from, in order of precedence:

    1. fields given as pass options (`block=`, `warp=`, `thread=`, `stages=`,
       `swizzle=`, `smem=`, `prefetch=`, `occupancy=`, `split-k=`), each
       overriding one field;
    2. a config the user already wrote on the op;
    3. the tuning table (`tuning-table=`), by element type and chip: the
       entry of the exact shape, else the nearest measured shape within a
       factor of 1.28 per extent whose N and K agree on being multiples of
       4 (TuningTable::nearest);
    4. the cost model's default for the shape, element type and chip.

    A table entry's occupancy and split-K were measured with its tile sizes:
    when `block=`, `warp=` or `thread=` change those, the entry's occupancy
    and split-K are dropped (`occupancy=` and `split-k=` can set them again).

    A config from 3 or 4 without an occupancy gets the blocks per SM that
    the cost model predicts for it (`occupancy-hint`, on by default; only
    when that is more than 1), which becomes `nvvm.minctasm`: a register
    budget that keeps ptxas from taking a few registers more than the model
    counted and losing a block per SM. The prediction counts the registers
    the shape's edge (bounds-checked) and accumulate forms add
    (occupancyHintBlocks); tile-export lowers a budget that still spills.
    A config written on the op is kept as written.

    Then checks that the kernel can run on the chip and rejects it with an
    error at the op otherwise: shared memory per block over the chip's limit,
    an estimated register need over 255 per thread, more than 1024 threads.
    Matmuls the pipeline cannot lower yet (dynamic shapes, element types
    other than f32, bf16 and f16, memref layouts other than strides and
    offsets with contiguous rows: a dynamic innermost stride or one other
    than 1, a stride of 0, a layout map that is not strided, C's rows or
    matrices overlapping; C sharing an element with A or B, on memrefs:
    one value, or views of one buffer (through subviews, casts, reshapes)
    whose rows meet, or whose offsets or strides are not known at compile
    time; indexing maps that do more than transpose A or B) are errors at
    the op too (the kernel's blocks would write C while others read A or
    B). Strides and offsets known only at run time are compiled (the
    manifest's `"dynamic"` layouts). A transposed operand's stored rows (of M for A
    stored K x M, of K for B stored N x K) are what the TMA's 16-byte rule
    and the repacking see. Strided
    memrefs (a `memref.subview` of a bigger buffer, padded rows) are
    compiled: the model sees the greatest common divisor of each operand's
    offset and strides (`layoutAlign`), which narrows vector widths and
    decides whether the TMA reads A and B in place or on repacked copies, and
    keeps 64x256 warpgroup tiles from a C stored one element at a time.
    Transposed operands skip the tuning table (its entries were measured on
    row-major ones). Only the matmul becomes a kernel, so a linalg op that
    makes A or B (a `linalg.transpose` on memrefs, a cast: a prologue) or uses C after the matmul (a
    bias, an activation: an epilogue) is an error at that op, with a note at
    the matmul: it would stay in host code, which no kernel runs. These are
    found through the SSA values (the operand itself, on tensors or memrefs,
    not views of it); other matmuls and the `linalg.fill` of C do not count.
    So is any other host op that uses C after the matmul: on memrefs one
    with a read or write effect on C, on a view of it (a subview, a cast, a
    reshape), on what a loop or an `scf.if` it is passed to holds (the
    loop's iteration argument and result), or on a buffer that C is a view
    of (with a second note at the view), that runs after the matmul, in its
    block or in a region nested there (a `memref.copy`, `memref.load` or
    `memref.store`, a linalg op on a view), and a call taking any of these
    (calls declare no effects); on tensors any op that uses the result, a
    slice, cast or reshape of it, an `insert_slice` into it, or what a loop
    or an `scf.if` it is passed to (as an init or a yielded value) holds
    (a `tensor.extract`, a `tensor.insert`, a call, a vector read, a buffer
    made of it, a linalg op on a slice) other than those that pass it on:
    a return, an `insert_slice` of it into another tensor, `tensor.dim`.
    Another matmul that becomes a kernel, and the `linalg.fill` its kernel
    starts from, never count; what comes after the next matmul in the block
    that writes C (or after its fill) is that matmul's to report; an op
    that the results of two matmuls reach (through a loop) is reported
    once. (Not found: a read at the top of a loop body, before the matmul,
    of what the previous iteration's matmul wrote.)

    A `linalg.batch_matmul` (3-d operands, the batch first, row-major or
    with A and/or B transposed per matrix) is configured like a
    `linalg.matmul` of one matrix, with the batch counted in the cost
    model's waves and bytes (the tuning table, measured on single matrices,
    is not used); the batch is at most 65535 matrices (the kernel's grid
    has a row of blocks per matrix); `tile-fuse-epilogues` fuses into it
    as into a `linalg.matmul`.

    Every other linalg op with a reduction loop is an error, the
    contraction-like ops the pipeline does not turn into a kernel:
    `linalg.batch_reduce_matmul`, `linalg.matvec`, `linalg.vecmat`,
    `linalg.dot`, `linalg.mmt4d`, convolutions, reductions, and
    `linalg.generic`/`linalg.contract` ops that are not a plain matmul
    (each error says which of these the op is, from linalg's contraction
    matchers). A `linalg.generic` or `linalg.contract` that is a plain
    matmul is an error too, one that names `tile-canonicalize-contractions`,
    which makes it a `linalg.matmul`. Linalg ops inside kernels (made by
    `tile-block-tile`) are not looked at.

    A root without any matmul is left unchanged. With `warn-uncompiled` (set
    by the `tile-matmul-to-ptx` and `tile-matmul-tiling` pipelines) it gets a
    warning, unless it already holds kernels made by `tile-block-tile`, and
    so does every other linalg op left in host code that is none of the
    above (an elementwise op or a copy that neither makes A or B nor uses
    C; `linalg.fill`s are left alone: a fill of C is the kernel's
    initialisation of C, or under split-K the host's on purpose).

    Example:
    ```mlir
    linalg.matmul {tile.config = #tile.config<block = [128, 128, 8],
        warp = [32, 64], thread = [8, 8], stages = 2, swizzle = 8,
        smem = pad(4), prefetch = true>}
      ins(%A, %B : memref<4096x4096xf32>, memref<4096x4096xf32>)
      outs(%C : memref<4096x4096xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_XY) whose limits the config must respect">,
    ListOption<"blockTile", "block", "int64_t",
               "Block tile M,N,K (overrides the chosen config)">,
    ListOption<"warpTile", "warp", "int64_t",
               "Warp tile M,N (overrides the chosen config)">,
    ListOption<"threadTile", "thread", "int64_t",
               "Thread tile M,N (overrides the chosen config)">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Shared-memory pipeline stages, 1 or 2 (0: keep the chosen one)">,
    Option<"swizzle", "swizzle", "int64_t", /*default=*/"0",
           "Launch swizzle group size in block rows, >= 1 (0: keep the "
           "chosen one)">,
    Option<"smem", "smem", "std::string", /*default=*/"\"\"",
           "Shared-memory layout of the A tile: none, pad<N> (e.g. pad4) or "
           "xor (empty: keep the chosen one)">,
    Option<"prefetch", "prefetch", "std::string", /*default=*/"\"\"",
           "Register prefetch of fragments: true or false (empty: keep the "
           "chosen one)">,
    Option<"occupancy", "occupancy", "int64_t", /*default=*/"0",
           "Blocks per SM the kernel must fit, a register cap for ptxas "
           "(0: keep the chosen one)">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Blocks sharing one tile's K dimension, 1 = no split (0: keep the "
           "chosen one)">,
    Option<"splitLast", "split-last", "int64_t", /*default=*/"-1",
           "With split-K (wgmma), split only the last N tiles of the launch "
           "order and compute the others whole; 0 = split every tile (-1: "
           "keep the chosen one)">,
    Option<"copy", "copy", "std::string", /*default=*/"\"\"",
           "How A and B reach shared memory: registers, cp_async or tma "
           "(empty: keep the chosen one; fma configs take the one their "
           "stages imply)">,
    Option<"repack", "repack", "std::string", /*default=*/"\"\"",
           "Repack A or B whose rows break the TMA's 16-byte rule (or, "
           "where none does, start off 128-byte lines) into copies with "
           "rows on 128 bytes before the launch (wgmma with copy = tma); "
           "for fma, B (row-major, dense, one matrix) with N not a multiple "
           "of 4 into rows on 16 bytes: true or false (empty: keep the "
           "chosen one; for wgmma a copy option other than tma turns it "
           "off and true without a copy option takes the TMA)">,
    Option<"specialize", "specialize", "std::string", /*default=*/"\"\"",
           "Warp specialization (wgmma): true or false (empty: keep the "
           "chosen one)">,
    Option<"persistent", "persistent", "std::string", /*default=*/"\"\"",
           "A persistent kernel (wgmma, specialized, with the TMA, no "
           "split-K): a grid of what fits on the chip at once, each block "
           "walking the tiles: true or false (empty: keep the chosen one)">,
    Option<"store", "store", "std::string", /*default=*/"\"\"",
           "How a wgmma kernel (specialized, with the TMA, no split-K) "
           "writes C: tma (staged in shared memory, written by TMA stores) "
           "or registers (each thread's stores) (empty: keep the chosen "
           "one)">,
    Option<"cluster", "cluster", "std::string", /*default=*/"\"\"",
           "Thread-block cluster of a wgmma kernel (specialized, with the "
           "TMA): 1x1 (none), 2x1 (two blocks along M multicast B's "
           "boxes to each other) or 1x2 (two blocks along N multicast A's) "
           "(empty: keep the chosen one)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Compute f32 matmuls on the tensor cores as TF32 (wgmma .tf32: "
           "each input keeps 10 of its 23 mantissa bits, products and sums "
           "in f32): the cost model's wgmma config, for A stored M x K and "
           "B stored N x K (other layouts get a warning and FP32 fma "
           "kernels)">,
    Option<"occupancyHint", "occupancy-hint", "bool", /*default=*/"true",
           "For a config chosen by the tuning table or the cost model "
           "without an occupancy, set it to the blocks per SM the cost "
           "model predicts, so that ptxas keeps to the register budget the "
           "model assumed">,
    Option<"tuningTable", "tuning-table", "std::string", /*default=*/"\"\"",
           "JSON tuning table consulted by shape, element type and chip "
           "before the cost model (empty: the table built into tile-opt; "
           "none: no table, the cost model decides)">,
    Option<"warnUncompiled", "warn-uncompiled", "bool", /*default=*/"false",
           "Warn when the root holds no linalg.matmul and no kernel, and at "
           "each linalg op (other than a fill) that stays in host code (the "
           "pipelines set it)">,
  ];
}

def TileBlockTile : Pass<"tile-block-tile", "::mlir::ModuleOp"> {
  let summary = "Make each configured matmul a kernel of thread blocks with a "
                "swizzled launch order";
  let description = [{
    Replaces every `linalg.matmul` or `linalg.batch_matmul` that carries a
    `#tile.config` (and the `linalg.fill` of its output that directly
    precedes it, if any) by a
    `gpu.launch_func` of a new kernel, `gpu.func @<function>_matmul<i>` in a
    `gpu.module` of the same name. The kernel's parameters are always
    (A, B, C), in that order (the ABI the manifest describes); A and B are
    marked `llvm.noalias` + `llvm.readonly` (the read-only `ld.global.nc`
    path), C `llvm.noalias`.

    One thread block computes one BM×BN tile of C and has
    (BM/WM)·(BN/WN)·32 threads. The grid is one-dimensional (two for a batch); the linear block
    index is mapped to a (tile row, tile column) pair in groups of G tile rows
    (G = `swizzle` of the config), so blocks that run at the same time read
    the same rows of A and columns of B from L2. The mapping is a bijection
    for every grid, including a last, partial group. With `cluster = [2, 1]`
    blocks 2i and 2i+1 take tile rows 2r and 2r+1 of one column, where
    (r, column) is cluster tile i of the same order over pairs of tile rows
    (groups of G/2 pairs); an odd number of tile rows is an error. With
    `cluster = [1, 2]` they take tile columns 2c and 2c+1 of one row, where
    (row, c) is cluster tile i of the order over pairs of tile columns
    (groups of G rows); an odd number of tile columns is an error.

    A batched matmul's kernel takes the 3-d operands and is launched with
    one row of these blocks per matrix: block y of the grid computes on
    matrix y of A, B and C (rank-reducing `memref.subview`s at [y, 0, 0],
    made first in the kernel), and everything after that is the kernel of
    one matrix; `tile.matmul` records `batch`.

    Inside the kernel, the block's tile of C is computed by a `linalg.matmul`
    on subviews (edge tiles get the remaining, smaller extent). At this stage
    that matmul runs in thread 0 of the block (`scf.if` on the thread index),
    so the IR stays a correct SIMT program; the following passes distribute
    the work over warps and lanes. The kernel records the config
    (`tile.config`), the problem (`tile.matmul`) and how far it has been
    lowered (`tile.stage`).

    The index arithmetic of the kernel is 32-bit when every element offset
    of A, B and C fits in 31 bits (the gpu.module gets a data layout with a
    32-bit index, which the NVVM lowering follows): fewer registers and
    instructions than 64-bit offsets. A config with `occupancy = N` puts
    `nvvm.minctasm = N` on the kernel.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", /*default=*/"0",
           "Bitwidth of the kernels' index type: 32, 64, or 0 for 32 where "
           "every element offset fits">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::DLTIDialect",
                           "::mlir::math::MathDialect"];
}

def TilePromoteShared : Pass<"tile-promote-shared"> {
  let summary = "Step through K in block-tile slices staged in shared memory";
  let description = [{
    In every kernel made by `tile-block-tile`, creates the K loop over BK-deep
    slices and stages each slice of A and B in shared memory (dynamic shared
    memory, carved with `memref.view`; the launch's dynamic shared memory
    size is set to match):

    - A is stored k-major (`[BK][BM + pad]`), so the BM values a thread needs
      for one k step are contiguous and load as 16-byte vectors; B is stored
      as it is in memory (`[BK][BN]`). A B stored N x K is transposed into
      that tile by its copy, as A is, and takes A's pad (`[BK][BN + pad]`).
    - The copies are split over all threads of the block. A thread copies
      16-byte vectors where the operand's row length keeps them aligned
      (K % 4 == 0 for A, N % 4 == 0 for B), single elements otherwise.
      Out-of-range rows and columns are clamped to the last valid index (their
      products only reach elements of C that are never stored). Where K is not
      a multiple of BK (and K >= BK), each slice is copied from
      kc = min(k0, K - BK): the last one is shifted back to end at K, so no
      copy needs a clamp of its own, and its rows before k0 (the slice before
      took them) are zero; the slice matmul takes all BK rows. For K < BK
      (one slice) each copy clamps its k and the elements past K are zero. So
      partial tiles need no other special case.
    - The A tile's layout follows the config: `pad(P)` adds P elements to each
      row (and to a transposed B's), `xor` permutes 16-byte granules by the
      row index; both keep the transposing stores and the fragment loads free
      of bank conflicts.
    - Barriers: after the stores (before any thread reads the slice) and
      after the compute (before the next slice overwrites it).
    - With 3 or more stages the copies are asynchronous
      (`nvgpu.device_async_copy`, cp.async: global to shared memory without
      registers): A one element per copy (cp.async cannot transpose a
      vector), consecutive threads along k; B as above, 16-byte copies
      bypassing L1. The rows a slice does not take are zero-filled by the
      copy (no source elements). The copies
      of a slice form one group, waited for before the barrier.

    The block tile's matmul now reads the shared slices (A through a
    transposed view) and still runs in thread 0.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileWarpTile : Pass<"tile-warp-tile"> {
  let summary = "Split the block tile among warps";
  let description = [{
    Gives each warp a WM×WN sub-tile of the block tile: warp w = tid / 32
    owns rows (w / (BN/WN))·WM and columns (w mod (BN/WN))·WN. The block-level
    matmul becomes a matmul on the warp's subviews of C and of the shared
    slices, run by lane 0 of each warp (and the C initialisation, if any,
    likewise), so the IR stays a correct SIMT program until thread tiling.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileThreadTile : Pass<"tile-thread-tile"> {
  let summary = "Give each lane a register tile of C";
  let description = [{
    Replaces each warp's matmul with per-lane code: the warp's 32 lanes form a
    (WM/TM)×(WN/TN) grid and lane (lm, ln) holds a TM×TN tile of C in
    registers, as sub-tiles of up to 4×4 spread over the warp tile, so that
    every fragment load is one 16-byte `vector.load` from shared memory and
    the lanes of a warp touch distinct banks or share a broadcast.

    The accumulators are loaded from C (or set to the fill value) before the
    K loop, carried through it as `scf.for` iter_args, and stored after it
    with one guard per vector (edge tiles store only what lies inside C).
    The stores compute their positions and guards anew from the lane's
    origin in C, passed through an empty `llvm.inline_asm` that LLVM cannot
    see through, so that nothing the C loads computed stays live through the
    K loop (C += A*B on 4095x4097x4093: 168 -> 160 registers, 0.87x -> 0.98x
    cuBLAS); split-K's atomic adds keep the positions from before the loop
    (computed anew they ran 3-17% slower).
    Each k step loads TM + TN values per lane and does TM·TN FMAs.

    Two choices shape the registers ptxas gives the accumulators (measured
    on the H200 at 4096³, 128×128×16 blocks, 8×8 per lane: 0.89× cuBLAS with
    `fma-order=rows vector-c=true`, 0.98× with the defaults;
    bench/results/2026-11-29-h200-ablation-r2.md):

    - `fma-order=pairs` (default) issues the FMAs in 2×2 groups (two rows
      by two columns: four FMAs on two A and two B values, the pattern the
      operand reuse cache serves), walking down the rows for one column pair
      and back up for the next; `rows` issues them row by row, each A value
      against all TN B values.
    - `vector-c=false` (default) reads and writes C one element at a time
      (under the same guards); `true` uses vector loads and stores, which
      make ptxas keep each accumulator vector in an aligned register quad
      throughout the K loop.
  }];
  let options = [
    Option<"fmaOrder", "fma-order", "std::string", /*default=*/"\"pairs\"",
           "Order of a k step's FMAs: pairs (2x2 groups) or rows">,
    Option<"vectorC", "vector-c", "bool", /*default=*/"false",
           "Access C with vector loads and stores instead of one element at "
           "a time">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect"];
}

def TilePipeline : Pass<"tile-pipeline"> {
  let summary = "Software-pipeline the K loop: multi-buffered shared memory "
                "(through registers or cp.async) and register prefetch";
  let description = [{
    Restructures the K loop made by the earlier passes, as the config says:

    - `stages = 2`: shared memory holds two slices. The global loads of slice
      k+1 are issued into registers at the top of iteration k, before its
      FMAs; they are stored into the other buffer after the FMAs, followed by
      a single barrier. The first slice is loaded before the loop. The last
      iteration re-reads its own slice instead of being peeled (peeling makes
      LLVM schedule all its loads first and spill).
      `stages = 1` keeps one buffer and two barriers per slice.
    - `prefetch = true`: the fragments of k step kk+1 are loaded from shared
      memory before the FMAs of step kk; the first fragments of the next
      slice are loaded right after the barrier and carried through the loop
      as iter_args. An empty side-effecting `llvm.inline_asm` with a memory
      clobber follows those loads so that LLVM cannot merge them back into
      the next iteration (which would undo the prefetch).

    - `stages = S >= 3`: S shared buffers filled by the asynchronous copies
      of `tile-promote-shared` (cp.async). Slices 0..S-2 are issued before
      the loop; iteration k issues slice k+S-1 into the buffer iteration k-1
      read, and before its last k step waits until slice k+1 has landed
      (`cp.async.wait_group S-2`) and takes the one barrier of the
      iteration. No registers stage the copies.

    The inner k loop is fully unrolled.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TileWarpgroupTile : Pass<"tile-warpgroup-tile"> {
  let summary = "Split the block tile among consumer warpgroups (wgmma)";
  let description = [{
    For kernels of the wgmma strategy: consumer warpgroup g (threads
    128·g .. 128·g+127, g < (BM/WM)·(BN/WN)) owns the WM×WN sub-tile at rows
    (g / (BN/WN))·WM and columns (g mod (BN/WN))·WN of the block tile. The
    block's slab product (and the C initialisation) becomes one per
    warpgroup, on the warpgroup's part of C and of the shared slabs, run by
    the warpgroup's first thread, so the IR stays a correct SIMT program
    until the instruction tile. With `specialize`, the block's last
    warpgroup computes nothing: it will be the producer.
    Kernels of the fma strategy are left to `tile-warp-tile`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileWgmma : Pass<"tile-wgmma"> {
  let summary = "Compute each warpgroup's slab product with wgmma "
                "instruction tiles";
  let description = [{
    For kernels of the wgmma strategy: replaces each warpgroup's slab
    product with `wgmma.mma_async` instructions (`nvvm.wgmma.mma_async`,
    m64nNk16 for bf16/f16, m64nNk8 for f32 inputs read as TF32, f32
    accumulators) reading A (K-major,
    imm-trans-a 0; or M-major, imm-trans-a 1, when A is stored transposed,
    K x M) and B (N-major, imm-trans-b 1; or K-major, imm-trans-b 0, when B
    is stored transposed, N x K) from the 128-byte-swizzled slot through matrix
    descriptors computed from the slot's address: (WM/64)·(WN/IN)
    instructions per k step, BK/K k steps per slab (K the instruction's:
    16, or 8 for TF32, whose operands are both K-major), between a
    `wgmma.fence` and a `wgmma.commit_group`, then `wgmma.wait_group 0`.

    The accumulators are `!llvm.struct` values of IN/2 f32 per thread and
    instruction, carried through the K loop as iter_args: before the loop
    they are loaded from C (or set to the fill value, or zero), after it the
    C epilogue stores them where they lie inside C (converted to C's type),
    thread t of the warpgroup holding rows 16·(t/32) + (t%32)/4 (+8) and
    columns 2·(t%4) (+1) of every 8-column group. Under split-K the
    accumulators are added into C atomically instead: each pair of columns
    by one `tile.atomic_addf` where every pair is aligned (N even, a strided
    C's offset and row stride even), else one `memref.atomic_rmw` per
    element. With `split_last`, the blocks of whole tiles (all of K) load
    and store C in place as an unsplit kernel does and only the split tiles'
    blocks start from zero and add. Kernels of the fma strategy are left to
    `tile-thread-tile`.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::math::MathDialect"];
}

def TileMbarrierPipeline : Pass<"tile-mbarrier-pipeline"> {
  let summary = "Software-pipeline a wgmma kernel's K loop through an "
                "mbarrier ring, with a producer warpgroup when specialized";
  let description = [{
    For kernels of the wgmma strategy: the one shared-memory slot becomes a
    ring of `stages` slots, each with a "full" and an "empty" mbarrier.

    - `specialize = true`: the block's last warpgroup is the producer
      (`setmaxnreg` lowers its registers): for every slab it waits until
      the slot is empty (the parity of the slot's previous round), then
      fills it: with the TMA its leader thread alone runs this loop and
      issues the boxes with the expected bytes on the slot's full barrier
      (a thread that only waited could fall two phases behind, read a
      later phase's parity and wait forever); with register copies all its
      threads copy, fence and arrive. The consumer warpgroups (`setmaxnreg` raises their
      registers) wait until a slot is full, issue the slab's wgmma group,
      wait until at most one group is in flight (`wgmma.wait_group 1`) and
      then release the previous slab's slot (one arrive per warpgroup).
    - `specialize = false` (TMA only): every warpgroup computes; thread 0
      issues slab k + S - 1 once its slot is empty, S - 1 slabs ahead.
    - `persistent = true`: each role's work for one tile goes into a loop
      over tiles, from the block's id in steps of the grid over the tiles of
      every matrix; what the kernel computed from its block id (the tile's
      origin, its views, a batched kernel's matrix) is computed at the
      start of each tile from the tile's number; slabs are numbered on in
      the ring from tile to tile (slab k of the block's i-th tile is slab
      i * slabs + k of the ring), and the consumers release a tile's last
      slot once its last wgmma group has retired, before they store C, so
      the producer fills the next tile's slots meanwhile. The launch (and
      the kernel's known
      grid size) gets `persistent-blocks` blocks, or as many as fit on the
      chip at once (SMs times the occupancy), at most one per tile, in
      whole clusters (rounded down, at least one).
    - `cluster = [2, 1]` or `[1, 2]`: the ring's barriers are initialised
      and fenced for the cluster, and a cluster barrier (not the block's)
      lets the roles start; "empty" counts the consumer warpgroups of both
      blocks; the producer issues its own boxes of the operand the blocks
      do not share (A in 2x1, B in 1x2) and half of the shared operand's
      boxes (by cluster rank: its 64-element chunks, or the two boxes of
      half the rows of a K-major slab), each multicast to both blocks' slot
      and completing on its full
      barrier there (which expects the whole slab); a consumer releases a
      slot in its block and in the other (an arrive marked
      `tile.arrive_in_peer`, lowered by `tile-lower-nvgpu` to mapa and a
      remote arrive); the kernel ends at a cluster barrier and gets
      `nvvm.cluster_dim`. Persistent, a cluster walks pairs of tiles from
      its cluster id in steps of the clusters.

    Kernels of the fma strategy are left to `tile-pipeline`.
  }];
  let options = [
    Option<"persistentBlocks", "persistent-blocks", "int64_t",
           /*default=*/"0",
           "Blocks of a persistent kernel's grid (0: the SMs of sm_90 times "
           "the config's occupancy); fewer where there are fewer tiles; "
           "rounded down to whole clusters (at least one)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def TileLowerNVGPU : Pass<"tile-lower-nvgpu", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the kernels' nvgpu ops to NVVM";
  let description = [{
    Converts the nvgpu ops of both strategies to NVVM with upstream's
    NVGPU-to-NVVM patterns: the cp.async copies of fma kernels with 3 or
    more stages (`nvgpu.device_async_copy`, `device_async_create_group`,
    `device_async_wait` to `nvvm.cp.async.shared.global`, commit and wait
    groups), and the mbarriers and TMA loads of wgmma kernels
    (`nvgpu.mbarrier.*` to `nvvm.mbarrier.*` on a shared-memory array of
    i64, `nvgpu.tma.async.load` to `nvvm.cp.async.bulk.tensor`, with its
    multicast mask; an `nvgpu.mbarrier.arrive` marked `tile.arrive_in_peer`
    to `mapa` of the barrier's address to cluster rank ^ 1 and an
    `nvvm.mbarrier.arrive` there, with the default release.cta semantics). Index types
    follow the module's data layout (upstream's `convert-nvgpu-to-nvvm`
    always uses a 64-bit index, which clashes with the kernels' 32-bit one).
    Also lowers `tile.atomic_addf` (a split-K kernel's pairs of C's
    elements): to one `red.global.add.v2.f32` / `.v4.f32` (inline PTX;
    PTX ISA 8.1 and sm_90 or later), or with `vector-atomics=false` to one
    `llvm.atomicrmw fadd` per element, as `memref.atomic_rmw` becomes.
    Runs before `convert-gpu-to-nvvm`, after `tile-tensor-map-params`; a
    module without nvgpu or tile ops is left as it is.
  }];
  let options = [
    Option<"vectorAtomics", "vector-atomics", "bool", /*default=*/"true",
           "Lower tile.atomic_addf to one vector reduction "
           "(red.global.add.v2/v4.f32: PTX 8.1, sm_90); false: one atomic "
           "add per element (tile-matmul-to-ptx sets it from chip= and "
           "ptx-version=)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def TileExpandMath : Pass<"tile-expand-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Expand a fused epilogue's math.tanh into arith ops";
  let description = [{
    Rewrites every f32 `math.tanh` in the module (a fused epilogue's, such
    as GELU's tanh form) with upstream's polynomial approximation
    (`populatePolynomialApproximateTanhPattern`: a rational approximation on
    a clamped input, in arith ops and `math.fma`). `convert-gpu-to-nvvm`
    would otherwise make it a call to libdevice's `__nv_tanhf`, which the
    exported PTX cannot resolve. A `math.tanh` the patterns leave (another
    element type) is an error at the op. Runs before `convert-gpu-to-nvvm`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TileTensorMapParams : Pass<"tile-tensor-map-params",
                               "::mlir::ModuleOp"> {
  let summary = "Pass a TMA kernel's tensor maps as 128-byte by-value "
                "parameters";
  let description = [{
    A kernel whose slabs the TMA copies takes the tensor maps of A and B
    (`!nvgpu.tensormap.descriptor`) after (A, B, C). Before the NVVM
    lowering (`phase=gpu`), each such parameter becomes an `!llvm.ptr`
    (marked `llvm.align = 64`) that the body casts back to the descriptor
    type, a form MLIR's lowering accepts, and the host's `gpu.launch_func`
    passes its descriptors through the same cast. After `convert-gpu-to-nvvm`
    (`phase=llvm`), those parameters of the `llvm.func` kernel get
    `llvm.byval = !llvm.array<128 x i8>` and `nvvm.grid_constant`: the PTX
    parameter is the 128-byte, 64-byte-aligned CUtensorMap itself (a
    `__grid_constant__` parameter, `.param .align 64 .b8 name[128]`), which
    the runtime encodes with `cuTensorMapEncodeTiled` at each launch and
    the TMA reads through its generic address; no copy to device memory.
  }];
  let options = [
    Option<"phase", "phase", "std::string", /*default=*/"\"gpu\"",
           "gpu (retype the gpu.func parameters) or llvm (mark the lowered "
           "llvm.func parameters by-value grid constants)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def TileDynamicLayoutParams : Pass<"tile-dynamic-layout-params",
                                   "::mlir::ModuleOp"> {
  let summary = "Pass a kernel operand's dynamic offset and strides as "
                "i64 parameters";
  let description = [{
    A kernel parameter whose memref type has a dynamic offset or stride
    (`memref<64x96xf32, strided<[?, 1], offset: ?>>`, from a strided operand
    whose layout is known only at run time) cannot be lowered as a bare
    pointer. Before the NVVM lowering, each such parameter becomes the
    memref of the same shape without a layout (the buffer's pointer), and
    the kernel takes one `i64` per dynamic field after all its other
    parameters (the tensor maps included): each parameter's offset, then its
    strides outermost first, parameters in order. The body rebuilds the
    operand with `memref.reinterpret_cast`; every `gpu.launch_func` of the
    kernel passes the memref's base buffer (`memref.extract_strided_metadata`
    and a cast to the plain type) and appends the values. Kernels without
    dynamic layouts are left as they are. The manifest writes such fields as
    `"dynamic"`; the runtime takes their values at launch
    (`tile_kernel_launch_layouts`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TileAttachTarget : Pass<"tile-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach an NVVM target to every kernel's gpu.module, by "
                "strategy";
  let description = [{
    Like upstream's `nvvm-attach-target`, with the chip chosen per kernel:
    wgmma kernels use instructions (wgmma, setmaxnreg) that exist only for
    the architecture-specific target, so `chip = sm_90` becomes `sm_90a`
    for them; fma kernels keep the chip as given (their PTX is that of any
    sm_90 part). Every gpu.module gets exactly one `#nvvm.target`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_XY)">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx81\"",
           "PTX features (+ptxNN)">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "LLVM optimization level">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def TileExternDynamicShared : Pass<"tile-extern-dynamic-shared",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give the dynamic shared memory global external linkage";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. MLIR's lowering of
    `gpu.dynamic_shared_memory` creates an `internal` zero-sized global in
    address space 3; LLVM's NVPTX backend demotes such a global into a
    function-local `.shared` variable of one byte, while the kernel indexes
    it as the dynamic shared memory of the launch. With `external` linkage it
    is emitted as `.extern .shared .align 16 .b8 name[]`, what CUDA's
    `extern __shared__` arrays are.
  }];
}

def TileExport : Pass<"tile-export", "::mlir::ModuleOp"> {
  let summary = "Write each kernel as PTX, cubin and a manifest the runtime "
                "can launch";
  let description = [{
    Serializes every `gpu.module` made from a matmul to PTX with its NVVM
    target, writes `<kernel>.ptx`, assembles `<kernel>.cubin` with ptxas when
    it is found (`CUDA_HOME`, `/usr/local/cuda`, or `PATH`; `ptxas -v` also
    gives the registers and spills recorded in the manifest), and writes the
    manifest `<kernel>.json` (docs/artifact.md) into `output-dir`. With an
    empty `output-dir` nothing is written; the pass then only checks that
    every kernel serializes. The gpu.modules stay in the IR.

    The occupancy never buys a spill: when ptxas reports spill stores,
    spill loads or a stack frame for an fma kernel with an occupancy
    (`nvvm.minctasm`), the kernel is serialized and assembled again with
    one block per SM less (after 1, with none) until ptxas reports none or
    the occupancy is gone; its `tile.config` and manifest then carry the
    occupancy it was emitted with. wgmma kernels keep theirs (their
    setmaxnreg split was made for it).
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\"\"",
           "Directory for the PTX, cubin and manifest files">,
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"auto\"",
           "ptxas to run: auto (search CUDA_HOME, /usr/local/cuda, PATH), "
           "off (PTX only), or a path">,
  ];
}

def TileReport : Pass<"tile-report", "::mlir::ModuleOp"> {
  let summary = "Print the cost model's table for every configured matmul";
  let description = [{
    For every `linalg.matmul` or `linalg.batch_matmul` with a `#tile.config`
    (or kernel made from one; a batched one's header gives the batch, as in
    `8 x 2048x2048x2048`, its model counts every matrix; one with
    transposed operands says how A and B are stored), prints to
    stdout the cost model's view of the config. fma
    configs: arithmetic intensity at the global→shared and shared→register
    tiers, registers per thread (estimate, and what ptxas reported once the
    kernel is exported), shared bytes per block, occupancy (blocks and
    warps per SM) and the predicted issue-slot efficiency. wgmma configs:
    the warpgroups and the instruction, the register split
    (`warpgroupRegisters`: registers at launch, setmaxnreg of consumers and
    producer next to what each is counted to need, and ptxas' numbers),
    the shared-memory ring (stages, A and B tiles, alignment slack,
    mbarriers) and its TMA boxes or register copies, occupancy and waves,
    intensity into shared memory and from HBM, and the tensor-core model's
    terms (tensor cores, loads, prologue, epilogue, edge waste) with its
    predicted time and bound; a config that cannot run says why. The IR is
    not changed.

    With `svg-dir=DIR` it also writes `DIR/<kernel>.svg` per kernel (a
    matmul not yet made a kernel gets the name tile-block-tile will give
    it, `<function>_matmul<i>`): the block tile split into warp tiles
    (warpgroup tiles for wgmma), the warp tile split among its lanes and
    one lane's register fragment (or the wgmma instruction tiles and one
    instruction's accumulators), the shared-memory layout of A and B with
    the padding or swizzle and the bank of each element, and the swizzled
    launch order as a grid of block ids. All of it is computed from
    `#tile.config`, `tile.matmul` and the shared-memory plan.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip whose limits the table uses">,
    Option<"svgDir", "svg-dir", "std::string", /*default=*/"\"\"",
           "Directory to write a picture of each kernel's tiling into, as "
           "<kernel>.svg (created if missing; empty: no pictures)">,
  ];
}

#endif // TILE_TRANSFORMS_PASSES_TD
