//===- Computation.cpp - the loop-nest form of a tcg computation ----------===//

#include "raf/Dialect/TCG/Utils/Computation.h"

#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace raf::tcg;

SmallVector<Value> Computation::getIterators() const {
  SmallVector<Value> iterators;
  for (TensorOp dim : dims)
    iterators.push_back(dim.getIterator());
  for (ReduceOp reduce : reductions)
    iterators.push_back(reduce.getIterator());
  return iterators;
}

unsigned Computation::getIteratorPosition(Value iterator) const {
  SmallVector<Value> iterators = getIterators();
  return llvm::find(iterators, iterator) - iterators.begin();
}

AffineMap Computation::getAccessMap(InputOp input) const {
  MLIRContext *context = input.getContext();
  SmallVector<AffineExpr> replacements;
  for (Value iterator : input.getIterators())
    replacements.push_back(
        getAffineDimExpr(getIteratorPosition(iterator), context));
  unsigned numIterators = dims.size() + reductions.size();
  return input.getMap().replaceDimsAndSymbols(replacements, {}, numIterators,
                                              0);
}

namespace {

/// Appends the ops `value` depends on to `order` in post order (operands
/// first). Only reads, constants and element-wise operations may appear.
LogicalResult collectBody(Value value, SmallVectorImpl<Operation *> &order,
                          llvm::SmallPtrSetImpl<Operation *> &visited) {
  Operation *op = value.getDefiningOp();
  // Scalars are only produced by ops (iterators are `index` and only feed
  // tcg.input), so `op` is never null here.
  if (!visited.insert(op).second)
    return success();
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.emitOpError(
        "result is combined with other values; the loop-nest form (a tensor "
        "expression, one linalg.generic) reduces the whole body, so a "
        "reduction may only be yielded by a tcg.tensor or an enclosing "
        "tcg.reduce");
  if (auto compute = dyn_cast<ComputeOp>(op))
    if (failed(collectBody(compute.getLhs(), order, visited)) ||
        (compute.getRhs() &&
         failed(collectBody(compute.getRhs(), order, visited))))
      return failure();
  order.push_back(op);
  return success();
}

} // namespace

FailureOr<Computation> raf::tcg::analyzeComputation(TensorOp root) {
  Computation computation;
  // The tensor nest.
  TensorOp dim = root;
  while (true) {
    computation.dims.push_back(dim);
    if (!dim.getBody().front().getOps<TensorOp>().empty() &&
        !llvm::hasSingleElement(dim.getBody().front().getOps<TensorOp>()))
      return dim.emitOpError("holds a fused sequence of computations "
                             "(Rieber 2022, Fig. 3.12); the loop-nest form "
                             "needs one computation per nest (inline the "
                             "fused computations first)");
    auto inner = dim.getYield().getValue().getDefiningOp<TensorOp>();
    if (!inner)
      break;
    dim = inner;
  }
  // The chain of reductions.
  Value value = dim.getYield().getValue();
  while (auto reduce = value.getDefiningOp<ReduceOp>()) {
    if (computation.reduction && *computation.reduction != reduce.getKind())
      return reduce.emitOpError("reduces with '")
             << stringifyScalarOp(reduce.getKind())
             << "' inside a reduction with '"
             << stringifyScalarOp(*computation.reduction)
             << "'; the loop-nest form has one reduction operation";
    computation.reduction = reduce.getKind();
    computation.reductions.push_back(reduce);
    value = reduce.getYield().getValue();
  }
  // The body.
  llvm::SmallPtrSet<Operation *, 16> visited;
  if (failed(collectBody(value, computation.body, visited)))
    return failure();
  return computation;
}
