//===- Metrics.cpp - Search-space and tuner metrics -----------------------===//

#include "raf/Tuning/Metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace raf::tuning;
using llvm::ArrayRef;

double raf::tuning::quantile(std::vector<double> values, double q) {
  if (values.empty())
    return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  double position = q * double(values.size() - 1);
  size_t lo = size_t(std::floor(position));
  size_t hi = std::min(lo + 1, values.size() - 1);
  double fraction = position - double(lo);
  return values[lo] + (values[hi] - values[lo]) * fraction;
}

double raf::tuning::median(const std::vector<double> &values) {
  return quantile(values, 0.5);
}

double raf::tuning::interquartileRange(const std::vector<double> &values) {
  return quantile(values, 0.75) - quantile(values, 0.25);
}

ClusterStats raf::tuning::analyseClusters(const TuningSpace &space,
                                          ArrayRef<uint8_t> valid) {
  ClusterStats stats;
  uint64_t size = space.size();
  std::vector<uint8_t> seen(size, 0);
  std::vector<uint64_t> stack;
  for (uint64_t start = 0; start < size; ++start) {
    if (seen[start])
      continue;
    bool isValid = valid[start] != 0;
    uint64_t members = 0;
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      uint64_t at = stack.back();
      stack.pop_back();
      ++members;
      for (uint64_t next : space.getNeighbours(at))
        if (!seen[next] && (valid[next] != 0) == isValid) {
          seen[next] = 1;
          stack.push_back(next);
        }
    }
    if (isValid) {
      ++stats.validComponents;
      stats.valid += members;
      stats.largestValid = std::max(stats.largestValid, members);
    } else {
      ++stats.invalidComponents;
    }
  }
  return stats;
}

static int sign(double x) { return (x > 0) - (x < 0); }

PairwiseAccuracy raf::tuning::pairwiseAccuracy(ArrayRef<double> truth,
                                               ArrayRef<float> predictions) {
  uint64_t all = 0, allHits = 0, vv = 0, vvHits = 0, vi = 0, viHits = 0;
  for (size_t i = 0; i < truth.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      bool hit = sign(truth[i] - truth[j]) ==
                 sign(double(predictions[i]) - double(predictions[j]));
      ++all;
      allHits += hit;
      bool validI = truth[i] > 0, validJ = truth[j] > 0;
      if (validI && validJ) {
        ++vv;
        vvHits += hit;
      } else if (validI != validJ) {
        ++vi;
        viHits += hit;
      }
    }
  auto share = [](uint64_t hits, uint64_t pairs) {
    return pairs ? double(hits) / double(pairs)
                 : std::numeric_limits<double>::quiet_NaN();
  };
  return {share(allHits, all), share(vvHits, vv), share(viHits, vi)};
}

double raf::tuning::ndcg(ArrayRef<double> truth, ArrayRef<float> predictions,
                         size_t n) {
  size_t rows = truth.size();
  if (n == 0 || n > rows)
    n = rows;
  std::vector<size_t> byPrediction(rows), ideal(rows);
  std::iota(byPrediction.begin(), byPrediction.end(), 0);
  std::iota(ideal.begin(), ideal.end(), 0);
  std::stable_sort(byPrediction.begin(), byPrediction.end(),
                   [&](size_t a, size_t b) {
                     return predictions[a] > predictions[b];
                   });
  std::stable_sort(ideal.begin(), ideal.end(),
                   [&](size_t a, size_t b) { return truth[a] > truth[b]; });
  double dcg = 0, idcg = 0;
  for (size_t i = 0; i < n; ++i) {
    double weight = 1.0 / std::log2(double(i) + 2.0);
    dcg += truth[byPrediction[i]] * weight;
    idcg += truth[ideal[i]] * weight;
  }
  return idcg > 0 ? dcg / idcg : 0.0;
}
