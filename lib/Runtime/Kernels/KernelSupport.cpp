//===- KernelSupport.cpp - helpers shared by the operator kernels ---------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"

using namespace raf::runtime;
using namespace raf::runtime::kernels;

FailureOr<DType> kernels::resultDType(Operation *op, unsigned index) {
  auto type =
      llvm::cast<mlir::RankedTensorType>(op->getResult(index).getType());
  std::optional<DType> dtype = dtypeFromMLIR(type.getElementType());
  if (!dtype)
    return op->emitOpError("result element type ")
           << type.getElementType()
           << " is not supported by the reference evaluator";
  return *dtype;
}

void kernels::forEachIndex(ArrayRef<int64_t> shape,
                           llvm::function_ref<void(ArrayRef<int64_t>)> body) {
  for (int64_t size : shape)
    if (size == 0)
      return;
  SmallVector<int64_t> coords(shape.size(), 0);
  while (true) {
    body(coords);
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++coords[d] < shape[d])
        break;
      coords[d] = 0;
    }
    if (d < 0)
      return;
  }
}

int64_t kernels::offsetOf(ArrayRef<int64_t> coords, ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  for (auto [coord, stride] : llvm::zip_equal(coords, strides))
    offset += coord * stride;
  return offset;
}

SmallVector<int64_t> kernels::broadcastStrides(ArrayRef<int64_t> shape,
                                               int64_t outRank) {
  SmallVector<int64_t> strides(outRank, 0);
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (shape[d] != 1)
      strides[outRank - rank + d] = stride;
    stride *= shape[d];
  }
  return strides;
}

FailureOr<SmallVector<int64_t>>
kernels::broadcastOperands(Operation *op,
                           ArrayRef<const HostTensor *> operands) {
  SmallVector<int64_t> shape(operands.front()->getShape());
  for (const HostTensor *operand : operands.drop_front()) {
    auto next = raf::relay::broadcastShapes(shape, operand->getShape());
    if (!next) {
      auto diag = op->emitOpError("operand shapes are not broadcastable at "
                                  "run time:");
      for (const HostTensor *t : operands)
        diag << " " << t->getTypeString();
      return diag;
    }
    shape = *next;
  }
  return shape;
}

std::array<int64_t, 4> kernels::layoutPositions(relay::LayoutAttr layout,
                                                llvm::StringRef canonical) {
  return *layout.getPositions(canonical);
}

std::array<int64_t, 4> kernels::expandPadding(ArrayRef<int64_t> padding) {
  // The op verifier has accepted the padding, so the expansion succeeds.
  return *relay::expandPadding2D(std::nullopt, "", padding);
}

void kernels::copyElement(const HostTensor &tensor, int64_t index,
                          HostTensor &out, int64_t outIndex) {
  if (isFloat(tensor.getDType()))
    out.setDouble(outIndex, tensor.getDouble(index));
  else
    out.setInt(outIndex, tensor.getInt(index));
}
