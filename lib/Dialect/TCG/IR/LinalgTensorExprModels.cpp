//===- LinalgTensorExprModels.cpp - linalg ops as tensor expressions ------===//
//
// tcg::TensorExprOpInterface for linalg on tensors, as torch-mlir and IREE
// emit it. One model covers every structured op with two inputs and one
// output whose body multiplies the inputs (each possibly widened with
// arith.extf / arith.extsi) and accumulates into the output:
//
//   out[f_out(i)] += in0[f_0(i)] * in1[f_1(i)]
//
// This is the form of linalg's named convolutions (conv_2d_nchw_fchw,
// conv_2d_nhwc_hwcf, depthwise_conv_2d_nchw_chw, ...), matmul and
// batch_matmul (their opdsl bodies), and of a linalg.generic written that
// way. The tensor expression (Rieber 2022, Eq. 2.6) has the parallel loops
// in the order the output's indexing map lists them (it must be a
// permutation of them), then the reduction loops; the inputs' indexing maps
// become the accesses.
//
// Iterator names and GEMM axes follow linalg's own classification of the
// loops, so that a linalg convolution or matmul reads like the relay
// operator it came from (lib/Conversion/RelayToTCG): for a convolution
// (linalg::inferConvolutionDims) batch n -> x, output channel oc -> y,
// input channel ic -> z (TVM's VTA conv2d strategy), output image oh, ow,
// filter kh, kw, with the input-channel reduction before the filter loops;
// for a contraction (linalg::inferContractionDims) m -> x, n -> y, k -> z.
//
// An input produced by a tensor.pad of constant zero with static amounts is
// read through a zero-padded view of the pad's source (TensorExpression's
// PadLow / PadHigh), which is how torch-mlir pads a convolution's input and
// how relay's conv2d models its padding.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/IR/TCGInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Matchers.h"

#include <string>

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

/// The block argument `value` is, looking through one widening cast.
BlockArgument stripWidening(Value value) {
  if (Operation *def = value.getDefiningOp())
    if (isa<arith::ExtFOp, arith::ExtSIOp>(def))
      value = def->getOperand(0);
  return dyn_cast<BlockArgument>(value);
}

/// Whether `op` has two inputs, one output and the body
/// `yield(add(out, mul(in0, in1)))` (either operand order; each input
/// possibly widened; float or integer arithmetic, not mixed).
bool isMultiplyAccumulate(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op->getNumResults() > 1 || op->getNumRegions() != 1 ||
      op->getRegion(0).empty())
    return false;
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  Operation *add = yield.getOperand(0).getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add) ||
      add->getBlock() != body)
    return false;
  BlockArgument out = body->getArgument(2);
  Value product;
  if (add->getOperand(0) == out)
    product = add->getOperand(1);
  else if (add->getOperand(1) == out)
    product = add->getOperand(0);
  else
    return false;
  Operation *mul = product.getDefiningOp();
  bool isFloat = isa<arith::AddFOp>(add);
  if (!mul || mul->getBlock() != body ||
      !(isFloat ? isa<arith::MulFOp>(mul) : isa<arith::MulIOp>(mul)))
    return false;
  BlockArgument lhs = stripWidening(mul->getOperand(0));
  BlockArgument rhs = stripWidening(mul->getOperand(1));
  if (!lhs || !rhs || lhs.getOwner() != body || rhs.getOwner() != body)
    return false;
  unsigned l = lhs.getArgNumber(), r = rhs.getArgNumber();
  if (!((l == 0 && r == 1) || (l == 1 && r == 0)))
    return false;
  // Nothing else in the body (the casts, the product, the sum, the yield).
  return llvm::all_of(body->getOperations(), [&](Operation &nested) {
    return &nested == mul || &nested == add || &nested == yield ||
           isa<arith::ExtFOp, arith::ExtSIOp>(nested);
  });
}

/// Whether `type` is a scalar type tcg computes on.
bool isTCGScalar(Type type) {
  return type.isSignlessInteger() || isa<FloatType>(type);
}

/// Names (and GEMM axes) of a linalg op's loops.
struct LoopNames {
  SmallVector<std::string> names;
  SmallVector<std::string> axes;
  /// Reductions are ordered by (key, loop): the input channel before the
  /// filter loops, as relay's convolution has them.
  SmallVector<int> reductionKey;

  explicit LoopNames(unsigned numLoops)
      : names(numLoops), axes(numLoops), reductionKey(numLoops, 1) {
    for (unsigned loop = 0; loop != numLoops; ++loop)
      names[loop] = "d" + std::to_string(loop);
  }

  /// Names `loops` `base` (one loop) or `base<i>`.
  void name(ArrayRef<unsigned> loops, StringRef base) {
    for (auto [index, loop] : llvm::enumerate(loops))
      names[loop] =
          loops.size() == 1 ? base.str() : base.str() + std::to_string(index);
  }
  /// Names spatial `loops` `prefix` followed by h, w (d, h, w for three).
  void nameSpatial(ArrayRef<unsigned> loops, StringRef prefix) {
    static const char *letters[] = {"d", "h", "w"};
    if (loops.size() > 3)
      return name(loops, prefix);
    for (auto [index, loop] : llvm::enumerate(loops))
      names[loop] = prefix.str() + letters[3 - loops.size() + index];
  }
  /// Maps the innermost of `loops` to GEMM axis `axis`.
  void setAxis(ArrayRef<unsigned> loops, StringRef axis) {
    if (!loops.empty())
      axes[loops.back()] = axis.str();
  }
};

/// Names of the loops and the operands of `op` after linalg's
/// classification: a convolution, a contraction, or neither.
LoopNames classifyLoops(linalg::LinalgOp op,
                        SmallVectorImpl<std::string> &inputNames) {
  LoopNames loops(op.getNumLoops());
  if (FailureOr<linalg::ConvolutionDimensions> conv =
          linalg::inferConvolutionDims(op);
      succeeded(conv)) {
    loops.name(conv->batch, "n");
    // A depthwise convolution's channel is a "depth" loop (in the input,
    // the filter and the output), which relay calls the output channel.
    SmallVector<unsigned> channels(conv->outputChannel.begin(),
                                   conv->outputChannel.end());
    channels.append(conv->depth.begin(), conv->depth.end());
    llvm::sort(channels);
    loops.name(channels, "oc");
    loops.nameSpatial(conv->outputImage, "o");
    loops.nameSpatial(conv->filterLoop, "k");
    loops.name(conv->inputChannel, "ic");
    loops.setAxis(conv->batch, "x");
    loops.setAxis(channels, "y");
    loops.setAxis(conv->inputChannel, "z");
    for (unsigned loop : conv->inputChannel)
      loops.reductionKey[loop] = 0;
    inputNames.assign({"data", "weight"});
    return loops;
  }
  if (FailureOr<linalg::ContractionDimensions> contraction =
          linalg::inferContractionDims(op);
      succeeded(contraction)) {
    loops.name(contraction->batch, "batch");
    loops.name(contraction->m, "m");
    loops.name(contraction->n, "n");
    loops.name(contraction->k, "k");
    loops.setAxis(contraction->m, "x");
    loops.setAxis(contraction->n, "y");
    loops.setAxis(contraction->k, "z");
    inputNames.assign({"a", "b"});
    return loops;
  }
  inputNames.assign({"in0", "in1"});
  return loops;
}

/// The view through which the kernel reads `value`: a tensor.pad of
/// constant zero with static, non-negative amounts becomes a padded view of
/// its source. Returns the value read and sets `low` / `high` (empty: no
/// view).
Value foldZeroPad(Value value, SmallVectorImpl<int64_t> &low,
                  SmallVectorImpl<int64_t> &high) {
  auto pad = value.getDefiningOp<tensor::PadOp>();
  if (!pad || pad.getNofold())
    return value;
  Value padValue = pad.getConstantPaddingValue();
  if (!padValue || !(matchPattern(padValue, m_AnyZeroFloat()) ||
                     matchPattern(padValue, m_Zero())))
    return value;
  auto sourceType = dyn_cast<RankedTensorType>(pad.getSource().getType());
  if (!sourceType || !sourceType.hasStaticShape())
    return value;
  SmallVector<int64_t> padLow, padHigh;
  for (OpFoldResult amount : pad.getMixedLowPad()) {
    std::optional<int64_t> constant = getConstantIntValue(amount);
    if (!constant || *constant < 0)
      return value;
    padLow.push_back(*constant);
  }
  for (OpFoldResult amount : pad.getMixedHighPad()) {
    std::optional<int64_t> constant = getConstantIntValue(amount);
    if (!constant || *constant < 0)
      return value;
    padHigh.push_back(*constant);
  }
  low.assign(padLow);
  high.assign(padHigh);
  return pad.getSource();
}

FailureOr<TensorExprForm>
getLinalgTensorExprForm(linalg::LinalgOp op,
                        function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&]() -> InFlightDiagnostic {
    return std::move(emitError() << "cannot be expressed as a tcg.kernel: ");
  };
  if (!op.hasPureTensorSemantics())
    return fail() << "it works on buffers; a tcg.kernel computes a tensor";
  if (!isMultiplyAccumulate(op))
    return fail() << "its body is not a multiply-accumulate of its two "
                     "inputs into its output (out += in0 * in1, inputs "
                     "possibly widened with arith.extf or arith.extsi)";
  for (auto [index, value] : llvm::enumerate(op->getOperands())) {
    auto type = cast<RankedTensorType>(value.getType());
    if (!type.hasStaticShape())
      return fail() << "operand #" << index << " has a dynamic shape ("
                    << type << ")";
    // An empty operand leaves an empty iteration domain.
    if (type.getNumElements() == 0)
      return fail() << "operand #" << index << " is empty (" << type << ")";
    if (!isTCGScalar(type.getElementType()))
      return fail() << "operand #" << index << " has element type "
                    << type.getElementType()
                    << "; tcg computes on signless integers and floats";
  }

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iteratorTypes =
      op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  if (llvm::any_of(maps, [](AffineMap map) { return map.getNumSymbols(); }))
    return fail() << "an indexing map has symbols";

  // New order: the parallel loops as the output lists them, then the
  // reductions.
  AffineMap outputMap = maps[2];
  SmallVector<unsigned> order;
  llvm::SmallBitVector seen(numLoops);
  for (AffineExpr result : outputMap.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim || seen.test(dim.getPosition()) ||
        iteratorTypes[dim.getPosition()] != utils::IteratorType::parallel)
      return fail() << "its output is not indexed by a permutation of its "
                       "parallel loops (indexing map "
                    << AffineMapAttr::get(outputMap) << ")";
    seen.set(dim.getPosition());
    order.push_back(dim.getPosition());
  }
  if (order.size() !=
      static_cast<size_t>(llvm::count(iteratorTypes,
                                      utils::IteratorType::parallel)))
    return fail() << "its output is not indexed by a permutation of its "
                     "parallel loops (indexing map "
                  << AffineMapAttr::get(outputMap) << ")";

  SmallVector<std::string> inputNames;
  LoopNames loops = classifyLoops(op, inputNames);
  SmallVector<unsigned> reductions;
  for (unsigned loop = 0; loop != numLoops; ++loop)
    if (iteratorTypes[loop] == utils::IteratorType::reduction)
      reductions.push_back(loop);
  llvm::stable_sort(reductions, [&](unsigned a, unsigned b) {
    return loops.reductionKey[a] < loops.reductionKey[b];
  });
  order.append(reductions);

  MLIRContext *context = op.getContext();
  SmallVector<AffineExpr> newDims(numLoops);
  for (auto [position, loop] : llvm::enumerate(order))
    newDims[loop] = getAffineDimExpr(position, context);

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  TensorExprForm form;
  embed::TensorExpression &expr = form.expr;
  expr.Name = op->getName().getStringRef().str();
  for (unsigned loop : order) {
    embed::Iterator iterator;
    iterator.Name = loops.names[loop];
    iterator.Extent = ranges[loop];
    iterator.IsReduction =
        iteratorTypes[loop] == utils::IteratorType::reduction;
    iterator.StrictAxis = loops.axes[loop];
    expr.Iterators.push_back(std::move(iterator));
  }
  for (unsigned index = 0; index != 2; ++index) {
    embed::Operand input;
    input.Name = inputNames[index];
    Value value = foldZeroPad(op.getDpsInputs()[index], input.PadLow,
                              input.PadHigh);
    auto type = cast<RankedTensorType>(value.getType());
    input.Shape.assign(type.getShape().begin(), type.getShape().end());
    input.ElementType = type.getElementType();
    SmallVector<AffineExpr> indices;
    for (AffineExpr result : maps[index].getResults())
      indices.push_back(result.replaceDims(newDims));
    input.Access = AffineMap::get(numLoops, 0, indices, context);
    expr.Inputs.push_back(std::move(input));
    form.inputs.push_back(value);
  }
  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  expr.Output.Name = "out";
  expr.Output.Shape.assign(initType.getShape().begin(),
                           initType.getShape().end());
  expr.Output.ElementType = initType.getElementType();
  SmallVector<AffineExpr> outputIndices;
  for (unsigned dim = 0, e = initType.getRank(); dim != e; ++dim)
    outputIndices.push_back(getAffineDimExpr(dim, context));
  expr.Output.Access = AffineMap::get(numLoops, 0, outputIndices, context);
  form.init = init;

  expr.setMultiplyAccumulateBody();

  std::string error;
  if (!expr.verify(error))
    return fail() << error;
  return form;
}

/// Named ops: always candidates, so that one that cannot be expressed
/// (dynamic shapes, a quantized variant) is reported.
template <typename OpT>
struct NamedOpModel
    : public TensorExprOpInterface::ExternalModel<NamedOpModel<OpT>, OpT> {
  FailureOr<TensorExprForm>
  getTensorExprForm(Operation *op,
                    function_ref<InFlightDiagnostic()> emitError) const {
    return getLinalgTensorExprForm(cast<linalg::LinalgOp>(op), emitError);
  }
};

/// linalg.generic: a candidate only when its body is a multiply-accumulate
/// (an element-wise generic is silently not one).
struct GenericOpModel
    : public TensorExprOpInterface::ExternalModel<GenericOpModel,
                                                  linalg::GenericOp> {
  bool isTensorExprCandidate(Operation *op) const {
    return isMultiplyAccumulate(cast<linalg::LinalgOp>(op));
  }
  FailureOr<TensorExprForm>
  getTensorExprForm(Operation *op,
                    function_ref<InFlightDiagnostic()> emitError) const {
    return getLinalgTensorExprForm(cast<linalg::LinalgOp>(op), emitError);
  }
};

template <typename... OpTs>
void attachNamedModels(MLIRContext *context) {
  (OpTs::template attachInterface<NamedOpModel<OpTs>>(*context), ...);
}

} // namespace

void raf::tcg::registerLinalgTensorExprModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    attachNamedModels<
        linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp,
        linalg::Conv2DNhwcFhwcOp, linalg::DepthwiseConv2DNchwChwOp,
        linalg::DepthwiseConv2DNhwcHwcOp, linalg::Conv1DNwcWcfOp,
        linalg::MatmulOp, linalg::BatchMatmulOp, linalg::MatvecOp>(context);
    linalg::GenericOp::attachInterface<GenericOpModel>(*context);
  });
}
