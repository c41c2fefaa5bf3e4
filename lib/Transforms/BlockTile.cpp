//===- BlockTile.cpp - one thread block per tile of C, swizzled order -----===//
//
// Makes each configured linalg.matmul (or linalg.batch_matmul) a kernel:
// gpu.module + gpu.func with parameters (A, B, C), launched by a
// gpu.launch_func with one block per BM x BN tile of C in a grouped
// ("swizzled") order (times the batch, along the grid's y dimension). The
// block's share of the matmul is a linalg.matmul on subviews run by thread 0 (a transposed
// operand's subview seen through a memref.transpose); later passes
// distribute it.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Utils.h"
#include "tile/Transforms/Contractions.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEBLOCKTILE
#include "tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The linalg.fill of `matmul`'s output that directly precedes it, with a
/// constant fill value; such a fill becomes the kernel's C initialisation.
linalg::FillOp getFoldableFill(linalg::LinalgOp matmul, FloatAttr &value) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(matmul->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics())
    return nullptr;
  if (fill.getOutputs().front() != matmul.getDpsInits().front())
    return nullptr;
  if (!matchPattern(fill.getInputs().front(), m_Constant(&value)))
    return nullptr;
  return fill;
}

/// `extent - offset` clamped to `tile` when the extent is not a multiple of
/// the tile (an edge tile is smaller), else the tile size as a constant.
OpFoldResult tileExtent(OpBuilder &b, Location loc, Value offset,
                        int64_t extent, int64_t tile) {
  if (extent % tile == 0)
    return b.getIndexAttr(tile);
  Value left = arith::SubIOp::create(b, loc, constIndex(b, loc, extent), offset);
  return arith::MinUIOp::create(b, loc, left, constIndex(b, loc, tile))
      .getResult();
}

struct TileBlockTilePass
    : public mlir::tile::impl::TileBlockTileBase<TileBlockTilePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult tileMatmul(linalg::LinalgOp matmul, SymbolTable &symbols,
                           int64_t index);
};

LogicalResult TileBlockTilePass::tileMatmul(linalg::LinalgOp matmul,
                                            SymbolTable &symbols,
                                            int64_t index) {
  ConfigAttr config = getConfig(matmul);
  Location loc = matmul.getLoc();
  if (!matmul.hasPureBufferSemantics())
    return matmul.emitOpError()
           << "must be on memrefs for tile-block-tile (bufferize first)";
  Value a = matmul.getDpsInputs()[0], b = matmul.getDpsInputs()[1],
        c = matmul.getDpsInits()[0];
  FailureOr<MatmulLayout> layout = getMatmulLayout(matmul);
  if (failed(layout))
    return matmul.emitOpError()
           << "has indexing maps tile-block-tile does not support (run "
              "tile-configure, which explains why)";
  bool batched = layout->batched;
  unsigned rank = batched ? 3 : 2;
  auto aType = cast<MemRefType>(a.getType());
  auto bType = cast<MemRefType>(b.getType());
  auto cType = cast<MemRefType>(c.getType());
  // What tile-configure accepts, checked again for a config written by hand
  // and this pass run alone: the arithmetic below relies on it (extents
  // from 1 to 2^31 - 1 keep every product of them in 64 bits).
  auto supportedExtent = [](int64_t extent) {
    return extent >= 1 && extent <= std::numeric_limits<int32_t>::max();
  };
  Type elementType = aType.getElementType();
  bool typesSupported =
      bType.getElementType() == elementType &&
      (config.isWgmma() ? (elementType.isBF16() || elementType.isF16() ||
                           elementType.isF32()) &&
                              (cType.getElementType().isF32() ||
                               cType.getElementType() == elementType)
                        : elementType.isF32() && cType.getElementType().isF32());
  for (MemRefType type : {aType, bType, cType})
    if (type.getRank() != rank || !type.hasStaticShape() ||
        failed(getStridedLayout(type)) || !typesSupported ||
        type.getMemorySpace() ||
        !llvm::all_of(type.getShape(), supportedExtent) ||
        (batched && (type.getDimSize(0) != cType.getDimSize(0) ||
                     type.getDimSize(0) > kMaxBatch)))
      return matmul.emitOpError()
             << "operand type " << type
             << " is not supported by tile-block-tile (run tile-configure, "
                "which explains why)";

  MatmulProblem problem;
  problem.elementType = elementType;
  problem.resultType = cType.getElementType();
  problem.transposeA = layout->transposeA;
  problem.transposeB = layout->transposeB;
  MatmulExtents extents =
      getMatmulExtents(*layout, aType.getShape(), cType.getShape());
  problem.batched = batched;
  problem.batch = extents.batch;
  problem.m = extents.m;
  problem.n = extents.n;
  problem.k = extents.k;
  // Strided operands keep their layouts (canonical strided<...> types
  // below, whatever form the layout had).
  problem.layoutA = *getStridedLayout(aType);
  problem.layoutB = *getStridedLayout(bType);
  problem.layoutC = *getStridedLayout(cType);
  // A batch of one never steps its batch stride, nor an operand stored as
  // one row its row stride: a dynamic one becomes static, not a kernel
  // parameter, at the densest value assumedLayout gives (a multiple of 16
  // bytes, so that it does not lower the alignment the dynamic fields
  // assume; the manifest writes a one-row param's columns and no batch
  // stride for a batch of one).
  for (auto [layout, type, stored] :
       {std::tuple{&problem.layoutA, elementType, problem.storedShapeA()},
        {&problem.layoutB, elementType, problem.storedShapeB()},
        {&problem.layoutC, cType.getElementType(),
         std::pair{problem.m, problem.n}}}) {
    if (!*layout)
      continue;
    StridedLayout assumed =
        assumedLayout(**layout, stored.first, stored.second,
                      type.getIntOrFloatBitWidth() / 8, /*padded=*/false);
    if (batched && extents.batch == 1)
      (*layout)->batchStride = assumed.batchStride;
    if (stored.first == 1)
      (*layout)->rowStride = assumed.rowStride;
  }
  aType = getOperandType(aType.getShape(), elementType, problem.layoutA);
  bType = getOperandType(bType.getShape(), elementType, problem.layoutB);
  cType = getOperandType(cType.getShape(), cType.getElementType(),
                         problem.layoutC);
  // Split-K: the blocks of one tile each take a chunk of K and add their
  // partial products into C atomically, so C must hold its initial value
  // before the launch: a fill of C stays on the host then.
  TileConfig tc = config.toTileConfig();
  int64_t splits = numSplits(tc, problem.k);
  int64_t kChunk = splitKChunk(tc, problem.k);
  FloatAttr fillValue;
  linalg::FillOp fill =
      splits == 1 ? getFoldableFill(matmul, fillValue) : linalg::FillOp();
  if (fill) {
    problem.fill = true;
    problem.fillValue = fillValue;
  }
  // wgmma reads TF32 (f32) operands only K-major.
  if (computesTf32(tc, elementType.getIntOrFloatBitWidth() / 8))
    if (std::string why = checkTf32Layout(getModelShape(problem));
        !why.empty())
      return matmul.emitOpError()
             << "has f32 inputs with a wgmma config, which computes them as "
                "TF32 only with A stored M x K and B stored N x K; "
             << why << " (tile-configure rejects such a config)";
  int64_t tilesM = ceilDiv(problem.m, config.getBlockM());
  int64_t tilesN = ceilDiv(problem.n, config.getBlockN());
  // A 2x1 cluster's blocks take the tiles of one column in pairs of tile
  // rows, a 1x2 cluster's those of one row in pairs of tile columns.
  if (tc.clusterM > 1 && tilesM % tc.clusterM != 0)
    return matmul.emitOpError()
           << "has " << tilesM << " tile rows (M = " << problem.m
           << " in blocks of " << config.getBlockM()
           << "), which cluster " << tc.clusterM << "x" << tc.clusterN
           << " cannot pair up (tile-configure rejects such a config)";
  if (tc.clusterN > 1 && tilesN % tc.clusterN != 0)
    return matmul.emitOpError()
           << "has " << tilesN << " tile columns (N = " << problem.n
           << " in blocks of " << config.getBlockN() << "), which cluster "
           << tc.clusterM << "x" << tc.clusterN
           << " cannot pair up (tile-configure rejects such a config)";
  int64_t blocks = numBlocks(config, problem);
  if (blocks > std::numeric_limits<int32_t>::max())
    return matmul.emitOpError()
           << "needs " << blocks << " thread blocks, over the grid limit of "
           << std::numeric_limits<int32_t>::max() << " (tile-configure "
           << "rejects such a config)";
  int64_t numThreads = config.getNumThreads();

  // The kernel: gpu.module @name { gpu.func @name(A, B, C) kernel }.
  auto hostFunc = matmul->getParentOfType<FunctionOpInterface>();
  std::string name =
      (hostFunc ? hostFunc.getName().str() : std::string("kernel")) +
      "_matmul" + std::to_string(index);
  // The name becomes the PTX entry's: LLVM's NVPTX printer aborts on any
  // character besides these.
  auto ptxChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  };
  if (!llvm::all_of(name, ptxChar))
    return matmul.emitOpError()
           << "cannot make a kernel named '" << name
           << "': a PTX kernel name holds only letters, digits, '_', '$' "
              "and '.' (rename the function)";
  // A fused epilogue's operands come after C.
  FailureOr<FusedEpilogue> epilogue = collectFusedEpilogue(matmul);
  if (failed(epilogue))
    return failure();
  SmallVector<Type> epilogueTypes = getEpilogueParamTypes(
      *epilogue, problem.batch, problem.m, problem.n);
  // 32-bit index arithmetic where every element offset fits: fewer
  // registers and instructions for addresses.
  int64_t largest = largestOperandSpan(problem);
  for (Type type : epilogueTypes)
    largest = std::max(largest, getElementSpan(cast<MemRefType>(type)));
  bool offsetsFit32 = largest <= std::numeric_limits<int32_t>::max();
  unsigned bitwidth = indexBitwidth != 0 ? indexBitwidth
                      : offsetsFit32     ? 32
                                         : 64;
  bool dynamicEpilogue = llvm::any_of(
      epilogue->layouts, [](const std::optional<StridedLayout> &layout) {
        return layout && layout->isDynamic();
      });
  if (bitwidth == 32 && (problem.hasDynamicLayout() || dynamicEpilogue))
    return matmul.emitOpError()
           << "index-bitwidth=32 cannot address an operand with a dynamic "
              "offset or stride, which may reach any element (its kernel "
              "computes offsets in 64 bits)";
  if (bitwidth == 32 && !offsetsFit32)
    return matmul.emitOpError()
           << "index-bitwidth=32 cannot address " << largest
           << " elements of one operand";

  ModuleOp module = getOperation();
  OpBuilder builder(module.getBodyRegion());
  builder.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(builder, loc, name);
  symbols.insert(gpuModule);
  if (bitwidth == 32)
    gpuModule->setAttr(
        DLTIDialect::kDataLayoutAttrName,
        DataLayoutSpecAttr::get(
            &getContext(), {DataLayoutEntryAttr::get(
                               builder.getIndexType(),
                               builder.getIntegerAttr(builder.getI64Type(),
                                                      32))}));
  builder.setInsertionPointToStart(gpuModule.getBody());
  // Parameters (A, B, C), then, when the TMA brings A and B to shared
  // memory, their tensor maps (built by the host from A and B).
  unsigned numEpilogue = epilogue->operands.size();
  if (!epilogue->ops.empty() && splits > 1)
    return matmul.emitOpError()
           << "split_k = " << splits
           << " cannot run a fused epilogue (tile-configure rejects it)";
  SmallVector<Type> paramTypes = {aType, bType, cType};
  llvm::append_range(paramTypes, epilogueTypes);
  bool tma = config.getCopy() == CopyKind::Tma;
  if (tma)
    llvm::append_range(paramTypes,
                       getTensorMapTypes(&getContext(), config, elementType,
                                         problem.storedTransposes(),
                                         batched, problem.resultType));
  auto funcType = builder.getFunctionType(paramTypes, {});
  auto kernel = gpu::GPUFuncOp::create(builder, loc, gpuModule.getName(),
                                       funcType);
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  kernel.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(
      {static_cast<int32_t>(numThreads), 1, 1}));
  kernel.setKnownGridSizeAttr(builder.getDenseI32ArrayAttr(
      {static_cast<int32_t>(blocks), static_cast<int32_t>(problem.batch), 1}));
  // A and B are only read and nothing aliases: LLVM may use ld.global.nc.
  for (unsigned arg : {0u, 1u, 2u})
    kernel.setArgAttr(arg, "llvm.noalias", builder.getUnitAttr());
  if (tma)
    for (unsigned arg : {3u, 4u, 5u})
      if (numEpilogue + arg < kernel.getNumArguments())
        kernel.setArgAttr(numEpilogue + arg, kTensorMapAttrName,
                          builder.getStringAttr(arg == 3   ? "A"
                                                : arg == 4 ? "B"
                                                           : "C"));
  for (unsigned arg : {0u, 1u})
    kernel.setArgAttr(arg, "llvm.readonly", builder.getUnitAttr());
  for (unsigned arg = 3; arg < 3 + numEpilogue; ++arg) {
    kernel.setArgAttr(arg, "llvm.noalias", builder.getUnitAttr());
    kernel.setArgAttr(arg, "llvm.readonly", builder.getUnitAttr());
  }
  if (numEpilogue || !epilogue->ops.empty()) {
    // The operands' element types too: the manifest needs them after the
    // parameters are pointers.
    NamedAttrList attrs(
        cast<DictionaryAttr>(matmul->getAttr(kEpilogueAttrName)));
    SmallVector<Attribute> types;
    for (Value operand : epilogue->operands)
      types.push_back(TypeAttr::get(
          cast<MemRefType>(operand.getType()).getElementType()));
    attrs.set("types", builder.getArrayAttr(types));
    if (batched && numEpilogue) {
      SmallVector<Attribute> perBatch;
      for (bool flag : epilogue->perBatch)
        perBatch.push_back(builder.getBoolAttr(flag));
      attrs.set("per_batch", builder.getArrayAttr(perBatch));
    }
    // Strided operands: their parameters' layouts (the manifest needs them
    // after the parameters are pointers).
    if (llvm::any_of(epilogue->layouts,
                     [](const std::optional<StridedLayout> &layout) {
                       return layout.has_value();
                     })) {
      SmallVector<Attribute> layouts;
      for (auto [layout, perBatch] :
           llvm::zip(epilogue->layouts, epilogue->perBatch))
        layouts.push_back(buildEpilogueLayoutAttr(&getContext(), layout,
                                                  batched && perBatch));
      attrs.set("layouts", builder.getArrayAttr(layouts));
    }
    kernel->setAttr(kEpilogueAttrName, attrs.getDictionary(&getContext()));
  }
  // A specialized wgmma kernel moves registers between its warpgroups with
  // setmaxnreg, which needs a register cap at entry: at least one block per
  // SM.
  int64_t minBlocks = config.getMinBlocksPerSM();
  if (config.isWgmma() && config.getSpecialize())
    minBlocks = std::max<int64_t>(minBlocks, 1);
  if (minBlocks > 0)
    kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    builder.getI32IntegerAttr(minBlocks));
  setConfig(kernel, config);
  kernel->setAttr(kMatmulAttrName, buildMatmulAttr(&getContext(), problem));
  setStage(kernel, KernelStage::Block);

  // The body: this block's tile of C.
  Block &body = kernel.getBody().front();
  builder.setInsertionPointToStart(&body);
  Value argA = body.getArgument(0), argB = body.getArgument(1),
        argC = body.getArgument(2);
  Value blockId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  // A batched kernel: the grid's y dimension walks the batch; block y
  // computes on matrix y of each operand, a rank-reducing subview that
  // everything below takes as its operand.
  if (batched) {
    Value batchId = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::y);
    argA = getBlockMatrix(builder, kernel, 0, batchId);
    argB = getBlockMatrix(builder, kernel, 1, batchId);
    argC = getBlockMatrix(builder, kernel, 2, batchId);
  }
  // An fma kernel with repack = true reads B from the runtime's copy, whose
  // rows are padded to 16 bytes (fmaRepackRowStride): the parameter is that
  // copy, a K x stride matrix (the manifest's repack_row_stride), of which
  // the block views take B's N columns; the copies' last vector of a row
  // reaches into the pad. (After the batch's view: a batch_matmul of one
  // matrix repacks too, its B view then its matrix 0.)
  if (!config.isWgmma() && tc.repack) {
    int64_t stride = getFmaRepackRowStride(config, problem);
    if (stride == 0)
      return matmul.emitOpError()
             << "repack = true with the fma strategy needs a row-major, "
                "dense B of one matrix with N not a multiple of 4 "
                "(tile-configure rejects it)";
    auto type = cast<MemRefType>(argB.getType());
    SmallVector<int64_t> shape = {type.getDimSize(0), stride};
    auto padded = MemRefType::get(
        shape, type.getElementType(),
        StridedLayoutAttr::get(&getContext(), 0, {stride, 1}),
        type.getMemorySpace());
    argB = memref::ReinterpretCastOp::create(builder, loc, padded, argB, 0,
                                             shape,
                                             ArrayRef<int64_t>{stride, 1});
  }
  // Blocks [s*tiles, (s+1)*tiles) compute split s of every tile. With
  // split_last = T, blocks [0, tiles - T) compute tiles 0 .. tiles - T - 1
  // whole; block tiles - T + j split j / T of tile tiles - T + j % T.
  Value tileId = blockId, splitId, isSplit;
  int64_t splitLast = splitTileCount(tc, tilesM * tilesN, problem.k);
  if (splits > 1 && tc.splitLast > 0) {
    Value whole = constIndex(builder, loc, tilesM * tilesN - splitLast);
    Value last = constIndex(builder, loc, splitLast);
    Value zeroIndex = constIndex(builder, loc, 0);
    isSplit = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge,
                                    blockId, whole);
    isSplit.getDefiningOp()->setAttr(kSplitBlockAttrName,
                                     builder.getUnitAttr());
    Value j = arith::SelectOp::create(
        builder, loc, isSplit,
        arith::SubIOp::create(builder, loc, blockId, whole), zeroIndex);
    splitId = arith::DivUIOp::create(builder, loc, j, last);
    tileId = arith::SelectOp::create(
        builder, loc, isSplit,
        arith::AddIOp::create(builder, loc, whole,
                              arith::RemUIOp::create(builder, loc, j, last)),
        blockId);
  } else if (splits > 1) {
    Value tiles = constIndex(builder, loc, tilesM * tilesN);
    splitId = arith::DivUIOp::create(builder, loc, blockId, tiles);
    tileId = arith::RemUIOp::create(builder, loc, blockId, tiles);
  }
  // A 2x1 cluster's two blocks (ids 2i and 2i + 1, cluster ranks 0 and 1)
  // take the two tiles of one column that cluster tile i of the swizzled
  // order (over tile rows paired up, groups of as many tile rows) covers.
  Value tileRow, tileCol;
  if (int64_t clusterM = tc.clusterM; clusterM > 1) {
    Value cm = constIndex(builder, loc, clusterM);
    Value clusterId = arith::DivUIOp::create(builder, loc, tileId, cm);
    Value rank = arith::RemUIOp::create(builder, loc, tileId, cm);
    auto [clusterRow, clusterCol] = emitSwizzledTileIndex(
        builder, loc, clusterId, tilesM / clusterM, tilesN,
        std::max<int64_t>(1, config.getSwizzleGroup() / clusterM));
    tileRow = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, clusterRow, cm),
        rank);
    tileCol = clusterCol;
  } else if (int64_t clusterN = tc.clusterN; clusterN > 1) {
    // A 1x2 cluster's two blocks take the two tiles of one row that cluster
    // tile i of the swizzled order (over tile columns paired up) covers.
    Value cn = constIndex(builder, loc, clusterN);
    Value clusterId = arith::DivUIOp::create(builder, loc, tileId, cn);
    Value rank = arith::RemUIOp::create(builder, loc, tileId, cn);
    auto [clusterRow, clusterCol] =
        emitSwizzledTileIndex(builder, loc, clusterId, tilesM,
                              tilesN / clusterN, config.getSwizzleGroup());
    tileRow = clusterRow;
    tileCol = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, clusterCol, cn),
        rank);
  } else {
    std::tie(tileRow, tileCol) = emitSwizzledTileIndex(
        builder, loc, tileId, tilesM, tilesN, config.getSwizzleGroup());
  }
  Value row0 = arith::MulIOp::create(builder, loc, tileRow,
                                     constIndex(builder, loc, config.getBlockM()));
  Value col0 = arith::MulIOp::create(builder, loc, tileCol,
                                     constIndex(builder, loc, config.getBlockN()));
  // Later passes find the block tile's origin in C by these marks.
  row0.getDefiningOp()->setAttr(kTileOriginAttrName,
                                builder.getStringAttr("row"));
  col0.getDefiningOp()->setAttr(kTileOriginAttrName,
                                builder.getStringAttr("col"));
  OpFoldResult rows =
      tileExtent(builder, loc, row0, problem.m, config.getBlockM());
  OpFoldResult cols =
      tileExtent(builder, loc, col0, problem.n, config.getBlockN());
  OpFoldResult zero = builder.getIndexAttr(0), one = builder.getIndexAttr(1);
  OpFoldResult kBegin = zero;
  OpFoldResult depth = builder.getIndexAttr(problem.k);
  if (splits > 1) {
    Value begin = arith::MulIOp::create(builder, loc, splitId,
                                        constIndex(builder, loc, kChunk));
    kBegin = begin;
    depth = tileExtent(builder, loc, begin, problem.k, kChunk);
    // (A whole tile's block: split 0, all of K.)
    if (isSplit)
      depth = arith::SelectOp::create(
                  builder, loc, isSplit,
                  getValueOrCreateConstantIndexOp(builder, loc, depth),
                  constIndex(builder, loc, problem.k))
                  .getResult();
  }
  // The block's view of an operand: the subview at `offsets` x `sizes` of
  // its logical (M x K or K x N) matrix. A transposed operand is stored the
  // other way round (K x M or N x K): the swapped subview of the stored
  // matrix, then a memref.transpose to the view the block's matmul takes.
  auto operandView = [&](Value arg, bool transposedOperand,
                         std::array<OpFoldResult, 2> offsets,
                         std::array<OpFoldResult, 2> sizes) -> Value {
    if (!transposedOperand)
      return memref::SubViewOp::create(builder, loc, arg, offsets, sizes,
                                       {one, one});
    Value stored = memref::SubViewOp::create(
        builder, loc, arg, {offsets[1], offsets[0]}, {sizes[1], sizes[0]},
        {one, one});
    return memref::TransposeOp::create(
        builder, loc, stored,
        AffineMapAttr::get(AffineMap::getPermutationMap(
            ArrayRef<unsigned>{1, 0}, builder.getContext())));
  };
  Value blockA =
      operandView(argA, problem.transposeA, {row0, kBegin}, {rows, depth});
  Value blockB =
      operandView(argB, problem.transposeB, {kBegin, col0}, {depth, cols});
  Value blockC = memref::SubViewOp::create(builder, loc, argC, {row0, col0},
                                           {rows, cols}, {one, one});
  Value isThread0 =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, threadId,
                            constIndex(builder, loc, 0));
  Value value =
      fill ? arith::ConstantOp::create(builder, loc, fillValue).getResult()
           : Value();
  // Under split-K the block's product goes to a private partial tile first
  // (every thread has one; thread 0 uses it), then atomically into C.
  Value partial;
  if (splits > 1) {
    auto full = memref::AllocaOp::create(
        builder, loc,
        MemRefType::get({config.getBlockM(), config.getBlockN()},
                        builder.getF32Type()));
    partial = memref::SubViewOp::create(builder, loc, full, {zero, zero},
                                        {rows, cols}, {one, one});
    value = arith::ConstantOp::create(builder, loc,
                                      builder.getF32FloatAttr(0.0f));
  }
  auto ifThread0 = scf::IfOp::create(builder, loc, isThread0,
                                     /*withElseRegion=*/false);
  builder.setInsertionPointToStart(ifThread0.thenBlock());
  Value product = partial ? partial : blockC;
  if (fill || partial)
    linalg::FillOp::create(builder, loc, value, product);
  auto blockMatmul = linalg::MatmulOp::create(
      builder, loc, ValueRange{blockA, blockB}, ValueRange{product});
  setConfig(blockMatmul, config);
  if (partial)
    emitAtomicAccumulate(builder, loc, partial, blockC);
  builder.setInsertionPointToEnd(&body);
  if (!epilogue->ops.empty())
    emitEpilogueLoop(builder, loc, kernel, threadId, blockC, row0, col0, rows,
                     cols);
  gpu::ReturnOp::create(builder, loc);

  // The host side: launch the kernel on (A, B, C) and, for the TMA, the
  // tensor maps of A and B (upstream's nvgpu.tma.create.descriptor).
  builder.setInsertionPoint(matmul);
  // (A layout spelled other than strided<...> is cast to it.)
  auto asParam = [&](Value operand, MemRefType type) -> Value {
    if (operand.getType() == type)
      return operand;
    return memref::CastOp::create(builder, loc, type, operand);
  };
  SmallVector<Value> launchArgs = {asParam(a, aType), asParam(b, bType),
                                   asParam(c, cType)};
  llvm::append_range(launchArgs,
                     createEpilogueLaunchArgs(builder, loc, *epilogue));
  if (tma)
    llvm::append_range(launchArgs,
                       createTensorMaps(builder, loc, config, launchArgs[0],
                                        launchArgs[1],
                                        problem.storedTransposes(),
                                        launchArgs[2]));
  auto c1 = constIndex(builder, loc, 1);
  gpu::KernelDim3 grid{constIndex(builder, loc, blocks),
                       constIndex(builder, loc, problem.batch), c1};
  gpu::KernelDim3 threads{constIndex(builder, loc, numThreads), c1, c1};
  gpu::LaunchFuncOp::create(builder, loc, kernel, grid, threads,
                            /*dynamicSharedMemorySize=*/Value(),
                            launchArgs);
  for (Operation *op : llvm::reverse(epilogue->ops))
    op->erase();
  matmul->erase();
  if (fill)
    fill.erase();
  return success();
}

void TileBlockTilePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (indexBitwidth != 0 && indexBitwidth != 32 && indexBitwidth != 64) {
    module.emitError() << "tile-block-tile: option 'index-bitwidth' must be "
                          "0, 32 or 64, got "
                       << static_cast<unsigned>(indexBitwidth);
    return signalPassFailure();
  }
  // Kernels are named after their host function and counted per function.
  SmallVector<std::pair<linalg::LinalgOp, int64_t>> matmuls;
  llvm::DenseMap<Operation *, int64_t> countPerFunction;
  module.walk([&](linalg::LinalgOp matmul) {
    if (!isCompiledMatmul(matmul) || !getConfig(matmul) ||
        matmul->getParentOfType<gpu::GPUFuncOp>())
      return;
    Operation *function = matmul->getParentOfType<FunctionOpInterface>();
    matmuls.push_back({matmul, countPerFunction[function]++});
  });
  if (matmuls.empty())
    return;
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(&getContext()));
  SymbolTable symbols(module);
  for (auto [matmul, index] : matmuls)
    if (failed(tileMatmul(matmul, symbols, index)))
      return signalPassFailure();
}

} // namespace
