//===- LowerGrad.cpp - higher-order reverse mode for relay.grad -----------===//
//
// --relay-lower-grad: Relay's reverse-mode automatic differentiation
// (Relay paper §4.2), with the order of the backpropagator's steps and the
// seed of the output adjoint, which the paper leaves open, fixed as below
// (docs/relay-grad.md).
//
// Every floating-point tensor of a differentiated function is paired with a
// reference holding its adjoint, and one backpropagator cell (a reference to
// a `() -> ()` closure) is threaded through every transformed function as
// an extra leading parameter. Each operator appends a closure to the
// backpropagator chain that reads and clears its result's adjoint, adds the
// operator's adjoints (its GradientOpInterface rule) into its operands'
// references and then calls the previous backpropagator. Everything else
// (tuples, relay.if, closures, calls, references, recursion) is rebuilt over
// the lifted values, as for dual numbers.
//
// Lowering every relay.grad first and transforming functions afterwards
// makes higher-order derivatives fall out: the function an inner relay.grad
// becomes is ordinary relay code with references and closures, which an
// outer transformation lifts like any other code, with its own fresh
// backpropagator cell (no perturbation confusion).
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/GradientRules/GradientRules.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <deque>

namespace raf::relay {
#define GEN_PASS_DEF_RELAYLOWERGRAD
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

/// A "real" of the paper: a tensor of floating-point elements.
bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Zeros shaped like `like`: `relay.zero` for static shapes (A6.2's
/// `Zero typeof(v)`), `relay.zeros_like` when only the run-time value knows
/// the shape.
Value buildZeroLike(OpBuilder &builder, Location loc, Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  if (type.hasStaticShape())
    return ZeroOp::create(builder, loc, type);
  return ZerosLikeOp::create(builder, loc, like);
}

/// The function type of the backpropagator closures, `() -> ()`.
FunctionType getBackpropagatorType(MLIRContext *context) {
  return FunctionType::get(context, {}, {});
}

/// The type of the backpropagator cell, `!relay.ref<() -> ()>`.
RefType getBackpropagatorCellType(MLIRContext *context) {
  return RefType::get(context, getBackpropagatorType(context));
}

/// The type lifting ⟦T⟧ of Relay §4.2's reverse mode. Returns null for types
/// the transformation does not know.
Type liftType(Type type) {
  MLIRContext *context = type.getContext();
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!isFloatTensor(tensor))
      return tensor;
    return TupleType::get(context, {tensor, RefType::get(context, tensor)});
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> fields;
    for (Type field : tuple.getTypes()) {
      Type lifted = liftType(field);
      if (!lifted)
        return {};
      fields.push_back(lifted);
    }
    return TupleType::get(context, fields);
  }
  if (auto function = dyn_cast<FunctionType>(type)) {
    // Function values take the backpropagator cell explicitly, so that a
    // lifted closure and a lifted module function have the same type.
    SmallVector<Type> inputs{getBackpropagatorCellType(context)};
    SmallVector<Type> results;
    for (Type input : function.getInputs()) {
      Type lifted = liftType(input);
      if (!lifted)
        return {};
      inputs.push_back(lifted);
    }
    for (Type result : function.getResults()) {
      Type lifted = liftType(result);
      if (!lifted)
        return {};
      results.push_back(lifted);
    }
    return FunctionType::get(context, inputs, results);
  }
  if (auto ref = dyn_cast<RefType>(type)) {
    Type lifted = liftType(ref.getValueType());
    return lifted ? RefType::get(context, lifted) : Type();
  }
  return {};
}

class GradLowering;

/// Builds the transformed body of one module function.
class FunctionTransform {
public:
  FunctionTransform(GradLowering &lowering, MLIRContext *context)
      : lowering(lowering), builder(context) {}

  LogicalResult run(func::FuncOp original, func::FuncOp transformed);

private:
  /// Transforms the ops of `block` at the builder's insertion point, its
  /// terminator included; `bp` is the backpropagator cell in scope.
  LogicalResult transformBlock(Block &block, Value bp);
  LogicalResult transformOp(Operation &op, Value bp);
  LogicalResult transformTerminator(Operation &op);
  LogicalResult transformIf(IfOp op, Value bp);
  LogicalResult transformClosure(FnOp op);
  LogicalResult transformPrimitive(Operation &op, Value bp);
  /// Appends the backpropagator closure of `primal` (A6.2): read and clear
  /// the result adjoints, propagate into the active operands' references,
  /// call the previous backpropagator.
  LogicalResult buildBackpropagator(Operation &original, Operation *primal,
                                    ArrayRef<Value> resultRefs, Value bp);

  Value lifted(Value original) { return mapping.lookup(original); }
  /// The value and adjoint reference of a lifted real.
  std::pair<Value, Value> components(Value liftedReal);
  /// Pairs a real with its adjoint reference.
  Value pack(Value value, Value ref);
  /// Lifts a value no argument influences (constants, zeros): every real
  /// gets a fresh zero adjoint that nothing propagates further.
  Value liftConstant(Value value);
  bool isActive(Value original) const { return !inactive.contains(original); }

  GradLowering &lowering;
  OpBuilder builder;
  IRMapping mapping;
  DenseMap<Value, std::pair<Value, Value>> componentCache;
  /// Original values that do not depend on any argument; operators on them
  /// need no backpropagator.
  DenseSet<Value> inactive;
};

class GradLowering {
public:
  explicit GradLowering(ModuleOp module)
      : module(module), symbols(module), context(module.getContext()) {}

  /// Replaces every relay.grad by a reference to its gradient function.
  LogicalResult lowerGradOps();
  /// Builds the bodies of the transformed functions requested so far (and
  /// of those they request in turn).
  LogicalResult transformFunctions();

  /// The transformed copy `@f_lowergrad` of `function`, created on first
  /// request; `user` locates errors.
  FailureOr<func::FuncOp> getTransformed(func::FuncOp function,
                                         Operation *user);
  func::FuncOp lookupFunction(StringRef name) {
    return symbols.lookup<func::FuncOp>(name);
  }

private:
  LogicalResult lowerGradOp(GradOp grad);
  /// The closed function `grad`'s operand denotes, outlining a closed
  /// relay.fn operand into a module function.
  FailureOr<func::FuncOp> getDifferentiatedFunction(GradOp grad);
  /// The function `(T...) -> tuple<R, tuple<T...>>` relay.grad of
  /// `function` becomes.
  FailureOr<func::FuncOp> getGradientFunction(func::FuncOp function,
                                              GradOp grad);
  std::string uniqueName(const Twine &base);
  func::FuncOp createFunction(Location loc, const Twine &name,
                              FunctionType type, Operation *after);

  ModuleOp module;
  SymbolTable symbols;
  MLIRContext *context;
  DenseMap<Operation *, func::FuncOp> transformed;
  DenseMap<Operation *, func::FuncOp> gradients;
  DenseMap<Operation *, func::FuncOp> outlined;
  /// (original, transformed) pairs whose body is still to be built. FIFO:
  /// a generated function's body is always built before a request to
  /// transform that function is processed.
  std::deque<std::pair<func::FuncOp, func::FuncOp>> worklist;
};

//===----------------------------------------------------------------------===//
// FunctionTransform
//===----------------------------------------------------------------------===//

LogicalResult FunctionTransform::run(func::FuncOp original,
                                     func::FuncOp transformed) {
  if (!original.getBody().hasOneBlock())
    return original.emitOpError("has ")
           << original.getBody().getBlocks().size()
           << " blocks; relay.grad only differentiates single-block "
              "functions";
  Block *entry = transformed.addEntryBlock();
  for (auto [argument, liftedArgument] : llvm::zip_equal(
           original.getArguments(), entry->getArguments().drop_front()))
    mapping.map(argument, liftedArgument);
  builder.setInsertionPointToStart(entry);
  return transformBlock(original.getBody().front(), entry->getArgument(0));
}

LogicalResult FunctionTransform::transformBlock(Block &block, Value bp) {
  for (Operation &op : block) {
    LogicalResult result = op.hasTrait<OpTrait::IsTerminator>()
                               ? transformTerminator(op)
                               : transformOp(op, bp);
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult FunctionTransform::transformTerminator(Operation &op) {
  SmallVector<Value> operands;
  for (Value operand : op.getOperands())
    operands.push_back(lifted(operand));
  Location loc = op.getLoc();
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](func::ReturnOp) {
        func::ReturnOp::create(builder, loc, operands);
        return success();
      })
      .Case([&](ReturnOp) {
        ReturnOp::create(builder, loc, operands);
        return success();
      })
      .Case([&](YieldOp) {
        YieldOp::create(builder, loc, operands);
        return success();
      })
      .Default([&](Operation *other) {
        return other->emitOpError(
            "is a terminator relay.grad cannot differentiate");
      });
}

std::pair<Value, Value> FunctionTransform::components(Value liftedReal) {
  auto it = componentCache.find(liftedReal);
  if (it != componentCache.end())
    return it->second;
  // Right after the definition, so that the projections dominate every
  // later use, in nested regions and closures too.
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointAfterValue(liftedReal);
  Location loc = liftedReal.getLoc();
  Value value = TupleGetOp::create(builder, loc, liftedReal, 0);
  Value ref = TupleGetOp::create(builder, loc, liftedReal, 1);
  return componentCache[liftedReal] = {value, ref};
}

Value FunctionTransform::pack(Value value, Value ref) {
  Value packed =
      TupleOp::create(builder, value.getLoc(), ValueRange{value, ref});
  componentCache[packed] = {value, ref};
  return packed;
}

Value FunctionTransform::liftConstant(Value value) {
  Location loc = value.getLoc();
  Type type = value.getType();
  if (isFloatTensor(type))
    return pack(value, RefNewOp::create(builder, loc,
                                        buildZeroLike(builder, loc, value)));
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> fields;
    for (unsigned i = 0, e = tuple.size(); i < e; ++i)
      fields.push_back(
          liftConstant(TupleGetOp::create(builder, loc, value, i)));
    return TupleOp::create(builder, loc, fields);
  }
  // Integer and boolean tensors (relay.zero has no other kinds of value).
  return value;
}

LogicalResult FunctionTransform::transformOp(Operation &op, Value bp) {
  Location loc = op.getLoc();
  auto mapResult = [&](Value original, Value value) {
    mapping.map(original, value);
    return success();
  };
  auto liftedOperands = [&](ValueRange operands) {
    SmallVector<Value> values;
    for (Value operand : operands)
      values.push_back(lifted(operand));
    return values;
  };
  auto liftedTypes = [&](TypeRange types) -> FailureOr<SmallVector<Type>> {
    SmallVector<Type> result;
    for (Type type : types) {
      Type liftedType = liftType(type);
      if (!liftedType)
        return op.emitOpError("produces a value of type ")
               << type << ", which relay.grad cannot differentiate";
      result.push_back(liftedType);
    }
    return result;
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](TupleOp tuple) {
        return mapResult(
            tuple,
            TupleOp::create(builder, loc, liftedOperands(tuple.getFields())));
      })
      .Case([&](TupleGetOp get) {
        return mapResult(get, TupleGetOp::create(builder, loc,
                                                 lifted(get.getTuple()),
                                                 get.getIndex()));
      })
      .Case([&](IfOp ifOp) { return transformIf(ifOp, bp); })
      .Case([&](FnOp fn) { return transformClosure(fn); })
      .Case([&](CallOp call) -> LogicalResult {
        FailureOr<SmallVector<Type>> types = liftedTypes(call.getResultTypes());
        if (failed(types))
          return failure();
        SmallVector<Value> args{bp};
        llvm::append_range(args, liftedOperands(call.getArgs()));
        auto newCall = CallOp::create(builder, loc, *types,
                                      lifted(call.getCallee()), args);
        for (auto [result, value] :
             llvm::zip_equal(call.getResults(), newCall.getResults()))
          mapping.map(result, value);
        return success();
      })
      .Case([&](func::CallOp call) -> LogicalResult {
        func::FuncOp callee = lowering.lookupFunction(call.getCallee());
        if (!callee)
          return call.emitOpError("calls '")
                 << call.getCallee() << "', which is not a func.func";
        FailureOr<func::FuncOp> target = lowering.getTransformed(callee, call);
        if (failed(target))
          return failure();
        SmallVector<Value> args{bp};
        llvm::append_range(args, liftedOperands(call.getOperands()));
        auto newCall = func::CallOp::create(builder, loc, *target, args);
        for (auto [result, value] :
             llvm::zip_equal(call.getResults(), newCall.getResults()))
          mapping.map(result, value);
        return success();
      })
      .Case([&](GlobalRefOp ref) -> LogicalResult {
        func::FuncOp callee = lowering.lookupFunction(ref.getCallee());
        if (!callee)
          return ref.emitOpError("refers to '")
                 << ref.getCallee() << "', which is not a func.func";
        FailureOr<func::FuncOp> target = lowering.getTransformed(callee, ref);
        if (failed(target))
          return failure();
        return mapResult(ref, GlobalRefOp::create(builder, loc,
                                                  target->getFunctionType(),
                                                  SymbolRefAttr::get(*target)));
      })
      .Case([&](RefNewOp refNew) -> LogicalResult {
        if (failed(liftedTypes(refNew.getType())))
          return failure();
        return mapResult(
            refNew, RefNewOp::create(builder, loc, lifted(refNew.getValue())));
      })
      .Case([&](RefReadOp read) {
        return mapResult(
            read, RefReadOp::create(builder, loc, lifted(read.getRef())));
      })
      .Case([&](RefWriteOp write) {
        RefWriteOp::create(builder, loc, lifted(write.getRef()),
                           lifted(write.getValue()));
        return success();
      })
      .Case([&](ZeroOp zero) {
        inactive.insert(zero.getResult());
        Value value = ZeroOp::create(builder, loc, zero.getType());
        return mapResult(zero, liftConstant(value));
      })
      .Case([&](GradOp grad) {
        // lowerGradOps replaced every relay.grad before any function was
        // transformed.
        return grad.emitOpError("was not lowered before the function "
                                "containing it was transformed");
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (other->getNumRegions() != 0)
          return other->emitOpError(
              "is a construct relay.grad cannot differentiate (only "
              "relay.if and relay.fn may have regions)");
        return transformPrimitive(*other, bp);
      });
}

LogicalResult FunctionTransform::transformIf(IfOp op, Value bp) {
  SmallVector<Type> types;
  for (Type type : op.getResultTypes()) {
    Type liftedType = liftType(type);
    if (!liftedType)
      return op.emitOpError("produces a value of type ")
             << type << ", which relay.grad cannot differentiate";
    types.push_back(liftedType);
  }
  // The condition is a boolean tensor: not lifted.
  auto newIf =
      IfOp::create(builder, op.getLoc(), types, lifted(op.getCondition()));
  for (auto [region, newRegion] :
       llvm::zip_equal(op->getRegions(), newIf->getRegions())) {
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&newRegion);
    if (failed(transformBlock(region.front(), bp)))
      return failure();
  }
  for (auto [result, value] :
       llvm::zip_equal(op.getResults(), newIf.getResults()))
    mapping.map(result, value);
  return success();
}

LogicalResult FunctionTransform::transformClosure(FnOp op) {
  auto type = dyn_cast_or_null<FunctionType>(liftType(op.getFunctionType()));
  if (!type)
    return op.emitOpError("has type ")
           << op.getFunctionType() << ", which relay.grad cannot differentiate";
  Location loc = op.getLoc();
  // A lifted closure contains references and backpropagator updates: it is
  // no longer one fused kernel, so `primitive` is dropped.
  auto fn = FnOp::create(builder, loc, Type(type), /*primitive=*/false);
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *body = builder.createBlock(&fn.getBody());
    for (Type input : type.getInputs())
      body->addArgument(input, loc);
    for (auto [argument, liftedArgument] : llvm::zip_equal(
             op.getBody().getArguments(), body->getArguments().drop_front()))
      mapping.map(argument, liftedArgument);
    // Calls pass the caller's backpropagator cell.
    if (failed(transformBlock(op.getBody().front(), body->getArgument(0))))
      return failure();
  }
  mapping.map(op.getResult(), fn.getResult());
  return success();
}

LogicalResult FunctionTransform::transformPrimitive(Operation &op, Value bp) {
  IRMapping primalMapping;
  bool anyActive = false;
  for (auto [index, operand] : llvm::enumerate(op.getOperands())) {
    Type type = operand.getType();
    if (!isa<RankedTensorType>(type))
      return op.emitOpError("takes operand #")
             << index << " of type " << type
             << "; relay.grad differentiates operators on tensors only";
    if (!isFloatTensor(type)) {
      primalMapping.map(operand, lifted(operand));
      continue;
    }
    primalMapping.map(operand, components(lifted(operand)).first);
    anyActive |= isActive(operand);
  }
  bool anyRealResult = false;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    if (!isa<RankedTensorType>(result.getType()))
      return op.emitOpError("produces result #")
             << index << " of type " << result.getType()
             << "; relay.grad differentiates operators on tensors only";
    anyRealResult |= isFloatTensor(result.getType());
  }
  bool needsBackpropagator = anyActive && anyRealResult;
  if (needsBackpropagator && !isa<GradientOpInterface>(op))
    return op.emitOpError("is not differentiable (it has no gradient rule), "
                          "but relay.grad needs the gradient of its result "
                          "with respect to a floating-point operand");

  // let v = op(v1..vk)
  Operation *primal = builder.clone(op, primalMapping);
  SmallVector<Value> resultRefs;
  for (auto [result, value] :
       llvm::zip_equal(op.getResults(), primal->getResults())) {
    if (!anyActive)
      inactive.insert(result);
    if (!isFloatTensor(result.getType())) {
      mapping.map(result, value);
      resultRefs.push_back({});
      continue;
    }
    // let r = Ref (Zero typeof(v))
    Value ref = RefNewOp::create(builder, op.getLoc(),
                                 buildZeroLike(builder, op.getLoc(), value));
    resultRefs.push_back(ref);
    mapping.map(result, pack(value, ref));
  }
  if (!needsBackpropagator)
    return success();
  return buildBackpropagator(op, primal, resultRefs, bp);
}

LogicalResult FunctionTransform::buildBackpropagator(Operation &original,
                                                     Operation *primal,
                                                     ArrayRef<Value> resultRefs,
                                                     Value bp) {
  Location loc = original.getLoc();
  MLIRContext *context = builder.getContext();
  // let old = !bp
  Value old = RefReadOp::create(builder, loc, bp);
  auto closure =
      FnOp::create(builder, loc, Type(getBackpropagatorType(context)),
                   /*primitive=*/false);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&closure.getBody());
    // let g = !r; r := Zero typeof(v)
    SmallVector<Value> resultGradients;
    for (auto [value, ref] :
         llvm::zip_equal(primal->getResults(), resultRefs)) {
      if (!ref) {
        resultGradients.push_back({});
        continue;
      }
      resultGradients.push_back(RefReadOp::create(builder, loc, ref));
      RefWriteOp::create(builder, loc, ref, buildZeroLike(builder, loc, value));
    }
    // ri := !ri + adjoint_i(v1..vk, v, g) for every active real operand.
    SmallVector<Value> operandGradients;
    if (failed(cast<GradientOpInterface>(primal).buildAdjoint(
            builder, resultGradients, operandGradients)))
      return failure();
    for (auto [index, operand] : llvm::enumerate(original.getOperands())) {
      Value gradient =
          index < operandGradients.size() ? operandGradients[index] : Value();
      if (!gradient || !isFloatTensor(operand.getType()) || !isActive(operand))
        continue;
      if (gradient.getType() != operand.getType())
        return original.emitOpError(
                   "gradient rule produced a gradient of type ")
               << gradient.getType() << " for operand #" << index << " of type "
               << operand.getType();
      Value ref = components(lifted(operand)).second;
      Value current = RefReadOp::create(builder, loc, ref);
      RefWriteOp::create(builder, loc, ref,
                         AddOp::create(builder, loc, current, gradient));
    }
    // old()
    CallOp::create(builder, loc, TypeRange(), old, ValueRange());
    ReturnOp::create(builder, loc, ValueRange());
  }
  // bp := fn() {...}
  RefWriteOp::create(builder, loc, bp, closure.getResult());
  return success();
}

//===----------------------------------------------------------------------===//
// GradLowering
//===----------------------------------------------------------------------===//

std::string GradLowering::uniqueName(const Twine &base) {
  std::string name = base.str();
  if (!symbols.lookup(name))
    return name;
  for (unsigned k = 0;; ++k) {
    std::string candidate = (name + "_" + Twine(k)).str();
    if (!symbols.lookup(candidate))
      return candidate;
  }
}

func::FuncOp GradLowering::createFunction(Location loc, const Twine &name,
                                          FunctionType type, Operation *after) {
  OpBuilder builder(context);
  builder.setInsertionPointAfter(after);
  auto function = func::FuncOp::create(builder, loc, uniqueName(name), type);
  function.setPrivate();
  symbols.insert(function);
  return function;
}

FailureOr<func::FuncOp> GradLowering::getTransformed(func::FuncOp function,
                                                     Operation *user) {
  func::FuncOp &result = transformed[function];
  if (result)
    return result;
  if (function.isExternal()) {
    InFlightDiagnostic diag = user->emitOpError("uses @")
                              << function.getSymName()
                              << ", which has no body, so relay.grad cannot "
                                 "differentiate it";
    diag.attachNote(function.getLoc()) << "declared here";
    return diag;
  }
  auto type =
      dyn_cast_or_null<FunctionType>(liftType(function.getFunctionType()));
  if (!type) {
    InFlightDiagnostic diag = user->emitOpError("uses @")
                              << function.getSymName() << " of type "
                              << function.getFunctionType()
                              << ", which relay.grad cannot differentiate";
    diag.attachNote(function.getLoc()) << "defined here";
    return diag;
  }
  result = createFunction(function.getLoc(),
                          function.getSymName() + "_lowergrad", type, function);
  worklist.emplace_back(function, result);
  return result;
}

FailureOr<func::FuncOp> GradLowering::getDifferentiatedFunction(GradOp grad) {
  Value operand = grad.getFn();
  if (auto ref = operand.getDefiningOp<GlobalRefOp>()) {
    func::FuncOp function = lookupFunction(ref.getCallee());
    if (!function)
      return ref.emitOpError("refers to '")
             << ref.getCallee() << "', which is not a func.func";
    return function;
  }
  auto fn = operand.getDefiningOp<FnOp>();
  if (!fn)
    return grad.emitOpError("needs a closed function operand (a "
                            "relay.global_ref or a relay.fn without free "
                            "variables); run --relay-lambda-lift first");
  llvm::SetVector<Value> freeVariables;
  getUsedValuesDefinedAbove(fn.getBody(), freeVariables);
  if (!freeVariables.empty()) {
    InFlightDiagnostic diag =
        grad.emitOpError("needs a closed function operand, but the relay.fn "
                         "has ")
        << freeVariables.size()
        << " free variables; run --relay-lambda-lift first";
    diag.attachNote(freeVariables.front().getLoc())
        << "free variable defined here";
    return diag;
  }
  // A closed closure is a module function waiting to be outlined.
  func::FuncOp &function = outlined[fn];
  if (function)
    return function;
  auto parent = fn->getParentOfType<func::FuncOp>();
  function = createFunction(
      fn.getLoc(),
      (parent ? parent.getSymName() : "relay") + Twine("_grad_operand"),
      fn.getFunctionType(),
      parent ? parent.getOperation() : &module.getBody()->back());
  IRMapping mapping;
  fn.getBody().cloneInto(&function.getBody(), mapping);
  auto ret = cast<ReturnOp>(function.getBody().front().getTerminator());
  OpBuilder builder(ret);
  func::ReturnOp::create(builder, ret.getLoc(), ret.getValues());
  ret.erase();
  return function;
}

FailureOr<func::FuncOp> GradLowering::getGradientFunction(func::FuncOp function,
                                                          GradOp grad) {
  func::FuncOp &gradient = gradients[function];
  if (gradient)
    return gradient;
  FailureOr<func::FuncOp> target = getTransformed(function, grad);
  if (failed(target))
    return failure();
  auto gradType = cast<FunctionType>(grad.getType());
  gradient = createFunction(function.getLoc(), function.getSymName() + "_grad",
                            gradType, *target);

  OpBuilder builder(context);
  Location loc = function.getLoc();
  Block *entry = gradient.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  // bp := fn() { () }  -- a fresh cell per application.
  auto nop = FnOp::create(builder, loc, Type(getBackpropagatorType(context)),
                          /*primitive=*/false);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&nop.getBody());
    ReturnOp::create(builder, loc, ValueRange());
  }
  Value bp = RefNewOp::create(builder, loc, nop.getResult());
  // let r_i = Ref (Zero T_i)
  SmallVector<Value> args{bp}, refs;
  for (Value x : entry->getArguments()) {
    Value ref = RefNewOp::create(builder, loc, buildZeroLike(builder, loc, x));
    refs.push_back(ref);
    args.push_back(TupleOp::create(builder, loc, ValueRange{x, ref}));
  }
  // let (y, ry) = ⟦f⟧((x1, r1), ..., (xn, rn))
  Value result = func::CallOp::create(builder, loc, *target, args).getResult(0);
  Value y = TupleGetOp::create(builder, loc, result, 0);
  Value ry = TupleGetOp::create(builder, loc, result, 1);
  // ry := ones_like(y); (!bp)()
  RefWriteOp::create(builder, loc, ry, OnesLikeOp::create(builder, loc, y));
  Value backpropagator = RefReadOp::create(builder, loc, bp);
  CallOp::create(builder, loc, TypeRange(), backpropagator, ValueRange());
  // let g_i = !r_i; r_i := Zero T_i
  SmallVector<Value> grads;
  for (auto [x, ref] : llvm::zip_equal(entry->getArguments(), refs)) {
    grads.push_back(RefReadOp::create(builder, loc, ref));
    RefWriteOp::create(builder, loc, ref, buildZeroLike(builder, loc, x));
  }
  // (y, (g1, ..., gn))
  Value gradTuple = TupleOp::create(builder, loc, grads);
  func::ReturnOp::create(
      builder, loc,
      ValueRange{TupleOp::create(builder, loc, ValueRange{y, gradTuple})});
  return gradient;
}

LogicalResult GradLowering::lowerGradOp(GradOp grad) {
  FailureOr<func::FuncOp> function = getDifferentiatedFunction(grad);
  if (failed(function))
    return failure();
  if (function->isExternal()) {
    InFlightDiagnostic diag = grad.emitOpError("differentiates @")
                              << function->getSymName()
                              << ", which has no body";
    diag.attachNote(function->getLoc()) << "declared here";
    return diag;
  }
  FailureOr<func::FuncOp> gradient = getGradientFunction(*function, grad);
  if (failed(gradient))
    return failure();
  OpBuilder builder(grad);
  Value ref =
      GlobalRefOp::create(builder, grad.getLoc(), gradient->getFunctionType(),
                          SymbolRefAttr::get(*gradient));
  Operation *operand = grad.getFn().getDefiningOp();
  grad.getResult().replaceAllUsesWith(ref);
  grad.erase();
  if (operand && operand->use_empty())
    operand->erase();
  return success();
}

LogicalResult GradLowering::lowerGradOps() {
  SmallVector<GradOp> grads;
  module.walk([&](GradOp grad) { grads.push_back(grad); });
  bool ok = true;
  for (GradOp grad : grads)
    ok &= succeeded(lowerGradOp(grad));
  return success(ok);
}

LogicalResult GradLowering::transformFunctions() {
  while (!worklist.empty()) {
    auto [original, target] = worklist.front();
    worklist.pop_front();
    FunctionTransform transform(*this, context);
    if (failed(transform.run(original, target)))
      return failure();
  }
  return success();
}

struct RelayLowerGrad
    : public raf::relay::impl::RelayLowerGradBase<RelayLowerGrad> {
  void getDependentDialects(DialectRegistry &registry) const override {
    RelayLowerGradBase::getDependentDialects(registry);
    registry.insert<RelayDialect>();
    // The adjoints come from the gradient rules attached as external models.
    registerGradientRules(registry);
  }

  void runOnOperation() override {
    GradLowering lowering(getOperation());
    if (failed(lowering.lowerGradOps()) ||
        failed(lowering.transformFunctions()))
      signalPassFailure();
  }
};

} // namespace
