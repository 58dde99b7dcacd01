//===- XGBoostModel.h - Gradient-boosted cost model -------------*- C++ -*-===//
//
// Owning wrappers over the XGBoost C API: dense data matrices and a booster
// that is configured, trained, queried and serialised. The tuner uses it as a
// learned cost model (typically with a ranking objective).
//
// Every XGBoost call is checked; a failure comes back as an llvm::Error
// carrying XGBoost's message (XGBGetLastError). XGBoost validates most
// parameters lazily, when training starts, so an invalid parameter is
// usually reported by train() rather than setParam().
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_XGBOOSTMODEL_H
#define RAF_TUNING_XGBOOSTMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace raf {
namespace tuning {

/// A dense matrix of float features (XGBoost's DMatrix) with optional labels,
/// weights and ranking groups. XGBoost copies the values, so the caller's
/// buffer need not outlive it.
class XGBoostDMatrix {
public:
  /// Creates a NumRows x NumCols matrix from Values in row-major order.
  /// Entries equal to Missing (NaN by default) are treated as absent.
  static llvm::Expected<XGBoostDMatrix>
  fromDense(llvm::ArrayRef<float> Values, uint64_t NumRows, uint64_t NumCols,
            float Missing = std::numeric_limits<float>::quiet_NaN());

  XGBoostDMatrix(XGBoostDMatrix &&Other) noexcept;
  XGBoostDMatrix &operator=(XGBoostDMatrix &&Other) noexcept;
  XGBoostDMatrix(const XGBoostDMatrix &) = delete;
  XGBoostDMatrix &operator=(const XGBoostDMatrix &) = delete;
  ~XGBoostDMatrix();

  /// Sets the training target of every row.
  llvm::Error setLabels(llvm::ArrayRef<float> Labels);
  /// Sets a base margin for every row: training and prediction start from
  /// it instead of the global bias (XGBoost's "base_margin").
  llvm::Error setBaseMargin(llvm::ArrayRef<float> Margins);
  /// Sets a weight for every row (every group, for ranking objectives).
  llvm::Error setWeights(llvm::ArrayRef<float> Weights);
  /// Partitions the rows into query groups for ranking objectives: the sizes
  /// of consecutive runs of rows, summing to the number of rows.
  llvm::Error setGroups(llvm::ArrayRef<unsigned> GroupSizes);

  uint64_t getNumRows() const { return NumRows; }
  uint64_t getNumCols() const { return NumCols; }
  /// The underlying DMatrixHandle.
  void *getHandle() const { return Handle; }

private:
  XGBoostDMatrix(void *Handle, uint64_t NumRows, uint64_t NumCols)
      : Handle(Handle), NumRows(NumRows), NumCols(NumCols) {}

  void *Handle = nullptr;
  uint64_t NumRows = 0;
  uint64_t NumCols = 0;
};

/// Serialisation formats of a trained model. Both keep the full model,
/// including its objective, and are read back by the load functions without
/// being told which one they get.
enum class XGBoostModelFormat {
  /// Human-readable JSON.
  Json,
  /// Universal Binary JSON: smaller, and floats are stored bit-exactly.
  UBJson,
};

/// An XGBoost booster.
class XGBoostModel {
public:
  /// Creates an untrained model with XGBoost's default parameters.
  static llvm::Expected<XGBoostModel> create();
  /// Reads a model produced by saveToBuffer() in either format.
  static llvm::Expected<XGBoostModel> loadFromBuffer(llvm::ArrayRef<char> Data);
  /// Reads a model written by saveToFile() in either format.
  static llvm::Expected<XGBoostModel> loadFromFile(llvm::StringRef Path);

  XGBoostModel(XGBoostModel &&Other) noexcept;
  XGBoostModel &operator=(XGBoostModel &&Other) noexcept;
  XGBoostModel(const XGBoostModel &) = delete;
  XGBoostModel &operator=(const XGBoostModel &) = delete;
  ~XGBoostModel();

  /// Sets one XGBoost parameter, e.g. ("objective", "rank:pairwise").
  llvm::Error setParam(llvm::StringRef Name, llvm::StringRef Value);
  /// Sets parameters in order; stops at the first failure.
  llvm::Error
  setParams(llvm::ArrayRef<std::pair<llvm::StringRef, llvm::StringRef>> Params);

  /// Runs NumRounds boosting rounds on Train, which must have labels (and
  /// groups, for ranking objectives). Training continues after the rounds
  /// the model already has, including those of a loaded model.
  llvm::Error train(const XGBoostDMatrix &Train, unsigned Rounds);

  /// Predicts one value per row of Data with all trained rounds. For ranking
  /// objectives only the order of the values within a group is meaningful.
  llvm::Expected<std::vector<float>> predict(const XGBoostDMatrix &Data) const;

  /// Returns the number of boosting rounds trained so far (for a loaded
  /// model, including those trained before it was saved).
  unsigned getNumRounds() const { return NumRounds; }
  /// Returns the number of features the model was trained on; fails for a
  /// model that has not been trained or loaded.
  llvm::Expected<uint64_t> getNumFeatures() const;

  llvm::Expected<std::vector<char>>
  saveToBuffer(XGBoostModelFormat Format = XGBoostModelFormat::UBJson) const;
  llvm::Error
  saveToFile(llvm::StringRef Path,
             XGBoostModelFormat Format = XGBoostModelFormat::UBJson) const;

  /// The underlying BoosterHandle.
  void *getHandle() const { return Handle; }

private:
  explicit XGBoostModel(void *Handle) : Handle(Handle) {}

  void *Handle = nullptr;
  /// Kept here because XGBoost can only report it once the booster has been
  /// configured with data, which a fresh booster has not.
  unsigned NumRounds = 0;
};

/// Returns the version of the XGBoost library in use, e.g. "1.7.4".
std::string getXGBoostVersion();

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_XGBOOSTMODEL_H
