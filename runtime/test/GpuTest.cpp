//===- GpuTest.cpp - Loading and running real kernels on a real GPU -------===//
//
// These run only where libcuda.so.1 loads and sees a GPU; elsewhere each
// test reports "skipped: no GPU". The fixtures are sm_90 PTX: on a device
// older than sm_90 the tests skip too. The bf16 fixture reads A and B only
// through its two tensor maps and checks that it runs in clusters of 1x2x1,
// so it checks the runtime's encoding and cluster launch on the hardware.
//
//===----------------------------------------------------------------------===//

#include "Artifact.h"
#include "TestUtils.h"
#include "TileRun.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sys/stat.h>

using namespace tile::run;
using namespace tile::runtime;
using namespace tile::test;

namespace {

/// The real driver (never the override) and device 0, or why not.
class GpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    int status = 0;
    driver = loadCudaDriver(error, status);
    if (!driver || !openCudaDevice(*driver, 0, device, error, status))
      GTEST_SKIP() << "skipped: no GPU (" << error << ")";
    if (device.computeMajor < 9)
      GTEST_SKIP() << "skipped: the fixtures need sm_90 or newer, device 0 "
                      "is "
                   << formatChip(device.computeMajor, device.computeMinor);
  }

  /// Runs the kernel of `manifestPath` on random inputs and compares with
  /// the host reference; returns the binary format used.
  std::string runAndCheck(const std::string &manifestPath, int binary) {
    tile_artifact *artifact = nullptr;
    EXPECT_EQ(tile_artifact_open(manifestPath.c_str(), &artifact), TILE_SUCCESS)
        << tile_last_error();
    if (!artifact)
      return "";
    const KernelManifest &manifest = artifact->manifest;
    tile_load_options options = {0, binary};
    tile_kernel *kernel = nullptr;
    EXPECT_EQ(tile_kernel_load(artifact, &options, &kernel), TILE_SUCCESS)
        << tile_last_error();
    if (!kernel) {
      tile_artifact_close(artifact);
      return "";
    }
    tile_load_info info;
    tile_kernel_get_load_info(kernel, &info);
    std::string format = info.binary_format;

    const ProblemInfo &p = manifest.problem;
    const ParamInfo *result = findParam(manifest, ParamRole::Result);
    std::vector<float> a(p.m * p.k), b(p.k * p.n), c0(p.m * p.n);
    fillUniform(a, 99, 1);
    fillUniform(b, 99, 2);
    fillUniform(c0, 99, 3);
    roundToElementType(a, p.elementType);
    roundToElementType(b, p.elementType);
    roundToElementType(c0, result->elementType);
    bool accumulate = p.cInit == CInit::Accumulate;

    // One allocation per param, laid out as the manifest says, of its
    // element type; C poisoned.
    std::vector<CUdeviceptr> memory(manifest.params.size(), 0);
    std::vector<tile_buffer> args(manifest.params.size());
    std::vector<std::vector<char>> host(manifest.params.size());
    for (size_t i = 0; i < manifest.params.size(); ++i) {
      const ParamInfo &param = manifest.params[i];
      uint64_t elements = 0, bytes = 0;
      getRequiredElements(param, p.batch, elements);
      getRequiredBytes(param, p.batch, bytes);
      host[i].assign(bytes, 0);
      fillPoison(host[i].data(), elements, param.elementType);
      const float *dense = param.role == ParamRole::Lhs   ? a.data()
                           : param.role == ParamRole::Rhs ? b.data()
                           : accumulate                   ? c0.data()
                                                          : nullptr;
      if (dense)
        scatterElements(dense, param, host[i].data());
      EXPECT_EQ(driver->cuMemAlloc(&memory[i], bytes), CUDA_SUCCESS);
      EXPECT_EQ(driver->cuMemcpyHtoD(memory[i], host[i].data(), bytes),
                CUDA_SUCCESS);
      args[i] = {memory[i], bytes};
    }
    EXPECT_EQ(tile_kernel_launch(kernel, args.data(), args.size(), nullptr),
              TILE_SUCCESS)
        << tile_last_error();
    EXPECT_EQ(driver->cuCtxSynchronize(), CUDA_SUCCESS);
    for (size_t i = 0; i < manifest.params.size(); ++i) {
      const ParamInfo &param = manifest.params[i];
      if (param.role == ParamRole::Result) {
        EXPECT_EQ(
            driver->cuMemcpyDtoH(host[i].data(), memory[i], host[i].size()),
            CUDA_SUCCESS);
        std::vector<float> c(p.m * p.n);
        gatherElements(host[i].data(), param, c.data());
        Reference reference;
        computeHostReference(a.data(), b.data(),
                             accumulate ? c0.data() : nullptr, p.cFillValue,
                             p.m, p.n, p.k, reference);
        CheckResult check =
            checkResult(c.data(), reference, p.m, p.n,
                        getDefaultRelativeTolerance(
                            manifest.problem.elementType, param.elementType, p.k,
                            getTermsPerBlock(manifest, p.k)),
                        getElementTolerance(p.k, param.elementType));
        EXPECT_TRUE(check.pass) << manifest.kernel << ": " << check.reason;
      }
      driver->cuMemFree(memory[i]);
    }
    tile_kernel_unload(kernel);
    tile_artifact_close(artifact);
    return format;
  }

  ScopedEnv realDriver{"TILE_CUDA_DRIVER_LIBRARY", nullptr};
  const CudaDriver *driver = nullptr;
  CudaDevice device;
};

TEST_F(GpuTest, FixtureKernelsComputeTheProduct) {
  for (const char *name :
       {"tile_test_matmul_fill.json", "tile_test_matmul_accumulate.json",
        "tile_test_matmul_strided.json", "tile_test_matmul_bf16_tma.json",
        "tile_test_matmul_f16.json"})
    EXPECT_EQ(runAndCheck(fixturePath(name), TILE_BINARY_AUTO), "ptx") << name;
}

TEST_F(GpuTest, CubinPath) {
  if (device.computeMajor != 9 || device.computeMinor != 0)
    GTEST_SKIP() << "skipped: the cubin test builds for sm_90";
  std::string ptxas;
  const char *home = std::getenv("CUDA_HOME");
  for (std::string candidate : {std::string(home ? home : "") + "/bin/ptxas",
                                std::string("/usr/local/cuda/bin/ptxas")}) {
    struct stat info;
    if (stat(candidate.c_str(), &info) == 0) {
      ptxas = candidate;
      break;
    }
  }
  if (ptxas.empty())
    GTEST_SKIP() << "skipped: no ptxas to build a cubin";
  TempDir dir;
  std::string ptx = readFile(fixturePath("naive_matmul.ptx"));
  writeFile(dir.file("naive_matmul.ptx"), ptx);
  CommandResult built =
      runCommand({ptxas, "-arch=sm_90", dir.file("naive_matmul.ptx"), "-o",
                  dir.file("naive_matmul.cubin")});
  ASSERT_EQ(built.exitCode, 0) << built.err;
  std::string cubin = readFile(dir.file("naive_matmul.cubin"));
  ASSERT_FALSE(cubin.empty());

  KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifestJson(
      readFile(fixturePath("tile_test_matmul_fill.json")), manifest, error));
  manifest.binaries.insert(manifest.binaries.begin(),
                           {BinaryFormat::Cubin, "naive_matmul.cubin",
                            cubin.size(), fnv1a64(cubin.data(), cubin.size())});
  writeFile(dir.file("fill.json"), writeManifestJson(manifest));
  EXPECT_EQ(runAndCheck(dir.file("fill.json"), TILE_BINARY_AUTO), "cubin");
  EXPECT_EQ(runAndCheck(dir.file("fill.json"), TILE_BINARY_PTX), "ptx");
}

TEST_F(GpuTest, TileRunVerifyPasses) {
  CommandResult result =
      runCommand({TILE_RUN_PATH, "verify",
                  std::string(TILE_RUNTIME_TEST_DIR) + "/fixtures"},
                 {{"TILE_CUDA_DRIVER_LIBRARY", nullptr}});
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_EQ(countOccurrences(result.out, "  PASS  "), 5u) << result.out;
  EXPECT_NE(result.out.find("\n5 passed, 0 failed\n"), std::string::npos);
}

TEST_F(GpuTest, Bf16KernelNeedsItsTensorMapsAndCluster) {
  // Launched without its cluster the kernel writes NaN: the check fails
  // there, which shows the cluster attribute reaches the kernel.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(
      parseManifestJson(readFile(fixturePath("tile_test_matmul_bf16_tma.json")),
                        manifest, error));
  manifest.launch.cluster = {1, 1, 1};
  manifest.config.cluster = {1, 1};
  writeFile(dir.file("nocluster.json"), writeManifestJson(manifest));
  CommandResult result =
      runCommand({TILE_RUN_PATH, "verify", dir.file("nocluster.json")},
                 {{"TILE_CUDA_DRIVER_LIBRARY", nullptr}});
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("elements are NaN or Inf"), std::string::npos)
      << result.out;
}

TEST_F(GpuTest, TileRunBenchRuns) {
  TempDir dir;
  CommandResult result = runCommand(
      {TILE_RUN_PATH, "bench", fixturePath("tile_test_matmul_strided.json"),
       fixturePath("tile_test_matmul_bf16_tma.json"), "--warmup", "1",
       "--iters", "20", "--json", dir.file("out.json")},
      {{"TILE_CUDA_DRIVER_LIBRARY", nullptr}});
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("| tile_test_matmul_strided  | 96x80x72    | f32"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("| tile_test_matmul_bf16_tma | 96x80x72    | "
                            "bf16 -> bf16 |"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(countOccurrences(readFile(dir.file("out.json")), "\"ok\": true"),
            2u);
}

TEST_F(GpuTest, TileRunBenchRunsTheSeparateEpilogueKernel) {
  // The f32 fixture with an epilogue the fixture kernel does not compute
  // but that changes nothing, (acc + p0) - p0, a full operand: cuBLASLt has
  // no such epilogue (beta 0), so bench runs SGEMM, then the elementwise
  // kernel NVRTC compiles, and checks that their C is the kernel's.
  TempDir dir;
  KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifestJson(
      readFile(fixturePath("tile_test_matmul_fill.json")), manifest, error))
      << error;
  ParamInfo operand = manifest.params[2];
  operand.name = "E0";
  operand.role = ParamRole::Epilogue;
  operand.access = ParamAccess::Read;
  manifest.params.push_back(operand);
  manifest.epilogue.operands = {{"E0", EpilogueOperandKind::Full}};
  manifest.epilogue.steps = {"addf acc p0", "subf s0 p0"};
  std::string path = dir.file("fill_epilogue.json");
  ASSERT_TRUE(writeFile(dir.file("naive_matmul.ptx"),
                        readFile(fixturePath("naive_matmul.ptx"))));
  ASSERT_TRUE(writeFile(path, writeManifestJson(manifest)));
  CommandResult result =
      runCommand({TILE_RUN_PATH, "bench", path, "--warmup", "1", "--iters",
                  "20", "--json", dir.file("out.json")},
                 {{"TILE_CUDA_DRIVER_LIBRARY", nullptr}});
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  if (result.out.find("NVRTC not found") != std::string::npos)
    GTEST_SKIP() << "no NVRTC: " << result.out;
  EXPECT_NE(result.out.find("cuBLAS ran the GEMM, then a separate elementwise "
                            "kernel for the epilogue (NVRTC "),
            std::string::npos)
      << result.out;
  EXPECT_NE(readFile(dir.file("out.json"))
                .find("\"cublas_call\": \"sgemm+epilogue\""),
            std::string::npos)
      << result.out;
}

} // namespace
