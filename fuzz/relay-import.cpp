//===- relay-import.cpp - fuzz the Relay text importer --------------------===//
//
// Input: Relay text (raf-translate --import-relay). Imports it, verifies the
// module and exports it again (--export-relay), as a round trip would.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "raf/Target/RelayText/RelayText.h"

#include "mlir/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"

using namespace raf::fuzz;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  initializeLimits();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  runOnToolStack([&]() {
    FuzzContext context;
    llvm::SourceMgr sourceMgr;
    addInput(sourceMgr, data, size, "input.relay");
    mlir::OwningOpRef<mlir::ModuleOp> module =
        raf::importRelayText(sourceMgr, &context.get());
    context.expectErrorFor(!module, "--import-relay");
    if (!module)
      return;
    bool invalid = mlir::failed(mlir::verify(*module));
    context.expectErrorFor(invalid, "verification of the imported module");
    if (invalid)
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    bool exportFailed = mlir::failed(raf::exportRelayText(*module, os));
    context.expectErrorFor(exportFailed, "--export-relay");
  });
  return 0;
}
