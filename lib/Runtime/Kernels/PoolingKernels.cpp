//===- PoolingKernels.cpp - 2-D pooling -----------------------------------===//
//
// max_pool2d, avg_pool2d and global_avg_pool2d in any layout. Window
// positions that fall in the padding are skipped by max pooling; average
// pooling divides as PyTorch's avg_pool2d: with count_include_pad the
// divisor counts window positions inside the padded input (not those a
// ceil_mode window sticks out beyond it), otherwise only positions inside
// the input.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/IR/ShapeInference.h"

#include <cmath>
#include <limits>

using namespace raf::runtime;
using namespace raf::runtime::kernels;
namespace relay = raf::relay;

namespace {

using Results = SmallVectorImpl<HostTensor>;

/// The smallest value of an integer element type: what a max pool over a
/// window lying entirely in the padding yields (as TVM pads with it).
int64_t lowestInteger(DType dtype) {
  switch (dtype) {
  case DType::I8:
    return std::numeric_limits<int8_t>::min();
  case DType::I16:
    return std::numeric_limits<int16_t>::min();
  case DType::I32:
    return std::numeric_limits<int32_t>::min();
  case DType::I64:
    return std::numeric_limits<int64_t>::min();
  default:
    return 0; // unsigned and bool
  }
}

/// Shared by max and average pooling: calls `window(b, ch, r, s, index)`
/// for every output element, with `index` its flat offset in `out`.
template <typename OpT, typename Window>
LogicalResult pool(OpT op, const HostTensor &x, Results &results,
                   Window window) {
  std::array<int64_t, 4> pos = layoutPositions(op.getLayout(), "NCHW");
  ArrayRef<int64_t> shape = x.getShape();
  int64_t n = shape[pos[0]], c = shape[pos[1]];
  int64_t h = shape[pos[2]], w = shape[pos[3]];
  ArrayRef<int64_t> size = op.getPoolSize(), stride = op.getStrides(),
                    dilation = op.getDilation();
  auto pad = expandPadding(op.getPadding());
  int64_t oh = relay::windowOutputSize(h, size[0], pad[0], pad[2], stride[0],
                                       dilation[0], op.getCeilMode());
  int64_t ow = relay::windowOutputSize(w, size[1], pad[1], pad[3], stride[1],
                                       dilation[1], op.getCeilMode());
  if (oh <= 0 || ow <= 0)
    return op.emitOpError("the pooling window does not fit the padded input ")
           << x.getTypeString() << " at run time";
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> outShape(shape);
  outShape[pos[2]] = oh;
  outShape[pos[3]] = ow;
  HostTensor out(*dtype, outShape);
  SmallVector<int64_t> strides = out.getStrides();
  for (int64_t b = 0; b < n; ++b)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t r = 0; r < oh; ++r)
        for (int64_t s = 0; s < ow; ++s)
          window(out, b, ch, r, s,
                 b * strides[pos[0]] + ch * strides[pos[1]] +
                     r * strides[pos[2]] + s * strides[pos[3]]);
  results.push_back(std::move(out));
  return success();
}

/// Offset of canonical (n, c, h, w) in `x` with layout positions `pos`.
int64_t offsetNCHW(ArrayRef<int64_t> strides, std::array<int64_t, 4> pos,
                   int64_t n, int64_t c, int64_t h, int64_t w) {
  return n * strides[pos[0]] + c * strides[pos[1]] + h * strides[pos[2]] +
         w * strides[pos[3]];
}

LogicalResult runMaxPool(relay::MaxPool2DOp op, KernelOperands in,
                         Results &results) {
  const HostTensor &x = *in[0];
  std::array<int64_t, 4> pos = layoutPositions(op.getLayout(), "NCHW");
  SmallVector<int64_t> strides = x.getStrides();
  int64_t h = x.getShape()[pos[2]], w = x.getShape()[pos[3]];
  ArrayRef<int64_t> size = op.getPoolSize(), stride = op.getStrides(),
                    dilation = op.getDilation();
  auto pad = expandPadding(op.getPadding());
  bool floating = isFloat(x.getDType());
  return pool(op, x, results,
              [&](HostTensor &out, int64_t b, int64_t ch, int64_t r, int64_t s,
                  int64_t index) {
                double best = -std::numeric_limits<double>::infinity();
                int64_t bestInt = lowestInteger(x.getDType());
                for (int64_t p = 0; p < size[0]; ++p) {
                  int64_t row = r * stride[0] - pad[0] + p * dilation[0];
                  if (row < 0 || row >= h)
                    continue;
                  for (int64_t q = 0; q < size[1]; ++q) {
                    int64_t col = s * stride[1] - pad[1] + q * dilation[1];
                    if (col < 0 || col >= w)
                      continue;
                    int64_t at = offsetNCHW(strides, pos, b, ch, row, col);
                    if (floating) {
                      double v = x.getDouble(at);
                      // NaN wins, as in PyTorch's max_pool2d.
                      if (!std::isnan(best) && (v > best || std::isnan(v)))
                        best = v;
                    } else {
                      bestInt = std::max(bestInt, x.getInt(at));
                    }
                  }
                }
                if (floating)
                  out.setDouble(index, best);
                else
                  out.setInt(index, bestInt);
              });
}

LogicalResult runAvgPool(relay::AvgPool2DOp op, KernelOperands in,
                         Results &results) {
  const HostTensor &x = *in[0];
  std::array<int64_t, 4> pos = layoutPositions(op.getLayout(), "NCHW");
  SmallVector<int64_t> strides = x.getStrides();
  int64_t h = x.getShape()[pos[2]], w = x.getShape()[pos[3]];
  ArrayRef<int64_t> size = op.getPoolSize(), stride = op.getStrides(),
                    dilation = op.getDilation();
  auto pad = expandPadding(op.getPadding());
  bool includePad = op.getCountIncludePad();
  return pool(op, x, results,
              [&](HostTensor &out, int64_t b, int64_t ch, int64_t r, int64_t s,
                  int64_t index) {
                double sum = 0.0;
                int64_t inside = 0, insidePadded = 0;
                for (int64_t p = 0; p < size[0]; ++p) {
                  int64_t row = r * stride[0] - pad[0] + p * dilation[0];
                  bool rowPadded = row >= -pad[0] && row < h + pad[2];
                  for (int64_t q = 0; q < size[1]; ++q) {
                    int64_t col = s * stride[1] - pad[1] + q * dilation[1];
                    bool colPadded = col >= -pad[1] && col < w + pad[3];
                    if (rowPadded && colPadded)
                      ++insidePadded;
                    if (row < 0 || row >= h || col < 0 || col >= w)
                      continue;
                    ++inside;
                    sum +=
                        x.getDouble(offsetNCHW(strides, pos, b, ch, row, col));
                  }
                }
                int64_t divisor = includePad ? insidePadded : inside;
                // A window with no input element averages to 0 (PyTorch).
                out.setDouble(index, divisor == 0 ? 0.0 : sum / divisor);
              });
}

LogicalResult runGlobalAvgPool(relay::GlobalAvgPool2DOp op, KernelOperands in,
                               Results &results) {
  const HostTensor &x = *in[0];
  std::array<int64_t, 4> pos = layoutPositions(op.getLayout(), "NCHW");
  ArrayRef<int64_t> shape = x.getShape();
  SmallVector<int64_t> strides = x.getStrides();
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> outShape(shape);
  outShape[pos[2]] = 1;
  outShape[pos[3]] = 1;
  HostTensor out(*dtype, outShape);
  SmallVector<int64_t> outStrides = out.getStrides();
  int64_t h = shape[pos[2]], w = shape[pos[3]];
  for (int64_t b = 0; b < shape[pos[0]]; ++b)
    for (int64_t ch = 0; ch < shape[pos[1]]; ++ch) {
      double sum = 0.0;
      for (int64_t r = 0; r < h; ++r)
        for (int64_t s = 0; s < w; ++s)
          sum += x.getDouble(offsetNCHW(strides, pos, b, ch, r, s));
      out.setDouble(offsetNCHW(outStrides, pos, b, ch, 0, 0),
                    sum / static_cast<double>(h * w));
    }
  results.push_back(std::move(out));
  return success();
}

} // namespace

void raf::runtime::addPoolingKernels(KernelRegistry &registry) {
  registry.add<relay::MaxPool2DOp>(runMaxPool);
  registry.add<relay::AvgPool2DOp>(runAvgPool);
  registry.add<relay::GlobalAvgPool2DOp>(runGlobalAvgPool);
}
