//===- NormalizationKernels.cpp - softmax and normalisation layers --------===//
//
// softmax and log_softmax (subtracting the maximum first, so large logits do
// not overflow), layer_norm and batch_norm (inference and training forms).
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

/// A tensor seen as [outer, size, inner] around one axis: lane (o, i) is the
/// `size` elements that differ only in that axis.
struct AxisView {
  AxisView(ArrayRef<int64_t> shape, int64_t axis) : size(shape[axis]) {
    for (int64_t d = 0; d < axis; ++d)
      outer *= shape[d];
    for (int64_t d = axis + 1, e = shape.size(); d < e; ++d)
      inner *= shape[d];
  }
  int64_t offset(int64_t o, int64_t j, int64_t i) const {
    return (o * size + j) * inner + i;
  }
  int64_t outer = 1, size, inner = 1;
};

/// softmax (log = false) or log_softmax (log = true) along `axis`.
LogicalResult runSoftmax(Operation *op, const HostTensor &x, int64_t axis,
                         bool log, Results &results) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  HostTensor out(*dtype, x.getShape());
  AxisView view(x.getShape(), normalizeAxis(axis, x.getRank()));
  for (int64_t o = 0; o < view.outer; ++o)
    for (int64_t i = 0; i < view.inner; ++i) {
      double maximum = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < view.size; ++j)
        maximum = std::max(maximum, x.getDouble(view.offset(o, j, i)));
      // All -inf lanes: keep the shift finite so exp(x - shift) is 0 and
      // the result is NaN as in PyTorch, not an accidental inf - inf.
      double shift = std::isfinite(maximum) ? maximum : 0.0;
      double sum = 0.0;
      for (int64_t j = 0; j < view.size; ++j)
        sum += std::exp(x.getDouble(view.offset(o, j, i)) - shift);
      double logSum = std::log(sum);
      for (int64_t j = 0; j < view.size; ++j) {
        int64_t index = view.offset(o, j, i);
        double shifted = x.getDouble(index) - shift;
        out.setDouble(index, log ? shifted - logSum : std::exp(shifted) / sum);
      }
    }
  results.push_back(std::move(out));
  return success();
}

/// Checks that a per-channel parameter has `size` elements at run time.
LogicalResult checkChannelParam(Operation *op, llvm::StringRef name,
                                const HostTensor &param, int64_t size) {
  if (param.getShape()[0] == size)
    return success();
  return op->emitOpError() << name << " has " << param.getShape()[0]
                           << " elements but the "
                           << "normalised axis has size " << size
                           << " at run time";
}

LogicalResult runLayerNorm(relay::LayerNormOp op, KernelOperands in,
                           Results &results) {
  const HostTensor &x = *in[0], &gamma = *in[1], &beta = *in[2];
  AxisView view(x.getShape(), normalizeAxis(op.getAxis(), x.getRank()));
  if (failed(checkChannelParam(op, "gamma", gamma, view.size)) ||
      failed(checkChannelParam(op, "beta", beta, view.size)))
    return failure();
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  double epsilon = op.getEpsilon().convertToDouble();
  HostTensor out(*dtype, x.getShape());
  for (int64_t o = 0; o < view.outer; ++o)
    for (int64_t i = 0; i < view.inner; ++i) {
      double mean = 0.0, variance = 0.0;
      for (int64_t j = 0; j < view.size; ++j)
        mean += x.getDouble(view.offset(o, j, i));
      mean /= view.size;
      for (int64_t j = 0; j < view.size; ++j) {
        double d = x.getDouble(view.offset(o, j, i)) - mean;
        variance += d * d;
      }
      variance /= view.size; // biased, as PyTorch's layer_norm
      double invStd = 1.0 / std::sqrt(variance + epsilon);
      for (int64_t j = 0; j < view.size; ++j) {
        int64_t index = view.offset(o, j, i);
        double y = (x.getDouble(index) - mean) * invStd;
        if (op.getScale())
          y *= gamma.getDouble(j);
        if (op.getCenter())
          y += beta.getDouble(j);
        out.setDouble(index, y);
      }
    }
  results.push_back(std::move(out));
  return success();
}

/// Results: normalised x, new moving mean, new moving variance.
LogicalResult runBatchNorm(relay::BatchNormOp op, KernelOperands in,
                           Results &results) {
  const HostTensor &x = *in[0], &gamma = *in[1], &beta = *in[2];
  const HostTensor &movingMean = *in[3], &movingVar = *in[4];
  AxisView view(x.getShape(), normalizeAxis(op.getAxis(), x.getRank()));
  int64_t channels = view.size;
  const char *names[] = {"gamma", "beta", "moving_mean", "moving_var"};
  for (int p = 0; p < 4; ++p)
    if (failed(checkChannelParam(op, names[p], *in[1 + p], channels)))
      return failure();
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  int64_t count = view.outer * view.inner;
  bool training = op.getTraining();
  if (training && count < 2)
    return op.emitOpError("training needs more than one value per channel "
                          "to estimate the unbiased variance, got ")
           << count << " (as PyTorch)";
  double epsilon = op.getEpsilon().convertToDouble();
  double momentum = op.getMomentum().convertToDouble();
  HostTensor out(*dtype, x.getShape());
  HostTensor newMean(*dtype, {channels}), newVar(*dtype, {channels});
  for (int64_t c = 0; c < channels; ++c) {
    double mean = movingMean.getDouble(c), variance = movingVar.getDouble(c);
    if (training) {
      double sum = 0.0, squares = 0.0;
      for (int64_t o = 0; o < view.outer; ++o)
        for (int64_t i = 0; i < view.inner; ++i)
          sum += x.getDouble(view.offset(o, c, i));
      mean = sum / count;
      for (int64_t o = 0; o < view.outer; ++o)
        for (int64_t i = 0; i < view.inner; ++i) {
          double d = x.getDouble(view.offset(o, c, i)) - mean;
          squares += d * d;
        }
      // The batch is normalised with the biased variance; the moving
      // statistic is updated with the unbiased one (PyTorch).
      variance = squares / count;
      double unbiased = squares / (count - 1);
      newMean.setDouble(c, (1.0 - momentum) * movingMean.getDouble(c) +
                               momentum * mean);
      newVar.setDouble(c, (1.0 - momentum) * movingVar.getDouble(c) +
                              momentum * unbiased);
    } else {
      newMean.setDouble(c, movingMean.getDouble(c));
      newVar.setDouble(c, movingVar.getDouble(c));
    }
    double invStd = 1.0 / std::sqrt(variance + epsilon);
    for (int64_t o = 0; o < view.outer; ++o)
      for (int64_t i = 0; i < view.inner; ++i) {
        int64_t index = view.offset(o, c, i);
        double y = (x.getDouble(index) - mean) * invStd;
        if (op.getScale())
          y *= gamma.getDouble(c);
        if (op.getCenter())
          y += beta.getDouble(c);
        out.setDouble(index, y);
      }
  }
  results.push_back(std::move(out));
  results.push_back(std::move(newMean));
  results.push_back(std::move(newVar));
  return success();
}

} // namespace

void raf::runtime::addNormalizationKernels(KernelRegistry &registry) {
  registry.add<relay::SoftmaxOp>(
      [](relay::SoftmaxOp op, KernelOperands in, Results &results) {
        return runSoftmax(op, *in[0], op.getAxis(), /*log=*/false, results);
      });
  registry.add<relay::LogSoftmaxOp>(
      [](relay::LogSoftmaxOp op, KernelOperands in, Results &results) {
        return runSoftmax(op, *in[0], op.getAxis(), /*log=*/true, results);
      });
  registry.add<relay::LayerNormOp>(runLayerNorm);
  registry.add<relay::BatchNormOp>(runBatchNorm);
}
