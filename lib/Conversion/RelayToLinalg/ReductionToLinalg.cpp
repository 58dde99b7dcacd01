//===- ReductionToLinalg.cpp - sum, mean, max and argmax ------------------===//
//
// A reduction over the axes the op names (all axes when `axis` is absent,
// the complement with `exclude`) becomes a linalg.reduce (argmax: a
// linalg.generic with a value and an index accumulator); `keepdims` re-adds
// the reduced axes as size 1 with tensor.expand_shape.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace raf::relay_to_linalg {
namespace {

/// The axes the reduction removes, ascending, as inferReduction defines
/// them.
template <typename OpTy>
SmallVector<int64_t> getReducedDims(OpTy op) {
  int64_t rank = op.getX().getType().getRank();
  std::optional<ArrayRef<int64_t>> axes = op.getAxis();
  SmallVector<bool> listed(rank, !axes.has_value());
  if (axes)
    for (int64_t axis : *axes)
      listed[axis < 0 ? axis + rank : axis] = true;
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (op.getExclude() && axes ? !listed[d] : listed[d])
      dims.push_back(d);
  return dims;
}

int64_t countReduced(RankedTensorType type, ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims)
    count *= type.getDimSize(d);
  return count;
}

Value add(OpBuilder &b, Location loc, Value x, Value acc) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, acc);
  return arith::AddIOp::create(b, loc, x, acc);
}

Value maximum(OpBuilder &b, Location loc, Value x, Value acc) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, acc);
  if (x.getType().isInteger(1))
    return arith::OrIOp::create(b, loc, x, acc);
  return arith::MaxSIOp::create(b, loc, x, acc);
}

struct SumLowering : OpConversionPattern<relay::SumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::SumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = op.getType().getElementType();
    Value sum =
        createReduction(rewriter, loc, adaptor.getX(), getReducedDims(op),
                        createScalar(rewriter, loc, element, 0.0), add);
    rewriter.replaceOp(op, createReshape(rewriter, loc, sum, op.getType()));
    return success();
  }
};

struct MeanLowering : OpConversionPattern<relay::MeanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::MeanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = op.getType().getElementType();
    SmallVector<int64_t> dims = getReducedDims(op);
    int64_t count = countReduced(op.getX().getType(), dims);
    Value sum = createReduction(rewriter, loc, adaptor.getX(), dims,
                                createScalar(rewriter, loc, element, 0.0), add);
    // Integer means divide with truncation (as TVM); an empty reduction
    // leaves the zero sum (a float mean of nothing is 0 / 0 = NaN).
    if (isa<FloatType>(element) || count != 0) {
      auto sumType = getTensorType(sum);
      sum = createElementwise(
          rewriter, loc, sumType, ValueRange{sum},
          [&](OpBuilder &b, Location nestedLoc, ValueRange args) -> Value {
            Value divisor =
                createScalar(b, nestedLoc, element, static_cast<double>(count));
            if (isa<FloatType>(element))
              return arith::DivFOp::create(b, nestedLoc, args[0], divisor);
            return arith::DivSIOp::create(b, nestedLoc, args[0], divisor);
          });
    }
    rewriter.replaceOp(op, createReshape(rewriter, loc, sum, op.getType()));
    return success();
  }
};

struct MaxLowering : OpConversionPattern<relay::MaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::MaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = op.getType().getElementType();
    Value max =
        createReduction(rewriter, loc, adaptor.getX(), getReducedDims(op),
                        createLowest(rewriter, loc, element), maximum);
    rewriter.replaceOp(op, createReshape(rewriter, loc, max, op.getType()));
    return success();
  }
};

/// argmax: the row-major index within the reduced axes of the first maximum
/// (NaN counts as the maximum, as in PyTorch), as i32.
struct ArgmaxLowering : OpConversionPattern<relay::ArgmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::ArgmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    RankedTensorType inputType = op.getX().getType();
    Type element = inputType.getElementType();
    int64_t rank = inputType.getRank();
    SmallVector<int64_t> dims = getReducedDims(op);

    SmallVector<int64_t> keptShape;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      bool reduced = llvm::is_contained(dims, d);
      iterators.push_back(reduced ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
      if (!reduced)
        keptShape.push_back(inputType.getDimSize(d));
    }
    Type indexType = op.getType().getElementType();
    auto valueType = RankedTensorType::get(keptShape, element);
    auto indicesType = RankedTensorType::get(keptShape, indexType);
    Value values = createFilled(rewriter, loc, valueType,
                                createLowest(rewriter, loc, element));
    Value indices = createFilled(rewriter, loc, indicesType,
                                 createScalar(rewriter, loc, indexType, 0.0));
    AffineMap keptMap = getDropDimsMap(context, rank, dims);
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank), keptMap,
                                keptMap};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indicesType},
        ValueRange{adaptor.getX()}, ValueRange{values, indices}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value linear =
              createLinearIndex(b, l, inputType.getShape(), dims);
          Value index = arith::IndexCastOp::create(b, l, indexType, linear);
          Value better;
          if (isa<FloatType>(element)) {
            Value greater = arith::CmpFOp::create(
                b, l, arith::CmpFPredicate::OGT, x, best);
            Value xIsNaN =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
            Value bestIsNumber = arith::CmpFOp::create(
                b, l, arith::CmpFPredicate::ORD, best, best);
            better = arith::OrIOp::create(
                b, l, greater, arith::AndIOp::create(b, l, xIsNaN, bestIsNumber));
          } else {
            better = arith::CmpIOp::create(
                b, l,
                element.isInteger(1) ? arith::CmpIPredicate::ugt
                                     : arith::CmpIPredicate::sgt,
                x, best);
          }
          // Only a strictly greater value moves the index, so ties keep the
          // first position and an all-lowest slice reports index 0.
          Value newBest = arith::SelectOp::create(b, l, better, x, best);
          Value newIndex =
              arith::SelectOp::create(b, l, better, index, bestIndex);
          linalg::YieldOp::create(b, l, ValueRange{newBest, newIndex});
        });
    rewriter.replaceOp(op, createReshape(rewriter, loc, generic.getResult(1),
                                         op.getType()));
    return success();
  }
};

} // namespace

void populateReductionPatterns(RewritePatternSet &patterns) {
  patterns.add<SumLowering, MeanLowering, MaxLowering, ArgmaxLowering>(
      patterns.getContext());
}

} // namespace raf::relay_to_linalg
