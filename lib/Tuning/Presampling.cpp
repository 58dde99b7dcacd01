//===- Presampling.cpp - Locality-driven validity presampling -------------===//

#include "raf/Tuning/Presampling.h"

#include "raf/Tuning/SimulatedAnnealing.h"

#include <algorithm>
#include <unordered_set>

using namespace raf::tuning;

std::vector<Presample>
raf::tuning::presample(const TuningSpace &space, uint64_t samples,
                       unsigned parallel,
                       const std::function<bool(uint64_t)> &isValid,
                       std::mt19937_64 &rng) {
  uint64_t size = space.size();
  samples = std::min(samples, size);
  parallel = std::max(parallel, 1u);
  std::vector<Presample> result;
  std::unordered_set<uint64_t> queried;
  // A random configuration outside `queried` and `exclude`; the caller
  // makes sure one exists.
  auto randomNew = [&](const std::unordered_set<uint64_t> &exclude) {
    while (true) {
      uint64_t x = rng() % size;
      if (!queried.count(x) && !exclude.count(x))
        return x;
    }
  };
  std::vector<uint64_t> batch = sampleDistinct(size, parallel, rng);
  while (result.size() < samples) {
    std::vector<uint64_t> candidates;
    std::unordered_set<uint64_t> inCandidates;
    for (uint64_t p : batch) {
      if (result.size() == samples)
        break;
      if (queried.count(p))
        continue;
      bool valid = isValid(p);
      queried.insert(p);
      result.push_back({p, valid});
      if (valid) {
        for (uint64_t q : space.getNeighbours(p))
          if (!queried.count(q) && inCandidates.insert(q).second)
            candidates.push_back(q);
      } else if (queried.size() + inCandidates.size() < size) {
        uint64_t q = randomNew(inCandidates);
        inCandidates.insert(q);
        candidates.push_back(q);
      }
    }
    // Points that were queried after becoming candidates are dropped.
    llvm::erase_if(candidates, [&](uint64_t q) { return queried.count(q); });
    std::shuffle(candidates.begin(), candidates.end(), rng);
    if (candidates.size() > parallel)
      candidates.resize(parallel);
    std::unordered_set<uint64_t> chosen(candidates.begin(), candidates.end());
    while (candidates.size() < parallel &&
           queried.size() + chosen.size() < size) {
      uint64_t q = randomNew(chosen);
      chosen.insert(q);
      candidates.push_back(q);
    }
    batch = std::move(candidates);
  }
  return result;
}
