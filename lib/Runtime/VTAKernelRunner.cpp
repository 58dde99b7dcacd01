//===- VTAKernelRunner.cpp - packed kernels on the VTA simulator ----------===//
//
// The kernel is lowered on every call: lowering is cheap next to simulating,
// and keeping no cache means the program always matches the IR it runs.
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/VTAKernelRunner.h"

#include "raf/Conversion/TCGToVTA/TCGToVTA.h"
#include "raf/Support/ResourceLimits.h"
#include "raf/Target/VTA/Simulator.h"

#include "llvm/Support/Error.h"

#include <cstring>
#include <vector>

using namespace mlir;
using namespace raf;
using namespace raf::runtime;

bool VTAKernelRunner::handles(Operation *op) {
  auto kernel = dyn_cast<tcg::KernelOp>(op);
  if (!kernel)
    return false;
  return vta::isVTAKernel(kernel);
}

LogicalResult VTAKernelRunner::run(Operation *op, KernelOperands operands,
                                   SmallVectorImpl<HostTensor> &results) {
  auto kernel = cast<tcg::KernelOp>(op);
  vta::PackedGemmLoweringOptions loweringOptions;
  loweringOptions.requantShift = requantShift;
  FailureOr<vta::PackedGemmLowering> lowering =
      vta::lowerPackedGemm(kernel, loweringOptions);
  if (failed(lowering))
    return failure();

  // The simulated DRAM is checked like raf-vta-sim's (--max-dram-bytes).
  if (std::optional<std::string> problem = checkResourceLimit(
          ResourceLimit::DRAMBytes, static_cast<uint64_t>(lowering->dramBytes)))
    return op->emitError("cannot simulate the kernel's DRAM image: ")
           << *problem;
  std::vector<uint8_t> dram(lowering->dramBytes, 0);
  auto place = [&](unsigned operand, int64_t offset) {
    const HostTensor &tensor = *operands[operand];
    std::memcpy(dram.data() + offset, tensor.data(), tensor.getNumBytes());
  };
  place(lowering->inputOperand, lowering->inputOffset);
  place(lowering->weightOperand, lowering->weightOffset);

  vta::SimulatorOptions options;
  options.cycleModel = cycleModel;
  llvm::Expected<vta::SimulationResult> simulated =
      vta::simulate(lowering->program, dram, options);
  if (!simulated)
    return op->emitError("VTA simulation failed: ")
           << llvm::toString(simulated.takeError());
  ++stats.kernels;
  stats.cycles += simulated->cycles;
  stats.instructions += lowering->program.instructions.size();
  stats.uops += lowering->program.uops.size();

  // Plane k holds bits [8k, 8k + 8) of every int32 element, in the packed
  // result's row-major order; a single (requantised) plane is sign-extended.
  auto type = cast<RankedTensorType>(kernel.getResult().getType());
  HostTensor result(DType::I32, type.getShape());
  int64_t count = result.getNumElements();
  const uint8_t *planes = dram.data() + lowering->resultOffset;
  for (int64_t i = 0; i < count; ++i) {
    if (lowering->numPlanes == 1) {
      result.setInt(i, int8_t(planes[i]));
      continue;
    }
    uint32_t value = 0;
    for (unsigned plane = 0; plane < 4; ++plane)
      value |= uint32_t(planes[plane * count + i]) << (8 * plane);
    result.setInt(i, int32_t(value));
  }
  results.push_back(std::move(result));
  return success();
}
