//===- TensorExprPrinter.cpp - tensor expressions as text -----------------===//

#include "raf/Dialect/TCG/Utils/TensorExprPrinter.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

#include <utility>

using namespace mlir;
using namespace raf;

namespace {

/// Whether `expr` is a product with a negative constant factor.
bool isNegated(AffineExpr expr) {
  auto product = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!product || product.getKind() != AffineExprKind::Mul)
    return false;
  auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
  return factor && factor.getValue() < 0;
}

/// Prints `expr` with iterator names for dimensions. Sums print as
/// differences where a term has a negative factor; compound operands of
/// products, divisions and remainders are parenthesised.
void printAccess(AffineExpr expr, ArrayRef<embed::Iterator> iterators,
                 llvm::raw_ostream &os) {
  auto printOperand = [&](AffineExpr operand) {
    bool parenthesise = isa<AffineBinaryOpExpr>(operand);
    if (parenthesise)
      os << '(';
    printAccess(operand, iterators, os);
    if (parenthesise)
      os << ')';
  };
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    os << iterators[dim.getPosition()].Name;
    return;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    os << constant.getValue();
    return;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  AffineExpr lhs = binary.getLHS(), rhs = binary.getRHS();
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    // `-k + 2` (how affine expressions order terms) prints as `2 - k`.
    if (isNegated(lhs) && !isNegated(rhs))
      std::swap(lhs, rhs);
    printAccess(lhs, iterators, os);
    // `x + c * -k` and `x + -k` print as subtractions.
    auto rhsConstant = dyn_cast<AffineConstantExpr>(rhs);
    if (rhsConstant && rhsConstant.getValue() < 0) {
      os << " - " << -rhsConstant.getValue();
      return;
    }
    if (isNegated(rhs)) {
      auto product = cast<AffineBinaryOpExpr>(rhs);
      int64_t factor = cast<AffineConstantExpr>(product.getRHS()).getValue();
      os << " - ";
      printOperand(product.getLHS());
      if (factor != -1)
        os << " * " << -factor;
      return;
    }
    os << " + ";
    printAccess(rhs, iterators, os);
    return;
  }
  case AffineExprKind::Mul:
    if (auto factor = dyn_cast<AffineConstantExpr>(rhs);
        factor && factor.getValue() == -1) {
      os << '-';
      printOperand(lhs);
      return;
    }
    printOperand(lhs);
    os << " * ";
    printOperand(rhs);
    return;
  case AffineExprKind::FloorDiv:
    printOperand(lhs);
    os << " floordiv ";
    printOperand(rhs);
    return;
  case AffineExprKind::CeilDiv:
    printOperand(lhs);
    os << " ceildiv ";
    printOperand(rhs);
    return;
  case AffineExprKind::Mod:
    printOperand(lhs);
    os << " mod ";
    printOperand(rhs);
    return;
  default:
    os << expr;
  }
}

void printRead(const embed::Operand &operand,
               ArrayRef<embed::Iterator> iterators, llvm::raw_ostream &os) {
  os << operand.Name << '[';
  llvm::interleaveComma(operand.Access.getResults(), os,
                        [&](AffineExpr e) { printAccess(e, iterators, os); });
  os << ']';
}

void printNode(const embed::TensorExpression &expr, unsigned index,
               bool outermost, llvm::raw_ostream &os) {
  const embed::ScalarNode &node = expr.Body[index];
  if (node.IsInput) {
    printRead(expr.Inputs[node.Input], expr.Iterators, os);
    return;
  }
  if (embed::isUnaryScalarOp(node.Op)) {
    os << embed::stringifyScalarOp(node.Op) << '(';
    printNode(expr, node.Lhs, /*outermost=*/true, os);
    os << ')';
    return;
  }
  if (node.Op == embed::ScalarOp::Max || node.Op == embed::ScalarOp::Min) {
    os << embed::stringifyScalarOp(node.Op) << '(';
    printNode(expr, node.Lhs, /*outermost=*/true, os);
    os << ", ";
    printNode(expr, node.Rhs, /*outermost=*/true, os);
    os << ')';
    return;
  }
  if (!outermost)
    os << '(';
  printNode(expr, node.Lhs, /*outermost=*/false, os);
  switch (node.Op) {
  case embed::ScalarOp::Add:
    os << " + ";
    break;
  case embed::ScalarOp::Sub:
    os << " - ";
    break;
  case embed::ScalarOp::Div:
    os << " / ";
    break;
  default:
    os << " * ";
  }
  printNode(expr, node.Rhs, /*outermost=*/false, os);
  if (!outermost)
    os << ')';
}

void printOperandLine(const embed::Operand &operand, llvm::raw_ostream &os) {
  os << "  " << operand.Name << ": "
     << RankedTensorType::get(operand.Shape, operand.ElementType);
  if (!operand.hasView())
    return;
  auto list = [&](const char *name, ArrayRef<int64_t> values, int64_t fill) {
    if (llvm::all_of(values, [&](int64_t v) { return v == fill; }))
      return;
    os << ' ' << name << " [";
    llvm::interleaveComma(values, os);
    os << ']';
  };
  os << " view";
  list("pad_low", operand.PadLow, 0);
  list("pad_high", operand.PadHigh, 0);
  list("dilation", operand.Dilation, 1);
}

} // namespace

void raf::tcg::printAccessExpr(AffineExpr expr,
                               ArrayRef<embed::Iterator> iterators,
                               llvm::raw_ostream &os) {
  printAccess(expr, iterators, os);
}

void raf::tcg::printTensorExpression(const embed::TensorExpression &expr,
                                     llvm::raw_ostream &os) {
  os << (expr.Name.empty() ? "<unnamed>" : expr.Name) << ": ";
  printRead(expr.Output, expr.Iterators, os);
  os << " = ";
  if (expr.Reduction) {
    os << embed::stringifyScalarOp(*expr.Reduction) << "_{";
    llvm::interleaveComma(ArrayRef<embed::Iterator>(expr.Iterators)
                              .drop_front(expr.getNumParallel()),
                          os,
                          [&](const embed::Iterator &it) { os << it.Name; });
    os << "} ";
  }
  printNode(expr, expr.Body.size() - 1,
            /*outermost=*/!expr.Reduction.has_value(), os);
  os << '\n';
  for (const embed::Iterator &it : expr.Iterators) {
    os << "  " << it.Name << ": [0, " << it.Extent << ')';
    if (it.IsReduction)
      os << " reduction";
    if (!it.StrictAxis.empty())
      os << " gemm " << it.StrictAxis;
    os << '\n';
  }
  // One line per distinct operand (a tensor read twice is listed once).
  llvm::SmallVector<const embed::Operand *> listed;
  for (const embed::Operand &input : expr.Inputs) {
    if (llvm::any_of(listed, [&](const embed::Operand *other) {
          return other->Name == input.Name && other->PadLow == input.PadLow &&
                 other->PadHigh == input.PadHigh &&
                 other->Dilation == input.Dilation;
        }))
      continue;
    listed.push_back(&input);
    printOperandLine(input, os);
    os << '\n';
  }
  printOperandLine(expr.Output, os);
  os << '\n';
}
