//===- ElementwiseGradients.cpp - unary operators -------------------------===//
//
// `y = f(x)`, `dx = dy * f'(x)`. Where f' is cheaper in terms of y (relu,
// sigmoid, tanh, exp, sqrt, rsqrt) the rule reads y, so x need not stay
// alive for the backward pass (RAF paper §3.1.1; tanh uses `1 - y^2`; the
// paper's `1 - 2 × y` is a slip).
//
//===----------------------------------------------------------------------===//

#include "AdjointBuilder.h"

#include <cmath>

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

namespace {
constexpr double kPi = 3.14159265358979323846;
} // namespace

LogicalResult grad::adjoint(ReluOp op, AdjointBuilder &ad) {
  Value y = op.getResult();
  Value positive =
      GreaterOp::create(ad.builder(), ad.getLoc(), y, ad.scalarLike(0, y));
  ad.setOperandGradient(
      0, ad.select(positive, ad.resultGradient(0), ad.scalarLike(0, y)));
  return success();
}

LogicalResult grad::adjoint(LeakyReluOp op, AdjointBuilder &ad) {
  Value x = op.getX(), dy = ad.resultGradient(0);
  Value positive =
      GreaterOp::create(ad.builder(), ad.getLoc(), x, ad.scalarLike(0, x));
  ad.setOperandGradient(
      0,
      ad.select(positive, dy, ad.scale(dy, op.getAlpha().convertToDouble())));
  return success();
}

LogicalResult grad::adjoint(SigmoidOp op, AdjointBuilder &ad) {
  Value y = op.getResult();
  Value slope = ad.mul(y, ad.sub(ad.scalarLike(1, y), y));
  ad.setOperandGradient(0, ad.mul(ad.resultGradient(0), slope));
  return success();
}

LogicalResult grad::adjoint(TanhOp op, AdjointBuilder &ad) {
  Value y = op.getResult();
  Value slope = ad.sub(ad.scalarLike(1, y), ad.mul(y, y));
  ad.setOperandGradient(0, ad.mul(ad.resultGradient(0), slope));
  return success();
}

LogicalResult grad::adjoint(ExpOp op, AdjointBuilder &ad) {
  ad.setOperandGradient(0, ad.mul(ad.resultGradient(0), op.getResult()));
  return success();
}

LogicalResult grad::adjoint(LogOp op, AdjointBuilder &ad) {
  ad.setOperandGradient(0, ad.div(ad.resultGradient(0), op.getX()));
  return success();
}

LogicalResult grad::adjoint(SqrtOp op, AdjointBuilder &ad) {
  // d sqrt(x) = 1 / (2 y).
  ad.setOperandGradient(
      0, ad.div(ad.scale(ad.resultGradient(0), 0.5), op.getResult()));
  return success();
}

LogicalResult grad::adjoint(RsqrtOp op, AdjointBuilder &ad) {
  // y = x^(-1/2): dy/dx = -y^3 / 2.
  Value y = op.getResult();
  Value cube = ad.mul(ad.mul(y, y), y);
  ad.setOperandGradient(0, ad.mul(ad.resultGradient(0), ad.scale(cube, -0.5)));
  return success();
}

LogicalResult grad::adjoint(ErfOp op, AdjointBuilder &ad) {
  Value x = op.getX();
  Value gauss = ExpOp::create(ad.builder(), ad.getLoc(), ad.neg(ad.mul(x, x)));
  ad.setOperandGradient(
      0, ad.mul(ad.resultGradient(0), ad.scale(gauss, 2.0 / std::sqrt(kPi))));
  return success();
}

LogicalResult grad::adjoint(GeluOp op, AdjointBuilder &ad) {
  OpBuilder &b = ad.builder();
  Location loc = ad.getLoc();
  Value x = op.getX(), slope;
  if (op.getApproximate() == GeluApproximation::Tanh) {
    // y = x/2 (1 + t), t = tanh(c (x + k x^3)):
    // y' = (1 + t)/2 + x/2 (1 - t^2) c (1 + 3k x^2).
    const double c = std::sqrt(2.0 / kPi), k = 0.044715;
    Value square = ad.mul(x, x);
    Value inner = ad.scale(ad.add(x, ad.scale(ad.mul(square, x), k)), c);
    Value t = TanhOp::create(b, loc, inner);
    Value one = ad.scalarLike(1, x);
    Value innerSlope = ad.scale(ad.add(one, ad.scale(square, 3 * k)), c);
    Value tanhSlope = ad.sub(one, ad.mul(t, t));
    slope = ad.add(ad.scale(ad.add(one, t), 0.5),
                   ad.mul(ad.scale(x, 0.5), ad.mul(tanhSlope, innerSlope)));
  } else {
    // y = x Phi(x): y' = Phi(x) + x phi(x).
    Value cdf = ad.scale(
        ad.add(ad.scalarLike(1, x),
               ErfOp::create(b, loc, ad.scale(x, 1.0 / std::sqrt(2.0)))),
        0.5);
    Value pdf = ad.scale(ExpOp::create(b, loc, ad.scale(ad.mul(x, x), -0.5)),
                         1.0 / std::sqrt(2.0 * kPi));
    slope = ad.add(cdf, ad.mul(x, pdf));
  }
  ad.setOperandGradient(0, ad.mul(ad.resultGradient(0), slope));
  return success();
}

LogicalResult grad::adjoint(NegativeOp, AdjointBuilder &ad) {
  ad.setOperandGradient(0, ad.neg(ad.resultGradient(0)));
  return success();
}

LogicalResult grad::adjoint(SquareOp op, AdjointBuilder &ad) {
  ad.setOperandGradient(0,
                        ad.mul(ad.resultGradient(0), ad.scale(op.getX(), 2.0)));
  return success();
}

LogicalResult grad::adjoint(DropoutOp op, AdjointBuilder &ad) {
  // The mask depends on the seed and the element index only, so the same
  // dropout applied to dy multiplies it by the forward's mask and scale.
  ad.setOperandGradient(
      0, DropoutOp::create(ad.builder(), ad.getLoc(), ad.resultGradient(0),
                           op.getRateAttr(), op.getSeedAttr()));
  return success();
}

// The result does not depend on the operand's values.
LogicalResult grad::adjoint(ZerosLikeOp, AdjointBuilder &) { return success(); }
LogicalResult grad::adjoint(OnesLikeOp, AdjointBuilder &) { return success(); }

LogicalResult grad::adjoint(CastOp op, AdjointBuilder &ad) {
  // Only a float source has a gradient; the autodiff pass reports a
  // gradient that would need to flow into an integer source.
  Type source = tensorType(op.getX()).getElementType();
  if (isa<FloatType>(source))
    ad.setOperandGradient(0, ad.cast(ad.resultGradient(0), source));
  return success();
}
