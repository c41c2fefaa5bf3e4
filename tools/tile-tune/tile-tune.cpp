//===- tile-tune.cpp - candidate configs and the tuning table -------------===//
//
// The tuner's two steps that run where MLIR is (the GPU runs in between):
//
//   tile-tune candidates SHAPES > CANDIDATES
//     For every shape of SHAPES (bench/compile.sh format: NAME M N K INIT
//     [in=TYPE out=TYPE batch=N layout=L ...]; the model ranks for the
//     batch and layout, and the lines keep them), the configs worth
//     measuring. f32 shapes: the
//     cost model's best-ranked valid configs, plus a few structural
//     baselines, then each once more with a register budget for one more
//     block per SM (occupancy=N+1) where it fits. bf16/f16 shapes (in=, or
//     --element-type): the tensor-core model's best-ranked wgmma configs
//     (one per tile shape, copy kind, specialization and occupancy) plus
//     the measured 128x256x64 baseline (not for an odd N, whose 64x256
//     warpgroup tiles spill). With --stages 2,3 each of those at every
//     stage count listed instead of the one the model chose.
//     Prints one compile.sh line per candidate (NAME_cI M N K INIT
//     [in=.. out=..] block=... warp=... ... tuning-table=none).
//
//   tile-tune select --results RUN.json --report RUN.md --table TABLE.json
//     Reads a bench/gpu/run-bench.sh run over the candidates, keeps the
//     kernels tile-run verify passed, and writes, for every shape, the fastest
//     config into the tuning table (merged with the table's other entries),
//     with what was measured. Batched kernels are skipped: the table is
//     keyed by one matrix's shape; so are TF32 ones (an f32 table's
//     entries are FP32 configs).
//
//   tile-tune predict DIR
//     The model's predicted time of every kernel manifest in DIR (its
//     problem as tile-configure saw it: the batch, transposed operands,
//     strided and dynamic layouts, C's type and whether C is read; and its
//     config), the time tile-opt's report=true gives: lines "KERNEL M N K
//     PREDICTED_MS", for the validation run to set next to the measured
//     times.
//
//   tile-tune fit RUN.json... [--report RUN.md... --table TABLE.json]
//     Fits the FP32 model's calibration (FmaCalibration: compute, memory
//     and atomics scales, launch seconds, the cp.async ring's and the
//     residency's factors, C's row-piece bytes, the load latency) to the
//     measured times of a run (each kernel's problem read from its
//     manifest where the run's path to it can be read), prints the
//     predicted against the measured time of every kernel before and after,
//     and with --table writes the calibration into the table's "model"
//     object together with select's entries (the fastest verified config of
//     every shape), in one go.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/CostModel.h"
#include "tile/Analysis/FmaModel.h"
#include "tile/Analysis/SharedPlan.h"
#include "tile/Analysis/TuningTable.h"
#include "tile/Dialect/Tile/TileDialect.h"
#include "tile/runtime/Manifest.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

using namespace mlir::tile;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory tuneCategory("tile-tune options");

cl::SubCommand candidatesCommand("candidates",
                                 "Print the configs to measure per shape");
cl::SubCommand selectCommand("select",
                             "Write the fastest verified configs to a table");
cl::SubCommand checkCommand(
    "model-check",
    "For every measured shape, how the cost model's pick among the measured "
    "configs compares with the fastest");
cl::SubCommand
    predictCommand("predict",
                   "Print the model's predicted time of every kernel manifest "
                   "in a folder");
cl::opt<std::string> predictDir(cl::Positional, cl::desc("DIR"), cl::Required,
                                cl::sub(predictCommand), cl::cat(tuneCategory));
cl::SubCommand fitCommand(
    "fit", "Fit the FP32 model's calibration to a run's measured times and "
           "(with --table) write it and the run's fastest configs to a table");

cl::opt<std::string> chipName("chip", cl::desc("Target chip"),
                              cl::init("sm_90"), cl::sub(candidatesCommand),
                              cl::sub(selectCommand), cl::sub(checkCommand),
                              cl::sub(fitCommand), cl::sub(predictCommand),
                              cl::cat(tuneCategory));
cl::opt<unsigned> top("top",
                      cl::desc("Configs per shape from the cost model's "
                               "ranking (baselines come on top)"),
                      cl::init(8), cl::sub(candidatesCommand),
                      cl::cat(tuneCategory));
cl::list<unsigned> stageCounts(
    "stages",
    cl::desc("Pipeline stages to measure each candidate with (2: register "
             "double buffering, 3 or more: cp.async ring); comma-separated"),
    cl::CommaSeparated, cl::sub(candidatesCommand), cl::cat(tuneCategory));
cl::opt<std::string> elementTypeName(
    "element-type",
    cl::desc("Element type of A and B for shape lines without in=TYPE: f32 "
             "(fma configs), bf16 or f16 (wgmma configs)"),
    cl::init("f32"), cl::sub(candidatesCommand), cl::cat(tuneCategory));
cl::opt<std::string> selectType(
    "only-type",
    cl::desc("Take only the results whose A and B are of this type (f32, "
             "bf16 or f16), for a run that measured several"),
    cl::sub(selectCommand), cl::cat(tuneCategory));
cl::opt<bool> rankedOnly(
    "ranked-only",
    cl::desc("Only the model's --top best-ranked configs per shape: no "
             "baselines and no occupancy=N+1 variants (the fit sweep)"),
    cl::init(false), cl::sub(candidatesCommand), cl::cat(tuneCategory));
cl::list<std::string> fitResults(cl::Positional, cl::desc("RESULTS.json..."),
                                 cl::OneOrMore, cl::sub(fitCommand),
                                 cl::cat(tuneCategory));
cl::list<std::string> fitReport("report",
                                cl::desc("run-bench.sh report of each run, "
                                         "in the order of the runs (needed "
                                         "with --table)"),
                                cl::sub(fitCommand), cl::cat(tuneCategory));
cl::opt<std::string> fitTable("table",
                              cl::desc("Tuning table to write the "
                                       "calibration and the fastest configs "
                                       "into"),
                              cl::sub(fitCommand), cl::cat(tuneCategory));
cl::opt<std::string> fitPoints("points",
                               cl::desc("Write every measured kernel's model "
                                        "terms and time here (TSV)"),
                               cl::sub(fitCommand), cl::cat(tuneCategory));
cl::opt<std::string> shapesFile(cl::Positional, cl::desc("SHAPES"),
                                cl::Required, cl::sub(candidatesCommand),
                                cl::cat(tuneCategory));
cl::opt<std::string> resultsFile("results",
                                 cl::desc("tile-run bench --json output"),
                                 cl::Required, cl::sub(selectCommand),
                                 cl::sub(checkCommand), cl::cat(tuneCategory));
cl::opt<std::string> reportFile("report",
                                cl::desc("run-bench.sh report (.md) with the "
                                         "tile-run verify lines, or its "
                                         "console output"),
                                cl::Required, cl::sub(selectCommand),
                                cl::cat(tuneCategory));
cl::opt<std::string> tableFile("table",
                               cl::desc("Tuning table to update (created if "
                                        "missing)"),
                               cl::Required, cl::sub(selectCommand),
                               cl::cat(tuneCategory));

int fail(const llvm::Twine &message) {
  llvm::errs() << "tile-tune: " << message << "\n";
  return 1;
}

/// Configs measured on every shape next to the model's picks: the FP32
/// article's structure and its closest variants.
std::vector<TileConfig> baselines() {
  std::vector<TileConfig> result;
  auto add = [&](int64_t bm, int64_t bn, int64_t bk, int64_t wm, int64_t wn,
                 int64_t tm, int64_t tn) {
    result.push_back(TileConfig::withTiles(bm, bn, bk, wm, wn, tm, tn));
  };
  add(128, 128, 8, 32, 64, 8, 8);
  add(128, 128, 16, 32, 64, 8, 8);
  add(128, 256, 8, 32, 128, 8, 16);
  add(64, 64, 16, 32, 32, 4, 8);
  add(64, 128, 16, 32, 64, 8, 8);
  add(32, 64, 32, 16, 64, 4, 8);
  return result;
}

/// Registers for addresses, indices and the loop that a squeezed candidate
/// leaves beside the thread tile and the staging registers.
constexpr int64_t kSqueezedOverhead = 16;

/// Bytes of an element type name ("f32", "bf16", "f16"); 0 if unknown.
int64_t elementBytesOf(llvm::StringRef type) {
  if (type == "f32")
    return 4;
  if (type == "bf16" || type == "f16")
    return 2;
  return 0;
}

std::string pipelineOptions(const TileConfig &c) {
  std::ostringstream os;
  if (c.isWgmma()) {
    // The strategy follows from the element type; the swizzled layout and
    // the k step are the only ones it has. The occupancy is always written:
    // the model's own choice for the shape may carry another.
    os << "block=" << c.blockM << "," << c.blockN << "," << c.blockK
       << " warp=" << c.warpM << "," << c.warpN << " thread=" << c.threadM
       << "," << c.threadN << " stages=" << c.stages
       << " swizzle=" << c.swizzleGroup
       << " copy=" << stringifyCopyKind(c.copyKind())
       << " specialize=" << (c.specialize ? "true" : "false")
       << " repack=" << (c.repack ? "true" : "false")
       << " occupancy=" << std::max<int64_t>(1, c.minBlocksPerSM)
       // Always: without it the cost model's own split of K would stay.
       << " split-k=" << c.splitK
       // Always, for the same reason: the model's own C store.
       << " store=" << (c.tmaStore ? "tma" : "registers");
    // With a split, which tiles it takes (0: all): the model's own
    // split_last would stay otherwise.
    if (c.splitK > 1)
      os << " split-last=" << c.splitLast;
    // Both ways for wgmma: without the option the cost model's rule may
    // make the kernel persistent (modelTakesPersistent).
    if (c.persistent)
      os << " persistent=true";
    else if (c.isWgmma())
      os << " persistent=false";
    return os.str();
  }
  os << "block=" << c.blockM << "," << c.blockN << "," << c.blockK
     << " warp=" << c.warpM << "," << c.warpN << " thread=" << c.threadM << ","
     << c.threadN << " stages=" << c.stages << " swizzle=" << c.swizzleGroup
     << " smem=" << sharedLayoutToString(c.smemLayout, c.smemPad)
     << " prefetch=" << (c.regPrefetch ? "true" : "false")
     // Both ways: without it the model's own pick could repack B.
     << " repack=" << (c.repack ? "true" : "false");
  if (c.minBlocksPerSM > 0)
    os << " occupancy=" << c.minBlocksPerSM;
  if (c.splitK > 1)
    os << " split-k=" << c.splitK;
  return os.str();
}

int runCandidates(const ChipInfo &chip) {
  auto buffer = llvm::MemoryBuffer::getFile(shapesFile);
  if (!buffer)
    return fail("cannot read " + shapesFile + ": " +
                buffer.getError().message());
  std::istringstream lines((*buffer)->getBuffer().str());
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name, init;
    MatmulShape shape;
    if (!(fields >> name) || name[0] == '#')
      continue;
    if (!(fields >> shape.m >> shape.n >> shape.k >> init) || shape.m <= 0 ||
        shape.n <= 0 || shape.k <= 0 || (init != "acc" && init != "fill"))
      return fail("bad shape line: " + line);
    // compile.sh's element types (in=, out=), batch (batch=) and layout
    // (layout=) are kept on every line; the model ranks for them.
    std::string inType = elementTypeName, outType = "f32", option, kept;
    while (fields >> option) {
      if (option.rfind("in=", 0) == 0) {
        inType = option.substr(3);
      } else if (option.rfind("out=", 0) == 0) {
        outType = option.substr(4);
      } else if (option.rfind("batch=", 0) == 0) {
        shape.batch = std::atoll(option.c_str() + 6);
        if (shape.batch < 1)
          return fail("bad batch in: " + line);
        kept += " " + option;
      } else if (option.rfind("layout=", 0) == 0) {
        std::string layout = option.substr(7);
        if (layout != "nn" && layout != "nt" && layout != "tn" &&
            layout != "tt")
          return fail("bad layout in: " + line + " (nn, nt, tn or tt)");
        shape.transposeA = layout[0] == 't';
        shape.transposeB = layout[1] == 't';
        kept += " " + option;
      }
    }
    shape.elementBytes = elementBytesOf(inType);
    shape.resultBytes = elementBytesOf(outType);
    if (!shape.elementBytes || !shape.resultBytes)
      return fail("unknown element type in: " + line +
                  " (f32, bf16 and f16 are known)");
    shape.readsC = init == "acc";
    shape.f16 = inType == "f16";
    std::string types;
    if (inType != "f32" || outType != "f32")
      types = " in=" + inType + " out=" + outType;
    types += kept;
    bool wgmma = shape.elementBytes == 2;
    // The model's ranking, then the baselines that fit (no duplicates).
    // One lane layout per block and thread tile (the one whose fragment
    // loads need the fewest shared-memory wavefronts), so the measurements
    // cover different tile sizes rather than permutations of one.
    std::vector<TileConfig> ranked = rankedCandidates(shape, chip);
    std::vector<TileConfig> chosen;
    std::set<std::array<int64_t, 5>> tileSizes;
    // wgmma: one stage count per tile shape, copy kind (the TMA in place or
    // on repacked copies), specialization and occupancy (the best-ranked),
    // so the measurements cover different structures.
    std::set<std::array<int64_t, 9>> structures;
    for (const TileConfig &c : ranked) {
      if (chosen.size() >= top)
        break;
      bool fresh =
          wgmma ? structures
                      .insert({c.blockM, c.blockN, c.warpM, c.warpN, c.threadN,
                               static_cast<int64_t>(c.copyKind()), c.repack,
                               c.specialize, c.minBlocksPerSM})
                      .second
                : tileSizes
                      .insert({c.blockM, c.blockN, c.blockK, c.threadM,
                               c.threadN})
                      .second;
      if (fresh)
        chosen.push_back(c);
    }
    if (wgmma) {
      // The measured kernel (128x256x64, two 64x256 warpgroups, 4 stages,
      // specialized) as the baseline.
      // Only where the model itself considers its warpgroup tile: an odd N
      // rules out the 64x256 tiles (128 accumulators a thread spill with
      // single-element C stores; TensorCoreModel.cpp).
      TileConfig base = TileConfig::wgmmaDefaults();
      base.repack = !tmaRowsAligned(shape);
      bool modelTile =
          std::any_of(ranked.begin(), ranked.end(), [&](const TileConfig &c) {
            return c.warpM == base.warpM && c.warpN == base.warpN;
          });
      if (modelTile && checkConsistency(base).empty() &&
          evaluate(base, chip, shape).fits &&
          std::none_of(chosen.begin(), chosen.end(), [&](const TileConfig &c) {
            return c.tileSizes() == base.tileSizes() &&
                   c.stages == base.stages && c.copy == base.copy &&
                   c.repack == base.repack &&
                   c.specialize == base.specialize &&
                   c.minBlocksPerSM == base.minBlocksPerSM;
          }))
        chosen.push_back(base);
      // Each specialized TMA config (no split-K) once more with the other
      // schedule (persistent, or one block per tile where the model made it
      // persistent) where its tiles take more than one wave: the model
      // makes a kernel persistent only with the TMA store and whole tiles
      // (modelTakesPersistent; without the store measured 0.92-1.09x of the
      // same config, bench/results/2026-12-05-h100-persistent-rule.md), so
      // the table holds one where the measurement says so.
      size_t unpersisted = chosen.size();
      for (size_t i = 0; i < unpersisted; ++i) {
        TileConfig twin = chosen[i];
        if (!twin.specialize || twin.copyKind() != CopyKind::Tma ||
            twin.splitK > 1 || twin.clusterSize() > 1)
          continue;
        int64_t tiles = llvm::divideCeil(shape.m, twin.blockM) *
                        llvm::divideCeil(shape.n, twin.blockN) * shape.batch;
        int64_t resident =
            evaluate(twin, chip, shape).blocksPerSM * chip.numSMs;
        if (tiles <= resident)
          continue;
        twin.persistent = !twin.persistent;
        if (std::find(chosen.begin(), chosen.end(), twin) == chosen.end())
          chosen.push_back(twin);
      }
    }
    for (const TileConfig &c :
         wgmma || rankedOnly ? std::vector<TileConfig>() : baselines())
      if (checkConsistency(c).empty() && evaluate(c, chip, shape).fits &&
          hasRegisterHeadroom(c, chip, shape) &&
          std::find(chosen.begin(), chosen.end(), c) == chosen.end())
        chosen.push_back(c);
    // Each config once more with a register budget for one block per SM
    // more than the model's estimate allows, where that budget still holds
    // the thread tile, the staging registers and kSqueezedOverhead more:
    // the estimate's overhead is generous, and ptxas often needs less
    // (128x128x16, 8x8 at 4096^3: 128 registers and no spills at 2 blocks
    // per SM, against the estimate's 136 and 1 block; the measurement
    // decides which one the table keeps).
    size_t unsqueezed = wgmma || rankedOnly ? 0 : chosen.size();
    for (size_t i = 0; i < unsqueezed; ++i) {
      CostReport report = evaluate(chosen[i], chip, shape);
      TileConfig squeezed = chosen[i];
      squeezed.minBlocksPerSM = report.blocksPerSM + 1;
      CostReport budget = evaluate(squeezed, chip, shape);
      if (budget.fits && budget.blocksPerSM == squeezed.minBlocksPerSM &&
          budget.registerCap >= report.tileRegisters +
                                    report.stagingRegisters +
                                    kSqueezedOverhead)
        chosen.push_back(squeezed);
    }
    // Each candidate as ranked (with the stage count the model chose), or
    // with --stages at each stage count listed (the model's stage choice is
    // coarse: 8x16 tiles at one block per SM measured 0.88x cuBLAS with
    // register double buffering and 1.01x with a cp.async ring at 4096^3,
    // bench/results/2026-11-29-h200-ablation-r3.md).
    std::vector<TileConfig> emitted;
    auto emit = [&](const TileConfig &config) {
      CostReport report = evaluate(config, chip, shape);
      if (!report.fits ||
          (config.isWgmma() &&
           (report.blocksPerSM < config.minBlocksPerSM ||
            !checkWgmmaElementBytes(config, shape.elementBytes).empty())) ||
          std::find(emitted.begin(), emitted.end(), config) != emitted.end())
        return;
      // The table off: a candidate is its config alone, not options laid
      // over a table entry (whose occupancy and split-K would stay).
      llvm::outs() << name << "_c" << emitted.size() << " " << shape.m << " "
                   << shape.n << " " << shape.k << " " << init << types << " "
                   << pipelineOptions(config) << " tuning-table=none\n";
      emitted.push_back(config);
      ++count;
    };
    if (stageCounts.empty())
      for (const TileConfig &config : chosen)
        emit(config);
    for (unsigned stageCount : stageCounts)
      for (TileConfig config : chosen) {
        config.stages = stageCount;
        emit(config);
      }
  }
  llvm::errs() << "tile-tune: " << count << " candidates\n";
  return 0;
}

/// Reads the `results` array of the tile-run bench JSON (--results) into
/// `storage`; null after an error message.
const llvm::json::Array *loadResults(llvm::json::Value &storage) {
  auto results = llvm::MemoryBuffer::getFile(resultsFile);
  if (!results) {
    fail("cannot read " + resultsFile);
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*results)->getBuffer());
  if (!parsed) {
    fail(resultsFile + ": " + llvm::toString(parsed.takeError()));
    return nullptr;
  }
  storage = std::move(*parsed);
  const llvm::json::Array *runs =
      storage.getAsObject() ? storage.getAsObject()->getArray("results")
                            : nullptr;
  if (!runs)
    fail(resultsFile + ": no 'results' array");
  return runs;
}

/// The "model" object written with a table: `fitted` when given, else the
/// existing table's.
using ModelParameters = std::vector<std::pair<std::string, double>>;

int runSelect(const ChipInfo &chip, const ModelParameters *fitted = nullptr) {
  if (!selectType.empty() && !elementBytesOf(selectType))
    return fail("--only-type must be f32, bf16 or f16, got '" + selectType +
                "'");
  // Kernels tile-run verify passed: "<kernel>  MxNxK  rel_err ...  PASS".
  auto report = llvm::MemoryBuffer::getFile(reportFile);
  if (!report)
    return fail("cannot read " + reportFile);
  // Either the report's per-kernel verify lines, or (from run-bench.sh's
  // console output) its summary "N passed, 0 failed" when N covers every
  // result.
  std::set<std::string> verified;
  int64_t allPassed = -1;
  llvm::SmallVector<llvm::StringRef> reportLines;
  (*report)->getBuffer().split(reportLines, '\n');
  for (llvm::StringRef reportLine : reportLines) {
    llvm::SmallVector<llvm::StringRef> words;
    reportLine.split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.size() > 2 && llvm::is_contained(words, "PASS"))
      verified.insert(words[0].str());
    int64_t passed;
    if (words.size() == 4 && words[1] == "passed," && words[2] == "0" &&
        words[3] == "failed" && !words[0].getAsInteger(10, passed))
      allPassed = passed;
  }

  llvm::json::Value parsed(nullptr);
  const llvm::json::Array *runs = loadResults(parsed);
  if (!runs)
    return 1;

  if (verified.empty() && allPassed == static_cast<int64_t>(runs->size()))
    for (const llvm::json::Value &value : *runs)
      if (const llvm::json::Object *run = value.getAsObject())
        verified.insert(run->getString("kernel").value_or("").str());
  if (verified.empty())
    return fail(reportFile + ": no verified kernel (no PASS lines, and no "
                             "\"N passed, 0 failed\" covering all results)");

  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  struct Best {
    TileConfig config;
    double ms = 0, tflops = 0, cublasTflops = 0;
    std::string kernel;
  };
  std::map<std::tuple<int64_t, int64_t, int64_t>, Best> best;
  int considered = 0, skipped = 0;
  // One table per element type: the results' (f32 when they do not say).
  std::string elementType;
  for (const llvm::json::Value &value : *runs) {
    const llvm::json::Object *run = value.getAsObject();
    if (!run)
      continue;
    std::string kernel = run->getString("kernel").value_or("").str();
    std::optional<bool> ok = run->getBoolean("ok");
    std::optional<double> ms = run->getNumber("ms");
    std::optional<int64_t> m = run->getInteger("m"), n = run->getInteger("n"),
                           k = run->getInteger("k");
    std::string text = run->getString("config_text").value_or("").str();
    if (!ok || !*ok || !ms || !m || !n || !k || !verified.count(kernel)) {
      ++skipped;
      continue;
    }
    // The tables are keyed by one matrix's shape: a batched kernel's time
    // is not that of its shape.
    if (run->getInteger("batch").value_or(1) != 1) {
      ++skipped;
      continue;
    }
    std::string type = run->getString("element_type").value_or("f32").str();
    if (!selectType.empty() && type != selectType) {
      ++skipped;
      continue;
    }
    if (elementType.empty())
      elementType = type;
    else if (type != elementType)
      return fail("kernel " + kernel + " has " + type + " inputs, others " +
                  elementType +
                  ": select one element type per table (--only-type)");
    auto attr = llvm::dyn_cast_or_null<ConfigAttr>(
        mlir::parseAttribute(text, &context));
    if (!attr)
      return fail("kernel " + kernel + ": cannot parse config '" + text + "'");
    // An f32 table's entries compute in FP32: a TF32 kernel (wgmma on f32
    // inputs, tf32=true) is another precision, which a shape's entry must
    // not hand to every f32 matmul of that shape.
    if (computesTf32(attr.toTileConfig(), type == "f32" ? 4 : 2)) {
      ++skipped;
      continue;
    }
    // The table serves every matmul of the shape (reading C or not): no
    // config without register headroom, which spills in one of the two.
    if (!hasRegisterHeadroom(attr.toTileConfig(), chip)) {
      ++skipped;
      continue;
    }
    ++considered;
    Best &entry = best[{*m, *n, *k}];
    if (entry.kernel.empty() || *ms < entry.ms) {
      entry.config = attr.toTileConfig();
      entry.ms = *ms;
      entry.tflops = run->getNumber("tflops").value_or(0);
      entry.cublasTflops = run->getNumber("cublas_tflops").value_or(0);
      entry.kernel = kernel;
    }
  }

  // Merge into the existing table: a shape measured faster before keeps its
  // entry (a run may measure only some candidates of a shape); the others
  // get this run's fastest. Every entry is written in one format.
  if (elementType.empty())
    elementType = "f32";
  ModelParameters model;
  if (fitted)
    model = *fitted;
  if (llvm::sys::fs::exists(tableFile)) {
    llvm::Expected<TuningTable> old = TuningTable::load(tableFile);
    if (!old)
      return fail(llvm::toString(old.takeError()));
    if (!fitted)
      model = old->getModelParameters();
    if (old->getElementType() != elementType)
      return fail(tableFile + " is a table of " + old->getElementType() +
                  " matmuls; the results are " + elementType);
    auto raw = llvm::MemoryBuffer::getFile(tableFile);
    llvm::Expected<llvm::json::Value> oldJson =
        llvm::json::parse((*raw)->getBuffer());
    const llvm::json::Array *oldEntries =
        oldJson && oldJson->getAsObject()
            ? oldJson->getAsObject()->getArray("entries")
            : nullptr;
    for (size_t i = 0; oldEntries && i < oldEntries->size(); ++i) {
      const llvm::json::Object *object = (*oldEntries)[i].getAsObject();
      const TuningTable::Entry &parsedEntry = old->getEntries()[i];
      auto key = std::make_tuple(parsedEntry.m, parsedEntry.n, parsedEntry.k);
      Best previous;
      previous.config = parsedEntry.config;
      previous.ms = object->getNumber("measured_ms").value_or(0);
      previous.tflops = object->getNumber("measured_tflops").value_or(0);
      previous.cublasTflops = object->getNumber("cublas_tflops").value_or(0);
      previous.kernel = object->getString("kernel").value_or("").str();
      auto found = best.find(key);
      if (found == best.end()) {
        best[key] = previous;
      } else if (previous.ms > 0 && previous.ms < found->second.ms) {
        llvm::errs() << "tile-tune: keeping the table's entry for "
                     << std::get<0>(key) << "x" << std::get<1>(key) << "x"
                     << std::get<2>(key) << " (" << previous.ms
                     << " ms, faster than this run's best)\n";
        found->second = previous;
      }
    }
  }
  std::vector<std::string> lines;
  for (auto &[shape, entry] : best) {
    const TileConfig &c = entry.config;
    lines.push_back(llvm::formatv(
        "{{\"m\": {0}, \"n\": {1}, \"k\": {2}, \"block\": [{3}, {4}, {5}], "
        "\"warp\": [{6}, {7}], \"thread\": [{8}, {9}], \"stages\": {10}, "
        "\"swizzle\": {11}, \"smem\": \"{12}\", \"prefetch\": {13}, "
        "\"occupancy\": {14}, \"split_k\": {19}, {20}\"measured_ms\": {15:f4}, "
        "\"measured_tflops\": {16:f2}, \"cublas_tflops\": {17:f2}, "
        "\"kernel\": \"{18}\"}",
        std::get<0>(shape), std::get<1>(shape), std::get<2>(shape), c.blockM,
        c.blockN, c.blockK, c.warpM, c.warpN, c.threadM, c.threadN, c.stages,
        c.swizzleGroup, sharedLayoutToString(c.smemLayout, c.smemPad),
        c.regPrefetch ? "true" : "false", c.minBlocksPerSM, entry.ms,
        entry.tflops, entry.cublasTflops, entry.kernel, c.splitK,
        c.isWgmma() ? llvm::formatv("\"copy\": \"{0}\", \"specialize\": {1}, "
                                    "\"repack\": {2}, \"persistent\": {3}, "
                                    "\"cluster\": [{4}, {5}], {6}{7}",
                                    stringifyCopyKind(c.copyKind()),
                                    c.specialize ? "true" : "false",
                                    c.repack ? "true" : "false",
                                    c.persistent ? "true" : "false",
                                    c.clusterM, c.clusterN,
                                    c.splitLast > 0
                                        ? llvm::formatv("\"split_last\": {0}, ",
                                                        c.splitLast)
                                              .str()
                                        : std::string(),
                                    c.tmaStore ? "\"store\": \"tma\", " : "")
                          .str()
                    : std::string(c.repack ? "\"repack\": true, " : "")));
    llvm::errs() << llvm::formatv(
        "tile-tune: {0}x{1}x{2}: {3} {4:f2} TFLOP/s ({5:f2} of cuBLAS)\n",
        std::get<0>(shape), std::get<1>(shape), std::get<2>(shape),
        toShortString(c), entry.tflops,
        entry.cublasTflops > 0 ? entry.tflops / entry.cublasTflops : 0.0);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(tableFile, ec);
  if (ec)
    return fail("cannot write " + tableFile + ": " + ec.message());
  os << "{\n  \"chip\": \"" << chip.name << "\",\n  \"element_type\": \""
     << elementType << "\",\n";
  if (!model.empty()) {
    os << "  \"model\": {";
    for (size_t i = 0; i < model.size(); ++i)
      os << (i ? ", " : "") << "\"" << model[i].first
         << "\": " << llvm::formatv("{0:e4}", model[i].second).str();
    os << "},\n";
  }
  os << "  \"entries\": [\n";
  for (size_t i = 0; i < lines.size(); ++i)
    os << "    " << lines[i] << (i + 1 < lines.size() ? ",\n" : "\n");
  os << "  ]\n}\n";
  llvm::errs() << "tile-tune: " << best.size() << " shapes from " << considered
               << " verified kernels (" << skipped
               << " results skipped: not verified, failed, of another "
                  "element type, batched, TF32, "
                  "or without register headroom)\n";
  return 0;
}

namespace rt = ::tile::runtime;

/// The model's view of the problem a kernel manifest describes, as
/// tile-configure built it from the IR: the shape and batch, A's and B's
/// element type and C's, whether C is read, TF32 (f32 inputs on wgmma), and
/// from the lhs and rhs params each operand's orientation (a transposed one
/// is its logical matrix stored column-major), its layout where it is not
/// dense (offset, the stored rows' stride, the batch stride: their greatest
/// common divisor, as layoutAlignment takes it), whether its stored rows
/// overlap, and whether an operand spans past 2^31 - 1 elements or has a
/// dynamic field (64-bit index arithmetic). A dynamic offset or stride is
/// taken at its densest, as the models take it at compile time.
static MatmulShape getManifestShape(const rt::KernelManifest &manifest) {
  const rt::ProblemInfo &problem = manifest.problem;
  MatmulShape shape{problem.m, problem.n, problem.k, 4};
  shape.batch = problem.batch;
  shape.elementBytes = rt::getElementTypeSize(problem.elementType);
  shape.f16 = problem.elementType == rt::ElementType::F16;
  shape.readsC = problem.cInit == rt::CInit::Accumulate;
  shape.tf32 = problem.elementType == rt::ElementType::F32 &&
               manifest.config.strategy == rt::KernelStrategy::Wgmma;
  uint64_t largest = 0;
  bool anyDynamic = false;
  for (const rt::ParamInfo &param : manifest.params) {
    if (param.role == rt::ParamRole::Epilogue)
      continue;
    // A or B as stored: the runtime's reading of a column-major param (an
    // operand stored transposed, its stride maybe dynamic; one of one row
    // with both strides 1, as tile-opt writes a transposed operand of one
    // stored column).
    rt::ParamInfo stored = param.role == rt::ParamRole::Result
                               ? param
                               : rt::getStoredMatrix(param);
    bool transposed = stored.rows != param.rows || stored.cols != param.cols ||
                      stored.rowStride != param.rowStride;
    int64_t storedRows = stored.rows;
    int64_t storedCols = stored.cols;
    anyDynamic |= param.offset == rt::kDynamic ||
                  param.rowStride == rt::kDynamic ||
                  param.colStride == rt::kDynamic ||
                  param.batchStride == rt::kDynamic;
    int64_t bytes = rt::getElementTypeSize(param.elementType);
    int64_t step = std::max<int64_t>(1, 16 / bytes);
    int64_t rawStride = stored.rowStride;
    int64_t stride = rawStride == rt::kDynamic
                         ? (storedCols + step - 1) / step * step
                         : rawStride;
    int64_t offset = param.offset == rt::kDynamic ? 0 : param.offset;
    int64_t batchStride =
        param.batchStride == rt::kDynamic
            ? (storedRows - 1) * stride + (storedCols + step - 1) / step * step
            : param.batchStride;
    bool dense = param.offset == 0 && rawStride == storedCols &&
                 (shape.batch == 1 || param.batchStride == storedRows * storedCols);
    // (A dynamic field counts as 16 bytes in the alignment, as
    // layoutAlignment takes it.)
    int64_t align = 0;
    if (!dense)
      for (int64_t value : {param.offset, rawStride,
                            shape.batch == 1 ? 0 : param.batchStride})
        align = std::gcd(align, value == rt::kDynamic ? step : value);
    uint64_t span = static_cast<uint64_t>(offset) +
                    static_cast<uint64_t>(shape.batch - 1) * batchStride +
                    static_cast<uint64_t>(storedRows - 1) * stride +
                    static_cast<uint64_t>(storedCols);
    largest = std::max(largest, span);
    bool overlap = storedRows > 1 && stride < storedCols;
    switch (param.role) {
    case rt::ParamRole::Lhs:
      shape.transposeA = transposed;
      shape.layoutAlignA = align;
      shape.overlapRowsA = overlap;
      if (!dense) {
        shape.offsetA = offset;
        shape.rowStrideA = stride;
      }
      break;
    case rt::ParamRole::Rhs:
      shape.transposeB = transposed;
      shape.layoutAlignB = align;
      shape.overlapRowsB = overlap;
      if (!dense) {
        shape.offsetB = offset;
        shape.rowStrideB = stride;
      }
      break;
    default:
      shape.resultBytes = bytes;
      shape.layoutAlignC = align;
      break;
    }
  }
  // (A dynamic field may take any value: 64-bit, as largestOperandSpan
  // says for the compiler.)
  shape.offsets64 =
      anyDynamic ||
      largest > static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
  return shape;
}

/// Reads and parses the manifest at `path`; the error says why not.
static bool readManifest(const std::string &path, rt::KernelManifest &out,
                         std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read " + path;
    return false;
  }
  if (!rt::parseManifestJson((*buffer)->getBuffer().str(), out, error) ||
      !rt::validateManifest(out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

/// The measured results of a tile-run bench JSON, by shape.
struct Measured {
  TileConfig config;
  double ms;
  std::string kernel;
  /// The problem its manifest describes, where the run's path to it can
  /// be read (transposes, strides, batch); else the shape's dense one.
  std::optional<MatmulShape> shape;
};

/// The problem of a bench result's kernel from its manifest ("manifest",
/// read from the current directory), or none where it cannot be read.
static std::optional<MatmulShape>
getResultShape(const llvm::json::Object &run) {
  std::string path = run.getString("manifest").value_or("").str(), error;
  rt::KernelManifest manifest;
  if (path.empty() || !llvm::sys::fs::exists(path) ||
      !readManifest(path, manifest, error))
    return std::nullopt;
  return getManifestShape(manifest);
}

int runModelCheck(const ChipInfo &chip) {
  llvm::json::Value parsed(nullptr);
  const llvm::json::Array *runs = loadResults(parsed);
  if (!runs)
    return 1;
  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  // (One problem: the shape, types, batch and which operands are stored
  // transposed.)
  std::map<std::tuple<int64_t, int64_t, int64_t, std::string, std::string,
                      int64_t, bool, bool>,
           std::vector<Measured>>
      shapes;
  for (const llvm::json::Value &value : *runs) {
    const llvm::json::Object *run = value.getAsObject();
    if (!run || !run->getBoolean("ok").value_or(false))
      continue;
    auto attr = llvm::dyn_cast_or_null<ConfigAttr>(mlir::parseAttribute(
        run->getString("config_text").value_or(""), &context));
    if (!attr)
      continue;
    std::string inType = run->getString("element_type").value_or("f32").str();
    std::string outType = run->getString("result_type").value_or("f32").str();
    std::optional<MatmulShape> manifestShape = getResultShape(*run);
    shapes[{run->getInteger("m").value_or(0), run->getInteger("n").value_or(0),
            run->getInteger("k").value_or(0), inType, outType,
            run->getInteger("batch").value_or(1),
            manifestShape && manifestShape->transposeA,
            manifestShape && manifestShape->transposeB}]
        .push_back({attr.toTileConfig(), run->getNumber("ms").value_or(0),
                    run->getString("kernel").value_or("").str(),
                    manifestShape});
  }
  int below = 0;
  for (auto &[key, measured] : shapes) {
    MatmulShape shape{std::get<0>(key), std::get<1>(key), std::get<2>(key), 4};
    if (int64_t bytes = elementBytesOf(std::get<3>(key)))
      shape.elementBytes = bytes;
    if (int64_t bytes = elementBytesOf(std::get<4>(key)))
      shape.resultBytes = bytes;
    shape.f16 = std::get<3>(key) == "f16";
    shape.batch = std::get<5>(key);
    const Measured *best = &measured.front(), *pick = &measured.front();
    double pickSeconds = std::numeric_limits<double>::infinity();
    for (const Measured &m : measured) {
      if (m.ms < best->ms)
        best = &m;
      double seconds = predictSeconds(m.config, m.shape.value_or(shape), chip);
      if (seconds < pickSeconds) {
        pickSeconds = seconds;
        pick = &m;
      }
    }
    double share = best->ms / pick->ms;
    below += share < 0.8;
    llvm::outs() << llvm::formatv(
        "{0,-16} model picks {1,-40} {2:f2} of the best ({3})\n",
        llvm::formatv("{0}x{1}x{2}", shape.m, shape.n, shape.k).str(),
        toShortString(pick->config), share, toShortString(best->config));
  }
  llvm::outs() << below << " of " << shapes.size()
               << " shapes below 0.80 of the best measured config\n";
  return 0;
}

int runPredict(const ChipInfo &chip) {
  std::error_code ec;
  std::vector<std::string> files;
  for (llvm::sys::fs::directory_iterator it(predictDir, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".json"))
      files.push_back(it->path());
  if (ec)
    return fail("cannot list " + predictDir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer)
      return fail("cannot read " + file);
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse((*buffer)->getBuffer());
    if (!parsed)
      return fail(file + ": " + llvm::toString(parsed.takeError()));
    const llvm::json::Object *root = parsed->getAsObject();
    const llvm::json::Object *problem =
        root ? root->getObject("problem") : nullptr;
    const llvm::json::Object *config =
        root ? root->getObject("config") : nullptr;
    auto attr = llvm::dyn_cast_or_null<ConfigAttr>(mlir::parseAttribute(
        config ? config->getString("text").value_or("") : "", &context));
    if (!problem || !attr)
      return fail(file + ": not a kernel manifest with a config text");
    rt::KernelManifest manifest;
    std::string error;
    if (!readManifest(file, manifest, error))
      return fail(error);
    MatmulShape shape = getManifestShape(manifest);
    llvm::outs() << llvm::formatv(
        "{0} {1} {2} {3} {4:f5}\n", root->getString("kernel").value_or("?"),
        shape.m, shape.n, shape.k,
        predictSeconds(attr.toTileConfig(), shape, chip) * 1e3);
  }
  return 0;
}

/// One measured fma kernel: what the fit takes (its model terms and its
/// time), and its name, shape and config for the table.
struct FitPoint {
  std::string kernel;
  MatmulShape shape;
  TileConfig config;
  FmaFitPoint fit;
};

int runFit(const ChipInfo &chip) {
  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  std::vector<FitPoint> points;
  size_t fromManifests = 0;
  for (const std::string &file : fitResults) {
    resultsFile = file;
    llvm::json::Value parsed(nullptr);
    const llvm::json::Array *runs = loadResults(parsed);
    if (!runs)
      return 1;
    std::string runName = llvm::sys::path::stem(file).str();
    for (const llvm::json::Value &value : *runs) {
      const llvm::json::Object *run = value.getAsObject();
      if (!run || !run->getBoolean("ok").value_or(false) ||
          run->getString("element_type").value_or("f32") != "f32")
        continue;
      auto attr = llvm::dyn_cast_or_null<ConfigAttr>(mlir::parseAttribute(
          run->getString("config_text").value_or(""), &context));
      double ms = run->getNumber("ms").value_or(0);
      if (!attr || attr.isWgmma() || ms <= 0)
        continue;
      FitPoint p;
      p.kernel = (fitResults.size() > 1 ? runName + ":" : std::string()) +
                 run->getString("kernel").value_or("").str();
      // The problem as its manifest describes it (transposes, strides,
      // the batch) where the run's manifest path can be read here, else a
      // dense row-major one of the run's shape and batch.
      if (std::optional<MatmulShape> shape = getResultShape(*run)) {
        p.shape = *shape;
        ++fromManifests;
      } else {
        p.shape = MatmulShape{run->getInteger("m").value_or(0),
                              run->getInteger("n").value_or(0),
                              run->getInteger("k").value_or(0), 4};
        p.shape.batch = run->getInteger("batch").value_or(1);
      }
      p.config = attr.toTileConfig();
      p.fit.terms = fmaTimeTerms(p.config, p.shape, chip);
      p.fit.seconds = ms * 1e-3;
      if (p.shape.m > 0 && p.shape.n > 0 && p.shape.k > 0 &&
          std::isfinite(p.fit.terms.compute))
        points.push_back(p);
    }
  }
  if (points.empty())
    return fail("no measured f32 kernel to fit in the results");
  if (!fitPoints.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(fitPoints, ec);
    if (ec)
      return fail("cannot write " + fitPoints + ": " + ec.message());
    os << "kernel\tm\tn\tk\tbatch\tconfig\tmeasured_s\tcompute_s\t"
          "memory_s\tatomics_s\tblocks_on_busiest_sm\tresident\tslices\t"
          "warps_per_block\n";
    for (const FitPoint &p : points)
      os << llvm::formatv("{0}\t{1}\t{2}\t{3}\t{4}\t{5}\t{6:e6}\t{7:e6}\t"
                          "{8:e6}\t{9:e6}\t{10}\t{11}\t{12}\t{13}\n",
                          p.kernel, p.shape.m, p.shape.n, p.shape.k,
                          p.shape.batch, toShortString(p.config), p.fit.seconds,
                          p.fit.terms.compute, p.fit.terms.memory,
                          p.fit.terms.atomics, p.fit.terms.blocksOnBusiestSM,
                          p.fit.terms.resident, p.fit.terms.slices,
                          p.fit.terms.warpsPerBlock);
  }

  // The fit (fitFmaCalibration: Nelder-Mead over the logarithms of the
  // eight numbers, from the built-in calibration).
  std::vector<FmaFitPoint> fitPointsOnly;
  for (const FitPoint &p : points)
    fitPointsOnly.push_back(p.fit);
  FmaCalibration before = builtinFmaCalibration();
  FmaCalibration best = fitFmaCalibration(fitPointsOnly, before);
  double beforeError = fmaFitError(fitPointsOnly, before);
  double bestError = fmaFitError(fitPointsOnly, best);

  llvm::outs() << "| kernel | M | N | K | config | measured ms | predicted ms "
                  "(before) | predicted ms (fitted) | fitted / measured |\n"
                  "|---|---:|---:|---:|---|---:|---:|---:|---:|\n";
  for (const FitPoint &p : points) {
    double fitted = best.seconds(p.fit.terms);
    llvm::outs() << llvm::formatv(
        "| {0} | {1} | {2} | {3} | {4} | {5:f4} | {6:f4} | {7:f4} | "
        "{8:f2} |\n",
        p.kernel, p.shape.m, p.shape.n, p.shape.k, toShortString(p.config),
        p.fit.seconds * 1e3, before.seconds(p.fit.terms) * 1e3, fitted * 1e3,
        fitted / p.fit.seconds);
  }
  llvm::outs() << llvm::formatv(
      "\n{0} of {1} kernels' problems from their manifests (transposes, "
      "strides, batch); the others dense and row-major\n",
      fromManifests, points.size());
  llvm::outs() << llvm::formatv(
      "\n{0} kernels; within 20% of the measured time: {1:f1}% before, "
      "{2:f1}% fitted; rms log error {3:f3} before, {4:f3} fitted\n"
      "fitted: compute_scale {5:f4}, memory_scale {6:f4}, launch_seconds "
      "{7:e3}, atomics_scale {8:f4}, ring_factor {9:f4}, residency_factor "
      "{10:f4}, c_row_bytes {11:f2}, load_latency_seconds {12:e3}, "
      "narrow_copy_factor {13:f4}\n",
      points.size(), 100 * fmaWithin20(fitPointsOnly, before),
      100 * fmaWithin20(fitPointsOnly, best), std::sqrt(beforeError),
      std::sqrt(bestError), best.computeScale, best.memoryScale,
      best.launchSeconds, best.atomicsScale, best.ringFactor,
      best.residencyFactor, best.cRowBytes, best.loadLatencySeconds,
      best.narrowCopyFactor);
  if (fitTable.empty())
    return 0;
  if (fitReport.size() != fitResults.size())
    return fail("--table needs a --report (the verify lines) for each run");
  ModelParameters model;
  for (const FmaCalibrationField &field : fmaCalibrationFields())
    model.emplace_back(field.key, best.*field.member);
  // Each run as select takes it, into the same table: a shape measured in
  // several keeps its fastest.
  tableFile = fitTable;
  for (size_t i = 0; i < fitResults.size(); ++i) {
    resultsFile = fitResults[i];
    reportFile = fitReport[i];
    if (int status = runSelect(chip, &model))
      return status;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(tuneCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-tune: candidate configs to measure, and the tuning table from "
      "the measurements\n");
  std::optional<ChipInfo> chip = lookupChip(chipName);
  if (!chip)
    return fail("unknown chip '" + chipName + "'");
  if (candidatesCommand)
    return runCandidates(*chip);
  if (selectCommand)
    return runSelect(*chip);
  if (checkCommand)
    return runModelCheck(*chip);
  if (fitCommand)
    return runFit(*chip);
  if (predictCommand)
    return runPredict(*chip);
  return fail("expected a command: candidates, select, model-check, fit or "
              "predict (see --help)");
}
