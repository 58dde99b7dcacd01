//===- FlattenTuples.cpp - tuples as their elements across functions ------===//
//
// A Relay tuple (Relay paper, Roesch et al. 2018, §3.1: TYPE-PRODUCT and
// TYPE-PROJECTION) has no run-time representation in linalg or LLVM: the
// CPU pipeline passes it as its elements instead. Every tuple-typed value of
// a function signature, func.call, func.return, relay.if / relay.yield,
// relay.zero and the scf structural ops becomes the values of its leaves,
// depth first (nested tuples recursively), through MLIR's 1:N dialect
// conversion; relay.tuple then forwards its operands and relay.tuple_get the
// slice of leaves of its field, so no tuple is left. A tuple reaching any
// other op (a closure that was not defunctionalised, a reference) is
// reported at that op and nothing is rewritten.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace raf {
#define GEN_PASS_DEF_RAFFLATTENTUPLES
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;
namespace relay = raf::relay;

namespace {

/// The number of leaves of `type` (1 for a non-tuple).
unsigned countLeaves(Type type) {
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return 1;
  unsigned count = 0;
  for (Type element : tuple.getTypes())
    count += countLeaves(element);
  return count;
}

SmallVector<Value> concatenate(ArrayRef<ValueRange> ranges) {
  SmallVector<Value> values;
  for (ValueRange range : ranges)
    llvm::append_range(values, range);
  return values;
}

/// `relay.tuple(a, b)` is its operands' leaves.
struct TupleFlattening : OpConversionPattern<relay::TupleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::TupleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(
        op, SmallVector<SmallVector<Value>>{concatenate(adaptor.getFields())});
    return success();
  }
};

/// `relay.tuple_get %t[i]` is the slice of %t's leaves that field i spans.
struct TupleGetFlattening : OpConversionPattern<relay::TupleGetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::TupleGetOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tupleType = cast<TupleType>(op.getTuple().getType());
    unsigned offset = 0;
    for (Type element : tupleType.getTypes().take_front(op.getIndex()))
      offset += countLeaves(element);
    ValueRange leaves = adaptor.getTuple();
    unsigned count = countLeaves(op.getType());
    SmallVector<Value> field(leaves.slice(offset, count));
    rewriter.replaceOpWithMultiple(op,
                                   SmallVector<SmallVector<Value>>{field});
    return success();
  }
};

/// Zeros of a tuple type are zeros of each leaf type (TYPE-ZERO).
struct ZeroFlattening : OpConversionPattern<relay::ZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::ZeroOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(op.getType(), types)))
      return failure();
    SmallVector<Value> zeros;
    for (Type type : types)
      zeros.push_back(relay::ZeroOp::create(rewriter, op.getLoc(), type));
    rewriter.replaceOpWithMultiple(op,
                                   SmallVector<SmallVector<Value>>{zeros});
    return success();
  }
};

/// A relay.if yields the leaves of its results.
struct IfFlattening : OpConversionPattern<relay::IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::IfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    SmallVector<unsigned> counts;
    for (Type type : op.getResultTypes()) {
      size_t before = types.size();
      if (failed(getTypeConverter()->convertType(type, types)))
        return failure();
      counts.push_back(types.size() - before);
    }
    ValueRange condition = adaptor.getCondition();
    if (condition.size() != 1)
      return failure();
    auto flat =
        relay::IfOp::create(rewriter, op.getLoc(), types, condition.front());
    rewriter.inlineRegionBefore(op.getThenRegion(), flat.getThenRegion(),
                                flat.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), flat.getElseRegion(),
                                flat.getElseRegion().end());
    SmallVector<SmallVector<Value>> replacements;
    unsigned offset = 0;
    for (unsigned count : counts) {
      replacements.emplace_back(
          flat.getResults().slice(offset, count).begin(),
          flat.getResults().slice(offset, count).end());
      offset += count;
    }
    rewriter.replaceOpWithMultiple(op, replacements);
    return success();
  }
};

struct YieldFlattening : OpConversionPattern<relay::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::YieldOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<relay::YieldOp>(
        op, concatenate(adaptor.getValues()));
    return success();
  }
};

bool isTuple(Type type) { return isa<TupleType>(type); }

/// Ops whose tuple operands and results the conversion flattens.
bool isFlattened(Operation *op) {
  return isa<func::FuncOp, func::CallOp, func::ReturnOp, relay::IfOp,
             relay::YieldOp, relay::TupleOp, relay::TupleGetOp, relay::ZeroOp,
             scf::ForOp, scf::IfOp, scf::WhileOp, scf::ConditionOp,
             scf::YieldOp>(op);
}

struct FlattenTuplesPass
    : raf::impl::RAFFlattenTuplesBase<FlattenTuplesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Everything else that carries a tuple is reported, before any rewrite.
    bool ok = true;
    module.walk([&](Operation *op) {
      if (isFlattened(op))
        return;
      bool carriesTuple = llvm::any_of(op->getOperandTypes(), isTuple) ||
                          llvm::any_of(op->getResultTypes(), isTuple);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          carriesTuple |= llvm::any_of(block.getArgumentTypes(), isTuple);
      if (!carriesTuple)
        return;
      op->emitError() << op->getName()
                      << " takes or gives a tuple, which --raf-flatten-tuples "
                         "cannot flatten (only function signatures, calls, "
                         "returns, relay.if, relay.tuple, relay.tuple_get and "
                         "relay.zero are flattened; closures must be removed "
                         "by --relay-lambda-lift and --relay-defunctionalize "
                         "first); run it with --target=interp";
      ok = false;
    });
    if (!ok)
      return signalPassFailure();

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](TupleType type, SmallVectorImpl<Type> &leaves) {
          type.getFlattenedTypes(leaves);
          return success();
        });

    ConversionTarget target(*context);
    target.addIllegalOp<relay::TupleOp, relay::TupleGetOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp fn) {
      return converter.isSignatureLegal(fn.getFunctionType()) &&
             converter.isLegal(&fn.getBody());
    });
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversions(converter, patterns);
    patterns.add<TupleFlattening, TupleGetFlattening, ZeroFlattening,
                 IfFlattening, YieldFlattening>(converter, context);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
