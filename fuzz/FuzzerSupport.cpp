//===- FuzzerSupport.cpp - shared pieces of the fuzz targets --------------===//

#include "FuzzerSupport.h"

#include "raf/Support/ResourceLimits.h"
#include "raf/Support/SourceGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

using namespace mlir;

void raf::fuzz::initializeLimits() {
  // libFuzzer stops at 2 GiB of RSS (-rss_limit_mb) and reports single
  // mallocs beyond it; 256 MiB keeps a refused size well below both.
  setResourceLimit(ResourceLimit::AllocationBytes, uint64_t(256) << 20);
}

/// Inputs that share a context before it is replaced: its uniqued storage
/// grows with every input that names something new.
static constexpr unsigned kInputsPerContext = 5000;

struct raf::fuzz::FuzzContext::Shared {
  explicit Shared(const DialectRegistry &registry, bool loadAll)
      : registry(registry), loadAll(loadAll) {}

  /// The context for the next input, made afresh when needed.
  MLIRContext &acquire() {
    if (!context || stale || inputs >= kInputsPerContext) {
      attachment.reset();
      context.reset();
      context = std::make_unique<MLIRContext>(
          registry, MLIRContext::Threading::DISABLED);
      if (loadAll)
        context->loadAllAvailableDialects();
      context->printOpOnDiagnostic(false);
      context->printStackTraceOnDiagnostic(false);
      stale = false;
      inputs = 0;
    }
    ++inputs;
    return *context;
  }

  const DialectRegistry &registry;
  bool loadAll;
  std::unique_ptr<MLIRContext> context;
  std::shared_ptr<void> attachment;
  unsigned inputs = 0;
  bool stale = false;
};

/// The shared context for `registry` (null: none loaded up front). Never
/// destroyed: the tool-stack thread may still hold it at exit.
static raf::fuzz::FuzzContext::Shared &
getShared(const DialectRegistry *registry) {
  static auto *bare = new raf::fuzz::FuzzContext::Shared(
      *new DialectRegistry(), /*loadAll=*/false);
  static auto *withRegistry =
      new llvm::DenseMap<const DialectRegistry *,
                         raf::fuzz::FuzzContext::Shared *>();
  if (!registry)
    return *bare;
  raf::fuzz::FuzzContext::Shared *&shared = (*withRegistry)[registry];
  if (!shared)
    shared = new raf::fuzz::FuzzContext::Shared(*registry, /*loadAll=*/true);
  return *shared;
}

static DiagnosticEngine::HandlerID registerCounter(MLIRContext &context,
                                                   unsigned &numErrors) {
  return context.getDiagEngine().registerHandler([&numErrors](
                                                     Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++numErrors;
    return success();
  });
}

raf::fuzz::FuzzContext::FuzzContext(const DialectRegistry &registry)
    : shared(&getShared(&registry)), context(&shared->acquire()),
      handler(registerCounter(*context, numErrors)) {}

raf::fuzz::FuzzContext::FuzzContext()
    : shared(&getShared(nullptr)), context(&shared->acquire()),
      handler(registerCounter(*context, numErrors)) {}

raf::fuzz::FuzzContext::~FuzzContext() {
  context->getDiagEngine().eraseHandler(handler);
}

void raf::fuzz::FuzzContext::noteInput(llvm::StringRef text) {
  // dense_resource, dialect_resources, external_resources.
  if (text.contains("_resource"))
    shared->stale = true;
}

std::shared_ptr<void> &raf::fuzz::FuzzContext::getAttachmentSlot() {
  return shared->attachment;
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
  context.noteInput(buffer->getBuffer());
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

namespace {
/// The thread of runOnToolStack: starting a thread with a stack of tens of
/// MiB for every input costs more than many inputs do.
struct ToolStackWorker {
  std::mutex mutex;
  std::condition_variable changed;
  llvm::function_ref<void()> job;
  bool pending = false;

  [[noreturn]] void serve() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return pending; });
      job();
      pending = false;
      changed.notify_all();
    }
  }

  void run(llvm::function_ref<void()> body) {
    std::unique_lock<std::mutex> lock(mutex);
    job = body;
    pending = true;
    changed.notify_all();
    changed.wait(lock, [&] { return !pending; });
  }
};
} // namespace

void raf::fuzz::runOnToolStack(llvm::function_ref<void()> body) {
  // Never destroyed: the thread waits on it until the process exits.
  static ToolStackWorker *worker = [] {
    auto *w = new ToolStackWorker();
    std::thread([w] {
      (void)runOnParserStack([w]() -> int { w->serve(); });
    }).detach();
    return w;
  }();
  worker->run(body);
}
