//===- AdjointBuilder.cpp - shared pieces of the gradient rules -----------===//

#include "AdjointBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace mlir;
using namespace raf::relay;
using namespace raf::relay::grad;

RankedTensorType grad::tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

SmallVector<int64_t> grad::iota(int64_t count, int64_t start) {
  SmallVector<int64_t> values(count);
  std::iota(values.begin(), values.end(), start);
  return values;
}

int64_t grad::product(ArrayRef<int64_t> dims) {
  int64_t total = 1;
  for (int64_t d : dims)
    total *= d;
  return total;
}

SmallVector<int64_t> grad::inversePermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return inverse;
}

SmallVector<int64_t> grad::allAxesBut(int64_t axis, int64_t rank) {
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      axes.push_back(i);
  return axes;
}

AdjointBuilder::AdjointBuilder(OpBuilder &builder, Operation *op,
                               ValueRange resultGradients,
                               SmallVectorImpl<Value> &operandGradients)
    : b(builder), op(op), loc(op->getLoc()),
      resultGradients(resultGradients.begin(), resultGradients.end()),
      operandGradients(operandGradients) {
  this->resultGradients.resize(op->getNumResults());
  operandGradients.assign(op->getNumOperands(), Value());
}

bool AdjointBuilder::hasResultGradient(unsigned index) const {
  return static_cast<bool>(resultGradients[index]);
}

Value AdjointBuilder::resultGradient(unsigned index) {
  if (!resultGradients[index])
    resultGradients[index] = zeros(op->getResult(index).getType());
  return resultGradients[index];
}

bool AdjointBuilder::wantsGradient(unsigned index) const {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(index).getType());
  return type && isa<FloatType>(type.getElementType());
}

void AdjointBuilder::setOperandGradient(unsigned index, Value gradient) {
  if (wantsGradient(index))
    operandGradients[index] = gradient;
}

InFlightDiagnostic AdjointBuilder::emitError() { return op->emitOpError(); }

LogicalResult AdjointBuilder::requireStaticShape(Value value) {
  RankedTensorType type = tensorType(value);
  if (type.hasStaticShape())
    return success();
  return emitError() << "has no gradient for the dynamic shape " << type;
}

Value AdjointBuilder::scalar(double value, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute element;
  if (auto floatType = dyn_cast<FloatType>(elementType))
    element = FloatAttr::get(floatType, value);
  else
    element = IntegerAttr::get(elementType, static_cast<int64_t>(value));
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, element));
}

Value AdjointBuilder::scalarLike(double value, Value like) {
  return scalar(value, tensorType(like).getElementType());
}

Value AdjointBuilder::zeros(Type tensorType) {
  auto type = llvm::cast<RankedTensorType>(tensorType);
  return ZerosOp::create(b, loc, type.getShape(), type.getElementType());
}

Value AdjointBuilder::constant(ArrayRef<int64_t> values,
                               ArrayRef<int64_t> shape, Type elementType) {
  auto type = RankedTensorType::get(shape, elementType);
  SmallVector<Attribute> elements;
  for (int64_t v : values) {
    if (auto floatType = dyn_cast<FloatType>(elementType))
      elements.push_back(FloatAttr::get(floatType, static_cast<double>(v)));
    else
      elements.push_back(IntegerAttr::get(elementType, v));
  }
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, elements));
}

Value AdjointBuilder::add(Value x, Value y) {
  return AddOp::create(b, loc, x, y);
}
Value AdjointBuilder::sub(Value x, Value y) {
  return SubtractOp::create(b, loc, x, y);
}
Value AdjointBuilder::mul(Value x, Value y) {
  return MultiplyOp::create(b, loc, x, y);
}
Value AdjointBuilder::div(Value x, Value y) {
  return DivideOp::create(b, loc, x, y);
}
Value AdjointBuilder::neg(Value x) { return NegativeOp::create(b, loc, x); }
Value AdjointBuilder::scale(Value x, double factor) {
  return mul(x, scalarLike(factor, x));
}
Value AdjointBuilder::cast(Value x, Type elementType) {
  if (tensorType(x).getElementType() == elementType)
    return x;
  return CastOp::create(b, loc, x, elementType);
}
Value AdjointBuilder::select(Value condition, Value x, Value y) {
  return WhereOp::create(b, loc, condition, x, y);
}

Value AdjointBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (tensorType(x).getShape() == shape)
    return x;
  return ReshapeOp::create(b, loc, x, shape);
}

Value AdjointBuilder::transpose(Value x, ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, iota(permutation.size())))
    return x;
  return TransposeOp::create(b, loc, x, b.getDenseI64ArrayAttr(permutation));
}

Value AdjointBuilder::broadcastTo(Value x, ArrayRef<int64_t> shape) {
  if (tensorType(x).getShape() == shape)
    return x;
  return BroadcastToOp::create(b, loc, x, shape);
}

Value AdjointBuilder::sum(Value x, ArrayRef<int64_t> axes, bool keepdims) {
  if (axes.empty())
    return x;
  return SumOp::create(b, loc, x, b.getDenseI64ArrayAttr(axes), keepdims,
                       /*exclude=*/false);
}

Value AdjointBuilder::mean(Value x, ArrayRef<int64_t> axes, bool keepdims) {
  if (axes.empty())
    return x;
  return MeanOp::create(b, loc, x, b.getDenseI64ArrayAttr(axes), keepdims,
                        /*exclude=*/false);
}

Value AdjointBuilder::collapseSumLike(Value gradient, Type like) {
  ArrayRef<int64_t> target = llvm::cast<RankedTensorType>(like).getShape();
  ArrayRef<int64_t> shape = tensorType(gradient).getShape();
  if (shape == target)
    return gradient;
  // Broadcasting aligns trailing dimensions: the leading extra ones and the
  // target's size-1 dimensions that were stretched are summed away.
  int64_t extra = shape.size() - target.size();
  SmallVector<int64_t> axes;
  for (int64_t i = 0, e = shape.size(); i < e; ++i)
    if (i < extra || (target[i - extra] == 1 && shape[i] != 1))
      axes.push_back(i);
  return reshape(sum(gradient, axes, /*keepdims=*/true), target);
}

Value AdjointBuilder::slice(Value x, ArrayRef<int64_t> begin,
                            ArrayRef<int64_t> end, ArrayRef<int64_t> strides,
                            ArrayRef<int64_t> axes) {
  return StridedSliceOp::create(b, loc, x, begin, end,
                                b.getDenseI64ArrayAttr(strides),
                                b.getDenseI64ArrayAttr(axes));
}

Value AdjointBuilder::pad(Value x, ArrayRef<int64_t> padWidth) {
  if (llvm::all_of(padWidth, [](int64_t p) { return p == 0; }))
    return x;
  return PadOp::create(b, loc, x, padWidth, APFloat(0.0),
                       PadMode::Constant);
}

Value AdjointBuilder::reverse(Value x, int64_t axis) {
  int64_t size = tensorType(x).getDimSize(axis);
  SmallVector<int64_t> indices = iota(size);
  std::reverse(indices.begin(), indices.end());
  Value reversed = constant(indices, {size}, b.getI64Type());
  return TakeOp::create(b, loc, x, reversed, b.getI64IntegerAttr(axis),
                        TakeMode::Clip);
}
