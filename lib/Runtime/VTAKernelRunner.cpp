//===- VTAKernelRunner.cpp - VTA launches in the evaluator ----------------===//

#include "raf/Runtime/VTAKernelRunner.h"

#include "raf/Dialect/VTA/IR/VTAOps.h"
#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Error.h"

using namespace mlir;
using namespace raf;
using namespace raf::runtime;

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

  auto type = cast<RankedTensorType>(launch.getResult().getType());
  HostTensor result(DType::I32, type.getShape());
  SmallVector<int64_t> resultStrides = result.getStrides();
  SmallVector<int64_t> inputStrides, weightStrides;
  auto view = [](HostTensor &tensor, SmallVectorImpl<int64_t> &strides) {
    strides = tensor.getStrides();
    return VTATensorView{tensor.data(), tensor.getShape(), strides};
  };
  // The runtime only reads the operands.
  HostTensor &input =
      const_cast<HostTensor &>(*operands[layout.getInputOperand()]);
  HostTensor &weight =
      const_cast<HostTensor &>(*operands[layout.getWeightOperand()]);
  VTALaunchLayout offsets{layout.getInputOffset(), layout.getWeightOffset(),
                          layout.getResultOffset(), layout.getResultPlanes(),
                          layout.getSize(), layout.getBiasOffset().value_or(-1)};
  // A fused bias: the int32 rows of the third operand.
  SmallVector<int64_t> biasStrides;
  std::optional<VTATensorView> bias;
  if (layout.hasBias())
    bias = view(const_cast<HostTensor &>(*operands[2]), biasStrides);
  if (llvm::Error error = runtime.launch(
          launch.getProgram(), cached->second, offsets,
          view(input, inputStrides), view(weight, weightStrides),
          view(result, resultStrides), bias ? &*bias : nullptr))
    return op->emitError(llvm::toString(std::move(error)));
  results.push_back(std::move(result));
  return success();
}
