//===- PoolingKernels.cpp - 2-D pooling -----------------------------------===//
//
// max_pool2d, avg_pool2d, their gradients and global_avg_pool2d in any
// layout. Window positions that fall in the padding are skipped by max
// pooling; average pooling divides as PyTorch's avg_pool2d: with
// count_include_pad the divisor counts window positions inside the padded
// input (not those a ceil_mode window sticks out beyond it), otherwise only
// positions inside the input. The gradients are PyTorch's backward passes:
// max pooling routes each output gradient to its window's maximum (first of
// equal maxima, last NaN), average pooling spreads it, divided by the same
// divisor, over the window's input elements.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>
#include <vector>

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

/// The windows of a pooling operator (or its gradient) over its input:
/// where the layout puts N, C, H and W, the window attributes, and the
/// output extent.
struct PoolWindows {
  std::array<int64_t, 4> pos;
  int64_t n, c, h, w, oh, ow;
  ArrayRef<int64_t> size, stride, dilation;
  std::array<int64_t, 4> pad; // top, left, bottom, right

  /// The input row of window row `p` of output row `r`, and the input
  /// column of window column `q` of output column `s`; either may lie in
  /// the padding.
  int64_t row(int64_t r, int64_t p) const {
    return r * stride[0] - pad[0] + p * dilation[0];
  }
  int64_t col(int64_t s, int64_t q) const {
    return s * stride[1] - pad[1] + q * dilation[1];
  }

  /// The output shape: the input's with H and W replaced by OH and OW.
  SmallVector<int64_t> outputShape(ArrayRef<int64_t> inputShape) const {
    SmallVector<int64_t> shape(inputShape);
    shape[pos[2]] = oh;
    shape[pos[3]] = ow;
    return shape;
  }

  /// Calls `body(b, ch, r, s)` for every output element.
  template <typename Body>
  void forEachWindow(Body body) const {
    for (int64_t b = 0; b < n; ++b)
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t r = 0; r < oh; ++r)
          for (int64_t s = 0; s < ow; ++s)
            body(b, ch, r, s);
  }
};

/// The windows of `op` over `x`; a located error when none fits, which
/// only dynamic sizes can get past the verifier.
template <typename OpT>
FailureOr<PoolWindows> getWindows(OpT op, const HostTensor &x) {
  PoolWindows win;
  win.pos = layoutPositions(op.getLayout(), "NCHW");
  ArrayRef<int64_t> shape = x.getShape();
  win.n = shape[win.pos[0]];
  win.c = shape[win.pos[1]];
  win.h = shape[win.pos[2]];
  win.w = shape[win.pos[3]];
  win.size = op.getPoolSize();
  win.stride = op.getStrides();
  win.dilation = op.getDilation();
  win.pad = expandPadding(op.getPadding());
  std::optional<int64_t> oh =
      relay::windowOutputSize(win.h, win.size[0], win.pad[0], win.pad[2],
                              win.stride[0], win.dilation[0], op.getCeilMode());
  std::optional<int64_t> ow =
      relay::windowOutputSize(win.w, win.size[1], win.pad[1], win.pad[3],
                              win.stride[1], win.dilation[1], op.getCeilMode());
  if (!oh || !ow)
    return op.emitOpError("the pooling window's output size overflows for ")
           << x.getTypeString() << " at run time";
  win.oh = *oh;
  win.ow = *ow;
  if (win.oh <= 0 || win.ow <= 0)
    return op.emitOpError("the pooling window does not fit the padded input ")
           << x.getTypeString() << " at run time";
  return win;
}

/// Offset of canonical (n, c, h, w) in `x` with layout positions `pos`.
int64_t offsetNCHW(ArrayRef<int64_t> strides, std::array<int64_t, 4> pos,
                   int64_t n, int64_t c, int64_t h, int64_t w) {
  return n * strides[pos[0]] + c * strides[pos[1]] + h * strides[pos[2]] +
         w * strides[pos[3]];
}

/// Shared by max and average pooling: calls `window(win, out, b, ch, r, s,
/// index)` for every output element, with `index` its flat offset in `out`.
template <typename OpT, typename Window>
LogicalResult pool(OpT op, const HostTensor &x, Results &results,
                   Window window) {
  FailureOr<PoolWindows> win = getWindows(op, x);
  FailureOr<DType> dtype = resultDType(op);
  if (failed(win) || failed(dtype))
    return failure();
  HostTensor out(*dtype, win->outputShape(x.getShape()));
  SmallVector<int64_t> strides = out.getStrides();
  win->forEachWindow([&](int64_t b, int64_t ch, int64_t r, int64_t s) {
    window(*win, out, b, ch, r, s, offsetNCHW(strides, win->pos, b, ch, r, s));
  });
  results.push_back(std::move(out));
  return success();
}

/// Shared by the pooling gradients, whose operands are (out_grad, data):
/// checks out_grad's run-time shape against the windows over data, then
/// calls `window(win, gradient, b, ch, r, s, g)` for every element `g` of
/// out_grad, to be added into `gradient` (data-shaped, zero-initialised,
/// in double, so that every result element is rounded once).
template <typename OpT, typename Window>
LogicalResult poolGrad(OpT op, KernelOperands in, Results &results,
                       Window window) {
  const HostTensor &outGrad = *in[0], &x = *in[1];
  FailureOr<PoolWindows> win = getWindows(op, x);
  FailureOr<DType> dtype = resultDType(op);
  if (failed(win) || failed(dtype))
    return failure();
  SmallVector<int64_t> expected = win->outputShape(x.getShape());
  if (outGrad.getShape() != ArrayRef<int64_t>(expected))
    return op.emitOpError("out_grad is ")
           << outGrad.getTypeString() << " at run time, expected "
           << HostTensor::typeString(outGrad.getDType(), expected)
           << " (the pooling result for data " << x.getTypeString() << ")";
  std::vector<double> gradient(x.getNumElements(), 0.0);
  SmallVector<int64_t> strides = outGrad.getStrides();
  win->forEachWindow([&](int64_t b, int64_t ch, int64_t r, int64_t s) {
    window(*win, gradient, b, ch, r, s,
           outGrad.getDouble(offsetNCHW(strides, win->pos, b, ch, r, s)));
  });
  HostTensor result(*dtype, x.getShape());
  for (auto [index, value] : llvm::enumerate(gradient))
    result.setDouble(index, value);
  results.push_back(std::move(result));
  return success();
}

/// The offset in `x` of the maximum of window (r, s) as PyTorch's
/// max_pool2d picks it: the first in-bounds position, replaced by every
/// later one that is strictly greater (so ties keep the first) or NaN; -1
/// when the window lies entirely in the padding.
int64_t maxPosition(const PoolWindows &win, const HostTensor &x,
                    ArrayRef<int64_t> strides, int64_t b, int64_t ch, int64_t r,
                    int64_t s) {
  int64_t best = -1;
  double bestValue = 0.0;
  for (int64_t p = 0; p < win.size[0]; ++p) {
    int64_t row = win.row(r, p);
    if (row < 0 || row >= win.h)
      continue;
    for (int64_t q = 0; q < win.size[1]; ++q) {
      int64_t col = win.col(s, q);
      if (col < 0 || col >= win.w)
        continue;
      int64_t at = offsetNCHW(strides, win.pos, b, ch, row, col);
      double v = x.getDouble(at);
      if (best < 0 || v > bestValue || std::isnan(v)) {
        best = at;
        bestValue = v;
      }
    }
  }
  return best;
}

/// The divisor of average-pooling window (r, s), as PyTorch's avg_pool2d:
/// with count_include_pad the window positions inside the padded input (not
/// those a ceil_mode window sticks out beyond it), otherwise only those
/// inside the input.
int64_t avgDivisor(const PoolWindows &win, bool includePad, int64_t r,
                   int64_t s) {
  int64_t lo[2] = {includePad ? -win.pad[0] : 0, includePad ? -win.pad[1] : 0};
  int64_t hi[2] = {includePad ? win.h + win.pad[2] : win.h,
                   includePad ? win.w + win.pad[3] : win.w};
  int64_t rows = 0, cols = 0;
  for (int64_t p = 0; p < win.size[0]; ++p)
    rows += win.row(r, p) >= lo[0] && win.row(r, p) < hi[0];
  for (int64_t q = 0; q < win.size[1]; ++q)
    cols += win.col(s, q) >= lo[1] && win.col(s, q) < hi[1];
  return rows * cols;
}

LogicalResult runMaxPool(relay::MaxPool2DOp op, KernelOperands in,
                         Results &results) {
  const HostTensor &x = *in[0];
  SmallVector<int64_t> strides = x.getStrides();
  bool floating = isFloat(x.getDType());
  return pool(op, x, results,
              [&](const PoolWindows &win, HostTensor &out, int64_t b,
                  int64_t ch, int64_t r, int64_t s, int64_t index) {
                double best = -std::numeric_limits<double>::infinity();
                int64_t bestInt = lowestInteger(x.getDType());
                for (int64_t p = 0; p < win.size[0]; ++p) {
                  int64_t row = win.row(r, p);
                  if (row < 0 || row >= win.h)
                    continue;
                  for (int64_t q = 0; q < win.size[1]; ++q) {
                    int64_t col = win.col(s, q);
                    if (col < 0 || col >= win.w)
                      continue;
                    int64_t at = offsetNCHW(strides, win.pos, b, ch, row, col);
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
  SmallVector<int64_t> strides = x.getStrides();
  bool includePad = op.getCountIncludePad();
  return pool(op, x, results,
              [&](const PoolWindows &win, HostTensor &out, int64_t b,
                  int64_t ch, int64_t r, int64_t s, int64_t index) {
                double sum = 0.0;
                for (int64_t p = 0; p < win.size[0]; ++p) {
                  int64_t row = win.row(r, p);
                  if (row < 0 || row >= win.h)
                    continue;
                  for (int64_t q = 0; q < win.size[1]; ++q) {
                    int64_t col = win.col(s, q);
                    if (col >= 0 && col < win.w)
                      sum += x.getDouble(
                          offsetNCHW(strides, win.pos, b, ch, row, col));
                  }
                }
                int64_t divisor = avgDivisor(win, includePad, r, s);
                // A window with no input element averages to 0 (PyTorch).
                out.setDouble(index, divisor == 0 ? 0.0 : sum / divisor);
              });
}

LogicalResult runMaxPoolGrad(relay::MaxPool2DGradOp op, KernelOperands in,
                             Results &results) {
  const HostTensor &x = *in[1];
  SmallVector<int64_t> strides = x.getStrides();
  return poolGrad(op, in, results,
                  [&](const PoolWindows &win, std::vector<double> &gradient,
                      int64_t b, int64_t ch, int64_t r, int64_t s, double g) {
                    // `gradient` has x's shape, so x's offsets index it.
                    int64_t at = maxPosition(win, x, strides, b, ch, r, s);
                    if (at >= 0)
                      gradient[at] += g;
                  });
}

LogicalResult runAvgPoolGrad(relay::AvgPool2DGradOp op, KernelOperands in,
                             Results &results) {
  SmallVector<int64_t> strides = in[1]->getStrides();
  bool includePad = op.getCountIncludePad();
  return poolGrad(
      op, in, results,
      [&](const PoolWindows &win, std::vector<double> &gradient, int64_t b,
          int64_t ch, int64_t r, int64_t s, double g) {
        // Only windows with an input element have a non-zero divisor, and
        // only they have somewhere to put their gradient.
        int64_t divisor = avgDivisor(win, includePad, r, s);
        if (divisor == 0)
          return;
        double share = g / static_cast<double>(divisor);
        for (int64_t p = 0; p < win.size[0]; ++p) {
          int64_t row = win.row(r, p);
          if (row < 0 || row >= win.h)
            continue;
          for (int64_t q = 0; q < win.size[1]; ++q) {
            int64_t col = win.col(s, q);
            if (col >= 0 && col < win.w)
              gradient[offsetNCHW(strides, win.pos, b, ch, row, col)] += share;
          }
        }
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
  registry.add<relay::MaxPool2DGradOp>(runMaxPoolGrad);
  registry.add<relay::AvgPool2DGradOp>(runAvgPoolGrad);
  registry.add<relay::GlobalAvgPool2DOp>(runGlobalAvgPool);
}
