//===- Interpreter.cpp - the reference evaluator of relay programs --------===//
//
// Blocks are in A-normal form, so evaluation walks each block's ops in order,
// binding every result in an environment (one per function or closure
// invocation). Nested regions of relay.if see the enclosing environment; a
// relay.fn body sees only its captured free variables and its arguments.
//
// Memory tracking measures buffers rather than recomputing a formula: the
// environments are the only long-lived holders of runtime values, so after
// dropping each value past its last use, what they reach is what a program
// with eager deallocation would hold. Operator kernels return their results
// as new HostTensors (the Kernel signature gives them no way to return an
// operand), so every operator and constant result is a fresh buffer, while
// tuples, tuple_get, closures and returns share their operands' payloads.
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/Interpreter.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Runtime/OperatorKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace raf::runtime;
namespace relay = raf::relay;

namespace {

using Environment = llvm::DenseMap<Value, RuntimeValue>;
using Values = SmallVector<RuntimeValue>;

/// The tensor an ElementsAttr denotes (relay.constant, arith.constant).
FailureOr<HostTensor> tensorFromAttribute(Operation *op, ElementsAttr attr) {
  auto type = llvm::cast<ShapedType>(attr.getShapedType());
  std::optional<DType> dtype = dtypeFromMLIR(type.getElementType());
  if (!dtype)
    return op->emitError("constants of element type ")
           << type.getElementType()
           << " are not supported by the reference evaluator";
  HostTensor tensor(*dtype, type.getShape());
  int64_t index = 0;
  if (isFloat(*dtype)) {
    auto values = attr.tryGetValues<llvm::APFloat>();
    if (!values)
      return op->emitError("cannot read the elements of this constant "
                           "attribute kind");
    for (llvm::APFloat value : *values) {
      bool losesInfo;
      value.convert(llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      tensor.setDouble(index++, value.convertToDouble());
    }
  } else {
    auto values = attr.tryGetValues<llvm::APInt>();
    if (!values)
      return op->emitError("cannot read the elements of this constant "
                           "attribute kind");
    // Sign extension then a wrapping store gives the right bits for signed,
    // unsigned and boolean element types alike.
    for (const llvm::APInt &value : *values)
      tensor.setInt(index++, value.getSExtValue());
  }
  return tensor;
}

/// `relay.zero : T`: zeros of a tensor type, tuples of zeros for tuples.
FailureOr<RuntimeValue> zeroOf(Operation *op, Type type) {
  if (auto tensorType = llvm::dyn_cast<RankedTensorType>(type)) {
    std::optional<DType> dtype = dtypeFromMLIR(tensorType.getElementType());
    if (!dtype || !tensorType.hasStaticShape())
      return op->emitError("cannot build the zero of ")
             << type << " (needs a static shape and a supported element type)";
    return RuntimeValue::tensor(HostTensor(*dtype, tensorType.getShape()));
  }
  if (auto tupleType = llvm::dyn_cast<TupleType>(type)) {
    Values fields;
    for (Type field : tupleType.getTypes()) {
      FailureOr<RuntimeValue> zero = zeroOf(op, field);
      if (failed(zero))
        return failure();
      fields.push_back(*zero);
    }
    return RuntimeValue::tuple(fields);
  }
  return op->emitError("cannot build the zero of ") << type;
}

/// Sums the bytes of the distinct tensor buffers reachable from values.
class LiveBufferCounter {
public:
  void add(const RuntimeValue &value) {
    switch (value.getKind()) {
    case RuntimeValue::Kind::Tensor:
      if (seen.insert(value.getTensor()).second)
        total += value.getTensor()->getNumBytes();
      return;
    case RuntimeValue::Kind::Tuple: {
      const std::vector<RuntimeValue> *elements = value.getTupleElements();
      if (!seen.insert(elements).second)
        return;
      for (const RuntimeValue &element : *elements)
        add(element);
      return;
    }
    case RuntimeValue::Kind::Closure: {
      auto captures = value.getClosureCaptures();
      if (captures.empty() || !seen.insert(captures.data()).second)
        return;
      for (const auto &capture : captures)
        add(capture.second);
      return;
    }
    case RuntimeValue::Kind::Reference:
      // A cell may hold a closure that captures the cell itself; visiting
      // each cell once keeps the walk finite. Cells are rare, so a linear
      // scan is enough.
      for (const RuntimeValue &cell : cells)
        if (cell.isSameReference(value))
          return;
      cells.push_back(value);
      add(value.readReference());
      return;
    case RuntimeValue::Kind::Function:
      return;
    }
  }

  int64_t getTotal() const { return total; }

private:
  llvm::SmallPtrSet<const void *, 32> seen;
  SmallVector<RuntimeValue> cells;
  int64_t total = 0;
};

/// The values defined in a block that leave the environment after each of
/// its ops (terminator included) when memory is tracked.
struct BlockLiveness {
  llvm::DenseMap<Operation *, SmallVector<Value, 2>> dropAfter;

  explicit BlockLiveness(Block &block) {
    // The op of this block that holds each use, so that a use inside a
    // nested region (a relay.if branch, a relay.fn body) keeps the value
    // until the op holding the region has run.
    llvm::DenseMap<Value, Operation *> lastUser;
    for (Operation &op : block)
      op.walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (isa<OpResult>(operand) && operand.getParentBlock() == &block)
            lastUser[operand] = &op;
      });
    // Block arguments are never dropped: the caller holds them.
    for (Operation &op : block)
      for (Value result : op.getResults()) {
        Operation *user = lastUser.lookup(result);
        dropAfter[user ? user : &op].push_back(result);
      }
  }
};

/// The state of a run with memory tracking on.
struct MemoryTracker {
  MemoryTracker(MemoryStats &stats, bool recordTrace)
      : stats(stats), recordTrace(recordTrace) {}

  MemoryStats &stats;
  bool recordTrace;
  /// The body of the top-level function, whose samples form the trace.
  Block *topBlock = nullptr;
  /// Owned separately so that references stay valid while nested blocks
  /// are added during a block's evaluation.
  llvm::DenseMap<Block *, std::unique_ptr<BlockLiveness>> liveness;

  const BlockLiveness &getLiveness(Block &block) {
    std::unique_ptr<BlockLiveness> &entry = liveness[&block];
    if (!entry)
      entry = std::make_unique<BlockLiveness>(block);
    return *entry;
  }
};

class Evaluator {
public:
  Evaluator(ModuleOp module, unsigned maxCallDepth, MemoryTracker *memory,
            const std::function<bool(Operation *)> &overrideMatches,
            const Kernel &overrideKernel)
      : symbols(module), maxCallDepth(maxCallDepth), memory(memory),
        overrideMatches(overrideMatches), overrideKernel(overrideKernel) {}

  /// Calls `function` with `arguments`, checking them against its
  /// signature; errors are located at `caller` when there is one.
  FailureOr<Values> callFunction(func::FuncOp function,
                                 ArrayRef<RuntimeValue> arguments,
                                 Operation *caller);

private:
  FailureOr<Values> callValue(const RuntimeValue &callee,
                              ArrayRef<RuntimeValue> arguments,
                              Operation *caller);
  FailureOr<Values> callClosure(const RuntimeValue &closure,
                                ArrayRef<RuntimeValue> arguments,
                                Operation *caller);
  /// Binds `arguments` to the entry block's arguments and runs the block.
  FailureOr<Values> enter(Block &body, Environment &env,
                          ArrayRef<RuntimeValue> arguments, Operation *where);
  /// Runs the ops of `block` and returns the operands of its terminator.
  FailureOr<Values> runBlock(Block &block, Environment &env);
  LogicalResult execute(Operation &op, Environment &env);
  LogicalResult executeOperator(Operation &op, Environment &env);
  LogicalResult createClosure(relay::FnOp fn, Environment &env);
  /// The bytes of the distinct buffers the active environments hold.
  int64_t sampleLiveBytes() const;
  /// Samples after `op` of `block` has run, then drops the values whose
  /// last use it was.
  void afterOp(Operation &op, Block &block, const BlockLiveness &liveness,
               Environment &env);

  SymbolTable symbols;
  unsigned maxCallDepth;
  unsigned depth = 0;
  /// Null unless memory is tracked.
  MemoryTracker *memory;
  const std::function<bool(Operation *)> &overrideMatches;
  const Kernel &overrideKernel;
  /// The environment of every active function or closure activation,
  /// outermost first (relay.if branches share their enclosing one).
  SmallVector<Environment *> frames;
  /// Free variables of every relay.fn seen so far.
  llvm::DenseMap<Operation *, SmallVector<Value>> freeVariables;

public:
  /// Every reference cell relay.ref_new made (those freed since are pruned
  /// as the list grows), for RuntimeValue::releaseUnreachable at the end of
  /// the run.
  std::vector<RuntimeValue::WeakReference> cells;
  size_t cellsPruneAt = 1024;
};

FailureOr<Values> Evaluator::callFunction(func::FuncOp function,
                                          ArrayRef<RuntimeValue> arguments,
                                          Operation *caller) {
  Operation *where = caller ? caller : function.getOperation();
  if (function.isExternal())
    return where->emitError("function '")
           << function.getSymName() << "' has no body and cannot be evaluated";
  Environment env;
  return enter(function.getBody().front(), env, arguments, where);
}

FailureOr<Values> Evaluator::callClosure(const RuntimeValue &closure,
                                         ArrayRef<RuntimeValue> arguments,
                                         Operation *caller) {
  auto fn = llvm::cast<relay::FnOp>(closure.getClosureFn());
  Environment env;
  for (const auto &[variable, value] : closure.getClosureCaptures())
    env[variable] = value;
  return enter(fn.getBody().front(), env, arguments, caller);
}

FailureOr<Values> Evaluator::callValue(const RuntimeValue &callee,
                                       ArrayRef<RuntimeValue> arguments,
                                       Operation *caller) {
  if (callee.isClosure())
    return callClosure(callee, arguments, caller);
  if (callee.isFunction())
    return callFunction(llvm::cast<func::FuncOp>(callee.getFunction()),
                        arguments, caller);
  return caller->emitError("cannot call a value of kind ") << callee.describe();
}

FailureOr<Values> Evaluator::enter(Block &body, Environment &env,
                                   ArrayRef<RuntimeValue> arguments,
                                   Operation *where) {
  if (arguments.size() != body.getNumArguments())
    return where->emitError("expected ")
           << body.getNumArguments() << " arguments, got " << arguments.size();
  for (auto [index, parameter, argument] :
       llvm::enumerate(body.getArguments(), arguments)) {
    std::string reason;
    if (!conformsTo(argument, parameter.getType(), reason))
      return where->emitError("argument #") << index << ": " << reason;
    env[parameter] = argument;
  }
  if (depth >= maxCallDepth)
    return where->emitError("calls nested deeper than ")
           << maxCallDepth << " levels (unbounded recursion?)";
  frames.push_back(&env);
  if (memory && frames.size() == 1) {
    // The top-level activation: the arguments alone are the first sample.
    MemoryStats &stats = memory->stats;
    memory->topBlock = &body;
    stats.argumentBytes = stats.peakBytes = sampleLiveBytes();
    stats.peakOp = nullptr;
    stats.peakLocation = where->getLoc();
    stats.numSamples = 1;
  }
  ++depth;
  FailureOr<Values> results = runBlock(body, env);
  --depth;
  frames.pop_back();
  return results;
}

int64_t Evaluator::sampleLiveBytes() const {
  LiveBufferCounter counter;
  for (const Environment *frame : frames)
    for (const auto &entry : *frame)
      counter.add(entry.second);
  return counter.getTotal();
}

void Evaluator::afterOp(Operation &op, Block &block,
                        const BlockLiveness &liveness, Environment &env) {
  MemoryStats &stats = memory->stats;
  int64_t bytes = sampleLiveBytes();
  ++stats.numSamples;
  if (bytes > stats.peakBytes) {
    stats.peakBytes = bytes;
    stats.peakOp = &op;
    stats.peakLocation = op.getLoc();
  }
  // depth 1 is the top-level activation; a recursive call of the same
  // function runs the same block deeper.
  if (memory->recordTrace && depth == 1 && &block == memory->topBlock)
    stats.trace.push_back({&op, bytes});
  auto it = liveness.dropAfter.find(&op);
  if (it != liveness.dropAfter.end())
    for (Value value : it->second)
      env.erase(value);
}

FailureOr<Values> Evaluator::runBlock(Block &block, Environment &env) {
  const BlockLiveness *liveness =
      memory ? &memory->getLiveness(block) : nullptr;
  for (Operation &op : block.without_terminator()) {
    if (failed(execute(op, env)))
      return failure();
    if (liveness)
      afterOp(op, block, *liveness, env);
  }
  Operation *terminator = block.getTerminator();
  if (!isa<func::ReturnOp, relay::ReturnOp, relay::YieldOp>(terminator))
    return terminator->emitError("terminator '")
           << terminator->getName()
           << "' is not supported by the reference evaluator";
  Values results;
  for (Value operand : terminator->getOperands())
    results.push_back(env.lookup(operand));
  // A relay.if branch shares its enclosing environment: the values it
  // defined must not outlive it there (the if's results alias them).
  if (liveness) {
    auto it = liveness->dropAfter.find(terminator);
    if (it != liveness->dropAfter.end())
      for (Value value : it->second)
        env.erase(value);
  }
  return results;
}

LogicalResult Evaluator::createClosure(relay::FnOp fn, Environment &env) {
  auto [it, inserted] = freeVariables.try_emplace(fn.getOperation());
  if (inserted) {
    // Values used in the body (at any depth) but defined outside it.
    llvm::SetVector<Value> captured;
    Region &body = fn.getBody();
    fn.getBody().walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (!body.isAncestor(operand.getParentRegion()))
          captured.insert(operand);
    });
    it->second.assign(captured.begin(), captured.end());
  }
  CapturedValues captures;
  for (Value variable : it->second)
    captures.emplace_back(variable, env.lookup(variable));
  env[fn.getResult()] = RuntimeValue::closure(fn, std::move(captures));
  return success();
}

LogicalResult Evaluator::execute(Operation &op, Environment &env) {
  auto bind = [&](Value result, RuntimeValue value) {
    env[result] = std::move(value);
    return success();
  };
  auto bindAll = [&](ResultRange results, ArrayRef<RuntimeValue> values) {
    for (auto [result, value] : llvm::zip_equal(results, values))
      env[result] = value;
    return success();
  };
  auto operandValues = [&](ValueRange operands) {
    Values values;
    for (Value operand : operands)
      values.push_back(env.lookup(operand));
    return values;
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](relay::ConstantOp constant) -> LogicalResult {
        FailureOr<HostTensor> tensor =
            tensorFromAttribute(constant, constant.getValue());
        if (failed(tensor))
          return failure();
        return bind(constant.getResult(), RuntimeValue::tensor(*tensor));
      })
      .Case([&](arith::ConstantOp constant) -> LogicalResult {
        auto elements = llvm::dyn_cast<ElementsAttr>(constant.getValue());
        if (!elements)
          return constant.emitError(
                     "only tensor constants can be evaluated (relay values "
                     "are tensors), got ")
                 << constant.getType();
        FailureOr<HostTensor> tensor = tensorFromAttribute(constant, elements);
        if (failed(tensor))
          return failure();
        return bind(constant.getResult(), RuntimeValue::tensor(*tensor));
      })
      .Case([&](relay::TupleOp tuple) {
        return bind(tuple.getResult(),
                    RuntimeValue::tuple(operandValues(tuple.getFields())));
      })
      .Case([&](relay::TupleGetOp get) -> LogicalResult {
        RuntimeValue tuple = env.lookup(get.getTuple());
        ArrayRef<RuntimeValue> fields = *tuple.getTupleElements();
        if (get.getIndex() >= fields.size())
          return get.emitError("index ")
                 << get.getIndex() << " is out of range for a tuple of "
                 << fields.size() << " fields";
        return bind(get.getResult(), fields[get.getIndex()]);
      })
      .Case([&](relay::IfOp ifOp) -> LogicalResult {
        RuntimeValue condition = env.lookup(ifOp.getCondition());
        Region &branch = condition.getTensor()->getInt(0) != 0
                             ? ifOp.getThenRegion()
                             : ifOp.getElseRegion();
        FailureOr<Values> results = runBlock(branch.front(), env);
        if (failed(results))
          return failure();
        return bindAll(ifOp.getResults(), *results);
      })
      .Case([&](relay::FnOp fn) { return createClosure(fn, env); })
      .Case([&](relay::CallOp call) -> LogicalResult {
        FailureOr<Values> results = callValue(
            env.lookup(call.getCallee()), operandValues(call.getArgs()), call);
        if (failed(results))
          return failure();
        return bindAll(call.getResults(), *results);
      })
      .Case([&](func::CallOp call) -> LogicalResult {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee)
          return call.emitError("no func.func named '")
                 << call.getCallee() << "' in the module";
        FailureOr<Values> results =
            callFunction(callee, operandValues(call.getOperands()), call);
        if (failed(results))
          return failure();
        return bindAll(call.getResults(), *results);
      })
      .Case([&](relay::GlobalRefOp ref) -> LogicalResult {
        auto callee = symbols.lookup<func::FuncOp>(ref.getCallee());
        if (!callee)
          return ref.emitError("no func.func named '")
                 << ref.getCallee() << "' in the module";
        return bind(ref.getResult(), RuntimeValue::function(callee));
      })
      .Case([&](relay::RefNewOp refNew) {
        RuntimeValue cell =
            RuntimeValue::reference(env.lookup(refNew.getValue()));
        if (cells.size() >= cellsPruneAt) {
          llvm::erase_if(cells, [](const RuntimeValue::WeakReference &weak) {
            return weak.expired();
          });
          cellsPruneAt = std::max<size_t>(1024, 2 * cells.size());
        }
        cells.push_back(cell.getWeakReference());
        return bind(refNew.getRef(), cell);
      })
      .Case([&](relay::RefReadOp read) {
        return bind(read.getValue(), env.lookup(read.getRef()).readReference());
      })
      .Case([&](relay::RefWriteOp write) -> LogicalResult {
        RuntimeValue value = env.lookup(write.getValue());
        auto refType = llvm::cast<relay::RefType>(write.getRef().getType());
        std::string reason;
        if (!conformsTo(value, refType.getValueType(), reason))
          return write.emitError("cannot store this value in a ")
                 << refType << ": " << reason;
        env.lookup(write.getRef()).writeReference(value);
        return success();
      })
      .Case([&](relay::ZeroOp zero) -> LogicalResult {
        FailureOr<RuntimeValue> value = zeroOf(zero, zero.getType());
        if (failed(value))
          return failure();
        return bind(zero.getResult(), *value);
      })
      .Case([&](relay::GradOp grad) {
        return grad.emitError("relay.grad cannot be evaluated; lower it "
                              "first with --relay-grad-pipeline");
      })
      .Default([&](Operation *other) { return executeOperator(*other, env); });
}

LogicalResult Evaluator::executeOperator(Operation &op, Environment &env) {
  const Kernel *kernel = overrideMatches && overrideMatches(&op)
                             ? &overrideKernel
                             : KernelRegistry::get().lookup(&op);
  if (!kernel)
    return op.emitError("operation '")
           << op.getName() << "' is not supported by the reference evaluator";
  SmallVector<const HostTensor *> operands;
  for (auto [index, operand] : llvm::enumerate(op.getOperands())) {
    const RuntimeValue &value = env[operand];
    if (!value.isTensor())
      return op.emitError("operand #")
             << index << " must be a tensor, got " << value.describe();
    operands.push_back(value.getTensor());
  }
  // Results are allocated by the kernel; one beyond the allocation limit is
  // an error here rather than an allocation failure (an abort) inside it.
  for (OpResult result : op.getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    std::optional<DType> dtype =
        type ? dtypeFromMLIR(type.getElementType()) : std::nullopt;
    if (!dtype || !type.hasStaticShape())
      continue;
    if (std::optional<std::string> problem =
            HostTensor::checkAllocatable(*dtype, type.getShape()))
      return op.emitError("cannot allocate result #")
             << result.getResultNumber() << ": " << *problem;
  }
  SmallVector<HostTensor> results;
  if (failed((*kernel)(&op, operands, results)))
    return failure();
  // The kernels compute result shapes from run-time operands; a value that
  // does not fit the IR's result type would be silently wrong downstream.
  if (results.size() != op.getNumResults())
    return op.emitError("reference evaluator error: the kernel produced ")
           << results.size() << " results for " << op.getNumResults()
           << " op results";
  for (auto [result, tensor] : llvm::zip_equal(op.getResults(), results)) {
    RuntimeValue value = RuntimeValue::tensor(std::move(tensor));
    std::string reason;
    if (!conformsTo(value, result.getType(), reason))
      return op.emitError("result #")
             << result.getResultNumber()
             << " does not match its type at run time: " << reason;
    env[result] = std::move(value);
  }
  return success();
}

} // namespace

Interpreter::Interpreter(ModuleOp module) : module(module) {}

FailureOr<SmallVector<RuntimeValue>>
Interpreter::run(StringRef functionName, ArrayRef<RuntimeValue> arguments) {
  auto function = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      module, StringAttr::get(module.getContext(), functionName));
  if (!function)
    return module.emitError("no func.func named '")
           << functionName << "' in the module";
  FunctionType type = function.getFunctionType();
  if (arguments.size() != type.getNumInputs())
    return function.emitError("function '")
           << functionName << "' takes " << type.getNumInputs()
           << " arguments, got " << arguments.size();
  for (auto [index, argument, expected] :
       llvm::enumerate(arguments, type.getInputs())) {
    std::string reason;
    if (!conformsTo(argument, expected, reason))
      return function.emitError("argument #")
             << index << " of '" << functionName << "': " << reason;
  }
  memoryStats = MemoryStats();
  std::optional<MemoryTracker> tracker;
  if (trackMemory)
    tracker.emplace(memoryStats, recordMemoryTrace);
  Evaluator evaluator(module, maxCallDepth, tracker ? &*tracker : nullptr,
                      overrideMatches, overrideKernel);
  FailureOr<SmallVector<RuntimeValue>> results =
      evaluator.callFunction(function, arguments, /*caller=*/nullptr);
  // Cells of this run that neither the results nor the caller's arguments
  // reach are garbage; emptying them frees the cycles among them.
  SmallVector<RuntimeValue> roots(arguments.begin(), arguments.end());
  if (succeeded(results))
    llvm::append_range(roots, *results);
  RuntimeValue::releaseUnreachable(evaluator.cells, roots);
  return results;
}
