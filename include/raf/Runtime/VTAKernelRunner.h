//===- VTAKernelRunner.h - packed kernels on the VTA simulator --*- C++ -*-===//
//
// Runs a packed GEMM kernel (tcg.kernel with tcg.tensorize = "vta.gemm.*")
// on host tensors by lowering it to a VTA program (lowerPackedGemm), laying
// its operands out in a DRAM image, simulating, and reading the exact int32
// result back. raf-run --target=vta-sim plugs it into the reference
// evaluator, which runs everything else (the layout rewrites) on the host.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_VTAKERNELRUNNER_H
#define RAF_RUNTIME_VTAKERNELRUNNER_H

#include "raf/Runtime/OperatorKernels.h"
#include "raf/Target/VTA/CycleModel.h"

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace raf::runtime {

/// What the kernels run so far cost on the simulator.
struct VTARunStats {
  uint64_t kernels = 0;
  /// Sum of the kernels' simulated cycles (kernels run one after another).
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  uint64_t uops = 0;
};

class VTAKernelRunner {
public:
  /// With `requantShift`, every kernel's result is requantised on VTA to
  /// clip(acc >> shift, -128, 127) (returned sign-extended in the kernel's
  /// int32 result type), which changes what the function computes: it then
  /// computes the layer followed by that requantisation. Without it the
  /// result is the exact int32 accumulator.
  explicit VTAKernelRunner(vta::CycleModel cycleModel = {},
                           std::optional<int64_t> requantShift = {})
      : cycleModel(cycleModel), requantShift(requantShift) {}

  /// Whether `op` is a kernel this runner executes: a tcg.kernel marked
  /// with tcg.tensorize = "vta.gemm.*".
  static bool handles(mlir::Operation *op);

  /// Runs the packed kernel `op` on `operands` (a Kernel, as the reference
  /// evaluator calls it); failures are diagnostics located at `op`.
  mlir::LogicalResult run(mlir::Operation *op, KernelOperands operands,
                          llvm::SmallVectorImpl<HostTensor> &results);

  const VTARunStats &getStats() const { return stats; }
  void resetStats() { stats = VTARunStats(); }

private:
  vta::CycleModel cycleModel;
  std::optional<int64_t> requantShift;
  VTARunStats stats;
};

} // namespace raf::runtime

#endif // RAF_RUNTIME_VTAKERNELRUNNER_H
