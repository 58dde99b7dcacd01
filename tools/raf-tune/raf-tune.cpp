//===- raf-tune.cpp - auto-tuning experiments on VTA schedules ------------===//
//
// The driver of the chapter-5 experiments (Rieber 2022, §5.1 and §5.3) on
// the VTA schedule space of one convolution (docs/tuning.md):
//
//   raf-tune space   --conv=...              knobs, size, valid ratio
//   raf-tune truth   --conv=... --cache=DIR  the ground truth (cycles of
//                                            every configuration), cached
//   raf-tune tune    --conv=... --cache=DIR --tuner=validity --runs=20
//   raf-tune analyse --conv=... --cache=DIR  clusters (Eq. 5.1), model
//                                            accuracy vs. valid ratio
//
// Results are JSON on stdout (one object per line); progress goes to
// stderr.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/VTA/IR/VTAAttrs.h"
#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Tuning/CostModel.h"
#include "raf/Tuning/GroundTruth.h"
#include "raf/Tuning/Metrics.h"
#include "raf/Tuning/ScheduleSearch.h"
#include "raf/Tuning/Tuner.h"
#include "raf/Tuning/VTAScheduleSpace.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_set>

using namespace llvm;
using namespace raf;
using namespace raf::tuning;

static cl::OptionCategory toolCategory("raf-tune options");
static cl::opt<std::string> command(cl::Positional, cl::Required,
                                    cl::desc("<space|truth|tune|analyse>"),
                                    cl::cat(toolCategory));
static cl::opt<std::string> convSpec(
    "conv",
    cl::desc("The convolution: N,C,H,W,OC,KH,KW,padH,padW,strideH,strideW"),
    cl::value_desc("list"), cl::Required, cl::cat(toolCategory));
static cl::opt<std::string> cacheDir(
    "cache", cl::desc("Directory of ground-truth tables (computed when "
                      "missing)"),
    cl::value_desc("dir"), cl::cat(toolCategory));
static cl::opt<std::string>
    tunerName("tuner", cl::desc("random, autotvm or validity"),
              cl::init("validity"), cl::cat(toolCategory));
static cl::opt<bool> noSSDM("no-ssdm",
                            cl::desc("validity: E0 chosen at random from the "
                                     "presamples (no Alg. 5)"),
                            cl::cat(toolCategory));
static cl::opt<bool> noBSA("no-bsa",
                           cl::desc("validity: plain simulated annealing"),
                           cl::cat(toolCategory));
static cl::opt<unsigned> runs("runs", cl::desc("Tuning runs (seeds)"),
                              cl::init(20), cl::cat(toolCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the first run"),
                              cl::init(0), cl::cat(toolCategory));
static cl::opt<unsigned> trials("trials", cl::desc("Trials per run"),
                                cl::init(750), cl::cat(toolCategory));
static cl::opt<unsigned> epoch("epoch", cl::desc("Epoch size"), cl::init(50),
                               cl::cat(toolCategory));
static cl::opt<uint64_t> presamples("presamples",
                                    cl::desc("validity: presampled "
                                             "configurations"),
                                    cl::init(1000), cl::cat(toolCategory));
static cl::opt<unsigned> parallel("presample-parallel",
                                  cl::desc("validity: queries per round of "
                                           "Alg. 4"),
                                  cl::init(16), cl::cat(toolCategory));
static cl::opt<bool> curves("curves",
                            cl::desc("tune: print every run's best cost "
                                     "after each trial"),
                            cl::cat(toolCategory));
static cl::opt<unsigned> trainSize("train-size",
                                   cl::desc("analyse: training-set size"),
                                   cl::init(100), cl::cat(toolCategory));
static cl::opt<unsigned> testSize("test-size",
                                  cl::desc("analyse: test-set size"),
                                  cl::init(500), cl::cat(toolCategory));
static cl::opt<unsigned> repeats("repeats",
                                 cl::desc("analyse: repetitions per ratio"),
                                 cl::init(5), cl::cat(toolCategory));

static cl::opt<std::string> validityRules(
    "validity",
    cl::desc("Validity rules: 'schedule' (the schedule check: what our code "
             "generation builds) or 'tvm' (and TVM's VTA pipeline's "
             "single-2D-DMA tile copies, the dissertation's compile-based "
             "validity)"),
    cl::init("schedule"), cl::cat(toolCategory));
static cl::list<std::string> pretrainOn(
    "pretrain-on",
    cl::desc("tune --tuner=autotvm: transfer learning (AutoTVM's "
             "load_history) from these convolutions (N,C,H,W,OC,KH,KW,padH,"
             "padW,strideH,strideW each, separated by ';'): a base model "
             "pre-trained on random configurations of their ground truths, "
             "relation features instead of knob features"),
    cl::value_desc("convs"), cl::cat(toolCategory));
static cl::opt<unsigned> pretrainSamples(
    "pretrain-samples",
    cl::desc("Configurations drawn for pre-training, spread evenly over the "
             "--pretrain-on convolutions"),
    cl::init(30000), cl::cat(toolCategory));
static cl::opt<int64_t> requantShift(
    "requant-shift",
    cl::desc("The epilogue: clip(acc >> N) to int8 (one result plane), or "
             "with -1 the exact int32 results (four planes, as a relay "
             "convolution with out_dtype i32 lowers)"),
    cl::init(8), cl::cat(toolCategory));
static cl::opt<bool> relu(
    "relu",
    cl::desc("A ReLU after the convolution, fused into the ALU epilogue as "
             "--raf-vta-pipeline compiles it (the same as --clip=0,32767)"),
    cl::cat(toolCategory));
static cl::opt<std::string> clip(
    "clip",
    cl::desc("LO,HI: a clip after the convolution (relay.maximum/minimum by "
             "integer constants), fused into the ALU epilogue; either bound "
             "may be empty"),
    cl::value_desc("lo,hi"), cl::cat(toolCategory));
static cl::opt<bool> padInDRAM(
    "pad-in-dram",
    cl::desc("Store the padded input in DRAM (the kernel model before the "
             "loads padded on the fly; default: the loads pad, as "
             "--raf-vta-pipeline compiles a padding of at most 15)"),
    cl::cat(toolCategory));
static cl::opt<bool> dmaKnob(
    "dma-knob",
    cl::desc("Add the DMA placement knob (#vta.schedule's dma = step or "
             "hoist_weight) to the space: twice the configurations of "
             "TVM's template space"),
    cl::cat(toolCategory));
static cl::opt<unsigned> verifyProbes(
    "verify-probes",
    cl::desc("Configurations of a cached ground truth re-checked and "
             "re-simulated before it is used (a table the current model "
             "disagrees with is recomputed)"),
    cl::init(16), cl::cat(toolCategory));

static void printJson(json::Object object) {
  outs() << json::Value(std::move(object)) << "\n";
  outs().flush();
}

static double elapsedSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

static Expected<ConvLayer> parseConv(StringRef text) {
  SmallVector<StringRef> fields;
  text.split(fields, ',');
  SmallVector<int64_t> v;
  for (StringRef f : fields) {
    int64_t x;
    if (f.trim().getAsInteger(10, x))
      return createStringError(inconvertibleErrorCode(),
                               "--conv: '" + f + "' is not an integer");
    v.push_back(x);
  }
  if (v.size() != 11)
    return createStringError(inconvertibleErrorCode(),
                             "--conv needs 11 integers "
                             "(N,C,H,W,OC,KH,KW,padH,padW,strideH,strideW), "
                             "got " +
                                 Twine(v.size()));
  ConvLayer layer{v[0], v[1], v[2], v[3], v[4], v[5],
                  v[6], v[7], v[8], v[9], v[10]};
  if (llvm::any_of(ArrayRef<int64_t>(v).take_front(7),
                   [](int64_t x) { return x < 1; }) ||
      layer.padH < 0 || layer.padW < 0 || layer.strideH < 1 ||
      layer.strideW < 1 || layer.outH() < 1 || layer.outW() < 1)
    return createStringError(inconvertibleErrorCode(),
                             "--conv: not a valid convolution");
  return layer;
}

/// Re-checks and re-simulates a few configurations of a cached table (the
/// optimum, evenly spaced valid ones and evenly spaced ones of the whole
/// space); the first disagreement with the current model, if any. The
/// table's key covers the kernel, the knobs, the limits and the cycle
/// model's parameters, not the code of the check and the simulator; this
/// catches a change of either that reaches the probed configurations.
static std::optional<std::string> verifyGroundTruth(VTAScheduleSpace &space,
                                                    const GroundTruth &truth) {
  uint64_t size = truth.costs.size();
  std::vector<uint64_t> validIdx;
  std::optional<uint64_t> bestIndex;
  for (uint64_t i = 0; i < size; ++i)
    if (std::isfinite(truth.costs[i])) {
      validIdx.push_back(i);
      if (!bestIndex || truth.costs[i] < truth.costs[*bestIndex])
        bestIndex = i;
    }
  std::vector<uint64_t> probes;
  if (bestIndex)
    probes.push_back(*bestIndex);
  unsigned half = (verifyProbes + 1) / 2;
  for (unsigned i = 0; i < half && !validIdx.empty(); ++i)
    probes.push_back(validIdx[uint64_t(i) * validIdx.size() / half]);
  for (unsigned i = 0; i < verifyProbes - half; ++i)
    probes.push_back(uint64_t(i) * size / (verifyProbes - half));
  for (uint64_t index : probes) {
    Point point = space.toPoint(index);
    bool checked = space.checkValidity(point).valid;
    double cost = std::numeric_limits<double>::infinity();
    if (checked)
      if (std::optional<double> measured = space.measure(point))
        cost = *measured;
    auto text = [](double c) {
      return std::isfinite(c) ? std::to_string(int64_t(c)) : "no cycles";
    };
    if (checked != bool(truth.checkValid[index]) ||
        cost != truth.costs[index])
      return formatv("configuration {0}: the table has {1} ({2}), the "
                     "current model {3} ({4})",
                     index, text(truth.costs[index]),
                     truth.checkValid[index] ? "passes the check"
                                             : "fails the check",
                     text(cost),
                     checked ? "passes the check" : "fails the check")
          .str();
  }
  return std::nullopt;
}

/// The ground truth of `space` under the schedule check, from the cache
/// when it has a table the current model agrees with.
static Expected<GroundTruth> getScheduleGroundTruth(VTAScheduleSpace &space) {
  std::string key = space.getKey();
  std::string path;
  if (!cacheDir.empty()) {
    if (std::error_code ec = sys::fs::create_directories(cacheDir))
      return createStringError(ec, "cannot create '" + cacheDir +
                                       "': " + ec.message());
    std::string hash = toHex(SHA256::hash(arrayRefFromStringRef(key)));
    SmallString<128> file(cacheDir);
    sys::path::append(file, "truth-" + StringRef(hash).take_front(16) +
                                ".txt");
    path = std::string(file);
    Expected<std::optional<GroundTruth>> cached =
        loadGroundTruth(path, key, space.size());
    if (!cached)
      return cached.takeError();
    if (*cached) {
      std::optional<std::string> stale = verifyGroundTruth(space, **cached);
      if (!stale)
        return std::move(**cached);
      errs() << "ground truth: the cached table " << path
             << " is stale, recomputing: " << *stale << "\n";
    }
  }
  auto start = std::chrono::steady_clock::now();
  GroundTruth truth = computeGroundTruth(
      space,
      [&](uint64_t done, uint64_t total, uint64_t valid) {
        double seconds = elapsedSince(start);
        double eta = seconds / double(done) * double(total - done);
        errs() << format("ground truth: %llu/%llu configurations, %llu "
                         "valid, %.0f s, ETA %.0f s\n",
                         (unsigned long long)done, (unsigned long long)total,
                         (unsigned long long)valid, seconds, eta);
      },
      std::max<uint64_t>(256, space.size() / 20));
  if (!path.empty())
    if (Error e = saveGroundTruth(path, key, truth))
      return std::move(e);
  return truth;
}

/// The ground truth of `space` under its validity rules: with TVM's
/// pipeline rules, the schedule check's table (cached) with the
/// configurations TVM cannot copy marked invalid (they are a subset of the
/// space; their cycles are not needed).
static Expected<GroundTruth> getGroundTruth(VTAScheduleSpace &space,
                                            bool paddedInput) {
  ValidityRules rules = space.getValidityRules();
  space.setValidityRules(ValidityRules::Schedule, paddedInput);
  Expected<GroundTruth> truth = getScheduleGroundTruth(space);
  space.setValidityRules(rules, paddedInput);
  if (!truth || rules == ValidityRules::Schedule)
    return truth;
  auto start = std::chrono::steady_clock::now();
  uint64_t checks = 0;
  for (uint64_t i = 0; i < truth->costs.size(); ++i) {
    if (!truth->checkValid[i])
      continue;
    ++checks;
    if (!space.checkTVMPipeline(space.toPoint(i)).empty()) {
      truth->checkValid[i] = 0;
      truth->costs[i] = std::numeric_limits<double>::infinity();
    }
  }
  // The check's cost per query includes the copy rules.
  truth->checkSeconds += elapsedSince(start) * double(truth->checks) /
                         double(std::max<uint64_t>(1, checks));
  return truth;
}

static json::Array knobsJson(const TuningSpace &space) {
  json::Array knobs;
  for (const Knob &knob : space.getKnobs()) {
    json::Array values;
    for (int64_t v : knob.values)
      values.push_back(v);
    knobs.push_back(json::Object{{"name", knob.name},
                                 {"values", std::move(values)}});
  }
  return knobs;
}

static int runSpace(VTAScheduleSpace &space) {
  // The validity check of every configuration, timed per query.
  uint64_t valid = 0;
  std::map<std::string, uint64_t> problems;
  auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < space.size(); ++i) {
    Validity v = space.checkValidity(space.toPoint(i));
    valid += v.valid;
    if (!v.valid) {
      // The rule, without its numbers.
      std::string rule;
      for (char c : v.problem)
        if (!isDigit(c))
          rule += c;
      ++problems[rule];
    }
  }
  double seconds = elapsedSince(start);
  json::Object reasons;
  for (auto &[rule, count] : problems)
    reasons[rule] = int64_t(count);
  printJson(json::Object{
      {"size", int64_t(space.size())},
      {"check_valid", int64_t(valid)},
      {"check_valid_ratio", double(valid) / double(space.size())},
      {"check_seconds_per_query", seconds / double(space.size())},
      {"knobs", knobsJson(space)},
      {"invalid_reasons", std::move(reasons)}});
  return 0;
}

/// A schedule in the syntax of its attribute, to be put on a packed kernel
/// (`vta.schedule = ...`), which --vta-schedule and raf-run --target=vta-sim
/// then compile as it is.
static std::string scheduleAttr(const vta::ScheduleKnobs &knobs) {
  // Printed by the attribute itself, so that every knob it has (the DMA
  // placement too) appears as --vta-schedule and the lowering parse it.
  static mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.getOrLoadDialect<vta::VTADialect>();
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::Attribute(vta::ScheduleAttr::get(&context, knobs)).print(os);
  return text;
}

static int runTruth(VTAScheduleSpace &space, const GroundTruth &truth) {
  std::optional<uint64_t> bestIndex;
  for (uint64_t i = 0; i < truth.costs.size(); ++i)
    if (std::isfinite(truth.costs[i]) &&
        (!bestIndex || truth.costs[i] < truth.costs[*bestIndex]))
      bestIndex = i;
  json::Object result{
      {"size", int64_t(space.size())},
      {"valid", int64_t(truth.numValid())},
      {"valid_ratio", double(truth.numValid()) / double(space.size())},
      {"check_valid",
       int64_t(llvm::count_if(truth.checkValid, [](uint8_t v) { return v; }))},
      {"check_seconds_per_query",
       truth.checks ? truth.checkSeconds / double(truth.checks) : 0.0},
      {"measure_seconds", truth.measureSeconds},
      {"measurements", int64_t(truth.measurements)}};
  // The project's default search (--vta-schedule=method=heuristic: the
  // analytic estimate ranks its larger space, with remainder tiles and
  // every loop order, and the best 8 are simulated) for comparison.
  vta::SearchOptions heuristic;
  Expected<vta::SearchResult> searched = vta::searchSchedule(
      space.getKernel(), vta::ScheduleLimits(), heuristic);
  if (searched)
    result["heuristic_cycles"] = int64_t(searched->timing.cycles);
  else
    result["heuristic_error"] = toString(searched.takeError());
  if (bestIndex) {
    result["optimum_cycles"] = truth.costs[*bestIndex];
    vta::ScheduleKnobs best = space.getSchedule(space.toPoint(*bestIndex));
    json::Array tiles, order;
    for (int64_t t : best.tileSizes)
      tiles.push_back(t);
    for (int64_t o : best.loopOrder)
      order.push_back(o);
    result["optimum_tiles"] = std::move(tiles);
    result["optimum_virtual_threads"] = best.virtualThreads;
    result["optimum_loop_order"] = std::move(order);
    result["optimum_schedule"] = scheduleAttr(best);
  }
  printJson(std::move(result));
  return 0;
}

/// The fused epilogue's clamp bounds (--relu, --clip).
static std::optional<int64_t> clampLow, clampHigh;

/// Parses --relu and --clip into clampLow / clampHigh.
static Error parseEpilogue() {
  if (relu && !clip.empty())
    return createStringError(inconvertibleErrorCode(),
                             "--relu and --clip are exclusive");
  if (relu)
    clampLow = 0;
  if (clip.empty())
    return Error::success();
  auto [lo, hi] = StringRef(clip).split(',');
  if (!StringRef(clip).contains(','))
    return createStringError(inconvertibleErrorCode(),
                             "--clip needs LO,HI (either may be empty)");
  for (auto [text, bound] :
       {std::pair(lo.trim(), &clampLow), std::pair(hi.trim(), &clampHigh)}) {
    if (text.empty())
      continue;
    int64_t value;
    // The ALU's immediate is a signed 16-bit field (TVM-VTA hw_spec.h).
    if (text.getAsInteger(10, value) || value < -32768 || value > 32767)
      return createStringError(inconvertibleErrorCode(),
                               "--clip: '" + text +
                                   "' is not an integer in [-32768, 32767]");
    *bound = value;
  }
  if (clampLow && clampHigh && *clampLow > *clampHigh)
    return createStringError(inconvertibleErrorCode(),
                             "--clip: the lower bound exceeds the upper one");
  return Error::success();
}

/// The kernel model of `layer` as --raf-vta-pipeline compiles it: the
/// --requant-shift epilogue, the fused --relu / --clip and the padding on
/// the fly (unless --pad-in-dram).
static vta::GemmKernelModel makeKernel(const ConvLayer &layer) {
  std::optional<int64_t> shift;
  if (requantShift >= 0)
    shift = requantShift;
  return makeConvKernelModel(layer, 1, 16, shift, !padInDRAM, clampLow,
                             clampHigh);
}

/// Transfer learning (AutoTVM's XGBoostCostModel.fit_log): a base model
/// pre-trained on `pretrainSamples` uniformly drawn configurations of the
/// --pretrain-on convolutions (their ground truths, under the same validity
/// rules), with relation features and throughputs in multiply-accumulates
/// per cycle (invalid: 0), comparable across layers.
static Expected<std::shared_ptr<const XGBoostModel>>
pretrainBaseModel(ValidityRules rules, uint64_t &samples) {
  std::vector<ConvLayer> layers;
  for (const std::string &list : pretrainOn) {
    SmallVector<StringRef> specs;
    StringRef(list).split(specs, ';', -1, /*KeepEmpty=*/false);
    for (StringRef spec : specs) {
      Expected<ConvLayer> layer = parseConv(spec);
      if (!layer)
        return layer.takeError();
      layers.push_back(*layer);
    }
  }
  std::mt19937_64 rng(seed);
  std::vector<float> x;
  std::vector<double> ys;
  for (const ConvLayer &layer : layers) {
    VTAScheduleSpace other(makeKernel(layer), vta::ScheduleLimits(),
                           vta::CycleModel(), dmaKnob);
    bool padded = layer.padH > 0 || layer.padW > 0;
    other.setValidityRules(rules, padded);
    Expected<GroundTruth> truth = getGroundTruth(other, padded);
    if (!truth)
      return truth.takeError();
    uint64_t count = std::min<uint64_t>(
        other.size(), pretrainSamples / std::max<size_t>(1, layers.size()));
    for (uint64_t index : sampleDistinct(other.size(), count, rng)) {
      other.appendRelationFeatures(index, x);
      double cost = truth->costs[index];
      ys.push_back(std::isfinite(cost) ? other.getWork() / cost : 0.0);
    }
  }
  samples = ys.size();
  return fitBaseModel(x, VTAScheduleSpace::kNumRelationFeatures, ys, epoch,
                      rng);
}

static int runTune(VTAScheduleSpace &vtaSpace, const GroundTruth &truth) {
  std::optional<TunerKind> kind = parseTunerKind(tunerName);
  if (!kind) {
    WithColor::error() << "unknown tuner '" << tunerName
                       << "' (random, autotvm or validity)\n";
    return 1;
  }
  std::shared_ptr<const XGBoostModel> baseModel;
  uint64_t baseSamples = 0;
  double pretrainSeconds = 0;
  if (!pretrainOn.empty()) {
    if (*kind != TunerKind::AutoTVM) {
      WithColor::error() << "--pretrain-on needs --tuner=autotvm\n";
      return 1;
    }
    auto start = std::chrono::steady_clock::now();
    Expected<std::shared_ptr<const XGBoostModel>> base =
        pretrainBaseModel(vtaSpace.getValidityRules(), baseSamples);
    if (!base) {
      WithColor::error() << "pre-training: " << toString(base.takeError())
                         << "\n";
      return 1;
    }
    baseModel = *base;
    pretrainSeconds = elapsedSince(start);
    errs() << format("pre-trained a base model on %llu configurations "
                     "(%u rounds) in %.1f s\n",
                     (unsigned long long)baseSamples,
                     baseModel->getNumRounds(), pretrainSeconds);
  }
  std::vector<Knob> knobs(vtaSpace.getKnobs().begin(),
                          vtaSpace.getKnobs().end());
  TabulatedSpace space(knobs, truth.costs, truth.checkValid);
  double optimum = truth.optimum();
  double checkPerQuery =
      truth.checks ? truth.checkSeconds / double(truth.checks) : 0.0;
  for (unsigned run = 0; run < runs; ++run) {
    TunerOptions options;
    options.kind = *kind;
    options.trials = trials;
    options.epochSize = epoch;
    options.seed = seed + run;
    options.presamples = presamples;
    options.presampleParallel = parallel;
    options.distanceMaximizing = !noSSDM;
    options.biasedAnnealing = !noBSA;
    options.costModel.planSize = epoch;
    if (baseModel) {
      options.costModel.baseModel = baseModel;
      options.costModel.numFeatures = VTAScheduleSpace::kNumRelationFeatures;
      options.costModel.features = [&](uint64_t index,
                                       std::vector<float> &row) {
        vtaSpace.appendRelationFeatures(index, row);
      };
    }
    auto start = std::chrono::steady_clock::now();
    Expected<TuningResult> result = tune(space, options);
    if (!result) {
      WithColor::error() << "run " << run << ": "
                         << toString(result.takeError()) << "\n";
      return 1;
    }
    double seconds = elapsedSince(start);
    std::optional<unsigned> toBest = trialsToReach(*result, optimum);
    std::optional<unsigned> toOnePercent =
        trialsToReach(*result, optimum, 0.01);
    std::optional<size_t> best = result->best();
    json::Object line{
        {"run", int64_t(run)},
        {"seed", int64_t(options.seed)},
        {"trials", int64_t(result->trials.size())},
        {"trials_to_best", toBest ? json::Value(int64_t(*toBest)) : nullptr},
        {"trials_to_1pct",
         toOnePercent ? json::Value(int64_t(*toOnePercent)) : nullptr},
        {"best_cycles",
         best ? json::Value(*result->trials[*best].cost) : nullptr},
        {"best_schedule",
         best ? json::Value(scheduleAttr(vtaSpace.getSchedule(
                    vtaSpace.toPoint(result->trials[*best].index))))
              : nullptr},
        {"optimum_cycles", optimum},
        {"valid_trials",
         int64_t(llvm::count_if(result->trials,
                                [](const Trial &t) { return t.cost; }))},
        {"validity_queries", int64_t(result->validityQueries)},
        {"presampled_valid", int64_t(result->presampledValid)},
        {"bias_known", int64_t(result->biasKnown)},
        // What the presampling queries cost on the real oracle (the table
        // answers them instantly).
        {"presample_oracle_seconds",
         checkPerQuery * double(result->validityQueries)},
        {"selection_seconds", result->selectionSeconds},
        {"train_seconds", result->trainSeconds},
        {"anneal_seconds", result->annealSeconds},
        {"feature_seconds", result->featureSeconds},
        {"trainings", int64_t(result->trainings)},
        {"seconds", seconds}};
    json::Array spread;
    for (auto [low, high] : result->predictionSpread)
      spread.push_back(json::Array{low, high});
    line["prediction_spread"] = std::move(spread);
    json::Array plans;
    for (unsigned n : result->planSizes)
      plans.push_back(int64_t(n));
    line["plan_sizes"] = std::move(plans);
    if (baseModel) {
      line["pretrain_samples"] = int64_t(baseSamples);
      line["pretrain_seconds"] = pretrainSeconds;
    }
    if (curves) {
      json::Array curve;
      double bestSoFar = INFINITY;
      for (const Trial &t : result->trials) {
        if (t.cost)
          bestSoFar = std::min(bestSoFar, *t.cost);
        curve.push_back(std::isfinite(bestSoFar) ? json::Value(bestSoFar)
                                                 : nullptr);
      }
      line["curve"] = std::move(curve);
    }
    printJson(std::move(line));
    errs() << format("tune %s: run %u/%u, trials to best %s, %.1f s\n",
                     tunerName.c_str(), run + 1, unsigned(runs),
                     toBest ? std::to_string(*toBest).c_str() : "not reached",
                     seconds);
  }
  return 0;
}

static int runAnalyse(VTAScheduleSpace &vtaSpace, const GroundTruth &truth) {
  std::vector<Knob> knobs(vtaSpace.getKnobs().begin(),
                          vtaSpace.getKnobs().end());
  TabulatedSpace space(knobs, truth.costs, truth.checkValid);
  std::vector<uint8_t> valid;
  for (double c : truth.costs)
    valid.push_back(std::isfinite(c));
  ClusterStats clusters = analyseClusters(space, valid);
  printJson(json::Object{{"kind", "clusters"},
                         {"valid", int64_t(clusters.valid)},
                         {"valid_components", int64_t(clusters.validComponents)},
                         {"invalid_components",
                          int64_t(clusters.invalidComponents)},
                         {"largest_valid", int64_t(clusters.largestValid)}});
  // §5.1.2: a model trained on `trainSize` configurations of a controlled
  // valid ratio, evaluated on a uniform test set of the rest.
  std::vector<uint64_t> validIdx, invalidIdx;
  for (uint64_t i = 0; i < space.size(); ++i)
    (valid[i] ? validIdx : invalidIdx).push_back(i);
  for (double ratio : {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
                       1.0}) {
    unsigned wantValid = unsigned(std::lround(ratio * trainSize));
    if (wantValid > validIdx.size() ||
        trainSize - wantValid > invalidIdx.size() || wantValid == 0)
      continue;
    double all = 0, vv = 0, vi = 0, nd = 0, nd50 = 0;
    unsigned counted = 0, countedVI = 0;
    for (unsigned r = 0; r < repeats; ++r) {
      std::mt19937_64 rng(seed + r);
      std::vector<uint64_t> train;
      for (uint64_t i : sampleDistinct(validIdx.size(), wantValid, rng))
        train.push_back(validIdx[i]);
      for (uint64_t i :
           sampleDistinct(invalidIdx.size(), trainSize - wantValid, rng))
        train.push_back(invalidIdx[i]);
      std::unordered_set<uint64_t> inTrain(train.begin(), train.end());
      std::vector<uint64_t> test;
      for (uint64_t i : sampleDistinct(space.size(),
                                       std::min<uint64_t>(space.size(),
                                                          testSize +
                                                              trainSize),
                                       rng))
        if (!inTrain.count(i) && test.size() < testSize)
          test.push_back(i);
      auto throughput = [&](uint64_t i) {
        return valid[i] ? 1.0 / truth.costs[i] : 0.0;
      };
      std::vector<double> ys, truthTest;
      for (uint64_t i : train)
        ys.push_back(throughput(i));
      for (uint64_t i : test)
        truthTest.push_back(throughput(i));
      XGBoostCostModel model(space);
      if (Error e = model.fit(train, ys, rng)) {
        WithColor::error() << toString(std::move(e)) << "\n";
        return 1;
      }
      Expected<std::vector<float>> pred = model.predict(test);
      if (!pred) {
        WithColor::error() << toString(pred.takeError()) << "\n";
        return 1;
      }
      PairwiseAccuracy acc = pairwiseAccuracy(truthTest, *pred);
      all += acc.all;
      if (!std::isnan(acc.validValid)) {
        vv += acc.validValid;
        ++counted;
      }
      if (!std::isnan(acc.validInvalid)) {
        vi += acc.validInvalid;
        ++countedVI;
      }
      nd += ndcg(truthTest, *pred);
      nd50 += ndcg(truthTest, *pred, 50);
    }
    printJson(json::Object{
        {"kind", "model"},
        {"ratio", ratio},
        {"train", int64_t(trainSize)},
        {"test", int64_t(testSize)},
        {"repeats", int64_t(repeats)},
        {"accuracy", all / repeats},
        {"accuracy_valid_valid",
         counted ? json::Value(vv / counted) : nullptr},
        {"accuracy_valid_invalid",
         countedVI ? json::Value(vi / countedVI) : nullptr},
        {"ndcg", nd / repeats},
        {"ndcg_at_50", nd50 / repeats}});
  }
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "raf-tune: auto-tuning experiments on the VTA schedule space of a "
      "convolution (Rieber 2022, chapter 5)\n");
  Expected<ConvLayer> layer = parseConv(convSpec);
  if (!layer) {
    WithColor::error() << toString(layer.takeError()) << "\n";
    return 1;
  }
  if (requantShift < -1) {
    WithColor::error() << "--requant-shift must be -1 or at least 0\n";
    return 1;
  }
  if (Error e = parseEpilogue()) {
    WithColor::error() << toString(std::move(e)) << "\n";
    return 1;
  }
  VTAScheduleSpace space(makeKernel(*layer), vta::ScheduleLimits(),
                         vta::CycleModel(), dmaKnob);
  bool paddedInput = layer->padH > 0 || layer->padW > 0;
  if (validityRules == "tvm")
    space.setValidityRules(ValidityRules::TVMPipeline, paddedInput);
  else if (validityRules != "schedule") {
    WithColor::error() << "unknown --validity '" << validityRules
                       << "' (schedule or tvm)\n";
    return 1;
  }
  if (command == "space")
    return runSpace(space);
  if (command != "truth" && command != "tune" && command != "analyse") {
    WithColor::error() << "unknown command '" << command
                       << "' (space, truth, tune or analyse)\n";
    return 1;
  }
  Expected<GroundTruth> truth = getGroundTruth(space, paddedInput);
  if (!truth) {
    WithColor::error() << toString(truth.takeError()) << "\n";
    return 1;
  }
  if (command == "truth")
    return runTruth(space, *truth);
  if (truth->numValid() == 0) {
    WithColor::error() << "no configuration of this space is valid\n";
    return 1;
  }
  if (command == "tune")
    return runTune(space, *truth);
  return runAnalyse(space, *truth);
}
