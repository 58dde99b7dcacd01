//===- CostModel.cpp - AutoTVM's XGBoost ranking cost model ---------------===//

#include "raf/Tuning/CostModel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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

unsigned XGBoostCostModel::getNumFeatures() const {
  return options.features ? options.numFeatures : space.getNumFeatures();
}

std::vector<float>
XGBoostCostModel::features(ArrayRef<uint64_t> indices) const {
  auto start = std::chrono::steady_clock::now();
  std::vector<float> values;
  values.reserve(indices.size() * getNumFeatures());
  for (uint64_t index : indices) {
    if (options.features)
      options.features(index, values);
    else
      space.appendFeatures(index, values);
  }
  featureSeconds += std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  return values;
}

/// A booster with AutoTVM's parameters for loss_type="rank".
static llvm::Expected<std::unique_ptr<XGBoostModel>>
createRanker(std::mt19937_64 &rng) {
  llvm::Expected<XGBoostModel> fresh = XGBoostModel::create();
  if (!fresh)
    return fresh.takeError();
  auto booster = std::make_unique<XGBoostModel>(std::move(*fresh));
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
    return std::move(e);
  return std::move(booster);
}

/// Trains `booster` on `train` round by round with AutoTVM's early
/// stopping (custom_callback): stop once the training recall@recallN has
/// not improved for `stoppingRounds` rounds; the trees trained after the
/// best round stay in the model.
static llvm::Error trainWithEarlyStopping(XGBoostModel &booster,
                                          const XGBoostDMatrix &train,
                                          ArrayRef<float> labels,
                                          unsigned maxRounds,
                                          unsigned stoppingRounds,
                                          unsigned recallN) {
  double best = -1;
  unsigned bestRound = 0;
  for (unsigned round = 0; round < maxRounds; ++round) {
    if (llvm::Error e = booster.train(train, 1))
      return e;
    llvm::Expected<std::vector<float>> predictions = booster.predict(train);
    if (!predictions)
      return predictions.takeError();
    double score = averageRecallAtN(*predictions, labels, recallN);
    if (score > best) {
      best = score;
      bestRound = round;
    } else if (round - bestRound >= stoppingRounds) {
      break;
    }
  }
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<const XGBoostModel>>
raf::tuning::fitBaseModel(ArrayRef<float> x, unsigned numFeatures,
                          ArrayRef<double> throughputs, unsigned planSize,
                          std::mt19937_64 &rng) {
  double maximum = 0;
  for (double y : throughputs)
    maximum = std::max(maximum, y);
  if (maximum <= 0 || numFeatures == 0 ||
      x.size() != throughputs.size() * numFeatures)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no valid configuration to pre-train on");
  std::vector<float> labels;
  for (double y : throughputs)
    labels.push_back(float(y / maximum));
  llvm::Expected<XGBoostDMatrix> train =
      XGBoostDMatrix::fromDense(x, throughputs.size(), numFeatures);
  if (!train)
    return train.takeError();
  if (llvm::Error e = train->setLabels(labels))
    return std::move(e);
  llvm::Expected<std::unique_ptr<XGBoostModel>> booster = createRanker(rng);
  if (!booster)
    return booster.takeError();
  if (llvm::Error e = trainWithEarlyStopping(**booster, *train, labels, 400,
                                             100, 2 * planSize))
    return std::move(e);
  return std::shared_ptr<const XGBoostModel>(std::move(*booster));
}

llvm::Expected<std::vector<float>>
XGBoostCostModel::baseMargins(ArrayRef<float> x, uint64_t rows) const {
  llvm::Expected<XGBoostDMatrix> data =
      XGBoostDMatrix::fromDense(x, rows, getNumFeatures());
  if (!data)
    return data.takeError();
  llvm::Expected<std::vector<float>> margins =
      options.baseModel->predict(*data);
  if (!margins)
    return margins.takeError();
  for (float &m : *margins)
    m = float(m * baseDiscount);
  return margins;
}

llvm::Expected<std::vector<float>>
XGBoostCostModel::predictBase(ArrayRef<uint64_t> indices) const {
  if (!options.baseModel)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the cost model has no base model");
  std::vector<float> x = features(indices);
  llvm::Expected<XGBoostDMatrix> data =
      XGBoostDMatrix::fromDense(x, indices.size(), getNumFeatures());
  if (!data)
    return data.takeError();
  return options.baseModel->predict(*data);
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
      XGBoostDMatrix::fromDense(x, rows.size(), getNumFeatures());
  if (!train)
    return train.takeError();
  if (llvm::Error e = train->setLabels(labels))
    return e;
  baseDiscount = 0;
  if (options.baseModel) {
    double discount = std::pow(2.0, -double(rows.size()) / 64.0);
    if (discount >= 0.05) {
      baseDiscount = discount;
      llvm::Expected<std::vector<float>> margins =
          baseMargins(x, rows.size());
      if (!margins)
        return margins.takeError();
      if (llvm::Error e = train->setBaseMargin(*margins))
        return e;
    }
  }
  llvm::Expected<std::unique_ptr<XGBoostModel>> booster = createRanker(rng);
  if (!booster)
    return booster.takeError();
  if (llvm::Error e =
          trainWithEarlyStopping(**booster, *train, labels, options.maxRounds,
                                 options.stoppingRounds, options.planSize))
    return e;
  model = std::move(*booster);
  return llvm::Error::success();
}

llvm::Expected<std::vector<float>>
XGBoostCostModel::predict(ArrayRef<uint64_t> indices) const {
  if (!model)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the cost model is not trained");
  std::vector<float> x = features(indices);
  llvm::Expected<XGBoostDMatrix> data =
      XGBoostDMatrix::fromDense(x, indices.size(), getNumFeatures());
  if (!data)
    return data.takeError();
  if (baseDiscount > 0) {
    llvm::Expected<std::vector<float>> margins =
        baseMargins(x, indices.size());
    if (!margins)
      return margins.takeError();
    if (llvm::Error e = data->setBaseMargin(*margins))
      return std::move(e);
  }
  return model->predict(*data);
}
