//===- FusionGroup.cpp - checking and outlining fused groups --------------===//

#include "FusionGroup.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace raf::relay;

void raf::relay::sortInBlockOrder(SmallVectorImpl<Operation *> &ops) {
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

bool raf::relay::isInsideFusedFunction(Operation *op) {
  auto fn = op->getParentOfType<func::FuncOp>();
  return fn && fn->hasAttr(kPrimitiveAttr);
}

/// Operations that may move behind a fused call: no memory effects, or a
/// call of a fused function (whose body is pure relay operators).
static bool isMovable(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  return callee && callee->hasAttr(kPrimitiveAttr);
}

/// Collects, in block order, the operations strictly between the group's
/// first and last member that depend on a member. Returns false if a member
/// depends on one of them (the group is not convex) or one of them is not
/// movable.
static bool collectDependents(ArrayRef<Operation *> ops,
                              SmallVectorImpl<Operation *> &dependents) {
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
  llvm::SmallPtrSet<Operation *, 16> dependentSet;
  auto isDependent = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && dependentSet.contains(def);
  };
  auto isMemberOrDependent = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && (members.contains(def) || dependentSet.contains(def));
  };

  auto range = llvm::make_range(std::next(ops.front()->getIterator()),
                                std::next(ops.back()->getIterator()));
  for (Operation &op : range) {
    if (members.contains(&op)) {
      // A path left the group and comes back here.
      if (llvm::any_of(op.getOperands(), isDependent))
        return false;
      continue;
    }
    // Uses inside nested regions (a relay.if branch, a relay.fn body) count.
    bool depends = false;
    op.walk([&](Operation *nested) {
      if (llvm::any_of(nested->getOperands(), isMemberOrDependent))
        depends = true;
    });
    if (!depends)
      continue;
    if (!isMovable(&op))
      return false;
    dependentSet.insert(&op);
    dependents.push_back(&op);
  }
  return true;
}

bool raf::relay::canOutlineGroup(ArrayRef<Operation *> ops) {
  if (ops.empty())
    return false;
  SmallVector<Operation *> dependents;
  return collectDependents(ops, dependents);
}

func::CallOp FusedFunctionOutliner::outline(ArrayRef<Operation *> ops,
                                            StringRef backend,
                                            StringRef patternName) {
  SmallVector<Operation *> dependents;
  if (ops.empty() || !collectDependents(ops, dependents))
    return nullptr;
  MLIRContext *context = module.getContext();
  Block *block = ops.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
  auto isMember = [&](Operation *op) { return op && members.contains(op); };

  // Arguments: values from outside, in first-use order. Results: values
  // used outside (by an operation of the block that is not a member, or
  // from another block).
  llvm::SetVector<Value> inputs;
  SmallVector<Value> results;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!isMember(operand.getDefiningOp()))
        inputs.insert(operand);
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !isMember(block->findAncestorOpInBlock(*user));
          }))
        results.push_back(result);
  }
  // A group nobody uses keeps computing its last operator's results.
  if (results.empty())
    llvm::append_range(results, ops.back()->getResults());

  SmallVector<Location> locations;
  for (Operation *op : ops)
    locations.push_back(op->getLoc());
  Location loc = FusedLoc::get(context, locations);

  // The function, named and placed after its parent function.
  auto parent = ops.front()->getParentOfType<func::FuncOp>();
  auto &[nextIndex, lastCreated] = perParent[parent];
  if (!lastCreated)
    lastCreated = parent;
  std::string name;
  do {
    name = (parent.getSymName() + "_fused_" + Twine(nextIndex++)).str();
  } while (symbolTable.lookup(name));

  SmallVector<Type> inputTypes, resultTypes;
  for (Value input : inputs)
    inputTypes.push_back(input.getType());
  for (Value result : results)
    resultTypes.push_back(result.getType());
  OpBuilder detached(context);
  auto fn = func::FuncOp::create(
      detached, loc, name, FunctionType::get(context, inputTypes, resultTypes));
  symbolTable.insert(fn, std::next(Block::iterator(lastCreated)));
  lastCreated = fn;
  fn.setPrivate();
  auto backendAttr = StringAttr::get(context, backend);
  fn->setAttr(kPrimitiveAttr, UnitAttr::get(context));
  fn->setAttr(kBackendAttr, backendAttr);
  if (!patternName.empty())
    fn->setAttr(kFusionPatternAttr, StringAttr::get(context, patternName));

  Block *entry = fn.addEntryBlock();
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), entry->getArguments());
  OpBuilder bodyBuilder = OpBuilder::atBlockEnd(entry);
  for (Operation *op : ops) {
    Operation *clone = bodyBuilder.clone(*op, mapping);
    clone->setAttr(kBackendAttr, backendAttr);
  }
  SmallVector<Value> returned;
  for (Value result : results)
    returned.push_back(mapping.lookup(result));
  func::ReturnOp::create(bodyBuilder, loc, returned);

  // The call replaces the last member; what depended on earlier members
  // moves behind it (pure operations only, checked by canOutlineGroup).
  OpBuilder callBuilder(block, std::next(ops.back()->getIterator()));
  auto call = func::CallOp::create(callBuilder, loc, fn, inputs.getArrayRef());
  Operation *previous = call;
  for (Operation *dependent : dependents) {
    dependent->moveAfter(previous);
    previous = dependent;
  }
  for (auto [result, replacement] : llvm::zip(results, call.getResults()))
    result.replaceAllUsesWith(replacement);
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return call;
}
