//===- TCGInterfaces.td - tcg op interfaces ----------------*- tablegen -*-===//
//
// The interface through which operations of any dialect (relay operators,
// linalg convolutions and matrix products, a frontend's own ops) describe
// themselves as a tensor expression (Rieber 2022, §3.1, Eq. 2.6), so that
// they become tcg.kernels and reach both embedding methods.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_IR_TCGINTERFACES_TD
#define RAF_DIALECT_TCG_IR_TCGINTERFACES_TD

include "mlir/IR/OpBase.td"

def TCG_TensorExprOpInterface : OpInterface<"TensorExprOpInterface"> {
  let cppNamespace = "::raf::tcg";
  let description = [{
    An operation with one ranked tensor result that computes a tensor
    expression `out[p] = reduce_r body(in_0[f_0(p, r)], ...)`: it returns
    the expression (`raf::embed::TensorExpression`: iterators with names and
    TVM's GEMM axes, accesses, operand views, the scalar body and the
    reduction) together with the values its inputs read, and optionally a
    tensor the result accumulates onto (linalg's output operand).
    `raf::tcg::convertToKernel` builds the equivalent `tcg.kernel`, which
    `--convert-relay-to-tcg`, `--convert-linalg-to-tcg` and
    `--tcg-dataflow-embed` use.

    Models: relay's `nn.conv2d`, `nn.conv2d_transpose`, `nn.dense`,
    `nn.matmul`, `nn.batch_matmul` (`raf::relay::registerTensorExprModels`)
    and linalg's named convolutions, matmuls and multiply-accumulate
    `linalg.generic`s (`raf::tcg::registerLinalgTensorExprModels`).
  }];
  let methods = [
    InterfaceMethod<[{
        Whether the operation is of the kind the model describes at all (a
        `linalg.generic` whose body is not a multiply-accumulate is not).
        Callers skip other operations without a diagnostic.
      }],
      "bool", "isTensorExprCandidate", (ins), [{}], [{ return true; }]>,
    InterfaceMethod<[{
        The tensor-expression form of the operation. On failure (dynamic
        shapes, unsupported element types, a body that is not a tensor
        expression) reports why through `emitError`, whose severity the
        caller chooses, and returns failure.
      }],
      "::mlir::FailureOr<::raf::tcg::TensorExprForm>", "getTensorExprForm",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError)>
  ];
}

#endif // RAF_DIALECT_TCG_IR_TCGINTERFACES_TD
