//===- ElementwiseToRelay.cpp - element-wise TOSA ops to relay ------------===//
//
// Unary and broadcasting binary operators, clamp, select, cast, constants
// and identity. TOSA binary operators broadcast size-1 axes of equal-rank
// operands, a special case of relay's NumPy broadcasting, so operands pass
// through unchanged. Operators relay lacks are composed: clamp is maximum
// then minimum, reciprocal a division of one, abs the maximum of x and -x.
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

RankedTensorType getResultType(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType());
}

template <typename TosaOp, typename RelayOp>
struct UnaryPattern : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, RelayOp::create(rewriter, op.getLoc(),
                                           getResultType(op),
                                           adaptor.getOperands().front()));
    return success();
  }
};

template <typename TosaOp, typename RelayOp>
struct BinaryPattern : OpConversionPattern<TosaOp> {
  using OpConversionPattern<TosaOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TosaOp op, typename TosaOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    rewriter.replaceOp(op,
                       RelayOp::create(rewriter, op.getLoc(), getResultType(op),
                                       operands[0], operands[1]));
    return success();
  }
};

/// tosa.mul: the shift is checked to be zero. Integer multiplication of
/// i8/i16 inputs has an i32 result in TOSA, so narrower operands are cast
/// to the result type first (relay multiplies in the operand type).
struct MulPattern : OpConversionPattern<tosa::MulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::MulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(op);
    Type element = resultType.getElementType();
    auto widen = [&](Value value) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      if (type.getElementType() == element)
        return value;
      return relay::CastOp::create(rewriter, op.getLoc(),
                                   type.clone(element), value, element);
    };
    // Separate statements: the casts are emitted in operand order.
    Value lhs = widen(adaptor.getInput1());
    Value rhs = widen(adaptor.getInput2());
    rewriter.replaceOp(op, relay::MultiplyOp::create(rewriter, op.getLoc(),
                                                     resultType, lhs, rhs));
    return success();
  }
};

/// The bound as a double, or nothing when it cannot clip any value of
/// `element`, so that relu-style clamps with an "unbounded" side produce a
/// single relay op. For floats only the infinity on the bound's own side is
/// unbounded: the largest finite value still clips an infinite input.
std::optional<double> getEffectiveBound(Attribute bound, Type element,
                                        bool isLower) {
  if (auto floatAttr = dyn_cast<FloatAttr>(bound)) {
    APFloat value = floatAttr.getValue();
    if (value.isInfinity() && value.isNegative() == isLower)
      return std::nullopt;
    return value.convertToDouble();
  }
  APInt value = cast<IntegerAttr>(bound).getValue();
  unsigned width = element.getIntOrFloatBitWidth();
  if (width == 1)
    return value.getBoolValue() ? 1.0 : 0.0;
  APInt extreme = isLower ? APInt::getSignedMinValue(width)
                          : APInt::getSignedMaxValue(width);
  if (value.sextOrTrunc(width) == extreme)
    return std::nullopt;
  return static_cast<double>(value.getSExtValue());
}

struct ClampPattern : OpConversionPattern<tosa::ClampOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ClampOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultType(op);
    Type element = type.getElementType();
    Location loc = op.getLoc();
    Value result = adaptor.getInput();
    if (std::optional<double> low =
            getEffectiveBound(op.getMinValAttr(), element, /*isLower=*/true))
      result = relay::MaximumOp::create(
          rewriter, loc, type, result,
          createScalarConstant(rewriter, loc, element, *low));
    if (std::optional<double> high =
            getEffectiveBound(op.getMaxValAttr(), element, /*isLower=*/false))
      result = relay::MinimumOp::create(
          rewriter, loc, type, result,
          createScalarConstant(rewriter, loc, element, *high));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ReciprocalPattern : OpConversionPattern<tosa::ReciprocalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ReciprocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultType(op);
    Value one =
        createScalarConstant(rewriter, op.getLoc(), type.getElementType(), 1.0);
    rewriter.replaceOp(op, relay::DivideOp::create(rewriter, op.getLoc(), type,
                                                   one, adaptor.getInput1()));
    return success();
  }
};

/// tosa.negate with zero points checked to be zero.
struct NegatePattern : OpConversionPattern<tosa::NegateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::NegateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       relay::NegativeOp::create(rewriter, op.getLoc(),
                                                 getResultType(op),
                                                 adaptor.getInput1()));
    return success();
  }
};

/// relay has no abs: |x| = maximum(x, -x) (NaN propagates through maximum).
struct AbsPattern : OpConversionPattern<tosa::AbsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::AbsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultType(op);
    Value x = adaptor.getInput1();
    Value negated = relay::NegativeOp::create(rewriter, op.getLoc(), type, x);
    rewriter.replaceOp(op, relay::MaximumOp::create(rewriter, op.getLoc(),
                                                    type, x, negated));
    return success();
  }
};

struct SelectPattern : OpConversionPattern<tosa::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, relay::WhereOp::create(
                               rewriter, op.getLoc(), getResultType(op),
                               adaptor.getInput1(), adaptor.getInput2(),
                               adaptor.getInput3()));
    return success();
  }
};

/// tosa.cast; the casts whose rounding differs (float to integer) are
/// rejected by the checks. To i1 both test `!= 0`; from i1 both give 0/1.
struct CastPattern : OpConversionPattern<tosa::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultType(op);
    rewriter.replaceOp(op, relay::CastOp::create(rewriter, op.getLoc(), type,
                                                 adaptor.getInput(),
                                                 type.getElementType()));
    return success();
  }
};

struct ConstPattern : OpConversionPattern<tosa::ConstOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ConstOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       relay::ConstantOp::create(rewriter, op.getLoc(),
                                                 getResultType(op),
                                                 op.getValues()));
    return success();
  }
};

struct IdentityPattern : OpConversionPattern<tosa::IdentityOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput1());
    return success();
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<UnaryPattern<tosa::SigmoidOp, relay::SigmoidOp>,
               UnaryPattern<tosa::TanhOp, relay::TanhOp>,
               UnaryPattern<tosa::ExpOp, relay::ExpOp>,
               UnaryPattern<tosa::LogOp, relay::LogOp>,
               UnaryPattern<tosa::RsqrtOp, relay::RsqrtOp>,
               UnaryPattern<tosa::ErfOp, relay::ErfOp>>(context);
  patterns.add<BinaryPattern<tosa::AddOp, relay::AddOp>,
               BinaryPattern<tosa::SubOp, relay::SubtractOp>,
               BinaryPattern<tosa::IntDivOp, relay::DivideOp>,
               BinaryPattern<tosa::PowOp, relay::PowerOp>,
               BinaryPattern<tosa::MaximumOp, relay::MaximumOp>,
               BinaryPattern<tosa::MinimumOp, relay::MinimumOp>,
               BinaryPattern<tosa::EqualOp, relay::EqualOp>,
               BinaryPattern<tosa::GreaterOp, relay::GreaterOp>,
               BinaryPattern<tosa::GreaterEqualOp, relay::GreaterEqualOp>>(
      context);
  patterns.add<MulPattern, ClampPattern, ReciprocalPattern, NegatePattern,
               AbsPattern, SelectPattern, CastPattern, ConstPattern,
               IdentityPattern>(context);
}

} // namespace raf::tosa_to_relay
