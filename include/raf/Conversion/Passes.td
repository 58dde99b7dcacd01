//===- Passes.td - conversions between RAF and upstream dialects -*- tablegen -*-===//

#ifndef RAF_CONVERSION_PASSES_TD
#define RAF_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertRelayToLinalg : Pass<"convert-relay-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower relay operators to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every relay operator into upstream ops on tensors: named
    `linalg` ops where one exists (matmul, batch_matmul, conv_2d_nchw_fchw,
    pooling, ...), `linalg.generic` otherwise, plus `tensor`, `arith` and
    `math`. Structural relay ops (closures, references, `relay.if`, tuples)
    are not lowered; a function that still contains a relay op after the
    conversion gets a diagnostic naming the op.

    ```
    raf-opt --convert-relay-to-linalg model.mlir
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect"
  ];
}

#endif // RAF_CONVERSION_PASSES_TD
