//===- TensorExprModels.cpp - relay ops as tcg tensor expressions --------===//

#include "raf/Conversion/RelayToTCG/TensorExprModels.h"

#include "OperatorExprs.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/TCG/IR/TCGInterfaces.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace raf;

namespace {

/// Whether `type` is a scalar type tcg computes on.
bool isTCGScalar(Type type) {
  return type.isSignlessInteger() || isa<FloatType>(type);
}

/// The checks every covered operator needs before its expression is built:
/// static, non-empty operands (relay then infers a static, non-empty
/// result) and element types a tcg.compute accepts (inputs widen to the
/// result's element type).
LogicalResult checkTypes(Operation *op,
                         function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&]() -> InFlightDiagnostic {
    return std::move(emitError() << "cannot be expressed as a tcg.kernel: ");
  };
  Type resultElement =
      cast<ShapedType>(op->getResult(0).getType()).getElementType();
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    if (!tensor.hasStaticShape())
      return fail() << "operand #" << index << " has a dynamic shape (" << type
                    << ")";
    // An empty operand leaves an empty iteration domain (and relay's shape
    // functions give a non-empty result only for non-empty operands).
    if (tensor.getNumElements() == 0)
      return fail() << "operand #" << index << " is empty (" << type << ")";
    Type element = tensor.getElementType();
    if (!isTCGScalar(element))
      return fail() << "operand #" << index << " has element type " << element
                    << "; tcg computes on signless integers and floats";
    if (element != resultElement &&
        (isa<IntegerType>(element) != isa<IntegerType>(resultElement) ||
         element.getIntOrFloatBitWidth() >=
             resultElement.getIntOrFloatBitWidth()))
      return fail() << "the result element type " << resultElement
                    << " is not a widening of the operands' " << element;
  }
  return success();
}

/// tcg::TensorExprOpInterface for a relay operator whose expression
/// relay_to_tcg::getOperatorExpr computes.
template <typename OpT>
struct TensorExprModel
    : public tcg::TensorExprOpInterface::ExternalModel<TensorExprModel<OpT>,
                                                       OpT> {
  FailureOr<tcg::TensorExprForm>
  getTensorExprForm(Operation *op,
                    function_ref<InFlightDiagnostic()> emitError) const {
    if (failed(checkTypes(op, emitError)))
      return failure();
    relay_to_tcg::OperatorExpr expr =
        relay_to_tcg::getOperatorExpr(cast<OpT>(op));
    tcg::TensorExprForm form;
    form.expr = std::move(expr.expr);
    for (unsigned operand : expr.inputOperands)
      form.inputs.push_back(op->getOperand(operand));
    return form;
  }
};

} // namespace

void raf::relay::registerTensorExprModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, RelayDialect *) {
    Conv2DOp::attachInterface<TensorExprModel<Conv2DOp>>(*context);
    Conv2DTransposeOp::attachInterface<TensorExprModel<Conv2DTransposeOp>>(
        *context);
    DenseOp::attachInterface<TensorExprModel<DenseOp>>(*context);
    MatmulOp::attachInterface<TensorExprModel<MatmulOp>>(*context);
    BatchMatmulOp::attachInterface<TensorExprModel<BatchMatmulOp>>(*context);
  });
}
