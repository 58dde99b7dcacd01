//===- SimulatedAnnealing.cpp - AutoTVM's model optimiser -----------------===//

#include "raf/Tuning/SimulatedAnnealing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_set>

using namespace raf::tuning;

std::vector<uint64_t> raf::tuning::sampleDistinct(uint64_t size,
                                                  uint64_t count,
                                                  std::mt19937_64 &rng) {
  std::vector<uint64_t> result;
  if (count >= size) {
    result.resize(size);
    std::iota(result.begin(), result.end(), 0);
    std::shuffle(result.begin(), result.end(), rng);
    return result;
  }
  std::unordered_set<uint64_t> seen;
  while (result.size() < count) {
    uint64_t x = rng() % size;
    if (seen.insert(x).second)
      result.push_back(x);
  }
  return result;
}

llvm::Expected<std::vector<uint64_t>> SimulatedAnnealing::findMaximums(
    const TuningSpace &space, const ScoreFunction &score, unsigned num,
    const std::unordered_set<uint64_t> &exclusive, std::mt19937_64 &rng) {
  if (!options.persistent || points.empty())
    points = sampleDistinct(space.size(), options.parallelSize, rng);
  llvm::Expected<std::vector<float>> initial = score(points);
  if (!initial)
    return initial.takeError();
  std::vector<float> scores = std::move(*initial);

  // A min-heap of (score, point) holding the best `num` points seen that
  // are outside `exclusive`; placeholders have score -inf.
  using Item = std::pair<double, int64_t>;
  std::vector<Item> heap;
  std::unordered_set<int64_t> inHeap;
  for (unsigned i = 0; i < num; ++i) {
    heap.push_back({-std::numeric_limits<double>::infinity(), -1 - int64_t(i)});
    inHeap.insert(-1 - int64_t(i));
  }
  auto greater = std::greater<Item>();
  std::make_heap(heap.begin(), heap.end(), greater);
  auto offer = [&](double s, uint64_t p) {
    if (heap.empty() || !(s > heap.front().first) ||
        exclusive.count(p) || inHeap.count(int64_t(p)))
      return false;
    std::pop_heap(heap.begin(), heap.end(), greater);
    inHeap.erase(heap.back().second);
    heap.back() = {s, int64_t(p)};
    std::push_heap(heap.begin(), heap.end(), greater);
    inHeap.insert(int64_t(p));
    return true;
  };
  for (size_t i = 0; i < points.size(); ++i)
    offer(scores[i], points[i]);

  double t = options.temperatureStart;
  double cool = (options.temperatureStart - options.temperatureEnd) /
                (options.iterations + 1);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  unsigned lastModified = 0;
  std::vector<uint64_t> next(points.size());
  for (unsigned k = 0;
       k < options.iterations && k < lastModified + options.earlyStop; ++k) {
    for (size_t i = 0; i < points.size(); ++i)
      next[i] = space.randomWalk(points[i], rng);
    llvm::Expected<std::vector<float>> nextScores = score(next);
    if (!nextScores)
      return nextScores.takeError();
    for (size_t i = 0; i < points.size(); ++i) {
      double delta = double((*nextScores)[i]) - double(scores[i]);
      // AutoTVM's ac_prob = exp(min(delta / (t + 1e-5), 1)): a move that
      // does not lower the score is always accepted.
      bool accept = delta >= 0 ||
                    uniform(rng) < std::exp(std::min(delta / (t + 1e-5), 1.0));
      if (accept) {
        points[i] = next[i];
        scores[i] = (*nextScores)[i];
      }
    }
    for (size_t i = 0; i < next.size(); ++i)
      if (offer((*nextScores)[i], next[i]))
        lastModified = k;
    t -= cool;
  }
  std::sort(heap.begin(), heap.end(), greater);
  std::vector<uint64_t> result;
  for (const Item &item : heap)
    if (item.second >= 0 && (!options.dropNegativeScores || item.first >= 0))
      result.push_back(uint64_t(item.second));
  return result;
}
