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

#include <functional>
#include <memory>
#include <random>

namespace raf {
namespace tuning {

/// Appends the features of one configuration (by index) to a row.
using FeatureFunction = std::function<void(uint64_t, std::vector<float> &)>;

struct CostModelOptions {
  /// The recall@N of the early-stopping metric (AutoTVM's plan size; the
  /// dissertation's epoch of 50).
  unsigned planSize = 50;
  unsigned maxRounds = 8000;
  unsigned stoppingRounds = 20;
  /// Features instead of the space's knob features (`numFeatures` per
  /// configuration), e.g. features comparable across spaces for transfer
  /// learning.
  FeatureFunction features;
  unsigned numFeatures = 0;
  /// A model pre-trained on other tasks (AutoTVM's base model, see
  /// fitBaseModel) over the same features: after n measurements, its
  /// prediction times 2^(-n/64) is the base margin of the model trained
  /// on them, until that factor drops below 0.05
  /// (XGBoostCostModel._base_model_discount in AutoTVM).
  std::shared_ptr<const XGBoostModel> baseModel;
};

/// AutoTVM's XGBoostCostModel.fit_log for transfer learning: a ranking
/// model (the parameters of the rank loss) trained on the `numFeatures`
/// features `x` (row-major) of configurations of other tasks with
/// throughput labels normalised by their maximum, up to 400 rounds with
/// early stopping after 100 rounds without improving the training
/// recall@(2 planSize).
llvm::Expected<std::shared_ptr<const XGBoostModel>>
fitBaseModel(llvm::ArrayRef<float> x, unsigned numFeatures,
             llvm::ArrayRef<double> throughputs, unsigned planSize,
             std::mt19937_64 &rng);

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
  /// The base model's predictions (before any measurement); fails without
  /// a base model.
  llvm::Expected<std::vector<float>>
  predictBase(llvm::ArrayRef<uint64_t> indices) const;
  bool hasBaseModel() const { return options.baseModel != nullptr; }
  /// The factor of the base margin in the current model (0: none).
  double getBaseDiscount() const { return baseDiscount; }
  /// Wall-clock seconds spent computing features (for training and
  /// prediction) so far: the "knob" feature-extraction overhead of
  /// Rieber 2022, Tab. 5.3 and 5.6.
  double getFeatureSeconds() const { return featureSeconds; }

private:
  std::vector<float> features(llvm::ArrayRef<uint64_t> indices) const;
  unsigned getNumFeatures() const;
  /// The base margins of rows `x` at the current discount.
  llvm::Expected<std::vector<float>> baseMargins(llvm::ArrayRef<float> x,
                                                 uint64_t rows) const;

  const TuningSpace &space;
  CostModelOptions options;
  std::unique_ptr<XGBoostModel> model;
  double baseDiscount = 0;
  mutable double featureSeconds = 0;
};

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_COSTMODEL_H
