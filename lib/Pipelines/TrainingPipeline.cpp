//===- TrainingPipeline.cpp - forward module to training step -------------===//

#include "raf/Pipelines/TrainingPipeline.h"
#include "raf/Pipelines/PipelineRegistration.h"

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void raf::buildTrainingPipeline(mlir::OpPassManager &pm,
                                const TrainingPipelineOptions &options) {
  if (options.inlineCalls)
    pm.addPass(mlir::createInlinerPass());
  relay::RafAutodiffOptions autodiff;
  autodiff.entry = options.entry;
  autodiff.requiresGrad.assign(options.requiresGrad.begin(),
                               options.requiresGrad.end());
  autodiff.inlineBackward = true;
  pm.addPass(relay::createRafAutodiff(autodiff));
  relay::RafAppendOptimizerOptions optimizer;
  optimizer.entry = options.entry;
  optimizer.kind = options.optimizer;
  optimizer.lr = options.lr;
  optimizer.momentum = options.momentum;
  optimizer.beta1 = options.beta1;
  optimizer.beta2 = options.beta2;
  optimizer.eps = options.eps;
  optimizer.weightDecay = options.weightDecay;
  pm.addPass(relay::createRafAppendOptimizer(optimizer));
  // The step duplicates the gradient function's body; shared subexpressions
  // of the rules (reshaped targets, constants) fold together.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  if (options.amp != AmpMode::None) {
    // AutoCast runs on the whole step, forward, backward and update (RAF
    // applies it to the optimizer-wrapped model, RAF's AMP guide,
    // docs/wiki/2_user_guide/AMP.md).
    relay::RafAutoCastOptions autocast;
    autocast.dtype = options.amp == AmpMode::F16 ? "f16" : "bf16";
    autocast.entry = "train_step";
    pm.addPass(relay::createRafAutoCast(autocast));
    // Not CSE: it would merge the exclusive casts AutoCast gives each
    // elementwise consumer, which fusion is meant to absorb (RAF Fig. 3).
    pm.addPass(mlir::createCanonicalizerPass());
  }
}

void raf::registerTrainingPipeline() {
  registerPassPipelineWithEnumeratedOptions<TrainingPipelineOptions>(
      "raf-training-pipeline",
      "Forward function to training step: --inline, "
      "--raf-autodiff{inline-backward}, --raf-append-optimizer, canonicalize, "
      "cse, and with amp=f16|bf16 --raf-autocast on the step and canonicalize. "
      "The module gains @train_step(params, optimizer states, other "
      "arguments) -> (loss, aux, new params, new states)",
      buildTrainingPipeline,
      [](TrainingPipelineOptions &options)
          -> llvm::SmallVector<EnumeratedOption> {
        return {{"optimizer", {"sgd", "momentum", "adam"}},
                {"amp", getEnumOptionValues(options.amp)}};
      });
}
