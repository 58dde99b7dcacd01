//===- TrainingPipeline.h - forward module to training step -----*- C++ -*-===//
//
// --raf-training-pipeline (the graph-generation phase of RAF paper §3,
// Fig. 2): inline calls, differentiate
// the entry function, append the optimizer step, clean up. The result's
// @train_step runs on raf-run (--target=cpu or interp) and is the input of
// the memory passes; with amp=f16|bf16 the step is converted to mixed
// precision by --raf-autocast.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_PIPELINES_TRAININGPIPELINE_H
#define RAF_PIPELINES_TRAININGPIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace raf {

/// The low-precision type of automatic mixed precision, if any.
enum class AmpMode { None, F16, BF16 };

struct TrainingPipelineOptions
    : public mlir::PassPipelineOptions<TrainingPipelineOptions> {
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("Forward function (its first "
                                           "result is the loss)"),
                            llvm::cl::init("main")};
  ListOption<int64_t> requiresGrad{
      *this, "requires-grad",
      llvm::cl::desc("Indices of the trained parameters among the entry's "
                     "arguments (default: the arguments marked "
                     "raf.requires_grad = true, else every float tensor "
                     "argument)")};
  Option<bool> inlineCalls{
      *this, "inline",
      llvm::cl::desc("Inline func.call before differentiating, so the step "
                     "is straight-line code the CPU path compiles (off: "
                     "calls become backpropagator closures, evaluator only)"),
      llvm::cl::init(true)};
  Option<std::string> optimizer{*this, "optimizer",
                                llvm::cl::desc("sgd, momentum or adam"),
                                llvm::cl::init("sgd")};
  Option<double> lr{*this, "lr", llvm::cl::desc("Learning rate"),
                    llvm::cl::init(0.01)};
  Option<double> momentum{*this, "momentum",
                          llvm::cl::desc("Momentum of optimizer=momentum"),
                          llvm::cl::init(0.9)};
  Option<double> beta1{*this, "beta1", llvm::cl::desc("Adam's beta1"),
                       llvm::cl::init(0.9)};
  Option<double> beta2{*this, "beta2", llvm::cl::desc("Adam's beta2"),
                       llvm::cl::init(0.999)};
  Option<double> eps{*this, "eps", llvm::cl::desc("Adam's epsilon"),
                     llvm::cl::init(1e-8)};
  Option<double> weightDecay{*this, "weight-decay",
                             llvm::cl::desc("L2 penalty on the gradients"),
                             llvm::cl::init(0.0)};
  Option<AmpMode> amp{
      *this, "amp",
      llvm::cl::desc("Automatic mixed precision of the step "
                     "(--raf-autocast on @train_step)"),
      llvm::cl::init(AmpMode::None),
      llvm::cl::values(
          clEnumValN(AmpMode::None, "none", "f32 step"),
          clEnumValN(AmpMode::F16, "f16", "mixed precision with f16"),
          clEnumValN(AmpMode::BF16, "bf16", "mixed precision with bf16"))};
};

void buildTrainingPipeline(mlir::OpPassManager &pm,
                           const TrainingPipelineOptions &options);

void registerTrainingPipeline();

} // namespace raf

#endif // RAF_PIPELINES_TRAININGPIPELINE_H
