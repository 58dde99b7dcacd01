//===- LoweringHelpers.cpp - IR builders shared by the relay lowering -----===//

#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace raf::relay_to_linalg {

RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

Value createScalar(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // Round the double into the target format (f16, bf16, ...).
    APFloat converted(value);
    bool losesInfo;
    converted.convert(floatType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
    return arith::ConstantOp::create(b, loc, type,
                                     b.getFloatAttr(type, converted));
  }
  return arith::ConstantOp::create(
      b, loc, type, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value createLowest(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc, type,
        b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                             /*Negative=*/true)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt lowest = width == 1 ? APInt(1, 0) : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, type,
                                   b.getIntegerAttr(type, lowest));
}

Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   Value scalar) {
  Value empty = createEmpty(b, loc, type);
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{empty})
      .getResult(0);
}

AffineMap getBroadcastMap(MLIRContext *context, ArrayRef<int64_t> operandShape,
                          ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  int64_t offset = rank - static_cast<int64_t>(operandShape.size());
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(operandShape)) {
    int64_t dim = offset + i;
    if (size == 1 && resultShape[dim] != 1)
      exprs.push_back(getAffineConstantExpr(0, context));
    else
      exprs.push_back(getAffineDimExpr(dim, context));
  }
  return AffineMap::get(rank, 0, exprs, context);
}

AffineMap getDropDimsMap(MLIRContext *context, int64_t rank,
                         ArrayRef<int64_t> dropped) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dropped, d))
      exprs.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(rank, 0, exprs, context);
}

Value createParallelGeneric(OpBuilder &b, Location loc,
                            RankedTensorType resultType, ValueRange inputs,
                            ArrayRef<AffineMap> inputMaps, ScalarBodyFn body) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = createEmpty(b, loc, resultType);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value createElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                        ValueRange inputs, ScalarBodyFn body) {
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(getBroadcastMap(b.getContext(),
                                   getTensorType(input).getShape(),
                                   resultType.getShape()));
  return createParallelGeneric(b, loc, resultType, inputs, maps, body);
}

Value createReduction(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> dims, Value init, CombinerFn combine) {
  RankedTensorType type = getTensorType(input);
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(type.getDimSize(d));
  auto resultType = RankedTensorType::get(kept, type.getElementType());
  Value filled = createFilled(b, loc, resultType, init);
  SmallVector<int64_t> sorted(dims);
  llvm::sort(sorted);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{filled}, sorted,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value combined = combine(nested, nestedLoc, args[0], args[1]);
        linalg::YieldOp::create(nested, nestedLoc, combined);
      });
  return reduce.getResult(0);
}

Value createReshape(OpBuilder &b, Location loc, Value input,
                    RankedTensorType type) {
  RankedTensorType source = getTensorType(input);
  if (source.getShape() == type.getShape())
    return input;
  if (source.getRank() > type.getRank()) {
    if (auto reassociation = getReassociationIndicesForReshape(source, type))
      return tensor::CollapseShapeOp::create(b, loc, type, input,
                                             *reassociation);
  } else if (source.getRank() < type.getRank()) {
    if (auto reassociation = getReassociationIndicesForReshape(source, type))
      return tensor::ExpandShapeOp::create(b, loc, type, input, *reassociation);
  }
  // Through a 1-D tensor (or rank 0 when the element count is 1 and one
  // side is rank 0, where the reassociation is empty).
  Value flat = input;
  if (source.getRank() != 1) {
    auto flatType = RankedTensorType::get({source.getNumElements()},
                                          source.getElementType());
    SmallVector<ReassociationIndices> all;
    if (source.getRank() > 0)
      all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, source.getRank())));
    flat =
        source.getRank() == 0
            ? (Value)tensor::ExpandShapeOp::create(b, loc, flatType, input, all)
            : (Value)tensor::CollapseShapeOp::create(b, loc, flatType, input,
                                                     all);
  }
  if (type.getRank() == 1)
    return flat;
  SmallVector<ReassociationIndices> all;
  if (type.getRank() > 0)
    all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())));
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat, all);
  return tensor::ExpandShapeOp::create(b, loc, type, flat, all);
}

Value createPad(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, Value padValue) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  RankedTensorType type = getTensorType(input);
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(type.getDimSize(d) + low[d] + high[d]);
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  bool negative = llvm::any_of(low, [](int64_t p) { return p < 0; }) ||
                  llvm::any_of(high, [](int64_t p) { return p < 0; });
  if (negative || !type.hasStaticShape()) {
    SmallVector<OpFoldResult> lowSizes, highSizes;
    for (int64_t d = 0; d < rank; ++d) {
      lowSizes.push_back(index(low[d]));
      highSizes.push_back(index(high[d]));
    }
    return tensor::PadOp::create(b, loc, resultType, input, lowSizes,
                                 highSizes, padValue);
  }
  // The input copied into an uninitialised buffer, then only the border
  // filled: a slab of `low[d]` / `high[d]` elements at each end of every
  // padded axis (spanning the whole buffer in the other axes, so the slabs
  // cover the corners). tensor.pad bufferizes to a fill of the whole
  // padded buffer before the copy, which writes every interior element
  // twice: for a 3x3 depthwise convolution's 1x96x114x114 input, 1.25M
  // stores of the pad value instead of 44K.
  SmallVector<OpFoldResult> ones(rank, index(1));
  SmallVector<OpFoldResult> interiorOffsets, inputSizes;
  for (int64_t d = 0; d < rank; ++d) {
    interiorOffsets.push_back(index(low[d]));
    inputSizes.push_back(index(type.getDimSize(d)));
  }
  Value padded =
      tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  padded = tensor::InsertSliceOp::create(b, loc, input, padded,
                                         interiorOffsets, inputSizes, ones);
  auto fillSlab = [&](int64_t axis, int64_t offset, int64_t size) {
    SmallVector<OpFoldResult> offsets(rank, index(0)), sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(index(shape[d]));
    offsets[axis] = index(offset);
    sizes[axis] = index(size);
    Value slab =
        tensor::ExtractSliceOp::create(b, loc, padded, offsets, sizes, ones);
    Value filled =
        linalg::FillOp::create(b, loc, padValue, slab).getResult(0);
    padded = tensor::InsertSliceOp::create(b, loc, filled, padded, offsets,
                                           sizes, ones);
  };
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] > 0)
      fillSlab(d, 0, low[d]);
    if (high[d] > 0)
      fillSlab(d, low[d] + type.getDimSize(d), high[d]);
  }
  return padded;
}

bool movesOnlyUnitAxes(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  int64_t previous = -1;
  for (int64_t axis : perm) {
    if (shape[axis] == 1)
      continue;
    if (axis < previous)
      return false;
    previous = axis;
  }
  return true;
}

Value createTranspose(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return input;
  RankedTensorType type = getTensorType(input);
  SmallVector<int64_t> shape;
  for (int64_t axis : perm)
    shape.push_back(type.getDimSize(axis));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  // Moving only axes of size 1 keeps every element at its row-major
  // position: a reshape, which bufferizes to a view instead of a copy
  // (Relay's grouped-convolution weight gradient moves the batch axis of a
  // batch-1 input this way, [1, 1, C, H, W] -> [C, 1, 1, H, W]).
  if (type.hasStaticShape() && movesOnlyUnitAxes(type.getShape(), perm))
    return createReshape(b, loc, input, resultType);
  Value init = createEmpty(b, loc, resultType);
  return linalg::TransposeOp::create(b, loc, input, init, perm).getResult()[0];
}

Value createLinearIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                        ArrayRef<int64_t> dims) {
  Value linear;
  for (int64_t d : dims) {
    Value index = linalg::IndexOp::create(b, loc, d);
    if (!linear) {
      linear = index;
      continue;
    }
    Value size = arith::ConstantIndexOp::create(b, loc, shape[d]);
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, size), index);
  }
  return linear ? linear : arith::ConstantIndexOp::create(b, loc, 0);
}

Value convertScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, value);
    // Same width, different format (f16 <-> bf16): through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (toFloat) {
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  if (to.isInteger(1)) {
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   createScalar(b, loc, from, 0.0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 createScalar(b, loc, from, 0.0));
  }
  if (fromFloat)
    return arith::FPToSIOp::create(b, loc, to, value);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, to, value);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(b, loc, to, value);
  return arith::ExtSIOp::create(b, loc, to, value);
}

Value computeInF32(OpBuilder &b, Location loc, Value x,
                   function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto floatType = cast<FloatType>(x.getType());
  if (floatType.getWidth() >= 32)
    return fn(b, loc, x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, floatType, fn(b, loc, wide));
}

SmallVector<int64_t> getLayoutToCanonical(relay::LayoutAttr layout,
                                          StringRef canonical) {
  return llvm::to_vector(*layout.getPositions(canonical));
}

SmallVector<int64_t> getCanonicalToLayout(relay::LayoutAttr layout,
                                          StringRef canonical) {
  SmallVector<int64_t> perm;
  for (char letter : layout.getName())
    perm.push_back(canonical.find(letter));
  return perm;
}

} // namespace raf::relay_to_linalg
