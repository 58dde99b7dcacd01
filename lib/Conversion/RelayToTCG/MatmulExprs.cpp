//===- MatmulExprs.cpp - matrix products as tensor expressions ------------===//
//
//   nn.dense         out[..., m, n] = add_{k} x[..., m, k] * weight[n, k]
//   nn.matmul        out[m, n] = add_{k} a[m, k] * b[k, n]   (or transposed)
//   nn.batch_matmul  out[batch, m, n] = add_{k} a[batch, m, k] * b[batch, n, k]
//
// The rows of the product map to the GEMM core's x axis, the output features
// to y and the reduced dimension to z, as in TVM's VTA strategy for
// dense-like operators. Batch dimensions (dense's leading axes beyond the
// rows, batch_matmul's batch) get no axis: the strategy keeps them as loops
// around the intrinsic. A batch_matmul operand with batch 1 is broadcast:
// it is read at batch index 0.
//
//===----------------------------------------------------------------------===//

#include "OperatorExprs.h"

#include "mlir/IR/BuiltinTypes.h"

#include <string>

using namespace mlir;
using namespace raf;
using namespace raf::relay_to_tcg;

OperatorExpr raf::relay_to_tcg::getOperatorExpr(relay::DenseOp op) {
  RankedTensorType xType = op.getX().getType();
  RankedTensorType weightType = op.getWeight().getType();
  RankedTensorType resultType = op.getType();
  int64_t rank = xType.getRank();
  ExprBuilder b(op.getContext(), op->getName().stripDialect(), resultType);
  // x's leading axes: batch axes b0, b1, ..., then the rows m.
  SmallVector<AffineExpr> xIndices;
  for (int64_t axis = 0; axis + 1 < rank; ++axis) {
    bool rows = axis + 2 == rank;
    std::string name = rows ? "m" : "b" + std::to_string(axis);
    xIndices.push_back(
        b.addIterator(name, xType.getDimSize(axis), false, rows ? "x" : ""));
  }
  AffineExpr n = b.addIterator("n", weightType.getDimSize(0), false, "y");
  AffineExpr k = b.addIterator("k", weightType.getDimSize(1), true, "z");
  xIndices.push_back(k);
  b.addInput("x", 0, xType, xIndices);
  b.addInput("weight", 1, weightType, {n, k});
  return b.finish();
}

OperatorExpr raf::relay_to_tcg::getOperatorExpr(relay::MatmulOp op) {
  RankedTensorType aType = op.getA().getType();
  RankedTensorType bType = op.getB().getType();
  bool transposeA = op.getTransposeA(), transposeB = op.getTransposeB();
  ExprBuilder b(op.getContext(), op->getName().stripDialect(), op.getType());
  AffineExpr m = b.addIterator("m", op.getType().getDimSize(0), false, "x");
  AffineExpr n = b.addIterator("n", op.getType().getDimSize(1), false, "y");
  AffineExpr k =
      b.addIterator("k", aType.getDimSize(transposeA ? 0 : 1), true, "z");
  b.addInput("a", 0, aType,
             transposeA ? SmallVector<AffineExpr>{k, m}
                        : SmallVector<AffineExpr>{m, k});
  b.addInput("b", 1, bType,
             transposeB ? SmallVector<AffineExpr>{n, k}
                        : SmallVector<AffineExpr>{k, n});
  return b.finish();
}

OperatorExpr raf::relay_to_tcg::getOperatorExpr(relay::BatchMatmulOp op) {
  RankedTensorType aType = op.getA().getType();
  RankedTensorType bType = op.getB().getType();
  RankedTensorType resultType = op.getType();
  bool transposeA = op.getTransposeA(), transposeB = op.getTransposeB();
  ExprBuilder b(op.getContext(), op->getName().stripDialect(), resultType);
  int64_t batch = resultType.getDimSize(0);
  AffineExpr bi = b.addIterator("batch", batch, false);
  AffineExpr m = b.addIterator("m", resultType.getDimSize(1), false, "x");
  AffineExpr n = b.addIterator("n", resultType.getDimSize(2), false, "y");
  AffineExpr k =
      b.addIterator("k", aType.getDimSize(transposeA ? 1 : 2), true, "z");
  AffineExpr zero = getAffineConstantExpr(0, op.getContext());
  auto batchIndex = [&](RankedTensorType type) {
    return type.getDimSize(0) == batch ? bi : zero;
  };
  b.addInput("a", 0, aType,
             transposeA ? SmallVector<AffineExpr>{batchIndex(aType), k, m}
                        : SmallVector<AffineExpr>{batchIndex(aType), m, k});
  b.addInput("b", 1, bType,
             transposeB ? SmallVector<AffineExpr>{batchIndex(bType), n, k}
                        : SmallVector<AffineExpr>{batchIndex(bType), k, n});
  return b.finish();
}
