//===- ElementwiseKernels.cpp - element-wise and broadcasting operators ---===//
//
// Unary math, broadcasting binary arithmetic and comparisons, where, cast,
// bias_add, dropout, zeros_like and ones_like.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include <cmath>
#include <limits>

using namespace raf::runtime;
using namespace raf::runtime::kernels;
namespace relay = raf::relay;

namespace {

using Results = SmallVectorImpl<HostTensor>;

//===----------------------------------------------------------------------===//
// Unary operators
//===----------------------------------------------------------------------===//

/// Applies `floatFn` (double -> double) to float tensors and `intFn`
/// (int64 -> int64, wrapping) to integer ones.
template <typename FloatFn, typename IntFn>
LogicalResult mapUnary(Operation *op, const HostTensor &x, Results &results,
                       FloatFn floatFn, IntFn intFn) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  HostTensor out(*dtype, x.getShape());
  bool floating = isFloat(x.getDType());
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    if (floating)
      out.setDouble(i, floatFn(x.getDouble(i)));
    else
      out.setInt(i, intFn(x.getInt(i)));
  }
  results.push_back(std::move(out));
  return success();
}

/// A unary operator defined on floats only (the verifier rejects integers).
template <typename OpT>
void addFloatUnary(KernelRegistry &registry, double (*fn)(double)) {
  registry.add<OpT>([fn](OpT op, KernelOperands in, Results &results) {
    return mapUnary(op, *in[0], results, fn, [](int64_t) -> int64_t {
      llvm_unreachable("float-only operator");
    });
  });
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double exponential(double x) { return std::exp(x); }
double logarithm(double x) { return std::log(x); }
double squareRoot(double x) { return std::sqrt(x); }
double hyperbolicTangent(double x) { return std::tanh(x); }
double errorFunction(double x) { return std::erf(x); }

double geluErf(double x) {
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

/// PyTorch's approximate="tanh" form.
double geluTanh(double x) {
  const double kSqrt2OverPi = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x)));
}

//===----------------------------------------------------------------------===//
// Broadcasting binary operators
//===----------------------------------------------------------------------===//

/// out[i] = fn(lhs[bi], rhs[bi]) over the broadcast shape. `FloatFn` maps
/// (double, double) to double; `IntFn` maps (int64, int64) to
/// FailureOr<int64> so that integer division by zero can be reported.
template <typename FloatFn, typename IntFn>
LogicalResult mapBinary(Operation *op, KernelOperands in, Results &results,
                        FloatFn floatFn, IntFn intFn) {
  FailureOr<SmallVector<int64_t>> shape = broadcastOperands(op, in);
  FailureOr<DType> dtype = resultDType(op);
  if (failed(shape) || failed(dtype))
    return failure();
  const HostTensor &lhs = *in[0], &rhs = *in[1];
  int64_t rank = static_cast<int64_t>(shape->size());
  SmallVector<int64_t> lhsStrides = broadcastStrides(lhs.getShape(), rank);
  SmallVector<int64_t> rhsStrides = broadcastStrides(rhs.getShape(), rank);
  HostTensor out(*dtype, *shape);
  bool floating = isFloat(lhs.getDType());
  int64_t index = 0;
  bool ok = true;
  forEachIndex(*shape, [&](ArrayRef<int64_t> coords) {
    int64_t l = offsetOf(coords, lhsStrides), r = offsetOf(coords, rhsStrides);
    if (floating) {
      out.setDouble(index++, floatFn(lhs.getDouble(l), rhs.getDouble(r)));
      return;
    }
    FailureOr<int64_t> value = intFn(lhs.getInt(l), rhs.getInt(r));
    if (failed(value))
      ok = false;
    else
      out.setInt(index, *value);
    ++index;
  });
  if (!ok)
    return op->emitOpError("integer division by zero");
  results.push_back(std::move(out));
  return success();
}

/// Float maximum/minimum propagate NaN, as torch.maximum and numpy.maximum.
double nanMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  return a > b ? a : b;
}
double nanMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  return a < b ? a : b;
}

/// Integer division truncates toward zero (TVM's and C's semantics);
/// INT64_MIN / -1 wraps to INT64_MIN.
FailureOr<int64_t> truncatingDivide(int64_t a, int64_t b) {
  if (b == 0)
    return failure();
  if (b == -1)
    return wrapSub(0, a);
  return a / b;
}

/// A comparison producing i1; both sides compare as double for floats and
/// as int64 for integers (and i1).
template <typename OpT, typename Compare>
void addComparison(KernelRegistry &registry, Compare compare) {
  registry.add<OpT>([compare](OpT op, KernelOperands in, Results &results) {
    return mapBinary(
        op, in, results,
        [&](double a, double b) -> double { return compare(a, b); },
        [&](int64_t a, int64_t b) -> FailureOr<int64_t> {
          return static_cast<int64_t>(compare(a, b));
        });
  });
}

//===----------------------------------------------------------------------===//
// Other element-wise operators
//===----------------------------------------------------------------------===//

LogicalResult runWhere(relay::WhereOp op, KernelOperands in, Results &results) {
  FailureOr<SmallVector<int64_t>> shape = broadcastOperands(op, in);
  FailureOr<DType> dtype = resultDType(op);
  if (failed(shape) || failed(dtype))
    return failure();
  int64_t rank = static_cast<int64_t>(shape->size());
  SmallVector<int64_t> strides[3];
  for (int i = 0; i < 3; ++i)
    strides[i] = broadcastStrides(in[i]->getShape(), rank);
  HostTensor out(*dtype, *shape);
  int64_t index = 0;
  forEachIndex(*shape, [&](ArrayRef<int64_t> coords) {
    bool condition = in[0]->getInt(offsetOf(coords, strides[0])) != 0;
    int source = condition ? 1 : 2;
    copyElement(*in[source], offsetOf(coords, strides[source]), out, index++);
  });
  results.push_back(std::move(out));
  return success();
}

LogicalResult runCast(relay::CastOp op, KernelOperands in, Results &results) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  const HostTensor &x = *in[0];
  HostTensor out(*dtype, x.getShape());
  // Floats convert with the target's rounding (to nearest for floats,
  // toward zero for integers); integers wrap into narrower integers.
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    copyElement(x, i, out, i);
  results.push_back(std::move(out));
  return success();
}

LogicalResult runBiasAdd(relay::BiasAddOp op, KernelOperands in,
                         Results &results) {
  const HostTensor &x = *in[0], &bias = *in[1];
  int64_t axis = normalizeAxis(op.getAxis(), x.getRank());
  if (bias.getShape()[0] != x.getShape()[axis])
    return op.emitOpError("bias has ")
           << bias.getShape()[0] << " elements but axis " << axis
           << " has size " << x.getShape()[axis] << " at run time";
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  HostTensor out(*dtype, x.getShape());
  bool floating = isFloat(x.getDType());
  int64_t index = 0;
  forEachIndex(x.getShape(), [&](ArrayRef<int64_t> coords) {
    int64_t b = coords[axis];
    if (floating)
      out.setDouble(index, x.getDouble(index) + bias.getDouble(b));
    else
      out.setInt(index, wrapAdd(x.getInt(index), bias.getInt(b)));
    ++index;
  });
  results.push_back(std::move(out));
  return success();
}

LogicalResult runDropout(relay::DropoutOp op, KernelOperands in,
                         Results &results) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  const HostTensor &x = *in[0];
  double rate = op.getRate().convertToDouble();
  int64_t seed = op.getSeed();
  HostTensor out(*dtype, x.getShape());
  // rate == 1 drops everything (the tensor stays zero); the scale would be
  // infinite.
  if (rate < 1.0) {
    double scale = 1.0 / (1.0 - rate);
    for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
      if (dropoutKeeps(static_cast<uint64_t>(i), seed, rate))
        out.setDouble(i, x.getDouble(i) * scale);
  }
  results.push_back(std::move(out));
  return success();
}

/// zeros_like / ones_like.
LogicalResult fillLike(Operation *op, const HostTensor &x, int64_t value,
                       Results &results) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  HostTensor out(*dtype, x.getShape());
  for (int64_t i = 0, e = out.getNumElements(); value != 0 && i < e; ++i)
    out.setInt(i, value);
  results.push_back(std::move(out));
  return success();
}

} // namespace

bool raf::runtime::dropoutKeeps(uint64_t index, int64_t seed, double rate) {
  uint32_t x =
      static_cast<uint32_t>(index) + static_cast<uint32_t>(seed) * 0x9E3779B9u;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  // 24 random bits: exact in float, a multiple of 2^-24 in [0, 1).
  float u = static_cast<float>(x >> 8) * 0x1p-24f;
  return static_cast<double>(u) >= rate;
}

void raf::runtime::addElementwiseKernels(KernelRegistry &registry) {
  using namespace relay;

  // Unary math on floats.
  addFloatUnary<SigmoidOp>(registry, sigmoid);
  addFloatUnary<TanhOp>(registry, hyperbolicTangent);
  addFloatUnary<ExpOp>(registry, exponential);
  addFloatUnary<LogOp>(registry, logarithm);
  addFloatUnary<SqrtOp>(registry, squareRoot);
  addFloatUnary<RsqrtOp>(registry, rsqrt);
  addFloatUnary<ErfOp>(registry, errorFunction);
  registry.add<GeluOp>([](GeluOp op, KernelOperands in, Results &results) {
    bool tanh = op.getApproximate() == GeluApproximation::Tanh;
    return mapUnary(
        op, *in[0], results, tanh ? geluTanh : geluErf,
        [](int64_t) -> int64_t { llvm_unreachable("float-only operator"); });
  });
  registry.add<LeakyReluOp>([](LeakyReluOp op, KernelOperands in,
                               Results &results) {
    double alpha = op.getAlpha().convertToDouble();
    return mapUnary(
        op, *in[0], results,
        [alpha](double x) { return x > 0 ? x : alpha * x; },
        [](int64_t) -> int64_t { llvm_unreachable("float-only operator"); });
  });

  // Unary operators on integers and floats.
  registry.add<ReluOp>([](ReluOp op, KernelOperands in, Results &results) {
    // NaN stays NaN, as torch.relu.
    return mapUnary(
        op, *in[0], results,
        [](double x) { return std::isnan(x) ? x : (x > 0 ? x : 0.0); },
        [](int64_t x) { return x > 0 ? x : int64_t(0); });
  });
  registry.add<NegativeOp>(
      [](NegativeOp op, KernelOperands in, Results &results) {
        return mapUnary(
            op, *in[0], results, [](double x) { return -x; },
            [](int64_t x) { return wrapSub(0, x); });
      });
  registry.add<SquareOp>([](SquareOp op, KernelOperands in, Results &results) {
    return mapUnary(
        op, *in[0], results, [](double x) { return x * x; },
        [](int64_t x) { return wrapMul(x, x); });
  });
  registry.add<DropoutOp>(runDropout);
  registry.add<ZerosLikeOp>(
      [](ZerosLikeOp op, KernelOperands in, Results &results) {
        return fillLike(op, *in[0], 0, results);
      });
  registry.add<OnesLikeOp>(
      [](OnesLikeOp op, KernelOperands in, Results &results) {
        return fillLike(op, *in[0], 1, results);
      });
  registry.add<CastOp>(runCast);

  // Broadcasting arithmetic.
  registry.add<AddOp>([](AddOp op, KernelOperands in, Results &results) {
    return mapBinary(
        op, in, results, [](double a, double b) { return a + b; },
        [](int64_t a, int64_t b) -> FailureOr<int64_t> {
          return wrapAdd(a, b);
        });
  });
  registry.add<SubtractOp>(
      [](SubtractOp op, KernelOperands in, Results &results) {
        return mapBinary(
            op, in, results, [](double a, double b) { return a - b; },
            [](int64_t a, int64_t b) -> FailureOr<int64_t> {
              return wrapSub(a, b);
            });
      });
  registry.add<MultiplyOp>(
      [](MultiplyOp op, KernelOperands in, Results &results) {
        return mapBinary(
            op, in, results, [](double a, double b) { return a * b; },
            [](int64_t a, int64_t b) -> FailureOr<int64_t> {
              return wrapMul(a, b);
            });
      });
  registry.add<DivideOp>([](DivideOp op, KernelOperands in, Results &results) {
    return mapBinary(
        op, in, results, [](double a, double b) { return a / b; },
        truncatingDivide);
  });
  registry.add<PowerOp>([](PowerOp op, KernelOperands in, Results &results) {
    return mapBinary(
        op, in, results, [](double a, double b) { return std::pow(a, b); },
        [](int64_t, int64_t) -> FailureOr<int64_t> {
          llvm_unreachable("float-only operator");
        });
  });
  registry.add<MaximumOp>(
      [](MaximumOp op, KernelOperands in, Results &results) {
        return mapBinary(op, in, results, nanMax,
                         [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                           return std::max(a, b);
                         });
      });
  registry.add<MinimumOp>(
      [](MinimumOp op, KernelOperands in, Results &results) {
        return mapBinary(op, in, results, nanMin,
                         [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                           return std::min(a, b);
                         });
      });

  // Comparisons (NaN compares unequal to everything, as IEEE).
  addComparison<EqualOp>(registry, [](auto a, auto b) { return a == b; });
  addComparison<NotEqualOp>(registry, [](auto a, auto b) { return a != b; });
  addComparison<LessOp>(registry, [](auto a, auto b) { return a < b; });
  addComparison<LessEqualOp>(registry, [](auto a, auto b) { return a <= b; });
  addComparison<GreaterOp>(registry, [](auto a, auto b) { return a > b; });
  addComparison<GreaterEqualOp>(registry,
                                [](auto a, auto b) { return a >= b; });

  registry.add<WhereOp>(runWhere);
  registry.add<BiasAddOp>(runBiasAdd);
}
