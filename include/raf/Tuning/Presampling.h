//===- Presampling.h - Locality-driven validity presampling -----*- C++ -*-===//
//
// Alg. 4 of Rieber 2022 (§5.2.1): query the validity of `samples`
// configurations, `parallel` at a time; the neighbours (Manhattan distance
// 1, Eq. 5.1) of a valid one become candidates, an invalid one adds a
// random new point instead, and the next round draws from the candidates.
// The valid configurations form one cluster (§5.1.1), so the search
// follows it, while the random points keep exploring. Details the
// algorithm leaves open: a round with fewer than `parallel` candidates is
// topped up with random unseen points, the loop stops at exactly `samples`
// queries, and every configuration is queried at most once.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_PRESAMPLING_H
#define RAF_TUNING_PRESAMPLING_H

#include "raf/Tuning/TuningSpace.h"

#include <functional>
#include <random>

namespace raf {
namespace tuning {

struct Presample {
  uint64_t index;
  bool valid;
};

/// Returns the queried configurations in query order (min(samples, size of
/// the space) of them). `isValid` is the validity oracle.
std::vector<Presample>
presample(const TuningSpace &space, uint64_t samples, unsigned parallel,
          const std::function<bool(uint64_t)> &isValid, std::mt19937_64 &rng);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_PRESAMPLING_H
