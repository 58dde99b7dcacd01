//===- RAFPlugin.cpp - RAF-MLIR as a plugin of upstream mlir-opt ----------===//
//
// A shared module that upstream mlir-opt (MLIR 22) loads with
//
//   mlir-opt --load-dialect-plugin=libRAFPlugin.so \
//            --load-pass-plugin=libRAFPlugin.so ...
//
// to read relay, tcg, vta and vta_isa IR and run every RAF-MLIR pass and
// pipeline (docs/ecosystem.md). It links libMLIR.so, the copy of MLIR the
// Debian mlir-opt uses, so dialect, pass and TypeID registries are shared.
//
//===----------------------------------------------------------------------===//

#include "raf/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RAFMLIR", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            raf::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RAFMLIR", LLVM_VERSION_STRING,
          []() { raf::registerAllPasses(); }};
}
