//===- VTASchedule.cpp - --vta-schedule -----------------------------------===//
//
// Chooses the schedule of every packed VTA GEMM kernel and records it on
// the kernel as a #vta.schedule, which the lowering and the simulator
// runner then follow instead of searching again.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"
#include "raf/Conversion/TCGToVTA/TCGToVTA.h"

#include "raf/Dialect/VTA/IR/VTAAttrs.h"
#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Support/PassOptions.h"
#include "raf/Tuning/VTAScheduleSpace.h"

namespace raf {
#define GEN_PASS_DEF_VTASCHEDULE
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;

namespace {

struct VTASchedulePass : public raf::impl::VTAScheduleBase<VTASchedulePass> {
  using VTAScheduleBase::VTAScheduleBase;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(raf::checkEnumeratedOptions(
            getArgument(), options,
            {{"method", raf::getEnumOptionValues(method)},
             {"tuner", {"random", "autotvm", "validity"}}},
            errorHandler)))
      return failure();
    return VTAScheduleBase::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    vta::PackedGemmLoweringOptions options;
    if (requantShift >= 0)
      options.requantShift = requantShift;
    options.accDependenceDistance = accDependenceDistance;
    options.exhaustiveSearch = method == vta::ScheduleMethod::Exhaustive;
    options.simulateCandidates = simulateCandidates;
    options.maxInstructions = maxInstructions;
    options.hoistWeight = hoistWeight;
    if (method == vta::ScheduleMethod::Tune) {
      std::optional<tuning::TunerKind> kind = tuning::parseTunerKind(tuner);
      if (!kind) {
        mlir::emitError(getOperation().getLoc(),
                        "--vta-schedule: unknown tuner '")
            << tuner << "' (random, autotvm or validity)";
        return signalPassFailure();
      }
      tuning::TunerOptions tunerOptions;
      tunerOptions.kind = *kind;
      tunerOptions.trials = trials;
      tunerOptions.seed = seed;
      options.chooseSchedule =
          [tunerOptions](const vta::GemmKernelModel &model,
                         const vta::ScheduleLimits &limits) {
            return tuning::tuneSchedule(model, limits, tunerOptions);
          };
    }
    SmallVector<tcg::KernelOp> kernels;
    getOperation().walk([&](tcg::KernelOp kernel) {
      if (vta::isVTAKernel(kernel))
        kernels.push_back(kernel);
    });
    bool failedAny = false;
    for (tcg::KernelOp kernel : kernels) {
      // The lowering follows a schedule the kernel already has (and fails
      // if it is invalid), and searches otherwise. The schedule is searched
      // with the epilogue --convert-tcg-to-vta will fuse.
      vta::PackedGemmLoweringOptions kernelOptions = options;
      if (fuseEpilogue)
        vta::matchFusedEpilogue(kernel).apply(kernelOptions);
      FailureOr<vta::PackedGemmLowering> lowering =
          vta::lowerPackedGemm(kernel, kernelOptions);
      if (failed(lowering)) {
        failedAny = true;
        continue;
      }
      const vta::ScheduleKnobs &knobs = lowering->knobs;
      kernel->setAttr(vta::kScheduleAttrName,
                      vta::ScheduleAttr::get(&getContext(), knobs));
      if (report)
        kernel.emitRemark("vta-schedule: cycles=")
            << lowering->timing.cycles
            << " instructions=" << lowering->program.instructions.size()
            << " valid-schedules=" << lowering->validConfigurations
            << " simulated=" << lowering->simulatedConfigurations;
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
