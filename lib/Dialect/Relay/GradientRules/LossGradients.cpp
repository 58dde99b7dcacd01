//===- LossGradients.cpp - nll_loss and cross_entropy ---------------------===//
//
// Class-index targets become one-hot masks by comparing them with a constant
// 0..C-1 (RAF's nll_loss_dpred and cross_entropy_dpred as compositions).
// Integer targets have no gradient.
//
//===----------------------------------------------------------------------===//

#include "AdjointBuilder.h"

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

namespace {

/// one_hot[n, c, d...] = (targets[n, d...] == c) for class axis 1, in the
/// element type `element`.
Value oneHot(AdjointBuilder &ad, Value targets, int64_t classes, Type element) {
  auto type = tensorType(targets);
  SmallVector<int64_t> expanded(type.getShape());
  expanded.insert(expanded.begin() + 1, 1);
  SmallVector<int64_t> classShape(expanded.size(), 1);
  classShape[1] = classes;
  Value classIds =
      ad.constant(iota(classes), classShape, type.getElementType());
  Value equal = EqualOp::create(ad.builder(), ad.getLoc(),
                                ad.reshape(targets, expanded), classIds);
  return ad.cast(equal, element);
}

/// The per-sample factor of the loss gradient: dy itself for `none` (shaped
/// to broadcast over the class axis), dy for `sum`, dy / count for `mean`.
Value reductionScale(AdjointBuilder &ad, LossReduction reduction, Value dy,
                     Value count) {
  if (reduction == LossReduction::Sum)
    return dy;
  if (reduction == LossReduction::Mean)
    return ad.div(dy, count);
  SmallVector<int64_t> expanded(tensorType(dy).getShape());
  expanded.insert(expanded.begin() + 1, 1);
  return ad.reshape(dy, expanded);
}

} // namespace

LogicalResult grad::adjoint(NLLLossOp op, AdjointBuilder &ad) {
  // loss = -sum(w * pred[n, t[n]]) / count, w = (t != ignore_index).
  Value pred = op.getPredictions(), targets = op.getTargets();
  auto predType = tensorType(pred);
  Type element = predType.getElementType();
  Value hot = oneHot(ad, targets, predType.getDimSize(1), element);
  Type targetElement = tensorType(targets).getElementType();
  SmallVector<int64_t> expanded(tensorType(targets).getShape());
  expanded.insert(expanded.begin() + 1, 1);
  Value counted =
      ad.cast(NotEqualOp::create(
                  ad.builder(), ad.getLoc(), ad.reshape(targets, expanded),
                  ad.scalar(op.getIgnoreIndexAttr().getInt(), targetElement)),
              element);
  Value count = ad.sum(counted, iota(expanded.size()), /*keepdims=*/false);
  Value scale =
      reductionScale(ad, op.getReduction(), ad.resultGradient(0), count);
  ad.setOperandGradient(0, ad.neg(ad.mul(ad.mul(hot, counted), scale)));
  return success();
}

LogicalResult grad::adjoint(CrossEntropyOp op, AdjointBuilder &ad) {
  // loss_n = -sum_c p[n, c] log_softmax(l)[n, c]:
  //   dl = (softmax(l) * sum_c p - p) * s,  dp = -log_softmax(l) * s.
  Value logits = op.getLogits(), target = op.getTarget();
  auto logitsType = tensorType(logits);
  Type element = logitsType.getElementType();
  int64_t n = logitsType.getDimSize(0), classes = logitsType.getDimSize(1);
  bool indices = !isa<FloatType>(tensorType(target).getElementType());
  Value p = indices ? oneHot(ad, target, classes, element) : target;
  Value scale = reductionScale(ad, op.getReduction(), ad.resultGradient(0),
                               ad.scalar(n, element));
  Value softmax =
      SoftmaxOp::create(ad.builder(), ad.getLoc(), logits, /*axis=*/1);
  Value mass =
      indices ? softmax : ad.mul(softmax, ad.sum(p, {1}, /*keepdims=*/true));
  ad.setOperandGradient(0, ad.mul(ad.sub(mass, p), scale));
  if (!indices && ad.wantsGradient(1)) {
    Value logSoftmax =
        LogSoftmaxOp::create(ad.builder(), ad.getLoc(), logits, /*axis=*/1);
    ad.setOperandGradient(1, ad.neg(ad.mul(logSoftmax, scale)));
  }
  return success();
}
