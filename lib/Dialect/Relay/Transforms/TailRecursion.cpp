//===- TailRecursion.cpp - self tail calls to scf.while loops -------------===//
//
// --relay-tail-recursion-to-loops: Relay writes loops as recursive functions
// (Relay paper §3.1, "Loops are expressed through recursion"), which compiled
// code would run as real calls, one stack frame per iteration. A function
// whose only recursive calls are tail calls - their results are the
// function's results, possibly through relay.if branches - becomes an
// scf.while loop (Steele 1977, "Debunking the 'expensive procedure call'
// myth": a tail call is a jump with arguments):
//
//   scf.while (%a = args) : (A) -> (A, R) {
//     <body; every exit yields (continue?, next args, results)>
//     scf.condition(%continue) %next..., %results...
//   } do {
//     scf.yield %next...
//   }
//
// A tail call continues with its operands as the next arguments (the results
// are placeholder zeros); any other exit stops with its results.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

namespace raf::relay {
#define GEN_PASS_DEF_RELAYTAILRECURSIONTOLOOPS
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

/// Whether `call` calls `fn` itself.
bool isSelfCall(Operation *op, func::FuncOp fn) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && call.getCallee() == fn.getSymName();
}

/// The op whose results are exactly `values` (all of them, in order), if any.
Operation *producerOfAll(ValueRange values) {
  if (values.empty())
    return nullptr;
  Operation *op = values.front().getDefiningOp();
  if (!op || op->getNumResults() != values.size() ||
      !llvm::equal(op->getResults(), values))
    return nullptr;
  return op;
}

/// Whether only the terminator uses the results of `op`, and every op after
/// `op` in its block is free of effects, so that running them before the
/// next iteration instead of after the recursive call returns changes
/// nothing.
bool onlyPureOpsFollow(Operation *op) {
  Operation *terminator = op->getBlock()->getTerminator();
  for (Operation *user : op->getUsers())
    if (user != terminator)
      return false;
  for (Operation *next = op->getNextNode();
       next && !next->hasTrait<OpTrait::IsTerminator>();
       next = next->getNextNode())
    if (!isMemoryEffectFree(next))
      return false;
  return true;
}

/// Collects the self calls in tail position of the exit whose values are
/// the operands of `terminator`.
void countTailCalls(func::FuncOp fn, Operation *terminator,
                    DenseSet<Operation *> &tailCalls) {
  Operation *producer = producerOfAll(terminator->getOperands());
  if (!producer || producer->getBlock() != terminator->getBlock())
    return;
  if (isSelfCall(producer, fn)) {
    if (onlyPureOpsFollow(producer))
      tailCalls.insert(producer);
    return;
  }
  if (auto conditional = dyn_cast<IfOp>(producer)) {
    if (!onlyPureOpsFollow(producer))
      return;
    for (Region *region :
         {&conditional.getThenRegion(), &conditional.getElseRegion()})
      countTailCalls(fn, region->front().getTerminator(), tailCalls);
  }
}

class TailRecursionToLoop {
public:
  TailRecursionToLoop(func::FuncOp fn, const DenseSet<Operation *> &tailCalls)
      : fn(fn), tailCalls(tailCalls) {}

  LogicalResult run();

private:
  /// Rewrites the exit ending in `terminator` (in the loop body) to yield
  /// (continue, next arguments, results); returns those values.
  FailureOr<SmallVector<Value>> rewriteExit(Operation *terminator);
  FailureOr<SmallVector<Value>> zeros(OpBuilder &builder, Location loc);

  func::FuncOp fn;
  const DenseSet<Operation *> &tailCalls;
  /// The loop's current arguments (the before region's block arguments).
  SmallVector<Value> current;
};

FailureOr<SmallVector<Value>> TailRecursionToLoop::zeros(OpBuilder &builder,
                                                         Location loc) {
  SmallVector<Value> values;
  for (Type type : fn.getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() ||
        !tensor.getElementType().isIntOrFloat())
      return failure();
    values.push_back(ConstantOp::create(
        builder, loc, tensor,
        DenseElementsAttr::get(tensor,
                               builder.getZeroAttr(tensor.getElementType()))));
  }
  return values;
}

FailureOr<SmallVector<Value>>
TailRecursionToLoop::rewriteExit(Operation *terminator) {
  Location loc = terminator->getLoc();
  OpBuilder builder(terminator);
  auto flagType = RankedTensorType::get({}, builder.getI1Type());
  auto flag = [&](bool value) -> Value {
    return ConstantOp::create(builder, loc, flagType,
                              DenseElementsAttr::get(flagType, value));
  };
  Operation *producer = producerOfAll(terminator->getOperands());
  SmallVector<Value> values;
  if (producer && tailCalls.contains(producer)) {
    // Continue with the call's operands.
    FailureOr<SmallVector<Value>> results = zeros(builder, loc);
    if (failed(results))
      return failure();
    values.push_back(flag(true));
    llvm::append_range(values, producer->getOperands());
    llvm::append_range(values, *results);
    // The caller replaces the terminator that still names its results.
    producer->dropAllUses();
    producer->erase();
    return values;
  }
  auto conditional = dyn_cast_or_null<IfOp>(producer);
  if (conditional && conditional->getBlock() == terminator->getBlock()) {
    bool containsTailCall = false;
    conditional.walk([&](func::CallOp call) {
      containsTailCall |= tailCalls.contains(call);
    });
    if (containsTailCall) {
      SmallVector<Type> types;
      SmallVector<SmallVector<Value>> branchValues;
      for (Region *region :
           {&conditional.getThenRegion(), &conditional.getElseRegion()}) {
        Operation *yield = region->front().getTerminator();
        FailureOr<SmallVector<Value>> exit = rewriteExit(yield);
        if (failed(exit))
          return failure();
        OpBuilder branch(yield);
        YieldOp::create(branch, yield->getLoc(), *exit);
        yield->erase();
        types = llvm::to_vector(
            llvm::map_range(*exit, [](Value v) { return v.getType(); }));
      }
      auto merged = IfOp::create(builder, conditional.getLoc(), types,
                                 conditional.getCondition());
      merged.getThenRegion().takeBody(conditional.getThenRegion());
      merged.getElseRegion().takeBody(conditional.getElseRegion());
      conditional->dropAllUses();
      conditional->erase();
      llvm::append_range(values, merged.getResults());
      return values;
    }
  }
  // Stop with the exit's values.
  values.push_back(flag(false));
  llvm::append_range(values, current);
  llvm::append_range(values, terminator->getOperands());
  return values;
}

LogicalResult TailRecursionToLoop::run() {
  MLIRContext *context = fn.getContext();
  Location loc = fn.getLoc();
  Block *body = &fn.getBody().front();
  TypeRange argTypes = fn.getArgumentTypes();
  TypeRange resultTypes = fn.getResultTypes();

  // Check that the results have placeholders before changing anything.
  {
    OpBuilder probe(context);
    Block scratch;
    probe.setInsertionPointToEnd(&scratch);
    if (failed(zeros(probe, loc)))
      return failure();
  }

  // The old body becomes the loop's before region.
  auto *entry = new Block();
  fn.getBody().push_front(entry);
  SmallVector<Value> initial;
  for (BlockArgument arg : body->getArguments())
    initial.push_back(entry->addArgument(arg.getType(), arg.getLoc()));
  SmallVector<Type> loopTypes(argTypes.begin(), argTypes.end());
  llvm::append_range(loopTypes, resultTypes);
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  auto loop = scf::WhileOp::create(builder, loc, loopTypes, initial);
  body->moveBefore(&loop.getBefore(), loop.getBefore().end());
  llvm::append_range(current, body->getArguments());

  Operation *ret = body->getTerminator();
  FailureOr<SmallVector<Value>> exit = rewriteExit(ret);
  if (failed(exit))
    return failure();
  builder.setInsertionPoint(ret);
  Value proceed =
      tensor::ExtractOp::create(builder, loc, exit->front(), ValueRange());
  scf::ConditionOp::create(builder, loc, proceed,
                           ArrayRef<Value>(*exit).drop_front());
  ret->erase();

  Block *after = builder.createBlock(&loop.getAfter());
  for (Type type : loopTypes)
    after->addArgument(type, loc);
  scf::YieldOp::create(builder, loc,
                       after->getArguments().take_front(argTypes.size()));

  builder.setInsertionPointToEnd(entry);
  func::ReturnOp::create(builder, loc,
                         loop.getResults().drop_front(argTypes.size()));
  return success();
}

struct RelayTailRecursionToLoops
    : public raf::relay::impl::RelayTailRecursionToLoopsBase<
          RelayTailRecursionToLoops> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || !llvm::hasSingleElement(fn.getBody()))
        continue;
      DenseSet<Operation *> tailCalls;
      countTailCalls(fn, fn.getBody().front().getTerminator(), tailCalls);
      if (tailCalls.empty())
        continue;
      // Other recursive calls stay calls (of the function, which loops
      // inside); functions whose results have no placeholder value stay
      // recursive.
      (void)TailRecursionToLoop(fn, tailCalls).run();
    }
  }
};

} // namespace
