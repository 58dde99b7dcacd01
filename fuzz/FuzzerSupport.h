//===- FuzzerSupport.h - shared pieces of the fuzz targets ------*- C++ -*-===//
//
// What every fuzz target under fuzz/ needs (docs/fuzzing.md): the dialect
// registry of our tools, an MLIRContext whose diagnostics are counted instead
// of printed, and the guarded MLIR parse the tools perform (the source guard
// of raf/Support/SourceGuard.h, then MLIR's parser).
//
// A target checks one invariant besides memory safety: an input that is
// refused must be refused with an error diagnostic. A failure without one
// (a pass that signals failure silently, an importer that returns null
// without a message) is reported as a crash so that it is found and fixed
// like one.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_FUZZ_FUZZERSUPPORT_H
#define RAF_FUZZ_FUZZERSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

namespace raf::fuzz {

/// Our dialects and the upstream ones our passes create
/// (raf::registerAllDialects), as raf-opt registers them
/// (FuzzerRegistry.cpp, library RAFFuzzRegistry).
const mlir::DialectRegistry &getRegistry();

/// Sets the resource limits (docs/resource-limits.md) a fuzz target runs
/// with: the defaults, except allocations are capped below libFuzzer's
/// default memory limit so that a refused size is a diagnostic rather than an
/// out-of-memory report.
void initializeLimits();

/// An MLIRContext for one input: no threads, the dialects of `registry`
/// loaded on demand (importers load theirs), diagnostics counted and
/// dropped.
class FuzzContext {
public:
  explicit FuzzContext(
      const mlir::DialectRegistry &registry = mlir::DialectRegistry());
  ~FuzzContext();

  mlir::MLIRContext &get() { return context; }
  /// Error diagnostics emitted so far.
  unsigned getNumErrors() const { return numErrors; }
  /// Reports (as a crash) a failure that emitted no error diagnostic since
  /// the last call; `what` names the failing step.
  void expectErrorFor(bool failed, const char *what);

private:
  mlir::MLIRContext context;
  mlir::DiagnosticEngine::HandlerID handler;
  unsigned numErrors = 0;
  unsigned errorsSeen = 0;
};

/// Copies `data` into `sourceMgr` as a null-terminated buffer named
/// `name`, as the tools read files, and returns its text.
llvm::StringRef addInput(llvm::SourceMgr &sourceMgr, const uint8_t *data,
                         size_t size, llvm::StringRef name);

/// The tools' guarded parse of the first buffer of `sourceMgr`: the source
/// guard first (whose refusals are errors), then MLIR's parser and the
/// verifier. Null when the input is refused.
mlir::OwningOpRef<mlir::ModuleOp> parseGuarded(llvm::SourceMgr &sourceMgr,
                                               FuzzContext &context);

/// Runs `body` on a thread with the stack the tools parse on
/// (raf::runOnParserStack).
void runOnToolStack(llvm::function_ref<void()> body);

} // namespace raf::fuzz

#endif // RAF_FUZZ_FUZZERSUPPORT_H
