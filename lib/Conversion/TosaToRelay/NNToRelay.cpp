//===- NNToRelay.cpp - TOSA convolutions, matmul and pooling to relay -----===//
//
// TOSA keeps activations NHWC and weights OHWI (depthwise: [KH, KW, C, M]).
// relay's nn.conv2d and pooling take any layout permutation, so the data is
// not transposed: the layouts are stated on the relay op and the lowering
// beyond relay decides how to compute them. The checks guarantee float
// element types and constant-zero zero points.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace raf::tosa_to_relay {
namespace {

/// relay's `out_dtype` when TOSA's result element type (chosen with
/// `acc_type`) differs from the input's, e.g. f16 inputs with an f32 result.
TypeAttr getOutDtype(Value input, RankedTensorType resultType) {
  Type element = resultType.getElementType();
  if (cast<RankedTensorType>(input.getType()).getElementType() == element)
    return nullptr;
  return TypeAttr::get(element);
}

/// A `#relay.layout` such as NHWC (TOSA's data layout).
relay::LayoutAttr layout(OpBuilder &builder, StringRef name) {
  return relay::LayoutAttr::get(builder.getContext(), name);
}

/// Adds TOSA's per-output-channel bias to an NHWC convolution. A bias of one
/// element (TOSA allows it to broadcast) is a broadcasting add instead.
Value addBias(OpBuilder &builder, Location loc, Value conv, Value bias) {
  auto convType = cast<RankedTensorType>(conv.getType());
  auto biasType = cast<RankedTensorType>(bias.getType());
  if (biasType.getDimSize(0) == convType.getDimSize(3))
    return relay::BiasAddOp::create(builder, loc, convType, conv, bias,
                                    /*axis=*/3);
  return relay::AddOp::create(builder, loc, convType, conv, bias);
}

struct Conv2DPattern : OpConversionPattern<tosa::Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Value conv = relay::Conv2DOp::create(
        rewriter, op.getLoc(), resultType, adaptor.getInput(),
        adaptor.getWeight(), op.getStride(), toRelayPadding(op.getPad()),
        op.getDilation(), /*groups=*/1, layout(rewriter, "NHWC"),
        layout(rewriter, "OHWI"),
        getOutDtype(adaptor.getInput(), resultType));
    rewriter.replaceOp(
        op, addBias(rewriter, op.getLoc(), conv, adaptor.getBias()));
    return success();
  }
};

/// Depthwise convolution with channel multiplier M: output channel c * M + m
/// reads input channel c with weight [.., .., c, m]. Reshaping the weight to
/// [KH, KW, 1, C * M] keeps that order, which is relay's grouped convolution
/// with groups = C and an HWIO kernel.
struct DepthwiseConv2DPattern : OpConversionPattern<tosa::DepthwiseConv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::DepthwiseConv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    ArrayRef<int64_t> w = weightType.getShape();
    SmallVector<int64_t> grouped{w[0], w[1], 1, w[2] * w[3]};
    Value weight = relay::ReshapeOp::create(
        rewriter, loc, weightType.clone(grouped), adaptor.getWeight(),
        grouped);
    Value conv = relay::Conv2DOp::create(
        rewriter, loc, resultType, adaptor.getInput(), weight, op.getStride(),
        toRelayPadding(op.getPad()), op.getDilation(), /*groups=*/w[2],
        layout(rewriter, "NHWC"), layout(rewriter, "HWIO"),
        getOutDtype(adaptor.getInput(), resultType));
    rewriter.replaceOp(op, addBias(rewriter, loc, conv, adaptor.getBias()));
    return success();
  }
};

/// tosa.matmul: [N, H, C] x [N, C, W], neither side transposed.
struct MatMulPattern : OpConversionPattern<tosa::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(op, relay::BatchMatmulOp::create(
                               rewriter, op.getLoc(), resultType,
                               adaptor.getA(), adaptor.getB(),
                               /*transpose_a=*/false, /*transpose_b=*/false,
                               getOutDtype(adaptor.getA(), resultType)));
    return success();
  }
};

/// TOSA's max pooling never selects padding, like relay's.
struct MaxPool2dPattern : OpConversionPattern<tosa::MaxPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::MaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, relay::MaxPool2DOp::create(
                rewriter, op.getLoc(), op.getType(), adaptor.getInput(),
                op.getKernel(), op.getStride(), /*dilation=*/{1, 1},
                toRelayPadding(op.getPad()), layout(rewriter, "NHWC"),
                /*ceil_mode=*/false));
    return success();
  }
};

/// TOSA's average divides by the number of taps inside the input: relay's
/// `count_include_pad = false`.
struct AvgPool2dPattern : OpConversionPattern<tosa::AvgPool2dOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::AvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, relay::AvgPool2DOp::create(
                rewriter, op.getLoc(), op.getType(), adaptor.getInput(),
                op.getKernel(), op.getStride(), /*dilation=*/{1, 1},
                toRelayPadding(op.getPad()), layout(rewriter, "NHWC"),
                /*ceil_mode=*/false,
                /*count_include_pad=*/false));
    return success();
  }
};

} // namespace

void populateNNPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DPattern, DepthwiseConv2DPattern, MatMulPattern,
               MaxPool2dPattern, AvgPool2dPattern>(patterns.getContext());
}

} // namespace raf::tosa_to_relay
