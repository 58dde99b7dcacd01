//===- TuningTest.cpp - Tests of the chapter-5 tuners and metrics ---------===//
//
// Small hand-made spaces with known answers for presampling (Rieber 2022,
// Alg. 4), distance-maximising selection (Alg. 5), the biased annealing
// score (§5.2.3), the metrics (Eqs. 5.1-5.4) and the tuners.
//
//===----------------------------------------------------------------------===//

#include "raf/Tuning/CostModel.h"
#include "raf/Tuning/GroundTruth.h"
#include "raf/Tuning/Metrics.h"
#include "raf/Tuning/Presampling.h"
#include "raf/Tuning/SampleSelection.h"
#include "raf/Tuning/SimulatedAnnealing.h"
#include "raf/Tuning/Tuner.h"
#include "raf/Tuning/ValidityBias.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <set>

using namespace raf::tuning;

namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();

/// A 2-D grid `rows` x `cols` whose valid configurations are the square
/// [lo, hi]^2 of knob indices; the cost falls towards (hi, hi), as tiles
/// that fill the buffers do (the best configurations sit on the edge of
/// the valid cluster, §5.2.2).
TabulatedSpace makeSquareSpace(unsigned rows, unsigned cols, unsigned lo,
                               unsigned hi) {
  Knob a{"a", {}}, b{"b", {}};
  for (unsigned i = 0; i < rows; ++i)
    a.values.push_back(i + 1);
  for (unsigned j = 0; j < cols; ++j)
    b.values.push_back(j + 1);
  std::vector<double> costs;
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < cols; ++j)
      costs.push_back(i >= lo && i <= hi && j >= lo && j <= hi
                          ? 100.0 - double(i) - 2.0 * double(j)
                          : Inf);
  return TabulatedSpace({a, b}, costs);
}

TEST(TuningSpaceTest, IndexPointAndNeighbours) {
  TabulatedSpace space = makeSquareSpace(3, 4, 0, 2);
  EXPECT_EQ(space.size(), 12u);
  // The first knob varies slowest.
  EXPECT_EQ(space.toIndex({1, 2}), 6u);
  EXPECT_EQ(space.toPoint(7), (Point{1, 3}));
  std::vector<uint64_t> n = space.getNeighbours(space.toIndex({0, 0}));
  EXPECT_EQ(std::set<uint64_t>(n.begin(), n.end()),
            (std::set<uint64_t>{space.toIndex({1, 0}), space.toIndex({0, 1})}));
  EXPECT_EQ(space.getNeighbours(space.toIndex({1, 1})).size(), 4u);
  EXPECT_EQ(space.distance(space.toIndex({0, 0}), space.toIndex({2, 3})), 5u);
  std::mt19937_64 rng(1);
  for (int i = 0; i < 50; ++i) {
    uint64_t from = rng() % space.size();
    uint64_t to = space.randomWalk(from, rng);
    Point a = space.toPoint(from), b = space.toPoint(to);
    EXPECT_EQ((a[0] != b[0]) + (a[1] != b[1]), 1);
  }
}

TEST(TuningSpaceTest, SplitKnobFeatures) {
  Knob tile{"tile", {1, 2, 4}, /*splitExtent=*/4};
  Knob threads{"threads", {1, 2}};
  TabulatedSpace space({tile, threads}, std::vector<double>(6, 1.0));
  EXPECT_EQ(space.getNumFeatures(), 3u);
  std::vector<float> f;
  space.appendFeatures(space.toIndex({1, 1}), f);
  // AutoTVM's SplitEntity.size of a define_split knob: [-1, factor].
  EXPECT_EQ(f, (std::vector<float>{-1, 2, 2}));
}

TEST(PresamplingTest, QueriesEachConfigurationOnceAndStopsExactly) {
  TabulatedSpace space = makeSquareSpace(20, 20, 5, 9);
  std::mt19937_64 rng(7);
  unsigned queries = 0;
  std::vector<Presample> samples = presample(
      space, 120, 8,
      [&](uint64_t i) {
        ++queries;
        return space.isValid(i);
      },
      rng);
  EXPECT_EQ(samples.size(), 120u);
  EXPECT_EQ(queries, 120u);
  std::set<uint64_t> distinct;
  for (const Presample &p : samples) {
    distinct.insert(p.index);
    EXPECT_EQ(p.valid, space.isValid(p.index));
  }
  EXPECT_EQ(distinct.size(), 120u);
}

TEST(PresamplingTest, FollowsTheValidCluster) {
  // 25 of 400 configurations are valid (6.25%, near Tab. 5.1's mean of
  // 0.083): once one is found, its neighbours are queried, so presampling
  // finds far more valid ones than uniform sampling (about 7.5 of 120).
  TabulatedSpace space = makeSquareSpace(20, 20, 5, 9);
  unsigned found = 0, runs = 10;
  for (unsigned seed = 0; seed < runs; ++seed) {
    std::mt19937_64 rng(seed);
    for (const Presample &p :
         presample(space, 120, 8, [&](uint64_t i) { return space.isValid(i); },
                   rng))
      found += p.valid;
  }
  EXPECT_GE(found / runs, 20u);
}

TEST(PresamplingTest, SmallSpaceIsQueriedCompletely) {
  TabulatedSpace space = makeSquareSpace(3, 3, 1, 1);
  std::mt19937_64 rng(3);
  std::vector<Presample> samples = presample(
      space, 1000, 4, [&](uint64_t i) { return space.isValid(i); }, rng);
  EXPECT_EQ(samples.size(), 9u);
}

TEST(SampleSelectionTest, DistanceMaximisingOnALine) {
  // One knob 0..10: after the random first point, Alg. 5 takes the
  // farthest end, then the point farthest from both chosen ones.
  Knob k{"k", {}};
  for (int i = 0; i <= 10; ++i)
    k.values.push_back(i);
  TabulatedSpace space({k}, std::vector<double>(11, 1.0));
  std::vector<uint64_t> all(11);
  for (uint64_t i = 0; i < 11; ++i)
    all[i] = i;
  for (uint64_t seed = 0; seed < 5; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> chosen = selectDistanceMaximizing(space, all, 3, rng);
    ASSERT_EQ(chosen.size(), 3u);
    uint64_t first = chosen[0];
    // From the middle both ends tie; the scan keeps the first.
    uint64_t farthest = first < 5 ? 10 : 0;
    EXPECT_EQ(chosen[1], farthest) << "first " << first;
    std::set<uint64_t> s(chosen.begin(), chosen.end());
    EXPECT_EQ(s.size(), 3u);
  }
  // Starting from 0 (or 10) the second pick is the other end. Every inner
  // point then has mean distance 5, and line 9 of Alg. 5 needs both the
  // mean and the minimum to grow strictly, so the scan keeps the first
  // inner point (1 or 9) although 5 has the larger minimum.
  bool sawEnd = false;
  for (uint64_t seed = 0; seed < 200 && !sawEnd; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> chosen = selectDistanceMaximizing(space, all, 3, rng);
    if (chosen[0] == 0 || chosen[0] == 10) {
      sawEnd = true;
      EXPECT_EQ(std::set<uint64_t>(chosen.begin(), chosen.end()),
                (std::set<uint64_t>{0, 1, 10}));
    }
  }
  EXPECT_TRUE(sawEnd);
}

TEST(SampleSelectionTest, AsksForMoreThanThereAre) {
  TabulatedSpace space = makeSquareSpace(4, 4, 0, 3);
  std::mt19937_64 rng(0);
  std::vector<uint64_t> chosen =
      selectDistanceMaximizing(space, {1, 5, 9}, 10, rng);
  EXPECT_EQ(std::set<uint64_t>(chosen.begin(), chosen.end()),
            (std::set<uint64_t>{1, 5, 9}));
}

TEST(SampleSelectionTest, FirstEpochIsBalanced) {
  TabulatedSpace space = makeSquareSpace(20, 20, 5, 9);
  std::vector<Presample> presamples;
  for (uint64_t i = 0; i < space.size(); ++i)
    presamples.push_back({i, space.isValid(i)});
  for (bool ssdm : {true, false}) {
    std::mt19937_64 rng(11);
    std::vector<uint64_t> epoch =
        selectFirstEpoch(space, presamples, 50, 0.5, ssdm, rng);
    ASSERT_EQ(epoch.size(), 50u);
    unsigned valid = 0;
    for (uint64_t i : epoch)
      valid += space.isValid(i);
    EXPECT_EQ(valid, 25u);
    EXPECT_EQ(std::set<uint64_t>(epoch.begin(), epoch.end()).size(), 50u);
  }
  // Only 3 valid presamples: E0 takes them and fills up with invalid ones.
  std::vector<Presample> few;
  for (uint64_t i = 0; i < space.size() && few.size() < 60; ++i)
    if (!space.isValid(i) || few.size() < 3)
      few.push_back({i, space.isValid(i)});
  std::mt19937_64 rng(0);
  std::vector<uint64_t> epoch = selectFirstEpoch(space, few, 50, 0.5, true, rng);
  ASSERT_EQ(epoch.size(), 50u);
  unsigned valid = 0;
  for (uint64_t i : epoch)
    valid += space.isValid(i);
  EXPECT_EQ(valid, unsigned(llvm::count_if(
                       few, [](const Presample &p) { return p.valid; })));
}

TEST(ValidityBiasTest, KnownInvalidSinksKnownValidGainsOne) {
  KnownValidity known{{1, true}, {2, false}};
  std::vector<float> scores{0.5f, -3.0f, 6.5f, 2.0f};
  biasScores({0, 1, 2, 3}, scores, known);
  EXPECT_FLOAT_EQ(scores[0], 0.5f);
  EXPECT_FLOAT_EQ(scores[1], -2.0f);
  EXPECT_FLOAT_EQ(scores[2], -1e6f);
  EXPECT_FLOAT_EQ(scores[3], 2.0f);
}

TEST(SimulatedAnnealingTest, ReturnsOnlyNonNegativeScoresAsAutoTVM) {
  // Scores: 1 on the 7 configurations of row 0 other than the excluded
  // (0, 0), -1 elsewhere. AutoTVM's find_maximums keeps the heap's items
  // scored >= 0, so 7 of the 20 requested come back, best first; without
  // the filter the heap is filled up with negative ones.
  TabulatedSpace space = makeSquareSpace(8, 8, 0, 7);
  ScoreFunction score = [&](llvm::ArrayRef<uint64_t> indices)
      -> llvm::Expected<std::vector<float>> {
    std::vector<float> s;
    for (uint64_t i : indices)
      s.push_back(space.toPoint(i)[0] == 0 ? 1.0f : -1.0f);
    return s;
  };
  std::unordered_set<uint64_t> exclusive{space.toIndex({0, 0})};
  std::mt19937_64 rng(1);
  SimulatedAnnealing filtered;
  llvm::Expected<std::vector<uint64_t>> top =
      filtered.findMaximums(space, score, 20, exclusive, rng);
  ASSERT_TRUE(bool(top)) << llvm::toString(top.takeError());
  EXPECT_EQ(top->size(), 7u);
  for (uint64_t i : *top) {
    EXPECT_EQ(space.toPoint(i)[0], 0u);
    EXPECT_FALSE(exclusive.count(i));
  }
  AnnealingOptions options;
  options.dropNegativeScores = false;
  SimulatedAnnealing unfiltered(options);
  top = unfiltered.findMaximums(space, score, 20, exclusive, rng);
  ASSERT_TRUE(bool(top)) << llvm::toString(top.takeError());
  ASSERT_EQ(top->size(), 20u);
  for (unsigned i = 0; i < 7; ++i)
    EXPECT_EQ(space.toPoint((*top)[i])[0], 0u);
}

TEST(MetricsTest, QuantilesMatchNumPy) {
  // numpy.percentile([7, 1, 3, 9, 5, 11], [25, 50, 75]) = 3.5, 6, 8.5.
  std::vector<double> v{7, 1, 3, 9, 5, 11};
  EXPECT_DOUBLE_EQ(quantile(v, 0.25), 3.5);
  EXPECT_DOUBLE_EQ(median(v), 6.0);
  EXPECT_DOUBLE_EQ(interquartileRange(v), 5.0);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(MetricsTest, PairwiseAccuracyCountsEveryPairOnce) {
  // Truth 3 > 2 > 0 = 0; the model swaps the two valid ones and ranks the
  // invalid ones correctly below them but not equal to each other.
  std::vector<double> truth{3, 2, 0, 0};
  std::vector<float> pred{1.0f, 2.0f, -1.0f, -2.0f};
  PairwiseAccuracy acc = pairwiseAccuracy(truth, pred);
  // (n^2 - n) / 2 = 6 pairs: (1,0) wrong, (2,0) (2,1) (3,0) (3,1) right,
  // (3,2) wrong (truth tie, prediction not).
  EXPECT_DOUBLE_EQ(acc.all, 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(acc.validValid, 0.0);
  EXPECT_DOUBLE_EQ(acc.validInvalid, 1.0);
}

TEST(MetricsTest, NdcgOfPerfectAndReversedRankings) {
  std::vector<double> truth{3, 2, 1, 0};
  EXPECT_DOUBLE_EQ(ndcg(truth, {4, 3, 2, 1}), 1.0);
  // Reversed: DCG = 0/1 + 1/log2(3) + 2/log2(4) + 3/log2(5).
  double dcg = 1 / std::log2(3.0) + 2 / std::log2(4.0) + 3 / std::log2(5.0);
  double idcg = 3 + 2 / std::log2(3.0) + 1 / std::log2(4.0);
  EXPECT_NEAR(ndcg(truth, {1, 2, 3, 4}), dcg / idcg, 1e-12);
  EXPECT_DOUBLE_EQ(ndcg({0, 0}, {1, 2}), 0.0);
}

TEST(MetricsTest, ClustersUnderManhattanAdjacency) {
  TabulatedSpace one = makeSquareSpace(6, 6, 1, 3);
  std::vector<uint8_t> valid;
  for (uint64_t i = 0; i < one.size(); ++i)
    valid.push_back(one.isValid(i));
  ClusterStats stats = analyseClusters(one, valid);
  EXPECT_EQ(stats.validComponents, 1u);
  EXPECT_EQ(stats.invalidComponents, 1u);
  EXPECT_EQ(stats.largestValid, 9u);
  // Two valid corners touching only diagonally are two clusters.
  std::vector<uint8_t> diagonal(36, 0);
  diagonal[one.toIndex({0, 0})] = 1;
  diagonal[one.toIndex({1, 1})] = 1;
  stats = analyseClusters(one, diagonal);
  EXPECT_EQ(stats.validComponents, 2u);
  EXPECT_EQ(stats.largestValid, 1u);
}

TEST(CostModelTest, AverageRecall) {
  // A perfect ranking has recall 1 at every position.
  EXPECT_DOUBLE_EQ(averageRecallAtN({3, 2, 1}, {0.9f, 0.5f, 0.1f}, 3), 1.0);
  // Reversed over 3 rows: position 1 holds rank 3 (0/1), positions 1-2
  // hold ranks 3, 2 (1/2), all three (3/3): (0 + 0.5 + 1) / 3.
  EXPECT_DOUBLE_EQ(averageRecallAtN({1, 2, 3}, {0.9f, 0.5f, 0.1f}, 3), 0.5);
}

TEST(CostModelTest, LearnsTheRankingOfASmoothSpace) {
  TabulatedSpace space = makeSquareSpace(12, 12, 0, 11);
  std::vector<uint64_t> xs;
  std::vector<double> ys;
  for (uint64_t i = 0; i < space.size(); i += 2) {
    xs.push_back(i);
    ys.push_back(1.0 / space.getCosts()[i]);
  }
  XGBoostCostModel model(space);
  std::mt19937_64 rng(0);
  ASSERT_FALSE(bool(model.fit(xs, ys, rng)));
  std::vector<uint64_t> test;
  std::vector<double> truth;
  for (uint64_t i = 1; i < space.size(); i += 2) {
    test.push_back(i);
    truth.push_back(1.0 / space.getCosts()[i]);
  }
  llvm::Expected<std::vector<float>> pred = model.predict(test);
  ASSERT_TRUE(bool(pred));
  EXPECT_GT(pairwiseAccuracy(truth, *pred).all, 0.9);
  // Fitting without a valid measurement is an error.
  llvm::Error e = model.fit({0, 1}, {0.0, 0.0}, rng);
  EXPECT_TRUE(bool(e));
  llvm::consumeError(std::move(e));
}

TEST(CostModelTest, TransferFromABaseModel) {
  // A base model pre-trained on another space with the same features (the
  // knob values) and the same trend ranks this one before any measurement
  // (AutoTVM's fit_log / load_history).
  TabulatedSpace other = makeSquareSpace(12, 12, 0, 11);
  TabulatedSpace space = makeSquareSpace(12, 12, 2, 9);
  std::vector<float> x;
  std::vector<double> ys;
  for (uint64_t i = 0; i < other.size(); ++i) {
    other.appendFeatures(i, x);
    ys.push_back(1.0 / other.getCosts()[i]);
  }
  std::mt19937_64 rng(0);
  llvm::Expected<std::shared_ptr<const XGBoostModel>> base =
      fitBaseModel(x, other.getNumFeatures(), ys, 10, rng);
  ASSERT_TRUE(bool(base)) << llvm::toString(base.takeError());
  CostModelOptions options;
  options.baseModel = *base;
  XGBoostCostModel model(space, options);
  ASSERT_TRUE(model.hasBaseModel());
  std::vector<uint64_t> valid;
  std::vector<double> truth;
  for (uint64_t i = 0; i < space.size(); ++i)
    if (std::isfinite(space.getCosts()[i])) {
      valid.push_back(i);
      truth.push_back(1.0 / space.getCosts()[i]);
    }
  llvm::Expected<std::vector<float>> pred = model.predictBase(valid);
  ASSERT_TRUE(bool(pred));
  EXPECT_GT(pairwiseAccuracy(truth, *pred).all, 0.9);
  // After n measurements the base margin counts 2^(-n/64); below 0.05
  // (n > 276) not at all.
  ASSERT_FALSE(bool(model.fit({valid[0], valid[1], valid[2], valid[3]},
                              {truth[0], truth[1], truth[2], truth[3]}, rng)));
  EXPECT_NEAR(model.getBaseDiscount(), std::pow(2.0, -4.0 / 64.0), 1e-9);
  ASSERT_TRUE(bool(model.predict(valid)));
  std::vector<uint64_t> many(300);
  std::vector<double> manyY(300, 0.0);
  for (uint64_t i = 0; i < 300; ++i) {
    many[i] = i % space.size();
    manyY[i] = std::isfinite(space.getCosts()[many[i]])
                   ? 1.0 / space.getCosts()[many[i]]
                   : 0.0;
  }
  ASSERT_FALSE(bool(model.fit(many, manyY, rng)));
  EXPECT_EQ(model.getBaseDiscount(), 0.0);
}

TEST(TunerTest, EveryTunerFindsTheOptimumOfASmallSpace) {
  TabulatedSpace space = makeSquareSpace(10, 10, 2, 6);
  double optimum = Inf;
  for (double c : space.getCosts())
    optimum = std::min(optimum, c);
  for (TunerKind kind :
       {TunerKind::Random, TunerKind::AutoTVM, TunerKind::Validity}) {
    TunerOptions options;
    options.kind = kind;
    options.trials = 100;
    options.epochSize = 10;
    options.presamples = 60;
    options.seed = 5;
    llvm::Expected<TuningResult> result = tune(space, options);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_EQ(result->trials.size(), 100u) << getTunerName(kind).str();
    std::set<uint64_t> distinct;
    for (const Trial &t : result->trials)
      distinct.insert(t.index);
    EXPECT_EQ(distinct.size(), 100u) << "every configuration measured once";
    EXPECT_TRUE(trialsToReach(*result, optimum).has_value());
  }
}

/// Options of the validity-driven tuner.
TunerOptions validityOptions(unsigned trials, unsigned epochSize,
                             uint64_t presamples, uint64_t seed) {
  TunerOptions options;
  options.kind = TunerKind::Validity;
  options.trials = trials;
  options.epochSize = epochSize;
  options.presamples = presamples;
  options.seed = seed;
  return options;
}

TEST(TunerTest, ValidityTunerStartsWithABalancedEpoch) {
  TabulatedSpace space = makeSquareSpace(20, 20, 5, 12);
  llvm::Expected<TuningResult> result =
      tune(space, validityOptions(60, 50, 200, 2));
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->validityQueries, 200u);
  ASSERT_GE(result->presampledValid, 25u);
  unsigned valid = 0;
  for (unsigned i = 0; i < 50; ++i)
    valid += result->trials[i].cost.has_value();
  EXPECT_EQ(valid, 25u);
}

TEST(TunerTest, BiasKnowsThePresampledConfigurationsOnly) {
  // BSA biases the annealing with the validity data of presampling
  // (Rieber 2022, §5.2.3); the 150 measurements, most of them outside the
  // 30 presamples, train the model but do not enter the bias.
  TabulatedSpace space = makeSquareSpace(20, 20, 5, 12);
  TunerOptions options = validityOptions(150, 10, 30, 4);
  llvm::Expected<TuningResult> result = tune(space, options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->validityQueries, 30u);
  EXPECT_EQ(result->biasKnown, 30u);
  EXPECT_EQ(result->trials.size(), 150u);
  options.biasedAnnealing = false;
  llvm::Expected<TuningResult> plain = tune(space, options);
  ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
  EXPECT_EQ(plain->biasKnown, 0u);
}

TEST(TunerTest, OverheadsAndPredictionSpreadPerTraining) {
  // 100 trials in epochs of 10 with a valid first epoch: a model after each
  // of the first 9 epochs (none after the last), one score spread each. The
  // spread is a diagnostic drawn with its own generator, so two runs with
  // the same seed still measure the same configurations.
  TabulatedSpace space = makeSquareSpace(10, 10, 2, 6);
  TunerOptions options;
  options.kind = TunerKind::Validity;
  options.trials = 100;
  options.epochSize = 10;
  options.presamples = 60;
  options.seed = 3;
  llvm::Expected<TuningResult> a = tune(space, options);
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  EXPECT_EQ(a->trainings, 9u);
  ASSERT_EQ(a->predictionSpread.size(), 9u);
  for (auto [low, high] : a->predictionSpread)
    EXPECT_LE(low, high);
  EXPECT_GT(a->featureSeconds, 0.0);
  EXPECT_LE(a->featureSeconds, a->trainSeconds + a->annealSeconds);
  llvm::Expected<TuningResult> b = tune(space, options);
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  ASSERT_EQ(a->trials.size(), b->trials.size());
  for (size_t i = 0; i < a->trials.size(); ++i)
    EXPECT_EQ(a->trials[i].index, b->trials[i].index);

  // Random search trains nothing.
  options.kind = TunerKind::Random;
  llvm::Expected<TuningResult> r = tune(space, options);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->trainings, 0u);
  EXPECT_TRUE(r->predictionSpread.empty());
  EXPECT_EQ(r->featureSeconds, 0.0);
}

TEST(TunerTest, AutoTVMBeatsRandomOnAverage) {
  // Trials to the optimum, summed over seeds: the model-based tuner needs
  // fewer than uniform sampling on a space with one valid cluster.
  TabulatedSpace space = makeSquareSpace(30, 30, 8, 20);
  double optimum = Inf;
  for (double c : space.getCosts())
    optimum = std::min(optimum, c);
  auto total = [&](TunerKind kind) {
    unsigned sum = 0;
    for (uint64_t seed = 0; seed < 4; ++seed) {
      TunerOptions options;
      options.kind = kind;
      options.trials = 600;
      options.epochSize = 25;
      options.presamples = 200;
      options.seed = seed;
      llvm::Expected<TuningResult> result = tune(space, options);
      EXPECT_TRUE(bool(result));
      if (!result) {
        llvm::consumeError(result.takeError());
        return 0u;
      }
      sum += trialsToReach(*result, optimum).value_or(601);
    }
    return sum;
  };
  unsigned random = total(TunerKind::Random);
  EXPECT_LT(total(TunerKind::AutoTVM), random);
  EXPECT_LT(total(TunerKind::Validity), random);
}

TEST(GroundTruthTest, ComputesSavesAndLoads) {
  TabulatedSpace space = makeSquareSpace(4, 5, 1, 2);
  uint64_t calls = 0;
  GroundTruth truth = computeGroundTruth(
      space, [&](uint64_t done, uint64_t total, uint64_t) {
        ++calls;
        EXPECT_LE(done, total);
      },
      8);
  EXPECT_EQ(calls, 3u);
  EXPECT_EQ(truth.numValid(), 4u);
  EXPECT_EQ(truth.checks, 20u);
  EXPECT_EQ(truth.measurements, 4u);
  EXPECT_DOUBLE_EQ(truth.optimum(), 100.0 - 2 - 4);
  llvm::SmallString<64> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("truth", "txt", path));
  ASSERT_FALSE(bool(saveGroundTruth(path, "key 1", truth)));
  auto loaded = loadGroundTruth(path, "key 1", space.size());
  ASSERT_TRUE(bool(loaded));
  ASSERT_TRUE(loaded->has_value());
  EXPECT_EQ((*loaded)->costs, truth.costs);
  EXPECT_EQ((*loaded)->checkValid, truth.checkValid);
  // Another key or size: not this table.
  auto other = loadGroundTruth(path, "key 2", space.size());
  ASSERT_TRUE(bool(other));
  EXPECT_FALSE(other->has_value());
  auto wrongSize = loadGroundTruth(path, "key 1", 7);
  ASSERT_TRUE(bool(wrongSize));
  EXPECT_FALSE(wrongSize->has_value());
  llvm::sys::fs::remove(path);
}

} // namespace
