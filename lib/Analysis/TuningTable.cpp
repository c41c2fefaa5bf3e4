//===- TuningTable.cpp - measured best configs by shape -------------------===//

#include "tile/Analysis/TuningTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace mlir::tile;
using llvm::json::Array;
using llvm::json::Object;

// The built-in tables, generated from tuning/h200-*.json at configure time.
#include "BuiltinTuningTable.inc"

namespace {
llvm::Error entryError(size_t index, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "tuning table entry " + llvm::Twine(index) +
                                     ": " + what);
}

/// Reads `key` of `entry` as a list of `count` integers into `out`.
llvm::Error readInts(const Object &entry, size_t index, llvm::StringRef key,
                     size_t count, int64_t *out) {
  const Array *values = entry.getArray(key);
  if (!values || values->size() != count)
    return entryError(index, "'" + key + "' must be a list of " +
                                 llvm::Twine(count) + " integers");
  for (size_t i = 0; i < count; ++i) {
    std::optional<int64_t> value = (*values)[i].getAsInteger();
    if (!value)
      return entryError(index, "'" + key + "' must be a list of " +
                                   llvm::Twine(count) + " integers");
    out[i] = *value;
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<TuningTable> TuningTable::parse(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "tuning table: " +
                                       llvm::toString(parsed.takeError()));
  const Object *root = parsed->getAsObject();
  if (!root)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "tuning table: expected a JSON object");
  TuningTable table;
  std::optional<llvm::StringRef> chip = root->getString("chip");
  std::optional<llvm::StringRef> elementType = root->getString("element_type");
  const Array *entries = root->getArray("entries");
  if (!chip || !elementType || !entries)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "tuning table: needs 'chip', 'element_type' and 'entries'");
  table.chip = chip->str();
  table.elementType = elementType->str();
  if (root->get("model")) {
    const Object *model = root->getObject("model");
    if (!model)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "tuning table: 'model' must be an object");
    for (const auto &[key, value] : *model) {
      std::optional<double> number = value.getAsNumber();
      if (!number)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "tuning table: model parameter '" +
                                           key.str() + "' must be a number");
      table.model.emplace_back(key.str(), *number);
    }
    llvm::sort(table.model);
  }
  for (size_t index = 0; index < entries->size(); ++index) {
    const Object *entry = (*entries)[index].getAsObject();
    if (!entry)
      return entryError(index, "expected an object");
    Entry e;
    int64_t shape[3] = {}, block[3] = {}, warp[2] = {}, thread[2] = {};
    for (auto [key, out] :
         {std::pair<const char *, int64_t *>{"m", &shape[0]},
          {"n", &shape[1]},
          {"k", &shape[2]}}) {
      std::optional<int64_t> value = entry->getInteger(key);
      if (!value)
        return entryError(index, "'" + llvm::Twine(key) +
                                     "' must be an integer");
      *out = *value;
    }
    if (llvm::Error error = readInts(*entry, index, "block", 3, block))
      return std::move(error);
    if (llvm::Error error = readInts(*entry, index, "warp", 2, warp))
      return std::move(error);
    if (llvm::Error error = readInts(*entry, index, "thread", 2, thread))
      return std::move(error);
    e.m = shape[0];
    e.n = shape[1];
    e.k = shape[2];
    TileConfig &c = e.config;
    // A table of 16-bit element types holds wgmma configs: their fields
    // start from that strategy's defaults.
    if (table.elementType == "bf16" || table.elementType == "f16")
      c = TileConfig::wgmmaDefaults();
    c.setBlock(block[0], block[1], block[2]);
    c.setWarp(warp[0], warp[1]);
    c.setThread(thread[0], thread[1]);
    // Optional fields: absent means the default; present must be well-typed.
    for (auto [key, out] :
         {std::pair<const char *, int64_t *>{"stages", &c.stages},
          {"swizzle", &c.swizzleGroup},
          {"occupancy", &c.minBlocksPerSM},
          {"split_k", &c.splitK},
          {"split_last", &c.splitLast}}) {
      if (!entry->get(key))
        continue;
      std::optional<int64_t> value = entry->getInteger(key);
      if (!value)
        return entryError(index, "'" + llvm::Twine(key) +
                                     "' must be an integer");
      *out = *value;
    }
    if (entry->get("smem")) {
      std::optional<llvm::StringRef> smem = entry->getString("smem");
      if (!smem || !parseSharedLayout(smem->str(), c.smemLayout, c.smemPad))
        return entryError(index, "'smem' must be a string: none, xor or padN");
    }
    if (entry->get("copy")) {
      std::optional<llvm::StringRef> copy = entry->getString("copy");
      if (!copy || !parseCopyKind(copy->str(), c.copy))
        return entryError(index, "'copy' must be a string: registers, "
                                 "cp_async or tma");
    }
    if (entry->get("specialize")) {
      std::optional<bool> specialize = entry->getBoolean("specialize");
      if (!specialize)
        return entryError(index, "'specialize' must be true or false");
      c.specialize = *specialize;
    }
    if (entry->get("repack")) {
      std::optional<bool> repack = entry->getBoolean("repack");
      if (!repack)
        return entryError(index, "'repack' must be true or false");
      c.repack = *repack;
    }
    if (entry->get("persistent")) {
      std::optional<bool> persistent = entry->getBoolean("persistent");
      if (!persistent)
        return entryError(index, "'persistent' must be true or false");
      c.persistent = *persistent;
    }
    if (entry->get("store")) {
      std::optional<llvm::StringRef> store = entry->getString("store");
      if (!store || (*store != "tma" && *store != "registers"))
        return entryError(index, "'store' must be \"tma\" or \"registers\"");
      c.tmaStore = *store == "tma";
    }
    if (entry->get("cluster")) {
      int64_t cluster[2];
      if (llvm::Error error = readInts(*entry, index, "cluster", 2, cluster))
        return std::move(error);
      c.clusterM = cluster[0];
      c.clusterN = cluster[1];
    }
    if (entry->get("prefetch")) {
      std::optional<bool> prefetch = entry->getBoolean("prefetch");
      if (!prefetch)
        return entryError(index, "'prefetch' must be true or false");
      c.regPrefetch = *prefetch;
    }
    std::string problem = checkConsistency(c);
    if (!problem.empty())
      return entryError(index, "invalid config: " + problem);
    table.entries.push_back(e);
  }
  return table;
}

llvm::Expected<TuningTable> TuningTable::load(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read tuning table '" + path +
                                       "': " + buffer.getError().message());
  llvm::Expected<TuningTable> table = parse((*buffer)->getBuffer());
  if (!table)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   path + ": " +
                                       llvm::toString(table.takeError()));
  return table;
}

const TuningTable &TuningTable::builtin(llvm::StringRef elementType) {
  static const std::vector<TuningTable> tables = [] {
    std::vector<TuningTable> result;
    for (const char *text : kBuiltinTuningTables) {
      llvm::Expected<TuningTable> parsed = parse(text);
      // The build checks the files (unit tests parse them); an unreadable
      // table only means no entries.
      if (!parsed) {
        llvm::consumeError(parsed.takeError());
        continue;
      }
      result.push_back(std::move(*parsed));
    }
    return result;
  }();
  static const TuningTable empty;
  for (const TuningTable &table : tables)
    if (table.elementType == elementType)
      return table;
  return empty;
}

std::optional<TileConfig> TuningTable::lookup(llvm::StringRef chip,
                                              llvm::StringRef elementType,
                                              int64_t m, int64_t n,
                                              int64_t k) const {
  if (chip != this->chip || elementType != this->elementType)
    return std::nullopt;
  for (const Entry &entry : entries)
    if (entry.m == m && entry.n == n && entry.k == k)
      return entry.config;
  return std::nullopt;
}

double TuningTable::logDistance(int64_t m, int64_t n, int64_t k, int64_t m2,
                                int64_t n2, int64_t k2) {
  auto one = [](int64_t a, int64_t b) {
    return std::abs(std::log(static_cast<double>(a) / static_cast<double>(b)));
  };
  return std::max({one(m, m2), one(n, n2), one(k, k2)});
}

std::optional<TuningTable::Match>
TuningTable::nearest(llvm::StringRef chip, llvm::StringRef elementType,
                     int64_t m, int64_t n, int64_t k, double radius) const {
  if (chip != this->chip || elementType != this->elementType || m <= 0 ||
      n <= 0 || k <= 0)
    return std::nullopt;
  // A row's class: f32 rows on 16 bytes (4 elements) or not; bf16 and f16
  // rows on the TMA's 128-byte lines (64 elements), on 16 bytes only (8),
  // or on neither.
  bool wide = elementType == "f32";
  auto rowClass = [&](int64_t extent) {
    if (wide)
      return extent % 4 == 0 ? 1 : 0;
    return extent % 64 == 0 ? 2 : extent % 8 == 0 ? 1 : 0;
  };
  std::optional<Match> best;
  for (const Entry &entry : entries) {
    if (entry.m <= 0 || entry.n <= 0 || entry.k <= 0 ||
        rowClass(entry.n) != rowClass(n) || rowClass(entry.k) != rowClass(k))
      continue;
    double distance = logDistance(m, n, k, entry.m, entry.n, entry.k);
    if (distance > radius)
      continue;
    if (!best || distance < best->distance)
      best = Match{&entry, distance};
  }
  return best;
}

std::optional<double>
TuningTable::getModelParameter(llvm::StringRef key) const {
  for (const auto &[name, value] : model)
    if (name == key)
      return value;
  return std::nullopt;
}
