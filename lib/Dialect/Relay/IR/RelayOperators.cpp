//===- RelayOperators.cpp - shape functions, costs and folds --------------===//
//
// Operators whose shape function is not one of the shared ones of
// ShapeInference.h, their FLOP counts, and their folds.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace raf::relay;
using raf::relay::detail::countElements;

namespace {

constexpr int64_t kDynamic = ShapedType::kDynamic;

bool isDynamic(int64_t size) { return ShapedType::isDynamic(size); }

/// Positions of the letters of `canonical` (e.g. "NCHW") in `layout`, which
/// must be a permutation of it (a `#relay.layout` is a permutation of NCHW or
/// of OIHW; the operator decides which).
FailureOr<std::array<int64_t, 4>> parseLayout(std::optional<Location> loc,
                                              StringRef opName,
                                              StringRef attrName,
                                              LayoutAttr layout,
                                              StringRef canonical) {
  if (std::optional<std::array<int64_t, 4>> positions =
          layout.getPositions(canonical))
    return *positions;
  (void)emitOptionalError(loc, opName, ": ", attrName, " ", layout,
                          " is not a permutation of ", canonical);
  return failure();
}

FailureOr<std::array<int64_t, 2>> expectPair(std::optional<Location> loc,
                                             StringRef opName,
                                             StringRef attrName,
                                             ArrayRef<int64_t> values,
                                             int64_t minimum) {
  if (values.size() != 2 ||
      llvm::any_of(values, [&](int64_t v) { return v < minimum; })) {
    (void)emitOptionalError(loc, opName, ": ", attrName,
                            " must have 2 values, each >= ", minimum);
    return failure();
  }
  return std::array<int64_t, 2>{values[0], values[1]};
}

/// The result element type: `out_dtype` when given, else the input's. Checked
/// before any tensor type is built from it.
FailureOr<Type> resultElement(std::optional<Location> loc, StringRef opName,
                              std::optional<Type> outDtype, Type input) {
  if (!outDtype)
    return input;
  if (!outDtype->isIntOrFloat()) {
    (void)emitOptionalError(loc, opName,
                            ": out_dtype must be an integer or float type, "
                            "got ",
                            *outDtype);
    return failure();
  }
  return *outDtype;
}

LogicalResult verifySameElement(std::optional<Location> loc, StringRef opName,
                                RankedTensorType a, RankedTensorType b) {
  if (a.getElementType() != b.getElementType())
    return emitOptionalError(loc, opName,
                             ": operands must have the same element type, got ",
                             a, " and ", b);
  if (!a.getElementType().isIntOrFloat() || a.getElementType().isInteger(1))
    return emitOptionalError(loc, opName,
                             ": expects integer or floating-point tensors, got ",
                             a);
  return success();
}

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Dimension `pos` of `type`, honouring dynamic sizes.
bool dimsCompatible(int64_t a, int64_t b) {
  return isDynamic(a) || isDynamic(b) || a == b;
}

/// Matches a value that is all zeros: relay.zeros, relay.zeros_like or a
/// zero splat constant.
bool isZeroValue(Value value) {
  if (value.getDefiningOp<ZerosOp>() || value.getDefiningOp<ZerosLikeOp>())
    return true;
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Whether `other (+|-) zero` is `other` itself: `zero` is all zeros and does
/// not broadcast `other` to a larger shape. With dynamic sizes equal static
/// types are not enough (a run-time 1 could be stretched), unless the zero is
/// zeros_like(other).
bool isAdditiveIdentity(Value zero, Value other, Type result) {
  if (!isZeroValue(zero) || other.getType() != result)
    return false;
  if (cast<RankedTensorType>(result).hasStaticShape())
    return true;
  auto like = zero.getDefiningOp<ZerosLikeOp>();
  return like && like.getX() == other;
}

} // namespace

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

LogicalResult CastOp::inferResultTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  // Checked before building the tensor type: tensor<2xtuple<>> is invalid.
  if (!adaptor.getDtype().isIntOrFloat())
    return emitOptionalError(location, getOperationName(),
                             ": dtype must be an integer or float type, got ",
                             adaptor.getDtype());
  inferred.push_back(tensorType(adaptor.getX()).clone(adaptor.getDtype()));
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getX().getType() == getType())
    return getX();
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor) {
  // x + 0 and 0 + x are x when x already has the broadcast result type.
  if (isAdditiveIdentity(getRhs(), getLhs(), getType()))
    return getLhs();
  if (isAdditiveIdentity(getLhs(), getRhs(), getType()))
    return getRhs();
  return {};
}

OpFoldResult SubtractOp::fold(FoldAdaptor) {
  if (isAdditiveIdentity(getRhs(), getLhs(), getType()))
    return getLhs();
  return {};
}

LogicalResult WhereOp::inferResultTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  auto cond = tensorType(adaptor.getCondition());
  auto x = tensorType(adaptor.getX());
  auto y = tensorType(adaptor.getY());
  if (!cond.getElementType().isInteger(1))
    return emitOptionalError(location, getOperationName(),
                             ": condition must be an i1 tensor, got ", cond);
  if (x.getElementType() != y.getElementType())
    return emitOptionalError(location, getOperationName(),
                             ": x and y must have the same element type, got ",
                             x, " and ", y);
  auto xy = broadcastShapes(x.getShape(), y.getShape());
  std::optional<SmallVector<int64_t>> shape;
  if (xy)
    shape = broadcastShapes(cond.getShape(), *xy);
  if (!shape)
    return emitOptionalError(location, getOperationName(), ": shapes of ",
                             cond, ", ", x, " and ", y,
                             " are not broadcastable");
  inferred.push_back(RankedTensorType::get(*shape, x.getElementType()));
  return success();
}

LogicalResult BiasAddOp::inferResultTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  auto x = tensorType(adaptor.getX());
  auto bias = tensorType(adaptor.getBias());
  if (failed(verifySameElement(location, getOperationName(), x, bias)))
    return failure();
  FailureOr<int64_t> axis = normalizeAxis(location, getOperationName(), "axis",
                                          adaptor.getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  if (bias.getRank() != 1 || !dimsCompatible(bias.getDimSize(0),
                                             x.getDimSize(*axis)))
    return emitOptionalError(location, getOperationName(), ": bias must be ",
                             "1-D with ", x.getDimSize(*axis),
                             " elements (the size of axis ", *axis,
                             "), got ", bias);
  inferred.push_back(x);
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

namespace {
/// Shared by conv2d and conv2d_transpose: validated attributes and the
/// operand dimensions in canonical order.
struct Conv2DShape {
  std::array<int64_t, 4> data;   // N, C, H, W
  std::array<int64_t, 4> kernel; // O, I, KH, KW (in OIHW letter order)
  std::array<int64_t, 4> dataPos;
  std::array<int64_t, 2> strides, dilation;
  std::array<int64_t, 4> padding; // top, left, bottom, right
};

template <typename AdaptorT>
FailureOr<Conv2DShape> analyzeConv2D(std::optional<Location> loc,
                                     StringRef opName, AdaptorT adaptor,
                                     StringRef kernelCanonical) {
  auto data = tensorType(adaptor.getData());
  auto weight = tensorType(adaptor.getWeight());
  if (failed(verifySameElement(loc, opName, data, weight)))
    return failure();
  if (data.getRank() != 4 || weight.getRank() != 4) {
    (void)emitOptionalError(loc, opName,
                            ": expects 4-D data and weight, got ", data,
                            " and ", weight);
    return failure();
  }
  Conv2DShape shape;
  auto dataPos = parseLayout(loc, opName, "data_layout",
                             adaptor.getDataLayout(), "NCHW");
  auto kernelPos = parseLayout(loc, opName, "kernel_layout",
                               adaptor.getKernelLayout(), kernelCanonical);
  auto strides = expectPair(loc, opName, "strides", adaptor.getStrides(), 1);
  auto dilation = expectPair(loc, opName, "dilation", adaptor.getDilation(), 1);
  auto padding = expandPadding2D(loc, opName, adaptor.getPadding());
  if (failed(dataPos) || failed(kernelPos) || failed(strides) ||
      failed(dilation) || failed(padding))
    return failure();
  if (adaptor.getGroups() < 1) {
    (void)emitOptionalError(loc, opName, ": groups must be >= 1, got ",
                            adaptor.getGroups());
    return failure();
  }
  for (int i = 0; i < 4; ++i) {
    shape.data[i] = data.getDimSize((*dataPos)[i]);
    shape.kernel[i] = weight.getDimSize((*kernelPos)[i]);
  }
  shape.dataPos = *dataPos;
  shape.strides = *strides;
  shape.dilation = *dilation;
  shape.padding = *padding;
  return shape;
}

RankedTensorType buildConvResult(const Conv2DShape &shape, int64_t channels,
                                 int64_t height, int64_t width, Type element) {
  SmallVector<int64_t> dims(4);
  dims[shape.dataPos[0]] = shape.data[0];
  dims[shape.dataPos[1]] = channels;
  dims[shape.dataPos[2]] = height;
  dims[shape.dataPos[3]] = width;
  return RankedTensorType::get(dims, element);
}
} // namespace

LogicalResult Conv2DOp::inferResultTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<Conv2DShape> shape =
      analyzeConv2D(location, name, adaptor, "OIHW");
  if (failed(shape))
    return failure();
  int64_t groups = adaptor.getGroups();
  auto [n, c, h, w] = shape->data;
  auto [o, i, kh, kw] = shape->kernel;
  if (!isDynamic(c) && !isDynamic(i) && c != i * groups)
    return emitOptionalError(location, name, ": data has ", c,
                             " input channels but the kernel expects ", i,
                             " x groups (", groups, ") = ", i * groups);
  if (!isDynamic(o) && o % groups != 0)
    return emitOptionalError(location, name, ": output channels (", o,
                             ") must be divisible by groups (", groups, ")");
  std::optional<int64_t> oh =
      windowOutputSize(h, kh, shape->padding[0], shape->padding[2],
                       shape->strides[0], shape->dilation[0]);
  std::optional<int64_t> ow =
      windowOutputSize(w, kw, shape->padding[1], shape->padding[3],
                       shape->strides[1], shape->dilation[1]);
  if (!oh || !ow)
    return emitOptionalError(
        location, name, ": the output ", !oh ? "height" : "width",
        " overflows int64_t (input ", !oh ? h : w, ", kernel ",
        !oh ? kh : kw, ", padding ", shape->padding[!oh ? 0 : 1], " and ",
        shape->padding[!oh ? 2 : 3], ", stride ", shape->strides[!oh ? 0 : 1],
        ", dilation ", shape->dilation[!oh ? 0 : 1], ")");
  if (*oh == 0 || *ow == 0)
    return emitOptionalError(location, name, ": the dilated kernel (",
                             kh, "x", kw, ") does not fit the padded input (",
                             h, "x", w, ")");
  FailureOr<Type> element =
      resultElement(location, name, adaptor.getOutDtype(),
                    tensorType(adaptor.getData()).getElementType());
  if (failed(element))
    return failure();
  inferred.push_back(buildConvResult(*shape, o, *oh, *ow, *element));
  return success();
}

int64_t Conv2DOp::getFlops() {
  auto weight = getWeight().getType();
  // Every output element accumulates (C / groups) * KH * KW products; the
  // weight holds O * (C / groups) * KH * KW elements.
  int64_t outputs = countElements(getType());
  auto kernelPos = parseLayout(std::nullopt, "", "", getKernelLayout(), "OIHW");
  if (failed(kernelPos))
    return 0;
  int64_t o = weight.getDimSize((*kernelPos)[0]);
  if (o <= 0)
    return 0;
  return 2 * outputs * (countElements(weight) / o);
}

LogicalResult
Conv2DTransposeOp::inferResultTypes(MLIRContext *,
                                    std::optional<Location> location,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  // For the transposed convolution the kernel's leading letter is I (input
  // channels of this op) and the second O; analyse it as "IOHW".
  FailureOr<Conv2DShape> shape =
      analyzeConv2D(location, name, adaptor, "IOHW");
  if (failed(shape))
    return failure();
  auto outputPadding = expectPair(location, name, "output_padding",
                                  adaptor.getOutputPadding(), 0);
  if (failed(outputPadding))
    return failure();
  int64_t groups = adaptor.getGroups();
  auto [n, c, h, w] = shape->data;
  auto [i, oPerGroup, kh, kw] = shape->kernel;
  if (!isDynamic(c) && !isDynamic(i) && c != i)
    return emitOptionalError(location, name, ": data has ", c,
                             " channels but the kernel expects ", i);
  if (!isDynamic(c) && c % groups != 0)
    return emitOptionalError(location, name, ": input channels (", c,
                             ") must be divisible by groups (", groups, ")");
  for (int d = 0; d < 2; ++d)
    if ((*outputPadding)[d] >=
        std::max(shape->strides[d], shape->dilation[d]))
      return emitOptionalError(location, name,
                               ": output_padding must be smaller than the "
                               "stride or the dilation");
  auto outSize = [&](int64_t in, int64_t k, int d) -> int64_t {
    if (isDynamic(in) || isDynamic(k))
      return kDynamic;
    return (in - 1) * shape->strides[d] - shape->padding[d] -
           shape->padding[d + 2] + shape->dilation[d] * (k - 1) +
           (*outputPadding)[d] + 1;
  };
  int64_t oh = outSize(h, kh, 0), ow = outSize(w, kw, 1);
  if ((!isDynamic(oh) && oh <= 0) || (!isDynamic(ow) && ow <= 0))
    return emitOptionalError(location, name,
                             ": padding leaves an empty output (", oh, "x", ow,
                             ")");
  int64_t channels = isDynamic(oPerGroup) ? kDynamic : oPerGroup * groups;
  FailureOr<Type> element =
      resultElement(location, name, adaptor.getOutDtype(),
                    tensorType(adaptor.getData()).getElementType());
  if (failed(element))
    return failure();
  inferred.push_back(buildConvResult(*shape, channels, oh, ow, *element));
  return success();
}

int64_t Conv2DTransposeOp::getFlops() {
  // Every input element scatters into (O / groups) * KH * KW outputs.
  auto weight = getWeight().getType();
  int64_t inputChannels = weight.getDimSize(0);
  if (inputChannels <= 0)
    return 0;
  return 2 * countElements(getData().getType()) *
         (countElements(weight) / inputChannels);
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

LogicalResult DenseOp::inferResultTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  auto w = tensorType(adaptor.getWeight());
  if (failed(verifySameElement(location, name, x, w)))
    return failure();
  if (x.getRank() < 1 || w.getRank() != 2)
    return emitOptionalError(location, name,
                             ": expects x of rank >= 1 and a 2-D weight [N, K],"
                             " got ",
                             x, " and ", w);
  if (!dimsCompatible(x.getShape().back(), w.getDimSize(1)))
    return emitOptionalError(location, name, ": x has ", x.getShape().back(),
                             " features but the weight [N, K] has K = ",
                             w.getDimSize(1));
  FailureOr<Type> element = resultElement(location, name, adaptor.getOutDtype(),
                                          x.getElementType());
  if (failed(element))
    return failure();
  SmallVector<int64_t> shape(x.getShape());
  shape.back() = w.getDimSize(0);
  inferred.push_back(RankedTensorType::get(shape, *element));
  return success();
}

int64_t DenseOp::getFlops() {
  return 2 * countElements(getType()) *
         getWeight().getType().getDimSize(1);
}

LogicalResult MatmulOp::inferResultTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto a = tensorType(adaptor.getA());
  auto b = tensorType(adaptor.getB());
  if (failed(verifySameElement(location, name, a, b)))
    return failure();
  if (a.getRank() != 2 || b.getRank() != 2)
    return emitOptionalError(location, name, ": expects 2-D operands, got ", a,
                             " and ", b);
  bool ta = adaptor.getTransposeA(), tb = adaptor.getTransposeB();
  int64_t m = a.getDimSize(ta ? 1 : 0), ka = a.getDimSize(ta ? 0 : 1);
  int64_t kb = b.getDimSize(tb ? 1 : 0), n = b.getDimSize(tb ? 0 : 1);
  if (!dimsCompatible(ka, kb))
    return emitOptionalError(location, name,
                             ": contraction sizes differ: a gives K = ", ka,
                             ", b gives K = ", kb);
  FailureOr<Type> element = resultElement(location, name, adaptor.getOutDtype(),
                                          a.getElementType());
  if (failed(element))
    return failure();
  inferred.push_back(RankedTensorType::get({m, n}, *element));
  return success();
}

int64_t MatmulOp::getFlops() {
  auto a = getA().getType();
  return 2 * countElements(getType()) *
         a.getDimSize(getTransposeA() ? 0 : 1);
}

LogicalResult BatchMatmulOp::inferResultTypes(MLIRContext *,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto a = tensorType(adaptor.getA());
  auto b = tensorType(adaptor.getB());
  if (failed(verifySameElement(location, name, a, b)))
    return failure();
  if (a.getRank() != 3 || b.getRank() != 3)
    return emitOptionalError(location, name, ": expects 3-D operands, got ", a,
                             " and ", b);
  int64_t ba = a.getDimSize(0), bb = b.getDimSize(0);
  if (!(ba == 1 || bb == 1 || dimsCompatible(ba, bb)))
    return emitOptionalError(location, name, ": batch sizes ", ba, " and ",
                             bb, " differ and neither is 1");
  bool ta = adaptor.getTransposeA(), tb = adaptor.getTransposeB();
  int64_t m = a.getDimSize(ta ? 2 : 1), ka = a.getDimSize(ta ? 1 : 2);
  int64_t kb = b.getDimSize(tb ? 2 : 1), n = b.getDimSize(tb ? 1 : 2);
  if (!dimsCompatible(ka, kb))
    return emitOptionalError(location, name,
                             ": contraction sizes differ: a gives K = ", ka,
                             ", b gives K = ", kb,
                             " (transpose_b defaults to true)");
  int64_t batch = ba == 1 ? bb : ba;
  FailureOr<Type> element = resultElement(location, name, adaptor.getOutDtype(),
                                          a.getElementType());
  if (failed(element))
    return failure();
  inferred.push_back(RankedTensorType::get({batch, m, n}, *element));
  return success();
}

int64_t BatchMatmulOp::getFlops() {
  auto a = getA().getType();
  return 2 * countElements(getType()) *
         a.getDimSize(getTransposeA() ? 1 : 2);
}

//===----------------------------------------------------------------------===//
// Normalisation and losses
//===----------------------------------------------------------------------===//

// exp, sum and divide (plus a log for log_softmax) per element.
int64_t SoftmaxOp::getFlops() { return 4 * countElements(getType()); }
int64_t LogSoftmaxOp::getFlops() { return 5 * countElements(getType()); }

namespace {
/// Checks that each of `params` is 1-D with `size` elements and the data's
/// element type.
LogicalResult verifyChannelParams(std::optional<Location> loc,
                                  StringRef opName, RankedTensorType data,
                                  int64_t size, ArrayRef<Value> params,
                                  ArrayRef<StringRef> names) {
  for (auto [param, paramName] : llvm::zip(params, names)) {
    auto type = tensorType(param);
    if (type.getRank() != 1 || !dimsCompatible(type.getDimSize(0), size) ||
        type.getElementType() != data.getElementType())
      return emitOptionalError(loc, opName, ": ", paramName,
                               " must be a 1-D tensor of ", size, " ",
                               data.getElementType(), " elements, got ", type);
  }
  return success();
}
} // namespace

LogicalResult LayerNormOp::inferResultTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  if (failed(verifyElementKind(location, name, "x", x, ElementKind::Float)))
    return failure();
  if (x.getRank() == 0)
    return emitOptionalError(location, name, ": expects rank >= 1, got ", x);
  FailureOr<int64_t> axis =
      normalizeAxis(location, name, "axis", adaptor.getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  if (adaptor.getEpsilon().convertToDouble() <= 0.0)
    return emitOptionalError(location, name, ": epsilon must be positive");
  if (failed(verifyChannelParams(location, name, x, x.getDimSize(*axis),
                                 {adaptor.getGamma(), adaptor.getBeta()},
                                 {"gamma", "beta"})))
    return failure();
  inferred.push_back(x);
  return success();
}

// Mean, variance, normalise, scale and shift: about 8 operations per element.
int64_t LayerNormOp::getFlops() { return 8 * countElements(getType()); }

LogicalResult BatchNormOp::inferResultTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  if (failed(verifyElementKind(location, name, "x", x, ElementKind::Float)))
    return failure();
  if (x.getRank() < 2)
    return emitOptionalError(location, name, ": expects rank >= 2, got ", x);
  FailureOr<int64_t> axis =
      normalizeAxis(location, name, "axis", adaptor.getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  if (adaptor.getEpsilon().convertToDouble() <= 0.0)
    return emitOptionalError(location, name, ": epsilon must be positive");
  double momentum = adaptor.getMomentum().convertToDouble();
  if (!(momentum >= 0.0 && momentum <= 1.0))
    return emitOptionalError(location, name,
                             ": momentum must be in [0, 1], got ", momentum);
  int64_t channels = x.getDimSize(*axis);
  if (failed(verifyChannelParams(
          location, name, x, channels,
          {adaptor.getGamma(), adaptor.getBeta(), adaptor.getMovingMean(),
           adaptor.getMovingVar()},
          {"gamma", "beta", "moving_mean", "moving_var"})))
    return failure();
  auto stats = RankedTensorType::get({channels}, x.getElementType());
  inferred.append({x, stats, stats});
  return success();
}

int64_t BatchNormOp::getFlops() { return 8 * countElements(getX().getType()); }

LogicalResult CrossEntropyOp::inferResultTypes(MLIRContext *,
                                               std::optional<Location> location,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto logits = tensorType(adaptor.getLogits());
  auto target = tensorType(adaptor.getTarget());
  if (failed(verifyElementKind(location, name, "logits", logits,
                               ElementKind::Float)))
    return failure();
  if (logits.getRank() != 2)
    return emitOptionalError(location, name, ": logits must be [N, C], got ",
                             logits);
  int64_t n = logits.getDimSize(0);
  bool classIndices = isa<IntegerType>(target.getElementType()) &&
                      target.getRank() == 1 &&
                      dimsCompatible(target.getDimSize(0), n);
  bool probabilities = target.getElementType() == logits.getElementType() &&
                       target.getRank() == 2 &&
                       dimsCompatible(target.getDimSize(0), n) &&
                       dimsCompatible(target.getDimSize(1),
                                      logits.getDimSize(1));
  if (!classIndices && !probabilities)
    return emitOptionalError(location, name, ": target must be [", n,
                             "] integer class indices or probabilities of the "
                             "logits' type ",
                             logits, ", got ", target);
  if (adaptor.getReduction() == LossReduction::None)
    inferred.push_back(RankedTensorType::get({n}, logits.getElementType()));
  else
    inferred.push_back(RankedTensorType::get({}, logits.getElementType()));
  return success();
}

int64_t CrossEntropyOp::getFlops() {
  return 6 * countElements(getLogits().getType());
}

LogicalResult NLLLossOp::inferResultTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto pred = tensorType(adaptor.getPredictions());
  auto targets = tensorType(adaptor.getTargets());
  if (failed(verifyElementKind(location, name, "predictions", pred,
                               ElementKind::Float)))
    return failure();
  if (pred.getRank() < 2)
    return emitOptionalError(location, name,
                             ": predictions must be [N, C, d...], got ", pred);
  // targets drop the class axis of predictions.
  SmallVector<int64_t> expected{pred.getDimSize(0)};
  llvm::append_range(expected, pred.getShape().drop_front(2));
  bool shapeOk = targets.getRank() == static_cast<int64_t>(expected.size()) &&
                 llvm::all_of(llvm::zip(targets.getShape(), expected),
                              [](auto p) {
                                return dimsCompatible(std::get<0>(p),
                                                      std::get<1>(p));
                              });
  if (!isa<IntegerType>(targets.getElementType()) ||
      targets.getElementType().isInteger(1) || !shapeOk)
    return emitOptionalError(location, name,
                             ": targets must be integer class indices of shape"
                             " [N, d...] = ",
                             RankedTensorType::get(expected,
                                                   targets.getElementType()),
                             ", got ", targets);
  if (adaptor.getReduction() == LossReduction::None)
    inferred.push_back(RankedTensorType::get(expected, pred.getElementType()));
  else
    inferred.push_back(RankedTensorType::get({}, pred.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

namespace {
/// The result type of 2-D pooling over `x` with the window attributes of
/// `adaptor` (a forward pooling op's or its gradient's). `operandName` names
/// `x` in diagnostics; empty when it is the op's only operand.
template <typename AdaptorT>
FailureOr<RankedTensorType>
pool2DResultType(std::optional<Location> loc, StringRef opName,
                 StringRef operandName, RankedTensorType x, ElementKind kind,
                 AdaptorT adaptor) {
  if (failed(verifyElementKind(
          loc, opName, operandName.empty() ? "the operand" : operandName, x,
          kind)))
    return failure();
  if (x.getRank() != 4) {
    if (operandName.empty())
      (void)emitOptionalError(loc, opName, ": expects a 4-D tensor, got ", x);
    else
      (void)emitOptionalError(loc, opName, ": expects ", operandName,
                              " to be a 4-D tensor, got ", x);
    return failure();
  }
  auto pos = parseLayout(loc, opName, "layout", adaptor.getLayout(), "NCHW");
  auto pool = expectPair(loc, opName, "pool_size", adaptor.getPoolSize(), 1);
  auto strides = expectPair(loc, opName, "strides", adaptor.getStrides(), 1);
  auto dilation = expectPair(loc, opName, "dilation", adaptor.getDilation(), 1);
  auto padding = expandPadding2D(loc, opName, adaptor.getPadding());
  if (failed(pos) || failed(pool) || failed(strides) || failed(dilation) ||
      failed(padding))
    return failure();
  SmallVector<int64_t> shape(x.getShape());
  for (int d = 0; d < 2; ++d) {
    int64_t axis = (*pos)[2 + d];
    std::optional<int64_t> out = windowOutputSize(
        x.getDimSize(axis), (*pool)[d], (*padding)[d], (*padding)[d + 2],
        (*strides)[d], (*dilation)[d], adaptor.getCeilMode());
    if (!out) {
      (void)emitOptionalError(loc, opName, ": the output ",
                              d == 0 ? "height" : "width",
                              " overflows int64_t (input ", x.getDimSize(axis),
                              ", pool size ", (*pool)[d], ", padding ",
                              (*padding)[d], " and ", (*padding)[d + 2],
                              ", stride ", (*strides)[d], ", dilation ",
                              (*dilation)[d], ")");
      return failure();
    }
    if (*out == 0) {
      (void)emitOptionalError(loc, opName, ": the pooling window (", (*pool)[0],
                              "x", (*pool)[1],
                              ") does not fit the padded input ", x);
      return failure();
    }
    shape[axis] = *out;
  }
  return RankedTensorType::get(shape, x.getElementType());
}

template <typename AdaptorT>
LogicalResult inferPool2D(std::optional<Location> loc, StringRef opName,
                          AdaptorT adaptor, SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> result =
      pool2DResultType(loc, opName, "", tensorType(adaptor.getX()),
                       ElementKind::Numeric, adaptor);
  if (failed(result))
    return failure();
  inferred.push_back(*result);
  return success();
}

/// The gradient of pooling with respect to `data` has `data`'s type; the
/// incoming gradient must have the forward result's.
template <typename AdaptorT>
LogicalResult inferPool2DGrad(std::optional<Location> loc, StringRef opName,
                              AdaptorT adaptor,
                              SmallVectorImpl<Type> &inferred) {
  auto data = tensorType(adaptor.getData());
  auto outGrad = tensorType(adaptor.getOutGrad());
  FailureOr<RankedTensorType> pooled =
      pool2DResultType(loc, opName, "data", data, ElementKind::Float, adaptor);
  if (failed(pooled))
    return failure();
  bool matches = outGrad.getElementType() == pooled->getElementType() &&
                 outGrad.getRank() == pooled->getRank();
  for (int64_t d = 0; matches && d < outGrad.getRank(); ++d)
    matches = dimsCompatible(outGrad.getDimSize(d), pooled->getDimSize(d));
  if (!matches)
    return emitOptionalError(loc, opName,
                             ": out_grad must have the type of the pooling "
                             "result for data, ",
                             *pooled, ", got ", outGrad);
  inferred.push_back(data);
  return success();
}
} // namespace

LogicalResult MaxPool2DOp::inferResultTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferPool2D(location, getOperationName(), adaptor, inferred);
}

int64_t MaxPool2DOp::getFlops() {
  ArrayRef<int64_t> pool = getPoolSize();
  return countElements(getType()) * pool[0] * pool[1];
}

LogicalResult AvgPool2DOp::inferResultTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferPool2D(location, getOperationName(), adaptor, inferred);
}

int64_t AvgPool2DOp::getFlops() {
  ArrayRef<int64_t> pool = getPoolSize();
  return countElements(getType()) * pool[0] * pool[1];
}

LogicalResult MaxPool2DGradOp::inferResultTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferPool2DGrad(location, getOperationName(), adaptor, inferred);
}

// Per output-gradient element: a comparison per window position to find
// the maximum, and one addition into the input gradient.
int64_t MaxPool2DGradOp::getFlops() {
  ArrayRef<int64_t> pool = getPoolSize();
  return countElements(getOutGrad().getType()) * (pool[0] * pool[1] + 1);
}

LogicalResult AvgPool2DGradOp::inferResultTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferPool2DGrad(location, getOperationName(), adaptor, inferred);
}

// Per output-gradient element: one division by the divisor, and one
// addition per window position.
int64_t AvgPool2DGradOp::getFlops() {
  ArrayRef<int64_t> pool = getPoolSize();
  return countElements(getOutGrad().getType()) * (pool[0] * pool[1] + 1);
}

LogicalResult
GlobalAvgPool2DOp::inferResultTypes(MLIRContext *,
                                    std::optional<Location> location,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  if (failed(verifyElementKind(location, name, "the operand", x,
                               ElementKind::Float)))
    return failure();
  if (x.getRank() != 4)
    return emitOptionalError(location, name, ": expects a 4-D tensor, got ",
                             x);
  auto pos = parseLayout(location, name, "layout", adaptor.getLayout(), "NCHW");
  if (failed(pos))
    return failure();
  SmallVector<int64_t> shape(x.getShape());
  shape[(*pos)[2]] = 1;
  shape[(*pos)[3]] = 1;
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Shape and layout operators
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferResultTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  ArrayRef<int64_t> newshape = adaptor.getNewshape();
  SmallVector<int64_t> shape;
  int64_t inferredAxis = -1, known = 1;
  bool dynamic = !x.hasStaticShape();
  for (auto [i, requested] : llvm::enumerate(newshape)) {
    int64_t size = requested;
    if (size == -1) {
      if (inferredAxis != -1)
        return emitOptionalError(location, name,
                                 ": newshape may contain at most one -1");
      inferredAxis = i;
      shape.push_back(kDynamic);
      continue;
    }
    if (size == 0) {
      // 0 copies the input dimension at the same position.
      if (static_cast<int64_t>(i) >= x.getRank())
        return emitOptionalError(location, name, ": newshape[", i,
                                 "] = 0 copies a dimension the input (rank ",
                                 x.getRank(), ") does not have");
      size = x.getDimSize(i);
    } else if (size < -1) {
      return emitOptionalError(location, name, ": newshape[", i, "] = ", size,
                               " is invalid (expected a size, 0 or -1)");
    }
    shape.push_back(size);
    if (isDynamic(size))
      dynamic = true;
    else if (llvm::MulOverflow(known, size, known))
      return emitOptionalError(location, name,
                               ": the product of newshape overflows");
  }
  if (!dynamic) {
    int64_t total = x.getNumElements();
    if (inferredAxis != -1) {
      if (known == 0 || total % known != 0)
        return emitOptionalError(location, name, ": cannot reshape ", x,
                                 " (", total, " elements) with a -1 next to "
                                 "dimensions of product ", known);
      shape[inferredAxis] = total / known;
    } else if (known != total) {
      return emitOptionalError(location, name, ": cannot reshape ", x, " (",
                               total, " elements) to ", known, " elements");
    }
  }
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getX().getType() == getType())
    return getX();
  // reshape(reshape(x)) -> reshape(x): only the final shape matters. The
  // shape is spelt out so 0 / -1 entries do not refer to the old input.
  if (auto inner = getX().getDefiningOp<ReshapeOp>()) {
    if (!getType().hasStaticShape())
      return {};
    getXMutable().assign(inner.getX());
    setNewshape(getType().getShape());
    return getResult();
  }
  return {};
}

namespace {
FailureOr<SmallVector<int64_t>>
transposePermutation(std::optional<Location> loc, StringRef opName,
                     std::optional<ArrayRef<int64_t>> axes, int64_t rank) {
  SmallVector<int64_t> perm;
  if (!axes) {
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
    return perm;
  }
  if (static_cast<int64_t>(axes->size()) != rank) {
    (void)emitOptionalError(loc, opName, ": axes has ", axes->size(),
                            " entries but the tensor has rank ", rank);
    return failure();
  }
  llvm::SmallBitVector seen(rank);
  for (int64_t axis : *axes) {
    FailureOr<int64_t> a = normalizeAxis(loc, opName, "axis", axis, rank);
    if (failed(a))
      return failure();
    if (seen.test(*a)) {
      (void)emitOptionalError(loc, opName, ": axes is not a permutation (",
                              axis, " repeats)");
      return failure();
    }
    seen.set(*a);
    perm.push_back(*a);
  }
  return perm;
}
} // namespace

LogicalResult TransposeOp::inferResultTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  auto x = tensorType(adaptor.getX());
  auto perm = transposePermutation(location, getOperationName(),
                                   adaptor.getAxes(), x.getRank());
  if (failed(perm))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t axis : *perm)
    shape.push_back(x.getDimSize(axis));
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  int64_t rank = getType().getRank();
  auto perm = transposePermutation(std::nullopt, "", getAxes(), rank);
  if (failed(perm))
    return {};
  if (llvm::equal(*perm, llvm::seq<int64_t>(0, rank)))
    return getX();
  // transpose(transpose(x, p), q) -> transpose(x, p o q).
  if (auto inner = getX().getDefiningOp<TransposeOp>()) {
    auto innerPerm = transposePermutation(std::nullopt, "", inner.getAxes(),
                                          rank);
    if (failed(innerPerm))
      return {};
    SmallVector<int64_t> composed;
    for (int64_t axis : *perm)
      composed.push_back((*innerPerm)[axis]);
    getXMutable().assign(inner.getX());
    if (llvm::equal(composed, llvm::seq<int64_t>(0, rank)))
      return getX();
    setAxes(composed);
    return getResult();
  }
  return {};
}

LogicalResult ExpandDimsOp::inferResultTypes(MLIRContext *,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  auto x = tensorType(adaptor.getX());
  int64_t count = adaptor.getNumNewaxis();
  // Bounded as NumPy's NPY_MAXDIMS; a huge count would exhaust memory.
  if (count < 0 || count > 64)
    return emitOptionalError(location, getOperationName(),
                             ": num_newaxis must be in [0, 64], got ", count);
  // Valid positions are [-rank-1, rank].
  FailureOr<int64_t> axis =
      normalizeAxis(location, getOperationName(), "axis", adaptor.getAxis(),
                    x.getRank() + 1);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(x.getShape());
  shape.insert(shape.begin() + *axis, count, 1);
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult SqueezeOp::inferResultTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  llvm::SmallBitVector drop(x.getRank());
  if (std::optional<ArrayRef<int64_t>> axes = adaptor.getAxis()) {
    for (int64_t axis : *axes) {
      FailureOr<int64_t> a = normalizeAxis(location, name, "axis", axis,
                                           x.getRank());
      if (failed(a))
        return failure();
      if (x.getDimSize(*a) != 1)
        return emitOptionalError(location, name, ": cannot squeeze axis ",
                                 axis, " of size ", x.getDimSize(*a),
                                 " (only size-1 axes can be squeezed)");
      drop.set(*a);
    }
  } else {
    for (int64_t i = 0; i < x.getRank(); ++i)
      drop[i] = x.getDimSize(i) == 1;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < x.getRank(); ++i)
    if (!drop.test(i))
      shape.push_back(x.getDimSize(i));
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult ConcatenateOp::inferResultTypes(MLIRContext *,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (adaptor.getInputs().empty())
    return emitOptionalError(location, name, ": expects at least one input");
  auto first = tensorType(adaptor.getInputs().front());
  FailureOr<int64_t> axis = normalizeAxis(location, name, "axis",
                                          adaptor.getAxis(), first.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (auto [index, input] : llvm::enumerate(adaptor.getInputs())) {
    auto type = tensorType(input);
    if (index == 0)
      continue;
    bool ok = type.getRank() == first.getRank() &&
              type.getElementType() == first.getElementType();
    for (int64_t d = 0; ok && d < type.getRank(); ++d)
      ok = d == *axis || dimsCompatible(type.getDimSize(d), shape[d]);
    if (!ok)
      return emitOptionalError(location, name, ": input #", index, " ", type,
                               " does not match input #0 ", first,
                               " outside the concatenation axis ", *axis);
    if (isDynamic(shape[*axis]) || type.isDynamicDim(*axis))
      shape[*axis] = kDynamic;
    else
      shape[*axis] += type.getDimSize(*axis);
  }
  inferred.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult SplitOp::inferResultTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  FailureOr<int64_t> axis =
      normalizeAxis(location, name, "axis", adaptor.getAxis(), x.getRank());
  if (failed(axis))
    return failure();
  std::optional<int64_t> sections;
  if (IntegerAttr attr = adaptor.getSectionsAttr())
    sections = attr.getInt();
  std::optional<ArrayRef<int64_t>> indices = adaptor.getIndices();
  if (sections.has_value() == indices.has_value())
    return emitOptionalError(location, name,
                             ": expects exactly one of 'sections' and "
                             "'indices'");
  int64_t size = x.getDimSize(*axis);
  SmallVector<int64_t> bounds{0};
  if (sections) {
    if (*sections < 1)
      return emitOptionalError(location, name, ": sections must be >= 1, got ",
                               *sections);
    // An empty axis splits only into one section; more would build
    // arbitrarily many results.
    if (isDynamic(size) || size % *sections != 0 ||
        *sections > std::max<int64_t>(size, 1))
      return emitOptionalError(location, name, ": axis ", *axis, " of size ",
                               size, " does not split evenly into ",
                               *sections, " sections");
    for (int64_t i = 1; i <= *sections; ++i)
      bounds.push_back(i * (size / *sections));
  } else {
    for (int64_t index : *indices) {
      if (index <= bounds.back() || (!isDynamic(size) && index >= size))
        return emitOptionalError(location, name,
                                 ": indices must be strictly increasing and "
                                 "inside (0, ",
                                 size, "), got ", index);
      bounds.push_back(index);
    }
    bounds.push_back(size);
  }
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    SmallVector<int64_t> shape(x.getShape());
    shape[*axis] = isDynamic(bounds[i + 1]) ? kDynamic
                                            : bounds[i + 1] - bounds[i];
    inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  }
  return success();
}

LogicalResult StridedSliceOp::inferResultTypes(MLIRContext *,
                                               std::optional<Location> location,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  ArrayRef<int64_t> begin = adaptor.getBegin(), end = adaptor.getEnd();
  size_t count = begin.size();
  SmallVector<int64_t> strides(count, 1), axes;
  if (auto s = adaptor.getStrides())
    strides.assign(s->begin(), s->end());
  if (auto a = adaptor.getAxes())
    axes.assign(a->begin(), a->end());
  else
    for (size_t i = 0; i < count; ++i)
      axes.push_back(i);
  if (end.size() != count || strides.size() != count || axes.size() != count)
    return emitOptionalError(location, name,
                             ": begin, end, strides and axes must have the "
                             "same length");
  if (static_cast<int64_t>(count) > x.getRank())
    return emitOptionalError(location, name, ": slices ", count,
                             " axes of a tensor of rank ", x.getRank());
  SmallVector<int64_t> shape(x.getShape());
  llvm::SmallBitVector seen(x.getRank());
  for (size_t i = 0; i < count; ++i) {
    FailureOr<int64_t> axis =
        normalizeAxis(location, name, "axis", axes[i], x.getRank());
    if (failed(axis))
      return failure();
    if (seen.test(*axis))
      return emitOptionalError(location, name, ": axis ", axes[i],
                               " is sliced twice");
    seen.set(*axis);
    int64_t stride = strides[i];
    if (stride == 0)
      return emitOptionalError(location, name, ": stride must not be 0");
    int64_t dim = x.getDimSize(*axis);
    if (isDynamic(dim)) {
      shape[*axis] = kDynamic;
      continue;
    }
    // NumPy semantics: negative indices wrap once, then clamp.
    auto canonical = [&](int64_t index, bool forward) {
      if (index < 0)
        index += dim;
      return forward ? std::clamp<int64_t>(index, 0, dim)
                     : std::clamp<int64_t>(index, -1, dim - 1);
    };
    int64_t b = canonical(begin[i], stride > 0);
    int64_t e = canonical(end[i], stride > 0);
    // Unsigned magnitude: -INT64_MIN overflows int64_t.
    uint64_t step = stride > 0 ? static_cast<uint64_t>(stride)
                               : 0 - static_cast<uint64_t>(stride);
    int64_t distance = stride > 0 ? e - b : b - e;
    shape[*axis] =
        distance <= 0
            ? 0
            : static_cast<int64_t>(1 + (static_cast<uint64_t>(distance) - 1) /
                                           step);
  }
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult TakeOp::inferResultTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto data = tensorType(adaptor.getData());
  auto indices = tensorType(adaptor.getIndices());
  if (!isa<IntegerType>(indices.getElementType()) ||
      indices.getElementType().isInteger(1))
    return emitOptionalError(location, name,
                             ": indices must be an integer tensor, got ",
                             indices);
  SmallVector<int64_t> shape;
  if (IntegerAttr axisAttr = adaptor.getAxisAttr()) {
    FailureOr<int64_t> axis = normalizeAxis(location, name, "axis",
                                            axisAttr.getInt(), data.getRank());
    if (failed(axis))
      return failure();
    llvm::append_range(shape, data.getShape().take_front(*axis));
    llvm::append_range(shape, indices.getShape());
    llvm::append_range(shape, data.getShape().drop_front(*axis + 1));
  } else {
    llvm::append_range(shape, indices.getShape());
  }
  inferred.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

LogicalResult PadOp::inferResultTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto x = tensorType(adaptor.getX());
  ArrayRef<int64_t> width = adaptor.getPadWidth();
  PadMode mode = adaptor.getPadMode();
  if (static_cast<int64_t>(width.size()) != 2 * x.getRank())
    return emitOptionalError(location, name, ": pad_width must have 2 * rank "
                             "= ", 2 * x.getRank(), " values (before, after "
                             "per axis), got ", width.size());
  SmallVector<int64_t> shape(x.getShape());
  for (int64_t d = 0; d < x.getRank(); ++d) {
    int64_t before = width[2 * d], after = width[2 * d + 1];
    if (before < 0 || after < 0)
      return emitOptionalError(location, name,
                               ": pad_width must be non-negative");
    if (isDynamic(shape[d]))
      continue;
    if (mode == PadMode::Reflect && (before >= shape[d] || after >= shape[d]))
      return emitOptionalError(location, name,
                               ": reflect padding of axis ", d,
                               " must be smaller than its size ", shape[d]);
    if (mode == PadMode::Edge && shape[d] == 0 && before + after > 0)
      return emitOptionalError(location, name,
                               ": edge padding needs a non-empty axis ", d);
    int64_t padded;
    if (llvm::AddOverflow(shape[d], before, padded) ||
        llvm::AddOverflow(padded, after, padded))
      return emitOptionalError(location, name, ": padding axis ", d,
                               " overflows its size");
    shape[d] = padded;
  }
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

LogicalResult BroadcastToOp::inferResultTypes(MLIRContext *,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  auto x = tensorType(adaptor.getX());
  ArrayRef<int64_t> target = adaptor.getShape();
  // The target shape is static; a negative size would make an invalid type.
  if (llvm::any_of(target, [](int64_t s) { return s < 0; }))
    return emitOptionalError(location, getOperationName(),
                             ": shape sizes must be non-negative, got [",
                             target, "]");
  auto shape = broadcastShapes(x.getShape(), target);
  if (target.size() < static_cast<size_t>(x.getRank()) || !shape ||
      !llvm::equal(*shape, target))
    return emitOptionalError(location, getOperationName(), ": cannot broadcast ",
                             x, " to shape [", target,
                             "] (each input dimension must be 1 or match)");
  inferred.push_back(RankedTensorType::get(target, x.getElementType()));
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  if (getX().getType() == getType())
    return getX();
  return {};
}

namespace {
LogicalResult inferFill(std::optional<Location> loc, StringRef opName,
                        ArrayRef<int64_t> shape, Type dtype,
                        SmallVectorImpl<Type> &inferred) {
  if (llvm::any_of(shape, [](int64_t s) { return s < 0; }))
    return emitOptionalError(loc, opName,
                             ": shape sizes must be non-negative");
  if (!dtype.isIntOrFloat())
    return emitOptionalError(loc, opName,
                             ": dtype must be an integer or float type, got ",
                             dtype);
  inferred.push_back(RankedTensorType::get(shape, dtype));
  return success();
}
} // namespace

LogicalResult ZerosOp::inferResultTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return inferFill(location, getOperationName(), adaptor.getShape(),
                   adaptor.getDtype(), inferred);
}

LogicalResult OnesOp::inferResultTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  return inferFill(location, getOperationName(), adaptor.getShape(),
                   adaptor.getDtype(), inferred);
}
