//===- BinaryTranslation.cpp - --vta-isa-to-bin / --bin-to-vta-isa --------===//

#include "raf/Target/VTA/BinaryTranslation.h"

#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"
#include "raf/Target/VTA/BinaryFormat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace raf::vta;

LogicalResult raf::vta::exportVTABinary(ModuleOp module,
                                        llvm::raw_ostream &os) {
  auto programs = module.getOps<vta_isa::ProgramOp>();
  size_t count = llvm::range_size(programs);
  if (count != 1)
    return module.emitError("expected one vta_isa.program in the module, "
                            "found ")
           << count;
  vta_isa::ProgramOp programOp = *programs.begin();
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
        return exportVTABinary(module, output);
      },
      [](DialectRegistry &registry) {
        registry.insert<raf::vta::VTADialect, vta_isa::VTAISADialect>();
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
