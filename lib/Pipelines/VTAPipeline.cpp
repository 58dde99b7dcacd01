//===- VTAPipeline.cpp - relay to VTA programs and host code --------------===//

#include "raf/Pipelines/VTAPipeline.h"
#include "raf/Pipelines/PipelineRegistration.h"

#include "raf/Conversion/Passes.h"
#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void raf::buildVTAPipeline(OpPassManager &pm,
                           const VTAPipelineOptions &options) {
  if (options.embed) {
    // The operators become tensor compute graphs, the GEMM intrinsic is
    // embedded into them (Rieber 2022, Ch. 4) and the layout changes the
    // embedding implies move into relay around a packed kernel.
    ConvertRelayToTCGOptions convert;
    convert.ops.assign(options.ops.begin(), options.ops.end());
    pm.addPass(createConvertRelayToTCG(convert));
    tcg::TCGDataflowEmbedOptions embed;
    embed.intrinsic = options.intrinsic;
    embed.mode = options.mode;
    embed.timeout = options.embedTimeout;
    pm.addPass(tcg::createTCGDataflowEmbed(embed));
    pm.addPass(tcg::createTCGApplyStrategy());
  }
  // The schedule is chosen once and recorded (#vta.schedule); the
  // conversion compiles exactly that schedule.
  VTAScheduleOptions schedule;
  schedule.method = options.schedule;
  schedule.simulateCandidates = options.simulate;
  schedule.requantShift = options.requantShift;
  schedule.accDependenceDistance = options.accDependenceDistance;
  schedule.maxInstructions = options.maxInstructions;
  pm.addPass(createVTASchedule(schedule));
  ConvertTCGToVTAOptions convert;
  convert.requantShift = options.requantShift;
  convert.accDependenceDistance = options.accDependenceDistance;
  convert.maxInstructions = options.maxInstructions;
  pm.addPass(createConvertTCGToVTA(convert));
  pm.addPass(createConvertVTAToVTAISA());
}

void raf::buildTCGLowerToVTA(OpPassManager &pm,
                             const TCGLowerToVTAOptions &options) {
  ConvertTCGToVTAOptions convert;
  convert.keepKernels = true;
  convert.requantShift = options.requantShift;
  convert.accDependenceDistance = options.accDependenceDistance;
  convert.exhaustive = options.exhaustive;
  convert.simulateCandidates = options.simulate;
  convert.tileSizes.assign(options.tileSizes.begin(), options.tileSizes.end());
  convert.virtualThreads = options.virtualThreads;
  convert.maxInstructions = options.maxInstructions;
  convert.report = options.report;
  pm.addPass(createConvertTCGToVTA(convert));
  if (!options.tileLevel)
    pm.addPass(createConvertVTAToVTAISA());
}

void raf::registerVTAPipeline() {
  PassPipelineRegistration<TCGLowerToVTAOptions>(
      "tcg-lower-to-vta",
      "Alias of --convert-tcg-to-vta=keep-kernels=true followed by "
      "--convert-vta-to-vta-isa: compile every packed kernel into a program "
      "beside it (the kernel keeps running on the CPU path and refers to "
      "its program by symbol) for inspection, binaries and benchmarks",
      buildTCGLowerToVTA);
  registerPassPipelineWithEnumeratedOptions<VTAPipelineOptions>(
      "raf-vta-pipeline",
      "Compile relay convolutions and dense layers for VTA: relay to tcg, "
      "dataflow embedding of the VTA GEMM, packing, --vta-schedule, "
      "--convert-tcg-to-vta and --convert-vta-to-vta-isa; the functions keep "
      "the host code around each vta.launch for --convert-vta-launch-to-"
      "runtime and --raf-cpu-pipeline",
      buildVTAPipeline,
      [](VTAPipelineOptions &options) -> SmallVector<EnumeratedOption> {
        return {{"mode", getEnumOptionValues(options.mode)},
                {"schedule", getEnumOptionValues(options.schedule)}};
      });
}
