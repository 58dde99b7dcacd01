//===- RelayInterfaces.cpp - operator property interfaces -----------------===//

#include "raf/Dialect/Relay/IR/RelayInterfaces.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

int64_t raf::relay::detail::countElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  return tensor.getNumElements();
}

int64_t raf::relay::detail::typeBytes(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return sumTypeBytes(tuple.getTypes());
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return 0;
  int64_t elementBytes =
      (tensor.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  return tensor.getNumElements() * elementBytes;
}

int64_t raf::relay::detail::sumTypeBytes(TypeRange types) {
  int64_t total = 0;
  for (Type type : types)
    total += typeBytes(type);
  return total;
}

int64_t raf::relay::detail::countResultElements(Operation *op) {
  int64_t total = 0;
  for (Type type : op->getResultTypes())
    total += countElements(type);
  return total;
}

#include "raf/Dialect/Relay/IR/RelayEnums.cpp.inc"
#include "raf/Dialect/Relay/IR/RelayInterfaces.cpp.inc"
