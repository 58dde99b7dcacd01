//===- vta-binary.cpp - fuzz the VTA binary reader ------------------------===//
//
// Input: a VTA binary (raf-translate --bin-to-vta-isa). Decodes it into a
// vta_isa.program, verifies it, and encodes it again (--vta-isa-to-bin),
// which must give back the input's bytes: the format has one encoding per
// program (docs/vta.md).
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "raf/Target/VTA/BinaryTranslation.h"

#include "mlir/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace raf::fuzz;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  initializeLimits();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzContext context;
  llvm::SourceMgr sourceMgr;
  addInput(sourceMgr, data, size, "input.bin");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      raf::vta::importVTABinary(sourceMgr, &context.get());
  context.expectErrorFor(!module, "--bin-to-vta-isa");
  if (!module)
    return 0;
  bool invalid = mlir::failed(mlir::verify(*module));
  context.expectErrorFor(invalid, "verification of the decoded program");
  if (invalid)
    return 0;
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  bool encodeFailed = mlir::failed(raf::vta::exportVTABinary(*module, os));
  context.expectErrorFor(encodeFailed, "--vta-isa-to-bin");
  if (encodeFailed)
    return 0;
  if (bytes.size() != size || std::memcmp(bytes.data(), data, size) != 0) {
    llvm::errs() << "fuzz invariant: decoding and encoding again changed the "
                    "binary\n";
    std::abort();
  }
  return 0;
}
