//===- Metrics.h - Search-space and tuner metrics ---------------*- C++ -*-===//
//
// The measures of Rieber 2022, chapter 5: the cluster structure of valid
// configurations under Manhattan-distance-1 adjacency (§5.1.1, Eq. 5.1),
// the pairwise ranking accuracy of a cost model (Eq. 5.2, normalised by
// the (n^2 - n) / 2 pairs there are; the printed n^2 - n/2 is a slip), its
// nDCG (Eq. 5.3), and the median and interquartile range of trials to the
// best configuration (§5.3, Eq. 5.4).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_METRICS_H
#define RAF_TUNING_METRICS_H

#include "raf/Tuning/TuningSpace.h"

namespace raf {
namespace tuning {

/// The q-quantile of `values` with linear interpolation between order
/// statistics (NumPy's default); NaN for no values.
double quantile(std::vector<double> values, double q);
double median(const std::vector<double> &values);
/// Q3 - Q1 (Eq. 5.4).
double interquartileRange(const std::vector<double> &values);

/// Connected components of the grid graph whose edges join configurations
/// at Manhattan distance 1 with the same validity (§5.1.1: the edges
/// between a valid and an invalid configuration removed).
struct ClusterStats {
  uint64_t validComponents = 0;
  uint64_t invalidComponents = 0;
  /// Configurations in the largest valid component.
  uint64_t largestValid = 0;
  uint64_t valid = 0;
};
ClusterStats analyseClusters(const TuningSpace &space,
                             llvm::ArrayRef<uint8_t> valid);

/// Pairwise ranking accuracy (Eq. 5.2) of `predictions` against the true
/// throughputs `truth` (0 for invalid configurations): the share of pairs
/// i > j with sign(truth_i - truth_j) == sign(pred_i - pred_j). Also for
/// only the pairs of two valid configurations and only the pairs of a
/// valid and an invalid one (Fig. 5.2's curves). NaN where there are no
/// such pairs.
struct PairwiseAccuracy {
  double all = 0, validValid = 0, validInvalid = 0;
};
PairwiseAccuracy pairwiseAccuracy(llvm::ArrayRef<double> truth,
                                  llvm::ArrayRef<float> predictions);

/// nDCG@n (Eq. 5.3): the gains `truth` (throughputs, 0 for invalid) summed
/// with weight 1 / log2(position + 1) over the first n positions of the
/// ranking by descending prediction, divided by the same sum for the ideal
/// ranking (by descending truth). n = 0 ranks everything; 0 if every gain
/// is 0.
double ndcg(llvm::ArrayRef<double> truth, llvm::ArrayRef<float> predictions,
            size_t n = 0);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_METRICS_H
