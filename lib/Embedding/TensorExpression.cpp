//===- TensorExpression.cpp - Operators as tensor expressions -------------===//

#include "raf/Embedding/TensorExpression.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace raf::embed;

int64_t Operand::getViewExtent(unsigned I) const {
  int64_t Lo = PadLow.empty() ? 0 : PadLow[I];
  int64_t Hi = PadHigh.empty() ? 0 : PadHigh[I];
  int64_t Dil = Dilation.empty() ? 1 : Dilation[I];
  return Lo + (Shape[I] - 1) * Dil + 1 + Hi;
}

llvm::SmallVector<int64_t> Operand::getViewShape() const {
  llvm::SmallVector<int64_t> View;
  for (unsigned I = 0, E = Shape.size(); I != E; ++I)
    View.push_back(getViewExtent(I));
  return View;
}

bool Operand::hasView() const {
  for (unsigned I = 0, E = Shape.size(); I != E; ++I)
    if (getViewExtent(I) != Shape[I])
      return true;
  return false;
}

llvm::StringRef raf::embed::stringifyScalarOp(ScalarOp Op) {
  switch (Op) {
  case ScalarOp::Add:
    return "add";
  case ScalarOp::Sub:
    return "sub";
  case ScalarOp::Mul:
    return "mul";
  case ScalarOp::Max:
    return "max";
  case ScalarOp::Min:
    return "min";
  case ScalarOp::Div:
    return "div";
  case ScalarOp::Exp:
    return "exp";
  }
  return "";
}

bool raf::embed::isUnaryScalarOp(ScalarOp Op) { return Op == ScalarOp::Exp; }

bool raf::embed::isReductionScalarOp(ScalarOp Op) {
  return Op == ScalarOp::Add || Op == ScalarOp::Mul || Op == ScalarOp::Max ||
         Op == ScalarOp::Min;
}

std::optional<ScalarOp> raf::embed::symbolizeScalarOp(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ScalarOp>>(Name)
      .Case("add", ScalarOp::Add)
      .Case("sub", ScalarOp::Sub)
      .Case("mul", ScalarOp::Mul)
      .Case("max", ScalarOp::Max)
      .Case("min", ScalarOp::Min)
      .Case("div", ScalarOp::Div)
      .Case("exp", ScalarOp::Exp)
      .Default(std::nullopt);
}

unsigned TensorExpression::getNumParallel() const {
  unsigned N = 0;
  while (N < Iterators.size() && !Iterators[N].IsReduction)
    ++N;
  return N;
}

uint64_t TensorExpression::getNumInstances() const {
  uint64_t N = 1;
  for (const Iterator &It : Iterators)
    N *= static_cast<uint64_t>(It.Extent);
  return N;
}

/// Whether E is built from dimensions and constants with +, * by a constant,
/// and floordiv, ceildiv, mod by a positive constant.
static bool isQuasiAffine(mlir::AffineExpr E) {
  if (llvm::isa<mlir::AffineDimExpr, mlir::AffineConstantExpr>(E))
    return true;
  auto Bin = llvm::dyn_cast<mlir::AffineBinaryOpExpr>(E);
  if (!Bin)
    return false;
  if (!isQuasiAffine(Bin.getLHS()) || !isQuasiAffine(Bin.getRHS()))
    return false;
  auto RhsConst = llvm::dyn_cast<mlir::AffineConstantExpr>(Bin.getRHS());
  switch (E.getKind()) {
  case mlir::AffineExprKind::Add:
    return true;
  case mlir::AffineExprKind::Mul:
    return RhsConst || llvm::isa<mlir::AffineConstantExpr>(Bin.getLHS());
  default:
    return RhsConst && RhsConst.getValue() > 0;
  }
}

static bool checkOperand(const Operand &Op, unsigned NumIters,
                         std::string &Error) {
  llvm::raw_string_ostream OS(Error);
  if (!Op.Access) {
    OS << "operand '" << Op.Name << "' has no access map";
    return false;
  }
  if (Op.Access.getNumDims() != NumIters || Op.Access.getNumSymbols() != 0) {
    OS << "access map of operand '" << Op.Name << "' must have " << NumIters
       << " dimensions (one per iterator) and no symbols";
    return false;
  }
  if (Op.Access.getNumResults() != Op.Shape.size()) {
    OS << "access map of operand '" << Op.Name << "' has "
       << Op.Access.getNumResults() << " results for a rank-" << Op.Shape.size()
       << " operand";
    return false;
  }
  for (int64_t D : Op.Shape)
    if (D <= 0) {
      OS << "operand '" << Op.Name << "' has a non-positive dimension";
      return false;
    }
  auto CheckList = [&](const llvm::SmallVector<int64_t> &L, const char *What,
                       int64_t Min) {
    if (L.empty())
      return true;
    if (L.size() != Op.Shape.size()) {
      OS << What << " of operand '" << Op.Name << "' needs one value per "
         << "dimension";
      return false;
    }
    for (int64_t V : L)
      if (V < Min) {
        OS << What << " of operand '" << Op.Name << "' must be >= " << Min;
        return false;
      }
    return true;
  };
  if (!CheckList(Op.PadLow, "low padding", 0) ||
      !CheckList(Op.PadHigh, "high padding", 0) ||
      !CheckList(Op.Dilation, "dilation", 1))
    return false;
  for (mlir::AffineExpr E : Op.Access.getResults())
    if (!isQuasiAffine(E)) {
      OS << "access of operand '" << Op.Name
         << "' is not quasi-affine (products and divisions need constants)";
      return false;
    }
  return true;
}

bool TensorExpression::verify(std::string &Error) const {
  llvm::raw_string_ostream OS(Error);
  if (Iterators.empty()) {
    OS << "no iterators";
    return false;
  }
  unsigned NumParallel = getNumParallel();
  for (unsigned I = 0, E = Iterators.size(); I != E; ++I) {
    const Iterator &It = Iterators[I];
    if (It.Extent <= 0) {
      OS << "iterator '" << It.Name << "' has a non-positive extent";
      return false;
    }
    if (I >= NumParallel && !It.IsReduction) {
      OS << "parallel iterator '" << It.Name
         << "' follows a reduction iterator";
      return false;
    }
  }
  if ((NumParallel != Iterators.size()) != Reduction.has_value()) {
    OS << (Reduction ? "a reduction operation without reduction iterators"
                     : "reduction iterators without a reduction operation");
    return false;
  }
  if (Reduction && !isReductionScalarOp(*Reduction)) {
    OS << "'" << stringifyScalarOp(*Reduction)
       << "' is not a reduction operation";
    return false;
  }
  unsigned NumIters = Iterators.size();
  for (const Operand &In : Inputs)
    if (!checkOperand(In, NumIters, Error))
      return false;
  if (!checkOperand(Output, NumIters, Error))
    return false;
  if (Output.hasView()) {
    OS << "the output cannot be padded or dilated";
    return false;
  }
  if (Output.Shape.size() != NumParallel) {
    OS << "the output has rank " << Output.Shape.size() << " but there are "
       << NumParallel << " parallel iterators";
    return false;
  }
  for (unsigned I = 0; I != NumParallel; ++I)
    if (Output.Access.getResult(I) !=
            mlir::getAffineDimExpr(I, Output.Access.getContext()) ||
        Output.Shape[I] != Iterators[I].Extent) {
      OS << "output dimension " << I
         << " must be indexed by parallel iterator '" << Iterators[I].Name
         << "' over its whole extent";
      return false;
    }
  if (Body.empty()) {
    OS << "empty body";
    return false;
  }
  for (unsigned I = 0, E = Body.size(); I != E; ++I) {
    const ScalarNode &N = Body[I];
    if (N.IsInput ? N.Input >= Inputs.size() : (N.Lhs >= I || N.Rhs >= I)) {
      OS << "body node " << I << " refers to "
         << (N.IsInput ? "a missing operand" : "a later node");
      return false;
    }
    if (!N.IsInput && isUnaryScalarOp(N.Op) && N.Rhs != N.Lhs) {
      OS << "unary body node " << I << " has a second operand";
      return false;
    }
  }
  return true;
}

void TensorExpression::setMultiplyAccumulateBody() {
  ScalarNode Lhs, Rhs, Product;
  Lhs.Input = 0;
  Rhs.Input = 1;
  Product.IsInput = false;
  Product.Op = ScalarOp::Mul;
  Product.Lhs = 0;
  Product.Rhs = 1;
  Body = {Lhs, Rhs, Product};
  Reduction.reset();
  if (getNumReduction() != 0)
    Reduction = ScalarOp::Add;
}
