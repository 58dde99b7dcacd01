//===- ShapeToLinalg.cpp - shape and layout relay operators ---------------===//
//
//   reshape, expand_dims, squeeze  tensor.expand_shape / collapse_shape;
//   transpose                      linalg.transpose, or a linalg.generic
//                                  looping in the operand's order when that
//                                  streams through memory better;
//   concatenate                    tensor.insert_slice into a tensor.empty;
//   split                          tensor.extract_slice per part;
//   strided_slice                  tensor.extract_slice (positive strides) or
//                                  a linalg.generic with a strided map;
//   take                           linalg.generic gathering by tensor.extract
//                                  (indices clipped or wrapped into range);
//   nn.pad                         linalg.fill and a linalg.copy into the
//                                  interior (constant) or a linalg.generic
//                                  gather (edge, reflect);
//   broadcast_to                   linalg.broadcast (after dropping the
//                                  stretched size-1 axes).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <algorithm>

using namespace mlir;

namespace raf::relay_to_linalg {
namespace {

/// Any operator whose result is a row-major reshape of its operand.
template <typename OpTy>
struct ReshapeLikeLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op,
                  typename OpConversionPattern<OpTy>::OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createReshape(rewriter, op.getLoc(), adaptor.getX(), op.getType()));
    return success();
  }
};

/// A linalg.generic copying `input` to `resultType`; `inputMap` and
/// `resultMap` are permutations of the loops.
Value createPermutationCopy(OpBuilder &b, Location loc, Value input,
                            RankedTensorType resultType, AffineMap inputMap,
                            AffineMap resultMap) {
  SmallVector<utils::IteratorType> iterators(inputMap.getNumDims(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{input},
      ValueRange{createEmpty(b, loc, resultType)},
      ArrayRef<AffineMap>{inputMap, resultMap}, iterators,
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  return generic.getResult(0);
}

/// A transpose whose loops stream through memory. Loops in the result's
/// order (linalg.transpose) write contiguously but read the operand's
/// innermost axis with a stride; when the result's innermost axis is long
/// and the operand's short (a 1x4x224x224x16 -> 1x4x16x224x224 VTA result
/// unpacking), every pass over one result row reads a cache line per
/// element and uses one element of it, and the operand streams through the
/// cache once per element of its innermost axis. Such a transpose is
/// blocked instead (Lam, Rothberg and Wolf 1991): the result's innermost
/// axis is split into blocks of about one cache line, and the loops run
/// over the blocks, then the operand's innermost axis, then a block, so
/// each step reads a small contiguous tile of the operand and writes whole
/// lines of the result. Without such a block size (a prime extent) the
/// loops follow the operand's order (contiguous reads, as many sequential
/// write streams as the operand's innermost axis is long).
Value createStreamingTranspose(OpBuilder &b, Location loc, Value input,
                               ArrayRef<int64_t> perm) {
  RankedTensorType type = getTensorType(input);
  int64_t rank = type.getRank();
  if (rank < 2 || llvm::equal(perm, llvm::seq<int64_t>(0, rank)) ||
      (type.hasStaticShape() && movesOnlyUnitAxes(type.getShape(), perm)))
    return createTranspose(b, loc, input, perm);
  SmallVector<int64_t> shape;
  for (int64_t axis : perm)
    shape.push_back(type.getDimSize(axis));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  // The operand's innermost axis, and the operand axis that becomes the
  // result's innermost.
  int64_t inner = rank - 1, outer = perm[rank - 1];
  int64_t innerSize = type.getDimSize(inner), outerSize = shape.back();
  Type element = type.getElementType();
  if (outer == inner || innerSize >= outerSize || !element.isIntOrFloat() ||
      type.getNumElements() == 0)
    return createTranspose(b, loc, input, perm);
  // A 64-byte cache line of elements; the block: the largest divisor of the
  // result's innermost extent between half a line and two lines.
  int64_t line = std::max<int64_t>(
      1, 512 / std::max<int64_t>(1, element.getIntOrFloatBitWidth()));
  int64_t block = 0;
  for (int64_t size = std::min(2 * line, outerSize - 1);
       size >= std::max<int64_t>(2, line / 2); --size)
    if (outerSize % size == 0) {
      block = size;
      break;
    }
  MLIRContext *context = b.getContext();
  if (block == 0) {
    // Loops over the operand's axes; result axis j is loop perm[j].
    SmallVector<AffineExpr> resultExprs;
    for (int64_t axis : perm)
      resultExprs.push_back(b.getAffineDimExpr(axis));
    return createPermutationCopy(
        b, loc, input, resultType, b.getMultiDimIdentityMap(rank),
        AffineMap::get(rank, 0, resultExprs, context));
  }
  // The operand with `outer` split into (blocks, block): expanded axis of
  // operand axis i.
  auto expanded = [&](int64_t axis) { return axis > outer ? axis + 1 : axis; };
  SmallVector<int64_t> inputShape;
  SmallVector<ReassociationIndices> inputGroups;
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis == outer) {
      inputGroups.push_back({expanded(axis), expanded(axis) + 1});
      inputShape.append({outerSize / block, block});
    } else {
      inputGroups.push_back({expanded(axis)});
      inputShape.push_back(type.getDimSize(axis));
    }
  }
  // Loops (as expanded operand axes): the result's axes but the last two,
  // without the operand's innermost, then the blocks, the operand's
  // innermost axis and a block.
  SmallVector<int64_t> loops;
  for (int64_t j = 0; j + 1 < rank; ++j)
    if (perm[j] != inner)
      loops.push_back(expanded(perm[j]));
  loops.append({expanded(outer), expanded(inner), expanded(outer) + 1});
  SmallVector<int64_t> position(rank + 1);
  for (auto [loop, axis] : llvm::enumerate(loops))
    position[axis] = loop;
  SmallVector<AffineExpr> inputExprs, resultExprs;
  for (int64_t axis = 0; axis <= rank; ++axis)
    inputExprs.push_back(b.getAffineDimExpr(position[axis]));
  SmallVector<int64_t> blockedShape;
  SmallVector<ReassociationIndices> resultGroups;
  for (int64_t j = 0; j + 1 < rank; ++j) {
    resultExprs.push_back(b.getAffineDimExpr(position[expanded(perm[j])]));
    blockedShape.push_back(shape[j]);
    resultGroups.push_back({j});
  }
  resultExprs.push_back(b.getAffineDimExpr(position[expanded(outer)]));
  resultExprs.push_back(b.getAffineDimExpr(position[expanded(outer) + 1]));
  blockedShape.append({outerSize / block, block});
  resultGroups.push_back({rank - 1, rank});
  Value blockedInput = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(inputShape, element), input, inputGroups);
  Value blocked = createPermutationCopy(
      b, loc, blockedInput, RankedTensorType::get(blockedShape, element),
      AffineMap::get(rank + 1, 0, inputExprs, context),
      AffineMap::get(rank + 1, 0, resultExprs, context));
  return tensor::CollapseShapeOp::create(b, loc, resultType, blocked,
                                         resultGroups);
}

struct TransposeLowering : OpConversionPattern<relay::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getType().getRank();
    SmallVector<int64_t> perm;
    if (std::optional<ArrayRef<int64_t>> axes = op.getAxes()) {
      for (int64_t axis : *axes)
        perm.push_back(axis < 0 ? axis + rank : axis);
    } else {
      for (int64_t i = rank - 1; i >= 0; --i)
        perm.push_back(i);
    }
    rewriter.replaceOp(op, createStreamingTranspose(rewriter, op.getLoc(),
                                                    adaptor.getX(), perm));
    return success();
  }
};

struct ConcatenateLowering : OpConversionPattern<relay::ConcatenateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::ConcatenateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Value result = createEmpty(rewriter, loc, type);
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      RankedTensorType inputType = getTensorType(input);
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < rank; ++d) {
        offsets.push_back(rewriter.getIndexAttr(d == axis ? offset : 0));
        sizes.push_back(rewriter.getIndexAttr(inputType.getDimSize(d)));
        strides.push_back(rewriter.getIndexAttr(1));
      }
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      offset += inputType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitLowering : OpConversionPattern<relay::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getX().getType();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    SmallVector<Value> parts;
    int64_t offset = 0;
    for (Value result : op.getResults()) {
      auto partType = cast<RankedTensorType>(result.getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < rank; ++d) {
        offsets.push_back(rewriter.getIndexAttr(d == axis ? offset : 0));
        sizes.push_back(rewriter.getIndexAttr(partType.getDimSize(d)));
        strides.push_back(rewriter.getIndexAttr(1));
      }
      parts.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, partType, adaptor.getX(), offsets, sizes, strides));
      offset += partType.getDimSize(axis);
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

/// strided_slice with the NumPy index rules of the op's shape function:
/// the first index and the stride of each axis are resolved at compile time.
struct StridedSliceLowering : OpConversionPattern<relay::StridedSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::StridedSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inputType = op.getX().getType();
    RankedTensorType type = op.getType();
    int64_t rank = inputType.getRank();
    SmallVector<int64_t> first(rank, 0), step(rank, 1);
    ArrayRef<int64_t> begin = op.getBegin();
    size_t count = begin.size();
    for (size_t i = 0; i < count; ++i) {
      int64_t axis =
          normalizeAxis(op.getAxes() ? (*op.getAxes())[i] : int64_t(i), rank);
      int64_t stride = op.getStrides() ? (*op.getStrides())[i] : 1;
      int64_t dim = inputType.getDimSize(axis);
      int64_t index = begin[i] < 0 ? begin[i] + dim : begin[i];
      index = stride > 0 ? std::clamp<int64_t>(index, 0, dim)
                         : std::clamp<int64_t>(index, -1, dim - 1);
      first[axis] = index;
      step[axis] = stride;
    }
    if (type.getNumElements() == 0) {
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type));
      return success();
    }
    if (llvm::all_of(step, [](int64_t s) { return s > 0; })) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < rank; ++d) {
        offsets.push_back(rewriter.getIndexAttr(first[d]));
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        strides.push_back(rewriter.getIndexAttr(step[d]));
      }
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, type, adaptor.getX(), offsets, sizes, strides);
      return success();
    }
    // A negative stride walks backwards: read x[first + step * i].
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(getAffineDimExpr(d, context) * step[d] + first[d]);
    AffineMap map = AffineMap::get(rank, 0, exprs, context);
    rewriter.replaceOp(
        op,
        createParallelGeneric(
            rewriter, loc, type, ValueRange{adaptor.getX()}, {map},
            [](OpBuilder &, Location, ValueRange args) { return args[0]; }));
    return success();
  }
};

/// Maps an i64 index into [0, size): clip clamps (TVM's default; `fast`
/// promises in-range indices and is lowered as clip so a bad index cannot
/// read out of bounds), wrap takes the floor modulo (so -1 is the last).
Value normalizeIndex(OpBuilder &b, Location loc, Value index, int64_t size,
                     relay::TakeMode mode) {
  Type i64 = b.getI64Type();
  Value n = createScalar(b, loc, i64, static_cast<double>(size));
  if (mode == relay::TakeMode::Wrap) {
    Value rem = arith::RemSIOp::create(b, loc, index, n);
    Value shifted = arith::AddIOp::create(b, loc, rem, n);
    return arith::RemSIOp::create(b, loc, shifted, n);
  }
  Value last = createScalar(b, loc, i64, static_cast<double>(size - 1));
  return arith::MaxSIOp::create(b, loc, createScalar(b, loc, i64, 0),
                                arith::MinSIOp::create(b, loc, index, last));
}

struct TakeLowering : OpConversionPattern<relay::TakeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value data = adaptor.getData();
    RankedTensorType dataType = getTensorType(data);
    int64_t axis = 0;
    if (std::optional<int64_t> attr = op.getAxis()) {
      axis = *attr < 0 ? *attr + dataType.getRank() : *attr;
    } else {
      // Without an axis, take from the flattened data.
      data = createReshape(rewriter, loc, data,
                           RankedTensorType::get({dataType.getNumElements()},
                                                 dataType.getElementType()));
      dataType = getTensorType(data);
    }
    int64_t indexRank = getTensorType(adaptor.getIndices()).getRank();
    int64_t size = dataType.getDimSize(axis);
    MLIRContext *context = rewriter.getContext();
    // Indices are read at the result dimensions [axis, axis + indexRank).
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indexRank; ++d)
      indexExprs.push_back(getAffineDimExpr(axis + d, context));
    AffineMap indexMap = AffineMap::get(type.getRank(), 0, indexExprs, context);
    relay::TakeMode mode = op.getMode();
    Value result = createParallelGeneric(
        rewriter, loc, type, ValueRange{adaptor.getIndices()}, {indexMap},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value index = convertScalar(b, l, args[0], b.getI64Type());
          index = normalizeIndex(b, l, index, size, mode);
          SmallVector<Value> position;
          for (int64_t d = 0; d < axis; ++d)
            position.push_back(linalg::IndexOp::create(b, l, d));
          position.push_back(
              arith::IndexCastOp::create(b, l, b.getIndexType(), index));
          for (int64_t d = axis + 1; d < dataType.getRank(); ++d)
            position.push_back(
                linalg::IndexOp::create(b, l, d - 1 + indexRank));
          return tensor::ExtractOp::create(b, l, data, position);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PadLowering : OpConversionPattern<relay::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inputType = op.getX().getType();
    RankedTensorType type = op.getType();
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> width = op.getPadWidth();
    SmallVector<int64_t> low, high;
    for (int64_t d = 0; d < rank; ++d) {
      low.push_back(width[2 * d]);
      high.push_back(width[2 * d + 1]);
    }
    if (op.getPadMode() == relay::PadMode::Constant) {
      Type element = inputType.getElementType();
      Value padValue =
          isa<FloatType>(element)
              ? createScalar(rewriter, loc, element,
                             op.getPadValue().convertToDouble())
              : convertScalar(rewriter, loc,
                              createScalar(rewriter, loc, rewriter.getF64Type(),
                                           op.getPadValue().convertToDouble()),
                              element);
      // The padded tensor filled with the value, the operand copied into
      // its interior: both bufferize into the one result buffer and lower
      // to loops (tensor.pad becomes a memref.copy into a strided view, which
      // the runtime's generic memrefCopy does element by element with index
      // arithmetic: 13.8 ms for a 2.7 MB int8 operand here).
      if (llvm::all_of(width, [](int64_t w) { return w == 0; })) {
        rewriter.replaceOp(op, adaptor.getX());
        return success();
      }
      Value filled = createFilled(rewriter, loc, type, padValue);
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < rank; ++d) {
        offsets.push_back(rewriter.getIndexAttr(low[d]));
        sizes.push_back(rewriter.getIndexAttr(inputType.getDimSize(d)));
        strides.push_back(rewriter.getIndexAttr(1));
      }
      Value interior = tensor::ExtractSliceOp::create(
          rewriter, loc, filled, offsets, sizes, strides);
      Value copied =
          linalg::CopyOp::create(rewriter, loc, adaptor.getX(), interior)
              .getResult(0);
      rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
          op, copied, filled, offsets, sizes, strides);
      return success();
    }
    // edge / reflect: every output element reads one input element.
    bool reflect = op.getPadMode() == relay::PadMode::Reflect;
    Value x = adaptor.getX();
    Value result = createParallelGeneric(
        rewriter, loc, type, ValueRange{}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t size = inputType.getDimSize(d);
            Value i = linalg::IndexOp::create(b, l, d);
            Value j = arith::SubIOp::create(
                b, l, i, arith::ConstantIndexOp::create(b, l, low[d]));
            Value zero = arith::ConstantIndexOp::create(b, l, 0);
            Value last = arith::ConstantIndexOp::create(b, l, size - 1);
            if (reflect) {
              // Padding is smaller than the axis: one reflection suffices.
              // j < 0 -> -j;  j > last -> 2 * last - j.
              Value negated = arith::SubIOp::create(b, l, zero, j);
              Value mirrored = arith::SubIOp::create(
                  b, l, arith::AddIOp::create(b, l, last, last), j);
              Value below = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, j, zero);
              Value above = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sgt, j, last);
              j = arith::SelectOp::create(
                  b, l, below, negated,
                  arith::SelectOp::create(b, l, above, mirrored, j));
            } else {
              j = arith::MaxSIOp::create(b, l, zero,
                                         arith::MinSIOp::create(b, l, j, last));
            }
            position.push_back(j);
          }
          return tensor::ExtractOp::create(b, l, x, position);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BroadcastToLowering : OpConversionPattern<relay::BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(relay::BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inputType = op.getX().getType();
    RankedTensorType type = op.getType();
    int64_t offset = type.getRank() - inputType.getRank();
    // Keep the input axes that already have the target size; the others
    // (missing or stretched from 1) are broadcast dimensions.
    SmallVector<int64_t> keptShape, broadcastDims;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      bool kept =
          d >= offset && inputType.getDimSize(d - offset) == type.getDimSize(d);
      if (kept)
        keptShape.push_back(type.getDimSize(d));
      else
        broadcastDims.push_back(d);
    }
    Value kept = createReshape(
        rewriter, loc, adaptor.getX(),
        RankedTensorType::get(keptShape, inputType.getElementType()));
    Value result = linalg::BroadcastOp::create(rewriter, loc, kept,
                                               createEmpty(rewriter, loc, type),
                                               broadcastDims)
                       .getResult()[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateShapePatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ReshapeLikeLowering<relay::ReshapeOp>,
               ReshapeLikeLowering<relay::ExpandDimsOp>,
               ReshapeLikeLowering<relay::SqueezeOp>>(context);
  patterns.add<TransposeLowering, ConcatenateLowering, SplitLowering,
               StridedSliceLowering, TakeLowering, PadLowering,
               BroadcastToLowering>(context);
}

} // namespace raf::relay_to_linalg
