//===- TrainingPipeline.cpp - forward module to training step -------------===//

#include "raf/Pipelines/TrainingPipeline.h"

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
}

void raf::registerTrainingPipeline() {
  mlir::PassPipelineRegistration<TrainingPipelineOptions>(
      "raf-training-pipeline",
      "Forward function to training step: --inline, "
      "--raf-autodiff{inline-backward}, --raf-append-optimizer, canonicalize, "
      "cse. The module gains @train_step(params, optimizer states, other "
      "arguments) -> (loss, aux, new params, new states)",
      buildTrainingPipeline);
}
