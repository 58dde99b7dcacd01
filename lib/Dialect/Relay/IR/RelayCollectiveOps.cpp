//===- RelayCollectiveOps.cpp - shape functions and adjoints --------------===//
//
// Shape functions, cost facts and gradient rules of the collective
// operators (RelayCollectiveOps.td).
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace raf::relay;

namespace {

LogicalResult checkWorldSize(std::optional<Location> loc, StringRef opName,
                             int64_t worldSize) {
  if (worldSize < 1)
    return emitOptionalError(loc, opName, ": world_size must be >= 1, got ",
                             worldSize);
  return success();
}

/// Checks `reduction` and the element type it needs: sums of integers or
/// floats, averages of floats only.
LogicalResult checkReduction(std::optional<Location> loc, StringRef opName,
                             StringRef reduction, RankedTensorType type) {
  if (reduction != "sum" && reduction != "avg")
    return emitOptionalError(loc, opName,
                             ": reduction must be \"sum\" or \"avg\", got \"",
                             reduction, "\"");
  return verifyElementKind(loc, opName, "x", type,
                           reduction == "avg" ? ElementKind::Float
                                              : ElementKind::Numeric);
}

LogicalResult checkPartitionable(std::optional<Location> loc,
                                 StringRef opName, RankedTensorType type) {
  if (type.getRank() == 0)
    return emitOptionalError(loc, opName,
                             ": operand must have rank >= 1 (dimension 0 is "
                             "partitioned over the ranks), got ",
                             type);
  return success();
}

/// The type of one of `worldSize` equal blocks of `type` along dimension 0.
LogicalResult inferBlockType(std::optional<Location> loc, StringRef opName,
                             RankedTensorType type, int64_t worldSize,
                             SmallVectorImpl<Type> &inferredReturnTypes) {
  SmallVector<int64_t> shape(type.getShape());
  if (!ShapedType::isDynamic(shape[0])) {
    if (shape[0] % worldSize != 0)
      return emitOptionalError(loc, opName, ": dimension 0 (", shape[0],
                               ") must be divisible by world_size (",
                               worldSize, "); pad it first");
    shape[0] /= worldSize;
  }
  inferredReturnTypes.push_back(type.clone(shape));
  return success();
}

int64_t numElements(Type type) {
  auto shaped = cast<RankedTensorType>(type);
  if (!shaped.hasStaticShape())
    return 0;
  return shaped.getNumElements();
}

int64_t numBytes(Type type) {
  auto shaped = cast<RankedTensorType>(type);
  if (!shaped.hasStaticShape())
    return 0;
  int64_t bits = shaped.getElementTypeBitWidth();
  return shaped.getNumElements() * llvm::divideCeil(bits, 8);
}

/// `x * (1 / worldSize)` as a relay.multiply with a rank-0 constant.
Value scaleByInverse(OpBuilder &builder, Location loc, Value x,
                     int64_t worldSize) {
  auto type = cast<RankedTensorType>(x.getType());
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  auto floatType = cast<FloatType>(type.getElementType());
  llvm::APFloat value(1.0 / static_cast<double>(worldSize));
  bool losesInfo;
  value.convert(floatType.getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  Value scale = ConstantOp::create(
      builder, loc, scalarType, DenseElementsAttr::get(scalarType, value));
  return MultiplyOp::create(builder, loc, type, x, scale);
}

} // namespace

//===----------------------------------------------------------------------===//
// comm.allreduce
//===----------------------------------------------------------------------===//

LogicalResult AllreduceOp::inferResultTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto type = cast<RankedTensorType>(adaptor.getX().getType());
  if (failed(checkWorldSize(location, getOperationName(),
                            adaptor.getWorldSize())) ||
      failed(checkReduction(location, getOperationName(),
                            adaptor.getReduction(), type)))
    return failure();
  inferredReturnTypes.push_back(type);
  return success();
}

int64_t AllreduceOp::getFlops() {
  return (getWorldSize() - 1) * numElements(getX().getType());
}

int64_t AllreduceOp::getBytesSent() {
  // Ring allreduce: a reduce-scatter then an allgather, each sending
  // (N - 1) / N of the buffer.
  int64_t n = getWorldSize();
  return 2 * (n - 1) * numBytes(getX().getType()) / n;
}

LogicalResult
AllreduceOp::buildAdjoint(OpBuilder &builder, ValueRange resultGradients,
                          SmallVectorImpl<Value> &operandGradients) {
  operandGradients.assign(1, Value());
  if (resultGradients.empty() || !resultGradients[0])
    return success();
  // d(sum_s L_s)/dx_r = sum_s dL_s/dy_s (times 1/N for the average).
  operandGradients[0] = AllreduceOp::create(
      builder, getLoc(), resultGradients[0], getReductionAttr(),
      getWorldSizeAttr());
  return success();
}

//===----------------------------------------------------------------------===//
// comm.reduce_scatter
//===----------------------------------------------------------------------===//

LogicalResult ReduceScatterOp::inferResultTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto type = cast<RankedTensorType>(adaptor.getX().getType());
  int64_t worldSize = adaptor.getWorldSize();
  if (failed(checkWorldSize(location, getOperationName(), worldSize)) ||
      failed(checkReduction(location, getOperationName(),
                            adaptor.getReduction(), type)) ||
      failed(checkPartitionable(location, getOperationName(), type)))
    return failure();
  return inferBlockType(location, getOperationName(), type, worldSize,
                        inferredReturnTypes);
}

int64_t ReduceScatterOp::getFlops() {
  return (getWorldSize() - 1) * numElements(getResult().getType());
}

int64_t ReduceScatterOp::getBytesSent() {
  int64_t n = getWorldSize();
  return (n - 1) * numBytes(getX().getType()) / n;
}

LogicalResult
ReduceScatterOp::buildAdjoint(OpBuilder &builder, ValueRange resultGradients,
                              SmallVectorImpl<Value> &operandGradients) {
  operandGradients.assign(1, Value());
  if (resultGradients.empty() || !resultGradients[0])
    return success();
  // x_s contributes to block r of every rank r's result: its gradient is
  // the concatenation of the blocks' gradients.
  Value gathered = AllgatherOp::create(builder, getLoc(), resultGradients[0],
                                       getWorldSizeAttr());
  if (getReduction() == "avg")
    gathered = scaleByInverse(builder, getLoc(), gathered, getWorldSize());
  operandGradients[0] = gathered;
  return success();
}

//===----------------------------------------------------------------------===//
// comm.allgather
//===----------------------------------------------------------------------===//

LogicalResult AllgatherOp::inferResultTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto type = cast<RankedTensorType>(adaptor.getX().getType());
  int64_t worldSize = adaptor.getWorldSize();
  if (failed(checkWorldSize(location, getOperationName(), worldSize)) ||
      failed(checkPartitionable(location, getOperationName(), type)))
    return failure();
  SmallVector<int64_t> shape(type.getShape());
  if (!ShapedType::isDynamic(shape[0])) {
    int64_t gathered;
    if (llvm::MulOverflow(shape[0], worldSize, gathered) ||
        gathered >= (int64_t(1) << 62))
      return emitOptionalError(location, getOperationName(),
                               ": dimension 0 (", shape[0], ") times "
                               "world_size (", worldSize, ") overflows");
    shape[0] = gathered;
  }
  inferredReturnTypes.push_back(type.clone(shape));
  return success();
}

int64_t AllgatherOp::getFlops() { return 0; }

int64_t AllgatherOp::getBytesSent() {
  int64_t n = getWorldSize();
  return (n - 1) * numBytes(getResult().getType()) / n;
}

LogicalResult
AllgatherOp::buildAdjoint(OpBuilder &builder, ValueRange resultGradients,
                          SmallVectorImpl<Value> &operandGradients) {
  operandGradients.assign(1, Value());
  if (resultGradients.empty() || !resultGradients[0])
    return success();
  // Block r of every rank's result is x_r: its gradient sums those blocks'
  // gradients over the ranks.
  operandGradients[0] = ReduceScatterOp::create(
      builder, getLoc(), resultGradients[0], builder.getStringAttr("sum"),
      getWorldSizeAttr());
  return success();
}

//===----------------------------------------------------------------------===//
// comm.broadcast
//===----------------------------------------------------------------------===//

LogicalResult CommBroadcastOp::inferResultTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  int64_t worldSize = adaptor.getWorldSize();
  if (failed(checkWorldSize(location, getOperationName(), worldSize)))
    return failure();
  int64_t root = adaptor.getRoot();
  if (root < 0 || root >= worldSize)
    return emitOptionalError(location, getOperationName(), ": root (", root,
                             ") must be in [0, world_size) = [0, ", worldSize,
                             ")");
  inferredReturnTypes.push_back(adaptor.getX().getType());
  return success();
}

int64_t CommBroadcastOp::getFlops() { return 0; }

int64_t CommBroadcastOp::getBytesSent() {
  // Pipelined ring broadcast: every rank but the last forwards the buffer.
  return getWorldSize() > 1 ? numBytes(getX().getType()) : 0;
}

//===----------------------------------------------------------------------===//
// comm.shard
//===----------------------------------------------------------------------===//

LogicalResult CommShardOp::inferResultTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto type = cast<RankedTensorType>(adaptor.getX().getType());
  int64_t worldSize = adaptor.getWorldSize();
  if (failed(checkWorldSize(location, getOperationName(), worldSize)) ||
      failed(checkPartitionable(location, getOperationName(), type)))
    return failure();
  return inferBlockType(location, getOperationName(), type, worldSize,
                        inferredReturnTypes);
}

int64_t CommShardOp::getFlops() { return 0; }

int64_t CommShardOp::getBytesSent() { return 0; }
