//===- ConvExprs.cpp - convolutions as tensor expressions -----------------===//
//
//   out[n, oc, oh, ow] = add_{ic, kh, kw}
//       data[n, ic', oh * sh + kh * dh, ow * sw + kw * dw]
//       * weight[oc, ic, kh, kw]
//
// with the iterators in the output's layout order (NHWC: n, oh, ow, oc) and
// the accesses permuted to each operand's layout. Padding is a padded view
// of the data. With groups, the input channel depends on the output
// channel's group: ic' = (oc floordiv (O / G)) * (C / G) + ic; a depthwise
// convolution (one input channel per group) has no ic reduction at all and
// reads channel oc floordiv (O / G). GEMM axes follow TVM's VTA strategy:
// n -> x, oc -> y, ic -> z.
//
// The transposed convolution is the convolution of a dilated (by the
// stride) and padded view of its data with the spatially flipped kernel:
//
//   out[n, oc, oh, ow] = add_{ic, kh, kw}
//       data'[n, ic', oh + kh * dh + offset, ...]
//       * weight[ic', oc mod (O / G), KH - 1 - kh, KW - 1 - kw]
//
// where the view pads dh * (KH - 1) - pad_top before (less when the padding
// exceeds it: the excess becomes `offset`) and dh * (KH - 1) - pad_bottom +
// output_padding after.
//
//===----------------------------------------------------------------------===//

#include "OperatorExprs.h"

#include "raf/Dialect/Relay/IR/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <array>

using namespace mlir;
using namespace raf;
using namespace raf::relay_to_tcg;

namespace {

/// Position of `letter` in `layout` (verified to be a permutation).
unsigned positionOf(relay::LayoutAttr layout, char letter) {
  return layout.getPosition(letter);
}

/// The accesses of an operand in `layout` order, given the index of each
/// letter.
SmallVector<AffineExpr> permute(relay::LayoutAttr layout,
                                ArrayRef<std::pair<char, AffineExpr>> index) {
  SmallVector<AffineExpr> indices(layout.getName().size());
  for (auto [letter, expr] : index)
    indices[positionOf(layout, letter)] = expr;
  return indices;
}

/// The view list of a 4-D operand in `layout` with `h` and `w` on its
/// spatial dimensions and `fill` elsewhere.
SmallVector<int64_t> spatial(relay::LayoutAttr layout, int64_t h, int64_t w,
                             int64_t fill) {
  SmallVector<int64_t> values(4, fill);
  values[positionOf(layout, 'H')] = h;
  values[positionOf(layout, 'W')] = w;
  return values;
}

/// The parallel iterators of a 2-D convolution's output, in `layout` order.
/// Returns the dimension expressions of n, oc, oh and ow.
std::array<AffineExpr, 4> addOutputIterators(ExprBuilder &b,
                                             relay::LayoutAttr layout,
                                             RankedTensorType result) {
  std::array<AffineExpr, 4> dims;
  for (char letter : layout.getName()) {
    int64_t extent = result.getDimSize(positionOf(layout, letter));
    switch (letter) {
    case 'N':
      dims[0] = b.addIterator("n", extent, false, "x");
      break;
    case 'C':
      dims[1] = b.addIterator("oc", extent, false, "y");
      break;
    case 'H':
      dims[2] = b.addIterator("oh", extent, false);
      break;
    default:
      dims[3] = b.addIterator("ow", extent, false);
    }
  }
  return dims;
}

} // namespace

OperatorExpr raf::relay_to_tcg::getOperatorExpr(relay::Conv2DOp op) {
  RankedTensorType dataType = op.getData().getType();
  RankedTensorType weightType = op.getWeight().getType();
  RankedTensorType resultType = op.getType();
  relay::LayoutAttr dataLayout = op.getDataLayout();
  relay::LayoutAttr kernelLayout = op.getKernelLayout();
  auto weightDim = [&](char letter) {
    return weightType.getDimSize(positionOf(kernelLayout, letter));
  };
  int64_t groups = op.getGroups();
  int64_t outChannels = weightDim('O');
  int64_t channelsPerGroup = weightDim('I');
  int64_t outPerGroup = outChannels / groups;
  bool depthwise = groups > 1 && channelsPerGroup == 1;
  // Verified by the op's shape function.
  auto [top, left, bottom, right] =
      *relay::expandPadding2D(std::nullopt, "", op.getPadding());
  ArrayRef<int64_t> strides = op.getStrides();
  ArrayRef<int64_t> dilation = op.getDilation();

  ExprBuilder b(op.getContext(), op->getName().stripDialect(), resultType);
  auto [n, oc, oh, ow] = addOutputIterators(b, dataLayout, resultType);
  AffineExpr ic;
  if (!depthwise)
    ic = b.addIterator("ic", channelsPerGroup, true, "z");
  AffineExpr kh = b.addIterator("kh", weightDim('H'), true);
  AffineExpr kw = b.addIterator("kw", weightDim('W'), true);

  AffineExpr group = oc.floorDiv(outPerGroup);
  AffineExpr channel = groups == 1 ? ic
                       : depthwise ? group
                                   : group * channelsPerGroup + ic;
  b.addInput("data", 0, dataType,
             permute(dataLayout, {{'N', n},
                                  {'C', channel},
                                  {'H', oh * strides[0] + kh * dilation[0]},
                                  {'W', ow * strides[1] + kw * dilation[1]}}),
             spatial(dataLayout, top, left, 0),
             spatial(dataLayout, bottom, right, 0));
  AffineExpr zero = getAffineConstantExpr(0, op.getContext());
  b.addInput(
      "weight", 1, weightType,
      permute(kernelLayout,
              {{'O', oc}, {'I', depthwise ? zero : ic}, {'H', kh}, {'W', kw}}));
  return b.finish();
}

OperatorExpr raf::relay_to_tcg::getOperatorExpr(relay::Conv2DTransposeOp op) {
  RankedTensorType dataType = op.getData().getType();
  RankedTensorType weightType = op.getWeight().getType();
  RankedTensorType resultType = op.getType();
  relay::LayoutAttr dataLayout = op.getDataLayout();
  relay::LayoutAttr kernelLayout = op.getKernelLayout();
  auto weightDim = [&](char letter) {
    return weightType.getDimSize(positionOf(kernelLayout, letter));
  };
  int64_t groups = op.getGroups();
  int64_t inChannels = weightDim('I');
  int64_t inPerGroup = inChannels / groups;
  int64_t outPerGroup = weightDim('O');
  std::array<int64_t, 2> kernel = {weightDim('H'), weightDim('W')};
  auto padding = *relay::expandPadding2D(std::nullopt, "", op.getPadding());
  ArrayRef<int64_t> strides = op.getStrides();
  ArrayRef<int64_t> dilation = op.getDilation();
  ArrayRef<int64_t> outputPadding = op.getOutputPadding();

  ExprBuilder b(op.getContext(), op->getName().stripDialect(), resultType);
  auto [n, oc, oh, ow] = addOutputIterators(b, dataLayout, resultType);
  AffineExpr ic = b.addIterator("ic", inPerGroup, true, "z");
  AffineExpr kh = b.addIterator("kh", kernel[0], true);
  AffineExpr kw = b.addIterator("kw", kernel[1], true);

  // The view: stride-dilated data, padded so that the flipped kernel's taps
  // line up; padding beyond dilation * (K - 1) crops, which is an offset in
  // the access instead (a view cannot have negative padding).
  std::array<int64_t, 2> before, after, offset;
  for (int d = 0; d < 2; ++d) {
    int64_t reach = dilation[d] * (kernel[d] - 1);
    int64_t low = reach - padding[d];
    int64_t high = reach - padding[d + 2] + outputPadding[d];
    before[d] = std::max<int64_t>(low, 0);
    offset[d] = std::max<int64_t>(-low, 0);
    after[d] = std::max<int64_t>(high, 0);
  }
  AffineExpr channel =
      groups == 1 ? ic : oc.floorDiv(outPerGroup) * inPerGroup + ic;
  b.addInput("data", 0, dataType,
             permute(dataLayout, {{'N', n},
                                  {'C', channel},
                                  {'H', oh + kh * dilation[0] + offset[0]},
                                  {'W', ow + kw * dilation[1] + offset[1]}}),
             spatial(dataLayout, before[0], before[1], 0),
             spatial(dataLayout, after[0], after[1], 0),
             spatial(dataLayout, strides[0], strides[1], 1));
  b.addInput("weight", 1, weightType,
             permute(kernelLayout, {{'I', channel},
                                    {'O', groups == 1 ? oc : oc % outPerGroup},
                                    {'H', kernel[0] - 1 - kh},
                                    {'W', kernel[1] - 1 - kw}}));
  return b.finish();
}
