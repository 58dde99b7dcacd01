//===- VTAToVTAISA.cpp - --convert-vta-to-vta-isa -------------------------===//
//
// Each vta.program becomes the vta_isa.program of raf::vta::assemble(): the
// tile ops are read back as a TileProgram, assembled (tokens, micro-op
// table, FINISH), and written out with the builder the binary reader uses,
// so the pass adds no second way of spelling an instruction as IR.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"

#include "raf/Dialect/VTA/IR/VTAOps.h"
#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"
#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"
#include "raf/Target/VTA/TileProgram.h"

#include "mlir/IR/Builders.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTVTATOVTAISA
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;

namespace {

struct ConvertVTAToVTAISAPass
    : public raf::impl::ConvertVTAToVTAISABase<ConvertVTAToVTAISAPass> {
  using ConvertVTAToVTAISABase::ConvertVTAToVTAISABase;

  void runOnOperation() override {
    SmallVector<vta::ProgramOp> programs;
    getOperation().walk(
        [&](vta::ProgramOp program) { programs.push_back(program); });
    bool failed = false;
    for (vta::ProgramOp tiles : programs) {
      llvm::Expected<vta::Program> program =
          vta::assemble(tiles.getTileProgram());
      if (!program) {
        tiles.emitError("cannot assemble the VTA program: ")
            << llvm::toString(program.takeError());
        failed = true;
        continue;
      }
      OpBuilder builder(tiles);
      auto assembled =
          vta_isa::ProgramOp::createFrom(builder, tiles.getLoc(), *program);
      // The schedule's knobs and any annotation of the program stay, for
      // reports; the configuration is the op's own argument.
      for (NamedAttribute attr : tiles->getDiscardableAttrs())
        assembled->setAttr(attr.getName(), attr.getValue());
      // A launched program keeps its symbol and DRAM layout.
      assembled.setSymNameAttr(tiles.getSymNameAttr());
      assembled.setDramAttr(tiles.getDramAttr());
      if (std::optional<ArrayRef<int64_t>> sizes = tiles.getTileSizes())
        assembled->setAttr("vta.tile_sizes",
                           builder.getDenseI64ArrayAttr(*sizes));
      if (IntegerAttr threads = tiles.getVirtualThreadsAttr())
        assembled->setAttr("vta.virtual_threads", threads);
      tiles.erase();
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
