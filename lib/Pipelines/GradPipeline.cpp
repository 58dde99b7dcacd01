//===- GradPipeline.cpp - relay.grad to plain relay code ------------------===//

#include "raf/Pipelines/GradPipeline.h"

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void raf::buildRelayGradPipeline(OpPassManager &pm) {
  pm.addPass(relay::createRelayLambdaLift());
  pm.addPass(relay::createRelayLowerGrad());
  // The lowering packs and unpacks (value, adjoint) pairs at every construct
  // boundary and keeps the original functions; canonicalization folds the
  // projections of fresh tuples and drops unused pure values, and
  // symbol-dce removes the private functions nothing calls any more (no type
  // re-inference pass is needed: every op the lowering builds infers its
  // types when it is created, and these two passes are the dead-code
  // elimination).
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSymbolDCEPass());
}

void raf::registerRelayGradPipeline() {
  PassPipelineRegistration<>(
      "relay-grad-pipeline",
      "Lower every relay.grad to plain relay code (references and "
      "backpropagator closures): relay-lambda-lift, relay-lower-grad, "
      "canonicalize, symbol-dce",
      buildRelayGradPipeline);
}
