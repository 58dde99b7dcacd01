//===- TCGToLinalg.cpp - the --convert-tcg-to-linalg pass -----------------===//
//
// One linalg.generic per computation of a kernel, from the loop-nest form of
// raf::tcg::analyzeComputation:
//
//   tcg.tensor nest       -> parallel iterators, the output's identity map
//   tcg.reduce chain      -> reduction iterators; the output starts at the
//                            reduction's neutral element
//   tcg.input             -> an input with its access as indexing map, read
//                            through its view (tensor.pad / insert_slice)
//   tcg.compute           -> arith on the block arguments
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"
#include "raf/Conversion/Utils/SafeDivision.h"

#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Utils/Computation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"

#include <map>
#include <tuple>

namespace raf {
#define GEN_PASS_DEF_CONVERTTCGTOLINALG
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

Value zeroOf(OpBuilder &b, Location loc, Type element) {
  return arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
}

/// The neutral element of `kind` in `element`: 0, 1, the lowest and the
/// highest value (infinities for floats).
Value neutralElement(OpBuilder &b, Location loc, ScalarOp kind, Type element) {
  TypedAttr value;
  if (auto floatType = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    switch (kind) {
    case ScalarOp::Mul:
      value = b.getFloatAttr(element, 1.0);
      break;
    case ScalarOp::Max:
      value = b.getFloatAttr(element, APFloat::getInf(semantics, true));
      break;
    case ScalarOp::Min:
      value = b.getFloatAttr(element, APFloat::getInf(semantics, false));
      break;
    default:
      value = b.getFloatAttr(element, 0.0);
    }
  } else {
    unsigned width = element.getIntOrFloatBitWidth();
    switch (kind) {
    case ScalarOp::Mul:
      value = b.getIntegerAttr(element, 1);
      break;
    case ScalarOp::Max:
      value = b.getIntegerAttr(element, APInt::getSignedMinValue(width));
      break;
    case ScalarOp::Min:
      value = b.getIntegerAttr(element, APInt::getSignedMaxValue(width));
      break;
    default:
      value = b.getIntegerAttr(element, 0);
    }
  }
  return arith::ConstantOp::create(b, loc, value);
}

/// Widens `value` to `type` (integers sign-extended, as relay's out_dtype).
Value widen(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (isa<FloatType>(type))
    return arith::ExtFOp::create(b, loc, type, value);
  return arith::ExtSIOp::create(b, loc, type, value);
}

/// `kind` applied to `lhs` and `rhs` of the same type (`lhs` alone for a
/// unary kind).
Value applyScalarOp(OpBuilder &b, Location loc, ScalarOp kind, Value lhs,
                    Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  switch (kind) {
  case ScalarOp::Add:
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  case ScalarOp::Sub:
    return isFloat ? Value(arith::SubFOp::create(b, loc, lhs, rhs))
                   : Value(arith::SubIOp::create(b, loc, lhs, rhs));
  case ScalarOp::Mul:
    return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MulIOp::create(b, loc, lhs, rhs));
  case ScalarOp::Max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
  case ScalarOp::Min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
  case ScalarOp::Div:
    // Integer division that cannot trap, as relay.divide lowers it.
    return isFloat ? Value(arith::DivFOp::create(b, loc, lhs, rhs))
                   : createSafeSignedDivide(b, loc, lhs, rhs);
  case ScalarOp::Exp:
    // Unary (the verifier allows it on floats only); `rhs` is null.
    return math::ExpOp::create(b, loc, lhs);
  }
  llvm_unreachable("unknown scalar operation");
}

/// Lowers one kernel at its position.
class KernelLowering {
public:
  KernelLowering(KernelOp kernel) : kernel(kernel), builder(kernel) {
    for (auto [argument, operand] :
         llvm::zip(kernel.getBodyBlock().getArguments(), kernel.getInputs()))
      values.map(argument, operand);
  }

  LogicalResult run() {
    for (TensorOp computation : kernel.getBodyBlock().getOps<TensorOp>()) {
      FailureOr<Computation> form = analyzeComputation(computation);
      if (failed(form))
        return failure();
      values.map(computation.getResult(), lower(computation, *form));
    }
    kernel.getResult().replaceAllUsesWith(
        values.lookup(kernel.getYield().getValue()));
    kernel.erase();
    return success();
  }

private:
  /// `source` seen through the view of `input`: zero padding by tensor.pad,
  /// dilation by a strided insert into a zero tensor. Views are shared
  /// between reads of the same tensor.
  Value getView(Value source, InputOp input) {
    if (!input.hasView())
      return source;
    auto sourceType = cast<RankedTensorType>(source.getType());
    unsigned rank = sourceType.getRank();
    auto list = [&](std::optional<ArrayRef<int64_t>> values, int64_t fill) {
      return values ? SmallVector<int64_t>(*values)
                    : SmallVector<int64_t>(rank, fill);
    };
    SmallVector<int64_t> low = list(input.getPadLow(), 0);
    SmallVector<int64_t> high = list(input.getPadHigh(), 0);
    SmallVector<int64_t> dilation = list(input.getDilation(), 1);
    auto key =
        std::make_tuple(source.getAsOpaquePointer(), low, high, dilation);
    if (auto it = views.find(key); it != views.end())
      return it->second;

    Location loc = input.getLoc();
    Type element = sourceType.getElementType();
    auto viewType = RankedTensorType::get(input.getViewShape(), element);
    Value zero = zeroOf(builder, loc, element);
    Value view;
    if (llvm::all_of(dilation, [](int64_t d) { return d == 1; })) {
      view = tensor::PadOp::create(
          builder, loc, viewType, source,
          getAsIndexOpFoldResult(builder.getContext(), low),
          getAsIndexOpFoldResult(builder.getContext(), high), zero);
    } else {
      Value empty =
          tensor::EmptyOp::create(builder, loc, viewType.getShape(), element);
      Value zeros =
          linalg::FillOp::create(builder, loc, zero, empty).getResult(0);
      MLIRContext *context = builder.getContext();
      view = tensor::InsertSliceOp::create(
          builder, loc, source, zeros, getAsIndexOpFoldResult(context, low),
          getAsIndexOpFoldResult(context, sourceType.getShape()),
          getAsIndexOpFoldResult(context, dilation));
    }
    views[key] = view;
    return view;
  }

  /// linalg requires an operand dimension indexed by a loop alone to have
  /// the loop's size, while a read may cover only part of a dimension
  /// (interval analysis guarantees it stays inside); such dimensions are
  /// sliced to the loop's extent.
  Value fitToLoops(Value operand, AffineMap map, ArrayRef<int64_t> extents,
                   Location loc) {
    auto type = cast<RankedTensorType>(operand.getType());
    SmallVector<int64_t> sizes(type.getShape());
    for (auto [index, result] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(result))
        sizes[index] = extents[dim.getPosition()];
    if (ArrayRef<int64_t>(sizes) == type.getShape())
      return operand;
    MLIRContext *context = builder.getContext();
    SmallVector<int64_t> zeros(sizes.size(), 0), ones(sizes.size(), 1);
    return tensor::ExtractSliceOp::create(
        builder, loc, RankedTensorType::get(sizes, type.getElementType()),
        operand, getAsIndexOpFoldResult(context, zeros),
        getAsIndexOpFoldResult(context, sizes),
        getAsIndexOpFoldResult(context, ones));
  }

  Value lower(TensorOp root, const Computation &form) {
    Location loc = root.getLoc();
    MLIRContext *context = builder.getContext();
    RankedTensorType resultType = root.getType();
    Type element = resultType.getElementType();
    unsigned numParallel = form.dims.size();
    unsigned numIterators = numParallel + form.reductions.size();

    // Inputs, one per read, with their accesses as indexing maps.
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<InputOp> reads;
    SmallVector<int64_t> extents;
    for (TensorOp dim : form.dims)
      extents.push_back(dim.getExtent());
    for (ReduceOp reduce : form.reductions)
      extents.push_back(reduce.getExtent());
    for (Operation *op : form.body)
      if (auto input = dyn_cast<InputOp>(op)) {
        AffineMap map = form.getAccessMap(input);
        Value view = getView(values.lookup(input.getSource()), input);
        inputs.push_back(fitToLoops(view, map, extents, input.getLoc()));
        maps.push_back(map);
        reads.push_back(input);
      }
    // linalg derives each loop's range from an operand dimension indexed by
    // that loop alone. An iterator that only appears in compound accesses
    // (the flipped kernel of a transposed convolution reads `2 - kh`) gets
    // one from an operand that is never read: an i8 tensor of the extents.
    llvm::SmallBitVector pinned(numIterators);
    for (unsigned i = 0; i < numParallel; ++i)
      pinned.set(i);
    for (AffineMap map : maps)
      for (AffineExpr result : map.getResults())
        if (auto dim = dyn_cast<AffineDimExpr>(result))
          pinned.set(dim.getPosition());
    if (!pinned.all()) {
      SmallVector<int64_t> unpinned;
      SmallVector<AffineExpr> indices;
      for (unsigned i = numParallel; i < numIterators; ++i)
        if (!pinned.test(i)) {
          unpinned.push_back(extents[i]);
          indices.push_back(getAffineDimExpr(i, context));
        }
      inputs.push_back(
          tensor::EmptyOp::create(builder, loc, unpinned, builder.getI8Type()));
      maps.push_back(AffineMap::get(numIterators, 0, indices, context));
    }

    // The output: indexed by the parallel iterators, in order.
    SmallVector<AffineExpr> outputIndices;
    for (unsigned i = 0; i < numParallel; ++i)
      outputIndices.push_back(getAffineDimExpr(i, context));
    maps.push_back(AffineMap::get(numIterators, 0, outputIndices, context));

    Value init =
        tensor::EmptyOp::create(builder, loc, resultType.getShape(), element);
    if (form.reduction)
      init = linalg::FillOp::create(
                 builder, loc,
                 neutralElement(builder, loc, *form.reduction, element), init)
                 .getResult(0);

    SmallVector<utils::IteratorType> iteratorTypes(
        numParallel, utils::IteratorType::parallel);
    iteratorTypes.append(form.reductions.size(),
                         utils::IteratorType::reduction);

    auto generic = linalg::GenericOp::create(
        builder, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        iteratorTypes, [&](OpBuilder &b, Location l, ValueRange args) {
          llvm::DenseMap<Value, Value> scalars;
          for (auto [read, argument] : llvm::zip(reads, args))
            scalars[read.getResult()] = argument;
          for (Operation *op : form.body) {
            if (auto constant = dyn_cast<ConstantOp>(op)) {
              scalars[constant.getResult()] = arith::ConstantOp::create(
                  b, l, cast<TypedAttr>(constant.getValue()));
              continue;
            }
            auto compute = dyn_cast<ComputeOp>(op);
            if (!compute)
              continue;
            Type type = compute.getType();
            Value lhs = widen(b, l, scalars.lookup(compute.getLhs()), type);
            Value rhs =
                compute.getRhs()
                    ? widen(b, l, scalars.lookup(compute.getRhs()), type)
                    : Value();
            scalars[compute.getResult()] =
                applyScalarOp(b, l, compute.getKind(), lhs, rhs);
          }
          Value value = scalars.lookup(form.getBodyValue());
          if (form.reduction)
            value = applyScalarOp(b, l, *form.reduction, args.back(), value);
          linalg::YieldOp::create(b, l, value);
        });
    return generic.getResult(0);
  }

  KernelOp kernel;
  OpBuilder builder;
  /// Kernel arguments and computation results -> their lowered values.
  IRMapping values;
  std::map<std::tuple<const void *, SmallVector<int64_t>, SmallVector<int64_t>,
                      SmallVector<int64_t>>,
           Value>
      views;
};

struct ConvertTCGToLinalgPass
    : public raf::impl::ConvertTCGToLinalgBase<ConvertTCGToLinalgPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    bool failedAny = false;
    for (KernelOp kernel : kernels)
      failedAny |= failed(KernelLowering(kernel).run());
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
