//===- Fuse.cpp - pattern-based and rule-based operator fusion ------------===//
//
// RAF's FuseDialect and FuseTVM (RAF paper §3.2.2) over the registry's fusion
// list: entries apply one at a time in descending priority, patterns first
// in the default table, rule-based fusion of `linalg` last.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "FusionGroup.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/Transforms/BackendOptions.h"
#include "raf/Dialect/Relay/Transforms/BackendRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFFUSE
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

//===----------------------------------------------------------------------===//
// Pattern-based fusion
//===----------------------------------------------------------------------===//

/// Matches of one pattern in one block, found from the end of the block so
/// that the longest alternative rooted at a later operator wins (a
/// matmul+add+relu is not cut down to the matmul+add it contains).
void fuseByPattern(Block &block, const FusionEntry &pattern,
                   FusedFunctionOutliner &outliner) {
  llvm::SmallPtrSet<Operation *, 16> claimed;
  SmallVector<SmallVector<Operation *>> matches;
  for (Operation &root : llvm::reverse(block)) {
    if (!isa<FusionOpInterface>(root) || claimed.contains(&root))
      continue;
    SmallVector<Operation *> found;
    if (!pattern.matcher(&root, found))
      continue;
    llvm::SetVector<Operation *> match(found.begin(), found.end());
    match.insert(&root);
    // Only relay operators of this block that no other match took.
    if (llvm::any_of(match, [&](Operation *op) {
          return op->getBlock() != &block || !isa<FusionOpInterface>(op) ||
                 claimed.contains(op);
        }))
      continue;
    // Intermediate values are used only inside the match; the root's may
    // be used anywhere.
    if (llvm::any_of(match, [&](Operation *op) {
          return op != &root && llvm::any_of(op->getUsers(), [&](Operation *u) {
                   return !match.contains(u);
                 });
        }))
      continue;
    SmallVector<Operation *> ops(match.begin(), match.end());
    sortInBlockOrder(ops);
    if (!canOutlineGroup(ops))
      continue;
    claimed.insert(ops.begin(), ops.end());
    matches.push_back(std::move(ops));
  }
  // Outline in program order, so fused functions are numbered that way.
  for (SmallVector<Operation *> &ops : llvm::reverse(matches)) {
    sortInBlockOrder(ops);
    outliner.outline(ops, pattern.backend, pattern.name);
  }
}

//===----------------------------------------------------------------------===//
// Rule-based fusion
//===----------------------------------------------------------------------===//

FusionKind getKind(Operation *op) {
  return cast<FusionOpInterface>(op).getFusionKind();
}

bool isAnchor(FusionKind kind) {
  return kind == FusionKind::CommReduce || kind == FusionKind::OutEWiseFusable;
}

/// Rules 1-5: may a group whose strongest kind is `producer` fuse into an
/// operator of kind `consumer`? (Kinds are ordered ElemWise < Broadcast <
/// Injective < CommReduce < OutEWiseFusable.)
bool canFuseInto(FusionKind producer, FusionKind consumer) {
  switch (producer) {
  case FusionKind::ElemWise:
  case FusionKind::Broadcast:
    // Rule 1: into elementwise, broadcast, injective and reduce consumers.
    return consumer <= FusionKind::CommReduce;
  case FusionKind::Injective:
    // Rule 2: with elementwise, broadcast and injective operators.
    return consumer <= FusionKind::Injective;
  case FusionKind::OutEWiseFusable:
    // Rule 3: the anchor absorbs a following elementwise/broadcast chain.
    return consumer <= FusionKind::Broadcast;
  case FusionKind::CommReduce:
    // Rule 4: a reduction absorbs following elementwise operators.
    return consumer == FusionKind::ElemWise;
  case FusionKind::Tuple:
  case FusionKind::Opaque:
    // Rule 5.
    return false;
  }
  return false;
}

struct RuleGroup {
  SmallVector<Operation *> ops;
  FusionKind kind = FusionKind::ElemWise;
  unsigned anchors = 0;
  unsigned injective = 0;
  bool hasOutEWiseFusable = false;

  void add(Operation *op) {
    FusionKind opKind = getKind(op);
    ops.push_back(op);
    kind = std::max(kind, opKind);
    anchors += isAnchor(opKind);
    injective += opKind == FusionKind::Injective;
    hasOutEWiseFusable |= opKind == FusionKind::OutEWiseFusable;
  }
};

class RuleBasedFusion {
public:
  RuleBasedFusion(Block &block, const FusionEntry &rules,
                  const BackendRegistry &registry,
                  const BackendSelection &selection, unsigned maxGroupSize)
      : block(block), rules(rules), registry(registry), selection(selection),
        maxGroupSize(maxGroupSize) {}

  void run(FusedFunctionOutliner &outliner) {
    for (Operation &op : block)
      if (isEligible(&op)) {
        groupOf[&op] = groups.size();
        groups.emplace_back().add(&op);
      }

    // Producers join their consumers' groups, operators in program order,
    // operands in order.
    for (Operation &op : block) {
      auto consumer = groupOf.find(&op);
      if (consumer == groupOf.end())
        continue;
      if (isRecomputedPredicate(&op))
        continue;
      for (Value operand : op.getOperands()) {
        auto producer = groupOf.find(operand.getDefiningOp());
        if (producer == groupOf.end() || producer->second == consumer->second)
          continue;
        if (canMerge(groups[producer->second], groups[consumer->second],
                     getKind(&op)))
          merge(producer->second, consumer->second);
      }
    }

    // Rule 7: single-operator groups stay as they are. Groups are outlined
    // in the order of their first operator.
    SmallVector<SmallVector<Operation *>> toOutline;
    for (RuleGroup &group : groups) {
      if (group.ops.size() < 2)
        continue;
      sortInBlockOrder(group.ops);
      toOutline.push_back(group.ops);
    }
    llvm::sort(toOutline, [](ArrayRef<Operation *> a, ArrayRef<Operation *> b) {
      return a.front()->isBeforeInBlock(b.front());
    });
    for (SmallVector<Operation *> &ops : toOutline) {
      // Outlining earlier groups may have moved operators; re-sort.
      sortInBlockOrder(ops);
      outliner.outline(ops, rules.backend, /*patternName=*/"");
    }
  }

private:
  /// Relay operators whose top dispatch choice is the rule's backend.
  bool isEligible(Operation *op) {
    if (!isa<FusionOpInterface>(op))
      return false;
    FusionKind kind = getKind(op);
    if (kind == FusionKind::Opaque || kind == FusionKind::Tuple)
      return false;
    std::optional<BackendOpEntry> choice = registry.dispatch(op, selection);
    return choice && choice->backend == rules.backend;
  }

  /// An elementwise or broadcast operator with a boolean (i1) result, e.g.
  /// a gradient's `greater(r, 0)` mask, takes in no producer group: it then
  /// joins its consumer's group (the `where`), which recomputes it from the
  /// stored operand. Had it joined its producer's group, that kernel would
  /// return the mask as an i1 buffer whenever the consumer cannot join too
  /// (a ReLU gradient's `where` lies after the backward convolutions, so
  /// the merge would not be convex), and the consumer would load it one byte
  /// at a time: LLVM's loop vectoriser does not vectorise loads of i1, whose
  /// size in bits differs from its storage size. A comparison costs less to
  /// repeat than such a load.
  bool isRecomputedPredicate(Operation *op) {
    FusionKind kind = getKind(op);
    if (kind != FusionKind::ElemWise && kind != FusionKind::Broadcast)
      return false;
    if (op->getNumResults() != 1)
      return false;
    auto type = dyn_cast<ShapedType>(op->getResult(0).getType());
    return type && type.getElementType().isInteger(1);
  }

  bool canMerge(const RuleGroup &producer, const RuleGroup &consumer,
                FusionKind consumerKind) {
    // Rule 8.
    if (producer.ops.size() + consumer.ops.size() > maxGroupSize)
      return false;
    if (!canFuseInto(producer.kind, consumerKind))
      return false;
    // One anchor per group; an out-elementwise-fusable anchor takes only
    // elementwise and broadcast operators with it (rule 3).
    if (producer.anchors + consumer.anchors > 1)
      return false;
    if ((producer.hasOutEWiseFusable || consumer.hasOutEWiseFusable) &&
        producer.injective + consumer.injective > 0)
      return false;
    // Rule 6: convex.
    SmallVector<Operation *> merged(producer.ops);
    merged.append(consumer.ops.begin(), consumer.ops.end());
    sortInBlockOrder(merged);
    return canOutlineGroup(merged);
  }

  void merge(unsigned producer, unsigned consumer) {
    RuleGroup &from = groups[producer];
    for (Operation *op : from.ops) {
      groups[consumer].add(op);
      groupOf[op] = consumer;
    }
    from.ops.clear();
  }

  Block &block;
  const FusionEntry &rules;
  const BackendRegistry &registry;
  const BackendSelection &selection;
  unsigned maxGroupSize;
  std::vector<RuleGroup> groups;
  llvm::DenseMap<Operation *, unsigned> groupOf;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct RafFuse : public raf::relay::impl::RafFuseBase<RafFuse> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(checkDeviceOption(getArgument(), options, errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const BackendRegistry &registry = getBackendRegistry();
    FailureOr<BackendSelection> selection = resolveBackendSelection(
        module, registry, device, backendPreference, disableBackends);
    if (failed(selection))
      return signalPassFailure();
    if (maxGroupSize == 0) {
      module.emitError() << "max-group-size must be at least 1";
      return signalPassFailure();
    }

    // Every block of every function that is not itself fused, outer blocks
    // first; relay.if and relay.fn bodies are fused independently of their
    // enclosing block.
    SmallVector<Block *> blocks;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn->hasAttr(kPrimitiveAttr))
        continue;
      fn->walk<WalkOrder::PreOrder>(
          [&](Block *block) { blocks.push_back(block); });
    }

    FusedFunctionOutliner outliner(module);
    for (const FusionEntry *entry : registry.getFusionEntries(*selection)) {
      for (Block *block : blocks) {
        if (entry->isRuleBased())
          RuleBasedFusion(*block, *entry, registry, *selection, maxGroupSize)
              .run(outliner);
        else
          fuseByPattern(*block, *entry, outliner);
      }
    }
  }
};

} // namespace
