//===- LossKernels.cpp - cross_entropy and nll_loss -----------------------===//
//
// PyTorch semantics: cross_entropy takes logits [N, C] and either class
// indices [N] or class probabilities [N, C]; nll_loss takes
// log-probabilities [N, C, d...] and class indices [N, d...] and skips
// `ignore_index`. A class index outside [0, C) that is not ignored is a
// run-time error, as in PyTorch (cross_entropy has no ignore_index
// attribute, so every index must be a class).
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include <cmath>
#include <limits>

using namespace raf::runtime;
using namespace raf::runtime::kernels;
namespace relay = raf::relay;

namespace {

using Results = SmallVectorImpl<HostTensor>;

/// Reduces per-sample `losses` as `reduction` says; `count` is the divisor
/// of "mean".
LogicalResult reduceLosses(Operation *op, relay::LossReduction reduction,
                           const HostTensor &losses, double count,
                           Results &results) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  if (reduction == relay::LossReduction::None) {
    HostTensor out(*dtype, losses.getShape());
    for (int64_t i = 0, e = losses.getNumElements(); i < e; ++i)
      out.setDouble(i, losses.getDouble(i));
    results.push_back(std::move(out));
    return success();
  }
  double sum = 0.0;
  for (int64_t i = 0, e = losses.getNumElements(); i < e; ++i)
    sum += losses.getDouble(i);
  HostTensor out(*dtype, {});
  // An empty mean is 0 / 0 = NaN, as in PyTorch.
  out.setDouble(0, reduction == relay::LossReduction::Mean ? sum / count : sum);
  results.push_back(std::move(out));
  return success();
}

LogicalResult runCrossEntropy(relay::CrossEntropyOp op, KernelOperands in,
                              Results &results) {
  const HostTensor &logits = *in[0], &target = *in[1];
  int64_t n = logits.getShape()[0], classes = logits.getShape()[1];
  bool indices = !isFloat(target.getDType());
  if (target.getShape()[0] != n ||
      (!indices && target.getShape()[1] != classes))
    return op.emitOpError("target ")
           << target.getTypeString() << " does not match the logits "
           << logits.getTypeString() << " at run time";
  // Per-sample losses in double; rounded once when reduced or stored.
  HostTensor losses(DType::F64, {n});
  for (int64_t s = 0; s < n; ++s) {
    double maximum = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < classes; ++c)
      maximum = std::max(maximum, logits.getDouble(s * classes + c));
    double shift = std::isfinite(maximum) ? maximum : 0.0;
    double sum = 0.0;
    for (int64_t c = 0; c < classes; ++c)
      sum += std::exp(logits.getDouble(s * classes + c) - shift);
    double logSum = std::log(sum) + shift;
    double loss = 0.0;
    if (indices) {
      int64_t label = target.getInt(s);
      if (label < 0 || label >= classes)
        return op.emitOpError("target class ")
               << label << " of sample " << s << " is out of range [0, "
               << classes << ")";
      loss = logSum - logits.getDouble(s * classes + label);
    } else {
      for (int64_t c = 0; c < classes; ++c)
        loss -= target.getDouble(s * classes + c) *
                (logits.getDouble(s * classes + c) - logSum);
    }
    losses.setDouble(s, loss);
  }
  return reduceLosses(op, op.getReduction(), losses, static_cast<double>(n),
                      results);
}

LogicalResult runNLLLoss(relay::NLLLossOp op, KernelOperands in,
                         Results &results) {
  const HostTensor &predictions = *in[0], &targets = *in[1];
  ArrayRef<int64_t> shape = predictions.getShape();
  int64_t n = shape[0], classes = shape[1];
  int64_t spatial = 1;
  for (int64_t size : shape.drop_front(2))
    spatial *= size;
  SmallVector<int64_t> expected{n};
  llvm::append_range(expected, shape.drop_front(2));
  if (!llvm::equal(targets.getShape(), expected))
    return op.emitOpError("targets ")
           << targets.getTypeString() << " do not match the predictions "
           << predictions.getTypeString() << " at run time";
  int64_t ignoreIndex = op.getIgnoreIndex();
  HostTensor losses(DType::F64, expected);
  double counted = 0.0;
  for (int64_t s = 0; s < n; ++s)
    for (int64_t p = 0; p < spatial; ++p) {
      int64_t index = s * spatial + p;
      int64_t label = targets.getInt(index);
      if (label == ignoreIndex)
        continue; // contributes 0 and is not counted
      if (label < 0 || label >= classes)
        return op.emitOpError("target class ")
               << label << " at flat index " << index << " is out of range [0, "
               << classes << ") and is not ignore_index (" << ignoreIndex
               << ")";
      losses.setDouble(
          index, -predictions.getDouble((s * classes + label) * spatial + p));
      counted += 1.0;
    }
  return reduceLosses(op, op.getReduction(), losses, counted, results);
}

} // namespace

void raf::runtime::addLossKernels(KernelRegistry &registry) {
  registry.add<relay::CrossEntropyOp>(runCrossEntropy);
  registry.add<relay::NLLLossOp>(runNLLLoss);
}
