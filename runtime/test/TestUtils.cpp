//===- TestUtils.cpp - Helpers for the runtime's unit tests ---------------===//

#include "TestUtils.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tile::runtime;
using namespace tile::test;

std::string tile::test::fixturePath(const std::string &name) {
  return std::string(TILE_RUNTIME_TEST_DIR) + "/fixtures/" + name;
}

TempDir::TempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base && *base ? base : "/tmp") + "/tile-runtime-test-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()))
    dir = buffer.data();
}

TempDir::~TempDir() {
  if (dir.empty())
    return;
  // Tests only create plain files directly in the folder.
  if (DIR *handle = opendir(dir.c_str())) {
    while (struct dirent *entry = readdir(handle)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..")
        std::remove((dir + "/" + name).c_str());
    }
    closedir(handle);
  }
  rmdir(dir.c_str());
}

bool tile::test::writeFile(const std::string &path, const std::string &text) {
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  return std::fclose(file) == 0 && ok;
}

std::string tile::test::readFile(const std::string &path) {
  std::string text;
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return text;
  char buffer[4096];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    text.append(buffer, count);
  std::fclose(file);
  return text;
}

ScopedEnv::ScopedEnv(const char *name, const char *value) : name(name) {
  if (const char *old = std::getenv(name)) {
    hadValue = true;
    oldValue = old;
  }
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

ScopedEnv::~ScopedEnv() {
  if (hadValue)
    setenv(name.c_str(), oldValue.c_str(), 1);
  else
    unsetenv(name.c_str());
}

CommandResult tile::test::runCommand(
    const std::vector<std::string> &argv,
    const std::vector<std::pair<std::string, const char *>> &env) {
  CommandResult result;
  TempDir dir;
  std::string outPath = dir.file("stdout"), errPath = dir.file("stderr");
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    for (const auto &entry : env) {
      if (entry.second)
        setenv(entry.first.c_str(), entry.second, 1);
      else
        unsetenv(entry.first.c_str());
    }
    int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0)
      _exit(125);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char *> args;
    for (const std::string &arg : argv)
      args.push_back(const_cast<char *>(arg.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(126);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid)
    return result;
  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.crashed = true;
    result.exitCode = 128 + WTERMSIG(status);
  }
  result.out = readFile(outPath);
  result.err = readFile(errPath);
  return result;
}

std::vector<std::pair<std::string, const char *>>
tile::test::getFakeDriverDefaults() {
  std::vector<std::pair<std::string, const char *>> env;
  for (const char *name :
       {"TILE_FAKE_CUDA_INIT_RESULT", "TILE_FAKE_CUDA_DEVICES",
        "TILE_FAKE_CUDA_CC", "TILE_FAKE_CUDA_DRIVER_VERSION",
        "TILE_FAKE_CUDA_LOAD_RESULT", "TILE_FAKE_CUDA_LAUNCH_RESULT",
        "TILE_FAKE_CUDA_MAX_THREADS", "TILE_FAKE_CUDA_L2_BYTES",
        "TILE_FAKE_CUDA_EVENT_MS", "TILE_FAKE_CUDA_MATMUL",
        "TILE_FAKE_CUDA_BUG", "TILE_FAKE_CUDA_REPORT", "TILE_FAKE_CUDA_BATCH",
        "TILE_FAKE_CUDA_EPILOGUE", "TILE_FAKE_CUDA_NVRTC_MS",
        "TILE_FAKE_NVRTC_LOG", "TILE_FAKE_NVRTC_CXX", "TILE_FAKE_NVRTC_DIR",
        "TILE_FAKE_NVRTC_FAIL"})
    env.push_back({name, nullptr});
  return env;
}

KernelManifest tile::test::makeExampleManifest() {
  // The f32 FMA kernel of docs/artifact.md: no cluster, no tensor maps.
  KernelManifest m;
  m.kernel = "matmul_0";
  m.target = {"sm_90", "8.0"};
  m.binaries = {
      {BinaryFormat::Cubin, "matmul_0.cubin", 23456, 0x9a3c0d2e4f5a6b7cull},
      {BinaryFormat::Ptx, "matmul_0.ptx", 81234, 0x0123456789abcdefull}};
  m.launch.grid = {1024, 1, 1};
  m.launch.block = {256, 1, 1};
  m.launch.dynamicSharedBytes = 33280;
  m.problem = {
      4096, 4096, 4096, ElementType::F32, ElementType::F32, CInit::Accumulate,
      0.0};
  m.params = {{"A", ParamRole::Lhs, ElementType::F32, 4096, 4096, 4096, 1, 16,
               ParamAccess::Read},
              {"B", ParamRole::Rhs, ElementType::F32, 4096, 4096, 4096, 1, 16,
               ParamAccess::Read},
              {"C", ParamRole::Result, ElementType::F32, 4096, 4096, 4096, 1,
               16, ParamAccess::ReadWrite}};
  m.config.block = {128, 128, 8};
  m.config.warp = {32, 64};
  m.config.thread = {8, 8};
  m.config.mma = {8, 8, 1};
  m.config.stages = 2;
  m.config.swizzle = 8;
  m.config.smem = "pad";
  m.config.smemPad = 4;
  m.config.prefetch = true;
  m.config.text = "#tile.config<...>";
  m.resources = {122, 0, 0, 0};
  return m;
}

KernelManifest tile::test::makeWgmmaExampleManifest() {
  KernelManifest m;
  m.kernel = "matmul_bf16_0";
  m.target = {"sm_90a", "8.0"};
  m.binaries = {
      {BinaryFormat::Cubin, "matmul_bf16_0.cubin", 41216,
       0x4be1c0de12345678ull},
      {BinaryFormat::Ptx, "matmul_bf16_0.ptx", 96512, 0x89abcdef01234567ull}};
  // 128x256 tiles of 4096x4096, clusters of 2 along the grid; a producer
  // warpgroup and two consumers; 4 stages of 128x64 + 64x256 bf16 plus the
  // barriers.
  m.launch.grid = {512, 1, 1};
  m.launch.block = {384, 1, 1};
  m.launch.cluster = {2, 1, 1};
  m.launch.dynamicSharedBytes = 197632;
  m.problem = {4096,        4096, 4096, ElementType::BF16, ElementType::F32,
               CInit::Fill, 0.0};
  m.params = {{"A", ParamRole::Lhs, ElementType::BF16, 4096, 4096, 4096, 1, 16,
               ParamAccess::Read},
              {"B", ParamRole::Rhs, ElementType::BF16, 4096, 4096, 4096, 1, 16,
               ParamAccess::Read},
              {"C", ParamRole::Result, ElementType::BF16, 4096, 4096, 4096, 1,
               16, ParamAccess::Write}};
  m.tensorMaps = {
      {"A", {128, 64}, TensorMapSwizzle::B128, TensorMapL2Promotion::B256},
      {"B", {64, 64}, TensorMapSwizzle::B128, TensorMapL2Promotion::B256}};
  m.config.strategy = KernelStrategy::Wgmma;
  m.config.block = {128, 256, 64};
  m.config.warp = {64, 256};
  m.config.thread = {64, 256};
  m.config.mma = {64, 256, 16};
  m.config.stages = 4;
  m.config.copy = CopyKind::Tma;
  m.config.specialize = true;
  m.config.swizzle = 8;
  m.config.smem = "swizzle128";
  m.config.smemPad = 0;
  m.config.prefetch = false;
  m.config.occupancy = 1;
  m.config.cluster = {2, 1};
  m.config.text = "#tile.config<strategy = wgmma, ...>";
  m.resources = {168, 0, 0, 0};
  return m;
}

std::string tile::test::writeBatchedFixture(const TempDir &dir,
                                            const std::string &name,
                                            int64_t batch, int64_t gap) {
  KernelManifest manifest;
  std::string error;
  if (!parseManifestJson(readFile(fixturePath(name + ".json")), manifest,
                         error))
    return "";
  manifest.problem.batch = batch;
  manifest.launch.grid[1] = static_cast<uint32_t>(batch);
  for (ParamInfo &param : manifest.params) {
    uint64_t elements = 0;
    getRequiredElements(param, 1, elements);
    param.batchStride = static_cast<int64_t>(elements) + gap;
  }
  for (TensorMapInfo &map : manifest.tensorMaps)
    map.batched = true;
  std::string path = dir.file(name + "_batched.json");
  if (!writeFile(dir.file("naive_matmul.ptx"),
                 readFile(fixturePath("naive_matmul.ptx"))) ||
      !writeFile(path, writeManifestJson(manifest)))
    return "";
  return path;
}

size_t tile::test::countOccurrences(const std::string &haystack,
                                    const std::string &needle) {
  size_t count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + needle.size()))
    ++count;
  return count;
}
