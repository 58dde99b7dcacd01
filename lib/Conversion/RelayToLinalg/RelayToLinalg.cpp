//===- RelayToLinalg.cpp - the --convert-relay-to-linalg pass -------------===//
//
// Checks first that the whole module can be lowered, reporting every
// obstacle (a relay op without a lowering, a dynamic shape, an element type
// arith cannot compute with, a signature linalg cannot carry), then converts
// every relay operator with the per-concept patterns in one partial
// conversion. Nothing is rewritten when a check fails.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Conversion/Passes.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTRELAYTOLINALG
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf::relay_to_linalg;

namespace {

/// Whether linalg/arith can carry values of `type` out of a function.
bool isRepresentable(Type type) {
  return !isa<TupleType, FunctionType, raf::relay::RefType>(type);
}

LogicalResult checkSignature(func::FuncOp fn) {
  bool ok = true;
  auto check = [&](TypeRange types, StringRef what) {
    for (auto [index, type] : llvm::enumerate(types)) {
      if (isRepresentable(type))
        continue;
      fn.emitError() << "function @" << fn.getSymName() << " has " << what
                     << " #" << index << " of type " << type
                     << ", which the lowering to linalg cannot represent "
                        "(only tensor and scalar types are supported; "
                        "--raf-flatten-tuples passes tuples as their "
                        "elements)";
      ok = false;
    }
  };
  check(fn.getArgumentTypes(), "argument");
  check(fn.getResultTypes(), "result");
  return success(ok);
}

/// An operator needs static shapes and element types arith computes with
/// (signless integers, floats).
LogicalResult checkOperator(Operation *op) {
  bool ok = true;
  auto check = [&](Type type) {
    auto tensor = cast<RankedTensorType>(type);
    Type element = tensor.getElementType();
    if (!tensor.hasStaticShape()) {
      op->emitError() << op->getName()
                      << ": the lowering to linalg needs static shapes, got "
                      << type;
      ok = false;
    } else if (!isa<FloatType>(element) && !element.isSignlessInteger()) {
      op->emitError() << op->getName()
                      << ": the lowering to linalg supports signless integer "
                         "and float elements, got "
                      << type;
      ok = false;
    }
  };
  for (Type type : op->getOperandTypes())
    check(type);
  for (Type type : op->getResultTypes())
    check(type);
  if (!ok)
    return failure();
  if (auto take = dyn_cast<raf::relay::TakeOp>(op)) {
    RankedTensorType data = take.getData().getType();
    int64_t size = data.getNumElements();
    if (std::optional<int64_t> axis = take.getAxis())
      size = data.getDimSize(*axis < 0 ? *axis + data.getRank() : *axis);
    if (size == 0 && take.getType().getNumElements() != 0)
      return op->emitError()
             << op->getName()
             << ": cannot take elements from an empty axis (no index is in "
                "range)";
  }
  return success();
}

struct ConvertRelayToLinalgPass
    : raf::impl::ConvertRelayToLinalgBase<ConvertRelayToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    populateConstantPatterns(patterns);
    populateElementwisePatterns(patterns);
    populateReductionPatterns(patterns);
    populateNNPatterns(patterns);
    populateNormalizationPatterns(patterns);
    populateShapePatterns(patterns);
    populateControlFlowPatterns(patterns);

    llvm::DenseSet<OperationName> lowered;
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        lowered.insert(*root);
    if (failed(checkModule(module, lowered)))
      return signalPassFailure();

    ConversionTarget target(*context);
    target.addIllegalDialect<raf::relay::RelayDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }

  /// Reports everything the conversion cannot handle; structural ops are
  /// reported once, not their nested ops.
  LogicalResult checkModule(ModuleOp module,
                            const llvm::DenseSet<OperationName> &lowered) {
    bool ok = true;
    module->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      if (auto fn = dyn_cast<func::FuncOp>(op)) {
        ok &= succeeded(checkSignature(fn));
        return WalkResult::advance();
      }
      if (!isa<raf::relay::RelayDialect>(op->getDialect()))
        return WalkResult::advance();
      if (isa<raf::relay::FusionOpInterface>(op)) {
        if (!lowered.contains(op->getName())) {
          op->emitError() << op->getName() << " has no lowering to linalg";
          ok = false;
        } else {
          ok &= succeeded(checkOperator(op));
        }
        return WalkResult::advance();
      }
      if (isa<raf::relay::ConstantOp, raf::relay::YieldOp>(op))
        return WalkResult::advance();
      if (auto conditional = dyn_cast<raf::relay::IfOp>(op)) {
        // The branches' operators are checked as the walk goes on.
        for (auto [index, type] :
             llvm::enumerate(conditional.getResultTypes())) {
          auto tensor = dyn_cast<RankedTensorType>(type);
          if (tensor && tensor.hasStaticShape())
            continue;
          op->emitError() << "relay.if result #" << index << " has type "
                          << type
                          << "; the lowering to linalg supports relay.if "
                             "with statically shaped tensor results only";
          ok = false;
        }
        return WalkResult::advance();
      }
      if (auto zero = dyn_cast<raf::relay::ZeroOp>(op)) {
        auto type = dyn_cast<RankedTensorType>(zero.getType());
        if (type && type.hasStaticShape())
          return WalkResult::advance();
        op->emitError() << "relay.zero of type " << zero.getType()
                        << " has no lowering to linalg (only statically "
                           "shaped tensor types do)";
        ok = false;
        return WalkResult::skip();
      }
      op->emitError()
          << op->getName()
          << " has no lowering to linalg yet: the conversion lowers relay "
             "operators, relay.constant, tensor-typed relay.zero and relay.if "
             "only; closures and their calls are removed by "
             "--relay-lambda-lift and --relay-defunctionalize (the CPU "
             "pipeline runs both), tuples by --raf-flatten-tuples (which "
             "the pipeline runs next); references, and relay.grad lowered by "
             "--relay-grad-pipeline, run on --target=interp";
      ok = false;
      return WalkResult::skip();
    });
    return success(ok);
  }
};

} // namespace
