//===- TensorExpr.h - tcg kernels <-> tensor expressions --------*- C++ -*-===//
//
// The two directions between a tcg.kernel and the plain description the
// dataflow embedding reads (raf::embed::TensorExpression):
//
// * extractTensorExpr reads a kernel. Parallel iterators are the tensor nest
//   in order, then come the reductions in nesting order; there is one
//   operand per tcg.input (a tensor read twice with different accesses is
//   two operands of the same name), in the order the body uses them; the
//   body's nodes follow the tcg.compute DAG; Iterator::StrictAxis is the
//   `gemm_axis` attribute.
// * buildKernel builds the kernel of an expression, which is how operators
//   (tcg::TensorExprOpInterface, raf/Dialect/TCG/Utils/ConvertToKernel.h)
//   become tcg.
//
// Extracting a built kernel gives back the expression.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_UTILS_TENSOREXPR_H
#define RAF_DIALECT_TCG_UTILS_TENSOREXPR_H

#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Embedding/TensorExpression.h"

#include "mlir/IR/Builders.h"

namespace raf::tcg {

/// The tensor expression of `kernel`. Fails with an error located at the
/// offending op when the kernel does not fit the struct: a sequence of
/// several computations, a reduction combined with other values, or nested
/// reductions of different kinds. Operands are named after the kernel's
/// `arg_names` and `result_name` ("in<i>" and "out" without them), iterators
/// after their `name` ("d<i>" for parallel and "r<i>" for reduction
/// iterators without one). When `inputOperands` is given, it receives per
/// input the index of the kernel operand it reads (buildKernel's argument).
llvm::FailureOr<embed::TensorExpression>
extractTensorExpr(KernelOp kernel,
                  llvm::SmallVectorImpl<unsigned> *inputOperands = nullptr);

/// Builds at `builder`'s insertion point the tcg.kernel that computes
/// `expr` from `operands`: expr.Inputs[i] reads operands[inputOperands[i]],
/// whose shape and element type must be the input's. Element-wise
/// operations and reductions compute in the output's element type, into
/// which narrower inputs are widened (an i8 x i8 -> i32 accumulation).
/// The kernel is named expr.Name (when not empty) and its operands after the
/// first input that reads each. Fails with an error at `loc` when `expr`
/// does not verify or its types cannot be expressed that way.
llvm::FailureOr<KernelOp> buildKernel(mlir::OpBuilder &builder,
                                      mlir::Location loc,
                                      const embed::TensorExpression &expr,
                                      mlir::ValueRange operands,
                                      llvm::ArrayRef<unsigned> inputOperands);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_UTILS_TENSOREXPR_H
