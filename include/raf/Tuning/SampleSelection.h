//===- SampleSelection.h - Distance-maximising sample selection -*- C++ -*-===//
//
// Alg. 5 of Rieber 2022 (§5.2.2): starting from a random point, repeatedly
// add the configuration whose mean and minimum Manhattan distance (Eq. 5.1)
// to the chosen ones both beat the best seen so far in scan order. When no
// configuration qualifies (the algorithm leaves k_new empty), the one with
// the largest minimum distance (then mean distance) is taken, so the result
// always has min(count, |candidates|) configurations. The first epoch E0 of
// the validity-driven tuner takes a `validRatio` share from the valid
// presamples and the rest from the invalid ones (§5.2.1: 25 and 25 of 50),
// filling up from the other side when one runs short.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_SAMPLESELECTION_H
#define RAF_TUNING_SAMPLESELECTION_H

#include "raf/Tuning/Presampling.h"

namespace raf {
namespace tuning {

std::vector<uint64_t> selectDistanceMaximizing(const TuningSpace &space,
                                               llvm::ArrayRef<uint64_t> from,
                                               unsigned count,
                                               std::mt19937_64 &rng);

/// `count` distinct configurations from `from`, uniformly at random.
std::vector<uint64_t> selectRandomly(llvm::ArrayRef<uint64_t> from,
                                     unsigned count, std::mt19937_64 &rng);

/// E0 from the presamples: round(validRatio * count) valid ones and the
/// rest invalid, each chosen by Alg. 5 or (distanceMaximizing false, the
/// "no SSDM" ablation) at random.
std::vector<uint64_t> selectFirstEpoch(const TuningSpace &space,
                                       llvm::ArrayRef<Presample> presamples,
                                       unsigned count, double validRatio,
                                       bool distanceMaximizing,
                                       std::mt19937_64 &rng);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_SAMPLESELECTION_H
