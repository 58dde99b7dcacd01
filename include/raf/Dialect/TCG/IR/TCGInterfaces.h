//===- TCGInterfaces.h - tcg op interfaces ----------------------*- C++ -*-===//
//
// tcg::TensorExprOpInterface (TCGInterfaces.td): operations of any dialect
// as tensor expressions.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_IR_TCGINTERFACES_H
#define RAF_DIALECT_TCG_IR_TCGINTERFACES_H

#include "raf/Embedding/TensorExpression.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace raf::tcg {

/// An operation's tensor expression and what it reads.
struct TensorExprForm {
  embed::TensorExpression expr;
  /// expr.Inputs[i] reads inputs[i]; its Shape and ElementType are that
  /// value's (a view, e.g. the zero padding of a folded tensor.pad, is in
  /// the input's PadLow / PadHigh / Dilation).
  llvm::SmallVector<mlir::Value, 2> inputs;
  /// When set, the operation's result is `init + expr` (linalg accumulates
  /// into its output operand); convertToKernel adds it unless it is known to
  /// be zero.
  mlir::Value init;
};

/// Attaches TensorExprOpInterface to linalg's conv_2d_nchw_fchw,
/// conv_2d_nhwc_hwcf, depthwise_conv_2d_nchw_chw, depthwise_conv_2d_nhwc_hwc,
/// matmul, batch_matmul and generic (lib/Dialect/TCG/IR/
/// LinalgTensorExprModels.cpp).
void registerLinalgTensorExprModels(mlir::DialectRegistry &registry);

/// An emitError for getTensorExprForm that reports nothing.
inline mlir::InFlightDiagnostic silentDiagnostic() { return {}; }

} // namespace raf::tcg

#include "raf/Dialect/TCG/IR/TCGInterfaces.h.inc"

#endif // RAF_DIALECT_TCG_IR_TCGINTERFACES_H
