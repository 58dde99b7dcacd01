//===- raf-opt.cpp - RAF-MLIR optimizer driver ----------------------------===//
//
// mlir-opt for RAF-MLIR: our dialects and passes plus every upstream
// dialect, dialect extension and pass, as mlir-opt registers them, so that
// every IR dump of our pipelines re-parses and every pipeline printed by
// --dump-pass-pipeline replays with --pass-pipeline (docs/ecosystem.md). The
// upstream registerAll* functions are defined out of line in libMLIR.so
// (MLIR 22), so including their headers costs this file nothing.
//
// The input is scanned for IR the upstream parser does not survive (too
// deep, dense arrays of index) before it is parsed, and the tool runs on a
// stack sized for the nesting-depth limit (raf/Support/SourceGuard.h); the
// resource limits of the passes are options (docs/resource-limits.md).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "raf/Dialect/Relay/Transforms/BackendOptions.h"
#include "raf/InitAll.h"
#include "raf/Support/ResourceLimits.h"
#include "raf/Support/SourceGuard.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // Every upstream dialect and extension (inliner interfaces, bufferization
  // and tiling models, translations to LLVM IR, ...), as mlir-opt has them.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // Ours, and the models our pipelines need (raf/InitAll.h).
  raf::registerAllDialects(registry);

  // Every upstream pass and pass pipeline: the stages of our pipelines
  // (lower-affine, expand-realloc, convert-scf-to-cf, ...) and the rest.
  mlir::registerAllPasses();
  raf::registerAllPasses();
  // --raf-backend-preference / --raf-disable-backends (defaults of the
  // dispatch and fusion passes).
  raf::relay::registerBackendOptions();

  raf::registerResourceLimitOptions(
      {raf::ResourceLimit::AllocationBytes, raf::ResourceLimit::EmbeddingExtent,
       raf::ResourceLimit::EmbeddingPoints, raf::ResourceLimit::NestingDepth});

  llvm::InitLLVM initLLVM(argc, argv);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv,
      "RAF-MLIR optimizer: parses, verifies and transforms .mlir modules in "
      "the relay dialect (and the upstream dialects listed below) with the "
      "passes listed below\n",
      registry);
  // What mlir::MlirOptMain(argc, argv, ...) does, with the source guard
  // between reading the input and parsing it.
  return raf::runOnParserStack([&, &inputFilename = inputFilename,
                                &outputFilename = outputFilename]() -> int {
    mlir::MlirOptMainConfig config =
        mlir::MlirOptMainConfig::createFromCLOptions();
    // These read no input.
    if (config.shouldShowDialects() || config.shouldListPasses())
      return mlir::failed(mlir::MlirOptMain(
                 llvm::outs(), llvm::MemoryBuffer::getMemBuffer(""), registry,
                 config))
                 ? 1
                 : 0;
    if (inputFilename == "-" &&
        llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
      llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d "
                      "to interrupt)\n";
    std::string errorMessage;
    std::unique_ptr<llvm::MemoryBuffer> input =
        mlir::openInputFile(inputFilename, &errorMessage);
    if (!input) {
      llvm::errs() << errorMessage << "\n";
      return 1;
    }
    if (!raf::checkMLIRSource(*input))
      return 1;
    std::unique_ptr<llvm::ToolOutputFile> output =
        mlir::openOutputFile(outputFilename, &errorMessage);
    if (!output) {
      llvm::errs() << errorMessage << "\n";
      return 1;
    }
    // A custom operation parser may fail without a diagnostic (upstream
    // TOSA's attribute-dictionary parser does on `tosa.clamp %x {32>) ...`),
    // and so may a pass: a failure that printed nothing gets an error.
    uint64_t printedBefore = llvm::errs().tell();
    if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input),
                                       registry, config))) {
      if (llvm::errs().tell() == printedBefore)
        llvm::errs() << inputFilename
                     << ": error: failed without a diagnostic (an operation's "
                        "parser or a pass gave up without saying why)\n";
      return 1;
    }
    output->keep();
    return 0;
  });
}
