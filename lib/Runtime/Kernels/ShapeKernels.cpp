//===- ShapeKernels.cpp - shape, layout and data-movement operators -------===//
//
// reshape, transpose, expand_dims, squeeze, concatenate, split,
// strided_slice, take, pad, broadcast_to, zeros and ones. These only move
// elements, so they copy them exactly (no conversion through double).
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "llvm/ADT/SmallBitVector.h"

#include <algorithm>
#include <cstring>

using namespace raf::runtime;
using namespace raf::runtime::kernels;
namespace relay = raf::relay;

namespace {

using Results = SmallVectorImpl<HostTensor>;

/// Copies element `from` of `x` to element `to` of `out` (same dtype).
void moveElement(const HostTensor &x, int64_t from, HostTensor &out,
                 int64_t to) {
  unsigned width = byteWidth(x.getDType());
  std::memcpy(out.data() + to * width, x.data() + from * width, width);
}

/// `x`'s elements, in order, under a new shape with the same element count.
HostTensor withShape(const HostTensor &x, ArrayRef<int64_t> shape) {
  HostTensor out(x.getDType(), shape);
  std::memcpy(out.data(), x.data(), x.getNumBytes());
  return out;
}

/// Builds `shape` by reading, for every output multi-index, the input
/// element at `source(coords)`.
template <typename Source>
HostTensor gather(const HostTensor &x, ArrayRef<int64_t> shape, Source source) {
  HostTensor out(x.getDType(), shape);
  int64_t index = 0;
  forEachIndex(shape, [&](ArrayRef<int64_t> coords) {
    moveElement(x, source(coords), out, index++);
  });
  return out;
}

LogicalResult runReshape(relay::ReshapeOp op, KernelOperands in,
                         Results &results) {
  const HostTensor &x = *in[0];
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (auto [i, requested] : llvm::enumerate(op.getNewshape())) {
    int64_t size = requested;
    if (size == -1) {
      inferred = i;
      shape.push_back(1);
      continue;
    }
    if (size == 0)
      size = x.getShape()[i]; // copy the input dimension
    shape.push_back(size);
    known *= size;
  }
  int64_t total = x.getNumElements();
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return op.emitOpError("cannot reshape ")
             << x.getTypeString() << " to [" << op.getNewshape()
             << "] at run time";
    shape[inferred] = total / known;
  } else if (known != total) {
    return op.emitOpError("cannot reshape ")
           << x.getTypeString() << " (" << total << " elements) to ["
           << op.getNewshape() << "] at run time";
  }
  results.push_back(withShape(x, shape));
  return success();
}

LogicalResult runTranspose(relay::TransposeOp op, KernelOperands in,
                           Results &results) {
  const HostTensor &x = *in[0];
  int64_t rank = x.getRank();
  SmallVector<int64_t> perm;
  if (std::optional<ArrayRef<int64_t>> axes = op.getAxes())
    for (int64_t axis : *axes)
      perm.push_back(normalizeAxis(axis, rank));
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  SmallVector<int64_t> shape, strides = x.getStrides(), permutedStrides;
  for (int64_t axis : perm) {
    shape.push_back(x.getShape()[axis]);
    permutedStrides.push_back(strides[axis]);
  }
  results.push_back(gather(x, shape, [&](ArrayRef<int64_t> coords) {
    return offsetOf(coords, permutedStrides);
  }));
  return success();
}

LogicalResult runExpandDims(relay::ExpandDimsOp op, KernelOperands in,
                            Results &results) {
  const HostTensor &x = *in[0];
  int64_t axis = normalizeAxis(op.getAxis(), x.getRank() + 1);
  SmallVector<int64_t> shape(x.getShape());
  shape.insert(shape.begin() + axis, op.getNumNewaxis(), 1);
  results.push_back(withShape(x, shape));
  return success();
}

LogicalResult runSqueeze(relay::SqueezeOp op, KernelOperands in,
                         Results &results) {
  const HostTensor &x = *in[0];
  int64_t rank = x.getRank();
  llvm::SmallBitVector drop(rank);
  if (std::optional<ArrayRef<int64_t>> axes = op.getAxis()) {
    for (int64_t axis : *axes)
      drop.set(normalizeAxis(axis, rank));
  } else {
    // The axes the IR type says are 1: a dynamic axis that happens to be 1
    // at run time is kept, so the value keeps the rank of its type.
    auto type = llvm::cast<mlir::RankedTensorType>(op.getX().getType());
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = type.getDimSize(d) == 1;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!drop.test(d)) {
      shape.push_back(x.getShape()[d]);
    } else if (x.getShape()[d] != 1) {
      return op.emitOpError("cannot squeeze axis ")
             << d << " of size " << x.getShape()[d] << " at run time";
    }
  }
  results.push_back(withShape(x, shape));
  return success();
}

LogicalResult runConcatenate(relay::ConcatenateOp op, KernelOperands in,
                             Results &results) {
  const HostTensor &first = *in[0];
  int64_t rank = first.getRank();
  int64_t axis = normalizeAxis(op.getAxis(), rank);
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (auto [index, input] : llvm::enumerate(in)) {
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && input->getShape()[d] != first.getShape()[d])
        return op.emitOpError("input #")
               << index << " " << input->getTypeString()
               << " does not match input #0 " << first.getTypeString()
               << " outside axis " << axis << " at run time";
    shape[axis] += input->getShape()[axis];
  }
  HostTensor out(first.getDType(), shape);
  SmallVector<int64_t> outStrides = out.getStrides();
  int64_t start = 0;
  for (const HostTensor *input : in) {
    int64_t index = 0;
    forEachIndex(input->getShape(), [&](ArrayRef<int64_t> coords) {
      int64_t to = offsetOf(coords, outStrides) + start * outStrides[axis];
      moveElement(*input, index++, out, to);
    });
    start += input->getShape()[axis];
  }
  results.push_back(std::move(out));
  return success();
}

LogicalResult runSplit(relay::SplitOp op, KernelOperands in, Results &results) {
  const HostTensor &x = *in[0];
  int64_t rank = x.getRank();
  int64_t axis = normalizeAxis(op.getAxis(), rank);
  int64_t size = x.getShape()[axis];
  SmallVector<int64_t> bounds{0};
  if (std::optional<int64_t> sections = op.getSections()) {
    if (size % *sections != 0)
      return op.emitOpError("axis ")
             << axis << " of size " << size << " does not split evenly into "
             << *sections << " sections at run time";
    for (int64_t i = 1; i <= *sections; ++i)
      bounds.push_back(i * (size / *sections));
  } else {
    ArrayRef<int64_t> indices = *op.getIndices();
    for (int64_t index : indices) {
      if (index >= size)
        return op.emitOpError("split index ")
               << index << " is outside axis " << axis << " of size " << size
               << " at run time";
      bounds.push_back(index);
    }
    bounds.push_back(size);
  }
  SmallVector<int64_t> strides = x.getStrides();
  for (size_t part = 0; part + 1 < bounds.size(); ++part) {
    SmallVector<int64_t> shape(x.getShape());
    shape[axis] = bounds[part + 1] - bounds[part];
    int64_t start = bounds[part];
    results.push_back(gather(x, shape, [&](ArrayRef<int64_t> coords) {
      return offsetOf(coords, strides) + start * strides[axis];
    }));
  }
  return success();
}

LogicalResult runStridedSlice(relay::StridedSliceOp op, KernelOperands in,
                              Results &results) {
  const HostTensor &x = *in[0];
  int64_t rank = x.getRank();
  ArrayRef<int64_t> begin = op.getBegin(), end = op.getEnd();
  size_t count = begin.size();
  SmallVector<int64_t> stridesAttr(count, 1), axes;
  if (std::optional<ArrayRef<int64_t>> s = op.getStrides())
    stridesAttr.assign(s->begin(), s->end());
  if (std::optional<ArrayRef<int64_t>> a = op.getAxes())
    axes.assign(a->begin(), a->end());
  else
    for (size_t i = 0; i < count; ++i)
      axes.push_back(i);
  // Per axis: first input index and step; untouched axes take everything.
  SmallVector<int64_t> shape(x.getShape()), first(rank, 0), step(rank, 1);
  for (size_t i = 0; i < count; ++i) {
    int64_t axis = normalizeAxis(axes[i], rank);
    int64_t dim = x.getShape()[axis];
    int64_t stride = stridesAttr[i];
    // NumPy: negative indices wrap once, then clamp (to [-1, dim - 1] when
    // walking backwards, so that end = -1 can mean "before the start").
    auto canonical = [&](int64_t index) {
      if (index < 0)
        index += dim;
      return stride > 0 ? std::clamp<int64_t>(index, 0, dim)
                        : std::clamp<int64_t>(index, -1, dim - 1);
    };
    int64_t b = canonical(begin[i]), e = canonical(end[i]);
    uint64_t magnitude = stride > 0 ? static_cast<uint64_t>(stride)
                                    : 0 - static_cast<uint64_t>(stride);
    int64_t distance = stride > 0 ? e - b : b - e;
    shape[axis] =
        distance <= 0
            ? 0
            : static_cast<int64_t>(1 + (static_cast<uint64_t>(distance) - 1) /
                                           magnitude);
    first[axis] = b;
    step[axis] = stride;
  }
  SmallVector<int64_t> strides = x.getStrides();
  results.push_back(gather(x, shape, [&](ArrayRef<int64_t> coords) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += (first[d] + coords[d] * step[d]) * strides[d];
    return offset;
  }));
  return success();
}

LogicalResult runTake(relay::TakeOp op, KernelOperands in, Results &results) {
  const HostTensor &data = *in[0], &indices = *in[1];
  relay::TakeMode mode = op.getMode();
  // Without an axis the data is taken as flat.
  bool hasAxis = op.getAxis().has_value();
  int64_t axis = hasAxis ? normalizeAxis(*op.getAxis(), data.getRank()) : 0;
  SmallVector<int64_t> dataShape(data.getShape());
  if (!hasAxis)
    dataShape = {data.getNumElements()};
  int64_t extent = dataShape[axis];
  int64_t inner = 1;
  for (int64_t d = axis + 1, e = dataShape.size(); d < e; ++d)
    inner *= dataShape[d];
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= dataShape[d];

  // Resolve every index once, reporting the first one the mode rejects.
  SmallVector<int64_t> resolved;
  for (int64_t i = 0, e = indices.getNumElements(); i < e; ++i) {
    int64_t index = indices.getInt(i);
    if (extent == 0)
      return op.emitOpError("cannot take from an empty axis (")
             << data.getTypeString() << ")";
    if (mode == relay::TakeMode::Clip) {
      index = std::clamp<int64_t>(index, 0, extent - 1);
    } else if (mode == relay::TakeMode::Wrap) {
      index = ((index % extent) + extent) % extent;
    } else if (index < 0 || index >= extent) {
      // "fast" leaves out-of-range undefined; the evaluator reports it.
      return op.emitOpError("index ")
             << index << " (element " << i << " of the indices) is out of "
             << "range [0, " << extent << ") in mode \"fast\"";
    }
    resolved.push_back(index);
  }

  SmallVector<int64_t> shape(dataShape.begin(), dataShape.begin() + axis);
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, llvm::ArrayRef(dataShape).drop_front(axis + 1));
  HostTensor out(data.getDType(), shape);
  int64_t to = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t index : resolved)
      for (int64_t i = 0; i < inner; ++i)
        moveElement(data, (o * extent + index) * inner + i, out, to++);
  results.push_back(std::move(out));
  return success();
}

LogicalResult runPad(relay::PadOp op, KernelOperands in, Results &results) {
  const HostTensor &x = *in[0];
  int64_t rank = x.getRank();
  ArrayRef<int64_t> width = op.getPadWidth();
  relay::PadMode mode = op.getPadMode();
  SmallVector<int64_t> shape(x.getShape());
  for (int64_t d = 0; d < rank; ++d) {
    int64_t before = width[2 * d], after = width[2 * d + 1];
    int64_t size = x.getShape()[d];
    if ((mode == relay::PadMode::Reflect &&
         (before >= size || after >= size)) ||
        (mode == relay::PadMode::Edge && size == 0 && before + after > 0))
      return op.emitOpError()
             << relay::stringifyPadMode(mode) << " padding of axis " << d
             << " (" << before << ", " << after
             << ") does not fit its run-time size " << size;
    shape[d] = size + before + after;
  }
  HostTensor out(x.getDType(), shape);
  SmallVector<int64_t> strides = x.getStrides();
  double padValue = op.getPadValue().convertToDouble();
  int64_t index = 0;
  forEachIndex(shape, [&](ArrayRef<int64_t> coords) {
    int64_t offset = 0;
    bool inside = true;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = x.getShape()[d];
      int64_t at = coords[d] - width[2 * d];
      if (mode == relay::PadMode::Edge) {
        at = std::clamp<int64_t>(at, 0, size - 1);
      } else if (mode == relay::PadMode::Reflect) {
        // Mirror around the edge elements without repeating them (NumPy's
        // "reflect").
        if (at < 0)
          at = -at;
        if (at >= size)
          at = 2 * (size - 1) - at;
      } else if (at < 0 || at >= size) {
        inside = false;
      }
      offset += at * strides[d];
    }
    if (inside)
      moveElement(x, offset, out, index);
    else
      out.setDouble(index, padValue);
    ++index;
  });
  results.push_back(std::move(out));
  return success();
}

LogicalResult runBroadcastTo(relay::BroadcastToOp op, KernelOperands in,
                             Results &results) {
  const HostTensor &x = *in[0];
  ArrayRef<int64_t> target = op.getShape();
  auto shape = relay::broadcastShapes(x.getShape(), target);
  if (!shape || !llvm::equal(*shape, target))
    return op.emitOpError("cannot broadcast ")
           << x.getTypeString() << " to [" << target << "] at run time";
  SmallVector<int64_t> strides =
      broadcastStrides(x.getShape(), static_cast<int64_t>(target.size()));
  results.push_back(gather(x, target, [&](ArrayRef<int64_t> coords) {
    return offsetOf(coords, strides);
  }));
  return success();
}

/// zeros / ones of the op's shape and dtype.
LogicalResult fill(Operation *op, ArrayRef<int64_t> shape, int64_t value,
                   Results &results) {
  FailureOr<DType> dtype = resultDType(op);
  if (failed(dtype))
    return failure();
  HostTensor out(*dtype, shape);
  for (int64_t i = 0, e = out.getNumElements(); value != 0 && i < e; ++i)
    out.setInt(i, value);
  results.push_back(std::move(out));
  return success();
}

} // namespace

void raf::runtime::addShapeKernels(KernelRegistry &registry) {
  registry.add<relay::ReshapeOp>(runReshape);
  registry.add<relay::TransposeOp>(runTranspose);
  registry.add<relay::ExpandDimsOp>(runExpandDims);
  registry.add<relay::SqueezeOp>(runSqueeze);
  registry.add<relay::ConcatenateOp>(runConcatenate);
  registry.add<relay::SplitOp>(runSplit);
  registry.add<relay::StridedSliceOp>(runStridedSlice);
  registry.add<relay::TakeOp>(runTake);
  registry.add<relay::PadOp>(runPad);
  registry.add<relay::BroadcastToOp>(runBroadcastTo);
  registry.add<relay::ZerosOp>(
      [](relay::ZerosOp op, KernelOperands, Results &results) {
        return fill(op, op.getShape(), 0, results);
      });
  registry.add<relay::OnesOp>(
      [](relay::OnesOp op, KernelOperands, Results &results) {
        return fill(op, op.getShape(), 1, results);
      });
}
