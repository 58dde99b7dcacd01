//===- SimulatedAnnealing.h - AutoTVM's model optimiser ---------*- C++ -*-===//
//
// Parallel simulated annealing over a cost model as AutoTVM's
// SimulatedAnnealingOptimizer (Rieber 2022, §2.3.2.3; apache/tvm
// python/tvm/autotvm/tuner/sa_model_optimizer.py) with its defaults:
// 128 chains, 500 iterations, a temperature cooled linearly from 1 to 0,
// early stop after 50 iterations without a new top point, chains kept
// between calls. A move changes one knob to another random value; it is
// accepted with probability exp(min((new - old) / (t + 1e-5), 1)). A
// min-heap keeps the `num` best-scored points outside `exclusive`, and of
// these only the ones scored >= 0 are returned (AutoTVM since TVM v0.6,
// apache/tvm#3462: `heap_items = [x for x in heap_items if x[0] >= 0]`,
// meant to drop the heap's -inf placeholders, drops every negative score
// too; the model-based tuner then fills the rest of its batch with random
// configurations). The score is the model's
// prediction, or anything else, such as the validity-biased score of
// ValidityBias.h (§5.2.3), which then steers both acceptance and heap.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_SIMULATEDANNEALING_H
#define RAF_TUNING_SIMULATEDANNEALING_H

#include "raf/Tuning/TuningSpace.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <random>
#include <unordered_set>

namespace raf {
namespace tuning {

struct AnnealingOptions {
  unsigned iterations = 500;
  double temperatureStart = 1.0;
  double temperatureEnd = 0.0;
  unsigned parallelSize = 128;
  unsigned earlyStop = 50;
  bool persistent = true;
  /// Return only maximums scored >= 0, as AutoTVM's find_maximums does.
  bool dropNegativeScores = true;
};

/// Scores of configurations, higher is better.
using ScoreFunction = std::function<llvm::Expected<std::vector<float>>(
    llvm::ArrayRef<uint64_t>)>;

class SimulatedAnnealing {
public:
  explicit SimulatedAnnealing(AnnealingOptions options = {})
      : options(options) {}

  /// Up to `num` configurations outside `exclusive`, best score first
  /// (only those scored >= 0 with `dropNegativeScores`).
  llvm::Expected<std::vector<uint64_t>>
  findMaximums(const TuningSpace &space, const ScoreFunction &score,
               unsigned num, const std::unordered_set<uint64_t> &exclusive,
               std::mt19937_64 &rng);

private:
  AnnealingOptions options;
  /// The chains' positions, kept between calls when persistent.
  std::vector<uint64_t> points;
};

/// `count` distinct uniformly random integers in [0, size) (all of them
/// when count >= size), as AutoTVM's sample_ints.
std::vector<uint64_t> sampleDistinct(uint64_t size, uint64_t count,
                                     std::mt19937_64 &rng);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_SIMULATEDANNEALING_H
