//===- NNToLinalg.cpp - convolutions, matrix products and pooling ---------===//
//
// Named linalg ops wherever one fits:
//   nn.conv2d            linalg.conv_2d_nchw_fchw (groups = 1),
//                        linalg.depthwise_conv_2d_nchw_chw (groups = C = O),
//                        linalg.conv_2d_ngchw_gfchw (other groups),
//                        linalg.conv_2d_nhwc_hwcf (NHWC/HWIO, groups = 1);
//                        other layouts are transposed to NCHW/OIHW and back;
//   nn.conv2d_transpose  zero-dilated, padded input (tensor.insert_slice with
//                        strides) convolved with the flipped kernel;
//   nn.dense / nn.matmul linalg.matmul (transposes by linalg.transpose);
//   nn.batch_matmul      linalg.batch_matmul (batch 1 by linalg.broadcast);
//   pooling              linalg.pooling_nchw_max / linalg.pooling_nchw_sum
//                        after tensor.pad (ceil_mode pads the last window).
// Named ops convert their inputs to the output element type, which gives
// `out_dtype` its meaning (i8 x i8 accumulates in i32).
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

std::array<int64_t, 4> getPadding(ArrayRef<int64_t> padding) {
  // Verified by the op's shape function; cannot fail here.
  return *relay::expandPadding2D(std::nullopt, "", padding);
}

/// `type` with its dimensions reordered by `perm` (result dim i = dim
/// perm[i]).
RankedTensorType permuteType(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t axis : perm)
    shape.push_back(type.getDimSize(axis));
  return RankedTensorType::get(shape, type.getElementType());
}

Value zeroFilled(OpBuilder &b, Location loc, RankedTensorType type) {
  return createFilled(b, loc, type,
                      createScalar(b, loc, type.getElementType(), 0.0));
}

/// Convolution of padded NCHW `data` with an OIHW `weight` of shape
/// [O, C / groups, KH, KW] into the NCHW `resultType`.
Value createConvNCHW(OpBuilder &b, Location loc, Value data, Value weight,
                     int64_t groups, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dilation, RankedTensorType resultType) {
  Attribute stridesAttr = b.getI64TensorAttr(strides);
  Attribute dilationAttr = b.getI64TensorAttr(dilation);
  RankedTensorType dataType = getTensorType(data);
  RankedTensorType weightType = getTensorType(weight);
  int64_t n = dataType.getDimSize(0), c = dataType.getDimSize(1);
  int64_t h = dataType.getDimSize(2), w = dataType.getDimSize(3);
  int64_t o = weightType.getDimSize(0);
  int64_t kh = weightType.getDimSize(2), kw = weightType.getDimSize(3);
  int64_t oh = resultType.getDimSize(2), ow = resultType.getDimSize(3);
  if (groups == 1) {
    Value init = zeroFilled(b, loc, resultType);
    return linalg::Conv2DNchwFchwOp::create(
               b, loc, TypeRange{resultType}, ValueRange{data, weight},
               ValueRange{init}, stridesAttr, dilationAttr)
        .getResult(0);
  }
  if (groups == c && o == c) {
    // Depthwise with channel multiplier 1: the kernel is [C, KH, KW].
    Value kernel = createReshape(
        b, loc, weight,
        RankedTensorType::get({c, kh, kw}, weightType.getElementType()));
    Value init = zeroFilled(b, loc, resultType);
    return linalg::DepthwiseConv2DNchwChwOp::create(
               b, loc, TypeRange{resultType}, ValueRange{data, kernel},
               ValueRange{init}, stridesAttr, dilationAttr)
        .getResult(0);
  }
  Value groupedData = createReshape(
      b, loc, data,
      RankedTensorType::get({n, groups, c / groups, h, w},
                            dataType.getElementType()));
  Value groupedWeight = createReshape(
      b, loc, weight,
      RankedTensorType::get({groups, o / groups, c / groups, kh, kw},
                            weightType.getElementType()));
  auto groupedType = RankedTensorType::get({n, groups, o / groups, oh, ow},
                                           resultType.getElementType());
  Value init = zeroFilled(b, loc, groupedType);
  Value grouped = linalg::Conv2DNgchwGfchwOp::create(
                      b, loc, TypeRange{groupedType},
                      ValueRange{groupedData, groupedWeight}, ValueRange{init},
                      stridesAttr, dilationAttr)
                      .getResult(0);
  return createReshape(b, loc, grouped, resultType);
}

struct Conv2DLowering : OpConversionPattern<relay::Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef dataLayout = op.getDataLayout();
    StringRef kernelLayout = op.getKernelLayout();
    auto [top, left, bottom, right] = getPadding(op.getPadding());
    RankedTensorType resultType = op.getType();
    Value zero = createScalar(
        rewriter, loc, op.getData().getType().getElementType(), 0.0);

    if (op.getGroups() == 1 && dataLayout == "NHWC" && kernelLayout == "HWIO") {
      Value data = createPad(rewriter, loc, adaptor.getData(),
                             {0, top, left, 0}, {0, bottom, right, 0}, zero);
      Value init = zeroFilled(rewriter, loc, resultType);
      Value conv = linalg::Conv2DNhwcHwcfOp::create(
                       rewriter, loc, TypeRange{resultType},
                       ValueRange{data, adaptor.getWeight()}, ValueRange{init},
                       rewriter.getI64TensorAttr(op.getStrides()),
                       rewriter.getI64TensorAttr(op.getDilation()))
                       .getResult(0);
      rewriter.replaceOp(op, conv);
      return success();
    }

    SmallVector<int64_t> toNCHW = getLayoutToCanonical(dataLayout, "NCHW");
    Value data = createTranspose(rewriter, loc, adaptor.getData(), toNCHW);
    Value weight =
        createTranspose(rewriter, loc, adaptor.getWeight(),
                        getLayoutToCanonical(kernelLayout, "OIHW"));
    data = createPad(rewriter, loc, data, {0, 0, top, left},
                     {0, 0, bottom, right}, zero);
    Value conv = createConvNCHW(rewriter, loc, data, weight, op.getGroups(),
                                op.getStrides(), op.getDilation(),
                                permuteType(resultType, toNCHW));
    rewriter.replaceOp(op, createTranspose(rewriter, loc, conv,
                                           getCanonicalToLayout(dataLayout,
                                                                "NCHW")));
    return success();
  }
};

/// nn.conv2d_transpose as a stride-1 convolution: the input is dilated by the
/// stride (zeros in between), padded by dilation * (K - 1) - padding on each
/// side (plus output_padding at the bottom/right; negative amounts crop), and
/// convolved with the kernel flipped spatially and with I and O exchanged
/// within each group.
struct Conv2DTransposeLowering : OpConversionPattern<relay::Conv2DTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::Conv2DTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    StringRef dataLayout = op.getDataLayout();
    SmallVector<int64_t> toNCHW = getLayoutToCanonical(dataLayout, "NCHW");
    Value data = createTranspose(rewriter, loc, adaptor.getData(), toNCHW);
    Value weight =
        createTranspose(rewriter, loc, adaptor.getWeight(),
                        getLayoutToCanonical(op.getKernelLayout(), "IOHW"));
    RankedTensorType dataType = getTensorType(data);
    RankedTensorType weightType = getTensorType(weight);
    Type dataElement = dataType.getElementType();
    int64_t n = dataType.getDimSize(0), cin = dataType.getDimSize(1);
    std::array<int64_t, 2> in = {dataType.getDimSize(2),
                                 dataType.getDimSize(3)};
    int64_t coutPerGroup = weightType.getDimSize(1);
    std::array<int64_t, 2> kernel = {weightType.getDimSize(2),
                                     weightType.getDimSize(3)};
    int64_t groups = op.getGroups();
    int64_t cinPerGroup = cin / groups;
    auto padding = getPadding(op.getPadding());
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> dilation = op.getDilation();
    ArrayRef<int64_t> outputPadding = op.getOutputPadding();

    // Dilate and pad the input; crop where the padding is negative.
    std::array<int64_t, 2> before, after, full;
    SmallVector<int64_t> cropOffset{0, 0}, cropSize{n, cin};
    bool crop = false;
    for (int d = 0; d < 2; ++d) {
      before[d] = dilation[d] * (kernel[d] - 1) - padding[d];
      after[d] = dilation[d] * (kernel[d] - 1) - padding[d + 2] +
                 outputPadding[d];
      full[d] = (in[d] - 1) * strides[d] + 1 + std::max<int64_t>(before[d], 0) +
                std::max<int64_t>(after[d], 0);
      int64_t offset = before[d] < 0 ? -before[d] : 0;
      int64_t trim = after[d] < 0 ? -after[d] : 0;
      cropOffset.push_back(offset);
      cropSize.push_back(full[d] - offset - trim);
      crop |= offset != 0 || trim != 0;
    }
    Value dilated = zeroFilled(
        rewriter, loc,
        RankedTensorType::get({n, cin, full[0], full[1]}, dataElement));
    auto index = [&](int64_t v) -> OpFoldResult {
      return rewriter.getIndexAttr(v);
    };
    dilated = tensor::InsertSliceOp::create(
        rewriter, loc, data, dilated,
        {index(0), index(0), index(std::max<int64_t>(before[0], 0)),
         index(std::max<int64_t>(before[1], 0))},
        {index(n), index(cin), index(in[0]), index(in[1])},
        {index(1), index(1), index(strides[0]), index(strides[1])});
    if (crop) {
      SmallVector<OpFoldResult> offsets, sizes, ones;
      for (int d = 0; d < 4; ++d) {
        offsets.push_back(index(cropOffset[d]));
        sizes.push_back(index(cropSize[d]));
        ones.push_back(index(1));
      }
      dilated = tensor::ExtractSliceOp::create(rewriter, loc, dilated, offsets,
                                               sizes, ones);
    }

    // Flipped kernel [G, O/G, I/G, KH, KW], then OIHW [O, I/G, KH, KW].
    auto d = [&](unsigned i) { return getAffineDimExpr(i, context); };
    AffineMap flipMap = AffineMap::get(
        5, 0,
        {d(0) * cinPerGroup + d(2), d(1),
         getAffineConstantExpr(kernel[0] - 1, context) - d(3),
         getAffineConstantExpr(kernel[1] - 1, context) - d(4)},
        context);
    auto flippedType =
        RankedTensorType::get({groups, coutPerGroup, cinPerGroup, kernel[0],
                               kernel[1]},
                              weightType.getElementType());
    auto flip = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flippedType}, ValueRange{weight},
        ValueRange{createEmpty(rewriter, loc, flippedType)},
        {flipMap, rewriter.getMultiDimIdentityMap(5)},
        SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    Value flipped = createReshape(
        rewriter, loc, flip.getResult(0),
        RankedTensorType::get({groups * coutPerGroup, cinPerGroup, kernel[0],
                               kernel[1]},
                              weightType.getElementType()));

    Value conv = createConvNCHW(rewriter, loc, dilated, flipped, groups,
                                {1, 1}, dilation,
                                permuteType(op.getType(), toNCHW));
    rewriter.replaceOp(op, createTranspose(rewriter, loc, conv,
                                           getCanonicalToLayout(dataLayout,
                                                                "NCHW")));
    return success();
  }
};

/// nn.dense: y = x W^T over the last axis; leading axes are flattened.
struct DenseLowering : OpConversionPattern<relay::DenseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::DenseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType xType = op.getX().getType();
    RankedTensorType resultType = op.getType();
    int64_t k = xType.getShape().back();
    int64_t units = resultType.getShape().back();
    int64_t rows = xType.getNumElements() / std::max<int64_t>(k, 1);
    if (k == 0)
      rows = resultType.getNumElements() / std::max<int64_t>(units, 1);
    Value x = createReshape(
        rewriter, loc, adaptor.getX(),
        RankedTensorType::get({rows, k}, xType.getElementType()));
    Value weight = createTranspose(rewriter, loc, adaptor.getWeight(), {1, 0});
    auto matrixType =
        RankedTensorType::get({rows, units}, resultType.getElementType());
    Value product =
        linalg::MatmulOp::create(rewriter, loc, TypeRange{matrixType},
                                 ValueRange{x, weight},
                                 ValueRange{zeroFilled(rewriter, loc,
                                                       matrixType)})
            .getResult(0);
    rewriter.replaceOp(op, createReshape(rewriter, loc, product, resultType));
    return success();
  }
};

struct MatmulLowering : OpConversionPattern<relay::MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = adaptor.getA(), b = adaptor.getB();
    if (op.getTransposeA())
      a = createTranspose(rewriter, loc, a, {1, 0});
    if (op.getTransposeB())
      b = createTranspose(rewriter, loc, b, {1, 0});
    Value product =
        linalg::MatmulOp::create(
            rewriter, loc, TypeRange{op.getType()}, ValueRange{a, b},
            ValueRange{zeroFilled(rewriter, loc, op.getType())})
            .getResult(0);
    rewriter.replaceOp(op, product);
    return success();
  }
};

struct BatchMatmulLowering : OpConversionPattern<relay::BatchMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::BatchMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    int64_t batch = resultType.getDimSize(0);
    // A batch of 1 is broadcast to the result's batch.
    auto prepare = [&](Value operand, bool transpose) -> Value {
      if (transpose)
        operand = createTranspose(rewriter, loc, operand, {0, 2, 1});
      RankedTensorType type = getTensorType(operand);
      if (type.getDimSize(0) == batch)
        return operand;
      Value matrix = createReshape(
          rewriter, loc, operand,
          RankedTensorType::get(type.getShape().drop_front(),
                                type.getElementType()));
      auto broadcastType = RankedTensorType::get(
          {batch, type.getDimSize(1), type.getDimSize(2)},
          type.getElementType());
      return linalg::BroadcastOp::create(
                 rewriter, loc, matrix,
                 createEmpty(rewriter, loc, broadcastType),
                 ArrayRef<int64_t>{0})
          .getResult()[0];
    };
    Value a = prepare(adaptor.getA(), op.getTransposeA());
    Value b = prepare(adaptor.getB(), op.getTransposeB());
    Value product =
        linalg::BatchMatmulOp::create(
            rewriter, loc, TypeRange{resultType}, ValueRange{a, b},
            ValueRange{zeroFilled(rewriter, loc, resultType)})
            .getResult(0);
    rewriter.replaceOp(op, product);
    return success();
  }
};

/// Number of window taps at output position `out` that fall in [lo, hi).
int64_t countTaps(int64_t out, int64_t stride, int64_t padBefore,
                  int64_t kernel, int64_t dilation, int64_t lo, int64_t hi) {
  int64_t count = 0;
  for (int64_t k = 0; k < kernel; ++k) {
    int64_t position = out * stride - padBefore + k * dilation;
    count += position >= lo && position < hi;
  }
  return count;
}

/// Max and average pooling. `IsMax` selects the named op and the padding
/// value (-inf / the integer minimum for max, 0 for the average's sum).
template <typename OpTy, bool IsMax>
struct Pool2DLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpConversionPattern<OpTy>::OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef layout = op.getLayout();
    SmallVector<int64_t> toNCHW = getLayoutToCanonical(layout, "NCHW");
    Value x = createTranspose(rewriter, loc, adaptor.getX(), toNCHW);
    RankedTensorType xType = getTensorType(x);
    Type element = xType.getElementType();
    RankedTensorType resultType = permuteType(op.getType(), toNCHW);
    ArrayRef<int64_t> pool = op.getPoolSize();
    ArrayRef<int64_t> strides = op.getStrides();
    ArrayRef<int64_t> dilation = op.getDilation();
    auto padding = getPadding(op.getPadding());
    std::array<int64_t, 2> in = {xType.getDimSize(2), xType.getDimSize(3)};
    std::array<int64_t, 2> out = {resultType.getDimSize(2),
                                  resultType.getDimSize(3)};
    // ceil_mode: the last window may reach past the bottom/right padding;
    // pad further so it is in bounds (those taps never count).
    std::array<int64_t, 2> extra;
    for (int d = 0; d < 2; ++d) {
      int64_t needed = (out[d] - 1) * strides[d] + dilation[d] * (pool[d] - 1) +
                       1;
      extra[d] = std::max<int64_t>(
          0, needed - (in[d] + padding[d] + padding[d + 2]));
    }
    Value padValue = IsMax ? createLowest(rewriter, loc, element)
                           : createScalar(rewriter, loc, element, 0.0);
    Value padded =
        createPad(rewriter, loc, x, {0, 0, padding[0], padding[1]},
                  {0, 0, padding[2] + extra[0], padding[3] + extra[1]},
                  padValue);
    Value window = createEmpty(
        rewriter, loc, RankedTensorType::get({pool[0], pool[1]}, element));
    Value init = createFilled(rewriter, loc, resultType, padValue);
    Attribute stridesAttr = rewriter.getI64TensorAttr(strides);
    Attribute dilationAttr = rewriter.getI64TensorAttr(dilation);
    Value pooled;
    if constexpr (IsMax) {
      pooled = linalg::PoolingNchwMaxOp::create(
                   rewriter, loc, TypeRange{resultType},
                   ValueRange{padded, window}, ValueRange{init}, stridesAttr,
                   dilationAttr)
                   .getResult(0);
    } else {
      Value sum = linalg::PoolingNchwSumOp::create(
                      rewriter, loc, TypeRange{resultType},
                      ValueRange{padded, window}, ValueRange{init},
                      stridesAttr, dilationAttr)
                      .getResult(0);
      pooled = divideByTapCount(rewriter, loc, op, sum, in, out, padding);
    }
    rewriter.replaceOp(op, createTranspose(rewriter, loc, pooled,
                                           getCanonicalToLayout(layout,
                                                                "NCHW")));
    return success();
  }

  /// The average's divisor per output position, as PyTorch: taps inside the
  /// input, plus those in the explicit padding with count_include_pad (the
  /// ceil_mode overhang never counts). Known at compile time, so it is a
  /// constant [OH, OW] tensor.
  static Value divideByTapCount(OpBuilder &b, Location loc, OpTy op, Value sum,
                                std::array<int64_t, 2> in,
                                std::array<int64_t, 2> out,
                                std::array<int64_t, 4> padding) {
    RankedTensorType sumType = getTensorType(sum);
    Type element = sumType.getElementType();
    bool includePad = false;
    if constexpr (!IsMax)
      includePad = op.getCountIncludePad();
    SmallVector<Attribute> counts;
    for (int64_t oh = 0; oh < out[0]; ++oh) {
      for (int64_t ow = 0; ow < out[1]; ++ow) {
        int64_t taps = 1;
        for (int d = 0; d < 2; ++d) {
          int64_t lo = includePad ? -padding[d] : 0;
          int64_t hi = includePad ? in[d] + padding[d + 2] : in[d];
          taps *= countTaps(d == 0 ? oh : ow, op.getStrides()[d], padding[d],
                            op.getPoolSize()[d], op.getDilation()[d], lo, hi);
        }
        if (isa<FloatType>(element))
          counts.push_back(b.getFloatAttr(element, static_cast<double>(taps)));
        else // An integer divisor is never 0.
          counts.push_back(
              b.getIntegerAttr(element, std::max<int64_t>(taps, 1)));
      }
    }
    auto countType = RankedTensorType::get({out[0], out[1]}, element);
    Value countTensor = arith::ConstantOp::create(
        b, loc, countType, DenseElementsAttr::get(countType, counts));
    MLIRContext *context = b.getContext();
    SmallVector<AffineMap> maps{
        b.getMultiDimIdentityMap(4),
        AffineMap::get(4, 0,
                       {getAffineDimExpr(2, context),
                        getAffineDimExpr(3, context)},
                       context),
        b.getMultiDimIdentityMap(4)};
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{sumType}, ValueRange{sum, countTensor},
        ValueRange{createEmpty(b, loc, sumType)}, maps,
        SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
        [&](OpBuilder &nested, Location l, ValueRange args) {
          Value quotient =
              isa<FloatType>(element)
                  ? (Value)arith::DivFOp::create(nested, l, args[0], args[1])
                  : (Value)arith::DivSIOp::create(nested, l, args[0], args[1]);
          linalg::YieldOp::create(nested, l, quotient);
        });
    return generic.getResult(0);
  }
};

/// nn.global_avg_pool2d: sum over H and W (wherever the layout puts them),
/// divide by H * W, and keep H and W as size 1.
struct GlobalAvgPool2DLowering : OpConversionPattern<relay::GlobalAvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::GlobalAvgPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef layout = op.getLayout();
    SmallVector<int64_t> spatial{static_cast<int64_t>(layout.find('H')),
                                 static_cast<int64_t>(layout.find('W'))};
    RankedTensorType xType = op.getX().getType();
    Type element = xType.getElementType();
    double count = static_cast<double>(xType.getDimSize(spatial[0]) *
                                       xType.getDimSize(spatial[1]));
    Value sum = createReduction(
        rewriter, loc, adaptor.getX(), spatial,
        createScalar(rewriter, loc, element, 0.0),
        [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          return arith::AddFOp::create(b, l, x, acc);
        });
    Value mean = createElementwise(
        rewriter, loc, getTensorType(sum), ValueRange{sum},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0],
                                       createScalar(b, l, element, count));
        });
    rewriter.replaceOp(op, createReshape(rewriter, loc, mean, op.getType()));
    return success();
  }
};

} // namespace

void populateNNPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DLowering, Conv2DTransposeLowering, DenseLowering,
               MatmulLowering, BatchMatmulLowering,
               Pool2DLowering<relay::MaxPool2DOp, /*IsMax=*/true>,
               Pool2DLowering<relay::AvgPool2DOp, /*IsMax=*/false>,
               GlobalAvgPool2DLowering>(patterns.getContext());
}

} // namespace raf::relay_to_linalg
