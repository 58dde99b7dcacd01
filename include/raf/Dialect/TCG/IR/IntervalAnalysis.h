//===- IntervalAnalysis.h - ranges of access expressions --------*- C++ -*-===//
//
// The interval analysis of Rieber 2022, §3.1.1: the range of indices an
// access expression reaches when every iterator ranges over its interval.
// Each iterator contributes its whole interval and the arithmetic is
// evaluated on intervals, which is exact for the sums of scaled iterators
// that convolutions and matrix products use and over-approximates otherwise
// (e.g. `d0 - d0`, or `mod` over a range that wraps).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_IR_INTERVALANALYSIS_H
#define RAF_DIALECT_TCG_IR_INTERVALANALYSIS_H

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace raf::tcg {

/// The closed integer interval [lo, hi].
struct Interval {
  int64_t lo = 0;
  int64_t hi = 0;
};

/// Whether `expr` is quasi-affine over dimensions only: dimensions and
/// constants combined by +, products with a constant, and floordiv, ceildiv
/// and mod by a positive constant. Symbols are not allowed.
bool isQuasiAffine(mlir::AffineExpr expr);

/// The range of `expr` when dimension `i` ranges over `dims[i]`. Returns
/// std::nullopt when `expr` is not quasi-affine, uses a dimension beyond
/// `dims`, or a bound overflows int64_t.
std::optional<Interval> evaluateInterval(mlir::AffineExpr expr,
                                         llvm::ArrayRef<Interval> dims);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_IR_INTERVALANALYSIS_H
