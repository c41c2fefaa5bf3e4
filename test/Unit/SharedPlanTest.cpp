//===- SharedPlanTest.cpp - the shared-memory plan ------------------------===//

#include "tile/Analysis/SharedPlan.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir::tile;

namespace {

TEST(SharedPlan, FmaDoubleBuffering) {
  // 128x128x8 with pad(4): A is [8][132] f32, B [8][128]; two buffers of
  // each, laid out [A0][A1][B0][B1].
  TileConfig c;
  SharedPlan plan = getSharedPlan(c, 4);
  EXPECT_EQ(plan.bytesA, 8 * 132 * 4);
  EXPECT_EQ(plan.bytesB, 8 * 128 * 4);
  EXPECT_EQ(plan.buffers, 2);
  EXPECT_FALSE(plan.interleaved);
  EXPECT_EQ(plan.offsetA(1), plan.bytesA);
  EXPECT_EQ(plan.offsetB(0), 2 * plan.bytesA);
  EXPECT_EQ(plan.offsetB(1), 2 * plan.bytesA + plan.bytesB);
  EXPECT_EQ(plan.dynamicBytes, 2 * (8 * 132 + 8 * 128) * 4);
  EXPECT_EQ(plan.totalBytes, plan.dynamicBytes);
}

TEST(SharedPlan, FmaRingAndAlignment) {
  // A cp.async ring of 3 [A_s][B_s] stages; A's 7 x 65 f32 (1820 bytes)
  // rounds up to 16 bytes.
  TileConfig c = TileConfig::withTiles(64, 64, 7, 32, 32, 4, 8);
  c.stages = 3;
  c.smemPad = 1;
  SharedPlan plan = getSharedPlan(c, 4);
  EXPECT_TRUE(plan.interleaved);
  EXPECT_EQ(plan.bytesA, 1824);
  EXPECT_EQ(plan.bytesB, 1792);
  EXPECT_EQ(plan.stageBytes, 1824 + 1792);
  EXPECT_EQ(plan.offsetA(2), 2 * plan.stageBytes);
  EXPECT_EQ(plan.offsetB(2), 2 * plan.stageBytes + 1824);
  EXPECT_EQ(plan.dynamicBytes, 3 * plan.stageBytes);
}

TEST(SharedPlan, ArticleTileArithmetic) {
  // Seed 004: "Two BF16 tiles of 128 x 128 take 64 KB" and "three stages of
  // 128 x 64 BF16 tiles for A and 64 x 256 for B": 144 KiB.
  TileConfig c = TileConfig::wgmmaDefaults();
  c.setBlock(128, 256, 64);
  c.stages = 3;
  SharedPlan plan = getSharedPlan(c, 2);
  EXPECT_EQ(plan.bytesA, 128 * 64 * 2);
  EXPECT_EQ(plan.bytesB, 64 * 256 * 2);
  EXPECT_EQ(3 * plan.stageBytes, 144 * 1024);
  EXPECT_EQ(2 * 128 * 128 * 2, 64 * 1024); // the 64 KiB of two 128x128 tiles
  // The ring plus the runtime alignment slack plus 6 mbarriers.
  EXPECT_EQ(plan.dynamicBytes, 144 * 1024 + 1024);
  EXPECT_EQ(plan.barrierBytes, 6 * 8);
  EXPECT_EQ(plan.totalBytes, 144 * 1024 + 1024 + 48);
}

TEST(SharedPlan, WgmmaSlotsAndBoxes) {
  // 4 slots of a 128x256x64 bf16 tile: A is one 128x64 box, B four 64x64
  // boxes of 8 KiB (64 k rows of 128 bytes), every tile on a 1024-byte atom.
  TileConfig c = TileConfig::wgmmaDefaults();
  SharedPlan plan = getSharedPlan(c, 2);
  EXPECT_EQ(plan.alignment, 1024);
  EXPECT_TRUE(plan.interleaved);
  EXPECT_EQ(plan.chunksB, 4);
  EXPECT_EQ(plan.chunkBytesB, 8192);
  EXPECT_EQ(plan.boxA.rows, 128);
  EXPECT_EQ(plan.boxA.cols, 64);
  EXPECT_EQ(plan.boxB.rows, 64);
  EXPECT_EQ(plan.boxB.cols, 64);
  EXPECT_EQ(plan.stageBytes, 48 * 1024);
  for (int64_t s = 0; s < c.stages; ++s) {
    EXPECT_EQ(plan.offsetA(s) % 1024, 0);
    EXPECT_EQ(plan.offsetB(s) % 1024, 0);
    EXPECT_EQ(plan.offsetB(s) - plan.offsetA(s), 16384);
  }
  EXPECT_EQ(plan.dynamicBytes, 4 * 48 * 1024 + 1024);
}

TEST(SharedPlan, Swizzle128IsAPermutationOfEachAtom) {
  // Every byte of 8 rows of 128 bytes lands once in the same 1024 bytes;
  // granule g of row r goes to granule g ^ (r % 8).
  std::set<int64_t> seen;
  for (int64_t row = 0; row < 8; ++row)
    for (int64_t byte = 0; byte < 128; ++byte) {
      int64_t at = swizzle128Offset(row, byte);
      EXPECT_GE(at, row * 128);
      EXPECT_LT(at, row * 128 + 128);
      seen.insert(at);
    }
  EXPECT_EQ(seen.size(), 1024u);
  EXPECT_EQ(swizzle128Offset(0, 16), 16);
  EXPECT_EQ(swizzle128Offset(1, 0), 128 + 16);
  EXPECT_EQ(swizzle128Offset(3, 37), 3 * 128 + ((2 ^ 3) * 16) + 5);
  EXPECT_EQ(swizzle128Offset(9, 0), 9 * 128 + 16);
}

TEST(SharedPlan, FmaElementOffsetsAndBanks) {
  // 128x128x8 pad(4): A row k is 132 f32 long, so element (k, m) is at
  // (132k + m) * 4 bytes and in bank (4k + m) % 32: consecutive rows are
  // four banks apart. B (k, n) is plain [8][128].
  SharedPlan plan = getSharedPlan(TileConfig(), 4);
  EXPECT_EQ(plan.elementOffsetA(0, 5), 20);
  EXPECT_EQ(plan.elementOffsetA(3, 7), (3 * 132 + 7) * 4);
  EXPECT_EQ(sharedBank(plan.elementOffsetA(1, 0)), 4);
  EXPECT_EQ(sharedBank(plan.elementOffsetA(7, 30)), (28 + 30) % 32);
  EXPECT_EQ(plan.elementOffsetB(2, 9), (2 * 128 + 9) * 4);
  EXPECT_EQ(sharedBank(plan.offsetB(0) + plan.elementOffsetB(1, 0)), 0);
  // Without padding every row starts in bank 0.
  TileConfig none;
  none.smemLayout = SharedLayout::None;
  none.smemPad = 0;
  SharedPlan plain = getSharedPlan(none, 4);
  for (int64_t k = 0; k < 8; ++k)
    EXPECT_EQ(sharedBank(plain.elementOffsetA(k, 0)), 0) << k;
}

TEST(SharedPlan, XorElementOffsets) {
  // BM = 32: 8 granules of 16 bytes per row; granule g of row r is stored
  // at g ^ (r % 8), element by element a permutation of each row.
  TileConfig c = TileConfig::withTiles(32, 64, 8, 16, 32, 4, 4);
  c.smemLayout = SharedLayout::Xor;
  c.smemPad = 0;
  SharedPlan plan = getSharedPlan(c, 4);
  EXPECT_EQ(plan.elementOffsetA(0, 6), 24);
  EXPECT_EQ(plan.elementOffsetA(1, 0), 128 + 16);
  EXPECT_EQ(plan.elementOffsetA(3, 9), 3 * 128 + (2 ^ 3) * 16 + 4);
  for (int64_t row = 0; row < 8; ++row) {
    std::set<int64_t> seen;
    for (int64_t col = 0; col < 32; ++col)
      seen.insert(plan.elementOffsetA(row, col));
    EXPECT_EQ(seen.size(), 32u);
    EXPECT_EQ(*seen.begin(), row * 128);
    EXPECT_EQ(*seen.rbegin(), row * 128 + 124);
  }
}

TEST(SharedPlan, WgmmaElementOffsets) {
  // bf16, 128x256x64: A rows of 64 elements (128 bytes), swizzled; B in 4
  // chunks of 64 columns, each [64][64] swizzled, 8 KiB apart.
  SharedPlan plan = getSharedPlan(TileConfig::wgmmaDefaults(), 2);
  EXPECT_EQ(plan.elementOffsetA(0, 8), 16);
  EXPECT_EQ(plan.elementOffsetA(1, 0), 128 + 16);
  EXPECT_EQ(plan.elementOffsetA(2, 13), 256 + (1 ^ 2) * 16 + 10);
  EXPECT_EQ(sharedBank(plan.elementOffsetA(1, 0)), 4);
  // Row 7 starts in bank 0 (128 bytes are all 32 banks); its granule 0 is
  // stored at granule 7, banks 28-31.
  EXPECT_EQ(sharedBank(plan.elementOffsetA(7, 1)), 28);
  EXPECT_EQ(plan.elementOffsetB(0, 64), plan.chunkBytesB);
  EXPECT_EQ(plan.chunkBytesB, 64 * 128);
  EXPECT_EQ(plan.elementOffsetB(5, 130),
            2 * plan.chunkBytesB + 5 * 128 + (0 ^ 5) * 16 + 4);
}

TEST(SharedPlan, WgmmaTransposedB) {
  // B stored N x K: its slab is laid out like A's, 256 rows of 64 bf16 (128
  // bytes, swizzled), read by one 256x64 box, in the bytes the N-major
  // chunks take, so the ring does not change.
  TileConfig c = TileConfig::wgmmaDefaults();
  SharedPlan plain = getSharedPlan(c, 2);
  SharedPlan plan = getSharedPlan(c, 2, {/*a=*/false, /*b=*/true});
  EXPECT_TRUE(plan.transposedB);
  EXPECT_FALSE(plain.transposedB);
  EXPECT_EQ(plan.rowsB, 256);
  EXPECT_EQ(plan.rowElementsB, 64);
  EXPECT_EQ(plan.chunksB, 1);
  EXPECT_EQ(plan.boxB.rows, 256);
  EXPECT_EQ(plan.boxB.cols, 64);
  EXPECT_EQ(plan.bytesB, plain.bytesB);
  EXPECT_EQ(plan.stageBytes, plain.stageBytes);
  EXPECT_EQ(plan.dynamicBytes, plain.dynamicBytes);
  EXPECT_EQ(plan.totalBytes, plain.totalBytes);
  // Element (k, n) is in row n at k's swizzled position, as A's (n, k).
  for (int64_t k : {0, 7, 8, 63})
    for (int64_t n : {0, 1, 9, 130, 255})
      EXPECT_EQ(plan.elementOffsetB(k, n), plan.elementOffsetA(n, k));
  // The fma plan keeps its flags off (they describe wgmma slabs); a
  // transposed A changes nothing in it.
  TileConfig f;
  EXPECT_EQ(getSharedPlan(f, 4, {true, false}).dynamicBytes,
            getSharedPlan(f, 4).dynamicBytes);
  EXPECT_FALSE(getSharedPlan(f, 4, {true, true}).transposedB);
  EXPECT_FALSE(getSharedPlan(f, 4, {true, true}).transposedA);
}

TEST(SharedPlan, FmaTransposedBIsPaddedLikeA) {
  // B stored N x K: its copy stores each stored row down a column of the
  // k-major [BK][BN] tile, as A's does, so the tile takes A's pad: rows of
  // 128 + 4 elements.
  TileConfig c; // 128x128x8, pad(4), two stages
  SharedPlan plan = getSharedPlan(c, 4, {false, true});
  EXPECT_EQ(plan.rowsB, 8);
  EXPECT_EQ(plan.rowElementsB, 132);
  EXPECT_EQ(plan.bytesB, 8 * 132 * 4);
  EXPECT_EQ(plan.offsetB(1), 2 * plan.bytesA + 8 * 132 * 4);
  EXPECT_EQ(plan.dynamicBytes, 2 * (8 * 132 + 8 * 132) * 4);
  EXPECT_EQ(plan.elementOffsetB(3, 7), (3 * 132 + 7) * 4);
  // A warp's stores of one vector element j: thread t holds k = 4 (t % 2)
  // + j of stored row t / 2 (BK = 8, two vectors a row). Padded, the 32
  // stores fall on 32 banks; unpadded (smem = none) two share each bank.
  auto banks = [](const SharedPlan &p, int64_t j) {
    std::set<int64_t> seen;
    for (int64_t t = 0; t < 32; ++t)
      seen.insert(
          sharedBank(p.offsetB(0) + p.elementOffsetB(4 * (t % 2) + j, t / 2)));
    return seen.size();
  };
  TileConfig none = c;
  none.smemLayout = SharedLayout::None;
  none.smemPad = 0;
  SharedPlan plain = getSharedPlan(none, 4, {false, true});
  EXPECT_EQ(plain.rowElementsB, 128);
  for (int64_t j = 0; j < 4; ++j) {
    EXPECT_EQ(banks(plan, j), 32u) << j;
    EXPECT_EQ(banks(plain, j), 16u) << j;
  }
  // Row-major B (the straight copy) stays unpadded.
  EXPECT_EQ(getSharedPlan(c, 4, {true, false}).rowElementsB, 128);
}

TEST(SharedPlan, WgmmaTransposedA) {
  // A stored K x M: its slab is laid out like a row-major B, 128 / 64 = 2
  // chunks of 64 k-rows of 64 bf16 (128 bytes, swizzled), 8 KiB apart,
  // read by a 64x64 box per chunk, in the bytes the K-major rows take.
  TileConfig c = TileConfig::wgmmaDefaults(); // 128x256x64
  SharedPlan plain = getSharedPlan(c, 2);
  SharedPlan plan = getSharedPlan(c, 2, {/*a=*/true, /*b=*/false});
  EXPECT_TRUE(plan.transposedA);
  EXPECT_FALSE(plain.transposedA);
  EXPECT_EQ(plan.rowsA, 64);
  EXPECT_EQ(plan.rowElementsA, 64);
  EXPECT_EQ(plan.chunksA, 2);
  EXPECT_EQ(plan.chunkBytesA, 64 * 128);
  EXPECT_EQ(plan.boxA.rows, 64);
  EXPECT_EQ(plan.boxA.cols, 64);
  EXPECT_EQ(plain.chunksA, 1);
  EXPECT_EQ(plain.boxA.rows, 128);
  EXPECT_EQ(plain.boxA.cols, 64);
  EXPECT_EQ(plan.bytesA, plain.bytesA);
  EXPECT_EQ(plan.stageBytes, plain.stageBytes);
  EXPECT_EQ(plan.totalBytes, plain.totalBytes);
  // B is where it was.
  EXPECT_EQ(plan.offsetB(1), plain.offsetB(1));
  // Element (m, k) is in chunk m / 64, row k, at (m % 64)'s swizzled
  // place: as B's element (k, n = m) of the row-major B slab.
  for (int64_t m : {0, 1, 9, 63, 64, 77, 127})
    for (int64_t k : {0, 7, 8, 63})
      EXPECT_EQ(plan.elementOffsetA(m, k), plain.elementOffsetB(k, m));
  EXPECT_EQ(plan.elementOffsetA(70, 5),
            8192 + 5 * 128 + ((12 / 16) ^ 5) * 16 + 12 % 16);
  // The slabs as the passes see them.
  SlabOperand a = plan.slabA(), k = plain.slabA();
  EXPECT_TRUE(a.mnMajor);
  EXPECT_FALSE(k.mnMajor);
  EXPECT_EQ(a.position(70, 5), (std::pair<int64_t, int64_t>{64 + 5, 6}));
  EXPECT_EQ(k.position(70, 5), (std::pair<int64_t, int64_t>{70, 5}));
  EXPECT_EQ(a.linearOffset(64, 16), 8192 + 16 * 128);
  EXPECT_EQ(a.linearOffset(3, 2), 2 * 128 + 3 * 2);
  EXPECT_EQ(k.linearOffset(64, 16), 64 * 128 + 16 * 2);
  // B: MN-major stored K x N, K-major stored N x K.
  EXPECT_TRUE(plain.slabB().mnMajor);
  EXPECT_FALSE(getSharedPlan(c, 2, {false, true}).slabB().mnMajor);
  EXPECT_EQ(plain.slabB().linearOffset(130, 16), 2 * 8192 + 16 * 128 + 2 * 2);
}

TEST(SharedPlan, WgmmaElementRules) {
  TileConfig c = TileConfig::wgmmaDefaults();
  EXPECT_EQ(checkWgmmaElementBytes(c, 2), "");
  c.setBlock(128, 256, 32);
  EXPECT_EQ(checkWgmmaElementBytes(c, 2),
            "block tile K (32) must be 64 for 16-bit elements: one 128-byte "
            "row of the swizzled layout");
  c = TileConfig::wgmmaDefaults();
  c.setBlock(128, 96, 64);
  c.setWarp(64, 96);
  c.setThread(64, 96);
  EXPECT_EQ(checkWgmmaElementBytes(c, 2),
            "block tile N (96) must be a multiple of 64 for 16-bit elements: "
            "B is stored in 128-byte-wide swizzled chunks");
  c = TileConfig::wgmmaDefaults();
  c.mmaK = 8;
  EXPECT_EQ(checkWgmmaElementBytes(c, 2),
            "the wgmma k step for 16-bit elements is 16, got 8");
  c = TileConfig::wgmmaDefaults();
  c.setBlock(512, 128, 64);
  c.setWarp(128, 128);
  c.setThread(64, 128);
  EXPECT_EQ(checkWgmmaElementBytes(c, 2),
            "a TMA box holds at most 256 rows; block tile M is 512");
  c.copy = CopyKind::Registers;
  EXPECT_EQ(checkWgmmaElementBytes(c, 2), "");
  // Instructions and warpgroups along N start at chunk boundaries or stay
  // inside a chunk.
  c = TileConfig::wgmmaDefaults();
  c.setBlock(128, 192, 64);
  c.setWarp(64, 192);
  c.setThread(64, 96);
  EXPECT_EQ(checkWgmmaElementBytes(c, 2),
            "the wgmma instruction tile N (96) must be a multiple or a "
            "divisor of 64 when a warpgroup issues several along N (192): "
            "B's descriptor cannot start inside a 64-column chunk and cross "
            "it");
  c.setThread(64, 192);
  EXPECT_EQ(checkWgmmaElementBytes(c, 2), "");
  c.setWarp(64, 96);
  c.setThread(64, 96);
  EXPECT_EQ(checkWgmmaElementBytes(c, 2),
            "the warpgroup tile N (96) must be a multiple or a divisor of 64 "
            "when a block has several along N (192): B's descriptor cannot "
            "start inside a 64-column chunk and cross it");
  c.setBlock(128, 64, 64);
  c.setWarp(64, 32);
  c.setThread(64, 16);
  EXPECT_EQ(checkWgmmaElementBytes(c, 2), "");
}

} // namespace
