//===- ControlFlowToSCF.cpp - relay.if to scf.if ---------------------------===//
//
// relay.if (Relay's `if c then b1 else b2`) becomes scf.if on the element of
// its rank-0 condition; the branches move over unchanged and their operators
// are lowered with the rest of the function. One-shot bufferization handles
// scf.if with tensor results, so a function with conditionals compiles for
// the CPU like straight-line code.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

struct IfLowering : OpConversionPattern<raf::relay::IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(raf::relay::IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto conditionType = cast<RankedTensorType>(adaptor.getCondition().getType());
    SmallVector<Value> origin(
        conditionType.getRank(),
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    Value flag =
        tensor::ExtractOp::create(rewriter, loc, adaptor.getCondition(), origin);
    auto lowered =
        scf::IfOp::create(rewriter, loc, op.getResultTypes(), flag,
                          /*addThenBlock=*/false, /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), lowered.getThenRegion(),
                                lowered.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), lowered.getElseRegion(),
                                lowered.getElseRegion().end());
    rewriter.replaceOp(op, lowered.getResults());
    return success();
  }
};

struct YieldLowering : OpConversionPattern<raf::relay::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(raf::relay::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

} // namespace

void raf::relay_to_linalg::populateControlFlowPatterns(
    RewritePatternSet &patterns) {
  patterns.add<IfLowering, YieldLowering>(patterns.getContext());
}
