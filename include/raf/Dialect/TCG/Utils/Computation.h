//===- Computation.h - the loop-nest form of a tcg computation --*- C++ -*-===//
//
// A computation of a kernel (a top-level tcg.tensor) has the loop-nest form
//
//   out[p] = reduce_{r} body(in_0[f_0(p, r)], ..., in_k[f_k(p, r)])
//
// when its tensors nest down to one chain of reductions of a single kind
// whose innermost body is a DAG of reads and element-wise operations. This
// is the shape a tensor expression (raf::embed::TensorExpression) and a
// single linalg.generic can hold; extracting the former and lowering to the
// latter both start from this analysis.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_UTILS_COMPUTATION_H
#define RAF_DIALECT_TCG_UTILS_COMPUTATION_H

#include "raf/Dialect/TCG/IR/TCGOps.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace raf::tcg {

struct Computation {
  /// The tensor nest, outermost first: one per output dimension.
  llvm::SmallVector<TensorOp> dims;
  /// The chain of reductions, outermost first.
  llvm::SmallVector<ReduceOp> reductions;
  /// The reduction kind shared by all reductions, if there are any.
  std::optional<ScalarOp> reduction;
  /// The reads and element-wise operations the body value depends on, in
  /// topological order; the last one produces the body value.
  llvm::SmallVector<mlir::Operation *> body;

  /// The value of one iteration point.
  mlir::Value getBodyValue() const { return body.back()->getResult(0); }
  /// Every iterator: the tensors' in nest order, then the reductions'.
  llvm::SmallVector<mlir::Value> getIterators() const;
  /// The position of `iterator` in getIterators().
  unsigned getIteratorPosition(mlir::Value iterator) const;
  /// The access map of `input` over all iterators (getIterators()).
  mlir::AffineMap getAccessMap(InputOp input) const;
};

/// Analyses the computation rooted at `root`. Fails with an error located at
/// the offending op when it does not have the loop-nest form: a reduction
/// whose result is combined with other values, or nested reductions of
/// different kinds.
llvm::FailureOr<Computation> analyzeComputation(TensorOp root);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_UTILS_COMPUTATION_H
