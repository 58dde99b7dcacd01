//===- XGBoostModelTest.cpp - Tests for the XGBoost wrapper ---------------===//

#include "raf/Tuning/XGBoostModel.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace raf::tuning;

namespace {

/// Fails the test with the error's message if E is an error.
#define ASSERT_NO_ERROR(E)                                                     \
  do {                                                                         \
    if (llvm::Error Err = (E))                                                 \
      FAIL() << llvm::toString(std::move(Err));                                \
  } while (false)

/// Unwraps an Expected, failing the test with its message on error.
#define ASSERT_EXPECTED(Var, Expr)                                             \
  auto Var = (Expr);                                                           \
  if (!Var)                                                                    \
  FAIL() << llvm::toString(Var.takeError())

/// A small deterministic generator, so the data (and therefore the trained
/// model) does not depend on the standard library's distributions.
class Lcg {
public:
  explicit Lcg(uint64_t Seed) : State(Seed) {}
  /// Uniform in [-1, 1).
  float next() {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<float>((State >> 40) * 0x1.0p-24 * 2.0 - 1.0);
  }

private:
  uint64_t State;
};

constexpr unsigned NumFeatures = 4;

/// A noise-free target with linear, periodic and interaction terms.
float target(const float *X) {
  return 3 * X[0] - 2 * X[1] + std::sin(4 * X[2]) + X[0] * X[3];
}

struct Dataset {
  std::vector<float> Features;
  std::vector<float> Targets;
};

Dataset makeDataset(unsigned Rows, uint64_t Seed) {
  Lcg Rng(Seed);
  Dataset D;
  for (unsigned R = 0; R < Rows; ++R) {
    for (unsigned C = 0; C < NumFeatures; ++C)
      D.Features.push_back(Rng.next());
    D.Targets.push_back(target(&D.Features[R * NumFeatures]));
  }
  return D;
}

double rmse(const std::vector<float> &Predicted,
            const std::vector<float> &Actual) {
  double Sum = 0;
  for (size_t I = 0; I < Actual.size(); ++I)
    Sum += (Predicted[I] - Actual[I]) * (Predicted[I] - Actual[I]);
  return std::sqrt(Sum / Actual.size());
}

constexpr unsigned TrainRows = 800;

/// Trains a regressor on TrainRows rows; shared by several tests.
llvm::Expected<XGBoostModel> trainRegressor(unsigned Rounds) {
  Dataset Train = makeDataset(TrainRows, 1);
  auto Matrix =
      XGBoostDMatrix::fromDense(Train.Features, TrainRows, NumFeatures);
  if (!Matrix)
    return Matrix.takeError();
  if (llvm::Error E = Matrix->setLabels(Train.Targets))
    return std::move(E);
  auto Model = XGBoostModel::create();
  if (!Model)
    return Model.takeError();
  if (llvm::Error E = Model->setParams({{"objective", "reg:squarederror"},
                                        {"max_depth", "4"},
                                        {"eta", "0.1"},
                                        {"seed", "0"},
                                        {"nthread", "1"}}))
    return std::move(E);
  if (llvm::Error E = Model->train(*Matrix, Rounds))
    return std::move(E);
  return Model;
}

TEST(XGBoostModelTest, Version) {
  EXPECT_EQ(getXGBoostVersion().rfind("1.", 0), 0u) << getXGBoostVersion();
}

TEST(XGBoostModelTest, RegressionBeatsConstantPredictor) {
  ASSERT_EXPECTED(Model, trainRegressor(300));
  EXPECT_EQ(Model->getNumRounds(), 300u);
  ASSERT_EXPECTED(Features, Model->getNumFeatures());
  EXPECT_EQ(*Features, NumFeatures);

  Dataset Train = makeDataset(TrainRows, 1);
  Dataset Test = makeDataset(200, 2);
  ASSERT_EXPECTED(TestMatrix,
                  XGBoostDMatrix::fromDense(Test.Features, 200, NumFeatures));
  ASSERT_EXPECTED(Predicted, Model->predict(*TestMatrix));
  ASSERT_EQ(Predicted->size(), 200u);

  // The best constant predictor, fitted on the training set.
  float Mean =
      std::accumulate(Train.Targets.begin(), Train.Targets.end(), 0.0f) /
      Train.Targets.size();
  std::vector<float> Constant(Test.Targets.size(), Mean);
  double ConstantRmse = rmse(Constant, Test.Targets);
  double ModelRmse = rmse(*Predicted, Test.Targets);
  EXPECT_LT(ModelRmse * 5, ConstantRmse)
      << "model RMSE " << ModelRmse << ", constant RMSE " << ConstantRmse;
}

TEST(XGBoostModelTest, TrainingContinues) {
  // Two calls of 50 rounds give the same model as one call of 100.
  ASSERT_EXPECTED(Once, trainRegressor(100));
  ASSERT_EXPECTED(Twice, trainRegressor(50));
  Dataset Train = makeDataset(TrainRows, 1);
  ASSERT_EXPECTED(Matrix, XGBoostDMatrix::fromDense(Train.Features, TrainRows,
                                                    NumFeatures));
  ASSERT_NO_ERROR(Matrix->setLabels(Train.Targets));
  ASSERT_NO_ERROR(Twice->train(*Matrix, 50));
  EXPECT_EQ(Twice->getNumRounds(), 100u);
  ASSERT_EXPECTED(A, Once->predict(*Matrix));
  ASSERT_EXPECTED(B, Twice->predict(*Matrix));
  EXPECT_EQ(*A, *B);
}

TEST(XGBoostModelTest, SaveAndLoad) {
  ASSERT_EXPECTED(Model, trainRegressor(50));
  Dataset Test = makeDataset(100, 3);
  ASSERT_EXPECTED(Matrix,
                  XGBoostDMatrix::fromDense(Test.Features, 100, NumFeatures));
  ASSERT_EXPECTED(Reference, Model->predict(*Matrix));

  for (XGBoostModelFormat Format :
       {XGBoostModelFormat::Json, XGBoostModelFormat::UBJson}) {
    ASSERT_EXPECTED(Bytes, Model->saveToBuffer(Format));
    ASSERT_FALSE(Bytes->empty());
    ASSERT_EXPECTED(Loaded, XGBoostModel::loadFromBuffer(*Bytes));
    ASSERT_EXPECTED(Predicted, Loaded->predict(*Matrix));
    ASSERT_EQ(Predicted->size(), Reference->size());
    for (size_t I = 0; I < Reference->size(); ++I)
      EXPECT_NEAR((*Predicted)[I], (*Reference)[I], 1e-6) << "row " << I;
    EXPECT_EQ(Loaded->getNumRounds(), 50u);
  }

  llvm::SmallString<128> Path;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("raf-xgboost", "model", Path));
  ASSERT_NO_ERROR(Model->saveToFile(Path));
  auto FromFile = XGBoostModel::loadFromFile(Path);
  llvm::sys::fs::remove(Path);
  ASSERT_TRUE(static_cast<bool>(FromFile))
      << llvm::toString(FromFile.takeError());
  ASSERT_EXPECTED(Predicted, FromFile->predict(*Matrix));
  EXPECT_EQ(*Predicted, *Reference);

  std::string Message = llvm::toString(
      XGBoostModel::loadFromFile("/nonexistent/model.ubj").takeError());
  EXPECT_NE(Message.find("cannot read model file"), std::string::npos)
      << Message;
  std::vector<char> Garbage = {'n', 'o', 't', ' ', 'a', ' ', 'm', 'o', 'd'};
  Message = llvm::toString(XGBoostModel::loadFromBuffer(Garbage).takeError());
  EXPECT_NE(Message.find("cannot load a model"), std::string::npos) << Message;
}

/// Spearman rank correlation of two equally long sequences without ties.
double spearman(const std::vector<float> &A, const std::vector<float> &B) {
  auto Ranks = [](const std::vector<float> &V) {
    std::vector<size_t> Order(V.size());
    std::iota(Order.begin(), Order.end(), 0);
    std::sort(Order.begin(), Order.end(),
              [&](size_t X, size_t Y) { return V[X] < V[Y]; });
    std::vector<double> R(V.size());
    for (size_t I = 0; I < Order.size(); ++I)
      R[Order[I]] = I;
    return R;
  };
  std::vector<double> RA = Ranks(A), RB = Ranks(B);
  double N = A.size(), D2 = 0;
  for (size_t I = 0; I < A.size(); ++I)
    D2 += (RA[I] - RB[I]) * (RA[I] - RB[I]);
  return 1 - 6 * D2 / (N * (N * N - 1));
}

TEST(XGBoostModelTest, PairwiseRankingOrdersCandidates) {
  // Each group stands for one tuning task with 16 candidate configurations;
  // the label is the candidate's rank by (hidden) quality within its group,
  // which is all a ranking objective needs.
  constexpr unsigned GroupSize = 16, TrainGroups = 40, TestGroups = 10;
  auto MakeGroups = [&](unsigned Groups, uint64_t Seed, Dataset &D,
                        std::vector<float> &Labels) {
    D = makeDataset(Groups * GroupSize, Seed);
    for (unsigned G = 0; G < Groups; ++G) {
      std::vector<float> Quality(D.Targets.begin() + G * GroupSize,
                                 D.Targets.begin() + (G + 1) * GroupSize);
      for (unsigned I = 0; I < GroupSize; ++I)
        Labels.push_back(
            std::count_if(Quality.begin(), Quality.end(),
                          [&](float Q) { return Q < Quality[I]; }));
    }
  };
  Dataset Train, Test;
  std::vector<float> TrainLabels, TestLabels;
  MakeGroups(TrainGroups, 11, Train, TrainLabels);
  MakeGroups(TestGroups, 12, Test, TestLabels);

  ASSERT_EXPECTED(Matrix, XGBoostDMatrix::fromDense(Train.Features,
                                                    TrainGroups * GroupSize,
                                                    NumFeatures));
  ASSERT_NO_ERROR(Matrix->setLabels(TrainLabels));
  ASSERT_NO_ERROR(
      Matrix->setGroups(std::vector<unsigned>(TrainGroups, GroupSize)));
  ASSERT_EXPECTED(Model, XGBoostModel::create());
  ASSERT_NO_ERROR(Model->setParams({{"objective", "rank:pairwise"},
                                    {"max_depth", "4"},
                                    {"eta", "0.1"},
                                    {"seed", "0"},
                                    {"nthread", "1"}}));
  ASSERT_NO_ERROR(Model->train(*Matrix, 100));

  ASSERT_EXPECTED(TestMatrix, XGBoostDMatrix::fromDense(Test.Features,
                                                        TestGroups * GroupSize,
                                                        NumFeatures));
  ASSERT_EXPECTED(Scores, Model->predict(*TestMatrix));
  ASSERT_EQ(Scores->size(), TestGroups * GroupSize);

  double MeanCorrelation = 0;
  for (unsigned G = 0; G < TestGroups; ++G) {
    std::vector<float> Predicted(Scores->begin() + G * GroupSize,
                                 Scores->begin() + (G + 1) * GroupSize);
    std::vector<float> Truth(Test.Targets.begin() + G * GroupSize,
                             Test.Targets.begin() + (G + 1) * GroupSize);
    MeanCorrelation += spearman(Predicted, Truth) / TestGroups;
  }
  EXPECT_GT(MeanCorrelation, 0.8);
}

TEST(XGBoostModelTest, InvalidInputsAreErrors) {
  Dataset Train = makeDataset(50, 4);
  ASSERT_EXPECTED(Matrix,
                  XGBoostDMatrix::fromDense(Train.Features, 50, NumFeatures));
  ASSERT_NO_ERROR(Matrix->setLabels(Train.Targets));

  // An unknown objective is rejected when training configures the model.
  {
    ASSERT_EXPECTED(Model, XGBoostModel::create());
    llvm::Error E = Model->setParam("objective", "reg:no_such_objective");
    if (!E)
      E = Model->train(*Matrix, 1);
    ASSERT_TRUE(static_cast<bool>(E));
    std::string Message = llvm::toString(std::move(E));
    EXPECT_NE(Message.find("no_such_objective"), std::string::npos) << Message;
    EXPECT_EQ(Message.find("Stack trace"), std::string::npos) << Message;
  }
  // A malformed numeric value.
  {
    ASSERT_EXPECTED(Model, XGBoostModel::create());
    llvm::Error E = Model->setParam("max_depth", "deep");
    if (!E)
      E = Model->train(*Matrix, 1);
    ASSERT_TRUE(static_cast<bool>(E));
    std::string Message = llvm::toString(std::move(E));
    EXPECT_NE(Message.find("max_depth"), std::string::npos) << Message;
  }
  // Training without labels.
  {
    ASSERT_EXPECTED(Unlabelled,
                    XGBoostDMatrix::fromDense(Train.Features, 50, NumFeatures));
    ASSERT_EXPECTED(Model, XGBoostModel::create());
    llvm::Error E = Model->train(*Unlabelled, 1);
    ASSERT_TRUE(static_cast<bool>(E));
    std::string Message = llvm::toString(std::move(E));
    EXPECT_NE(Message.find("training round 0 failed"), std::string::npos)
        << Message;
  }
  // Predicting with more features than the model was trained on.
  {
    ASSERT_EXPECTED(Model, XGBoostModel::create());
    ASSERT_NO_ERROR(Model->setParam("nthread", "1"));
    ASSERT_NO_ERROR(Model->train(*Matrix, 2));
    std::vector<float> Wide(50 * (NumFeatures + 1), 0.5f);
    ASSERT_EXPECTED(WideMatrix,
                    XGBoostDMatrix::fromDense(Wide, 50, NumFeatures + 1));
    auto Predicted = Model->predict(*WideMatrix);
    ASSERT_FALSE(static_cast<bool>(Predicted));
    std::string Message = llvm::toString(Predicted.takeError());
    EXPECT_NE(Message.find("prediction failed"), std::string::npos) << Message;
  }
  // Shape mismatches are caught before reaching XGBoost.
  {
    auto Bad = XGBoostDMatrix::fromDense(Train.Features, 51, NumFeatures);
    ASSERT_FALSE(static_cast<bool>(Bad));
    llvm::consumeError(Bad.takeError());
    std::string Message = llvm::toString(Matrix->setLabels({1.0f, 2.0f}));
    EXPECT_NE(Message.find("2 labels for 50 rows"), std::string::npos)
        << Message;
    Message = llvm::toString(Matrix->setGroups({10, 10}));
    EXPECT_NE(Message.find("sum to 20"), std::string::npos) << Message;
  }
}

} // namespace
