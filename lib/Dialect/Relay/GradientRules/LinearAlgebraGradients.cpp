//===- LinearAlgebraGradients.cpp - dense, matmul, convolutions -----------===//
//
// Matrix products differentiate into matrix products with transpose flags
// (RAF's gemm rules, RAF source src/op/grad/gemm.cc). Convolutions
// differentiate into library-style convolutions: the data gradient is a
// transposed convolution and the weight gradient a convolution of the input
// with the output gradient, whose roles of batch and channel are swapped
// (strides and dilations swap too).
//
//===----------------------------------------------------------------------===//

#include "AdjointBuilder.h"

#include "raf/Dialect/Relay/IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

namespace {

/// Products are differentiated only in their own float type; `out_dtype`
/// widening (int8 -> int32) has no gradient.
LogicalResult checkSameType(Operation *op, Value operand, AdjointBuilder &ad) {
  if (tensorType(operand).getElementType() !=
      tensorType(op->getResult(0)).getElementType()) {
    ad.emitError() << "has no gradient when out_dtype changes the element "
                      "type";
    return failure();
  }
  return success();
}

} // namespace

LogicalResult grad::adjoint(DenseOp op, AdjointBuilder &ad) {
  if (failed(checkSameType(op, op.getX(), ad)))
    return failure();
  // y[..., N] = x[..., K] w[N, K]^T on the flattened rows.
  Value x = op.getX(), w = op.getWeight(), dy = ad.resultGradient(0);
  auto xType = tensorType(x);
  int64_t k = xType.getShape().back(), n = tensorType(w).getDimSize(0);
  int64_t rows = product(xType.getShape().drop_back());
  Value dy2 = ad.reshape(dy, {rows, n});
  OpBuilder &b = ad.builder();
  if (ad.wantsGradient(0)) {
    Value dx = MatmulOp::create(b, ad.getLoc(), dy2, w, false, false, {});
    ad.setOperandGradient(0, ad.reshape(dx, xType.getShape()));
  }
  if (ad.wantsGradient(1))
    ad.setOperandGradient(1, MatmulOp::create(b, ad.getLoc(), dy2,
                                              ad.reshape(x, {rows, k}), true,
                                              false, {}));
  return success();
}

namespace {

/// The operand gradients of C = op(a) op(b) for each transpose combination
/// (2-D and batched alike); `make(p, q, ta, tb)` builds op(p) op(q).
template <typename Make>
std::pair<Value, Value> productGradients(Value a, Value b, Value dy, bool ta,
                                         bool tb, Make make) {
  if (!ta && !tb)
    return {make(dy, b, false, true), make(a, dy, true, false)};
  if (!ta && tb)
    return {make(dy, b, false, false), make(dy, a, true, false)};
  if (ta && !tb)
    return {make(b, dy, false, true), make(a, dy, false, false)};
  return {make(b, dy, true, true), make(dy, a, true, true)};
}

} // namespace

LogicalResult grad::adjoint(MatmulOp op, AdjointBuilder &ad) {
  if (failed(checkSameType(op, op.getA(), ad)))
    return failure();
  auto make = [&](Value p, Value q, bool tp, bool tq) -> Value {
    return MatmulOp::create(ad.builder(), ad.getLoc(), p, q, tp, tq, {});
  };
  auto [da, db] =
      productGradients(op.getA(), op.getB(), ad.resultGradient(0),
                       op.getTransposeA(), op.getTransposeB(), make);
  ad.setOperandGradient(0, da);
  ad.setOperandGradient(1, db);
  return success();
}

LogicalResult grad::adjoint(BatchMatmulOp op, AdjointBuilder &ad) {
  if (failed(checkSameType(op, op.getA(), ad)))
    return failure();
  auto make = [&](Value p, Value q, bool tp, bool tq) -> Value {
    return BatchMatmulOp::create(ad.builder(), ad.getLoc(), p, q, tp, tq, {});
  };
  auto [da, db] =
      productGradients(op.getA(), op.getB(), ad.resultGradient(0),
                       op.getTransposeA(), op.getTransposeB(), make);
  // A batch of 1 was broadcast: sum its gradient over the batch.
  ad.setOperandGradient(0, ad.collapseSumLike(da, op.getA().getType()));
  ad.setOperandGradient(1, ad.collapseSumLike(db, op.getB().getType()));
  return success();
}

namespace {

/// Permutation taking a tensor in `layout` to `canonical` order (verified
/// operators have layouts that are permutations of their canonical ones).
SmallVector<int64_t> toCanonical(LayoutAttr layout, StringRef canonical) {
  return llvm::to_vector(*layout.getPositions(canonical));
}

LayoutAttr layout(AdjointBuilder &ad, StringRef name) {
  return LayoutAttr::get(ad.builder().getContext(), name);
}

/// The weight gradient of an NCHW/OIHW convolution with `groups`:
///   dw[o, i, kh, kw] = sum_{n, r, s} dy[n, o, r, s] *
///                      x[n, g(o) I/g + i, r*stride + kh*dil - pad, ...]
/// computed as a convolution whose batch is the weight's I axis and whose
/// channels are (group, n), with kernel dy (channels O, "input channels" N)
/// and stride/dilation swapped. The result is sliced to the kernel size.
Value convWeightGradient(AdjointBuilder &ad, Value x, Value dy,
                         ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                         std::array<int64_t, 4> padding,
                         ArrayRef<int64_t> dilation, int64_t groups) {
  ArrayRef<int64_t> xs = tensorType(x).getShape();
  int64_t n = xs[0], c = xs[1], h = xs[2], w = xs[3];
  int64_t perGroup = c / groups;
  Value grouped = ad.reshape(x, {n, groups, perGroup, h, w});
  grouped = ad.transpose(grouped, {2, 1, 0, 3, 4});
  grouped = ad.reshape(grouped, {perGroup, groups * n, h, w});
  Value kernelFromDy = ad.transpose(dy, {1, 0, 2, 3});
  Value full =
      Conv2DOp::create(ad.builder(), ad.getLoc(), grouped, kernelFromDy,
                       dilation, padding, strides, groups, layout(ad, "NCHW"),
                       layout(ad, "OIHW"), {});
  ArrayRef<int64_t> fs = tensorType(full).getShape();
  if (fs[2] != kernel[2] || fs[3] != kernel[3])
    full = ad.slice(full, {0, 0}, {kernel[2], kernel[3]}, {1, 1}, {2, 3});
  return ad.transpose(full, {1, 0, 2, 3});
}

} // namespace

LogicalResult grad::adjoint(Conv2DOp op, AdjointBuilder &ad) {
  if (failed(checkSameType(op, op.getData(), ad)))
    return failure();
  SmallVector<int64_t> dataPerm = toCanonical(op.getDataLayout(), "NCHW");
  SmallVector<int64_t> kernelPerm = toCanonical(op.getKernelLayout(), "OIHW");
  Value x = ad.transpose(op.getData(), dataPerm);
  Value w = ad.transpose(op.getWeight(), kernelPerm);
  Value dy = ad.transpose(ad.resultGradient(0), dataPerm);
  ArrayRef<int64_t> xs = tensorType(x).getShape(),
                    ws = tensorType(w).getShape(),
                    ys = tensorType(dy).getShape();
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  // Verified operators always have a valid padding.
  std::array<int64_t, 4> padding = *expandPadding2D(
      std::nullopt, op->getName().getStringRef(), op.getPadding());
  int64_t groups = op.getGroups();

  if (ad.wantsGradient(0)) {
    // Rows of the padded input no window reaches get zero gradient: the
    // transposed convolution's output_padding restores the input size.
    SmallVector<int64_t> outputPadding;
    for (int d = 0; d < 2; ++d)
      outputPadding.push_back(xs[2 + d] - ((ys[2 + d] - 1) * strides[d] -
                                           padding[d] - padding[d + 2] +
                                           dilation[d] * (ws[2 + d] - 1) + 1));
    Value dx = Conv2DTransposeOp::create(ad.builder(), ad.getLoc(), dy, w,
                                         strides, padding, outputPadding,
                                         dilation, groups, layout(ad, "NCHW"),
                                         layout(ad, "IOHW"), {});
    ad.setOperandGradient(0, ad.transpose(dx, inversePermutation(dataPerm)));
  }
  if (ad.wantsGradient(1)) {
    Value dw =
        convWeightGradient(ad, x, dy, ws, strides, padding, dilation, groups);
    ad.setOperandGradient(1, ad.transpose(dw, inversePermutation(kernelPerm)));
  }
  return success();
}

LogicalResult grad::adjoint(Conv2DTransposeOp op, AdjointBuilder &ad) {
  if (failed(checkSameType(op, op.getData(), ad)))
    return failure();
  SmallVector<int64_t> dataPerm = toCanonical(op.getDataLayout(), "NCHW");
  SmallVector<int64_t> kernelPerm = toCanonical(op.getKernelLayout(), "IOHW");
  Value x = ad.transpose(op.getData(), dataPerm);
  Value w = ad.transpose(op.getWeight(), kernelPerm);
  Value dy = ad.transpose(ad.resultGradient(0), dataPerm);
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  // Verified operators always have a valid padding.
  std::array<int64_t, 4> padding = *expandPadding2D(
      std::nullopt, op->getName().getStringRef(), op.getPadding());
  int64_t groups = op.getGroups();
  if (ad.wantsGradient(0)) {
    // The transposed convolution's adjoint is the convolution with the same
    // kernel read as OIHW ([C_in, C_out / groups, ...]); the extra
    // output_padding rows are never read by it.
    Value dx = Conv2DOp::create(ad.builder(), ad.getLoc(), dy, w, strides,
                                padding, dilation, groups, layout(ad, "NCHW"),
                       layout(ad, "OIHW"), {});
    ad.setOperandGradient(0, ad.transpose(dx, inversePermutation(dataPerm)));
  }
  if (ad.wantsGradient(1)) {
    // Same sums as a convolution's weight gradient with the roles of input
    // and output gradient exchanged: dw[ci, co, ...] pairs x[n, ci] with
    // dy[n, co] at dy's position r*stride + k*dil - pad.
    Value dw = convWeightGradient(ad, dy, x, tensorType(w).getShape(), strides,
                                  padding, dilation, groups);
    ad.setOperandGradient(1, ad.transpose(dw, inversePermutation(kernelPerm)));
  }
  return success();
}
