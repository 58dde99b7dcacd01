//===- Helpers.cpp - shared helpers of the TOSA to relay patterns ---------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace raf::tosa_to_relay {

bool isAttributeOperand(OpOperand &use) {
  return TypeSwitch<Operation *, bool>(use.getOwner())
      .Case<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>([&](auto op) {
        return &use == &op.getInputZpMutable() ||
               &use == &op.getWeightZpMutable();
      })
      .Case([&](tosa::MatMulOp op) {
        return &use == &op.getAZpMutable() || &use == &op.getBZpMutable();
      })
      .Case([&](tosa::AvgPool2dOp op) {
        return &use == &op.getInputZpMutable() ||
               &use == &op.getOutputZpMutable();
      })
      .Case([&](tosa::NegateOp op) {
        return &use == &op.getInput1ZpMutable() ||
               &use == &op.getOutputZpMutable();
      })
      .Case([&](tosa::MulOp op) { return &use == &op.getShiftMutable(); })
      .Case([&](tosa::PadOp op) { return &use == &op.getPadConstMutable(); })
      .Default([](Operation *) { return false; });
}

std::optional<SmallVector<int64_t>> getConstantShape(Value shape) {
  auto constShape = shape.getDefiningOp<tosa::ConstShapeOp>();
  if (!constShape)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &value : constShape.getValues().getValues<APInt>())
    values.push_back(value.getSExtValue());
  return values;
}

/// The elements of a constant `value` as `T`, or nothing when `value` is not
/// a constant or its elements cannot be iterated as `T`: a `dense_resource`
/// constant keeps its data in an opaque blob, and `getValues` on it would
/// abort or loop.
template <typename T>
static std::optional<ElementsAttr::iterator_range<T>>
getConstantValues(Value value) {
  ElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return attr.tryGetValues<T>();
}

std::optional<double> getScalarConstant(Value value) {
  Type element = getElementTypeOrSelf(value.getType());
  if (isa<FloatType>(element)) {
    std::optional<ElementsAttr::iterator_range<APFloat>> values =
        getConstantValues<APFloat>(value);
    if (!values || values->size() != 1)
      return std::nullopt;
    return (*values->begin()).convertToDouble();
  }
  if (!isa<IntegerType>(element))
    return std::nullopt;
  std::optional<ElementsAttr::iterator_range<APInt>> values =
      getConstantValues<APInt>(value);
  if (!values || values->size() != 1)
    return std::nullopt;
  APInt scalar = *values->begin();
  if (element.isInteger(1))
    return scalar.getBoolValue() ? 1.0 : 0.0;
  return static_cast<double>(scalar.getSExtValue());
}

bool isConstantZero(Value value) {
  Type element = getElementTypeOrSelf(value.getType());
  if (isa<FloatType>(element)) {
    std::optional<ElementsAttr::iterator_range<APFloat>> values =
        getConstantValues<APFloat>(value);
    return values &&
           llvm::all_of(*values, [](const APFloat &v) { return v.isZero(); });
  }
  if (isa<IntegerType>(element)) {
    std::optional<ElementsAttr::iterator_range<APInt>> values =
        getConstantValues<APInt>(value);
    return values &&
           llvm::all_of(*values, [](const APInt &v) { return v.isZero(); });
  }
  return false;
}

bool isUnreadableConstant(Value value) {
  ElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  Type element = attr.getElementType();
  if (isa<FloatType>(element))
    return !attr.try_value_begin<APFloat>();
  if (isa<IntegerType>(element))
    return !attr.try_value_begin<APInt>();
  return true;
}

Value createScalarConstant(OpBuilder &builder, Location loc, Type elementType,
                           double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute scalar;
  if (auto floatType = dyn_cast<FloatType>(elementType))
    scalar = builder.getFloatAttr(floatType, value);
  else
    scalar = builder.getIntegerAttr(elementType, static_cast<int64_t>(value));
  return relay::ConstantOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, scalar));
}

SmallVector<int64_t> toRelayPadding(ArrayRef<int64_t> tosaPad) {
  return {tosaPad[0], tosaPad[2], tosaPad[1], tosaPad[3]};
}

} // namespace raf::tosa_to_relay
