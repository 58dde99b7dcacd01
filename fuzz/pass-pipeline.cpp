//===- pass-pipeline.cpp - fuzz a pass pipeline on parsable IR ------------===//
//
// Input: .mlir text. Parses it as raf-opt does and runs the relay half of
// --raf-cpu-pipeline (the passes that read user IR before upstream's
// bufferization takes over): closure lifting and defunctionalisation,
// fusion, tail recursion to loops, the tcg and relay lowerings to linalg,
// with canonicalization in between. The environment variable
// RAF_FUZZ_PIPELINE replaces the pipeline (raf-opt --pass-pipeline syntax).
// A pipeline that fails must say why (an error diagnostic).
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "raf/InitAll.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace raf::fuzz;

static const char *const kDefaultPipeline =
    "builtin.module(relay-lambda-lift,relay-defunctionalize,raf-fuse,"
    "relay-tail-recursion-to-loops,convert-tcg-to-linalg,canonicalize,"
    "convert-relay-to-linalg,canonicalize,cse)";

static std::string pipeline;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  initializeLimits();
  mlir::registerTransformsPasses();
  raf::registerAllPasses();
  const char *custom = std::getenv("RAF_FUZZ_PIPELINE");
  pipeline = custom ? custom : kDefaultPipeline;
  // Refuse a pipeline that does not parse before the first input.
  mlir::OpPassManager pm;
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, llvm::errs()))) {
    llvm::errs() << "error: cannot parse the pipeline '" << pipeline << "'\n";
    std::exit(1);
  }
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
    // One pass manager per shared context: its passes keep no state from
    // one run to the next, and building one (canonicalize gathers the
    // patterns of every loaded dialect) costs more than most inputs.
    mlir::PassManager &pm = context.getOrCreateAttachment<mlir::PassManager>(
        [&]() {
          auto pm = std::make_unique<mlir::PassManager>(&context.get());
          if (mlir::failed(mlir::parsePassPipeline(pipeline, *pm)))
            std::abort();
          return pm;
        });
    bool failed = mlir::failed(pm.run(*module));
    context.expectErrorFor(failed, "the pass pipeline");
  });
  return 0;
}
