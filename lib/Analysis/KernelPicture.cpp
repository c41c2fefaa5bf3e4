//===- KernelPicture.cpp - an SVG picture of a kernel's tiling ------------===//
//
// Plain string building: a <style> block, then rectangles and text in four
// parts (heading, tiling, shared memory, launch order). Every rectangle that
// stands for something carries a <title> saying what, with the numbers
// (shown by a browser on hover, and what the tests check).
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/KernelPicture.h"

#include "tile/Analysis/SharedPlan.h"
#include "tile/Analysis/TileLayout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

using namespace mlir::tile;

namespace {

std::string escapeXml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// A coordinate: an integer, or one decimal.
std::string num(double value) {
  char buffer[32];
  double rounded = std::round(value * 10) / 10;
  if (rounded == std::floor(rounded))
    std::snprintf(buffer, sizeof(buffer), "%.0f", rounded);
  else
    std::snprintf(buffer, sizeof(buffer), "%.1f", rounded);
  return buffer;
}

/// "#rrggbb" of a colour given as hue (degrees), saturation and lightness
/// (0 to 1).
std::string hsl(double hue, double saturation, double lightness) {
  double c = (1 - std::fabs(2 * lightness - 1)) * saturation;
  double h = std::fmod(hue, 360) / 60;
  double x = c * (1 - std::fabs(std::fmod(h, 2) - 1));
  double r = 0, g = 0, b = 0;
  if (h < 1)
    r = c, g = x;
  else if (h < 2)
    r = x, g = c;
  else if (h < 3)
    g = c, b = x;
  else if (h < 4)
    g = x, b = c;
  else if (h < 5)
    r = x, b = c;
  else
    r = c, b = x;
  double m = lightness - c / 2;
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), "#%02x%02x%02x",
                static_cast<int>(std::lround((r + m) * 255)),
                static_cast<int>(std::lround((g + m) * 255)),
                static_cast<int>(std::lround((b + m) * 255)));
  return buffer;
}

/// The document: elements appended to a body, the size grown to hold them.
class Svg {
public:
  void text(double x, double y, const std::string &content,
            const std::string &cls = "") {
    body << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\"";
    if (!cls.empty())
      body << " class=\"" << cls << "\"";
    body << ">" << escapeXml(content) << "</text>\n";
    // Text runs right of x; about 6 px per character of the normal size.
    grow(x + 6.0 * content.size(), y + 4);
  }
  void rect(double x, double y, double w, double h, const std::string &cls,
            const std::string &title = "") {
    body << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\""
         << num(w) << "\" height=\"" << num(h) << "\" class=\"" << cls
         << "\"";
    if (title.empty())
      body << "/>\n";
    else
      body << "><title>" << escapeXml(title) << "</title></rect>\n";
    grow(x + w, y + h);
  }
  /// Centered text in a cell (class `c`, or `cls`).
  void label(double cx, double y, const std::string &content,
             const std::string &cls = "c") {
    body << "<text x=\"" << num(cx) << "\" y=\"" << num(y) << "\" class=\""
         << cls << "\">" << escapeXml(content) << "</text>\n";
  }
  void comment(const std::string &content) {
    body << "<!-- " << content << " -->\n";
  }
  void grow(double x, double y) {
    width = std::max(width, x);
    height = std::max(height, y);
  }
  std::string finish() const {
    std::ostringstream os;
    double w = std::ceil(width + 20), h = std::ceil(height + 20);
    os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
       << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(w)
       << "\" height=\"" << num(h) << "\" viewBox=\"0 0 " << num(w) << " "
       << num(h) << "\">\n<style>\n"
       << "text { font-family: sans-serif; font-size: 11px; fill: #222; }\n"
       << ".title { font-size: 16px; font-weight: bold; }\n"
       << ".h { font-size: 14px; font-weight: bold; }\n"
       << ".cap { font-size: 11px; font-weight: bold; }\n"
       << ".note { font-size: 10px; fill: #555; }\n"
       << ".c { font-size: 6.5px; text-anchor: middle; }\n"
       << ".cb { font-size: 6px; text-anchor: middle; fill: #444; }\n"
       << ".cl { font-size: 10px; text-anchor: middle; }\n"
       << "rect { stroke: #555; stroke-width: 0.5; }\n"
       << ".bg { fill: #fff; stroke: none; }\n"
       << ".tile { fill: #eef2f7; stroke: #333; stroke-width: 1; }\n"
       << ".warp { fill: #d7e4f3; stroke: #2f5d8a; stroke-width: 1; }\n"
       << ".sel { fill: #f6c667; stroke: #8a6100; stroke-width: 1; }\n"
       << ".acc { fill: #fbe3b0; stroke: #8a6100; }\n"
       << ".w0 { fill: #e3eefa; } .w1 { fill: #e6f4e3; } "
          ".w2 { fill: #f7e8f3; } .w3 { fill: #f6f1dc; }\n"
       << ".pad { fill: #d0d0d0; stroke: #888; }\n"
       << ".g0 { fill: #e3eefa; } .g1 { fill: #f3ead9; }\n"
       << ".wave { stroke: #c0392b; stroke-width: 1.5; }\n";
    for (int64_t bank = 0; bank < kSharedBanks; ++bank)
      os << ".b" << bank << " { fill: "
         << hsl(360.0 * bank / kSharedBanks, 0.65, bank % 2 ? 0.78 : 0.86)
         << "; }\n";
    os << "</style>\n<rect x=\"0\" y=\"0\" width=\"" << num(w)
       << "\" height=\"" << num(h) << "\" class=\"bg\"/>\n"
       << body.str() << "</svg>\n";
    return os.str();
  }

private:
  std::ostringstream body;
  double width = 0, height = 0;
};

std::string range(int64_t first, int64_t count) {
  std::ostringstream os;
  os << first << "-" << first + count - 1;
  return os.str();
}

/// The drawing: one method per part, each starting at `y` and moving it on.
class Picture {
public:
  Picture(const TileConfig &config, const KernelPictureInput &kernel)
      : c(config), kernel(kernel),
        plan(getSharedPlan(config, kernel.elementBytes,
                           {kernel.transposeA, kernel.transposeB})) {}

  std::string draw() {
    heading();
    tiling();
    sharedMemory();
    launchOrder();
    return svg.finish();
  }

private:
  const TileConfig &c;
  const KernelPictureInput &kernel;
  SharedPlan plan;
  Svg svg;
  double y = 28;

  int64_t tilesM() const { return (kernel.m + c.blockM - 1) / c.blockM; }
  int64_t tilesN() const { return (kernel.n + c.blockN - 1) / c.blockN; }
  int64_t splits() const { return numSplits(c, kernel.k); }
  /// The tiles whose K is split (all of them but under split_last).
  int64_t splitTiles() const {
    return splitTileCount(c, tilesM() * tilesN(), kernel.k);
  }
  int64_t blocks() const {
    return blocksPerMatrix(c, tilesM() * tilesN(), kernel.k);
  }

  void heading() {
    std::ostringstream line;
    line << "kernel " << kernel.name << ": " << kernel.m << "x" << kernel.n
         << "x" << kernel.k << " " << kernel.elementType << ", C ("
         << kernel.resultType << ")"
         << (kernel.fill ? " = fill + A*B" : " += A*B");
    if (kernel.transposeA || kernel.transposeB)
      line << " (" << (kernel.transposeA ? "A stored K x M" : "")
           << (kernel.transposeA && kernel.transposeB ? ", " : "")
           << (kernel.transposeB ? "B stored N x K" : "") << ")";
    svg.text(20, y, line.str(), "title");
    y += 20;
    svg.text(20, y, toString(c));
    y += 16;
    std::ostringstream launch;
    int64_t tiles = tilesM() * tilesN();
    launch << "launch: " << blocks() << " blocks = " << tilesM() << " x "
           << tilesN() << " tiles of " << c.blockM << " x " << c.blockN;
    if (splits() > 1 && splitTiles() < tiles)
      launch << ", the last " << splitTiles() << " in " << splits()
             << " splits of K";
    else if (splits() > 1)
      launch << " x " << splits() << " splits of K";
    launch << ", " << c.numThreads() << " threads per block";
    if (c.isWgmma())
      launch << " (" << c.numConsumers() << " consumer warpgroup"
             << (c.numConsumers() > 1 ? "s" : "")
             << (c.specialize ? " + a producer warpgroup)" : ")");
    svg.text(20, y, launch.str());
    y += 16;
    std::ostringstream shared;
    shared << "shared memory: " << plan.dynamicBytes
           << " B dynamic per block (" << plan.buffers << " x "
           << (plan.interleaved ? "[A][B] stages" : "A and B buffers");
    if (plan.barrierBytes)
      shared << ", " << plan.alignmentSlack << " B alignment slack; "
             << plan.barrierBytes << " B of mbarriers";
    shared << ")";
    svg.text(20, y, shared.str());
    y += 30;
  }

  void tiling() {
    svg.text(20, y, "Tiling", "h");
    y += 22;
    double top = y;
    double bottom = blockPanel(20, top);
    if (c.isWgmma()) {
      bottom = std::max(bottom, warpgroupPanel(330, top));
      bottom = std::max(bottom, instructionPanel(780, top));
    } else {
      bottom = std::max(bottom, warpPanel(330, top));
      bottom = std::max(bottom, lanePanel(780, top));
    }
    y = bottom + 34;
  }

  /// The block tile and its warp (warpgroup) tiles, warp 0 highlighted.
  double blockPanel(double x, double top) {
    const char *unit = c.isWgmma() ? "warpgroup" : "warp";
    std::ostringstream caption;
    caption << "block tile " << c.blockM << " x " << c.blockN << " ("
            << (c.isWgmma() ? "K slab " : "K slice ") << c.blockK << ")";
    svg.text(x, top, caption.str(), "cap");
    std::ostringstream sub;
    sub << c.warpsM() * c.warpsN() << " " << unit << " tiles of " << c.warpM
        << " x " << c.warpN << " (" << c.warpsM() << " x " << c.warpsN()
        << ")";
    svg.text(x, top + 14, sub.str(), "note");
    double scale = std::min(280.0 / c.blockN, 220.0 / c.blockM);
    double y0 = top + 24;
    svg.rect(x, y0, c.blockN * scale, c.blockM * scale, "tile");
    for (int64_t w = 0; w < c.warpsM() * c.warpsN(); ++w) {
      TilePosition origin = warpTileOrigin(c, w);
      std::ostringstream title;
      title << unit << " " << w << ": rows " << range(origin.row, c.warpM)
            << ", columns " << range(origin.col, c.warpN)
            << " of the block tile";
      double rx = x + origin.col * scale, ry = y0 + origin.row * scale;
      double rw = c.warpN * scale, rh = c.warpM * scale;
      svg.rect(rx, ry, rw, rh, w == 0 ? "sel" : "warp", title.str());
      if (rw >= 16 && rh >= 12)
        svg.label(rx + rw / 2, ry + rh / 2 + 3,
                  (c.isWgmma() ? "wg" : "w") + std::to_string(w), "cl");
    }
    return y0 + c.blockM * scale;
  }

  /// fma: the warp tile split among the lanes, in sub-tiles of VA x VB.
  double warpPanel(double x, double top) {
    LaneLayout layout = getLaneLayout(c, plan);
    std::ostringstream caption;
    caption << "warp tile " << c.warpM << " x " << c.warpN << ": 32 lanes as "
            << layout.lanesM << " x " << layout.lanesN;
    svg.text(x, top, caption.str(), "cap");
    std::ostringstream sub;
    sub << "each lane " << c.threadM << " x " << c.threadN
        << " in sub-tiles of " << layout.widthA << " x " << layout.widthB
        << ", " << layout.lanesM * layout.widthA << " rows and "
        << layout.lanesN * layout.widthB << " columns apart";
    svg.text(x, top + 14, sub.str(), "note");
    // Which lane holds each sub-tile, from the lane layout.
    std::map<std::pair<int64_t, int64_t>, int64_t> owner;
    for (int64_t lane = 0; lane < kWarpSize; ++lane) {
      TilePosition origin = layout.laneOrigin(lane);
      for (int64_t i = 0; i < layout.rowGroups(); ++i)
        for (int64_t j = 0; j < layout.colGroups(); ++j)
          owner[{origin.row + layout.rowOffset(i * layout.widthA),
                 origin.col + layout.colOffset(j)}] = lane;
    }
    double scale = std::min(420.0 / c.warpN, 240.0 / c.warpM);
    double y0 = top + 24;
    double cw = layout.widthB * scale, ch = layout.widthA * scale;
    for (const auto &[position, lane] : owner) {
      auto [row, col] = position;
      std::ostringstream title;
      title << "rows " << range(row, layout.widthA) << ", columns "
            << range(col, layout.widthB) << " of the warp tile: lane " << lane;
      double rx = x + col * scale, ry = y0 + row * scale;
      svg.rect(rx, ry, cw, ch, lane == 0 ? "sel" : "warp", title.str());
      if (cw >= 9 && ch >= 7)
        svg.label(rx + cw / 2, ry + ch / 2 + 2.5, std::to_string(lane),
                  cw >= 14 ? "c" : "cb");
    }
    return y0 + c.warpM * scale;
  }

  /// fma: lane 0's accumulators and where each lies in the warp tile.
  double lanePanel(double x, double top) {
    LaneLayout layout = getLaneLayout(c, plan);
    std::ostringstream caption;
    caption << "lane 0: " << c.threadM << " x " << c.threadN
            << " accumulators (warp tile row,column)";
    svg.text(x, top, caption.str(), "cap");
    std::ostringstream sub;
    sub << "per k step: " << layout.rowGroups() << " loads of "
        << layout.widthA << " from A, " << layout.colGroups() << " of "
        << layout.widthB << " from B, " << c.threadM * c.threadN << " FMAs";
    svg.text(x, top + 14, sub.str(), "note");
    double cw = 26, ch = 13, y0 = top + 24;
    for (int64_t r = 0; r < c.threadM; ++r)
      for (int64_t col = 0; col < c.threadN; ++col) {
        int64_t warpRow = layout.rowOffset(r), warpCol = layout.columnOffset(col);
        std::ostringstream title, text;
        title << "lane 0 accumulator (" << r << ", " << col
              << "): warp tile row " << warpRow << ", column " << warpCol;
        text << warpRow << "," << warpCol;
        double rx = x + col * cw, ry = y0 + r * ch;
        svg.rect(rx, ry, cw, ch, "acc", title.str());
        svg.label(rx + cw / 2, ry + ch / 2 + 2.5, text.str());
      }
    return y0 + c.threadM * ch;
  }

  /// wgmma: the warpgroup tile split into instruction tiles.
  double warpgroupPanel(double x, double top) {
    int64_t perM = c.warpM / kWgmmaInstructionM, perN = c.warpN / c.threadN;
    std::ostringstream caption;
    caption << "warpgroup tile " << c.warpM << " x " << c.warpN << ": "
            << perM << " x " << perN << " instruction tiles";
    svg.text(x, top, caption.str(), "cap");
    std::ostringstream sub;
    sub << "wgmma m" << c.threadM << "n" << c.threadN << "k" << c.mmaK
        << ", " << perM * perN << " per k step, "
        << perM * perN * (c.blockK / c.mmaK) << " per slab";
    svg.text(x, top + 14, sub.str(), "note");
    double scale = std::min(420.0 / c.warpN, 240.0 / c.warpM);
    double y0 = top + 24;
    for (int64_t mi = 0; mi < perM; ++mi)
      for (int64_t ni = 0; ni < perN; ++ni) {
        int64_t index = mi * perN + ni;
        std::ostringstream title;
        title << "instruction " << index << ": rows "
              << range(mi * kWgmmaInstructionM, kWgmmaInstructionM)
              << ", columns " << range(ni * c.threadN, c.threadN)
              << " of the warpgroup tile";
        double rx = x + ni * c.threadN * scale;
        double ry = y0 + mi * kWgmmaInstructionM * scale;
        double rw = c.threadN * scale, rh = kWgmmaInstructionM * scale;
        svg.rect(rx, ry, rw, rh, index == 0 ? "sel" : "warp", title.str());
        if (rw >= 14 && rh >= 12)
          svg.label(rx + rw / 2, ry + rh / 2 + 3, "i" + std::to_string(index),
                    "cl");
      }
    return y0 + c.warpM * scale;
  }

  /// wgmma: one instruction tile, its warps' rows and thread 0's
  /// accumulators.
  double instructionPanel(double x, double top) {
    std::ostringstream caption;
    caption << "instruction tile " << kWgmmaInstructionM << " x " << c.threadN
            << " x " << c.mmaK << ": " << c.threadN / 2
            << " f32 accumulators per thread";
    svg.text(x, top, caption.str(), "cap");
    svg.text(x, top + 14,
             "A 64 x " + std::to_string(c.mmaK) + " and B " +
                 std::to_string(c.mmaK) + " x " + std::to_string(c.threadN) +
                 " " + kernel.elementType +
                 " from shared memory; thread 0's accumulators marked",
             "note");
    double scale = std::min(3.0, 360.0 / c.threadN);
    double y0 = top + 24;
    for (int64_t warp = 0; warp < 4; ++warp) {
      std::ostringstream title;
      title << "warp " << warp << " of the warpgroup: rows "
            << range(16 * warp, 16);
      svg.rect(x, y0 + 16 * warp * scale, c.threadN * scale, 16 * scale,
               "w" + std::to_string(warp), title.str());
      svg.label(x - 14, y0 + (16 * warp + 9) * scale, "w" + std::to_string(warp),
                "cb");
    }
    for (int64_t reg = 0; reg < c.threadN / 2; ++reg) {
      TilePosition at = wgmmaAccumulatorPosition(0, reg);
      std::ostringstream title;
      title << "thread 0 register " << reg << ": row " << at.row
            << ", column " << at.col;
      svg.rect(x + at.col * scale, y0 + at.row * scale, scale, scale, "sel",
               title.str());
    }
    return y0 + kWgmmaInstructionM * scale;
  }

  /// One operand's tile in shared memory, row by row in stored order, each
  /// element with its bank.
  void sharedTile(const char *operand, bool isA) {
    int64_t eb = plan.elementBytes;
    bool wgmma = c.isWgmma();
    int64_t rows = isA ? plan.rowsA : plan.rowsB;
    int64_t slots = isA ? plan.rowElementsA : plan.rowElementsB;
    // Logical elements of a stored row: fma A rows are k with BM columns;
    // wgmma A rows are m with BK columns; B rows are k (wgmma: one chunk).
    int64_t logical = isA ? (wgmma ? c.blockK : c.blockM)
                          : (wgmma ? plan.rowElementsB : c.blockN);
    const char *rowName = isA && wgmma ? "m" : "k";
    const char *colName = isA ? (wgmma ? "k" : "m") : "n";
    int64_t base = isA ? plan.offsetA(0) : plan.offsetB(0);
    int64_t bufferBytes = isA ? plan.bytesA : plan.bytesB;

    std::ostringstream head;
    head << operand << ": ";
    if (!isA && wgmma)
      head << plan.chunksB << " chunk" << (plan.chunksB > 1 ? "s" : "")
           << " of ";
    head << "[" << rows << "][" << logical;
    if (slots > logical)
      head << " + " << slots - logical;
    head << "] " << kernel.elementType;
    if (isA)
      head << (wgmma ? " (row m holds A[m][k0..k0+" : " (k-major: row k holds A[m0..m0+")
           << logical - 1 << "])";
    else if (wgmma)
      head << " (chunk j holds B[k][64j..64j+63]), " << plan.chunkBytesB
           << " B apart";
    // (An fma B is padded only where it is stored N x K.)
    switch (isA || wgmma || slots > logical ? plan.layout
                                            : SharedLayout::None) {
    case SharedLayout::Pad:
      head << ", rows padded by " << c.smemPad;
      break;
    case SharedLayout::Xor:
      head << ", XOR: 16-byte granule g of row r at g ^ (r mod "
           << slots * eb / 16 << ")";
      break;
    case SharedLayout::Swizzle128:
      head << ", 128-byte swizzle: 16-byte granule g of row r at g ^ (r mod 8)";
      break;
    case SharedLayout::None:
      break;
    }
    svg.text(20, y, head.str(), "cap");
    y += 14;
    std::ostringstream where;
    where << bufferBytes << " B per " << (plan.interleaved ? "stage" : "buffer")
          << ", at byte";
    for (int64_t i = 0; i < plan.buffers; ++i)
      where << (i ? ", " : " ") << (isA ? plan.offsetA(i) : plan.offsetB(i));
    where << " of the aligned base; bank = (byte / 4) mod 32 (number under "
             "each element). ";
    // Each stored row in stored order: the logical element in each slot
    // (-1: padding) and its byte from the aligned base.
    struct Slot {
      int64_t col = -1, byte = 0;
      bool operator==(const Slot &other) const {
        return col == other.col && sharedBank(byte) == sharedBank(other.byte);
      }
    };
    std::vector<std::vector<Slot>> stored;
    int64_t period = 0;
    for (int64_t r = 0; r < std::min(rows, kPictureSharedRows); ++r) {
      int64_t rowStart = r * slots * eb;
      std::vector<Slot> row(slots);
      for (int64_t slot = 0; slot < slots; ++slot)
        row[slot].byte = base + rowStart + slot * eb;
      for (int64_t col = 0; col < logical; ++col) {
        int64_t offset =
            isA ? plan.elementOffsetA(r, col) : plan.elementOffsetB(r, col);
        int64_t slot = (offset - rowStart) / eb;
        if (slot >= 0 && slot < slots) // always: a row's elements stay in it
          row[slot] = {col, base + offset};
      }
      stored.push_back(std::move(row));
      // Stop at the first row that repeats row 0 (order and banks).
      if (r > 0 && stored[r] == stored[0]) {
        period = r;
        break;
      }
    }
    int64_t drawnRows = stored.size();
    int64_t drawnSlots =
        slots <= kPictureRowElements ? slots : kPictureRowElements - 8;
    where << "Rows 0-" << drawnRows - 1 << " of " << rows;
    if (drawnSlots < slots)
      where << ", elements 0-" << drawnSlots - 1 << " of " << slots;
    if (!isA && wgmma)
      where << ", chunk 0";
    where << " drawn";
    if (period)
      where << "; row " << period << " repeats row 0 (order and banks), "
            << "and so on every " << period << " row"
            << (period > 1 ? "s" : "");
    where << ".";
    svg.text(20, y, where.str(), "note");
    y += 8;

    double cw = 15, ch = 22, x0 = 54;
    for (int64_t r = 0; r < drawnRows; ++r) {
      double ry = y + r * (ch + 3);
      svg.text(20, ry + 14, std::string(rowName) + "=" + std::to_string(r));
      for (int64_t slot = 0; slot < drawnSlots; ++slot) {
        const Slot &at = stored[r][slot];
        int64_t bank = sharedBank(at.byte);
        std::ostringstream title;
        title << operand << " " << rowName << "=" << r << " ";
        if (at.col >= 0)
          title << colName << "=" << at.col;
        else
          title << "padding element " << slot;
        title << ": byte " << at.byte << ", bank " << bank;
        double rx = x0 + slot * cw;
        svg.rect(rx, ry, cw, ch,
                 at.col >= 0 ? "b" + std::to_string(bank) : "pad",
                 title.str());
        svg.label(rx + cw / 2, ry + 9,
                  at.col >= 0 ? std::to_string(at.col) : "pad");
        svg.label(rx + cw / 2, ry + 18, std::to_string(bank), "cb");
      }
    }
    y += drawnRows * (ch + 3) + 24;
  }

  void sharedMemory() {
    svg.text(20, y, "Shared memory (buffer 0; colour and small number: bank)",
             "h");
    y += 22;
    if (c.isWgmma() && kernel.transposeA) {
      // An M-major A slab: the map below draws A's K-major rows, which this
      // kernel does not have.
      std::ostringstream note;
      note << "A stored K x M: an M-major slab like B's (" << plan.chunksA
           << " chunk" << (plan.chunksA > 1 ? "s" : "") << " of 64 m, "
           << plan.bytesA << " B per "
           << (plan.interleaved ? "stage" : "buffer") << "), not drawn";
      svg.text(20, y, note.str(), "note");
      y += 18;
    } else {
      sharedTile("A", true);
    }
    if (c.isWgmma() && kernel.transposeB) {
      // A K-major B slab: the map below draws B's row-major chunks, which
      // this kernel does not have.
      std::ostringstream note;
      note << "B stored N x K: a K-major slab like A's (" << plan.bytesB
           << " B per " << (plan.interleaved ? "stage" : "buffer")
           << "), not drawn";
      svg.text(20, y, note.str(), "note");
      y += 18;
    } else {
      sharedTile("B", false);
    }
    y += 6;
  }

  void launchOrder() {
    int64_t rowsTotal = tilesM(), colsTotal = tilesN();
    int64_t group = std::min(c.swizzleGroup, rowsTotal);
    int64_t tiles = rowsTotal * colsTotal;
    svg.text(20, y, "Launch order", "h");
    y += 18;
    std::ostringstream head;
    head << rowsTotal << " x " << colsTotal << " tiles of C, swizzle "
         << c.swizzleGroup << ": consecutive blocks walk down groups of "
         << group << " tile rows, then one tile column right; the number in "
         << "each tile is the block that computes it";
    svg.text(20, y, head.str(), "note");
    y += 14;
    std::ostringstream more;
    if (splits() > 1 && splitTiles() < tiles)
      more << "split_last: the last " << splitTiles()
           << " tiles of the launch order are split; split s of one of them "
           << "is block id + s * " << splitTiles() << " (split 0 drawn). ";
    else if (splits() > 1)
      more << "Split-K: split s of a tile is block id + s * " << tiles
           << " (split 0 drawn). ";
    if (kernel.blocksPerWave > 0 && kernel.blocksPerWave < blocks())
      more << "Outlined: the first " << kernel.blocksPerWave
           << " blocks, which run together (SMs x blocks per SM by the cost "
              "model). ";
    else if (kernel.blocksPerWave > 0)
      more << "All " << blocks() << " blocks run together (outlined; "
           << kernel.blocksPerWave
           << " fit at once: SMs x blocks per SM by the cost model). ";
    int64_t drawRows = std::min(rowsTotal, kPictureGridTiles);
    int64_t drawCols = std::min(colsTotal, kPictureGridTiles);
    if (drawRows < rowsTotal || drawCols < colsTotal)
      more << "Tile rows 0-" << drawRows - 1 << " and columns 0-"
           << drawCols - 1 << " drawn.";
    if (!more.str().empty()) {
      svg.text(20, y, more.str(), "note");
      y += 14;
    }
    y += 4;
    double cw = 34, ch = 16, x0 = 54;
    for (int64_t col = 0; col < drawCols; ++col)
      svg.label(x0 + col * cw + cw / 2, y + 8, std::to_string(col), "cb");
    y += 12;
    for (int64_t row = 0; row < drawRows; ++row) {
      svg.label(x0 - 10, y + row * ch + 11, std::to_string(row), "cb");
      for (int64_t col = 0; col < drawCols; ++col) {
        int64_t block = swizzledBlockId({row, col}, rowsTotal, colsTotal,
                                        c.swizzleGroup);
        std::ostringstream title;
        title << "tile (" << row << ", " << col << "): block " << block;
        std::string cls = (row / group) % 2 ? "g1" : "g0";
        if (block < kernel.blocksPerWave)
          cls += " wave";
        double rx = x0 + col * cw, ry = y + row * ch;
        svg.rect(rx, ry, cw, ch, cls, title.str());
        svg.label(rx + cw / 2, ry + 11, std::to_string(block), "cl");
      }
    }
    y += drawRows * ch;
    svg.grow(20, y);
  }
};

} // namespace

std::string mlir::tile::drawKernelPicture(const TileConfig &config,
                                          const KernelPictureInput &kernel) {
  return Picture(config, kernel).draw();
}
