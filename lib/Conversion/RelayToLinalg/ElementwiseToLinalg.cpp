//===- ElementwiseToLinalg.cpp - element-wise relay operators -------------===//
//
// Unary and broadcasting binary operators, comparisons (i1 results), where,
// cast, bias_add, dropout and the fill operators. Each becomes one
// all-parallel linalg.generic whose inputs are read through NumPy
// broadcasting maps, or a linalg.fill.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Conversion/Utils/SafeDivision.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;

namespace raf::relay_to_linalg {
namespace {

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

/// Computes the scalar result of `OpTy` from the input scalars.
template <typename OpTy>
using ScalarFn = Value (*)(OpTy op, OpBuilder &b, Location loc,
                           ValueRange args);

/// Lowers an operator with one result to an element-wise linalg.generic.
template <typename OpTy>
struct ElementwiseLowering : OpConversionPattern<OpTy> {
  ElementwiseLowering(MLIRContext *context, ScalarFn<OpTy> fn)
      : OpConversionPattern<OpTy>(context), fn(fn) {}

  LogicalResult
  matchAndRewrite(OpTy op,
                  typename OpConversionPattern<OpTy>::OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value result = createElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return fn(op, b, loc, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  ScalarFn<OpTy> fn;
};

template <typename OpTy>
void addElementwise(RewritePatternSet &patterns, ScalarFn<OpTy> fn) {
  patterns.add<ElementwiseLowering<OpTy>>(patterns.getContext(), fn);
}

/// Lowers a fill operator (zeros, ones, zeros_like, ones_like) to linalg.fill.
template <typename OpTy>
struct FillLowering : OpConversionPattern<OpTy> {
  FillLowering(MLIRContext *context, double value)
      : OpConversionPattern<OpTy>(context), value(value) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpConversionPattern<OpTy>::OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Value scalar =
        createScalar(rewriter, op.getLoc(), type.getElementType(), value);
    rewriter.replaceOp(op, createFilled(rewriter, op.getLoc(), type, scalar));
    return success();
  }

  double value;
};

/// A float math function, computed in f32 for narrower floats.
template <typename MathOp>
Value unaryMath(OpBuilder &b, Location loc, Value x) {
  return computeInF32(b, loc, x, [](OpBuilder &b, Location loc, Value v) {
    return MathOp::create(b, loc, v).getResult();
  });
}

Value sigmoid(OpBuilder &b, Location loc, Value x) {
  return computeInF32(b, loc, x, [](OpBuilder &b, Location loc, Value v) {
    Value one = createScalar(b, loc, v.getType(), 1.0);
    Value negated = arith::NegFOp::create(b, loc, v);
    Value exp = math::ExpOp::create(b, loc, negated);
    Value denominator = arith::AddFOp::create(b, loc, one, exp);
    return arith::DivFOp::create(b, loc, one, denominator).getResult();
  });
}

Value gelu(OpBuilder &b, Location loc, Value x, bool tanhApproximation) {
  return computeInF32(b, loc, x, [&](OpBuilder &b, Location loc, Value v) {
    Type type = v.getType();
    Value half = createScalar(b, loc, type, 0.5);
    Value one = createScalar(b, loc, type, 1.0);
    Value inner;
    if (tanhApproximation) {
      // tanh(sqrt(2 / pi) * (x + 0.044715 x^3))
      Value cube =
          arith::MulFOp::create(b, loc, v, arith::MulFOp::create(b, loc, v, v));
      Value scaled = arith::MulFOp::create(
          b, loc, createScalar(b, loc, type, 0.044715), cube);
      Value sum = arith::AddFOp::create(b, loc, v, scaled);
      Value argument = arith::MulFOp::create(
          b, loc, createScalar(b, loc, type, std::sqrt(2.0 / M_PI)), sum);
      inner = math::TanhOp::create(b, loc, argument);
    } else {
      // erf(x / sqrt(2))
      Value argument = arith::MulFOp::create(
          b, loc, v, createScalar(b, loc, type, M_SQRT1_2));
      inner = math::ErfOp::create(b, loc, argument);
    }
    Value factor = arith::AddFOp::create(b, loc, one, inner);
    Value halfX = arith::MulFOp::create(b, loc, half, v);
    return arith::MulFOp::create(b, loc, halfX, factor).getResult();
  });
}

/// The dropout keep test of the documented hash for the row-major element
/// index (see nn.dropout in RelayOperators.td).
Value dropoutKeep(OpBuilder &b, Location loc, RankedTensorType type,
                  int64_t seed, double rate) {
  // Row-major flat index, wrapped to 32 bits.
  Value linear =
      createLinearIndex(b, loc, type.getShape(),
                        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())));
  Type i32 = b.getI32Type();
  auto constant = [&](uint32_t value) -> Value {
    return arith::ConstantOp::create(b, loc, i32,
                                     b.getIntegerAttr(i32, APInt(32, value)));
  };
  auto xorShift = [&](Value x, uint32_t shift) -> Value {
    return arith::XOrIOp::create(
        b, loc, x, arith::ShRUIOp::create(b, loc, x, constant(shift)));
  };
  uint32_t seedTerm = static_cast<uint32_t>(seed) * 0x9E3779B9u;
  Value x = arith::IndexCastOp::create(b, loc, i32, linear);
  x = arith::AddIOp::create(b, loc, x, constant(seedTerm));
  x = xorShift(x, 16);
  x = arith::MulIOp::create(b, loc, x, constant(0x85EBCA6Bu));
  x = xorShift(x, 13);
  x = arith::MulIOp::create(b, loc, x, constant(0xC2B2AE35u));
  x = xorShift(x, 16);
  // u = (x >> 8) * 2^-24 is exact in f64, and so is the comparison with the
  // f64 rate attribute.
  Value top = arith::ShRUIOp::create(b, loc, x, constant(8));
  Type f64 = b.getF64Type();
  Value u =
      arith::MulFOp::create(b, loc, arith::UIToFPOp::create(b, loc, f64, top),
                            createScalar(b, loc, f64, std::ldexp(1.0, -24)));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, u,
                               createScalar(b, loc, f64, rate));
}

//===----------------------------------------------------------------------===//
// Scalar bodies
//===----------------------------------------------------------------------===//

template <typename FloatOp, typename IntOp, typename OpTy>
Value floatOrInt(OpTy, OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0]))
    return FloatOp::create(b, loc, args[0], args[1]);
  return IntOp::create(b, loc, args[0], args[1]);
}

template <arith::CmpFPredicate FloatPredicate,
          arith::CmpIPredicate IntPredicate, typename OpTy>
Value compare(OpTy, OpBuilder &b, Location loc, ValueRange args) {
  if (isFloat(args[0]))
    return arith::CmpFOp::create(b, loc, FloatPredicate, args[0], args[1]);
  return arith::CmpIOp::create(b, loc, IntPredicate, args[0], args[1]);
}

template <typename MathOp, typename OpTy>
Value mathBody(OpTy, OpBuilder &b, Location loc, ValueRange args) {
  return unaryMath<MathOp>(b, loc, args[0]);
}

//===----------------------------------------------------------------------===//
// Patterns with their own structure
//===----------------------------------------------------------------------===//

/// nn.bias_add: the 1-D bias is read along `axis`.
struct BiasAddLowering : OpConversionPattern<relay::BiasAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::BiasAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineMap> maps{
        rewriter.getMultiDimIdentityMap(rank),
        AffineMap::get(rank, 0, getAffineDimExpr(axis, context)),
        rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type},
        ValueRange{adaptor.getX(), adaptor.getBias()},
        ValueRange{createEmpty(rewriter, loc, type)}, maps, iterators,
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          Value sum =
              isFloat(args[0])
                  ? (Value)arith::AddFOp::create(b, nestedLoc, args[0], args[1])
                  : (Value)arith::AddIOp::create(b, nestedLoc, args[0],
                                                 args[1]);
          linalg::YieldOp::create(b, nestedLoc, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns) {
  using namespace relay;
  MLIRContext *context = patterns.getContext();

  // Unary.
  addElementwise<ReluOp>(
      patterns,
      [](ReluOp, OpBuilder &b, Location loc, ValueRange args) -> Value {
        Value zero = createScalar(b, loc, args[0].getType(), 0.0);
        if (isFloat(args[0]))
          return arith::MaximumFOp::create(b, loc, args[0], zero);
        return arith::MaxSIOp::create(b, loc, args[0], zero);
      });
  addElementwise<LeakyReluOp>(
      patterns,
      [](LeakyReluOp op, OpBuilder &b, Location loc, ValueRange args) -> Value {
        Type type = args[0].getType();
        Value positive =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, args[0],
                                  createScalar(b, loc, type, 0.0));
        Value scaled = arith::MulFOp::create(
            b, loc, args[0],
            createScalar(b, loc, type, op.getAlpha().convertToDouble()));
        return arith::SelectOp::create(b, loc, positive, args[0], scaled);
      });
  addElementwise<SigmoidOp>(
      patterns, [](SigmoidOp, OpBuilder &b, Location loc, ValueRange args) {
        return sigmoid(b, loc, args[0]);
      });
  addElementwise<TanhOp>(patterns, mathBody<math::TanhOp, TanhOp>);
  addElementwise<ExpOp>(patterns, mathBody<math::ExpOp, ExpOp>);
  addElementwise<LogOp>(patterns, mathBody<math::LogOp, LogOp>);
  addElementwise<SqrtOp>(patterns, mathBody<math::SqrtOp, SqrtOp>);
  // 1 / sqrt(x) rather than math.rsqrt: --convert-math-to-libm would turn
  // math.rsqrt into a call to `rsqrtf`, which libm does not have.
  addElementwise<RsqrtOp>(patterns, [](RsqrtOp, OpBuilder &b, Location loc,
                                       ValueRange args) {
    return computeInF32(b, loc, args[0], [](OpBuilder &b, Location l, Value v) {
      Value root = math::SqrtOp::create(b, l, v);
      return arith::DivFOp::create(b, l, createScalar(b, l, v.getType(), 1.0),
                                   root)
          .getResult();
    });
  });
  addElementwise<ErfOp>(patterns, mathBody<math::ErfOp, ErfOp>);
  addElementwise<GeluOp>(
      patterns, [](GeluOp op, OpBuilder &b, Location loc, ValueRange args) {
        return gelu(b, loc, args[0],
                    op.getApproximate() == relay::GeluApproximation::Tanh);
      });
  addElementwise<NegativeOp>(
      patterns,
      [](NegativeOp, OpBuilder &b, Location loc, ValueRange args) -> Value {
        if (isFloat(args[0]))
          return arith::NegFOp::create(b, loc, args[0]);
        return arith::SubIOp::create(
            b, loc, createScalar(b, loc, args[0].getType(), 0.0), args[0]);
      });
  addElementwise<SquareOp>(
      patterns,
      [](SquareOp, OpBuilder &b, Location loc, ValueRange args) -> Value {
        if (isFloat(args[0]))
          return arith::MulFOp::create(b, loc, args[0], args[0]);
        return arith::MulIOp::create(b, loc, args[0], args[0]);
      });
  addElementwise<DropoutOp>(
      patterns,
      [](DropoutOp op, OpBuilder &b, Location loc, ValueRange args) -> Value {
        Type type = args[0].getType();
        double rate = op.getRate().convertToDouble();
        Value zero = createScalar(b, loc, type, 0.0);
        // rate >= 1 drops everything (the verifier only admits [0, 1)).
        if (rate >= 1.0)
          return zero;
        Value keep = dropoutKeep(b, loc, op.getType(), op.getSeed(), rate);
        Value scaled = arith::MulFOp::create(
            b, loc, args[0], createScalar(b, loc, type, 1.0 / (1.0 - rate)));
        return arith::SelectOp::create(b, loc, keep, scaled, zero);
      });
  addElementwise<CastOp>(
      patterns, [](CastOp op, OpBuilder &b, Location loc, ValueRange args) {
        return convertScalar(b, loc, args[0], op.getDtype());
      });

  // Binary with broadcasting.
  addElementwise<AddOp>(patterns, floatOrInt<arith::AddFOp, arith::AddIOp>);
  addElementwise<SubtractOp>(patterns,
                             floatOrInt<arith::SubFOp, arith::SubIOp>);
  addElementwise<MultiplyOp>(patterns,
                             floatOrInt<arith::MulFOp, arith::MulIOp>);
  addElementwise<DivideOp>(
      patterns,
      [](DivideOp, OpBuilder &b, Location loc, ValueRange args) -> Value {
        if (isFloat(args[0]))
          return arith::DivFOp::create(b, loc, args[0], args[1]);
        return createSafeSignedDivide(b, loc, args[0], args[1]);
      });
  addElementwise<PowerOp>(
      patterns,
      [](PowerOp, OpBuilder &b, Location loc, ValueRange args) -> Value {
        Type type = args[0].getType();
        if (cast<FloatType>(type).getWidth() >= 32)
          return math::PowFOp::create(b, loc, args[0], args[1]);
        Type f32 = b.getF32Type();
        Value power = math::PowFOp::create(
            b, loc, arith::ExtFOp::create(b, loc, f32, args[0]),
            arith::ExtFOp::create(b, loc, f32, args[1]));
        return arith::TruncFOp::create(b, loc, type, power);
      });
  addElementwise<MaximumOp>(patterns,
                            floatOrInt<arith::MaximumFOp, arith::MaxSIOp>);
  addElementwise<MinimumOp>(patterns,
                            floatOrInt<arith::MinimumFOp, arith::MinSIOp>);

  // Comparisons produce i1. `not_equal` is unordered: NaN != x is true.
  addElementwise<EqualOp>(
      patterns,
      compare<arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq, EqualOp>);
  addElementwise<NotEqualOp>(
      patterns,
      compare<arith::CmpFPredicate::UNE, arith::CmpIPredicate::ne, NotEqualOp>);
  addElementwise<LessOp>(
      patterns,
      compare<arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt, LessOp>);
  addElementwise<LessEqualOp>(patterns,
                              compare<arith::CmpFPredicate::OLE,
                                      arith::CmpIPredicate::sle, LessEqualOp>);
  addElementwise<GreaterOp>(
      patterns,
      compare<arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt, GreaterOp>);
  addElementwise<GreaterEqualOp>(
      patterns, compare<arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge,
                        GreaterEqualOp>);

  addElementwise<WhereOp>(
      patterns,
      [](WhereOp, OpBuilder &b, Location loc, ValueRange args) -> Value {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      });

  patterns.add<BiasAddLowering>(context);
  patterns.add<FillLowering<ZerosOp>>(context, 0.0);
  patterns.add<FillLowering<ZerosLikeOp>>(context, 0.0);
  patterns.add<FillLowering<OnesOp>>(context, 1.0);
  patterns.add<FillLowering<OnesLikeOp>>(context, 1.0);
}

} // namespace raf::relay_to_linalg
