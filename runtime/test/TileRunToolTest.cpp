//===- TileRunToolTest.cpp - tile-run as a subprocess ---------------------===//
//
// Without a GPU: usage, info, the no-driver message, and verify and bench
// end to end on the fake driver, which computes the fixture kernels' matmul
// on the host (optionally with a bug, to see verify catch it, and a fused
// epilogue), with the fake cuBLAS and the fake NVRTC.
//
//===----------------------------------------------------------------------===//

#include "GpuLibraries.h"
#include "TestUtils.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <functional>
#include <unistd.h>

using namespace tile::test;

namespace {

using Env = std::vector<std::pair<std::string, const char *>>;

CommandResult tileRun(std::vector<std::string> args, const Env &env = {}) {
  args.insert(args.begin(), TILE_RUN_PATH);
  return runCommand(args, env);
}

const char *const kFillSpec = "96 80 72 fill 0 72 1 80 1 80 1";
const char *const kBf16Spec = "96 80 72 fill 0 72 1 80 1 80 1 bf16 bf16";
const char *const kF16Spec = "96 80 72 accumulate 0 72 1 80 1 80 1 f16 f32";
const char *const kAccumulateSpec = "96 80 72 accumulate 0 72 1 80 1 80 1";
const char *const kStridedSpec = "96 80 72 fill 0.5 72 1 1 72 84 1";

Env fakeEnv(const char *spec, const char *bug = nullptr) {
  Env env = getFakeDriverDefaults();
  env.insert(env.end(),
             {{"TILE_CUDA_DRIVER_LIBRARY", TILE_FAKE_CUDA_DRIVER},
              {"TILE_FAKE_CUDA_MATMUL", spec},
              {"TILE_FAKE_CUDA_BUG", bug},
              {"TILE_FAKE_CUDA_REPORT", "1"},
              // A real NVML (on a GPU machine) would report the real driver.
              {"TILE_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"}});
  return env;
}

/// What the fake driver prints at exit when tile-run released everything.
const char *const kNothingLeaked = "fake-cuda: live allocations 0, modules "
                                   "0, streams 0, events 0, primary refs 0\n";

std::string fixture(const char *kernel) {
  return fixturePath(std::string(kernel) + ".json");
}

TEST(TileRunTest, Help) {
  CommandResult result = tileRun({"--help"});
  EXPECT_EQ(result.exitCode, 0);
  for (const char *word :
       {"usage:", "tile-run info ARTIFACT", "tile-run verify", "tile-run bench",
        "--seed N", "--iters N", "--warmup N", "--json FILE", "--csv FILE",
        "--reference", "--binary", "--device", "--no-cublas",
        "TILE_CUDA_DRIVER_LIBRARY", "TILE_CUBLAS_LIBRARY", "exit status",
        "cublasGemmStridedBatchedEx", "2*batch*m*n*k",
        "CUBLAS_COMPUTE_32F_FAST_TF32", "A TF32 kernel (f32 inputs with",
        "TILE_NVRTC_LIBRARY", "separate elementwise", "\"+epilogue\""})
    EXPECT_NE(result.out.find(word), std::string::npos) << word;
}

TEST(TileRunTest, UsageErrors) {
  struct Case {
    std::vector<std::string> args;
    const char *message;
  } cases[] = {
      {{}, "tile-run: no command given\n"},
      {{"frobnicate"}, "tile-run: unknown command 'frobnicate'\n"},
      {{"verify"}, "tile-run: no artifact given\n"},
      {{"bench", "x.json", "--iters", "10"},
       "tile-run: --iters must be at least 20 (a median of fewer launches is "
       "noise), got 10\n"},
      {{"verify", "x.json", "--bogus"}, "tile-run: unknown option '--bogus'\n"},
      {{"verify", "x.json", "--seed=-1"},
       "tile-run: --seed needs a non-negative integer, got '-1'\n"},
      {{"verify", "x.json", "--binary", "sass"},
       "tile-run: --binary must be auto, cubin or ptx, got 'sass'\n"},
      {{"bench", "x.json", "--json"},
       "tile-run: option '--json' needs a value\n"},
      {{"verify", "x.json", "--layout", "A.stride=4"},
       "tile-run: --layout needs PARAM.FIELD=N (FIELD offset, row_stride, "
       "col_stride or batch_stride; N a non-negative integer), got "
       "'A.stride=4'\n"},
      {{"verify", "x.json", "--layout=A.offset=-4"},
       "tile-run: --layout needs PARAM.FIELD=N (FIELD offset, row_stride, "
       "col_stride or batch_stride; N a non-negative integer), got "
       "'A.offset=-4'\n"},
      {{"verify", "x.json", "--layout", "row_stride=4"},
       "tile-run: --layout needs PARAM.FIELD=N (FIELD offset, row_stride, "
       "col_stride or batch_stride; N a non-negative integer), got "
       "'row_stride=4'\n"},
  };
  for (const Case &c : cases) {
    CommandResult result = tileRun(c.args);
    EXPECT_EQ(result.exitCode, 2) << c.message;
    EXPECT_EQ(result.err,
              std::string(c.message) + "run 'tile-run --help' for usage\n");
  }
}

TEST(TileRunTest, NoDriverIsOneClearLine) {
  for (const char *command : {"verify", "bench"}) {
    CommandResult result =
        tileRun({command, fixture("tile_test_matmul_fill")},
                {{"TILE_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1"}});
    EXPECT_FALSE(result.crashed);
    EXPECT_EQ(result.exitCode, 3) << command;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err.rfind("tile-run: no NVIDIA driver found "
                               "(/nonexistent/libcuda.so.1 could not be "
                               "loaded: ",
                               0),
              0u)
        << result.err;
    EXPECT_EQ(countOccurrences(result.err, "\n"), 1u) << result.err;
  }
}

TEST(TileRunTest, NoDeviceIsOneClearLine) {
  CommandResult result =
      tileRun({"verify", fixture("tile_test_matmul_fill")},
              {{"TILE_CUDA_DRIVER_LIBRARY", TILE_FAKE_CUDA_DRIVER},
               {"TILE_FAKE_CUDA_INIT_RESULT", "100"}});
  // Other fake settings do not matter: cuInit fails first.
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.err, "tile-run: no CUDA-capable GPU (cuInit: "
                        "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is "
                        "detected)\n");
}

TEST(TileRunTest, InfoNeedsNoGpu) {
  CommandResult result =
      tileRun({"info", std::string(TILE_RUNTIME_TEST_DIR) + "/fixtures"},
              {{"TILE_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1"}});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  size_t accumulate = result.out.find("tile_test_matmul_accumulate (");
  size_t fill = result.out.find("tile_test_matmul_fill (");
  size_t strided = result.out.find("tile_test_matmul_strided (");
  ASSERT_NE(strided, std::string::npos) << result.out;
  EXPECT_LT(accumulate, fill);
  EXPECT_LT(fill, strided);
  EXPECT_EQ(countOccurrences(result.out, "(verified)"), 5u);
  EXPECT_NE(result.out.find("  problem    C = 0.5 + A*B, m=96 n=80 k=72, f32 "
                            "inputs, f32 accumulation (c_init fill)"),
            std::string::npos)
      << result.out;
  // The bf16 kernel: its cluster and tensor maps.
  EXPECT_NE(result.out.find("  launch     grid 5x6x1, block 16x16x1, cluster "
                            "1x2x1, 0 bytes dynamic shared memory\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("C   result bf16 96x80, strides 80,1, align 2, "
                            "write, needs 15360 bytes\n"
                            "  maps       0  A   box 16x16 (rows x cols), "
                            "swizzle none, L2 promotion 128B\n"
                            "             1  B   box 16x16 (rows x cols), "
                            "swizzle none, L2 promotion none\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("  problem    C += A*B, m=96 n=80 k=72, f16 "
                            "inputs, f32 accumulation (c_init accumulate)"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("B   rhs    f32 72x80, strides 1,72, align 16, "
                            "read, needs 23040 bytes"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("  launch     grid 5x6x1, block 16x16x1, 0 bytes "
                            "dynamic shared memory"),
            std::string::npos);
  EXPECT_NE(result.out.find("  resources  unknown (ptxas was not run)"),
            std::string::npos);
}

TEST(TileRunTest, InfoReportsBrokenArtifacts) {
  TempDir dir;
  std::string text = readFile(fixture("tile_test_matmul_fill"));
  writeFile(dir.file("broken.json"), text.substr(0, 100));
  CommandResult result = tileRun({"info", dir.file("broken.json")});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.err.rfind("tile-run: " + dir.file("broken.json") +
                                 ": manifest: line ",
                             0),
            0u)
      << result.err;
  result = tileRun({"info", dir.file("absent.json")});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.err, "tile-run: '" + dir.file("absent.json") +
                            "': No such file or directory\n");
}

TEST(TileRunTest, VerifyPassesCorrectKernels) {
  struct Case {
    const char *kernel, *spec, *init;
  } cases[] = {{"tile_test_matmul_fill", kFillSpec, "fill"},
               {"tile_test_matmul_accumulate", kAccumulateSpec, "accumulate"},
               {"tile_test_matmul_strided", kStridedSpec, "fill"}};
  for (const Case &c : cases) {
    CommandResult result =
        tileRun({"verify", fixture(c.kernel), "--seed", "7"}, fakeEnv(c.spec));
    EXPECT_EQ(result.exitCode, 0) << c.kernel << result.out << result.err;
    EXPECT_NE(result.out.find(std::string(c.kernel) + "  96x80x72  rel_err "),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find(std::string("  PASS  seed 7  (ptx, ") + c.init +
                              ", host f64 reference)"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("GPU 0: Fake GPU, 132 SMs, sm_90"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("\n1 passed, 0 failed\n"), std::string::npos);
    EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  }
}

/// Runs verify on the manifest `path` with the fake computing `spec` with
/// `bug`; expects a FAIL whose reason contains `reason`.
void expectVerifyFailsAt(const std::string &path, const char *spec,
                         const char *bug, const std::string &reason) {
  CommandResult result =
      tileRun({"verify", path, "--seed", "11"}, fakeEnv(spec, bug));
  EXPECT_FALSE(result.crashed);
  EXPECT_EQ(result.exitCode, 1) << path << " " << (bug ? bug : "");
  EXPECT_NE(result.out.find("FAIL  seed 11"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(reason), std::string::npos)
      << "expected '" << reason << "' in:\n"
      << result.out;
  EXPECT_NE(result.out.find("\n0 passed, 1 failed\n"), std::string::npos);
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

/// expectVerifyFailsAt on the fixture `kernel`.
void expectVerifyFails(const char *kernel, const char *spec, const char *bug,
                       const std::string &reason) {
  expectVerifyFailsAt(fixture(kernel), spec, bug, reason);
}

TEST(TileRunTest, VerifyCatchesAnUnwrittenElement) {
  expectVerifyFails("tile_test_matmul_fill", kFillSpec, "skip-last",
                    "1 elements are NaN or Inf, e.g. never written (first at "
                    "[95][79]: got nan");
}

TEST(TileRunTest, VerifyCatchesAnElementLeftAtC0) {
  expectVerifyFails("tile_test_matmul_accumulate", kAccumulateSpec, "skip-last",
                    "1 elements are off by more than rounding allows (first "
                    "at [95][79]");
}

TEST(TileRunTest, VerifyCatchesIgnoredC0) {
  expectVerifyFails("tile_test_matmul_accumulate", kAccumulateSpec, "ignore-c0",
                    "elements are off by more than rounding");
}

TEST(TileRunTest, VerifyCatchesTf32) {
  expectVerifyFails("tile_test_matmul_fill", kFillSpec, "tf32",
                    "is over the tolerance 1.000e-05");
}

TEST(TileRunTest, VerifyCatchesWrongFillValue) {
  expectVerifyFails("tile_test_matmul_strided",
                    "96 80 72 fill 0 72 1 1 72 84 1", nullptr,
                    "elements are off by more than rounding");
}

TEST(TileRunTest, VerifyCatchesWritesOutsideC) {
  expectVerifyFails("tile_test_matmul_fill", kFillSpec, "stray",
                    "1 values were written outside C's elements (first at "
                    "element offset 7680, past the end of C)");
}

TEST(TileRunTest, VerifyStopsAfterAKernelFault) {
  CommandResult result = tileRun({"verify", fixture("tile_test_matmul_fill"),
                                  fixture("tile_test_matmul_accumulate")},
                                 fakeEnv(kFillSpec, "fault"));
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_NE(result.out.find("the kernel failed while running: "
                            "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory "
                            "access was encountered"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("the CUDA context is unusable after that "
                            "failure: 1 remaining artifact(s) not run"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("\n0 passed, 2 failed\n"), std::string::npos);
  EXPECT_NE(result.err.find("[1/2] "), std::string::npos);
}

TEST(TileRunTest, VerifySeedRepeatsAndIsFreshByDefault) {
  CommandResult first =
      tileRun({"verify", fixture("tile_test_matmul_fill"), "--seed=123"},
              fakeEnv(kFillSpec));
  CommandResult second =
      tileRun({"verify", fixture("tile_test_matmul_fill"), "--seed", "123"},
              fakeEnv(kFillSpec));
  EXPECT_EQ(first.exitCode, 0);
  EXPECT_EQ(first.out, second.out);
  CommandResult third =
      tileRun({"verify", fixture("tile_test_matmul_fill")}, fakeEnv(kFillSpec));
  CommandResult fourth =
      tileRun({"verify", fixture("tile_test_matmul_fill")}, fakeEnv(kFillSpec));
  EXPECT_EQ(third.exitCode, 0);
  EXPECT_NE(third.out.find("\nseed "), std::string::npos);
  EXPECT_NE(third.out, fourth.out);
}

TEST(TileRunTest, BenchTableJsonAndCsv) {
  TempDir dir;
  Env env = fakeEnv(kFillSpec);
  env.push_back({"TILE_FAKE_CUDA_EVENT_MS", "0.5"});
  CommandResult result =
      tileRun({"bench", fixture("tile_test_matmul_fill"), "--no-cublas",
               "--warmup", "2", "--iters", "20", "--seed", "5", "--json",
               dir.file("out.json"), "--csv", dir.file("out.csv")},
              env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(
      result.err.find("[1/1] " + fixture("tile_test_matmul_fill") + " ..."),
      std::string::npos)
      << result.err;
  EXPECT_NE(result.out.find("cuBLAS comparison left out (--no-cublas)"),
            std::string::npos);
  EXPECT_NE(result.out.find("| kernel                | shape MxNxK | config "
                            "                          |     ms | TFLOP/s | "
                            "cuBLAS ms | cuBLAS TFLOP/s | ratio |"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("| tile_test_matmul_fill | 96x80x72    | "
                            "16x16x1/16x2/1x1/s1/g1/none/nopf | 0.5000 |    "
                            "0.00 |       n/a |            n/a |   n/a |"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  // The table is the last thing printed.
  EXPECT_EQ(result.out.substr(result.out.size() - 2), "|\n");

  std::string json = readFile(dir.file("out.json"));
  EXPECT_NE(json.find("\"name\": \"Fake GPU\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"cublas\": null"), std::string::npos);
  EXPECT_NE(json.find("\"iters\": 20"), std::string::npos);
  EXPECT_NE(json.find("\"seed\": 5"), std::string::npos);
  EXPECT_NE(json.find("\"ms\": 0.5, "), std::string::npos) << json;
  EXPECT_NE(json.find("\"tflops\": 0.00221184, "), std::string::npos) << json;
  // 1 MiB of L2 and 80 KiB per set: 2 * 1 MiB / 80 KiB + 1 = 26 sets.
  EXPECT_NE(json.find("\"buffer_sets\": 26"), std::string::npos) << json;
  EXPECT_NE(json.find("\"sm_clock_max_mhz\": 1980"), std::string::npos);

  std::string csv = readFile(dir.file("out.csv"));
  EXPECT_EQ(countOccurrences(csv, "\n"), 2u) << csv;
  EXPECT_EQ(
      csv.rfind("kernel,manifest,ok,m,n,k,config,binary,buffer_sets,ms,", 0),
      0u);
  EXPECT_NE(csv.find("tile_test_matmul_fill," +
                     fixture("tile_test_matmul_fill") +
                     ",1,96,80,72,16x16x1/16x2/1x1/s1/g1/none/nopf,ptx,26,"
                     "0.5,0.5,0.5,0.00221184,,,,,Fake GPU,,13000,1980,3201,"
                     "f32,f32,,1\n"),
            std::string::npos)
      << csv;
}

TEST(TileRunTest, BenchReportsLaunchFailures) {
  Env env = fakeEnv(kFillSpec);
  env.push_back({"TILE_FAKE_CUDA_LAUNCH_RESULT", "701"});
  CommandResult result =
      tileRun({"bench", fixture("tile_test_matmul_fill"), "--no-cublas"}, env);
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_NE(result.out.find("| tile_test_matmul_fill | 96x80x72    | "
                            "16x16x1/16x2/1x1/s1/g1/none/nopf | error |"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("tile_test_matmul_fill: cuLaunchKernel failed "
                            "for kernel tile_test_matmul_fill"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

//===----------------------------------------------------------------------===//
// bf16 and f16 kernels, and cuBLAS (the fake one)
//===----------------------------------------------------------------------===//

TEST(TileRunTest, VerifyPassesBf16AndF16Kernels) {
  struct Case {
    const char *kernel, *spec, *what;
  } cases[] = {
      {"tile_test_matmul_bf16_tma", kBf16Spec, "(ptx, fill, bf16 -> bf16, "},
      {"tile_test_matmul_f16", kF16Spec, "(ptx, accumulate, f16 -> f32, "}};
  for (const Case &c : cases) {
    CommandResult result =
        tileRun({"verify", fixture(c.kernel), "--seed", "7"}, fakeEnv(c.spec));
    EXPECT_EQ(result.exitCode, 0) << c.kernel << result.out << result.err;
    EXPECT_NE(result.out.find(std::string("  PASS  seed 7  ") + c.what +
                              "host f64 reference)"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  }
}

TEST(TileRunTest, VerifyCatchesBf16Bugs) {
  expectVerifyFails("tile_test_matmul_bf16_tma", kBf16Spec, "skip-last",
                    "1 elements are NaN or Inf, e.g. never written (first at "
                    "[95][79]: got nan");
  expectVerifyFails("tile_test_matmul_bf16_tma", kBf16Spec, "stray",
                    "1 values were written outside C's elements (first at "
                    "element offset 7680, past the end of C)");
  expectVerifyFails("tile_test_matmul_bf16_tma",
                    "96 80 72 fill 0.5 72 1 80 1 80 1 bf16 bf16", nullptr,
                    "elements are off by more than rounding allows");
  // The kernel reading f16 where the inputs are bf16.
  expectVerifyFails("tile_test_matmul_bf16_tma",
                    "96 80 72 fill 0 72 1 80 1 80 1 f16 bf16", nullptr,
                    "elements are off by more than rounding allows");
}

TEST(TileRunTest, VerifyCatchesAnF32ResultRoundedToF16) {
  // Each element is within the per-element bound, but the norm shows the
  // rounding an f32 C must not have.
  expectVerifyFails("tile_test_matmul_f16", kF16Spec, "round-c",
                    "is over the tolerance 1.000e-05");
  expectVerifyFails("tile_test_matmul_f16", kF16Spec, "ignore-c0",
                    "elements are off by more than rounding allows");
}

TEST(TileRunTest, VerifyBf16Accumulate) {
  // The bf16 kernel's manifest as an accumulating one: C0 is bf16 too.
  TempDir dir;
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  std::string text = readFile(fixture("tile_test_matmul_bf16_tma"));
  auto replace = [&](const std::string &from, const std::string &to) {
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("\"c_init\": \"fill\"", "\"c_init\": \"accumulate\"");
  replace("\"access\": \"write\"", "\"access\": \"readwrite\"");
  writeFile(dir.file("acc.json"), text);
  const char *spec = "96 80 72 accumulate 0 72 1 80 1 80 1 bf16 bf16";
  CommandResult result =
      tileRun({"verify", dir.file("acc.json"), "--seed", "3"}, fakeEnv(spec));
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("PASS  seed 3  (ptx, accumulate, bf16 -> bf16, "),
            std::string::npos)
      << result.out;
  result = tileRun({"verify", dir.file("acc.json"), "--seed", "3"},
                   fakeEnv(spec, "ignore-c0"));
  EXPECT_EQ(result.exitCode, 1) << result.out;
  EXPECT_NE(result.out.find("elements are off by more than rounding allows"),
            std::string::npos)
      << result.out;
}

/// fakeEnv with the fake cuBLAS, logging to `log`.
Env cublasEnv(const char *spec, const std::string &log) {
  Env env = fakeEnv(spec);
  static std::vector<std::string> keep;
  keep.push_back(log);
  env.push_back({"TILE_CUBLAS_LIBRARY", TILE_FAKE_CUBLAS});
  env.push_back({"TILE_FAKE_CUBLAS_LOG", keep.back().c_str()});
  return env;
}

TEST(TileRunTest, VerifyWithTheCublasReference) {
  TempDir dir;
  struct Case {
    const char *kernel, *spec;
  } cases[] = {{"tile_test_matmul_strided", kStridedSpec},
               {"tile_test_matmul_bf16_tma", kBf16Spec},
               {"tile_test_matmul_f16", kF16Spec}};
  for (const Case &c : cases) {
    std::string log = dir.file(std::string(c.kernel) + ".log");
    CommandResult result = tileRun(
        {"verify", fixture(c.kernel), "--seed", "5", "--reference", "cublas"},
        cublasEnv(c.spec, log));
    EXPECT_EQ(result.exitCode, 0) << c.kernel << result.out << result.err;
    EXPECT_NE(result.out.find("cuBLAS DGEMM reference)"), std::string::npos)
        << result.out;
    // Row-major C = A*B as column-major C^T = B^T A^T, in pedantic math.
    EXPECT_EQ(readFile(log), "dgemm math=2 transa=0 transb=0 m=80 n=96 k=72 "
                             "alpha=1 lda=80 ldb=72 beta=1 ldc=80\n")
        << c.kernel;
    EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  }
}

TEST(TileRunTest, BenchComparesWithCublasOfTheSameTypes) {
  TempDir dir;
  std::string log = dir.file("cublas.log");
  Env env = cublasEnv(kBf16Spec, log);
  CommandResult result = tileRun(
      {"bench", fixture("tile_test_matmul_fill"),
       fixture("tile_test_matmul_bf16_tma"), fixture("tile_test_matmul_f16"),
       "--warmup", "1", "--iters", "20", "--seed", "9", "--json",
       dir.file("out.json"), "--csv", dir.file("out.csv")},
      env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("cuBLAS 13.0.1 (" + std::string(TILE_FAKE_CUBLAS) +
                            "), pedantic FP32 math"),
            std::string::npos)
      << result.out;
  // With a kernel that is not all f32, the table says the types.
  EXPECT_NE(result.out.find("| kernel                    | shape MxNxK | types "
                            "       | config "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("| tile_test_matmul_fill     | 96x80x72    | f32  "
                            "        | 16x16x1/16x2/1x1/s1/g1/none/nopf | "
                            "0.2500 |    0.00 |    0.2500 |           0.00 |  "
                            "1.00 |"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("| tile_test_matmul_bf16_tma | 96x80x72    | bf16 "
                            "-> bf16 | "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("| tile_test_matmul_f16      | 96x80x72    | f16 "
                            "-> f32   | "),
            std::string::npos)
      << result.out;
  // f32: SGEMM in pedantic math; bf16 and f16: GemmEx of the kernel's types
  // (CUDA_R_16BF 14, CUDA_R_16F 2, CUDA_R_32F 0) with FP32 compute (68) in
  // the default math mode, beta 0 for fill and 1 for accumulate.
  EXPECT_EQ(readFile(log),
            "sgemm math=2 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 "
            "ldb=72 beta=0 ldc=80\n"
            "gemm_ex math=0 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 "
            "ldb=72 beta=0 ldc=80 atype=14 btype=14 ctype=14 compute=68 "
            "algo=-1\n"
            "gemm_ex math=0 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 "
            "ldb=72 beta=1 ldc=80 atype=2 btype=2 ctype=0 compute=68 "
            "algo=-1\n");
  std::string json = readFile(dir.file("out.json"));
  EXPECT_NE(json.find("\"math_mode\": \"pedantic\", \"gemm_ex_math_mode\": "
                      "\"default\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"k\": 72, \"batch\": 1, \"element_type\": \"bf16\", "
                      "\"result_type\": \"bf16\", \"config\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"element_type\": \"f16\", \"result_type\": \"f32\""),
            std::string::npos)
      << json;
  EXPECT_EQ(countOccurrences(json, "\"cublas_call\": \"gemm_ex\""), 2u) << json;
  EXPECT_EQ(countOccurrences(json, "\"cublas_call\": \"sgemm\""), 1u) << json;
  std::string csv = readFile(dir.file("out.csv"));
  EXPECT_NE(csv.find(",3201,bf16,bf16,gemm_ex,1\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",3201,f16,f32,gemm_ex,1\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",3201,f32,f32,sgemm,1\n"), std::string::npos) << csv;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

//===----------------------------------------------------------------------===//
// TF32 kernels: f32 inputs with strategy wgmma (the fixtures with that
// strategy; the fake driver's "tf32" bug reads their inputs as TF32)
//===----------------------------------------------------------------------===//

/// The manifest at `from` changed by `change`, written to `dir`/`name`
/// beside a copy of naive_matmul.ptx (the fixtures' PTX). Returns its path
/// (empty on failure).
std::string
writeChangedManifest(const TempDir &dir, const std::string &from,
                     const std::string &name,
                     const std::function<void(tile::runtime::KernelManifest &)>
                         &change) {
  tile::runtime::KernelManifest manifest;
  std::string error;
  if (!tile::runtime::parseManifestJson(readFile(from), manifest, error))
    return "";
  change(manifest);
  std::string path = dir.file(name);
  if (!writeFile(dir.file("naive_matmul.ptx"),
                 readFile(fixturePath("naive_matmul.ptx"))) ||
      !writeFile(path, tile::runtime::writeManifestJson(manifest)))
    return "";
  return path;
}

/// The manifest at `from` as a TF32 kernel (config.strategy wgmma, its f32
/// params as they are), written to `dir`/`name`.
std::string writeTf32Manifest(const TempDir &dir, const std::string &from,
                              const std::string &name) {
  return writeChangedManifest(dir, from, name, [](auto &manifest) {
    manifest.config.strategy = tile::runtime::KernelStrategy::Wgmma;
  });
}

TEST(TileRunTest, VerifyPassesTf32KernelsAndCatchesTheirBugs) {
  TempDir dir;
  std::string fill = writeTf32Manifest(dir, fixture("tile_test_matmul_fill"),
                                       "tf32_fill.json");
  std::string accumulate = writeTf32Manifest(
      dir, fixture("tile_test_matmul_accumulate"), "tf32_accumulate.json");
  ASSERT_FALSE(fill.empty());
  ASSERT_FALSE(accumulate.empty());
  // Inputs truncated to TF32, which fail an f32 kernel with this seed
  // (VerifyCatchesTf32), pass a TF32 kernel's tolerances.
  struct Case {
    std::string path;
    const char *spec, *init;
  } cases[] = {{fill, kFillSpec, "fill"},
               {accumulate, kAccumulateSpec, "accumulate"}};
  for (const Case &c : cases) {
    CommandResult result =
        tileRun({"verify", c.path, "--seed", "11"}, fakeEnv(c.spec, "tf32"));
    EXPECT_EQ(result.exitCode, 0) << c.path << result.out << result.err;
    EXPECT_NE(result.out.find(std::string("  PASS  seed 11  (ptx, ") + c.init +
                              ", tf32 -> f32, host f64 reference)"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  }
  // A TF32 kernel with a wrong index still fails: an element left at C0,
  // C0 ignored, two rows written to each other's place.
  expectVerifyFailsAt(accumulate, kAccumulateSpec, "tf32,skip-last",
                      "1 elements are off by more than rounding allows "
                      "(first at [95][79]");
  expectVerifyFailsAt(accumulate, kAccumulateSpec, "tf32,ignore-c0",
                      "elements are off by more than rounding allows");
  expectVerifyFailsAt(fill, kFillSpec, "tf32,swap-rows",
                      "elements are off by more than rounding allows (first "
                      "at [0][0]");
  expectVerifyFailsAt(accumulate, kAccumulateSpec, "tf32,swap-rows",
                      "elements are off by more than rounding allows (first "
                      "at [0][0]");
}

TEST(TileRunTest, BenchRunsTf32KernelsAgainstCublasInTf32) {
  TempDir dir;
  std::string plain = writeTf32Manifest(dir, fixture("tile_test_matmul_fill"),
                                        "tf32_fill.json");
  std::string batched = writeTf32Manifest(
      dir, writeBatchedFixture(dir, "tile_test_matmul_fill", 3, 16),
      "tf32_fill_batched.json");
  ASSERT_FALSE(plain.empty());
  ASSERT_FALSE(batched.empty());
  std::string log = dir.file("cublas.log");
  // The fake kernel computes nothing here (bench does not check it).
  CommandResult result =
      tileRun({"bench", plain, batched, fixture("tile_test_matmul_fill"),
               "--warmup", "1", "--iters", "20", "--seed", "9", "--json",
               dir.file("out.json"), "--csv", dir.file("out.csv")},
              cublasEnv(nullptr, log));
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  // TF32 kernels: f32 A, B and C (CUDA_R_32F 0) with
  // CUBLAS_COMPUTE_32F_FAST_TF32 (77) in the default math mode, GemmEx and
  // the strided batched GEMM alike; the f32 fma kernel after them still
  // gets SGEMM in pedantic math.
  EXPECT_EQ(readFile(log),
            "gemm_ex math=0 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 "
            "ldb=72 beta=0 ldc=80 atype=0 btype=0 ctype=0 compute=77 "
            "algo=-1\n"
            "gemm_strided_batched_ex math=0 transa=0 transb=0 m=80 n=96 k=72 "
            "alpha=1 lda=80 ldb=72 beta=0 ldc=80 atype=0 btype=0 ctype=0 "
            "compute=77 algo=-1 stridea=5776 strideb=6928 stridec=7696 "
            "batch=3\n"
            "sgemm math=2 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 "
            "ldb=72 beta=0 ldc=80\n");
  // The table's types say TF32 for the kernels, the notes for cuBLAS.
  EXPECT_EQ(countOccurrences(result.out, " | tf32 -> f32 | "), 2u)
      << result.out;
  EXPECT_EQ(countOccurrences(result.out, " | f32         | "), 1u)
      << result.out;
  EXPECT_EQ(countOccurrences(result.out,
                             "tile_test_matmul_fill: cuBLAS ran in TF32 "
                             "(CUBLAS_COMPUTE_32F_FAST_TF32)\n"),
            2u)
      << result.out;
  EXPECT_EQ(result.out.find("cuBLAS n/a"), std::string::npos) << result.out;
  std::string json = readFile(dir.file("out.json"));
  EXPECT_EQ(countOccurrences(json, "\"cublas_call\": \"gemm_ex_tf32\""), 1u)
      << json;
  EXPECT_EQ(countOccurrences(
                json, "\"cublas_call\": \"gemm_strided_batched_ex_tf32\""),
            1u)
      << json;
  EXPECT_EQ(countOccurrences(json, "\"cublas_call\": \"sgemm\""), 1u) << json;
  std::string csv = readFile(dir.file("out.csv"));
  EXPECT_NE(csv.find(",3201,f32,f32,gemm_ex_tf32,1\n"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",3201,f32,f32,gemm_strided_batched_ex_tf32,3\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",3201,f32,f32,sgemm,1\n"), std::string::npos) << csv;
  EXPECT_EQ(countOccurrences(csv, "cuBLAS ran in TF32"), 2u) << csv;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

TEST(FakeCublasTest, FastTf32ReadsTheInputsAsTf32) {
  // In this process: the fake cuBLAS on host memory (its "device" memory).
  ScopedEnv library("TILE_CUBLAS_LIBRARY", TILE_FAKE_CUBLAS);
  std::string error;
  const tile::run::Cublas *cublas = tile::run::loadCublas(error);
  ASSERT_NE(cublas, nullptr) << error;
  ASSERT_EQ(cublas->path, TILE_FAKE_CUBLAS);
  ASSERT_NE(cublas->gemmEx, nullptr);
  tile::run::CublasHandle handle = nullptr;
  ASSERT_EQ(cublas->create(&handle), 0);
  // C (1x1) = A (1x2) * B (2x1): 1 + 2^-12 is 1 in TF32, 1 + 2^-10 + 2^-11
  // (a tie) rounds to 1 + 2^-9.
  const float a[2] = {1 + 0x1p-12f, 1 + 0x1p-10f + 0x1p-11f}, b[2] = {1, 1};
  const float alpha = 1, beta = 0;
  float c = 0;
  auto gemm = [&](int computeType, int type) {
    c = 0;
    return cublas->gemmEx(handle, tile::run::CUBLAS_OP_N,
                          tile::run::CUBLAS_OP_N, 1, 1, 2, &alpha, a, type, 1,
                          b, type, 2, &beta, &c, tile::run::CUDA_R_32F, 1,
                          computeType, tile::run::CUBLAS_GEMM_DEFAULT);
  };
  EXPECT_EQ(
      gemm(tile::run::CUBLAS_COMPUTE_32F_FAST_TF32, tile::run::CUDA_R_32F), 0);
  EXPECT_EQ(c, 2 + 0x1p-9f);
  EXPECT_EQ(gemm(tile::run::CUBLAS_COMPUTE_32F, tile::run::CUDA_R_32F), 0);
  EXPECT_EQ(c, 2 + 0x1p-10f + 0x1p-11f + 0x1p-12f);
  // TF32 is for f32 data only; plain GemmEx has no pedantic compute here.
  EXPECT_NE(
      gemm(tile::run::CUBLAS_COMPUTE_32F_FAST_TF32, tile::run::CUDA_R_16BF), 0);
  EXPECT_NE(gemm(tile::run::CUBLAS_COMPUTE_32F_PEDANTIC, tile::run::CUDA_R_32F),
            0);
  cublas->destroy(handle);
}

//===----------------------------------------------------------------------===//
// Batched kernels (the fixtures as batches, the fake computing each matrix)
//===----------------------------------------------------------------------===//

/// fakeEnv for a batched fixture: TILE_FAKE_CUDA_BATCH with the strides
/// "bsA bsB bsC".
Env batchedEnv(const char *spec, const std::string &strides,
               const char *bug = nullptr) {
  static std::vector<std::string> keep;
  keep.push_back(strides);
  Env env = fakeEnv(spec, bug);
  env.push_back({"TILE_FAKE_CUDA_BATCH", keep.back().c_str()});
  return env;
}

/// The batch strides of a fixture whose A, B and C are dense 96x72, 72x80
/// and 96x80 (C's rows `cRowStride` apart), each `gap` elements past its
/// matrix.
std::string denseStrides(int64_t gap, int64_t cRowStride = 80) {
  return std::to_string(96 * 72 + gap) + " " + std::to_string(72 * 80 + gap) +
         " " + std::to_string(95 * cRowStride + 80 + gap);
}

TEST(TileRunTest, VerifyPassesBatchedKernels) {
  TempDir dir;
  struct Case {
    const char *kernel, *spec, *init;
    int64_t gap, cRowStride;
  } cases[] = {
      {"tile_test_matmul_fill", kFillSpec, "fill", 0, 80},
      {"tile_test_matmul_accumulate", kAccumulateSpec, "accumulate", 8, 80},
      {"tile_test_matmul_strided", kStridedSpec, "fill", 16, 84}};
  for (const Case &c : cases) {
    std::string path = writeBatchedFixture(dir, c.kernel, 3, c.gap);
    ASSERT_FALSE(path.empty());
    // The strided fixture's B is column-major 72x80: it spans 72*80 too.
    CommandResult result =
        tileRun({"verify", path, "--seed", "7"},
                batchedEnv(c.spec, denseStrides(c.gap, c.cRowStride)));
    EXPECT_EQ(result.exitCode, 0) << c.kernel << result.out << result.err;
    EXPECT_NE(
        result.out.find(std::string(c.kernel) + "  3 x 96x80x72  rel_err "),
        std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find(std::string("  PASS  seed 7  (ptx, ") + c.init +
                              ", host f64 reference)"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  }
  // f16 inputs with an f32 C.
  std::string path = writeBatchedFixture(dir, "tile_test_matmul_f16", 2, 8);
  CommandResult result = tileRun({"verify", path, "--seed", "7"},
                                 batchedEnv(kF16Spec, denseStrides(8)));
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("tile_test_matmul_f16  2 x 96x80x72  rel_err "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("PASS  seed 7  (ptx, accumulate, f16 -> f32, "),
            std::string::npos)
      << result.out;
}

/// verify on the fill fixture as a batch of 3 (`gap` elements between the
/// matrices), the fake computing with `strides` and `bug`; expects a FAIL
/// whose reason contains `reason`.
void expectBatchedVerifyFails(const char *kernel, const char *spec, int64_t gap,
                              const std::string &strides, const char *bug,
                              const std::string &reason) {
  TempDir dir;
  std::string path = writeBatchedFixture(dir, kernel, 3, gap);
  ASSERT_FALSE(path.empty());
  CommandResult result =
      tileRun({"verify", path, "--seed", "11"}, batchedEnv(spec, strides, bug));
  EXPECT_FALSE(result.crashed);
  EXPECT_EQ(result.exitCode, 1) << kernel << " " << (bug ? bug : "");
  EXPECT_NE(result.out.find(std::string(kernel) + "  3 x 96x80x72  "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("FAIL  seed 11"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(reason), std::string::npos)
      << "expected '" << reason << "' in:\n"
      << result.out;
  EXPECT_NE(result.out.find("\n0 passed, 1 failed\n"), std::string::npos);
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

TEST(TileRunTest, VerifyChecksEveryBatch) {
  // A kernel that computes matrix 0 only: the others stay NaN (fill) or
  // at C0 (accumulate).
  expectBatchedVerifyFails("tile_test_matmul_fill", kFillSpec, 0,
                           denseStrides(0), "one-batch",
                           "15360 elements are NaN or Inf, e.g. never written "
                           "(first at [1][0][0]: got nan");
  expectBatchedVerifyFails("tile_test_matmul_accumulate", kAccumulateSpec, 0,
                           denseStrides(0), "one-batch",
                           "elements are off by more than rounding allows "
                           "(first at [1][0][0]");
  // The last element of the last matrix unwritten.
  expectBatchedVerifyFails("tile_test_matmul_fill", kFillSpec, 0,
                           denseStrides(0), "skip-last",
                           "1 elements are NaN or Inf, e.g. never written "
                           "(first at [2][95][79]: got nan");
  // A write past the last matrix.
  expectBatchedVerifyFails("tile_test_matmul_fill", kFillSpec, 0,
                           denseStrides(0), "stray",
                           "1 values were written outside C's elements (first "
                           "at element offset 23040, past the end of C)");
  // A kernel that ignores the gaps between C's matrices writes into them
  // (and leaves the end of the last matrix unwritten).
  expectBatchedVerifyFails("tile_test_matmul_fill", kFillSpec, 4,
                           "6916 5764 7680", nullptr,
                           "values were written outside C's elements (first "
                           "at element offset 7680, in C's padding)");
  // Reading B's matrices at the wrong stride gives wrong values.
  expectBatchedVerifyFails("tile_test_matmul_fill", kFillSpec, 0,
                           "6912 5759 7680", nullptr,
                           "elements are off by more than rounding allows "
                           "(first at [1][");
}

TEST(TileRunTest, InfoShowsTheBatch) {
  TempDir dir;
  std::string path =
      writeBatchedFixture(dir, "tile_test_matmul_strided", 4, 16);
  ASSERT_FALSE(path.empty());
  CommandResult result = tileRun({"info", path});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.out.find("  problem    C[b] = 0.5 + A[b]*B[b] for b < 4, "
                            "m=96 n=80 k=72, f32 inputs, f32 accumulation "
                            "(c_init fill)\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("  launch     grid 5x4x1, block 16x16x1, "),
            std::string::npos)
      << result.out;
  // B: 72x80 column-major, 5776 apart: 3*5776 + 5760 elements.
  EXPECT_NE(result.out.find("B   rhs    f32 4 x 72x80, strides 1,72, "
                            "batch_stride 5776, align 16, read, needs " +
                            std::to_string((3 * 5776 + 5760) * 4) + " bytes\n"),
            std::string::npos)
      << result.out;
}

//===----------------------------------------------------------------------===//
// Strided params with offsets (memref subviews: the kernel takes each
// buffer's start and adds the offset)
//===----------------------------------------------------------------------===//

/// The fixture `name` with A, B and C at `offsets` elements into their
/// buffers, written to `dir` with the PTX.
std::string writeOffsetFixture(const TempDir &dir, const std::string &name,
                               const int64_t (&offsets)[3]) {
  return writeChangedManifest(dir, fixturePath(name + ".json"),
                              name + "_offsets.json", [&](auto &manifest) {
                                for (int i = 0; i < 3; ++i)
                                  manifest.params[i].offset = offsets[i];
                              });
}

TEST(TileRunTest, VerifyPassesKernelsWithOffsets) {
  TempDir dir;
  struct Case {
    const char *kernel, *spec, *init;
  } cases[] = {{"tile_test_matmul_accumulate", kAccumulateSpec, "accumulate"},
               {"tile_test_matmul_strided", kStridedSpec, "fill"}};
  for (const Case &c : cases) {
    std::string path = writeOffsetFixture(dir, c.kernel, {4, 12, 8});
    ASSERT_FALSE(path.empty());
    Env env = fakeEnv(c.spec);
    env.push_back({"TILE_FAKE_CUDA_OFFSETS", "4 12 8"});
    CommandResult result = tileRun({"verify", path, "--seed", "7"}, env);
    EXPECT_EQ(result.exitCode, 0) << c.kernel << result.out << result.err;
    EXPECT_NE(result.out.find(std::string("  PASS  seed 7  (ptx, ") + c.init),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  }
  // info shows the offsets and counts them in the bytes a buffer needs.
  std::string path =
      writeOffsetFixture(dir, "tile_test_matmul_accumulate", {4, 12, 8});
  CommandResult info = tileRun({"info", path});
  EXPECT_NE(info.out.find("C   result f32 96x80, strides 80,1, offset 8, "
                          "align 16, readwrite, needs " +
                          std::to_string((96 * 80 + 8) * 4) + " bytes\n"),
            std::string::npos)
      << info.out;
}

TEST(TileRunTest, VerifyRunsDynamicLayouts) {
  // A's offset and row stride and C's row stride dynamic: verify picks one
  // 16-byte step past the densest (A: offset 4, rows 76 apart; C: rows 84
  // apart), or --layout's values, and says which it ran.
  TempDir dir;
  std::string path = writeChangedManifest(
      dir, fixturePath("tile_test_matmul_accumulate.json"), "dynamic.json",
      [](auto &manifest) {
        manifest.params[0].offset = tile::runtime::kDynamic;
        manifest.params[0].rowStride = tile::runtime::kDynamic;
        manifest.params[2].rowStride = tile::runtime::kDynamic;
        std::string error;
        EXPECT_TRUE(tile::runtime::validateManifest(manifest, error)) << error;
      });
  ASSERT_FALSE(path.empty());
  Env env = fakeEnv("96 80 72 accumulate 0 76 1 80 1 84 1");
  env.push_back({"TILE_FAKE_CUDA_OFFSETS", "4 0 0"});
  CommandResult result = tileRun({"verify", path, "--seed", "7"}, env);
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("  PASS  seed 7  (ptx, accumulate, host f64 "
                            "reference)  A{offset=4 row_stride=76}  "
                            "C{row_stride=84}\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  // Given values.
  Env given = fakeEnv("96 80 72 accumulate 0 96 1 80 1 100 1");
  given.push_back({"TILE_FAKE_CUDA_OFFSETS", "8 0 0"});
  result = tileRun({"verify", path, "--seed", "7", "--layout", "A.offset=8",
                    "--layout", "A.row_stride=96", "--layout=C.row_stride=100",
                    "--layout", "B.row_stride=80"},
                   given);
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("A{offset=8 row_stride=96}  C{row_stride=100}"),
            std::string::npos)
      << result.out;
  // The runtime's rules, with a named argument; a param the kernel lacks.
  result = tileRun({"verify", path, "--layout", "A.row_stride=81"}, env);
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE((result.out + result.err)
                .find("argument 0 (A): row_stride 81 (324 bytes) is not a "
                      "multiple of the 16 bytes the kernel assumes of its "
                      "dynamic offset and strides"),
            std::string::npos)
      << result.out << result.err;
  result = tileRun({"verify", path, "--layout", "D.row_stride=80"}, env);
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE((result.out + result.err)
                .find("--layout D.row_stride=80 names param 'D', which "
                      "kernel tile_test_matmul_accumulate does not have"),
            std::string::npos)
      << result.out << result.err;
  // info shows the dynamic fields.
  CommandResult info = tileRun({"info", path});
  EXPECT_NE(info.out.find("A   lhs    f32 96x72, strides dynamic,1, offset "
                          "dynamic, align 16, read, needs what its layout "
                          "spans\n"),
            std::string::npos)
      << info.out;
}

TEST(TileRunTest, VerifyReadsOverlappingRowsOfAAsTheBufferHoldsThem) {
  // A's rows 40 elements apart with 72 columns each (a strided operand that
  // is only read may overlap): the reference takes what the buffer holds
  // after A's later rows overwrote the ends of earlier ones.
  TempDir dir;
  tile::runtime::KernelManifest manifest;
  std::string error;
  ASSERT_TRUE(tile::runtime::parseManifestJson(
      readFile(fixturePath("tile_test_matmul_accumulate.json")), manifest,
      error))
      << error;
  manifest.params[0].rowStride = 40;
  ASSERT_TRUE(tile::runtime::validateManifest(manifest, error)) << error;
  ASSERT_TRUE(writeFile(dir.file("naive_matmul.ptx"),
                        readFile(fixturePath("naive_matmul.ptx"))));
  std::string path = dir.file("overlap.json");
  ASSERT_TRUE(writeFile(path, tile::runtime::writeManifestJson(manifest)));
  CommandResult result =
      tileRun({"verify", path, "--seed", "7"},
              fakeEnv("96 80 72 accumulate 0 40 1 80 1 80 1"));
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("  PASS  seed 7  (ptx, accumulate"),
            std::string::npos)
      << result.out;
}

TEST(TileRunTest, VerifyCatchesAKernelThatIgnoresTheOffsets) {
  // The kernel reads A, B and C at the buffers' starts: C's elements are
  // written 8 elements early (outside C where they precede it, over the
  // wrong elements elsewhere).
  TempDir dir;
  std::string path =
      writeOffsetFixture(dir, "tile_test_matmul_fill", {4, 12, 8});
  ASSERT_FALSE(path.empty());
  CommandResult result =
      tileRun({"verify", path, "--seed", "11"}, fakeEnv(kFillSpec));
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("FAIL  seed 11"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\n0 passed, 1 failed\n"), std::string::npos);
  // Only C's offset wrong: A and B right.
  Env env = fakeEnv(kFillSpec);
  env.push_back({"TILE_FAKE_CUDA_OFFSETS", "4 12 0"});
  result = tileRun({"verify", path, "--seed", "11"}, env);
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("values were written outside C's elements"),
            std::string::npos)
      << result.out;
}

TEST(TileRunTest, VerifyBatchedWithTheCublasReference) {
  TempDir dir;
  std::string path = writeBatchedFixture(dir, "tile_test_matmul_accumulate", 2);
  std::string log = dir.file("cublas.log");
  Env env = cublasEnv(kAccumulateSpec, log);
  std::string strides = denseStrides(0);
  env.push_back({"TILE_FAKE_CUDA_BATCH", strides.c_str()});
  CommandResult result =
      tileRun({"verify", path, "--seed", "5", "--reference", "cublas"}, env);
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("2 x 96x80x72  rel_err "), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("cuBLAS DGEMM reference)"), std::string::npos)
      << result.out;
  // One DGEMM per matrix (the log keeps lines that differ from the last).
  EXPECT_EQ(readFile(log), "dgemm math=2 transa=0 transb=0 m=80 n=96 k=72 "
                           "alpha=1 lda=80 ldb=72 beta=1 ldc=80\n");
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

TEST(TileRunTest, BenchComparesBatchedKernelsWithStridedBatchedGemm) {
  TempDir dir;
  std::string fill = writeBatchedFixture(dir, "tile_test_matmul_fill", 3, 16);
  std::string f16 = writeBatchedFixture(dir, "tile_test_matmul_f16", 2);
  std::string log = dir.file("cublas.log");
  // The fake kernel computes nothing here (bench does not check it).
  Env env = cublasEnv(nullptr, log);
  env.push_back({"TILE_FAKE_CUDA_EVENT_MS", "0.5"});
  CommandResult result = tileRun(
      {"bench", fill, f16, "--warmup", "1", "--iters", "20", "--seed", "9",
       "--json", dir.file("out.json"), "--csv", dir.file("out.csv")},
      env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  // Row-major C: B's matrices first, as for the plain GEMM, with each
  // param's batch stride; f32 in pedantic math with pedantic FP32 compute
  // (69), f16 -> f32 in the default math mode with FP32 compute (68).
  EXPECT_EQ(readFile(log),
            "gemm_strided_batched_ex math=2 transa=0 transb=0 m=80 n=96 k=72 "
            "alpha=1 lda=80 ldb=72 beta=0 ldc=80 atype=0 btype=0 ctype=0 "
            "compute=69 algo=-1 stridea=5776 strideb=6928 stridec=7696 "
            "batch=3\n"
            "gemm_strided_batched_ex math=0 transa=0 transb=0 m=80 n=96 k=72 "
            "alpha=1 lda=80 ldb=72 beta=1 ldc=80 atype=2 btype=2 ctype=0 "
            "compute=68 algo=-1 stridea=5760 strideb=6912 stridec=7680 "
            "batch=2\n");
  // The shape says the batch; TFLOP/s count every matrix: 2*3*96*80*72
  // flops in 0.5 ms.
  EXPECT_NE(result.out.find("| tile_test_matmul_fill | 3 x 96x80x72 | f32 "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("| 0.5000 |    0.01 |    0.5000 |           0.01 "
                            "|  1.00 |"),
            std::string::npos)
      << result.out;
  std::string json = readFile(dir.file("out.json"));
  EXPECT_NE(json.find("\"k\": 72, \"batch\": 3, \"element_type\": \"f32\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"tflops\": 0.00663552, "), std::string::npos) << json;
  EXPECT_NE(json.find("\"cublas_tflops\": 0.00663552, "), std::string::npos)
      << json;
  EXPECT_EQ(countOccurrences(json, "\"cublas_call\": "
                                   "\"gemm_strided_batched_ex\""),
            2u)
      << json;
  std::string csv = readFile(dir.file("out.csv"));
  EXPECT_NE(csv.find(",3201,f32,f32,gemm_strided_batched_ex,3\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",3201,f16,f32,gemm_strided_batched_ex,2\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

TEST(TileRunTest, BenchSaysWhenCublasHasNoStridedBatchedGemm) {
  TempDir dir;
  std::string path = writeBatchedFixture(dir, "tile_test_matmul_fill", 2);
  Env env = fakeEnv(nullptr);
  env.push_back({"TILE_CUBLAS_LIBRARY", TILE_FAKE_CUBLAS_NO_STRIDED_BATCHED});
  CommandResult result = tileRun(
      {"bench", path, "--warmup", "1", "--iters", "20", "--seed", "9"}, env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("| tile_test_matmul_fill | 2 x 96x80x72 | "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("tile_test_matmul_fill: cuBLAS n/a: " +
                            std::string(TILE_FAKE_CUBLAS_NO_STRIDED_BATCHED) +
                            " has no cublasGemmStridedBatchedEx"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  // Unbatched kernels still run SGEMM with that library.
  result = tileRun({"bench", fixture("tile_test_matmul_fill"), "--warmup", "1",
                    "--iters", "20"},
                   env);
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_EQ(result.out.find("cuBLAS n/a"), std::string::npos) << result.out;
}

//===----------------------------------------------------------------------===//
// Fused epilogues cuBLASLt does not run: the GEMM, then a separate
// elementwise kernel (NVRTC; the fake one builds it for the host)
//===----------------------------------------------------------------------===//

/// Adds a fused epilogue of `steps` to `manifest`: one dense row-major f32
/// param per operand kind (E0, E1, ... after C), in a batched kernel with a
/// matrix or vector per batch where `perBatch` says so.
void addEpilogue(tile::runtime::KernelManifest &manifest,
                 const std::vector<tile::runtime::EpilogueOperandKind> &kinds,
                 const std::vector<std::string> &steps,
                 const std::vector<bool> &perBatch = {}) {
  using tile::runtime::EpilogueOperandKind;
  const int64_t m = manifest.problem.m, n = manifest.problem.n;
  for (size_t j = 0; j < kinds.size(); ++j) {
    tile::runtime::ParamInfo param;
    param.name = "E" + std::to_string(j);
    param.role = tile::runtime::ParamRole::Epilogue;
    param.rows = kinds[j] == EpilogueOperandKind::Col ? 1 : m;
    param.cols = kinds[j] == EpilogueOperandKind::Row ? 1 : n;
    param.rowStride = param.cols;
    param.colStride = 1;
    if (j < perBatch.size() && perBatch[j])
      param.batchStride = param.rows * param.cols;
    param.alignment = 16;
    param.access = tile::runtime::ParamAccess::Read;
    manifest.params.push_back(param);
    manifest.epilogue.operands.push_back({param.name, kinds[j]});
  }
  manifest.epilogue.steps = steps;
}

/// Two vector operands (a bias per column, a scale per row) and tanh: no
/// cuBLASLt epilogue computes it.
const std::vector<std::string> kTwoVectorSteps = {"addf acc p0", "mulf s0 p1",
                                                  "tanh s1"};

std::string writeEpilogueFixture(const TempDir &dir, const std::string &from,
                                 const std::string &name) {
  using tile::runtime::EpilogueOperandKind;
  return writeChangedManifest(dir, from, name, [](auto &manifest) {
    addEpilogue(manifest, {EpilogueOperandKind::Col, EpilogueOperandKind::Row},
                kTwoVectorSteps);
  });
}

/// cublasEnv with the fake driver applying `manifest`'s epilogue, the fake
/// NVRTC (`nvrtc`) logging to `dir`/nvrtc.log and, with `hostKernels`,
/// building the kernels with the host's compiler into `dir`.
Env epilogueEnv(const char *spec, const TempDir &dir,
                const std::string &manifest, bool hostKernels = true,
                const char *nvrtc = TILE_FAKE_NVRTC) {
  static std::vector<std::string> keep;
  keep.push_back(manifest);
  const char *epilogue = keep.back().c_str();
  keep.push_back(dir.file("nvrtc.log"));
  const char *log = keep.back().c_str();
  keep.push_back(dir.path());
  const char *path = keep.back().c_str();
  Env env = cublasEnv(spec, dir.file("cublas.log"));
  env.insert(env.end(),
             {{"TILE_FAKE_CUDA_EPILOGUE", epilogue},
              {"TILE_NVRTC_LIBRARY", nvrtc},
              {"TILE_FAKE_NVRTC_LOG", log},
              {"TILE_FAKE_NVRTC_CXX", hostKernels ? TILE_HOST_CXX : nullptr},
              {"TILE_FAKE_NVRTC_DIR", path},
              {"TILE_FAKE_NVRTC_FAIL", nullptr},
              // A real cuBLASLt (on a GPU machine) is never reached: no
              // program here is one of its epilogues.
              {"TILE_CUBLASLT_LIBRARY", "/nonexistent/libcublasLt.so"}});
  return env;
}

TEST(TileRunTest, InfoShowsTheEpilogue) {
  TempDir dir;
  std::string path = writeEpilogueFixture(
      dir, fixture("tile_test_matmul_fill"), "tile_test_matmul_fill_epi.json");
  ASSERT_FALSE(path.empty());
  CommandResult result = tileRun({"info", path});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.out.find("  epilogue   addf acc p0; mulf s0 p1; tanh s1 "
                            "(p0 = E0, col, p1 = E1, row)\n"),
            std::string::npos)
      << result.out;
  // A kernel without one has no such line.
  result = tileRun({"info", fixture("tile_test_matmul_fill")});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out.find("epilogue"), std::string::npos) << result.out;
}

const char *const kSeparateKernelNote =
    "cuBLAS ran the GEMM, then a separate elementwise kernel for the "
    "epilogue (NVRTC 13.0, sm_90 cubin, 30 blocks of 256 threads); its C "
    "agrees with the kernel's C (relative norm difference ";

TEST(TileRunTest, BenchRunsTheGemmThenASeparateEpilogueKernel) {
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  struct Case {
    const char *kernel, *spec, *call, *log;
  } cases[] = {
      {"tile_test_matmul_fill", kFillSpec, "sgemm",
       "sgemm math=2 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 ldb=72 "
       "beta=0 ldc=80\n"},
      {"tile_test_matmul_bf16_tma", kBf16Spec, "gemm_ex",
       "gemm_ex math=0 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 "
       "ldb=72 beta=0 ldc=80 atype=14 btype=14 ctype=14 compute=68 "
       "algo=-1\n"},
      {"tile_test_matmul_f16", kF16Spec, "gemm_ex",
       "gemm_ex math=0 transa=0 transb=0 m=80 n=96 k=72 alpha=1 lda=80 "
       "ldb=72 beta=1 ldc=80 atype=2 btype=2 ctype=0 compute=68 algo=-1\n"}};
  for (const Case &c : cases) {
    TempDir dir;
    std::string path = writeEpilogueFixture(
        dir, fixture(c.kernel), std::string(c.kernel) + "_epi.json");
    ASSERT_FALSE(path.empty());
    Env env = epilogueEnv(c.spec, dir, path);
    // The fake kernel computes the epilogue as verify's reference does.
    CommandResult verify = tileRun({"verify", path, "--seed", "3"}, env);
    EXPECT_EQ(verify.exitCode, 0) << verify.out << verify.err;
    EXPECT_NE(verify.out.find("PASS  seed 3"), std::string::npos) << verify.out;
    CommandResult result =
        tileRun({"bench", path, "--warmup", "1", "--iters", "20", "--seed", "9",
                 "--json", dir.file("out.json"), "--csv", dir.file("out.csv")},
                env);
    ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
    EXPECT_NE(result.out.find(std::string(c.kernel) +
                              ": cuBLASLt n/a: no cuBLASLt epilogue computes "
                              "'addf acc p0; mulf s0 p1; tanh s1'"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find(kSeparateKernelNote), std::string::npos)
        << c.kernel << "\n"
        << result.out;
    // The GEMM as for a plain kernel (the check's launch repeats it).
    EXPECT_EQ(readFile(dir.file("cublas.log")), c.log) << c.kernel;
    // NVRTC compiled the program's kernel once, for the device's
    // architecture, without contraction.
    std::string nvrtc = readFile(dir.file("nvrtc.log"));
    EXPECT_EQ(countOccurrences(nvrtc,
                               "nvrtcCompileProgram tile_epilogue.cu: "
                               "--gpu-architecture=sm_90 --fmad=false\n"),
              1u)
        << nvrtc;
    EXPECT_NE(nvrtc.find("    const float s2 = tanhf(s1); // tanh s1\n"),
              std::string::npos)
        << nvrtc;
    // The table has cuBLAS's time (the fake's events: 0.25 ms).
    EXPECT_NE(result.out.find("|    0.2500 |"), std::string::npos)
        << result.out;
    std::string call = std::string(c.call) + "+epilogue";
    std::string json = readFile(dir.file("out.json"));
    EXPECT_NE(json.find("\"cublas_call\": \"" + call + "\""), std::string::npos)
        << json;
    EXPECT_NE(json.find(kSeparateKernelNote), std::string::npos) << json;
    std::string csv = readFile(dir.file("out.csv"));
    EXPECT_NE(csv.find("," + call + ",1\n"), std::string::npos) << csv;
    EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  }
}

TEST(TileRunTest, VerifyAndBenchReadStridedEpilogueOperands) {
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  // Epilogue operands that are subviews of bigger buffers: a bias per
  // column at element 5, a scale per row whose elements are 3 apart from
  // element 2, a residual whose rows (80 columns) start 72 apart, so that
  // each row's last 8 elements are the next row's first: verify fills the
  // buffers through these layouts and takes the values they end up
  // holding (the fake kernel reads them through the same strides), and
  // bench's separate elementwise kernel reads them so too.
  using tile::runtime::EpilogueOperandKind;
  TempDir dir;
  std::string path = writeChangedManifest(
      dir, fixture("tile_test_matmul_accumulate"), "strided_epi.json",
      [](auto &manifest) {
        addEpilogue(manifest,
                    {EpilogueOperandKind::Col, EpilogueOperandKind::Row,
                     EpilogueOperandKind::Full},
                    {"addf acc p0", "mulf s0 p1", "addf s1 p2"});
        manifest.params[3].offset = 5;
        manifest.params[4].offset = 2;
        manifest.params[4].rowStride = 3;
        manifest.params[5].rowStride = 72;
        for (size_t i = 3; i < 6; ++i)
          manifest.params[i].alignment = 4;
        std::string error;
        EXPECT_TRUE(tile::runtime::validateManifest(manifest, error)) << error;
      });
  ASSERT_FALSE(path.empty());
  Env env = epilogueEnv(kAccumulateSpec, dir, path);
  CommandResult verify = tileRun({"verify", path, "--seed", "5"}, env);
  EXPECT_EQ(verify.exitCode, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("PASS  seed 5"), std::string::npos) << verify.out;
  CommandResult result =
      tileRun({"bench", path, "--warmup", "1", "--iters", "20", "--seed", "9"},
              env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find(kSeparateKernelNote), std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

TEST(TileRunTest, BenchChecksTheSeparateEpilogueKernel) {
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  TempDir dir;
  std::string path = writeEpilogueFixture(
      dir, fixture("tile_test_matmul_accumulate"), "accumulate_epi.json");
  ASSERT_FALSE(path.empty());
  // A kernel that computes nothing (the fake NVRTC without a host
  // compiler): the baseline's C is the plain GEMM's, which the check
  // catches (for an accumulating kernel too), and the row falls back to the
  // plain GEMM.
  CommandResult result =
      tileRun({"bench", path, "--warmup", "1", "--iters", "20", "--json",
               dir.file("out.json")},
              epilogueEnv(kAccumulateSpec, dir, path, /*hostKernels=*/false));
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find(
                "the GEMM then the separate epilogue kernel (NVRTC 13.0, "
                "sm_90 cubin, 30 blocks of 256 threads) gave a C that differs "
                "from the kernel's C (relative norm difference "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(", over 1e-04): not the same computation; cuBLAS "
                            "ran the plain GEMM, without the epilogue"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find(kSeparateKernelNote), std::string::npos);
  std::string json = readFile(dir.file("out.json"));
  EXPECT_NE(json.find("\"cublas_call\": \"sgemm\""), std::string::npos) << json;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;

  // With the kernel built, the same agrees; an NVRTC without cubins
  // compiles PTX for the driver.
  TempDir ptxDir;
  result = tileRun({"bench", path, "--warmup", "1", "--iters", "20", "--csv",
                    ptxDir.file("out.csv")},
                   epilogueEnv(kAccumulateSpec, ptxDir, path, true,
                               TILE_FAKE_NVRTC_PTX_ONLY));
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("cuBLAS ran the GEMM, then a separate elementwise "
                            "kernel for the epilogue (NVRTC 13.0, compute_90 "
                            "PTX, 30 blocks of 256 threads); its C agrees "),
            std::string::npos)
      << result.out;
  EXPECT_NE(readFile(ptxDir.file("nvrtc.log"))
                .find("nvrtcCompileProgram tile_epilogue.cu: "
                      "--gpu-architecture=compute_90 --fmad=false\n"),
            std::string::npos);
  EXPECT_NE(readFile(ptxDir.file("out.csv")).find(",sgemm+epilogue,1\n"),
            std::string::npos);
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

TEST(TileRunTest, BenchTimesTheEpilogueKernelWithTheGemm) {
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  TempDir dir;
  std::string path = writeEpilogueFixture(dir, fixture("tile_test_matmul_fill"),
                                          "fill_epi.json");
  ASSERT_FALSE(path.empty());
  // Each epilogue kernel enqueued between a pair of events adds 0.5 ms to
  // it (the fake driver): the baseline's time is the GEMM's and the
  // kernel's, 0.25 + 0.5, in every timed launch; the fused kernel's is
  // its own.
  Env env = epilogueEnv(kFillSpec, dir, path);
  env.push_back({"TILE_FAKE_CUDA_NVRTC_MS", "0.5"});
  CommandResult result =
      tileRun({"bench", path, "--warmup", "1", "--iters", "20", "--json",
               dir.file("out.json")},
              env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find(kSeparateKernelNote), std::string::npos)
      << result.out;
  std::string json = readFile(dir.file("out.json"));
  EXPECT_NE(json.find("\"cublas_call\": \"sgemm+epilogue\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"ms\": 0.25,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"cublas_ms\": 0.75,"), std::string::npos) << json;
}

TEST(TileRunTest, BenchGivesEachEpilogueOperandItsOwnValues) {
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  using tile::runtime::EpilogueOperandKind;
  TempDir dir;
  // A scale and a bias per column, both 1 x n f32: the fused kernel (the
  // fake driver) takes them the other way round. With the same values in
  // both, the check could not tell: each operand needs its own.
  std::string path = writeChangedManifest(
      dir, fixture("tile_test_matmul_fill"), "scale_bias.json",
      [](auto &manifest) {
        addEpilogue(manifest,
                    {EpilogueOperandKind::Col, EpilogueOperandKind::Col},
                    {"mulf acc p0", "addf s0 p1"});
      });
  std::string swapped =
      writeChangedManifest(dir, path, "swapped.json", [](auto &manifest) {
        manifest.epilogue.steps = {"mulf acc p1", "addf s0 p0"};
      });
  ASSERT_FALSE(path.empty());
  ASSERT_FALSE(swapped.empty());
  CommandResult result = tileRun({"bench", path, "--warmup", "1", "--iters",
                                  "20", "--json", dir.file("out.json")},
                                 epilogueEnv(kFillSpec, dir, swapped));
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("gave a C that differs from the kernel's C"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find(kSeparateKernelNote), std::string::npos)
      << result.out;
  EXPECT_NE(readFile(dir.file("out.json")).find("\"cublas_call\": \"sgemm\""),
            std::string::npos);
  // The same program on both sides agrees.
  result = tileRun({"bench", path, "--warmup", "1", "--iters", "20"},
                   epilogueEnv(kFillSpec, dir, path));
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find(kSeparateKernelNote), std::string::npos)
      << result.out;
}

TEST(TileRunTest, BenchSaysWhyNvrtcDidNotCompile) {
  TempDir dir;
  std::string path = writeEpilogueFixture(dir, fixture("tile_test_matmul_fill"),
                                          "fill_epi.json");
  ASSERT_FALSE(path.empty());
  // NVRTC fails to compile: the plain GEMM, and the note says why.
  Env env = epilogueEnv(kFillSpec, dir, path, false);
  env.push_back({"TILE_FAKE_NVRTC_FAIL", "tile_epilogue.cu(12): error: fake"});
  CommandResult result = tileRun({"bench", path, "--warmup", "1", "--iters",
                                  "20", "--json", dir.file("out.json")},
                                 env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(
      result.out.find("; no separate epilogue kernel: NVRTC (" +
                      std::string(TILE_FAKE_NVRTC) +
                      ") could not compile it: nvrtcCompileProgram "
                      "(--gpu-architecture=sm_90 "
                      "--fmad=false) failed: NVRTC status 6 "
                      "(NVRTC_ERROR_COMPILATION): tile_epilogue.cu(12): error: "
                      "fake; cuBLAS ran the plain GEMM, without the epilogue"),
      std::string::npos)
      << result.out;
  EXPECT_NE(readFile(dir.file("out.json")).find("\"cublas_call\": \"sgemm\""),
            std::string::npos);
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

TEST(TileRunTest, BenchSaysWhenNvrtcIsMissing) {
  TempDir dir;
  std::string path = writeEpilogueFixture(dir, fixture("tile_test_matmul_fill"),
                                          "fill_epi.json");
  ASSERT_FALSE(path.empty());
  // (Unless one is installed where tile-run also looks.) The NVRTC found
  // stays loaded: unloading it leaves the buffer its static C++ runtime
  // allocates at load time to LeakSanitizer as a leak of an unknown
  // module, which the suppression of libnvrtc's leaks cannot name.
  for (const std::string &candidate : tile::run::getNvrtcCandidates())
    if (candidate.rfind("/nonexistent/", 0) != 0)
      if (dlopen(candidate.c_str(), RTLD_LAZY | RTLD_LOCAL))
        GTEST_SKIP() << "an NVRTC is installed (" << candidate
                     << "): tile-run would find it";
  Env env =
      epilogueEnv(kFillSpec, dir, path, false, "/nonexistent/libnvrtc.so.13");
  CommandResult result =
      tileRun({"bench", path, "--warmup", "1", "--iters", "20"}, env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find(
                "; no separate epilogue kernel: NVRTC not found (tried "
                "$TILE_NVRTC_LIBRARY, libnvrtc.so.13, .so.12, .so, "
                "$CUDA_HOME/lib64 and /usr/local/cuda/lib64); cuBLAS ran the "
                "plain GEMM, without the epilogue"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("|    0.2500 |"), std::string::npos) << result.out;
}

TEST(TileRunTest, BenchWithoutNvrtcWhenTheLibraryIsNone) {
  // TILE_NVRTC_LIBRARY=none: no separate epilogue kernel, whatever NVRTC is
  // installed; the row times the plain GEMM and says why.
  TempDir dir;
  std::string path = writeEpilogueFixture(dir, fixture("tile_test_matmul_fill"),
                                          "fill_epi.json");
  ASSERT_FALSE(path.empty());
  Env env = epilogueEnv(kFillSpec, dir, path, false, "none");
  CommandResult result =
      tileRun({"bench", path, "--warmup", "1", "--iters", "20"}, env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("; no separate epilogue kernel: NVRTC not used "
                            "($TILE_NVRTC_LIBRARY=none); cuBLAS ran the plain "
                            "GEMM, without the epilogue"),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("+epilogue"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("|    0.2500 |"), std::string::npos) << result.out;
}

TEST(TileRunTest, BenchLeavesCublasLtOutWhenTheLibraryIsNone) {
  // A bias per column and ReLU is one of cuBLASLt's epilogues: with
  // TILE_CUBLASLT_LIBRARY=none the note says cuBLASLt was not used, and the
  // baseline is the GEMM and the separate epilogue kernel. (Without none a
  // cuBLASLt of the toolkit, where there is one, would be loaded: the test
  // does not reach it, its failed handle leaks under LeakSanitizer.)
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  using tile::runtime::EpilogueOperandKind;
  TempDir dir;
  std::string path = writeChangedManifest(
      dir, fixture("tile_test_matmul_fill"), "bias_relu.json",
      [](auto &manifest) {
        addEpilogue(manifest, {EpilogueOperandKind::Col},
                    {"addf acc p0", "maximumf s0 0"});
      });
  ASSERT_FALSE(path.empty());
  Env env = epilogueEnv(kFillSpec, dir, path);
  for (auto &[name, value] : env)
    if (name == "TILE_CUBLASLT_LIBRARY")
      value = "none";
  CommandResult result =
      tileRun({"bench", path, "--warmup", "1", "--iters", "20", "--json",
               dir.file("out.json")},
              env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find(
                "tile_test_matmul_fill: cuBLASLt n/a: cuBLASLt not used "
                "($TILE_CUBLASLT_LIBRARY=none); cuBLAS ran the GEMM, then a "
                "separate elementwise kernel"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(kSeparateKernelNote), std::string::npos)
      << result.out;
  EXPECT_NE(readFile(dir.file("out.json"))
                .find("\"cublas_call\": \"sgemm+epilogue\""),
            std::string::npos);
}

TEST(TileRunTest, BenchLeavesCublasLtOutForABiasThatIsNotContiguous) {
  // A bias per column and ReLU, the bias's elements 3 apart: cuBLASLt's
  // bias is a contiguous vector, so the baseline is the GEMM and the
  // separate epilogue kernel (which reads the bias through its stride and
  // agrees with the kernel), before any cuBLASLt is loaded.
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  using tile::runtime::EpilogueOperandKind;
  TempDir dir;
  std::string path = writeChangedManifest(
      dir, fixture("tile_test_matmul_fill"), "bias_relu_strided.json",
      [](auto &manifest) {
        addEpilogue(manifest, {EpilogueOperandKind::Col},
                    {"addf acc p0", "maximumf s0 0"});
        auto &bias = manifest.params.back();
        bias.colStride = 3;
        bias.rowStride = 3 * bias.cols;
        bias.alignment = 4;
      });
  ASSERT_FALSE(path.empty());
  Env env = epilogueEnv(kFillSpec, dir, path);
  CommandResult result =
      tileRun({"bench", path, "--warmup", "1", "--iters", "20"}, env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("tile_test_matmul_fill: cuBLASLt n/a: a bias "
                            "whose elements are 3 apart (cuBLASLt's bias is "
                            "contiguous); cuBLAS ran the GEMM, then a "
                            "separate elementwise kernel"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(kSeparateKernelNote), std::string::npos)
      << result.out;
}

TEST(TileRunTest, BenchRunsBatchedEpiloguesAfterTheStridedBatchedGemm) {
  if (access(TILE_HOST_CXX, X_OK) != 0)
    GTEST_SKIP() << "no host C++ compiler at " << TILE_HOST_CXX;
  using tile::runtime::EpilogueOperandKind;
  TempDir dir;
  std::string batched =
      writeBatchedFixture(dir, "tile_test_matmul_fill", 3, 16);
  ASSERT_FALSE(batched.empty());
  // A bias per column and matrix, a scale per row shared by the matrices.
  std::string path =
      writeChangedManifest(dir, batched, "batched_epi.json", [](auto &m) {
        addEpilogue(m, {EpilogueOperandKind::Col, EpilogueOperandKind::Row},
                    kTwoVectorSteps, {true, false});
      });
  ASSERT_FALSE(path.empty());
  Env env = epilogueEnv(kFillSpec, dir, path);
  static const std::string strides = denseStrides(16);
  env.push_back({"TILE_FAKE_CUDA_BATCH", strides.c_str()});
  CommandResult verify = tileRun({"verify", path, "--seed", "3"}, env);
  EXPECT_EQ(verify.exitCode, 0) << verify.out << verify.err;
  CommandResult result = tileRun({"bench", path, "--warmup", "1", "--iters",
                                  "20", "--json", dir.file("out.json")},
                                 env);
  ASSERT_EQ(result.exitCode, 0) << result.out << result.err;
  // No cuBLASLt for a batched kernel: straight to the separate kernel, over
  // all 3 x 96 x 80 elements (90 blocks).
  EXPECT_EQ(result.out.find("cuBLASLt"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("cuBLAS ran the GEMM, then a separate elementwise "
                            "kernel for the epilogue (NVRTC 13.0, sm_90 "
                            "cubin, 90 blocks of 256 threads); its C agrees "
                            "with the kernel's C (relative norm difference "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(" of 23040 elements differ)"), std::string::npos)
      << result.out;
  EXPECT_NE(readFile(dir.file("out.json"))
                .find("\"cublas_call\": \"gemm_strided_batched_ex+epilogue\""),
            std::string::npos);
  std::string nvrtc = readFile(dir.file("nvrtc.log"));
  EXPECT_NE(nvrtc.find("const tile_index b = e / 7680u;"), std::string::npos)
      << nvrtc;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
}

//===----------------------------------------------------------------------===//
// TMA stores of C (config.store "tma")
//===----------------------------------------------------------------------===//

TEST(TileRunTest, VerifyAndInfoOfATmaStoreKernel) {
  // The bf16 fixture storing C through the TMA (config.store "tma"): a
  // third map, of C (alignment 16), which the fake kernel writes C through;
  // its PTX takes the third map.
  TempDir dir;
  std::string path = writeChangedManifest(
      dir, fixture("tile_test_matmul_bf16_tma"), "store.json",
      [&](tile::runtime::KernelManifest &m) {
        using namespace tile::runtime;
        std::string ptx = readFile(fixturePath("naive_matmul.ptx"));
        const std::string last =
            "\t.param .align 128 .b8 tile_test_matmul_bf16_tma_param_4[128]";
        size_t at = ptx.find(last + "\n");
        ASSERT_NE(at, std::string::npos);
        ptx.insert(at + last.size(), ",\n\t.param .align 128 .b8 "
                                     "tile_test_matmul_bf16_tma_param_5[128]");
        ASSERT_TRUE(writeFile(dir.file("store.ptx"), ptx));
        m.binaries[0].file = "store.ptx";
        m.binaries[0].size = ptx.size();
        m.binaries[0].fnv1a64 = fnv1a64(ptx.data(), ptx.size());
        m.config.strategy = KernelStrategy::Wgmma;
        m.config.specialize = true;
        m.config.store = StoreKind::Tma;
        m.params[2].alignment = 16;
        m.tensorMaps.push_back({"C", {64, 64}, TensorMapSwizzle::B128,
                                TensorMapL2Promotion::None});
        std::string error;
        EXPECT_TRUE(validateManifest(m, error)) << error;
      });
  ASSERT_FALSE(path.empty());
  CommandResult info = tileRun({"info", path});
  EXPECT_EQ(info.exitCode, 0) << info.out << info.err;
  EXPECT_NE(info.out.find("             1  B   box 16x16 (rows x cols), "
                          "swizzle none, L2 promotion none\n"
                          "             2  C   box 64x64 (rows x cols), "
                          "swizzle 128B, L2 promotion none\n"
                          "  config     wgmma/16x16x1/16x2/m1n1k1/s1/tma/ws/"
                          "g1/none/c2x1/ts\n"),
            std::string::npos)
      << info.out;
  CommandResult result =
      tileRun({"verify", path, "--seed", "7"}, fakeEnv(kBf16Spec));
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("  PASS  seed 7  (ptx, fill, bf16 -> bf16, "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find(kNothingLeaked), std::string::npos) << result.err;
  // What the kernel writes through the map is checked as any C.
  result =
      tileRun({"verify", path, "--seed", "7"}, fakeEnv(kBf16Spec, "skip-last"));
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("1 elements are NaN or Inf, e.g. never written "
                            "(first at [95][79]: got nan"),
            std::string::npos)
      << result.out;
}

} // namespace
