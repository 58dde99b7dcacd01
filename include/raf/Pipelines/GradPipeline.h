//===- GradPipeline.h - relay.grad to plain relay code ----------*- C++ -*-===//
//
// `--relay-grad-pipeline` (Relay paper §4.2): lambda lifting, the higher-order
// reverse-mode lowering of relay.grad, then cleanup, so that the result runs
// on the reference evaluator (`raf-run --target=interp`).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_PIPELINES_GRADPIPELINE_H
#define RAF_PIPELINES_GRADPIPELINE_H

#include "mlir/Pass/PassManager.h"

namespace raf {

/// Appends relay-lambda-lift, relay-lower-grad, canonicalize and symbol-dce
/// to `pm` (anchored on the module).
void buildRelayGradPipeline(mlir::OpPassManager &pm);

/// Registers `--relay-grad-pipeline` with the global pass registry.
void registerRelayGradPipeline();

} // namespace raf

#endif // RAF_PIPELINES_GRADPIPELINE_H
