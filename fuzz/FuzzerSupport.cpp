//===- FuzzerSupport.cpp - shared pieces of the fuzz targets --------------===//

#include "FuzzerSupport.h"

#include "raf/Support/ResourceLimits.h"
#include "raf/Support/SourceGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

void raf::fuzz::initializeLimits() {
  // libFuzzer stops at 2 GiB of RSS (-rss_limit_mb) and reports single
  // mallocs beyond it; 256 MiB keeps a refused size well below both.
  setResourceLimit(ResourceLimit::AllocationBytes, uint64_t(256) << 20);
}

raf::fuzz::FuzzContext::FuzzContext(const DialectRegistry &registry)
    : context(registry, MLIRContext::Threading::DISABLED) {
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  handler = context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++numErrors;
    return success();
  });
}

raf::fuzz::FuzzContext::~FuzzContext() {
  context.getDiagEngine().eraseHandler(handler);
}

void raf::fuzz::FuzzContext::expectErrorFor(bool failed, const char *what) {
  if (failed && numErrors == errorsSeen) {
    llvm::errs() << "fuzz invariant: " << what
                 << " failed without an error diagnostic\n";
    std::abort();
  }
  errorsSeen = numErrors;
}

llvm::StringRef raf::fuzz::addInput(llvm::SourceMgr &sourceMgr,
                                    const uint8_t *data, size_t size,
                                    llvm::StringRef name) {
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size), name);
  llvm::StringRef text = buffer->getBuffer();
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return text;
}

OwningOpRef<ModuleOp> raf::fuzz::parseGuarded(llvm::SourceMgr &sourceMgr,
                                              FuzzContext &context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  // What the tools refuse before parsing (checkMLIRSource): bytecode is
  // not guarded, and neither is it fuzzed here.
  if (isMLIRBytecode(buffer->getBuffer()))
    return nullptr;
  if (findUnsafeMLIRSource(buffer->getBuffer(),
                           getResourceLimit(ResourceLimit::NestingDepth)))
    return nullptr;
  ParserConfig config(&context.get(), /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, config);
  context.expectErrorFor(!module, "parsing");
  if (!module)
    return nullptr;
  bool invalid = failed(verify(*module));
  context.expectErrorFor(invalid, "verification");
  if (invalid)
    return nullptr;
  return module;
}

void raf::fuzz::runOnToolStack(llvm::function_ref<void()> body) {
  (void)runOnParserStack([&]() {
    body();
    return 0;
  });
}
