//===- VTAKernelRunner.h - VTA launches in the evaluator --------*- C++ -*-===//
//
// Runs `vta.launch` ops on host tensors for the reference evaluator: the
// launched `vta_isa.program` (a symbol of the module, compiled by
// --raf-vta-pipeline) runs through the VTA runtime (VTARuntime.h) on the
// simulator. raf-run --target=vta-sim compiles the host code instead and
// uses this only with --vta-host=evaluator, for functions the CPU pipeline
// does not compile (results that are tuples or closures).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_VTAKERNELRUNNER_H
#define RAF_RUNTIME_VTAKERNELRUNNER_H

#include "raf/Runtime/OperatorKernels.h"
#include "raf/Runtime/VTARuntime.h"
#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/ISA.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/DenseMap.h"

namespace raf::runtime {

class VTAKernelRunner {
public:
  explicit VTAKernelRunner(vta::CycleModel cycleModel = {})
      : runtime(cycleModel) {}

  /// Whether `op` is an op this runner executes: a vta.launch.
  static bool handles(mlir::Operation *op);

  /// Runs the launch `op` on `operands` (a Kernel, as the reference
  /// evaluator calls it); failures are diagnostics located at `op`.
  mlir::LogicalResult run(mlir::Operation *op, KernelOperands operands,
                          llvm::SmallVectorImpl<HostTensor> &results);

  VTARunStats getStats() { return runtime.getStats(); }
  void resetStats() { runtime.resetStats(); }

private:
  VTARuntime runtime;
  /// The programs launched so far, decoded once.
  llvm::DenseMap<mlir::Operation *, vta::Program> programs;
};

} // namespace raf::runtime

#endif // RAF_RUNTIME_VTAKERNELRUNNER_H
