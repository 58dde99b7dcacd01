//===- AutoCast.cpp - automatic mixed precision ---------------------------===//
//
// RAF's AutoCast (RAF paper §3.1.2; RAF source src/pass/auto_cast.cc and
// python/raf/amp/type_hints.py): one walk over a training graph in program
// order. Each relay operator's category (AutoCastOpInterface) gives a type hint
// per operand; operands are cast to their hint and the result types
// re-inferred, so later operators see the new types. Casts feeding operators
// that fusion cannot merge them into are shared; the others are exclusive to
// their consumer so that they fuse (Fig. 3 of the RAF paper).
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Support/PassOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFAUTOCAST
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

/// Concatenate runs in the low-precision type only up to this many inputs:
/// RAF found that more exceed the GPU registers of the injective schedule.
constexpr unsigned kMaxLowPrecisionConcatInputs = 5;

/// RAF's type hint for one operand: the element type the operand must have,
/// or std::nullopt for "do not touch", which restores the type the operand
/// had before the pass (so a value already cast to the low-precision type
/// is cast back).
using Hint = std::optional<Type>;

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool isTrainingGraph(func::FuncOp fn) {
  return fn->hasAttr(kGradParamsAttr) || fn->hasAttr(kOptimizerAttr);
}

/// Operations the walk passes through: their results have no inputs to cast
/// (constants, like parameters, keep their type) or only forward values.
bool isStructural(Operation *op) {
  return isa<ConstantOp, ZeroOp, TupleOp, TupleGetOp, CastOp, func::ReturnOp>(
      op);
}

/// Special-category operators whose rule this pass implements.
bool hasSpecialRule(Operation *op) {
  return isa<AddOp, SubtractOp, ConcatenateOp, BatchNormOp, CastOp>(op);
}

/// The resolved pass options.
struct CastConfig {
  FloatType amp;
  FloatType out;
  FloatType f32;
  /// Operators forced into the low-precision type (Always over every
  /// operand) or out of it (Never over every operand).
  DenseMap<OperationName, AutoCastCategory> forced;
};

/// AutoCast of one function (RAF's AutoCastMutator). The IR is changed in
/// place: operands are replaced by casts and result types re-inferred.
class FunctionCaster {
public:
  FunctionCaster(func::FuncOp fn, const CastConfig &config, bool keepSignature)
      : fn(fn), config(config), keepSignature(keepSignature) {}

  LogicalResult run();

private:
  using CastKey = std::pair<Value, Type>;

  /// The type `value` had before the pass.
  Type originalType(Value value) const {
    auto it = originalTypes.find(value);
    return it == originalTypes.end() ? value.getType() : it->second;
  }
  void setType(Value value, Type type) {
    if (value.getType() == type)
      return;
    originalTypes.try_emplace(value, value.getType());
    value.setType(type);
  }

  SmallVector<Hint> computeHints(Operation *op);
  Value castTensor(Value value, Type element, bool shared, Operation *before,
                   DenseMap<CastKey, Value> &exclusive);
  Value castToType(Value value, Type type, Operation *before);
  Type outputType(Type current, Type original) const;

  void visitCast(CastOp op);
  LogicalResult visitOperator(Operation *op);
  LogicalResult reinferResultTypes(Operation *op);
  LogicalResult visitReturn(func::ReturnOp op);
  void cleanUp();

  func::FuncOp fn;
  const CastConfig &config;
  /// The function is referenced in the module: its results keep their types.
  bool keepSignature;

  DenseMap<Value, Type> originalTypes;
  /// (value, element type) -> a cast of the value shared by the consumers
  /// that may share it.
  DenseMap<CastKey, Value> sharedCasts;
  /// (result of an existing cast, its source's element type) -> the source:
  /// casting a cast back yields the original, not a cast pair.
  DenseMap<CastKey, Value> reverseCasts;
  /// The casts the function had before the pass.
  SmallVector<CastOp> existingCasts;
  llvm::SmallPtrSet<Operation *, 8> existingCastSet;
  /// Tuples replaced by rebuilt ones at the return.
  SmallVector<Operation *> replacedTuples;
};

SmallVector<Hint> FunctionCaster::computeHints(Operation *op) {
  unsigned numOperands = op->getNumOperands();
  SmallVector<Hint> hints(numOperands, std::nullopt);
  // An operand produced by an existing cast between float types counts as
  // its source, so that the rule follows the uncast value and the cast can
  // be reused or dropped.
  SmallVector<Value> args;
  for (Value operand : op->getOperands()) {
    auto cast = operand.getDefiningOp<CastOp>();
    if (cast && existingCastSet.contains(cast) &&
        isFloatTensor(cast.getX().getType()) && isFloatTensor(cast.getType()))
      args.push_back(cast.getX());
    else
      args.push_back(operand);
  }
  auto elementOf = [&](unsigned i) {
    return getElementTypeOrSelf(args[i].getType());
  };
  auto isLow = [&](unsigned i) { return elementOf(i) == config.amp; };
  auto isF32 = [&](unsigned i) { return elementOf(i) == config.f32; };
  // Hints apply to float tensors only; other operands keep their type,
  // which nullopt gives them (only float types are ever changed).
  auto setFloat = [&](unsigned i, Hint hint) {
    if (isFloatTensor(args[i].getType()))
      hints[i] = hint;
  };

  auto rule = cast<AutoCastOpInterface>(op);
  AutoCastCategory category = rule.getAutoCastCategory();
  unsigned k = std::min(rule.getAutoCastArgCount(), numOperands);
  if (auto it = config.forced.find(op->getName()); it != config.forced.end()) {
    category = it->second;
    k = numOperands;
  }

  switch (category) {
  case AutoCastCategory::Always:
    for (unsigned i = 0; i < k; ++i)
      setFloat(i, config.amp);
    break;
  case AutoCastCategory::Never:
    break;
  case AutoCastCategory::Infer: {
    // The majority of the castable operands; ties go to the low-precision
    // type. RAF leaves operators returning tuples (here: several results)
    // and those without castable operands alone.
    Hint target;
    if (k > 0 && op->getNumResults() == 1) {
      unsigned numLow = 0, numF32 = 0;
      for (unsigned i = 0; i < k; ++i) {
        numLow += isLow(i);
        numF32 += isF32(i);
      }
      target = numF32 > numLow ? config.f32 : config.amp;
    }
    for (unsigned i = 0; i < k; ++i)
      setFloat(i, target);
    break;
  }
  case AutoCastCategory::Follow:
    if (k > 0 && isLow(0))
      setFloat(0, config.amp);
    break;
  case AutoCastCategory::Special:
    if (isa<AddOp, SubtractOp>(op)) {
      // The binary-ufunc rule: low precision when the result was f32 and an
      // operand is already in low precision; otherwise leave both alone.
      Type result = getElementTypeOrSelf(op->getResult(0).getType());
      if (result == config.f32 && (isLow(0) || isLow(1))) {
        setFloat(0, config.amp);
        setFloat(1, config.amp);
      }
    } else if (isa<ConcatenateOp>(op)) {
      unsigned numLow = 0;
      for (unsigned i = 0; i < numOperands; ++i)
        numLow += isLow(i);
      bool low = numLow > numOperands / 2 &&
                 numOperands <= kMaxLowPrecisionConcatInputs;
      for (unsigned i = 0; i < numOperands; ++i)
        setFloat(i, low ? config.amp : config.f32);
    }
    // nn.batch_norm: RAF casts the data and keeps scale, bias and the
    // moving statistics in f32. Our operator requires one element type for
    // all of them, so it keeps the statistics' (original) precision: every
    // operand is left alone, which casts low-precision data back.
    break;
  }
  return hints;
}

Value FunctionCaster::castTensor(Value value, Type element, bool shared,
                                 Operation *before,
                                 DenseMap<CastKey, Value> &exclusive) {
  if (!isFloatTensor(value.getType()))
    return value;
  CastKey key(value, element);
  if (auto it = reverseCasts.find(key); it != reverseCasts.end())
    return it->second;
  if (getElementTypeOrSelf(value.getType()) == element)
    return value;
  DenseMap<CastKey, Value> &cache = shared ? sharedCasts : exclusive;
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  OpBuilder builder(before);
  Value cast = CastOp::create(builder, before->getLoc(), value, element);
  cache[key] = cast;
  return cast;
}

/// The type a function result gets: low-precision tensors become
/// `out-dtype`, everything else gets back its original type (it may not be
/// data, e.g. batch-norm statistics, which must not change).
Type FunctionCaster::outputType(Type current, Type original) const {
  if (auto tuple = dyn_cast<TupleType>(current)) {
    auto originalTuple = dyn_cast<TupleType>(original);
    SmallVector<Type> fields;
    for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
      fields.push_back(
          outputType(field, originalTuple ? originalTuple.getType(i) : field));
    return TupleType::get(current.getContext(), fields);
  }
  auto tensor = dyn_cast<RankedTensorType>(current);
  if (!tensor || !isFloatTensor(tensor))
    return current;
  if (tensor.getElementType() == config.amp)
    return tensor.clone(config.out);
  return tensor.clone(getElementTypeOrSelf(original));
}

/// Casts `value` to `type` (tensors, and tuples field by field) before
/// `before`, sharing casts.
Value FunctionCaster::castToType(Value value, Type type, Operation *before) {
  if (value.getType() == type)
    return value;
  if (isa<RankedTensorType>(type)) {
    DenseMap<CastKey, Value> unused;
    return castTensor(value, getElementTypeOrSelf(type), /*shared=*/true,
                      before, unused);
  }
  auto tupleType = dyn_cast<TupleType>(type);
  auto valueType = dyn_cast<TupleType>(value.getType());
  if (!tupleType || !valueType || tupleType.size() != valueType.size())
    return value;
  OpBuilder builder(before);
  Location loc = before->getLoc();
  SmallVector<Value> fields;
  auto tuple = value.getDefiningOp<TupleOp>();
  for (unsigned i = 0; i < tupleType.size(); ++i) {
    Value field = tuple
                      ? tuple.getOperand(i)
                      : TupleGetOp::create(builder, loc, value, i).getResult();
    fields.push_back(castToType(field, tupleType.getType(i), before));
  }
  if (tuple)
    replacedTuples.push_back(tuple);
  return TupleOp::create(builder, loc, fields);
}

void FunctionCaster::visitCast(CastOp op) {
  existingCasts.push_back(op);
  existingCastSet.insert(op);
  Type source = getElementTypeOrSelf(op.getX().getType());
  // A cast whose operand already has the target type is dropped in the
  // clean-up; until then it keeps its result's type, which later hints see
  // as the value's original type.
  if (source != getElementTypeOrSelf(op.getType()))
    reverseCasts[{op.getResult(), source}] = op.getX();
}

LogicalResult FunctionCaster::visitOperator(Operation *op) {
  SmallVector<Hint> hints = computeHints(op);
  // RAF's exclusive-cast rule: a consumer that fusion can merge casts into
  // (elementwise, broadcast, injective) gets casts of its own; the others
  // share one.
  auto fusion = dyn_cast<FusionOpInterface>(op);
  bool shared = !fusion || fusion.getFusionKind() > FusionKind::Injective;
  // An operand used twice by one consumer is cast once for it.
  DenseMap<CastKey, Value> exclusive;
  for (auto [i, hint] : llvm::enumerate(hints)) {
    Value operand = op->getOperand(i);
    Type target = hint ? *hint : getElementTypeOrSelf(originalType(operand));
    Value cast = castTensor(operand, target, shared, op, exclusive);
    if (cast != operand)
      op->setOperand(i, cast);
  }
  return reinferResultTypes(op);
}

LogicalResult FunctionCaster::reinferResultTypes(Operation *op) {
  auto infer = dyn_cast<InferTypeOpInterface>(op);
  if (!infer)
    return op->emitError("AutoCast cannot infer the result types of '")
           << op->getName() << "'";
  SmallVector<Type> types;
  if (failed(infer.inferReturnTypes(op->getContext(), op->getLoc(),
                                    op->getOperands(), op->getAttrDictionary(),
                                    op->getPropertiesStorage(),
                                    op->getRegions(), types)) ||
      types.size() != op->getNumResults())
    return op->emitError("the operand types AutoCast chose are invalid for '")
           << op->getName() << "': " << op->getOperandTypes();
  for (auto [result, type] : llvm::zip_equal(op->getResults(), types))
    setType(result, type);
  return success();
}

LogicalResult FunctionCaster::visitReturn(func::ReturnOp op) {
  FunctionType type = fn.getFunctionType();
  SmallVector<Type> resultTypes;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    Type target;
    if (keepSignature) {
      target = type.getResult(i);
    } else if (auto updates =
                   fn.getResultAttrOfType<IntegerAttr>(i, kUpdatesArgAttr)) {
      // A new parameter or optimizer state replaces its argument: it keeps
      // the argument's type so that the step can be iterated (RAF casts
      // back a value that shares memory with another, C4 step 1f).
      int64_t arg = updates.getInt();
      if (arg < 0 || arg >= static_cast<int64_t>(type.getNumInputs()))
        return emitError(fn.getLoc())
               << "result #" << i << " has " << kUpdatesArgAttr << " = " << arg
               << ", but there are " << type.getNumInputs() << " arguments";
      target = type.getInput(arg);
      auto current = dyn_cast<RankedTensorType>(operand.getType());
      auto wanted = dyn_cast<RankedTensorType>(target);
      if (!current || !wanted || current.getShape() != wanted.getShape())
        return emitError(fn.getLoc())
               << "result #" << i << " (" << operand.getType()
               << ") replaces argument #" << arg << " (" << target << ", "
               << kUpdatesArgAttr << "), but their shapes differ";
    } else {
      target = outputType(operand.getType(), originalType(operand));
    }
    Value cast = castToType(operand, target, op);
    op->setOperand(i, cast);
    resultTypes.push_back(cast.getType());
  }
  fn.setFunctionType(
      FunctionType::get(fn.getContext(), type.getInputs(), resultTypes));
  return success();
}

void FunctionCaster::cleanUp() {
  for (CastOp cast : existingCasts) {
    if (cast.getX().getType() == cast.getType()) {
      cast.getResult().replaceAllUsesWith(cast.getX());
      cast.erase();
    } else if (cast.use_empty()) {
      // Every consumer took the source instead (the reverse cache).
      cast.erase();
    }
  }
  for (Operation *tuple : replacedTuples)
    if (tuple->use_empty())
      tuple->erase();
}

LogicalResult FunctionCaster::run() {
  Block &body = fn.getBody().front();
  // Existing casts with no uses before the pass are left as they are: only
  // casts that this pass makes dead are removed.
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      if (failed(visitReturn(ret)))
        return failure();
    } else if (auto cast = dyn_cast<CastOp>(op)) {
      if (!cast.use_empty())
        visitCast(cast);
    } else if (isa<ConstantOp, ZeroOp>(op)) {
      continue;
    } else if (isa<TupleOp, TupleGetOp>(op)) {
      if (failed(reinferResultTypes(&op)))
        return failure();
    } else if (failed(visitOperator(&op))) {
      return failure();
    }
  }
  cleanUp();
  return success();
}

struct RafAutoCast : public raf::relay::impl::RafAutoCastBase<RafAutoCast> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    // out-dtype's default, "", stands for dtype.
    if (failed(raf::checkEnumeratedOptions(
            getArgument(), options,
            {{"dtype", {"f16", "bf16"}},
             {"out-dtype", {"f16", "bf16", "f32"}, /*allowEmpty=*/true}},
            errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<CastConfig> config = readOptions();
    if (!config)
      return signalPassFailure();
    FailureOr<SmallVector<func::FuncOp>> functions = selectFunctions();
    if (failed(functions))
      return signalPassFailure();
    // Every function is checked before any is changed, so that an error
    // leaves the module as it was.
    bool valid = true;
    for (func::FuncOp fn : *functions)
      valid &= succeeded(checkFunction(fn, *config));
    if (!valid)
      return signalPassFailure();

    for (func::FuncOp fn : *functions) {
      bool keepSignature = !SymbolTable::symbolKnownUseEmpty(fn, module);
      if (failed(FunctionCaster(fn, *config, keepSignature).run()))
        return signalPassFailure();
    }
  }

  /// Checks the options; reports a bad one at the module (by location only:
  /// printing the whole module with the error would bury it).
  std::optional<CastConfig> readOptions() {
    MLIRContext *context = &getContext();
    Location loc = getOperation().getLoc();
    auto parseFloat = [&](StringRef name) -> FloatType {
      return llvm::StringSwitch<FloatType>(name)
          .Case("f16", Float16Type::get(context))
          .Case("bf16", BFloat16Type::get(context))
          .Case("f32", Float32Type::get(context))
          .Default(FloatType());
    };
    CastConfig config;
    config.f32 = Float32Type::get(context);
    config.amp = parseFloat(dtype);
    if (!config.amp || config.amp == config.f32) {
      emitError(loc) << "unsupported AutoCast dtype '" << dtype
                     << "' (expected f16 or bf16)";
      return std::nullopt;
    }
    config.out = outDtype.empty() ? config.amp : parseFloat(outDtype);
    if (!config.out) {
      emitError(loc) << "unsupported AutoCast out-dtype '" << outDtype
                     << "' (expected f16, bf16 or f32)";
      return std::nullopt;
    }
    auto addForced = [&](ArrayRef<std::string> names, StringRef option,
                         AutoCastCategory category) {
      for (StringRef name : names) {
        std::string full =
            name.starts_with("relay.") ? name.str() : "relay." + name.str();
        std::optional<RegisteredOperationName> op =
            RegisteredOperationName::lookup(full, context);
        if (!op || !op->hasInterface<AutoCastOpInterface>()) {
          emitError(loc) << "unknown relay operator '" << name << "' in "
                         << option
                         << " (expected an operator name such as nn.softmax)";
          return false;
        }
        if (*op == OperationName(CastOp::getOperationName(), context)) {
          emitError(loc) << option
                         << " cannot name 'cast': it is what AutoCast inserts";
          return false;
        }
        auto [it, inserted] = config.forced.try_emplace(*op, category);
        if (!inserted && it->second != category) {
          emitError(loc) << "'" << name
                         << "' is in both force-low and force-f32";
          return false;
        }
      }
      return true;
    };
    if (!addForced(forceLow, "force-low", AutoCastCategory::Always) ||
        !addForced(forceF32, "force-f32", AutoCastCategory::Never))
      return std::nullopt;
    return config;
  }

  FailureOr<SmallVector<func::FuncOp>> selectFunctions() {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    StringLiteral advice =
        "AutoCast converts training graphs: run --raf-autodiff "
        "(--raf-append-optimizer) or --raf-training-pipeline first, or set "
        "inference=true to convert a function without gradients";
    if (!entry.empty()) {
      auto fn = module.lookupSymbol<func::FuncOp>(entry);
      if (!fn) {
        emitError(module.getLoc())
            << "function '@" << entry
            << "' not found (set the pass option entry=<name>)";
        return failure();
      }
      if (!inference && !isTrainingGraph(fn)) {
        emitError(fn.getLoc())
            << "'@" << entry << "' has no gradients (neither "
            << kGradParamsAttr << " nor " << kOptimizerAttr << "): " << advice;
        return failure();
      }
      functions.push_back(fn);
      return functions;
    }
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (inference ? !fn.isExternal() && !fn->hasAttr(kPrimitiveAttr)
                    : isTrainingGraph(fn))
        functions.push_back(fn);
    }
    if (functions.empty() && !inference) {
      emitError(module.getLoc())
          << "no function has gradients (" << kGradParamsAttr << " or "
          << kOptimizerAttr << "): " << advice;
      return failure();
    }
    return functions;
  }

  /// Reports, in one error, every operation of `fn` without a casting rule
  /// (RAF lists the operators and their counts the same way). Errors about
  /// a function are reported at its location only: printing a whole
  /// training graph with the error would bury it.
  LogicalResult checkFunction(func::FuncOp fn, const CastConfig &config) {
    if (fn.isExternal())
      return emitError(fn.getLoc())
             << "AutoCast needs the body of '@" << fn.getSymName() << "'";
    if (!fn.getBody().hasOneBlock())
      return emitError(fn.getLoc())
             << "AutoCast expects a single-block body in '@" << fn.getSymName()
             << "'";
    llvm::MapVector<OperationName, SmallVector<Operation *>> missing;
    for (Operation &op : fn.getBody().front()) {
      if (isStructural(&op))
        continue;
      auto rule = dyn_cast<AutoCastOpInterface>(&op);
      bool hasRule = rule && isa<InferTypeOpInterface>(&op) &&
                     (config.forced.contains(op.getName()) ||
                      rule.getAutoCastCategory() != AutoCastCategory::Special ||
                      hasSpecialRule(&op));
      if (!hasRule)
        missing[op.getName()].push_back(&op);
    }
    if (missing.empty())
      return success();
    unsigned total = 0;
    for (auto &entry : missing)
      total += entry.second.size();
    InFlightDiagnostic diag = emitError(fn.getLoc());
    diag << "AutoCast has no casting rule for " << total << " operation"
         << (total == 1 ? "" : "s") << " in '@" << fn.getSymName() << "': ";
    llvm::interleaveComma(missing, diag, [&](auto &entry) {
      diag << "'" << entry.first << "' (" << entry.second.size() << ")";
    });
    diag << "; it handles relay operators, constants and tuples (inline "
            "calls and lower closures and conditionals first)";
    for (auto &entry : missing)
      for (Operation *op : entry.second)
        diag.attachNote(op->getLoc())
            << "'" << op->getName() << "' has no casting rule";
    return failure();
  }
};
} // namespace
