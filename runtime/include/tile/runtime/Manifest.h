//===- Manifest.h - The kernel artifact manifest ----------------*- C++ -*-===//
//
// The manifest (JSON) that describes one compiled kernel: which binaries hold
// it, how to launch it and what its parameters are. docs/artifact.md defines
// the format; this header is its one definition in code. The compiler writes
// manifests and the runtime reads them through it, so the two cannot drift.
//
// Plain C++17 without exceptions or RTTI (the compiler links this library and
// is built with -fno-exceptions -fno-rtti). The implementation reads and
// writes JSON with nlohmann-json, which this header does not expose.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_MANIFEST_H
#define TILE_RUNTIME_MANIFEST_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile::runtime {

/// The value of the manifest's "format" field.
inline constexpr std::string_view kManifestFormat = "tile-kernel";
/// The one manifest version this code reads and writes. Version 1 (no
/// element type of the accumulator, no clusters, no tensor maps, the FMA
/// strategy only) is refused: such artifacts must be compiled again.
inline constexpr int64_t kManifestVersion = 2;

/// The most tensor maps a kernel may take (each is a 128-byte kernel
/// parameter; the runtime keeps them on the stack at launch).
inline constexpr size_t kMaxTensorMaps = 8;

/// The most matrices a batched kernel multiplies (problem.batch): the batch
/// is the launch grid's y dimension, whose limit this is.
inline constexpr int64_t kMaxBatch = 65535;

/// The most blocks in a thread block cluster (16 needs the non-portable
/// cluster size opt-in, which the runtime sets; 8 is portable).
inline constexpr unsigned kMaxClusterBlocks = 16;
inline constexpr unsigned kMaxPortableClusterBlocks = 8;

/// Element types: f32, bf16 and f16 are what kernels use; the others are
/// reserved names (they parse, validateManifest refuses them).
enum class ElementType { F32, F16, BF16, I8, I32, F64 };
enum class BinaryFormat { Cubin, Ptx };
enum class CInit { Fill, Accumulate };
enum class ParamRole { Lhs, Rhs, Result, Epilogue };
enum class ParamAccess { Read, Write, ReadWrite };
/// config.strategy: FP32 FMA on the CUDA cores, or Hopper's warpgroup MMA
/// on the tensor cores.
enum class KernelStrategy { Fma, Wgmma };
/// config.copy: how tiles reach shared memory.
enum class CopyKind { Registers, CpAsync, Tma };
/// config.store ("registers", "tma"): how C reaches global memory. Threads
/// store it from their registers; or (a "staged epilogue") the accumulators
/// go to a shared memory staging buffer, from which TMA stores
/// (cp.async.bulk.tensor) write C through a tensor map of the result param.
enum class StoreKind { Registers, Tma };
/// tensor_maps[].swizzle ("none", "32B", "64B", "128B"): the shared memory
/// swizzle of the TMA copy, CUtensorMapSwizzle.
enum class TensorMapSwizzle { None, B32, B64, B128 };
/// tensor_maps[].l2_promotion ("none", "64B", "128B", "256B"):
/// CUtensorMapL2promotion.
enum class TensorMapL2Promotion { None, B64, B128, B256 };

std::string_view stringifyElementType(ElementType type);
std::string_view stringifyBinaryFormat(BinaryFormat format);
std::string_view stringifyCInit(CInit init);
std::string_view stringifyParamRole(ParamRole role);
std::string_view stringifyParamAccess(ParamAccess access);
std::string_view stringifyKernelStrategy(KernelStrategy strategy);
std::string_view stringifyCopyKind(CopyKind copy);
std::string_view stringifyStoreKind(StoreKind store);
std::string_view stringifyTensorMapSwizzle(TensorMapSwizzle swizzle);
std::string_view stringifyTensorMapL2Promotion(TensorMapL2Promotion promotion);

std::optional<ElementType> symbolizeElementType(std::string_view text);
std::optional<BinaryFormat> symbolizeBinaryFormat(std::string_view text);
std::optional<CInit> symbolizeCInit(std::string_view text);
std::optional<ParamRole> symbolizeParamRole(std::string_view text);
std::optional<ParamAccess> symbolizeParamAccess(std::string_view text);
std::optional<KernelStrategy> symbolizeKernelStrategy(std::string_view text);
std::optional<CopyKind> symbolizeCopyKind(std::string_view text);
std::optional<StoreKind> symbolizeStoreKind(std::string_view text);
std::optional<TensorMapSwizzle>
symbolizeTensorMapSwizzle(std::string_view text);
std::optional<TensorMapL2Promotion>
symbolizeTensorMapL2Promotion(std::string_view text);

/// Bytes per element.
unsigned getElementTypeSize(ElementType type);

/// The swizzle's span in bytes: 0 (none), 32, 64 or 128.
unsigned getSwizzleBytes(TensorMapSwizzle swizzle);

struct TargetInfo {
  /// "sm_90", "sm_90a", ...
  std::string chip;
  /// PTX ISA version of the PTX file, "8.0".
  std::string ptxVersion;
};

struct BinaryInfo {
  BinaryFormat format = BinaryFormat::Ptx;
  /// Relative to the manifest's folder.
  std::string file;
  uint64_t size = 0;
  uint64_t fnv1a64 = 0;
};

struct LaunchInfo {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  /// Thread block cluster dimensions (x, y, z) in blocks; {1, 1, 1} for no
  /// cluster. Each divides the grid's; more than one block in all makes the
  /// runtime launch with cuLaunchKernelEx and a cluster attribute.
  std::array<uint32_t, 3> cluster = {1, 1, 1};
  uint32_t dynamicSharedBytes = 0;
};

/// Blocks per cluster: cluster x * y * z.
uint64_t getClusterBlocks(const LaunchInfo &launch);

struct ProblemInfo {
  int64_t m = 0, n = 0, k = 0;
  /// The element type of A and B: f32, bf16 or f16. C's is its param's
  /// (f32, or this type: the kernel rounds its accumulators to it).
  ElementType elementType = ElementType::F32;
  /// What the kernel accumulates in: f32 (the only one for now).
  ElementType accumulatorType = ElementType::F32;
  CInit cInit = CInit::Accumulate;
  double cFillValue = 0.0;
  /// Batched matmul (linalg.batch_matmul): C[b] (+)= A[b] * B[b] for b in
  /// 0..batch-1, the batch on the launch grid's y dimension (grid y equals
  /// it), at most kMaxBatch. 1 for a plain matmul. JSON "problem.batch",
  /// written after "k" only when above 1 (absent means 1). Last in the
  /// struct so that brace-initialized ProblemInfos stay valid.
  int64_t batch = 1;
};

struct ParamInfo {
  std::string name;
  ParamRole role = ParamRole::Lhs;
  ElementType elementType = ElementType::F32;
  /// Logical extents: A is m x k, B is k x n, C is m x n.
  int64_t rows = 0, cols = 0;
  /// Element (i, j) is at base[offset + i * rowStride + j * colStride].
  int64_t rowStride = 0, colStride = 1;
  /// Byte alignment the kernel assumes for the base pointer.
  uint32_t alignment = 1;
  ParamAccess access = ParamAccess::Read;
  /// Elements between the matrices of consecutive batches: matrix b starts
  /// at base + b * batchStride. At least 1 for the lhs, rhs and result
  /// params of a batched kernel (problem.batch above 1); on an epilogue
  /// param of a batched kernel, at least 1 for one vector or matrix per
  /// batch, or 0 for one shared by every matrix; 0 (none) for every param
  /// of an unbatched kernel. JSON "batch_stride", after "col_stride", written
  /// only when not 0.
  int64_t batchStride = 0;
  /// Elements from the base pointer to element (0, 0) (of matrix 0): a
  /// strided memref's offset, such as a subview's. JSON "offset", after
  /// "col_stride" and "batch_stride", written only when not 0. Last in the
  /// struct so that brace-initialized ParamInfos stay valid.
  int64_t offset = 0;
  /// An fma kernel's repacked operand (config.repack): the kernel reads a
  /// copy of this param that the runtime makes before each launch, its rows
  /// (row-major, one matrix) `repackRowStride` elements apart (on 16
  /// bytes), and never the caller's buffer, which then needs only its
  /// `alignment`. 0: read in place. JSON "repack_row_stride", after
  /// "offset", written only when not 0. (A wgmma kernel's repacked
  /// operands are its tensor maps': TensorMapInfo::repackRowStride.)
  int64_t repackRowStride = 0;
};

/// The value of a dynamic offset or stride in a ParamInfo (JSON
/// `"dynamic"`): the kernel takes it at launch (one i64 kernel parameter
/// each; ParamLayout, resolveLayouts).
constexpr int64_t kDynamic = -1;

/// Whether some offset or stride of `param` is dynamic.
bool hasDynamicLayout(const ParamInfo &param);

/// Where one param's elements are at a launch: element (i, j) of matrix b
/// at base[offset + b*batchStride + i*rowStride + j*colStride].
struct ParamLayout {
  int64_t offset = 0, rowStride = 0, colStride = 0, batchStride = 0;
};

/// The layout the manifest gives `param`, kDynamic where it is dynamic.
ParamLayout getParamLayout(const ParamInfo &param);

/// The matrix a tensor map of `param` reads, as it is stored (rows
/// `rowStride` elements apart, elements of a row contiguous): `param`
/// itself when it is row-major (col_stride 1); for a column-major param
/// (row_stride 1 and col_stride above 1: an operand stored transposed; or
/// one row with both strides 1, as tile-opt writes a transposed operand of
/// one row), its transpose (rows and cols swapped, col_stride as the row
/// stride).
ParamInfo getStoredMatrix(const ParamInfo &param);

/// One CUtensorMap the kernel takes by value (a 128-byte parameter after
/// the params, in the manifest's order). It views the matrix of `param` (an
/// lhs or rhs param; or the result param of a kernel that stores C through
/// the TMA, config.store "tma") as stored (rows contiguous) as a 2-d
/// tensor, innermost dimension first: globalDim {cols, rows}, globalStrides
/// {row_stride * element bytes}, boxDim {box cols, box rows}, element
/// strides 1, no interleave, out-of-bounds elements read as zeros (and not
/// written by a store); a batched map adds the batch as a third, outer
/// dimension. The runtime encodes it at each launch
/// (cuTensorMapEncodeTiled) from the buffer passed for `param`.
struct TensorMapInfo {
  /// The name of the param whose matrix the map views.
  std::string param;
  /// The box one copy moves, in elements: {rows, cols}.
  std::array<uint32_t, 2> box = {1, 1};
  TensorMapSwizzle swizzle = TensorMapSwizzle::None;
  TensorMapL2Promotion l2Promotion = TensorMapL2Promotion::None;
  /// 0: the map views the param's buffer. Otherwise the runtime first
  /// copies the param's matrix (rows x cols) into a buffer of its own whose
  /// rows are this many elements apart (a multiple of 16 bytes, at least
  /// cols), and the map views that copy: the TMA then reads a matrix whose
  /// own row stride breaks its 16-byte rule. JSON "repack_row_stride",
  /// written only when not 0.
  int64_t repackRowStride = 0;
  /// The map is 3-d: the param's batch (problem.batch matrices,
  /// batch_stride elements apart) is its outer dimension, a box one matrix
  /// deep. JSON "batched", written only when true. A box then never reads
  /// across into the next matrix: rows and columns past a matrix's edge are
  /// zeros, as in a 2-d map. Last in the struct so that brace-initialized
  /// TensorMapInfos stay valid.
  bool batched = false;
};

/// The #tile.config the kernel was built with.
struct ConfigInfo {
  KernelStrategy strategy = KernelStrategy::Fma;
  std::array<int64_t, 3> block = {1, 1, 1};
  /// The warp tile (fma) or the warpgroup tile (wgmma).
  std::array<int64_t, 2> warp = {1, 1};
  /// The thread tile (fma), or the instruction's {m, n} (wgmma).
  std::array<int64_t, 2> thread = {1, 1};
  /// The instruction tile {m, n, k}: {thread M, thread N, 1} for fma, the
  /// wgmma shape (e.g. {64, 256, 16}) for wgmma.
  std::array<int64_t, 3> mma = {1, 1, 1};
  int64_t stages = 1;
  /// How tiles reach shared memory.
  CopyKind copy = CopyKind::Registers;
  /// The runtime copies operands whose rows break the TMA's 16-byte rule
  /// into padded buffers (the maps that need it carry repack_row_stride).
  bool repack = false;
  /// Warp specialization: a producer warpgroup only issues the loads.
  bool specialize = false;
  int64_t swizzle = 1;
  /// "none", "pad" (with smemPad), "xor", "swizzle128" (smemPad 0).
  std::string smem = "none";
  int64_t smemPad = 0;
  bool prefetch = false;
  /// Blocks per SM the kernel was built to fit (nvvm.minctasm); 0 = no hint.
  int64_t occupancy = 0;
  /// Blocks sharing one tile's K dimension (1 = no split); they add into C
  /// atomically, so such kernels always accumulate.
  int64_t splitK = 1;
  /// With splitK > 1: only the last splitLast tiles of the launch order (of
  /// each matrix) are split, the others computed whole (0 = every tile
  /// split). Optional in the JSON (written only when above 0).
  int64_t splitLast = 0;
  /// Blocks of a cluster along M and N; {1, 1} for none.
  std::array<int64_t, 2> cluster = {1, 1};
  /// Persistent blocks that loop over tiles.
  bool persistent = false;
  /// How C reaches global memory: StoreKind::Tma stores it through a tensor
  /// map of the result param (which the manifest then lists). JSON
  /// "store", after "persistent", written only for Tma (absent means
  /// "registers").
  StoreKind store = StoreKind::Registers;
  std::string text;
};

/// What ptxas reported at compile time; -1 where ptxas was not run.
struct ResourceInfo {
  int64_t registers = -1;
  int64_t spillStores = -1;
  int64_t spillLoads = -1;
  int64_t stackBytes = -1;
};

/// A fused epilogue: per element of C, the accumulated value `acc` (f32)
/// goes through `steps` before the store (converted to C's type). Each step
/// is "<op> <arg> [<arg>]" and its value is named s<i>; an arg is "acc", an
/// extra operand "p<j>" (its element at this row and column), an earlier
/// step "s<i>", or a decimal number (an f32 constant). Unary ops: negf,
/// tanh; binary: addf, subf, mulf, divf, maximumf, minimumf, maxnumf,
/// minnumf. The value stored is the last step's (acc when there are none).
enum class EpilogueOperandKind {
  Row,  // one value per row of C: a 1-d operand of m elements, p[i]
  Col,  // one value per column: a 1-d operand of n elements, p[j]
  Full, // an m x n operand, p[i][j]
};
// (In a batched kernel, an operand whose param has a batch_stride has one
// such vector or matrix per batch, p[b][i] and so on; one without is
// shared by every matrix.)
struct EpilogueOperand {
  /// The param (role "epilogue") that holds it.
  std::string param;
  EpilogueOperandKind kind = EpilogueOperandKind::Full;
};
struct EpilogueInfo {
  std::vector<EpilogueOperand> operands;
  std::vector<std::string> steps;
  bool empty() const { return operands.empty() && steps.empty(); }
};
bool operator==(const EpilogueOperand &lhs, const EpilogueOperand &rhs);
bool operator==(const EpilogueInfo &lhs, const EpilogueInfo &rhs);

std::string_view stringifyEpilogueOperandKind(EpilogueOperandKind kind);
std::optional<EpilogueOperandKind>
symbolizeEpilogueOperandKind(std::string_view text);

struct KernelManifest {
  int64_t version = kManifestVersion;
  std::string kernel;
  TargetInfo target;
  std::vector<BinaryInfo> binaries;
  LaunchInfo launch;
  ProblemInfo problem;
  std::vector<ParamInfo> params;
  /// Empty for kernels without TMA copies.
  std::vector<TensorMapInfo> tensorMaps;
  /// Empty for kernels without a fused epilogue ("epilogue" is then not
  /// written).
  EpilogueInfo epilogue;
  ConfigInfo config;
  ResourceInfo resources;
};

bool operator==(const TargetInfo &lhs, const TargetInfo &rhs);
bool operator==(const BinaryInfo &lhs, const BinaryInfo &rhs);
bool operator==(const LaunchInfo &lhs, const LaunchInfo &rhs);
bool operator==(const ProblemInfo &lhs, const ProblemInfo &rhs);
bool operator==(const ParamInfo &lhs, const ParamInfo &rhs);
bool operator==(const TensorMapInfo &lhs, const TensorMapInfo &rhs);
bool operator==(const ConfigInfo &lhs, const ConfigInfo &rhs);
bool operator==(const ResourceInfo &lhs, const ResourceInfo &rhs);
bool operator==(const KernelManifest &lhs, const KernelManifest &rhs);
inline bool operator!=(const KernelManifest &lhs, const KernelManifest &rhs) {
  return !(lhs == rhs);
}

/// The manifest as JSON: two-space indented, keys in the order of
/// docs/artifact.md, one line per top-level field and per element of an
/// array of objects, ", " and ": " between items, ending in a newline.
/// Numbers and strings are as nlohmann-json writes them. The same manifest
/// always gives the same bytes.
std::string writeManifestJson(const KernelManifest &manifest);

/// Parses `text` into `out`. Checks JSON syntax (no duplicate keys, at most
/// 32 levels of nesting, no \u0000 in strings), the format and version, and
/// that every field is present with the right type and no field is unknown.
/// On failure returns false and sets `error` to one line starting with
/// "manifest: " that names the field, or for a syntax error gives the line
/// and column of the byte where parsing stopped. Does not check consistency
/// between fields: see validateManifest.
bool parseManifestJson(std::string_view text, KernelManifest &out,
                       std::string &error);

/// Checks the fields against each other: three params with roles lhs, rhs,
/// result whose extents match m, n, k; element types (A and B of the
/// problem's, f32, bf16 or f16; C f32 or the problem's; f32 accumulation);
/// a batch of 1 to kMaxBatch, and for a batched kernel (batch above 1)
/// grid y equal to the batch, a batch_stride on each of A, B and C (C's
/// matrices apart: at least one matrix's extent), a batch_stride or none on
/// each epilogue param, and only batched tensor maps, for an unbatched one
/// no batch_stride and no batched maps;
/// positive launch dimensions with at most 1024 threads per block; the
/// cluster (at most 16 blocks, dividing the grid, as many blocks as
/// config.cluster, sm_90 or newer); each tensor map against its param and
/// the TMA's limits (a map of the result param only with config.store
/// "tma", which needs strategy wgmma, copy tma, specialize, split_k 1 and
/// exactly one such map, without repack_row_stride); a known chip; at most
/// one binary per format. A dynamic offset or stride (kDynamic) is allowed
/// on any param: offset, batch_stride (batched kernels) and the stored
/// rows' stride
/// (the other stride 1); the rest is checked with the densest layout the
/// param could be launched with (resolveLayouts checks the launch's). On
/// failure returns false and sets `error` to one line.
bool validateManifest(const KernelManifest &manifest, std::string &error);

/// `text` as a JSON string literal, quotes included, escaped as nlohmann-json
/// does; bytes that are not UTF-8 become U+FFFD. The one JSON string escaper
/// of the runtime: the manifest writer and tile-run's --json output use it.
std::string quoteJson(std::string_view text);

/// Whether some param of `manifest` has a dynamic offset or stride.
bool hasDynamicLayout(const KernelManifest &manifest);

/// `manifest` with the dynamic offsets and strides of its params taken from
/// `layouts` (one per param, in order; fields that are static must equal the
/// manifest's), into `out`, which validateManifest then checks as any
/// manifest (bounds, alignment, the TMA's rules, C's elements apart). A
/// dynamic offset or stride must also be a multiple of the param's
/// alignment in bytes: the kernel assumes every row starts aligned. On
/// failure returns false and sets `error` to one line naming the argument.
bool resolveLayouts(const KernelManifest &manifest, const ParamLayout *layouts,
                    size_t numLayouts, KernelManifest &out, std::string &error);

/// The values of `manifest`'s dynamic fields, taken from `resolved` (the
/// same manifest after resolveLayouts), in the order the kernel takes them
/// as i64 parameters after its tensor maps: params in order, each one's
/// offset, then batch_stride, then its stored rows' stride (row_stride, or
/// col_stride for a column-major param).
std::vector<int64_t> getDynamicValues(const KernelManifest &manifest,
                                      const KernelManifest &resolved);

/// 64-bit FNV-1a of `size` bytes.
uint64_t fnv1a64(const void *data, size_t size);

/// 16 lowercase hex digits.
std::string formatHex64(uint64_t value);

/// Accepts exactly 16 lowercase hex digits.
bool parseHex64(std::string_view text, uint64_t &value);

/// A chip name "sm_XY" split up: sm_90 is 9.0, sm_100a is 10.0 with suffix
/// 'a' (arch-specific: runs on that compute capability only).
struct ChipVersion {
  int major = 0;
  int minor = 0;
  /// 0, 'a' (arch-specific) or 'f' (family-specific).
  char suffix = 0;
};
bool parseChip(std::string_view chip, ChipVersion &version);

/// "8.0" -> 8, 0.
bool parsePtxVersion(std::string_view text, int &major, int &minor);

/// Elements a buffer must hold for `param` of a kernel of `batch` matrices
/// (problem.batch; 1 for a plain matmul, and then batchStride is not
/// used): (batch-1)*batchStride + (rows-1)*rowStride + (cols-1)*colStride
/// + 1. False if that overflows, or for a batch below 1 or a negative
/// stride.
bool getRequiredElements(const ParamInfo &param, int64_t batch,
                         uint64_t &elements);

/// Bytes a buffer must hold for `param` of a kernel of `batch` matrices:
/// getRequiredElements times the element size. False if that overflows.
bool getRequiredBytes(const ParamInfo &param, int64_t batch, uint64_t &bytes);

/// The param with `role`, or null.
const ParamInfo *findParam(const KernelManifest &manifest, ParamRole role);

/// The index in manifest.params of the param named `name`, or -1.
int findParamIndex(const KernelManifest &manifest, std::string_view name);

/// The binary of `format`, or null.
const BinaryInfo *findBinary(const KernelManifest &manifest,
                             BinaryFormat format);

/// One parsed step: `op`, and per arg its kind and index or constant.
struct EpilogueArg {
  enum Kind { Acc, Operand, Step, Constant } kind = Acc;
  int64_t index = 0;
  /// A constant, rounded to f32 (the kernel computes in f32).
  double constant = 0;
};
struct EpilogueStep {
  std::string op;
  std::vector<EpilogueArg> args;
};
/// Parses step `index` of a program with `operands` extra operands; on
/// failure returns false and sets `error` (one line).
bool parseEpilogueStep(std::string_view text, size_t index, size_t operands,
                       EpilogueStep &step, std::string &error);
bool parseEpilogueSteps(const std::vector<std::string> &texts,
                        size_t operands, std::vector<EpilogueStep> &steps,
                        std::string &error);
/// The program on one element, in float64: `acc` and its rounding-error
/// scale `accMagnitude` (|init| + sum |a||b|), the element of each operand
/// at this position in `operands`. Returns the value and sets `magnitude`
/// to a bound on how much the f32 roundings of the accumulation and of
/// each step can move it, in the same units (first-order propagation:
/// |d op| <= |d a| + |d b| for sums, |a||d b| + |b||d a| for products, at
/// most the larger input's for max/min, the input's for tanh; plus |value|
/// per step for its own rounding).
double evalEpilogue(const std::vector<EpilogueStep> &steps, double acc,
                    double accMagnitude, const double *operands,
                    double &magnitude);

/// The config in the compiler's short form for tables. fma:
/// 128x128x8/32x64/8x8/s2/g8/pad4/pf[/o2][/sk4] (block, warp, thread,
/// stages, swizzle, smem, prefetch or nopf, occupancy, split-K). wgmma:
/// wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8[/pad8][/c2x1][/p][/ts]
/// [/o1][/sk2] (block, warpgroup tile, instruction, stages, copy as tma,
/// cpasync or regs, ws when specialized, swizzle, smem unless swizzle128,
/// cluster unless 1x1, p when persistent, ts for a TMA store of C,
/// occupancy, split-K).
std::string formatConfigShort(const ConfigInfo &config);

} // namespace tile::runtime

#endif // TILE_RUNTIME_MANIFEST_H
