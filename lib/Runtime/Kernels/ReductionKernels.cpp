//===- ReductionKernels.cpp - sum, mean, max and argmax -------------------===//
//
// Reductions over a set of axes (all when `axis` is absent; the complement
// with `exclude`), with or without `keepdims`. Floats accumulate in double;
// integer sums in int64 (wrapping); an integer mean is the exact quotient
// truncated toward zero when stored. max propagates NaN and argmax treats NaN
// as the maximum, as PyTorch; ties go to the first index in row-major order
// of the reduced axes (argmax over several axes indexes that flattened
// sub-space, as TVM). max and argmax of an empty set are run-time errors.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "llvm/ADT/SmallBitVector.h"

#include <cmath>
#include <limits>

using namespace raf::runtime;
using namespace raf::runtime::kernels;
namespace relay = raf::relay;

namespace {

using Results = SmallVectorImpl<HostTensor>;

enum class Reduction { Sum, Mean, Max, Argmax };

/// Per output element: the running value and, for argmax, the position of
/// the best element in the reduced sub-space.
struct Partial {
  double real = 0.0;
  int64_t integer = 0;
  int64_t position = -1;
  int64_t seen = 0;
};

template <typename OpT>
LogicalResult reduce(OpT op, const HostTensor &x, Reduction kind,
                     Results &results) {
  int64_t rank = x.getRank();
  ArrayRef<int64_t> shape = x.getShape();
  std::optional<ArrayRef<int64_t>> axes = op.getAxis();
  llvm::SmallBitVector reduced(rank, !axes.has_value());
  if (axes)
    for (int64_t axis : *axes)
      reduced.set(normalizeAxis(axis, rank));
  if (axes && op.getExclude())
    reduced.flip();

  SmallVector<int64_t> outShape, keptSizes;
  int64_t reducedCount = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (reduced.test(d)) {
      reducedCount *= shape[d];
      if (op.getKeepdims())
        outShape.push_back(1);
    } else {
      outShape.push_back(shape[d]);
    }
  }
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  HostTensor out(*dtype, outShape);
  int64_t outCount = out.getNumElements();
  if ((kind == Reduction::Max || kind == Reduction::Argmax) &&
      reducedCount == 0 && outCount != 0)
    return op.emitOpError("cannot take the maximum of an empty set (the "
                          "reduced axes of ")
           << x.getTypeString() << " have no elements)";

  bool floating = isFloat(x.getDType());
  std::vector<Partial> partials(outCount);
  int64_t index = 0;
  forEachIndex(shape, [&](ArrayRef<int64_t> coords) {
    // Row-major positions among the kept axes (the output element) and the
    // reduced axes (the position inside the reduction).
    int64_t outIndex = 0, position = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (reduced.test(d))
        position = position * shape[d] + coords[d];
      else
        outIndex = outIndex * shape[d] + coords[d];
    }
    Partial &partial = partials[outIndex];
    if (kind == Reduction::Sum || kind == Reduction::Mean) {
      if (floating)
        partial.real += x.getDouble(index);
      else
        partial.integer = wrapAdd(partial.integer, x.getInt(index));
    } else if (floating) {
      double v = x.getDouble(index);
      bool better = partial.seen == 0 || (!std::isnan(partial.real) &&
                                          (v > partial.real || std::isnan(v)));
      if (better) {
        partial.real = v;
        partial.position = position;
      }
    } else {
      int64_t v = x.getInt(index);
      if (partial.seen == 0 || v > partial.integer) {
        partial.integer = v;
        partial.position = position;
      }
    }
    ++partial.seen;
    ++index;
  });

  for (int64_t i = 0; i < outCount; ++i) {
    const Partial &partial = partials[i];
    switch (kind) {
    case Reduction::Sum:
    case Reduction::Max:
      if (floating)
        out.setDouble(i, partial.real);
      else
        out.setInt(i, partial.integer);
      break;
    case Reduction::Mean:
      // An empty mean is 0 / 0 = NaN (integers store 0), as NumPy.
      out.setDouble(
          i, (floating ? partial.real : static_cast<double>(partial.integer)) /
                 static_cast<double>(reducedCount));
      break;
    case Reduction::Argmax:
      out.setInt(i, partial.position);
      break;
    }
  }
  results.push_back(std::move(out));
  return success();
}

} // namespace

void raf::runtime::addReductionKernels(KernelRegistry &registry) {
  registry.add<relay::SumOp>(
      [](relay::SumOp op, KernelOperands in, Results &results) {
        return reduce(op, *in[0], Reduction::Sum, results);
      });
  registry.add<relay::MeanOp>(
      [](relay::MeanOp op, KernelOperands in, Results &results) {
        return reduce(op, *in[0], Reduction::Mean, results);
      });
  registry.add<relay::MaxOp>(
      [](relay::MaxOp op, KernelOperands in, Results &results) {
        return reduce(op, *in[0], Reduction::Max, results);
      });
  registry.add<relay::ArgmaxOp>(
      [](relay::ArgmaxOp op, KernelOperands in, Results &results) {
        return reduce(op, *in[0], Reduction::Argmax, results);
      });
}
