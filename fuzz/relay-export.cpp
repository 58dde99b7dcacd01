//===- relay-export.cpp - fuzz the Relay text exporter --------------------===//
//
// Input: .mlir text. Parses it as raf-translate --export-relay does (source
// guard, parser, verifier), exports the module as Relay text and imports
// the text again (--import-relay).
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "raf/Target/RelayText/RelayText.h"

#include "llvm/Support/raw_ostream.h"

using namespace raf::fuzz;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  initializeLimits();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  runOnToolStack([&]() {
    FuzzContext context(getRegistry());
    llvm::SourceMgr sourceMgr;
    addInput(sourceMgr, data, size, "input.mlir");
    mlir::OwningOpRef<mlir::ModuleOp> module =
        parseGuarded(sourceMgr, context);
    if (!module)
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    bool exportFailed = mlir::failed(raf::exportRelayText(*module, os));
    context.expectErrorFor(exportFailed, "--export-relay");
    if (exportFailed)
      return;
    FuzzContext reimportContext;
    llvm::SourceMgr reimportMgr;
    addInput(reimportMgr, reinterpret_cast<const uint8_t *>(text.data()),
             text.size(), "exported.relay");
    mlir::OwningOpRef<mlir::ModuleOp> reimported =
        raf::importRelayText(reimportMgr, &reimportContext.get());
    reimportContext.expectErrorFor(!reimported,
                                   "--import-relay of exported text");
  });
  return 0;
}
