//===- LinearAlgebraKernels.cpp - convolutions and matrix products --------===//
//
// conv2d (any data/kernel layout, strides, padding, dilation, groups),
// conv2d_transpose (PyTorch ConvTranspose2d semantics), dense, matmul and
// batch_matmul. Float inputs accumulate in double, integer inputs in int64;
// the sum is stored with the result element type (`out_dtype`).
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

using namespace raf::runtime;
using namespace raf::runtime::kernels;
namespace relay = raf::relay;

namespace {

using Results = SmallVectorImpl<HostTensor>;

/// A double or int64 running sum of products, chosen by the operand type.
class Accumulator {
public:
  explicit Accumulator(bool floating) : floating(floating) {}
  void addProduct(const HostTensor &a, int64_t i, const HostTensor &b,
                  int64_t j) {
    if (floating)
      real += a.getDouble(i) * b.getDouble(j);
    else
      integer = wrapAdd(integer, wrapMul(a.getInt(i), b.getInt(j)));
  }
  void store(HostTensor &out, int64_t index) const {
    if (floating)
      out.setDouble(index, real);
    else
      out.setInt(index, integer);
  }

private:
  bool floating;
  double real = 0.0;
  int64_t integer = 0;
};

/// Reads a 4-D tensor through the letter positions of its layout: `at(a, b,
/// c, d)` is the element whose canonical coordinates are (a, b, c, d).
struct LayoutView {
  LayoutView(const HostTensor &tensor, std::array<int64_t, 4> positions)
      : positions(positions) {
    SmallVector<int64_t> strides = tensor.getStrides();
    for (int i = 0; i < 4; ++i) {
      dims[i] = tensor.getShape()[positions[i]];
      canonicalStrides[i] = strides[positions[i]];
    }
  }
  int64_t offset(int64_t a, int64_t b, int64_t c, int64_t d) const {
    return a * canonicalStrides[0] + b * canonicalStrides[1] +
           c * canonicalStrides[2] + d * canonicalStrides[3];
  }
  std::array<int64_t, 4> positions;
  std::array<int64_t, 4> dims;
  std::array<int64_t, 4> canonicalStrides;
};

/// A zero tensor of canonical sizes (n, c, h, w) laid out like `data`.
FailureOr<HostTensor> makeConvResult(Operation *op,
                                     std::array<int64_t, 4> positions,
                                     int64_t n, int64_t c, int64_t h,
                                     int64_t w) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(4);
  shape[positions[0]] = n;
  shape[positions[1]] = c;
  shape[positions[2]] = h;
  shape[positions[3]] = w;
  return HostTensor(*dtype, shape);
}

LogicalResult runConv2D(relay::Conv2DOp op, KernelOperands in,
                        Results &results) {
  const HostTensor &data = *in[0], &weight = *in[1];
  LayoutView x(data, layoutPositions(op.getDataLayout(), "NCHW"));
  LayoutView k(weight, layoutPositions(op.getKernelLayout(), "OIHW"));
  auto [n, c, h, w] = x.dims;
  auto [o, i, kh, kw] = k.dims;
  int64_t groups = op.getGroups();
  if (c != i * groups || o % groups != 0)
    return op.emitOpError("run-time shapes ")
           << data.getTypeString() << " and " << weight.getTypeString()
           << " do not agree with groups = " << groups;
  auto pad = expandPadding(op.getPadding());
  ArrayRef<int64_t> stride = op.getStrides(), dilation = op.getDilation();
  int64_t oh =
      (h + pad[0] + pad[2] - dilation[0] * (kh - 1) - 1) / stride[0] + 1;
  int64_t ow =
      (w + pad[1] + pad[3] - dilation[1] * (kw - 1) - 1) / stride[1] + 1;
  if (oh <= 0 || ow <= 0)
    return op.emitOpError("the dilated kernel does not fit the padded input "
                          "at run time");
  FailureOr<HostTensor> out = makeConvResult(op, x.positions, n, o, oh, ow);
  if (failed(out))
    return failure();
  LayoutView y(*out, x.positions);
  bool floating = isFloat(data.getDType());
  int64_t outPerGroup = o / groups;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t group = oc / outPerGroup;
      for (int64_t r = 0; r < oh; ++r)
        for (int64_t s = 0; s < ow; ++s) {
          Accumulator sum(floating);
          for (int64_t ic = 0; ic < i; ++ic)
            for (int64_t p = 0; p < kh; ++p) {
              int64_t row = r * stride[0] - pad[0] + p * dilation[0];
              if (row < 0 || row >= h)
                continue;
              for (int64_t q = 0; q < kw; ++q) {
                int64_t col = s * stride[1] - pad[1] + q * dilation[1];
                if (col < 0 || col >= w)
                  continue;
                sum.addProduct(data, x.offset(b, group * i + ic, row, col),
                               weight, k.offset(oc, ic, p, q));
              }
            }
          sum.store(*out, y.offset(b, oc, r, s));
        }
    }
  results.push_back(std::move(*out));
  return success();
}

/// The adjoint of conv2d with respect to its input: every input element
/// scatters `data * weight` into the outputs its kernel window covers. The
/// kernel is [C_in, C_out / groups, KH, KW] (IOHW), as ConvTranspose2d.
LogicalResult runConv2DTranspose(relay::Conv2DTransposeOp op, KernelOperands in,
                                 Results &results) {
  const HostTensor &data = *in[0], &weight = *in[1];
  LayoutView x(data, layoutPositions(op.getDataLayout(), "NCHW"));
  LayoutView k(weight, layoutPositions(op.getKernelLayout(), "IOHW"));
  auto [n, c, h, w] = x.dims;
  auto [i, outPerGroup, kh, kw] = k.dims;
  int64_t groups = op.getGroups();
  if (c != i || c % groups != 0)
    return op.emitOpError("run-time shapes ")
           << data.getTypeString() << " and " << weight.getTypeString()
           << " do not agree with groups = " << groups;
  auto pad = expandPadding(op.getPadding());
  ArrayRef<int64_t> stride = op.getStrides(), dilation = op.getDilation();
  ArrayRef<int64_t> outputPadding = op.getOutputPadding();
  int64_t oh = (h - 1) * stride[0] - pad[0] - pad[2] + dilation[0] * (kh - 1) +
               outputPadding[0] + 1;
  int64_t ow = (w - 1) * stride[1] - pad[1] - pad[3] + dilation[1] * (kw - 1) +
               outputPadding[1] + 1;
  if (oh <= 0 || ow <= 0)
    return op.emitOpError("padding leaves an empty output at run time");
  int64_t o = outPerGroup * groups;
  FailureOr<HostTensor> out = makeConvResult(op, x.positions, n, o, oh, ow);
  if (failed(out))
    return failure();
  LayoutView y(*out, x.positions);
  bool floating = isFloat(data.getDType());
  // Gather form of the scatter: out[r] receives data[row] * weight[p] for
  // every row, p with row * stride - pad + p * dilation == r.
  int64_t inPerGroup = c / groups;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t group = oc / outPerGroup, ocInGroup = oc % outPerGroup;
      for (int64_t r = 0; r < oh; ++r)
        for (int64_t s = 0; s < ow; ++s) {
          Accumulator sum(floating);
          for (int64_t icInGroup = 0; icInGroup < inPerGroup; ++icInGroup) {
            int64_t ic = group * inPerGroup + icInGroup;
            for (int64_t p = 0; p < kh; ++p) {
              int64_t rowTimesStride = r + pad[0] - p * dilation[0];
              if (rowTimesStride < 0 || rowTimesStride % stride[0] != 0)
                continue;
              int64_t row = rowTimesStride / stride[0];
              if (row >= h)
                continue;
              for (int64_t q = 0; q < kw; ++q) {
                int64_t colTimesStride = s + pad[1] - q * dilation[1];
                if (colTimesStride < 0 || colTimesStride % stride[1] != 0)
                  continue;
                int64_t col = colTimesStride / stride[1];
                if (col >= w)
                  continue;
                sum.addProduct(data, x.offset(b, ic, row, col), weight,
                               k.offset(ic, ocInGroup, p, q));
              }
            }
          }
          sum.store(*out, y.offset(b, oc, r, s));
        }
    }
  results.push_back(std::move(*out));
  return success();
}

/// out[b, m, n] = sum_k A[b, m, k] * B[b, k, n], where `aAt` and `bAt` give
/// the flat offsets of A[b, m, k] and B[b, k, n].
template <typename AOffset, typename BOffset>
void multiply(const HostTensor &a, const HostTensor &b, HostTensor &out,
              int64_t batch, int64_t m, int64_t n, int64_t k, AOffset aAt,
              BOffset bAt) {
  bool floating = isFloat(a.getDType());
  int64_t index = 0;
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t r = 0; r < m; ++r)
      for (int64_t s = 0; s < n; ++s) {
        Accumulator sum(floating);
        for (int64_t t = 0; t < k; ++t)
          sum.addProduct(a, aAt(p, r, t), b, bAt(p, t, s));
        sum.store(out, index++);
      }
}

LogicalResult runDense(relay::DenseOp op, KernelOperands in, Results &results) {
  const HostTensor &x = *in[0], &weight = *in[1];
  int64_t k = x.getShape().back();
  int64_t n = weight.getShape()[0];
  if (weight.getShape()[1] != k)
    return op.emitOpError("x has ") << k << " features but the weight is "
                                    << weight.getTypeString() << " at run time";
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(x.getShape());
  shape.back() = n;
  HostTensor out(*dtype, shape);
  // Every leading axis of x is a row.
  int64_t m = 1;
  for (int64_t size : x.getShape().drop_back())
    m *= size;
  multiply(
      x, weight, out, 1, m, n, k,
      [&](int64_t, int64_t r, int64_t t) { return r * k + t; },
      [&](int64_t, int64_t t, int64_t s) { return s * k + t; });
  results.push_back(std::move(out));
  return success();
}

LogicalResult runMatmul(relay::MatmulOp op, KernelOperands in,
                        Results &results) {
  const HostTensor &a = *in[0], &b = *in[1];
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  int64_t m = a.getShape()[ta ? 1 : 0], ka = a.getShape()[ta ? 0 : 1];
  int64_t kb = b.getShape()[tb ? 1 : 0], n = b.getShape()[tb ? 0 : 1];
  if (ka != kb)
    return op.emitOpError("contraction sizes differ at run time: ")
           << ka << " and " << kb;
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  HostTensor out(*dtype, {m, n});
  int64_t aCols = a.getShape()[1], bCols = b.getShape()[1];
  multiply(
      a, b, out, 1, m, n, ka,
      [&](int64_t, int64_t r, int64_t t) {
        return ta ? t * aCols + r : r * aCols + t;
      },
      [&](int64_t, int64_t t, int64_t s) {
        return tb ? s * bCols + t : t * bCols + s;
      });
  results.push_back(std::move(out));
  return success();
}

LogicalResult runBatchMatmul(relay::BatchMatmulOp op, KernelOperands in,
                             Results &results) {
  const HostTensor &a = *in[0], &b = *in[1];
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape();
  int64_t m = as[ta ? 2 : 1], ka = as[ta ? 1 : 2];
  int64_t kb = bs[tb ? 2 : 1], n = bs[tb ? 1 : 2];
  if (ka != kb || (as[0] != bs[0] && as[0] != 1 && bs[0] != 1))
    return op.emitOpError("operand shapes ")
           << a.getTypeString() << " and " << b.getTypeString()
           << " do not agree at run time";
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  int64_t batch = as[0] == 1 ? bs[0] : as[0];
  HostTensor out(*dtype, {batch, m, n});
  // A batch of 1 broadcasts: its batch stride is 0.
  int64_t aBatch = as[0] == 1 ? 0 : as[1] * as[2];
  int64_t bBatch = bs[0] == 1 ? 0 : bs[1] * bs[2];
  multiply(
      a, b, out, batch, m, n, ka,
      [&](int64_t p, int64_t r, int64_t t) {
        return p * aBatch + (ta ? t * as[2] + r : r * as[2] + t);
      },
      [&](int64_t p, int64_t t, int64_t s) {
        return p * bBatch + (tb ? s * bs[2] + t : t * bs[2] + s);
      });
  results.push_back(std::move(out));
  return success();
}

} // namespace

void raf::runtime::addLinearAlgebraKernels(KernelRegistry &registry) {
  registry.add<relay::Conv2DOp>(runConv2D);
  registry.add<relay::Conv2DTransposeOp>(runConv2DTranspose);
  registry.add<relay::DenseOp>(runDense);
  registry.add<relay::MatmulOp>(runMatmul);
  registry.add<relay::BatchMatmulOp>(runBatchMatmul);
}
