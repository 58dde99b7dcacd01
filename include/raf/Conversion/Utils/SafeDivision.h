//===- SafeDivision.h - integer division that cannot trap -------*- C++ -*-===//
//
// Signed integer division as the relay and tcg lowerings emit it: x / 0
// gives 0 and INT_MIN / -1 wraps to INT_MIN. Both are undefined behaviour
// in LLVM's sdiv (and in TVM), which on x86 traps with SIGFPE; the reference
// evaluator computes the same values, so both targets agree.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_CONVERSION_UTILS_SAFEDIVISION_H
#define RAF_CONVERSION_UTILS_SAFEDIVISION_H

#include "mlir/IR/Builders.h"

namespace raf {

/// Emits `lhs / rhs` on signless integers (scalars) that cannot trap.
mlir::Value createSafeSignedDivide(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Value lhs, mlir::Value rhs);

} // namespace raf

#endif // RAF_CONVERSION_UTILS_SAFEDIVISION_H
