//===- Transformations.cpp - TCG rewrites of the top-down search ----------===//
//
// Rieber 2022, §3.3.1. Every rewrite checks all its preconditions before it
// changes anything, so a refusal leaves the kernel as it was.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/TopDown/Transformations.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace raf::tcg;
using raf::tcg::topdown::isFusedBody;

namespace {

/// The top-level computation (a tcg.tensor whose parent is the kernel)
/// holding `op`, or `op` itself.
TensorOp getComputation(Operation *op) {
  Operation *current = op;
  while (current && !isa<KernelOp>(current->getParentOp()))
    current = current->getParentOp();
  return dyn_cast_or_null<TensorOp>(current);
}

/// The iterator-defining ops (tcg.tensor, tcg.reduce) enclosing `op`,
/// outermost first.
SmallVector<Operation *> getEnclosingIterators(Operation *op) {
  SmallVector<Operation *> chain;
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp())
    if (isa<TensorOp, ReduceOp>(parent))
      chain.push_back(parent);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

struct IteratorFacts {
  IntegerAttr lower, upper;
  StringAttr name;
  GemmAxisAttr axis;
  Value iterator;
};

IteratorFacts getFacts(Operation *op) {
  if (auto tensor = dyn_cast<TensorOp>(op))
    return {tensor.getLowerAttr(), tensor.getUpperAttr(),
            tensor.getIterNameAttr(), tensor.getGemmAxisAttr(),
            tensor.getIterator()};
  auto reduce = cast<ReduceOp>(op);
  return {reduce.getLowerAttr(), reduce.getUpperAttr(),
          reduce.getIterNameAttr(), reduce.getGemmAxisAttr(),
          reduce.getIterator()};
}

/// Whether the kernel returns the result of `computation`.
bool isKernelResult(TensorOp computation) {
  auto kernel = cast<KernelOp>(computation->getParentOp());
  return kernel.getYield().getValue() == computation.getResult();
}

/// The fused tensor enclosing `op` or `op` itself, if any.
TensorOp getFusedAncestor(Operation *op) {
  for (Operation *current = op; current && !isa<KernelOp>(current);
       current = current->getParentOp())
    if (auto tensor = dyn_cast<TensorOp>(current))
      if (isFusedBody(tensor))
        return tensor;
  return {};
}

/// Whether `tensor` is a computation: a tcg.tensor in the kernel body or in
/// a fused body (a local row), as opposed to an inner dimension.
bool isComputation(TensorOp tensor) {
  Operation *parent = tensor->getParentOp();
  if (isa<KernelOp>(parent))
    return true;
  return isFusedBody(cast<TensorOp>(parent));
}

/// Whether the block holding `computation` yields it: the kernel's result,
/// or the last computation of a fused body (the dimension itself).
bool isYieldedByBlock(TensorOp computation) {
  Operation *terminator = computation->getBlock()->getTerminator();
  return terminator->getOperand(0) == computation.getResult();
}

/// The tensor nest of a computation, outermost first, or failure when one
/// of its bodies is fused.
FailureOr<SmallVector<TensorOp>> getNest(TensorOp computation) {
  SmallVector<TensorOp> dims = {computation};
  while (true) {
    if (isFusedBody(dims.back()))
      return failure();
    auto inner = dims.back().getYield().getValue().getDefiningOp<TensorOp>();
    if (!inner)
      return dims;
    dims.push_back(inner);
  }
}

/// Builds, at the builder's insertion point (in a kernel body), a
/// computation with one dimension per op of `iterators` (same interval,
/// name and GEMM axis) whose element, of type `element`, `body` produces;
/// `body` receives a mapping from the old iterators to the new ones.
TensorOp
buildComputation(OpBuilder &builder, Location loc,
                 ArrayRef<Operation *> iterators, Type element,
                 llvm::function_ref<Value(OpBuilder &, IRMapping &)> body) {
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<int64_t> shape;
  SmallVector<IteratorFacts> facts;
  for (Operation *op : iterators) {
    facts.push_back(getFacts(op));
    shape.push_back(facts.back().upper.getInt() - facts.back().lower.getInt());
  }
  IRMapping mapping;
  SmallVector<TensorOp> nest;
  for (auto [index, fact] : llvm::enumerate(facts)) {
    auto type = RankedTensorType::get(
        ArrayRef<int64_t>(shape).drop_front(index), element);
    auto tensor = TensorOp::create(builder, loc, type, fact.lower, fact.upper,
                                   fact.name, fact.axis);
    Block *block = builder.createBlock(&tensor.getBody(), {},
                                       {builder.getIndexType()}, {loc});
    mapping.map(fact.iterator, block->getArgument(0));
    nest.push_back(tensor);
  }
  Value scalar = body(builder, mapping);
  YieldOp::create(builder, loc, scalar);
  for (unsigned index = nest.size() - 1; index > 0; --index) {
    builder.setInsertionPointAfter(nest[index]);
    YieldOp::create(builder, loc, nest[index].getResult());
  }
  return nest.front();
}

/// Counts the statements (computes and reductions) of a computation.
unsigned countStatements(TensorOp computation) {
  unsigned count = 0;
  computation.walk([&](Operation *op) {
    if (isa<ComputeOp, ReduceOp>(op))
      ++count;
  });
  return count;
}

/// A read of every point of `computation` at `iterators`.
Value readAll(OpBuilder &builder, Location loc, TensorOp computation,
              ValueRange iterators) {
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(iterators.size(), builder.getContext());
  return InputOp::create(builder, loc, computation.getResult(), iterators,
                         identity);
}

/// Replaces the statement `op` (a compute or reduce moved into `moved`,
/// whose dimensions are `iterators`) by a read of `moved` at every point,
/// and erases it.
void replaceByRead(Operation *op, TensorOp moved,
                   ArrayRef<Operation *> iterators) {
  OpBuilder builder(op);
  SmallVector<Value> iteratorValues;
  for (Operation *it : iterators)
    iteratorValues.push_back(getFacts(it).iterator);
  Value read = readAll(builder, op->getLoc(), moved, iteratorValues);
  op->getResult(0).replaceAllUsesWith(read);
  op->erase();
}

/// Whether `value` is computed inside the kernel: a compute or reduce
/// result, or a read of an earlier computation (Tab. 3.2's b_dep).
bool isIntermediate(Value value) {
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<ComputeOp, ReduceOp>(op))
    return true;
  if (auto input = dyn_cast_or_null<InputOp>(op))
    return !isa<BlockArgument>(input.getSource());
  return false;
}

/// Replaces the view attribute lists of `input` by `reorder` of them.
void reorderViews(
    InputOp input,
    llvm::function_ref<SmallVector<int64_t>(ArrayRef<int64_t>)> reorder) {
  Builder builder(input.getContext());
  if (std::optional<ArrayRef<int64_t>> values = input.getPadLow())
    input.setPadLowAttr(builder.getDenseI64ArrayAttr(reorder(*values)));
  if (std::optional<ArrayRef<int64_t>> values = input.getPadHigh())
    input.setPadHighAttr(builder.getDenseI64ArrayAttr(reorder(*values)));
  if (std::optional<ArrayRef<int64_t>> values = input.getDilation())
    input.setDilationAttr(builder.getDenseI64ArrayAttr(reorder(*values)));
}

} // namespace

//===----------------------------------------------------------------------===//
// Operand swap (Fig. 3.7, Tab. 3.2)
//===----------------------------------------------------------------------===//

LogicalResult raf::tcg::topdown::swapOperands(ComputeOp op) {
  if (ComputeOp::isUnary(op.getKind()))
    return op.emitOpError("cannot swap the operand of unary '")
           << stringifyScalarOp(op.getKind()) << "'";
  if (!ComputeOp::isCommutative(op.getKind()))
    return op.emitOpError("cannot swap the operands of '")
           << stringifyScalarOp(op.getKind()) << "' (not commutative)";
  Value lhs = op.getLhs(), rhs = op.getRhs();
  op->setOperands({rhs, lhs});
  return success();
}

bool raf::tcg::topdown::canonicalizeOperands(ComputeOp op) {
  if (ComputeOp::isUnary(op.getKind()) ||
      !ComputeOp::isCommutative(op.getKind()))
    return false;
  Value lhs = op.getLhs(), rhs = op.getRhs();
  bool lhsConstant = lhs.getDefiningOp<ConstantOp>() != nullptr;
  bool rhsConstant = rhs.getDefiningOp<ConstantOp>() != nullptr;
  bool swap = (lhsConstant && !rhsConstant) ||
              (!lhsConstant && !isIntermediate(lhs) && isIntermediate(rhs));
  if (swap)
    op->setOperands({rhs, lhs});
  return swap;
}

//===----------------------------------------------------------------------===//
// Output transpose (Fig. 3.9)
//===----------------------------------------------------------------------===//

LogicalResult raf::tcg::topdown::interchangeTensors(TensorOp outer,
                                                    bool allowKernelResult) {
  auto inner = outer.getYield().getValue().getDefiningOp<TensorOp>();
  if (!inner)
    return outer.emitOpError("is the innermost dimension; output transpose "
                             "interchanges a dimension with the one nested "
                             "in it");
  if (TensorOp fused = getFusedAncestor(outer))
    return outer.emitOpError("lies in a fused sequence of computations "
                             "(Fig. 3.12); output transpose reorders the "
                             "dimensions of unfused computations only");
  TensorOp computation = getComputation(outer);
  bool result = isKernelResult(computation);
  if (result && !allowKernelResult)
    return outer.emitOpError("belongs to the computation the kernel returns; "
                             "transposing it would change the kernel's type");

  // The path from the computation down to `outer`, and outer's depth.
  SmallVector<TensorOp> path;
  for (Operation *op = outer; op != computation->getParentOp();
       op = op->getParentOp())
    path.push_back(cast<TensorOp>(op));
  std::reverse(path.begin(), path.end());
  unsigned depth = path.size() - 1;

  // Swap the intervals, names and axes, then the iterators' uses: outer's
  // iterator now ranges over inner's old interval and takes its uses.
  IteratorFacts outerFacts = getFacts(outer), innerFacts = getFacts(inner);
  outer.setLowerAttr(innerFacts.lower);
  outer.setUpperAttr(innerFacts.upper);
  outer.setIterNameAttr(innerFacts.name);
  outer.setGemmAxisAttr(innerFacts.axis);
  inner.setLowerAttr(outerFacts.lower);
  inner.setUpperAttr(outerFacts.upper);
  inner.setIterNameAttr(outerFacts.name);
  inner.setGemmAxisAttr(outerFacts.axis);
  SmallVector<OpOperand *> outerUses, innerUses;
  for (OpOperand &use : outerFacts.iterator.getUses())
    outerUses.push_back(&use);
  for (OpOperand &use : innerFacts.iterator.getUses())
    innerUses.push_back(&use);
  for (OpOperand *use : outerUses)
    use->set(innerFacts.iterator);
  for (OpOperand *use : innerUses)
    use->set(outerFacts.iterator);

  // Result types: dimensions depth and depth + 1 trade places.
  for (auto [level, tensor] : llvm::enumerate(path)) {
    SmallVector<int64_t> shape(tensor.getType().getShape());
    std::swap(shape[depth - level], shape[depth - level + 1]);
    tensor.getResult().setType(
        RankedTensorType::get(shape, tensor.getType().getElementType()));
  }
  SmallVector<int64_t> innerShape(inner.getType().getShape());
  innerShape[0] = inner.getExtent();
  inner.getResult().setType(
      RankedTensorType::get(innerShape, inner.getType().getElementType()));

  if (result)
    cast<KernelOp>(computation->getParentOp())
        .getResult()
        .setType(computation.getType());

  // Reads of the computation follow the new layout.
  auto swapped = [&](ArrayRef<int64_t> values) {
    SmallVector<int64_t> result(values);
    std::swap(result[depth], result[depth + 1]);
    return result;
  };
  for (Operation *user :
       llvm::make_early_inc_range(computation.getResult().getUsers())) {
    // The kernel's yield, when the kernel's result was allowed.
    auto read = dyn_cast<InputOp>(user);
    if (!read)
      continue;
    SmallVector<AffineExpr> results(read.getMap().getResults());
    std::swap(results[depth], results[depth + 1]);
    read.setMapAttr(AffineMapAttr::get(AffineMap::get(
        read.getMap().getNumDims(), 0, results, read.getContext())));
    reorderViews(read, swapped);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Input transpose (Fig. 3.8)
//===----------------------------------------------------------------------===//

FailureOr<TensorOp>
raf::tcg::topdown::transposeInput(InputOp input,
                                  ArrayRef<int64_t> permutation) {
  auto sourceType = cast<RankedTensorType>(input.getSource().getType());
  int64_t rank = sourceType.getRank();
  SmallVector<int64_t> sorted(permutation);
  llvm::sort(sorted);
  if (static_cast<int64_t>(permutation.size()) != rank ||
      sorted != llvm::to_vector(llvm::seq<int64_t>(0, rank)))
    return input.emitOpError("input transpose needs a permutation of the ")
           << rank << " source dimensions";
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, rank)))
    return input.emitOpError(
        "the identity permutation leaves the input as it is");

  // The copy goes where the source becomes available.
  auto kernel = input->getParentOfType<KernelOp>();
  OpBuilder builder(input.getContext());
  Value source = input.getSource();
  if (auto producer = source.getDefiningOp())
    builder.setInsertionPointAfter(producer);
  else
    builder.setInsertionPointToStart(&kernel.getBodyBlock());
  Location loc = input.getLoc();

  // copy[i_0, ..., i_{r-1}] = source[j] with j[permutation[k]] = i_k.
  SmallVector<int64_t> copyShape;
  for (int64_t dim : permutation)
    copyShape.push_back(sourceType.getDimSize(dim));
  Type element = sourceType.getElementType();
  SmallVector<TensorOp> nest;
  SmallVector<Value> iterators;
  {
    OpBuilder::InsertionGuard guard(builder);
    for (int64_t k = 0; k < rank; ++k) {
      auto type = RankedTensorType::get(
          ArrayRef<int64_t>(copyShape).drop_front(k), element);
      auto tensor = TensorOp::create(
          builder, loc, type, builder.getI64IntegerAttr(0),
          builder.getI64IntegerAttr(copyShape[k]),
          builder.getStringAttr("t" + std::to_string(k)), GemmAxisAttr());
      Block *block = builder.createBlock(&tensor.getBody(), {},
                                         {builder.getIndexType()}, {loc});
      iterators.push_back(block->getArgument(0));
      nest.push_back(tensor);
    }
    SmallVector<AffineExpr> indices(rank);
    for (int64_t k = 0; k < rank; ++k)
      indices[permutation[k]] = builder.getAffineDimExpr(k);
    Value read =
        InputOp::create(builder, loc, source, iterators,
                        AffineMap::get(rank, 0, indices, builder.getContext()));
    YieldOp::create(builder, loc, read);
    for (int64_t k = rank - 1; k > 0; --k) {
      builder.setInsertionPointAfter(nest[k]);
      YieldOp::create(builder, loc, nest[k].getResult());
    }
  }
  TensorOp copy = nest.front();

  // The read: copy dimension k is indexed as source dimension
  // permutation[k] was.
  SmallVector<AffineExpr> results;
  for (int64_t dim : permutation)
    results.push_back(input.getMap().getResult(dim));
  auto permuted = [&](ArrayRef<int64_t> values) {
    SmallVector<int64_t> result;
    for (int64_t dim : permutation)
      result.push_back(values[dim]);
    return result;
  };
  input->setOperand(0, copy.getResult());
  input.setMapAttr(AffineMapAttr::get(AffineMap::get(
      input.getMap().getNumDims(), 0, results, input.getContext())));
  reorderViews(input, permuted);
  return copy;
}

//===----------------------------------------------------------------------===//
// Compute fission (Fig. 3.10)
//===----------------------------------------------------------------------===//

FailureOr<TensorOp> raf::tcg::topdown::fissionCompute(ComputeOp op) {
  if (getFusedAncestor(op))
    return op.emitOpError("lies in a fused sequence of computations; the "
                          "search splits (Alg. 2) before it fuses (Alg. 3)");
  TensorOp computation = getComputation(op);
  if (countStatements(computation) < 2)
    return op.emitOpError("is the only statement of its computation; fission "
                          "needs more than one compute or reduce statement");
  SmallVector<Operation *> operandOps;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!isa<InputOp, ConstantOp>(def))
      return op.emitOpError("has an operand computed by another statement; "
                            "fission that statement first (full fission "
                            "splits bottom-up)");
    if (!llvm::is_contained(operandOps, def))
      operandOps.push_back(def);
  }
  // Keep the body order in the clone.
  llvm::sort(operandOps,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  SmallVector<Operation *> iterators = getEnclosingIterators(op);
  OpBuilder builder(computation);
  TensorOp moved =
      buildComputation(builder, op.getLoc(), iterators, op.getType(),
                       [&](OpBuilder &b, IRMapping &mapping) {
                         for (Operation *def : operandOps)
                           if (!mapping.contains(def->getResult(0)))
                             b.clone(*def, mapping);
                         return b.clone(*op, mapping)->getResult(0);
                       });

  // The statement becomes a read of the new computation at every point.
  replaceByRead(op, moved, iterators);
  for (Operation *def : operandOps)
    if (def->use_empty())
      def->erase();
  return moved;
}

//===----------------------------------------------------------------------===//
// Reduction fission (Fig. 3.11)
//===----------------------------------------------------------------------===//

FailureOr<TensorOp> raf::tcg::topdown::fissionReduction(ReduceOp op) {
  // The element computation may itself be a reduction (a reduction over
  // several dimensions is a nest of them): it moves whole.
  Block &body = op.getBody().front();
  Value element = op.getYield().getValue();
  if (getFusedAncestor(op))
    return op.emitOpError("lies in a fused sequence of computations; the "
                          "search splits (Alg. 2) before it fuses (Alg. 3)");
  if (isa_and_nonnull<InputOp, ConstantOp>(element.getDefiningOp()))
    return op.emitOpError("reduces a single read; reduction fission needs "
                          "an element computation to move");

  // The moved computation, placed before the enclosing one, sees the
  // kernel's operands, earlier computations and the iterators, nothing
  // else: a body that reads a value the enclosing computation computes (or
  // yields one) cannot move.
  Block *kernelBlock = &op->getParentOfType<KernelOp>().getBodyBlock();
  auto availableOutside = [&](Value value) {
    if (op.getBody().isAncestor(value.getParentRegion()))
      return true;
    if (Operation *producer = value.getDefiningOp())
      return producer->getBlock() == kernelBlock;
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && (argument.getOwner() == kernelBlock ||
                        isa<TensorOp, ReduceOp>(
                            argument.getOwner()->getParentOp()));
  };
  WalkResult outside = op.getBody().walk([&](Operation *inner) {
    return llvm::all_of(inner->getOperands(), availableOutside)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  if (outside.wasInterrupted() || !availableOutside(element))
    return op.emitOpError("uses a value its enclosing computation computes; "
                          "reduction fission moves only a reduction whose "
                          "element computation reads kernel operands and "
                          "earlier computations");

  SmallVector<Operation *> iterators = getEnclosingIterators(op);
  iterators.push_back(op);
  TensorOp computation = getComputation(op);
  OpBuilder builder(computation);
  TensorOp moved =
      buildComputation(builder, op.getLoc(), iterators, element.getType(),
                       [&](OpBuilder &b, IRMapping &mapping) {
                         for (Operation &inner : body.without_terminator())
                           b.clone(inner, mapping);
                         return mapping.lookup(element);
                       });

  // The reduction now reduces the new dimension of the moved computation.
  builder.setInsertionPoint(op.getYield());
  SmallVector<Value> iteratorValues;
  for (Operation *it : iterators)
    iteratorValues.push_back(getFacts(it).iterator);
  Value read = readAll(builder, op.getLoc(), moved, iteratorValues);
  op.getYield()->setOperand(0, read);
  SmallVector<Operation *> old;
  for (Operation &inner : body.without_terminator())
    if (&inner != read.getDefiningOp())
      old.push_back(&inner);
  for (Operation *inner : llvm::reverse(old))
    if (inner->use_empty())
      inner->erase();
  return moved;
}

FailureOr<TensorOp> raf::tcg::topdown::fissionReductionOut(ReduceOp op) {
  if (getFusedAncestor(op))
    return op.emitOpError("lies in a fused sequence of computations; the "
                          "search splits (Alg. 2) before it fuses (Alg. 3)");
  if (!llvm::any_of(op->getUsers(),
                    [](Operation *user) { return isa<ComputeOp>(user); }))
    return op.emitOpError("is not combined with other values; it already "
                          "forms its computation's element");
  Block *kernelBlock = &op->getParentOfType<KernelOp>().getBodyBlock();
  WalkResult outside = op.getBody().walk([&](Operation *inner) {
    for (Value value : inner->getOperands()) {
      if (op.getBody().isAncestor(value.getParentRegion()))
        continue;
      if (Operation *producer = value.getDefiningOp())
        if (producer->getBlock() != kernelBlock)
          return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (outside.wasInterrupted())
    return op.emitOpError("uses a value its enclosing computation computes; "
                          "it cannot move into a computation of its own");
  // The reduction moves whole into a computation over the iterators
  // enclosing it, and is replaced by a read of that computation.
  SmallVector<Operation *> iterators = getEnclosingIterators(op);
  TensorOp computation = getComputation(op);
  OpBuilder builder(computation);
  TensorOp moved = buildComputation(
      builder, op.getLoc(), iterators, op.getType(),
      [&](OpBuilder &b, IRMapping &mapping) {
        return b.clone(*op, mapping)->getResult(0);
      });
  replaceByRead(op, moved, iterators);
  return moved;
}

//===----------------------------------------------------------------------===//
// Inlining (Figs. 3.13, 3.14)
//===----------------------------------------------------------------------===//

LogicalResult raf::tcg::topdown::canInline(TensorOp producer,
                                           std::string &why) {
  if (!isComputation(producer)) {
    why = "is not a computation of the kernel (an inner dimension); inline "
          "the top-level tcg.tensor";
    return failure();
  }
  if (isYieldedByBlock(producer)) {
    why = isa<KernelOp>(producer->getParentOp())
              ? "is the kernel's result; inlining removes the computation, so "
                "nothing would produce it"
              : "is the dimension its fused body yields; only the local rows "
                "before it can be inlined";
    return failure();
  }
  if (producer.getResult().use_empty()) {
    why = "is read by no computation; nothing to inline into";
    return failure();
  }
  FailureOr<SmallVector<TensorOp>> nest = getNest(producer);
  if (failed(nest)) {
    why = "holds a fused sequence of computations; inline its local rows "
          "first";
    return failure();
  }
  for (Operation &op : nest->back().getBody().front())
    if (isa<ReduceOp>(op)) {
      why = "reduces; only element-wise computations are inlined (Figs. "
            "3.13, 3.14)";
      return failure();
    }
  for (Operation *user : producer.getResult().getUsers())
    if (cast<InputOp>(user).hasView()) {
      why = "is read through a padded or dilated view; inlining would drop "
            "the view's zeros";
      return failure();
    }
  return success();
}

LogicalResult raf::tcg::topdown::inlineComputation(TensorOp producer) {
  std::string why;
  if (failed(canInline(producer, why))) {
    // A view is the reading op's fault; report it there.
    for (Operation *user : producer.getResult().getUsers())
      if (auto read = dyn_cast<InputOp>(user); read && read.hasView() &&
                                               why.find("view") !=
                                                   std::string::npos)
        return read.emitOpError("reads the computation through a padded or "
                                "dilated view; inlining would drop the view's "
                                "zeros");
    return producer.emitOpError(why);
  }
  SmallVector<TensorOp> dims = *getNest(producer);
  Block &body = dims.back().getBody().front();
  SmallVector<InputOp> consumers;
  for (Operation *user : producer.getResult().getUsers())
    consumers.push_back(cast<InputOp>(user));

  // Producer iterator -> its dimension.
  llvm::DenseMap<Value, unsigned> dimOf;
  for (auto [index, dim] : llvm::enumerate(dims))
    dimOf[dim.getIterator()] = index;
  Value element = dims.back().getYield().getValue();
  for (InputOp consumer : consumers) {
    OpBuilder builder(consumer);
    AffineMap access = consumer.getMap();
    IRMapping mapping;
    for (Operation &op : body.without_terminator()) {
      auto read = dyn_cast<InputOp>(op);
      if (!read) {
        builder.clone(op, mapping);
        continue;
      }
      // Compose: producer dimension d is the consumer's index expression d.
      // A local row's computation may also use iterators of the fused
      // dimensions around it, which enclose the consumer as well.
      SmallVector<Value> iterators(consumer.getIterators());
      SmallVector<AffineExpr> replacements;
      for (Value iterator : read.getIterators()) {
        auto it = dimOf.find(iterator);
        if (it != dimOf.end()) {
          replacements.push_back(access.getResult(it->second));
          continue;
        }
        replacements.push_back(
            builder.getAffineDimExpr(iterators.size()));
        iterators.push_back(iterator);
      }
      AffineMap composed = read.getMap().replaceDimsAndSymbols(
          replacements, {}, iterators.size(), 0);
      auto attribute = [](std::optional<ArrayRef<int64_t>> values) {
        return values.value_or(ArrayRef<int64_t>());
      };
      Value clone = InputOp::create(
          builder, read.getLoc(), read.getSource(), iterators, composed,
          attribute(read.getPadLow()), attribute(read.getPadHigh()),
          attribute(read.getDilation()));
      mapping.map(read.getResult(), clone);
    }
    consumer.getResult().replaceAllUsesWith(mapping.lookupOrDefault(element));
    consumer.erase();
  }
  producer.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Fusion (Fig. 3.12)
//===----------------------------------------------------------------------===//

namespace {

/// The one computation reading `producer` (a sibling after it in the same
/// block), or an error message saying why there is none.
FailureOr<TensorOp> getFusionConsumer(TensorOp producer, std::string &why) {
  TensorOp consumer;
  for (Operation *user : producer.getResult().getUsers()) {
    Operation *holder = user;
    while (holder && holder->getBlock() != producer->getBlock())
      holder = holder->getParentOp();
    auto computation = dyn_cast_or_null<TensorOp>(holder);
    if (!computation) {
      why = "is read outside a computation of its block";
      return failure();
    }
    if (consumer && consumer != computation) {
      why = "is read by several computations; after fusion its rows exist "
            "only inside one of them";
      return failure();
    }
    consumer = computation;
  }
  if (!consumer) {
    why = "is read by no computation; fusion fuses a computation into the "
          "one that reads it";
    return failure();
  }
  return consumer;
}

} // namespace

LogicalResult raf::tcg::topdown::canFuse(TensorOp producer,
                                         std::string &why) {
  if (!isComputation(producer)) {
    why = "is not a computation (an inner dimension)";
    return failure();
  }
  if (isYieldedByBlock(producer)) {
    why = isa<KernelOp>(producer->getParentOp())
              ? "is the kernel's result; fused into another computation it "
                "would no longer exist as a whole"
              : "is the dimension its fused body yields; nothing after it "
                "reads it";
    return failure();
  }
  FailureOr<TensorOp> consumer = getFusionConsumer(producer, why);
  if (failed(consumer))
    return failure();
  if (producer.getExtent() != consumer->getExtent()) {
    why = "has the outer interval [0, " + std::to_string(producer.getExtent()) +
          ") and its consumer [0, " + std::to_string(consumer->getExtent()) +
          "); fusion needs identical intervals";
    return failure();
  }
  if (producer.getType().getRank() < 2 || consumer->getType().getRank() < 2) {
    why = "or its consumer has a single dimension; fusion keeps an inner "
          "dimension of each (a fused body is a sequence of tensors)";
    return failure();
  }
  Value outer = consumer->getIterator();
  for (Operation *user : producer.getResult().getUsers()) {
    auto read = cast<InputOp>(user);
    AffineExpr first = read.getMap().getResult(0);
    auto dim = dyn_cast<AffineDimExpr>(first);
    if (read.hasView() || !dim ||
        read.getIterators()[dim.getPosition()] != outer) {
      why = "is read at another row than the consumer's outer iterator (or "
            "through a view); fused, the consumer could read data before it "
            "is computed";
      return failure();
    }
  }
  return success();
}

FailureOr<TensorOp> raf::tcg::topdown::fuseComputation(TensorOp producer) {
  std::string why;
  if (failed(canFuse(producer, why)))
    return producer.emitOpError(why);
  TensorOp consumer = *getFusionConsumer(producer, why);

  // The producer's inner computation moves to the front of the consumer's
  // body, iterating the consumer's outer iterator instead of its own.
  Block &from = producer.getBody().front();
  Block &to = consumer.getBody().front();
  auto row = cast<TensorOp>(producer.getYield().getValue().getDefiningOp());
  producer.getIterator().replaceAllUsesWith(consumer.getIterator());
  to.getOperations().splice(to.begin(), from.getOperations(), from.begin(),
                            std::prev(from.end()));

  // Reads of producer[x, rest] become reads of the local row at [rest].
  for (Operation *user :
       llvm::make_early_inc_range(producer.getResult().getUsers())) {
    auto read = cast<InputOp>(user);
    AffineMap map = read.getMap();
    AffineMap rest = AffineMap::get(map.getNumDims(), 0,
                                    map.getResults().drop_front(),
                                    read.getContext());
    OpBuilder builder(read);
    Value replacement = InputOp::create(builder, read.getLoc(),
                                        row.getResult(), read.getIterators(),
                                        rest);
    read.getResult().replaceAllUsesWith(replacement);
    read.erase();
  }
  producer.erase();
  return consumer;
}

//===----------------------------------------------------------------------===//
// Inverse fusion
//===----------------------------------------------------------------------===//

LogicalResult raf::tcg::topdown::canUnfuse(TensorOp row, std::string &why) {
  auto consumer = dyn_cast<TensorOp>(row->getParentOp());
  if (!consumer || !isFusedBody(consumer)) {
    why = "is not a local row of a fused body; only those are split out";
    return failure();
  }
  if (isYieldedByBlock(row)) {
    why = "is the dimension its fused body yields; only the local rows "
          "before it are split out";
    return failure();
  }
  // The row moves in front of the fused tensor, out of reach of the local
  // rows before it.
  WalkResult reads = row.walk([&](InputOp read) {
    Operation *source = read.getSource().getDefiningOp();
    return source && source->getBlock() == row->getBlock()
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (reads.wasInterrupted()) {
    why = "reads an earlier local row of its fused body; split that one "
          "first";
    return failure();
  }
  return success();
}

FailureOr<TensorOp> raf::tcg::topdown::unfuseRow(
    TensorOp row, llvm::function_ref<void(InputOp, InputOp)> replaced) {
  std::string why;
  if (failed(canUnfuse(row, why)))
    return row.emitOpError(why);
  auto consumer = cast<TensorOp>(row->getParentOp());
  Location loc = row.getLoc();
  SmallVector<InputOp> reads;
  for (Operation *user : row.getResult().getUsers())
    reads.push_back(cast<InputOp>(user));

  // for x': t, with the consumer's interval, name and GEMM axis; the row
  // iterates x' where it iterated the consumer's x.
  OpBuilder builder(consumer);
  SmallVector<int64_t> shape = {consumer.getExtent()};
  llvm::append_range(shape, row.getType().getShape());
  auto type = RankedTensorType::get(shape, row.getType().getElementType());
  auto producer = TensorOp::create(
      builder, loc, type, consumer.getLowerAttr(), consumer.getUpperAttr(),
      consumer.getIterNameAttr(), consumer.getGemmAxisAttr());
  Block *block = builder.createBlock(&producer.getBody(), {},
                                     {builder.getIndexType()}, {loc});
  row->moveBefore(block, block->end());
  builder.setInsertionPointToEnd(block);
  YieldOp::create(builder, loc, row.getResult());
  consumer.getIterator().replaceUsesWithIf(
      producer.getIterator(),
      [&](OpOperand &use) { return row->isAncestor(use.getOwner()); });

  // Reads of the local row t[rest] become reads of t[x, rest].
  for (InputOp read : reads) {
    builder.setInsertionPoint(read);
    SmallVector<Value> iterators(read.getIterators());
    auto found = llvm::find(iterators, consumer.getIterator());
    unsigned position = found - iterators.begin();
    if (found == iterators.end())
      iterators.push_back(consumer.getIterator());
    SmallVector<AffineExpr> results = {builder.getAffineDimExpr(position)};
    llvm::append_range(results, read.getMap().getResults());
    AffineMap map =
        AffineMap::get(iterators.size(), 0, results, read.getContext());
    // A view of the row gains the new dimension unpadded and undilated.
    auto extend = [](std::optional<ArrayRef<int64_t>> values, int64_t first) {
      SmallVector<int64_t> extended;
      if (values) {
        extended.push_back(first);
        llvm::append_range(extended, *values);
      }
      return extended;
    };
    auto replacement = InputOp::create(
        builder, read.getLoc(), producer.getResult(), iterators, map,
        extend(read.getPadLow(), 0), extend(read.getPadHigh(), 0),
        extend(read.getDilation(), 1));
    read.getResult().replaceAllUsesWith(replacement.getResult());
    if (replaced)
      replaced(read, replacement);
    read.erase();
  }
  return producer;
}

bool raf::tcg::topdown::isFusedBody(TensorOp tensor) {
  auto nested = tensor.getBody().front().getOps<TensorOp>();
  return !nested.empty() && !llvm::hasSingleElement(nested);
}

bool raf::tcg::topdown::hasFusedBody(KernelOp kernel) {
  return kernel
      .walk([](TensorOp tensor) {
        return isFusedBody(tensor) ? WalkResult::interrupt()
                                   : WalkResult::advance();
      })
      .wasInterrupted();
}

unsigned raf::tcg::topdown::unfuseAll(
    KernelOp kernel, llvm::function_ref<void(InputOp, InputOp)> replaced) {
  unsigned count = 0;
  while (true) {
    // The first local row of the outermost fused body reads no earlier
    // row, so it can always be split; the body it lands in may become
    // fused, and is split next.
    TensorOp row;
    kernel.walk<WalkOrder::PreOrder>([&](TensorOp tensor) {
      if (!isFusedBody(tensor))
        return WalkResult::advance();
      row = *tensor.getBody().front().getOps<TensorOp>().begin();
      return WalkResult::interrupt();
    });
    std::string why;
    if (!row || failed(canUnfuse(row, why)) || failed(unfuseRow(row, replaced)))
      return count;
    ++count;
  }
}

//===----------------------------------------------------------------------===//
// Full fission (Alg. 2)
//===----------------------------------------------------------------------===//

namespace {

/// Whether fissionCompute(op) would apply (its preconditions, checked
/// without diagnostics).
bool canFissionCompute(ComputeOp op) {
  if (getFusedAncestor(op) || countStatements(getComputation(op)) < 2)
    return false;
  return llvm::all_of(op->getOperands(), [](Value operand) {
    return isa_and_nonnull<InputOp, ConstantOp>(operand.getDefiningOp());
  });
}

/// Whether fissionReduction(op) would apply.
bool canFissionReduction(ReduceOp op) {
  return !getFusedAncestor(op) &&
         !isa_and_nonnull<InputOp, ConstantOp>(
      op.getYield().getValue().getDefiningOp());
}

/// Whether fissionReductionOut(op) would apply (the uses-outside check is
/// left to the rewrite).
bool canFissionReductionOut(ReduceOp op) {
  return !getFusedAncestor(op) &&
         llvm::any_of(op->getUsers(),
                      [](Operation *user) { return isa<ComputeOp>(user); });
}

} // namespace

unsigned raf::tcg::topdown::fullFission(KernelOp kernel) {
  unsigned applied = 0;
  while (true) {
    // FindFissionOptions: reductions first (their element computation moves
    // out whole), then leaf computes.
    SmallVector<Operation *> options;
    kernel.walk([&](ReduceOp op) {
      if (canFissionReduction(op))
        options.push_back(op);
    });
    kernel.walk([&](ComputeOp op) {
      if (canFissionCompute(op))
        options.push_back(op);
    });
    // A reduction combined with other values (a bias added to a sum) moves
    // into its own computation once its element computation has moved.
    SmallVector<ReduceOp> combined;
    kernel.walk([&](ReduceOp op) {
      if (!canFissionReduction(op) && canFissionReductionOut(op))
        combined.push_back(op);
    });
    if (options.empty() && combined.empty())
      return applied;
    // Apply the first option still valid (earlier fissions may have moved
    // or erased the others, which Alg. 2 does not check), then look again.
    bool progress = false;
    for (Operation *option : options) {
      if (auto reduce = dyn_cast<ReduceOp>(option)) {
        if (canFissionReduction(reduce) &&
            succeeded(fissionReduction(reduce))) {
          progress = true;
          break;
        }
      } else if (auto compute = dyn_cast<ComputeOp>(option)) {
        if (canFissionCompute(compute) && succeeded(fissionCompute(compute))) {
          progress = true;
          break;
        }
      }
    }
    for (ReduceOp reduce : combined) {
      if (progress)
        break;
      // Silently skip a reduction that cannot move (it reads a value of its
      // enclosing computation).
      ScopedDiagnosticHandler quiet(kernel.getContext(),
                                    [](Diagnostic &) { return success(); });
      progress = succeeded(fissionReductionOut(reduce));
    }
    if (!progress)
      return applied;
    ++applied;
  }
}
