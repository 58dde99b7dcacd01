//===- LambdaLift.cpp - relay.fn closures to module functions -------------===//
//
// --relay-lambda-lift. Relay's reverse mode (Relay paper §4.2) has to transform
// every value inside the function it differentiates, so `relay.grad` needs a
// closed operand; the paper notes that lambda lifting always provides one.
// Closures are lifted innermost first, so the closures a body creates are
// already partial applications when the body itself is lifted.
//
// Representation: relay has no partial-application op, so a closure that
// captures values becomes a `relay.fn` whose body is exactly
//
//   %r = func.call @lifted(%captured..., %args...)
//   relay.return %r
//
// It runs as is in the reference evaluator and is recognised by
// `matchPartialApplication` (PartialApplication.h), which
// --relay-defunctionalize shares. A closure that captures nothing becomes
// `relay.global_ref @lifted`.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "PartialApplication.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

namespace raf::relay {
#define GEN_PASS_DEF_RELAYLAMBDALIFT
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

/// Recognises `relay.fn(args) { r = func.call @f(captured..., args...);
/// relay.return r }`.
std::optional<PartialApplication>
raf::relay::matchPartialApplication(FnOp fn, SymbolTable &symbols) {
  Block &body = fn.getBody().front();
  if (!llvm::hasSingleElement(body.without_terminator()))
    return std::nullopt;
  auto call = dyn_cast<func::CallOp>(body.front());
  auto ret = dyn_cast<ReturnOp>(body.getTerminator());
  if (!call || !ret || !llvm::equal(ret.getValues(), call.getResults()))
    return std::nullopt;
  unsigned numArgs = body.getNumArguments();
  if (call.getNumOperands() < numArgs)
    return std::nullopt;
  unsigned numCaptured = call.getNumOperands() - numArgs;
  if (!llvm::equal(call.getOperands().drop_front(numCaptured),
                   body.getArguments()))
    return std::nullopt;
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee)
    return std::nullopt;
  PartialApplication partial{callee, {}};
  llvm::append_range(partial.captured,
                     call.getOperands().take_front(numCaptured));
  // Captured values come from outside the closure by construction; a
  // closure computing them itself is not a partial application.
  if (llvm::any_of(partial.captured, [&](Value v) {
        return fn.getBody().isAncestor(v.getParentRegion());
      }))
    return std::nullopt;
  return partial;
}

namespace {

/// Whether cloning the definition of a free variable into the lifted
/// function is as good as passing it: it is cheap and has no effects, and
/// a closure value's own captures become free variables in turn.
bool isRematerializable(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  return def->hasTrait<OpTrait::ConstantLike>() ||
         isa<GlobalRefOp, ZeroOp, FnOp>(def);
}

/// A `relay.fn` that returns the results of `func.call @callee(captured...,
/// args...)`, built at `builder`'s insertion point.
FnOp buildPartialApplication(OpBuilder &builder, Location loc,
                             FunctionType type, func::FuncOp callee,
                             ValueRange captured) {
  auto fn = FnOp::create(builder, loc, Type(type), /*primitive=*/false);
  Block *body = builder.createBlock(&fn.getBody());
  SmallVector<Value> operands(captured.begin(), captured.end());
  for (Type input : type.getInputs())
    operands.push_back(body->addArgument(input, loc));
  auto call = func::CallOp::create(builder, loc, callee, operands);
  ReturnOp::create(builder, loc, call.getResults());
  builder.setInsertionPointAfter(fn);
  return fn;
}

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

class LambdaLifter {
public:
  explicit LambdaLifter(ModuleOp module) : module(module), symbols(module) {}

  LogicalResult liftClosures();
  LogicalResult closeGradOperands();

private:
  LogicalResult lift(FnOp fn);
  void rematerializeFreeVariables(Region &body);
  /// `<base>_<suffix>_<k>` with the first k that is not taken.
  std::string uniqueName(StringRef base, StringRef suffix);
  LogicalResult closeGradOperand(GradOp grad);
  /// The function `(captured..., args...) -> tuple<result, tuple<grads of
  /// args...>>` that differentiates `lifted` with respect to all its
  /// parameters and drops the captured values' gradients.
  func::FuncOp getPartialGradient(func::FuncOp lifted, unsigned numCaptured);

  ModuleOp module;
  SymbolTable symbols;
  DenseMap<Operation *, func::FuncOp> partialGradients;
  DenseMap<Operation *, Operation *> lastLifted;
};

std::string LambdaLifter::uniqueName(StringRef base, StringRef suffix) {
  for (unsigned k = 0;; ++k) {
    std::string name = (base + "_" + suffix + "_" + Twine(k)).str();
    if (!symbols.lookup(name))
      return name;
  }
}

void LambdaLifter::rematerializeFreeVariables(Region &body) {
  OpBuilder builder(module.getContext());
  llvm::SetVector<Operation *> sources;
  bool changed = true;
  while (changed) {
    changed = false;
    llvm::SetVector<Value> freeVariables;
    getUsedValuesDefinedAbove(body, freeVariables);
    for (Value value : freeVariables.takeVector()) {
      if (!isRematerializable(value))
        continue;
      builder.setInsertionPointToStart(&body.front());
      Operation *source = value.getDefiningOp();
      Operation *clone = builder.clone(*source);
      Value replacement =
          clone->getResult(cast<OpResult>(value).getResultNumber());
      value.replaceUsesWithIf(replacement, [&](OpOperand &use) {
        return body.isAncestor(use.getOwner()->getParentRegion());
      });
      sources.insert(source);
      // A cloned closure brings its own captures in.
      changed = true;
    }
  }
  // The originals are pure; those only the closure used are dead now. A
  // closure's captures are erased after it, so visit in reverse.
  for (Operation *source : llvm::reverse(sources))
    if (source->use_empty())
      source->erase();
}

LogicalResult LambdaLifter::lift(FnOp fn) {
  auto parent = fn->getParentOfType<func::FuncOp>();
  if (!parent)
    return fn.emitOpError("cannot be lambda-lifted: it is not inside a "
                          "func.func");
  Region &body = fn.getBody();
  rematerializeFreeVariables(body);
  llvm::SetVector<Value> freeVariables;
  getUsedValuesDefinedAbove(body, freeVariables);

  FunctionType type = fn.getFunctionType();
  SmallVector<Type> inputs;
  for (Value value : freeVariables)
    inputs.push_back(value.getType());
  llvm::append_range(inputs, type.getInputs());

  // Lifted functions follow their parent in the order they were lifted.
  Operation *&insertAfter = lastLifted[parent];
  if (!insertAfter)
    insertAfter = parent;
  OpBuilder builder(module.getContext());
  builder.setInsertionPointAfter(insertAfter);
  auto lifted = func::FuncOp::create(
      builder, fn.getLoc(), uniqueName(parent.getSymName(), "lambda"),
      builder.getFunctionType(inputs, type.getResults()));
  lifted.setPrivate();
  insertAfter = lifted;
  if (fn.getPrimitive())
    lifted->setAttr(kPrimitiveAttr, builder.getUnitAttr());
  symbols.insert(lifted);

  Region &liftedBody = lifted.getBody();
  liftedBody.takeBody(body);
  Block &entry = liftedBody.front();
  for (auto [index, freeVariable] : llvm::enumerate(freeVariables)) {
    Value value = freeVariable;
    BlockArgument parameter =
        entry.insertArgument(index, value.getType(), value.getLoc());
    value.replaceUsesWithIf(parameter, [&](OpOperand &use) {
      return liftedBody.isAncestor(use.getOwner()->getParentRegion());
    });
  }
  auto ret = cast<ReturnOp>(entry.getTerminator());
  builder.setInsertionPoint(ret);
  func::ReturnOp::create(builder, ret.getLoc(), ret.getValues());
  ret.erase();

  builder.setInsertionPoint(fn);
  Value closure;
  if (freeVariables.empty())
    closure = GlobalRefOp::create(builder, fn.getLoc(), type,
                                  SymbolRefAttr::get(lifted));
  else
    closure = buildPartialApplication(builder, fn.getLoc(), type, lifted,
                                      freeVariables.getArrayRef());
  fn.getResult().replaceAllUsesWith(closure);
  fn.erase();
  return success();
}

LogicalResult LambdaLifter::liftClosures() {
  // Post-order: a closure's inner closures, and the closures defined before
  // it, are partial applications by the time it is lifted.
  SmallVector<FnOp> closures;
  module.walk([&](FnOp fn) { closures.push_back(fn); });
  for (FnOp fn : closures)
    if (failed(lift(fn)))
      return failure();
  return success();
}

func::FuncOp LambdaLifter::getPartialGradient(func::FuncOp lifted,
                                              unsigned numCaptured) {
  func::FuncOp &cached = partialGradients[lifted];
  if (cached)
    return cached;
  MLIRContext *context = module.getContext();
  FunctionType liftedType = lifted.getFunctionType();
  ArrayRef<Type> args = liftedType.getInputs().drop_front(numCaptured);
  Type resultType = TupleType::get(
      context, {liftedType.getResult(0), TupleType::get(context, args)});

  OpBuilder builder(context);
  builder.setInsertionPointAfter(lifted);
  Location loc = lifted.getLoc();
  cached = func::FuncOp::create(
      builder, loc, uniqueName(lifted.getSymName(), "partial_grad"),
      builder.getFunctionType(liftedType.getInputs(), resultType));
  cached.setPrivate();
  symbols.insert(cached);

  Block *entry = cached.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  Value callee =
      GlobalRefOp::create(builder, loc, liftedType, SymbolRefAttr::get(lifted));
  Value gradient = GradOp::create(builder, loc, callee);
  auto gradientType = cast<FunctionType>(gradient.getType());
  Value all = CallOp::create(builder, loc, gradientType.getResults(), gradient,
                             entry->getArguments())
                  .getResult(0);
  Value value = TupleGetOp::create(builder, loc, all, 0);
  Value grads = TupleGetOp::create(builder, loc, all, 1);
  SmallVector<Value> argGrads;
  for (unsigned i = 0, e = args.size(); i < e; ++i)
    argGrads.push_back(
        TupleGetOp::create(builder, loc, grads, numCaptured + i));
  Value argTuple = TupleOp::create(builder, loc, argGrads);
  Value result = TupleOp::create(builder, loc, ValueRange{value, argTuple});
  func::ReturnOp::create(builder, loc, result);
  return cached;
}

LogicalResult LambdaLifter::closeGradOperand(GradOp grad) {
  Value operand = grad.getFn();
  if (operand.getDefiningOp<GlobalRefOp>())
    return success();
  if (auto arg = dyn_cast<BlockArgument>(operand)) {
    InFlightDiagnostic diag =
        grad.emitError("relay.grad of a function parameter cannot be lifted "
                       "to a closed function: parameter #")
        << arg.getArgNumber()
        << " is only known at run time; relay.grad needs a relay.fn or "
           "relay.global_ref it can transform";
    diag.attachNote(arg.getLoc()) << "parameter declared here";
    return diag;
  }
  auto fn = operand.getDefiningOp<FnOp>();
  std::optional<PartialApplication> partial;
  if (fn)
    partial = matchPartialApplication(fn, symbols);
  if (!partial)
    return grad.emitError("relay.grad of a function value computed at run "
                          "time by '")
           << operand.getDefiningOp()->getName()
           << "' cannot be lifted to a closed function; relay.grad needs a "
              "relay.fn or relay.global_ref it can transform";

  // The captured values become extra parameters to differentiate; relay.grad
  // only abstracts over floating-point tensors.
  for (auto [index, value] : llvm::enumerate(partial->captured)) {
    if (isFloatTensor(value.getType()))
      continue;
    InFlightDiagnostic diag =
        grad.emitError("relay.grad of a function with free variables that "
                       "cannot be lifted: free variable #");
    diag << index << " has type " << value.getType();
    if (isa<RefType>(value.getType()))
      diag << "; a reference captured by the differentiated function would "
              "escape the gradient";
    else if (isa<FunctionType>(value.getType()))
      diag << "; the function it holds is only known at run time";
    else
      diag << "; only floating-point tensors can become extra "
              "differentiated parameters";
    diag.attachNote(value.getLoc()) << "free variable defined here";
    return diag;
  }

  func::FuncOp partialGradient =
      getPartialGradient(partial->callee, partial->captured.size());
  OpBuilder builder(grad);
  FnOp closure = buildPartialApplication(builder, grad.getLoc(),
                                         cast<FunctionType>(grad.getType()),
                                         partialGradient, partial->captured);
  grad.getResult().replaceAllUsesWith(closure.getResult());
  grad.erase();
  if (fn.use_empty())
    fn.erase();
  return success();
}

LogicalResult LambdaLifter::closeGradOperands() {
  SmallVector<GradOp> grads;
  module.walk([&](GradOp grad) { grads.push_back(grad); });
  bool ok = true;
  for (GradOp grad : grads)
    ok &= succeeded(closeGradOperand(grad));
  return success(ok);
}

struct RelayLambdaLift
    : public raf::relay::impl::RelayLambdaLiftBase<RelayLambdaLift> {
  void runOnOperation() override {
    LambdaLifter lifter(getOperation());
    if (failed(lifter.liftClosures()) || failed(lifter.closeGradOperands()))
      signalPassFailure();
  }
};

} // namespace
