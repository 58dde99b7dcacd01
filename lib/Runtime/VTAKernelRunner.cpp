//===- VTAKernelRunner.cpp - VTA launches on the simulator ----------------===//

#include "raf/Runtime/VTAKernelRunner.h"

#include "raf/Conversion/Passes.h"
#include "raf/Dialect/VTA/IR/VTAOps.h"
#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"
#include "raf/Support/ResourceLimits.h"
#include "raf/Target/VTA/Simulator.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace raf;
using namespace raf::runtime;

LogicalResult raf::runtime::compileForVTA(ModuleOp module,
                                          std::optional<int64_t> requantShift) {
  // A requantisation shift is compiled into the programs: launches compiled
  // before cannot take one.
  if (requantShift) {
    WalkResult walk = module.walk([](vta::LaunchOp launch) {
      launch.emitError("this launch was compiled before; a requantisation "
                       "shift applies only to packed kernels compiled now "
                       "(give requant-shift to --convert-tcg-to-vta)");
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  PassManager pm(module.getContext());
  VTAScheduleOptions scheduleOptions;
  ConvertTCGToVTAOptions convertOptions;
  if (requantShift) {
    scheduleOptions.requantShift = *requantShift;
    convertOptions.requantShift = *requantShift;
  }
  pm.addPass(createVTASchedule(scheduleOptions));
  pm.addPass(createConvertTCGToVTA(convertOptions));
  pm.addPass(createConvertVTAToVTAISA());
  return pm.run(module);
}

bool VTAKernelRunner::handles(Operation *op) { return isa<vta::LaunchOp>(op); }

LogicalResult VTAKernelRunner::run(Operation *op, KernelOperands operands,
                                   SmallVectorImpl<HostTensor> &results) {
  auto launch = cast<vta::LaunchOp>(op);
  Operation *target =
      SymbolTable::lookupNearestSymbolFrom(op, launch.getProgramAttr());
  auto programOp = dyn_cast_or_null<vta_isa::ProgramOp>(target);
  if (!programOp)
    return op->emitError("'")
           << launch.getProgram()
           << "' is not an assembled vta_isa.program (run "
              "--convert-vta-to-vta-isa)";
  vta::DramLayoutAttr layout = programOp.getDramAttr();
  if (!layout)
    return op->emitError("program '")
           << launch.getProgram() << "' has no dram layout";
  auto cached = programs.find(programOp);
  if (cached == programs.end())
    cached = programs.try_emplace(programOp, programOp.getProgram()).first;
  const vta::Program &program = cached->second;

  // The simulated DRAM is checked like raf-vta-sim's (--max-dram-bytes).
  if (std::optional<std::string> problem = checkResourceLimit(
          ResourceLimit::DRAMBytes, static_cast<uint64_t>(layout.getSize())))
    return op->emitError("cannot simulate the launch's DRAM image: ")
           << *problem;
  std::vector<uint8_t> dram(layout.getSize(), 0);
  // The verifiers of the launch and the layout keep every transfer inside
  // the image; checked again here because the copies are raw.
  auto fits = [&](int64_t offset, int64_t bytes) {
    return offset >= 0 && bytes >= 0 &&
           uint64_t(bytes) <= dram.size() - std::min<uint64_t>(offset, dram.size());
  };
  auto place = [&](int64_t operand, int64_t offset) {
    const HostTensor &tensor = *operands[operand];
    if (!fits(offset, tensor.getNumBytes()))
      return false;
    std::memcpy(dram.data() + offset, tensor.data(), tensor.getNumBytes());
    return true;
  };
  auto type = cast<RankedTensorType>(launch.getResult().getType());
  int64_t count = type.getNumElements();
  if (!place(layout.getInputOperand(), layout.getInputOffset()) ||
      !place(layout.getWeightOperand(), layout.getWeightOffset()) ||
      !fits(layout.getResultOffset(), count * layout.getResultPlanes()))
    return op->emitError("the launch's operands or result do not fit the ")
           << layout.getSize() << "-byte DRAM image of '"
           << launch.getProgram() << "'";

  vta::SimulatorOptions options;
  options.cycleModel = cycleModel;
  llvm::Expected<vta::SimulationResult> simulated =
      vta::simulate(program, dram, options);
  if (!simulated)
    return op->emitError("VTA simulation failed: ")
           << llvm::toString(simulated.takeError());
  ++stats.kernels;
  stats.cycles += simulated->cycles;
  stats.instructions += program.instructions.size();
  stats.uops += program.uops.size();

  // Plane k holds bits [8k, 8k + 8) of every int32 element, in the packed
  // result's row-major order; a single (requantised) plane is sign-extended.
  HostTensor result(DType::I32, type.getShape());
  const uint8_t *planes = dram.data() + layout.getResultOffset();
  for (int64_t i = 0; i < count; ++i) {
    if (layout.getResultPlanes() == 1) {
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
