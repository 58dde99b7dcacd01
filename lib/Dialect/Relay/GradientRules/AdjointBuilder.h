//===- AdjointBuilder.h - shared pieces of the gradient rules ---*- C++ -*-===//
//
// Every rule is a function `adjoint(OpT, AdjointBuilder &)` that reads the
// result gradients and writes one gradient (or null) per operand. The
// builder wraps the relay operator builders the rules compose: adjoints are
// ordinary relay operators, so they fuse, lower and run like forward code
// (RAF's "operator composition", RAF paper §3.1.1).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_DIALECT_RELAY_GRADIENTRULES_ADJOINTBUILDER_H
#define RAF_LIB_DIALECT_RELAY_GRADIENTRULES_ADJOINTBUILDER_H

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace raf::relay::grad {

/// The differentiable operators, one X(OpClass) per operator with a rule.
#define RAF_RELAY_DIFFERENTIABLE_OPS(X)                                        \
  /* element-wise */                                                           \
  X(ReluOp)                                                                    \
  X(LeakyReluOp)                                                               \
  X(SigmoidOp)                                                                 \
  X(TanhOp) X(ExpOp) X(LogOp) X(SqrtOp) X(RsqrtOp) X(ErfOp) X(GeluOp)          \
      X(NegativeOp) X(SquareOp) X(DropoutOp) X(ZerosLikeOp) X(OnesLikeOp)      \
          X(CastOp) /* broadcasting */                                         \
      X(AddOp) X(SubtractOp) X(MultiplyOp) X(DivideOp) X(PowerOp) X(MaximumOp) \
          X(MinimumOp) X(WhereOp) X(BiasAddOp) /* linear algebra */            \
      X(DenseOp) X(MatmulOp) X(BatchMatmulOp) X(Conv2DOp)                      \
          X(Conv2DTransposeOp) /* normalisation and losses */                  \
      X(SoftmaxOp) X(LogSoftmaxOp) X(LayerNormOp) X(BatchNormOp)               \
          X(CrossEntropyOp) X(NLLLossOp) /* pooling and reductions */          \
      X(MaxPool2DOp) X(AvgPool2DOp) X(GlobalAvgPool2DOp) X(SumOp) X(MeanOp)    \
          X(MaxOp) /* shape */                                                 \
      X(ReshapeOp) X(TransposeOp) X(ExpandDimsOp) X(SqueezeOp)                 \
          X(ConcatenateOp) X(SplitOp) X(StridedSliceOp) X(TakeOp) X(PadOp)     \
              X(BroadcastToOp)

/// What a rule works with. `resultGradient(i)` is never null: a result no
/// gradient reached reads as zeros. Rules assign `operandGradients[i]` for
/// float operands that receive a gradient and leave the rest null.
class AdjointBuilder {
public:
  AdjointBuilder(mlir::OpBuilder &builder, mlir::Operation *op,
                 mlir::ValueRange resultGradients,
                 llvm::SmallVectorImpl<mlir::Value> &operandGradients);

  mlir::OpBuilder &builder() { return b; }
  mlir::Location getLoc() const { return loc; }

  mlir::Value resultGradient(unsigned index);
  /// Whether a gradient reached result `index` (resultGradient would
  /// otherwise build zeros).
  bool hasResultGradient(unsigned index) const;
  /// Sets the gradient of operand `index` when it is a float tensor.
  void setOperandGradient(unsigned index, mlir::Value gradient);
  /// Whether operand `index` is a float tensor (the only kind with a
  /// gradient).
  bool wantsGradient(unsigned index) const;

  // Constants and fills.
  mlir::Value scalar(double value, mlir::Type elementType);
  mlir::Value scalarLike(double value, mlir::Value like);
  mlir::Value zeros(mlir::Type tensorType);
  /// A constant tensor holding `values` with `shape`, element `elementType`
  /// (integer or float).
  mlir::Value constant(llvm::ArrayRef<int64_t> values,
                       llvm::ArrayRef<int64_t> shape, mlir::Type elementType);

  // Arithmetic with NumPy broadcasting.
  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value div(mlir::Value a, mlir::Value b);
  mlir::Value neg(mlir::Value a);
  mlir::Value scale(mlir::Value a, double factor);
  mlir::Value cast(mlir::Value a, mlir::Type elementType);
  /// where(condition, a, b) with broadcasting.
  mlir::Value select(mlir::Value condition, mlir::Value a, mlir::Value b);

  // Shapes.
  mlir::Value reshape(mlir::Value a, llvm::ArrayRef<int64_t> shape);
  mlir::Value transpose(mlir::Value a, llvm::ArrayRef<int64_t> permutation);
  mlir::Value broadcastTo(mlir::Value a, llvm::ArrayRef<int64_t> shape);
  /// Sums over `axes`, keeping them as size-1 dimensions when `keepdims`.
  mlir::Value sum(mlir::Value a, llvm::ArrayRef<int64_t> axes, bool keepdims);
  mlir::Value mean(mlir::Value a, llvm::ArrayRef<int64_t> axes, bool keepdims);
  /// Reduces a broadcast result gradient back to the shape of `like`
  /// (RAF's collapse_sum_like).
  mlir::Value collapseSumLike(mlir::Value gradient, mlir::Type like);
  mlir::Value slice(mlir::Value a, llvm::ArrayRef<int64_t> begin,
                    llvm::ArrayRef<int64_t> end,
                    llvm::ArrayRef<int64_t> strides,
                    llvm::ArrayRef<int64_t> axes);
  /// Zero padding with `padWidth` = before, after per axis.
  mlir::Value pad(mlir::Value a, llvm::ArrayRef<int64_t> padWidth);
  /// Reverses `a` along `axis`.
  mlir::Value reverse(mlir::Value a, int64_t axis);

  /// Emits an error at the differentiated operator.
  mlir::InFlightDiagnostic emitError();
  /// Fails with an error at the differentiated operator unless `value`'s
  /// shape is static: the rules that spread a gradient over a shape (sums,
  /// one-hot scatters, per-channel counts) need every extent.
  mlir::LogicalResult requireStaticShape(mlir::Value value);

private:
  mlir::OpBuilder &b;
  mlir::Operation *op;
  mlir::Location loc;
  llvm::SmallVector<mlir::Value> resultGradients;
  llvm::SmallVectorImpl<mlir::Value> &operandGradients;
};

mlir::RankedTensorType tensorType(mlir::Value value);
llvm::SmallVector<int64_t> iota(int64_t count, int64_t start = 0);
/// Product of `dims` (1 for none).
int64_t product(llvm::ArrayRef<int64_t> dims);
llvm::SmallVector<int64_t> inversePermutation(llvm::ArrayRef<int64_t> perm);
/// 0..rank-1 without `axis`.
llvm::SmallVector<int64_t> allAxesBut(int64_t axis, int64_t rank);

#define RAF_DECLARE_ADJOINT(OpClass)                                           \
  llvm::LogicalResult adjoint(OpClass op, AdjointBuilder &ad);
RAF_RELAY_DIFFERENTIABLE_OPS(RAF_DECLARE_ADJOINT)
#undef RAF_DECLARE_ADJOINT

} // namespace raf::relay::grad

#endif // RAF_LIB_DIALECT_RELAY_GRADIENTRULES_ADJOINTBUILDER_H
