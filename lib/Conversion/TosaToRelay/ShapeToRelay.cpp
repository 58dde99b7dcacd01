//===- ShapeToRelay.cpp - TOSA data movement ops to relay -----------------===//
//
// reshape, transpose, concat, slice and pad. TOSA passes shapes, starts and
// paddings as `!tosa.shape` values of `tosa.const_shape`; the checks
// guarantee they are constant and the result shapes static, so reshape and
// slice sizes are read from the result type (which also resolves a -1).
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

struct ReshapePattern : OpConversionPattern<tosa::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(op,
                       relay::ReshapeOp::create(rewriter, op.getLoc(), type,
                                                adaptor.getInput1(),
                                                type.getShape()));
    return success();
  }
};

struct TransposePattern : OpConversionPattern<tosa::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<int64_t> axes(op.getPerms());
    rewriter.replaceOp(op, relay::TransposeOp::create(
                               rewriter, op.getLoc(), op.getType(),
                               adaptor.getInput1(),
                               rewriter.getDenseI64ArrayAttr(axes)));
    return success();
  }
};

struct ConcatPattern : OpConversionPattern<tosa::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, relay::ConcatenateOp::create(
                               rewriter, op.getLoc(), op.getType(),
                               adaptor.getInput1(), op.getAxis()));
    return success();
  }
};

/// tosa.slice: `size` elements from `start` on every axis.
struct SlicePattern : OpConversionPattern<tosa::SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> start =
        getConstantShape(op.getStart());
    if (!start)
      return rewriter.notifyMatchFailure(op, "start is not a const_shape");
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> end;
    for (auto [begin, size] : llvm::zip(*start, type.getShape()))
      end.push_back(begin + size);
    rewriter.replaceOp(op, relay::StridedSliceOp::create(
                               rewriter, op.getLoc(), type,
                               adaptor.getInput1(), *start, end,
                               /*strides=*/nullptr, /*axes=*/nullptr));
    return success();
  }
};

/// tosa.pad: `padding` lists before/after per axis, as relay's `pad_width`;
/// the constant `pad_const` becomes `pad_value`.
struct PadPattern : OpConversionPattern<tosa::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tosa::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> padding =
        getConstantShape(op.getPadding());
    std::optional<double> value = getScalarConstant(op.getPadConst());
    if (!padding || !value)
      return rewriter.notifyMatchFailure(op, "padding is not constant");
    rewriter.replaceOp(op, relay::PadOp::create(
                               rewriter, op.getLoc(), op.getType(),
                               adaptor.getInput1(), *padding,
                               APFloat(*value), relay::PadMode::Constant));
    return success();
  }
};

} // namespace

void populateShapePatterns(RewritePatternSet &patterns) {
  patterns.add<ReshapePattern, TransposePattern, ConcatPattern, SlicePattern,
               PadPattern>(patterns.getContext());
}

} // namespace raf::tosa_to_relay
