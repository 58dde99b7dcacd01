//===- TCGLowerToVTA.cpp - --tcg-lower-to-vta -----------------------------===//
//------------------------------===//
//
// Materialises lowerPackedGemm's programs in the module, next to the
// functions whose kernels they implement, so they can be inspected, checked
// and translated to binaries (raf-translate --vta-isa-to-bin).
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"
#include "raf/Conversion/TCGToVTA/TCGToVTA.h"

#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Dialect/VTA/IR/VTAOps.h"
#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"
#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace raf {
#define GEN_PASS_DEF_TCGLOWERTOVTA
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;

namespace {

struct TCGLowerToVTAPass
    : public raf::impl::TCGLowerToVTABase<TCGLowerToVTAPass> {
  using TCGLowerToVTABase::TCGLowerToVTABase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    vta::PackedGemmLoweringOptions options;
    if (requantShift >= 0)
      options.requantShift = requantShift;
    options.accDependenceDistance = accDependenceDistance;
    options.exhaustiveSearch = exhaustive;
    options.simulateCandidates = simulateCandidates;
    options.tileSizes.assign(tileSizes.begin(), tileSizes.end());
    options.virtualThreads = virtualThreads;
    options.maxInstructions = maxInstructions;
    SmallVector<tcg::KernelOp> kernels;
    module.walk([&](tcg::KernelOp kernel) { kernels.push_back(kernel); });
    llvm::DenseMap<Operation *, unsigned> kernelsPerParent;
    bool failed = false;
    for (tcg::KernelOp kernel : kernels) {
      FailureOr<vta::PackedGemmLowering> lowering =
          vta::lowerPackedGemm(kernel, options);
      if (mlir::failed(lowering)) {
        failed = true;
        continue;
      }
      if (report) {
        InFlightDiagnostic remark = kernel.emitRemark("vta: cycles=");
        const vta::SimulationResult &timing = lowering->timing;
        remark << timing.cycles << " tiles=[";
        for (auto [i, size] : llvm::enumerate(lowering->knobs.tileSizes))
          remark << (i ? ", " : "") << lowering->iteratorNames[i] << "="
                 << size;
        remark << "] virtual-threads=" << lowering->knobs.virtualThreads
               << " instructions=" << lowering->program.instructions.size()
               << " load-bytes=";
        uint64_t loaded = 0;
        for (uint64_t bytes : timing.loadBytes)
          loaded += bytes;
        remark << loaded << " store-bytes=" << timing.storeBytes
               << " gemm-steps=" << timing.gemmUopSteps
               << " alu-steps=" << timing.aluUopSteps
               << " valid-schedules=" << lowering->validConfigurations
               << " simulated=" << lowering->simulatedConfigurations;
      }
      // The program goes right after the module-level op holding the
      // kernel.
      Operation *parent = kernel;
      while (parent->getParentOp() != module)
        parent = parent->getParentOp();
      unsigned position = kernelsPerParent[parent]++;
      std::string name = "kernel" + std::to_string(position);
      if (auto symbol = dyn_cast<SymbolOpInterface>(parent))
        name = symbol.getName().str() + "#" + std::to_string(position);

      OpBuilder builder(parent->getContext());
      builder.setInsertionPointAfter(parent);
      // The tile-level program (`vta` dialect, tokens and micro-op table
      // left to --convert-vta-to-vta-isa) or the instruction-level one.
      Operation *program =
          tileLevel ? vta::ProgramOp::createFrom(builder, kernel.getLoc(),
                                                 lowering->tiles)
                          .getOperation()
                    : vta_isa::ProgramOp::createFrom(builder, kernel.getLoc(),
                                                     lowering->program)
                          .getOperation();
      program->setAttr("vta.kernel", builder.getStringAttr(name));
      auto layout = vta::DramLayoutAttr::get(
          builder.getContext(), lowering->inputOperand, lowering->inputOffset,
          lowering->weightOperand, lowering->weightOffset,
          lowering->resultOffset, lowering->resultRows,
          lowering->resultRowBytes, lowering->numPlanes, lowering->dramBytes);
      if (auto tiles = dyn_cast<vta::ProgramOp>(program))
        tiles.setDramAttr(layout);
      else
        cast<vta_isa::ProgramOp>(program).setDramAttr(layout);
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
