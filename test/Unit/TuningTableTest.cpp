//===- TuningTableTest.cpp - the tuning table format ----------------------===//

#include "tile/Analysis/TuningTable.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::tile;

namespace {

std::string errorOf(llvm::StringRef json) {
  llvm::Expected<TuningTable> table = TuningTable::parse(json);
  if (table)
    return "";
  return llvm::toString(table.takeError());
}

TEST(TuningTable, LookupByExactShapeChipAndType) {
  llvm::Expected<TuningTable> table = TuningTable::parse(R"({
    "chip": "sm_90", "element_type": "f32",
    "entries": [{"m": 64, "n": 128, "k": 256, "block": [64, 64, 16],
                 "warp": [32, 32], "thread": [4, 8], "stages": 1,
                 "swizzle": 4, "smem": "pad8", "prefetch": false,
                 "measured_tflops": 12.5}]})");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  std::optional<TileConfig> hit = table->lookup("sm_90", "f32", 64, 128, 256);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->blockK, 16);
  EXPECT_EQ(hit->threadN, 8);
  EXPECT_EQ(hit->stages, 1);
  EXPECT_EQ(hit->swizzleGroup, 4);
  EXPECT_EQ(hit->smemPad, 8);
  EXPECT_FALSE(hit->regPrefetch);
  EXPECT_FALSE(table->lookup("sm_90", "f32", 64, 128, 255).has_value());
  EXPECT_FALSE(table->lookup("sm_80", "f32", 64, 128, 256).has_value());
  EXPECT_FALSE(table->lookup("sm_90", "f16", 64, 128, 256).has_value());
}

TEST(TuningTable, NearestMeasuredShapeInLogSpace) {
  llvm::Expected<TuningTable> table = TuningTable::parse(R"({
    "chip": "sm_90", "element_type": "f32",
    "entries": [{"m": 1000, "n": 1000, "k": 1000, "block": [64, 64, 16],
                 "warp": [32, 32], "thread": [4, 8]},
                {"m": 1024, "n": 1024, "k": 1024, "block": [128, 128, 8],
                 "warp": [32, 64], "thread": [8, 8]},
                {"m": 1021, "n": 1031, "k": 1033, "block": [128, 64, 8],
                 "warp": [32, 32], "thread": [8, 4]},
                {"m": 4096, "n": 4096, "k": 4096, "block": [128, 256, 8],
                 "warp": [32, 128], "thread": [8, 16]}]})");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  auto blockOf = [&](int64_t m, int64_t n, int64_t k, double radius) {
    std::optional<TuningTable::Match> hit =
        table->nearest("sm_90", "f32", m, n, k, radius);
    return hit ? hit->entry->config.blockN : int64_t{-1};
  };
  // The exact shape is at distance 0, with any radius.
  std::optional<TuningTable::Match> exact =
      table->nearest("sm_90", "f32", 1024, 1024, 1024, 0.0);
  ASSERT_TRUE(exact.has_value());
  EXPECT_EQ(exact->distance, 0.0);
  EXPECT_EQ(exact->entry->m, 1024);
  // 1100^3 is ln(1100/1024) = 0.072 from 1024^3 and 0.095 from 1000^3 (the
  // largest extent's ratio counts).
  EXPECT_EQ(blockOf(1100, 1100, 1100, 0.25), 128);
  EXPECT_NEAR(table->nearest("sm_90", "f32", 1100, 1100, 1100, 0.25)->distance,
              std::log(1100.0 / 1024.0), 1e-12);
  // 1012 is ln(1012/1000) = 0.012 from 1000, 0.0118 from 1024: 1024 wins.
  EXPECT_EQ(blockOf(1012, 1012, 1012, 0.25), 128);
  EXPECT_EQ(blockOf(1004, 1004, 1004, 0.25), 64);
  // Odd N and K: only 1021x1031x1033 is of that class.
  EXPECT_EQ(blockOf(1001, 1003, 1005, 0.25), 64);
  EXPECT_EQ(table->nearest("sm_90", "f32", 1001, 1003, 1005, 0.25)->entry->m,
            1021);
  // N a multiple of 4, K not: no entry of that class.
  EXPECT_EQ(blockOf(1000, 1000, 1001, 0.25), -1);
  // Out of the radius: 3000^3 is ln(4096/3000) = 0.31 from 4096^3.
  EXPECT_EQ(blockOf(3000, 3000, 3000, 0.25), -1);
  EXPECT_EQ(blockOf(3000, 3000, 3000, 0.35), 256);
  // One extent far off is enough to be out (Chebyshev distance).
  EXPECT_EQ(blockOf(4096, 4096, 1024, 0.25), -1);
  // Radius 0: exact shapes only.
  EXPECT_EQ(blockOf(1100, 1100, 1100, 0.0), -1);
  // Other chips and element types have no neighbours here.
  EXPECT_FALSE(table->nearest("sm_80", "f32", 1024, 1024, 1024, 1.0));
  EXPECT_FALSE(table->nearest("sm_90", "bf16", 1024, 1024, 1024, 1.0));
  EXPECT_DOUBLE_EQ(TuningTable::logDistance(2, 8, 8, 1, 8, 16), std::log(2.0));
}

TEST(TuningTable, NearestBf16ShapeOfTheSame16ByteClass) {
  // A bf16 row is on 16 bytes when its extent is a multiple of 8: the TMA
  // reads such rows in place (repack = false), others only repacked. 4100
  // is a multiple of 4 but not of 8, so 4100^3's neighbour is the repacked
  // entry, not 4096^3's in-place one (whose TMA on unaligned rows
  // tile-configure refuses).
  llvm::Expected<TuningTable> table = TuningTable::parse(R"({
    "chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 4096, "n": 4096, "k": 4096, "block": [128, 256, 64],
                 "warp": [64, 256], "thread": [64, 256]},
                {"m": 4095, "n": 4097, "k": 4093, "block": [128, 128, 64],
                 "warp": [64, 128], "thread": [64, 128], "repack": true}]})");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  auto repackOf = [&](int64_t m, int64_t n, int64_t k) {
    std::optional<TuningTable::Match> hit = table->nearest(
        "sm_90", "bf16", m, n, k, TuningTable::kDefaultRadius);
    return hit ? (hit->entry->config.repack ? 1 : 0) : -1;
  };
  EXPECT_EQ(repackOf(4000, 4160, 4224), 0);
  EXPECT_EQ(repackOf(4100, 4100, 4100), 1);
  EXPECT_EQ(repackOf(4100, 4101, 4099), 1);
  // N on 16 bytes, K not: no entry of that class.
  EXPECT_EQ(repackOf(4096, 4096, 4100), -1);
  // Rows on 16 bytes but off the 128-byte lines (4104 = 64 x 64 + 8) are
  // another class than 4096's rows on the lines: no neighbour here.
  EXPECT_EQ(repackOf(4096, 4104, 4104), -1);
  EXPECT_EQ(repackOf(4096, 4096, 4104), -1);
  // f16 tables take the same classes.
  llvm::Expected<TuningTable> f16 = TuningTable::parse(R"({
    "chip": "sm_90", "element_type": "f16",
    "entries": [{"m": 3000, "n": 3000, "k": 3000, "block": [128, 256, 64],
                 "warp": [64, 256], "thread": [64, 256]}]})");
  ASSERT_TRUE(static_cast<bool>(f16)) << llvm::toString(f16.takeError());
  auto f16Hit = [&](int64_t m, int64_t n, int64_t k) {
    return f16->nearest("sm_90", "f16", m, n, k, TuningTable::kDefaultRadius)
        .has_value();
  };
  EXPECT_TRUE(f16Hit(3000, 3000, 3000));
  EXPECT_TRUE(f16Hit(2800, 3112, 3200 + 8));
  // 3072 (48 x 64) is on the lines, 3000 is not; 3004 is off 16 bytes.
  EXPECT_FALSE(f16Hit(3072, 3072, 3072));
  EXPECT_FALSE(f16Hit(3000, 3072, 3000));
  EXPECT_FALSE(f16Hit(3000, 3004, 3000));
}

TEST(TuningTable, ModelParameters) {
  llvm::Expected<TuningTable> table = TuningTable::parse(R"({
    "chip": "sm_90", "element_type": "f32",
    "model": {"time_scale": 0.5, "compute_scale": 2},
    "entries": []})");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  EXPECT_EQ(table->getModelParameter("time_scale"), 0.5);
  EXPECT_EQ(table->getModelParameter("compute_scale"), 2.0);
  EXPECT_FALSE(table->getModelParameter("memory_scale").has_value());
  EXPECT_EQ(table->getModelParameters().size(), 2u);
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "f32",
      "model": [1], "entries": []})")
                .find("tuning table: 'model' must be an object"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "f32",
      "model": {"time_scale": "fast"}, "entries": []})")
                .find("tuning table: model parameter 'time_scale' must be a "
                      "number"),
            std::string::npos);
}

TEST(TuningTable, ErrorsNameTheEntry) {
  EXPECT_NE(errorOf("{").find("tuning table:"), std::string::npos);
  EXPECT_NE(errorOf(R"({"chip": "sm_90"})").find("needs 'chip'"),
            std::string::npos);
  std::string missing = errorOf(R"({"chip": "sm_90", "element_type": "f32",
      "entries": [{"m": 1, "n": 1, "k": 1, "block": [8, 8],
                   "warp": [8, 8], "thread": [2, 2]}]})");
  EXPECT_NE(missing.find("entry 0: 'block' must be a list of 3 integers"),
            std::string::npos)
      << missing;
  std::string invalid = errorOf(R"({"chip": "sm_90", "element_type": "f32",
      "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 128, 8],
                   "warp": [48, 64], "thread": [8, 8]}]})");
  EXPECT_NE(invalid.find("entry 0: invalid config: warp tile M (48) does not "
                         "divide block tile M (128)"),
            std::string::npos)
      << invalid;
  std::string layout = errorOf(R"({"chip": "sm_90", "element_type": "f32",
      "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 128, 8],
                   "warp": [32, 64], "thread": [8, 8], "smem": "diagonal"}]})");
  EXPECT_NE(layout.find("'smem' must be a string: none, xor or padN"),
            std::string::npos)
      << layout;
  std::string stages = errorOf(R"({"chip": "sm_90", "element_type": "f32",
      "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 128, 8],
                   "warp": [32, 64], "thread": [8, 8], "stages": "two"}]})");
  EXPECT_NE(stages.find("entry 0: 'stages' must be an integer"),
            std::string::npos)
      << stages;
  std::string prefetch = errorOf(R"({"chip": "sm_90", "element_type": "f32",
      "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 128, 8],
                   "warp": [32, 64], "thread": [8, 8], "prefetch": "yes"}]})");
  EXPECT_NE(prefetch.find("entry 0: 'prefetch' must be true or false"),
            std::string::npos)
      << prefetch;
}

TEST(TuningTable, BuiltinTableParses) {
  // The table compiled in from tuning/h200-f32.json: every entry valid.
  llvm::Expected<TuningTable> table = TuningTable::load(
      std::string(TILE_SOURCE_DIR) + "/tuning/h200-f32.json");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  EXPECT_EQ(table->getChip(), "sm_90");
  EXPECT_EQ(table->getEntries().size(), TuningTable::builtin().getEntries().size());
}

TEST(TuningTable, WgmmaEntries) {
  // A bf16 table holds wgmma configs: the strategy's defaults, then the
  // entry's fields.
  llvm::Expected<TuningTable> table = TuningTable::parse(R"({
    "chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 1000, "n": 1000, "k": 1000, "block": [128, 64, 64],
                 "warp": [64, 64], "thread": [64, 64], "stages": 6,
                 "copy": "tma", "specialize": false, "occupancy": 2}]})");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  std::optional<TileConfig> hit =
      table->lookup("sm_90", "bf16", 1000, 1000, 1000);
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(hit->isWgmma());
  EXPECT_EQ(hit->blockN, 64);
  EXPECT_EQ(hit->warpM, 64);
  EXPECT_EQ(hit->threadN, 64);
  EXPECT_EQ(hit->mmaK, 16);
  EXPECT_EQ(hit->stages, 6);
  EXPECT_EQ(hit->copy, CopyKind::Tma);
  EXPECT_FALSE(hit->specialize);
  EXPECT_EQ(hit->minBlocksPerSM, 2);
  EXPECT_EQ(hit->smemLayout, SharedLayout::Swizzle128);
  EXPECT_FALSE(table->lookup("sm_90", "f32", 1000, 1000, 1000).has_value());
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 64, 64],
                 "warp": [64, 64], "thread": [64, 64], "copy": "dma"}]})")
                .find("entry 0: 'copy' must be a string"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 64, 64],
                 "warp": [64, 64], "thread": [64, 64], "specialize": 1}]})")
                .find("tuning table entry 0: 'specialize' must be true or false"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 64, 64],
                 "warp": [64, 64], "thread": [64, 64], "repack": "yes"}]})")
                .find("tuning table entry 0: 'repack' must be true or false"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 64, 64],
                 "warp": [64, 64], "thread": [64, 64], "persistent": 1}]})")
                .find("tuning table entry 0: 'persistent' must be true or false"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 64, 64],
                 "warp": [64, 64], "thread": [64, 64], "store": "smem"}]})")
                .find("tuning table entry 0: 'store' must be \"tma\" or \"registers\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"chip": "sm_90", "element_type": "bf16",
    "entries": [{"m": 1, "n": 1, "k": 1, "block": [128, 256, 64],
                 "warp": [64, 256], "thread": [64, 256], "cluster": [2]}]})")
                .find("tuning table entry 0: 'cluster' must be a list of 2 integers"),
            std::string::npos);
  // A cluster entry reads back as one (tile-tune writes "cluster").
  llvm::Expected<TuningTable> clustered = TuningTable::parse(R"({"chip": "sm_90",
    "element_type": "bf16", "entries": [{"m": 3000, "n": 5000, "k": 2000,
    "block": [128, 256, 64], "warp": [64, 256], "thread": [64, 256],
    "copy": "tma", "persistent": false, "cluster": [2, 1]}]})");
  ASSERT_TRUE(static_cast<bool>(clustered))
      << llvm::toString(clustered.takeError());
  std::optional<TileConfig> pair =
      clustered->lookup("sm_90", "bf16", 3000, 5000, 2000);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->clusterM, 2);
  EXPECT_EQ(pair->clusterN, 1);
  EXPECT_EQ(checkConsistency(*pair), "");
  EXPECT_FALSE(pair->tmaStore);
  // A TMA store's entry reads back as one (tile-tune writes "store").
  llvm::Expected<TuningTable> stored = TuningTable::parse(R"({"chip": "sm_90",
    "element_type": "bf16", "entries": [{"m": 4096, "n": 4096, "k": 4096,
    "block": [128, 256, 64], "warp": [64, 256], "thread": [64, 256],
    "copy": "tma", "store": "tma"}]})");
  ASSERT_TRUE(static_cast<bool>(stored)) << llvm::toString(stored.takeError());
  std::optional<TileConfig> staged =
      stored->lookup("sm_90", "bf16", 4096, 4096, 4096);
  ASSERT_TRUE(staged.has_value());
  EXPECT_TRUE(staged->tmaStore);
  EXPECT_EQ(checkConsistency(*staged), "");
  // A repacking entry reads back as one.
  llvm::Expected<TuningTable> repacked = TuningTable::parse(R"({"chip": "sm_90",
    "element_type": "f16", "entries": [{"m": 300, "n": 520, "k": 1001,
    "block": [128, 128, 64], "warp": [64, 128], "thread": [64, 128],
    "copy": "tma", "repack": true}]})");
  ASSERT_TRUE(static_cast<bool>(repacked))
      << llvm::toString(repacked.takeError());
  std::optional<TileConfig> entry =
      repacked->lookup("sm_90", "f16", 300, 520, 1001);
  ASSERT_TRUE(entry.has_value());
  EXPECT_TRUE(entry->repack);
  EXPECT_EQ(entry->copy, CopyKind::Tma);
}

TEST(TuningTable, BuiltinBf16AndF16Tables) {
  // tuning/h200-bf16.json and h200-f16.json: valid, and what tile-configure
  // consults for bf16 and f16 matmuls (wgmma configs, every entry
  // consistent).
  for (const char *type : {"bf16", "f16"}) {
    llvm::Expected<TuningTable> table = TuningTable::load(
        std::string(TILE_SOURCE_DIR) + "/tuning/h200-" + type + ".json");
    ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
    EXPECT_EQ(table->getChip(), "sm_90");
    EXPECT_EQ(table->getElementType(), type);
    EXPECT_FALSE(table->getEntries().empty()) << type;
    EXPECT_EQ(TuningTable::builtin(type).getElementType(), type);
    EXPECT_EQ(TuningTable::builtin(type).getEntries().size(),
              table->getEntries().size());
    for (const TuningTable::Entry &entry : table->getEntries()) {
      EXPECT_TRUE(entry.config.isWgmma()) << type << " " << entry.m;
      EXPECT_EQ(checkConsistency(entry.config), "") << type << " " << entry.m;
    }
  }
  EXPECT_EQ(TuningTable::builtin("f32").getElementType(), "f32");
  EXPECT_TRUE(TuningTable::builtin("f64").getEntries().empty());
}

TEST(TuningTable, MissingFile) {
  llvm::Expected<TuningTable> table = TuningTable::load("/nonexistent.json");
  ASSERT_FALSE(static_cast<bool>(table));
  EXPECT_NE(llvm::toString(table.takeError()).find("cannot read tuning table"),
            std::string::npos);
}

} // namespace
