//===- SharedPlan.cpp - where a kernel's tiles live in shared memory ------===//

#include "tile/Analysis/SharedPlan.h"

#include <algorithm>
#include <sstream>

using namespace mlir::tile;

namespace {
int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}
} // namespace

int64_t mlir::tile::swizzle128Offset(int64_t row, int64_t byteInRow) {
  int64_t granule = byteInRow / 16;
  return row * kSwizzleRowBytes + ((granule ^ (row % 8)) * 16) +
         byteInRow % 16;
}

int64_t SharedPlan::offsetA(int64_t index) const {
  return interleaved ? index * stageBytes : index * bytesA;
}

int64_t SharedPlan::offsetStaging(int64_t warpgroup, int64_t index) const {
  return buffers * stageBytes + (2 * warpgroup + index) * kStagingBytes;
}

int64_t SharedPlan::offsetB(int64_t index) const {
  return interleaved ? index * stageBytes + bytesA
                     : buffers * bytesA + index * bytesB;
}

namespace {
/// Byte offset of element `col` of row `row` in rows of `rowElements`
/// elements of `elementBytes`, laid out as `layout` says.
int64_t rowMajorOffset(SharedLayout layout, int64_t rowElements,
                       int64_t elementBytes, int64_t row, int64_t col) {
  int64_t byteInRow = col * elementBytes;
  int64_t rowBytes = rowElements * elementBytes;
  switch (layout) {
  case SharedLayout::Swizzle128:
    return swizzle128Offset(row, byteInRow);
  case SharedLayout::Xor: {
    int64_t granules = rowBytes / 16;
    int64_t granule = (byteInRow / 16) ^ (row % granules);
    return row * rowBytes + granule * 16 + byteInRow % 16;
  }
  case SharedLayout::None:
  case SharedLayout::Pad:
    break;
  }
  return row * rowBytes + byteInRow;
}
} // namespace

std::pair<int64_t, int64_t> SlabOperand::position(int64_t mn,
                                                   int64_t k) const {
  if (!mnMajor)
    return {mn, k};
  return {mn / rowElements * rows + k, mn % rowElements};
}

int64_t SlabOperand::linearOffset(int64_t mn, int64_t k) const {
  if (!mnMajor)
    return mn * kSwizzleRowBytes + k * elementBytes;
  return mn / rowElements * chunkBytes + k * kSwizzleRowBytes +
         mn % rowElements * elementBytes;
}

int64_t SlabOperand::offset(int64_t mn, int64_t k) const {
  if (!mnMajor)
    return swizzle128Offset(mn, k * elementBytes);
  return mn / rowElements * chunkBytes +
         swizzle128Offset(k, mn % rowElements * elementBytes);
}

SlabOperand SharedPlan::slabA() const {
  return {transposedA, rowsA, rowElementsA, chunksA, chunkBytesA,
          elementBytes};
}

SlabOperand SharedPlan::slabB() const {
  return {!transposedB, rowsB, rowElementsB, chunksB, chunkBytesB,
          elementBytes};
}

int64_t SharedPlan::elementOffsetA(int64_t row, int64_t col) const {
  if (layout == SharedLayout::Swizzle128)
    return slabA().offset(row, col);
  return rowMajorOffset(layout, rowElementsA, elementBytes, row, col);
}

int64_t SharedPlan::elementOffsetB(int64_t row, int64_t col) const {
  // Only wgmma's B is swizzled; fma's B rows are plain (padded where B is
  // stored N x K), whatever the A layout.
  if (layout == SharedLayout::Swizzle128)
    return slabB().offset(col, row);
  return rowMajorOffset(SharedLayout::None, rowElementsB, elementBytes, row,
                        col);
}

SharedPlan mlir::tile::getSharedPlan(const TileConfig &c,
                                     int64_t elementBytes,
                                     StoredTransposes stored) {
  SharedPlan plan;
  plan.layout = c.smemLayout;
  plan.elementBytes = elementBytes;
  if (c.isWgmma()) {
    // An mbarrier ring of `stages` slots [A_s][B_s]; every tile 128-byte
    // swizzled, so every slot and tile starts on a swizzle atom.
    plan.buffers = c.stages;
    plan.interleaved = true;
    plan.alignment = kSwizzleAtomBytes;
    int64_t rowElements = kSwizzleRowBytes / elementBytes;
    // A slab of `extent` mn by BK, K-major (one box of extent x BK) or
    // MN-major (a box of BK x 64 per 64-element chunk). Both take the same
    // bytes, so the ring, and every limit checked on it, does not depend on
    // how the operands are stored.
    // A K-major slab that the blocks of a cluster share (B in a 2x1
    // cluster, A in a 1x2 one) is `split` boxes of its rows, one part per
    // block to multicast (the swizzle follows the shared address, and each
    // part is whole swizzle atoms: the bytes are the same as one box's).
    auto slab = [&](int64_t extent, bool mnMajor, int64_t split, int64_t &rows,
                    int64_t &rowElementsOut, int64_t &chunks,
                    int64_t &chunkBytes, int64_t &bytes, TmaBox &box,
                    int64_t &boxes) {
      if (mnMajor) {
        rows = c.blockK;
        rowElementsOut = rowElements;
        chunks = (extent + rowElements - 1) / rowElements;
        chunkBytes = alignTo(c.blockK * kSwizzleRowBytes, plan.alignment);
        bytes = chunks * chunkBytes;
        box = {c.blockK, rowElements};
        boxes = chunks;
      } else {
        rows = extent;
        rowElementsOut = c.blockK;
        chunks = 1;
        bytes = alignTo(extent * c.blockK * elementBytes, plan.alignment);
        chunkBytes = bytes;
        boxes = extent % (split * 8) == 0 ? split : 1;
        box = {extent / boxes, c.blockK};
      }
    };
    plan.transposedA = stored.a;
    plan.transposedB = stored.b;
    slab(c.blockM, stored.a, c.clusterN, plan.rowsA, plan.rowElementsA,
         plan.chunksA, plan.chunkBytesA, plan.bytesA, plan.boxA, plan.boxesA);
    slab(c.blockN, !stored.b, c.clusterM, plan.rowsB, plan.rowElementsB,
         plan.chunksB, plan.chunkBytesB, plan.bytesB, plan.boxB, plan.boxesB);
    plan.stageBytes = plan.bytesA + plan.bytesB;
    plan.alignmentSlack = kSwizzleAtomBytes;
    plan.barrierBytes = 2 * c.stages * kMbarrierBytes;
    // A TMA store's staging buffers, two per consumer warpgroup, after
    // the ring (stage bytes are whole swizzle atoms).
    if (c.tmaStore)
      plan.stagingBuffers = 2 * c.warpsM() * c.warpsN();
    plan.dynamicBytes = c.stages * plan.stageBytes +
                        plan.stagingBuffers * kStagingBytes +
                        plan.alignmentSlack;
    plan.totalBytes = plan.dynamicBytes + plan.barrierBytes;
    return plan;
  }
  // fma: A k-major [BK][BM + pad] (a lane's A values of one k step are
  // contiguous), B as it is [BK][BN], each 16-byte aligned. A B stored
  // N x K is transposed into its tile by its copy, as A is: its rows get
  // the pad too ([BK][BN + pad]). One buffer for one stage, two for double
  // buffering ([A0][A1][B0][B1]), a ring of `stages` [A_s][B_s] for
  // cp.async.
  plan.buffers = std::max<int64_t>(1, c.stages);
  plan.interleaved = c.stages >= 3;
  plan.alignment = 16;
  int64_t pad = c.smemLayout == SharedLayout::Pad ? c.smemPad : 0;
  plan.rowsA = c.blockK;
  plan.rowElementsA = c.blockM + pad;
  plan.bytesA =
      alignTo(plan.rowsA * plan.rowElementsA * elementBytes, plan.alignment);
  plan.chunkBytesA = plan.bytesA;
  plan.rowsB = c.blockK;
  plan.rowElementsB = c.blockN + (stored.b ? pad : 0);
  plan.bytesB =
      alignTo(plan.rowsB * plan.rowElementsB * elementBytes, plan.alignment);
  plan.chunkBytesB = plan.bytesB;
  plan.stageBytes = plan.bytesA + plan.bytesB;
  plan.dynamicBytes = plan.buffers * plan.stageBytes;
  plan.totalBytes = plan.dynamicBytes;
  return plan;
}

std::string mlir::tile::checkWgmmaElementBytes(const TileConfig &c,
                                               int64_t elementBytes) {
  std::ostringstream os;
  int64_t rowElements = kSwizzleRowBytes / elementBytes;
  if (c.blockK != rowElements) {
    os << "block tile K (" << c.blockK << ") must be " << rowElements
       << " for " << elementBytes * 8
       << "-bit elements: one 128-byte row of the swizzled layout";
    return os.str();
  }
  if (c.blockN % rowElements != 0) {
    os << "block tile N (" << c.blockN << ") must be a multiple of "
       << rowElements << " for " << elementBytes * 8
       << "-bit elements: B is stored in 128-byte-wide swizzled chunks";
    return os.str();
  }
  // A wgmma's B descriptor starts at its first column, inside a 64-column
  // chunk; the hardware steps to the next chunk (the leading byte offset)
  // only at a multiple of 64 columns from there. So an instruction that
  // starts inside a chunk must end in it: the instruction tiles along a
  // warpgroup's N, and the warpgroup tiles along the block's, are whole
  // chunks or divide one.
  auto inChunks = [&](int64_t width) {
    return width % rowElements == 0 || rowElements % width == 0;
  };
  if (c.threadN != c.warpN && !inChunks(c.threadN)) {
    os << "the wgmma instruction tile N (" << c.threadN
       << ") must be a multiple or a divisor of " << rowElements
       << " when a warpgroup issues several along N (" << c.warpN
       << "): B's descriptor cannot start inside a " << rowElements
       << "-column chunk and cross it";
    return os.str();
  }
  if (c.warpN != c.blockN && !inChunks(c.warpN)) {
    os << "the warpgroup tile N (" << c.warpN
       << ") must be a multiple or a divisor of " << rowElements
       << " when a block has several along N (" << c.blockN
       << "): B's descriptor cannot start inside a " << rowElements
       << "-column chunk and cross it";
    return os.str();
  }
  int64_t expectedK = 32 / elementBytes;
  if (c.mmaK != expectedK) {
    os << "the wgmma k step for " << elementBytes * 8 << "-bit elements is "
       << expectedK << ", got " << c.mmaK;
    return os.str();
  }
  // TMA boxes hold at most 256 elements per dimension.
  if (c.copyKind() == CopyKind::Tma && c.blockM > 256) {
    os << "a TMA box holds at most 256 rows; block tile M is " << c.blockM;
    return os.str();
  }
  return {};
}
