//===- FakeCudaDriver.cpp - A host-only stand-in for libcuda.so.1 ---------===//
//
// Exports the driver entry points the runtime resolves, with the driver's
// prototypes, and emulates a GPU on the host: device memory is host memory,
// and a "launch" of the test kernels runs a matmul on the CPU (f32, bf16 or
// f16 inputs, f32 accumulation, C of f32 or the input type). Tests point
// TILE_CUDA_DRIVER_LIBRARY here to exercise loading, launching and tile-run
// end to end without a GPU.
//
// A function knows its parameters from the PTX of its module (.param .u64
// and .param .align 64 .b8 name[128]); a launch copies each one's bytes, so
// tests see what the kernel would get. cuTensorMapEncodeTiled checks what
// the driver checks (alignment, strides, box) and writes its arguments into
// the 128 bytes (see encodeFakeTensorMap); a kernel launched with tensor
// maps reads A and B through the first two, and with a third (a kernel that
// stores C through the TMA, config.store "tma") writes C through it.
//
// Behaviour is set through environment variables, read on every call:
//   TILE_FAKE_CUDA_INIT_RESULT     what cuInit returns (default 0)
//   TILE_FAKE_CUDA_DEVICES         device count (default 1)
//   TILE_FAKE_CUDA_CC              compute capability as 90, 100 (default 90)
//   TILE_FAKE_CUDA_DRIVER_VERSION  cuDriverGetVersion (default 13000)
//   TILE_FAKE_CUDA_LOAD_RESULT     what cuModuleLoadDataEx returns
//   TILE_FAKE_CUDA_LAUNCH_RESULT   what cuLaunchKernel returns
//   TILE_FAKE_CUDA_MAX_THREADS     the kernel's max threads per block
//   TILE_FAKE_CUDA_L2_BYTES        L2 size (default 1 MiB)
//   TILE_FAKE_CUDA_EVENT_MS        every event-timed interval (default 0.25)
//   TILE_FAKE_CUDA_MATMUL          "m n k fill|accumulate fill_value rsA csA
//                                   rsB csB rsC csC [in_type c_type]": what a
//                                   launch computes (types f32, bf16, f16;
//                                   default f32 f32)
//   TILE_FAKE_CUDA_BATCH           "bsA bsB bsC": a batched kernel, one
//                                  matrix per grid y index: a launch
//                                  computes grid-y matmuls, matrix b of A,
//                                  B and C at b times these strides
//                                  (elements)
//   TILE_FAKE_CUDA_OFFSETS         "oA oB oC": strided params' offsets
//                                  (elements from each pointer to element
//                                  (0, 0); A's and B's not added when they
//                                  are read through tensor maps, whose
//                                  base the runtime offsets, nor C's when
//                                  it is written through one)
//   TILE_FAKE_CUDA_TENSOR_MAP_RESULT  what cuTensorMapEncodeTiled returns
//                                  (default: its own checks)
//   TILE_FAKE_CUDA_NO_CLUSTER      if set, the device cannot launch clusters
//   TILE_FAKE_CUDA_ALLOC_ASYNC_RESULT  what cuMemAllocAsync returns (default 0)
//   TILE_FAKE_CUDA_MEMCPY2D_RESULT what cuMemcpy2DAsync returns (default: its
//                                  own checks)
//   TILE_FAKE_CUDA_NVRTC_MS        what each launch of a fake NVRTC kernel
//                                  adds to cuEventElapsedTime when it was
//                                  enqueued between the two events' records
//                                  (default 0)
//   TILE_FAKE_CUDA_EPILOGUE        a manifest: a launch of the matmul also
//                                  applies its fused epilogue to each
//                                  element before the store (the steps
//                                  through evalEpilogue, the operands read
//                                  from the launch's params as the manifest
//                                  lays them out)
//
// A module the fake NVRTC (FakeNvrtc.cpp) compiled is not the matmul: its
// kernel does nothing, or, when its image names a host kernel library
// (FakeHostKernel.h), runs that library's kernel over the launch's grid.
//
// Built a second time with TILE_FAKE_CUDA_OLD_DRIVER defined: a driver older
// than CUDA 11.8, without cuLaunchKernelEx, cuTensorMapEncodeTiled,
// cuMemAllocAsync, cuMemFreeAsync and cuMemcpy2DAsync.
//   TILE_FAKE_CUDA_REPORT          if set, print what is still allocated at
//                                  exit
//   TILE_FAKE_CUDA_BUG             none, skip-last (leave C's last element),
//                                  ignore-c0, tf32 (truncate inputs to TF32,
//                                  as tensor cores read f32),
//                                  stray (write past the end of C), fault
//                                  (a sticky illegal-address error),
//                                  round-c (round C to the input type even
//                                  when C is f32), one-batch (a batched
//                                  kernel computing only matrix 0),
//                                  swap-rows (C's rows 0 and 1 written to
//                                  each other's place); several separated
//                                  by commas ("tf32,skip-last": a TF32
//                                  kernel with a bug)
//
//===----------------------------------------------------------------------===//

#include "FakeHostKernel.h"
#include "HalfPrecision.h"
#include "tile/runtime/Manifest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {
using CUresult = int;
using CUdeviceptr = unsigned long long;

struct FakeContext {
  int unused;
};
struct FakeModule {
  std::string image;
  int functions = 0;
  /// Compiled by the fake NVRTC: not the matmul. With a host kernel
  /// library, its handle and entry point.
  bool nvrtc = false;
  void *library = nullptr;
  tile::test::HostKernelLaunch hostLaunch = nullptr;
};
struct FakeFunction {
  FakeModule *module;
  std::string name;
  /// Byte size of each parameter, from the PTX.
  std::vector<size_t> paramSizes;
};
struct FakeEvent {
  /// The fake NVRTC kernels launched before it was recorded.
  int nvrtcLaunches = 0;
};
struct FakeStream {
  int unused;
};

struct State {
  FakeContext context;
  FakeContext *current = nullptr;
  int primaryRefs = 0;
  long liveAllocations = 0;
  int liveModules = 0;
  int liveStreams = 0;
  int liveEvents = 0;
  int launches = 0;
  int maxDynamicShared = 0;
  CUresult sticky = 0;
  unsigned lastGrid[3] = {0, 0, 0};
  unsigned lastBlock[3] = {0, 0, 0};
  unsigned lastShared = 0;
  unsigned long long lastArgs[3] = {0, 0, 0};
  /// Launches through cuLaunchKernelEx, and the cluster of the last launch
  /// (0s for cuLaunchKernel or no cluster attribute).
  int launchesEx = 0;
  unsigned lastCluster[3] = {0, 0, 0};
  unsigned lastNumAttrs = 0;
  /// The bytes of each parameter of the last launch.
  std::vector<std::vector<unsigned char>> lastParams;
  int tensorMapsEncoded = 0;
  int nonPortableCluster = 0;
  /// cuMemAllocAsync calls, cuMemcpy2DAsync calls and the last one's
  /// source pitch, destination pitch, width in bytes and rows.
  int asyncAllocations = 0;
  int copies2D = 0;
  size_t lastCopy2D[4] = {0, 0, 0, 0};
  /// Launches of the fake NVRTC's kernels.
  int nvrtcLaunches = 0;
};
State state;

/// What the fake cuTensorMapEncodeTiled writes: its arguments, word by
/// word, after a magic word, so that tests read them back from the kernel
/// parameter bytes. Rank 2 or 3: what a third dimension does not have is 0.
/// The box and the element strides (at most 256 and 8) are one word each,
/// dimension i in bits 16*i to 16*i+15, so that 3 dimensions fit the 128
/// bytes.
enum FakeTensorMapWord {
  kMapMagic,
  kMapDataType,
  kMapRank,
  kMapAddress,
  kMapDim0,
  kMapDim1,
  kMapDim2,
  kMapStride0,
  kMapStride1,
  kMapBoxDims,
  kMapElementStrides,
  kMapInterleave,
  kMapSwizzle,
  kMapL2Promotion,
  kMapOobFill,
  kMapSequence,
};
constexpr uint64_t kFakeTensorMapMagic = 0x54454e534f524d41ull; // "TENSORMA"

/// With TILE_FAKE_CUDA_REPORT set, says at exit what was never released,
/// so that tests of tile-run (a separate process) can check its cleanup.
struct ExitReport {
  ~ExitReport() {
    if (std::getenv("TILE_FAKE_CUDA_REPORT"))
      std::fprintf(stderr,
                   "fake-cuda: live allocations %ld, modules %d, streams %d, "
                   "events %d, primary refs %d\n",
                   state.liveAllocations, state.liveModules, state.liveStreams,
                   state.liveEvents, state.primaryRefs);
  }
} exitReport;

long envLong(const char *name, long fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::strtol(value, nullptr, 10) : fallback;
}

std::string envString(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

int computeCapability() {
  return static_cast<int>(envLong("TILE_FAKE_CUDA_CC", 90));
}

/// Whether the comma-separated `bugs` (TILE_FAKE_CUDA_BUG) name `bug`.
bool hasBug(const std::string &bugs, const char *bug) {
  size_t start = 0;
  while (start <= bugs.size()) {
    size_t end = bugs.find(',', start);
    if (end == std::string::npos)
      end = bugs.size();
    if (bugs.compare(start, end - start, bug) == 0)
      return true;
    start = end + 1;
  }
  return false;
}

float roundToTf32(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits &= 0xffffe000u;
  std::memcpy(&value, &bits, sizeof(bits));
  return value;
}

enum class FakeType { F32, BF16, F16 };

bool parseFakeType(const char *text, FakeType &type) {
  if (std::strcmp(text, "f32") == 0)
    type = FakeType::F32;
  else if (std::strcmp(text, "bf16") == 0)
    type = FakeType::BF16;
  else if (std::strcmp(text, "f16") == 0)
    type = FakeType::F16;
  else
    return false;
  return true;
}

float loadElement(const void *base, long long index, FakeType type) {
  switch (type) {
  case FakeType::BF16:
    return tile::run::bf16ToFloat(static_cast<const uint16_t *>(base)[index]);
  case FakeType::F16:
    return tile::run::f16ToFloat(static_cast<const uint16_t *>(base)[index]);
  case FakeType::F32:
    break;
  }
  return static_cast<const float *>(base)[index];
}

/// Rounds to `type` and back, as a kernel's f32 result stored as that type.
float roundTo(float value, FakeType type) {
  switch (type) {
  case FakeType::BF16:
    return tile::run::bf16ToFloat(tile::run::floatToBf16(value));
  case FakeType::F16:
    return tile::run::f16ToFloat(tile::run::floatToF16(value));
  case FakeType::F32:
    break;
  }
  return value;
}

void storeElement(void *base, long long index, float value, FakeType type) {
  switch (type) {
  case FakeType::BF16:
    static_cast<uint16_t *>(base)[index] = tile::run::floatToBf16(value);
    return;
  case FakeType::F16:
    static_cast<uint16_t *>(base)[index] = tile::run::floatToF16(value);
    return;
  case FakeType::F32:
    static_cast<float *>(base)[index] = value;
    return;
  }
}

unsigned typeBytes(FakeType type) { return type == FakeType::F32 ? 4 : 2; }

bool toFakeType(tile::runtime::ElementType type, FakeType &out) {
  switch (type) {
  case tile::runtime::ElementType::F32:
    out = FakeType::F32;
    return true;
  case tile::runtime::ElementType::BF16:
    out = FakeType::BF16;
    return true;
  case tile::runtime::ElementType::F16:
    out = FakeType::F16;
    return true;
  default:
    return false;
  }
}

/// TILE_FAKE_CUDA_EPILOGUE's fused epilogue: the steps, and per operand the
/// index of its param (its pointer's place among the launch's params), its
/// kind, type and layout.
struct FakeEpilogue {
  std::string path;
  bool active = false;
  std::vector<tile::runtime::EpilogueStep> steps;
  struct Operand {
    size_t param = 0;
    tile::runtime::EpilogueOperandKind kind =
        tile::runtime::EpilogueOperandKind::Full;
    FakeType type = FakeType::F32;
    long long rowStride = 0, colStride = 0, batchStride = 0, offset = 0;
  };
  std::vector<Operand> operands;
};

/// The epilogue of the manifest TILE_FAKE_CUDA_EPILOGUE names (read again
/// when the variable changes); inactive without one, or when it does not
/// parse.
const FakeEpilogue &getFakeEpilogue() {
  static FakeEpilogue epilogue;
  std::string path = envString("TILE_FAKE_CUDA_EPILOGUE");
  if (path == epilogue.path)
    return epilogue;
  epilogue = FakeEpilogue();
  epilogue.path = path;
  if (path.empty())
    return epilogue;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  tile::runtime::KernelManifest manifest;
  std::string error;
  if (!tile::runtime::parseManifestJson(text.str(), manifest, error) ||
      !tile::runtime::parseEpilogueSteps(manifest.epilogue.steps,
                                         manifest.epilogue.operands.size(),
                                         epilogue.steps, error)) {
    std::fprintf(stderr, "fake-cuda: TILE_FAKE_CUDA_EPILOGUE: %s\n",
                 error.c_str());
    return epilogue;
  }
  for (const tile::runtime::EpilogueOperand &operand :
       manifest.epilogue.operands) {
    int index = tile::runtime::findParamIndex(manifest, operand.param);
    FakeEpilogue::Operand fake;
    if (index < 0 ||
        !toFakeType(manifest.params[index].elementType, fake.type)) {
      std::fprintf(stderr, "fake-cuda: TILE_FAKE_CUDA_EPILOGUE: operand %s\n",
                   operand.param.c_str());
      return epilogue;
    }
    const tile::runtime::ParamInfo &param = manifest.params[index];
    fake.param = static_cast<size_t>(index);
    fake.kind = operand.kind;
    fake.rowStride = param.rowStride;
    fake.colStride = param.colStride;
    fake.batchStride = param.batchStride;
    fake.offset = param.offset;
    epilogue.operands.push_back(fake);
  }
  epilogue.active = true;
  return epilogue;
}

/// The "kernel": C (+)= A * B as TILE_FAKE_CUDA_MATMUL describes it, in f32
/// with one fused multiply-add per product, then TILE_FAKE_CUDA_EPILOGUE's
/// epilogue (its operands' pointers among `params`, the launch's). `mapA`
/// and `mapB` (null or two fake tensor maps) say where A and B are instead
/// of the pointers; with them, `mapC` (null or a third map: a TMA store)
/// says where C is, a row-major matrix (rows its stride apart).
void runMatmul(void *a, void *b, void *c, const uint64_t *mapA,
               const uint64_t *mapB, const uint64_t *mapC, unsigned gridY,
               void **params) {
  std::string spec = envString("TILE_FAKE_CUDA_MATMUL");
  if (spec.empty())
    return;
  long long m, n, k, rsA, csA, rsB, csB, rsC, csC;
  char init[32], inName[8] = "f32", cName[8] = "f32";
  double fill;
  int fields = std::sscanf(spec.c_str(),
                           "%lld %lld %lld %31s %lf %lld %lld %lld %lld "
                           "%lld %lld %7s %7s",
                           &m, &n, &k, init, &fill, &rsA, &csA, &rsB, &csB,
                           &rsC, &csC, inName, cName);
  FakeType in, out;
  if ((fields != 11 && fields != 13) || !parseFakeType(inName, in) ||
      !parseFakeType(cName, out))
    return;
  if (mapA && mapB) {
    // Through the maps: their base and row pitch (elements are contiguous
    // along a row).
    a = reinterpret_cast<void *>(mapA[kMapAddress]);
    b = reinterpret_cast<void *>(mapB[kMapAddress]);
    rsA = static_cast<long long>(mapA[kMapStride0] / typeBytes(in));
    rsB = static_cast<long long>(mapB[kMapStride0] / typeBytes(in));
    csA = csB = 1;
  }
  bool storeMap = mapA && mapB && mapC;
  if (storeMap) {
    c = reinterpret_cast<void *>(mapC[kMapAddress]);
    rsC = static_cast<long long>(mapC[kMapStride0] / typeBytes(out));
    csC = 1;
  }
  long long offA = 0, offB = 0, offC = 0;
  std::string offsetSpec = envString("TILE_FAKE_CUDA_OFFSETS");
  if (!offsetSpec.empty() &&
      std::sscanf(offsetSpec.c_str(), "%lld %lld %lld", &offA, &offB,
                  &offC) != 3)
    return;
  if (mapA && mapB)
    offA = offB = 0;
  if (storeMap)
    offC = 0;
  std::string bug = envString("TILE_FAKE_CUDA_BUG");
  bool accumulate =
      std::strcmp(init, "accumulate") == 0 && !hasBug(bug, "ignore-c0");
  // A batched kernel: one matrix per grid y index.
  long long batch = 1, bsA = 0, bsB = 0, bsC = 0;
  std::string batchSpec = envString("TILE_FAKE_CUDA_BATCH");
  if (!batchSpec.empty()) {
    if (std::sscanf(batchSpec.c_str(), "%lld %lld %lld", &bsA, &bsB, &bsC) != 3)
      return;
    batch = hasBug(bug, "one-batch") ? 1 : gridY;
    // A batched (3-d) map says where its matrices are: a repacked copy's
    // are not the param's batch_stride apart.
    if (mapA && mapB && mapA[kMapRank] == 3)
      bsA = static_cast<long long>(mapA[kMapStride1] / typeBytes(in));
    if (mapA && mapB && mapB[kMapRank] == 3)
      bsB = static_cast<long long>(mapB[kMapStride1] / typeBytes(in));
    if (storeMap && mapC[kMapRank] == 3)
      bsC = static_cast<long long>(mapC[kMapStride1] / typeBytes(out));
  }
  const FakeEpilogue &epilogue = getFakeEpilogue();
  std::vector<double> values(epilogue.operands.size());
  for (long long l = 0; l < batch; ++l)
    for (long long i = 0; i < m; ++i)
      for (long long j = 0; j < n; ++j) {
        if (hasBug(bug, "skip-last") && l == batch - 1 && i == m - 1 &&
            j == n - 1)
          continue;
        // swap-rows: row 0's values land in row 1 and row 1's in row 0 (C0
        // read where they land).
        long long row = hasBug(bug, "swap-rows") && i < 2 && m > 1 ? 1 - i : i;
        long long at = offC + l * bsC + row * rsC + j * csC;
        float sum =
            accumulate ? loadElement(c, at, out) : static_cast<float>(fill);
        for (long long kk = 0; kk < k; ++kk) {
          float x = loadElement(a, offA + l * bsA + i * rsA + kk * csA, in);
          float y = loadElement(b, offB + l * bsB + kk * rsB + j * csB, in);
          if (hasBug(bug, "tf32")) {
            x = roundToTf32(x);
            y = roundToTf32(y);
          }
          sum = std::fma(x, y, sum);
        }
        if (hasBug(bug, "round-c"))
          sum = roundTo(sum, in);
        if (epilogue.active) {
          for (size_t e = 0; e < epilogue.operands.size(); ++e) {
            const FakeEpilogue::Operand &operand = epilogue.operands[e];
            using Kind = tile::runtime::EpilogueOperandKind;
            long long index = operand.offset + l * operand.batchStride;
            if (operand.kind != Kind::Col)
              index += i * operand.rowStride;
            if (operand.kind != Kind::Row)
              index += j * operand.colStride;
            const void *base = reinterpret_cast<const void *>(
                *static_cast<CUdeviceptr *>(params[operand.param]));
            values[e] = loadElement(base, index, operand.type);
          }
          double magnitude = 0;
          sum = static_cast<float>(tile::runtime::evalEpilogue(
              epilogue.steps, sum, 0.0, values.data(), magnitude));
        }
        storeElement(c, at, sum, out);
      }
  if (hasBug(bug, "stray"))
    storeElement(c,
                 offC + (batch - 1) * bsC + (m - 1) * rsC + (n - 1) * csC + 1,
                 1.0f, out);
}

/// The byte sizes of the parameters of `.entry name(...)` in PTX `image`:
/// 8 for .u64 (and .b64, .s64), 4 for 32-bit scalars, N for .b8 x[N].
std::vector<size_t> parsePtxParams(const std::string &image,
                                   const std::string &name) {
  std::vector<size_t> sizes;
  size_t at = image.find(".entry " + name + "(");
  if (at == std::string::npos)
    return sizes;
  size_t open = image.find('(', at), close = image.find(')', at);
  if (open == std::string::npos || close == std::string::npos || close < open)
    return sizes;
  std::string list = image.substr(open + 1, close - open - 1);
  for (size_t p = list.find(".param"); p != std::string::npos;
       p = list.find(".param", p + 6)) {
    size_t end = list.find(',', p);
    std::string decl = list.substr(p, end == std::string::npos ? end : end - p);
    size_t bracket = decl.find('[');
    if (decl.find(".b8") != std::string::npos && bracket != std::string::npos)
      sizes.push_back(std::strtoul(decl.c_str() + bracket + 1, nullptr, 10));
    else if (decl.find("64") != std::string::npos)
      sizes.push_back(8);
    else
      sizes.push_back(4);
  }
  return sizes;
}

/// What cuLaunchKernel and cuLaunchKernelEx share.
CUresult launch(FakeFunction *function, const unsigned grid[3],
                const unsigned block[3], unsigned sharedBytes, void **params) {
  CUresult result =
      static_cast<CUresult>(envLong("TILE_FAKE_CUDA_LAUNCH_RESULT", 0));
  if (result != 0)
    return result;
  if (state.sticky != 0)
    return state.sticky;
  ++state.launches;
  if (function->module->nvrtc) {
    // The fake NVRTC's kernel: the host library's, when it has one.
    for (int i = 0; i < 3; ++i) {
      state.lastGrid[i] = grid[i];
      state.lastBlock[i] = block[i];
    }
    state.lastShared = sharedBytes;
    state.lastParams.clear();
    for (size_t i = 0; i < function->paramSizes.size(); ++i) {
      const auto *bytes = static_cast<const unsigned char *>(params[i]);
      state.lastParams.emplace_back(bytes, bytes + function->paramSizes[i]);
    }
    ++state.nvrtcLaunches;
    if (function->module->hostLaunch)
      function->module->hostLaunch(params, grid, block);
    return 0;
  }
  for (int i = 0; i < 3; ++i) {
    state.lastGrid[i] = grid[i];
    state.lastBlock[i] = block[i];
    state.lastArgs[i] = *static_cast<CUdeviceptr *>(params[i]);
  }
  state.lastShared = sharedBytes;
  state.lastParams.clear();
  // A fixture's PTX without the epilogue's operands that
  // TILE_FAKE_CUDA_EPILOGUE's manifest adds: the launch passes their
  // pointers at their places, before the tensor maps.
  std::vector<size_t> sizes = function->paramSizes;
  const FakeEpilogue &fakeEpilogue = getFakeEpilogue();
  if (fakeEpilogue.active)
    for (const FakeEpilogue::Operand &operand : fakeEpilogue.operands)
      if (operand.param >= sizes.size() ||
          sizes[operand.param] != sizeof(CUdeviceptr))
        sizes.insert(sizes.begin() +
                         std::min(operand.param, sizes.size()),
                     sizeof(CUdeviceptr));
  const uint64_t *maps[3] = {nullptr, nullptr, nullptr};
  int numMaps = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto *bytes = static_cast<const unsigned char *>(params[i]);
    state.lastParams.emplace_back(bytes, bytes + sizes[i]);
    if (sizes[i] == 128 && numMaps < 3) {
      const auto *words = static_cast<const uint64_t *>(params[i]);
      if (words[kMapMagic] == kFakeTensorMapMagic)
        maps[numMaps++] = words;
    }
  }
  if (hasBug(envString("TILE_FAKE_CUDA_BUG"), "fault")) {
    state.sticky = 700;
    return 0;
  }
  runMatmul(reinterpret_cast<void *>(state.lastArgs[0]),
            reinterpret_cast<void *>(state.lastArgs[1]),
            reinterpret_cast<void *>(state.lastArgs[2]), maps[0], maps[1],
            maps[2], grid[1], params);
  return 0;
}
} // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes);
FAKE_API CUresult cuMemFree_v2(CUdeviceptr pointer);

//===----------------------------------------------------------------------===//
// Test controls
//===----------------------------------------------------------------------===//

FAKE_API void tileFakeCudaReset() { state = State(); }
FAKE_API int tileFakeCudaPrimaryRefs() { return state.primaryRefs; }
FAKE_API long tileFakeCudaLiveAllocations() { return state.liveAllocations; }
FAKE_API int tileFakeCudaLiveModules() { return state.liveModules; }
FAKE_API int tileFakeCudaLaunches() { return state.launches; }
FAKE_API int tileFakeCudaMaxDynamicShared() { return state.maxDynamicShared; }
FAKE_API void tileFakeCudaLastLaunch(unsigned *grid, unsigned *block,
                                     unsigned *shared,
                                     unsigned long long *args) {
  for (int i = 0; i < 3; ++i) {
    grid[i] = state.lastGrid[i];
    block[i] = state.lastBlock[i];
    args[i] = state.lastArgs[i];
  }
  *shared = state.lastShared;
}
FAKE_API int tileFakeCudaLaunchesEx() { return state.launchesEx; }
FAKE_API void tileFakeCudaLastCluster(unsigned *cluster, unsigned *numAttrs) {
  for (int i = 0; i < 3; ++i)
    cluster[i] = state.lastCluster[i];
  *numAttrs = state.lastNumAttrs;
}
/// The number of parameters of the last launch.
FAKE_API int tileFakeCudaLastParamCount() {
  return static_cast<int>(state.lastParams.size());
}
/// Copies parameter `index` of the last launch to `out` (at most `size`
/// bytes); returns its size, or -1.
FAKE_API long tileFakeCudaLastParam(int index, void *out, size_t size) {
  if (index < 0 || static_cast<size_t>(index) >= state.lastParams.size())
    return -1;
  const std::vector<unsigned char> &bytes = state.lastParams[index];
  std::memcpy(out, bytes.data(), bytes.size() < size ? bytes.size() : size);
  return static_cast<long>(bytes.size());
}
FAKE_API int tileFakeCudaTensorMapsEncoded() { return state.tensorMapsEncoded; }
FAKE_API int tileFakeCudaAsyncAllocations() { return state.asyncAllocations; }
/// The number of 2-d copies; `last` gets the last one's source pitch,
/// destination pitch, width in bytes and rows.
FAKE_API int tileFakeCudaCopies2D(size_t *last) {
  for (int i = 0; i < 4; ++i)
    last[i] = state.lastCopy2D[i];
  return state.copies2D;
}
FAKE_API int tileFakeCudaNonPortableCluster() {
  return state.nonPortableCluster;
}
FAKE_API int tileFakeCudaNvrtcLaunches() { return state.nvrtcLaunches; }

//===----------------------------------------------------------------------===//
// Driver API
//===----------------------------------------------------------------------===//

FAKE_API CUresult cuInit(unsigned) {
  return static_cast<CUresult>(envLong("TILE_FAKE_CUDA_INIT_RESULT", 0));
}

FAKE_API CUresult cuDriverGetVersion(int *version) {
  *version = static_cast<int>(envLong("TILE_FAKE_CUDA_DRIVER_VERSION", 13000));
  return 0;
}

FAKE_API CUresult cuGetErrorName(CUresult error, const char **text) {
  switch (error) {
  case 0:
    *text = "CUDA_SUCCESS";
    return 0;
  case 1:
    *text = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 100:
    *text = "CUDA_ERROR_NO_DEVICE";
    return 0;
  case 209:
    *text = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return 0;
  case 218:
    *text = "CUDA_ERROR_INVALID_PTX";
    return 0;
  case 222:
    *text = "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    return 0;
  case 500:
    *text = "CUDA_ERROR_NOT_FOUND";
    return 0;
  case 700:
    *text = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return 0;
  case 701:
    *text = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    return 0;
  }
  *text = nullptr;
  return 1;
}

FAKE_API CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case 100:
    *text = "no CUDA-capable device is detected";
    return 0;
  case 700:
    *text = "an illegal memory access was encountered";
    return 0;
  case 701:
    *text = "too many resources requested for launch";
    return 0;
  }
  *text = "fake driver error";
  return 0;
}

FAKE_API CUresult cuDeviceGetCount(int *count) {
  *count = static_cast<int>(envLong("TILE_FAKE_CUDA_DEVICES", 1));
  return 0;
}

FAKE_API CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= envLong("TILE_FAKE_CUDA_DEVICES", 1))
    return 101;
  *device = ordinal;
  return 0;
}

FAKE_API CUresult cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, length, "Fake GPU");
  return 0;
}

FAKE_API CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 1: // MAX_THREADS_PER_BLOCK
    *value = 1024;
    return 0;
  case 13: // CLOCK_RATE, kHz
    *value = 1980000;
    return 0;
  case 16: // MULTIPROCESSOR_COUNT
    *value = 132;
    return 0;
  case 36: // MEMORY_CLOCK_RATE, kHz
    *value = 3201000;
    return 0;
  case 38: // L2_CACHE_SIZE
    *value = static_cast<int>(envLong("TILE_FAKE_CUDA_L2_BYTES", 1 << 20));
    return 0;
  case 75: // COMPUTE_CAPABILITY_MAJOR
    *value = computeCapability() / 10;
    return 0;
  case 76: // COMPUTE_CAPABILITY_MINOR
    *value = computeCapability() % 10;
    return 0;
  case 97: // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
    *value = 232448;
    return 0;
  case 115: // MEMORY_POOLS_SUPPORTED
    *value = std::getenv("TILE_FAKE_CUDA_NO_MEMORY_POOLS") ? 0 : 1;
    return 0;
  case 120: // CLUSTER_LAUNCH
    *value = std::getenv("TILE_FAKE_CUDA_NO_CLUSTER") ? 0 : 1;
    return 0;
  }
  return 1;
}

FAKE_API CUresult cuDeviceGetPCIBusId(char *busId, int length, int) {
  std::snprintf(busId, length, "0000:00:00.0");
  return 0;
}

FAKE_API CUresult cuDeviceTotalMem_v2(size_t *bytes, int) {
  *bytes = size_t(8) << 30;
  return 0;
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(FakeContext **context, int) {
  ++state.primaryRefs;
  *context = &state.context;
  return 0;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(int) {
  --state.primaryRefs;
  return 0;
}

FAKE_API CUresult cuCtxSetCurrent(FakeContext *context) {
  state.current = context;
  return 0;
}

FAKE_API CUresult cuCtxGetCurrent(FakeContext **context) {
  *context = state.current;
  return 0;
}

FAKE_API CUresult cuCtxSynchronize() { return state.sticky; }

FAKE_API CUresult cuModuleLoadDataEx(FakeModule **module, const void *image,
                                     unsigned numOptions, int *options,
                                     void **values) {
  CUresult result =
      static_cast<CUresult>(envLong("TILE_FAKE_CUDA_LOAD_RESULT", 0));
  if (result != 0) {
    // Fill the JIT error log as the driver does.
    char *log = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (options[i] == 5)
        log = static_cast<char *>(values[i]);
      if (options[i] == 6)
        size = reinterpret_cast<size_t>(values[i]);
    }
    if (log && size > 0)
      std::snprintf(log, size, "ptxas fatal   : fake JIT failure\n");
    return result;
  }
  auto *loaded = new FakeModule();
  loaded->image = static_cast<const char *>(image);
  // The fake NVRTC's image, naming a host kernel library or not.
  const std::string host = "// " + std::string(tile::test::kHostKernelMarker);
  loaded->nvrtc = loaded->image.rfind(host, 0) == 0 ||
                  loaded->image.rfind("// fake-nvrtc", 0) == 0;
  if (loaded->image.rfind(host, 0) == 0) {
    size_t start = host.size() + 1, end = loaded->image.find('\n');
    std::string path = loaded->image.substr(start, end - start);
    loaded->library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (loaded->library)
      loaded->hostLaunch = reinterpret_cast<tile::test::HostKernelLaunch>(
          dlsym(loaded->library, tile::test::kHostKernelLaunchSymbol));
    if (!loaded->hostLaunch) {
      const char *why = dlerror();
      std::fprintf(stderr, "fake-cuda: cannot load %s: %s\n", path.c_str(),
                   why ? why : "no entry point");
      if (loaded->library)
        dlclose(loaded->library);
      delete loaded;
      return 200; // INVALID_IMAGE
    }
  }
  ++state.liveModules;
  *module = loaded;
  return 0;
}

FAKE_API CUresult cuModuleUnload(FakeModule *module) {
  --state.liveModules;
  if (module->library)
    dlclose(module->library);
  delete module;
  return 0;
}

FAKE_API CUresult cuModuleGetFunction(FakeFunction **function,
                                      FakeModule *module, const char *name) {
  std::string entry = std::string(".entry ") + name;
  size_t at = module->image.find(entry);
  char next =
      at == std::string::npos || at + entry.size() >= module->image.size()
          ? 0
          : module->image[at + entry.size()];
  if (at == std::string::npos || !(next == '(' || next == ' ' || next == '\n'))
    return 500;
  // Functions live as long as the process (the driver ties them to the
  // module, and tests look at nothing but counts), each in its own slot:
  // several modules may be loaded at once.
  static std::deque<FakeFunction> functions;
  ++module->functions;
  functions.emplace_back();
  FakeFunction &slot = functions.back();
  slot.module = module;
  slot.name = name;
  slot.paramSizes = parsePtxParams(module->image, name);
  *function = &slot;
  return 0;
}

FAKE_API CUresult cuFuncGetAttribute(int *value, int attribute,
                                     FakeFunction *) {
  switch (attribute) {
  case 0: // MAX_THREADS_PER_BLOCK
    *value = static_cast<int>(envLong("TILE_FAKE_CUDA_MAX_THREADS", 1024));
    return 0;
  case 3: // LOCAL_SIZE_BYTES
    *value = 0;
    return 0;
  case 4: // NUM_REGS
    *value = 40;
    return 0;
  }
  return 1;
}

FAKE_API CUresult cuFuncSetAttribute(FakeFunction *, int attribute, int value) {
  if (attribute == 8)
    state.maxDynamicShared = value;
  if (attribute == 14) // NON_PORTABLE_CLUSTER_SIZE_ALLOWED
    state.nonPortableCluster = value;
  return 0;
}

FAKE_API CUresult cuLaunchKernel(FakeFunction *function, unsigned gridX,
                                 unsigned gridY, unsigned gridZ,
                                 unsigned blockX, unsigned blockY,
                                 unsigned blockZ, unsigned sharedBytes,
                                 FakeStream *, void **params, void **) {
  unsigned grid[3] = {gridX, gridY, gridZ};
  unsigned block[3] = {blockX, blockY, blockZ};
  CUresult result = launch(function, grid, block, sharedBytes, params);
  if (result == 0)
    for (unsigned &dim : state.lastCluster)
      dim = 0;
  return result;
}

/// CUlaunchConfig and CUlaunchAttribute as cuda.h lays them out.
struct FakeLaunchAttribute {
  int id;
  char pad[4];
  union {
    alignas(8) char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct FakeLaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  FakeStream *hStream;
  FakeLaunchAttribute *attrs;
  unsigned numAttrs;
};

#ifndef TILE_FAKE_CUDA_OLD_DRIVER
FAKE_API CUresult cuLaunchKernelEx(const FakeLaunchConfig *config,
                                   FakeFunction *function, void **params,
                                   void **) {
  unsigned cluster[3] = {1, 1, 1};
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == 4) { // CLUSTER_DIMENSION
      cluster[0] = config->attrs[i].value.clusterDim.x;
      cluster[1] = config->attrs[i].value.clusterDim.y;
      cluster[2] = config->attrs[i].value.clusterDim.z;
    }
  unsigned grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
  unsigned block[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
  // The driver's own check: the grid is whole clusters.
  for (int i = 0; i < 3; ++i)
    if (cluster[i] == 0 || grid[i] % cluster[i] != 0)
      return 912; // INVALID_CLUSTER_SIZE
  CUresult result =
      launch(function, grid, block, config->sharedMemBytes, params);
  if (result == 0) {
    ++state.launchesEx;
    for (int i = 0; i < 3; ++i)
      state.lastCluster[i] = cluster[i];
    state.lastNumAttrs = config->numAttrs;
  }
  return result;
}

FAKE_API CUresult cuTensorMapEncodeTiled(
    uint64_t *map, int dataType, uint32_t rank, void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStrides,
    const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
    int swizzle, int l2Promotion, int oobFill) {
  const char *forced = std::getenv("TILE_FAKE_CUDA_TENSOR_MAP_RESULT");
  if (forced && *forced)
    return static_cast<CUresult>(std::strtol(forced, nullptr, 10));
  // What the driver documents for these arguments (rank 2, or 3 for a
  // batched map; no interleave).
  unsigned elementBytes = dataType == 7                    ? 4
                          : dataType == 6 || dataType == 9 ? 2
                                                           : 0;
  auto address = reinterpret_cast<uintptr_t>(globalAddress);
  if (reinterpret_cast<uintptr_t>(map) % 64 != 0 || elementBytes == 0 ||
      rank < 2 || rank > 3 || address % 16 != 0 || interleave != 0)
    return 1;
  for (uint32_t i = 0; i < rank; ++i)
    if (globalDim[i] == 0 || globalDim[i] > (uint64_t(1) << 32) ||
        boxDim[i] == 0 || boxDim[i] > 256 || elementStrides[i] == 0 ||
        elementStrides[i] > 8)
      return 1;
  for (uint32_t i = 0; i + 1 < rank; ++i)
    if (globalStrides[i] % 16 != 0 || globalStrides[i] >= (uint64_t(1) << 40))
      return 1;
  if (globalStrides[0] < globalDim[0] * elementBytes)
    return 1;
  uint64_t boxBytes = uint64_t(boxDim[0]) * elementBytes;
  unsigned span = swizzle == 1   ? 32
                  : swizzle == 2 ? 64
                  : swizzle == 3 ? 128
                                 : 0;
  if (boxBytes % 16 != 0 || (span != 0 && boxBytes > span) || swizzle < 0 ||
      swizzle > 3 || l2Promotion < 0 || l2Promotion > 3 || oobFill != 0)
    return 1;
  bool batched = rank == 3;
  auto pack = [&](const uint32_t *values) {
    uint64_t word = 0;
    for (uint32_t i = 0; i < rank; ++i)
      word |= uint64_t(values[i]) << (16 * i);
    return word;
  };
  uint64_t words[16] = {kFakeTensorMapMagic,
                        static_cast<uint64_t>(dataType),
                        rank,
                        address,
                        globalDim[0],
                        globalDim[1],
                        batched ? globalDim[2] : 0,
                        globalStrides[0],
                        batched ? globalStrides[1] : 0,
                        pack(boxDim),
                        pack(elementStrides),
                        static_cast<uint64_t>(interleave),
                        static_cast<uint64_t>(swizzle),
                        static_cast<uint64_t>(l2Promotion),
                        static_cast<uint64_t>(oobFill),
                        static_cast<uint64_t>(++state.tensorMapsEncoded)};
  std::memcpy(map, words, sizeof(words));
  return 0;
}

FAKE_API CUresult cuMemAllocAsync(CUdeviceptr *pointer, size_t bytes,
                                  FakeStream *) {
  ++state.asyncAllocations;
  if (long forced = envLong("TILE_FAKE_CUDA_ALLOC_ASYNC_RESULT", 0))
    return static_cast<CUresult>(forced);
  return cuMemAlloc_v2(pointer, bytes);
}

FAKE_API CUresult cuMemFreeAsync(CUdeviceptr pointer, FakeStream *) {
  return cuMemFree_v2(pointer);
}

/// CUDA_MEMCPY2D as cuda.h lays it out.
struct FakeMemcpy2D {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};

FAKE_API CUresult cuMemcpy2DAsync_v2(const FakeMemcpy2D *copy, FakeStream *) {
  if (long forced = envLong("TILE_FAKE_CUDA_MEMCPY2D_RESULT", 0))
    return static_cast<CUresult>(forced);
  // Device to device only, as the runtime uses it; the driver refuses
  // pitches below the width.
  if (copy->srcMemoryType != 2 || copy->dstMemoryType != 2 ||
      copy->srcPitch < copy->WidthInBytes ||
      copy->dstPitch < copy->WidthInBytes || copy->srcXInBytes != 0 ||
      copy->srcY != 0 || copy->dstXInBytes != 0 || copy->dstY != 0)
    return 1;
  for (size_t row = 0; row < copy->Height; ++row)
    std::memcpy(reinterpret_cast<void *>(copy->dstDevice + row * copy->dstPitch),
                reinterpret_cast<const void *>(copy->srcDevice +
                                               row * copy->srcPitch),
                copy->WidthInBytes);
  ++state.copies2D;
  state.lastCopy2D[0] = copy->srcPitch;
  state.lastCopy2D[1] = copy->dstPitch;
  state.lastCopy2D[2] = copy->WidthInBytes;
  state.lastCopy2D[3] = copy->Height;
  return state.sticky;
}
#endif // TILE_FAKE_CUDA_OLD_DRIVER

FAKE_API CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *totalBytes) {
  *freeBytes = size_t(4) << 30;
  *totalBytes = size_t(8) << 30;
  return 0;
}

FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  // Device allocations are 256-byte aligned; fresh memory is not zeroed.
  size_t rounded = (bytes + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded);
  if (!memory)
    return 2;
  std::memset(memory, 0xcd, rounded);
  ++state.liveAllocations;
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  return 0;
}

FAKE_API CUresult cuMemFree_v2(CUdeviceptr pointer) {
  if (!pointer)
    return 1;
  --state.liveAllocations;
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}

FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                  size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return state.sticky;
}

FAKE_API CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return state.sticky;
}

FAKE_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src,
                                  size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst),
              reinterpret_cast<const void *>(src), bytes);
  return state.sticky;
}

FAKE_API CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value,
                                 size_t count) {
  auto *words = reinterpret_cast<unsigned *>(dst);
  for (size_t i = 0; i < count; ++i)
    words[i] = value;
  return state.sticky;
}

FAKE_API CUresult cuStreamCreate(FakeStream **stream, unsigned) {
  ++state.liveStreams;
  *stream = new FakeStream();
  return 0;
}

FAKE_API CUresult cuStreamDestroy_v2(FakeStream *stream) {
  --state.liveStreams;
  delete stream;
  return 0;
}

FAKE_API CUresult cuStreamSynchronize(FakeStream *) { return state.sticky; }

FAKE_API CUresult cuEventCreate(FakeEvent **event, unsigned) {
  ++state.liveEvents;
  *event = new FakeEvent();
  return 0;
}

FAKE_API CUresult cuEventDestroy_v2(FakeEvent *event) {
  --state.liveEvents;
  delete event;
  return 0;
}

FAKE_API CUresult cuEventRecord(FakeEvent *event, FakeStream *) {
  if (event)
    event->nvrtcLaunches = state.nvrtcLaunches;
  return 0;
}

FAKE_API CUresult cuEventSynchronize(FakeEvent *) { return state.sticky; }

FAKE_API CUresult cuEventElapsedTime(float *milliseconds, FakeEvent *start,
                                     FakeEvent *end) {
  const char *value = std::getenv("TILE_FAKE_CUDA_EVENT_MS");
  *milliseconds = value && *value ? std::strtof(value, nullptr) : 0.25f;
  // Each fake NVRTC kernel launched between the two records takes its time.
  const char *nvrtc = std::getenv("TILE_FAKE_CUDA_NVRTC_MS");
  if (nvrtc && *nvrtc && start && end)
    *milliseconds +=
        static_cast<float>(end->nvrtcLaunches - start->nvrtcLaunches) *
        std::strtof(nvrtc, nullptr);
  return 0;
}
