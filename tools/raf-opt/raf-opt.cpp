//===- raf-opt.cpp - RAF-MLIR optimizer driver ----------------------------===//
//
// mlir-opt for RAF-MLIR: our dialects and passes plus the upstream dialects
// and generic passes the flow uses. Dialects are registered one by one
// (not InitAllDialects) to keep the build lean.
//
// The input is scanned for IR the upstream parser does not survive (too
// deep, dense arrays of index) before it is parsed, and the tool runs on a
// stack sized for the nesting-depth limit (raf/Support/SourceGuard.h); the
// resource limits of the passes are options (docs/resource-limits.md).
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "raf/Conversion/Passes.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/Transforms/BackendOptions.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/Transforms/Passes.h"
#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"
#include "raf/Pipelines/CPUPipeline.h"
#include "raf/Pipelines/GradPipeline.h"
#include "raf/Pipelines/TrainingPipeline.h"
#include "raf/Transforms/Passes.h"
#include "raf/Support/ResourceLimits.h"
#include "raf/Support/SourceGuard.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<raf::relay::RelayDialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  mlir::tosa::TosaDialect>();
  registry.insert<raf::tcg::TCGDialect>();
  registry.insert<raf::vta::VTADialect, raf::vta_isa::VTAISADialect>();
  raf::registerCPUPipelineDialects(registry);
  // func.call inlining (--inline, used by --raf-training-pipeline).
  mlir::func::registerInlinerExtension(registry);

  // Generic upstream passes (canonicalize, cse, inline, symbol-dce, ...).
  mlir::registerTransformsPasses();
  // The upstream stages of --raf-cpu-pipeline, to run them one by one.
  mlir::registerLinalgPasses();
  mlir::bufferization::registerBufferizationPasses();
  raf::relay::registerRelayPasses();
  raf::tcg::registerTCGPasses();
  raf::registerRAFConversionPasses();
  raf::registerRAFTransformsPasses();
  raf::registerCPUPipeline();
  raf::registerRelayGradPipeline();
  raf::registerTrainingPipeline();
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
    if (mlir::failed(
            mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
      return 1;
    output->keep();
    return 0;
  });
}
