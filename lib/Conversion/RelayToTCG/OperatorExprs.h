//===- OperatorExprs.h - tensor expressions of relay operators --*- C++ -*-===//
//
// One function per operator computes its tensor expression from its types
// and attributes; TensorExprModels.cpp builds the tcg.kernel from it.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_CONVERSION_RELAYTOTCG_OPERATOREXPRS_H
#define RAF_LIB_CONVERSION_RELAYTOTCG_OPERATOREXPRS_H

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Embedding/TensorExpression.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace raf::relay_to_tcg {

/// A tensor expression and, per input, the operand of the operator it reads.
struct OperatorExpr {
  embed::TensorExpression expr;
  llvm::SmallVector<unsigned, 2> inputOperands;
};

/// Assembles an OperatorExpr: iterators first (all parallel ones, then the
/// reductions), then the inputs, whose accesses are expressions of the
/// iterators' dimensions; the body multiplies the two inputs and the
/// reductions add (every covered operator is a sum of products).
class ExprBuilder {
public:
  ExprBuilder(mlir::MLIRContext *context, llvm::StringRef name,
              mlir::RankedTensorType result);

  /// Adds an iterator and returns its dimension expression.
  mlir::AffineExpr addIterator(llvm::StringRef name, int64_t extent,
                               bool isReduction, llvm::StringRef gemmAxis = "");
  /// Adds an input reading operand `operand` (of type `type`) at `indices`
  /// through a view (empty lists: none).
  void addInput(llvm::StringRef name, unsigned operand,
                mlir::RankedTensorType type,
                llvm::ArrayRef<mlir::AffineExpr> indices,
                llvm::ArrayRef<int64_t> padLow = {},
                llvm::ArrayRef<int64_t> padHigh = {},
                llvm::ArrayRef<int64_t> dilation = {});
  /// out[parallel iterators] = add_{reductions} (input 0 * input 1).
  OperatorExpr finish();

  mlir::MLIRContext *getContext() const { return context; }

private:
  mlir::MLIRContext *context;
  OperatorExpr result;
  /// The accesses, made maps once the number of iterators is known.
  llvm::SmallVector<llvm::SmallVector<mlir::AffineExpr, 4>, 2> accesses;
};

OperatorExpr getOperatorExpr(relay::Conv2DOp op);
OperatorExpr getOperatorExpr(relay::Conv2DTransposeOp op);
OperatorExpr getOperatorExpr(relay::DenseOp op);
OperatorExpr getOperatorExpr(relay::MatmulOp op);
OperatorExpr getOperatorExpr(relay::BatchMatmulOp op);

} // namespace raf::relay_to_tcg

#endif // RAF_LIB_CONVERSION_RELAYTOTCG_OPERATOREXPRS_H
