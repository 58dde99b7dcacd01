//===- Defunctionalize.cpp - first-class functions to first-order code ----===//
//
// --relay-defunctionalize removes function values from a lambda-lifted
// program whose closures are known statically, so that it compiles like
// first-order code (Reynolds 1972, "Definitional interpreters for
// higher-order programming languages", §6; the closure-conversion and
// specialisation scheme Relay's ahead-of-time compilation of first-class
// functions follows).
//
// Every function-typed value gets a static *shape* and a run-time
// *environment* (a list of first-order values):
//
//  * a known closure: the lifted function it calls and the shapes of its
//    captured values (`relay.global_ref @f` captures nothing; a partial
//    application of --relay-lambda-lift captures its leading operands). Its
//    environment is the captured values' environments.
//  * a union of known closures, where a `relay.if` chooses between closures
//    of different functions: Reynolds' tag. The environment is an i32 tag
//    followed by the environments of every alternative (zeros for those not
//    taken); calls dispatch on the tag with a chain of `relay.if`.
//  * a tuple containing function values: the fields' environments in order.
//
// Each function is specialised per distinct shape of its function-typed
// parameters (a clone `@f_defun_<k>` whose parameters are the environments
// instead), a call of a known closure becomes a `func.call` of the
// specialisation of its function with the captured values in front, and a
// function returning a closure returns its environment. Recursion works as
// long as every recursive call passes closures of the shapes the function
// was entered with. Anything else carrying a function value (references,
// relay.grad, a closure only known at run time) is reported at the op.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "PartialApplication.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <memory>

namespace raf::relay {
#define GEN_PASS_DEF_RELAYDEFUNCTIONALIZE
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

/// How many specialisations one function may get before the closures passed
/// to it are taken to grow without bound (a recursion that wraps its
/// function argument in a new closure at every step).
constexpr unsigned kMaxSpecializations = 64;

constexpr StringLiteral kInterpHint = "; --target=interp runs this program";

/// Whether a value of `type` is or contains a function value.
bool containsFunction(Type type) {
  if (isa<FunctionType>(type))
    return true;
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), containsFunction);
  return false;
}

struct Shape;
using ShapeRef = std::shared_ptr<const Shape>;

/// The static part of a value after defunctionalisation.
struct Shape {
  enum class Kind { Leaf, Closure, Union, Tuple };
  Kind kind;
  /// The value's type before the pass.
  Type type;
  /// Closure: the module function it calls.
  FlatSymbolRefAttr callee;
  /// Closure: captured values; Union: the alternatives (closures);
  /// Tuple: the fields.
  SmallVector<ShapeRef> children;
  /// Types of the run-time environment, in order.
  SmallVector<Type> envTypes;
  /// Equal for equal shapes.
  std::string key;
};

Type tagType(MLIRContext *context) {
  return RankedTensorType::get({}, IntegerType::get(context, 32));
}

std::string typeKey(Type type) {
  return llvm::utohexstr(
      reinterpret_cast<uintptr_t>(type.getAsOpaquePointer()));
}

ShapeRef makeLeaf(Type type) {
  auto shape = std::make_shared<Shape>();
  shape->kind = Shape::Kind::Leaf;
  shape->type = type;
  shape->envTypes.push_back(type);
  shape->key = "L" + typeKey(type);
  return shape;
}

ShapeRef makeComposite(Shape::Kind kind, Type type, FlatSymbolRefAttr callee,
                       ArrayRef<ShapeRef> children) {
  auto shape = std::make_shared<Shape>();
  shape->kind = kind;
  shape->type = type;
  shape->callee = callee;
  llvm::append_range(shape->children, children);
  char letter = kind == Shape::Kind::Closure ? 'C'
                : kind == Shape::Kind::Union ? 'U'
                                             : 'T';
  shape->key = std::string(1, letter) + typeKey(type);
  if (callee)
    shape->key += "@" + callee.getValue().str();
  shape->key += "(";
  if (kind == Shape::Kind::Union)
    shape->envTypes.push_back(tagType(type.getContext()));
  for (const ShapeRef &child : children) {
    shape->key += child->key + ",";
    llvm::append_range(shape->envTypes, child->envTypes);
  }
  shape->key += ")";
  return shape;
}

/// A builder at the end of `block`, which may not be in a region yet.
OpBuilder builderAtEnd(MLIRContext *context, Block *block) {
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(block);
  return builder;
}

/// A value after defunctionalisation: its shape and its environment.
struct Repr {
  ShapeRef shape;
  SmallVector<Value> env;
};

/// Splits `values` into consecutive environments of `shapes`.
SmallVector<Repr> splitEnvironments(ValueRange values,
                                    ArrayRef<ShapeRef> shapes) {
  SmallVector<Repr> reprs;
  unsigned offset = 0;
  for (const ShapeRef &shape : shapes) {
    unsigned size = shape->envTypes.size();
    Repr repr{shape, {}};
    llvm::append_range(repr.env, values.slice(offset, size));
    offset += size;
    reprs.push_back(std::move(repr));
  }
  return reprs;
}

/// The environments of a composite value's children.
SmallVector<Repr> childReprs(const Repr &repr) {
  ValueRange env(repr.env);
  if (repr.shape->kind == Shape::Kind::Union)
    env = env.drop_front();
  return splitEnvironments(env, repr.shape->children);
}

/// A function specialised for the shapes of its parameters.
struct Specialization {
  func::FuncOp func;
  SmallVector<Type> inputTypes;
  SmallVector<Type> resultTypes;
  SmallVector<ShapeRef> resultShapes;
  /// False while the body of a function returning function values is being
  /// rewritten: its result shapes come from its return.
  bool resultsKnown = false;
};

class Defunctionalizer {
public:
  explicit Defunctionalizer(ModuleOp module)
      : module(module), symbols(module) {}

  LogicalResult run();

private:
  /// Per-function state while a body is rewritten.
  struct FunctionState {
    DenseMap<Value, Repr> reprs;
    /// Ops replaced by the rewrite, erased (in reverse) once it is done.
    SmallVector<Operation *> dead;
  };
  using CaseBuilder =
      function_ref<FailureOr<SmallVector<Repr>>(OpBuilder &, unsigned)>;

  FailureOr<Specialization *>
  specialize(func::FuncOp source, ArrayRef<ShapeRef> params, Operation *at);
  LogicalResult rewriteFunction(func::FuncOp fn, ArrayRef<ShapeRef> params,
                                Specialization &spec);
  LogicalResult rewriteBlock(Block &block, FunctionState &state);
  LogicalResult rewriteOp(Operation *op, FunctionState &state);
  LogicalResult rewriteIf(IfOp op, FunctionState &state);
  LogicalResult rewriteCall(Operation *op, const Repr &callee, ValueRange args,
                            FunctionState &state);

  FailureOr<Repr> getRepr(Value value, FunctionState &state, Operation *user);
  /// Gives the results of `op` the reprs `results`: first-order results
  /// are replaced, the others recorded.
  void bindResults(Operation *op, ArrayRef<Repr> results, FunctionState &state);

  FailureOr<SmallVector<Repr>> emitApply(OpBuilder &builder, Location loc,
                                         const Repr &callee,
                                         ArrayRef<Repr> args, Operation *at);
  /// `relay.if` chain over `tag` (0 .. count-1) built from `caseBuilder`.
  FailureOr<SmallVector<Repr>>
  emitSwitch(OpBuilder &builder, Location loc, Value tag, unsigned first,
             unsigned count, CaseBuilder caseBuilder, Operation *at);
  /// Ends both branches with a yield of their values in the merged shapes
  /// and builds the `relay.if` holding them.
  FailureOr<SmallVector<Repr>>
  finishIf(OpBuilder &builder, Location loc, Value condition,
           std::unique_ptr<Block> thenBlock, ArrayRef<Repr> thenValues,
           std::unique_ptr<Block> elseBlock, ArrayRef<Repr> elseValues,
           Operation *at);
  /// The environment of `repr` seen as a value of shape `target`.
  FailureOr<SmallVector<Value>> inject(OpBuilder &builder, Location loc,
                                       const Repr &repr, const ShapeRef &target,
                                       Operation *at);
  FailureOr<Value> placeholder(OpBuilder &builder, Location loc, Type type,
                               Operation *at);

  ModuleOp module;
  SymbolTable symbols;
  std::map<std::string, std::unique_ptr<Specialization>> specializations;
  /// How many clones each function has, and the functions cloned in order.
  DenseMap<Operation *, unsigned> cloneCounts;
  DenseMap<Operation *, Operation *> lastClone;
  SmallVector<func::FuncOp> sources;
};

/// The shape of a value that may be either of `a` and `b`.
ShapeRef merge(const ShapeRef &a, const ShapeRef &b) {
  if (a->key == b->key)
    return a;
  if (a->kind == Shape::Kind::Tuple && b->kind == Shape::Kind::Tuple) {
    SmallVector<ShapeRef> fields;
    for (auto [x, y] : llvm::zip_equal(a->children, b->children))
      fields.push_back(merge(x, y));
    return makeComposite(Shape::Kind::Tuple, a->type, {}, fields);
  }
  // Both are function values (types match): a union of their closures.
  SmallVector<ShapeRef> alternatives;
  llvm::StringSet<> seen;
  for (const ShapeRef &shape : {a, b}) {
    ArrayRef<ShapeRef> closures(shape);
    if (shape->kind == Shape::Kind::Union)
      closures = shape->children;
    for (const ShapeRef &closure : closures)
      if (seen.insert(closure->key).second)
        alternatives.push_back(closure);
  }
  return makeComposite(Shape::Kind::Union, a->type, {}, alternatives);
}

FailureOr<Repr> Defunctionalizer::getRepr(Value value, FunctionState &state,
                                          Operation *user) {
  if (!containsFunction(value.getType()))
    return Repr{makeLeaf(value.getType()), {value}};
  auto it = state.reprs.find(value);
  if (it != state.reprs.end())
    return it->second;
  return user->emitOpError("uses a function value of type ")
         << value.getType()
         << " whose closure is not known statically (it is a block argument "
            "of a region --relay-defunctionalize does not follow)"
         << kInterpHint;
}

void Defunctionalizer::bindResults(Operation *op, ArrayRef<Repr> results,
                                   FunctionState &state) {
  for (auto [result, repr] : llvm::zip_equal(op->getResults(), results)) {
    if (repr.shape->kind == Shape::Kind::Leaf)
      result.replaceAllUsesWith(repr.env.front());
    else
      state.reprs[result] = repr;
  }
  state.dead.push_back(op);
}

FailureOr<Value> Defunctionalizer::placeholder(OpBuilder &builder, Location loc,
                                               Type type, Operation *at) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    Type element = tensor.getElementType();
    if (tensor.hasStaticShape() && element.isIntOrFloat())
      return ConstantOp::create(
                 builder, loc, type,
                 DenseElementsAttr::get(tensor, builder.getZeroAttr(element)))
          .getResult();
    if (element.isIntOrFloat())
      return ZeroOp::create(builder, loc, type).getResult();
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> fields;
    for (Type field : tuple.getTypes()) {
      FailureOr<Value> value = placeholder(builder, loc, field, at);
      if (failed(value))
        return failure();
      fields.push_back(*value);
    }
    return TupleOp::create(builder, loc, fields).getResult();
  }
  return at->emitOpError("chooses between closures, one of which captures a "
                         "value of type ")
         << type
         << "; the tagged representation needs a placeholder value of every "
            "captured type for the closures not chosen, and only tensors and "
            "tuples of tensors have one"
         << kInterpHint;
}

FailureOr<SmallVector<Value>>
Defunctionalizer::inject(OpBuilder &builder, Location loc, const Repr &repr,
                         const ShapeRef &target, Operation *at) {
  if (repr.shape->key == target->key)
    return repr.env;
  SmallVector<Value> env;
  if (target->kind == Shape::Kind::Tuple) {
    for (auto [field, fieldTarget] :
         llvm::zip_equal(childReprs(repr), target->children)) {
      FailureOr<SmallVector<Value>> values =
          inject(builder, loc, field, fieldTarget, at);
      if (failed(values))
        return failure();
      llvm::append_range(env, *values);
    }
    return env;
  }
  assert(target->kind == Shape::Kind::Union && "shapes of a value differ");
  if (repr.shape->kind == Shape::Kind::Union) {
    // Re-tag: dispatch on the old tag, inject each alternative.
    SmallVector<Repr> alternatives = childReprs(repr);
    FailureOr<SmallVector<Repr>> result = emitSwitch(
        builder, loc, repr.env.front(), 0, alternatives.size(),
        [&](OpBuilder &caseBuilder,
            unsigned k) -> FailureOr<SmallVector<Repr>> {
          FailureOr<SmallVector<Value>> values =
              inject(caseBuilder, loc, alternatives[k], target, at);
          if (failed(values))
            return failure();
          return SmallVector<Repr>{Repr{target, *values}};
        },
        at);
    if (failed(result))
      return failure();
    return result->front().env;
  }
  const auto *position =
      llvm::find_if(target->children, [&](const ShapeRef &alternative) {
        return alternative->key == repr.shape->key;
      });
  assert(position != target->children.end() && "closure not in the union");
  int32_t tag = position - target->children.begin();
  auto tagTensor = cast<RankedTensorType>(tagType(builder.getContext()));
  env.push_back(ConstantOp::create(builder, loc, tagTensor,
                                   DenseElementsAttr::get(tagTensor, tag)));
  for (const ShapeRef &alternative : target->children) {
    if (alternative->key == repr.shape->key) {
      llvm::append_range(env, repr.env);
      continue;
    }
    for (Type type : alternative->envTypes) {
      FailureOr<Value> value = placeholder(builder, loc, type, at);
      if (failed(value))
        return failure();
      env.push_back(*value);
    }
  }
  return env;
}

FailureOr<SmallVector<Repr>>
Defunctionalizer::finishIf(OpBuilder &builder, Location loc, Value condition,
                           std::unique_ptr<Block> thenBlock,
                           ArrayRef<Repr> thenValues,
                           std::unique_ptr<Block> elseBlock,
                           ArrayRef<Repr> elseValues, Operation *at) {
  SmallVector<ShapeRef> shapes;
  for (auto [a, b] : llvm::zip_equal(thenValues, elseValues))
    shapes.push_back(merge(a.shape, b.shape));
  for (auto [block, values] : {std::pair{thenBlock.get(), thenValues},
                               std::pair{elseBlock.get(), elseValues}}) {
    OpBuilder branch = builderAtEnd(builder.getContext(), block);
    SmallVector<Value> yielded;
    for (auto [value, shape] : llvm::zip_equal(values, shapes)) {
      FailureOr<SmallVector<Value>> env = inject(branch, loc, value, shape, at);
      if (failed(env))
        return failure();
      llvm::append_range(yielded, *env);
    }
    YieldOp::create(branch, loc, yielded);
  }
  SmallVector<Type> types;
  for (const ShapeRef &shape : shapes)
    llvm::append_range(types, shape->envTypes);
  auto conditional = IfOp::create(builder, loc, types, condition);
  conditional.getThenRegion().push_back(thenBlock.release());
  conditional.getElseRegion().push_back(elseBlock.release());
  return splitEnvironments(conditional.getResults(), shapes);
}

FailureOr<SmallVector<Repr>>
Defunctionalizer::emitSwitch(OpBuilder &builder, Location loc, Value tag,
                             unsigned first, unsigned count,
                             CaseBuilder caseBuilder, Operation *at) {
  if (first + 1 == count)
    return caseBuilder(builder, first);
  auto tagTensor = cast<RankedTensorType>(tag.getType());
  Value index = ConstantOp::create(
      builder, loc, tagTensor,
      DenseElementsAttr::get(tagTensor, static_cast<int32_t>(first)));
  Value isFirst = EqualOp::create(builder, loc, tag, index);
  auto thenBlock = std::make_unique<Block>();
  auto elseBlock = std::make_unique<Block>();
  OpBuilder thenBuilder = builderAtEnd(builder.getContext(), thenBlock.get());
  FailureOr<SmallVector<Repr>> thenValues = caseBuilder(thenBuilder, first);
  if (failed(thenValues))
    return failure();
  OpBuilder elseBuilder = builderAtEnd(builder.getContext(), elseBlock.get());
  FailureOr<SmallVector<Repr>> elseValues =
      emitSwitch(elseBuilder, loc, tag, first + 1, count, caseBuilder, at);
  if (failed(elseValues))
    return failure();
  return finishIf(builder, loc, isFirst, std::move(thenBlock), *thenValues,
                  std::move(elseBlock), *elseValues, at);
}

FailureOr<SmallVector<Repr>> Defunctionalizer::emitApply(OpBuilder &builder,
                                                         Location loc,
                                                         const Repr &callee,
                                                         ArrayRef<Repr> args,
                                                         Operation *at) {
  if (callee.shape->kind == Shape::Kind::Union) {
    // Reynolds' `apply`: dispatch on the tag of the closure.
    SmallVector<Repr> alternatives = childReprs(callee);
    return emitSwitch(
        builder, loc, callee.env.front(), 0, alternatives.size(),
        [&](OpBuilder &caseBuilder, unsigned k) {
          return emitApply(caseBuilder, loc, alternatives[k], args, at);
        },
        at);
  }
  assert(callee.shape->kind == Shape::Kind::Closure && "not a function");
  auto source = symbols.lookup<func::FuncOp>(callee.shape->callee.getAttr());
  if (!source)
    return at->emitOpError("calls a function value of @")
           << callee.shape->callee.getValue()
           << ", which is not a func.func of the module";
  SmallVector<ShapeRef> params(callee.shape->children);
  SmallVector<Value> operands(callee.env);
  for (const Repr &arg : args) {
    params.push_back(arg.shape);
    llvm::append_range(operands, arg.env);
  }
  FailureOr<Specialization *> spec = specialize(source, params, at);
  if (failed(spec))
    return failure();
  auto call = func::CallOp::create(builder, loc, (*spec)->func.getSymName(),
                                   (*spec)->resultTypes, operands);
  return splitEnvironments(call.getResults(), (*spec)->resultShapes);
}

FailureOr<Specialization *>
Defunctionalizer::specialize(func::FuncOp source, ArrayRef<ShapeRef> params,
                             Operation *at) {
  std::string key = source.getSymName().str() + "(";
  for (const ShapeRef &param : params)
    key += param->key + ",";
  key += ")";
  auto found = specializations.find(key);
  if (found != specializations.end()) {
    Specialization &spec = *found->second;
    if (!spec.resultsKnown)
      return at->emitOpError("calls @")
             << source.getSymName() << " recursively, and @"
             << source.getSymName()
             << " returns a function value: which closure the call returns "
                "is only known once @"
             << source.getSymName() << " is defunctionalised" << kInterpHint;
    return &spec;
  }

  FunctionType type = source.getFunctionType();
  if (params.size() != type.getNumInputs())
    return at->emitOpError("calls @")
           << source.getSymName() << " with " << params.size()
           << " values, but it takes " << type.getNumInputs();
  bool firstOrderResults = !llvm::any_of(type.getResults(), containsFunction);
  bool inPlace =
      firstOrderResults && llvm::all_of(params, [](const ShapeRef &p) {
        return p->kind == Shape::Kind::Leaf;
      });

  auto spec = std::make_unique<Specialization>();
  for (const ShapeRef &param : params)
    llvm::append_range(spec->inputTypes, param->envTypes);
  if (firstOrderResults) {
    spec->resultsKnown = true;
    for (Type result : type.getResults()) {
      spec->resultShapes.push_back(makeLeaf(result));
      spec->resultTypes.push_back(result);
    }
  }

  if (inPlace) {
    spec->func = source;
  } else {
    if (source.isExternal())
      return at->emitOpError("passes or expects function values of @")
             << source.getSymName()
             << ", which has no body to specialise for them";
    unsigned &count = cloneCounts[source];
    if (count == 0)
      sources.push_back(source);
    if (++count > kMaxSpecializations)
      return at->emitOpError("would need more than ")
             << kMaxSpecializations << " specialisations of @"
             << source.getSymName()
             << ": the closures passed to it change with every call (a "
                "recursion that wraps its function argument in a new "
                "closure)"
             << kInterpHint;
    func::FuncOp clone = source.clone();
    std::string name;
    for (unsigned k = 0;; ++k) {
      name = (source.getSymName() + "_defun_" + Twine(k)).str();
      if (!symbols.lookup(name))
        break;
    }
    clone.setSymName(name);
    clone.setPrivate();
    // Clones follow their source in the order they are made.
    Operation *&insertAfter = lastClone[source];
    if (!insertAfter)
      insertAfter = source;
    OpBuilder builder(source);
    builder.setInsertionPointAfter(insertAfter);
    builder.insert(clone);
    insertAfter = clone;
    symbols.insert(clone);
    spec->func = clone;
  }

  Specialization *result = spec.get();
  specializations.emplace(key, std::move(spec));
  if (inPlace && source.isExternal())
    return result;
  if (failed(rewriteFunction(result->func, params, *result)))
    return failure();
  result->resultsKnown = true;
  return result;
}

/// Whether the rewrite would change anything in `fn`.
bool mentionsFunctionValues(func::FuncOp fn) {
  if (llvm::any_of(fn.getArgumentTypes(), containsFunction) ||
      llvm::any_of(fn.getResultTypes(), containsFunction))
    return true;
  WalkResult walk = fn.walk([](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), containsFunction) ||
        llvm::any_of(op->getResultTypes(), containsFunction) ||
        isa<FnOp, GlobalRefOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

LogicalResult Defunctionalizer::rewriteFunction(func::FuncOp fn,
                                                ArrayRef<ShapeRef> params,
                                                Specialization &spec) {
  if (!mentionsFunctionValues(fn))
    return success();
  if (!llvm::hasSingleElement(fn.getBody()))
    return fn.emitOpError("has ")
           << fn.getBody().getBlocks().size()
           << " blocks; --relay-defunctionalize follows function values "
              "through single-block functions (relay programs) only";

  FunctionState state;
  Block &entry = fn.getBody().front();
  SmallVector<BlockArgument> replacedArgs;
  for (auto [arg, param] : llvm::zip_equal(
           SmallVector<BlockArgument>(entry.getArguments()), params)) {
    if (param->kind == Shape::Kind::Leaf)
      continue;
    Repr repr{param, {}};
    unsigned position = arg.getArgNumber() + 1;
    for (Type type : param->envTypes)
      repr.env.push_back(entry.insertArgument(position++, type, arg.getLoc()));
    state.reprs[arg] = std::move(repr);
    replacedArgs.push_back(arg);
  }
  // Recursive calls made while the body is rewritten see the new inputs.
  if (spec.resultsKnown)
    fn.setFunctionType(
        FunctionType::get(fn.getContext(), spec.inputTypes, spec.resultTypes));

  if (failed(rewriteBlock(entry, state)))
    return failure();

  auto ret = cast<func::ReturnOp>(entry.getTerminator());
  SmallVector<Value> returned;
  SmallVector<ShapeRef> resultShapes;
  for (Value value : ret.getOperands()) {
    FailureOr<Repr> repr = getRepr(value, state, ret);
    if (failed(repr))
      return failure();
    resultShapes.push_back(repr->shape);
    llvm::append_range(returned, repr->env);
  }
  ret->setOperands(returned);
  if (!spec.resultsKnown) {
    spec.resultShapes = resultShapes;
    spec.resultTypes.clear();
    for (const ShapeRef &shape : resultShapes)
      llvm::append_range(spec.resultTypes, shape->envTypes);
  }

  for (Operation *op : llvm::reverse(state.dead)) {
    op->dropAllUses();
    op->erase();
  }
  for (BlockArgument arg : llvm::reverse(replacedArgs)) {
    arg.dropAllUses();
    entry.eraseArgument(arg.getArgNumber());
  }
  fn.setFunctionType(
      FunctionType::get(fn.getContext(), spec.inputTypes, spec.resultTypes));
  return success();
}

LogicalResult Defunctionalizer::rewriteBlock(Block &block,
                                             FunctionState &state) {
  for (Operation &op : llvm::make_early_inc_range(block))
    if (failed(rewriteOp(&op, state)))
      return failure();
  return success();
}

LogicalResult Defunctionalizer::rewriteCall(Operation *op, const Repr &callee,
                                            ValueRange args,
                                            FunctionState &state) {
  SmallVector<Repr> argReprs;
  for (Value arg : args) {
    FailureOr<Repr> repr = getRepr(arg, state, op);
    if (failed(repr))
      return failure();
    argReprs.push_back(std::move(*repr));
  }
  OpBuilder builder(op);
  FailureOr<SmallVector<Repr>> results =
      emitApply(builder, op->getLoc(), callee, argReprs, op);
  if (failed(results))
    return failure();
  bindResults(op, *results, state);
  return success();
}

LogicalResult Defunctionalizer::rewriteIf(IfOp op, FunctionState &state) {
  for (Region *region : {&op.getThenRegion(), &op.getElseRegion()})
    if (failed(rewriteBlock(region->front(), state)))
      return failure();
  if (!llvm::any_of(op.getResultTypes(), containsFunction))
    return success();

  SmallVector<Repr> branchValues[2];
  std::unique_ptr<Block> blocks[2];
  Region *regions[] = {&op.getThenRegion(), &op.getElseRegion()};
  for (auto [index, region] : llvm::enumerate(regions)) {
    auto yield = cast<YieldOp>(region->front().getTerminator());
    for (Value value : yield.getValues()) {
      FailureOr<Repr> repr = getRepr(value, state, yield);
      if (failed(repr))
        return failure();
      branchValues[index].push_back(std::move(*repr));
    }
    yield.erase();
    Block *block = &region->front();
    region->getBlocks().remove(block);
    blocks[index].reset(block);
  }
  OpBuilder builder(op);
  FailureOr<SmallVector<Repr>> results =
      finishIf(builder, op.getLoc(), op.getCondition(), std::move(blocks[0]),
               branchValues[0], std::move(blocks[1]), branchValues[1], op);
  if (failed(results))
    return failure();
  bindResults(op, *results, state);
  return success();
}

LogicalResult Defunctionalizer::rewriteOp(Operation *op, FunctionState &state) {
  if (auto ref = dyn_cast<GlobalRefOp>(op)) {
    state.reprs[ref.getResult()] =
        Repr{makeComposite(Shape::Kind::Closure, ref.getResult().getType(),
                           ref.getCalleeAttr(), {}),
             {}};
    state.dead.push_back(op);
    return success();
  }
  if (auto fn = dyn_cast<FnOp>(op)) {
    std::optional<PartialApplication> partial =
        matchPartialApplication(fn, symbols);
    if (!partial)
      return fn.emitOpError(
          "is not a lambda-lifted closure (a relay.fn whose body only calls "
          "a module function with the captured values and its arguments); "
          "run --relay-lambda-lift first");
    Repr repr;
    SmallVector<ShapeRef> captured;
    for (Value value : partial->captured) {
      FailureOr<Repr> capturedRepr = getRepr(value, state, op);
      if (failed(capturedRepr))
        return failure();
      captured.push_back(capturedRepr->shape);
      llvm::append_range(repr.env, capturedRepr->env);
    }
    repr.shape =
        makeComposite(Shape::Kind::Closure, fn.getFunctionType(),
                      FlatSymbolRefAttr::get(partial->callee), captured);
    state.reprs[fn.getResult()] = std::move(repr);
    state.dead.push_back(op);
    return success();
  }
  if (auto call = dyn_cast<CallOp>(op)) {
    FailureOr<Repr> callee = getRepr(call.getCallee(), state, op);
    if (failed(callee))
      return failure();
    return rewriteCall(op, *callee, call.getArgs(), state);
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCalleeAttr().getAttr());
    if (!callee)
      return call.emitOpError("calls @")
             << call.getCallee() << ", which is not a func.func of the module";
    if (llvm::any_of(op->getOperandTypes(), containsFunction) ||
        llvm::any_of(op->getResultTypes(), containsFunction)) {
      Repr closure{makeComposite(Shape::Kind::Closure, callee.getFunctionType(),
                                 call.getCalleeAttr(), {}),
                   {}};
      return rewriteCall(op, closure, call.getOperands(), state);
    }
    // A first-order call stays; its callee is rewritten in place.
    SmallVector<ShapeRef> params;
    for (Type type : call.getOperandTypes())
      params.push_back(makeLeaf(type));
    return success(succeeded(specialize(callee, params, op)));
  }
  if (auto conditional = dyn_cast<IfOp>(op))
    return rewriteIf(conditional, state);
  if (auto tuple = dyn_cast<TupleOp>(op)) {
    if (!containsFunction(tuple.getResult().getType()))
      return success();
    Repr repr;
    SmallVector<ShapeRef> fields;
    for (Value field : tuple.getFields()) {
      FailureOr<Repr> fieldRepr = getRepr(field, state, op);
      if (failed(fieldRepr))
        return failure();
      fields.push_back(fieldRepr->shape);
      llvm::append_range(repr.env, fieldRepr->env);
    }
    repr.shape = makeComposite(Shape::Kind::Tuple, tuple.getResult().getType(),
                               {}, fields);
    state.reprs[tuple.getResult()] = std::move(repr);
    state.dead.push_back(op);
    return success();
  }
  if (auto get = dyn_cast<TupleGetOp>(op)) {
    if (!containsFunction(get.getTuple().getType()))
      return success();
    FailureOr<Repr> tuple = getRepr(get.getTuple(), state, op);
    if (failed(tuple))
      return failure();
    bindResults(op, childReprs(*tuple)[get.getIndex()], state);
    return success();
  }
  if (isa<func::ReturnOp, YieldOp>(op))
    return success();

  if (isa<GradOp>(op))
    return op->emitOpError(
        "differentiates a function value, which compiled code cannot do; "
        "lower relay.grad with --relay-grad-pipeline and run the result on "
        "--target=interp");
  for (auto [index, operand] : llvm::enumerate(op->getOperands()))
    if (containsFunction(operand.getType()))
      return op->emitOpError("takes a function value (operand #")
             << index << " of type " << operand.getType()
             << "); --relay-defunctionalize follows function values through "
                "calls, relay.if and tuples only"
             << kInterpHint;
  for (auto [index, result] : llvm::enumerate(op->getResults()))
    if (containsFunction(result.getType()))
      return op->emitOpError("produces a function value (result #")
             << index << " of type " << result.getType()
             << ") whose closure is only known at run time" << kInterpHint;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (failed(rewriteBlock(block, state)))
        return failure();
  return success();
}

LogicalResult Defunctionalizer::run() {
  // Functions without function values in their signature are the roots,
  // rewritten in place; the others are only reached through calls.
  SmallVector<func::FuncOp> roots;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal() &&
        !llvm::any_of(fn.getArgumentTypes(), containsFunction) &&
        !llvm::any_of(fn.getResultTypes(), containsFunction))
      roots.push_back(fn);
  for (func::FuncOp fn : roots) {
    SmallVector<ShapeRef> params;
    for (Type type : fn.getArgumentTypes())
      params.push_back(makeLeaf(type));
    if (failed(specialize(fn, params, fn)))
      return failure();
  }
  // A function that takes or returns function values has no first-order
  // form: once its specialisations replace every use, it goes. Live are the
  // functions the others (those not specialised) refer to, transitively, so
  // that recursive ones go too.
  llvm::SmallPtrSet<Operation *, 8> live;
  SmallVector<Operation *> worklist;
  for (Operation &op : module.getBody()->getOperations())
    if (!cloneCounts.contains(&op))
      worklist.push_back(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *target =
          symbols.lookup(use.getSymbolRef().getRootReference().getValue());
      if (target && cloneCounts.contains(target) && live.insert(target).second)
        worklist.push_back(target);
    }
  }
  for (func::FuncOp source : sources)
    if (!live.contains(source))
      symbols.erase(source);
  return success();
}

struct RelayDefunctionalize
    : public raf::relay::impl::RelayDefunctionalizeBase<RelayDefunctionalize> {
  void runOnOperation() override {
    Defunctionalizer defunctionalizer(getOperation());
    if (failed(defunctionalizer.run()))
      signalPassFailure();
  }
};

} // namespace
