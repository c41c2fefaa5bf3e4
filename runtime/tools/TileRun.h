//===- TileRun.h - The host-side parts of tile-run --------------*- C++ -*-===//
//
// What tile-run computes on the host: random inputs, the float64 reference,
// the pass/fail rule, the mapping of a manifest's layouts onto a cuBLAS call
// and the timing statistics. Kept apart from the tool so the unit tests check
// them without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TOOLS_TILERUN_H
#define TILE_RUNTIME_TOOLS_TILERUN_H

#include "tile/runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile::run {

using runtime::ElementType;
using runtime::KernelManifest;
using runtime::ParamInfo;
using runtime::ParamRole;

/// splitmix64: tiny, fast, and the same numbers on every platform, so that
/// `--seed N` repeats a run anywhere.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next();
  /// Uniform in [-1, 1), on a grid of 2^-23: every value is an exact float.
  float uniform();

private:
  uint64_t state;
};

/// Fills `values` with uniform [-1, 1) numbers from the stream `seed` and
/// `stream` (different streams for A, B and C0 of one seed).
void fillUniform(std::vector<float> &values, uint64_t seed, uint64_t stream);

/// Copies a dense row-major rows x cols matrix into a buffer laid out as
/// `param` says (element (i, j) at i*rowStride + j*colStride), and back.
void scatterMatrix(const float *dense, const ParamInfo &param, float *buffer);
void gatherMatrix(const float *buffer, const ParamInfo &param, float *dense);

/// Rounds every value to the nearest value of `type` (f32, bf16 or f16;
/// HalfPrecision.h), so that the host holds exactly what a buffer of that
/// type holds.
void roundToElementType(std::vector<float> &values, ElementType type);

/// Element `index` of a buffer of `type` (f32, bf16 or f16), as a float
/// (exact), and storing a float there (rounded to nearest even).
float loadElement(const void *buffer, uint64_t index, ElementType type);
void storeElement(void *buffer, uint64_t index, float value, ElementType type);

/// scatterMatrix and gatherMatrix for a buffer of the param's element type.
void scatterElements(const float *dense, const ParamInfo &param, void *buffer);
void gatherElements(const void *buffer, const ParamInfo &param, float *dense);

/// scatterElements and gatherElements for the `batch` matrices of a
/// batched kernel's param: `dense` holds them one after another (batch x
/// rows x cols, row-major), matrix b of the buffer starts at element
/// b * param.batchStride. A batch of 1 is the plain matrix.
void scatterBatchElements(const float *dense, const ParamInfo &param,
                          int64_t batch, void *buffer);
void gatherBatchElements(const void *buffer, const ParamInfo &param,
                         int64_t batch, float *dense);

/// The bits a result buffer of `type` is poisoned with before a launch: a
/// quiet NaN whose payload a kernel would not produce by accident
/// (0x7fc0a5a5 for f32, 0x7fe5 for bf16, 0x7e5a for f16).
uint32_t getPoisonBits(ElementType type);
void fillPoison(void *buffer, uint64_t elements, ElementType type);
bool isPoison(const void *buffer, uint64_t index, ElementType type);

/// The exact result in float64 and, per element, the bound on the size of
/// any rounding error: |init| + sum_k |a||b|.
struct Reference {
  std::vector<double> value;
  std::vector<double> magnitude;
};

/// value = init + A*B with init = C0 (when `c0` is not null) or `fillValue`;
/// A is m x k, B is k x n, C0 m x n, all dense row-major. Runs on `threads`
/// threads (0: all cores).
void computeHostReference(const float *a, const float *b, const float *c0,
                          double fillValue, int64_t m, int64_t n, int64_t k,
                          Reference &out, unsigned threads = 0);

/// computeHostReference for each of `batch` problems: a, b, c0 and the
/// result hold `batch` dense matrices one after another (A[b] at b*m*k,
/// B[b] at b*k*n, C0[b] and the result's at b*m*n).
void computeBatchedHostReference(const float *a, const float *b,
                                 const float *c0, double fillValue,
                                 int64_t batch, int64_t m, int64_t n, int64_t k,
                                 Reference &out, unsigned threads = 0);

/// A fused epilogue on the reference of `batch` matrices of m x n: each
/// element's value and magnitude through the steps (evalEpilogue,
/// float64), with `operands[j]` the dense row-major values of operand j
/// (m x 1, 1 x n or m x n as its kind says; `batch` of them one after
/// another where `perBatch[j]` holds, one shared by every matrix where it
/// does not or `perBatch` is empty). False, with `error` set, if the steps
/// do not parse or an operand has the wrong size.
bool applyEpilogueReference(const runtime::EpilogueInfo &epilogue,
                            const std::vector<std::vector<float>> &operands,
                            const std::vector<bool> &perBatch, int64_t batch,
                            int64_t m, int64_t n, Reference &reference,
                            std::string &error);

/// Whether `manifest`'s kernel is a TF32 kernel: f32 inputs
/// (problem.element_type) on the tensor cores (config.strategy wgmma), an
/// explicit opt-in of the compiler. No manifest field says more: f32 inputs
/// with strategy wgmma are what makes a TF32 kernel. Its tensor cores read
/// each f32 input with 10 explicit mantissa bits (the low 13 dropped, that
/// is truncated toward zero; some paths round to nearest) and accumulate in
/// f32, so verify gives it the TF32 tolerances below and bench a TF32
/// cuBLAS baseline (CUBLAS_COMPUTE_32F_FAST_TF32). An f32 fma kernel is
/// not one: it keeps the strict FP32 rule, which TF32 arithmetic fails.
bool isTf32Kernel(const KernelManifest &manifest);

/// The largest relative Frobenius-norm error a correct kernel may have,
/// for inputs of `inputType` and a result of `resultType` (the reference
/// uses exactly the inputs' rounded values, so their rounding costs
/// nothing): 1e-5, or 2^-24*sqrt(k) when larger (k > ~28000), for the f32
/// accumulation: the rounding error of a k-term float sum grows like
/// sqrt(k), and is about 0.4 of that for random inputs; TF32 gives ~1e-4 and
/// fails. bf16 and f16 inputs run on tensor cores, whose f32 adder truncates:
/// the error is biased and grows like the number of terms one block sums,
/// `blockTerms` (k, or a split-K chunk; measured 0.018-0.020 per term
/// times 2^-24 on H200 wgmma kernels, k = 9651..32768, and a third of that
/// with 3 splits), so for them the tolerance is also at least
/// blockTerms*2^-24/16 (over 1e-5 from ~2700 terms); TF32 cannot show there,
/// since bf16 and f16 values are exact in TF32. A bf16 or f16 result adds
/// its rounding, at most half an ulp, relative: 2^-8 or 2^-11.
///
/// `tf32`: a TF32 kernel's f32 inputs (isTf32Kernel). The tensor cores'
/// adder is the bf16 and f16 kernels' (the same truncation, the same
/// blockTerms rule), and the inputs' reading costs more: each is off by
/// less than 2^-10 relative (2^-11 rounded to nearest), a product of two by
/// less than 2^-9 + 2^-20, and for truncation all toward zero, so the
/// products' errors do not average out: the norm error is about their mean
/// relative error (a host simulation of truncated inputs and the truncating
/// adder on random inputs gives 6e-4 to 1e-3 for k = 7..100000, inputs
/// rounded to nearest 2e-4 to 5e-4; Tf32CheckTest in TileRunHostTest runs
/// k = 7, 1000 and 20000). The tolerance is the tensor-core rule, and at
/// least 2^-8 (~3.9e-3): twice the products' worst relative error, four to
/// six times what the simulation shows, so a correct TF32 kernel passes
/// with room; wrong elements are mostly the per-element bound's to find
/// (below). The result's rounding adds as above.
double getDefaultRelativeTolerance(ElementType inputType,
                                   ElementType resultType, int64_t k,
                                   int64_t blockTerms = 0, bool tf32 = false);

/// The terms one block of `manifest`'s kernel sums for a K of `k`: k, or
/// the split-K chunk (ceil(k / split_k) rounded up to the block's K tile).
int64_t getTermsPerBlock(const KernelManifest &manifest, int64_t k);

/// The accumulation part of the per-element bound, relative to
/// |init| + sum_k |a||b|: twice the worst-case bound of f32 rounding for any
/// summation order (gamma_{k+2}), and at least 1e-3, so a correct kernel
/// never fails it, while an element left at C0 (off by sum_k a*b, ~sqrt(k)
/// against ~k/4) does. Twice, so that accumulators that truncate (tensor
/// cores may) pass too.
double getElementTolerance(int64_t k);

/// The bound on |C - ref| per element (docs/runtime.md derives it): the
/// f32 accumulation error, at most accumulation * M with M = |init| +
/// sum_k |a||b|, then for a bf16 or f16 C the final rounding of the
/// accumulated value s', at most `rounding` * |s'| (half an ulp, relative:
/// 2^-8 for bf16, 2^-11 for f16) or `absolute` among the subnormals (half
/// the smallest: 2^-134, 2^-25); |s'| <= |ref| + accumulation * M.
///
/// `tf32`: a TF32 kernel's f32 inputs (isTf32Kernel), which the tensor
/// cores read with 10 explicit mantissa bits: each input a*(1 + d), |d| <
/// 2^-10 (truncated; 2^-11 rounded to nearest), so each product is off by
/// less than (2^-9 + 2^-20)|a||b| and their sum by less than (2^-9 +
/// 2^-20) * M. The products of TF32 values are exact in f32 (11 by 11
/// significant bits) and are accumulated as any others, within
/// getElementTolerance(k) of their own magnitude, at most (1 + 2^-9 +
/// 2^-20) * M. The accumulation part takes twice the products' part, as
/// getElementTolerance takes twice the sum's: getElementTolerance(k) +
/// 2 * 2^-9 (which also covers the 2^-20 and the accumulation's share of
/// the larger magnitude). A wrong index still shows: an element left at
/// its initial value is off by sum_k a*b, ~sqrt(k)/3 for random inputs,
/// against (1e-3 + 2^-8) * k/4 ~ 1.2e-3 * k (up to k ~ 8000, where the
/// f32 part starts to grow): at k = 4096 about four in five such elements
/// are over it, and a wrong index spoils whole rows or tiles.
struct ElementTolerance {
  double accumulation = 0;
  double rounding = 0;
  double absolute = 0;
  double bound(double reference, double magnitude) const;
};
ElementTolerance getElementTolerance(int64_t k, ElementType resultType,
                                     bool tf32 = false);

struct CheckResult {
  bool pass = false;
  double relativeError = 0;
  double maxAbsoluteError = 0;
  uint64_t nonFinite = 0;
  uint64_t overBound = 0;
  /// The first element that failed (non-finite first, else over bound);
  /// its batch is 0 for a plain matmul.
  int64_t badBatch = -1, badRow = -1, badCol = -1;
  float badValue = 0;
  double badExpected = 0;
  /// Why it failed, in words; empty when it passed.
  std::string reason;
};

/// The block tile of C that each block of a kernel writes (rows x cols),
/// for telling where wrong elements lie; 0 x 0 leaves that out.
struct TileShape {
  int64_t rows = 0, cols = 0;
};

/// Compares the dense m x n result `c` (`batch` of them one after another
/// for a batched kernel) with the reference: no element NaN or infinite,
/// each within elementTolerance.bound(ref, magnitude), and the relative
/// norm error over all of them at most relativeTolerance. A failure names
/// the first bad element as [row][col], or [batch][row][col] when `batch`
/// is above 1. With a nonzero `tile`, a failure with bad elements (NaN,
/// Inf or over the element bound) also says in how many of
/// C's tiles of that shape the bad elements lie and, for the (at most 3)
/// tiles with the most, each one's bad element count and the rows and
/// columns they span: the pattern that tells a wrong tile index from a
/// race on one operand's copy.
CheckResult checkResult(const float *c, const Reference &reference, int64_t m,
                        int64_t n, double relativeTolerance,
                        const ElementTolerance &elementTolerance,
                        int64_t batch = 1, TileShape tile = {});
/// The same for an f32 result: the bound is elementTolerance * magnitude.
CheckResult checkResult(const float *c, const Reference &reference, int64_t m,
                        int64_t n, double relativeTolerance,
                        double elementTolerance, int64_t batch = 1,
                        TileShape tile = {});

/// "f32", or "bf16 -> bf16" (inputs -> C) when anything is not f32, and
/// "tf32 -> f32" for a TF32 kernel (isTf32Kernel: its f32 inputs read as
/// TF32): the types a table shows for a kernel.
std::string formatElementTypes(const KernelManifest &manifest);

/// A column-major GEMM (cuBLAS) that computes the manifest's row-or-column
/// major product: C_cm(m x n) = op(first)(m x k) * op(second)(k x n). For
/// a batched kernel `batch` such products, the operands' matrices
/// `stride*` elements apart (their params' batch_stride): the strided
/// batched GEMM.
struct GemmPlan {
  bool transFirst = false, transSecond = false;
  int64_t m = 0, n = 0, k = 0;
  ParamRole first = ParamRole::Lhs, second = ParamRole::Rhs;
  int64_t ldFirst = 0, ldSecond = 0, ldResult = 0;
  int64_t batch = 1;
  int64_t strideFirst = 0, strideSecond = 0, strideResult = 0;
};

/// Fails with a reason when a param's strides are neither row-major nor
/// column-major with a leading dimension, or a size exceeds 32 bits.
bool planColumnMajorGemm(const KernelManifest &manifest, GemmPlan &plan,
                         std::string &reason);

/// A cuBLASLt epilogue that computes what a fused epilogue program does,
/// for the bench's baseline: Bias (an operand of one value per row or per
/// column added to the product), Relu (the maximum with 0, maximumf or
/// maxnumf) or BiasRelu (the two in that order), either argument order,
/// matched by the steps' text; Gelu (GELU in its tanh form, cuBLASLt's:
/// 0.5 x (1 + tanh(0.7978845608 (x + 0.044715 x^3)))) or BiasGelu (a bias
/// step, then GELU of it), matched by value: a program without operands
/// is Gelu when, evaluated by runtime::evalEpilogue at fixed sample
/// accumulators (41 points over [-6, 6], 0, +-1e-3, +-20), it agrees with
/// geluTanh within a relative 1e-5 (of max(|gelu|, 1e-6)); one whose first
/// step adds its only operand to acc (a row or column bias) is BiasGelu
/// when it agrees with geluTanh(acc + p) there for p in {-2, 0.5, 3}. Any
/// algebraically equal order of the GELU steps matches. Other programs go
/// to the general form, D = act(alpha * acc + beta * R + bias): for each act
/// (none, ReLU, GELU) alpha, beta and the bias's coefficient are read off
/// the program's values at +-1000 in one input (the others 0), and the
/// form must agree with the program within a relative 1e-5 at the GELU
/// samples for acc times R and bias in {-1.5, 0, 0.7}; the bias's
/// coefficient must be 1 (cuBLASLt does not scale it), and acc and every
/// operand must be used (alpha and beta not 0). Kind Default is the general form without act or bias.
struct LtEpilogue {
  enum Kind { Default, Bias, Relu, BiasRelu, Gelu, BiasGelu } kind = Bias;
  int biasOperand = -1; // index into EpilogueInfo::operands; -1 without bias
  /// cuBLASLt computes D = act(alpha * A*B + beta * C + bias): the scale of
  /// the accumulator, and of the full-size operand it reads as its C
  /// (residualOperand, an index into EpilogueInfo::operands; -1 without,
  /// and beta is then 0).
  double alpha = 1, beta = 0;
  int residualOperand = -1;
  const char *name() const {
    switch (kind) {
    case Default:
      return "default";
    case Bias:
      return "bias";
    case Relu:
      return "relu";
    case BiasRelu:
      return "bias_relu";
    case Gelu:
      return "gelu";
    case BiasGelu:
      return "bias_gelu";
    }
    return "?";
  }
};
/// Matches a fused epilogue's program to cuBLASLt's epilogues: a bias per
/// row or column, ReLU, GELU (tanh form, by value, in any equal order of its
/// steps), a bias then ReLU or GELU; and, by value, any program of the form
/// act(alpha * acc + beta * R + bias) with act none, ReLU or GELU, R one
/// full-size operand (a residual, cuBLASLt's C) and the bias unscaled (a
/// scale alone, a residual add, beta * C as an operand, ...).
/// False, with `reason`, for any other program (a clamp at another value,
/// tanh alone, GELU with other constants, two vector operands, ...):
/// cuBLASLt has no such epilogue.
bool matchLtEpilogue(const runtime::EpilogueInfo &epilogue, LtEpilogue &result,
                     std::string &reason);

/// GELU in its tanh approximation (cuBLASLt's CUBLASLT_EPILOGUE_GELU), in
/// float64: 0.5 x (1 + tanh(0.7978845608028654 (x + 0.044715 x^3))).
double geluTanh(double x);

/// The bench's baseline for a fused epilogue that cuBLASLt does not run: the
/// plain GEMM (C = A*B, or C0 + A*B when the kernel accumulates), then this
/// elementwise kernel on C, CUDA C source for NVRTC. Per element of C (of
/// every matrix of a batched kernel) it reads C as f32 (adding the kernel's
/// fill value when c_init is fill and that is not 0: the GEMM ran with beta
/// 0), reads each operand the steps use at the element's row, column and
/// batch through its param's strides (a row operand at i * row_stride, a
/// column operand at j * col_stride, a full one at i * row_stride + j *
/// col_stride, plus b * batch_stride when it has one), computes every step
/// in f32 (ops as the manifest defines them: maximumf and minimumf
/// propagate NaN and order -0 below +0, maxnumf and minnumf are fmaxf and
/// fminf, tanh is tanhf) and rounds the last step's value once to C's type
/// (f32, bf16 or f16, to nearest even) on the store, as the fused kernel
/// does. One grid-stride loop covers batch * m * n elements, consecutive
/// threads along C's contiguous dimension (its rows when row_stride is the
/// smaller stride, as in a column-major C, else its columns) so that C's
/// accesses coalesce.
/// Sizes and strides are constants in the source; 32-bit indices when every
/// index fits, else 64-bit. Compile it without FMA contraction
/// (--fmad=false), so that each step rounds as the program says.
struct EpilogueKernelSource {
  /// The entry point (extern "C", so the name is not mangled).
  std::string name = "tile_epilogue";
  std::string source;
  /// The kernel's parameters, in order: the index in manifest.params of C's
  /// param, then of each epilogue operand's (EpilogueInfo::operands order).
  /// Each is a device pointer to that param's element (0, 0) of matrix 0:
  /// its buffer plus its offset.
  std::vector<int> params;
  /// batch * m * n, the elements the grid-stride loop visits.
  uint64_t elements = 0;
  /// The threads per block the kernel is built for (__launch_bounds__).
  unsigned blockThreads = 256;
};
/// Builds the elementwise kernel of `manifest`'s fused epilogue. False,
/// with `error`, when it has none, its steps do not parse, a param is
/// missing, of another type than f32, bf16 or f16, or of the wrong extents
/// for its kind.
bool generateEpilogueKernel(const KernelManifest &manifest,
                            EpilogueKernelSource &kernel, std::string &error);

/// How far a baseline's C (`theirs`) is from the kernel's (`ours`), both
/// dense and of the same size: the relative Frobenius-norm difference
/// ||theirs - ours|| / ||ours|| (0 when both are all zeros, NaN when either
/// holds a NaN), and how many elements differ at all.
struct BaselineDifference {
  double relative = 0;
  double oursNorm = 0;
  uint64_t differing = 0;
};
BaselineDifference compareWithKernel(const std::vector<float> &ours,
                                     const std::vector<float> &theirs);

/// The median; the mean of the two middle values for an even count.
double median(std::vector<double> values);

/// "matmul_2" < "matmul_10": digit runs compare as numbers.
bool naturalLess(const std::string &lhs, const std::string &rhs);

/// Replaces each folder in `paths` by the *.json files in it, in natural
/// order; keeps files as they are. Fails on a path that does not exist or a
/// folder without manifests.
bool expandArtifactPaths(const std::vector<std::string> &paths,
                         std::vector<std::string> &manifests,
                         std::string &error);

/// 2*batch*m*n*k / seconds in TFLOP/s (batch 1 for a plain matmul).
double getTflops(int64_t batch, int64_t m, int64_t n, int64_t k,
                 double milliseconds);

} // namespace tile::run

#endif // TILE_RUNTIME_TOOLS_TILERUN_H
