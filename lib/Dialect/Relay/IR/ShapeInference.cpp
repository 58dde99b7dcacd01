//===- ShapeInference.cpp - shared shape functions ------------------------===//

#include "raf/Dialect/Relay/IR/ShapeInference.h"

#include "llvm/Support/MathExtras.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace raf::relay {

namespace {
bool isNumeric(Type element) {
  return isa<FloatType>(element) ||
         (isa<IntegerType>(element) && !element.isInteger(1));
}
} // namespace

LogicalResult verifyRankedTensorOperands(std::optional<Location> loc,
                                         StringRef opName,
                                         ValueRange operands) {
  for (auto [index, operand] : llvm::enumerate(operands))
    if (!isa<RankedTensorType>(operand.getType()))
      return emitOptionalError(loc, opName, ": operand #", index,
                               " must be a ranked tensor, got ",
                               operand.getType());
  return success();
}

LogicalResult verifyInferredTypes(std::optional<Location> loc,
                                  StringRef opName, TypeRange types) {
  for (Type type : types) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      continue;
    if (!TensorType::isValidElementType(tensor.getElementType()))
      return emitOptionalError(loc, opName, ": result element type ",
                               tensor.getElementType(),
                               " is not a valid tensor element type");
    for (int64_t size : tensor.getShape())
      if (size < 0 && !ShapedType::isDynamic(size))
        return emitOptionalError(loc, opName, ": result size ", size,
                                 " is negative (attribute values overflow)");
  }
  return success();
}

LogicalResult verifyElementKind(std::optional<Location> loc, StringRef opName,
                                StringRef operandName, RankedTensorType type,
                                ElementKind kind) {
  Type element = type.getElementType();
  switch (kind) {
  case ElementKind::Float:
    if (isa<FloatType>(element))
      return success();
    return emitOptionalError(loc, opName, ": expects ", operandName,
                             " to be a floating-point tensor, got ", type);
  case ElementKind::Numeric:
    if (isNumeric(element))
      return success();
    return emitOptionalError(loc, opName, ": expects ", operandName,
                             " to be an integer or floating-point tensor, got ",
                             type);
  case ElementKind::Any:
    return success();
  }
  llvm_unreachable("unknown element kind");
}

std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the trailing dimension; missing leading dimensions are 1.
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a == 1) {
      result[i] = b;
    } else if (b == 1) {
      result[i] = a;
    } else if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b)) {
      // A dynamic size broadcasts against a static one only when equal at
      // run time; the static size is then the result.
      result[i] = ShapedType::isDynamic(a) ? b : a;
    } else if (a == b) {
      result[i] = a;
    } else {
      return std::nullopt;
    }
  }
  return result;
}

std::optional<int64_t> windowOutputSize(int64_t in, int64_t kernel,
                                        int64_t padBefore, int64_t padAfter,
                                        int64_t stride, int64_t dilation,
                                        bool ceilMode) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(kernel))
    return ShapedType::kDynamic;
  // span = in + padBefore + padAfter - (dilation * (kernel - 1) + 1), the
  // room left for the window to slide; every step checked.
  int64_t padded, reach, span;
  if (llvm::AddOverflow(in, padBefore, padded) ||
      llvm::AddOverflow(padded, padAfter, padded) ||
      llvm::SubOverflow(kernel, int64_t(1), reach) ||
      llvm::MulOverflow(dilation, reach, reach) ||
      llvm::SubOverflow(padded, reach, span) ||
      llvm::SubOverflow(span, int64_t(1), span))
    return std::nullopt;
  if (span < 0)
    return 0;
  // Rounded up without forming span + stride - 1.
  int64_t steps = span / stride;
  if (ceilMode && span % stride != 0)
    ++steps;
  int64_t out;
  if (llvm::AddOverflow(steps, int64_t(1), out))
    return std::nullopt;
  // A window starting inside the trailing padding is dropped (PyTorch); a
  // start beyond int64_t is beyond in + padBefore too.
  int64_t start;
  if (ceilMode && (llvm::MulOverflow(out - 1, stride, start) ||
                   start >= in + padBefore))
    --out;
  return out;
}

FailureOr<int64_t> normalizeAxis(std::optional<Location> loc, StringRef opName,
                                 StringRef what, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    (void)emitOptionalError(loc, opName, ": ", what, " ", axis,
                            " is out of range for a tensor of rank ", rank,
                            " (expected a value in [", -rank, ", ", rank,
                            "))");
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<std::array<int64_t, 4>>
expandPadding2D(std::optional<Location> loc, StringRef opName,
                ArrayRef<int64_t> padding) {
  std::array<int64_t, 4> result;
  switch (padding.size()) {
  case 1:
    result = {padding[0], padding[0], padding[0], padding[0]};
    break;
  case 2:
    result = {padding[0], padding[1], padding[0], padding[1]};
    break;
  case 4:
    result = {padding[0], padding[1], padding[2], padding[3]};
    break;
  default:
    (void)emitOptionalError(loc, opName,
                            ": padding must have 1, 2 or 4 values, got ",
                            padding.size());
    return failure();
  }
  if (llvm::any_of(result, [](int64_t p) { return p < 0; })) {
    (void)emitOptionalError(loc, opName, ": padding must be non-negative");
    return failure();
  }
  return result;
}

LogicalResult inferElementwise(std::optional<Location> loc, StringRef opName,
                               Value x, ElementKind kind,
                               SmallVectorImpl<Type> &inferred) {
  auto type = cast<RankedTensorType>(x.getType());
  if (failed(verifyElementKind(loc, opName, "the operand", type, kind)))
    return failure();
  inferred.push_back(type);
  return success();
}

LogicalResult inferBroadcast(std::optional<Location> loc, StringRef opName,
                             Value lhs, Value rhs, ElementKind kind,
                             bool isComparison,
                             SmallVectorImpl<Type> &inferred) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  if (lhsType.getElementType() != rhsType.getElementType())
    return emitOptionalError(loc, opName,
                             ": operands must have the same element type, got ",
                             lhsType, " and ", rhsType);
  if (failed(verifyElementKind(loc, opName, "the operands", lhsType, kind)))
    return failure();
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(lhsType.getShape(), rhsType.getShape());
  if (!shape)
    return emitOptionalError(loc, opName, ": shapes of ", lhsType, " and ",
                             rhsType,
                             " are not broadcastable (trailing dimensions must "
                             "be equal or 1)");
  Type element = isComparison ? IntegerType::get(lhs.getContext(), 1)
                              : lhsType.getElementType();
  inferred.push_back(RankedTensorType::get(*shape, element));
  return success();
}

LogicalResult inferAxisPreserving(std::optional<Location> loc,
                                  StringRef opName, Value x, int64_t axis,
                                  SmallVectorImpl<Type> &inferred) {
  auto type = cast<RankedTensorType>(x.getType());
  if (failed(verifyElementKind(loc, opName, "the operand", type,
                               ElementKind::Float)))
    return failure();
  if (type.getRank() == 0)
    return emitOptionalError(loc, opName,
                             ": expects a tensor of rank >= 1, got ", type);
  if (failed(normalizeAxis(loc, opName, "axis", axis, type.getRank())))
    return failure();
  inferred.push_back(type);
  return success();
}

LogicalResult inferReduction(std::optional<Location> loc, StringRef opName,
                             Value x, std::optional<ArrayRef<int64_t>> axes,
                             bool keepdims, bool exclude, Type resultElement,
                             SmallVectorImpl<Type> &inferred) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  llvm::SmallBitVector listed(rank, !axes.has_value());
  if (axes) {
    for (int64_t axis : *axes) {
      FailureOr<int64_t> normalized =
          normalizeAxis(loc, opName, "reduction axis", axis, rank);
      if (failed(normalized))
        return failure();
      if (listed.test(*normalized))
        return emitOptionalError(loc, opName, ": reduction axis ", axis,
                                 " is listed twice");
      listed.set(*normalized);
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = exclude && axes ? !listed.test(i) : listed.test(i);
    if (!reduced)
      shape.push_back(type.getDimSize(i));
    else if (keepdims)
      shape.push_back(1);
  }
  inferred.push_back(RankedTensorType::get(
      shape, resultElement ? resultElement : type.getElementType()));
  return success();
}

} // namespace raf::relay
