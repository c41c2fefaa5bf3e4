//===- PromoteShared.cpp - K loop over slices staged in shared memory -----===//
//
// Creates the K loop of each kernel and stages the BK-deep slices of A and B
// in shared memory: copies split over all threads (16-byte global loads where
// the row length keeps them aligned), A stored k-major so one k step's A
// values are contiguous, barriers after the stores and after the compute.
// A transposed operand changes the copy: a transposed A (K x M) is copied
// row by row like B, a transposed B (N x K) transposed like A (and its tile
// takes A's pad).
// Padding of the A rows (pad(P)), and of a transposed B's, is applied here;
// XOR swizzling is not done yet (tile-configure rejects it).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Utils.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Transforms/WgmmaSlabs.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/AffineMap.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPROMOTESHARED
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Everything the copy of one slice needs, shared by the A and B copies.
struct CopyContext {
  OpBuilder &b;
  Location loc;
  Value threadId;
  int64_t numThreads;
  Value k0;        // first k of the slice
  MatmulProblem problem;
  ConfigAttr config;
  /// Where K is not a multiple of BK (and at least BK), every slice copies
  /// the BK rows from `kc` = min(k0, K - BK): the last slice is shifted
  /// back to end at K, so no address leaves the operand and none needs a
  /// clamp of its own. Its first `skip` = k0 - kc rows (consumed by the
  /// slice before) are zero-filled; `skip` is 0 for every other slice.
  /// Null where K needs no shift (each copy then clamps, see Piece).
  Value kc, skip;
  /// cp.async stages: copies go straight from global to shared memory
  /// (nvgpu.device_async_copy); their tokens are collected here.
  bool async = false;
  SmallVector<Value> tokens;
  Value c(int64_t value) { return constIndex(b, loc, value); }
};

/// Granule `i`-th of this thread: g = tid + i*T, clamped to the last granule
/// when the granules do not divide evenly (the extra threads redo the last
/// one: the same value to the same address, and no branch to split later).
Value granuleIndex(CopyContext &ctx, int64_t i, int64_t granules) {
  Value g = ctx.threadId;
  if (i > 0)
    g = arith::AddIOp::create(ctx.b, ctx.loc, g, ctx.c(i * ctx.numThreads));
  if ((i + 1) * ctx.numThreads > granules)
    g = arith::MinUIOp::create(ctx.b, ctx.loc, g, ctx.c(granules - 1));
  return g;
}

/// Granule `i`-th of this thread as (row, position in the row) of a slice
/// with `perRow` granules per row. Where the threads cover whole rows
/// (T % perRow == 0) and the round has no clamped granule, the row is
/// tid / perRow + i * T / perRow and the position tid % perRow: a round's
/// address is the first round's plus a constant (folded into B's loads and
/// the cp.async copies; A's register copies add it in 32 bits, see
/// locateAlongK). Otherwise g / perRow and g % perRow of granuleIndex.
std::pair<Value, Value> granuleRowPos(CopyContext &ctx, int64_t i,
                                      int64_t granules, int64_t perRow) {
  int64_t threads = ctx.numThreads;
  if (threads % perRow == 0 && (i + 1) * threads <= granules) {
    Value row = arith::DivUIOp::create(ctx.b, ctx.loc, ctx.threadId,
                                       ctx.c(perRow));
    if (i > 0)
      row = arith::AddIOp::create(ctx.b, ctx.loc, row,
                                  ctx.c(i * (threads / perRow)),
                                  arith::IntegerOverflowFlags::nuw);
    Value pos = arith::RemUIOp::create(ctx.b, ctx.loc, ctx.threadId,
                                       ctx.c(perRow));
    return {row, pos};
  }
  Value g = granuleIndex(ctx, i, granules);
  return {arith::DivUIOp::create(ctx.b, ctx.loc, g, ctx.c(perRow)),
          arith::RemUIOp::create(ctx.b, ctx.loc, g, ctx.c(perRow))};
}

/// Loads `width` elements of `source` at (row, col); a plain memref.load for
/// one element, an aligned vector.load otherwise. The vector load indexes
/// the memref `source` views (a batched kernel's operand), so that no
/// subview is left to fold into it with its alignment dropped.
Value loadGlobal(CopyContext &ctx, Value source, Value row, Value col,
                 int64_t width) {
  Type f32 = ctx.b.getF32Type();
  if (width == 1)
    return memref::LoadOp::create(ctx.b, ctx.loc, source, ValueRange{row, col});
  SmallVector<Value> indices = {row, col};
  Value root = resolveToRoot(ctx.b, ctx.loc, source, indices,
                             /*throughRankReducing=*/true);
  return vector::LoadOp::create(ctx.b, ctx.loc, VectorType::get({width}, f32),
                                root, indices,
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(width * 4));
}

/// The operand a slice copy reads: its stored matrix `global`, the origin
/// of the block's tile along the operand's m or n dimension (`origin`, the
/// tile row for A, column for B), that dimension's extent (M or N) and the
/// tile's size along it (BM or BN).
struct CopySource {
  Value global, origin;
  int64_t extent, tile;
};

/// Where a thread's piece of a k-contiguous slice comes from (A, or a
/// transposed B, whose stored rows run along k): row origin + r of the
/// stored matrix and the `width` elements from kc + kOffset. Rows past the
/// extent (edge tiles) read the last row: their products only reach rows or
/// columns of C that are never stored. When K is not a multiple of BK,
/// `valid` says whether the piece is one the slice takes (K and the shift
/// are multiples of the width, so a piece is entirely in or out): with the
/// shifted last slice, kOffset >= skip; for K < BK (one slice, no shift),
/// k < K, and the k index is clamped so that the address stays inside the
/// operand.
struct Piece {
  Value row, k, valid;
};

/// Whether the row `offset` into the slice is one it takes (past `skip`).
Value takenRow(CopyContext &ctx, Value offset) {
  return arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::uge,
                               offset, ctx.skip);
}

Piece locateAlongK(CopyContext &ctx, const CopySource &source, Value r,
                   Value kOffset, int64_t width) {
  int64_t blockK = ctx.config.getBlockK();
  Piece piece;
  piece.row = arith::AddIOp::create(ctx.b, ctx.loc, source.origin, r);
  if (source.extent % source.tile != 0)
    piece.row = arith::MinUIOp::create(ctx.b, ctx.loc, piece.row,
                                       ctx.c(source.extent - 1));
  piece.k = arith::AddIOp::create(ctx.b, ctx.loc, ctx.kc, kOffset);
  if (ctx.skip) {
    piece.valid = takenRow(ctx, kOffset);
    if (!ctx.async)
      piece.k = opaqueIndex(ctx.b, ctx.loc, piece.k);
  } else if (ctx.problem.k % blockK != 0) {
    piece.valid =
        arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::ult,
                              piece.k, ctx.c(ctx.problem.k));
    piece.k = arith::MinUIOp::create(ctx.b, ctx.loc, piece.k,
                                     ctx.c(ctx.problem.k - width));
  }
  return piece;
}

/// `value` where `valid`, zero elsewhere.
Value zeroUnless(CopyContext &ctx, Value valid, Value value) {
  Value zero = arith::ConstantOp::create(ctx.b, ctx.loc,
                                         ctx.b.getZeroAttr(value.getType()));
  return arith::SelectOp::create(ctx.b, ctx.loc, valid, value, zero);
}

/// An asynchronous copy of `width` elements of `source` at `srcIndices` to
/// `dest` at `destIndices`; where `valid` is false, no element is read and
/// the destination is zero-filled.
void asyncCopy(CopyContext &ctx, Value source, ValueRange srcIndices,
               Value dest, ValueRange destIndices, int64_t width, Value valid) {
  Value srcElements;
  if (valid)
    srcElements =
        arith::SelectOp::create(ctx.b, ctx.loc, valid, ctx.c(width), ctx.c(0));
  // 16-byte copies may bypass L1 (cp.async.cg); smaller ones may not.
  UnitAttr bypassL1 = width * 4 == 16 ? ctx.b.getUnitAttr() : UnitAttr();
  auto copy = nvgpu::DeviceAsyncCopyOp::create(
      ctx.b, ctx.loc, nvgpu::DeviceAsyncTokenType::get(ctx.b.getContext()),
      dest, destIndices, source, srcIndices, ctx.b.getIndexAttr(width),
      srcElements, bypassL1);
  ctx.tokens.push_back(copy.getAsyncToken());
}

/// Granule `i`-th of this thread as (row, position in the row) for a copy
/// that transposes: `perRow` granules of `width` elements per stored row,
/// each row's granules in runs of one 32-byte sector (S = 32 / (4 * width)
/// granules, at most perRow). Consecutive threads take a run's granules,
/// then the same run of the next rows: g = (q * tile + r) * S + p gives the
/// row r and the position q * S + p. The 4-byte stores of a warp at one k
/// go down a column of the k-major tile, element (k, r) on bank
/// (k * L + r) mod 32 for its row length L. Without a pad (L a multiple of
/// 32) the bank is r's: row by row a warp of BK = 32 (8 granules a row)
/// covers 4 rows, 8 stores to a bank, in runs 16 rows, 2 to a bank. With
/// pad(4) a run's 16 rows and its two k a sector apart take 32 banks.
/// Global reads still take whole sectors.
std::pair<Value, Value> transposingRowPos(CopyContext &ctx, int64_t i,
                                          int64_t tile, int64_t perRow,
                                          int64_t width) {
  int64_t run = std::min<int64_t>(perRow, std::max<int64_t>(1, 8 / width));
  // (Rows of granules that are not whole runs, BK = 12 say, go row by
  // row: positions q * S + p would pass the row's end.)
  if (run == perRow || perRow % run != 0)
    return granuleRowPos(ctx, i, tile * perRow, perRow);
  int64_t granules = tile * perRow;
  int64_t threads = ctx.numThreads;
  auto position = [&](Value q, Value p) -> Value {
    return arith::AddIOp::create(
        ctx.b, ctx.loc,
        arith::MulIOp::create(ctx.b, ctx.loc, q, ctx.c(run)).getResult(), p);
  };
  // Where the threads cover whole runs, the rows of one round's runs divide
  // the tile or the reverse, and the round has no
  // clamped granule: round i is round 0 plus i * T / S runs, that is a
  // constant row and position step (folded into the addresses, as
  // granuleRowPos's).
  int64_t runsPerRound = threads / run;
  if (threads % run == 0 && (i + 1) * threads <= granules &&
      (tile % runsPerRound == 0 || runsPerRound % tile == 0)) {
    Value p = arith::RemUIOp::create(ctx.b, ctx.loc, ctx.threadId,
                                     ctx.c(run));
    Value base = arith::DivUIOp::create(ctx.b, ctx.loc, ctx.threadId,
                                        ctx.c(run));
    Value r = base, q = ctx.c(0);
    if (runsPerRound > tile) {
      r = arith::RemUIOp::create(ctx.b, ctx.loc, base, ctx.c(tile));
      q = arith::DivUIOp::create(ctx.b, ctx.loc, base, ctx.c(tile));
    }
    int64_t step = i * runsPerRound;
    if (step % tile != 0)
      r = arith::AddIOp::create(ctx.b, ctx.loc, r, ctx.c(step % tile),
                                arith::IntegerOverflowFlags::nuw);
    if (step / tile != 0)
      q = arith::AddIOp::create(ctx.b, ctx.loc, q, ctx.c(step / tile),
                                arith::IntegerOverflowFlags::nuw);
    return {r, position(q, p)};
  }
  Value g = granuleIndex(ctx, i, granules);
  Value p = arith::RemUIOp::create(ctx.b, ctx.loc, g, ctx.c(run));
  Value rest = arith::DivUIOp::create(ctx.b, ctx.loc, g, ctx.c(run));
  Value r = arith::RemUIOp::create(ctx.b, ctx.loc, rest, ctx.c(tile));
  Value q = arith::DivUIOp::create(ctx.b, ctx.loc, rest, ctx.c(tile));
  return {r, position(q, p)};
}

/// cp.async form of the transposing copy: cp.async cannot transpose a
/// vector, so each element is its own 4-byte copy. Consecutive threads take
/// consecutive k of one stored row (whole 32-byte sectors from global
/// memory); element e of the slice is row e / BK, k e % BK. (In runs of 8 k
/// down the rows, as transposingRowPos orders 16-byte copies, the stores
/// have no bank conflicts, yet the f32 bench list's cp.async kernels of BK
/// = 16 ran 2-6% slower: bench/results/2026-12-07-h100-transposing-copies.md.)
void copyTransposingAsync(CopyContext &ctx, const CopySource &source,
                          Value shared) {
  int64_t blockK = ctx.config.getBlockK();
  int64_t elements = source.tile * blockK;
  for (int64_t i = 0; i < ceilDiv(elements, ctx.numThreads); ++i) {
    auto [r, kk] = granuleRowPos(ctx, i, elements, blockK);
    Piece piece = locateAlongK(ctx, source, r, kk, 1);
    asyncCopy(ctx, source.global, {piece.row, piece.k}, shared, {kk, r}, 1,
              piece.valid);
  }
}

/// Copies a slice whose stored rows run along k (A, row-major M x K; or a
/// transposed B, N x K) into `shared` (k-major, [BK][tile]): each thread
/// loads vectors along k and stores their elements down a column of the
/// k-major tile. The granules go to the threads row by row, or with
/// `sectorRuns` in runs of a sector (transposingRowPos): a transposed B's
/// copy, whose unpadded tile put a warp's stores on as few banks as it had
/// rows. On the H100 the runs made f32 kernels with B stored N x K up to
/// 1.7x faster (B's rows of 4-byte elements, BK = 32), and every one of 16
/// random shapes faster; for A's copy (a padded tile) they ran from 1.04x
/// faster to 1.23x slower: bench/results/2026-12-07-h100-transposing-copies.md.
void copyTransposing(CopyContext &ctx, const CopySource &source, Value shared,
                     int64_t width, bool sectorRuns) {
  if (ctx.async)
    return copyTransposingAsync(ctx, source, shared);
  int64_t blockK = ctx.config.getBlockK();
  int64_t perRow = blockK / width;
  int64_t granules = source.tile * perRow;
  for (int64_t i = 0; i < ceilDiv(granules, ctx.numThreads); ++i) {
    auto [r, pos] = sectorRuns
                        ? transposingRowPos(ctx, i, source.tile, perRow, width)
                        : granuleRowPos(ctx, i, granules, perRow);
    Value kc = arith::MulIOp::create(ctx.b, ctx.loc, pos, ctx.c(width));
    Piece piece = locateAlongK(ctx, source, r, kc, width);
    Value value = loadGlobal(ctx, source.global, piece.row, piece.k, width);
    if (piece.valid)
      value = zeroUnless(ctx, piece.valid, value);
    for (int64_t j = 0; j < width; ++j) {
      Value element = value;
      if (width > 1)
        element = vector::ExtractOp::create(ctx.b, ctx.loc, value, j);
      Value kk = j == 0 ? kc
                        : arith::AddIOp::create(ctx.b, ctx.loc, kc, ctx.c(j))
                              .getResult();
      memref::StoreOp::create(ctx.b, ctx.loc, element, shared,
                              ValueRange{kk, r});
    }
  }
}

/// Copies a slice whose stored rows are k (B, row-major K x N; or a
/// transposed A, K x M) into `shared` ([BK][tile]) with vectors along the
/// row on both sides.
void copyStraight(CopyContext &ctx, const CopySource &source, Value shared,
                  int64_t width) {
  int64_t blockK = ctx.config.getBlockK();
  int64_t perRow = source.tile / width;
  int64_t granules = blockK * perRow;
  bool clampCols = source.extent % source.tile != 0;
  bool partialK = ctx.problem.k % blockK != 0;
  for (int64_t i = 0; i < ceilDiv(granules, ctx.numThreads); ++i) {
    auto [kr, pos] = granuleRowPos(ctx, i, granules, perRow);
    Value cc = arith::MulIOp::create(ctx.b, ctx.loc, pos, ctx.c(width));
    Value k = arith::AddIOp::create(ctx.b, ctx.loc, ctx.kc, kr);
    Value valid;
    if (ctx.skip) {
      valid = takenRow(ctx, kr);
    } else if (partialK) {
      valid = arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::ult,
                                    k, ctx.c(ctx.problem.k));
      k = arith::MinUIOp::create(ctx.b, ctx.loc, k, ctx.c(ctx.problem.k - 1));
    }
    // Columns past the extent (edge tiles) read the last aligned vector of
    // the row: the row's last `width` elements, or for a row padded past
    // the extent (an fma kernel's repacked B) the vector that holds its
    // last element and pad beyond it. Either way the columns past the
    // extent only reach columns of C that are never stored.
    Value col = arith::AddIOp::create(ctx.b, ctx.loc, source.origin, cc);
    if (clampCols)
      col = arith::MinUIOp::create(
          ctx.b, ctx.loc, col,
          ctx.c(llvm::alignTo(source.extent, width) - width));
    if (ctx.async) {
      asyncCopy(ctx, source.global, {k, col}, shared, {kr, cc}, width, valid);
      continue;
    }
    Value value = loadGlobal(ctx, source.global, k, col, width);
    if (valid)
      value = zeroUnless(ctx, valid, value);
    if (width == 1)
      memref::StoreOp::create(ctx.b, ctx.loc, value, shared,
                              ValueRange{kr, cc});
    else
      vector::StoreOp::create(ctx.b, ctx.loc, value, shared,
                              ValueRange{kr, cc}, /*nontemporal=*/false,
                              llvm::MaybeAlign(width * 4));
  }
}

/// Copies the BM x BK slice of A into `sharedA` (k-major, [BK][BM]): a
/// transposing copy of row-major A, a straight one of a transposed A.
void copySliceA(CopyContext &ctx, Value globalA, Value row0, Value sharedA) {
  CopySource source{globalA, row0, ctx.problem.m, ctx.config.getBlockM()};
  int64_t width = getGlobalVectorWidths(ctx.config, ctx.problem).a;
  if (ctx.problem.transposeA)
    return copyStraight(ctx, source, sharedA, width);
  copyTransposing(ctx, source, sharedA, width, /*sectorRuns=*/false);
}

/// Copies the BK x BN slice of B into `sharedB` ([BK][BN], for a transposed
/// B with A's pad): a straight copy of row-major B, a transposing one of a
/// transposed B.
void copySliceB(CopyContext &ctx, Value globalB, Value col0, Value sharedB) {
  CopySource source{globalB, col0, ctx.problem.n, ctx.config.getBlockN()};
  int64_t width = getGlobalVectorWidths(ctx.config, ctx.problem).b;
  if (ctx.problem.transposeB)
    return copyTransposing(ctx, source, sharedB, width, /*sectorRuns=*/true);
  copyStraight(ctx, source, sharedB, width);
}

struct TilePromoteSharedPass
    : public mlir::tile::impl::TilePromoteSharedBase<TilePromoteSharedPass> {
  void runOnOperation() override;

private:
  LogicalResult promote(gpu::GPUFuncOp kernel);
};

LogicalResult TilePromoteSharedPass::promote(gpu::GPUFuncOp kernel) {
  ConfigAttr config = getConfig(kernel);
  // The wgmma strategy's slabs live in 128-byte-swizzled slots
  // (WgmmaSlabs.cpp).
  if (config.isWgmma())
    return promoteToSwizzledSlabs(kernel, getOperation());
  MatmulProblem problem = *getMatmulProblem(kernel);
  linalg::MatmulOp matmul;
  kernel.walk([&](linalg::MatmulOp op) { matmul = op; });
  auto ifThread0 = matmul ? dyn_cast<scf::IfOp>(matmul->getParentOp()) : nullptr;
  std::optional<BlockView> blockA, blockB;
  if (matmul) {
    blockA = findBlockView(matmul.getInputs()[0], problem.transposeA);
    blockB = findBlockView(matmul.getInputs()[1], problem.transposeB);
  }
  if (!ifThread0 || !blockA || !blockB)
    return kernel.emitError()
           << "tile-promote-shared: kernel body is not the form "
              "tile-block-tile makes (a block-tile linalg.matmul on subviews "
              "in an scf.if)";
  Location loc = matmul.getLoc();
  OpBuilder b(ifThread0);
  Value blockC = matmul.getOutputs()[0];
  Value row0 = getValueOrCreateConstantIndexOp(b, loc, blockA->offsets[0]);
  OpFoldResult rows = blockA->sizes[0];
  Value col0 = getValueOrCreateConstantIndexOp(b, loc, blockB->offsets[1]);
  OpFoldResult cols = blockB->sizes[1];
  // The matrices the block's views are subviews of: the parameters, or in
  // a batched kernel the block's matrix of each.
  Value globalA = blockA->subview.getSource(),
        globalB = blockB->subview.getSource();
  Value threadId;
  kernel.walk([&](gpu::ThreadIdOp op) { threadId = op; });
  Value isThread0 = ifThread0.getCondition();

  int64_t blockK = config.getBlockK();
  Type f32 = b.getF32Type();
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());

  // Shared memory as the plan lays out its first buffer: A k-major with
  // padded rows, then B.
  SharedPlan plan = getKernelSharedPlan(config, problem);
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  auto viewA = memref::ViewOp::create(
      b, loc, MemRefType::get({plan.rowsA, plan.rowElementsA}, f32,
                              MemRefLayoutAttrInterface(), workgroup),
      smem, constIndex(b, loc, 0), ValueRange{});
  viewA->setAttr(kSharedBufferAttrName, b.getStringAttr("A"));
  auto viewB = memref::ViewOp::create(
      b, loc,
      MemRefType::get({plan.rowsB, plan.rowElementsB}, f32,
                      MemRefLayoutAttrInterface(), workgroup),
      smem, constIndex(b, loc, plan.bytesA), ValueRange{});
  viewB->setAttr(kSharedBufferAttrName, b.getStringAttr("B"));
  // Every access goes to the views themselves (padding columns are never
  // touched), so later passes can swap the buffers underneath.
  Value sharedA = viewA;
  Value sharedB = viewB;

  // What thread 0 does before the matmul (the C initialisation) stays
  // before the loop; what it does after (split-K's atomic accumulation into
  // C) comes after the loop.
  auto moveToIf = [&](auto range) {
    auto newIf = scf::IfOp::create(b, loc, isThread0, false);
    for (Operation &op : llvm::make_early_inc_range(range))
      op.moveBefore(newIf.thenBlock()->getTerminator());
    return newIf;
  };
  Block *thread0Body = ifThread0.thenBlock();
  if (&thread0Body->front() != matmul.getOperation())
    moveToIf(llvm::make_range(thread0Body->begin(), matmul->getIterator()));

  // The K loop over slices of this block's K range (all of K, or its chunk
  // under split-K).
  Value kBegin = getValueOrCreateConstantIndexOp(b, loc, blockA->offsets[1]);
  Value kEnd = arith::AddIOp::create(
      b, loc, kBegin,
      getValueOrCreateConstantIndexOp(b, loc, blockA->sizes[1]));
  auto loop = scf::ForOp::create(b, loc, kBegin, kEnd,
                                 constIndex(b, loc, blockK));
  loop->setAttr(kKLoopAttrName, b.getUnitAttr());
  b.setInsertionPointToStart(loop.getBody());
  Value k0 = loop.getInductionVar();
  CopyContext ctx{b, loc, threadId, config.getNumThreads(), k0, problem, config};
  ctx.async = config.getStages() >= 3;
  // K not a multiple of BK: the slices copy from kc = min(k0, K - BK) and
  // the last one zero-fills the rows before k0 (CopyContext::kc). Only the
  // slice at the end of K can be partial (split-K chunks are whole slices),
  // and a shifted one starts no lower than 0 where K >= BK.
  bool partialK = problem.k % blockK != 0;
  bool shiftLast = partialK && problem.k >= blockK;
  ctx.kc = k0;
  if (shiftLast) {
    ctx.kc = arith::MinUIOp::create(b, loc, k0,
                                    constIndex(b, loc, problem.k - blockK));
    ctx.skip = arith::SubIOp::create(b, loc, k0, ctx.kc);
  }
  copySliceA(ctx, globalA, row0, sharedA);
  copySliceB(ctx, globalB, col0, sharedB);
  if (ctx.async) {
    // One group per slice; this thread's copies are done after the wait,
    // everyone's after the barrier.
    auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ctx.tokens);
    nvgpu::DeviceAsyncWaitOp::create(b, loc, group.getAsyncToken(),
                                     b.getI32IntegerAttr(0));
  }
  gpu::BarrierOp::create(b, loc);

  // Thread 0 multiplies the slices: C_blk += (A_s[0:depth, 0:rows])^T *
  // B_s[0:depth, 0:cols]. A shifted slice is taken whole (its rows before
  // k0 are zeros); without the shift (K < BK) the one slice is K deep.
  OpFoldResult depth = b.getIndexAttr(blockK);
  if (partialK && !shiftLast)
    depth = arith::MinUIOp::create(b, loc,
                                   arith::SubIOp::create(b, loc, kEnd, k0),
                                   constIndex(b, loc, blockK))
                .getResult();
  auto ifCompute = scf::IfOp::create(b, loc, isThread0, false);
  b.setInsertionPointToStart(ifCompute.thenBlock());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Value sliceA = memref::SubViewOp::create(b, loc, sharedA, {zero, zero},
                                           {depth, rows}, {one, one});
  Value sliceAT = memref::TransposeOp::create(
      b, loc, sliceA,
      AffineMapAttr::get(AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                      b.getContext())));
  Value sliceB = memref::SubViewOp::create(b, loc, sharedB, {zero, zero},
                                           {depth, cols}, {one, one});
  auto sliceMatmul = linalg::MatmulOp::create(
      b, loc, ValueRange{sliceAT, sliceB}, ValueRange{blockC});
  setConfig(sliceMatmul, config);
  b.setInsertionPointAfter(ifCompute);
  // The next slice's copies overwrite the buffers: wait for the compute.
  gpu::BarrierOp::create(b, loc);

  b.setInsertionPointAfter(loop);
  if (std::next(matmul->getIterator()) != thread0Body->without_terminator().end())
    moveToIf(llvm::make_range(std::next(matmul->getIterator()),
                              thread0Body->without_terminator().end()));

  ifThread0.erase();
  for (BlockView *view : {&*blockA, &*blockB}) {
    if (view->transpose && view->transpose->use_empty())
      view->transpose.erase();
    if (view->subview->use_empty())
      view->subview.erase();
  }

  // One buffer of each for now; tile-pipeline makes the plan's others.
  setDynamicSharedBytes(getOperation(), kernel, plan.stageBytes);
  eraseDeadOps(kernel.getBody());
  setStage(kernel, KernelStage::Shared);
  return success();
}

void TilePromoteSharedPass::runOnOperation() {
  FailureOr<SmallVector<gpu::GPUFuncOp>> kernels = getKernelsAtStage(
      getOperation(), KernelStage::Block, "tile-promote-shared");
  if (failed(kernels))
    return signalPassFailure();
  for (gpu::GPUFuncOp kernel : *kernels)
    if (failed(promote(kernel)))
      return signalPassFailure();
}

} // namespace
