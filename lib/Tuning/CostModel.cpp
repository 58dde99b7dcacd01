//===- CostModel.cpp - AutoTVM's XGBoost ranking cost model ---------------===//

#include "raf/Tuning/CostModel.h"

#include <algorithm>
#include <numeric>

using namespace raf::tuning;
using llvm::ArrayRef;

double raf::tuning::averageRecallAtN(ArrayRef<float> predictions,
                                     ArrayRef<float> labels, unsigned n) {
  size_t rows = labels.size();
  if (rows == 0 || n == 0)
    return 0;
  // Trials in the order the model proposes them (stable for ties).
  std::vector<size_t> trials(rows);
  std::iota(trials.begin(), trials.end(), 0);
  std::stable_sort(trials.begin(), trials.end(), [&](size_t a, size_t b) {
    return predictions[a] > predictions[b];
  });
  // The true rank of every row, 1-based, best label first.
  std::vector<size_t> byLabel(rows);
  std::iota(byLabel.begin(), byLabel.end(), 0);
  std::stable_sort(byLabel.begin(), byLabel.end(),
                   [&](size_t a, size_t b) { return labels[a] > labels[b]; });
  std::vector<size_t> rank(rows);
  for (size_t r = 0; r < rows; ++r)
    rank[byLabel[r]] = r + 1;
  // recall_curve: the share of the first i + 1 trials ranked within i + 1;
  // the curve is as long as the data and summed over its first n points,
  // divided by n.
  double sum = 0;
  for (size_t i = 0; i < std::min<size_t>(n, rows); ++i) {
    size_t hits = 0;
    for (size_t j = 0; j <= i; ++j)
      hits += rank[trials[j]] <= i + 1;
    sum += double(hits) / double(i + 1);
  }
  return sum / n;
}

std::vector<float>
XGBoostCostModel::features(ArrayRef<uint64_t> indices) const {
  std::vector<float> values;
  values.reserve(indices.size() * space.getNumFeatures());
  for (uint64_t index : indices)
    space.appendFeatures(index, values);
  return values;
}

llvm::Error XGBoostCostModel::fit(ArrayRef<uint64_t> indices,
                                  ArrayRef<double> throughputs,
                                  std::mt19937_64 &rng) {
  double maximum = 0;
  for (double y : throughputs)
    maximum = std::max(maximum, y);
  if (maximum <= 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no valid configuration to train on");
  // Shuffled rows, labels normalised by the maximum.
  std::vector<size_t> order(indices.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<uint64_t> rows;
  std::vector<float> labels;
  for (size_t i : order) {
    rows.push_back(indices[i]);
    labels.push_back(float(throughputs[i] / maximum));
  }
  std::vector<float> x = features(rows);
  llvm::Expected<XGBoostDMatrix> train =
      XGBoostDMatrix::fromDense(x, rows.size(), space.getNumFeatures());
  if (!train)
    return train.takeError();
  if (llvm::Error e = train->setLabels(labels))
    return e;
  llvm::Expected<XGBoostModel> fresh = XGBoostModel::create();
  if (!fresh)
    return fresh.takeError();
  auto booster = std::make_unique<XGBoostModel>(std::move(*fresh));
  // AutoTVM's parameters for loss_type="rank".
  std::string seed = std::to_string(rng() % 1000000007);
  if (llvm::Error e = booster->setParams({{"max_depth", "3"},
                                          {"gamma", "0.0001"},
                                          {"min_child_weight", "1"},
                                          {"subsample", "1.0"},
                                          {"eta", "0.3"},
                                          {"lambda", "1.0"},
                                          {"alpha", "0"},
                                          {"objective", "rank:pairwise"},
                                          {"nthread", "1"},
                                          {"verbosity", "0"},
                                          {"seed", seed}}))
    return e;
  // Early stopping as AutoTVM's custom_callback: stop once the training
  // recall has not improved for `stoppingRounds` rounds; the trees trained
  // after the best round stay in the model.
  double best = -1;
  unsigned bestRound = 0;
  for (unsigned round = 0; round < options.maxRounds; ++round) {
    if (llvm::Error e = booster->train(*train, 1))
      return e;
    llvm::Expected<std::vector<float>> predictions = booster->predict(*train);
    if (!predictions)
      return predictions.takeError();
    double score = averageRecallAtN(*predictions, labels, options.planSize);
    if (score > best) {
      best = score;
      bestRound = round;
    } else if (round - bestRound >= options.stoppingRounds) {
      break;
    }
  }
  model = std::move(booster);
  return llvm::Error::success();
}

llvm::Expected<std::vector<float>>
XGBoostCostModel::predict(ArrayRef<uint64_t> indices) const {
  if (!model)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the cost model is not trained");
  std::vector<float> x = features(indices);
  llvm::Expected<XGBoostDMatrix> data =
      XGBoostDMatrix::fromDense(x, indices.size(), space.getNumFeatures());
  if (!data)
    return data.takeError();
  return model->predict(*data);
}
