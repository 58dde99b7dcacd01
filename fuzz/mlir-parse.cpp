//===- mlir-parse.cpp - fuzz the parsing and verification of our IR -------===//
//
// Input: .mlir text. Runs what raf-opt does before any pass: the source
// guard, MLIR's parser with our dialects (relay, tcg, vta, vta_isa and the
// upstream ones they use) and the verifier; then prints a valid module and
// parses the printed text again, which must succeed (our custom assembly
// formats print what they parse).
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "mlir/IR/AsmState.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

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
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    llvm::SourceMgr reparseMgr;
    addInput(reparseMgr, reinterpret_cast<const uint8_t *>(printed.data()),
             printed.size(), "printed.mlir");
    if (!parseGuarded(reparseMgr, context)) {
      llvm::errs() << "fuzz invariant: the printed module does not parse:\n"
                   << printed << "\n";
      std::abort();
    }
  });
  return 0;
}
