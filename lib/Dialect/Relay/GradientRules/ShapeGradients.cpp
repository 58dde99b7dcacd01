//===- ShapeGradients.cpp - reshapes, slices, gathers ---------------------===//
//
// Data movement differentiates into the inverse movement: reshape back,
// inverse permutation, slices of a concatenation, zero padding around a
// slice. A gather (take) scatters its gradient back with a one-hot matrix
// product, so no scatter operator is needed.
//
//===----------------------------------------------------------------------===//

#include "AdjointBuilder.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

namespace {

LogicalResult reshapeBack(Operation *op, AdjointBuilder &ad) {
  ad.setOperandGradient(0,
                        ad.reshape(ad.resultGradient(0),
                                   tensorType(op->getOperand(0)).getShape()));
  return success();
}

} // namespace

LogicalResult grad::adjoint(ReshapeOp op, AdjointBuilder &ad) {
  return reshapeBack(op, ad);
}
LogicalResult grad::adjoint(ExpandDimsOp op, AdjointBuilder &ad) {
  return reshapeBack(op, ad);
}
LogicalResult grad::adjoint(SqueezeOp op, AdjointBuilder &ad) {
  return reshapeBack(op, ad);
}

LogicalResult grad::adjoint(TransposeOp op, AdjointBuilder &ad) {
  int64_t rank = tensorType(op.getX()).getRank();
  SmallVector<int64_t> perm;
  if (auto axes = op.getAxes())
    for (int64_t a : *axes)
      perm.push_back(normalizeAxis(a, rank));
  else
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  ad.setOperandGradient(
      0, ad.transpose(ad.resultGradient(0), inversePermutation(perm)));
  return success();
}

LogicalResult grad::adjoint(BroadcastToOp op, AdjointBuilder &ad) {
  ad.setOperandGradient(
      0, ad.collapseSumLike(ad.resultGradient(0), op.getX().getType()));
  return success();
}

LogicalResult grad::adjoint(ConcatenateOp op, AdjointBuilder &ad) {
  Value dy = ad.resultGradient(0);
  int64_t axis = normalizeAxis(op.getAxis(), tensorType(dy).getRank());
  int64_t offset = 0;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    int64_t size = tensorType(input).getDimSize(axis);
    if (ad.wantsGradient(i))
      ad.setOperandGradient(
          i, ad.slice(dy, {offset}, {offset + size}, {1}, {axis}));
    offset += size;
  }
  return success();
}

LogicalResult grad::adjoint(SplitOp op, AdjointBuilder &ad) {
  // Parts no gradient reached contribute zeros.
  SmallVector<Value> parts;
  for (unsigned i = 0, e = op.getNumResults(); i < e; ++i)
    parts.push_back(ad.resultGradient(i));
  int64_t axis = normalizeAxis(op.getAxis(), tensorType(op.getX()).getRank());
  ad.setOperandGradient(
      0, ConcatenateOp::create(ad.builder(), ad.getLoc(), parts, axis));
  return success();
}

LogicalResult grad::adjoint(StridedSliceOp op, AdjointBuilder &ad) {
  // Each sliced axis selects start + k * step, k < length. The gradient is
  // spread back: reversed when the step is negative, dilated by the step
  // (interleaving zeros), then zero-padded to the input's extent.
  auto xType = tensorType(op.getX());
  int64_t rank = xType.getRank();
  size_t count = op.getBegin().size();
  SmallVector<int64_t> strides(count, 1), axes;
  if (auto s = op.getStrides())
    strides.assign(s->begin(), s->end());
  if (auto a = op.getAxes())
    for (int64_t axis : *a)
      axes.push_back(normalizeAxis(axis, rank));
  else
    axes = iota(count);

  Value dx = ad.resultGradient(0);
  for (size_t i = 0; i < count; ++i) {
    int64_t axis = axes[i], step = strides[i];
    int64_t dim = xType.getDimSize(axis);
    int64_t length = tensorType(dx).getDimSize(axis);
    int64_t begin = op.getBegin()[i];
    if (begin < 0)
      begin += dim;
    begin = step > 0 ? std::clamp<int64_t>(begin, 0, dim)
                     : std::clamp<int64_t>(begin, -1, dim - 1);
    int64_t rankNow = tensorType(dx).getRank();
    SmallVector<int64_t> padWidth(2 * rankNow, 0);
    if (length == 0) {
      padWidth[2 * axis + 1] = dim;
      dx = ad.pad(dx, padWidth);
      continue;
    }
    int64_t first = begin;
    if (step < 0) {
      dx = ad.reverse(dx, axis);
      first = begin + (length - 1) * step;
      step = -step;
    }
    if (step > 1) {
      // [.., L, ..] -> [.., L, 1, ..] -> pad to [.., L, step, ..] ->
      // [.., L * step, ..] -> keep (L - 1) * step + 1.
      SmallVector<int64_t> shape(tensorType(dx).getShape());
      SmallVector<int64_t> split(shape);
      split.insert(split.begin() + axis + 1, 1);
      Value spaced = ad.reshape(dx, split);
      SmallVector<int64_t> dilate(2 * (rankNow + 1), 0);
      dilate[2 * (axis + 1) + 1] = step - 1;
      spaced = ad.pad(spaced, dilate);
      shape[axis] = length * step;
      spaced = ad.reshape(spaced, shape);
      dx = ad.slice(spaced, {0}, {(length - 1) * step + 1}, {1}, {axis});
    }
    int64_t span = (length - 1) * step + 1;
    padWidth[2 * axis] = first;
    padWidth[2 * axis + 1] = dim - first - span;
    dx = ad.pad(dx, padWidth);
  }
  ad.setOperandGradient(0, dx);
  return success();
}

LogicalResult grad::adjoint(PadOp op, AdjointBuilder &ad) {
  if (op.getPadMode() != PadMode::Constant) {
    ad.emitError() << "has no gradient rule for pad_mode "
                   << op.getPadModeAttr()
                   << " (only constant padding is differentiable)";
    return failure();
  }
  auto xType = tensorType(op.getX());
  ArrayRef<int64_t> width = op.getPadWidth();
  SmallVector<int64_t> begin, end, strides, axes;
  for (int64_t i = 0, e = xType.getRank(); i < e; ++i) {
    begin.push_back(width[2 * i]);
    end.push_back(width[2 * i] + xType.getDimSize(i));
    strides.push_back(1);
    axes.push_back(i);
  }
  ad.setOperandGradient(
      0, ad.slice(ad.resultGradient(0), begin, end, strides, axes));
  return success();
}

LogicalResult grad::adjoint(TakeOp op, AdjointBuilder &ad) {
  if (!ad.wantsGradient(0))
    return success();
  if (op.getMode() == TakeMode::Wrap) {
    ad.emitError() << "has no gradient rule for mode " << op.getModeAttr()
                   << " (use clip or fast)";
    return failure();
  }
  // data viewed as [A, K, B] around the gathered axis, the result as
  // [A, I, B]: ddata[a, k, b] = sum_i (idx[i] == k) dy[a, i, b], a batched
  // product of the transposed one-hot matrix [1, K, I] with dy. The one-hot
  // matrix and the views need every extent.
  auto dataType = tensorType(op.getData());
  if (failed(ad.requireStaticShape(op.getData())) ||
      failed(ad.requireStaticShape(op.getIndices())))
    return failure();
  ArrayRef<int64_t> shape = dataType.getShape();
  int64_t a = 1, k, bSize = 1;
  if (auto axisAttr = op.getAxis()) {
    int64_t axis = normalizeAxis(*axisAttr, dataType.getRank());
    a = product(shape.take_front(axis));
    k = shape[axis];
    bSize = product(shape.drop_front(axis + 1));
  } else {
    k = product(shape);
  }
  Value indices = op.getIndices();
  auto indexType = tensorType(indices);
  int64_t count = product(indexType.getShape());
  Type element = dataType.getElementType();
  Value flat = ad.reshape(indices, {count, 1});
  if (op.getMode() == TakeMode::Clip) {
    OpBuilder &b = ad.builder();
    Type indexElement = indexType.getElementType();
    flat = MaximumOp::create(b, ad.getLoc(), flat, ad.scalar(0, indexElement));
    flat =
        MinimumOp::create(b, ad.getLoc(), flat, ad.scalar(k - 1, indexElement));
  }
  Value classIds = ad.constant(iota(k), {1, k}, indexType.getElementType());
  Value hot = ad.cast(
      EqualOp::create(ad.builder(), ad.getLoc(), flat, classIds), element);
  Value hotT = ad.reshape(ad.transpose(hot, {1, 0}), {1, k, count});
  Value dy = ad.reshape(ad.resultGradient(0), {a, count, bSize});
  Value scattered = BatchMatmulOp::create(ad.builder(), ad.getLoc(), hotT, dy,
                                          false, false, {});
  ad.setOperandGradient(0, ad.reshape(scattered, shape));
  return success();
}
