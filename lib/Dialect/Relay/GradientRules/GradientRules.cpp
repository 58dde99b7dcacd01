//===- GradientRules.cpp - attaching the rules to the operators -----------===//

#include "raf/Dialect/Relay/GradientRules/GradientRules.h"

#include "AdjointBuilder.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace raf::relay;

namespace {

template <typename OpT>
struct GradientRule
    : public GradientOpInterface::ExternalModel<GradientRule<OpT>, OpT> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &builder,
                             ValueRange resultGradients,
                             SmallVectorImpl<Value> &operandGradients) const {
    grad::AdjointBuilder ad(builder, op, resultGradients, operandGradients);
    return grad::adjoint(cast<OpT>(op), ad);
  }
};

} // namespace

void raf::relay::registerGradientRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, RelayDialect *) {
#define RAF_ATTACH_RULE(OpClass)                                               \
  OpClass::attachInterface<GradientRule<OpClass>>(*context);
    RAF_RELAY_DIFFERENTIABLE_OPS(RAF_ATTACH_RULE)
#undef RAF_ATTACH_RULE
  });
}
