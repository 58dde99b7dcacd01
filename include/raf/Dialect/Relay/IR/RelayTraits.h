//===- RelayTraits.h - traits and resources of relay ops --------*- C++ -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYTRAITS_H
#define RAF_DIALECT_RELAY_IR_RELAYTRAITS_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace raf::relay {

/// The state that reference cells live in.
struct RefResource : public mlir::SideEffects::Resource::Base<RefResource> {
  llvm::StringRef getName() final { return "relay.ref"; }
};

/// Emits an error for every attribute of `op` that its definition does not
/// declare, unless the name is dialect-prefixed (contains a '.').
llvm::LogicalResult verifyKnownAttributes(mlir::Operation *op);

template <typename ConcreteType>
class KnownAttributesOnly
    : public mlir::OpTrait::TraitBase<ConcreteType, KnownAttributesOnly> {
public:
  static llvm::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyKnownAttributes(op);
  }
};

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_IR_RELAYTRAITS_H
