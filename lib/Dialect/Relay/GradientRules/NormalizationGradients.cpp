//===- NormalizationGradients.cpp - softmax, layer and batch norm ---------===//
//
// The normalisations differentiate into reductions and broadcasting
// arithmetic. Layer and batch normalisation recompute the statistics of
// their input (mean and variance are internal to the forward operator, as in
// RAF's fused batch_norm_train_dxwb kernels) and keep x alive.
//
//===----------------------------------------------------------------------===//

#include "AdjointBuilder.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

LogicalResult grad::adjoint(SoftmaxOp op, AdjointBuilder &ad) {
  // dx = y * (dy - sum(dy * y)) along the axis.
  Value y = op.getResult(), dy = ad.resultGradient(0);
  int64_t axis = normalizeAxis(op.getAxis(), tensorType(y).getRank());
  Value inner = ad.sum(ad.mul(dy, y), {axis}, /*keepdims=*/true);
  ad.setOperandGradient(0, ad.mul(y, ad.sub(dy, inner)));
  return success();
}

LogicalResult grad::adjoint(LogSoftmaxOp op, AdjointBuilder &ad) {
  // dx = dy - exp(y) * sum(dy) along the axis.
  Value y = op.getResult(), dy = ad.resultGradient(0);
  int64_t axis = normalizeAxis(op.getAxis(), tensorType(y).getRank());
  Value total = ad.sum(dy, {axis}, /*keepdims=*/true);
  Value softmax = ExpOp::create(ad.builder(), ad.getLoc(), y);
  ad.setOperandGradient(0, ad.sub(dy, ad.mul(softmax, total)));
  return success();
}

namespace {
/// Whether `value` converts to `elementType` without rounding or overflow.
bool isExactValueOf(double value, Type elementType) {
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType)
    return false;
  llvm::APFloat converted(value);
  bool losesInfo = false;
  llvm::APFloat::opStatus status =
      converted.convert(floatType.getFloatSemantics(),
                        llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return status == llvm::APFloat::opOK && !losesInfo;
}

/// The statistics of x over `axes` (kept as size-1 dimensions): x minus its
/// mean, and the reciprocal standard deviation `rstd`.
struct Statistics {
  Value centered, rstd;
};

/// Marks the relay.mean computing `value` as a statistic over the batch
/// (`raf.batch_stat`) when `batchStat` is set: a data-parallel program
/// takes it over the global batch (SyncBatchNorm, docs/data-parallel.md).
Value markBatchStat(Value value, bool batchStat) {
  if (auto mean = value.getDefiningOp<MeanOp>(); mean && batchStat)
    mean->setAttr(kBatchStatAttr, UnitAttr::get(mean.getContext()));
  return value;
}

Statistics statistics(AdjointBuilder &ad, Value x, ArrayRef<int64_t> axes,
                      double epsilon, bool batchStat = false) {
  Value centered = ad.sub(
      x, markBatchStat(ad.mean(x, axes, /*keepdims=*/true), batchStat));
  Value variance = markBatchStat(
      ad.mean(ad.mul(centered, centered), axes, true), batchStat);
  Value rstd = RsqrtOp::create(ad.builder(), ad.getLoc(),
                               ad.add(variance, ad.scalarLike(epsilon, x)));
  return {centered, rstd};
}

/// Input gradient of y = xhat = centered * rstd (statistics over `axes`)
/// given the gradient `dxhat` of xhat:
///   dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)).
Value normalizedInputGradient(AdjointBuilder &ad, Value xhat, Value rstd,
                              Value dxhat, ArrayRef<int64_t> axes) {
  Value meanGrad = ad.mean(dxhat, axes, /*keepdims=*/true);
  Value meanProjection = ad.mean(ad.mul(dxhat, xhat), axes, true);
  return ad.mul(rstd,
                ad.sub(ad.sub(dxhat, meanGrad), ad.mul(xhat, meanProjection)));
}

/// A per-channel vector [C] shaped to broadcast along `axis` of a rank-r
/// tensor.
Value alongAxis(AdjointBuilder &ad, Value vector, int64_t axis, int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = tensorType(vector).getDimSize(0);
  return ad.reshape(vector, shape);
}

} // namespace

LogicalResult grad::adjoint(LayerNormOp op, AdjointBuilder &ad) {
  Value x = op.getX(), dy = ad.resultGradient(0);
  int64_t rank = tensorType(x).getRank();
  int64_t axis = normalizeAxis(op.getAxis(), rank);
  Statistics stats =
      statistics(ad, x, {axis}, op.getEpsilon().convertToDouble());
  Value xhat = ad.mul(stats.centered, stats.rstd);
  Value dxhat =
      op.getScale() ? ad.mul(dy, alongAxis(ad, op.getGamma(), axis, rank)) : dy;
  ad.setOperandGradient(
      0, normalizedInputGradient(ad, xhat, stats.rstd, dxhat, {axis}));
  SmallVector<int64_t> others = allAxesBut(axis, rank);
  if (op.getScale() && ad.wantsGradient(1))
    ad.setOperandGradient(1, ad.sum(ad.mul(dy, xhat), others, false));
  if (op.getCenter() && ad.wantsGradient(2))
    ad.setOperandGradient(2, ad.sum(dy, others, false));
  return success();
}

LogicalResult grad::adjoint(BatchNormOp op, AdjointBuilder &ad) {
  // The updated moving statistics are state, not part of what is learned.
  if (ad.hasResultGradient(1) || ad.hasResultGradient(2)) {
    ad.emitError() << "has no gradient through its updated moving mean and "
                      "variance";
    return failure();
  }
  Value x = op.getX(), dy = ad.resultGradient(0);
  int64_t rank = tensorType(x).getRank();
  int64_t axis = normalizeAxis(op.getAxis(), rank);
  SmallVector<int64_t> others = allAxesBut(axis, rank);
  double epsilon = op.getEpsilon().convertToDouble();
  Value gamma =
      op.getScale() ? alongAxis(ad, op.getGamma(), axis, rank) : Value();

  if (op.getTraining()) {
    if (failed(ad.requireStaticShape(x)))
      return failure();
    RankedTensorType type = tensorType(x);
    // With c = x - mean(x), xhat = c * rstd, and gamma and rstd constant
    // per channel, normalizedInputGradient() of dxhat = gamma * dy is
    //   dx = gamma * rstd * (dy - mean(dy) - c * rstd^2 * mean(dy * c)),
    // and dgamma = sum(dy * xhat) = rstd * sum(dy * c), dbeta = sum(dy):
    // per channel the sums of dy and of dy * (x - mean), then one
    // elementwise pass with per-channel coefficients, as PyTorch's CPU
    // kernel (batch_norm_backward_cpu_template, aten/src/ATen/native/
    // Normalization.cpp). The tensor-sized values are dy, c and dy * c; no
    // dxhat, xhat or their products are materialised for the reductions.
    // The four means over the batch are marked, so that a data-parallel
    // program can take them over the global batch (PyTorch's SyncBatchNorm
    // all-reduces the same per-channel sums of its backward).
    Statistics stats = statistics(ad, x, others, epsilon, /*batchStat=*/true);
    Value rstd = stats.rstd;
    Value projection = ad.mul(dy, stats.centered);
    Value meanGrad =
        markBatchStat(ad.mean(dy, others, /*keepdims=*/true), true);
    Value meanProjection =
        markBatchStat(ad.mean(projection, others, /*keepdims=*/true), true);
    Value slope = ad.mul(ad.mul(rstd, rstd), meanProjection);
    Value coefficient = gamma ? ad.mul(gamma, rstd) : rstd;
    ad.setOperandGradient(
        0, ad.mul(coefficient, ad.sub(ad.sub(dy, meanGrad),
                                      ad.mul(stats.centered, slope))));
    // dgamma and dbeta are the count n of values per channel times the
    // same two means: the sums, without two more passes over dy and
    // dy * c. A data-parallel program averages parameter gradients over
    // the ranks, and the average of the ranks' sums is n times the global
    // mean it all-reduced, so they stay exact there too. Where n is no
    // value of the element type (f16 ends at 65504, bf16 is inexact above
    // 256), the constant n would be inf or rounded: then the sums.
    int64_t channels = type.getDimSize(axis);
    double count = 1;
    for (int64_t other : others)
      count *= type.getDimSize(other);
    bool countIsExact = isExactValueOf(count, type.getElementType());
    if (gamma && ad.wantsGradient(1))
      ad.setOperandGradient(
          1, countIsExact
                 ? ad.scale(ad.reshape(ad.mul(meanProjection, rstd),
                                       {channels}),
                            count)
                 : ad.reshape(ad.mul(ad.sum(projection, others,
                                            /*keepdims=*/true),
                                     rstd),
                              {channels}));
    if (op.getCenter() && ad.wantsGradient(2))
      ad.setOperandGradient(
          2, countIsExact ? ad.scale(ad.reshape(meanGrad, {channels}), count)
                          : ad.sum(dy, others, /*keepdims=*/false));
    return success();
  }

  // Inference: the moving statistics normalise; x enters linearly.
  Value dxhat = gamma ? ad.mul(dy, gamma) : dy;
  Value mean = alongAxis(ad, op.getMovingMean(), axis, rank);
  Value var = alongAxis(ad, op.getMovingVar(), axis, rank);
  Value rstd = RsqrtOp::create(ad.builder(), ad.getLoc(),
                               ad.add(var, ad.scalarLike(epsilon, x)));
  Value centered = ad.sub(x, mean);
  ad.setOperandGradient(0, ad.mul(dxhat, rstd));
  if (ad.wantsGradient(3))
    ad.setOperandGradient(
        3, ad.neg(ad.sum(ad.mul(dxhat, rstd), others, false)));
  if (ad.wantsGradient(4)) {
    // d rstd / d var = -rstd^3 / 2.
    Value cube = ad.mul(ad.mul(rstd, rstd), rstd);
    ad.setOperandGradient(
        4, ad.sum(ad.mul(ad.mul(dxhat, centered), ad.scale(cube, -0.5)),
                  others, false));
  }
  if (gamma && ad.wantsGradient(1))
    ad.setOperandGradient(
        1, ad.sum(ad.mul(dy, ad.mul(centered, rstd)), others, false));
  if (op.getCenter() && ad.wantsGradient(2))
    ad.setOperandGradient(2, ad.sum(dy, others, false));
  return success();
}
