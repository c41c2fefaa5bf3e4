//===- WgmmaSlabs.cpp - the wgmma strategy's shared-memory slabs ----------===//

#include "tile/Transforms/WgmmaSlabs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::emitSwizzledColumn(OpBuilder &b, Location loc, Value row,
                                     Value col, int64_t elementBytes) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  int64_t perGranule = 16 / elementBytes;
  Value granule = arith::DivUIOp::create(b, loc, col, c(perGranule));
  Value rowInAtom = arith::RemUIOp::create(b, loc, row, c(8));
  Value swizzled = arith::XOrIOp::create(b, loc, granule, rowInAtom);
  Value inGranule = arith::RemUIOp::create(b, loc, col, c(perGranule));
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, swizzled, c(perGranule)),
      inGranule);
}

Value mlir::tile::emitAlignedBase(OpBuilder &b, Location loc, Value smem) {
  // (1024 - address % 1024) % 1024, i.e. -address & 1023.
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
  Value mask = constIndex(b, loc, kSwizzleAtomBytes - 1);
  Value negated =
      arith::SubIOp::create(b, loc, constIndex(b, loc, 0), address);
  return arith::AndIOp::create(b, loc, negated, mask);
}

SlabViews mlir::tile::emitSlabViews(OpBuilder &b, Location loc, Value smem,
                                    Value base, Value slot,
                                    const SharedPlan &plan, Type elementType) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  auto type = [&](int64_t rows, int64_t cols) {
    return MemRefType::get({rows, cols}, elementType,
                           MemRefLayoutAttrInterface(), workgroup);
  };
  // Slot s starts at s * stageBytes: A, then B's chunks.
  Value slotStart = arith::AddIOp::create(
      b, loc, base, arith::MulIOp::create(b, loc, slot, c(plan.stageBytes)));
  SlabViews views;
  // An operand's whole slab (marked with its name) and its boxes'
  // destinations. A K-major slab of one box is its whole view; of several,
  // consecutive parts of its rows (whole swizzle atoms each).
  auto operand = [&](StringRef name, Value start, const SlabOperand &slab,
                     const TmaBox &box, int64_t boxes, Value &whole,
                     SmallVector<Value> &chunks) {
    auto view = memref::ViewOp::create(
        b, loc, type(slab.chunks * slab.rows, slab.rowElements), smem, start,
        ValueRange{});
    view->setAttr(kSharedBufferAttrName, b.getStringAttr(name));
    whole = view;
    if (!slab.mnMajor && boxes == 1) {
      chunks.push_back(whole);
      return;
    }
    // Each chunk of an MN-major slab (`boxes` is their number), or each
    // part of a K-major one's rows.
    int64_t rows = slab.mnMajor ? slab.rows : box.rows;
    int64_t partBytes = slab.mnMajor
                            ? slab.chunkBytes
                            : box.rows * slab.rowElements * slab.elementBytes;
    for (int64_t part = 0; part < boxes; ++part) {
      Value partStart =
          part == 0 ? start
                    : arith::AddIOp::create(b, loc, start, c(part * partBytes))
                          .getResult();
      chunks.push_back(memref::ViewOp::create(
          b, loc, type(rows, slab.rowElements), smem, partStart, ValueRange{}));
    }
  };
  operand("A", slotStart, plan.slabA(), plan.boxA, plan.boxesA, views.a,
          views.aChunks);
  Value startB = arith::AddIOp::create(b, loc, slotStart, c(plan.bytesA));
  operand("B", startB, plan.slabB(), plan.boxB, plan.boxesB, views.b,
          views.bChunks);
  return views;
}

int64_t mlir::tile::slabTransactionBytes(const SharedPlan &plan) {
  return (plan.boxesA * plan.boxA.rows * plan.boxA.cols +
          plan.boxesB * plan.boxB.rows * plan.boxB.cols) *
         plan.elementBytes;
}

SlabLine mlir::tile::emitSlabLine(OpBuilder &b, Location loc,
                                  const SlabOperand &slab, Value mn) {
  if (!slab.mnMajor)
    return {mn, Value()};
  Value perChunk = constIndex(b, loc, slab.rowElements);
  return {arith::DivUIOp::create(b, loc, mn, perChunk),
          arith::RemUIOp::create(b, loc, mn, perChunk)};
}

std::pair<Value, Value>
mlir::tile::emitSlabPosition(OpBuilder &b, Location loc,
                             const SlabOperand &slab, const SlabLine &line,
                             Value k) {
  // K-major: row mn, k at its swizzled column. MN-major: row
  // chunk * BK + k, the column in the chunk swizzled by k's row.
  if (!slab.mnMajor)
    return {line.rowOrChunk, emitSwizzledColumn(b, loc, line.rowOrChunk, k,
                                                slab.elementBytes)};
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, line.rowOrChunk,
                            constIndex(b, loc, slab.rows)),
      k);
  return {row, emitSwizzledColumn(b, loc, k, line.column, slab.elementBytes)};
}

Value mlir::tile::emitSlabLinearOffset(OpBuilder &b, Location loc,
                                       const SlabOperand &slab, Value mn) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  if (!slab.mnMajor)
    return arith::MulIOp::create(b, loc, mn, c(kSwizzleRowBytes));
  SlabLine line = emitSlabLine(b, loc, slab, mn);
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, line.rowOrChunk, c(slab.chunkBytes)),
      arith::MulIOp::create(b, loc, line.column, c(slab.elementBytes)));
}

void mlir::tile::emitTmaSlabCopy(OpBuilder &b, Location loc, Value descA,
                                 Value descB, Value barriers, Value slot,
                                 const SlabViews &views,
                                 const SlabSource &source,
                                 const SharedPlan &plan) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  nvgpu::MBarrierArriveExpectTxOp::create(
      b, loc, barriers, c(slabTransactionBytes(plan)), slot, Value());
  // A batched kernel's maps are 3-d (getTensorMapTypes): the block's
  // matrix, grid y, is the outermost coordinate, and the box lands in a
  // 1 x rows x cols view of the same bytes.
  bool batched =
      cast<nvgpu::TensorMapDescriptorType>(descA.getType()).getTensor()
          .getRank() == 3;
  Value matrix =
      batched ? gpu::BlockIdOp::create(b, loc, gpu::Dimension::y).getResult()
              : Value();
  auto load = [&](StringRef operand, Value view, Value desc, Value inner,
                  Value outer) {
    SmallVector<Value, 3> coordinates = {inner, outer};
    if (batched) {
      auto source = view.getDefiningOp<memref::ViewOp>();
      assert(source && "slab views are memref.view ops");
      auto type = cast<MemRefType>(view.getType());
      view = memref::ViewOp::create(
          b, loc,
          MemRefType::get({1, type.getDimSize(0), type.getDimSize(1)},
                          type.getElementType(), MemRefLayoutAttrInterface(),
                          type.getMemorySpace()),
          source.getSource(), source.getByteShift(), ValueRange{});
      coordinates.push_back(matrix);
    }
    auto tmaLoad = nvgpu::TmaAsyncLoadOp::create(
        b, loc, view, barriers, desc, coordinates, slot, Value(), Value());
    tmaLoad->setAttr(kTmaOperandAttrName, b.getStringAttr(operand));
  };
  // Tensor-map coordinates are innermost first: (k, mn) of a K-major
  // operand stored MN x K (A, or a transposed B: one box of all its rows,
  // or one per part of them in a cluster that shares it), (mn, k) of an
  // MN-major one stored K x MN (B, or a transposed A: a box per
  // 64-element chunk).
  auto copy = [&](StringRef operand, const SlabOperand &slab, const TmaBox &box,
                  ArrayRef<Value> chunks, Value desc, Value mn0) {
    int64_t step = slab.mnMajor ? slab.rowElements : box.rows;
    for (auto [chunk, view] : llvm::enumerate(chunks)) {
      Value mn = chunk == 0
                     ? mn0
                     : arith::AddIOp::create(
                           b, loc, mn0, c(static_cast<int64_t>(chunk) * step))
                           .getResult();
      if (slab.mnMajor)
        load(operand, view, desc, mn, source.k0);
      else
        load(operand, view, desc, source.k0, mn);
    }
  };
  copy("A", plan.slabA(), plan.boxA, views.aChunks, descA, source.row0);
  copy("B", plan.slabB(), plan.boxB, views.bChunks, descB, source.col0);
}

namespace {
/// `matrix[row][col]` where both are inside `rows` x `cols`, else zero (the
/// address clamped into the matrix, so nothing outside it is read).
Value loadOrZero(OpBuilder &b, Location loc, Value matrix, Value row,
                 Value col, int64_t rows, int64_t cols, bool rowsMayExceed,
                 bool colsMayExceed) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Value valid;
  auto inside = [&](Value &index, int64_t bound) {
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                     c(bound));
    valid = valid ? arith::AndIOp::create(b, loc, valid, ok).getResult() : ok;
    index = arith::MinUIOp::create(b, loc, index, c(bound - 1));
  };
  if (rowsMayExceed)
    inside(row, rows);
  if (colsMayExceed)
    inside(col, cols);
  Value value = memref::LoadOp::create(b, loc, matrix, ValueRange{row, col});
  if (!valid)
    return value;
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(value.getType()));
  return arith::SelectOp::create(b, loc, valid, value, zero);
}
} // namespace

namespace {
/// Rounds of a register copy emitted per iteration of its loop: the loads
/// of a group are in flight together (the copy is latency-bound: groups of
/// 8 ran 4095x4097x4093 at 18 TFLOP/s), few enough that their values and
/// addresses stay in registers (unrolled whole, the copies of a 128x256x64
/// slab kept ~200 addresses and values live and spilled).
constexpr int64_t kCopyRoundsPerIteration = 16;

/// One operand's slab copied by `numThreads` threads: element
/// e = thread + round * numThreads is (row e / rowLength, column
/// e % rowLength) of the slab.
struct SlabCopy {
  int64_t rows, rowLength, numThreads;
  /// Where the element goes: (row, column) of the slab -> shared memory.
  function_ref<void(OpBuilder &, Value row, Value col, Value value)> store;
  /// The element of the global matrix at (row, column) of the slab (guarded
  /// or not).
  function_ref<Value(OpBuilder &, Value row, Value col)> load;
};

/// Emits the copy: groups of kCopyRoundsPerIteration rounds in a loop, the
/// rest unrolled; in the last round threads past the slab store nothing.
/// The element's position is computed in closed form where the threads
/// cover whole rows (rowLength divides numThreads) or rows cover whole
/// thread counts (numThreads divides rowLength), so the group's addresses
/// are the thread's own plus constants.
void emitSlabCopy(OpBuilder &b, Location loc, Value thread,
                  const SlabCopy &copy) {
  int64_t elements = copy.rows * copy.rowLength;
  int64_t threads = copy.numThreads;
  int64_t fullRounds = elements / threads;
  int64_t rounds = ceilDiv(elements, threads);
  auto c = [&](OpBuilder &rb, int64_t value) {
    return constIndex(rb, loc, value);
  };
  // Per-thread parts, before any loop.
  Value threadRow, threadCol;
  int64_t rowsPerRound = 0, roundsPerRow = 0;
  if (threads % copy.rowLength == 0) {
    rowsPerRound = threads / copy.rowLength;
    threadRow = arith::DivUIOp::create(b, loc, thread, c(b, copy.rowLength));
    threadCol = arith::RemUIOp::create(b, loc, thread, c(b, copy.rowLength));
  } else if (copy.rowLength % threads == 0) {
    roundsPerRow = copy.rowLength / threads;
  }
  // The element of round `first + j` (first a multiple of the group size).
  auto position = [&](OpBuilder &rb, Value first, int64_t j)
      -> std::tuple<Value, Value, Value> {
    Value round = j == 0 ? first
                         : arith::AddIOp::create(rb, loc, first, c(rb, j))
                               .getResult();
    Value e = arith::AddIOp::create(
        rb, loc, thread,
        arith::MulIOp::create(rb, loc, round, c(rb, threads)));
    if (rowsPerRound) {
      Value row = arith::AddIOp::create(
          rb, loc, threadRow,
          arith::MulIOp::create(rb, loc, round, c(rb, rowsPerRound)));
      return {e, row, threadCol};
    }
    if (roundsPerRow && kCopyRoundsPerIteration % roundsPerRow == 0) {
      Value row = arith::AddIOp::create(
          rb, loc,
          arith::DivUIOp::create(rb, loc, first, c(rb, roundsPerRow)),
          c(rb, j / roundsPerRow));
      Value col = arith::AddIOp::create(
          rb, loc, thread, c(rb, (j % roundsPerRow) * threads));
      return {e, row, col};
    }
    return {e, arith::DivUIOp::create(rb, loc, e, c(rb, copy.rowLength)),
            arith::RemUIOp::create(rb, loc, e, c(rb, copy.rowLength))};
  };
  auto copyRound = [&](OpBuilder &rb, Value first, int64_t j, bool partial) {
    auto [e, row, col] = position(rb, first, j);
    Value value = copy.load(rb, row, col);
    if (!partial)
      return copy.store(rb, row, col, value);
    Value inSlab = arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::ult, e,
                                         c(rb, elements));
    auto ifIn = scf::IfOp::create(rb, loc, inSlab, false);
    OpBuilder::InsertionGuard guard(rb);
    rb.setInsertionPointToStart(ifIn.thenBlock());
    copy.store(rb, row, col, value);
  };
  int64_t looped = fullRounds / kCopyRoundsPerIteration *
                   kCopyRoundsPerIteration;
  if (looped > kCopyRoundsPerIteration) {
    scf::ForOp::create(
        b, loc, c(b, 0), c(b, looped), c(b, kCopyRoundsPerIteration),
        ValueRange{}, [&](OpBuilder &lb, Location, Value first, ValueRange) {
          // The loads of the group first, then the stores: all in flight.
          SmallVector<std::tuple<Value, Value, Value>> loaded;
          for (int64_t j = 0; j < kCopyRoundsPerIteration; ++j) {
            auto [e, row, col] = position(lb, first, j);
            loaded.push_back({row, col, copy.load(lb, row, col)});
          }
          for (auto [row, col, value] : loaded)
            copy.store(lb, row, col, value);
          scf::YieldOp::create(lb, loc);
        });
  } else {
    looped = 0;
  }
  for (int64_t i = looped; i < rounds; ++i)
    copyRound(b, c(b, i - i % kCopyRoundsPerIteration),
              i % kCopyRoundsPerIteration, /*partial=*/i >= fullRounds);
}
} // namespace

void mlir::tile::emitRegisterSlabCopy(OpBuilder &b, Location loc, Value thread,
                                      int64_t numThreads, Value globalA,
                                      Value globalB, const SlabViews &views,
                                      const SlabSource &source,
                                      ConfigAttr config) {
  const MatmulProblem &p = source.problem;
  int64_t blockM = config.getBlockM(), blockN = config.getBlockN(),
          blockK = config.getBlockK();
  SharedPlan plan = getKernelSharedPlan(config, p);
  bool edgeM = p.m % blockM != 0, edgeN = p.n % blockN != 0,
       edgeK = p.k % blockK != 0;
  // One operand's slab, element by element of its stored rows: a K-major
  // one (A stored M x K, B stored N x K) row mn, element kk of
  // global[mn0 + mn][k0 + kk]; an MN-major one (A stored K x M, B stored
  // K x N) row kk, element mn of global[k0 + kk][mn0 + mn]. Each goes to
  // its place in the slab (emitSlabPosition).
  auto copyOperand = [&](OpBuilder &cb, const SlabOperand &slab, Value view,
                         Value global, Value mn0, int64_t extent,
                         int64_t bound, bool guardMN, bool guardK) {
    auto store = [&](OpBuilder &rb, Value row, Value col, Value value) {
      auto [mn, kk] = slab.mnMajor ? std::pair{col, row} : std::pair{row, col};
      auto [r, cl] =
          emitSlabPosition(rb, loc, slab, emitSlabLine(rb, loc, slab, mn), kk);
      memref::StoreOp::create(rb, loc, value, view, ValueRange{r, cl});
    };
    // (The stored column's index first.)
    auto load = [&](OpBuilder &rb, Value row, Value col) {
      if (slab.mnMajor) {
        Value globalMN = arith::AddIOp::create(rb, loc, mn0, col);
        Value globalK = arith::AddIOp::create(rb, loc, source.k0, row);
        return loadOrZero(rb, loc, global, globalK, globalMN, p.k, bound,
                          guardK, guardMN);
      }
      Value globalK = arith::AddIOp::create(rb, loc, source.k0, col);
      Value globalMN = arith::AddIOp::create(rb, loc, mn0, row);
      return loadOrZero(rb, loc, global, globalMN, globalK, bound, p.k,
                        guardMN, guardK);
    };
    emitSlabCopy(cb, loc, thread,
                 slab.mnMajor
                     ? SlabCopy{blockK, extent, numThreads, store, load}
                     : SlabCopy{extent, blockK, numThreads, store, load});
  };
  // Both copies, with loads guarded at the matrix edges or not.
  auto emitCopies = [&](OpBuilder &cb, bool guarded) {
    copyOperand(cb, plan.slabA(), views.a, globalA, source.row0, blockM, p.m,
                guarded && edgeM, guarded && edgeK);
    copyOperand(cb, plan.slabB(), views.b, globalB, source.col0, blockN, p.n,
                guarded && edgeN, guarded && edgeK);
  };
  if (!edgeM && !edgeN && !edgeK) {
    emitCopies(b, /*guarded=*/false);
  } else {
    // Most slabs lie inside the matrices: they skip the guards.
    auto c = [&](int64_t v) { return constIndex(b, loc, v); };
    auto fits = [&](Value origin, int64_t extent, int64_t bound) {
      return arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ule,
          arith::AddIOp::create(b, loc, origin, c(extent)), c(bound));
    };
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::AndIOp::create(b, loc, fits(source.row0, blockM, p.m),
                              fits(source.col0, blockN, p.n)),
        fits(source.k0, blockK, p.k));
    scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &tb, Location) {
          emitCopies(tb, /*guarded=*/false);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          emitCopies(eb, /*guarded=*/true);
          scf::YieldOp::create(eb, loc);
        });
  }
  // The stores are generic-proxy writes; wgmma reads through the async
  // proxy.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
}

void mlir::tile::emitScalarSlabProduct(OpBuilder &b, Location loc,
                                       const SlabViews &views, Value cView,
                                       Value rowOrigin, Value colOrigin,
                                       OpFoldResult rows, OpFoldResult cols,
                                       OpFoldResult depth, ConfigAttr config,
                                       Type elementType,
                                       StoredTransposes stored) {
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  SharedPlan plan =
      getSharedPlan(config.toTileConfig(), elementBytes, stored);
  SlabOperand slabA = plan.slabA(), slabB = plan.slabB();
  Type f32 = b.getF32Type();
  auto toValue = [&](OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(b, loc, ofr);
  };
  auto widen = [&](OpBuilder &nb, Location nl, Value value) -> Value {
    return value.getType() == f32
               ? value
               : arith::ExtFOp::create(nb, nl, f32, value).getResult();
  };
  // Bounds first: nothing may be created with `b` while the loops are built.
  Value rowsValue = toValue(rows), colsValue = toValue(cols),
        depthValue = toValue(depth);
  scf::ForOp::create(
      b, loc, c(0), rowsValue, c(1), ValueRange{},
      [&](OpBuilder &bi, Location li, Value i, ValueRange) {
        scf::ForOp::create(
            bi, li, constIndex(bi, li, 0), colsValue,
            constIndex(bi, li, 1), ValueRange{},
            [&](OpBuilder &bj, Location lj, Value j, ValueRange) {
              auto cj = [&](int64_t value) { return constIndex(bj, lj, value); };
              Value initial = widen(
                  bj, lj,
                  memref::LoadOp::create(bj, lj, cView, ValueRange{i, j}));
              Value rowA = arith::AddIOp::create(bj, lj, rowOrigin, i);
              Value colB = arith::AddIOp::create(bj, lj, colOrigin, j);
              SlabLine lineA = emitSlabLine(bj, lj, slabA, rowA);
              SlabLine lineB = emitSlabLine(bj, lj, slabB, colB);
              auto sum = scf::ForOp::create(
                  bj, lj, cj(0), depthValue, cj(1), ValueRange{initial},
                  [&](OpBuilder &bk, Location lk, Value kk, ValueRange acc) {
                    auto [rowAs, colAs] =
                        emitSlabPosition(bk, lk, slabA, lineA, kk);
                    Value a = memref::LoadOp::create(
                        bk, lk, views.a, ValueRange{rowAs, colAs});
                    auto [rowBs, colBs] =
                        emitSlabPosition(bk, lk, slabB, lineB, kk);
                    Value bValue = memref::LoadOp::create(
                        bk, lk, views.b, ValueRange{rowBs, colBs});
                    Value product = arith::MulFOp::create(
                        bk, lk, widen(bk, lk, a), widen(bk, lk, bValue));
                    scf::YieldOp::create(
                        bk, lk,
                        ValueRange{arith::AddFOp::create(bk, lk, acc[0], product)
                                       .getResult()});
                  });
              Value result = sum.getResult(0);
              Type cType = cast<MemRefType>(cView.getType()).getElementType();
              if (cType != f32)
                result = arith::TruncFOp::create(bj, lj, cType, result);
              memref::StoreOp::create(bj, lj, result, cView, ValueRange{i, j});
              scf::YieldOp::create(bj, lj);
            });
        scf::YieldOp::create(bi, li);
      });
}

LogicalResult mlir::tile::promoteToSwizzledSlabs(gpu::GPUFuncOp kernel,
                                                  Operation *root) {
  ConfigAttr config = getConfig(kernel);
  MatmulProblem problem = *getMatmulProblem(kernel);
  linalg::MatmulOp matmul;
  kernel.walk([&](linalg::MatmulOp op) { matmul = op; });
  auto ifThread0 = matmul ? dyn_cast<scf::IfOp>(matmul->getParentOp()) : nullptr;
  // tile-block-tile's subviews of A and B (a transposed one's seen through
  // a memref.transpose), offsets and sizes in (row, column) order.
  std::optional<BlockView> blockA, blockB;
  if (matmul) {
    blockA = findBlockView(matmul.getInputs()[0], problem.transposeA);
    blockB = findBlockView(matmul.getInputs()[1], problem.transposeB);
  }
  bool tma = config.getCopy() == CopyKind::Tma;
  if (!ifThread0 || !blockA || !blockB ||
      (tma && !isa<nvgpu::TensorMapDescriptorType>(
                  kernel.getArgumentTypes().back())))
    return kernel.emitError()
           << "tile-promote-shared: kernel body is not the form "
              "tile-block-tile makes (a block-tile linalg.matmul on subviews "
              "in an scf.if, and tensor maps of A and B for the TMA)";
  Location loc = matmul.getLoc();
  OpBuilder b(ifThread0);
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Value blockC = matmul.getOutputs()[0];
  Value row0 = getValueOrCreateConstantIndexOp(b, loc, blockA->offsets[0]);
  Value col0 = getValueOrCreateConstantIndexOp(b, loc, blockB->offsets[1]);
  OpFoldResult rows = blockA->sizes[0];
  OpFoldResult cols = blockB->sizes[1];
  Value threadId;
  kernel.walk([&](gpu::ThreadIdOp op) { threadId = op; });
  Value isThread0 = ifThread0.getCondition();
  Type elementType = problem.elementType;
  SharedPlan plan = getKernelSharedPlan(config, problem);

  // The dynamic shared memory, from a 1024-byte boundary on (the swizzle
  // atoms of the TMA and wgmma).
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  Value base = emitAlignedBase(b, loc, smem);
  // The TMA reports its bytes on the slot's "full" mbarrier: thread 0
  // arrives once (with the expected bytes), the copy completes the phase.
  Value barriers;
  if (tma) {
    barriers = nvgpu::MBarrierCreateOp::create(
        b, loc,
        nvgpu::MBarrierGroupType::get(b.getContext(), workgroup,
                                      /*num_barriers=*/1));
    auto ifInit = scf::IfOp::create(b, loc, isThread0, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInit.thenBlock());
    nvgpu::MBarrierInitOp::create(b, loc, barriers, c(1), c(0), Value());
  }
  if (tma)
    gpu::BarrierOp::create(b, loc);

  // The C initialisation (a fill) stays in thread 0, before the loop.
  Block *thread0Body = ifThread0.thenBlock();
  if (&thread0Body->front() != matmul.getOperation()) {
    auto ifFill = scf::IfOp::create(b, loc, isThread0, false);
    for (Operation &op : llvm::make_early_inc_range(
             llvm::make_range(thread0Body->begin(), matmul->getIterator())))
      op.moveBefore(ifFill.thenBlock()->getTerminator());
  }

  // The K loop over BK-deep slabs of this block's K range (all of K, or
  // its chunk under split-K, which starts at A's column offset).
  OpFoldResult kOffset = blockA->offsets[1];
  Value kBegin = getValueOrCreateConstantIndexOp(b, loc, kOffset);
  Value kEnd = c(problem.k);
  if (!isConstantIntValue(kOffset, 0))
    kEnd = arith::AddIOp::create(
        b, loc, kBegin,
        getValueOrCreateConstantIndexOp(b, loc, blockA->sizes[1]));
  auto loop = scf::ForOp::create(b, loc, kBegin, kEnd, c(config.getBlockK()));
  loop->setAttr(kKLoopAttrName, b.getUnitAttr());
  b.setInsertionPointToStart(loop.getBody());
  Value k0 = loop.getInductionVar();
  auto slotOp = arith::ConstantIndexOp::create(b, loc, 0);
  slotOp->setAttr(kSlotAttrName, b.getUnitAttr());
  Value slot = slotOp;
  SlabViews views =
      emitSlabViews(b, loc, smem, base, slot, plan, elementType);
  SlabSource source{k0, row0, col0, problem};
  if (tma) {
    auto ifCopy = scf::IfOp::create(b, loc, isThread0, false);
    ifCopy->setAttr(kSlabCopyAttrName, b.getUnitAttr());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifCopy.thenBlock());
      // The kernel's first two tensor maps: A's and B's (a TMA store's
      // map of C comes after them).
      SmallVector<Value> maps;
      for (BlockArgument arg : kernel.getArguments())
        if (isa<nvgpu::TensorMapDescriptorType>(arg.getType()))
          maps.push_back(arg);
      emitTmaSlabCopy(b, loc, maps[0], maps[1], barriers, slot, views, source,
                      plan);
    }
    // Slab i of the block's range completes phase i of the one barrier:
    // wait for its parity.
    Value slab = isConstantIntValue(kOffset, 0)
                     ? k0
                     : arith::SubIOp::create(b, loc, k0, kBegin).getResult();
    Value round = arith::DivUIOp::create(b, loc, slab, c(config.getBlockK()));
    Value parity = arith::IndexCastOp::create(
        b, loc, b.getI1Type(), arith::RemUIOp::create(b, loc, round, c(2)));
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                           c(10000000), slot);
  } else {
    auto copy = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
    copy->setAttr(kSlabCopyAttrName, b.getUnitAttr());
    Block *body = b.createBlock(&copy.getRegion());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(body);
      OpBuilder entry = OpBuilder::atBlockBegin(&kernel.getBody().front());
      emitRegisterSlabCopy(b, loc, threadId, config.getNumThreads(),
                           getBlockMatrix(entry, kernel, 0),
                           getBlockMatrix(entry, kernel, 1), views, source,
                           config);
      scf::YieldOp::create(b, loc);
    }
    b.setInsertionPointAfter(copy);
    gpu::BarrierOp::create(b, loc);
  }

  // Thread 0 multiplies the slabs.
  OpFoldResult depth = b.getIndexAttr(config.getBlockK());
  if (problem.k % config.getBlockK() != 0)
    depth = arith::MinUIOp::create(
                b, loc, arith::SubIOp::create(b, loc, c(problem.k), k0),
                c(config.getBlockK()))
                .getResult();
  auto ifCompute = scf::IfOp::create(b, loc, isThread0, false);
  ifCompute->setAttr(kSlabComputeAttrName, b.getUnitAttr());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifCompute.thenBlock());
    emitScalarSlabProduct(b, loc, views, blockC, c(0), c(0), rows, cols,
                          depth, config, elementType,
                          problem.storedTransposes());
  }
  // The next slab overwrites the slot: wait for the product.
  gpu::BarrierOp::create(b, loc);

  // What thread 0 does after the product (split-K's atomic accumulation of
  // the partial tile into C) comes after the loop.
  b.setInsertionPointAfter(loop);
  if (std::next(matmul->getIterator()) !=
      thread0Body->without_terminator().end()) {
    auto ifAccumulate = scf::IfOp::create(b, loc, isThread0, false);
    for (Operation &op : llvm::make_early_inc_range(
             llvm::make_range(std::next(matmul->getIterator()),
                              thread0Body->without_terminator().end())))
      op.moveBefore(ifAccumulate.thenBlock()->getTerminator());
  }

  ifThread0.erase();
  for (BlockView *view : {&*blockA, &*blockB}) {
    if (view->transpose && view->transpose->use_empty())
      view->transpose.erase();
    if (view->subview->use_empty())
      view->subview.erase();
  }
  // One slot for now (and the slack that aligns it); tile-mbarrier-pipeline
  // makes the plan's ring.
  setDynamicSharedBytes(root, kernel, plan.stageBytes + plan.alignmentSlack);
  eraseDeadOps(kernel.getBody());
  setStage(kernel, KernelStage::Shared);
  return success();
}

SlabViews mlir::tile::findSlabViews(scf::ForOp kLoop) {
  SlabViews views;
  kLoop.walk([&](memref::ViewOp view) {
    auto mark = view->getAttrOfType<StringAttr>(kSharedBufferAttrName);
    if (mark && mark.getValue() == "A")
      views.a = view;
    if (mark && mark.getValue() == "B")
      views.b = view;
  });
  return views;
}

FailureOr<ScalarSlabProduct> mlir::tile::findScalarSlabProduct(scf::ForOp kLoop) {
  ScalarSlabProduct product;
  for (auto ifOp : kLoop.getBody()->getOps<scf::IfOp>())
    if (ifOp->hasAttr(kSlabComputeAttrName))
      product.ifCompute = ifOp;
  product.views = findSlabViews(kLoop);
  if (!product.ifCompute || !product.views.a || !product.views.b)
    return failure();
  // for i < rows { for j < cols { c = load C[i, j]; rowA = rowOrigin + i;
  // colB = colOrigin + j; ... for kk < depth ... } }
  auto firstLoop = [](Block *block) -> scf::ForOp {
    auto loops = block->getOps<scf::ForOp>();
    return loops.empty() ? scf::ForOp() : *loops.begin();
  };
  scf::ForOp rowsLoop = firstLoop(product.ifCompute.thenBlock());
  scf::ForOp colsLoop = rowsLoop ? firstLoop(rowsLoop.getBody()) : nullptr;
  if (!colsLoop)
    return failure();
  product.rows = rowsLoop.getUpperBound();
  product.cols = colsLoop.getUpperBound();
  for (Operation &op : *colsLoop.getBody()) {
    if (auto load = dyn_cast<memref::LoadOp>(op); load && !product.cView)
      product.cView = load.getMemref();
    if (auto add = dyn_cast<arith::AddIOp>(op)) {
      if (add.getRhs() == rowsLoop.getInductionVar())
        product.rowOrigin = add.getLhs();
      if (add.getRhs() == colsLoop.getInductionVar())
        product.colOrigin = add.getLhs();
    }
    if (auto inner = dyn_cast<scf::ForOp>(op))
      product.depth = getAsOpFoldResult(inner.getUpperBound());
  }
  if (!product.cView || !product.rowOrigin || !product.colOrigin ||
      product.depth.isNull())
    return failure();
  return product;
}
