//===- VTAKernelRunner.h - VTA launches on the simulator --------*- C++ -*-===//
//
// Runs `vta.launch` ops on host tensors: the launched `vta_isa.program` (a
// symbol of the module, compiled by --convert-tcg-to-vta and
// --convert-vta-to-vta-isa) runs on the VTA simulator with its operands laid
// out in a DRAM image as its `#vta.dram_layout` says. raf-run
// --target=vta-sim compiles a module's packed kernels once, when it loads
// it (compileForVTA), then plugs the runner into the reference evaluator,
// which runs everything else (the layout rewrites) on the host. Nothing is
// lowered or searched while the function runs.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_VTAKERNELRUNNER_H
#define RAF_RUNTIME_VTAKERNELRUNNER_H

#include "raf/Runtime/OperatorKernels.h"
#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/ISA.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>

namespace raf::runtime {

/// Compiles every packed VTA GEMM kernel of `module` into a launch of an
/// assembled program (--vta-schedule, --convert-tcg-to-vta,
/// --convert-vta-to-vta-isa; a kernel's own #vta.schedule is kept) and
/// assembles tile-level programs. With `requantShift`, the programs
/// requantise their results to clip(acc >> shift, -128, 127) (returned
/// sign-extended as int32), which changes what the functions compute.
mlir::LogicalResult compileForVTA(mlir::ModuleOp module,
                                  std::optional<int64_t> requantShift = {});

/// What the launches run so far cost on the simulator.
struct VTARunStats {
  uint64_t kernels = 0;
  /// Sum of the launches' simulated cycles (they run one after another).
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  uint64_t uops = 0;
};

class VTAKernelRunner {
public:
  explicit VTAKernelRunner(vta::CycleModel cycleModel = {})
      : cycleModel(cycleModel) {}

  /// Whether `op` is an op this runner executes: a vta.launch.
  static bool handles(mlir::Operation *op);

  /// Runs the launch `op` on `operands` (a Kernel, as the reference
  /// evaluator calls it); failures are diagnostics located at `op`.
  mlir::LogicalResult run(mlir::Operation *op, KernelOperands operands,
                          llvm::SmallVectorImpl<HostTensor> &results);

  const VTARunStats &getStats() const { return stats; }
  void resetStats() { stats = VTARunStats(); }

private:
  vta::CycleModel cycleModel;
  VTARunStats stats;
  /// The programs launched so far, decoded once.
  llvm::DenseMap<mlir::Operation *, vta::Program> programs;
};

} // namespace raf::runtime

#endif // RAF_RUNTIME_VTAKERNELRUNNER_H
