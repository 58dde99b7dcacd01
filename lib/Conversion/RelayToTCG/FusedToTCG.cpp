//===- FusedToTCG.cpp - fused relay functions as one tcg.kernel ----------===//
//
// --convert-relay-fused-to-tcg: a fused relay function (TVM's Primitive
// functions, `relay.primitive`) becomes one multi-statement tcg.kernel, one
// computation per operator in program order, the form of the operators of
// Rieber 2022, Tab. 3.3 (FC + bias, FC + bias + sigmoid, attention as
// Eqs. 3.2 + 3.3, conv2d + ReLU, capsule routing) that the top-down
// embedding (chapter 3) transforms and matches. Contractions (nn.dense,
// nn.matmul, nn.batch_matmul, nn.conv2d in every layout) use the tensor
// expressions --convert-relay-to-tcg builds; element-wise operators read
// their operands with NumPy broadcasting; reductions (sum, max) and
// softmax become reductions; expand_dims and scalar constants are folded
// into the reads.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"

#include "OperatorExprs.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTRELAYFUSEDTOTCG
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

/// A relay value inside the kernel: a tensor (kernel argument or
/// computation) read through `map` (the relay value's indices -> the
/// tensor's), or a scalar constant.
struct Source {
  Value tensor;
  AffineMap map;
  TypedAttr scalar;
};

class FusedBuilder {
public:
  FusedBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc), context(builder.getContext()) {}

  DenseMap<Value, Source> values;

  /// Reads `value` at `indices` (affine expressions over `iterators`).
  Value read(Value value, ArrayRef<AffineExpr> indices, ValueRange iterators) {
    return read(values.lookup(value), indices, iterators);
  }

  Value read(const Source &source, ArrayRef<AffineExpr> indices,
             ValueRange iterators) {
    if (source.scalar)
      return ConstantOp::create(builder, loc, source.scalar.getType(),
                                source.scalar);
    SmallVector<AffineExpr> composed;
    for (AffineExpr expr : source.map.getResults())
      composed.push_back(expr.replaceDims(indices));
    return InputOp::create(
        builder, loc, source.tensor, iterators,
        AffineMap::get(iterators.size(), 0, composed, context));
  }

  /// NumPy broadcasting: the indices of `operand` read at the point `dims`
  /// of a result of shape `shape`.
  SmallVector<AffineExpr> broadcast(Value operand, ArrayRef<int64_t> shape,
                                    ArrayRef<AffineExpr> dims) {
    auto type = cast<RankedTensorType>(operand.getType());
    unsigned offset = shape.size() - type.getRank();
    SmallVector<AffineExpr> indices;
    for (int64_t k = 0; k < type.getRank(); ++k)
      indices.push_back(type.getDimSize(k) == 1 && shape[k + offset] != 1
                            ? getAffineConstantExpr(0, context)
                            : dims[k + offset]);
    return indices;
  }

  /// Builds a computation of `shape` (at least rank 1) whose elements,
  /// reduced by `reduction` over `reduced` iterators when there are any,
  /// `body` computes from all iterators (parallel, then reduced).
  TensorOp build(StringRef name, ArrayRef<int64_t> shape, Type element,
                 ArrayRef<int64_t> reduced, ScalarOp reduction,
                 function_ref<Value(ValueRange)> body,
                 ArrayRef<std::string> names = {}) {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<Operation *> nest;
    SmallVector<Value> iterators;
    auto iterName = [&](size_t index) {
      return builder.getStringAttr(index < names.size()
                                       ? names[index]
                                       : name.str() + std::to_string(index));
    };
    for (auto [index, extent] : llvm::enumerate(shape)) {
      auto type =
          RankedTensorType::get(ArrayRef<int64_t>(shape).drop_front(index),
                                element);
      auto tensor = TensorOp::create(builder, loc, type,
                                     builder.getI64IntegerAttr(0),
                                     builder.getI64IntegerAttr(extent),
                                     iterName(index), GemmAxisAttr());
      nest.push_back(tensor);
      Block *block = builder.createBlock(&tensor.getBody(), {},
                                         {builder.getIndexType()}, {loc});
      iterators.push_back(block->getArgument(0));
    }
    for (auto [index, extent] : llvm::enumerate(reduced)) {
      auto reduce = ReduceOp::create(
          builder, loc, element, ScalarOpAttr::get(context, reduction),
          builder.getI64IntegerAttr(0), builder.getI64IntegerAttr(extent),
          iterName(shape.size() + index), GemmAxisAttr());
      nest.push_back(reduce);
      Block *block = builder.createBlock(&reduce.getBody(), {},
                                         {builder.getIndexType()}, {loc});
      iterators.push_back(block->getArgument(0));
    }
    YieldOp::create(builder, loc, body(iterators));
    for (Operation *op : llvm::reverse(ArrayRef(nest).drop_front())) {
      builder.setInsertionPointAfter(op);
      YieldOp::create(builder, loc, op->getResult(0));
    }
    return cast<TensorOp>(nest.front());
  }

  Value compute(ScalarOp kind, Value lhs, Value rhs = {}, Type type = {}) {
    return ComputeOp::create(builder, loc, type ? type : lhs.getType(), kind,
                             lhs, rhs);
  }

  /// Records `tensor` (a computation) as the value of `result`.
  void define(Value result, TensorOp tensor) {
    unsigned rank = tensor.getType().getRank();
    values[result] = {tensor.getResult(),
                      AffineMap::getMultiDimIdentityMap(rank, context), {}};
  }

  LogicalResult convert(Operation *op);

private:
  LogicalResult elementwise(Operation *op, ScalarOp kind);
  LogicalResult contraction(Operation *op,
                            const relay_to_tcg::OperatorExpr &expr);
  LogicalResult reduce(Operation *op, Value x, ArrayRef<int64_t> axes,
                       bool keepdims, ScalarOp kind);

  OpBuilder &builder;
  Location loc;
  MLIRContext *context;
};

SmallVector<AffineExpr> getDims(unsigned count, MLIRContext *context) {
  SmallVector<AffineExpr> dims;
  for (unsigned k = 0; k < count; ++k)
    dims.push_back(getAffineDimExpr(k, context));
  return dims;
}

LogicalResult FusedBuilder::elementwise(Operation *op, ScalarOp kind) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<Value> operands(op->getOperands());
  TensorOp tensor = build(
      op->getName().stripDialect(), shape, type.getElementType(), {},
      ScalarOp::Add, [&](ValueRange iterators) {
        SmallVector<AffineExpr> dims = getDims(shape.size(), context);
        SmallVector<Value> reads;
        for (Value operand : operands)
          reads.push_back(
              read(operand, broadcast(operand, shape, dims), iterators));
        return compute(kind, reads[0], reads.size() > 1 ? reads[1] : Value());
      });
  define(op->getResult(0), tensor);
  return success();
}

LogicalResult
FusedBuilder::contraction(Operation *op,
                          const relay_to_tcg::OperatorExpr &operatorExpr) {
  const embed::TensorExpression &expr = operatorExpr.expr;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  unsigned numParallel = expr.getNumParallel();
  SmallVector<int64_t> shape, reduced;
  SmallVector<std::string> names;
  for (auto [index, iterator] : llvm::enumerate(expr.Iterators)) {
    (index < numParallel ? shape : reduced).push_back(iterator.Extent);
    names.push_back(iterator.Name);
  }
  for (auto [index, input] : llvm::enumerate(expr.Inputs)) {
    Value operand = op->getOperand(operatorExpr.inputOperands[index]);
    if (input.hasView() && !values.lookup(operand).map.isIdentity())
      return op->emitOpError("reads a padded or dilated view of a value "
                             "that is itself a view; not converted");
  }
  TensorOp tensor = build(
      op->getName().stripDialect(), shape, type.getElementType(), reduced,
      ScalarOp::Add,
      [&](ValueRange iterators) {
        SmallVector<Value> reads;
        for (auto [index, input] : llvm::enumerate(expr.Inputs)) {
          Value operand = op->getOperand(operatorExpr.inputOperands[index]);
          const Source &source = values.lookup(operand);
          if (input.hasView()) {
            auto attribute = [](ArrayRef<int64_t> v, int64_t fill) {
              return llvm::all_of(v, [&](int64_t x) { return x == fill; })
                         ? ArrayRef<int64_t>()
                         : v;
            };
            reads.push_back(InputOp::create(
                builder, loc, source.tensor, iterators, input.Access,
                attribute(input.PadLow, 0), attribute(input.PadHigh, 0),
                attribute(input.Dilation, 1)));
            continue;
          }
          SmallVector<AffineExpr> indices(input.Access.getResults());
          reads.push_back(read(operand, indices, iterators));
        }
        return compute(ScalarOp::Mul, reads[0], reads[1],
                       type.getElementType());
      },
      names);
  define(op->getResult(0), tensor);
  return success();
}

LogicalResult FusedBuilder::reduce(Operation *op, Value x,
                                   ArrayRef<int64_t> axes, bool keepdims,
                                   ScalarOp kind) {
  auto inType = cast<RankedTensorType>(x.getType());
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (type.getRank() == 0)
    return op->emitOpError("reduces to a scalar; a tcg computation has at "
                           "least one dimension");
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes)
    normalized.push_back(axis < 0 ? axis + inType.getRank() : axis);
  SmallVector<int64_t> reduced;
  for (int64_t axis : normalized)
    reduced.push_back(inType.getDimSize(axis));
  TensorOp tensor = build(
      op->getName().stripDialect(), type.getShape(), type.getElementType(),
      reduced, kind, [&](ValueRange iterators) {
        // Input dimension k: the next output iterator, or the next reduced
        // one (an output unit dimension when keepdims).
        SmallVector<AffineExpr> indices;
        unsigned out = 0, red = type.getRank();
        for (int64_t k = 0; k < inType.getRank(); ++k) {
          if (llvm::is_contained(normalized, k)) {
            indices.push_back(getAffineDimExpr(red++, context));
            if (keepdims)
              ++out;
            continue;
          }
          indices.push_back(getAffineDimExpr(out++, context));
        }
        return read(x, indices, iterators);
      });
  define(op->getResult(0), tensor);
  return success();
}

LogicalResult FusedBuilder::convert(Operation *op) {
  if (auto constant = dyn_cast<relay::ConstantOp>(op)) {
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!elements || !elements.isSplat())
      return op->emitOpError("is not a splat constant; only scalar constants "
                             "become tcg.constant");
    values[constant.getResult()] = {
        {}, {}, cast<TypedAttr>(elements.getSplatValue<Attribute>())};
    return success();
  }
  if (isa<relay::AddOp>(op))
    return elementwise(op, ScalarOp::Add);
  if (isa<relay::SubtractOp>(op))
    return elementwise(op, ScalarOp::Sub);
  if (isa<relay::MultiplyOp>(op))
    return elementwise(op, ScalarOp::Mul);
  if (isa<relay::DivideOp>(op))
    return elementwise(op, ScalarOp::Div);
  if (isa<relay::ExpOp>(op))
    return elementwise(op, ScalarOp::Exp);
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (auto relu = dyn_cast<relay::ReluOp>(op)) {
    TensorOp tensor = build(
        "relu", type.getShape(), type.getElementType(), {}, ScalarOp::Add,
        [&](ValueRange iterators) {
          Value x = read(relu.getX(), getDims(type.getRank(), context),
                         iterators);
          TypedAttr zeroAttr = builder.getZeroAttr(type.getElementType());
          Value zero =
              ConstantOp::create(builder, loc, zeroAttr.getType(), zeroAttr);
          return compute(ScalarOp::Max, x, zero);
        });
    define(relu.getResult(), tensor);
    return success();
  }
  if (auto sigmoid = dyn_cast<relay::SigmoidOp>(op)) {
    // e / (e + 1) with e = exp(x): 1 / (1 + exp(-x)) in the operations and
    // operand order Tab. 3.1 offers (Rieber 2022, §3.4); e overflows for
    // x above ~88 (float32), where the quotient becomes NaN.
    TensorOp tensor = build(
        "sigmoid", type.getShape(), type.getElementType(), {}, ScalarOp::Add,
        [&](ValueRange iterators) {
          Value x = read(sigmoid.getX(), getDims(type.getRank(), context),
                         iterators);
          Value e = compute(ScalarOp::Exp, x);
          TypedAttr oneAttr =
              builder.getFloatAttr(type.getElementType(), 1.0);
          Value one =
              ConstantOp::create(builder, loc, oneAttr.getType(), oneAttr);
          return compute(ScalarOp::Div, e, compute(ScalarOp::Add, e, one));
        });
    define(sigmoid.getResult(), tensor);
    return success();
  }
  if (auto bias = dyn_cast<relay::BiasAddOp>(op)) {
    int64_t axis = static_cast<int64_t>(bias.getAxis());
    if (axis < 0)
      axis += type.getRank();
    TensorOp tensor = build(
        "bias_add", type.getShape(), type.getElementType(), {}, ScalarOp::Add,
        [&](ValueRange iterators) {
          SmallVector<AffineExpr> dims = getDims(type.getRank(), context);
          Value x = read(bias.getX(), dims, iterators);
          Value b = read(bias.getBias(), {dims[axis]}, iterators);
          return compute(ScalarOp::Add, x, b);
        });
    define(bias.getResult(), tensor);
    return success();
  }
  if (auto expand = dyn_cast<relay::ExpandDimsOp>(op)) {
    // A view: the new unit axes are dropped from the indices.
    Source source = values.lookup(expand.getX());
    if (source.scalar) {
      values[expand.getResult()] = source;
      return success();
    }
    int64_t rank = type.getRank();
    int64_t axis = static_cast<int64_t>(expand.getAxis());
    if (axis < 0)
      axis += rank - static_cast<int64_t>(expand.getNumNewaxis()) + 1;
    SmallVector<AffineExpr> dims;
    for (int64_t k = 0; k < rank; ++k)
      if (k < axis ||
          k >= axis + static_cast<int64_t>(expand.getNumNewaxis()))
        dims.push_back(getAffineDimExpr(k, context));
    SmallVector<AffineExpr> composed;
    for (AffineExpr expr : source.map.getResults())
      composed.push_back(expr.replaceDims(dims));
    values[expand.getResult()] = {
        source.tensor, AffineMap::get(rank, 0, composed, context), {}};
    return success();
  }
  if (auto sum = dyn_cast<relay::SumOp>(op)) {
    if (sum.getExclude() || !sum.getAxis())
      return op->emitOpError("without an axis list or with exclude=true is "
                             "not converted");
    return reduce(op, sum.getX(), *sum.getAxis(), sum.getKeepdims(),
                  ScalarOp::Add);
  }
  if (auto max = dyn_cast<relay::MaxOp>(op)) {
    if (max.getExclude() || !max.getAxis())
      return op->emitOpError("without an axis list or with exclude=true is "
                             "not converted");
    return reduce(op, max.getX(), *max.getAxis(), max.getKeepdims(),
                  ScalarOp::Max);
  }
  if (auto softmax = dyn_cast<relay::SoftmaxOp>(op)) {
    // m = max_j x, e = exp(x - m), z = sum_j e, e / z over the last axis.
    int64_t rank = type.getRank();
    int64_t axis = static_cast<int64_t>(softmax.getAxis());
    if (axis < 0)
      axis += rank;
    if (axis != rank - 1 || rank < 2)
      return op->emitOpError("over an axis other than the last of a tensor "
                             "of rank 2 or more is not converted");
    Type element = type.getElementType();
    ArrayRef<int64_t> outer = type.getShape().drop_back();
    int64_t last = type.getShape().back();
    SmallVector<AffineExpr> dims = getDims(rank, context);
    ArrayRef<AffineExpr> outerDims = ArrayRef(dims).drop_back();
    Value x = softmax.getX();
    TensorOp m = build("max", outer, element, {last}, ScalarOp::Max,
                       [&](ValueRange iterators) {
                         return read(x, dims, iterators);
                       });
    auto identity = [&](TensorOp t) -> Source {
      return {t.getResult(),
              AffineMap::getMultiDimIdentityMap(t.getType().getRank(),
                                                context),
              {}};
    };
    Source mSource = identity(m);
    TensorOp e = build("exp", type.getShape(), element, {}, ScalarOp::Add,
                       [&](ValueRange iterators) {
                         Value v = read(x, dims, iterators);
                         Value w = read(mSource, outerDims, iterators);
                         return compute(ScalarOp::Exp,
                                        compute(ScalarOp::Sub, v, w));
                       });
    Source eSource = identity(e);
    TensorOp z = build("sum", outer, element, {last}, ScalarOp::Add,
                       [&](ValueRange iterators) {
                         return read(eSource, dims, iterators);
                       });
    Source zSource = identity(z);
    TensorOp out = build("softmax", type.getShape(), element, {},
                         ScalarOp::Add, [&](ValueRange iterators) {
                           Value v = read(eSource, dims, iterators);
                           Value w = read(zSource, outerDims, iterators);
                           return compute(ScalarOp::Div, v, w);
                         });
    define(softmax.getResult(), out);
    return success();
  }
  if (auto conv = dyn_cast<relay::Conv2DOp>(op))
    return contraction(op, relay_to_tcg::getOperatorExpr(conv));
  if (auto dense = dyn_cast<relay::DenseOp>(op))
    return contraction(op, relay_to_tcg::getOperatorExpr(dense));
  if (auto matmul = dyn_cast<relay::MatmulOp>(op))
    return contraction(op, relay_to_tcg::getOperatorExpr(matmul));
  if (auto batch = dyn_cast<relay::BatchMatmulOp>(op))
    return contraction(op, relay_to_tcg::getOperatorExpr(batch));
  return op->emitOpError("has no conversion to a tcg computation (converted: "
                         "nn.dense, nn.matmul, nn.batch_matmul, nn.conv2d, "
                         "add, subtract, multiply, divide, exp, sigmoid, "
                         "nn.relu, nn.bias_add, nn.softmax, sum, max, "
                         "expand_dims, splat constants)");
}

/// Converts the body of `func` (one block of relay operators ending in a
/// return of one value) into one tcg.kernel.
LogicalResult convertFunction(func::FuncOp func) {
  Block &body = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!ret || ret.getNumOperands() != 1)
    return func.emitOpError("returns ") << (ret ? ret.getNumOperands() : 0)
                                        << " values; a tcg.kernel has one";
  for (Operation &op : body.without_terminator()) {
    if (!isa<relay::RelayDialect>(op.getDialect()) || op.getNumResults() != 1 ||
        !isa<RankedTensorType>(op.getResult(0).getType()) ||
        !cast<RankedTensorType>(op.getResult(0).getType()).hasStaticShape())
      return op.emitOpError("is not a relay operator with one static tensor "
                            "result; the function is not converted");
  }
  for (BlockArgument argument : body.getArguments())
    if (!cast<RankedTensorType>(argument.getType()).hasStaticShape())
      return func.emitOpError("has an argument of dynamic shape");

  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  OpBuilder builder(ret);
  Location loc = func.getLoc();
  auto resultType = cast<RankedTensorType>(ret.getOperand(0).getType());
  SmallVector<StringRef> argNames;
  SmallVector<std::string> storage;
  for (unsigned k = 0; k < body.getNumArguments(); ++k)
    storage.push_back("arg" + std::to_string(k));
  for (const std::string &name : storage)
    argNames.push_back(name);
  auto kernel = KernelOp::create(builder, loc, resultType,
                                 ValueRange(body.getArguments()),
                                 builder.getStringAttr(func.getSymName()),
                                 builder.getStrArrayAttr(argNames),
                                 StringAttr());
  OpBuilder inner(func.getContext());
  SmallVector<Location> locations(body.getNumArguments(), loc);
  Block *kernelBlock =
      inner.createBlock(&kernel.getBody(), {},
                        TypeRange(body.getArgumentTypes()), locations);
  FusedBuilder fused(inner, loc);
  for (auto [argument, inside] :
       llvm::zip(body.getArguments(), kernelBlock->getArguments()))
    fused.values[argument] = {
        inside,
        AffineMap::getMultiDimIdentityMap(
            cast<RankedTensorType>(inside.getType()).getRank(),
            func.getContext()),
        {}};
  for (Operation *op : ops) {
    if (failed(fused.convert(op))) {
      kernel.erase();
      return failure();
    }
  }
  Value result = ret.getOperand(0);
  Source source = fused.values.lookup(result);
  Value yielded = source.tensor;
  auto producer = yielded ? yielded.getDefiningOp<TensorOp>() : TensorOp();
  if (!producer || !source.map.isIdentity() ||
      producer.getType() != resultType) {
    // A view, an argument or a constant: copied into a computation.
    if (resultType.getRank() == 0) {
      kernel.erase();
      return func.emitOpError("returns a scalar; a tcg computation has at "
                              "least one dimension");
    }
    TensorOp copy = fused.build(
        "copy", resultType.getShape(), resultType.getElementType(), {},
        ScalarOp::Add, [&](ValueRange iterators) {
          return fused.read(result,
                            getDims(resultType.getRank(), func.getContext()),
                            iterators);
        });
    yielded = copy.getResult();
  }
  YieldOp::create(inner, loc, yielded);
  ret->setOperand(0, kernel.getResult());
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return success();
}

struct ConvertRelayFusedToTCGPass
    : public raf::impl::ConvertRelayFusedToTCGBase<
          ConvertRelayFusedToTCGPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> selected;
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      bool named = llvm::is_contained(functions, func.getSymName().str());
      if (functions.empty() ? func->hasAttr("relay.primitive") : named)
        if (!func.isExternal())
          selected.push_back(func);
    }
    for (const std::string &name : functions)
      if (!module.lookupSymbol<func::FuncOp>(name)) {
        module.emitError("--convert-relay-fused-to-tcg: no function named '")
            << name << "'";
        return signalPassFailure();
      }
    bool failedAny = false;
    for (func::FuncOp func : selected)
      failedAny |= failed(convertFunction(func));
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
