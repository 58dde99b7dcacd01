//===- TensorExpr.cpp - tcg kernels <-> tensor expressions ----------------===//

#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "raf/Dialect/TCG/Utils/Computation.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <string>

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

/// The enums have the same cases under the same names.
embed::ScalarOp toEmbed(ScalarOp op) {
  return *embed::symbolizeScalarOp(stringifyScalarOp(op));
}

ScalarOp fromEmbed(embed::ScalarOp op) {
  return *symbolizeScalarOp(embed::stringifyScalarOp(op));
}

template <typename OpT>
embed::Iterator makeIterator(OpT op, bool isReduction, unsigned index) {
  embed::Iterator iterator;
  iterator.Name = op.getIterName()
                      ? op.getIterName()->str()
                      : (isReduction ? "r" : "d") + std::to_string(index);
  iterator.Extent = op.getExtent();
  iterator.IsReduction = isReduction;
  if (std::optional<GemmAxis> axis = op.getGemmAxis())
    iterator.StrictAxis = stringifyGemmAxis(*axis).str();
  return iterator;
}

} // namespace

FailureOr<embed::TensorExpression>
raf::tcg::extractTensorExpr(KernelOp kernel,
                            SmallVectorImpl<unsigned> *inputOperands) {
  auto computations = kernel.getBodyBlock().getOps<TensorOp>();
  unsigned count = std::distance(computations.begin(), computations.end());
  if (count != 1)
    return kernel.emitOpError("holds a sequence of ")
           << count << " computations; a tensor expression describes one";
  FailureOr<Computation> computation =
      analyzeComputation(kernel.getRootTensor());
  if (failed(computation))
    return failure();

  embed::TensorExpression expr;
  expr.Name = kernel.getKernelName().value_or("").str();
  for (auto [index, dim] : llvm::enumerate(computation->dims))
    expr.Iterators.push_back(makeIterator(dim, /*isReduction=*/false, index));
  for (auto [index, reduce] : llvm::enumerate(computation->reductions))
    expr.Iterators.push_back(makeIterator(reduce, /*isReduction=*/true, index));
  if (computation->reduction)
    expr.Reduction = toEmbed(*computation->reduction);

  // The body; `nodeOf` maps each op to its node.
  llvm::DenseMap<Operation *, unsigned> nodeOf;
  for (Operation *op : computation->body) {
    embed::ScalarNode node;
    if (auto input = dyn_cast<InputOp>(op)) {
      // A kernel with one computation only reads its arguments.
      auto argument = cast<BlockArgument>(input.getSource());
      embed::Operand operand;
      operand.Name = kernel.getArgName(argument.getArgNumber());
      RankedTensorType type = input.getSource().getType();
      operand.Shape.assign(type.getShape().begin(), type.getShape().end());
      operand.ElementType = type.getElementType();
      operand.Access = computation->getAccessMap(input);
      if (input.hasView()) {
        // The struct takes each list complete or empty; spell out the
        // defaults of the attributes that are absent.
        unsigned rank = type.getRank();
        auto list = [&](std::optional<ArrayRef<int64_t>> values, int64_t fill) {
          return values ? SmallVector<int64_t>(*values)
                        : SmallVector<int64_t>(rank, fill);
        };
        operand.PadLow = list(input.getPadLow(), 0);
        operand.PadHigh = list(input.getPadHigh(), 0);
        operand.Dilation = list(input.getDilation(), 1);
      }
      node.IsInput = true;
      node.Input = expr.Inputs.size();
      if (inputOperands)
        inputOperands->push_back(argument.getArgNumber());
      expr.Inputs.push_back(std::move(operand));
    } else if (auto compute = dyn_cast<ComputeOp>(op)) {
      node.IsInput = false;
      node.Op = toEmbed(compute.getKind());
      node.Lhs = nodeOf.lookup(compute.getLhs().getDefiningOp());
      node.Rhs = compute.getRhs()
                     ? nodeOf.lookup(compute.getRhs().getDefiningOp())
                     : node.Lhs;
    } else {
      // A tensor expression reads operands only; the top-down embedding
      // (--tcg-topdown-embed) reads the kernel itself.
      return op->emitOpError("is not modelled by a tensor expression (no "
                             "constants); the dataflow embedding cannot read "
                             "this kernel");
    }
    nodeOf[op] = expr.Body.size();
    expr.Body.push_back(node);
  }

  RankedTensorType resultType = kernel.getType();
  expr.Output.Name = kernel.getResultNameOrDefault().str();
  expr.Output.Shape.assign(resultType.getShape().begin(),
                           resultType.getShape().end());
  expr.Output.ElementType = resultType.getElementType();
  // The projection onto the parallel iterators, which come first.
  SmallVector<AffineExpr> outputIndices;
  for (unsigned i = 0, e = resultType.getRank(); i != e; ++i)
    outputIndices.push_back(getAffineDimExpr(i, kernel.getContext()));
  expr.Output.Access = AffineMap::get(expr.Iterators.size(), 0, outputIndices,
                                      kernel.getContext());

  // The verifiers guarantee the struct's invariants; checking them keeps a
  // mismatch between the two from reaching the embedding silently.
  std::string error;
  if (!expr.verify(error))
    return kernel.emitOpError("does not give a valid tensor expression: ")
           << error;
  return expr;
}

namespace {

/// Whether a `from` value widens to `to` as tcg.compute allows.
bool widensTo(Type from, Type to) {
  if (from == to)
    return true;
  return isa<IntegerType>(from) == isa<IntegerType>(to) &&
         from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth();
}

} // namespace

FailureOr<KernelOp> raf::tcg::buildKernel(OpBuilder &builder, Location loc,
                                          const embed::TensorExpression &expr,
                                          ValueRange operands,
                                          ArrayRef<unsigned> inputOperands) {
  std::string error;
  if (!expr.verify(error))
    return emitError(loc, "invalid tensor expression: ") << error;
  if (inputOperands.size() != expr.Inputs.size())
    return emitError(loc, "expected one operand index per input, got ")
           << inputOperands.size() << " for " << expr.Inputs.size();
  Type element = expr.Output.ElementType;
  if (!isa<IntegerType, FloatType>(element) ||
      (isa<IntegerType>(element) && !element.isSignlessInteger()))
    return emitError(loc, "the output element type must be a signless "
                          "integer or a float, got ")
           << element;
  SmallVector<std::string> argNames(operands.size());
  for (auto [input, operandIndex] : llvm::zip(expr.Inputs, inputOperands)) {
    if (operandIndex >= operands.size())
      return emitError(loc, "input '")
             << input.Name << "' reads operand #" << operandIndex << " of "
             << operands.size();
    auto type = dyn_cast<RankedTensorType>(operands[operandIndex].getType());
    if (!type || type.getShape() != ArrayRef<int64_t>(input.Shape) ||
        type.getElementType() != input.ElementType)
      return emitError(loc, "input '")
             << input.Name << "' does not match operand #" << operandIndex
             << " of type " << operands[operandIndex].getType();
    if (!widensTo(input.ElementType, element))
      return emitError(loc, "input '")
             << input.Name << "' of element type " << input.ElementType
             << " does not widen to the output element type " << element;
    if (argNames[operandIndex].empty())
      argNames[operandIndex] = input.Name;
  }
  // A body of one read yields the read value: it must already have the
  // output's type (there is no conversion node).
  const embed::ScalarNode &last = expr.Body.back();
  if (last.IsInput && expr.Inputs[last.Input].ElementType != element)
    return emitError(loc, "the body is a single read of element type ")
           << expr.Inputs[last.Input].ElementType
           << ", which differs from the output element type " << element;

  MLIRContext *context = builder.getContext();
  auto resultType = RankedTensorType::get(expr.Output.Shape, element);
  StringAttr name =
      expr.Name.empty() ? StringAttr() : builder.getStringAttr(expr.Name);
  SmallVector<StringRef> argNameRefs;
  for (auto [index, argName] : llvm::enumerate(argNames)) {
    // An operand no input reads keeps the default name.
    if (argName.empty())
      argName = "in" + std::to_string(index);
    argNameRefs.push_back(argName);
  }
  auto kernel = KernelOp::create(builder, loc, resultType, operands, name,
                                 builder.getStrArrayAttr(argNameRefs),
                                 expr.Output.Name.empty()
                                     ? StringAttr()
                                     : builder.getStringAttr(expr.Output.Name));

  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Location> locations(operands.size(), loc);
  Block *kernelBlock = builder.createBlock(
      &kernel.getBody(), {}, TypeRange(operands.getTypes()), locations);

  // The tensor nest, then the reductions; each body block receives its
  // iterator.
  SmallVector<Operation *> nest;
  SmallVector<Value> iterators;
  auto optionalString = [&](const std::string &text) {
    return text.empty() ? StringAttr() : builder.getStringAttr(text);
  };
  // An embed::Iterator's strict axis is the name of an intrinsic iterator,
  // which for the GEMM cores is a GemmAxis.
  auto optionalAxis = [&](const std::string &text) {
    std::optional<GemmAxis> axis = symbolizeGemmAxis(text);
    return axis ? GemmAxisAttr::get(context, *axis) : GemmAxisAttr();
  };
  unsigned numParallel = expr.getNumParallel();
  for (auto [index, iterator] : llvm::enumerate(expr.Iterators)) {
    Operation *op;
    Region *body;
    if (index < numParallel) {
      auto type = RankedTensorType::get(
          ArrayRef<int64_t>(expr.Output.Shape).drop_front(index), element);
      auto tensor = TensorOp::create(
          builder, loc, type, builder.getI64IntegerAttr(0),
          builder.getI64IntegerAttr(iterator.Extent),
          optionalString(iterator.Name), optionalAxis(iterator.StrictAxis));
      op = tensor;
      body = &tensor.getBody();
    } else {
      auto reduce = ReduceOp::create(
          builder, loc, element,
          ScalarOpAttr::get(context, fromEmbed(*expr.Reduction)),
          builder.getI64IntegerAttr(0),
          builder.getI64IntegerAttr(iterator.Extent),
          optionalString(iterator.Name), optionalAxis(iterator.StrictAxis));
      op = reduce;
      body = &reduce.getBody();
    }
    nest.push_back(op);
    Block *block =
        builder.createBlock(body, {}, {builder.getIndexType()}, {loc});
    iterators.push_back(block->getArgument(0));
  }

  // The body, at the innermost level.
  SmallVector<Value> nodes;
  for (const embed::ScalarNode &node : expr.Body) {
    if (node.IsInput) {
      const embed::Operand &input = expr.Inputs[node.Input];
      Value source = kernelBlock->getArgument(inputOperands[node.Input]);
      // View attributes that only hold their default are left out.
      auto attribute = [](ArrayRef<int64_t> values, int64_t fill) {
        return llvm::all_of(values, [&](int64_t v) { return v == fill; })
                   ? ArrayRef<int64_t>()
                   : values;
      };
      nodes.push_back(InputOp::create(builder, loc, source, iterators,
                                      input.Access, attribute(input.PadLow, 0),
                                      attribute(input.PadHigh, 0),
                                      attribute(input.Dilation, 1)));
      continue;
    }
    nodes.push_back(ComputeOp::create(
        builder, loc, element, ScalarOpAttr::get(context, fromEmbed(node.Op)),
        nodes[node.Lhs],
        embed::isUnaryScalarOp(node.Op) ? Value() : nodes[node.Rhs]));
  }

  // Each level yields what the level inside produced.
  YieldOp::create(builder, loc, nodes.back());
  for (Operation *op : llvm::reverse(nest)) {
    builder.setInsertionPointAfter(op);
    YieldOp::create(builder, loc, op->getResult(0));
  }
  return kernel;
}
