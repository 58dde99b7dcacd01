//===- NormalizationToLinalg.cpp - softmax, norms and losses --------------===//
//
// Compositions of linalg.reduce and all-parallel linalg.generic ops:
//   softmax / log_softmax  max-subtracted (numerically stable);
//   layer_norm             mean and biased variance over `axis`;
//   batch_norm             moving statistics (training = false) or batch
//                          statistics with the momentum update of the
//                          moving ones (training = true, unbiased variance
//                          in the update, as PyTorch);
//   nll_loss               gather of -log p[target] with ignore_index;
//   cross_entropy          log_softmax then nll_loss (class indices, with
//                          PyTorch's default ignore_index -100), or
//                          -sum(target * log_softmax) for probabilities.
// Statistics are accumulated in the element type.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace raf::relay_to_linalg {
namespace {

Value addF(OpBuilder &b, Location loc, Value x, Value acc) {
  return arith::AddFOp::create(b, loc, x, acc);
}

Value maxF(OpBuilder &b, Location loc, Value x, Value acc) {
  return arith::MaximumFOp::create(b, loc, x, acc);
}

Value constant(OpBuilder &b, Location loc, Value like, double value) {
  return createScalar(b, loc, like.getType(), value);
}

/// The sum over `dims` divided by the number of reduced elements.
Value createMean(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims) {
  RankedTensorType type = getTensorType(x);
  Type element = type.getElementType();
  double count = 1;
  for (int64_t d : dims)
    count *= type.getDimSize(d);
  Value sum =
      createReduction(b, loc, x, dims, createScalar(b, loc, element, 0), addF);
  return createElementwise(b, loc, getTensorType(sum), ValueRange{sum},
                           [&](OpBuilder &b, Location l, ValueRange args) {
                             return arith::DivFOp::create(
                                        b, l, args[0],
                                        createScalar(b, l, element, count))
                                 .getResult();
                           });
}

/// The biased variance over `dims` given the mean (shaped as the reduction
/// result).
Value createVariance(OpBuilder &b, Location loc, Value x, Value mean,
                     ArrayRef<int64_t> dims) {
  RankedTensorType type = getTensorType(x);
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  Value squares = createParallelGeneric(
      b, loc, type, ValueRange{x, mean},
      {b.getMultiDimIdentityMap(rank), getDropDimsMap(context, rank, dims)},
      [](OpBuilder &b, Location l, ValueRange args) {
        Value centered = arith::SubFOp::create(b, l, args[0], args[1]);
        return arith::MulFOp::create(b, l, centered, centered).getResult();
      });
  return createMean(b, loc, squares, dims);
}

/// Numerically stable log_softmax (or softmax) of `x` along `axis`.
Value createSoftmax(OpBuilder &b, Location loc, Value x, int64_t axis,
                    bool logarithm) {
  RankedTensorType type = getTensorType(x);
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap reduced = getDropDimsMap(context, rank, {axis});
  Value max = createReduction(
      b, loc, x, {axis}, createLowest(b, loc, type.getElementType()), maxF);
  Value exps = createParallelGeneric(
      b, loc, type, ValueRange{x, max}, {identity, reduced},
      [](OpBuilder &b, Location l, ValueRange args) {
        Value shifted = arith::SubFOp::create(b, l, args[0], args[1]);
        return computeInF32(b, l, shifted,
                            [](OpBuilder &b, Location l, Value v) {
                              return math::ExpOp::create(b, l, v).getResult();
                            });
      });
  Value sum =
      createReduction(b, loc, exps, {axis},
                      createScalar(b, loc, type.getElementType(), 0), addF);
  if (!logarithm)
    return createParallelGeneric(
        b, loc, type, ValueRange{exps, sum}, {identity, reduced},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::DivFOp::create(b, l, args[0], args[1]).getResult();
        });
  return createParallelGeneric(
      b, loc, type, ValueRange{x, max, sum}, {identity, reduced, reduced},
      [](OpBuilder &b, Location l, ValueRange args) {
        Value shifted = arith::SubFOp::create(b, l, args[0], args[1]);
        Value logSum =
            computeInF32(b, l, args[2], [](OpBuilder &b, Location l, Value v) {
              return math::LogOp::create(b, l, v).getResult();
            });
        return arith::SubFOp::create(b, l, shifted, logSum).getResult();
      });
}

/// Reduces a per-sample loss as `reduction` says; `weights` (same shape,
/// 1 for counted samples, 0 for ignored ones) is the mean's divisor.
Value reduceLoss(OpBuilder &b, Location loc, Value losses, Value weights,
                 relay::LossReduction reduction) {
  if (reduction == relay::LossReduction::None)
    return losses;
  RankedTensorType type = getTensorType(losses);
  Type element = type.getElementType();
  auto all = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  Value zero = createScalar(b, loc, element, 0);
  Value sum = createReduction(b, loc, losses, all, zero, addF);
  if (reduction == relay::LossReduction::Sum)
    return sum;
  Value count = createReduction(b, loc, weights, all, zero, addF);
  return createElementwise(
      b, loc, getTensorType(sum), ValueRange{sum, count},
      [](OpBuilder &b, Location l, ValueRange args) {
        return arith::DivFOp::create(b, l, args[0], args[1]).getResult();
      });
}

/// nll_loss of log-probabilities [N, C, d...] against class indices
/// [N, d...]. Indices outside [0, C) other than ignore_index are clamped
/// into range so the gather stays in bounds.
Value createNllLoss(OpBuilder &b, Location loc, Value predictions,
                    Value targets, int64_t ignoreIndex,
                    relay::LossReduction reduction) {
  RankedTensorType predType = getTensorType(predictions);
  RankedTensorType targetType = getTensorType(targets);
  Type element = predType.getElementType();
  int64_t classes = predType.getDimSize(1);
  int64_t rank = targetType.getRank();
  auto lossType = RankedTensorType::get(targetType.getShape(), element);
  SmallVector<AffineMap> maps(3, b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{lossType, lossType}, ValueRange{targets},
      ValueRange{createEmpty(b, loc, lossType), createEmpty(b, loc, lossType)},
      maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Type i64 = b.getI64Type();
        Value target = convertScalar(b, l, args[0], i64);
        Value ignored = arith::CmpIOp::create(
            b, l, arith::CmpIPredicate::eq, target,
            createScalar(b, l, i64, static_cast<double>(ignoreIndex)));
        Value clamped = arith::MaxSIOp::create(
            b, l, createScalar(b, l, i64, 0),
            arith::MinSIOp::create(
                b, l, target,
                createScalar(b, l, i64, static_cast<double>(classes - 1))));
        SmallVector<Value> indices{
            linalg::IndexOp::create(b, l, 0),
            arith::IndexCastOp::create(b, l, b.getIndexType(), clamped)};
        for (int64_t d = 1; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(b, l, d));
        Value logProb = tensor::ExtractOp::create(b, l, predictions, indices);
        Value zero = createScalar(b, l, element, 0);
        Value loss = arith::SelectOp::create(
            b, l, ignored, zero, arith::NegFOp::create(b, l, logProb));
        Value weight = arith::SelectOp::create(b, l, ignored, zero,
                                               createScalar(b, l, element, 1));
        linalg::YieldOp::create(b, l, ValueRange{loss, weight});
      });
  return reduceLoss(b, loc, generic.getResult(0), generic.getResult(1),
                    reduction);
}

struct SoftmaxLowering : OpConversionPattern<relay::SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t axis = normalizeAxis(op.getAxis(), op.getType().getRank());
    rewriter.replaceOp(op, createSoftmax(rewriter, op.getLoc(), adaptor.getX(),
                                         axis, /*logarithm=*/false));
    return success();
  }
};

struct LogSoftmaxLowering : OpConversionPattern<relay::LogSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::LogSoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t axis = normalizeAxis(op.getAxis(), op.getType().getRank());
    rewriter.replaceOp(op, createSoftmax(rewriter, op.getLoc(), adaptor.getX(),
                                         axis, /*logarithm=*/true));
    return success();
  }
};

/// (x - mean) / sqrt(var + epsilon) [* gamma] [+ beta], with the statistics
/// and the parameters indexed by `axis`.
Value normalize(OpBuilder &b, Location loc, Value x, Value mean, Value var,
                Value gamma, Value beta, int64_t axis, double epsilon,
                AffineMap statsMap) {
  RankedTensorType type = getTensorType(x);
  MLIRContext *context = b.getContext();
  int64_t rank = type.getRank();
  AffineMap axisMap = AffineMap::get(rank, 0, getAffineDimExpr(axis, context));
  SmallVector<Value> inputs{x, mean, var};
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank), statsMap,
                              statsMap};
  if (gamma) {
    inputs.push_back(gamma);
    maps.push_back(axisMap);
  }
  if (beta) {
    inputs.push_back(beta);
    maps.push_back(axisMap);
  }
  bool hasGamma = static_cast<bool>(gamma), hasBeta = static_cast<bool>(beta);
  return createParallelGeneric(
      b, loc, type, inputs, maps,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value centered = arith::SubFOp::create(b, l, args[0], args[1]);
        Value shifted = arith::AddFOp::create(b, l, args[2],
                                              constant(b, l, args[2], epsilon));
        Value deviation =
            computeInF32(b, l, shifted, [](OpBuilder &b, Location l, Value v) {
              return math::SqrtOp::create(b, l, v).getResult();
            });
        Value y = arith::DivFOp::create(b, l, centered, deviation);
        unsigned next = 3;
        if (hasGamma)
          y = arith::MulFOp::create(b, l, y, args[next++]);
        if (hasBeta)
          y = arith::AddFOp::create(b, l, y, args[next++]);
        return y;
      });
}

struct LayerNormLowering : OpConversionPattern<relay::LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t rank = op.getType().getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Value x = adaptor.getX();
    Value mean = createMean(rewriter, loc, x, {axis});
    Value var = createVariance(rewriter, loc, x, mean, {axis});
    Value result =
        normalize(rewriter, loc, x, mean, var,
                  op.getScale() ? adaptor.getGamma() : Value(),
                  op.getCenter() ? adaptor.getBeta() : Value(), axis,
                  op.getEpsilon().convertToDouble(),
                  getDropDimsMap(rewriter.getContext(), rank, {axis}));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BatchNormLowering : OpConversionPattern<relay::BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getX().getType();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    SmallVector<int64_t> others;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        others.push_back(d);
    Value x = adaptor.getX();
    Value gamma = op.getScale() ? adaptor.getGamma() : Value();
    Value beta = op.getCenter() ? adaptor.getBeta() : Value();
    double epsilon = op.getEpsilon().convertToDouble();
    AffineMap statsMap = getDropDimsMap(rewriter.getContext(), rank, others);

    if (!op.getTraining()) {
      Value y = normalize(rewriter, loc, x, adaptor.getMovingMean(),
                          adaptor.getMovingVar(), gamma, beta, axis, epsilon,
                          statsMap);
      rewriter.replaceOp(
          op, ValueRange{y, adaptor.getMovingMean(), adaptor.getMovingVar()});
      return success();
    }

    Value mean = createMean(rewriter, loc, x, others);
    Value var = createVariance(rewriter, loc, x, mean, others);
    Value y = normalize(rewriter, loc, x, mean, var, gamma, beta, axis, epsilon,
                        statsMap);
    double momentum = op.getMomentum().convertToDouble();
    double count = static_cast<double>(type.getNumElements()) /
                   std::max<int64_t>(type.getDimSize(axis), 1);
    // The moving variance takes the unbiased batch variance (n / (n - 1));
    // with n = 1 that is a division by zero, as in PyTorch.
    double unbias = count / (count - 1);
    auto statsType = cast<RankedTensorType>(op.getNewMean().getType());
    auto update = [&](Value moving, Value batch, double scale) {
      return createElementwise(
          rewriter, loc, statsType, ValueRange{moving, batch},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value kept = arith::MulFOp::create(
                b, l, args[0], constant(b, l, args[0], 1.0 - momentum));
            Value fresh = arith::MulFOp::create(
                b, l, args[1], constant(b, l, args[1], momentum * scale));
            return arith::AddFOp::create(b, l, kept, fresh).getResult();
          });
    };
    Value newMean = update(adaptor.getMovingMean(), mean, 1.0);
    Value newVar = update(adaptor.getMovingVar(), var, unbias);
    rewriter.replaceOp(op, ValueRange{y, newMean, newVar});
    return success();
  }
};

struct NLLLossLowering : OpConversionPattern<relay::NLLLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::NLLLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createNllLoss(rewriter, op.getLoc(), adaptor.getPredictions(),
                          adaptor.getTargets(), op.getIgnoreIndex(),
                          op.getReduction()));
    return success();
  }
};

struct CrossEntropyLowering : OpConversionPattern<relay::CrossEntropyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::CrossEntropyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value logProbs = createSoftmax(rewriter, loc, adaptor.getLogits(), 1,
                                   /*logarithm=*/true);
    Value target = adaptor.getTarget();
    if (isa<IntegerType>(getTensorType(target).getElementType())) {
      // PyTorch's default ignore_index.
      rewriter.replaceOp(op, createNllLoss(rewriter, loc, logProbs, target,
                                           /*ignoreIndex=*/-100,
                                           op.getReduction()));
      return success();
    }
    // Probabilities: -sum_c target * log_softmax per sample; the mean divides
    // by N.
    RankedTensorType type = getTensorType(logProbs);
    Value products = createParallelGeneric(
        rewriter, loc, type, ValueRange{target, logProbs},
        {rewriter.getMultiDimIdentityMap(2),
         rewriter.getMultiDimIdentityMap(2)},
        [](OpBuilder &b, Location l, ValueRange args) {
          Value product = arith::MulFOp::create(b, l, args[0], args[1]);
          return arith::NegFOp::create(b, l, product).getResult();
        });
    Value zero = createScalar(rewriter, loc, type.getElementType(), 0);
    Value losses = createReduction(rewriter, loc, products, {1}, zero, addF);
    Value ones =
        createFilled(rewriter, loc, getTensorType(losses),
                     createScalar(rewriter, loc, type.getElementType(), 1));
    rewriter.replaceOp(
        op, reduceLoss(rewriter, loc, losses, ones, op.getReduction()));
    return success();
  }
};

} // namespace

void populateNormalizationPatterns(RewritePatternSet &patterns) {
  patterns.add<SoftmaxLowering, LogSoftmaxLowering, LayerNormLowering,
               BatchNormLowering, NLLLossLowering, CrossEntropyLowering>(
      patterns.getContext());
}

} // namespace raf::relay_to_linalg
