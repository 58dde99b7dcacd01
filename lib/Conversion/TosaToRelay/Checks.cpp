//===- Checks.cpp - what the TOSA to relay conversion cannot express ------===//
//
// Run on every TOSA op before anything is rewritten, so that a module is
// either converted completely or left untouched with one located error per
// obstacle. The patterns rely on these guarantees.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace raf::tosa_to_relay {
namespace {

Type getElementType(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

/// relay values are statically shaped tensors of floats or signless
/// integers; `!tosa.shape` operands are folded into attributes.
LogicalResult checkTypes(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    if (isa<tosa::shapeType>(type))
      return success();
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return op->emitOpError() << "has the dynamically shaped type " << type
                             << "; the conversion to relay needs static "
                                "shapes";
    Type element = tensor.getElementType();
    if (!isa<FloatType>(element) && !element.isSignlessInteger())
      return op->emitOpError() << "has the element type " << element
                             << "; the conversion to relay supports floats "
                                "and signless integers";
    return success();
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(check(type)))
      return failure();
  return success();
}

/// Integer convolutions, matmuls and average pools are TOSA's quantized
/// forms (i8 with zero points, i32 or i48 accumulators, a rescale after);
/// relay has no such semantics.
LogicalResult checkFloat(Operation *op, Value input) {
  Type element = getElementType(input);
  if (isa<FloatType>(element))
    return success();
  return op->emitOpError() << "with " << element
                         << " input is an integer (quantized) form, which "
                            "the conversion to relay does not support (only "
                            "float inputs)";
}

/// A constant whose data lives in a `dense_resource` blob cannot be
/// inspected, so a scalar operand that relay takes as an attribute must be
/// an inline constant.
LogicalResult checkReadable(Operation *op, Value value, StringRef name) {
  if (!isUnreadableConstant(value))
    return success();
  return op->emitOpError() << "has " << name
                         << " that is a constant without inline data "
                            "(dense_resource is not read); the conversion to "
                            "relay needs its value";
}

/// TOSA's verifier already rejects a constant non-zero float zero point; a
/// zero point that is not a constant is rejected here. (The MLIR 22 TOSA
/// verifiers themselves abort on a dense_resource zero point, so the
/// readability check only matters for ops that skipped verification.)
LogicalResult checkZeroPoint(Operation *op, Value zeroPoint, StringRef name) {
  if (failed(checkReadable(op, zeroPoint, name)))
    return failure();
  if (isConstantZero(zeroPoint))
    return success();
  return op->emitOpError() << "has " << name
                         << " that is not a constant zero; the conversion "
                            "to relay supports zero zero points only";
}

LogicalResult checkNanMode(Operation *op, tosa::NanPropagationMode mode) {
  if (mode == tosa::NanPropagationMode::PROPAGATE)
    return success();
  return op->emitOpError() << "has nan_mode " << tosa::stringifyEnum(mode)
                         << "; relay propagates NaN, so only PROPAGATE is "
                            "supported";
}

LogicalResult checkConstantShape(Operation *op, Value shape, StringRef name) {
  if (getConstantShape(shape))
    return success();
  return op->emitOpError() << "has " << name
                         << " that is not a tosa.const_shape; the "
                            "conversion to relay needs constant shapes";
}

LogicalResult checkSpecific(Operation *op) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>([&](auto conv) {
        if (failed(checkFloat(op, conv.getInput())) ||
            failed(checkZeroPoint(op, conv.getInputZp(), "input_zp")) ||
            failed(checkZeroPoint(op, conv.getWeightZp(), "weight_zp")))
          return failure();
        return success();
      })
      .Case([&](tosa::MatMulOp matmul) {
        if (failed(checkFloat(op, matmul.getA())) ||
            failed(checkZeroPoint(op, matmul.getAZp(), "a_zp")) ||
            failed(checkZeroPoint(op, matmul.getBZp(), "b_zp")))
          return failure();
        return success();
      })
      .Case([&](tosa::AvgPool2dOp pool) {
        if (failed(checkFloat(op, pool.getInput())) ||
            failed(checkZeroPoint(op, pool.getInputZp(), "input_zp")) ||
            failed(checkZeroPoint(op, pool.getOutputZp(), "output_zp")))
          return failure();
        return success();
      })
      .Case([&](tosa::NegateOp negate) {
        if (failed(checkZeroPoint(op, negate.getInput1Zp(), "input1_zp")) ||
            failed(checkZeroPoint(op, negate.getOutputZp(), "output_zp")))
          return failure();
        return success();
      })
      .Case([&](tosa::MulOp mul) -> LogicalResult {
        if (failed(checkReadable(op, mul.getShift(), "a shift")))
          return failure();
        if (isConstantZero(mul.getShift()))
          return success();
        return op->emitOpError()
               << "has a shift that is not a constant zero; the conversion "
                  "to relay supports unshifted multiplication only";
      })
      .Case<tosa::ClampOp, tosa::MaximumOp, tosa::MinimumOp, tosa::ArgMaxOp,
            tosa::ReduceMaxOp, tosa::MaxPool2dOp>(
          [&](auto nanOp) { return checkNanMode(op, nanOp.getNanMode()); })
      .Case([&](tosa::ReduceMinOp reduce) -> LogicalResult {
        if (failed(checkNanMode(op, reduce.getNanMode())))
          return failure();
        if (isa<FloatType>(getElementType(reduce.getInput())))
          return success();
        return op->emitOpError() << "on integers is not supported: relay has "
                                  "no min reduction and -max(-x) wraps for "
                                  "the integer minimum";
      })
      .Case([&](tosa::CastOp castOp) -> LogicalResult {
        Type from = getElementType(castOp.getInput());
        Type to = getElementType(castOp.getOutput());
        if (!isa<FloatType>(from) || !isa<IntegerType>(to) || to.isInteger(1))
          return success();
        return op->emitOpError()
               << "from " << from << " to " << to
               << " rounds to nearest (ties to even) in TOSA but truncates "
                  "in relay.cast: float to integer casts are not supported";
      })
      .Case([&](tosa::SliceOp slice) {
        return checkConstantShape(op, slice.getStart(), "a start");
      })
      .Case([&](tosa::PadOp pad) -> LogicalResult {
        if (failed(checkConstantShape(op, pad.getPadding(), "a padding")))
          return failure();
        if (failed(checkReadable(op, pad.getPadConst(), "a pad_const")))
          return failure();
        if (!getScalarConstant(pad.getPadConst()))
          return op->emitOpError() << "has a pad_const that is not a constant; "
                                    "relay's pad value is an attribute";
        return success();
      })
      .Default([](Operation *) { return success(); });
}

} // namespace

LogicalResult checkOperation(Operation *op) {
  if (failed(checkTypes(op)))
    return failure();
  return checkSpecific(op);
}

} // namespace raf::tosa_to_relay
