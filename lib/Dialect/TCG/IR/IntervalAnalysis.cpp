//===- IntervalAnalysis.cpp - ranges of access expressions ----------------===//

#include "raf/Dialect/TCG/IR/IntervalAnalysis.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace raf::tcg;

bool raf::tcg::isQuasiAffine(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || !isQuasiAffine(binary.getLHS()) ||
      !isQuasiAffine(binary.getRHS()))
    return false;
  auto rhsConstant = dyn_cast<AffineConstantExpr>(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return true;
  case AffineExprKind::Mul:
    return rhsConstant || isa<AffineConstantExpr>(binary.getLHS());
  default: // floordiv, ceildiv, mod
    return rhsConstant && rhsConstant.getValue() > 0;
  }
}

namespace {

/// Interval arithmetic with overflow detection. Every operation returns
/// std::nullopt when a bound does not fit in int64_t.
std::optional<Interval> add(Interval a, Interval b) {
  int64_t lo, hi;
  if (llvm::AddOverflow(a.lo, b.lo, lo) || llvm::AddOverflow(a.hi, b.hi, hi))
    return std::nullopt;
  return Interval{lo, hi};
}

std::optional<Interval> scale(Interval a, int64_t factor) {
  int64_t x, y;
  if (llvm::MulOverflow(a.lo, factor, x) || llvm::MulOverflow(a.hi, factor, y))
    return std::nullopt;
  return Interval{std::min(x, y), std::max(x, y)};
}

/// Division by a positive constant is monotonic, so the bounds map to the
/// bounds.
Interval floorDiv(Interval a, int64_t d) {
  return {llvm::divideFloorSigned(a.lo, d), llvm::divideFloorSigned(a.hi, d)};
}

Interval ceilDiv(Interval a, int64_t d) {
  return {llvm::divideCeilSigned(a.lo, d), llvm::divideCeilSigned(a.hi, d)};
}

/// x mod d = x - d * floor(x / d): exact when the interval stays within one
/// period, the whole range [0, d) otherwise.
Interval mod(Interval a, int64_t d) {
  if (llvm::divideFloorSigned(a.lo, d) == llvm::divideFloorSigned(a.hi, d))
    return {llvm::mod(a.lo, d), llvm::mod(a.hi, d)};
  return {0, d - 1};
}

} // namespace

std::optional<Interval> raf::tcg::evaluateInterval(AffineExpr expr,
                                                   ArrayRef<Interval> dims) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() >= dims.size())
      return std::nullopt;
    return dims[dim.getPosition()];
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return Interval{constant.getValue(), constant.getValue()};
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || !isQuasiAffine(expr))
    return std::nullopt;
  std::optional<Interval> lhs = evaluateInterval(binary.getLHS(), dims);
  std::optional<Interval> rhs = evaluateInterval(binary.getRHS(), dims);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return add(*lhs, *rhs);
  case AffineExprKind::Mul:
    // One side is a constant (quasi-affine).
    if (isa<AffineConstantExpr>(binary.getRHS()))
      return scale(*lhs, rhs->lo);
    return scale(*rhs, lhs->lo);
  case AffineExprKind::FloorDiv:
    return floorDiv(*lhs, rhs->lo);
  case AffineExprKind::CeilDiv:
    return ceilDiv(*lhs, rhs->lo);
  case AffineExprKind::Mod:
    return mod(*lhs, rhs->lo);
  default:
    return std::nullopt;
  }
}
