//===- XGBoostModel.cpp - Gradient-boosted cost model ---------------------===//

#include "raf/Tuning/XGBoostModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <xgboost/c_api.h>

using namespace raf::tuning;
using llvm::ArrayRef;
using llvm::StringRef;

/// Builds an error for a failed XGBoost call from What and XGBoost's own
/// message. XGBoost appends a native stack trace to its messages; that says
/// nothing to the user of a cost model and is dropped.
static llvm::Error xgbError(const llvm::Twine &What) {
  StringRef Message = XGBGetLastError();
  size_t Trace = Message.find("Stack trace:");
  if (Trace != StringRef::npos)
    Message = Message.take_front(Trace);
  Message = Message.trim();
  if (Message.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   What + ": XGBoost reported no message");
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 What + ": " + Message);
}

static llvm::Error makeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

//===----------------------------------------------------------------------===//
// XGBoostDMatrix
//===----------------------------------------------------------------------===//

llvm::Expected<XGBoostDMatrix> XGBoostDMatrix::fromDense(ArrayRef<float> Values,
                                                         uint64_t NumRows,
                                                         uint64_t NumCols,
                                                         float Missing) {
  // Guard the product against overflow before comparing it with the size.
  if (NumCols != 0 && NumRows > Values.size() / NumCols)
    return makeError("dense matrix: " + llvm::Twine(Values.size()) +
                     " values cannot hold " + llvm::Twine(NumRows) + " x " +
                     llvm::Twine(NumCols) + " entries");
  if (Values.size() != NumRows * NumCols)
    return makeError("dense matrix: " + llvm::Twine(Values.size()) +
                     " values for " + llvm::Twine(NumRows) + " x " +
                     llvm::Twine(NumCols) + " entries");
  DMatrixHandle Handle = nullptr;
  if (XGDMatrixCreateFromMat(Values.data(), NumRows, NumCols, Missing,
                             &Handle) != 0)
    return xgbError("cannot create a dense matrix");
  return XGBoostDMatrix(Handle, NumRows, NumCols);
}

XGBoostDMatrix::XGBoostDMatrix(XGBoostDMatrix &&Other) noexcept
    : Handle(std::exchange(Other.Handle, nullptr)), NumRows(Other.NumRows),
      NumCols(Other.NumCols) {}

XGBoostDMatrix &XGBoostDMatrix::operator=(XGBoostDMatrix &&Other) noexcept {
  std::swap(Handle, Other.Handle);
  std::swap(NumRows, Other.NumRows);
  std::swap(NumCols, Other.NumCols);
  return *this;
}

XGBoostDMatrix::~XGBoostDMatrix() {
  // Freeing only fails for an invalid handle, and a destructor has nobody to
  // report to.
  if (Handle)
    XGDMatrixFree(Handle);
}

llvm::Error XGBoostDMatrix::setLabels(ArrayRef<float> Labels) {
  // XGBoost would only notice a size mismatch when training starts.
  if (Labels.size() != NumRows)
    return makeError(llvm::Twine(Labels.size()) + " labels for " +
                     llvm::Twine(NumRows) + " rows");
  if (XGDMatrixSetFloatInfo(Handle, "label", Labels.data(), Labels.size()) != 0)
    return xgbError("cannot set labels");
  return llvm::Error::success();
}

llvm::Error XGBoostDMatrix::setBaseMargin(ArrayRef<float> Margins) {
  if (Margins.size() != NumRows)
    return makeError(llvm::Twine(Margins.size()) + " base margins for " +
                     llvm::Twine(NumRows) + " rows");
  if (XGDMatrixSetFloatInfo(Handle, "base_margin", Margins.data(),
                            Margins.size()) != 0)
    return xgbError("cannot set base margins");
  return llvm::Error::success();
}

llvm::Error XGBoostDMatrix::setWeights(ArrayRef<float> Weights) {
  if (XGDMatrixSetFloatInfo(Handle, "weight", Weights.data(), Weights.size()) !=
      0)
    return xgbError("cannot set weights");
  return llvm::Error::success();
}

llvm::Error XGBoostDMatrix::setGroups(ArrayRef<unsigned> GroupSizes) {
  uint64_t Total = 0;
  for (unsigned Size : GroupSizes)
    Total += Size;
  if (Total != NumRows)
    return makeError("group sizes sum to " + llvm::Twine(Total) +
                     " but the matrix has " + llvm::Twine(NumRows) + " rows");
  if (XGDMatrixSetUIntInfo(Handle, "group", GroupSizes.data(),
                           GroupSizes.size()) != 0)
    return xgbError("cannot set groups");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// XGBoostModel
//===----------------------------------------------------------------------===//

llvm::Expected<XGBoostModel> XGBoostModel::create() {
  BoosterHandle Handle = nullptr;
  // No cache matrices: XGBoost caches the training matrix on first use.
  if (XGBoosterCreate(nullptr, 0, &Handle) != 0)
    return xgbError("cannot create a booster");
  return XGBoostModel(Handle);
}

llvm::Expected<XGBoostModel> XGBoostModel::loadFromBuffer(ArrayRef<char> Data) {
  llvm::Expected<XGBoostModel> Model = create();
  if (!Model)
    return Model.takeError();
  // XGBoost tells JSON from UBJSON by the leading bytes.
  if (XGBoosterLoadModelFromBuffer(Model->Handle, Data.data(), Data.size()) !=
      0)
    return xgbError("cannot load a model");
  int Rounds = 0;
  if (XGBoosterBoostedRounds(Model->Handle, &Rounds) != 0)
    return xgbError("cannot query the rounds of a loaded model");
  Model->NumRounds = static_cast<unsigned>(Rounds);
  return Model;
}

llvm::Expected<XGBoostModel> XGBoostModel::loadFromFile(StringRef Path) {
  // XGBoosterLoadModel picks the format from the file name; reading the bytes
  // here lets the content decide, matching loadFromBuffer.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> File =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!File)
    return makeError("cannot read model file '" + Path +
                     "': " + File.getError().message());
  StringRef Bytes = (*File)->getBuffer();
  llvm::Expected<XGBoostModel> Model =
      loadFromBuffer(ArrayRef<char>(Bytes.data(), Bytes.size()));
  if (!Model)
    return makeError("model file '" + Path +
                     "': " + llvm::toString(Model.takeError()));
  return Model;
}

XGBoostModel::XGBoostModel(XGBoostModel &&Other) noexcept
    : Handle(std::exchange(Other.Handle, nullptr)), NumRounds(Other.NumRounds) {
}

XGBoostModel &XGBoostModel::operator=(XGBoostModel &&Other) noexcept {
  std::swap(Handle, Other.Handle);
  std::swap(NumRounds, Other.NumRounds);
  return *this;
}

XGBoostModel::~XGBoostModel() {
  if (Handle)
    XGBoosterFree(Handle);
}

llvm::Error XGBoostModel::setParam(StringRef Name, StringRef Value) {
  std::string NameStr = Name.str(), ValueStr = Value.str();
  if (XGBoosterSetParam(Handle, NameStr.c_str(), ValueStr.c_str()) != 0)
    return xgbError("cannot set parameter '" + Name + "' to '" + Value + "'");
  return llvm::Error::success();
}

llvm::Error
XGBoostModel::setParams(ArrayRef<std::pair<StringRef, StringRef>> Params) {
  for (const auto &[Name, Value] : Params)
    if (llvm::Error E = setParam(Name, Value))
      return E;
  return llvm::Error::success();
}

llvm::Error XGBoostModel::train(const XGBoostDMatrix &Train, unsigned Rounds) {
  // XGBoost sizes a new model from the matrices handed to XGBoosterCreate
  // and fails ("0 feature is supplied") for one created without them, as
  // create() does. Stating the feature count explicitly has the same effect
  // and lets any matrix start the training.
  if (NumRounds == 0) {
    std::string Features = std::to_string(Train.getNumCols());
    if (XGBoosterSetParam(Handle, "num_feature", Features.c_str()) != 0)
      return xgbError("cannot set the number of features");
  }
  // The iteration number seeds per-round randomness and decides whether the
  // model is configured afresh, so it must continue from the rounds already
  // in the model rather than restart at zero.
  for (unsigned Round = 0; Round != Rounds; ++Round) {
    int Iteration = static_cast<int>(NumRounds);
    if (XGBoosterUpdateOneIter(Handle, Iteration, Train.getHandle()) != 0)
      return xgbError("training round " + llvm::Twine(Iteration) + " failed");
    ++NumRounds;
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<float>>
XGBoostModel::predict(const XGBoostDMatrix &Data) const {
  bst_ulong Length = 0;
  const float *Result = nullptr;
  // Plain prediction (option mask 0) with all trees, outside training.
  if (XGBoosterPredict(Handle, Data.getHandle(), /*option_mask=*/0,
                       /*ntree_limit=*/0, /*training=*/0, &Length,
                       &Result) != 0)
    return xgbError("prediction failed");
  // The result buffer belongs to the booster and is overwritten by the next
  // call, so it is copied out.
  return std::vector<float>(Result, Result + Length);
}

llvm::Expected<uint64_t> XGBoostModel::getNumFeatures() const {
  bst_ulong Features = 0;
  if (XGBoosterGetNumFeature(Handle, &Features) != 0)
    return xgbError("cannot query the number of features");
  return static_cast<uint64_t>(Features);
}

llvm::Expected<std::vector<char>>
XGBoostModel::saveToBuffer(XGBoostModelFormat Format) const {
  const char *Config = Format == XGBoostModelFormat::Json
                           ? R"({"format": "json"})"
                           : R"({"format": "ubj"})";
  bst_ulong Length = 0;
  const char *Data = nullptr;
  if (XGBoosterSaveModelToBuffer(Handle, Config, &Length, &Data) != 0)
    return xgbError("cannot serialise the model");
  // Like predictions, the buffer is owned by the booster.
  return std::vector<char>(Data, Data + Length);
}

llvm::Error XGBoostModel::saveToFile(StringRef Path,
                                     XGBoostModelFormat Format) const {
  llvm::Expected<std::vector<char>> Bytes = saveToBuffer(Format);
  if (!Bytes)
    return Bytes.takeError();
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (EC)
    return makeError("cannot open '" + Path + "': " + EC.message());
  OS.write(Bytes->data(), Bytes->size());
  OS.close();
  if (OS.has_error()) {
    std::string Message = OS.error().message();
    OS.clear_error();
    return makeError("cannot write '" + Path + "': " + Message);
  }
  return llvm::Error::success();
}

std::string raf::tuning::getXGBoostVersion() {
  int Major = 0, Minor = 0, Patch = 0;
  XGBoostVersion(&Major, &Minor, &Patch);
  return std::to_string(Major) + "." + std::to_string(Minor) + "." +
         std::to_string(Patch);
}
