//===- DriverTest.cpp - Loading and launching through the driver ----------===//
//
// Without a GPU: a missing driver, a library that is not a driver, and a
// fake driver (FakeCudaDriver.cpp) that emulates the GPU on the host, to
// check what the runtime asks of the driver and how it words failures.
//
//===----------------------------------------------------------------------===//

#include "Artifact.h"
#include "HalfPrecision.h"
#include "TestUtils.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <memory>

using namespace tile::runtime;
using namespace tile::test;

namespace {

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

TEST(NoDriverTest, LibraryNameIsOverridable) {
  {
    ScopedEnv env("TILE_CUDA_DRIVER_LIBRARY", nullptr);
    EXPECT_EQ(getCudaDriverLibraryName(), "libcuda.so.1");
  }
  {
    ScopedEnv env("TILE_CUDA_DRIVER_LIBRARY", "");
    EXPECT_EQ(getCudaDriverLibraryName(), "libcuda.so.1");
  }
  ScopedEnv env("TILE_CUDA_DRIVER_LIBRARY", "/opt/x/libcuda.so.1");
  EXPECT_EQ(getCudaDriverLibraryName(), "/opt/x/libcuda.so.1");
}

TEST(NoDriverTest, MissingDriverLibrary) {
  ScopedEnv env("TILE_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1");
  tile_artifact *artifact = nullptr;
  std::string path = fixturePath("tile_test_matmul_fill.json");
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS);
  tile_kernel *kernel = reinterpret_cast<tile_kernel *>(1);
  EXPECT_EQ(tile_kernel_load(artifact, nullptr, &kernel), TILE_ERROR_NO_DRIVER);
  EXPECT_EQ(kernel, nullptr);
  std::string error = tile_last_error();
  EXPECT_TRUE(startsWith(error, "no NVIDIA driver found "
                                "(/nonexistent/libcuda.so.1 could not be "
                                "loaded: "))
      << error;
  EXPECT_NE(error.find("No such file or directory"), std::string::npos)
      << error;
  EXPECT_EQ(error.back(), ')');
  tile_artifact_close(artifact);
}

TEST(NoDriverTest, LibraryThatIsNotADriver) {
  ScopedEnv env("TILE_CUDA_DRIVER_LIBRARY", "libm.so.6");
  tile_artifact *artifact = nullptr;
  std::string path = fixturePath("tile_test_matmul_fill.json");
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS);
  tile_kernel *kernel = nullptr;
  EXPECT_EQ(tile_kernel_load(artifact, nullptr, &kernel),
            TILE_ERROR_DRIVER_TOO_OLD);
  EXPECT_STREQ(tile_last_error(),
               "the NVIDIA driver library libm.so.6 has no entry point "
               "'cuInit': the driver is too old or this is not libcuda");
  tile_artifact_close(artifact);
}

/// Controls exported by the fake driver.
struct FakeControls {
  void (*reset)();
  int (*primaryRefs)();
  long (*liveAllocations)();
  int (*liveModules)();
  int (*launches)();
  int (*maxDynamicShared)();
  void (*lastLaunch)(unsigned *, unsigned *, unsigned *, unsigned long long *);
  int (*launchesEx)();
  void (*lastCluster)(unsigned *, unsigned *);
  int (*lastParamCount)();
  long (*lastParam)(int, void *, size_t);
  int (*tensorMapsEncoded)();
  int (*nonPortableCluster)();
  int (*asyncAllocations)();
  int (*copies2D)(size_t *);
  CUresult (*setCurrent)(CUcontext);
  CUresult (*getCurrent)(CUcontext *);
};

/// The words the fake cuTensorMapEncodeTiled writes (FakeCudaDriver.cpp).
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
constexpr uint64_t kFakeTensorMapMagic = 0x54454e534f524d41ull;

/// Dimension `i` of a word that holds one per 16 bits (kMapBoxDims,
/// kMapElementStrides).
uint64_t fakeMapDim(uint64_t word, int i) { return word >> (16 * i) & 0xffff; }

class FakeDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (const auto &entry : getFakeDriverDefaults())
      defaults.push_back(
          std::make_unique<ScopedEnv>(entry.first.c_str(), entry.second));
    // The runtime dlopens the same path and gets the same handle.
    handle = dlopen(TILE_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    bind(fake.reset, "tileFakeCudaReset");
    bind(fake.primaryRefs, "tileFakeCudaPrimaryRefs");
    bind(fake.liveAllocations, "tileFakeCudaLiveAllocations");
    bind(fake.liveModules, "tileFakeCudaLiveModules");
    bind(fake.launches, "tileFakeCudaLaunches");
    bind(fake.maxDynamicShared, "tileFakeCudaMaxDynamicShared");
    bind(fake.lastLaunch, "tileFakeCudaLastLaunch");
    bind(fake.launchesEx, "tileFakeCudaLaunchesEx");
    bind(fake.lastCluster, "tileFakeCudaLastCluster");
    bind(fake.lastParamCount, "tileFakeCudaLastParamCount");
    bind(fake.lastParam, "tileFakeCudaLastParam");
    bind(fake.tensorMapsEncoded, "tileFakeCudaTensorMapsEncoded");
    bind(fake.nonPortableCluster, "tileFakeCudaNonPortableCluster");
    bind(fake.asyncAllocations, "tileFakeCudaAsyncAllocations");
    bind(fake.copies2D, "tileFakeCudaCopies2D");
    bind(fake.setCurrent, "cuCtxSetCurrent");
    bind(fake.getCurrent, "cuCtxGetCurrent");
    fake.reset();
    open("tile_test_matmul_fill.json");
  }

  void TearDown() override {
    tile_artifact_close(artifact);
    if (handle)
      dlclose(handle);
  }

  template <typename Function> void bind(Function &function, const char *name) {
    function = reinterpret_cast<Function>(dlsym(handle, name));
    ASSERT_NE(function, nullptr) << name;
  }

  void open(const std::string &manifest) {
    tile_artifact_close(artifact);
    artifact = nullptr;
    std::string path = manifest.find('/') == std::string::npos
                           ? fixturePath(manifest)
                           : manifest;
    ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS)
        << tile_last_error();
  }

  /// Loads, expecting `status`; on failure checks that nothing leaked.
  tile_kernel *load(int status, const tile_load_options *options = nullptr) {
    tile_kernel *kernel = nullptr;
    EXPECT_EQ(tile_kernel_load(artifact, options, &kernel), status)
        << tile_last_error();
    if (status != TILE_SUCCESS) {
      EXPECT_EQ(kernel, nullptr);
      EXPECT_EQ(fake.primaryRefs(), 0);
      EXPECT_EQ(fake.liveModules(), 0);
    }
    return kernel;
  }

  ScopedEnv driver{"TILE_CUDA_DRIVER_LIBRARY", TILE_FAKE_CUDA_DRIVER};
  std::vector<std::unique_ptr<ScopedEnv>> defaults;
  void *handle = nullptr;
  FakeControls fake = {};
  tile_artifact *artifact = nullptr;
};

TEST_F(FakeDriverTest, LoadLaunchUnload) {
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  tile_load_info info;
  ASSERT_EQ(tile_kernel_get_load_info(kernel, &info), TILE_SUCCESS);
  EXPECT_EQ(info.device, 0);
  EXPECT_STREQ(info.device_name, "Fake GPU");
  EXPECT_EQ(info.compute_major, 9);
  EXPECT_EQ(info.compute_minor, 0);
  EXPECT_EQ(info.driver_version, 13000);
  EXPECT_STREQ(info.binary_format, "ptx");
  EXPECT_EQ(std::string(info.binary_path), fixturePath("naive_matmul.ptx"));
  EXPECT_EQ(info.registers, 40);
  EXPECT_EQ(info.max_threads_per_block, 1024);
  EXPECT_EQ(fake.primaryRefs(), 1);
  EXPECT_EQ(fake.liveModules(), 1);
  // 0 bytes of dynamic shared memory: no opt-in needed.
  EXPECT_EQ(fake.maxDynamicShared(), 0);

  // The kernel keeps what it needs: the artifact may go first.
  tile_artifact_close(artifact);
  artifact = nullptr;

  tile_buffer args[3] = {
      {0x10000, 96 * 72 * 4}, {0x20000, 72 * 80 * 4}, {0x30000, 96 * 80 * 4}};
  // Launch from a thread state where another context (none) is current.
  fake.setCurrent(nullptr);
  int stream = 0;
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, &stream), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.launches(), 1);
  unsigned grid[3], block[3], shared;
  unsigned long long pointers[3];
  fake.lastLaunch(grid, block, &shared, pointers);
  EXPECT_EQ(grid[0], 5u);
  EXPECT_EQ(grid[1], 6u);
  EXPECT_EQ(grid[2], 1u);
  EXPECT_EQ(block[0], 16u);
  EXPECT_EQ(block[1], 16u);
  EXPECT_EQ(block[2], 1u);
  EXPECT_EQ(shared, 0u);
  EXPECT_EQ(pointers[0], 0x10000u);
  EXPECT_EQ(pointers[1], 0x20000u);
  EXPECT_EQ(pointers[2], 0x30000u);
  // No cluster: the plain launch, with the three pointers only.
  EXPECT_EQ(fake.launchesEx(), 0);
  EXPECT_EQ(fake.lastParamCount(), 3);
  EXPECT_EQ(fake.tensorMapsEncoded(), 0);
  CUcontext current = nullptr;
  fake.getCurrent(&current);
  EXPECT_EQ(current, info.context);

  // Bad arguments never reach the driver.
  EXPECT_EQ(tile_kernel_launch(kernel, args, 2, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(), "kernel tile_test_matmul_fill takes 3 "
                                  "arguments (A, B, C), got 2");
  args[2].size_bytes -= 1;
  EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_EQ(fake.launches(), 1);

  tile_kernel_unload(kernel);
  EXPECT_EQ(fake.primaryRefs(), 0);
  EXPECT_EQ(fake.liveModules(), 0);
}

TEST_F(FakeDriverTest, BatchedKernelRunsItsBatchOnGridY) {
  // The fill fixture as a batch of 3 (each operand's matrices 8 elements
  // apart past their end, which keeps their 16-byte alignment): one launch
  // with grid y 3, which the fake kernel computes matrix by matrix.
  TempDir dir;
  std::string path = writeBatchedFixture(dir, "tile_test_matmul_fill", 3, 8);
  ASSERT_FALSE(path.empty());
  open(path);
  const int64_t m = 96, n = 80, k = 72, batch = 3;
  const int64_t bsA = m * k + 8, bsB = k * n + 8, bsC = m * n + 8;
  ScopedEnv spec("TILE_FAKE_CUDA_MATMUL", "96 80 72 fill 0 72 1 80 1 80 1");
  std::string strides = std::to_string(bsA) + " " + std::to_string(bsB) + " " +
                        std::to_string(bsC);
  ScopedEnv batched("TILE_FAKE_CUDA_BATCH", strides.c_str());
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  std::vector<float> a((batch - 1) * bsA + m * k), b((batch - 1) * bsB + k * n),
      c((batch - 1) * bsC + m * n, -7.0f);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(i % 7) - 3;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<float>(i % 5) - 2;
  auto pointer = [](const std::vector<float> &values) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(values.data()));
  };
  tile_buffer args[3] = {{pointer(a), a.size() * 4},
                         {pointer(b), b.size() * 4},
                         {pointer(c), c.size() * 4}};
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  unsigned grid[3], block[3], shared;
  unsigned long long pointers[3];
  fake.lastLaunch(grid, block, &shared, pointers);
  EXPECT_EQ(grid[0], 5u);
  EXPECT_EQ(grid[1], 3u);
  EXPECT_EQ(grid[2], 1u);
  // Every matrix of C is A[l] * B[l]; the gaps between them stay.
  for (int64_t l = 0; l < batch; ++l)
    for (int64_t i = 0; i < m; i += 19)
      for (int64_t j = 0; j < n; j += 13) {
        float sum = 0;
        for (int64_t kk = 0; kk < k; ++kk)
          sum += a[l * bsA + i * k + kk] * b[l * bsB + kk * n + j];
        EXPECT_EQ(c[l * bsC + i * n + j], sum) << l << " " << i << " " << j;
      }
  EXPECT_EQ(c[m * n], -7.0f);
  EXPECT_EQ(c[bsC + m * n + 4], -7.0f);
  // A buffer of one matrix is refused before the driver.
  args[1].size_bytes = k * n * 4;
  EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_EQ(fake.launches(), 1);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, NoDevice) {
  ScopedEnv init("TILE_FAKE_CUDA_INIT_RESULT", "100");
  load(TILE_ERROR_NO_DEVICE);
  EXPECT_STREQ(tile_last_error(),
               "no CUDA-capable GPU (cuInit: CUDA_ERROR_NO_DEVICE: no "
               "CUDA-capable device is detected)");
}

TEST_F(FakeDriverTest, ZeroDevices) {
  ScopedEnv devices("TILE_FAKE_CUDA_DEVICES", "0");
  load(TILE_ERROR_NO_DEVICE);
  EXPECT_STREQ(tile_last_error(),
               "no CUDA-capable GPU (the driver sees no device)");
}

TEST_F(FakeDriverTest, DeviceOutOfRange) {
  tile_load_options options = {3, TILE_BINARY_AUTO};
  load(TILE_ERROR_INVALID_ARGUMENT, &options);
  EXPECT_STREQ(tile_last_error(), "device 3 does not exist (1 CUDA device "
                                  "found)");
}

TEST_F(FakeDriverTest, WrongChip) {
  ScopedEnv cc("TILE_FAKE_CUDA_CC", "80");
  load(TILE_ERROR_WRONG_DEVICE);
  EXPECT_STREQ(tile_last_error(), "artifact built for sm_90 but device 0 is "
                                  "sm_80 (Fake GPU): its PTX does not run "
                                  "there");
}

TEST_F(FakeDriverTest, DriverTooOldForPtx) {
  ScopedEnv version("TILE_FAKE_CUDA_DRIVER_VERSION", "11080");
  load(TILE_ERROR_DRIVER_TOO_OLD);
  EXPECT_STREQ(tile_last_error(),
               "the NVIDIA driver supports CUDA 11.8 (driver API 11080) but "
               "the kernel's PTX (ISA 8.0) needs CUDA 12.0 or newer: update "
               "the driver");
}

TEST_F(FakeDriverTest, PtxRejectedWithJitLog) {
  ScopedEnv result("TILE_FAKE_CUDA_LOAD_RESULT", "218");
  load(TILE_ERROR_LOAD_FAILED);
  EXPECT_EQ(std::string(tile_last_error()),
            "'" + fixturePath("naive_matmul.ptx") +
                "': the driver's JIT compiler rejected the PTX "
                "[CUDA_ERROR_INVALID_PTX: fake driver error]; JIT log: ptxas "
                "fatal   : fake JIT failure");
}

TEST_F(FakeDriverTest, UnsupportedPtxVersion) {
  ScopedEnv result("TILE_FAKE_CUDA_LOAD_RESULT", "222");
  load(TILE_ERROR_DRIVER_TOO_OLD);
  EXPECT_NE(std::string(tile_last_error())
                .find("the driver (CUDA 13.0) does not support PTX ISA 8.0: "
                      "update the NVIDIA driver"),
            std::string::npos)
      << tile_last_error();
}

TEST_F(FakeDriverTest, NoBinaryForGpu) {
  ScopedEnv result("TILE_FAKE_CUDA_LOAD_RESULT", "209");
  load(TILE_ERROR_LOAD_FAILED);
  EXPECT_NE(std::string(tile_last_error())
                .find("the PTX has no code this GPU can run (built for "
                      "sm_90)"),
            std::string::npos)
      << tile_last_error();
}

TEST_F(FakeDriverTest, KernelNotInBinary) {
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  std::string text = readFile(fixturePath("tile_test_matmul_fill.json"));
  text.replace(text.find("\"tile_test_matmul_fill\""), 23, "\"matmul_x\"");
  writeFile(dir.file("matmul_x.json"), text);
  open(dir.file("matmul_x.json"));
  load(TILE_ERROR_LOAD_FAILED);
  EXPECT_EQ(std::string(tile_last_error()),
            "manifest names kernel 'matmul_x' but the binary '" +
                dir.file("naive_matmul.ptx") +
                "' has no such entry: the manifest does not match the "
                "binary");
}

TEST_F(FakeDriverTest, LargeSharedMemoryIsOptedIn) {
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  std::string text = readFile(fixturePath("tile_test_matmul_fill.json"));
  std::string from = "\"dynamic_shared_bytes\": 0";
  text.replace(text.find(from), from.size(),
               "\"dynamic_shared_bytes\": 100000");
  writeFile(dir.file("big.json"), text);
  open(dir.file("big.json"));
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(fake.maxDynamicShared(), 100000);
  tile_buffer args[3] = {
      {0x10000, 96 * 72 * 4}, {0x20000, 72 * 80 * 4}, {0x30000, 96 * 80 * 4}};
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS);
  unsigned grid[3], block[3], shared;
  unsigned long long pointers[3];
  fake.lastLaunch(grid, block, &shared, pointers);
  EXPECT_EQ(shared, 100000u);
  tile_kernel_unload(kernel);

  text.replace(text.find("100000"), 6, "300000");
  writeFile(dir.file("big.json"), text);
  open(dir.file("big.json"));
  load(TILE_ERROR_WRONG_DEVICE);
  EXPECT_STREQ(tile_last_error(), "kernel tile_test_matmul_fill needs 300000 "
                                  "bytes of dynamic shared memory but device "
                                  "0 allows at most 232448 per block");
}

TEST_F(FakeDriverTest, TooManyThreadsForTheCompiledKernel) {
  ScopedEnv limit("TILE_FAKE_CUDA_MAX_THREADS", "128");
  load(TILE_ERROR_LOAD_FAILED);
  EXPECT_STREQ(tile_last_error(), "kernel 'tile_test_matmul_fill' can run at "
                                  "most 128 threads per block (it uses 40 "
                                  "registers per thread) but the manifest "
                                  "launches 256");
}

TEST_F(FakeDriverTest, LaunchFailureIsWorded) {
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  ScopedEnv result("TILE_FAKE_CUDA_LAUNCH_RESULT", "701");
  tile_buffer args[3] = {
      {0x10000, 96 * 72 * 4}, {0x20000, 72 * 80 * 4}, {0x30000, 96 * 80 * 4}};
  EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr),
            TILE_ERROR_LAUNCH_FAILED);
  EXPECT_STREQ(tile_last_error(),
               "cuLaunchKernel failed for kernel tile_test_matmul_fill (grid "
               "5x6x1, block 16x16x1, 0 bytes of dynamic shared memory): "
               "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources "
               "requested for launch");
  tile_kernel_unload(kernel);
  EXPECT_EQ(fake.primaryRefs(), 0);
}

TEST_F(FakeDriverTest, ForcedBinaryChoice) {
  tile_load_options options = {0, TILE_BINARY_CUBIN};
  load(TILE_ERROR_INVALID_ARGUMENT, &options);
  EXPECT_STREQ(tile_last_error(), "the artifact has no cubin to load");
  options.binary = TILE_BINARY_PTX;
  tile_kernel *kernel = load(TILE_SUCCESS, &options);
  ASSERT_NE(kernel, nullptr);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, TwoKernelsShareThePrimaryContext) {
  tile_kernel *first = load(TILE_SUCCESS);
  tile_kernel *second = load(TILE_SUCCESS);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  tile_load_info a, b;
  tile_kernel_get_load_info(first, &a);
  tile_kernel_get_load_info(second, &b);
  EXPECT_EQ(a.context, b.context);
  EXPECT_EQ(fake.primaryRefs(), 2);
  tile_kernel_unload(first);
  EXPECT_EQ(fake.primaryRefs(), 1);
  tile_kernel_unload(second);
  EXPECT_EQ(fake.primaryRefs(), 0);
  EXPECT_EQ(fake.liveModules(), 0);
}

//===----------------------------------------------------------------------===//
// Tensor maps and clusters
//===----------------------------------------------------------------------===//

/// The bytes of parameter `index` of the last launch as 16 words.
std::vector<uint64_t> lastParamWords(const FakeControls &fake, int index) {
  std::vector<uint64_t> words(16, 0);
  EXPECT_EQ(fake.lastParam(index, words.data(), 128), 128) << index;
  return words;
}

/// The buffers of the bf16 fixture (A 96x72, B 72x80, C 96x80, bf16), at
/// 256-byte aligned fake addresses (the fake encodes without reading them).
const tile_buffer kBf16Args[3] = {
    {0x100000, 96 * 72 * 2}, {0x200000, 72 * 80 * 2}, {0x300000, 96 * 80 * 2}};

TEST_F(FakeDriverTest, TensorMapsArePassedByValueAfterThePointers) {
  open("tile_test_matmul_bf16_tma.json");
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  // 2 blocks per cluster: portable, no opt-in.
  EXPECT_EQ(fake.nonPortableCluster(), 0);
  ASSERT_EQ(tile_kernel_launch(kernel, kBf16Args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.tensorMapsEncoded(), 2);
  ASSERT_EQ(fake.lastParamCount(), 5);
  for (int i = 0; i < 3; ++i) {
    unsigned long long pointer = 0;
    EXPECT_EQ(fake.lastParam(i, &pointer, sizeof(pointer)), 8);
    EXPECT_EQ(pointer, kBf16Args[i].device_ptr) << i;
  }
  // Map 0 views A (96x72, rows 144 bytes apart) in 16x16 boxes, L2 128B;
  // map 1 views B (72x80, rows 160 bytes apart), L2 none. Innermost first.
  struct Expected {
    uint64_t address, dim0, dim1, stride, l2;
  } expected[2] = {{0x100000, 72, 96, 144, 2}, {0x200000, 80, 72, 160, 0}};
  for (int m = 0; m < 2; ++m) {
    std::vector<uint64_t> map = lastParamWords(fake, 3 + m);
    EXPECT_EQ(map[kMapMagic], kFakeTensorMapMagic) << m;
    EXPECT_EQ(map[kMapDataType], 9u) << m; // BFLOAT16
    EXPECT_EQ(map[kMapRank], 2u) << m;
    EXPECT_EQ(map[kMapAddress], expected[m].address) << m;
    EXPECT_EQ(map[kMapDim0], expected[m].dim0) << m;
    EXPECT_EQ(map[kMapDim1], expected[m].dim1) << m;
    EXPECT_EQ(map[kMapStride0], expected[m].stride) << m;
    EXPECT_EQ(map[kMapDim2], 0u) << m;
    EXPECT_EQ(map[kMapStride1], 0u) << m;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 0), 16u) << m;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 1), 16u) << m;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 2), 0u) << m;
    EXPECT_EQ(fakeMapDim(map[kMapElementStrides], 0), 1u) << m;
    EXPECT_EQ(fakeMapDim(map[kMapElementStrides], 1), 1u) << m;
    EXPECT_EQ(fakeMapDim(map[kMapElementStrides], 2), 0u) << m;
    EXPECT_EQ(map[kMapInterleave], 0u) << m;
    EXPECT_EQ(map[kMapSwizzle], 0u) << m;
    EXPECT_EQ(map[kMapL2Promotion], expected[m].l2) << m;
    EXPECT_EQ(map[kMapOobFill], 0u) << m;
    EXPECT_EQ(map[kMapSequence], uint64_t(m + 1)) << m;
  }
  // Clusters of 1x2x1: through cuLaunchKernelEx with the one attribute.
  EXPECT_EQ(fake.launchesEx(), 1);
  unsigned cluster[3], numAttrs = 0;
  fake.lastCluster(cluster, &numAttrs);
  EXPECT_EQ(numAttrs, 1u);
  EXPECT_EQ(cluster[0], 1u);
  EXPECT_EQ(cluster[1], 2u);
  EXPECT_EQ(cluster[2], 1u);
  unsigned grid[3], block[3], shared;
  unsigned long long pointers[3];
  fake.lastLaunch(grid, block, &shared, pointers);
  EXPECT_EQ(grid[0], 5u);
  EXPECT_EQ(grid[1], 6u);
  EXPECT_EQ(block[0], 16u);
  EXPECT_EQ(shared, 0u);

  // Each launch encodes the maps anew, from the buffers it is given.
  tile_buffer moved[3] = {kBf16Args[0], kBf16Args[1], kBf16Args[2]};
  moved[1].device_ptr = 0x280010;
  ASSERT_EQ(tile_kernel_launch(kernel, moved, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.tensorMapsEncoded(), 4);
  EXPECT_EQ(lastParamWords(fake, 4)[kMapAddress], 0x280010u);
  EXPECT_EQ(lastParamWords(fake, 3)[kMapAddress], 0x100000u);

  // A base the TMA cannot read from never reaches the driver.
  moved[0].device_ptr = 0x100008;
  EXPECT_EQ(tile_kernel_launch(kernel, moved, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(), "argument 0 (A) at 0x100008 is not aligned "
                                  "to 16 bytes, as the kernel assumes");
  EXPECT_EQ(fake.launches(), 2);
  tile_kernel_unload(kernel);
}

/// The bf16 fixture with K = 71: A's rows are 142 bytes, which the TMA
/// cannot read; its map views a copy with rows of 72 elements (144 bytes).
/// B's rows (80 elements) stay as they are.
KernelManifest repackedManifest() {
  KernelManifest m;
  std::string error;
  EXPECT_TRUE(parseManifestJson(
      readFile(fixturePath("tile_test_matmul_bf16_tma.json")), m, error))
      << error;
  m.problem.k = 71;
  m.params[0].cols = m.params[0].rowStride = 71;
  m.params[0].alignment = 2;
  m.params[1].rows = 71;
  m.params[2].elementType = ElementType::F32;
  m.tensorMaps[0].repackRowStride = 72;
  m.config.repack = true;
  return m;
}

TEST_F(FakeDriverTest, RepackedOperandIsCopiedBeforeTheLaunch) {
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  KernelManifest manifest = repackedManifest();
  std::string error;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  writeFile(dir.file("repacked.json"), writeManifestJson(manifest));
  open(dir.file("repacked.json"));
  tile_kernel_info info;
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  ASSERT_EQ(info.num_tensor_maps, 2u);
  EXPECT_EQ(info.tensor_maps[0].repack_row_stride, 72);
  EXPECT_EQ(info.tensor_maps[1].repack_row_stride, 0);
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  // Random bf16 inputs in host memory (the fake's device memory); A starts
  // 2 bytes into its allocation: a repacked param needs only element
  // alignment.
  const int m = 96, n = 80, k = 71;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<uint16_t> a(m * k + 1), b(k * n);
  for (uint16_t &x : a)
    x = tile::run::floatToBf16(dist(rng));
  for (uint16_t &x : b)
    x = tile::run::floatToBf16(dist(rng));
  std::vector<float> c(m * n, std::nanf(""));
  tile_buffer args[3] = {
      {reinterpret_cast<uint64_t>(a.data() + 1), uint64_t(m) * k * 2},
      {reinterpret_cast<uint64_t>(b.data()), uint64_t(k) * n * 2},
      {reinterpret_cast<uint64_t>(c.data()), uint64_t(m) * n * 4}};
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 80 71 fill 0 71 1 80 1 80 1 bf16 f32");
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();

  // One stream-ordered buffer, one 2-d copy (A only), freed again.
  EXPECT_EQ(fake.asyncAllocations(), 1);
  size_t last[4];
  EXPECT_EQ(fake.copies2D(last), 1);
  EXPECT_EQ(last[0], 142u); // source pitch
  EXPECT_EQ(last[1], 144u); // destination pitch
  EXPECT_EQ(last[2], 142u); // width
  EXPECT_EQ(last[3], 96u);  // rows
  EXPECT_EQ(fake.liveAllocations(), 0);
  // Map 0 views the copy (not A's buffer), rows 144 bytes apart, K = 71
  // wide; map 1 views B in place.
  std::vector<uint64_t> mapA = lastParamWords(fake, 3);
  EXPECT_NE(mapA[kMapAddress], args[0].device_ptr);
  EXPECT_EQ(mapA[kMapAddress] % 256, 0u);
  EXPECT_EQ(mapA[kMapStride0], 144u);
  EXPECT_EQ(mapA[kMapDim0], 71u);
  EXPECT_EQ(mapA[kMapDim1], 96u);
  std::vector<uint64_t> mapB = lastParamWords(fake, 4);
  EXPECT_EQ(mapB[kMapAddress], args[1].device_ptr);
  EXPECT_EQ(mapB[kMapStride0], 160u);
  // The pointers the kernel gets are the caller's.
  unsigned long long pointer = 0;
  fake.lastParam(0, &pointer, sizeof(pointer));
  EXPECT_EQ(pointer, args[0].device_ptr);

  // The fake kernel read A through the map: C is A * B.
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int kk = 0; kk < k; ++kk)
        sum = std::fma(tile::run::bf16ToFloat(a[1 + i * k + kk]),
                       tile::run::bf16ToFloat(b[kk * n + j]), sum);
      wrong += c[i * n + j] != sum;
    }
  EXPECT_EQ(wrong, 0);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, FmaKernelReadsTheRepackedCopyOfB) {
  // An fma kernel with repack = true: N = 77 (B's rows 308 bytes, off 16),
  // so the kernel reads a copy of B with rows of 80 elements (320 bytes):
  // its B pointer is the copy, A and C are the caller's.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifestJson(
      readFile(fixturePath("tile_test_matmul_fill.json")), manifest, error))
      << error;
  const int m = 96, n = 77, k = 72;
  manifest.problem.n = n;
  manifest.params[1].cols = manifest.params[1].rowStride = n;
  manifest.params[1].alignment = 4;
  manifest.params[1].repackRowStride = 80;
  manifest.params[2].cols = manifest.params[2].rowStride = n;
  manifest.params[2].alignment = 4;
  manifest.config.repack = true;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  writeFile(dir.file("fma_repacked.json"), writeManifestJson(manifest));
  open(dir.file("fma_repacked.json"));
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1, 1);
  // B starts 4 bytes into its allocation: the caller's B needs only
  // element alignment.
  std::vector<float> a(m * k), b(k * n + 1), c(m * n, std::nanf(""));
  for (float &x : a)
    x = dist(rng);
  for (float &x : b)
    x = dist(rng);
  tile_buffer args[3] = {
      {reinterpret_cast<uint64_t>(a.data()), uint64_t(m) * k * 4},
      {reinterpret_cast<uint64_t>(b.data() + 1), uint64_t(k) * n * 4},
      {reinterpret_cast<uint64_t>(c.data()), uint64_t(m) * n * 4}};
  // The fake kernel reads B at its pointer with rows 80 apart: only the
  // copy has them.
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL", "96 77 72 fill 0 72 1 80 1 77 1");
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.asyncAllocations(), 1);
  size_t last[4];
  EXPECT_EQ(fake.copies2D(last), 1);
  EXPECT_EQ(last[0], 308u); // source pitch
  EXPECT_EQ(last[1], 320u); // destination pitch
  EXPECT_EQ(last[2], 308u); // width
  EXPECT_EQ(last[3], 72u);  // rows
  EXPECT_EQ(fake.liveAllocations(), 0);
  unsigned long long pointer = 0;
  fake.lastParam(1, &pointer, sizeof(pointer));
  EXPECT_NE(pointer, args[1].device_ptr);
  EXPECT_EQ(pointer % 256, 0u);
  fake.lastParam(0, &pointer, sizeof(pointer));
  EXPECT_EQ(pointer, args[0].device_ptr);
  fake.lastParam(2, &pointer, sizeof(pointer));
  EXPECT_EQ(pointer, args[2].device_ptr);
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int kk = 0; kk < k; ++kk)
        sum = std::fma(a[i * k + kk], b[1 + kk * n + j], sum);
      wrong += c[i * n + j] != sum;
    }
  EXPECT_EQ(wrong, 0);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, TensorMapsStartAtTheOffsets) {
  // Strided params with offsets: B's map (in place) starts 8 elements (16
  // bytes) into B's buffer; A (K = 71, repacked) is copied from 3 elements
  // into its buffer. The fake kernel reads both through the maps.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  KernelManifest manifest = repackedManifest();
  manifest.params[0].offset = 3;
  manifest.params[1].offset = 8;
  std::string error;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  writeFile(dir.file("offsets.json"), writeManifestJson(manifest));
  open(dir.file("offsets.json"));
  tile_kernel_info info;
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  EXPECT_EQ(info.params[0].offset, 3);
  EXPECT_EQ(info.params[1].offset, 8);
  EXPECT_EQ(info.params[2].offset, 0);
  EXPECT_EQ(info.params[1].required_bytes, uint64_t(8 + 71 * 80) * 2);
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  const int m = 96, n = 80, k = 71;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1, 1);
  // NaN before each matrix: read by mistake, it would show in C.
  std::vector<uint16_t> a(3 + m * k, 0x7fc0), b(8 + k * n, 0x7fc0);
  for (size_t i = 3; i < a.size(); ++i)
    a[i] = tile::run::floatToBf16(dist(rng));
  for (size_t i = 8; i < b.size(); ++i)
    b[i] = tile::run::floatToBf16(dist(rng));
  std::vector<float> c(m * n, std::nanf(""));
  tile_buffer args[3] = {
      {reinterpret_cast<uint64_t>(a.data()), a.size() * 2},
      {reinterpret_cast<uint64_t>(b.data()), b.size() * 2},
      {reinterpret_cast<uint64_t>(c.data()), uint64_t(m) * n * 4}};
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 80 71 fill 0 71 1 80 1 80 1 bf16 f32");
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  std::vector<uint64_t> mapB = lastParamWords(fake, 4);
  EXPECT_EQ(mapB[kMapAddress], args[1].device_ptr + 16);
  // The kernel itself gets the buffers' starts (it adds the offsets).
  unsigned long long pointer = 0;
  fake.lastParam(1, &pointer, sizeof(pointer));
  EXPECT_EQ(pointer, args[1].device_ptr);
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int kk = 0; kk < k; ++kk)
        sum = std::fma(tile::run::bf16ToFloat(a[3 + i * k + kk]),
                       tile::run::bf16ToFloat(b[8 + kk * n + j]), sum);
      wrong += c[i * n + j] != sum;
    }
  EXPECT_EQ(wrong, 0);
  // A buffer without room for the offset is refused.
  args[1].size_bytes = uint64_t(k) * n * 2;
  EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_NE(std::string(tile_last_error()).find(", offset 8) needs 11376 "
                                                "bytes, the buffer holds "
                                                "11360"),
            std::string::npos)
      << tile_last_error();
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, BothOperandsRepacked) {
  // K = 71 and N = 77: A's rows are 142 bytes and B's 154; both maps view
  // copies (72 and 80 elements a row) in one buffer, each copy on a
  // 256-byte boundary.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  KernelManifest manifest = repackedManifest();
  manifest.problem.n = 77;
  manifest.params[1].cols = manifest.params[1].rowStride = 77;
  manifest.params[1].alignment = 2;
  manifest.params[2].cols = manifest.params[2].rowStride = 77;
  manifest.tensorMaps[1].repackRowStride = 80;
  std::string error;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  writeFile(dir.file("repacked.json"), writeManifestJson(manifest));
  open(dir.file("repacked.json"));
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  const int m = 96, n = 77, k = 71;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<uint16_t> a(m * k), b(k * n + 1);
  for (uint16_t &x : a)
    x = tile::run::floatToBf16(dist(rng));
  for (uint16_t &x : b)
    x = tile::run::floatToBf16(dist(rng));
  std::vector<float> c(m * n, std::nanf(""));
  tile_buffer args[3] = {
      {reinterpret_cast<uint64_t>(a.data()), uint64_t(m) * k * 2},
      {reinterpret_cast<uint64_t>(b.data() + 1), uint64_t(k) * n * 2},
      {reinterpret_cast<uint64_t>(c.data()), uint64_t(m) * n * 4}};
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 77 71 fill 0 71 1 77 1 77 1 bf16 f32");
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.asyncAllocations(), 1);
  size_t last[4];
  EXPECT_EQ(fake.copies2D(last), 2);
  EXPECT_EQ(last[0], 154u); // B: source pitch
  EXPECT_EQ(last[1], 160u); // destination pitch
  EXPECT_EQ(last[2], 154u); // width
  EXPECT_EQ(last[3], 71u);  // rows
  EXPECT_EQ(fake.liveAllocations(), 0);
  std::vector<uint64_t> mapA = lastParamWords(fake, 3);
  std::vector<uint64_t> mapB = lastParamWords(fake, 4);
  EXPECT_EQ(mapA[kMapStride0], 144u);
  EXPECT_EQ(mapB[kMapStride0], 160u);
  EXPECT_EQ(mapB[kMapDim0], 77u);
  EXPECT_EQ(mapB[kMapDim1], 71u);
  // B's copy follows A's (96 rows of 144 bytes = 13824, a multiple of 256).
  EXPECT_EQ(mapB[kMapAddress] - mapA[kMapAddress], 13824u);
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int kk = 0; kk < k; ++kk)
        sum = std::fma(tile::run::bf16ToFloat(a[i * k + kk]),
                       tile::run::bf16ToFloat(b[1 + kk * n + j]), sum);
      wrong += c[i * n + j] != sum;
    }
  EXPECT_EQ(wrong, 0);
  tile_kernel_unload(kernel);
}

/// `manifest` as a batched kernel of `batch` matrices (grid y), matrix b of
/// A, B and C at b times `strides` (elements), its maps batched; validated
/// and written to `dir` beside the fixture's PTX. Returns the manifest's
/// path (empty on failure).
std::string writeBatchedManifest(const TempDir &dir, KernelManifest manifest,
                                 int64_t batch, const int64_t (&strides)[3]) {
  manifest.problem.batch = batch;
  manifest.launch.grid[1] = static_cast<uint32_t>(batch);
  for (int i = 0; i < 3; ++i)
    manifest.params[i].batchStride = strides[i];
  for (TensorMapInfo &map : manifest.tensorMaps)
    map.batched = true;
  std::string error;
  EXPECT_TRUE(validateManifest(manifest, error)) << error;
  std::string path = dir.file("batched.json");
  if (!writeFile(dir.file("naive_matmul.ptx"),
                 readFile(fixturePath("naive_matmul.ptx"))) ||
      !writeFile(path, writeManifestJson(manifest)))
    return "";
  return path;
}

/// Random bf16 values, NaN in every element no matrix of `rows` x `cols`
/// (`rowStride` apart) `batchStride` apart holds: read by mistake, it would
/// show in C.
std::vector<uint16_t> batchedBf16(int64_t batch, int64_t batchStride,
                                  int64_t rows, int64_t cols, int64_t rowStride,
                                  unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<uint16_t> values((batch - 1) * batchStride + rows * rowStride,
                               0x7fc0);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        values[b * batchStride + i * rowStride + j] =
            tile::run::floatToBf16(dist(rng));
  return values;
}

/// The elements of C (f32, m x n in dense rows, matrices `bsC` apart) that
/// are not the product of A's and B's matrices (bf16, dense rows, `bsA` and
/// `bsB` apart), summed as the fake kernel sums.
int countWrongBatched(const std::vector<uint16_t> &a,
                      const std::vector<uint16_t> &b,
                      const std::vector<float> &c, int64_t batch, int64_t m,
                      int64_t n, int64_t k, int64_t bsA, int64_t bsB,
                      int64_t bsC) {
  int wrong = 0;
  for (int64_t l = 0; l < batch; ++l)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t kk = 0; kk < k; ++kk)
          sum = std::fma(tile::run::bf16ToFloat(a[l * bsA + i * k + kk]),
                         tile::run::bf16ToFloat(b[l * bsB + kk * n + j]), sum);
        wrong += c[l * bsC + i * n + j] != sum;
      }
  return wrong;
}

TEST_F(FakeDriverTest, BatchedTensorMapsAreThreeDimensional) {
  // The bf16 fixture as a batch of 4 (grid y 4, whole clusters of 1x2x1),
  // A's and B's matrices 8 elements (16 bytes) apart past their ends: each
  // map gets the batch as its outer dimension, the batch stride as its
  // outer stride and a box one matrix deep. The fake kernel reads A and B
  // through the maps, matrix b at b times their outer strides.
  KernelManifest manifest = repackedManifest();
  manifest.problem.k = 72;
  manifest.params[0].cols = manifest.params[0].rowStride = 72;
  manifest.params[0].alignment = 16;
  manifest.params[1].rows = 72;
  manifest.tensorMaps[0].repackRowStride = 0;
  manifest.config.repack = false;
  const int64_t m = 96, n = 80, k = 72, batch = 4;
  const int64_t bsA = m * k + 8, bsB = k * n + 8, bsC = m * n;
  TempDir dir;
  std::string path =
      writeBatchedManifest(dir, manifest, batch, {bsA, bsB, bsC});
  ASSERT_FALSE(path.empty());
  open(path);
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  std::vector<uint16_t> a = batchedBf16(batch, bsA, m, k, k, 3);
  std::vector<uint16_t> b = batchedBf16(batch, bsB, k, n, n, 5);
  std::vector<float> c(batch * bsC, std::nanf(""));
  tile_buffer args[3] = {{reinterpret_cast<uint64_t>(a.data()), a.size() * 2},
                         {reinterpret_cast<uint64_t>(b.data()), b.size() * 2},
                         {reinterpret_cast<uint64_t>(c.data()), c.size() * 4}};
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 80 72 fill 0 72 1 80 1 80 1 bf16 f32");
  std::string strides = std::to_string(bsA) + " " + std::to_string(bsB) + " " +
                        std::to_string(bsC);
  ScopedEnv batched("TILE_FAKE_CUDA_BATCH", strides.c_str());
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.tensorMapsEncoded(), 2);
  struct Expected {
    uint64_t address, dim0, dim1, stride0, stride1;
  } expected[2] = {{args[0].device_ptr, 72, 96, 144, uint64_t(bsA) * 2},
                   {args[1].device_ptr, 80, 72, 160, uint64_t(bsB) * 2}};
  for (int i = 0; i < 2; ++i) {
    std::vector<uint64_t> map = lastParamWords(fake, 3 + i);
    EXPECT_EQ(map[kMapMagic], kFakeTensorMapMagic) << i;
    EXPECT_EQ(map[kMapRank], 3u) << i;
    EXPECT_EQ(map[kMapAddress], expected[i].address) << i;
    EXPECT_EQ(map[kMapDim0], expected[i].dim0) << i;
    EXPECT_EQ(map[kMapDim1], expected[i].dim1) << i;
    EXPECT_EQ(map[kMapDim2], uint64_t(batch)) << i;
    EXPECT_EQ(map[kMapStride0], expected[i].stride0) << i;
    EXPECT_EQ(map[kMapStride1], expected[i].stride1) << i;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 0), 16u) << i;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 1), 16u) << i;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 2), 1u) << i;
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(fakeMapDim(map[kMapElementStrides], d), 1u) << i << " " << d;
  }
  unsigned grid[3], block[3], shared;
  unsigned long long pointers[3];
  fake.lastLaunch(grid, block, &shared, pointers);
  EXPECT_EQ(grid[1], 4u);
  EXPECT_EQ(countWrongBatched(a, b, c, batch, m, n, k, bsA, bsB, bsC), 0);

  // A refused map names the batch and its stride.
  char address[32];
  std::snprintf(address, sizeof(address), "0x%llx",
                static_cast<unsigned long long>(args[0].device_ptr));
  ScopedEnv refused("TILE_FAKE_CUDA_TENSOR_MAP_RESULT", "1");
  EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr),
            TILE_ERROR_TENSOR_MAP_FAILED);
  EXPECT_EQ(std::string(tile_last_error()),
            "cuTensorMapEncodeTiled failed for tensor map 0 of kernel "
            "tile_test_matmul_bf16_tma (param A at " +
                std::string(address) +
                ", bf16 4 x 96x72, rows 144 bytes apart, matrices 13840 "
                "bytes apart, box 16x16, swizzle none): "
                "CUDA_ERROR_INVALID_VALUE: fake driver error");
  EXPECT_EQ(fake.launches(), 1);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, BatchedRepackOfBackToBackMatricesIsOneCopy) {
  // A (96x71 bf16, rows of 142 bytes) repacked, a batch of 4 back to back
  // (batch_stride 96*71): one run of 384 rows, copied by one
  // cuMemcpy2DAsync into a copy of 4 stacked matrices of 96 rows of 144
  // bytes. B's matrices (11360 bytes) are mapped in place.
  const int64_t m = 96, n = 80, k = 71, batch = 4;
  const int64_t bsA = m * k, bsB = k * n, bsC = m * n;
  TempDir dir;
  std::string path =
      writeBatchedManifest(dir, repackedManifest(), batch, {bsA, bsB, bsC});
  ASSERT_FALSE(path.empty());
  open(path);
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  std::vector<uint16_t> a = batchedBf16(batch, bsA, m, k, k, 13);
  std::vector<uint16_t> b = batchedBf16(batch, bsB, k, n, n, 17);
  std::vector<float> c(batch * bsC, std::nanf(""));
  tile_buffer args[3] = {{reinterpret_cast<uint64_t>(a.data()), a.size() * 2},
                         {reinterpret_cast<uint64_t>(b.data()), b.size() * 2},
                         {reinterpret_cast<uint64_t>(c.data()), c.size() * 4}};
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 80 71 fill 0 71 1 80 1 80 1 bf16 f32");
  std::string strides = std::to_string(bsA) + " " + std::to_string(bsB) + " " +
                        std::to_string(bsC);
  ScopedEnv batched("TILE_FAKE_CUDA_BATCH", strides.c_str());
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.asyncAllocations(), 1);
  size_t last[4];
  EXPECT_EQ(fake.copies2D(last), 1);
  EXPECT_EQ(last[0], 142u);     // source pitch
  EXPECT_EQ(last[1], 144u);     // destination pitch
  EXPECT_EQ(last[2], 142u);     // width
  EXPECT_EQ(last[3], 4u * 96u); // rows: every matrix's
  EXPECT_EQ(fake.liveAllocations(), 0);
  std::vector<uint64_t> mapA = lastParamWords(fake, 3);
  EXPECT_NE(mapA[kMapAddress], args[0].device_ptr);
  EXPECT_EQ(mapA[kMapAddress] % 256, 0u);
  EXPECT_EQ(mapA[kMapRank], 3u);
  EXPECT_EQ(mapA[kMapDim0], 71u);
  EXPECT_EQ(mapA[kMapDim1], 96u);
  EXPECT_EQ(mapA[kMapDim2], 4u);
  EXPECT_EQ(mapA[kMapStride0], 144u);
  EXPECT_EQ(mapA[kMapStride1], 96u * 144u); // the copy's matrices
  EXPECT_EQ(fakeMapDim(mapA[kMapBoxDims], 2), 1u);
  std::vector<uint64_t> mapB = lastParamWords(fake, 4);
  EXPECT_EQ(mapB[kMapAddress], args[1].device_ptr);
  EXPECT_EQ(mapB[kMapStride1], uint64_t(bsB) * 2);
  EXPECT_EQ(countWrongBatched(a, b, c, batch, m, n, k, bsA, bsB, bsC), 0);

  {
    // The buffer holds all 4 matrices: 4 * 96 * 144 bytes.
    ScopedEnv result("TILE_FAKE_CUDA_ALLOC_ASYNC_RESULT", "2");
    EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_ERROR_CUDA);
    EXPECT_STREQ(tile_last_error(),
                 "cuMemAllocAsync of 55296 bytes for the repacked operands "
                 "of kernel tile_test_matmul_bf16_tma failed: CUDA error 2: "
                 "fake driver error");
  }
  {
    ScopedEnv result("TILE_FAKE_CUDA_MEMCPY2D_RESULT", "1");
    EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_ERROR_CUDA);
    EXPECT_STREQ(tile_last_error(),
                 "cuMemcpy2DAsync repacking param A (4 x 96x71, rows 142 -> "
                 "144 bytes apart) of kernel tile_test_matmul_bf16_tma "
                 "failed: CUDA_ERROR_INVALID_VALUE: fake driver error");
  }
  EXPECT_EQ(fake.liveAllocations(), 0);
  EXPECT_EQ(fake.launches(), 1);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, BatchedRepackOfSpacedMatricesCopiesEach) {
  // A's matrices 5 elements apart past their ends (NaN between): one
  // cuMemcpy2DAsync per matrix, each into its place in the stacked copy.
  const int64_t m = 96, n = 80, k = 71, batch = 4;
  const int64_t bsA = m * k + 5, bsB = k * n, bsC = m * n + 16;
  TempDir dir;
  std::string path =
      writeBatchedManifest(dir, repackedManifest(), batch, {bsA, bsB, bsC});
  ASSERT_FALSE(path.empty());
  open(path);
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  std::vector<uint16_t> a = batchedBf16(batch, bsA, m, k, k, 19);
  std::vector<uint16_t> b = batchedBf16(batch, bsB, k, n, n, 23);
  std::vector<float> c((batch - 1) * bsC + m * n, std::nanf(""));
  tile_buffer args[3] = {{reinterpret_cast<uint64_t>(a.data()), a.size() * 2},
                         {reinterpret_cast<uint64_t>(b.data()), b.size() * 2},
                         {reinterpret_cast<uint64_t>(c.data()), c.size() * 4}};
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 80 71 fill 0 71 1 80 1 80 1 bf16 f32");
  std::string strides = std::to_string(bsA) + " " + std::to_string(bsB) + " " +
                        std::to_string(bsC);
  ScopedEnv batched("TILE_FAKE_CUDA_BATCH", strides.c_str());
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.asyncAllocations(), 1);
  size_t last[4];
  EXPECT_EQ(fake.copies2D(last), 4);
  EXPECT_EQ(last[0], 142u);
  EXPECT_EQ(last[1], 144u);
  EXPECT_EQ(last[2], 142u);
  EXPECT_EQ(last[3], 96u); // one matrix's rows
  EXPECT_EQ(fake.liveAllocations(), 0);
  std::vector<uint64_t> mapA = lastParamWords(fake, 3);
  EXPECT_EQ(mapA[kMapRank], 3u);
  EXPECT_EQ(mapA[kMapDim2], 4u);
  EXPECT_EQ(mapA[kMapStride1], 96u * 144u);
  EXPECT_EQ(countWrongBatched(a, b, c, batch, m, n, k, bsA, bsB, bsC), 0);

  // A failed copy names its matrix; nothing is launched.
  ScopedEnv result("TILE_FAKE_CUDA_MEMCPY2D_RESULT", "1");
  EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_ERROR_CUDA);
  EXPECT_STREQ(tile_last_error(),
               "cuMemcpy2DAsync repacking param A (4 x 96x71, rows 142 -> 144 "
               "bytes apart, matrix 0) of kernel tile_test_matmul_bf16_tma "
               "failed: CUDA_ERROR_INVALID_VALUE: fake driver error");
  EXPECT_EQ(fake.liveAllocations(), 0);
  EXPECT_EQ(fake.launches(), 1);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, RepackFailuresAreWorded) {
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  writeFile(dir.file("repacked.json"), writeManifestJson(repackedManifest()));
  open(dir.file("repacked.json"));
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  std::vector<uint16_t> a(96 * 71), b(71 * 80);
  std::vector<float> c(96 * 80, 0);
  tile_buffer args[3] = {
      {reinterpret_cast<uint64_t>(a.data()), uint64_t(a.size()) * 2},
      {reinterpret_cast<uint64_t>(b.data()), uint64_t(b.size()) * 2},
      {reinterpret_cast<uint64_t>(c.data()), uint64_t(c.size()) * 4}};
  {
    // 2 (CUDA_ERROR_OUT_OF_MEMORY): nothing is copied or launched.
    ScopedEnv result("TILE_FAKE_CUDA_ALLOC_ASYNC_RESULT", "2");
    EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_ERROR_CUDA);
    EXPECT_STREQ(tile_last_error(),
                 "cuMemAllocAsync of 13824 bytes for the repacked operands "
                 "of kernel tile_test_matmul_bf16_tma failed: CUDA error 2: "
                 "fake driver error");
    size_t last[4];
    EXPECT_EQ(fake.copies2D(last), 0);
    EXPECT_EQ(fake.launches(), 0);
  }
  {
    // 1 (CUDA_ERROR_INVALID_VALUE): the buffer is freed, nothing launched.
    ScopedEnv result("TILE_FAKE_CUDA_MEMCPY2D_RESULT", "1");
    EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_ERROR_CUDA);
    EXPECT_STREQ(tile_last_error(),
                 "cuMemcpy2DAsync repacking param A (96x71, rows 142 -> 144 "
                 "bytes apart) of kernel tile_test_matmul_bf16_tma failed: "
                 "CUDA_ERROR_INVALID_VALUE: fake driver error");
    EXPECT_EQ(fake.liveAllocations(), 0);
    EXPECT_EQ(fake.launches(), 0);
  }
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, DynamicLayoutsArePassedAfterTheMaps) {
  // B's offset and row stride, and C's row stride, dynamic: the kernel takes
  // the buffers' starts, the maps (B's encoded from the launch's layout),
  // then one 8-byte integer per dynamic field: B's offset, B's row stride,
  // C's row stride.
  TempDir dir;
  std::string ptx = readFile(fixturePath("naive_matmul.ptx"));
  const std::string last =
      "\t.param .align 128 .b8 tile_test_matmul_bf16_tma_param_4[128]\n";
  size_t at = ptx.find(last);
  ASSERT_NE(at, std::string::npos);
  ptx.replace(at, last.size(),
              "\t.param .align 128 .b8 tile_test_matmul_bf16_tma_param_4[128],\n"
              "\t.param .u64 tile_test_matmul_bf16_tma_param_5,\n"
              "\t.param .u64 tile_test_matmul_bf16_tma_param_6,\n"
              "\t.param .u64 tile_test_matmul_bf16_tma_param_7\n");
  writeFile(dir.file("dynamic.ptx"), ptx);
  KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifestJson(
      readFile(fixturePath("tile_test_matmul_bf16_tma.json")), manifest,
      error))
      << error;
  manifest.binaries[0].file = "dynamic.ptx";
  manifest.binaries[0].size = ptx.size();
  manifest.binaries[0].fnv1a64 = fnv1a64(ptx.data(), ptx.size());
  manifest.params[1].offset = kDynamic;
  manifest.params[1].rowStride = kDynamic;
  manifest.params[2].rowStride = kDynamic;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  writeFile(dir.file("dynamic.json"), writeManifestJson(manifest));
  open(dir.file("dynamic.json"));
  tile_kernel_info info;
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  EXPECT_EQ(info.params[1].offset, TILE_DYNAMIC);
  EXPECT_EQ(info.params[1].row_stride, TILE_DYNAMIC);
  EXPECT_EQ(info.params[1].required_bytes, 0u);
  EXPECT_EQ(info.params[0].required_bytes, uint64_t(96 * 72 * 2));
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  // Without layouts: refused, naming the fields.
  EXPECT_EQ(tile_kernel_launch(kernel, kBf16Args, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(),
               "kernel tile_test_matmul_bf16_tma has dynamic offsets or "
               "strides (B: offset, row_stride; C: row_stride); pass them "
               "with tile_kernel_launch_layouts");
  EXPECT_EQ(tile_artifact_check_args(artifact, kBf16Args, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_NE(std::string(tile_last_error())
                .find("pass them with tile_artifact_check_layouts"),
            std::string::npos)
      << tile_last_error();
  EXPECT_EQ(fake.launches(), 0);

  // B: 8 elements in (16 bytes), rows 88 apart (176 bytes); C rows 96
  // apart. B's buffer must hold 8 + 71 * 88 + 80 elements.
  tile_layout layouts[3] = {{0, 72, 1, 0}, {8, 88, 1, 0}, {0, 96, 1, 0}};
  tile_buffer args[3] = {kBf16Args[0],
                         {0x200000, uint64_t(8 + 71 * 88 + 80) * 2},
                         {0x300000, uint64_t(95 * 96 + 80) * 2}};
  EXPECT_EQ(tile_artifact_check_layouts(artifact, args, layouts, 3),
            TILE_SUCCESS)
      << tile_last_error();
  ASSERT_EQ(tile_kernel_launch_layouts(kernel, args, layouts, 3, nullptr),
            TILE_SUCCESS)
      << tile_last_error();
  ASSERT_EQ(fake.lastParamCount(), 8);
  unsigned long long pointer = 0;
  fake.lastParam(1, &pointer, sizeof(pointer));
  EXPECT_EQ(pointer, args[1].device_ptr);
  std::vector<uint64_t> mapB = lastParamWords(fake, 4);
  EXPECT_EQ(mapB[kMapAddress], args[1].device_ptr + 16);
  EXPECT_EQ(mapB[kMapStride0], 176u);
  int64_t values[3] = {};
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(fake.lastParam(5 + i, &values[i], sizeof(values[i])), 8) << i;
  EXPECT_EQ(values[0], 8);
  EXPECT_EQ(values[1], 88);
  EXPECT_EQ(values[2], 96);

  // The buffers are checked against the launch's layout.
  args[1].size_bytes -= 2;
  EXPECT_EQ(tile_kernel_launch_layouts(kernel, args, layouts, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_NE(std::string(tile_last_error())
                .find("argument 1 (B) is too small: param B (72x80 bf16, "
                      "row_stride 88, col_stride 1, offset 8) needs 12672 "
                      "bytes"),
            std::string::npos)
      << tile_last_error();
  args[1].size_bytes += 2;
  // A row stride the TMA cannot read (rows 8 bytes off 16): the map's
  // rule, with the launch's values.
  layouts[1].row_stride = 84;
  EXPECT_EQ(tile_kernel_launch_layouts(kernel, args, layouts, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(),
               "argument 1 (B): row_stride 84 (168 bytes) is not a multiple "
               "of the 16 bytes the kernel assumes of its dynamic offset and "
               "strides");
  layouts[1].row_stride = 88;
  layouts[0].row_stride = 80; // A's is static
  EXPECT_EQ(tile_artifact_check_layouts(artifact, args, layouts, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(),
               "argument 0 (A): row_stride 80 differs from the kernel's 72 "
               "(static in its manifest)");
  EXPECT_EQ(tile_kernel_launch_layouts(kernel, args, nullptr, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(), "the layout array is null");
  EXPECT_EQ(tile_kernel_launch_layouts(nullptr, args, layouts, 3, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fake.launches(), 1);
  tile_kernel_unload(kernel);
}

/// The bf16 fixture's PTX with its entry's parameter list after the two
/// maps extended by `extra` (PTX parameter declarations, each starting
/// ",\n"), written to `dir`/<file>; `manifest`'s binary then names it.
bool writeExtendedPtx(const TempDir &dir, const std::string &file,
                      const std::string &extra, KernelManifest &manifest) {
  std::string ptx = readFile(fixturePath("naive_matmul.ptx"));
  const std::string last =
      "\t.param .align 128 .b8 tile_test_matmul_bf16_tma_param_4[128]";
  size_t at = ptx.find(last + "\n");
  if (at == std::string::npos)
    return false;
  ptx.insert(at + last.size(), extra);
  manifest.binaries[0].file = file;
  manifest.binaries[0].size = ptx.size();
  manifest.binaries[0].fnv1a64 = fnv1a64(ptx.data(), ptx.size());
  return writeFile(dir.file(file), ptx);
}

/// The bf16 fixture as a kernel that stores C through the TMA (config.store
/// "tma": a wgmma kernel, TMA copies, warp-specialized), C of
/// `cType` with alignment 16, its map (after A's and B's) in boxes of 64
/// rows of 128 bytes, swizzled 128B.
KernelManifest tmaStoreManifest(ElementType cType) {
  KernelManifest m;
  std::string error;
  EXPECT_TRUE(parseManifestJson(
      readFile(fixturePath("tile_test_matmul_bf16_tma.json")), m, error))
      << error;
  m.config.strategy = KernelStrategy::Wgmma;
  m.config.copy = CopyKind::Tma;
  m.config.specialize = true;
  m.config.store = StoreKind::Tma;
  m.params[2].elementType = cType;
  m.params[2].alignment = 16;
  uint32_t boxCols = 128 / getElementTypeSize(cType);
  m.tensorMaps.push_back(
      {"C", {64, boxCols}, TensorMapSwizzle::B128, TensorMapL2Promotion::None});
  return m;
}

TEST_F(FakeDriverTest, TmaStoreMapOfCIsEncodedAfterAAndB) {
  // An f32 C with rows of 84 elements (336 bytes), its matrix 4 elements
  // (16 bytes) into the buffer: the third map views C from its first
  // element, and the fake kernel writes C through it.
  TempDir dir;
  KernelManifest manifest = tmaStoreManifest(ElementType::F32);
  manifest.params[2].rowStride = 84;
  manifest.params[2].offset = 4;
  ASSERT_TRUE(writeExtendedPtx(
      dir, "store.ptx",
      ",\n\t.param .align 128 .b8 tile_test_matmul_bf16_tma_param_5[128]",
      manifest));
  std::string error;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  writeFile(dir.file("store.json"), writeManifestJson(manifest));
  open(dir.file("store.json"));
  tile_kernel_info info;
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  ASSERT_EQ(info.num_tensor_maps, 3u);
  EXPECT_STREQ(info.tensor_maps[2].param, "C");
  EXPECT_EQ(info.tensor_maps[2].param_index, 2u);
  EXPECT_EQ(info.tensor_maps[2].repack_row_stride, 0);
  EXPECT_EQ(info.params[2].num_tensor_maps, 1u);
  EXPECT_STREQ(info.config_short,
               "wgmma/16x16x1/16x2/m1n1k1/s1/tma/ws/g1/none/c2x1/ts");
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  const int m = 96, n = 80, k = 72, ldc = 84, offC = 4;
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<uint16_t> a(m * k), b(k * n);
  for (uint16_t &x : a)
    x = tile::run::floatToBf16(dist(rng));
  for (uint16_t &x : b)
    x = tile::run::floatToBf16(dist(rng));
  // NaN everywhere: what the kernel must not write stays NaN.
  std::vector<float> c(offC + (m - 1) * ldc + n, std::nanf(""));
  tile_buffer args[3] = {{reinterpret_cast<uint64_t>(a.data()), a.size() * 2},
                         {reinterpret_cast<uint64_t>(b.data()), b.size() * 2},
                         {reinterpret_cast<uint64_t>(c.data()), c.size() * 4}};
  ASSERT_EQ(args[2].device_ptr % 16, 0u);
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 80 72 fill 0 72 1 80 1 84 1 bf16 f32");
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();

  // Three maps, encoded in order, passed after the three pointers.
  EXPECT_EQ(fake.tensorMapsEncoded(), 3);
  ASSERT_EQ(fake.lastParamCount(), 6);
  for (int i = 0; i < 3; ++i) {
    unsigned long long pointer = 0;
    EXPECT_EQ(fake.lastParam(i, &pointer, sizeof(pointer)), 8);
    EXPECT_EQ(pointer, args[i].device_ptr) << i;
  }
  struct Expected {
    uint64_t dataType, address, dim0, dim1, stride, box0, box1, swizzle, l2;
  } expected[3] = {
      {9, args[0].device_ptr, 72, 96, 144, 16, 16, 0, 2},
      {9, args[1].device_ptr, 80, 72, 160, 16, 16, 0, 0},
      // C: FLOAT32 from its first element (16 bytes in), {cols, rows},
      // rows 336 bytes apart, boxes of 32 columns x 64 rows, 128B swizzle.
      {7, args[2].device_ptr + 16, 80, 96, 336, 32, 64, 3, 0}};
  for (int i = 0; i < 3; ++i) {
    std::vector<uint64_t> map = lastParamWords(fake, 3 + i);
    EXPECT_EQ(map[kMapMagic], kFakeTensorMapMagic) << i;
    EXPECT_EQ(map[kMapDataType], expected[i].dataType) << i;
    EXPECT_EQ(map[kMapRank], 2u) << i;
    EXPECT_EQ(map[kMapAddress], expected[i].address) << i;
    EXPECT_EQ(map[kMapDim0], expected[i].dim0) << i;
    EXPECT_EQ(map[kMapDim1], expected[i].dim1) << i;
    EXPECT_EQ(map[kMapDim2], 0u) << i;
    EXPECT_EQ(map[kMapStride0], expected[i].stride) << i;
    EXPECT_EQ(map[kMapStride1], 0u) << i;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 0), expected[i].box0) << i;
    EXPECT_EQ(fakeMapDim(map[kMapBoxDims], 1), expected[i].box1) << i;
    EXPECT_EQ(fakeMapDim(map[kMapElementStrides], 0), 1u) << i;
    EXPECT_EQ(fakeMapDim(map[kMapElementStrides], 1), 1u) << i;
    EXPECT_EQ(map[kMapInterleave], 0u) << i;
    EXPECT_EQ(map[kMapSwizzle], expected[i].swizzle) << i;
    EXPECT_EQ(map[kMapL2Promotion], expected[i].l2) << i;
    EXPECT_EQ(map[kMapOobFill], 0u) << i;
    EXPECT_EQ(map[kMapSequence], uint64_t(i + 1)) << i;
  }
  // Nothing was repacked: C's map views the caller's buffer.
  EXPECT_EQ(fake.asyncAllocations(), 0);

  // The fake kernel wrote C through its map: the product at C's elements,
  // NaN still before the first and in the rows' padding.
  int wrong = 0, touched = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int kk = 0; kk < k; ++kk)
        sum = std::fma(tile::run::bf16ToFloat(a[i * k + kk]),
                       tile::run::bf16ToFloat(b[kk * n + j]), sum);
      wrong += c[offC + i * ldc + j] != sum;
    }
  for (size_t e = 0; e < c.size(); ++e) {
    size_t at = e < size_t(offC) ? 0 : e - offC;
    bool element = e >= size_t(offC) && at % ldc < size_t(n);
    touched += !element && !std::isnan(c[e]);
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(touched, 0);

  // C's base must be 16-byte aligned for its map, as A's and B's.
  tile_buffer moved[3] = {args[0], args[1], args[2]};
  moved[2].device_ptr += 8; // (refused before anything is read or written)
  EXPECT_EQ(tile_kernel_launch(kernel, moved, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  std::string misaligned = tile_last_error();
  EXPECT_TRUE(startsWith(misaligned, "argument 2 (C) at 0x")) << misaligned;
  EXPECT_NE(misaligned.find(" is not aligned to 16 bytes, as the kernel "
                            "assumes"),
            std::string::npos)
      << misaligned;
  // A refused map of C is named as A's and B's are.
  {
    ScopedEnv refused("TILE_FAKE_CUDA_TENSOR_MAP_RESULT", "1");
    EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr),
              TILE_ERROR_TENSOR_MAP_FAILED);
    EXPECT_NE(std::string(tile_last_error())
                  .find("cuTensorMapEncodeTiled failed for tensor map 0 of "),
              std::string::npos)
        << tile_last_error();
  }
  EXPECT_EQ(fake.launches(), 1);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, TmaStoreMapOfABatchedKernelTakesTheLaunchLayout) {
  // A batch of 2 with a bf16 C whose row stride is dynamic: the launch
  // gives 88 (176 bytes); C's matrices are 96*88 + 8 elements apart. C's
  // map is 3-d, encoded from the launch's row stride, after A's and B's;
  // the kernel takes the one dynamic value after the maps.
  const int64_t m = 96, n = 80, k = 72, batch = 2, ldc = 88;
  const int64_t bsA = m * k, bsB = k * n, bsC = m * ldc + 8;
  TempDir dir;
  KernelManifest manifest = tmaStoreManifest(ElementType::BF16);
  manifest.problem.batch = batch;
  manifest.launch.grid[1] = batch;
  manifest.params[0].batchStride = bsA;
  manifest.params[1].batchStride = bsB;
  manifest.params[2].batchStride = bsC;
  manifest.params[2].rowStride = kDynamic;
  for (TensorMapInfo &map : manifest.tensorMaps)
    map.batched = true;
  ASSERT_TRUE(writeExtendedPtx(
      dir, "store.ptx",
      ",\n\t.param .align 128 .b8 tile_test_matmul_bf16_tma_param_5[128]"
      ",\n\t.param .u64 tile_test_matmul_bf16_tma_param_6",
      manifest));
  std::string error;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  writeFile(dir.file("store.json"), writeManifestJson(manifest));
  open(dir.file("store.json"));
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);

  std::vector<uint16_t> a = batchedBf16(batch, bsA, m, k, k, 31);
  std::vector<uint16_t> b = batchedBf16(batch, bsB, k, n, n, 37);
  std::vector<uint16_t> c((batch - 1) * bsC + (m - 1) * ldc + n, 0x7fc0);
  tile_buffer args[3] = {{reinterpret_cast<uint64_t>(a.data()), a.size() * 2},
                         {reinterpret_cast<uint64_t>(b.data()), b.size() * 2},
                         {reinterpret_cast<uint64_t>(c.data()), c.size() * 2}};
  ScopedEnv matmul("TILE_FAKE_CUDA_MATMUL",
                   "96 80 72 fill 0 72 1 80 1 88 1 bf16 bf16");
  std::string strides = std::to_string(bsA) + " " + std::to_string(bsB) + " " +
                        std::to_string(bsC);
  ScopedEnv batched("TILE_FAKE_CUDA_BATCH", strides.c_str());
  tile_layout layouts[3] = {{0, k, 1, bsA}, {0, n, 1, bsB}, {0, ldc, 1, bsC}};
  ASSERT_EQ(tile_kernel_launch_layouts(kernel, args, layouts, 3, nullptr),
            TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.tensorMapsEncoded(), 3);
  ASSERT_EQ(fake.lastParamCount(), 7);
  std::vector<uint64_t> mapC = lastParamWords(fake, 5);
  EXPECT_EQ(mapC[kMapMagic], kFakeTensorMapMagic);
  EXPECT_EQ(mapC[kMapDataType], 9u); // BFLOAT16
  EXPECT_EQ(mapC[kMapRank], 3u);
  EXPECT_EQ(mapC[kMapAddress], args[2].device_ptr);
  EXPECT_EQ(mapC[kMapDim0], 80u);
  EXPECT_EQ(mapC[kMapDim1], 96u);
  EXPECT_EQ(mapC[kMapDim2], uint64_t(batch));
  EXPECT_EQ(mapC[kMapStride0], uint64_t(ldc) * 2);
  EXPECT_EQ(mapC[kMapStride1], uint64_t(bsC) * 2);
  EXPECT_EQ(fakeMapDim(mapC[kMapBoxDims], 0), 64u);
  EXPECT_EQ(fakeMapDim(mapC[kMapBoxDims], 1), 64u);
  EXPECT_EQ(fakeMapDim(mapC[kMapBoxDims], 2), 1u);
  EXPECT_EQ(mapC[kMapSwizzle], 3u); // 128B
  EXPECT_EQ(mapC[kMapSequence], 3u);
  EXPECT_EQ(lastParamWords(fake, 3)[kMapRank], 3u);
  EXPECT_EQ(lastParamWords(fake, 4)[kMapRank], 3u);
  int64_t value = 0;
  EXPECT_EQ(fake.lastParam(6, &value, sizeof(value)), 8);
  EXPECT_EQ(value, ldc);
  // C written through the map, rounded to bf16; NaN elsewhere.
  int wrong = 0, touched = 0;
  std::vector<bool> element(c.size(), false);
  for (int64_t l = 0; l < batch; ++l)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t kk = 0; kk < k; ++kk)
          sum = std::fma(tile::run::bf16ToFloat(a[l * bsA + i * k + kk]),
                         tile::run::bf16ToFloat(b[l * bsB + kk * n + j]), sum);
        size_t at = l * bsC + i * ldc + j;
        element[at] = true;
        wrong += c[at] != tile::run::floatToBf16(sum);
      }
  for (size_t e = 0; e < c.size(); ++e)
    touched += !element[e] && c[e] != 0x7fc0;
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(touched, 0);

  // The launch's row stride must keep C's 16 bytes (its map's alignment).
  layouts[2].row_stride = 84; // 168 bytes
  EXPECT_EQ(tile_kernel_launch_layouts(kernel, args, layouts, 3, nullptr),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(),
               "argument 2 (C): row_stride 84 (168 bytes) is not a multiple "
               "of the 16 bytes the kernel assumes of its dynamic offset and "
               "strides");
  EXPECT_EQ(fake.launches(), 1);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, RefusedTensorMapIsNamed) {
  open("tile_test_matmul_bf16_tma.json");
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  ScopedEnv result("TILE_FAKE_CUDA_TENSOR_MAP_RESULT", "1");
  EXPECT_EQ(tile_kernel_launch(kernel, kBf16Args, 3, nullptr),
            TILE_ERROR_TENSOR_MAP_FAILED);
  EXPECT_STREQ(tile_last_error(),
               "cuTensorMapEncodeTiled failed for tensor map 0 of kernel "
               "tile_test_matmul_bf16_tma (param A at 0x100000, bf16 96x72, "
               "rows 144 bytes apart, box 16x16, swizzle none): "
               "CUDA_ERROR_INVALID_VALUE: fake driver error");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_TENSOR_MAP_FAILED),
               "TILE_ERROR_TENSOR_MAP_FAILED");
  EXPECT_EQ(fake.launches(), 0);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, ClusterLaunchFailureIsWorded) {
  open("tile_test_matmul_bf16_tma.json");
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  ScopedEnv result("TILE_FAKE_CUDA_LAUNCH_RESULT", "701");
  EXPECT_EQ(tile_kernel_launch(kernel, kBf16Args, 3, nullptr),
            TILE_ERROR_LAUNCH_FAILED);
  EXPECT_STREQ(tile_last_error(),
               "cuLaunchKernelEx failed for kernel tile_test_matmul_bf16_tma "
               "(grid 5x6x1, block 16x16x1, cluster 1x2x1, 0 bytes of dynamic "
               "shared memory): CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many "
               "resources requested for launch");
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, DeviceWithoutClusters) {
  open("tile_test_matmul_bf16_tma.json");
  ScopedEnv noCluster("TILE_FAKE_CUDA_NO_CLUSTER", "1");
  load(TILE_ERROR_WRONG_DEVICE);
  EXPECT_STREQ(tile_last_error(), "kernel tile_test_matmul_bf16_tma runs in "
                                  "clusters of 2 blocks but device 0 (Fake "
                                  "GPU) cannot launch thread block clusters");
}

TEST_F(FakeDriverTest, RepackNeedsMemoryPools) {
  // cuMemAllocAsync takes the repacked copies from the device's memory
  // pool: a device without pools cannot load a kernel that repacks, and one
  // that does not repack still loads there.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  writeFile(dir.file("repacked.json"), writeManifestJson(repackedManifest()));
  ScopedEnv noPools("TILE_FAKE_CUDA_NO_MEMORY_POOLS", "1");
  open(dir.file("repacked.json"));
  load(TILE_ERROR_WRONG_DEVICE);
  EXPECT_STREQ(tile_last_error(),
               "kernel tile_test_matmul_bf16_tma repacks an operand before "
               "each launch with cuMemAllocAsync, which needs memory pools, "
               "and device 0 (Fake GPU) has none");
  open("tile_test_matmul_bf16_tma.json");
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  tile_kernel_unload(kernel);
}

TEST_F(FakeDriverTest, SixteenBlockClustersAreOptedIn) {
  // The f32 fill kernel with a grid of 16 blocks in one cluster, no maps.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifestJson(
      readFile(fixturePath("tile_test_matmul_fill.json")), manifest, error));
  manifest.launch.grid = {16, 1, 1};
  manifest.launch.cluster = {16, 1, 1};
  manifest.config.cluster = {1, 16};
  writeFile(dir.file("cluster16.json"), writeManifestJson(manifest));
  open(dir.file("cluster16.json"));
  tile_kernel *kernel = load(TILE_SUCCESS);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(fake.nonPortableCluster(), 1);
  tile_buffer args[3] = {
      {0x10000, 96 * 72 * 4}, {0x20000, 72 * 80 * 4}, {0x30000, 96 * 80 * 4}};
  ASSERT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(fake.launchesEx(), 1);
  unsigned cluster[3], numAttrs = 0;
  fake.lastCluster(cluster, &numAttrs);
  EXPECT_EQ(cluster[0], 16u);
  EXPECT_EQ(cluster[1], 1u);
  EXPECT_EQ(fake.lastParamCount(), 3);
  tile_kernel_unload(kernel);
}

/// A driver older than CUDA 11.8: no cuLaunchKernelEx and no
/// cuTensorMapEncodeTiled.
class OldFakeDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (const auto &entry : getFakeDriverDefaults())
      defaults.push_back(
          std::make_unique<ScopedEnv>(entry.first.c_str(), entry.second));
  }
  ScopedEnv driver{"TILE_CUDA_DRIVER_LIBRARY", TILE_FAKE_CUDA_DRIVER_OLD};
  std::vector<std::unique_ptr<ScopedEnv>> defaults;
};

TEST_F(OldFakeDriverTest, KernelsThatNeedNewEntryPointsAreRefused) {
  tile_artifact *artifact = nullptr;
  std::string path = fixturePath("tile_test_matmul_bf16_tma.json");
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS);
  tile_kernel *kernel = nullptr;
  EXPECT_EQ(tile_kernel_load(artifact, nullptr, &kernel),
            TILE_ERROR_DRIVER_TOO_OLD);
  EXPECT_STREQ(tile_last_error(),
               "kernel tile_test_matmul_bf16_tma runs in clusters of 2 blocks, "
               "which needs cuLaunchKernelEx (CUDA 11.8 or newer), and the "
               "driver (CUDA 13.0) lacks it: update the driver");
  tile_artifact_close(artifact);

  // Without the cluster, the tensor maps are what it lacks.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifestJson(readFile(path), manifest, error));
  manifest.launch.cluster = {1, 1, 1};
  manifest.config.cluster = {1, 1};
  writeFile(dir.file("maps.json"), writeManifestJson(manifest));
  std::string mapsPath = dir.file("maps.json");
  ASSERT_EQ(tile_artifact_open(mapsPath.c_str(), &artifact), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(tile_kernel_load(artifact, nullptr, &kernel),
            TILE_ERROR_DRIVER_TOO_OLD);
  EXPECT_STREQ(tile_last_error(),
               "kernel tile_test_matmul_bf16_tma takes tensor maps, which need "
               "cuTensorMapEncodeTiled (CUDA 12.0 or newer), and the driver "
               "(CUDA 13.0) lacks it: update the driver");
  tile_artifact_close(artifact);

  // A kernel that repacks an operand needs the stream-ordered allocator
  // and the 2-d copy (checked before the tensor maps).
  manifest = repackedManifest();
  manifest.launch.cluster = {1, 1, 1};
  manifest.config.cluster = {1, 1};
  writeFile(dir.file("repacked.json"), writeManifestJson(manifest));
  std::string repackedPath = dir.file("repacked.json");
  ASSERT_EQ(tile_artifact_open(repackedPath.c_str(), &artifact), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(tile_kernel_load(artifact, nullptr, &kernel),
            TILE_ERROR_DRIVER_TOO_OLD);
  EXPECT_STREQ(tile_last_error(),
               "kernel tile_test_matmul_bf16_tma repacks an operand before "
               "each launch, which needs cuMemAllocAsync, cuMemFreeAsync and "
               "cuMemcpy2DAsync (CUDA 11.2 or newer), and the driver (CUDA "
               "13.0) lacks them: update the driver");
  tile_artifact_close(artifact);

  // Kernels without either still load and run.
  path = fixturePath("tile_test_matmul_fill.json");
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS);
  ASSERT_EQ(tile_kernel_load(artifact, nullptr, &kernel), TILE_SUCCESS)
      << tile_last_error();
  tile_buffer args[3] = {
      {0x10000, 96 * 72 * 4}, {0x20000, 72 * 80 * 4}, {0x30000, 96 * 80 * 4}};
  EXPECT_EQ(tile_kernel_launch(kernel, args, 3, nullptr), TILE_SUCCESS)
      << tile_last_error();
  tile_kernel_unload(kernel);
  tile_artifact_close(artifact);
}

} // namespace
