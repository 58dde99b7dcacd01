//===- Tuner.h - Random, AutoTVM and validity-driven tuners -----*- C++ -*-===//
//
// Three tuners over a TuningSpace, each measuring `trials` configurations
// in epochs of `epochSize` (Rieber 2022, §5.1.3 and §5.3: 50 and 750):
//
// * random: uniformly random unmeasured configurations;
// * autotvm: AutoTVM's XGBTuner with knob features (ModelBasedTuner in
//   apache/tvm python/tvm/autotvm/tuner/model_based_tuner.py). The first
//   epoch is random (there is no model yet); after every epoch that leaves
//   a valid measurement the XGBoost ranking model (CostModel.h) is trained
//   on every measurement, invalid ones as throughput 0, and simulated
//   annealing (SimulatedAnnealing.h) proposes the next epoch's
//   configurations, of which the last 5% are replaced by random ones
//   (e-greedy). Until a valid configuration is measured, epochs stay random;
//   this repeats the random initialisation as the dissertation's baseline
//   does when E0 holds no valid configuration. With a pre-trained base
//   model (CostModelOptions::baseModel, transfer learning as AutoTVM's
//   load_history), the base model chooses the first epoch by simulated
//   annealing and contributes its discounted margin to later models;
// * validity: the validity-driven initialisation of §5.2: presampling
//   (Alg. 4, Presampling.h) with the validity oracle, a first epoch with a
//   0.5 valid ratio chosen by distance maximisation (Alg. 5,
//   SampleSelection.h), then the AutoTVM loop with biased simulated
//   annealing (ValidityBias.h) on the validity of the presampled
//   configurations (§5.2.3: "the validity data collected during
//   presampling"; measurements train the model but do not enter the
//   bias). `distanceMaximizing` and `biasedAnnealing` switch the two
//   parts off for the ablations of Tab. 5.4 ("no SSDM", "no BSA").
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_TUNER_H
#define RAF_TUNING_TUNER_H

#include "raf/Tuning/CostModel.h"
#include "raf/Tuning/SimulatedAnnealing.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>

namespace raf {
namespace tuning {

enum class TunerKind { Random, AutoTVM, Validity };

std::optional<TunerKind> parseTunerKind(llvm::StringRef name);
llvm::StringRef getTunerName(TunerKind kind);

struct TunerOptions {
  TunerKind kind = TunerKind::Validity;
  unsigned trials = 750;
  unsigned epochSize = 50;
  uint64_t seed = 0;
  /// Validity-driven: presamples (min with the space size), configurations
  /// queried per round of Alg. 4 (not given by the dissertation), the valid
  /// ratio of E0, and the two parts that can be switched off.
  uint64_t presamples = 1000;
  unsigned presampleParallel = 16;
  double firstEpochValidRatio = 0.5;
  bool distanceMaximizing = true;
  bool biasedAnnealing = true;
  /// Share of every model-proposed epoch chosen at random (AutoTVM: 5%).
  double epsilonGreedy = 0.05;
  AnnealingOptions annealing;
  CostModelOptions costModel;
  /// Called after every epoch with the trials so far.
  std::function<void(unsigned)> progress;
};

struct Trial {
  uint64_t index;
  /// The measured cost; nothing for an invalid configuration.
  std::optional<double> cost;
};

struct TuningResult {
  std::vector<Trial> trials;
  /// Validity queries of presampling and how many were valid.
  uint64_t validityQueries = 0;
  uint64_t presampledValid = 0;
  /// Configurations whose validity biases the annealing: the presampled
  /// ones with BSA, none without (measurements do not enter the bias).
  uint64_t biasKnown = 0;
  /// Wall-clock seconds spent in each part; featureSeconds is the share of
  /// training and annealing spent computing features.
  double presampleSeconds = 0, selectionSeconds = 0, trainSeconds = 0,
         annealSeconds = 0, measureSeconds = 0, featureSeconds = 0;
  /// Models trained (one per epoch once a valid configuration is known).
  unsigned trainings = 0;
  /// The spread of each trained model's scores: the 5th and 95th
  /// percentiles of its predictions on uniformly drawn configurations,
  /// one pair per training (drawn with their own generator, so the tuning
  /// itself is unchanged). The biased annealing's +1 for known-valid
  /// configurations was chosen against predictions "mostly in the
  /// interval [-7, 7]" (Rieber 2022, §5.2.3).
  std::vector<std::pair<float, float>> predictionSpread;
  /// The length of each plan simulated annealing proposed (at most the
  /// epoch; AutoTVM keeps only configurations scored >= 0, and the batch
  /// is topped up with random ones).
  std::vector<unsigned> planSizes;
  /// The best trial, if any was valid.
  std::optional<size_t> best() const;
};

/// Runs one tuner on `space`. Validity queries go to
/// space.checkValidity, measurements to space.measure.
llvm::Expected<TuningResult> tune(TuningSpace &space,
                                  const TunerOptions &options);

/// 1-based number of the first trial whose cost is at most `optimum`
/// (times 1 + tolerance); nothing if none is.
std::optional<unsigned> trialsToReach(const TuningResult &result,
                                      double optimum, double tolerance = 0);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_TUNER_H
