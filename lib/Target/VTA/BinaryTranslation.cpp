//===- BinaryTranslation.cpp - --vta-isa-to-bin / --bin-to-vta-isa --------===//

#include "raf/Target/VTA/BinaryTranslation.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"
#include "raf/Target/VTA/BinaryFormat.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace raf::vta;

/// --vta-kernel: which program of a module --vta-isa-to-bin encodes.
static llvm::cl::opt<std::string> kernelOption(
    "vta-kernel",
    llvm::cl::desc("With --vta-isa-to-bin: encode the program with this "
                   "symbol name (--convert-tcg-to-vta's "
                   "\"<function>_kernel<n>\"); needed when the module holds "
                   "several programs"),
    llvm::cl::value_desc("name"));

/// The name a program is chosen by: its symbol.
static StringRef getProgramName(raf::vta_isa::ProgramOp program) {
  if (StringAttr symbol = program.getSymNameAttr())
    return symbol.getValue();
  return {};
}

LogicalResult raf::vta::exportVTABinary(ModuleOp module, llvm::raw_ostream &os,
                                        StringRef kernel) {
  SmallVector<vta_isa::ProgramOp> programs;
  for (vta_isa::ProgramOp program : module.getOps<vta_isa::ProgramOp>())
    if (kernel.empty() || getProgramName(program) == kernel)
      programs.push_back(program);
  if (programs.size() != 1) {
    InFlightDiagnostic diag = module.emitError();
    if (kernel.empty())
      diag << "expected one vta_isa.program in the module, found "
           << programs.size();
    else
      diag << "no vta_isa.program is named \"" << kernel << "\"";
    SmallVector<StringRef> names;
    for (vta_isa::ProgramOp program : module.getOps<vta_isa::ProgramOp>())
      if (StringRef name = getProgramName(program); !name.empty())
        names.push_back(name);
    if (!names.empty())
      diag << " (choose one with --vta-kernel: " << llvm::join(names, ", ")
           << ")";
    return diag;
  }
  vta_isa::ProgramOp programOp = programs.front();
  // The verifier has checked the rules writeBinary enforces, so a failure
  // here would be a bug; still report it rather than write garbage.
  llvm::Expected<std::vector<uint8_t>> bytes =
      writeBinary(programOp.getProgram());
  if (!bytes)
    return programOp.emitError(llvm::toString(bytes.takeError()));
  os.write(reinterpret_cast<const char *>(bytes->data()), bytes->size());
  return success();
}

OwningOpRef<ModuleOp> raf::vta::importVTABinary(llvm::SourceMgr &sourceMgr,
                                                MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  context->loadDialect<raf::vta::VTADialect, vta_isa::VTAISADialect>();
  // A binary has no lines to point into: locate diagnostics at the file.
  Location loc = FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                     0, 0);
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(buffer->getBufferStart()),
      buffer->getBufferSize());
  llvm::Expected<Program> program = readBinary(bytes);
  if (!program) {
    SmallVector<StringRef> messages;
    std::string text = llvm::toString(program.takeError());
    StringRef(text).split(messages, '\n');
    for (StringRef message : messages)
      emitError(loc) << message;
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  vta_isa::ProgramOp::createFrom(builder, loc, *program);
  return module;
}

void raf::vta::registerVTABinaryTranslations() {
  TranslateFromMLIRRegistration toBinary(
      "vta-isa-to-bin",
      "Encode a vta_isa.program as a VTA binary (docs/vta.md)",
      [](Operation *op, llvm::raw_ostream &output) {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return LogicalResult(op->emitError("expected a builtin.module"));
        return exportVTABinary(module, output, kernelOption);
      },
      [](DialectRegistry &registry) {
        // The output of --convert-tcg-to-vta: the programs beside the
        // relay functions whose kernels or launches they implement.
        registry.insert<raf::vta::VTADialect, vta_isa::VTAISADialect,
                        func::FuncDialect, relay::RelayDialect,
                        tcg::TCGDialect>();
      });
  TranslateToMLIRRegistration fromBinary(
      "bin-to-vta-isa",
      "Decode a VTA binary into a vta_isa.program (docs/vta.md)",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return OwningOpRef<Operation *>(
            importVTABinary(sourceMgr, context).release());
      },
      [](DialectRegistry &registry) {
        registry.insert<raf::vta::VTADialect, vta_isa::VTAISADialect>();
      });
}
