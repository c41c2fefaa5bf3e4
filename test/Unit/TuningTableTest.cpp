//===- TuningTableTest.cpp - the tuning table format ----------------------===//

#include "tile/Analysis/TuningTable.h"

#include "gtest/gtest.h"

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

TEST(TuningTable, BuiltinBf16Table) {
  // tuning/h200-bf16.json: valid (empty until the first tensor-core tuning
  // run), and what tile-configure consults for bf16 matmuls.
  llvm::Expected<TuningTable> table = TuningTable::load(
      std::string(TILE_SOURCE_DIR) + "/tuning/h200-bf16.json");
  ASSERT_TRUE(static_cast<bool>(table)) << llvm::toString(table.takeError());
  EXPECT_EQ(table->getChip(), "sm_90");
  EXPECT_EQ(table->getElementType(), "bf16");
  EXPECT_EQ(TuningTable::builtin("bf16").getElementType(), "bf16");
  EXPECT_EQ(TuningTable::builtin("bf16").getEntries().size(),
            table->getEntries().size());
  EXPECT_EQ(TuningTable::builtin("f32").getElementType(), "f32");
  EXPECT_TRUE(TuningTable::builtin("f16").getEntries().empty());
}

TEST(TuningTable, MissingFile) {
  llvm::Expected<TuningTable> table = TuningTable::load("/nonexistent.json");
  ASSERT_FALSE(static_cast<bool>(table));
  EXPECT_NE(llvm::toString(table.takeError()).find("cannot read tuning table"),
            std::string::npos);
}

} // namespace
