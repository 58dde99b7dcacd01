//===- ExprBuilder.cpp - assembling operator tensor expressions -----------===//

#include "OperatorExprs.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace raf;
using namespace raf::relay_to_tcg;

ExprBuilder::ExprBuilder(MLIRContext *context, StringRef name,
                         RankedTensorType resultType)
    : context(context) {
  embed::TensorExpression &expr = result.expr;
  expr.Name = name.str();
  expr.Output.Name = "out";
  expr.Output.Shape.assign(resultType.getShape().begin(),
                           resultType.getShape().end());
  expr.Output.ElementType = resultType.getElementType();
}

AffineExpr ExprBuilder::addIterator(StringRef name, int64_t extent,
                                    bool isReduction, StringRef gemmAxis) {
  embed::Iterator iterator;
  iterator.Name = name.str();
  iterator.Extent = extent;
  iterator.IsReduction = isReduction;
  iterator.StrictAxis = gemmAxis.str();
  result.expr.Iterators.push_back(iterator);
  return getAffineDimExpr(result.expr.Iterators.size() - 1, context);
}

void ExprBuilder::addInput(StringRef name, unsigned operand,
                           RankedTensorType type, ArrayRef<AffineExpr> indices,
                           ArrayRef<int64_t> padLow, ArrayRef<int64_t> padHigh,
                           ArrayRef<int64_t> dilation) {
  embed::Operand input;
  input.Name = name.str();
  input.Shape.assign(type.getShape().begin(), type.getShape().end());
  input.ElementType = type.getElementType();
  input.PadLow.assign(padLow.begin(), padLow.end());
  input.PadHigh.assign(padHigh.begin(), padHigh.end());
  input.Dilation.assign(dilation.begin(), dilation.end());
  result.expr.Inputs.push_back(std::move(input));
  result.inputOperands.push_back(operand);
  accesses.emplace_back(indices.begin(), indices.end());
}

OperatorExpr ExprBuilder::finish() {
  embed::TensorExpression &expr = result.expr;
  unsigned numIterators = expr.Iterators.size();
  for (auto [input, indices] : llvm::zip(expr.Inputs, accesses))
    input.Access = AffineMap::get(numIterators, 0, indices, context);
  SmallVector<AffineExpr> outputIndices;
  for (unsigned i = 0, e = expr.Output.Shape.size(); i != e; ++i)
    outputIndices.push_back(getAffineDimExpr(i, context));
  expr.Output.Access = AffineMap::get(numIterators, 0, outputIndices, context);

  expr.setMultiplyAccumulateBody();
  return std::move(result);
}
