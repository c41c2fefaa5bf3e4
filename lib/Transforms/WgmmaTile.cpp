//===- WgmmaTile.cpp - wgmma instruction tiles per warpgroup --------------===//
//
// The wgmma strategy's instruction tile: each consumer warpgroup's slab
// product becomes (WM/64) x (WN/IN) wgmma.mma_async instructions per k
// step (m64nINk16 for bf16/f16, m64nINk8 for f32 inputs read as TF32, both
// operands then K-major), reading A (K-major, or M-major when it is
// stored transposed, K x M) and B (N-major, or K-major when it is stored
// transposed, N x K) from
// the 128-byte-swizzled slot through matrix descriptors, accumulating into
// f32 registers carried through the K loop. C goes in and out of the
// registers through the shared epilogue (Epilogue.h).
//
// A matrix descriptor (PTX ISA, "Matrix Descriptor Format") is 64 bits:
// the start address >> 4 in bits 0-13, the leading-dimension byte offset
// >> 4 in bits 16-29, the stride-dimension byte offset >> 4 in bits 32-45,
// the swizzle mode in bits 62-63 (1: 128 bytes). For the 128-byte swizzle
// the stride offset is 1024 (8 rows of 128 bytes); the leading offset is
// unused for a K-major operand and, for an MN-major one, the distance
// between its 64-element chunks.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"
#include "tile/Transforms/WgmmaSlabs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"

#include <numeric>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEWGMMA
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Rows of one wgmma instruction, and the accumulator layout of its
/// 64 x N result: thread t of the warpgroup holds, for every 8-column group
/// j, rows 16 * (t / 32) + (t % 32) / 4 and 8 more, columns 8j + 2 * (t % 4)
/// and the next; register 4j + 2h + e holds row +8h, column +e.
constexpr int64_t kWgmmaM = 64;

/// A thread's accumulators for the warpgroup tile: instruction (mi, ni)
/// holds IN/2 f32 in an !llvm.struct.
struct WarpgroupAccumulators {
  int64_t tilesM = 0, tilesN = 0, instructionN = 0;
  int64_t size() const { return tilesM * tilesN; }
  /// Registers of one instruction's result.
  int64_t registers() const { return instructionN / 2; }
  Type structType(MLIRContext *context) const {
    return LLVM::LLVMStructType::getLiteral(
        context, SmallVector<Type>(registers(), Float32Type::get(context)));
  }
  /// The epilogue's view: fragment 2 elements wide per (instruction,
  /// 8-column group, half), in register order.
  AccumulatorLayout layout(Value originRow, Value originCol,
                           bool vectorAccess) const {
    AccumulatorLayout layout;
    layout.originRow = originRow;
    layout.originCol = originCol;
    layout.maxOriginRow = 16 * 3 + 7;
    layout.maxOriginCol = 2 * 3;
    layout.width = 2;
    layout.vectorAccess = vectorAccess;
    for (int64_t mi = 0; mi < tilesM; ++mi)
      for (int64_t ni = 0; ni < tilesN; ++ni)
        for (int64_t j = 0; j < instructionN / 8; ++j)
          for (int64_t h = 0; h < 2; ++h)
            layout.fragments.push_back(
                {kWgmmaM * mi + 8 * h, instructionN * ni + 8 * j});
    return layout;
  }
};

/// The 64-bit descriptor of a 128-byte-swizzled matrix at shared address
/// `address` (an index).
Value emitDescriptor(OpBuilder &b, Location loc, Value address,
                     int64_t leadingBytes, int64_t strideBytes) {
  Type i64 = b.getI64Type();
  auto c64 = [&](int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  };
  Value wide = arith::IndexCastUIOp::create(b, loc, i64, address);
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, wide, c64(0x3FFFF)), c64(4));
  uint64_t fields = (uint64_t(leadingBytes >> 4) << 16) |
                    (uint64_t(strideBytes >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(b, loc, start,
                              c64(static_cast<int64_t>(fields)));
}

/// `descriptor` moved on by `bytes` (the address field counts 16 bytes).
Value advance(OpBuilder &b, Location loc, Value descriptor, int64_t bytes) {
  if (bytes == 0)
    return descriptor;
  return arith::AddIOp::create(
      b, loc, descriptor,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(bytes >> 4)));
}

/// The instruction's input type: f32 inputs are read as TF32.
NVVM::WGMMATypes wgmmaType(Type type) {
  if (type.isF32())
    return NVVM::WGMMATypes::tf32;
  return type.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
}

/// C through TMA stores (config store = tma): each consumer warpgroup
/// writes its tile 64 rows by a 128-byte swizzle row (a box of C's tensor
/// map) at a time into one of its two staging buffers, in the map's
/// 128-byte swizzle, and its leader stores the box with the TMA. Per box:
/// the leader waits until the store that last read the buffer has read it
/// (at most one store in flight; none at a tile's first box, whose buffer
/// may be the previous tile's last), the warpgroup meets at its named
/// barrier (1 + its index, 128 threads), stores its values (the fused
/// epilogue applied, converted to C's type), fences them for the async
/// proxy and meets again; the leader issues the store and commits it. The
/// TMA leaves out what lies past C's edges. After the tile the leader
/// waits until its stores have read their buffers (marked
/// kStoreDrainAttrName: a persistent kernel waits after its last tile).
void emitTmaStore(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                           ConfigAttr config, const SharedPlan &plan,
                           const AccumulatorLayout &givenLayout,
                           ArrayRef<Value> values, memref::SubViewOp cView,
                           OpFoldResult rows, OpFoldResult cols,
                           Value threadId, Value isConsumer,
                           Value sharedView) {
  // The kernel's third tensor map (after A's and B's).
  Value descC;
  int64_t maps = 0;
  for (BlockArgument arg : kernel.getArguments())
    if (isa<nvgpu::TensorMapDescriptorType>(arg.getType()) && maps++ == 2)
      descC = arg;
  // (checkKernel verified the map and that the warpgroup tile is made of
  // whole boxes; the slab views are memref.view ops of the dynamic shared
  // memory, WgmmaSlabs.h.)
  auto view = sharedView.getDefiningOp<memref::ViewOp>();
  assert(descC && view && "a TMA store's kernel has C's map and slab views");
  MemRefType boxType =
      cast<nvgpu::TensorMapDescriptorType>(descC.getType()).getTensor();
  Type cType = boxType.getElementType();
  int64_t cBytes = cType.getIntOrFloatBitWidth() / 8;
  int64_t boxCols = kSwizzleRowBytes / cBytes;
  bool batched = boxType.getRank() == 3;
  AccumulatorLayout layout = givenLayout;
  if (layout.recomputeStorePositions) {
    layout.originRow = opaqueIndex(b, loc, layout.originRow);
    layout.originCol = opaqueIndex(b, loc, layout.originCol);
  }
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };
  Type i32 = b.getI32Type();
  MLIRContext *context = b.getContext();
  Value warpgroup = arith::DivUIOp::create(b, loc, threadId, c(kWarpgroupSize));
  Value isLeader = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, threadId, c(kWarpgroupSize)), c(0));
  Value barrierId = arith::IndexCastUIOp::create(
      b, loc, i32, arith::AddIOp::create(b, loc, warpgroup, c(1)));
  Value groupThreads = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(kWarpgroupSize));
  auto meet = [&]() {
    NVVM::BarrierOp::create(b, loc, TypeRange{}, barrierId, groupThreads,
                            NVVM::BarrierReductionAttr(), Value());
  };
  auto ifLeader = [&](function_ref<void()> body, Value condition) {
    auto ifOp = scf::IfOp::create(b, loc, condition, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
    return ifOp;
  };
  // (Before tile-mbarrier-pipeline the producer warpgroup runs the kernel's
  // end too: the consumers alone store.)
  Value isConsumerLeader = arith::AndIOp::create(b, loc, isConsumer, isLeader);
  auto consumers = scf::IfOp::create(b, loc, isConsumer, false);
  b.setInsertionPointToStart(consumers.thenBlock());
  // The warpgroup's two buffers.
  Value smem = view.getSource();
  Value start = arith::AddIOp::create(
      b, loc, emitAlignedBase(b, loc, smem),
      arith::AddIOp::create(
          b, loc, c(plan.offsetStaging(0, 0)),
          arith::MulIOp::create(b, loc, warpgroup, c(2 * kStagingBytes))));
  Value buffers[2];
  for (int64_t i = 0; i < 2; ++i) {
    auto buffer = memref::ViewOp::create(
        b, loc, boxType, smem,
        i == 0 ? start
               : arith::AddIOp::create(b, loc, start, c(kStagingBytes))
                     .getResult(),
        ValueRange{});
    buffer->setAttr(kSharedBufferAttrName, b.getStringAttr("C"));
    buffers[i] = buffer;
  }
  // The warpgroup tile's origin in C: (batch,) row, column.
  SmallVector<Value> origin = {c(0), c(0)};
  resolveToRoot(b, loc, cView, origin, /*throughRankReducing=*/true);
  int64_t rowBoxes = config.getWarpM() / kWgmmaM;
  int64_t colBoxes = config.getWarpN() / boxCols;
  for (int64_t rowBox = 0; rowBox < rowBoxes; ++rowBox)
    for (int64_t colBox = 0; colBox < colBoxes; ++colBox) {
      int64_t box = rowBox * colBoxes + colBox;
      Value buffer = buffers[box % 2];
      ifLeader([&] {
        NVVM::CpAsyncBulkWaitGroupOp::create(
            b, loc, b.getI32IntegerAttr(box == 0 ? 0 : 1), b.getUnitAttr());
      }, isLeader);
      meet();
      for (auto [fragment, value] : llvm::zip(layout.fragments, values)) {
        if (fragment.row / kWgmmaM != rowBox || fragment.col / boxCols != colBox)
          continue;
        Value stored = emitStoredValue(b, loc, layout, fragment, value, cView,
                                       rows, cols);
        Value row = arith::AddIOp::create(b, loc, layout.originRow,
                                          c(fragment.row % kWgmmaM));
        Value col = arith::AddIOp::create(b, loc, layout.originCol,
                                          c(fragment.col % boxCols));
        SmallVector<Value> indices = {
            row, emitSwizzledColumn(b, loc, row, col, cBytes)};
        if (batched)
          indices.insert(indices.begin(), c(0));
        vector::StoreOp::create(
            b, loc, stored, buffer, indices, /*nontemporal=*/false,
            llvm::MaybeAlign(layout.width * cBytes));
      }
      NVVM::FenceProxyOp::create(
          b, loc, NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
      meet();
      ifLeader([&] {
        // Coordinates innermost first: column, row (, matrix).
        SmallVector<Value> coordinates = {
            arith::AddIOp::create(b, loc, origin.back(),
                                  c(colBox * boxCols)),
            arith::AddIOp::create(b, loc, origin.end()[-2],
                                  c(rowBox * kWgmmaM))};
        if (batched)
          coordinates.push_back(origin.front());
        nvgpu::TmaAsyncStoreOp::create(b, loc, buffer, descC, coordinates,
                                       Value());
        NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
      }, isLeader);
    }
  b.setInsertionPointAfter(consumers);
  auto drain = ifLeader([&] {
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
  }, isConsumerLeader);
  drain->setAttr(kStoreDrainAttrName, b.getUnitAttr());
}

struct TileWgmmaPass : public mlir::tile::impl::TileWgmmaBase<TileWgmmaPass> {
  void runOnOperation() override;

private:
  LogicalResult tileInstructions(gpu::GPUFuncOp kernel);
};

LogicalResult TileWgmmaPass::tileInstructions(gpu::GPUFuncOp kernel) {
  ConfigAttr config = getConfig(kernel);
  MatmulProblem problem = *getMatmulProblem(kernel);
  scf::ForOp loop = findKLoop(kernel);
  FailureOr<ScalarSlabProduct> product =
      loop ? findScalarSlabProduct(loop) : FailureOr<ScalarSlabProduct>();
  auto warpgroupC = succeeded(product)
                        ? product->cView.getDefiningOp<memref::SubViewOp>()
                        : nullptr;
  Value threadId;
  kernel.walk([&](gpu::ThreadIdOp op) { threadId = op; });
  if (!warpgroupC || !threadId || loop.getNumRegionIterArgs() != 0)
    return kernel.emitError()
           << "tile-wgmma: kernel body is not the form tile-warpgroup-tile "
              "makes (a K loop whose slab product runs per warpgroup)";
  Location loc = loop.getLoc();
  MLIRContext *context = &getContext();
  SharedPlan plan = getKernelSharedPlan(config, problem);
  SlabOperand slabA = plan.slabA(), slabB = plan.slabB();

  WarpgroupAccumulators accs;
  accs.tilesM = config.getWarpM() / kWgmmaM;
  accs.tilesN = config.getWarpN() / config.getThreadN();
  accs.instructionN = config.getThreadN();
  Type structType = accs.structType(context);

  // The C initialisation before the loop, if any, is a fill: its value
  // becomes the accumulators' start.
  scf::IfOp ifFill;
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      if (!ifOp.thenBlock()->empty() &&
          isa<linalg::FillOp>(ifOp.thenBlock()->front()))
        ifFill = ifOp;
  // Under split-K the warpgroup's leader adds the partial product (the
  // view the slab product computes into) into C after the loop: the
  // accumulators then go to C by atomic adds instead of stores.
  auto [ifAccumulate, accumulateInto] = findAtomicAccumulate(loop);
  if (ifAccumulate && (!ifFill || !problem.resultType.isF32() ||
                       hasEpilogue(kernel)))
    return kernel.emitError()
           << "tile-wgmma: a split-K kernel needs a partial product that "
              "starts at a fill, an f32 C and no fused epilogue";
  OpBuilder b(loop);
  auto c = [&](int64_t value) { return constIndex(b, loc, value); };

  // This thread's place: its warpgroup computes (a consumer) or not (the
  // producer), and its origin in the accumulator layout.
  Value inGroup = arith::RemUIOp::create(b, loc, threadId, c(kWarpgroupSize));
  Value warp = arith::DivUIOp::create(b, loc, inGroup, c(32));
  Value lane = arith::RemUIOp::create(b, loc, inGroup, c(32));
  Value originRow = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, warp, c(16)),
      arith::DivUIOp::create(b, loc, lane, c(4)));
  Value originCol = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, c(4)), c(2));
  Value isConsumer = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult,
      arith::DivUIOp::create(b, loc, threadId, c(kWarpgroupSize)),
      c(config.getWarpsM() * config.getWarpsN()));
  Value fillValue =
      ifFill ? cast<linalg::FillOp>(ifFill.thenBlock()->front()).getInputs()[0]
             : Value();
  OpFoldResult rows = warpgroupC.getMixedSizes()[0];
  OpFoldResult cols = warpgroupC.getMixedSizes()[1];
  // Pairs of columns go to C as one vector (under split-K: one
  // tile.atomic_addf) when every pair is entirely inside or outside C (N
  // even) and so aligned to its width (a strided C's offset and row stride
  // even too).
  AccumulatorLayout layout = accs.layout(
      originRow, originCol,
      /*vectorAccess=*/std::gcd(problem.n,
                                layoutAlignment(
                                    problem.layoutC,
                                    problem.resultType.getIntOrFloatBitWidth() /
                                        8)) %
                              2 ==
                          0);
  layout.recomputeStorePositions = !fillValue;
  layout.atomicAdd = static_cast<bool>(ifAccumulate);

  // split_last: the blocks of whole tiles (isSplit false) start from C and
  // store into it as an unsplit kernel does; only the split tiles' blocks
  // start from the fill and add into C atomically.
  Value isSplit;
  AccumulatorLayout wholeLayout;
  if (ifAccumulate) {
    kernel.walk([&](arith::CmpIOp op) {
      if (op->hasAttr(kSplitBlockAttrName))
        isSplit = op;
    });
  }
  if (isSplit) {
    // C's view is made after the loop, from values made before it.
    Operation *view = accumulateInto.getDefiningOp();
    DominanceInfo dominance(kernel);
    if (!view || view->getNumRegions() != 0 ||
        !llvm::all_of(view->getOperands(), [&](Value operand) {
          return dominance.properlyDominates(operand, loop);
        }))
      return kernel.emitError()
             << "tile-wgmma: a split_last kernel's view of C is not made "
                "from values known before its K loop";
    if (view->getBlock() != loop->getBlock() || loop->isBeforeInBlock(view))
      view->moveBefore(loop);
    wholeLayout = layout;
    wholeLayout.atomicAdd = false;
    wholeLayout.recomputeStorePositions = true;
  }

  // Initial accumulators, packed into the instructions' register structs.
  SmallVector<Value> fragments;
  if (isSplit) {
    auto ifInit = scf::IfOp::create(
        b, loc, isSplit,
        [&](OpBuilder &nb, Location nl) {
          scf::YieldOp::create(
              nb, nl,
              emitAccumulatorInit(nb, nl, layout, warpgroupC, rows, cols,
                                  fillValue, isConsumer));
        },
        [&](OpBuilder &nb, Location nl) {
          scf::YieldOp::create(
              nb, nl,
              emitAccumulatorInit(nb, nl, wholeLayout, accumulateInto, rows,
                                  cols, /*fill=*/nullptr, isConsumer));
        });
    fragments.assign(ifInit.getResults().begin(), ifInit.getResults().end());
  } else {
    fragments = emitAccumulatorInit(b, loc, layout, warpgroupC, rows, cols,
                                    fillValue, isConsumer);
  }
  int64_t perStruct = accs.registers() / 2; // fragments of one instruction
  SmallVector<Value> init;
  for (int64_t s = 0; s < accs.size(); ++s) {
    Value packed = LLVM::UndefOp::create(b, loc, structType);
    for (int64_t f = 0; f < perStruct; ++f)
      for (int64_t e = 0; e < 2; ++e)
        packed = LLVM::InsertValueOp::create(
            b, loc, packed,
            vector::ExtractOp::create(b, loc, fragments[s * perStruct + f], e),
            ArrayRef<int64_t>{2 * f + e});
    init.push_back(packed);
  }
  if (ifFill)
    ifFill.erase();

  // The K loop, now carrying the accumulators.
  auto newLoop = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep(), init);
  newLoop->setAttrs(loop->getAttrs());
  Block *newBody = newLoop.getBody();
  newBody->getOperations().splice(newBody->begin(),
                                  loop.getBody()->getOperations(),
                                  loop.getBody()->begin(),
                                  std::prev(loop.getBody()->end()));
  loop.getInductionVar().replaceAllUsesWith(newLoop.getInductionVar());

  // The slab product becomes the warpgroup's wgmma group.
  scf::IfOp ifCompute = product->ifCompute;
  b.setInsertionPoint(ifCompute);
  Value warpRow0 = product->rowOrigin, warpCol0 = product->colOrigin;
  auto compute = scf::IfOp::create(
      b, loc, isConsumer,
      [&](OpBuilder &nb, Location nl) {
        // Descriptors of the warpgroup's part of the A and B slabs in this
        // slot: element (warp origin, 0) of each, wherever the slab stores
        // it (checkWgmmaElementBytes keeps every instruction's columns of
        // an MN-major B inside one chunk unless it starts at one; an
        // MN-major A is read 64 rows, one whole chunk, at a time).
        auto address = [&](const SlabOperand &slab, Value view,
                           Value origin) -> Value {
          Value offset = emitSlabLinearOffset(nb, nl, slab, origin);
          Value base =
              memref::ExtractAlignedPointerAsIndexOp::create(nb, nl, view);
          return arith::AddIOp::create(nb, nl, base, offset);
        };
        Value addressA = address(slabA, product->views.a, warpRow0);
        Value addressB = address(slabB, product->views.b, warpCol0);
        // The leading byte offset steps from one 64-element chunk of an
        // MN-major operand to the next; a swizzled K-major operand does not
        // use it.
        auto descriptor = [&](const SlabOperand &slab, Value start) {
          return emitDescriptor(nb, nl, start,
                                slab.mnMajor ? slab.chunkBytes : 16,
                                kSwizzleAtomBytes);
        };
        Value descA = descriptor(slabA, addressA);
        Value descB = descriptor(slabB, addressB);
        SmallVector<Value> current(newLoop.getRegionIterArgs());
        NVVM::WgmmaFenceAlignedOp::create(nb, nl);
        int64_t mmaK = config.getMmaK();
        for (int64_t ks = 0; ks < config.getBlockK() / mmaK; ++ks)
          for (int64_t mi = 0; mi < accs.tilesM; ++mi)
            for (int64_t ni = 0; ni < accs.tilesN; ++ni) {
              // Instruction (mi, ni) of k step ks starts 64 rows, IN
              // columns and mmaK elements of k further into the slabs.
              Value a = advance(
                  nb, nl, descA,
                  slabA.linearOffset(mi * kWgmmaM, ks * mmaK));
              Value bDesc = advance(
                  nb, nl, descB,
                  slabB.linearOffset(ni * accs.instructionN, ks * mmaK));
              int64_t index = mi * accs.tilesN + ni;
              // K-major operands are imm-trans 0 (A layout row, B col),
              // MN-major ones imm-trans 1 (A col, B row): A stored M x K
              // is K-major, K x M MN-major; B stored K x N is MN-major,
              // N x K K-major.
              current[index] = NVVM::WgmmaMmaAsyncOp::create(
                  nb, nl, structType, current[index], a, bDesc,
                  NVVM::MMAShapeAttr::get(context, kWgmmaM, accs.instructionN,
                                          mmaK),
                  wgmmaType(problem.elementType),
                  wgmmaType(problem.elementType), NVVM::WGMMATypes::f32,
                  NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
                  NVVM::WGMMAScaleIn::one,
                  slabA.mnMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
                  slabB.mnMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
                  /*satfinite=*/nullptr);
            }
        NVVM::WgmmaGroupSyncAlignedOp::create(nb, nl);
        NVVM::WgmmaWaitGroupSyncOp::create(nb, nl, 0);
        scf::YieldOp::create(nb, nl, current);
      },
      [&](OpBuilder &nb, Location nl) {
        scf::YieldOp::create(nb, nl, newLoop.getRegionIterArgs());
      });
  compute->setAttr(kSlabComputeAttrName, b.getUnitAttr());
  b.setInsertionPointToEnd(newBody);
  scf::YieldOp::create(b, loc, compute.getResults());
  ifCompute.erase();
  loop.erase();

  // The epilogue: unpack the registers and store them into C.
  b.setInsertionPointAfter(newLoop);
  SmallVector<Value> results;
  auto vec2 = VectorType::get({2}, b.getF32Type());
  for (int64_t s = 0; s < accs.size(); ++s)
    for (int64_t f = 0; f < perStruct; ++f) {
      SmallVector<Value> pair;
      for (int64_t e = 0; e < 2; ++e)
        pair.push_back(LLVM::ExtractValueOp::create(
            b, loc, newLoop.getResult(s), ArrayRef<int64_t>{2 * f + e}));
      results.push_back(vector::FromElementsOp::create(b, loc, vec2, pair));
    }
  if (isSplit) {
    // (Built in place: the stores find their kernel through their parents.)
    auto ifStore = scf::IfOp::create(b, loc, isSplit, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifStore.thenBlock()->getTerminator());
    emitAccumulatorStore(b, loc, layout, results, accumulateInto, rows, cols,
                         isConsumer);
    b.setInsertionPoint(ifStore.elseBlock()->getTerminator());
    emitAccumulatorStore(b, loc, wholeLayout, results, accumulateInto, rows,
                         cols, isConsumer);
  } else if (config.getConfig().tmaStore && !ifAccumulate) {
    emitTmaStore(b, loc, kernel, config, plan, layout, results, warpgroupC,
                 rows, cols, threadId, isConsumer, product->views.a);
    // The staging buffers lie after the whole ring, past the one slot the
    // kernel has until tile-mbarrier-pipeline: the launch requests the
    // plan's bytes from here on.
    setDynamicSharedBytes(getOperation(), kernel, plan.dynamicBytes);
  } else {
    emitAccumulatorStore(b, loc, layout, results,
                         ifAccumulate ? accumulateInto
                                      : warpgroupC.getResult(),
                         rows, cols, isConsumer);
  }
  if (ifAccumulate)
    ifAccumulate.erase();
  // C's accesses are pairs of elements, or single ones.
  int64_t cBytes = problem.resultBytes();
  // (A TMA store reads C from a 16-byte aligned base.)
  kernel->setAttr(kCAlignmentAttrName,
                  b.getI64IntegerAttr(config.getConfig().tmaStore ? 16
                                      : layout.vectorAccess       ? 2 * cBytes
                                                                  : cBytes));
  eraseDeadOps(kernel.getBody());
  // The accumulators went through the fused epilogue on their way to C.
  eraseEpilogueLoop(kernel);
  setStage(kernel, KernelStage::Instruction);
  return success();
}

void TileWgmmaPass::runOnOperation() {
  FailureOr<SmallVector<gpu::GPUFuncOp>> kernels = getKernelsAtStage(
      getOperation(), KernelStage::Warpgroup, "tile-wgmma", Strategy::Wgmma);
  if (failed(kernels))
    return signalPassFailure();
  for (gpu::GPUFuncOp kernel : *kernels)
    if (failed(tileInstructions(kernel)))
      return signalPassFailure();
}

} // namespace
