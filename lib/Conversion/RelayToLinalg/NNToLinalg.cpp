//===- NNToLinalg.cpp - convolutions, matrix products and pooling ---------===//
//
// Named linalg ops wherever one fits:
//   nn.conv2d            linalg.conv_2d_nchw_fchw (groups = 1),
//                        linalg.depthwise_conv_2d_nchw_chw (groups = C = O),
//                        linalg.conv_2d_ngchw_gfchw (other groups),
//                        linalg.conv_2d_nhwc_hwcf (NHWC/HWIO, groups = 1);
//                        other layouts are transposed to NCHW/OIHW and back;
//   nn.conv2d_transpose  groups = 1 (float), strided or with more input
//                        channels than input positions: one linalg.matmul
//                        into columns, then col2im (each kernel tap's plane
//                        added at its strided offset); otherwise a
//                        zero-dilated, padded input (tensor.insert_slice
//                        with strides) convolved with the flipped kernel;
//   nn.dense / nn.matmul linalg.matmul (transposes by indexing maps);
//   nn.batch_matmul      linalg.batch_matmul (batch 1 by linalg.broadcast);
//   pooling              linalg.pooling_nchw_max / linalg.pooling_nchw_sum
//                        after tensor.pad (ceil_mode pads the last window);
//   pooling gradients    average: per window tap, an element-wise pass
//                        over the output windows added into the input's
//                        strided plane; max: scf.for loops over the
//                        windows adding each one's gradient at its maximum.
// Named ops convert their inputs to the output element type, which gives
// `out_dtype` its meaning (i8 x i8 accumulates in i32).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
  Value groupedData =
      createReshape(b, loc, data,
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
    relay::LayoutAttr dataLayout = op.getDataLayout();
    relay::LayoutAttr kernelLayout = op.getKernelLayout();
    auto [top, left, bottom, right] = getPadding(op.getPadding());
    RankedTensorType resultType = op.getType();
    Value zero = createScalar(rewriter, loc,
                              op.getData().getType().getElementType(), 0.0);

    if (op.getGroups() == 1 && dataLayout.getName() == "NHWC" &&
        kernelLayout.getName() == "HWIO") {
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
    Value weight = createTranspose(rewriter, loc, adaptor.getWeight(),
                                   getLayoutToCanonical(kernelLayout, "OIHW"));
    data = createPad(rewriter, loc, data, {0, 0, top, left},
                     {0, 0, bottom, right}, zero);
    Value conv = createConvNCHW(rewriter, loc, data, weight, op.getGroups(),
                                op.getStrides(), op.getDilation(),
                                permuteType(resultType, toNCHW));
    rewriter.replaceOp(
        op, createTranspose(rewriter, loc, conv,
                            getCanonicalToLayout(dataLayout, "NCHW")));
    return success();
  }
};

Value createMatmul(OpBuilder &builder, Location loc, RankedTensorType type,
                   Value a, Value b, bool transposeA, bool transposeB);

/// nn.conv2d_transpose with one group as the adjoint of im2col (col2im,
/// Jia et al. 2014, Caffe): a single product
///   columns[(o, kh, kw), (n, ih, iw)] = sum_i W[i, (o, kh, kw)] * x[n, i, ih, iw]
/// then each kernel tap's plane of columns added into the output at
/// (ih * stride + kh * dilation - padding). Unlike the stride-1 convolution
/// of a zero-dilated input it multiplies no inserted zeros (a quarter of the
/// work at stride 2) and copies neither the input nor a flipped kernel; the
/// product reads the IOHW kernel in place as a transposed matrix. At
/// stride 1 it is only used when the kernel is the larger copy (see
/// Conv2DTransposeLowering). `data` is NCHW, `weight` IOHW, `resultType`
/// NCHW.
Value createConvTransposeByColumns(OpBuilder &b, Location loc, Value data,
                                   Value weight, ArrayRef<int64_t> strides,
                                   ArrayRef<int64_t> dilation,
                                   std::array<int64_t, 4> padding,
                                   RankedTensorType resultType) {
  MLIRContext *context = b.getContext();
  RankedTensorType dataType = getTensorType(data);
  RankedTensorType weightType = getTensorType(weight);
  Type element = resultType.getElementType();
  int64_t n = dataType.getDimSize(0), cin = dataType.getDimSize(1);
  int64_t ih = dataType.getDimSize(2), iw = dataType.getDimSize(3);
  int64_t cout = weightType.getDimSize(1);
  int64_t kh = weightType.getDimSize(2), kw = weightType.getDimSize(3);
  int64_t oh = resultType.getDimSize(2), ow = resultType.getDimSize(3);
  int64_t rows = cout * kh * kw, columnCount = n * ih * iw;

  // Input channels first, [cin, n * ih * iw]: a transpose only for n > 1.
  Value x = n > 1 ? createTranspose(b, loc, data, {1, 0, 2, 3}) : data;
  x = createReshape(b, loc, x,
                    RankedTensorType::get({cin, columnCount}, element));
  Value w = createReshape(b, loc, weight,
                          RankedTensorType::get({cin, rows}, element));
  Value columns = createMatmul(
      b, loc, RankedTensorType::get({rows, columnCount}, element), w, x,
      /*transposeA=*/true, /*transposeB=*/false);
  columns = createReshape(
      b, loc, columns,
      RankedTensorType::get({cout, kh, kw, n, ih, iw}, element));

  // The taps accumulate into the output before cropping the padding.
  int64_t fullH = std::max((ih - 1) * strides[0] + dilation[0] * (kh - 1) + 1,
                           padding[0] + oh);
  int64_t fullW = std::max((iw - 1) * strides[1] + dilation[1] * (kw - 1) + 1,
                           padding[1] + ow);
  Value sum = zeroFilled(
      b, loc, RankedTensorType::get({n, cout, fullH, fullW}, element));
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  auto planeType = RankedTensorType::get({n, cout, ih, iw}, element);
  auto tapType = RankedTensorType::get({cout, n, ih, iw}, element);
  AffineExpr d0, d1, d2, d3;
  bindDims(context, d0, d1, d2, d3);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {d1, d0, d2, d3}, context),
                                 b.getMultiDimIdentityMap(4)};
  SmallVector<OpFoldResult> ones(4, index(1));
  for (int64_t y = 0; y < kh; ++y) {
    for (int64_t z = 0; z < kw; ++z) {
      Value tap = tensor::ExtractSliceOp::create(
          b, loc, tapType, columns,
          {index(0), index(y), index(z), index(0), index(0), index(0)},
          {index(cout), index(1), index(1), index(n), index(ih), index(iw)},
          {index(1), index(1), index(1), index(1), index(1), index(1)});
      SmallVector<OpFoldResult> offsets = {index(0), index(0),
                                           index(y * dilation[0]),
                                           index(z * dilation[1])};
      SmallVector<OpFoldResult> sizes = {index(n), index(cout), index(ih),
                                         index(iw)};
      SmallVector<OpFoldResult> steps = {index(1), index(1),
                                         index(strides[0]), index(strides[1])};
      Value region = tensor::ExtractSliceOp::create(b, loc, planeType, sum,
                                                    offsets, sizes, steps);
      auto add = linalg::GenericOp::create(
          b, loc, TypeRange{planeType}, ValueRange{tap}, ValueRange{region},
          maps,
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [](OpBuilder &nested, Location l, ValueRange args) {
            linalg::YieldOp::create(
                nested, l,
                ValueRange{arith::AddFOp::create(nested, l, args[1], args[0])});
          });
      sum = tensor::InsertSliceOp::create(b, loc, add.getResult(0), sum,
                                          offsets, sizes, steps);
    }
  }
  if (fullH == oh && fullW == ow)
    return sum;
  return tensor::ExtractSliceOp::create(
      b, loc, resultType, sum,
      {index(0), index(0), index(padding[0]), index(padding[1])},
      {index(n), index(cout), index(oh), index(ow)}, ones);
}

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
    relay::LayoutAttr dataLayout = op.getDataLayout();
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

    Type resultElement = op.getType().getElementType();
    // At stride 1 (the data gradient of a stride-1 convolution) the
    // convolution with the flipped kernel below inserts no zeros, and its
    // product is forward-shaped: [Cout, Cin * KH * KW] x [Cin * KH * KW,
    // H * W] instead of col2im's [Cout * KH * KW, Cin] x [Cin, H * W], whose
    // few inner products (Cin) and large result (KH * KW times the output,
    // zeroed by BLAS for beta = 0 and then read again by the taps' adds)
    // ran slower in OpenBLAS (one profile of ResNet-18's step, 3x3 at
    // 28x28 and 14x14: 42-45 against 53-55 GFLOP/s; at 56x56 about equal;
    // the step's CPU time: bench/results/cpu.md). Its price is a copy of
    // the flipped kernel per call, Cin * Cout * KH * KW elements against
    // the columns' Cout * KH * KW * N * H * W: col2im stays where Cin
    // exceeds N * H * W (ResNet's last stages: 9.4 MB 3x3 kernels at 7x7).
    bool strided =
        llvm::any_of(strides, [](int64_t stride) { return stride > 1; });
    if (groups == 1 && isa<FloatType>(resultElement) &&
        (strided || cin > n * in[0] * in[1]) &&
        dataElement == resultElement &&
        weightType.getElementType() == resultElement &&
        llvm::all_of(padding, [](int64_t amount) { return amount >= 0; })) {
      Value conv = createConvTransposeByColumns(
          rewriter, loc, data, weight, strides, dilation, padding,
          permuteType(op.getType(), toNCHW));
      rewriter.replaceOp(
          op, createTranspose(rewriter, loc, conv,
                              getCanonicalToLayout(dataLayout, "NCHW")));
      return success();
    }

    // Dilate and pad the input; crop where the padding is negative.
    std::array<int64_t, 2> before, after, full;
    SmallVector<int64_t> cropOffset{0, 0}, cropSize{n, cin};
    bool crop = false;
    for (int d = 0; d < 2; ++d) {
      before[d] = dilation[d] * (kernel[d] - 1) - padding[d];
      after[d] =
          dilation[d] * (kernel[d] - 1) - padding[d + 2] + outputPadding[d];
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
    AffineMap flipMap =
        AffineMap::get(5, 0,
                       {d(0) * cinPerGroup + d(2), d(1),
                        getAffineConstantExpr(kernel[0] - 1, context) - d(3),
                        getAffineConstantExpr(kernel[1] - 1, context) - d(4)},
                       context);
    auto flippedType = RankedTensorType::get(
        {groups, coutPerGroup, cinPerGroup, kernel[0], kernel[1]},
        weightType.getElementType());
    auto flip = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flippedType}, ValueRange{weight},
        ValueRange{createEmpty(rewriter, loc, flippedType)},
        {flipMap, rewriter.getMultiDimIdentityMap(5)},
        SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, args[0]);
        });
    Value flipped =
        createReshape(rewriter, loc, flip.getResult(0),
                      RankedTensorType::get({groups * coutPerGroup, cinPerGroup,
                                             kernel[0], kernel[1]},
                                            weightType.getElementType()));

    Value conv = createConvNCHW(rewriter, loc, dilated, flipped, groups, {1, 1},
                                dilation, permuteType(op.getType(), toNCHW));
    rewriter.replaceOp(
        op, createTranspose(rewriter, loc, conv,
                            getCanonicalToLayout(dataLayout, "NCHW")));
    return success();
  }
};

/// A (batch_)matmul reading its operands transposed through its indexing
/// maps rather than through transposed copies: the CPU pipeline vectorises
/// each form where it is contiguous (docs/running.md), and a weight is not
/// copied on every call.
Value createMatmul(OpBuilder &builder, Location loc, RankedTensorType type,
                   Value a, Value b, bool transposeA, bool transposeB) {
  MLIRContext *context = builder.getContext();
  bool batched = type.getRank() == 3;
  unsigned numDims = batched ? 4 : 3;
  // Loops: [batch,] m, n, k.
  unsigned m = batched ? 1 : 0, n = m + 1, k = m + 2;
  auto map = [&](unsigned row, unsigned column) {
    SmallVector<AffineExpr> results;
    if (batched)
      results.push_back(getAffineDimExpr(0, context));
    results.push_back(getAffineDimExpr(row, context));
    results.push_back(getAffineDimExpr(column, context));
    return AffineMap::get(numDims, 0, results, context);
  };
  SmallVector<Attribute> maps = {
      AffineMapAttr::get(transposeA ? map(k, m) : map(m, k)),
      AffineMapAttr::get(transposeB ? map(n, k) : map(k, n)),
      AffineMapAttr::get(map(m, n))};
  SmallVector<NamedAttribute, 1> attributes;
  if (transposeA || transposeB)
    attributes.emplace_back(builder.getStringAttr("indexing_maps"),
                            builder.getArrayAttr(maps));
  Value init = zeroFilled(builder, loc, type);
  if (batched)
    return linalg::BatchMatmulOp::create(builder, loc, TypeRange{type},
                                         ValueRange{a, b}, ValueRange{init},
                                         attributes)
        .getResult(0);
  return linalg::MatmulOp::create(builder, loc, TypeRange{type},
                                  ValueRange{a, b}, ValueRange{init},
                                  attributes)
      .getResult(0);
}

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
    Value x =
        createReshape(rewriter, loc, adaptor.getX(),
                      RankedTensorType::get({rows, k}, xType.getElementType()));
    auto matrixType =
        RankedTensorType::get({rows, units}, resultType.getElementType());
    Value product = createMatmul(rewriter, loc, matrixType, x,
                                 adaptor.getWeight(), /*transposeA=*/false,
                                 /*transposeB=*/true);
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
    rewriter.replaceOp(op, createMatmul(rewriter, loc, op.getType(),
                                        adaptor.getA(), adaptor.getB(),
                                        op.getTransposeA(),
                                        op.getTransposeB()));
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
    auto prepare = [&](Value operand) -> Value {
      RankedTensorType type = getTensorType(operand);
      if (type.getDimSize(0) == batch)
        return operand;
      Value matrix =
          createReshape(rewriter, loc, operand,
                        RankedTensorType::get(type.getShape().drop_front(),
                                              type.getElementType()));
      auto broadcastType =
          RankedTensorType::get({batch, type.getDimSize(1), type.getDimSize(2)},
                                type.getElementType());
      return linalg::BroadcastOp::create(
                 rewriter, loc, matrix,
                 createEmpty(rewriter, loc, broadcastType),
                 ArrayRef<int64_t>{0})
          .getResult()[0];
    };
    rewriter.replaceOp(op, createMatmul(rewriter, loc, resultType,
                                        prepare(adaptor.getA()),
                                        prepare(adaptor.getB()),
                                        op.getTransposeA(),
                                        op.getTransposeB()));
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

/// The windows of a pooling operator or its gradient, in NCHW: input and
/// output extents (H, W and OH, OW) and the window attributes.
struct PoolGeometry {
  std::array<int64_t, 2> in, out;
  ArrayRef<int64_t> pool, strides, dilation;
  std::array<int64_t, 4> padding; // top, left, bottom, right

  template <typename OpTy>
  static PoolGeometry get(OpTy op, RankedTensorType inputNCHW,
                          RankedTensorType outputNCHW) {
    return {{inputNCHW.getDimSize(2), inputNCHW.getDimSize(3)},
            {outputNCHW.getDimSize(2), outputNCHW.getDimSize(3)},
            op.getPoolSize(),
            op.getStrides(),
            op.getDilation(),
            getPadding(op.getPadding())};
  }
};

/// Pads NCHW `x` by the explicit padding, and further at the bottom/right
/// where a ceil_mode window reaches past it, so every window is in bounds.
Value padForWindows(OpBuilder &b, Location loc, Value x,
                    const PoolGeometry &geo, Value padValue) {
  std::array<int64_t, 2> extra;
  for (int d = 0; d < 2; ++d) {
    int64_t needed = (geo.out[d] - 1) * geo.strides[d] +
                     geo.dilation[d] * (geo.pool[d] - 1) + 1;
    extra[d] = std::max<int64_t>(
        0, needed - (geo.in[d] + geo.padding[d] + geo.padding[d + 2]));
  }
  return createPad(b, loc, x, {0, 0, geo.padding[0], geo.padding[1]},
                   {0, 0, geo.padding[2] + extra[0], geo.padding[3] + extra[1]},
                   padValue);
}

/// The average's divisor per output position, as PyTorch: taps inside the
/// input, plus those in the explicit padding with count_include_pad (the
/// ceil_mode overhang never counts). Known at compile time, so `values`
/// ([N, C, OH, OW]) is divided by a constant [OH, OW] tensor.
template <typename OpTy>
Value divideByTapCount(OpBuilder &b, Location loc, OpTy op, Value values,
                       const PoolGeometry &geo) {
  RankedTensorType valuesType = getTensorType(values);
  Type element = valuesType.getElementType();
  bool includePad = op.getCountIncludePad();
  SmallVector<Attribute> counts;
  for (int64_t oh = 0; oh < geo.out[0]; ++oh) {
    for (int64_t ow = 0; ow < geo.out[1]; ++ow) {
      int64_t taps = 1;
      for (int d = 0; d < 2; ++d) {
        int64_t lo = includePad ? -geo.padding[d] : 0;
        int64_t hi = includePad ? geo.in[d] + geo.padding[d + 2] : geo.in[d];
        taps *= countTaps(d == 0 ? oh : ow, geo.strides[d], geo.padding[d],
                          geo.pool[d], geo.dilation[d], lo, hi);
      }
      // A window with no input element (possible when the padding exceeds
      // the window) sums to 0 and averages to 0, as in PyTorch and the
      // reference evaluator: divide it by 1, not 0.
      taps = std::max<int64_t>(taps, 1);
      if (isa<FloatType>(element))
        counts.push_back(b.getFloatAttr(element, static_cast<double>(taps)));
      else
        counts.push_back(b.getIntegerAttr(element, taps));
    }
  }
  auto countType = RankedTensorType::get({geo.out[0], geo.out[1]}, element);
  Value countTensor = arith::ConstantOp::create(
      b, loc, countType, DenseElementsAttr::get(countType, counts));
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(4),
                              AffineMap::get(4, 0,
                                             {getAffineDimExpr(2, context),
                                              getAffineDimExpr(3, context)},
                                             context),
                              b.getMultiDimIdentityMap(4)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{valuesType}, ValueRange{values, countTensor},
      ValueRange{createEmpty(b, loc, valuesType)}, maps,
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

/// Max and average pooling. `IsMax` selects the named op and the padding
/// value (-inf / the integer minimum for max, 0 for the average's sum).
template <typename OpTy, bool IsMax>
struct Pool2DLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op,
                  typename OpConversionPattern<OpTy>::OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    relay::LayoutAttr layout = op.getLayout();
    SmallVector<int64_t> toNCHW = getLayoutToCanonical(layout, "NCHW");
    Value x = createTranspose(rewriter, loc, adaptor.getX(), toNCHW);
    RankedTensorType xType = getTensorType(x);
    Type element = xType.getElementType();
    RankedTensorType resultType = permuteType(op.getType(), toNCHW);
    auto geo = PoolGeometry::get(op, xType, resultType);
    // ceil_mode: the last window may reach past the bottom/right padding;
    // padForWindows pads further so it is in bounds (those taps never
    // count).
    Value padValue = IsMax ? createLowest(rewriter, loc, element)
                           : createScalar(rewriter, loc, element, 0.0);
    Value padded = padForWindows(rewriter, loc, x, geo, padValue);
    Value window =
        createEmpty(rewriter, loc,
                    RankedTensorType::get({geo.pool[0], geo.pool[1]}, element));
    Value init = createFilled(rewriter, loc, resultType, padValue);
    Attribute stridesAttr = rewriter.getI64TensorAttr(geo.strides);
    Attribute dilationAttr = rewriter.getI64TensorAttr(geo.dilation);
    Value pooled;
    if constexpr (IsMax) {
      pooled =
          linalg::PoolingNchwMaxOp::create(
              rewriter, loc, TypeRange{resultType}, ValueRange{padded, window},
              ValueRange{init}, stridesAttr, dilationAttr)
              .getResult(0);
    } else {
      Value sum =
          linalg::PoolingNchwSumOp::create(
              rewriter, loc, TypeRange{resultType}, ValueRange{padded, window},
              ValueRange{init}, stridesAttr, dilationAttr)
              .getResult(0);
      pooled = divideByTapCount(rewriter, loc, op, sum, geo);
    }
    rewriter.replaceOp(op,
                       createTranspose(rewriter, loc, pooled,
                                       getCanonicalToLayout(layout, "NCHW")));
    return success();
  }
};

/// What the output window `window` = (n, c, oh, ow) contributes, through
/// window position (kh, kw) (index values), to the input element at that
/// position. In the gather form, when no such window exists, `window` is an
/// in-bounds stand-in and the value is discarded.
using WindowContributionFn = llvm::function_ref<Value(
    OpBuilder &, Location, ValueRange window, Value kh, Value kw)>;

/// Above this many window positions, pooling gradients are gathered rather
/// than scattered: the scatter's IR (a slice, a linalg.generic and an
/// insert per position) grows with KH * KW and one-shot bufferization's
/// cost grows faster than linearly in it (8x8: seconds, 16x16: minutes).
constexpr int64_t kMaxScatterWindowPositions = 16;

/// The input gradient of 2-D pooling in NCHW, scattered as col2im scatters
/// a transposed convolution (Jia et al. 2014): for each window position
/// (kh, kw), one element-wise pass over the output windows adds what
/// `contribution` gives into the strided plane of the (padded) input that
/// this position reads, window (oh, ow) landing on row
/// oh * stride + kh * dilation - pad_top; the padding is cropped at the
/// end. KH * KW passes over the output instead of a gather over every input
/// element and window position with a division per element.
static Value createWindowScatter(OpBuilder &b, Location loc,
                                 RankedTensorType resultType,
                                 const PoolGeometry &geo,
                                 WindowContributionFn contribution) {
  Type element = resultType.getElementType();
  int64_t n = resultType.getDimSize(0), c = resultType.getDimSize(1);
  int64_t fullH = std::max((geo.out[0] - 1) * geo.strides[0] +
                               geo.dilation[0] * (geo.pool[0] - 1) + 1,
                           geo.padding[0] + geo.in[0]);
  int64_t fullW = std::max((geo.out[1] - 1) * geo.strides[1] +
                               geo.dilation[1] * (geo.pool[1] - 1) + 1,
                           geo.padding[1] + geo.in[1]);
  Value sum =
      zeroFilled(b, loc, RankedTensorType::get({n, c, fullH, fullW}, element));
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  auto planeType =
      RankedTensorType::get({n, c, geo.out[0], geo.out[1]}, element);
  SmallVector<OpFoldResult> sizes = {index(n), index(c), index(geo.out[0]),
                                     index(geo.out[1])};
  SmallVector<OpFoldResult> steps = {index(1), index(1), index(geo.strides[0]),
                                     index(geo.strides[1])};
  for (int64_t kh = 0; kh < geo.pool[0]; ++kh) {
    for (int64_t kw = 0; kw < geo.pool[1]; ++kw) {
      SmallVector<OpFoldResult> offsets = {index(0), index(0),
                                           index(kh * geo.dilation[0]),
                                           index(kw * geo.dilation[1])};
      Value region = tensor::ExtractSliceOp::create(b, loc, planeType, sum,
                                                    offsets, sizes, steps);
      auto add = linalg::GenericOp::create(
          b, loc, TypeRange{planeType}, ValueRange{}, ValueRange{region},
          SmallVector<AffineMap>{b.getMultiDimIdentityMap(4)},
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> window;
            for (int64_t d = 0; d < 4; ++d)
              window.push_back(linalg::IndexOp::create(nb, l, d));
            Value value = contribution(
                nb, l, window, arith::ConstantIndexOp::create(nb, l, kh),
                arith::ConstantIndexOp::create(nb, l, kw));
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(nb, l, args[0], value)});
          });
      sum = tensor::InsertSliceOp::create(b, loc, add.getResult(0), sum,
                                          offsets, sizes, steps);
    }
  }
  if (fullH == geo.in[0] && fullW == geo.in[1])
    return sum;
  return tensor::ExtractSliceOp::create(
      b, loc, resultType, sum,
      {index(0), index(0), index(geo.padding[0]), index(geo.padding[1])},
      {index(n), index(c), index(geo.in[0]), index(geo.in[1])},
      {index(1), index(1), index(1), index(1)});
}

/// The input gradient of 2-D pooling in NCHW, gathered: a linalg.generic
/// over (n, c, h, w, kh, kw) producing `resultType`, with the window
/// position (kh, kw) as reduction dimensions, adds up what `contribution`
/// gives for every window that reads input (h, w) through position (kh,
/// kw). Window (oh, ow) reads row h through kh iff h + pad_top - kh *
/// dilation = oh * stride with 0 <= oh < OH (and likewise for columns). One
/// op whatever the window size, at a division and remainder per element
/// and window position.
static Value createWindowGather(OpBuilder &b, Location loc,
                                RankedTensorType resultType,
                                const PoolGeometry &geo,
                                WindowContributionFn contribution) {
  MLIRContext *context = b.getContext();
  Type element = resultType.getElementType();
  // The window tensor only gives the reduction dimensions their extent.
  Value window = createEmpty(
      b, loc, RankedTensorType::get({geo.pool[0], geo.pool[1]}, element));
  SmallVector<AffineMap> maps{
      AffineMap::get(
          6, 0, {getAffineDimExpr(4, context), getAffineDimExpr(5, context)},
          context),
      AffineMap::getMultiDimIdentityMap(6, context).getMajorSubMap(4)};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{window},
      ValueRange{zeroFilled(b, loc, resultType)}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto index = [&](int64_t value) -> Value {
          return arith::ConstantIndexOp::create(nb, l, value);
        };
        Value zero = index(0);
        Value kernel[2] = {linalg::IndexOp::create(nb, l, 4),
                           linalg::IndexOp::create(nb, l, 5)};
        Value exists;
        SmallVector<Value> windowIndex{linalg::IndexOp::create(nb, l, 0),
                                       linalg::IndexOp::create(nb, l, 1)};
        for (int d = 0; d < 2; ++d) {
          // shifted = h + pad_top - kh * dilation must be oh * stride.
          Value position = linalg::IndexOp::create(nb, l, 2 + d);
          Value shifted = arith::SubIOp::create(
              nb, l,
              arith::AddIOp::create(nb, l, position, index(geo.padding[d])),
              arith::MulIOp::create(nb, l, kernel[d], index(geo.dilation[d])));
          Value stride = index(geo.strides[d]);
          Value out = arith::DivSIOp::create(nb, l, shifted, stride);
          Value conditions[] = {
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, shifted,
                                    zero),
              arith::CmpIOp::create(
                  nb, l, arith::CmpIPredicate::eq,
                  arith::RemSIOp::create(nb, l, shifted, stride), zero),
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, out,
                                    index(geo.out[d]))};
          for (Value condition : conditions)
            exists = exists ? arith::AndIOp::create(nb, l, exists, condition)
                                  .getResult()
                            : condition;
          // Clamped so that the contribution never reads out of bounds.
          windowIndex.push_back(
              arith::SelectOp::create(nb, l, exists, out, zero));
        }
        Value value = contribution(nb, l, windowIndex, kernel[0], kernel[1]);
        Value added = arith::AddFOp::create(
            nb, l, args[1],
            arith::SelectOp::create(nb, l, exists, value,
                                    createScalar(nb, l, element, 0.0)));
        linalg::YieldOp::create(nb, l, added);
      });
  return generic.getResult(0);
}

/// The input gradient of 2-D pooling: scattered up to
/// kMaxScatterWindowPositions window positions, gathered above, so that
/// the IR (and the compile time) stays bounded for large windows such as a
/// global average pool's.
static Value createWindowGradient(OpBuilder &b, Location loc,
                                  RankedTensorType resultType,
                                  const PoolGeometry &geo,
                                  WindowContributionFn contribution) {
  if (geo.pool[0] * geo.pool[1] > kMaxScatterWindowPositions)
    return createWindowGather(b, loc, resultType, geo, contribution);
  return createWindowScatter(b, loc, resultType, geo, contribution);
}

/// nn.max_pool2d_grad in one pass over the output windows, as PyTorch's CPU
/// kernel scatters through the indices its forward saved: per window, the
/// input position of its maximum, then the window's output gradient added
/// to the input gradient there. The positions depend on the data, so this
/// is a scatter no linalg op expresses: loops (scf.for) over (n, c, oh, ow)
/// and the window's taps, carrying the result tensor, which one-shot
/// bufferization updates in place. A per-tap formulation (one element-wise
/// pass over the windows per tap, selecting where the tap is the maximum)
/// reads the windows' gradients and positions KH * KW times and needs a
/// padded copy of the input: in ResNet's 3x3, stride-2 pool it was the
/// largest compiled kernel of the training step.
struct MaxPool2DGradLowering : OpConversionPattern<relay::MaxPool2DGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::MaxPool2DGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    relay::LayoutAttr layout = op.getLayout();
    SmallVector<int64_t> toNCHW = getLayoutToCanonical(layout, "NCHW");
    Value data = createTranspose(rewriter, loc, adaptor.getData(), toNCHW);
    Value outGrad =
        createTranspose(rewriter, loc, adaptor.getOutGrad(), toNCHW);
    RankedTensorType dataType = getTensorType(data);
    auto geo = PoolGeometry::get(op, dataType, getTensorType(outGrad));
    Value gradient = createScatterLoops(rewriter, loc, data, outGrad, geo);
    rewriter.replaceOp(op,
                       createTranspose(rewriter, loc, gradient,
                                       getCanonicalToLayout(layout, "NCHW")));
    return success();
  }

  /// The loops. A window's maximum is the first tap inside the input,
  /// replaced by a later one when strictly greater or NaN (PyTorch's
  /// choice; ties keep the first); taps in the padding never count. A
  /// window entirely in the padding (none with PyTorch's padding limits)
  /// adds nothing.
  static Value createScatterLoops(OpBuilder &b, Location loc, Value data,
                                  Value outGrad, const PoolGeometry &geo) {
    RankedTensorType dataType = getTensorType(data);
    Type element = dataType.getElementType();
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    Value zero = index(0), one = index(1);
    Value extents[4] = {index(dataType.getDimSize(0)),
                        index(dataType.getDimSize(1)), index(geo.out[0]),
                        index(geo.out[1])};
    Value taps[2] = {index(geo.pool[0]), index(geo.pool[1])};
    Value strides[2] = {index(geo.strides[0]), index(geo.strides[1])};
    Value dilation[2] = {index(geo.dilation[0]), index(geo.dilation[1])};
    Value padding[2] = {index(geo.padding[0]), index(geo.padding[1])};
    Value sizes[2] = {index(geo.in[0]), index(geo.in[1])};
    Value lowest = createLowest(b, loc, element);
    Value zeroElement = createScalar(b, loc, element, 0.0);
    Value notFound = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);

    SmallVector<Value, 4> ivs;
    // The window (n, c, oh, ow) = ivs: its maximum's row and column, then
    // the update of `result`.
    auto window = [&](OpBuilder &nb, Location l, Value result) -> Value {
      Value origin[2];
      for (int d = 0; d < 2; ++d)
        origin[d] = arith::SubIOp::create(
            nb, l, arith::MulIOp::create(nb, l, ivs[2 + d], strides[d]),
            padding[d]);
      auto rows = scf::ForOp::create(
          nb, l, zero, taps[0], one,
          ValueRange{lowest, zero, zero, notFound},
          [&](OpBuilder &rb, Location rl, Value kh, ValueRange rowArgs) {
            auto columns = scf::ForOp::create(
                rb, rl, zero, taps[1], one, rowArgs,
                [&](OpBuilder &cb, Location cl, Value kw, ValueRange args) {
                  Value best = args[0], bestH = args[1], bestW = args[2],
                        found = args[3];
                  Value at[2], inside;
                  Value kernel[2] = {kh, kw};
                  for (int d = 0; d < 2; ++d) {
                    at[d] = arith::AddIOp::create(
                        cb, cl, origin[d],
                        arith::MulIOp::create(cb, cl, kernel[d], dilation[d]));
                    Value in = arith::AndIOp::create(
                        cb, cl,
                        arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::sge,
                                              at[d], zero),
                        arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::slt,
                                              at[d], sizes[d]));
                    inside = inside ? arith::AndIOp::create(cb, cl, inside, in)
                                          .getResult()
                                    : in;
                  }
                  // Clamped so that a tap in the padding reads in bounds.
                  for (Value &position : at)
                    position =
                        arith::SelectOp::create(cb, cl, inside, position, zero);
                  Value x = tensor::ExtractOp::create(
                      cb, cl, data, ValueRange{ivs[0], ivs[1], at[0], at[1]});
                  Value greater = arith::CmpFOp::create(
                      cb, cl, arith::CmpFPredicate::OGT, x, best);
                  Value isNaN = arith::CmpFOp::create(
                      cb, cl, arith::CmpFPredicate::UNO, x, x);
                  Value first = arith::XOrIOp::create(
                      cb, cl, found,
                      arith::ConstantIntOp::create(cb, cl, cb.getI1Type(), 1));
                  Value takes = arith::AndIOp::create(
                      cb, cl, inside,
                      arith::OrIOp::create(
                          cb, cl, first,
                          arith::OrIOp::create(cb, cl, greater, isNaN)));
                  scf::YieldOp::create(
                      cb, cl,
                      ValueRange{
                          arith::SelectOp::create(cb, cl, takes, x, best),
                          arith::SelectOp::create(cb, cl, takes, at[0], bestH),
                          arith::SelectOp::create(cb, cl, takes, at[1], bestW),
                          arith::OrIOp::create(cb, cl, found, inside)});
                });
            scf::YieldOp::create(rb, rl, columns.getResults());
          });
      Value bestH = rows.getResult(1), bestW = rows.getResult(2),
            found = rows.getResult(3);
      Value g = tensor::ExtractOp::create(nb, l, outGrad, ValueRange(ivs));
      SmallVector<Value> target{ivs[0], ivs[1], bestH, bestW};
      Value old = tensor::ExtractOp::create(nb, l, result, target);
      Value sum = arith::AddFOp::create(
          nb, l, old, arith::SelectOp::create(nb, l, found, g, zeroElement));
      return tensor::InsertOp::create(nb, l, sum, result, target);
    };
    std::function<Value(OpBuilder &, Location, unsigned, Value)> nest =
        [&](OpBuilder &nb, Location l, unsigned depth, Value result) -> Value {
      if (depth == 4)
        return window(nb, l, result);
      auto loop = scf::ForOp::create(
          nb, l, zero, extents[depth], one, ValueRange{result},
          [&](OpBuilder &lb, Location ll, Value iv, ValueRange args) {
            ivs.push_back(iv);
            Value updated = nest(lb, ll, depth + 1, args[0]);
            ivs.pop_back();
            scf::YieldOp::create(lb, ll, updated);
          });
      return loop.getResult(0);
    };
    return nest(b, loc, 0, zeroFilled(b, loc, dataType));
  }
};

/// nn.avg_pool2d_grad: the output gradient divided by the forward's
/// divisors (the same constant tensor as nn.avg_pool2d), then scattered:
/// each input element receives the scaled gradients of the windows that
/// read it.
struct AvgPool2DGradLowering : OpConversionPattern<relay::AvgPool2DGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::AvgPool2DGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    relay::LayoutAttr layout = op.getLayout();
    SmallVector<int64_t> toNCHW = getLayoutToCanonical(layout, "NCHW");
    Value outGrad =
        createTranspose(rewriter, loc, adaptor.getOutGrad(), toNCHW);
    RankedTensorType dataType = permuteType(op.getType(), toNCHW);
    auto geo = PoolGeometry::get(op, dataType, getTensorType(outGrad));
    Value scaled = divideByTapCount(rewriter, loc, op, outGrad, geo);
    Value gradient = createWindowGradient(
        rewriter, loc, dataType, geo,
        [&](OpBuilder &b, Location l, ValueRange window, Value,
            Value) -> Value {
          return tensor::ExtractOp::create(b, l, scaled, window);
        });
    rewriter.replaceOp(op,
                       createTranspose(rewriter, loc, gradient,
                                       getCanonicalToLayout(layout, "NCHW")));
    return success();
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
    relay::LayoutAttr layout = op.getLayout();
    SmallVector<int64_t> spatial{layout.getPosition('H'),
                                 layout.getPosition('W')};
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
  patterns.add<
      Conv2DLowering, Conv2DTransposeLowering, DenseLowering, MatmulLowering,
      BatchMatmulLowering, Pool2DLowering<relay::MaxPool2DOp, /*IsMax=*/true>,
      Pool2DLowering<relay::AvgPool2DOp, /*IsMax=*/false>,
      MaxPool2DGradLowering, AvgPool2DGradLowering, GlobalAvgPool2DLowering>(
      patterns.getContext());
}

} // namespace raf::relay_to_linalg
