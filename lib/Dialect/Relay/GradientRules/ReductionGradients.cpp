//===- ReductionGradients.cpp - reductions and pooling --------------------===//

#include "AdjointBuilder.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

namespace {

/// The input shape with every reduced axis set to 1: the result gradient
/// reshaped to it broadcasts back over the input.
template <typename OpT>
SmallVector<int64_t> keptShape(OpT op, int64_t &reducedCount) {
  auto type = tensorType(op.getX());
  int64_t rank = type.getRank();
  std::optional<ArrayRef<int64_t>> axes = op.getAxis();
  llvm::SmallBitVector listed(rank, !axes.has_value());
  if (axes)
    for (int64_t axis : *axes)
      listed.set(normalizeAxis(axis, rank));
  SmallVector<int64_t> shape(type.getShape());
  reducedCount = 1;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = op.getExclude() && axes ? !listed.test(i) : listed.test(i);
    if (reduced) {
      reducedCount *= shape[i];
      shape[i] = 1;
    }
  }
  return shape;
}

} // namespace

LogicalResult grad::adjoint(SumOp op, AdjointBuilder &ad) {
  if (failed(ad.requireStaticShape(op.getX())))
    return failure();
  int64_t count;
  SmallVector<int64_t> kept = keptShape(op, count);
  Value dy = ad.reshape(ad.resultGradient(0), kept);
  ad.setOperandGradient(0,
                        ad.broadcastTo(dy, tensorType(op.getX()).getShape()));
  return success();
}

LogicalResult grad::adjoint(MeanOp op, AdjointBuilder &ad) {
  if (failed(ad.requireStaticShape(op.getX())))
    return failure();
  int64_t count;
  SmallVector<int64_t> kept = keptShape(op, count);
  Value dy = ad.reshape(ad.resultGradient(0), kept);
  Value spread = ad.broadcastTo(dy, tensorType(op.getX()).getShape());
  ad.setOperandGradient(0, ad.scale(spread, 1.0 / static_cast<double>(count)));
  return success();
}

LogicalResult grad::adjoint(MaxOp op, AdjointBuilder &ad) {
  // Ties share the gradient evenly (as torch.amax).
  int64_t count;
  SmallVector<int64_t> kept = keptShape(op, count);
  Value x = op.getX();
  Value y = ad.reshape(op.getResult(), kept);
  Value hit = ad.cast(EqualOp::create(ad.builder(), ad.getLoc(), x, y),
                      tensorType(x).getElementType());
  SmallVector<int64_t> reduced;
  for (auto [i, size] : llvm::enumerate(kept))
    if (size == 1 && tensorType(x).getDimSize(i) != 1)
      reduced.push_back(i);
  Value ties = ad.sum(hit, reduced, /*keepdims=*/true);
  Value dy = ad.reshape(ad.resultGradient(0), kept);
  ad.setOperandGradient(0, ad.mul(hit, ad.div(dy, ties)));
  return success();
}

// Window pooling: the library-style gradient operators with the forward's
// attributes (PyTorch's backward semantics, including ceil_mode and the
// divisor rules).
LogicalResult grad::adjoint(MaxPool2DOp op, AdjointBuilder &ad) {
  ad.setOperandGradient(
      0, MaxPool2DGradOp::create(ad.builder(), ad.getLoc(),
                                 ValueRange{ad.resultGradient(0), op.getX()},
                                 op->getAttrs()));
  return success();
}

LogicalResult grad::adjoint(AvgPool2DOp op, AdjointBuilder &ad) {
  ad.setOperandGradient(
      0, AvgPool2DGradOp::create(ad.builder(), ad.getLoc(),
                                 ValueRange{ad.resultGradient(0), op.getX()},
                                 op->getAttrs()));
  return success();
}

LogicalResult grad::adjoint(GlobalAvgPool2DOp op, AdjointBuilder &ad) {
  auto type = tensorType(op.getX());
  LayoutAttr layout = op.getLayout();
  int64_t area = type.getDimSize(layout.getPosition('H')) *
                 type.getDimSize(layout.getPosition('W'));
  Value spread = ad.broadcastTo(ad.resultGradient(0), type.getShape());
  ad.setOperandGradient(0, ad.scale(spread, 1.0 / static_cast<double>(area)));
  return success();
}
