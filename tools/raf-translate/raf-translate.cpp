//===- raf-translate.cpp - RAF-MLIR format translator ---------------------===//
//
// Translations between RAF-MLIR modules and other formats: TVM Relay text
// (--import-relay, --export-relay), VTA binaries (--vta-isa-to-bin,
// --bin-to-vta-isa) and the upstream MLIR (LLVM dialect) -> LLVM IR
// translation used by the CPU path.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/Import.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Target/RelayText/RelayText.h"
#include "raf/Target/VTA/BinaryTranslation.h"

namespace {
void registerLLVMTranslations() {
  mlir::TranslateFromMLIRRegistration toLLVM(
      "mlir-to-llvmir", "Translate the LLVM dialect to LLVM IR",
      [](mlir::Operation *op, llvm::raw_ostream &output) {
        llvm::LLVMContext context;
        std::unique_ptr<llvm::Module> module =
            mlir::translateModuleToLLVMIR(op, context);
        if (!module)
          return mlir::failure();
        module->print(output, nullptr);
        return mlir::success();
      },
      [](mlir::DialectRegistry &registry) {
        registry.insert<mlir::DLTIDialect, mlir::func::FuncDialect,
                        raf::relay::RelayDialect>();
        mlir::registerBuiltinDialectTranslation(registry);
        mlir::registerLLVMDialectTranslation(registry);
      });
}
} // namespace

int main(int argc, char **argv) {
  registerLLVMTranslations();
  raf::registerRelayTextTranslations();
  raf::vta::registerVTABinaryTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv, "RAF-MLIR translator: converts between .mlir and other "
                  "formats\n"));
}
