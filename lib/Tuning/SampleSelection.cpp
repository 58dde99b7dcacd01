//===- SampleSelection.cpp - Distance-maximising sample selection ---------===//

#include "raf/Tuning/SampleSelection.h"

#include "raf/Tuning/SimulatedAnnealing.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace raf::tuning;
using llvm::ArrayRef;

std::vector<uint64_t>
raf::tuning::selectDistanceMaximizing(const TuningSpace &space,
                                      ArrayRef<uint64_t> from, unsigned count,
                                      std::mt19937_64 &rng) {
  std::vector<uint64_t> chosen;
  size_t target = std::min<size_t>(count, from.size());
  if (target == 0)
    return chosen;
  std::vector<bool> taken(from.size(), false);
  size_t first = rng() % from.size();
  chosen.push_back(from[first]);
  taken[first] = true;
  // Distance sums and minima to the chosen set, updated per addition.
  std::vector<double> sum(from.size(), 0);
  std::vector<unsigned> minimum(from.size(),
                                std::numeric_limits<unsigned>::max());
  auto add = [&](uint64_t k) {
    for (size_t n = 0; n < from.size(); ++n) {
      unsigned d = space.distance(from[n], k);
      sum[n] += d;
      minimum[n] = std::min(minimum[n], d);
    }
  };
  add(from[first]);
  while (chosen.size() < target) {
    double bestMean = 0, bestMin = 0;
    std::optional<size_t> pick;
    // The fallback: largest minimum distance, then largest mean.
    std::optional<size_t> fallback;
    for (size_t n = 0; n < from.size(); ++n) {
      if (taken[n])
        continue;
      double mean = sum[n] / double(chosen.size());
      if (mean > bestMean && minimum[n] > bestMin) {
        bestMean = mean;
        bestMin = minimum[n];
        pick = n;
      }
      if (!fallback || minimum[n] > minimum[*fallback] ||
          (minimum[n] == minimum[*fallback] && sum[n] > sum[*fallback]))
        fallback = n;
    }
    size_t n = pick ? *pick : *fallback;
    taken[n] = true;
    chosen.push_back(from[n]);
    add(from[n]);
  }
  return chosen;
}

std::vector<uint64_t> raf::tuning::selectRandomly(ArrayRef<uint64_t> from,
                                                  unsigned count,
                                                  std::mt19937_64 &rng) {
  std::vector<uint64_t> chosen;
  for (uint64_t i : sampleDistinct(from.size(), count, rng))
    chosen.push_back(from[i]);
  return chosen;
}

std::vector<uint64_t> raf::tuning::selectFirstEpoch(
    const TuningSpace &space, ArrayRef<Presample> presamples, unsigned count,
    double validRatio, bool distanceMaximizing, std::mt19937_64 &rng) {
  std::vector<uint64_t> valid, invalid;
  for (const Presample &p : presamples)
    (p.valid ? valid : invalid).push_back(p.index);
  size_t wantValid = size_t(std::lround(validRatio * count));
  size_t numValid = std::min(wantValid, valid.size());
  size_t numInvalid = std::min<size_t>(count - numValid, invalid.size());
  // One side short: the other fills up.
  numValid = std::min<size_t>(count - numInvalid, valid.size());
  auto select = [&](ArrayRef<uint64_t> from, size_t n) {
    return distanceMaximizing
               ? selectDistanceMaximizing(space, from, unsigned(n), rng)
               : selectRandomly(from, unsigned(n), rng);
  };
  std::vector<uint64_t> epoch = select(valid, numValid);
  for (uint64_t i : select(invalid, numInvalid))
    epoch.push_back(i);
  return epoch;
}
