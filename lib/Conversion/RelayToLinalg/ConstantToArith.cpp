//===- ConstantToArith.cpp - relay.constant and relay.zero to arith -------===//
//
// The two structural ops that are plain tensor values: a literal becomes an
// arith.constant with the same elements, a tensor-typed relay.zero a zero
// splat. Tuple-typed relay.zero is rejected by the pass before conversion.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace raf::relay_to_linalg {
namespace {

struct ConstantLowering : OpConversionPattern<relay::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "the literal is not typed");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getType(), value);
    return success();
  }
};

struct ZeroLowering : OpConversionPattern<relay::ZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::ZeroOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a static tensor type");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, rewriter.getZeroAttr(type));
    return success();
  }
};

} // namespace

void populateConstantPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, ZeroLowering>(patterns.getContext());
}

} // namespace raf::relay_to_linalg
