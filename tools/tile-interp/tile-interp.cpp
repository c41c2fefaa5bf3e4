//===- tile-interp.cpp - run tile-opt's kernels on the CPU and check C ----===//
//
// Reads a module holding kernels made by tile-opt (after any prefix of the
// tiling passes of either strategy: tile-block-tile, tile-promote-shared,
// tile-warp-tile, tile-thread-tile, tile-pipeline; tile-warpgroup-tile,
// tile-wgmma, tile-mbarrier-pipeline), and for each kernel: takes the
// launch's grid, block and dynamic shared memory size from its
// gpu.launch_func (or the kernel's known sizes) and the tensor maps of A and
// B from the nvgpu.tma.create.descriptor ops that feed it, fills A, B and C
// with random values from the seed (rounded to their element types; C
// poisoned with NaN when the kernel only writes it), runs every thread of
// every block (Interpreter.h), and compares C with a float64 reference. One
// line per kernel, PASS or FAIL; exit status 1 if any failed.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tile/InitAll.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Utils.h"
#include "tile/runtime/Manifest.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
namespace cl = llvm::cl;

static cl::OptionCategory category("tile-interp options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<uint64_t>
    seed("seed",
         cl::desc("Seed of the random contents of A, B and C (uniform in "
                  "[-1, 1), the same for every kernel)"),
         cl::init(1), cl::cat(category));
static cl::opt<std::string>
    kernelName("kernel",
               cl::desc("Run only the kernel (gpu.func) of this name; by "
                        "default every kernel in the input runs"),
               cl::init(""), cl::cat(category));
static cl::opt<double> tolerance(
    "tolerance",
    cl::desc("Largest accepted error of an element of C, relative to the sum "
             "of the magnitudes that make it: |got - want| / (|C0| + "
             "sum_k |A[i][k] * B[k][j]|). 0 (default) means (k + 2) * 2^-23, "
             "twice the bound of k float32 roundings, plus for a bf16 or f16 "
             "C twice its unit roundoff per rounding to C's type the kernel "
             "makes (once in wgmma kernels, once per slab before tile-wgmma, "
             "per operation in a 16-bit linalg.matmul). The reference of a "
             "TF32 kernel (f32 inputs on wgmma) reads each input as its "
             "wgmma instructions do, with 10 mantissa bits"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> printStats(
    "print-stats",
    cl::desc("After each kernel's line, print instructions run, barriers, "
             "cp.async copies and shared-memory traffic"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> checkLaunchOrder(
    "check-launch-order",
    cl::desc("For kernels with a tile.config, check that block b computes the "
             "tile of C the config's grouped launch order (swizzle) assigns "
             "to it (default on)"),
    cl::init(true), cl::cat(category));
static cl::opt<int64_t> sharedBase(
    "shared-base",
    cl::desc("Address of the dynamic shared memory in the shared window (a "
             "multiple of 16). The default, -1, derives one from the seed "
             "that is 16 to 1008 past a multiple of 1024, so that kernels "
             "must align their swizzle atoms at run time"),
    cl::init(-1), cl::cat(category));
static cl::opt<uint64_t> maxInstructions(
    "max-instructions",
    cl::desc("Give up on a kernel after this many instructions (all threads "
             "together): a loop that never ends"),
    cl::init(20'000'000'000ull), cl::cat(category));

namespace {

/// Deterministic values in [-1, 1) with 24 significant bits (exact in f32).
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() { // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float value() {
    return static_cast<float>(
        static_cast<double>(next() >> 40) / 16777216.0 * 2.0 - 1.0);
  }
};

struct Outcome {
  bool passed = false;
  std::string text; // what follows "PASS name" / "FAIL name"
};

std::optional<int64_t> constantOf(Value value) {
  if (!value)
    return std::nullopt;
  return getConstantIntValue(value);
}

/// Grid, block and shared memory of `kernel`: from its gpu.launch_func when
/// there is one (checked against the kernel's own attributes), else from
/// the attributes.
FailureOr<LaunchDims> launchDims(ModuleOp module, gpu::GPUFuncOp kernel,
                                 gpu::LaunchFuncOp &launch, std::string &why) {
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  module.walk([&](gpu::LaunchFuncOp op) {
    if (!launch && gpuModule &&
        op.getKernelModuleName() == gpuModule.getSymNameAttr() &&
        op.getKernelName() == kernel.getNameAttr())
      launch = op;
  });
  LaunchDims dims;
  std::optional<ArrayRef<int32_t>> knownBlock = kernel.getKnownBlockSize();
  std::optional<ArrayRef<int32_t>> knownGrid = kernel.getKnownGridSize();
  auto sharedAttr = kernel->getAttrOfType<IntegerAttr>(kSharedBytesAttrName);
  if (launch) {
    Value grid[3] = {launch.getGridSizeX(), launch.getGridSizeY(),
                     launch.getGridSizeZ()};
    Value block[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                      launch.getBlockSizeZ()};
    for (int d = 0; d < 3; ++d) {
      std::optional<int64_t> g = constantOf(grid[d]), b = constantOf(block[d]);
      if (!g || !b) {
        why = "the gpu.launch_func's grid and block sizes are not constants";
        return failure();
      }
      dims.grid[d] = *g;
      dims.block[d] = *b;
    }
    if (Value bytes = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> value = constantOf(bytes);
      if (!value) {
        why = "the gpu.launch_func's dynamic shared memory size is not a "
              "constant";
        return failure();
      }
      dims.sharedBytes = *value;
    }
    for (int d = 0; d < 3; ++d) {
      if (knownBlock && (*knownBlock)[d] != dims.block[d]) {
        why = "the launch's block size differs from the kernel's "
              "known_block_size";
        return failure();
      }
      if (knownGrid && (*knownGrid)[d] != dims.grid[d]) {
        why = "the launch's grid size differs from the kernel's "
              "known_grid_size";
        return failure();
      }
    }
    if (sharedAttr && sharedAttr.getInt() != dims.sharedBytes) {
      why = "the launch provides " + std::to_string(dims.sharedBytes) +
            " bytes of dynamic shared memory, the kernel's " +
            kSharedBytesAttrName.str() + " says " +
            std::to_string(sharedAttr.getInt());
      return failure();
    }
  } else {
    if (!knownBlock || !knownGrid) {
      why = "no gpu.launch_func of the kernel and no known_block_size / "
            "known_grid_size on it";
      return failure();
    }
    for (int d = 0; d < 3; ++d) {
      dims.grid[d] = (*knownGrid)[d];
      dims.block[d] = (*knownBlock)[d];
    }
    dims.sharedBytes = sharedAttr ? sharedAttr.getInt() : 0;
  }
  int64_t threads = dims.block[0] * dims.block[1] * dims.block[2];
  for (int d = 0; d < 3; ++d)
    if (dims.grid[d] < 1 || dims.block[d] < 1) {
      why = "empty grid or block";
      return failure();
    }
  if (threads > 1024) {
    why = "more than 1024 threads per block";
    return failure();
  }
  if (dims.sharedBytes < 0) {
    why = "negative dynamic shared memory size";
    return failure();
  }
  return dims;
}

/// The tile (row, column) that linear block `block` of a tilesM x tilesN
/// grid computes in groups of `group` tile rows (docs/architecture.md:
/// consecutive blocks walk down a group's rows, then one tile column right;
/// the last group may have fewer rows). Written from the documentation, not
/// from the pass, so that the two can disagree.
std::pair<int64_t, int64_t> groupedTile(int64_t block, int64_t tilesM,
                                        int64_t tilesN, int64_t group) {
  int64_t perGroup = group * tilesN;
  int64_t firstRow = block / perGroup * group;
  int64_t rows = std::min(group, tilesM - firstRow);
  int64_t inGroup = block % perGroup;
  return {firstRow + inGroup % rows, inGroup / rows};
}

/// Empty when every element of C was last written by a block that the
/// config's launch order assigns to its tile (under split-K: block
/// s * tiles + t for tile t; with split_last = L, block t for a whole tile
/// t < tiles - L, block tiles - L + s * L + (t - tiles + L) for a split
/// one; in a batched kernel, in the row of blocks (grid y) of its matrix);
/// else what went wrong.
std::string checkOrder(gpu::GPUFuncOp kernel, const MatmulProblem &problem,
                       const LaunchDims &dims, const Buffer &c,
                       int64_t threadsPerBlock) {
  ConfigAttr config = getConfig(kernel);
  if (!config)
    return "";
  int64_t blockM = config.getBlockM(), blockN = config.getBlockN();
  int64_t tilesM = (problem.m + blockM - 1) / blockM;
  int64_t tilesN = (problem.n + blockN - 1) / blockN;
  int64_t tiles = tilesM * tilesN;
  int64_t grid = dims.grid[0];
  // A persistent kernel's blocks walk the tiles of every matrix, matrix
  // after matrix, block b computing tiles b, b + grid, ...
  bool persistent = config.getPersistent();
  if (persistent &&
      (grid > tiles * problem.batch || dims.grid[1] != 1 || dims.grid[2] != 1))
    return "launch order: a persistent grid of " + std::to_string(grid) +
           " x " + std::to_string(dims.grid[1]) + " x " +
           std::to_string(dims.grid[2]) + " blocks for " +
           std::to_string(tiles * problem.batch) + " tiles";
  TileConfig tc = config.toTileConfig();
  bool splitLast = tc.splitLast > 0 && numSplits(tc, problem.k) > 1;
  int64_t whole =
      splitLast ? tiles - splitTileCount(tc, tiles, problem.k) : tiles;
  // The launch position (in the tile order) of block `block`'s tile.
  auto position = [&](int64_t block) {
    return block < whole ? block : whole + (block - whole) % (tiles - whole);
  };
  if (!persistent &&
      ((splitLast ? grid != blocksPerMatrix(tc, tiles, problem.k)
                  : grid % tiles != 0) ||
       dims.grid[1] != problem.batch || dims.grid[2] != 1))
    return "launch order: a grid of " + std::to_string(grid) + " x " +
           std::to_string(dims.grid[1]) + " x " + std::to_string(dims.grid[2]) +
           " blocks for " + std::to_string(tiles) + " tiles of " +
           std::to_string(blockM) + "x" + std::to_string(blockN) +
           (problem.batch != 1
                ? " in each of " + std::to_string(problem.batch) + " matrices"
                : std::string());
  std::vector<int64_t> blockOfTile(tiles, -1);
  for (int64_t b = 0; b < tiles; ++b) {
    auto [row, col] = groupedTile(b, tilesM, tilesN, config.getSwizzleGroup());
    blockOfTile[row * tilesN + col] = b;
  }
  for (int64_t z = 0; z < problem.batch; ++z)
  for (int64_t i = 0; i < problem.m; ++i)
    for (int64_t j = 0; j < problem.n; ++j) {
      StridedLayout layout = problem.effectiveLayoutC();
      int64_t element = layout.offset + z * layout.batchStride +
                        i * layout.rowStride + j;
      int32_t writer = c.shadow[element * c.elementBytes / c.granule].writer;
      if (writer < 0)
        continue;
      // Linear block ids run along x first: y * grid x + x.
      int64_t linear = writer / threadsPerBlock;
      int64_t block = linear % grid, row = linear / grid;
      int64_t tile = i / blockM * tilesN + j / blockN;
      if (persistent) {
        int64_t expected = (z * tiles + blockOfTile[tile]) % grid;
        if (block == expected && row == 0)
          continue;
        return "launch order: C[" + std::to_string(z) + "][" +
               std::to_string(i) + "][" + std::to_string(j) +
               "] was written by block " + std::to_string(block) +
               " of the persistent grid of " + std::to_string(grid) +
               "; its tile is number " +
               std::to_string(z * tiles + blockOfTile[tile]) +
               " of the launch order, block " + std::to_string(expected) +
               "'s";
      }
      if ((splitLast ? position(block) : block % tiles) ==
              blockOfTile[tile] &&
          row == z)
        continue;
      if (row != z)
        return "launch order: C[" + std::to_string(z) + "][" +
               std::to_string(i) + "][" + std::to_string(j) +
               "] was written by a block of grid row " + std::to_string(row) +
               "; matrix " + std::to_string(z) + " belongs to row " +
               std::to_string(z);
      return "launch order: C[" + std::to_string(i) + "][" + std::to_string(j) +
             "] (tile " + std::to_string(i / blockM) + ", " +
             std::to_string(j / blockN) + ") was written by block " +
             std::to_string(block) + "; the config's order (swizzle = " +
             std::to_string(config.getSwizzleGroup()) +
             ") gives that tile to block " + std::to_string(blockOfTile[tile]) +
             (splitLast ? " (or, for a split tile, the same tile's block "
                          "of another split)"
              : grid > tiles
                  ? " (+ a multiple of " + std::to_string(tiles) + ")"
                  : std::string());
    }
  return "";
}

std::string fmt(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

/// 0: f32, 1: bf16, 2: f16; -1 for other types.
int64_t elementKind(Type type) {
  if (!type)
    return -1;
  return type.isF32() ? 0 : type.isBF16() ? 1 : type.isF16() ? 2 : -1;
}

float roundTo(float value, int64_t kind) {
  if (kind == 1)
    return bf16ToFloat(floatToBf16(value));
  if (kind == 2)
    return f16ToFloat(floatToF16(value));
  return value;
}

void storeValue(uint8_t *to, float value, int64_t kind) {
  if (kind == 0) {
    std::memcpy(to, &value, 4);
    return;
  }
  uint16_t bits = kind == 1 ? floatToBf16(value) : floatToF16(value);
  std::memcpy(to, &bits, 2);
}

double loadValue(const uint8_t *from, int64_t kind) {
  if (kind == 0) {
    float value;
    std::memcpy(&value, from, 4);
    return value;
  }
  uint16_t bits;
  std::memcpy(&bits, from, 2);
  return kind == 1 ? bf16ToFloat(bits) : f16ToFloat(bits);
}

/// The tensor map that kernel argument `index` of `launch` receives: the
/// nvgpu.tma.create.descriptor that makes it, on a memref.cast of the
/// launch's A, B or C (a TMA store's). Empty, or why it cannot be used;
/// `map.invalid` says why the driver would refuse to encode it.
std::string tensorMapOf(gpu::LaunchFuncOp launch, unsigned index,
                        Buffer *globals[3],
                        std::array<std::optional<StridedLayout>, 3> bound,
                        TensorMap &map) {
  Value operand = launch.getKernelOperands()[index];
  auto create = operand.getDefiningOp<nvgpu::TmaCreateDescriptorOp>();
  if (!create)
    return "not made by an nvgpu.tma.create.descriptor";
  // (Casts on either side: to the unranked memref the op takes, to the
  // kernel's strided type; the canonicalizer folds them into one.)
  auto throughCasts = [](Value value) {
    while (auto cast = value.getDefiningOp<memref::CastOp>())
      value = cast.getSource();
    return value;
  };
  Value tensor = throughCasts(create.getTensor());
  // (C's map: a TMA store's.)
  int which = -1;
  for (int i = 0; i < 3; ++i)
    if (throughCasts(launch.getKernelOperands()[i]) == tensor)
      which = i;
  if (which < 0)
    return "its nvgpu.tma.create.descriptor is not on A, B or C of the "
           "launch";
  auto type = cast<MemRefType>(tensor.getType());
  auto descType = create.getTensorMap().getType();
  MemRefType box = descType.getTensor();
  map.name = which == 0 ? "A" : which == 1 ? "B" : "C";
  map.global = globals[which];
  // A batched kernel's map is 3-d: the batch outermost, a box one matrix
  // deep.
  bool batched = type.getRank() == 3;
  if (type.getRank() != box.getRank() || (batched && box.getDimSize(0) != 1))
    return "a " + std::to_string(box.getRank()) + "-d box on a " +
           std::to_string(type.getRank()) +
           "-d matrix (a batched map's box is 1 x rows x cols)";
  unsigned d0 = batched ? 1 : 0;
  map.rank = type.getRank();
  map.batch = batched ? type.getDimSize(0) : 1;
  map.rows = type.getDimSize(d0);
  map.cols = type.getDimSize(d0 + 1);
  map.elementBytes = type.getElementTypeBitWidth() / 8;
  map.rowStride = map.cols;
  map.batchStride = map.rows * map.cols;
  // A strided operand: the map starts at its first element, rows its row
  // stride apart (the runtime's encoding).
  FailureOr<std::optional<StridedLayout>> layout = getStridedLayout(type);
  if (failed(layout))
    return "the matrix has a layout that is not strided";
  if (*layout) {
    // (The values bound to a dynamic layout's fields.)
    const StridedLayout &values =
        (*layout)->isDynamic() && bound[which] ? *bound[which] : **layout;
    map.offset = values.offset;
    map.rowStride = values.rowStride;
    map.batchStride = values.batchStride;
  }
  if (create.getBoxDimensions().size() != static_cast<size_t>(box.getRank()))
    return "the box operands differ from the descriptor type's rank";
  for (unsigned d = 0; d < box.getRank(); ++d) {
    std::optional<int64_t> size =
        getConstantIntValue(create.getBoxDimensions()[d]);
    if (!size || *size != box.getDimSize(d))
      return "the box operands differ from the descriptor type's " +
             std::to_string(box.getDimSize(d0)) + "x" +
             std::to_string(box.getDimSize(d0 + 1));
  }
  map.boxRows = box.getDimSize(d0);
  map.boxCols = box.getDimSize(d0 + 1);
  if (box.getElementType() != type.getElementType())
    return "the box's element type differs from the matrix's";
  if (descType.getInterleave() !=
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE)
    return "interleaved tensor maps are not modelled";
  if (descType.getOob() != nvgpu::TensorMapOOBKind::OOB_ZERO)
    return "only zero fill out of bounds is modelled";
  auto swizzle = descType.getSwizzle();
  if (swizzle != nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE &&
      swizzle != nvgpu::TensorMapSwizzleKind::SWIZZLE_128B)
    return "only no swizzle and the 128-byte swizzle are modelled";
  map.swizzle128 = swizzle == nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
  int64_t rowBytes = map.boxCols * map.elementBytes;
  if (map.swizzle128 && rowBytes != 128)
    return "a 128-byte-swizzled box with rows of " + std::to_string(rowBytes) +
           " bytes (only 128 is modelled)";
  // What cuTensorMapEncodeTiled checks. With repack = true the runtime
  // hands the TMA a copy of the matrix with rows padded to 16 bytes (the
  // same elements, read the same way), so only the box is checked.
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
      launch, launch.getKernel());
  ConfigAttr config = kernel ? getConfig(kernel) : ConfigAttr();
  // (C is never repacked: a TMA store writes it in place.)
  bool repacked = config && config.toTileConfig().repack && which < 2;
  if (repacked && map.rows > 1 && map.rowStride < map.cols)
    map.invalid = "the rows of " + map.name + " overlap (row stride " +
                  std::to_string(map.rowStride) + " below " +
                  std::to_string(map.cols) +
                  " columns): the runtime cannot repack them";
  else if (map.rowStride * map.elementBytes % 16 != 0 && !repacked)
    map.invalid = "the row stride of " + map.name + " (" +
                  std::to_string(map.rowStride * map.elementBytes) +
                  " bytes) is not a multiple of 16";
  else if (batched && map.batch > 1 &&
           map.batchStride * map.elementBytes % 16 != 0 && !repacked)
    map.invalid = "the batch stride of " + map.name + " (" +
                  std::to_string(map.batchStride * map.elementBytes) +
                  " bytes) is not a multiple of 16";
  else if (map.offset * map.elementBytes % 16 != 0 && !repacked)
    map.invalid = "the first element of " + map.name + " is " +
                  std::to_string(map.offset * map.elementBytes) +
                  " bytes into its buffer, not a multiple of 16";
  else if (map.boxRows > 256 || map.boxCols > 256)
    map.invalid = "a box dimension is over 256";
  else if (rowBytes % 16 != 0)
    map.invalid = "the box's inner dimension (" + std::to_string(rowBytes) +
                  " bytes) is not a multiple of 16";
  return "";
}

Outcome runKernel(ModuleOp module, gpu::GPUFuncOp kernel,
                  const HandlerRegistry &handlers) {
  Outcome outcome;
  FailureOr<MatmulProblem> problem = getMatmulProblem(kernel, "tile-interp");
  if (failed(problem)) {
    outcome.text = ": no valid tile.matmul attribute (m, n, k, element_type, "
                   "c_type, c_init) on the kernel";
    return outcome;
  }
  int64_t m = problem->m, n = problem->n, k = problem->k;
  // A batched kernel's A, B and C are `batch` matrices each, the batch
  // their first dimension; everything below is per matrix.
  int64_t batch = problem->batch;
  bool batched = problem->batched;
  // Dynamic offsets and strides get values off the dense ones (one
  // 16-byte step more each: assumedLayout), which the kernel can only meet
  // by reading them from its operands' layouts.
  MatmulProblem bound = *problem;
  {
    int64_t inputBytes = problem->elementBytes();
    int64_t resultBytes = problem->resultBytes();
    auto bind = [](std::optional<StridedLayout> &layout,
                   std::pair<int64_t, int64_t> stored, int64_t bytes) {
      if (layout)
        layout = assumedLayout(*layout, stored.first, stored.second, bytes,
                               /*padded=*/true);
    };
    bind(bound.layoutA, problem->storedShapeA(), inputBytes);
    bind(bound.layoutB, problem->storedShapeB(), inputBytes);
    bind(bound.layoutC, {problem->m, problem->n}, resultBytes);
  }
  std::string head = (batched ? " batch=" + std::to_string(batch) : "") +
                     " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                     " k=" + std::to_string(k);

  // The arguments must be A (m x k), B (k x n), C (m x n) of the problem's
  // element types, then (for TMA copies) tensor maps.
  int64_t kindAB = elementKind(problem->elementType);
  int64_t kindC = elementKind(problem->resultType);
  auto expect = [&](unsigned index, int64_t rows, int64_t cols, Type type,
                    bool inBatch = false,
                    const std::optional<StridedLayout> &layout = {}) {
    if (kernel.getNumArguments() <= index)
      return false;
    SmallVector<int64_t, 3> shape;
    if (inBatch)
      shape.push_back(batch);
    shape.append({rows, cols});
    return kernel.getArgument(index).getType() ==
           getOperandType(shape, type, layout);
  };
  // A fused epilogue's operands follow C (Epilogue.h).
  SmallVector<EpilogueOperandKind> epilogueKinds;
  std::vector<std::string> epilogueTexts;
  std::vector<::tile::runtime::EpilogueStep> epilogueSteps;
  if (Attribute attr = kernel->getAttr(kEpilogueAttrName)) {
    std::string error;
    if (!readEpilogueAttr(attr, epilogueKinds, epilogueTexts, error) ||
        !::tile::runtime::parseEpilogueSteps(
            epilogueTexts, epilogueKinds.size(), epilogueSteps, error)) {
      outcome.text = head + ": tile.epilogue " + error;
      return outcome;
    }
  }
  unsigned numEpilogue = epilogueKinds.size();
  auto epilogueShape = [&](unsigned j) -> std::pair<int64_t, int64_t> {
    switch (epilogueKinds[j]) {
    case EpilogueOperandKind::Row:
      return {m, 1};
    case EpilogueOperandKind::Col:
      return {1, n};
    default:
      return {m, n};
    }
  };
  // In a batched kernel, a per_batch operand has one matrix (or vector)
  // per batch; the others are shared by every matrix.
  // A strided one has its layouts entry's layout (a dynamic field bound
  // as A's, B's and C's are).
  bool epilogueArgsMatch = true;
  std::vector<bool> epiloguePerBatch(numEpilogue);
  std::vector<std::optional<StridedLayout>> epilogueLayouts(numEpilogue);
  for (unsigned j = 0; j < numEpilogue; ++j) {
    auto memref = kernel.getNumArguments() > 3 + j
                      ? dyn_cast<MemRefType>(kernel.getArgument(3 + j).getType())
                      : MemRefType();
    auto [rows, cols] = epilogueShape(j);
    Attribute attr = kernel->getAttr(kEpilogueAttrName);
    epiloguePerBatch[j] = isPerBatchEpilogueOperand(attr, j);
    std::optional<StridedLayout> layout = getEpilogueOperandLayout(attr, j);
    if (!memref || elementKind(memref.getElementType()) < 0 ||
        !expect(3 + j, rows, cols, memref.getElementType(),
                epiloguePerBatch[j], layout)) {
      epilogueArgsMatch = false;
      continue;
    }
    // (The kernel reads these one element at a time and may assume no
    // more than element alignment: a dynamic field gets a value 3 elements
    // off the densest, never a multiple of 16 bytes.)
    if (layout) {
      StridedLayout bound = *layout;
      if (ShapedType::isDynamic(bound.offset))
        bound.offset = 3;
      if (ShapedType::isDynamic(bound.rowStride))
        bound.rowStride = cols + 3;
      if (ShapedType::isDynamic(bound.batchStride))
        bound.batchStride = (rows - 1) * bound.rowStride + cols + 3;
      epilogueLayouts[j] = bound;
    }
  }
  bool extraAreMaps = epilogueArgsMatch && llvm::all_of(
      llvm::drop_begin(kernel.getArgumentTypes(), 3 + numEpilogue),
      [](Type type) { return isa<nvgpu::TensorMapDescriptorType>(type); });
  auto [rowsA, colsA] = problem->storedShapeA();
  auto [rowsB, colsB] = problem->storedShapeB();
  if (kindAB < 0 || kindC < 0 ||
      !expect(0, rowsA, colsA, problem->elementType, batched,
              problem->layoutA) ||
      !expect(1, rowsB, colsB, problem->elementType, batched,
              problem->layoutB) ||
      !expect(2, m, n, problem->resultType, batched, problem->layoutC) ||
      !extraAreMaps) {
    std::string text;
    llvm::raw_string_ostream os(text);
    std::string matrices = batched ? std::to_string(batch) + "x" : "";
    os << head << ": the kernel's arguments are not (A: " << matrices << rowsA
       << "x" << colsA << ", B: " << matrices << rowsB << "x" << colsB
       << ", C: " << matrices << m << "x" << n << ") "
       << problem->elementType << ", " << problem->elementType << ", "
       << problem->resultType
       << " memrefs with the layouts 'tile.matmul' says (f32, bf16 or "
          "f16), then tensor maps";
    outcome.text = text;
    return outcome;
  }

  std::string why;
  gpu::LaunchFuncOp launch;
  FailureOr<LaunchDims> dims = launchDims(module, kernel, launch, why);
  if (failed(dims)) {
    outcome.text = head + ": " + why;
    return outcome;
  }

  Program program;
  unsigned indexBits = DataLayout::closest(kernel).getTypeSizeInBits(
      IndexType::get(kernel.getContext()));
  program.indexBits = indexBits;
  Compiler compiler(program, handlers, indexBits);
  if (failed(compiler.compileKernel(kernel))) {
    outcome.text = head + ": cannot interpret the kernel: " + compiler.error +
                   "\n    at: " + describeOp(compiler.errorOp);
    return outcome;
  }

  // Inputs, rounded to their element types; `a`, `b`, `c0` hold the values
  // exactly.
  Random random(seed);
  std::vector<float> a(batch * m * k), b(batch * k * n), c0(batch * m * n);
  for (float &v : a)
    v = roundTo(random.value(), kindAB);
  for (float &v : b)
    v = roundTo(random.value(), kindAB);
  for (float &v : c0)
    v = roundTo(random.value(), kindC);
  auto makeBuffer = [&](const char *name, const std::vector<float> &values,
                        int64_t cols, bool readOnly, int64_t kind,
                        int64_t address) {
    auto buffer = std::make_unique<Buffer>();
    buffer->name = name;
    buffer->space = Space::Global;
    buffer->readOnly = readOnly;
    buffer->checked = !readOnly;
    buffer->granule = program.granule;
    buffer->rowElements = cols;
    buffer->elementBytes = kind == 0 ? 4 : 2;
    buffer->address = address;
    buffer->reset(values.size() * buffer->elementBytes, 0, kHost);
    for (size_t i = 0; i < values.size(); ++i)
      storeValue(buffer->bytes.data() + i * buffer->elementBytes, values[i],
                 kind);
    return buffer;
  };
  // Global buffers at 256-byte-aligned addresses of their own.
  // A transposed operand is stored as the transpose of its logical matrix.
  auto stored = [&](const std::vector<float> &values, int64_t rows,
                    int64_t cols, bool transposed) {
    if (!transposed)
      return values;
    std::vector<float> result(values.size());
    for (int64_t z = 0; z < batch; ++z)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          result[z * rows * cols + j * rows + i] =
              values[z * rows * cols + i * cols + j];
    return result;
  };
  // A strided operand's matrices are spread over its buffer as its layout
  // says; the elements between them hold NaN (a kernel that read one into
  // C would be caught, and C's must still hold NaN after the run).
  // (`matrices`: a batch's, or one for an epilogue operand shared by
  // every matrix.)
  auto spread = [&](const std::vector<float> &values, int64_t rows,
                    int64_t cols, const StridedLayout &layout,
                    std::vector<float> &out, int64_t matrices) {
    int64_t span = layout.offset + (matrices - 1) * layout.batchStride +
                   (rows - 1) * layout.rowStride + cols;
    out.assign(span, std::numeric_limits<float>::quiet_NaN());
    for (int64_t z = 0; z < matrices; ++z)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          out[layout.offset + z * layout.batchStride + i * layout.rowStride +
              j] = values[(z * rows + i) * cols + j];
  };
  StridedLayout layoutA = bound.effectiveLayoutA(),
                layoutB = bound.effectiveLayoutB(),
                layoutC = bound.effectiveLayoutC();
  // A's or B's matrices (or rows) may overlap (the memref's strides allow
  // it for an operand that is only read): the reference takes the values
  // that end up in the buffer.
  auto readBack = [&](const std::vector<float> &buffer, int64_t rows,
                      int64_t cols, const StridedLayout &layout,
                      bool transposed, std::vector<float> &logical,
                      int64_t matrices) {
    for (int64_t z = 0; z < matrices; ++z)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          float value = buffer[layout.offset + z * layout.batchStride +
                               i * layout.rowStride + j];
          // Stored (i, j) is logical (j, i) when transposed.
          logical[z * rows * cols + (transposed ? j * rows + i : i * cols + j)] =
              value;
        }
  };
  // An fma kernel with repack = true reads the runtime's copy of B, whose
  // rows are padded to 16 bytes (fmaRepackRowStride), never the caller's:
  // B's buffer is that copy, its pad NaN as the spread leaves it (the
  // runtime's copy leaves the pad unwritten: a kernel that let a pad
  // element reach a stored C element would be caught).
  int64_t repackB = getFmaRepackRowStride(getConfig(kernel), *problem);
  if (repackB)
    layoutB.rowStride = repackB;
  std::vector<float> spreadA, spreadB, spreadC;
  spread(stored(a, m, k, problem->transposeA), rowsA, colsA, layoutA, spreadA,
         batch);
  spread(stored(b, k, n, problem->transposeB), rowsB, colsB, layoutB, spreadB,
         batch);
  if (repackB) // (the copy holds whole padded rows, the last one too)
    spreadB.resize(rowsB * repackB, std::numeric_limits<float>::quiet_NaN());
  spread(c0, m, n, layoutC, spreadC, batch);
  // A and B one buffer (X * X^T: the same memref for both): B holds A's
  // values, as on the GPU, where both operands (or tensor maps) read it.
  auto throughCasts = [](Value value) {
    while (auto cast = value.getDefiningOp<memref::CastOp>())
      value = cast.getSource();
    return value;
  };
  if (launch && launch.getNumKernelOperands() >= 2 &&
      throughCasts(launch.getKernelOperands()[0]) ==
          throughCasts(launch.getKernelOperands()[1]) &&
      !repackB && spreadA.size() == spreadB.size())
    spreadB = spreadA;
  readBack(spreadA, rowsA, colsA, layoutA, problem->transposeA, a, batch);
  readBack(spreadB, rowsB, colsB, layoutB, problem->transposeB, b, batch);
  // (Messages name a dense operand's elements C[i][j], a strided one's
  // bytes.)
  std::unique_ptr<Buffer> bufferA =
      makeBuffer("A", spreadA, problem->layoutA ? 0 : colsA, true, kindAB,
                 1 << 24);
  std::unique_ptr<Buffer> bufferB =
      makeBuffer("B", spreadB, problem->layoutB ? 0 : colsB, true, kindAB,
                 2 << 24);
  std::unique_ptr<Buffer> bufferC = makeBuffer(
      "C", spreadC, problem->layoutC ? 0 : n, false, kindC, 3 << 24);
  if (problem->fill) // C is only written: NaN, and reading it is an error
    bufferC->reset(spreadC.size() * bufferC->elementBytes, 0xff, kNobody);
  auto desc = [&](Buffer &buffer, int64_t rows, int64_t cols,
                  bool inBatch = false,
                  std::optional<StridedLayout> layout = {}) {
    StridedLayout dense;
    dense.rowStride = cols;
    dense.batchStride = rows * cols;
    StridedLayout l = layout ? *layout : dense;
    ArgValue arg;
    arg.desc.buffer = &buffer;
    arg.desc.byteOffset = l.offset * buffer.elementBytes;
    unsigned d = 0;
    if (inBatch) {
      arg.desc.sizes[d] = batch;
      arg.desc.strides[d++] = l.batchStride;
    }
    arg.desc.sizes[d] = rows;
    arg.desc.strides[d++] = l.rowStride;
    arg.desc.sizes[d] = cols;
    arg.desc.strides[d] = 1;
    return arg;
  };
  SmallVector<ArgValue> args = {
      desc(*bufferA, rowsA, colsA, batched, layoutA),
      desc(*bufferB, rowsB, colsB, batched, layoutB),
      desc(*bufferC, m, n, batched, layoutC)};
  // The epilogue's operands: random, rounded to their types, read only.
  std::vector<std::unique_ptr<Buffer>> epilogueBuffers;
  std::vector<std::vector<float>> epilogueValues(numEpilogue);
  for (unsigned j = 0; j < numEpilogue; ++j) {
    auto [rows, cols] = epilogueShape(j);
    int64_t kind = elementKind(
        cast<MemRefType>(kernel.getArgument(3 + j).getType()).getElementType());
    int64_t matrices = epiloguePerBatch[j] ? batch : 1;
    epilogueValues[j].resize(matrices * rows * cols);
    for (float &v : epilogueValues[j])
      v = roundTo(random.value(), kind);
    // A strided operand's elements spread as its layout says, NaN between
    // (as A's, B's and C's).
    // (Its vectors or matrices may overlap, as A's and B's may: the
    // reference takes what the buffer holds.)
    std::vector<float> stored = epilogueValues[j];
    if (const std::optional<StridedLayout> &layout = epilogueLayouts[j]) {
      spread(epilogueValues[j], rows, cols, *layout, stored, matrices);
      readBack(stored, rows, cols, *layout, /*transposed=*/false,
               epilogueValues[j], matrices);
    }
    epilogueBuffers.push_back(makeBuffer("epilogue operand", stored,
                                         epilogueLayouts[j] ? 0 : cols, true,
                                         kind, int64_t(4 + j) << 24));
    args.push_back(desc(*epilogueBuffers.back(), rows, cols,
                        epiloguePerBatch[j], epilogueLayouts[j]));
  }
  Buffer *globals[3] = {bufferA.get(), bufferB.get(), bufferC.get()};
  std::vector<TensorMap> maps;
  for (unsigned index = 3 + numEpilogue; index < kernel.getNumArguments();
       ++index) {
    TensorMap map;
    if (!launch) {
      outcome.text = head + ": the kernel takes tensor maps, but has no "
                            "gpu.launch_func to find their "
                            "nvgpu.tma.create.descriptor";
      return outcome;
    }
    if (std::string error = tensorMapOf(
            launch, index, globals,
            {bound.layoutA, bound.layoutB, bound.layoutC}, map);
        !error.empty()) {
      outcome.text = head + ": tensor map argument " + std::to_string(index) +
                     ": " + error;
      return outcome;
    }
    ArgValue arg;
    arg.isMemRef = false;
    arg.bits = maps.size();
    maps.push_back(map);
    args.push_back(arg);
  }

  Exec exec(program, *dims, std::move(args));
  exec.tensorMaps = std::move(maps);
  // The static shared memory (the mbarriers) from address 16, the dynamic
  // shared memory after it, 16 to 1008 bytes past a multiple of 1024.
  exec.staticBase = 16;
  int64_t staticEnd = 16 + 8 * program.mbarriers;
  if (sharedBase >= 0) {
    if (sharedBase % 16 != 0 || sharedBase < staticEnd) {
      outcome.text = head +
                     ": --shared-base must be a multiple of 16 past "
                     "the static shared memory (" +
                     std::to_string(staticEnd) + " bytes)";
      return outcome;
    }
    exec.sharedBase = sharedBase;
  } else {
    uint64_t mix = seed * 0x9e3779b97f4a7c15ull;
    exec.sharedBase = (staticEnd + 1023) / 1024 * 1024 +
                      16 * static_cast<int64_t>(1 + (mix >> 58) % 63);
  }
  bool ran = exec.run(maxInstructions);
  std::string launchText =
      " (grid " +
      std::to_string(dims->grid[0] * dims->grid[1] * dims->grid[2]) +
      ", block " +
      std::to_string(dims->block[0] * dims->block[1] * dims->block[2]) + ", " +
      std::to_string(dims->sharedBytes) + " B shared, " +
      std::to_string(indexBits) + "-bit index)";
  std::string statsText;
  if (printStats) {
    statsText = "\n  stats: " + std::to_string(exec.stats.instructions) +
                " instructions, " + std::to_string(exec.stats.barriers) +
                " barriers, " + std::to_string(exec.stats.asyncCopies) +
                " cp.async copies (" +
                std::to_string(exec.stats.asyncZeroFilledBytes) +
                " bytes zero-filled), shared memory " +
                std::to_string(exec.stats.sharedBytesRead) + " B read, " +
                std::to_string(exec.stats.sharedBytesWritten) + " B written";
    if (program.usesAsync)
      statsText += "\n  async: dynamic shared memory at " +
                   std::to_string(exec.sharedBase) + ", " +
                   std::to_string(program.mbarriers) + " mbarriers, " +
                   std::to_string(exec.stats.mbarrierPhases) +
                   " phases completed, " +
                   std::to_string(exec.stats.tmaCopies) + " TMA copies (" +
                   std::to_string(exec.stats.tmaBytes) + " B), " +
                   std::to_string(exec.stats.wgmmas) + " wgmma";
  }
  if (!ran) {
    outcome.text = head + ": " + exec.error + statsText;
    return outcome;
  }

  // The reference, in float64. The tolerance: f32 accumulation, plus the
  // roundings to C's type when it is bf16 or f16 (once at the end for the
  // wgmma kernels; per slab while the slab product is scalar code; per
  // operation in linalg.matmul on 16-bit C).
  double fillValue =
      problem->fill ? problem->fillValue.getValueAsDouble() : 0.0;
  double limit = (k + 2) * std::ldexp(1.0, -23);
  std::optional<KernelStage> stage = getStage(kernel);
  ConfigAttr config = getConfig(kernel);
  bool instructions = stage && (*stage == KernelStage::Instruction ||
                                *stage == KernelStage::Pipelined);
  if (kindC != 0) {
    int64_t roundings = k + 1;
    if (instructions)
      roundings = 1;
    else if (stage && config && *stage != KernelStage::Block)
      roundings = (k + config.getBlockK() - 1) / config.getBlockK();
    limit += roundings * std::ldexp(1.0, kindC == 1 ? -8 : -11);
  }
  // A TF32 kernel (f32 inputs on wgmma): once its slab product is wgmma
  // instructions, they read each input with 10 of its 23 mantissa bits
  // (WgmmaHandlers.cpp drops the other 13), and so does the reference, which
  // keeps the f32 bound. Before tile-wgmma the scalar slab product reads the
  // f32 inputs whole: the reference does too.
  bool tf32Inputs = instructions && config &&
                    computesTf32(config.toTileConfig(),
                                 problem->elementType.getIntOrFloatBitWidth() /
                                     8);
  auto input = [tf32Inputs](float value) -> double {
    return tf32Inputs ? tf32Value(value) : value;
  };
  if (tolerance > 0)
    limit = tolerance;
  double maxError = 0;
  int64_t wrong = 0, firstWrong = -1;
  double firstWant = 0, firstGot = 0;
  for (int64_t z = 0; z < batch; ++z)
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      // Matrix z of each operand.
      const float *az = a.data() + z * m * k, *bz = b.data() + z * k * n;
      int64_t cz = z * m * n;
      double init = problem->fill ? fillValue : c0[cz + i * n + j];
      double want = init, scale = std::fabs(init);
      for (int64_t p = 0; p < k; ++p) {
        double product = input(az[i * k + p]) * input(bz[p * n + j]);
        want += product;
        scale += std::fabs(product);
      }
      if (!epilogueSteps.empty()) {
        double operands[16] = {};
        for (unsigned e = 0; e < numEpilogue && e < 16; ++e) {
          auto [rows, cols] = epilogueShape(e);
          int64_t r = rows == 1 ? 0 : i;
          int64_t col = cols == 1 ? 0 : j;
          int64_t matrix = epiloguePerBatch[e] ? z * rows * cols : 0;
          operands[e] = epilogueValues[e][matrix + r * cols + col];
        }
        double magnitude = 0;
        want = ::tile::runtime::evalEpilogue(epilogueSteps, want, scale,
                                             operands, magnitude);
        scale = magnitude;
      }
      double value = loadValue(
          bufferC->bytes.data() +
              (layoutC.offset + z * layoutC.batchStride +
               i * layoutC.rowStride + j) *
                  bufferC->elementBytes,
          kindC);
      double error = std::fabs(value - want) / std::max(scale, 1e-30);
      if (std::isnan(value) || error > limit) {
        if (wrong++ == 0) {
          firstWrong = cz + i * n + j;
          firstWant = want;
          firstGot = value;
        }
        continue;
      }
      maxError = std::max(maxError, error);
    }
  if (wrong) {
    std::string where =
        (batched ? std::to_string(firstWrong / (m * n)) + ", " : "") +
        std::to_string(firstWrong % (m * n) / n) + ", " +
        std::to_string(firstWrong % n);
    outcome.text =
        head + ": " + std::to_string(wrong) + " of " +
        std::to_string(batch * m * n) +
        " elements of C wrong; first wrong element (" + where + ") got " + fmt("%.9g", firstGot) + " want " + fmt("%.9g", firstWant) +
        launchText + statsText;
    return outcome;
  }
  // Nothing of C's buffer between its elements was written.
  if (problem->layoutC) {
    std::vector<bool> isElement(spreadC.size(), false);
    for (int64_t z = 0; z < batch; ++z)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          isElement[layoutC.offset + z * layoutC.batchStride +
                    i * layoutC.rowStride + j] = true;
    int64_t stray = 0, first = -1;
    for (size_t e = 0; e < isElement.size(); ++e) {
      if (isElement[e])
        continue;
      const uint8_t *bytes = bufferC->bytes.data() + e * bufferC->elementBytes;
      bool poison = std::all_of(bytes, bytes + bufferC->elementBytes,
                                [](uint8_t byte) { return byte == 0xff; });
      bool nan = std::isnan(loadValue(bytes, kindC));
      if (!(poison || nan) && stray++ == 0)
        first = e;
    }
    if (stray) {
      outcome.text = head + ": " + std::to_string(stray) +
                     " elements of C's buffer outside its matrix written; "
                     "first at element " +
                     std::to_string(first) + launchText + statsText;
      return outcome;
    }
  }
  if (checkLaunchOrder) {
    std::string order =
        checkOrder(kernel, bound, *dims, *bufferC,
                   dims->block[0] * dims->block[1] * dims->block[2]);
    if (!order.empty()) {
      outcome.text = head + ": " + order + launchText + statsText;
      return outcome;
    }
  }
  outcome.passed = true;
  outcome.text =
      head + " max-rel-err=" + fmt("%.3g", maxError) + launchText + statsText;
  return outcome;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-interp: runs the kernels of a module made by tile-opt (after any "
      "prefix of the tiling passes) on the CPU, every thread of every block, "
      "and compares C with a float64 reference.\n\n"
      "  tile-opt in.mlir --tile-matmul-tiling | tile-interp\n\n"
      "Prints one line per kernel: 'PASS <kernel> m= n= k= max-rel-err=...' "
      "or 'FAIL <kernel> ...: <why>'; the exit status is 1 if a kernel "
      "failed, 2 if the input could not be read. A kernel fails when C "
      "differs from the reference, or at the first out-of-bounds access, "
      "data race on shared memory or C (no barrier between a write and "
      "another thread's access), read of uninitialised memory (shared memory "
      "starts uninitialised and NaN; so does C when the kernel only writes "
      "it), access to a cp.async or TMA destination before a wait completed "
      "it, barrier not reached by every thread, mbarrier deadlock (warps "
      "1-3 of each warpgroup run late, as a GPU may leave them asleep), TMA "
      "load nobody waits for, wgmma "
      "operand not ordered after its copy or overwritten before its group "
      "retired, or op it cannot interpret.\n");

  DialectRegistry registry;
  registerTileDialects(registry);
  MLIRContext context(registry);
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &message);
  if (!file) {
    llvm::errs() << "tile-interp: " << message << "\n";
    return 2;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 2;

  SmallVector<gpu::GPUFuncOp> kernels;
  module->walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.isKernel() &&
        (kernelName.empty() || kernel.getName() == kernelName))
      kernels.push_back(kernel);
  });
  if (kernels.empty()) {
    llvm::errs() << "tile-interp: no kernel"
                 << (kernelName.empty() ? "" : " named " + kernelName)
                 << " in the input\n";
    return 2;
  }
  HandlerRegistry handlers = buildHandlerRegistry();
  bool allPassed = true;
  for (gpu::GPUFuncOp kernel : kernels) {
    Outcome outcome = runKernel(*module, kernel, handlers);
    llvm::outs() << (outcome.passed ? "PASS " : "FAIL ") << kernel.getName()
                 << outcome.text << "\n";
    llvm::outs().flush();
    allPassed &= outcome.passed;
  }
  return allPassed ? 0 : 1;
}
