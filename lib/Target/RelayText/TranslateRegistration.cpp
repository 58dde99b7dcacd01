//===- TranslateRegistration.cpp - --import-relay / --export-relay --------===//

#include "raf/Target/RelayText/RelayText.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"

void raf::registerRelayTextTranslations() {
  mlir::TranslateToMLIRRegistration importRelay(
      "import-relay", "Translate TVM Relay text to the relay dialect",
      [](llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context) {
        return mlir::OwningOpRef<mlir::Operation *>(
            importRelayText(sourceMgr, context).release());
      },
      [](mlir::DialectRegistry &registry) {
        registry.insert<mlir::func::FuncDialect, raf::relay::RelayDialect>();
      });
  mlir::TranslateFromMLIRRegistration exportRelay(
      "export-relay", "Translate the relay dialect to TVM Relay text",
      [](mlir::Operation *op, llvm::raw_ostream &output) {
        auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
        if (!module)
          return mlir::LogicalResult(
              op->emitError("expected a builtin.module"));
        return exportRelayText(module, output);
      },
      [](mlir::DialectRegistry &registry) {
        registry.insert<mlir::func::FuncDialect, raf::relay::RelayDialect>();
      });
}
