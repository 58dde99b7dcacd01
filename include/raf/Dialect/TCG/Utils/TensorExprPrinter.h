//===- TensorExprPrinter.h - tensor expressions as text ---------*- C++ -*-===//
//
// A readable form of raf::embed::TensorExpression, for reports, tests and
// users reading the intrinsic library:
//
//   vta.gemm.1x16x16: c[x, y] = add_{z} (a[x, z] * b[y, z])
//     x: [0, 1) gemm x
//     y: [0, 16) gemm y
//     z: [0, 16) reduction gemm z
//     a: tensor<1x16xi8>
//     b: tensor<16x16xi8>
//     c: tensor<1x16xi32>
//
// Accesses use the iterator names; an operand read through a view lists
// its padding and dilation.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_UTILS_TENSOREXPRPRINTER_H
#define RAF_DIALECT_TCG_UTILS_TENSOREXPRPRINTER_H

#include "raf/Embedding/TensorExpression.h"

#include "llvm/Support/raw_ostream.h"

namespace raf::tcg {

void printTensorExpression(const embed::TensorExpression &expr,
                           llvm::raw_ostream &os);

/// Prints one access expression with `iterators`' names for its dimensions
/// (`oh * 2 + kh`, `2 - kh`, `(oc floordiv 3) * 2 + ic`).
void printAccessExpr(mlir::AffineExpr expr,
                     llvm::ArrayRef<embed::Iterator> iterators,
                     llvm::raw_ostream &os);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_UTILS_TENSOREXPRPRINTER_H
