//===- ConvertTCGToVTA.cpp - --convert-tcg-to-vta -------------------------===//
//
// Replaces each packed VTA GEMM kernel by a vta.launch of the program it
// compiles to, so that what runs is what the passes compiled: the program
// is a module-level symbol with its DRAM layout, not a string-tied
// companion of the function.
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
    SmallVector<tcg::KernelOp> kernels;
    module.walk([&](tcg::KernelOp kernel) {
      if (vta::isVTAKernel(kernel))
        kernels.push_back(kernel);
    });
    SymbolTable symbols(module);
    llvm::DenseMap<Operation *, unsigned> kernelsPerParent;
    bool failedAny = false;
    for (tcg::KernelOp kernel : kernels) {
      vta::FusedEpilogue epilogue;
      vta::PackedGemmLoweringOptions kernelOptions = options;
      if (fuseEpilogue) {
        epilogue = vta::matchFusedEpilogue(kernel);
        epilogue.apply(kernelOptions);
      }
      FailureOr<vta::PackedGemmLowering> lowering =
          vta::lowerPackedGemm(kernel, kernelOptions);
      if (failed(lowering)) {
        failedAny = true;
        continue;
      }
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
          lowering->dramBytes));
      StringAttr symbol = symbols.insert(program);

      builder.setInsertionPoint(kernel);
      auto launch = vta::LaunchOp::create(
          builder, kernel.getLoc(), kernel.getResult().getType(),
          FlatSymbolRefAttr::get(symbol), kernel->getOperands());
      kernel.getResult().replaceAllUsesWith(launch.getResult());
      kernel.erase();
      epilogue.eraseFusedOps();
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
