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

/// x normalised over `axes` (kept as size-1 dimensions), with the
/// reciprocal standard deviation `rstd`: the quantities every normalisation
/// gradient needs.
struct Normalized {
  Value xhat, rstd;
};

/// Marks the relay.mean computing `value` as a statistic over the batch
/// (`raf.batch_stat`) when `batchStat` is set: a data-parallel program
/// takes it over the global batch (SyncBatchNorm, docs/data-parallel.md).
Value markBatchStat(Value value, bool batchStat) {
  if (auto mean = value.getDefiningOp<MeanOp>(); mean && batchStat)
    mean->setAttr(kBatchStatAttr, UnitAttr::get(mean.getContext()));
  return value;
}

Normalized normalize(AdjointBuilder &ad, Value x, ArrayRef<int64_t> axes,
                     double epsilon, bool batchStat = false) {
  Value centered = ad.sub(
      x, markBatchStat(ad.mean(x, axes, /*keepdims=*/true), batchStat));
  Value variance = markBatchStat(
      ad.mean(ad.mul(centered, centered), axes, true), batchStat);
  Value rstd = RsqrtOp::create(ad.builder(), ad.getLoc(),
                               ad.add(variance, ad.scalarLike(epsilon, x)));
  return {ad.mul(centered, rstd), rstd};
}

/// Input gradient of y = xhat (batch statistics over `axes`) given the
/// gradient `dxhat` of xhat:
///   dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)).
Value normalizedInputGradient(AdjointBuilder &ad, Normalized n, Value dxhat,
                              ArrayRef<int64_t> axes, bool batchStat = false) {
  Value meanGrad =
      markBatchStat(ad.mean(dxhat, axes, /*keepdims=*/true), batchStat);
  Value meanProjection =
      markBatchStat(ad.mean(ad.mul(dxhat, n.xhat), axes, true), batchStat);
  return ad.mul(
      n.rstd, ad.sub(ad.sub(dxhat, meanGrad), ad.mul(n.xhat, meanProjection)));
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
  Normalized n = normalize(ad, x, {axis}, op.getEpsilon().convertToDouble());
  Value dxhat =
      op.getScale() ? ad.mul(dy, alongAxis(ad, op.getGamma(), axis, rank)) : dy;
  ad.setOperandGradient(0, normalizedInputGradient(ad, n, dxhat, {axis}));
  SmallVector<int64_t> others = allAxesBut(axis, rank);
  if (op.getScale() && ad.wantsGradient(1))
    ad.setOperandGradient(1, ad.sum(ad.mul(dy, n.xhat), others, false));
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
  Value dxhat = gamma ? ad.mul(dy, gamma) : dy;

  Normalized n;
  if (op.getTraining()) {
    // The four means over the batch are marked, so that a data-parallel
    // program can take them over the global batch (PyTorch's SyncBatchNorm
    // all-reduces the same per-channel sums of its backward).
    n = normalize(ad, x, others, epsilon, /*batchStat=*/true);
    ad.setOperandGradient(
        0, normalizedInputGradient(ad, n, dxhat, others, /*batchStat=*/true));
  } else {
    // Inference: the moving statistics normalise; x enters linearly.
    Value mean = alongAxis(ad, op.getMovingMean(), axis, rank);
    Value var = alongAxis(ad, op.getMovingVar(), axis, rank);
    n.rstd = RsqrtOp::create(ad.builder(), ad.getLoc(),
                             ad.add(var, ad.scalarLike(epsilon, x)));
    Value centered = ad.sub(x, mean);
    n.xhat = ad.mul(centered, n.rstd);
    ad.setOperandGradient(0, ad.mul(dxhat, n.rstd));
    if (ad.wantsGradient(3))
      ad.setOperandGradient(
          3, ad.neg(ad.sum(ad.mul(dxhat, n.rstd), others, false)));
    if (ad.wantsGradient(4)) {
      // d rstd / d var = -rstd^3 / 2.
      Value cube = ad.mul(ad.mul(n.rstd, n.rstd), n.rstd);
      ad.setOperandGradient(
          4, ad.sum(ad.mul(ad.mul(dxhat, centered), ad.scale(cube, -0.5)),
                    others, false));
    }
  }
  if (gamma && ad.wantsGradient(1))
    ad.setOperandGradient(1, ad.sum(ad.mul(dy, n.xhat), others, false));
  if (op.getCenter() && ad.wantsGradient(2))
    ad.setOperandGradient(2, ad.sum(dy, others, false));
  return success();
}
