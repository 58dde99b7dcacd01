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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <memory>

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

/// The MLIRContext of one input. Building a context and loading our dialects
/// costs far more than most inputs do, so the inputs of a target share one
/// context per registry, with threading off and every dialect of the
/// registry loaded when it is made. A FuzzContext counts (and drops) the
/// diagnostics of its input through a handler of its own. What an input
/// leaves in the shared context is either uniqued storage (attributes,
/// types, locations, operation names), which no later input can observe, or
/// resource blobs (`dense_resource`, `dialect_resources`), which it could:
/// an input that mentions resources gets a fresh context after it. The
/// context is also replaced every few thousand inputs, which bounds the
/// memory the uniqued storage holds.
class FuzzContext {
public:
  /// The shared context with every dialect of `registry` loaded.
  explicit FuzzContext(const mlir::DialectRegistry &registry);
  /// The shared context with no dialect loaded up front (the importers
  /// load theirs).
  FuzzContext();
  ~FuzzContext();

  FuzzContext(const FuzzContext &) = delete;
  FuzzContext &operator=(const FuzzContext &) = delete;

  mlir::MLIRContext &get() { return *context; }
  /// Error diagnostics emitted so far.
  unsigned getNumErrors() const { return numErrors; }
  /// Reports (as a crash) a failure that emitted no error diagnostic since
  /// the last call; `what` names the failing step.
  void expectErrorFor(bool failed, const char *what);
  /// Gives the next input a fresh context: `text`, part of this input,
  /// mentions resources, which outlive the input in its context.
  void noteInput(llvm::StringRef text);

  /// What a target builds once per shared context (a pass manager): made by
  /// `create` on first use, destroyed before its context is.
  template <typename T>
  T &getOrCreateAttachment(llvm::function_ref<std::unique_ptr<T>()> create) {
    std::shared_ptr<void> &slot = getAttachmentSlot();
    if (!slot)
      slot = std::shared_ptr<T>(create());
    return *static_cast<T *>(slot.get());
  }

  struct Shared;

private:
  std::shared_ptr<void> &getAttachmentSlot();

  Shared *shared;
  mlir::MLIRContext *context;
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
/// (raf::runOnParserStack). The thread is started on the first call and
/// runs the bodies of all later calls, one at a time.
void runOnToolStack(llvm::function_ref<void()> body);

} // namespace raf::fuzz

#endif // RAF_FUZZ_FUZZERSUPPORT_H
