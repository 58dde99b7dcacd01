//===- Patterns.h - TOSA to relay patterns and helpers ------------*- C++ -*-===//
//
// Internal interface of the --convert-tosa-to-relay pass: one populate
// function per group of TOSA operators, the pre-conversion checks, and the
// helpers the patterns share.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_CONVERSION_TOSATORELAY_PATTERNS_H
#define RAF_LIB_CONVERSION_TOSATORELAY_PATTERNS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace raf::tosa_to_relay {

void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
void populateNNPatterns(mlir::RewritePatternSet &patterns);
void populateReductionPatterns(mlir::RewritePatternSet &patterns);
void populateShapePatterns(mlir::RewritePatternSet &patterns);

/// Reports, with a located error, why `op` (a TOSA op that has a pattern)
/// cannot be converted: element types, zero points, shifts, NaN modes,
/// rounding casts, non-constant shapes.
llvm::LogicalResult checkOperation(mlir::Operation *op);

/// Whether `use` is an operand TOSA passes as a tensor but relay takes as an
/// attribute (zero points, `mul`'s shift, `pad`'s value): such operands are
/// folded into the relay op and leave no relay value behind.
bool isAttributeOperand(mlir::OpOperand &use);

/// The values of a `tosa.const_shape`, or nothing when `shape` has another
/// producer.
std::optional<llvm::SmallVector<int64_t>> getConstantShape(mlir::Value shape);

/// The value of a one-element constant tensor (`tosa.const`), as a double.
std::optional<double> getScalarConstant(mlir::Value value);

/// Whether `value` is a constant tensor whose elements are all zero.
bool isConstantZero(mlir::Value value);

/// Whether `value` is a constant whose elements cannot be read, such as a
/// `dense_resource` blob; the checks name this case instead of reporting the
/// constant as non-constant or non-zero.
bool isUnreadableConstant(mlir::Value value);

/// A rank-0 `relay.constant` of `elementType` holding `value`.
mlir::Value createScalarConstant(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Type elementType, double value);

/// TOSA orders 2-D padding [top, bottom, left, right]; relay (TVM) orders it
/// [top, left, bottom, right].
llvm::SmallVector<int64_t> toRelayPadding(llvm::ArrayRef<int64_t> tosaPad);

} // namespace raf::tosa_to_relay

#endif // RAF_LIB_CONVERSION_TOSATORELAY_PATTERNS_H
