//===- ArtifactTest.cpp - Opening artifacts and checking arguments --------===//
//
// Everything here runs without a GPU or driver.
//
//===----------------------------------------------------------------------===//

#include "Artifact.h"
#include "TestUtils.h"

#include <gtest/gtest.h>
#include <thread>

using namespace tile::runtime;
using namespace tile::test;

namespace {

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

/// Copies the fill fixture (manifest and PTX) into `dir`, with `edit`
/// applied to the manifest text.
std::string
copyFixture(const TempDir &dir,
            const std::string &manifestName = "tile_test_matmul_fill.json") {
  writeFile(dir.file("naive_matmul.ptx"),
            readFile(fixturePath("naive_matmul.ptx")));
  std::string path = dir.file(manifestName);
  writeFile(path, readFile(fixturePath(manifestName)));
  return path;
}

TEST(ArtifactTest, OpensFixture) {
  tile_artifact *artifact = nullptr;
  std::string path = fixturePath("tile_test_matmul_strided.json");
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_STREQ(tile_last_error(), "");
  tile_kernel_info info;
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  EXPECT_STREQ(info.kernel, "tile_test_matmul_strided");
  EXPECT_EQ(std::string(info.manifest_path), path);
  EXPECT_STREQ(info.chip, "sm_90");
  EXPECT_STREQ(info.ptx_version, "8.0");
  EXPECT_EQ(info.cubin_path, nullptr);
  ASSERT_NE(info.ptx_path, nullptr);
  EXPECT_EQ(std::string(info.ptx_path), fixturePath("naive_matmul.ptx"));
  EXPECT_EQ(info.grid[0], 5u);
  EXPECT_EQ(info.grid[1], 6u);
  EXPECT_EQ(info.block[0], 16u);
  EXPECT_EQ(info.m, 96);
  EXPECT_EQ(info.n, 80);
  EXPECT_EQ(info.k, 72);
  EXPECT_STREQ(info.c_init, "fill");
  EXPECT_EQ(info.c_fill_value, 0.5);
  ASSERT_EQ(info.num_params, 3u);
  EXPECT_STREQ(info.params[1].name, "B");
  EXPECT_STREQ(info.params[1].role, "rhs");
  EXPECT_EQ(info.params[1].row_stride, 1);
  EXPECT_EQ(info.params[1].col_stride, 72);
  EXPECT_EQ(info.params[1].element_bytes, 4u);
  EXPECT_EQ(info.params[2].required_bytes, (95u * 84u + 79u + 1u) * 4u);
  EXPECT_STREQ(info.params[2].access, "write");
  EXPECT_STREQ(info.config_short, "16x16x1/16x2/1x1/s1/g1/none/nopf");
  EXPECT_EQ(info.registers, -1);
  tile_artifact_close(artifact);
}

TEST(ArtifactTest, InfoOfVersion2Fields) {
  tile_artifact *artifact = nullptr;
  std::string path = fixturePath("tile_test_matmul_bf16_tma.json");
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS)
      << tile_last_error();
  tile_kernel_info info;
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  EXPECT_EQ(info.cluster[0], 1u);
  EXPECT_EQ(info.cluster[1], 2u);
  EXPECT_EQ(info.cluster[2], 1u);
  EXPECT_STREQ(info.element_type, "bf16");
  EXPECT_STREQ(info.accumulator_type, "f32");
  EXPECT_STREQ(info.strategy, "fma");
  ASSERT_EQ(info.num_params, 3u);
  EXPECT_STREQ(info.params[0].element_type, "bf16");
  EXPECT_EQ(info.params[0].element_bytes, 2u);
  EXPECT_EQ(info.params[0].required_bytes, 96u * 72u * 2u);
  EXPECT_EQ(info.params[0].num_tensor_maps, 1u);
  EXPECT_EQ(info.params[1].num_tensor_maps, 1u);
  EXPECT_EQ(info.params[2].num_tensor_maps, 0u);
  ASSERT_EQ(info.num_tensor_maps, 2u);
  EXPECT_STREQ(info.tensor_maps[0].param, "A");
  EXPECT_EQ(info.tensor_maps[0].param_index, 0u);
  EXPECT_EQ(info.tensor_maps[0].box_rows, 16u);
  EXPECT_EQ(info.tensor_maps[0].box_cols, 16u);
  EXPECT_STREQ(info.tensor_maps[0].swizzle, "none");
  EXPECT_STREQ(info.tensor_maps[0].l2_promotion, "128B");
  EXPECT_STREQ(info.tensor_maps[1].param, "B");
  EXPECT_EQ(info.tensor_maps[1].param_index, 1u);
  EXPECT_STREQ(info.tensor_maps[1].l2_promotion, "none");
  tile_artifact_close(artifact);

  path = fixturePath("tile_test_matmul_fill.json");
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS);
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  EXPECT_EQ(info.num_tensor_maps, 0u);
  EXPECT_EQ(info.tensor_maps, nullptr);
  EXPECT_EQ(info.cluster[0] * info.cluster[1] * info.cluster[2], 1u);
  tile_artifact_close(artifact);
}

TEST(ArtifactTest, NullArguments) {
  tile_artifact *artifact = nullptr;
  EXPECT_EQ(tile_artifact_open(nullptr, &artifact),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tile_last_error(), "tile_artifact_open: no manifest path given");
  EXPECT_EQ(tile_artifact_open("x.json", nullptr), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_artifact_get_info(nullptr, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_artifact_check_args(nullptr, nullptr, 0),
            TILE_ERROR_INVALID_ARGUMENT);
  tile_kernel *kernel = nullptr;
  EXPECT_EQ(tile_kernel_load(nullptr, nullptr, &kernel),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_kernel_launch(nullptr, nullptr, 0, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  tile_artifact_close(nullptr);
  tile_kernel_unload(nullptr);
}

TEST(ArtifactTest, StatusNames) {
  EXPECT_STREQ(tile_status_name(TILE_SUCCESS), "TILE_SUCCESS");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_BINARY_MISMATCH),
               "TILE_ERROR_BINARY_MISMATCH");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_CUDA), "TILE_ERROR_CUDA");
  EXPECT_STREQ(tile_status_name(99), "unknown status");
}

TEST(ArtifactTest, MissingManifest) {
  TempDir dir;
  tile_artifact *artifact = nullptr;
  std::string path = dir.file("absent.json");
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_ERROR_IO);
  EXPECT_EQ(artifact, nullptr);
  EXPECT_EQ(std::string(tile_last_error()),
            "cannot read manifest '" + path + "': No such file or directory");
  EXPECT_EQ(tile_artifact_open(dir.path().c_str(), &artifact), TILE_ERROR_IO);
  EXPECT_EQ(std::string(tile_last_error()),
            "cannot read manifest '" + dir.path() + "': not a regular file");
}

TEST(ArtifactTest, CorruptManifest) {
  TempDir dir;
  std::string path = copyFixture(dir);
  std::string text = readFile(path);
  tile_artifact *artifact = nullptr;

  writeFile(path, text.substr(0, text.size() / 2));
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact),
            TILE_ERROR_INVALID_MANIFEST);
  EXPECT_EQ(artifact, nullptr);
  std::string error = tile_last_error();
  EXPECT_TRUE(startsWith(error, path + ": manifest: line ")) << error;
  EXPECT_NE(error.find("unexpected end of input"), std::string::npos);

  writeFile(path, "\x7f"
                  "ELF garbage");
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact),
            TILE_ERROR_INVALID_MANIFEST);
  EXPECT_EQ(std::string(tile_last_error()),
            path + ": manifest: line 1, column 1: syntax error while "
                   "parsing value - invalid literal");

  writeFile(path, "");
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact),
            TILE_ERROR_INVALID_MANIFEST);
}

TEST(ArtifactTest, InconsistentManifest) {
  TempDir dir;
  std::string path = copyFixture(dir);
  std::string text = readFile(path);
  text.replace(text.find("\"sm_90\""), 7, "\"gfx90a\"");
  writeFile(path, text);
  tile_artifact *artifact = nullptr;
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact),
            TILE_ERROR_INVALID_MANIFEST);
  EXPECT_EQ(std::string(tile_last_error()),
            path + ": manifest: unsupported chip \"gfx90a\" in 'target.chip' "
                   "(expected an NVIDIA chip name like \"sm_90\")");
}

TEST(ArtifactTest, BinaryOfOtherSize) {
  TempDir dir;
  std::string path = copyFixture(dir);
  std::string ptx = readFile(dir.file("naive_matmul.ptx"));
  writeFile(dir.file("naive_matmul.ptx"), ptx + "\n");
  tile_artifact *artifact = nullptr;
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact),
            TILE_ERROR_BINARY_MISMATCH);
  EXPECT_EQ(artifact, nullptr);
  EXPECT_EQ(std::string(tile_last_error()),
            "binary '" + dir.file("naive_matmul.ptx") +
                "' does not match the manifest: it is " +
                std::to_string(ptx.size() + 1) + " bytes, the manifest says " +
                std::to_string(ptx.size()));
}

TEST(ArtifactTest, BinaryOfOtherHash) {
  TempDir dir;
  std::string path = copyFixture(dir);
  std::string ptx = readFile(dir.file("naive_matmul.ptx"));
  uint64_t expected = fnv1a64(ptx.data(), ptx.size());
  ptx[ptx.size() / 2] ^= 1;
  uint64_t actual = fnv1a64(ptx.data(), ptx.size());
  writeFile(dir.file("naive_matmul.ptx"), ptx);
  tile_artifact *artifact = nullptr;
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact),
            TILE_ERROR_BINARY_MISMATCH);
  EXPECT_EQ(std::string(tile_last_error()),
            "binary '" + dir.file("naive_matmul.ptx") +
                "' does not match the manifest: its FNV-1a hash is " +
                formatHex64(actual) + ", the manifest says " +
                formatHex64(expected));
}

TEST(ArtifactTest, MissingBinary) {
  TempDir dir;
  std::string path = copyFixture(dir);
  std::remove(dir.file("naive_matmul.ptx").c_str());
  tile_artifact *artifact = nullptr;
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_ERROR_IO);
  EXPECT_EQ(std::string(tile_last_error()),
            "cannot read binary '" + dir.file("naive_matmul.ptx") +
                "': No such file or directory (named by '" + path + "')");
}

TEST(ArtifactTest, ErrorsAreThreadLocal) {
  tile_artifact *artifact = nullptr;
  EXPECT_EQ(tile_artifact_open("/nonexistent/a.json", &artifact),
            TILE_ERROR_IO);
  std::string mine = tile_last_error();
  std::string theirs;
  std::thread other([&] {
    tile_artifact *otherArtifact = nullptr;
    tile_artifact_open(nullptr, &otherArtifact);
    theirs = tile_last_error();
  });
  other.join();
  EXPECT_EQ(std::string(tile_last_error()), mine);
  EXPECT_EQ(theirs, "tile_artifact_open: no manifest path given");
}

class ArgumentTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string path = fixturePath("tile_test_matmul_strided.json");
    ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS)
        << tile_last_error();
  }
  void TearDown() override { tile_artifact_close(artifact); }

  // A: 96x72, B: 72x80 column-major, C: 96x80 in rows of 84.
  static constexpr uint64_t kABytes = 96 * 72 * 4;
  static constexpr uint64_t kBBytes = 72 * 80 * 4;
  static constexpr uint64_t kCBytes = (95 * 84 + 79 + 1) * 4;
  tile_buffer args[3] = {
      {0x10000, kABytes}, {0x20000, kBBytes}, {0x30000, kCBytes}};
  tile_artifact *artifact = nullptr;
};

TEST_F(ArgumentTest, ExactSizesPass) {
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3), TILE_SUCCESS);
  EXPECT_STREQ(tile_last_error(), "");
}

TEST_F(ArgumentTest, Count) {
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 2),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(), "kernel tile_test_matmul_strided takes 3 "
                                  "arguments (A, B, C), got 2");
  EXPECT_EQ(tile_artifact_check_args(artifact, nullptr, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(), "the argument array is null");
}

TEST_F(ArgumentTest, Size) {
  args[2].size_bytes = kCBytes - 4;
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_EQ(std::string(tile_last_error()),
            "argument 2 (C) is too small: param C (96x80 f32, row_stride 84, "
            "col_stride 1) needs " +
                std::to_string(kCBytes) + " bytes, the buffer holds " +
                std::to_string(kCBytes - 4));
  args[2].size_bytes = kCBytes;
  // A dense 96x80 buffer is what a caller forgetting the padding passes.
  args[2].size_bytes = 96 * 80 * 4;
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  args[2].size_bytes = kCBytes * 2;
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3), TILE_SUCCESS);
}

TEST_F(ArgumentTest, Alignment) {
  args[1].device_ptr = 0x20004;
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(), "argument 1 (B) at 0x20004 is not aligned "
                                  "to 16 bytes, as the kernel assumes");
  args[1].device_ptr = 0x20010;
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3), TILE_SUCCESS);
}

TEST_F(ArgumentTest, NullPointer) {
  args[0].device_ptr = 0;
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_STREQ(tile_last_error(), "argument 0 (A) is a null device pointer");
}

TEST(BatchedArtifactTest, InfoAndArguments) {
  // The strided fixture as a batch of 3, C's matrices 16 elements apart
  // past what one spans.
  TempDir dir;
  std::string path =
      writeBatchedFixture(dir, "tile_test_matmul_strided", 3, 16);
  ASSERT_FALSE(path.empty());
  tile_artifact *artifact = nullptr;
  ASSERT_EQ(tile_artifact_open(path.c_str(), &artifact), TILE_SUCCESS)
      << tile_last_error();
  tile_kernel_info info;
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  EXPECT_EQ(info.batch, 3);
  EXPECT_EQ(info.grid[1], 3u);
  ASSERT_EQ(info.num_params, 3u);
  const uint64_t cMatrix = 95 * 84 + 79 + 1;
  EXPECT_EQ(info.params[0].batch_stride, 96 * 72 + 16);
  EXPECT_EQ(info.params[1].batch_stride, 72 * 80 + 16);
  EXPECT_EQ(info.params[2].batch_stride, int64_t(cMatrix + 16));
  // (batch-1)*batch_stride + one matrix.
  EXPECT_EQ(info.params[0].required_bytes, (2 * (96 * 72 + 16) + 96 * 72) * 4u);
  const uint64_t cBytes = (2 * (cMatrix + 16) + cMatrix) * 4;
  EXPECT_EQ(info.params[2].required_bytes, cBytes);

  tile_buffer args[3] = {{0x100000, info.params[0].required_bytes},
                         {0x200000, info.params[1].required_bytes},
                         {0x300000, cBytes}};
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3), TILE_SUCCESS)
      << tile_last_error();
  // One matrix of C is not enough.
  args[2].size_bytes = cBytes - 4;
  EXPECT_EQ(tile_artifact_check_args(artifact, args, 3),
            TILE_ERROR_INVALID_LAUNCH_ARGS);
  EXPECT_EQ(std::string(tile_last_error()),
            "argument 2 (C) is too small: param C (96x80 f32, row_stride 84, "
            "col_stride 1, batch 3, batch_stride " +
                std::to_string(cMatrix + 16) + ") needs " +
                std::to_string(cBytes) + " bytes, the buffer holds " +
                std::to_string(cBytes - 4));
  tile_artifact_close(artifact);

  // An unbatched artifact reports a batch of 1 and no batch strides.
  std::string plain = fixturePath("tile_test_matmul_strided.json");
  ASSERT_EQ(tile_artifact_open(plain.c_str(), &artifact), TILE_SUCCESS);
  ASSERT_EQ(tile_artifact_get_info(artifact, &info), TILE_SUCCESS);
  EXPECT_EQ(info.batch, 1);
  for (size_t i = 0; i < info.num_params; ++i)
    EXPECT_EQ(info.params[i].batch_stride, 0);
  tile_artifact_close(artifact);
}

TEST(BatchedArtifactTest, InvalidBatchedManifestIsRefused) {
  TempDir dir;
  std::string path = writeBatchedFixture(dir, "tile_test_matmul_fill", 4);
  ASSERT_FALSE(path.empty());
  std::string text = readFile(path);
  const std::string grid = "\"grid\": [5, 4, 1]";
  size_t at = text.find(grid);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, grid.size(), "\"grid\": [5, 6, 1]");
  writeFile(path, text);
  tile_artifact *artifact = nullptr;
  EXPECT_EQ(tile_artifact_open(path.c_str(), &artifact),
            TILE_ERROR_INVALID_MANIFEST);
  EXPECT_NE(std::string(tile_last_error())
                .find("launch grid 5x6x1 has 6 blocks along y but "
                      "problem.batch is 4"),
            std::string::npos)
      << tile_last_error();
}

TEST(TensorMapArgumentTest, ColumnMajorParamIsMappedAsStored) {
  // B stored transposed (N x K, nn.Linear's weight) as tile-opt describes
  // it: logical K x N, row_stride 1, col_stride K. The map reads the stored
  // N x K rows: K innermost, rows K elements apart.
  KernelManifest manifest = makeWgmmaExampleManifest();
  int64_t n = 384, k = 1000;
  manifest.params[1].rows = k;
  manifest.params[1].cols = n;
  manifest.params[1].rowStride = 1;
  manifest.params[1].colStride = 1008;
  manifest.tensorMaps[1].box = {128, 64};
  uint64_t bytes = 4096ull * 4096ull * 2ull;
  tile_buffer args[3] = {{0x7f0000000000, bytes},
                         {0x7f1000000000, bytes},
                         {0x7f2000000000, bytes}};
  TensorMapEncoding e;
  std::string error;
  ASSERT_TRUE(getTensorMapEncoding(manifest, 1, args, e, error)) << error;
  EXPECT_EQ(e.globalDim[0], uint64_t(k)); // stored cols (K) first
  EXPECT_EQ(e.globalDim[1], uint64_t(n));
  EXPECT_EQ(e.globalStrides[0], 1008u * 2u);
  EXPECT_EQ(e.boxDim[0], 64u);
  EXPECT_EQ(e.boxDim[1], 128u);
}

TEST(TensorMapArgumentTest, BasesMustSuitTheTma) {
  // A manifest that validateManifest would refuse (A's alignment 4 under a
  // tensor map): the argument check still holds the TMA's 16 bytes.
  KernelManifest manifest = makeWgmmaExampleManifest();
  manifest.params[0].alignment = 4;
  uint64_t bytes = 4096ull * 4096ull * 2ull;
  tile_buffer args[3] = {
      {0x10004, bytes}, {0x20000000, bytes}, {0x40000000, bytes}};
  std::string error;
  EXPECT_FALSE(checkLaunchArguments(manifest, args, 3, error));
  EXPECT_EQ(error, "argument 0 (A) at 0x10004 is not aligned to 16 bytes, as "
                   "tensor map 0 needs");
  args[0].device_ptr = 0x10010;
  EXPECT_TRUE(checkLaunchArguments(manifest, args, 3, error)) << error;
}

TEST(TensorMapArgumentTest, Encoding) {
  KernelManifest manifest = makeWgmmaExampleManifest();
  // A padded, so that the stride is not the width.
  manifest.params[0].rowStride = 4160;
  uint64_t bytes = 4096ull * 4160ull * 2ull;
  tile_buffer args[3] = {{0x7f0000000000, bytes},
                         {0x7f1000000000, bytes},
                         {0x7f2000000000, bytes}};
  TensorMapEncoding e;
  std::string error;
  ASSERT_TRUE(getTensorMapEncoding(manifest, 0, args, e, error)) << error;
  EXPECT_EQ(e.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(e.rank, 2u);
  EXPECT_EQ(e.globalAddress, 0x7f0000000000u);
  EXPECT_EQ(e.globalDim[0], 4096u); // cols (K) first
  EXPECT_EQ(e.globalDim[1], 4096u);
  EXPECT_EQ(e.globalStrides[0], 4160u * 2u);
  EXPECT_EQ(e.boxDim[0], 64u); // box cols first
  EXPECT_EQ(e.boxDim[1], 128u);
  EXPECT_EQ(e.elementStrides[0], 1u);
  EXPECT_EQ(e.elementStrides[1], 1u);
  EXPECT_EQ(e.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(e.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(e.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(e.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  ASSERT_TRUE(getTensorMapEncoding(manifest, 1, args, e, error)) << error;
  EXPECT_EQ(e.globalAddress, 0x7f1000000000u);
  EXPECT_EQ(e.globalStrides[0], 4096u * 2u);

  // Every swizzle and promotion, and the data type of each element type.
  const std::pair<TensorMapSwizzle, int> swizzles[] = {
      {TensorMapSwizzle::None, 0},
      {TensorMapSwizzle::B32, 1},
      {TensorMapSwizzle::B64, 2},
      {TensorMapSwizzle::B128, 3}};
  for (const auto &[swizzle, value] : swizzles) {
    manifest.tensorMaps[1].swizzle = swizzle;
    ASSERT_TRUE(getTensorMapEncoding(manifest, 1, args, e, error));
    EXPECT_EQ(e.swizzle, value);
  }
  const std::pair<TensorMapL2Promotion, int> promotions[] = {
      {TensorMapL2Promotion::None, 0},
      {TensorMapL2Promotion::B64, 1},
      {TensorMapL2Promotion::B128, 2},
      {TensorMapL2Promotion::B256, 3}};
  for (const auto &[promotion, value] : promotions) {
    manifest.tensorMaps[1].l2Promotion = promotion;
    ASSERT_TRUE(getTensorMapEncoding(manifest, 1, args, e, error));
    EXPECT_EQ(e.l2Promotion, value);
  }
  const std::pair<ElementType, int> types[] = {
      {ElementType::F16, 6}, {ElementType::F32, 7}, {ElementType::BF16, 9}};
  for (const auto &[type, value] : types) {
    manifest.params[1].elementType = type;
    ASSERT_TRUE(getTensorMapEncoding(manifest, 1, args, e, error));
    EXPECT_EQ(e.dataType, value);
    EXPECT_EQ(e.globalStrides[0], 4096u * getElementTypeSize(type));
  }
  manifest.params[1].elementType = ElementType::I8;
  EXPECT_FALSE(getTensorMapEncoding(manifest, 1, args, e, error));
  EXPECT_EQ(error, "tensor map 1 views param B of element type i8, which the "
                   "runtime does not map");
  manifest.tensorMaps[1].param = "Z";
  EXPECT_FALSE(getTensorMapEncoding(manifest, 1, args, e, error));
  EXPECT_EQ(error, "tensor map 1 names param 'Z', which the kernel does not "
                   "have");
}

/// The wgmma example as a batch of 4 with batched maps, each param's
/// matrices `gap` elements apart past one matrix.
KernelManifest batchedWgmmaManifest(int64_t gap) {
  KernelManifest manifest = makeWgmmaExampleManifest();
  manifest.problem.batch = 4;
  manifest.launch.grid[1] = 4;
  for (ParamInfo &param : manifest.params)
    param.batchStride = param.rows * param.cols + gap;
  for (TensorMapInfo &map : manifest.tensorMaps)
    map.batched = true;
  return manifest;
}

TEST(TensorMapArgumentTest, BatchedEncoding) {
  // A batched map is 3-d: the batch outermost, batch_stride bytes apart,
  // a box one matrix deep.
  KernelManifest manifest = batchedWgmmaManifest(64);
  std::string error;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  uint64_t bytes = 4ull * (4096ull * 4096ull + 64) * 2ull;
  tile_buffer args[3] = {{0x7f0000000000, bytes},
                         {0x7f1000000000, bytes},
                         {0x7f2000000000, bytes}};
  TensorMapEncoding e;
  ASSERT_TRUE(getTensorMapEncoding(manifest, 0, args, e, error)) << error;
  EXPECT_EQ(e.rank, 3u);
  EXPECT_EQ(e.globalAddress, 0x7f0000000000u);
  EXPECT_EQ(e.globalDim[0], 4096u);
  EXPECT_EQ(e.globalDim[1], 4096u);
  EXPECT_EQ(e.globalDim[2], 4u);
  EXPECT_EQ(e.globalStrides[0], 4096u * 2u);
  EXPECT_EQ(e.globalStrides[1], (4096u * 4096u + 64u) * 2u);
  EXPECT_EQ(e.boxDim[0], 64u);
  EXPECT_EQ(e.boxDim[1], 128u);
  EXPECT_EQ(e.boxDim[2], 1u);
  EXPECT_EQ(e.elementStrides[0], 1u);
  EXPECT_EQ(e.elementStrides[1], 1u);
  EXPECT_EQ(e.elementStrides[2], 1u);
  EXPECT_EQ(e.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  // A column-major B (stored N x K): its stored matrices, batch_stride
  // apart as the param's.
  manifest.params[1].rowStride = 1;
  manifest.params[1].colStride = 4096;
  ASSERT_TRUE(getTensorMapEncoding(manifest, 1, args, e, error)) << error;
  EXPECT_EQ(e.rank, 3u);
  EXPECT_EQ(e.globalStrides[0], 4096u * 2u);
  EXPECT_EQ(e.globalStrides[1], (4096u * 4096u + 64u) * 2u);
  EXPECT_EQ(e.globalDim[2], 4u);

  // A repacked map views the copy: its matrices are stacked, rows x
  // repack_row_stride elements apart, whatever the param's batch_stride.
  manifest = batchedWgmmaManifest(64);
  manifest.params[0].cols = manifest.params[0].rowStride = 4093;
  manifest.params[0].batchStride = 4096 * 4093 + 3;
  manifest.tensorMaps[0].repackRowStride = 4096;
  ASSERT_TRUE(getTensorMapEncoding(manifest, 0, args, e, error)) << error;
  EXPECT_EQ(e.rank, 3u);
  EXPECT_EQ(e.globalDim[0], 4093u);
  EXPECT_EQ(e.globalDim[2], 4u);
  EXPECT_EQ(e.globalStrides[0], 4096u * 2u);
  EXPECT_EQ(e.globalStrides[1], 4096u * 4096u * 2u);
  EXPECT_EQ(e.boxDim[2], 1u);

  // A 2-d map leaves the third dimension alone.
  manifest = makeWgmmaExampleManifest();
  ASSERT_TRUE(getTensorMapEncoding(manifest, 0, args, e, error)) << error;
  EXPECT_EQ(e.rank, 2u);
  EXPECT_EQ(e.globalDim[2], 0u);
  EXPECT_EQ(e.globalStrides[1], 0u);
  EXPECT_EQ(e.boxDim[2], 0u);
}

TEST(TensorMapArgumentTest, BatchedBuffersHoldTheBatch) {
  // A param a batched map views in place: its buffer holds every matrix,
  // and its base the TMA's 16 bytes.
  KernelManifest manifest = batchedWgmmaManifest(8);
  std::string error;
  ASSERT_TRUE(validateManifest(manifest, error)) << error;
  uint64_t matrix = 4096ull * 4096ull * 2ull;
  uint64_t bytes = 3 * (matrix + 16) + matrix;
  tile_buffer args[3] = {
      {0x10000000, bytes}, {0x30000000000, bytes}, {0x50000000000, bytes}};
  EXPECT_TRUE(checkLaunchArguments(manifest, args, 3, error)) << error;
  args[0].size_bytes = matrix;
  EXPECT_FALSE(checkLaunchArguments(manifest, args, 3, error));
  EXPECT_EQ(error, "argument 0 (A) is too small: param A (4096x4096 bf16, "
                   "row_stride 4096, col_stride 1, batch 4, batch_stride "
                   "16777224) needs " +
                       std::to_string(bytes) + " bytes, the buffer holds " +
                       std::to_string(matrix));
  args[0].size_bytes = bytes;
  manifest.params[0].alignment = 8; // (refused by validateManifest)
  args[0].device_ptr = 0x10000008;
  EXPECT_FALSE(checkLaunchArguments(manifest, args, 3, error));
  EXPECT_EQ(error, "argument 0 (A) at 0x10000008 is not aligned to 16 bytes, "
                   "as tensor map 0 needs");
}

//===----------------------------------------------------------------------===//
// Binary choice and driver checks (pure functions)
//===----------------------------------------------------------------------===//

KernelManifest twoBinaryManifest(const char *chip) {
  KernelManifest manifest = makeExampleManifest();
  manifest.target.chip = chip;
  return manifest;
}

struct Choice {
  bool ok;
  BinaryFormat format;
  std::string error;
  int status;
};

Choice choose(const KernelManifest &manifest, int choice, int major,
              int minor) {
  Choice result{false, BinaryFormat::Ptx, "", TILE_SUCCESS};
  result.ok = chooseBinary(manifest, choice, 0, "NVIDIA Test", major, minor,
                           result.format, result.error, result.status);
  return result;
}

TEST(BinaryChoiceTest, PrefersCubinOnItsChip) {
  Choice c = choose(twoBinaryManifest("sm_90"), TILE_BINARY_AUTO, 9, 0);
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.format, BinaryFormat::Cubin);
}

TEST(BinaryChoiceTest, FallsBackToPtxOnNewerChips) {
  Choice c = choose(twoBinaryManifest("sm_90"), TILE_BINARY_AUTO, 10, 0);
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.format, BinaryFormat::Ptx);
}

TEST(BinaryChoiceTest, RefusesOlderChips) {
  Choice c = choose(twoBinaryManifest("sm_90"), TILE_BINARY_AUTO, 8, 0);
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.status, TILE_ERROR_WRONG_DEVICE);
  EXPECT_EQ(c.error, "artifact built for sm_90 but device 0 is sm_80 (NVIDIA "
                     "Test): its PTX does not run there");
}

TEST(BinaryChoiceTest, CubinOnlyArtifactNeedsItsChip) {
  KernelManifest manifest = twoBinaryManifest("sm_90");
  manifest.binaries.pop_back();
  Choice c = choose(manifest, TILE_BINARY_AUTO, 10, 0);
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.status, TILE_ERROR_WRONG_DEVICE);
  EXPECT_EQ(c.error, "artifact built for sm_90 but device 0 is sm_100 (NVIDIA "
                     "Test): its cubin runs only on sm_90 and it has no PTX");
  c = choose(manifest, TILE_BINARY_AUTO, 8, 6);
  EXPECT_EQ(c.error.rfind("artifact built for sm_90 but device 0 is sm_86", 0),
            0u)
      << c.error;
}

TEST(BinaryChoiceTest, ArchSpecificPtxRunsOnlyOnItsChip) {
  Choice c = choose(twoBinaryManifest("sm_90a"), TILE_BINARY_AUTO, 10, 0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.status, TILE_ERROR_WRONG_DEVICE);
  c = choose(twoBinaryManifest("sm_90a"), TILE_BINARY_AUTO, 9, 0);
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.format, BinaryFormat::Cubin);
}

TEST(BinaryChoiceTest, ExplicitChoice) {
  Choice c = choose(twoBinaryManifest("sm_90"), TILE_BINARY_PTX, 9, 0);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(c.format, BinaryFormat::Ptx);
  c = choose(twoBinaryManifest("sm_90"), TILE_BINARY_CUBIN, 10, 0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.status, TILE_ERROR_WRONG_DEVICE);
  EXPECT_EQ(c.error, "artifact built for sm_90 but device 0 is sm_100 (NVIDIA "
                     "Test): a cubin runs only on its own chip");
  KernelManifest ptxOnly = twoBinaryManifest("sm_90");
  ptxOnly.binaries.erase(ptxOnly.binaries.begin());
  c = choose(ptxOnly, TILE_BINARY_CUBIN, 9, 0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.status, TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(c.error, "the artifact has no cubin to load");
  c = choose(ptxOnly, 7, 9, 0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.status, TILE_ERROR_INVALID_ARGUMENT);
}

TEST(DriverVersionTest, PtxTable) {
  EXPECT_EQ(getMinimumDriverForPtx(8, 0), 12000);
  EXPECT_EQ(getMinimumDriverForPtx(7, 8), 11080);
  EXPECT_EQ(getMinimumDriverForPtx(8, 5), 12050);
  EXPECT_EQ(getMinimumDriverForPtx(8, 7), 12080);
  EXPECT_EQ(getMinimumDriverForPtx(9, 0), 13000);
  EXPECT_EQ(getMinimumDriverForPtx(9, 9), 0);
  EXPECT_EQ(formatCudaVersion(12080), "12.8");
  EXPECT_EQ(formatCudaVersion(13000), "13.0");
}

TEST(DriverVersionTest, OldDriverIsNamed) {
  KernelManifest manifest = makeExampleManifest();
  std::string error;
  EXPECT_TRUE(checkDriverForPtx(manifest, 12000, error));
  EXPECT_TRUE(checkDriverForPtx(manifest, 13000, error));
  EXPECT_FALSE(checkDriverForPtx(manifest, 11080, error));
  EXPECT_EQ(error, "the NVIDIA driver supports CUDA 11.8 (driver API 11080) "
                   "but the kernel's PTX (ISA 8.0) needs CUDA 12.0 or newer: "
                   "update the driver");
  // A version the table does not know is left to the driver.
  manifest.target.ptxVersion = "9.9";
  EXPECT_TRUE(checkDriverForPtx(manifest, 11080, error));
}

TEST(DriverVersionTest, LoadErrorsInWords) {
  KernelManifest manifest = makeExampleManifest();
  EXPECT_EQ(describeModuleLoadError(manifest, BinaryFormat::Cubin, 13000,
                                    CUDA_ERROR_NO_BINARY_FOR_GPU,
                                    "CUDA_ERROR_NO_BINARY_FOR_GPU: x", ""),
            "the cubin has no code this GPU can run (built for sm_90) "
            "[CUDA_ERROR_NO_BINARY_FOR_GPU: x]");
  EXPECT_EQ(describeModuleLoadError(manifest, BinaryFormat::Ptx, 13000,
                                    CUDA_ERROR_INVALID_PTX, "E", "line 3"),
            "the driver's JIT compiler rejected the PTX [E]; JIT log: line 3");
  EXPECT_EQ(describeModuleLoadError(manifest, BinaryFormat::Ptx, 11080,
                                    CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "E",
                                    ""),
            "the driver (CUDA 11.8) does not support PTX ISA 8.0: update the "
            "NVIDIA driver [E]");
}

} // namespace
