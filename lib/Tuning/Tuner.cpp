//===- Tuner.cpp - Random, AutoTVM and validity-driven tuners -------------===//

#include "raf/Tuning/Tuner.h"

#include "raf/Tuning/Metrics.h"
#include "raf/Tuning/Presampling.h"
#include "raf/Tuning/SampleSelection.h"
#include "raf/Tuning/ValidityBias.h"

#include <chrono>

using namespace raf::tuning;

std::optional<TunerKind> raf::tuning::parseTunerKind(llvm::StringRef name) {
  if (name == "random")
    return TunerKind::Random;
  if (name == "autotvm")
    return TunerKind::AutoTVM;
  if (name == "validity")
    return TunerKind::Validity;
  return std::nullopt;
}

llvm::StringRef raf::tuning::getTunerName(TunerKind kind) {
  switch (kind) {
  case TunerKind::Random:
    return "random";
  case TunerKind::AutoTVM:
    return "autotvm";
  case TunerKind::Validity:
    return "validity";
  }
  return "";
}

std::optional<size_t> TuningResult::best() const {
  std::optional<size_t> best;
  for (size_t i = 0; i < trials.size(); ++i)
    if (trials[i].cost && (!best || *trials[i].cost < *trials[*best].cost))
      best = i;
  return best;
}

std::optional<unsigned> raf::tuning::trialsToReach(const TuningResult &result,
                                                   double optimum,
                                                   double tolerance) {
  for (size_t i = 0; i < result.trials.size(); ++i)
    if (result.trials[i].cost &&
        *result.trials[i].cost <= optimum * (1 + tolerance))
      return unsigned(i + 1);
  return std::nullopt;
}

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The measurement loop shared by the three tuners (AutoTVM's
/// ModelBasedTuner.next_batch / update).
class TuningLoop {
public:
  TuningLoop(TuningSpace &space, const TunerOptions &options)
      : space(space), options(options), rng(options.seed),
        spreadRng(options.seed ^ 0x5eed5eed5eed5eedULL),
        model(space, options.costModel), annealing(options.annealing) {}

  llvm::Expected<TuningResult> run();

private:
  uint64_t randomUnvisited() {
    while (true) {
      uint64_t x = rng() % space.size();
      if (!visited.count(x))
        return x;
    }
  }
  std::vector<uint64_t> nextBatch(unsigned count);
  void measure(uint64_t index);
  llvm::Error retrain();
  /// Records the spread of the current model's scores on configurations
  /// drawn with `spreadRng`.
  llvm::Error recordPredictionSpread();
  static constexpr unsigned kSpreadSample = 1000;
  /// The next plan: the top configurations of simulated annealing on
  /// `score`.
  llvm::Error planByAnnealing(const ScoreFunction &score);

  TuningSpace &space;
  const TunerOptions &options;
  std::mt19937_64 rng;
  /// Draws the configurations of the prediction-spread diagnostic only.
  std::mt19937_64 spreadRng;
  XGBoostCostModel model;
  SimulatedAnnealing annealing;
  TuningResult result;
  std::unordered_set<uint64_t> visited;
  /// The validity of the presampled configurations, which biases the
  /// annealing (BSA).
  KnownValidity known;
  std::vector<uint64_t> xs;
  std::vector<double> ys;
  /// The planned configurations and how far they have been used; whether
  /// the plan is E0 (taken whole, without the e-greedy tail).
  std::vector<uint64_t> plan;
  size_t planAt = 0;
  bool planIsFirstEpoch = false;
  unsigned trainings = 0;
  double diagnosticFeatureSeconds = 0;
};

std::vector<uint64_t> TuningLoop::nextBatch(unsigned count) {
  std::vector<uint64_t> batch;
  size_t tail = planIsFirstEpoch
                    ? 0
                    : size_t(options.epsilonGreedy * options.epochSize);
  while (batch.size() < count && visited.size() < space.size()) {
    while (planAt < plan.size() && visited.count(plan[planAt]))
      ++planAt;
    uint64_t index;
    if (options.kind == TunerKind::Random || planAt + tail >= plan.size() ||
        planAt >= plan.size())
      index = randomUnvisited();
    else
      index = plan[planAt++];
    visited.insert(index);
    batch.push_back(index);
  }
  return batch;
}

void TuningLoop::measure(uint64_t index) {
  Clock::time_point start = Clock::now();
  std::optional<double> cost = space.measure(space.toPoint(index));
  result.measureSeconds += secondsSince(start);
  result.trials.push_back({index, cost});
  // The bias stays what presampling found (Rieber 2022, §5.2.3: "The
  // validity data collected during presampling ... can be used to bias the
  // simulated annealing"); a measurement enters the model, not the bias.
  // Measured configurations are outside the annealing's top list anyway
  // (visited); a bias on them would only steer the chains.
  xs.push_back(index);
  // Throughput; invalid configurations count as 0 (AutoTVM's update()).
  ys.push_back(cost && *cost > 0 ? 1.0 / *cost : 0.0);
}

llvm::Error TuningLoop::retrain() {
  Clock::time_point start = Clock::now();
  if (llvm::Error e = model.fit(xs, ys, rng))
    return e;
  result.trainSeconds += secondsSince(start);
  if (llvm::Error e = recordPredictionSpread())
    return e;
  start = Clock::now();
  bool bias =
      options.kind == TunerKind::Validity && options.biasedAnnealing;
  ScoreFunction score =
      [&](llvm::ArrayRef<uint64_t> indices)
      -> llvm::Expected<std::vector<float>> {
    llvm::Expected<std::vector<float>> s = model.predict(indices);
    if (s && bias)
      biasScores(indices, *s, known);
    return s;
  };
  if (llvm::Error e = planByAnnealing(score))
    return e;
  result.annealSeconds += secondsSince(start);
  ++trainings;
  result.trainings = trainings;
  return llvm::Error::success();
}

llvm::Error TuningLoop::recordPredictionSpread() {
  double featuresBefore = model.getFeatureSeconds();
  std::vector<uint64_t> sample =
      sampleDistinct(space.size(), kSpreadSample, spreadRng);
  llvm::Expected<std::vector<float>> scores = model.predict(sample);
  if (!scores)
    return scores.takeError();
  std::vector<double> values(scores->begin(), scores->end());
  result.predictionSpread.push_back(
      {float(quantile(values, 0.05)), float(quantile(values, 0.95))});
  diagnosticFeatureSeconds += model.getFeatureSeconds() - featuresBefore;
  return llvm::Error::success();
}

llvm::Error TuningLoop::planByAnnealing(const ScoreFunction &score) {
  llvm::Expected<std::vector<uint64_t>> maximums = annealing.findMaximums(
      space, score, options.epochSize, visited, rng);
  if (!maximums)
    return maximums.takeError();
  plan = std::move(*maximums);
  result.planSizes.push_back(unsigned(plan.size()));
  planAt = 0;
  planIsFirstEpoch = false;
  return llvm::Error::success();
}

llvm::Expected<TuningResult> TuningLoop::run() {
  unsigned total = unsigned(std::min<uint64_t>(options.trials, space.size()));
  if (options.kind == TunerKind::Validity) {
    Clock::time_point start = Clock::now();
    std::vector<Presample> presamples = presample(
        space, options.presamples, options.presampleParallel,
        [&](uint64_t index) {
          return space.checkValidity(space.toPoint(index)).valid;
        },
        rng);
    result.presampleSeconds = secondsSince(start);
    result.validityQueries = presamples.size();
    for (const Presample &p : presamples) {
      if (options.biasedAnnealing)
        known[p.index] = p.valid;
      result.presampledValid += p.valid;
    }
    start = Clock::now();
    plan = selectFirstEpoch(space, presamples, options.epochSize,
                            options.firstEpochValidRatio,
                            options.distanceMaximizing, rng);
    result.selectionSeconds = secondsSince(start);
    planIsFirstEpoch = true;
  }
  if (options.kind == TunerKind::AutoTVM && model.hasBaseModel()) {
    // AutoTVM's load_history: the pre-trained base model chooses the first
    // epoch by simulated annealing (with the e-greedy tail).
    Clock::time_point start = Clock::now();
    ScoreFunction score = [&](llvm::ArrayRef<uint64_t> indices) {
      return model.predictBase(indices);
    };
    if (llvm::Error e = planByAnnealing(score))
      return std::move(e);
    result.annealSeconds += secondsSince(start);
  }
  while (result.trials.size() < total) {
    unsigned count = std::min<unsigned>(
        options.epochSize, total - unsigned(result.trials.size()));
    std::vector<uint64_t> batch = nextBatch(count);
    if (batch.empty())
      break;
    for (uint64_t index : batch)
      measure(index);
    if (options.progress)
      options.progress(unsigned(result.trials.size()));
    bool anyValid = llvm::any_of(ys, [](double y) { return y > 0; });
    if (options.kind != TunerKind::Random &&
        result.trials.size() < total &&
        xs.size() >= size_t(options.epochSize) * (trainings + 1) && anyValid)
      if (llvm::Error e = retrain())
        return std::move(e);
  }
  result.featureSeconds = model.getFeatureSeconds() - diagnosticFeatureSeconds;
  result.biasKnown = known.size();
  return std::move(result);
}

} // namespace

llvm::Expected<TuningResult> raf::tuning::tune(TuningSpace &space,
                                               const TunerOptions &options) {
  if (options.epochSize == 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the epoch size must be positive");
  if (space.size() == 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the search space is empty");
  TuningLoop loop(space, options);
  return loop.run();
}
