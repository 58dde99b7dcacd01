//===- CostModel.h - AutoTVM's XGBoost ranking cost model -------*- C++ -*-===//
//
// The learned cost model of AutoTVM's XGBTuner with `loss_type="rank"` and
// `feature_type="knob"` (Rieber 2022, §2.3.2.3 and §5.1.2; apache/tvm
// python/tvm/autotvm/tuner/xgboost_cost_model.py): gradient-boosted trees
// of depth 3 trained with the `rank:pairwise` objective on throughputs
// normalised by their maximum (invalid configurations count as 0), with up
// to 8000 rounds and early stopping after 20 rounds without improving the
// average recall@plan_size on the training set.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_COSTMODEL_H
#define RAF_TUNING_COSTMODEL_H

#include "raf/Tuning/TuningSpace.h"
#include "raf/Tuning/XGBoostModel.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <random>

namespace raf {
namespace tuning {

struct CostModelOptions {
  /// The recall@N of the early-stopping metric (AutoTVM's plan size; the
  /// dissertation's epoch of 50).
  unsigned planSize = 50;
  unsigned maxRounds = 8000;
  unsigned stoppingRounds = 20;
};

/// AutoTVM's `xgb_average_recalln_curve_score`: with the rows sorted by
/// descending prediction, the mean over i < n of the share of the first
/// i + 1 rows whose true rank (1-based, by descending label) is at most
/// i + 1.
double averageRecallAtN(llvm::ArrayRef<float> predictions,
                        llvm::ArrayRef<float> labels, unsigned n);

class XGBoostCostModel {
public:
  XGBoostCostModel(const TuningSpace &space, CostModelOptions options = {})
      : space(space), options(options) {}

  /// Trains a fresh model on `throughputs` (0 for invalid configurations)
  /// of the configurations `indices`, shuffled with `rng`. Fails if XGBoost
  /// does or no throughput is positive.
  llvm::Error fit(llvm::ArrayRef<uint64_t> indices,
                  llvm::ArrayRef<double> throughputs, std::mt19937_64 &rng);
  bool isTrained() const { return model != nullptr; }
  /// Predicted scores (only their order is meaningful).
  llvm::Expected<std::vector<float>>
  predict(llvm::ArrayRef<uint64_t> indices) const;
  unsigned getNumRounds() const { return model ? model->getNumRounds() : 0; }

private:
  std::vector<float> features(llvm::ArrayRef<uint64_t> indices) const;

  const TuningSpace &space;
  CostModelOptions options;
  std::unique_ptr<XGBoostModel> model;
};

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_COSTMODEL_H
