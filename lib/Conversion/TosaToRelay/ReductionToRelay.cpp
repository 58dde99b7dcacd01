//===- ReductionToRelay.cpp - TOSA reductions and argmax to relay ---------===//
//
// TOSA reduces one axis and keeps it with size 1 (relay `keepdims`);
// argmax drops the axis. relay has no min reduction: min(x) = -max(-x),
// exact for floats (the checks reject integers, where -INT_MIN wraps).
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

template <typename TosaOp, typename RelayOp>
struct ReducePattern : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t axis = op.getAxis();
    rewriter.replaceOp(
        op, RelayOp::create(rewriter, op.getLoc(), op.getType(),
                            adaptor.getInput(),
                            rewriter.getDenseI64ArrayAttr(axis),
                            /*keepdims=*/true));
    return success();
  }
};

struct ReduceMinPattern : OpConversionPattern<tosa::ReduceMinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ReduceMinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    int64_t axis = op.getAxis();
    Value negated =
        relay::NegativeOp::create(rewriter, loc, input.getType(), input);
    Value max = relay::MaxOp::create(rewriter, loc, op.getType(), negated,
                                     rewriter.getDenseI64ArrayAttr(axis),
                                     /*keepdims=*/true);
    rewriter.replaceOp(
        op, relay::NegativeOp::create(rewriter, loc, op.getType(), max));
    return success();
  }
};

/// relay's argmax returns i32 (as TVM); a TOSA i64 result gets a cast.
struct ArgMaxPattern : OpConversionPattern<tosa::ArgMaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ArgMaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getAxis();
    Type i32 = rewriter.getI32Type();
    Value result = relay::ArgmaxOp::create(
        rewriter, loc, resultType.clone(i32), adaptor.getInput(),
        rewriter.getDenseI64ArrayAttr(axis), /*keepdims=*/false);
    if (resultType.getElementType() != i32)
      result = relay::CastOp::create(rewriter, loc, resultType, result,
                                     resultType.getElementType());
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateReductionPatterns(RewritePatternSet &patterns) {
  patterns.add<ReducePattern<tosa::ReduceSumOp, relay::SumOp>,
               ReducePattern<tosa::ReduceMaxOp, relay::MaxOp>,
               ReduceMinPattern, ArgMaxPattern>(patterns.getContext());
}

} // namespace raf::tosa_to_relay
