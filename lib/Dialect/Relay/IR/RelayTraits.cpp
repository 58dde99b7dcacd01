//===- RelayTraits.cpp - traits of relay ops ------------------------------===//

#include "raf/Dialect/Relay/IR/RelayTraits.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

LogicalResult raf::relay::verifyKnownAttributes(Operation *op) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (!info)
    return success();
  ArrayRef<StringAttr> known = info->getAttributeNames();
  for (NamedAttribute attr : op->getAttrs()) {
    StringRef name = attr.getName().getValue();
    // Dialect-prefixed attributes are annotations owned by other passes.
    if (name.contains('.') || llvm::is_contained(known, attr.getName()))
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "has unknown attribute '" << name << "'";
    if (known.empty()) {
      diag << "; it takes no attributes";
    } else {
      diag << "; expected one of: ";
      llvm::interleaveComma(known, diag,
                            [&](StringAttr k) { diag << k.getValue(); });
    }
    return diag;
  }
  return success();
}
