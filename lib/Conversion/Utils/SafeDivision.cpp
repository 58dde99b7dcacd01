//===- SafeDivision.cpp - integer division that cannot trap ---------------===//

#include "raf/Conversion/Utils/SafeDivision.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

Value raf::createSafeSignedDivide(OpBuilder &b, Location loc, Value lhs,
                                  Value rhs) {
  auto type = cast<IntegerType>(lhs.getType());
  unsigned width = type.getWidth();
  auto constant = [&](const APInt &value) -> Value {
    return arith::ConstantOp::create(b, loc, type,
                                     b.getIntegerAttr(type, value));
  };
  Value zero = constant(APInt::getZero(width));
  Value one = constant(APInt(width, 1));
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value divisor = one;
  if (width > 1) {
    Value minusOne = constant(APInt::getAllOnes(width));
    Value lowest = constant(APInt::getSignedMinValue(width));
    Value overflows = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, lowest),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs,
                              minusOne));
    divisor = arith::SelectOp::create(
        b, loc, arith::OrIOp::create(b, loc, isZero, overflows), one, rhs);
  }
  Value quotient = arith::DivSIOp::create(b, loc, lhs, divisor);
  return arith::SelectOp::create(b, loc, isZero, zero, quotient);
}
