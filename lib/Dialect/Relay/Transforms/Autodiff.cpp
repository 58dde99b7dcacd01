//===- Autodiff.cpp - RAF's reverse-mode automatic differentiation --------===//
//
// --raf-autodiff (RAF paper §3.1.1; RAF source src/pass/gradient.cc). A block
// is an ANF let-list, so the backward pass is a reverse walk over it: every
// operator on a path from a differentiated argument to the loss hands its
// result gradients to its gradient rule, and the operand gradients accumulate
// with relay.add.
//
// Control flow and calls are turned into "primal plus backpropagator"
// first, the closure-based method of RAF and Pearlmutter-Siskind: a
// func.call of @g becomes a call of @g_adjoint returning g's results and a
// closure that maps result gradients to argument gradients; a relay.if
// yields such a closure from each branch, over the branches' free
// variables. Their backward step is a relay.call of that closure.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/GradientRules/GradientRules.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"
#include "raf/Support/PassOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFAUTODIFF
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Values an operation reads: its operands and the values its regions use
/// from outside (a relay.if reads what its branches capture).
SmallVector<Value> readValues(Operation *op) {
  SetVector<Value> values(op->operand_begin(), op->operand_end());
  if (op->getNumRegions() > 0) {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    values.insert(captured.begin(), captured.end());
  }
  return values.takeVector();
}

/// Zeros of a tensor type: the gradient of what the loss does not reach.
Value zerosOf(OpBuilder &builder, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return ZerosOp::create(builder, loc, tensor.getShape(),
                         tensor.getElementType());
}

class Differentiator {
public:
  Differentiator(ModuleOp module, bool stopAtNondifferentiable)
      : module(module), symbols(module),
        stopAtNondifferentiable(stopAtNondifferentiable) {}

  /// Differentiates the ops of `block` before its terminator. Forward ops
  /// stay in place (calls and ifs on a gradient path are rewritten to
  /// return backpropagators); backward ops are created with `bwd`. `seeds`
  /// has one entry (or null) per terminator operand. Returns the gradient of
  /// each of `wanted` (null: the loss does not depend on it).
  FailureOr<SmallVector<Value>> differentiate(Block &block,
                                              ArrayRef<Value> wanted,
                                              ArrayRef<Value> seeds,
                                              OpBuilder &bwd);

  /// @g_adjoint for @g: g's results followed by a closure from the gradients
  /// of g's float results to the gradients of its float arguments.
  FailureOr<func::FuncOp> getAdjointFunction(func::FuncOp callee,
                                             Location callSite);

  /// Builds `relay.fn(dys...) { backward; relay.return tuple(grads) }`
  /// before `terminator`, differentiating `block` for `wanted` with the
  /// closure's parameters seeding the terminator operands at
  /// `seededOperands`.
  FailureOr<Value> buildBackpropagator(Block &block, Operation *terminator,
                                       ArrayRef<Value> wanted,
                                       ArrayRef<unsigned> seededOperands);

private:
  struct Sweep;

  ModuleOp module;
  SymbolTable symbols;
  bool stopAtNondifferentiable;
  llvm::DenseMap<func::FuncOp, func::FuncOp> adjointFunctions;
  /// Calls and ifs rewritten to return a backpropagator (their last result)
  /// and the values it returns gradients for, in order: the call's float
  /// operands, the if's differentiated free variables.
  llvm::DenseMap<Operation *, SmallVector<Value>> backpropTargets;
};

/// State of one reverse sweep over one block.
struct Differentiator::Sweep {
  // A constructor rather than aggregate initialisation: the maps' default
  // constructors are explicit, which `{}` may not call (clang rejects it).
  Sweep(Differentiator &parent, OpBuilder &bwd) : parent(parent), bwd(bwd) {}

  Differentiator &parent;
  OpBuilder &bwd;
  llvm::DenseSet<Value> varied;
  llvm::DenseMap<Value, Value> grads;
  llvm::DenseMap<Value, SmallVector<Value>> tupleGrads;
  /// The value whose gradient produced each gradient first: the path from
  /// the loss, for diagnostics.
  llvm::DenseMap<Value, Value> gradSource;

  Location loc() const { return bwd.getUnknownLoc(); }

  void accumulate(Value target, Value gradient, Value source) {
    if (!gradient || !varied.contains(target))
      return;
    if (auto tuple = dyn_cast<TupleType>(target.getType())) {
      // A whole-tuple gradient splits into its fields.
      SmallVector<Value> &slots = tupleGrads[target];
      slots.resize(tuple.size());
      for (unsigned i = 0, e = tuple.size(); i < e; ++i) {
        Value field = TupleGetOp::create(bwd, gradient.getLoc(), gradient, i);
        slots[i] =
            slots[i]
                ? Value(AddOp::create(bwd, field.getLoc(), slots[i], field))
                : field;
      }
      gradSource.try_emplace(target, source);
      return;
    }
    Value &slot = grads[target];
    slot = slot ? Value(AddOp::create(bwd, gradient.getLoc(), slot, gradient))
                : gradient;
    gradSource.try_emplace(target, source);
  }

  bool hasGradient(Value value) const {
    return grads.count(value) || tupleGrads.count(value);
  }

  /// Notes the path the gradient took from the loss to `value`.
  void notePath(InFlightDiagnostic &diag, Value value) {
    for (unsigned steps = 0; value && steps < 64; ++steps) {
      Value source = gradSource.lookup(value);
      Operation *consumer = source ? source.getDefiningOp() : nullptr;
      if (!consumer)
        break;
      diag.attachNote(consumer->getLoc())
          << "the gradient reaches it through '" << consumer->getName() << "'";
      value = source;
    }
  }

  LogicalResult nondifferentiable(Operation *op, Value throughResult) {
    if (parent.stopAtNondifferentiable)
      return success();
    InFlightDiagnostic diag =
        op->emitError()
        << "'" << op->getName()
        << "' is not differentiable, but the gradient of the loss flows "
           "through it to a differentiated argument (use "
           "nondifferentiable=zero to treat it as a constant)";
    notePath(diag, throughResult);
    return diag;
  }

  LogicalResult visit(Operation *op);
  LogicalResult visitBackprop(Operation *op, ArrayRef<Value> targets);
};

LogicalResult Differentiator::Sweep::visitBackprop(Operation *op,
                                                   ArrayRef<Value> targets) {
  // Call the backpropagator with the gradients of the float results.
  Value backprop = op->getResults().back();
  auto fnType = cast<FunctionType>(backprop.getType());
  SmallVector<Value> dys;
  Value through;
  for (Value result : op->getResults().drop_back()) {
    if (!isFloatTensor(result.getType()))
      continue;
    Value g = grads.lookup(result);
    if (g)
      through = result;
    else
      g = zerosOf(bwd, op->getLoc(), result.getType());
    dys.push_back(g);
  }
  auto call =
      CallOp::create(bwd, op->getLoc(), fnType.getResults(), backprop, dys);
  Value all = call.getResult(0);
  for (auto [i, target] : llvm::enumerate(targets))
    accumulate(target, TupleGetOp::create(bwd, op->getLoc(), all, i), through);
  return success();
}

LogicalResult Differentiator::Sweep::visit(Operation *op) {
  bool anyResultGradient =
      llvm::any_of(op->getResults(), [&](Value r) { return hasGradient(r); });
  if (!anyResultGradient)
    return success();
  if (llvm::none_of(readValues(op),
                    [&](Value v) { return varied.contains(v); }))
    return success();
  Value through;
  for (Value r : op->getResults())
    if (hasGradient(r)) {
      through = r;
      break;
    }

  if (auto tuple = dyn_cast<TupleOp>(op)) {
    SmallVector<Value> slots = tupleGrads.lookup(tuple.getResult());
    for (auto [i, field] : llvm::enumerate(tuple.getFields()))
      if (i < slots.size())
        accumulate(field, slots[i], through);
    return success();
  }
  if (auto get = dyn_cast<TupleGetOp>(op)) {
    Value g = grads.lookup(get.getResult());
    if (!g) {
      // A nested tuple field carries its own slots; rebuild it.
      SmallVector<Value> slots = tupleGrads.lookup(get.getResult());
      auto type = cast<TupleType>(get.getResult().getType());
      SmallVector<Value> fields;
      for (unsigned i = 0, e = type.size(); i < e; ++i) {
        Value slot = i < slots.size() ? slots[i] : Value();
        if (!slot) {
          auto fieldType = dyn_cast<RankedTensorType>(type.getType(i));
          if (!fieldType)
            return op->emitError("nested tuples of tuples are not supported "
                                 "by --raf-autodiff");
          slot = zerosOf(bwd, op->getLoc(), fieldType);
        }
        fields.push_back(slot);
      }
      g = TupleOp::create(bwd, op->getLoc(), fields);
    }
    Value tuple = get.getTuple();
    if (!varied.contains(tuple))
      return success();
    auto tupleType = cast<TupleType>(tuple.getType());
    SmallVector<Value> &slots = tupleGrads[tuple];
    slots.resize(tupleType.size());
    int64_t index = get.getIndex();
    slots[index] =
        slots[index] ? Value(AddOp::create(bwd, op->getLoc(), slots[index], g))
                     : g;
    gradSource.try_emplace(tuple, through);
    return success();
  }
  auto rewritten = parent.backpropTargets.find(op);
  if (rewritten != parent.backpropTargets.end())
    return visitBackprop(op, rewritten->second);
  if (isa<FnOp, CallOp, RefNewOp, RefReadOp, RefWriteOp, GradOp, GlobalRefOp>(
          op))
    return op->emitError()
           << "'" << op->getName()
           << "' on a gradient path: --raf-autodiff differentiates first-order "
              "code; use relay.grad (--relay-grad-pipeline) for closures and "
              "references";
  if (auto cast = dyn_cast<CastOp>(op)) {
    // A gradient cannot enter an integer: whatever produced it is
    // piecewise constant.
    if (!isFloatTensor(cast.getX().getType())) {
      if (Operation *producer = cast.getX().getDefiningOp()) {
        gradSource.try_emplace(cast.getX(), through);
        return nondifferentiable(producer, cast.getX());
      }
      return nondifferentiable(op, through);
    }
  }
  auto rule = dyn_cast<GradientOpInterface>(op);
  if (!rule)
    return nondifferentiable(op, through);

  SmallVector<Value> resultGrads;
  for (Value r : op->getResults())
    resultGrads.push_back(grads.lookup(r));
  SmallVector<Value> operandGrads;
  if (failed(rule.buildAdjoint(bwd, resultGrads, operandGrads)))
    return failure();
  for (auto [operand, g] : llvm::zip(op->getOperands(), operandGrads))
    accumulate(operand, g, through);
  return success();
}

} // namespace

FailureOr<SmallVector<Value>>
Differentiator::differentiate(Block &block, ArrayRef<Value> wanted,
                              ArrayRef<Value> seeds, OpBuilder &bwd) {
  Sweep sweep(*this, bwd);
  sweep.varied.insert(wanted.begin(), wanted.end());
  Operation *terminator = block.getTerminator();

  // Forward activity: what depends on a differentiated value.
  for (Operation &op : block.without_terminator())
    if (llvm::any_of(readValues(&op),
                     [&](Value v) { return sweep.varied.contains(v); }))
      sweep.varied.insert(op.getResults().begin(), op.getResults().end());
  // Backward usefulness: what the seeded results depend on.
  llvm::DenseSet<Value> useful;
  for (auto [operand, seed] : llvm::zip(terminator->getOperands(), seeds))
    if (seed)
      useful.insert(operand);
  for (Operation &op : llvm::reverse(block.without_terminator()))
    if (llvm::any_of(op.getResults(),
                     [&](Value r) { return useful.contains(r); }))
      for (Value v : readValues(&op))
        useful.insert(v);
  auto active = [&](Operation &op) {
    return llvm::any_of(op.getResults(),
                        [&](Value r) { return useful.contains(r); }) &&
           llvm::any_of(readValues(&op),
                        [&](Value v) { return sweep.varied.contains(v); });
  };

  // Calls and conditionals on a gradient path return backpropagators.
  for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
    if (!active(op))
      continue;
    if (auto call = dyn_cast<func::CallOp>(&op)) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return call.emitError("cannot differentiate a call of a function "
                              "without a body");
      FailureOr<func::FuncOp> adjoint = getAdjointFunction(callee, op.getLoc());
      if (failed(adjoint))
        return failure();
      OpBuilder b(call);
      auto newCall =
          func::CallOp::create(b, call.getLoc(), *adjoint, call.getOperands());
      SmallVector<Value> &targets = backpropTargets[newCall];
      for (Value operand : call.getOperands())
        if (isFloatTensor(operand.getType()))
          targets.push_back(operand);
      for (auto [old, now] :
           llvm::zip(call.getResults(), newCall.getResults().drop_back())) {
        old.replaceAllUsesWith(now);
        if (sweep.varied.contains(old))
          sweep.varied.insert(now);
      }
      call.erase();
      continue;
    }
    if (auto ifOp = dyn_cast<IfOp>(&op)) {
      SetVector<Value> captured;
      getUsedValuesDefinedAbove(ifOp->getRegions(), captured);
      SmallVector<Value> freeVars;
      for (Value v : captured) {
        if (!sweep.varied.contains(v))
          continue;
        if (!isFloatTensor(v.getType()))
          return ifOp.emitError("--raf-autodiff differentiates relay.if only "
                                "over float tensors; a branch uses a "
                                "differentiated value of type ")
                 << v.getType();
        freeVars.push_back(v);
      }
      SmallVector<unsigned> seeded;
      for (auto [i, type] : llvm::enumerate(ifOp.getResultTypes())) {
        if (isFloatTensor(type))
          seeded.push_back(i);
        else if (isa<TupleType>(type))
          return ifOp.emitError("--raf-autodiff does not differentiate "
                                "relay.if with tuple results");
      }
      SmallVector<Value> backprops;
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        Block &branch = region->front();
        FailureOr<Value> backprop = buildBackpropagator(
            branch, branch.getTerminator(), freeVars, seeded);
        if (failed(backprop))
          return failure();
        branch.getTerminator()->insertOperands(
            branch.getTerminator()->getNumOperands(), *backprop);
        backprops.push_back(*backprop);
      }
      SmallVector<Type> types(ifOp.getResultTypes());
      types.push_back(backprops.front().getType());
      OpBuilder b(ifOp);
      auto newIf = IfOp::create(b, ifOp.getLoc(), types, ifOp.getCondition());
      newIf.getThenRegion().takeBody(ifOp.getThenRegion());
      newIf.getElseRegion().takeBody(ifOp.getElseRegion());
      for (auto [old, now] :
           llvm::zip(ifOp.getResults(), newIf.getResults().drop_back())) {
        old.replaceAllUsesWith(now);
        if (sweep.varied.contains(old))
          sweep.varied.insert(now);
      }
      backpropTargets[newIf] = freeVars;
      ifOp.erase();
      continue;
    }
  }
  for (auto [operand, seed] : llvm::zip(terminator->getOperands(), seeds))
    if (seed)
      sweep.accumulate(operand, seed, Value());

  // Snapshot first: in inline form the backward ops land in this block.
  SmallVector<Operation *> forward;
  for (Operation &op : block.without_terminator())
    forward.push_back(&op);
  for (Operation *op : llvm::reverse(forward))
    if (failed(sweep.visit(op)))
      return failure();

  SmallVector<Value> result;
  for (Value v : wanted)
    result.push_back(sweep.grads.lookup(v));
  return result;
}

FailureOr<Value>
Differentiator::buildBackpropagator(Block &block, Operation *terminator,
                                    ArrayRef<Value> wanted,
                                    ArrayRef<unsigned> seededOperands) {
  MLIRContext *context = module.getContext();
  Location loc = terminator->getLoc();
  SmallVector<Type> dyTypes, gradTypes;
  for (unsigned index : seededOperands)
    dyTypes.push_back(terminator->getOperand(index).getType());
  for (Value v : wanted)
    gradTypes.push_back(v.getType());
  auto fnType =
      FunctionType::get(context, dyTypes, {TupleType::get(context, gradTypes)});
  OpBuilder b(terminator);
  auto fn = FnOp::create(b, loc, fnType, /*primitive=*/nullptr);
  Block *body = new Block();
  fn.getBody().push_back(body);
  SmallVector<Value> seeds(terminator->getNumOperands());
  for (auto [k, index] : llvm::enumerate(seededOperands))
    seeds[index] = body->addArgument(dyTypes[k], loc);

  OpBuilder bwd = OpBuilder::atBlockBegin(body);
  FailureOr<SmallVector<Value>> grads =
      differentiate(block, wanted, seeds, bwd);
  if (failed(grads))
    return failure();
  SmallVector<Value> fields;
  for (auto [v, g] : llvm::zip(wanted, *grads))
    fields.push_back(g ? g : zerosOf(bwd, loc, v.getType()));
  Value tuple = TupleOp::create(bwd, loc, fields);
  ReturnOp::create(bwd, loc, tuple);
  return fn.getResult();
}

FailureOr<func::FuncOp> Differentiator::getAdjointFunction(func::FuncOp callee,
                                                           Location callSite) {
  if (func::FuncOp known = adjointFunctions.lookup(callee))
    return known;
  if (!callee.getBody().hasOneBlock())
    return emitError(callSite) << "cannot differentiate @" << callee.getName()
                               << ": it has more than one block";
  MLIRContext *context = module.getContext();
  SmallVector<Type> dyTypes, gradTypes;
  SmallVector<unsigned> seeded;
  for (auto [i, type] : llvm::enumerate(callee.getResultTypes())) {
    if (isFloatTensor(type)) {
      dyTypes.push_back(type);
      seeded.push_back(i);
    } else if (isa<TupleType>(type)) {
      return emitError(callSite)
             << "cannot differentiate a call of @" << callee.getName()
             << ": tuple results of called functions are not supported";
    }
  }
  for (Type type : callee.getArgumentTypes())
    if (isFloatTensor(type))
      gradTypes.push_back(type);
  auto backpropType =
      FunctionType::get(context, dyTypes, {TupleType::get(context, gradTypes)});

  // The type is final before the body is differentiated, so a recursive
  // call inside it already calls the adjoint version.
  auto adjoint = cast<func::FuncOp>(callee->clone());
  adjoint.setName((callee.getName() + "_adjoint").str());
  adjoint.setPrivate();
  SmallVector<Type> results(callee.getResultTypes());
  results.push_back(backpropType);
  adjoint.setFunctionType(
      FunctionType::get(context, callee.getArgumentTypes(), results));
  symbols.insert(adjoint, std::next(Block::iterator(callee)));
  adjointFunctions[callee] = adjoint;

  Block &body = adjoint.front();
  Operation *terminator = body.getTerminator();
  SmallVector<Value> wanted;
  for (BlockArgument arg : body.getArguments())
    if (isFloatTensor(arg.getType()))
      wanted.push_back(arg);
  FailureOr<Value> backprop =
      buildBackpropagator(body, terminator, wanted, seeded);
  if (failed(backprop))
    return failure();
  terminator->insertOperands(terminator->getNumOperands(), *backprop);
  return adjoint;
}

namespace {

struct RafAutodiffPass
    : public raf::relay::impl::RafAutodiffBase<RafAutodiffPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerGradientRules(registry);
  }

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(raf::checkEnumeratedOptions(
            getArgument(), options, {{"nondifferentiable", {"error", "zero"}}},
            errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override;
};

/// Checks the forward function and returns the indices of the arguments to
/// differentiate.
FailureOr<SmallVector<int64_t>> checkForward(func::FuncOp function,
                                             ArrayRef<int64_t> requested) {
  if (!function.getBody().hasOneBlock())
    return function.emitError("--raf-autodiff needs a function with exactly "
                              "one block");
  auto lossType =
      function.getNumResults() == 0
          ? RankedTensorType()
          : dyn_cast<RankedTensorType>(function.getResultTypes()[0]);
  if (!lossType || !isa<FloatType>(lossType.getElementType()) ||
      !lossType.hasStaticShape() || lossType.getNumElements() != 1) {
    InFlightDiagnostic diag = function.emitError(
        "the loss (result #0) must be a float tensor with exactly one "
        "element");
    if (function.getNumResults() > 0)
      diag << ", got " << function.getResultTypes()[0];
    return diag;
  }
  SmallVector<int64_t> params;
  int64_t numArgs = function.getNumArguments();
  if (requested.empty()) {
    // Without the option, arguments marked `raf.requires_grad` (as the
    // frontends mark trainable parameters, and not inputs, labels or
    // batch-norm running statistics) decide; with no marks, every float
    // tensor argument is differentiated.
    bool marked = false;
    for (int64_t i = 0; i < numArgs; ++i) {
      Attribute mark = function.getArgAttr(i, kRequiresGradAttr);
      if (!mark)
        continue;
      marked = true;
      auto flag = dyn_cast<BoolAttr>(mark);
      if (!flag)
        return function.emitError()
               << kRequiresGradAttr << " of argument #" << i
               << " must be a boolean, got " << mark;
      if (!flag.getValue())
        continue;
      if (!isFloatTensor(function.getArgumentTypes()[i]))
        return function.emitError()
               << "argument #" << i << " has " << kRequiresGradAttr
               << " = true but is not a float tensor: "
               << function.getArgumentTypes()[i];
      params.push_back(i);
    }
    if (marked && params.empty())
      return function.emitError()
             << "no argument of @" << function.getName() << " has "
             << kRequiresGradAttr
             << " = true: nothing to differentiate (or pass requires-grad)";
    if (marked)
      return params;
    for (int64_t i = 0; i < numArgs; ++i)
      if (isFloatTensor(function.getArgumentTypes()[i]))
        params.push_back(i);
    return params;
  }
  for (int64_t index : requested) {
    if (index < 0 || index >= numArgs)
      return function.emitError()
             << "requires-grad index " << index << " is out of range: @"
             << function.getName() << " has " << numArgs << " arguments";
    if (!isFloatTensor(function.getArgumentTypes()[index]))
      return function.emitError() << "requires-grad argument #" << index
                                  << " must be a float tensor, got "
                                  << function.getArgumentTypes()[index];
    if (llvm::is_contained(params, index))
      return function.emitError()
             << "requires-grad lists argument #" << index << " twice";
    params.push_back(index);
  }
  return params;
}

void RafAutodiffPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Option errors name the module's location, without printing it.
  if (nondifferentiable != "error" && nondifferentiable != "zero") {
    emitError(module.getLoc())
        << "option 'nondifferentiable' of raf-autodiff: unknown value '"
        << nondifferentiable << "'; expected one of error, zero";
    return signalPassFailure();
  }
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function || function.isExternal()) {
    emitError(module.getLoc()) << "--raf-autodiff: no function @" << entry
                               << " with a body";
    return signalPassFailure();
  }
  FailureOr<SmallVector<int64_t>> params = checkForward(function, requiresGrad);
  if (failed(params))
    return signalPassFailure();

  // Only operations the pass creates are candidates for clean-up.
  llvm::DenseSet<Operation *> existing;
  module.walk([&](Operation *op) { existing.insert(op); });

  Differentiator differentiator(module, nondifferentiable == "zero");
  Block &body = function.front();
  Operation *terminator = body.getTerminator();
  SmallVector<Value> wanted;
  for (int64_t index : *params)
    wanted.push_back(body.getArgument(index));

  // The terminator's operands are read only after differentiating: a call
  // on the gradient path is replaced by its adjoint's call, so a result it
  // returns directly changes.
  SmallVector<Value> newResults;
  if (inlineBackward) {
    Type lossType = function.getResultTypes()[0];
    if (failed(function.insertArgument(function.getNumArguments(), lossType, {},
                                       function.getLoc())))
      return signalPassFailure();
    SmallVector<Value> seeds(terminator->getNumOperands());
    seeds[0] = body.getArguments().back();
    OpBuilder bwd(terminator);
    FailureOr<SmallVector<Value>> grads =
        differentiator.differentiate(body, wanted, seeds, bwd);
    if (failed(grads))
      return signalPassFailure();
    llvm::append_range(newResults, terminator->getOperands());
    for (auto [v, g] : llvm::zip(wanted, *grads))
      newResults.push_back(g ? g
                             : zerosOf(bwd, function.getLoc(), v.getType()));
  } else {
    FailureOr<Value> backprop = differentiator.buildBackpropagator(
        body, terminator, wanted, /*seededOperands=*/{0});
    if (failed(backprop))
      return signalPassFailure();
    llvm::append_range(newResults, terminator->getOperands());
    newResults.push_back(*backprop);
  }
  terminator->setOperands(newResults);
  function.setFunctionType(
      FunctionType::get(&getContext(), function.getArgumentTypes(),
                        ValueRange(newResults).getTypes()));
  function->setAttr(kGradParamsAttr,
                    DenseI64ArrayAttr::get(&getContext(), *params));

  // Rules build gradients for every float operand; drop those nobody used
  // (operands that did not need one).
  bool changed = true;
  while (changed) {
    changed = false;
    module.walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (!existing.contains(op) && isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
    });
  }
}

} // namespace
