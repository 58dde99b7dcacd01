//===- SimplifyInference.cpp - inference batch norm as a scale and shift --===//
//
// TVM's SimplifyInference (Chen et al., OSDI 2018, §3): a batch
// normalisation with fixed (moving) statistics is an affine map per channel,
//
//   y = x * s + (beta - mean * s),   s = gamma * rsqrt(var + epsilon),
//
// so it is rewritten into broadcast relay operators before fusion. The
// per-channel factors are computed on [C] vectors once; the two
// element-wise operators on x then fuse with the convolution before them
// and the activation after it (the batch norm itself is opaque to fusion),
// so the whole block makes one pass over the convolution's output.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace raf {
#define GEN_PASS_DEF_RAFSIMPLIFYINFERENCE
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// A rank-0 relay constant of `type`'s element type.
Value scalarConstant(OpBuilder &builder, Location loc, FloatType type,
                     double value) {
  llvm::APFloat number(value);
  bool losesInfo;
  number.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                 &losesInfo);
  auto scalarType = RankedTensorType::get({}, type);
  return raf::relay::ConstantOp::create(
      builder, loc, scalarType, DenseElementsAttr::get(scalarType, number));
}

/// Rewrites one inference batch norm; false when it is not one this handles
/// (training, dynamic or non-float operands, statistics not of shape [C]).
bool simplify(raf::relay::BatchNormOp op) {
  if (op.getTraining())
    return false;
  auto type = dyn_cast<RankedTensorType>(op.getX().getType());
  if (!type || !type.hasStaticShape() ||
      !isa<FloatType>(type.getElementType()) ||
      op.getResult().getType() != type)
    return false;
  auto elementType = cast<FloatType>(type.getElementType());
  int64_t rank = type.getRank();
  int64_t axis = static_cast<int64_t>(op.getAxis());
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return false;
  auto statsType = RankedTensorType::get({type.getDimSize(axis)}, elementType);
  for (Value stat :
       {op.getGamma(), op.getBeta(), op.getMovingMean(), op.getMovingVar()})
    if (stat.getType() != statsType)
      return false;

  OpBuilder builder(op);
  Location loc = op.getLoc();
  namespace relay = raf::relay;
  Value epsilon =
      scalarConstant(builder, loc, elementType, op.getEpsilon().convertToDouble());
  Value shifted = relay::AddOp::create(builder, loc, statsType,
                                       op.getMovingVar(), epsilon);
  Value scale = relay::RsqrtOp::create(builder, loc, statsType, shifted);
  if (op.getScale())
    scale = relay::MultiplyOp::create(builder, loc, statsType, scale,
                                      op.getGamma());
  // shift = beta - mean * scale (or -mean * scale without beta).
  Value scaledMean = relay::MultiplyOp::create(builder, loc, statsType,
                                               op.getMovingMean(), scale);
  Value shift =
      op.getCenter()
          ? relay::SubtractOp::create(builder, loc, statsType, op.getBeta(),
                                      scaledMean)
                .getResult()
          : relay::NegativeOp::create(builder, loc, statsType, scaledMean)
                .getResult();
  // [C] -> [C, 1, ..., 1], broadcast along the axes after `axis`.
  if (axis != rank - 1) {
    SmallVector<int64_t> shape(rank - axis, 1);
    shape[0] = type.getDimSize(axis);
    auto columnType = RankedTensorType::get(shape, elementType);
    scale = relay::ReshapeOp::create(builder, loc, columnType, scale, shape);
    shift = relay::ReshapeOp::create(builder, loc, columnType, shift, shape);
  }
  Value scaled = relay::MultiplyOp::create(builder, loc, type, op.getX(), scale);
  Value result = relay::AddOp::create(builder, loc, type, scaled, shift);
  op.getResult().replaceAllUsesWith(result);
  op.getNewMean().replaceAllUsesWith(op.getMovingMean());
  op.getNewVar().replaceAllUsesWith(op.getMovingVar());
  op.erase();
  return true;
}

struct SimplifyInference
    : public raf::impl::RAFSimplifyInferenceBase<SimplifyInference> {
  void runOnOperation() override {
    SmallVector<raf::relay::BatchNormOp> batchNorms;
    getOperation().walk(
        [&](raf::relay::BatchNormOp op) { batchNorms.push_back(op); });
    for (raf::relay::BatchNormOp op : batchNorms)
      (void)simplify(op);
  }
};

} // namespace
