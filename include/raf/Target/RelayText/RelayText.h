//===- RelayText.h - TVM Relay text format import and export ----*- C++ -*-===//
//
// Reads the text TVM prints for a Relay IRModule (`def @main(...) {...}` and
// the `#[metadata]` section) into a relay-dialect module, and prints a
// relay-dialect module back in that form. See docs/relay-text.md.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_RELAYTEXT_RELAYTEXT_H
#define RAF_TARGET_RELAYTEXT_RELAYTEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace raf {

/// Parses the main buffer of `sourceMgr`. Every error is emitted as a
/// diagnostic located in that buffer and yields a null module.
mlir::OwningOpRef<mlir::ModuleOp> importRelayText(llvm::SourceMgr &sourceMgr,
                                                  mlir::MLIRContext *context);

/// Prints `module` as Relay text. Constructs without a Relay text form are
/// diagnosed at their location and make the export fail.
mlir::LogicalResult exportRelayText(mlir::ModuleOp module,
                                    llvm::raw_ostream &os);

/// Registers `--import-relay` and `--export-relay` with mlir-translate.
void registerRelayTextTranslations();

} // namespace raf

#endif // RAF_TARGET_RELAYTEXT_RELAYTEXT_H
