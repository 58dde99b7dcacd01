//===- PartialApplication.h - lambda-lifted closure values ------*- C++ -*-===//
//
// The form --relay-lambda-lift gives a closure that captures values:
//
//   %c = relay.fn(%args...) {
//     %r = func.call @lifted(%captured..., %args...)
//     relay.return %r
//   }
//
// shared by the passes that consume lifted closures (--relay-lambda-lift
// itself for relay.grad operands, --relay-defunctionalize).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_DIALECT_RELAY_TRANSFORMS_PARTIALAPPLICATION_H
#define RAF_LIB_DIALECT_RELAY_TRANSFORMS_PARTIALAPPLICATION_H

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace raf::relay {

/// A closure in the partial-application form of --relay-lambda-lift.
struct PartialApplication {
  mlir::func::FuncOp callee;
  /// The values passed ahead of the closure's own arguments.
  llvm::SmallVector<mlir::Value> captured;
};

/// Recognises `relay.fn(args) { r = func.call @f(captured..., args...);
/// relay.return r }` where the captured values are defined outside the
/// closure and `@f` is a func.func of `symbols`.
std::optional<PartialApplication>
matchPartialApplication(FnOp fn, mlir::SymbolTable &symbols);

} // namespace raf::relay

#endif // RAF_LIB_DIALECT_RELAY_TRANSFORMS_PARTIALAPPLICATION_H
