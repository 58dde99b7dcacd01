//===- ConvertToKernel.h - ops with a tensor expression -> tcg --*- C++ -*-===//
//
// Replaces operations that implement tcg::TensorExprOpInterface by the
// tcg.kernel of their tensor expression: the driver of
// --convert-relay-to-tcg, --convert-linalg-to-tcg and of the conversion
// --tcg-dataflow-embed does first.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_UTILS_CONVERTTOKERNEL_H
#define RAF_DIALECT_TCG_UTILS_CONVERTTOKERNEL_H

#include "raf/Dialect/TCG/IR/TCGInterfaces.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace raf::tcg {

/// Builds, before `op`, the value `op` computes: the tcg.kernel of its
/// tensor-expression form, plus (linalg.add) the tensor it accumulates onto
/// unless that is known to be zero (a linalg.fill or a splat constant of
/// zero, or a tensor.empty, whose contents are undefined). Does not replace
/// `op`. Reports through `emitError` (for the form) or as an error at `op`
/// (for the kernel) and fails when there is no form.
llvm::FailureOr<mlir::Value>
buildKernelFor(mlir::OpBuilder &builder, TensorExprOpInterface op,
               llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

struct ConvertToKernelsOptions {
  /// Which candidate operations to convert (all when empty).
  llvm::function_ref<bool(mlir::Operation *)> filter;
  /// Whether an operation that has no form is an error (the conversion then
  /// fails after trying every operation) or a remark (it is left as is).
  bool unsupportedIsError = true;
};

struct ConvertToKernelsResult {
  unsigned converted = 0;
  /// Candidates left as they were (remarks).
  unsigned leftAlone = 0;
};

/// Replaces every operation nested in `root` that implements
/// TensorExprOpInterface, is a candidate (isTensorExprCandidate) and passes
/// the filter by buildKernelFor's value; operands nothing else uses any more
/// and that have no side effects (the folded tensor.pad, the zero fill) are
/// erased. Fails when an operation could not be converted and
/// `unsupportedIsError`.
llvm::FailureOr<ConvertToKernelsResult>
convertToKernels(mlir::Operation *root,
                 const ConvertToKernelsOptions &options = {});

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_UTILS_CONVERTTOKERNEL_H
