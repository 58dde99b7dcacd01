//===- raf-translate.cpp - RAF-MLIR format translator ---------------------===//
//
// Translations between RAF-MLIR modules and other formats: TVM Relay text
// (--import-relay, --export-relay), VTA binaries (--vta-isa-to-bin,
// --bin-to-vta-isa) and the upstream MLIR (LLVM dialect) -> LLVM IR
// translation used by the CPU path.
//
// main is mlir::mlirTranslateMain with one addition: an input the first
// translation parses as MLIR text is scanned for IR the upstream parser does
// not survive (raf/Support/SourceGuard.h) before it is parsed, and the
// translations run on a stack sized for the nesting-depth limit.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/Import.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Support/ResourceLimits.h"
#include "raf/Support/SourceGuard.h"
#include "raf/Target/RelayText/RelayText.h"
#include "raf/Target/VTA/BinaryTranslation.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
void registerLLVMTranslations() {
  TranslateFromMLIRRegistration toLLVM(
      "mlir-to-llvmir", "Translate the LLVM dialect to LLVM IR",
      [](Operation *op, llvm::raw_ostream &output) {
        llvm::LLVMContext context;
        std::unique_ptr<llvm::Module> module =
            translateModuleToLLVMIR(op, context);
        if (!module)
          return failure();
        module->print(output, nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        registry.insert<DLTIDialect, func::FuncDialect,
                        raf::relay::RelayDialect>();
        registerBuiltinDialectTranslation(registry);
        registerLLVMDialectTranslation(registry);
      });
}

/// The translations whose input is not MLIR text (the guard would misread
/// Relay text or binary data).
bool readsForeignInput(llvm::StringRef name) {
  return name == "import-relay" || name == "bin-to-vta-isa";
}

/// Marks non-error diagnostics handled, so that only errors are printed
/// (--error-diagnostics-only).
class ErrorDiagnosticFilter : public ScopedDiagnosticHandler {
public:
  ErrorDiagnosticFilter(MLIRContext *context)
      : ScopedDiagnosticHandler(context) {
    setHandler([](Diagnostic &diag) {
      return success(diag.getSeverity() != DiagnosticSeverity::Error);
    });
  }
};
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerLLVMTranslations();
  raf::registerRelayTextTranslations();
  raf::vta::registerVTABinaryTranslations();

  static cl::opt<std::string> inputFilename(
      cl::Positional, cl::desc("<input file>"), cl::init("-"));
  static cl::opt<std::string> outputFilename(
      "o", cl::desc("Output filename"), cl::value_desc("filename"),
      cl::init("-"));
  static cl::opt<bool> allowUnregisteredDialects(
      "allow-unregistered-dialect",
      cl::desc("Allow operation with no registered dialects (discouraged: "
               "testing only!)"),
      cl::init(false));
  static cl::opt<std::string> inputSplitMarker{
      "split-input-file", cl::ValueOptional,
      cl::callback([](const std::string &str) {
        if (str.empty())
          inputSplitMarker.setValue(kDefaultSplitMarker);
      }),
      cl::desc("Split the input file into chunks using the given or default "
               "marker and process each chunk independently"),
      cl::init("")};
  static cl::opt<SourceMgrDiagnosticVerifierHandler::Level> verifyDiagnostics{
      "verify-diagnostics", cl::ValueOptional,
      cl::desc("Check that emitted diagnostics match expected-* lines on the "
               "corresponding line"),
      cl::values(
          clEnumValN(SourceMgrDiagnosticVerifierHandler::Level::All, "all",
                     "Check all diagnostics (expected, unexpected, "
                     "near-misses)"),
          clEnumValN(SourceMgrDiagnosticVerifierHandler::Level::All, "",
                     "Check all diagnostics (expected, unexpected, "
                     "near-misses)"),
          clEnumValN(SourceMgrDiagnosticVerifierHandler::Level::OnlyExpected,
                     "only-expected", "Check only expected diagnostics"))};
  static cl::opt<bool> errorDiagnosticsOnly(
      "error-diagnostics-only",
      cl::desc("Filter all non-error diagnostics (discouraged: testing "
               "only!)"),
      cl::init(false));
  static cl::opt<std::string> outputSplitMarker(
      "output-split-marker",
      cl::desc("Split marker to use for merging the ouput"), cl::init(""));
  cl::list<const Translation *, bool, TranslationParser> translationsRequested(
      "", cl::desc("Translations to perform"), cl::Required);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  registerDefaultTimingManagerCLOptions();
  raf::registerResourceLimitOptions({raf::ResourceLimit::NestingDepth});
  cl::ParseCommandLineOptions(
      argc, argv,
      "RAF-MLIR translator: converts between .mlir and other formats\n");

  // The name of the first translation (the parser maps names to values).
  const TranslationParser &parser = translationsRequested.getParser();
  llvm::StringRef firstName;
  for (unsigned i = 0, e = parser.getNumOptions(); i != e; ++i)
    if (static_cast<const cl::OptionValue<const Translation *> &>(
            parser.getOptionValue(i))
            .getValue() == translationsRequested[0])
      firstName = parser.getOption(i);
  bool guardInput = !readsForeignInput(firstName);

  return raf::runOnParserStack([&]() -> int {
    DefaultTimingManager tm;
    applyDefaultTimingManagerCLOptions(tm);
    TimingScope timing = tm.getRootScope();

    std::string errorMessage;
    std::unique_ptr<llvm::MemoryBuffer> input;
    if (auto inputAlignment = translationsRequested[0]->getInputAlignment())
      input = openInputFile(inputFilename, *inputAlignment, &errorMessage);
    else
      input = openInputFile(inputFilename, &errorMessage);
    if (!input) {
      llvm::errs() << errorMessage << "\n";
      return 1;
    }
    if (guardInput && !raf::checkMLIRSource(*input))
      return 1;
    std::unique_ptr<llvm::ToolOutputFile> output =
        openOutputFile(outputFilename, &errorMessage);
    if (!output) {
      llvm::errs() << errorMessage << "\n";
      return 1;
    }

    auto processBuffer = [&](std::unique_ptr<llvm::MemoryBuffer> ownedBuffer,
                             llvm::raw_ostream &os) {
      // Translations expect a null-terminated buffer, which a chunk is not.
      if (!ownedBuffer->getBuffer().ends_with('\0'))
        ownedBuffer = llvm::MemoryBuffer::getMemBufferCopy(
            ownedBuffer->getBuffer(), ownedBuffer->getBufferIdentifier());
      // The intermediate results of chained translations.
      std::string dataIn, dataOut;
      LogicalResult result = success();
      for (size_t i = 0, e = translationsRequested.size(); i < e; ++i) {
        llvm::raw_string_ostream dataStream(dataOut);
        llvm::raw_ostream *stream = i == e - 1 ? &os : &dataStream;
        const Translation *translation = translationsRequested[i];
        TimingScope translationTiming =
            timing.nest(translation->getDescription());
        MLIRContext context;
        context.allowUnregisteredDialects(allowUnregisteredDialects);
        context.printOpOnDiagnostic(verifyDiagnostics.getNumOccurrences() ==
                                    0);
        auto sourceMgr = std::make_shared<llvm::SourceMgr>();
        sourceMgr->AddNewSourceBuffer(std::move(ownedBuffer), llvm::SMLoc());
        if (verifyDiagnostics.getNumOccurrences()) {
          // Whether the translation fails does not matter here, only that
          // the diagnostics are the expected ones.
          SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context,
                                                     verifyDiagnostics);
          (void)(*translation)(sourceMgr, os, &context);
          result = handler.verify();
        } else if (errorDiagnosticsOnly) {
          SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
          ErrorDiagnosticFilter filter(&context);
          result = (*translation)(sourceMgr, *stream, &context);
        } else {
          SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
          result = (*translation)(sourceMgr, *stream, &context);
        }
        if (failed(result))
          return result;
        if (i < e - 1) {
          dataIn = dataOut;
          dataOut.clear();
          ownedBuffer = llvm::MemoryBuffer::getMemBuffer(dataIn);
        }
      }
      return result;
    };
    if (failed(splitAndProcessBuffer(std::move(input), processBuffer,
                                     output->os(), inputSplitMarker,
                                     outputSplitMarker)))
      return 1;
    output->keep();
    return 0;
  });
}
