//===- ConvertTCGToVTA.cpp - --convert-tcg-to-vta -------------------------===//
//
// Replaces each packed VTA GEMM kernel by a vta.launch of the program it
// compiles to, so that what runs is what the passes compiled: the program
// is a module-level symbol with its DRAM layout, not a string-tied
// companion of the function. With keep-kernels the kernels stay (the module
// still runs on the CPU path) and each refers to its program by symbol: the
// inspection mode that --tcg-lower-to-vta, an alias of this pass followed by
// --convert-vta-to-vta-isa, runs.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"
#include "raf/Conversion/TCGToVTA/TCGToVTA.h"

#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Dialect/VTA/IR/VTAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTTCGTOVTA
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;

namespace {

/// The remark bench/vta reads: the schedule, its cycles and the search.
void emitReport(tcg::KernelOp kernel, const vta::PackedGemmLowering &lowering) {
  InFlightDiagnostic remark = kernel.emitRemark("vta: cycles=");
  const vta::SimulationResult &timing = lowering.timing;
  remark << timing.cycles << " tiles=[";
  for (auto [i, size] : llvm::enumerate(lowering.knobs.tileSizes))
    remark << (i ? ", " : "") << lowering.iteratorNames[i] << "=" << size;
  remark << "] virtual-threads=" << lowering.knobs.virtualThreads
         << " instructions=" << lowering.program.instructions.size()
         << " load-bytes=";
  uint64_t loaded = 0;
  for (uint64_t bytes : timing.loadBytes)
    loaded += bytes;
  remark << loaded << " store-bytes=" << timing.storeBytes
         << " gemm-steps=" << timing.gemmUopSteps
         << " alu-steps=" << timing.aluUopSteps
         << " valid-schedules=" << lowering.validConfigurations
         << " simulated=" << lowering.simulatedConfigurations;
}

struct ConvertTCGToVTAPass
    : public raf::impl::ConvertTCGToVTABase<ConvertTCGToVTAPass> {
  using ConvertTCGToVTABase::ConvertTCGToVTABase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    vta::PackedGemmLoweringOptions options;
    if (requantShift >= 0)
      options.requantShift = requantShift;
    options.accDependenceDistance = accDependenceDistance;
    options.maxInstructions = maxInstructions;
    options.exhaustiveSearch = exhaustive;
    options.simulateCandidates = simulateCandidates;
    options.tileSizes.assign(tileSizes.begin(), tileSizes.end());
    options.virtualThreads = virtualThreads;
    // Kept kernels compute what they computed: nothing after them moves
    // into the program.
    bool fuse = fuseEpilogue && !keepKernels;
    // Replacing, only packed VTA GEMMs become launches (other kernels are
    // host code); inspecting, every kernel must compile.
    SmallVector<tcg::KernelOp> kernels;
    module.walk([&](tcg::KernelOp kernel) {
      if (keepKernels || vta::isVTAKernel(kernel))
        kernels.push_back(kernel);
    });
    SymbolTable symbols(module);
    llvm::DenseMap<Operation *, unsigned> kernelsPerParent;
    bool failedAny = false;
    for (tcg::KernelOp kernel : kernels) {
      vta::FusedEpilogue epilogue;
      vta::PackedGemmLoweringOptions kernelOptions = options;
      if (fuse) {
        epilogue = vta::matchFusedEpilogue(kernel);
        epilogue.apply(kernelOptions);
      }
      FailureOr<vta::PackedGemmLowering> lowering =
          vta::lowerPackedGemm(kernel, kernelOptions);
      if (failed(lowering)) {
        failedAny = true;
        continue;
      }
      if (report)
        emitReport(kernel, *lowering);
      // The program goes right after the module-level op holding the
      // kernel, named after it (the symbol table makes the name unique).
      Operation *parent = kernel;
      while (parent->getParentOp() != module)
        parent = parent->getParentOp();
      std::string name = "kernel" + std::to_string(kernelsPerParent[parent]++);
      if (auto symbol = dyn_cast<SymbolOpInterface>(parent))
        name = symbol.getName().str() + "_" + name;
      OpBuilder builder(&getContext());
      builder.setInsertionPointAfter(parent);
      auto program =
          vta::ProgramOp::createFrom(builder, kernel.getLoc(), lowering->tiles);
      program.setSymNameAttr(builder.getStringAttr(name));
      program.setDramAttr(vta::DramLayoutAttr::get(
          &getContext(), lowering->inputOperand, lowering->inputOffset,
          lowering->weightOperand, lowering->weightOffset,
          lowering->resultOffset, lowering->resultRows,
          lowering->resultRowBytes, lowering->numPlanes,
          lowering->dramBytes, lowering->biasOffset,
          lowering->biasOffset ? std::optional<int64_t>(lowering->biasRows)
                               : std::nullopt));
      StringAttr symbol = symbols.insert(program);
      if (keepKernels) {
        kernel->setAttr(vta::kProgramAttrName, FlatSymbolRefAttr::get(symbol));
        continue;
      }

      builder.setInsertionPoint(kernel);
      // A fused bias is the launch's third operand, its rows built on the
      // host in the packed result's layout.
      SmallVector<Value> operands(kernel->getOperands());
      if (Value biasRows = epilogue.buildBiasRows(builder, kernel.getLoc()))
        operands.push_back(biasRows);
      auto launch = vta::LaunchOp::create(
          builder, kernel.getLoc(), kernel.getResult().getType(),
          FlatSymbolRefAttr::get(symbol), operands);
      kernel.getResult().replaceAllUsesWith(launch.getResult());
      kernel.erase();
      epilogue.eraseFusedOps();
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
