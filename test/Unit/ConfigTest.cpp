//===- ConfigTest.cpp - #tile.config rules and round trip -----------------===//

#include "tile/Dialect/Tile/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

TEST(TileConfig, DefaultIsConsistent) {
  TileConfig c;
  EXPECT_EQ(checkConsistency(c), "");
  EXPECT_EQ(c.numThreads(), 256);
  EXPECT_EQ(c.lanesM() * c.lanesN(), 32);
}

TEST(TileConfig, RulesNameTheNumbers) {
  TileConfig c;
  c.warpM = 48;
  EXPECT_EQ(checkConsistency(c),
            "warp tile M (48) does not divide block tile M (128)");
  c = TileConfig();
  c.threadN = 3;
  EXPECT_EQ(checkConsistency(c),
            "thread tile N (3) does not divide warp tile N (64)");
  c = TileConfig();
  c.warpN = 32;
  EXPECT_EQ(checkConsistency(c),
            "warp tile 32x32 holds 4x4 = 16 thread tiles of 8x8, but a warp "
            "has 32 lanes");
  c = TileConfig();
  c.blockK = 0;
  EXPECT_EQ(checkConsistency(c), "block tile K must be positive, got 0");
  c = TileConfig();
  c.blockM = 1024;
  c.blockN = 256;
  EXPECT_EQ(checkConsistency(c),
            "block tile 1024x256 with warp tile 32x64 needs 128 warps = 4096 "
            "threads per block, over the limit of 1024");
}

// A padding for a layout that takes none: the attribute's syntax cannot say
// it (smem = none has no count), a TileConfig built in C++ can.
// The parser refuses 'mma' for fma configs, so only a config built in C++
// can carry a k step other than 1.
TEST(TileConfig, FmaKStepIsOne) {
  TileConfig c;
  c.mmaK = 2;
  EXPECT_EQ(checkConsistency(c), "an fma instruction has k step 1, got 2");
}

TEST(TileConfig, PaddingWithoutPadLayout) {
  TileConfig c;
  c.smemLayout = SharedLayout::None;
  c.smemPad = 4;
  EXPECT_EQ(
      checkConsistency(c),
      "shared-memory padding 4 given for layout 'none', which takes none");
}

TEST(TileConfig, SharedLayoutText) {
  SharedLayout layout;
  int64_t pad;
  for (const char *text : {"pad4", "pad<4>", "pad(4)"}) {
    ASSERT_TRUE(parseSharedLayout(text, layout, pad)) << text;
    EXPECT_EQ(layout, SharedLayout::Pad);
    EXPECT_EQ(pad, 4);
  }
  ASSERT_TRUE(parseSharedLayout("none", layout, pad));
  EXPECT_EQ(layout, SharedLayout::None);
  ASSERT_TRUE(parseSharedLayout("xor", layout, pad));
  EXPECT_EQ(layout, SharedLayout::Xor);
  for (const char *text : {"pad", "padx", "pad<4", "swizzle", "", "pad-1"})
    EXPECT_FALSE(parseSharedLayout(text, layout, pad)) << text;
  EXPECT_EQ(sharedLayoutToString(SharedLayout::Pad, 8), "pad8");
}

TEST(TileConfig, AttributeRoundTrip) {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  TileConfig c;
  c.blockM = 64;
  c.blockN = 256;
  c.blockK = 16;
  c.warpM = 32;
  c.warpN = 64;
  c.threadM = 4;
  c.threadN = 16;
  c.stages = 1;
  c.swizzleGroup = 4;
  c.smemLayout = SharedLayout::None;
  c.smemPad = 0;
  c.regPrefetch = false;
  ASSERT_EQ(checkConsistency(c), "");
  // The C++ printer of the struct and the attribute's printer agree, and
  // parsing either gives the config back.
  std::string text = toString(c);
  Attribute parsed = parseAttribute(text, &context);
  auto attr = dyn_cast_or_null<ConfigAttr>(parsed);
  ASSERT_TRUE(attr) << text;
  EXPECT_EQ(attr.toTileConfig(), c);
  EXPECT_EQ(attr, ConfigAttr::get(&context, c));
  std::string printed;
  llvm::raw_string_ostream os(printed);
  os << attr;
  EXPECT_EQ(printed, text);
}

TEST(TileConfig, WgmmaDefaults) {
  // Two consumer warpgroups of 64x256 and a producer warpgroup.
  TileConfig c = TileConfig::wgmmaDefaults();
  EXPECT_EQ(checkConsistency(c), "");
  EXPECT_EQ(c.numConsumers(), 2);
  EXPECT_EQ(c.numThreads(), 3 * 128);
  c.specialize = false;
  EXPECT_EQ(c.numThreads(), 2 * 128);
  EXPECT_EQ(c.copyKind(), CopyKind::Tma);
  EXPECT_EQ(toShortString(TileConfig::wgmmaDefaults()),
            "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8");
}

TEST(TileConfig, FmaCopyFollowsStages) {
  // The copy field of an fma config is what its stages imply, whatever the
  // struct holds: equal configs compare and hash equal.
  TileConfig a, b;
  b.copy = CopyKind::CpAsync;
  EXPECT_EQ(a, b);
  EXPECT_EQ(hashValue(a), hashValue(b));
  a.stages = b.stages = 3;
  EXPECT_EQ(a.copyKind(), CopyKind::CpAsync);
  b.copy = CopyKind::Tma;
  EXPECT_EQ(checkConsistency(b), "copy 'tma' needs the wgmma strategy");
  TileConfig w = TileConfig::wgmmaDefaults();
  w.specialize = false;
  EXPECT_NE(w, TileConfig::wgmmaDefaults());
  EXPECT_NE(hashValue(w), hashValue(TileConfig::wgmmaDefaults()));
  // repack is part of the config's identity, and of its short form.
  TileConfig r = TileConfig::wgmmaDefaults();
  r.repack = true;
  EXPECT_NE(r, TileConfig::wgmmaDefaults());
  EXPECT_NE(hashValue(r), hashValue(TileConfig::wgmmaDefaults()));
  EXPECT_EQ(toShortString(r), "wgmma/128x256x64/64x256/m64n256k16/s4/tma/rp/ws/g8");
  // An fma config repacks too (B's padded copy, whatever the stages), and
  // says so in both forms; a wgmma one only with the TMA.
  TileConfig f;
  f.repack = true;
  EXPECT_EQ(checkConsistency(f), "");
  EXPECT_NE(f, TileConfig());
  EXPECT_NE(toString(f).find(", prefetch = true, repack = true>"),
            std::string::npos)
      << toString(f);
  EXPECT_NE(toShortString(f).find("/pf/rp"), std::string::npos)
      << toShortString(f);
  TileConfig registers = TileConfig::wgmmaDefaults();
  registers.copy = CopyKind::Registers;
  registers.repack = true;
  EXPECT_NE(checkConsistency(registers).find("repack = true needs copy = tma"),
            std::string::npos);
  // So is persistent; only the wgmma strategy's specialized TMA kernels
  // without split-K have it.
  TileConfig p = TileConfig::wgmmaDefaults();
  p.persistent = true;
  EXPECT_EQ(checkConsistency(p), "");
  EXPECT_NE(p, TileConfig::wgmmaDefaults());
  EXPECT_NE(hashValue(p), hashValue(TileConfig::wgmmaDefaults()));
  EXPECT_EQ(toShortString(p), "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8/p");
  // A 2x1 cluster, alone and persistent: a field of its own (equality,
  // hash), and the short form in the runtime's order (/c2x1 before /p).
  TileConfig c = TileConfig::wgmmaDefaults();
  c.clusterM = 2;
  EXPECT_EQ(checkConsistency(c), "");
  EXPECT_NE(c, TileConfig::wgmmaDefaults());
  EXPECT_NE(hashValue(c), hashValue(TileConfig::wgmmaDefaults()));
  EXPECT_EQ(c.clusterSize(), 2);
  EXPECT_EQ(toShortString(c), "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8/c2x1");
  c.persistent = true;
  EXPECT_EQ(checkConsistency(c), "");
  EXPECT_EQ(toShortString(c), "wgmma/128x256x64/64x256/m64n256k16/s4/tma/ws/g8/c2x1/p");
  TileConfig fp;
  fp.persistent = true;
  EXPECT_EQ(checkConsistency(fp), "persistent = true needs the wgmma strategy");
  p.splitK = 2;
  EXPECT_EQ(checkConsistency(p),
            "persistent = true does not combine with split_k = 2");
  p.splitK = 1;
  p.specialize = false;
  EXPECT_NE(checkConsistency(p).find("needs specialize = true"),
            std::string::npos);
}

TEST(TileConfig, WgmmaAttributeRoundTrip) {
  MLIRContext context;
  context.loadDialect<TileDialect>();
  TileConfig c = TileConfig::wgmmaDefaults();
  c.setBlock(128, 128, 64);
  c.setWarp(64, 128);
  c.setThread(64, 64);
  c.copy = CopyKind::Tma;
  c.specialize = false;
  c.stages = 3;
  c.swizzleGroup = 2;
  ASSERT_EQ(checkConsistency(c), "");
  std::string text = toString(c);
  auto attr = dyn_cast_or_null<ConfigAttr>(parseAttribute(text, &context));
  ASSERT_TRUE(attr) << text;
  EXPECT_EQ(attr.toTileConfig(), c);
  EXPECT_TRUE(attr.isWgmma());
  EXPECT_EQ(attr.getNumThreads(), 256);
  std::string printed;
  llvm::raw_string_ostream os(printed);
  os << attr;
  EXPECT_EQ(printed, text);
}

} // namespace

// Which tiles split K, and the blocks that makes: 10 tiles, K = 520 in
// 64-deep slices. split_k = 3 gives chunks of 192 (3 slices): 3 splits.
TEST(TileConfig, SplitTilesAndBlocks) {
  TileConfig c = TileConfig::wgmmaDefaults(2);
  c.setBlock(128, 128, 64);
  // No split: no split tile, a block per tile.
  EXPECT_EQ(splitTileCount(c, 10, 520), 0);
  EXPECT_EQ(blocksPerMatrix(c, 10, 520), 10);
  c.splitK = 3;
  EXPECT_EQ(numSplits(c, 520), 3);
  // Every tile split: 3 blocks each.
  EXPECT_EQ(splitTileCount(c, 10, 520), 10);
  EXPECT_EQ(blocksPerMatrix(c, 10, 520), 30);
  // The last 4 split: 6 whole + 4 x 3.
  c.splitLast = 4;
  EXPECT_EQ(splitTileCount(c, 10, 520), 4);
  EXPECT_EQ(blocksPerMatrix(c, 10, 520), 18);
  // split_last past the tiles: all of them split.
  c.splitLast = 12;
  EXPECT_EQ(splitTileCount(c, 10, 520), 10);
  EXPECT_EQ(blocksPerMatrix(c, 10, 520), 30);
  // A K of one slice has one split: nothing splits, whatever split_last.
  EXPECT_EQ(splitTileCount(c, 10, 64), 0);
  EXPECT_EQ(blocksPerMatrix(c, 10, 64), 10);
}
