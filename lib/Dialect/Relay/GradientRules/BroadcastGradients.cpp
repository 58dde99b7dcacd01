//===- BroadcastGradients.cpp - binary operators with broadcasting --------===//
//
// Each operand's gradient is summed back over the axes broadcasting
// stretched (collapse_sum_like). Comparisons are not differentiable and have
// no rule.
//
//===----------------------------------------------------------------------===//

#include "AdjointBuilder.h"

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

namespace {

/// Sets both operand gradients of a broadcasting binary operator from the
/// full-shape gradients `dl` and `dr` (either may be null).
void setBinaryGradients(Operation *op, AdjointBuilder &ad, Value dl, Value dr) {
  if (dl && ad.wantsGradient(0))
    ad.setOperandGradient(0,
                          ad.collapseSumLike(dl, op->getOperand(0).getType()));
  if (dr && ad.wantsGradient(1))
    ad.setOperandGradient(1,
                          ad.collapseSumLike(dr, op->getOperand(1).getType()));
}

} // namespace

LogicalResult grad::adjoint(AddOp op, AdjointBuilder &ad) {
  Value dy = ad.resultGradient(0);
  setBinaryGradients(op, ad, dy, dy);
  return success();
}

LogicalResult grad::adjoint(SubtractOp op, AdjointBuilder &ad) {
  Value dy = ad.resultGradient(0);
  setBinaryGradients(op, ad, dy, ad.wantsGradient(1) ? ad.neg(dy) : Value());
  return success();
}

LogicalResult grad::adjoint(MultiplyOp op, AdjointBuilder &ad) {
  // Operand 1's adjoint first, here and below: the order is spelt out (the
  // arguments of one call are evaluated in an unspecified order, which GCC
  // and clang builds took differently) and is the one the tests record.
  Value dy = ad.resultGradient(0);
  Value dr = ad.wantsGradient(1) ? ad.mul(dy, op.getLhs()) : Value();
  Value dl = ad.wantsGradient(0) ? ad.mul(dy, op.getRhs()) : Value();
  setBinaryGradients(op, ad, dl, dr);
  return success();
}

LogicalResult grad::adjoint(DivideOp op, AdjointBuilder &ad) {
  // y = l / r: dl = dy / r, dr = -dy l / r^2 = -dy y / r.
  Value dy = ad.resultGradient(0), rhs = op.getRhs();
  Value dr = ad.wantsGradient(1)
                 ? ad.neg(ad.div(ad.mul(dy, op.getResult()), rhs))
                 : Value();
  Value dl = ad.wantsGradient(0) ? ad.div(dy, rhs) : Value();
  setBinaryGradients(op, ad, dl, dr);
  return success();
}

LogicalResult grad::adjoint(PowerOp op, AdjointBuilder &ad) {
  // y = l^r: dl = dy r l^(r-1), dr = dy y log(l).
  OpBuilder &b = ad.builder();
  Value dy = ad.resultGradient(0), lhs = op.getLhs(), rhs = op.getRhs();
  Value dl, dr;
  if (ad.wantsGradient(0)) {
    Value lower = PowerOp::create(b, ad.getLoc(), lhs,
                                  ad.sub(rhs, ad.scalarLike(1, rhs)));
    dl = ad.mul(dy, ad.mul(rhs, lower));
  }
  if (ad.wantsGradient(1))
    dr = ad.mul(dy, ad.mul(op.getResult(), LogOp::create(b, ad.getLoc(), lhs)));
  setBinaryGradients(op, ad, dl, dr);
  return success();
}

namespace {

/// maximum/minimum: the operand `chosen` selects gets the gradient (the
/// left one on ties).
void setSelectionGradients(Operation *op, AdjointBuilder &ad, Value chosen) {
  Value dy = ad.resultGradient(0);
  Value zero = ad.scalarLike(0, dy);
  // Operand 1's first (see MultiplyOp's rule).
  Value dr = ad.select(chosen, zero, dy);
  Value dl = ad.select(chosen, dy, zero);
  setBinaryGradients(op, ad, dl, dr);
}

} // namespace

LogicalResult grad::adjoint(MaximumOp op, AdjointBuilder &ad) {
  setSelectionGradients(op, ad,
                        GreaterEqualOp::create(ad.builder(), ad.getLoc(),
                                               op.getLhs(), op.getRhs()));
  return success();
}

LogicalResult grad::adjoint(MinimumOp op, AdjointBuilder &ad) {
  setSelectionGradients(
      op, ad,
      LessEqualOp::create(ad.builder(), ad.getLoc(), op.getLhs(), op.getRhs()));
  return success();
}

LogicalResult grad::adjoint(WhereOp op, AdjointBuilder &ad) {
  // The condition is piecewise constant: no gradient, by definition.
  Value dy = ad.resultGradient(0), condition = op.getCondition();
  Value zero = ad.scalarLike(0, dy);
  if (ad.wantsGradient(1))
    ad.setOperandGradient(1, ad.collapseSumLike(ad.select(condition, dy, zero),
                                                op.getX().getType()));
  if (ad.wantsGradient(2))
    ad.setOperandGradient(2, ad.collapseSumLike(ad.select(condition, zero, dy),
                                                op.getY().getType()));
  return success();
}

LogicalResult grad::adjoint(BiasAddOp op, AdjointBuilder &ad) {
  Value dy = ad.resultGradient(0);
  ad.setOperandGradient(0, dy);
  if (ad.wantsGradient(1)) {
    int64_t rank = tensorType(dy).getRank();
    int64_t axis = normalizeAxis(op.getAxisAttr().getInt(), rank);
    ad.setOperandGradient(1, ad.sum(dy, allAxesBut(axis, rank), false));
  }
  return success();
}
