//===- AppendOptimizer.cpp - gradient function + optimizer update ---------===//
//
// RAF's optimizer wrappers (RAF source python/raf/optim/): the gradient
// function produced by --raf-autodiff="inline-backward=true" becomes a training
// step that returns updated parameters and optimizer states, with the update
// rules of torch.optim (SGD, SGD with momentum, Adam).
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Support/PassOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

namespace raf::relay {
#define GEN_PASS_DEF_RAFAPPENDOPTIMIZER
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {


enum class OptimizerKind { SGD, Momentum, Adam };

/// The gradient function's layout, once checked against the contract.
struct GradientFunction {
  func::FuncOp fn;
  /// Argument index of each parameter, in gradient order.
  SmallVector<unsigned> params;
  /// Number of results between the loss and the first gradient.
  unsigned numAux = 0;
  RankedTensorType lossType;

  /// The arguments before %dy that are not parameters, in order.
  SmallVector<unsigned> others;
};

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Checks `fn` against the input contract of the pass; reports the first
/// violation at the function.
FailureOr<GradientFunction> readGradientFunction(func::FuncOp fn) {
  GradientFunction grad;
  grad.fn = fn;
  auto fail = [&]() {
    return fn.emitError() << "gradient function '@" << fn.getSymName() << "': ";
  };
  if (fn.isExternal()) {
    fail() << "expected a body";
    return failure();
  }
  if (!fn.getBody().hasOneBlock()) {
    fail() << "expected a single-block body";
    return failure();
  }

  Attribute rawParams = fn->getAttr(kGradParamsAttr);
  if (!rawParams) {
    fail() << "missing '" << kGradParamsAttr
           << "' (the argument indices of the parameters, as "
              "--raf-autodiff=\"inline-backward=true\" records them)";
    return failure();
  }
  auto params = dyn_cast<DenseI64ArrayAttr>(rawParams);
  if (!params) {
    fail() << "'" << kGradParamsAttr << "' must be an array<i64>, got "
           << rawParams;
    return failure();
  }
  if (params.empty()) {
    fail() << "'" << kGradParamsAttr
           << "' names no parameter: there is nothing to optimize";
    return failure();
  }

  FunctionType type = fn.getFunctionType();
  unsigned numArgs = type.getNumInputs();
  if (numArgs == 0) {
    fail() << "expected the loss gradient seed %dy as last argument, the "
              "function has none";
    return failure();
  }
  // The last argument is %dy, never a parameter.
  int64_t numCandidates = numArgs - 1;
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t index : params.asArrayRef()) {
    if (index < 0 || index >= numCandidates) {
      fail() << "'" << kGradParamsAttr << "' index " << index
             << " is out of range: there are " << numCandidates
             << " arguments before %dy";
      return failure();
    }
    if (!seen.insert(index).second) {
      fail() << "'" << kGradParamsAttr << "' names argument #" << index
             << " twice";
      return failure();
    }
    grad.params.push_back(index);
  }
  for (unsigned i = 0; i < numCandidates; ++i)
    if (!seen.contains(i))
      grad.others.push_back(i);

  unsigned k = grad.params.size();
  unsigned numResults = type.getNumResults();
  if (numResults < 1 + k) {
    fail() << "expected at least " << 1 + k << " results (the loss, "
           << "auxiliary results, then " << k << " gradients), got "
           << numResults;
    return failure();
  }
  grad.numAux = numResults - 1 - k;

  auto loss = dyn_cast<RankedTensorType>(type.getResult(0));
  if (!loss || !isa<FloatType>(loss.getElementType()) ||
      !loss.hasStaticShape() || loss.getNumElements() != 1) {
    fail() << "the loss (result #0) must be a float tensor with exactly one "
              "element, got "
           << type.getResult(0);
    return failure();
  }
  grad.lossType = loss;
  if (type.getInput(numArgs - 1) != loss) {
    fail() << "the last argument (%dy) has type " << type.getInput(numArgs - 1)
           << ", expected the loss type " << loss;
    return failure();
  }

  for (auto [j, index] : llvm::enumerate(grad.params)) {
    Type paramType = type.getInput(index);
    if (!isFloatTensor(paramType)) {
      fail() << "parameter argument #" << index
             << " must be a float tensor, got " << paramType;
      return failure();
    }
    unsigned result = 1 + grad.numAux + j;
    if (type.getResult(result) != paramType) {
      fail() << "gradient result #" << result << " has type "
             << type.getResult(result) << ", expected " << paramType
             << ", the type of its parameter (argument #" << index << ")";
      return failure();
    }
  }
  return grad;
}

/// Builds relay arithmetic at the end of a block, sharing the rank-0
/// constants that broadcast hyperparameters over tensors. Callers pass at
/// most one freshly built operand per call, so that the order of the
/// created operations does not depend on C++ argument evaluation order.
class UpdateBuilder {
public:
  UpdateBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  /// A tensor of `type` filled with `value`.
  Value splat(RankedTensorType type, double value) {
    auto attr = DenseElementsAttr::get(
        type, builder.getFloatAttr(type.getElementType(), value));
    Value &constant = constants[attr];
    if (!constant)
      constant = ConstantOp::create(builder, loc, type, attr);
    return constant;
  }
  /// `value` as a rank-0 tensor of `elementType`.
  Value scalar(Type elementType, double value) {
    return splat(RankedTensorType::get({}, elementType), value);
  }
  Value scalarLike(Value like, double value) {
    return scalar(getElementTypeOrSelf(like.getType()), value);
  }

  /// `factor * x`.
  Value scale(double factor, Value x) {
    Value constant = scalarLike(x, factor);
    return mul(constant, x);
  }
  /// `x + term`.
  Value addScalar(Value x, double term) {
    Value constant = scalarLike(x, term);
    return add(x, constant);
  }
  /// `1 - x`.
  Value oneMinus(Value x) {
    Value one = scalarLike(x, 1.0);
    return sub(one, x);
  }

  Value add(Value lhs, Value rhs) {
    return AddOp::create(builder, loc, lhs, rhs);
  }
  Value sub(Value lhs, Value rhs) {
    return SubtractOp::create(builder, loc, lhs, rhs);
  }
  Value mul(Value lhs, Value rhs) {
    return MultiplyOp::create(builder, loc, lhs, rhs);
  }
  Value div(Value lhs, Value rhs) {
    return DivideOp::create(builder, loc, lhs, rhs);
  }
  Value pow(Value lhs, Value rhs) {
    return PowerOp::create(builder, loc, lhs, rhs);
  }
  Value sqrt(Value x) { return SqrtOp::create(builder, loc, x); }
  Value cast(Value x, Type elementType) {
    if (getElementTypeOrSelf(x.getType()) == elementType)
      return x;
    return CastOp::create(builder, loc, x, elementType);
  }

private:
  OpBuilder &builder;
  Location loc;
  DenseMap<Attribute, Value> constants;
};

struct RafAppendOptimizer
    : public raf::relay::impl::RafAppendOptimizerBase<RafAppendOptimizer> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(raf::checkEnumeratedOptions(
            getArgument(), options, {{"kind", {"sgd", "momentum", "adam"}}},
            errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<OptimizerKind> optimizer = checkOptions();
    if (!optimizer)
      return signalPassFailure();

    auto fn = module.lookupSymbol<func::FuncOp>(entry);
    if (!fn) {
      emitError(module.getLoc())
          << "gradient function '@" << entry
          << "' not found (set the pass option entry=<name>)";
      return signalPassFailure();
    }
    if (Operation *existing = module.lookupSymbol(stepName)) {
      existing->emitError() << "cannot append the step function '@" << stepName
                            << "': the symbol exists (choose another "
                               "step-name)";
      return signalPassFailure();
    }
    FailureOr<GradientFunction> grad = readGradientFunction(fn);
    if (failed(grad))
      return signalPassFailure();

    buildStep(*grad, *optimizer);
  }

  /// Reports a bad option at the module (by location only: printing the
  /// whole module with the error would bury it). Every option is checked,
  /// including those the chosen kind ignores, since a bad value there is a
  /// mistake too.
  std::optional<OptimizerKind> checkOptions() {
    Location loc = getOperation().getLoc();
    std::optional<OptimizerKind> optimizer =
        llvm::StringSwitch<std::optional<OptimizerKind>>(kind)
            .Case("sgd", OptimizerKind::SGD)
            .Case("momentum", OptimizerKind::Momentum)
            .Case("adam", OptimizerKind::Adam)
            .Default(std::nullopt);
    if (!optimizer) {
      emitError(loc) << "unknown optimizer kind '" << kind
                     << "' (expected 'sgd', 'momentum' or 'adam')";
      return std::nullopt;
    }
    if (stepName.empty()) {
      emitError(loc) << "the step function needs a name (step-name is empty)";
      return std::nullopt;
    }
    // Written so that NaN fails every check.
    auto check = [&](bool valid, StringRef name, double value,
                     StringRef expected) {
      if (valid && std::isfinite(value))
        return true;
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%g", value);
      emitError(loc) << "optimizer option " << name << "=" << text
                     << " is invalid: expected " << expected;
      return false;
    };
    if (!check(lr > 0, "lr", lr, "a finite value > 0") ||
        !check(momentum >= 0, "momentum", momentum, "a finite value >= 0") ||
        !check(beta1 >= 0 && beta1 < 1, "beta1", beta1, "a value in [0, 1)") ||
        !check(beta2 >= 0 && beta2 < 1, "beta2", beta2, "a value in [0, 1)") ||
        !check(eps > 0, "eps", eps, "a finite value > 0") ||
        !check(weightDecay >= 0, "weight-decay", weightDecay,
               "a finite value >= 0"))
      return std::nullopt;
    return optimizer;
  }

  void buildStep(const GradientFunction &grad, OptimizerKind optimizer) {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    func::FuncOp fn = grad.fn;
    FunctionType gradType = fn.getFunctionType();
    unsigned k = grad.params.size();
    ArrayRef<unsigned> others = grad.others;

    // Layout: (params, states, others) -> (loss, aux, params', states').
    SmallVector<Type> paramTypes;
    for (unsigned index : grad.params)
      paramTypes.push_back(gradType.getInput(index));
    SmallVector<Type> stateTypes;
    auto f32Scalar = RankedTensorType::get({}, Float32Type::get(context));
    switch (optimizer) {
    case OptimizerKind::SGD:
      break;
    case OptimizerKind::Momentum:
      llvm::append_range(stateTypes, paramTypes);
      break;
    case OptimizerKind::Adam:
      llvm::append_range(stateTypes, paramTypes);
      llvm::append_range(stateTypes, paramTypes);
      stateTypes.push_back(f32Scalar);
      break;
    }
    SmallVector<Type> inputTypes(paramTypes);
    llvm::append_range(inputTypes, stateTypes);
    for (unsigned index : others)
      inputTypes.push_back(gradType.getInput(index));
    SmallVector<Type> resultTypes(
        gradType.getResults().take_front(1 + grad.numAux));
    llvm::append_range(resultTypes, paramTypes);
    llvm::append_range(resultTypes, stateTypes);

    Location loc = fn.getLoc();
    OpBuilder detached(context);
    auto step = func::FuncOp::create(
        detached, loc, stepName,
        FunctionType::get(context, inputTypes, resultTypes));
    unsigned numStates = stateTypes.size();
    unsigned firstOther = k + numStates;
    step->setAttr(kOptimizerAttr, StringAttr::get(context, kind));
    step->setAttr(kNumParamsAttr, detached.getI64IntegerAttr(k));
    step->setAttr(kNumStatesAttr, detached.getI64IntegerAttr(numStates));
    step->setAttr(kNumAuxAttr, detached.getI64IntegerAttr(grad.numAux));
    // Argument and result attributes of the gradient function (names from a
    // frontend, say) follow their values. Result 1 + m + i replaces argument
    // i (parameters, then states), so a driver feeds it back there and an
    // in-place pass may reuse the buffer. The arrays are built once: setting
    // attributes one by one rebuilds the whole array each time (quadratic in
    // the parameter count).
    auto dictOrEmpty = [&](DictionaryAttr attrs) {
      return attrs ? attrs : DictionaryAttr::get(context);
    };
    SmallVector<DictionaryAttr> argAttrs(inputTypes.size(),
                                         DictionaryAttr::get(context));
    SmallVector<DictionaryAttr> resultAttrs(resultTypes.size(),
                                            DictionaryAttr::get(context));
    for (auto [j, index] : llvm::enumerate(grad.params))
      argAttrs[j] = dictOrEmpty(fn.getArgAttrDict(index));
    for (auto [j, index] : llvm::enumerate(others))
      argAttrs[firstOther + j] = dictOrEmpty(fn.getArgAttrDict(index));
    for (unsigned r = 0; r < 1 + grad.numAux; ++r)
      resultAttrs[r] = dictOrEmpty(fn.getResultAttrDict(r));
    for (unsigned i = 0; i < k + numStates; ++i) {
      NamedAttrList updatable(argAttrs[i]);
      updatable.set(kUpdatableAttr, UnitAttr::get(context));
      argAttrs[i] = updatable.getDictionary(context);
      NamedAttrList updates(resultAttrs[1 + grad.numAux + i]);
      updates.set(kUpdatesArgAttr, detached.getI64IntegerAttr(i));
      resultAttrs[1 + grad.numAux + i] = updates.getDictionary(context);
    }
    step.setAllArgAttrs(argAttrs);
    step.setAllResultAttrs(resultAttrs);

    Block *body = step.addEntryBlock();
    OpBuilder builder = OpBuilder::atBlockEnd(body);
    Block &gradBody = fn.getBody().front();
    IRMapping mapping;
    for (auto [j, index] : llvm::enumerate(grad.params))
      mapping.map(gradBody.getArgument(index), body->getArgument(j));
    for (auto [j, index] : llvm::enumerate(others))
      mapping.map(gradBody.getArgument(index),
                  body->getArgument(firstOther + j));
    // %dy = 1: the step differentiates the loss itself.
    UpdateBuilder b(builder, loc);
    BlockArgument dy = gradBody.getArguments().back();
    if (!dy.use_empty())
      mapping.map(dy, b.splat(grad.lossType, 1.0));
    for (Operation &op : gradBody.without_terminator())
      builder.clone(op, mapping);
    Operation *terminator = gradBody.getTerminator();
    SmallVector<Value> results;
    for (Value result : terminator->getOperands())
      results.push_back(mapping.lookupOrDefault(result));

    SmallVector<Value> params(body->getArguments().take_front(k));
    SmallVector<Value> states(body->getArguments().slice(k, numStates));
    SmallVector<Value> gradients(ArrayRef<Value>(results).take_back(k));
    // PyTorch adds the L2 term to the gradient before the update rule.
    if (weightDecay != 0)
      for (auto [g, w] : llvm::zip_equal(gradients, params))
        g = b.add(g, b.scale(weightDecay, w));

    SmallVector<Value> newParams, newStates;
    switch (optimizer) {
    case OptimizerKind::SGD:
      // w' = w - lr*g
      for (auto [w, g] : llvm::zip_equal(params, gradients))
        newParams.push_back(b.sub(w, b.scale(lr, g)));
      break;
    case OptimizerKind::Momentum:
      // v' = momentum*v + g; w' = w - lr*v'
      for (auto [w, g, v] : llvm::zip_equal(params, gradients, states)) {
        Value velocity = b.add(b.scale(momentum, v), g);
        newStates.push_back(velocity);
        newParams.push_back(b.sub(w, b.scale(lr, velocity)));
      }
      break;
    case OptimizerKind::Adam:
      buildAdam(b, params, gradients, states, newParams, newStates);
      break;
    }

    results.resize(1 + grad.numAux);
    llvm::append_range(results, newParams);
    llvm::append_range(results, newStates);
    func::ReturnOp::create(builder, terminator->getLoc(), results);

    OpBuilder::atBlockEnd(module.getBody()).insert(step);
  }

  void buildAdam(UpdateBuilder &b, ArrayRef<Value> params,
                 ArrayRef<Value> gradients, ArrayRef<Value> states,
                 SmallVectorImpl<Value> &newParams,
                 SmallVectorImpl<Value> &newStates) {
    unsigned k = params.size();
    ArrayRef<Value> firstMoments = states.take_front(k);
    ArrayRef<Value> secondMoments = states.slice(k, k);
    Value count = states.back();
    Value newCount = b.addScalar(count, 1.0);

    // PyTorch computes 1 - beta^t in Python floats; in f32 the cancellation
    // costs ~1e-5 relative for beta2 = 0.999, so compute it in f64 and round
    // once to each parameter's element type.
    auto f64 = Float64Type::get(&getContext());
    Value countF64 = b.cast(newCount, f64);
    Value correction1 = b.oneMinus(b.pow(b.scalar(f64, beta1), countF64));
    Value correction2 = b.oneMinus(b.pow(b.scalar(f64, beta2), countF64));
    DenseMap<Type, std::pair<Value, Value>> corrections;

    SmallVector<Value> newFirst, newSecond;
    for (auto [w, g, m, v] :
         llvm::zip_equal(params, gradients, firstMoments, secondMoments)) {
      Type element = getElementTypeOrSelf(w.getType());
      auto &[c1, c2] = corrections[element];
      if (!c1) {
        c1 = b.cast(correction1, element);
        c2 = b.cast(correction2, element);
      }
      // m' = b1*m + (1-b1)*g
      Value decayedFirst = b.scale(beta1, m);
      Value first = b.add(decayedFirst, b.scale(1.0 - beta1, g));
      // v' = b2*v + (1-b2)*g*g
      Value decayedSecond = b.scale(beta2, v);
      Value second = b.add(decayedSecond, b.mul(b.scale(1.0 - beta2, g), g));
      // w' = w - lr*(m'/c1) / (sqrt(v'/c2) + eps)
      Value denominator = b.addScalar(b.sqrt(b.div(second, c2)), eps);
      Value step = b.scale(lr, b.div(first, c1));
      newParams.push_back(b.sub(w, b.div(step, denominator)));
      newFirst.push_back(first);
      newSecond.push_back(second);
    }
    llvm::append_range(newStates, newFirst);
    llvm::append_range(newStates, newSecond);
    newStates.push_back(newCount);
  }
};
} // namespace
