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
#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

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

/// A function's argument and result attributes by declared position, put
/// back at the flattened positions after the signature conversion.
struct FunctionAttributes {
  func::FuncOp function;
  SmallVector<Type> inputs, results;
  SmallVector<DictionaryAttr> argumentAttrs, resultAttrs;

  static FunctionAttributes save(func::FuncOp function) {
    FunctionAttributes saved{function, {}, {}, {}, {}};
    FunctionType type = function.getFunctionType();
    llvm::append_range(saved.inputs, type.getInputs());
    llvm::append_range(saved.results, type.getResults());
    for (unsigned i = 0, e = saved.inputs.size(); i != e; ++i)
      saved.argumentAttrs.push_back(function.getArgAttrDict(i));
    for (unsigned i = 0, e = saved.results.size(); i != e; ++i)
      saved.resultAttrs.push_back(function.getResultAttrDict(i));
    return saved;
  }

  static SmallVector<DictionaryAttr> flatten(ArrayRef<Type> types,
                                             ArrayRef<DictionaryAttr> attrs) {
    SmallVector<DictionaryAttr> flat;
    for (auto [type, dict] : llvm::zip_equal(types, attrs)) {
      unsigned leaves = countLeaves(type);
      if (isTuple(type))
        flat.append(leaves, DictionaryAttr());
      else
        flat.push_back(dict);
    }
    return flat;
  }

  void restoreFlattened() {
    SmallVector<DictionaryAttr> args = flatten(inputs, argumentAttrs);
    SmallVector<DictionaryAttr> res = flatten(results, resultAttrs);
    // raf.updates_arg names an argument by position: renumber it, or drop it
    // if it names a tuple (no single buffer to update in place).
    SmallVector<unsigned> argumentIndex;
    unsigned position = 0;
    for (Type type : inputs) {
      argumentIndex.push_back(isTuple(type) ? ~0u : position);
      position += countLeaves(type);
    }
    for (DictionaryAttr &dict : res) {
      auto updated =
          dict ? dict.getAs<IntegerAttr>(raf::relay::kUpdatesArgAttr) : nullptr;
      if (!updated)
        continue;
      NamedAttrList list(dict);
      uint64_t old = updated.getValue().getZExtValue();
      if (old < argumentIndex.size() && argumentIndex[old] != ~0u)
        list.set(raf::relay::kUpdatesArgAttr,
                 IntegerAttr::get(updated.getType(), argumentIndex[old]));
      else
        list.erase(raf::relay::kUpdatesArgAttr);
      dict = list.getDictionary(function.getContext());
    }
    FunctionType type = function.getFunctionType();
    if (args.size() == type.getNumInputs())
      function.setAllArgAttrs(args);
    if (res.size() == type.getNumResults())
      function.setAllResultAttrs(res);
  }
};

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
                         "returns, relay.if, relay.tuple, relay.tuple_get, "
                         "relay.zero and the scf loops and conditionals are "
                         "flattened; closures must be removed by "
                         "--relay-lambda-lift and --relay-defunctionalize "
                         "first); the reference evaluator (raf-run "
                         "--target=interp) runs such programs";
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
    // The signature conversion keeps argument and result attributes by
    // position (FunctionOpInterface::setType truncates or pads them), which
    // after flattening would put e.g. a result's raf.updates_arg on a leaf of
    // an earlier tuple. Remember them by declared position and move each to
    // its value's flattened position; a tuple's own attributes have no leaf
    // to go to and are dropped.
    std::vector<FunctionAttributes> saved;
    module.walk([&](func::FuncOp fn) {
      FunctionType type = fn.getFunctionType();
      if (llvm::any_of(type.getInputs(), isTuple) ||
          llvm::any_of(type.getResults(), isTuple))
        saved.push_back(FunctionAttributes::save(fn));
    });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    for (FunctionAttributes &attributes : saved)
      attributes.restoreFlattened();
  }
};

} // namespace
