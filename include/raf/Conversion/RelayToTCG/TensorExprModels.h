//===- TensorExprModels.h - relay operators as tcg -------------*- C++ -*-===//
//
// The tensor-expression form of relay operators (tcg's
// TensorExprOpInterface), attached as external models by the passes that
// need it (--convert-relay-to-tcg). Covered: nn.conv2d (any data and kernel
// layout, strides, padding, dilation, groups, depthwise), nn.conv2d_transpose,
// nn.dense, nn.matmul and nn.batch_matmul. Each builds a tcg.kernel named
// after the operator (e.g. "nn.conv2d") with TVM's iterator names and the
// GEMM axes of TVM's VTA strategy; docs/tcg.md lists them.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_CONVERSION_RELAYTOTCG_TENSOREXPRMODELS_H
#define RAF_CONVERSION_RELAYTOTCG_TENSOREXPRMODELS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace raf::relay {

/// Attaches tcg::TensorExprOpInterface to the operators listed above.
void registerTensorExprModels(mlir::DialectRegistry &registry);

} // namespace raf::relay

#endif // RAF_CONVERSION_RELAYTOTCG_TENSOREXPRMODELS_H
