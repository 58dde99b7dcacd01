//===- ApplyStrategy.cpp - --tcg-apply-strategy ---------------------------===//
//
// Replays the strategy of an embedding (Strategy.h) as relay layout
// rewrites around a packed tcg.kernel.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"
#include "raf/Dialect/TCG/TopDown/Matcher.h"
#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"
#include "raf/Dialect/TCG/Transforms/Strategy.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGAPPLYSTRATEGY
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

/// Emits one layout operation on `value`.
Value emitLayoutOp(OpBuilder &b, Location loc, Value value,
                   const LayoutOp &op) {
  auto type = cast<RankedTensorType>(value.getType());
  auto resultType =
      RankedTensorType::get(op.resultShape, type.getElementType());
  switch (op.kind) {
  case LayoutOp::Kind::Pad:
    return relay::PadOp::create(b, loc, resultType, value, op.padWidth,
                                APFloat(op.padValue),
                                relay::PadMode::Constant);
  case LayoutOp::Kind::Take: {
    // 32-bit indices unless the source is too large for them.
    int64_t largest = 0;
    for (int64_t v : op.indices)
      largest = std::max(largest, v);
    Type indexElement =
        largest < (int64_t(1) << 31) ? b.getI32Type() : b.getI64Type();
    auto indexType = RankedTensorType::get(op.indexShape, indexElement);
    SmallVector<APInt> values;
    values.reserve(op.indices.size());
    for (int64_t v : op.indices)
      values.push_back(APInt(indexElement.getIntOrFloatBitWidth(), v,
                             /*isSigned=*/true));
    Value indices = relay::ConstantOp::create(
        b, loc, indexType, DenseElementsAttr::get(indexType, values));
    IntegerAttr axis = op.axis ? b.getI64IntegerAttr(*op.axis) : IntegerAttr();
    return relay::TakeOp::create(b, loc, resultType, value, indices, axis,
                                 relay::TakeMode::Clip);
  }
  case LayoutOp::Kind::StridedSlice:
    return relay::StridedSliceOp::create(
        b, loc, resultType, value, op.begin, op.end,
        b.getDenseI64ArrayAttr(op.strides), /*axes=*/nullptr);
  case LayoutOp::Kind::Reshape:
    // A split directly followed by a fuse is one reshape (only reshapes
    // emitted here have no use yet).
    if (auto previous = value.getDefiningOp<relay::ReshapeOp>();
        previous && previous->use_empty()) {
      Value source = previous.getX();
      previous->erase();
      return relay::ReshapeOp::create(b, loc, resultType, source,
                                      op.resultShape);
    }
    return relay::ReshapeOp::create(b, loc, resultType, value, op.resultShape);
  case LayoutOp::Kind::Transpose:
    return relay::TransposeOp::create(b, loc, resultType, value,
                                      b.getDenseI64ArrayAttr(op.permutation));
  }
  return value;
}

/// Beyond this many elements a constant operand is rewritten at run time
/// rather than packed into a new constant.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 24;

/// The packed form of a constant operand (a weight), computed here: the
/// dissertation's weight rewrites fold away at compile time, only the
/// activations' run on the host.
Value foldConstant(OpBuilder &b, Location loc, DenseElementsAttr stored,
                   const OperandStrategy &operand) {
  auto storedType = cast<RankedTensorType>(stored.getType());
  SmallVector<int64_t> packedShape(storedType.getShape());
  for (const LayoutRewrite &rewrite : operand.rewrites)
    if (!rewrite.ops.empty())
      packedShape = rewrite.ops.back().resultShape;
  auto packedType =
      RankedTensorType::get(packedShape, storedType.getElementType());
  if (packedType.getNumElements() > kMaxFoldedElements)
    return {};
  std::vector<int64_t> positions =
      replayLayout(operand.rewrites, storedType.getShape());
  DenseElementsAttr packed;
  Type element = storedType.getElementType();
  if (auto integer = dyn_cast<IntegerType>(element)) {
    SmallVector<APInt> values(stored.getValues<APInt>());
    SmallVector<APInt> result;
    result.reserve(positions.size());
    for (int64_t p : positions)
      result.push_back(p < 0 ? APInt(integer.getWidth(), 0) : values[p]);
    packed = DenseElementsAttr::get(packedType, result);
  } else if (auto floating = dyn_cast<FloatType>(element)) {
    SmallVector<APFloat> values(stored.getValues<APFloat>());
    SmallVector<APFloat> result;
    result.reserve(positions.size());
    for (int64_t p : positions)
      result.push_back(p < 0 ? APFloat::getZero(floating.getFloatSemantics())
                             : values[p]);
    packed = DenseElementsAttr::get(packedType, result);
  } else {
    return {};
  }
  return relay::ConstantOp::create(b, loc, packedType, packed);
}

/// The most a VTA load pads on each side of a dimension (the 4-bit
/// y_pad_0/1 and x_pad_0/1 fields of TVM-VTA's hw_spec.h).
constexpr int64_t kVTAPadLimit = 15;

/// Padding on the fly (TVM-VTA's load module writes the zero border of an
/// input tile with the LOAD's y/x pad fields, so the host never stores a
/// padded copy): moves the zero pad of `operand`'s view (rule View, Rieber
/// 2022 Tab. 4.1) from the front of its rewrites into the packed kernel's
/// read, `packed`, as pad_low/pad_high of the packed dimensions the padded
/// ones become. This works when the later rewrites carry every padded
/// dimension through unchanged (not padded again, sliced, gathered, split
/// or fused) and the padding lands on the two innermost row dimensions of
/// the packed input within the pad fields. Returns std::nullopt when
/// `operand` has no padded view, "" when the pad moved, and otherwise why
/// it stays on the host (nothing is changed then).
std::optional<std::string> padOnTheFly(OperandStrategy &operand,
                                       embed::Operand &packed) {
  auto view = llvm::find_if(operand.rewrites, [](const LayoutRewrite &r) {
    return r.rule == StrategyRule::View;
  });
  if (view == operand.rewrites.end())
    return std::nullopt;
  if (view != operand.rewrites.begin() || view->ops.size() != 1 ||
      view->ops.front().kind != LayoutOp::Kind::Pad)
    return std::string("the view is dilated, which a load cannot do");
  const LayoutOp &pad = view->ops.front();
  // Per padded dimension: its position in the current tensor, its stored
  // extent and the padding on each side.
  struct Tracked {
    int64_t dim, size, low, high;
  };
  SmallVector<Tracked> tracked;
  for (unsigned k = 0, e = pad.inputShape.size(); k != e; ++k)
    if (pad.padWidth[2 * k] != 0 || pad.padWidth[2 * k + 1] != 0)
      tracked.push_back({k, pad.inputShape[k], pad.padWidth[2 * k],
                         pad.padWidth[2 * k + 1]});
  auto trackedAt = [&](int64_t dim) -> Tracked * {
    for (Tracked &t : tracked)
      if (t.dim == dim)
        return &t;
    return nullptr;
  };
  auto unpadded = [&](SmallVector<int64_t> shape) {
    for (const Tracked &t : tracked)
      shape[t.dim] = t.size;
    return shape;
  };

  std::vector<LayoutRewrite> rewrites(std::next(view), operand.rewrites.end());
  for (LayoutRewrite &rewrite : rewrites) {
    for (LayoutOp &op : rewrite.ops) {
      std::string rule = stringifyStrategyRule(rewrite.rule).str();
      SmallVector<int64_t> in = op.inputShape;
      op.inputShape = unpadded(op.inputShape);
      switch (op.kind) {
      case LayoutOp::Kind::Pad:
        for (const Tracked &t : tracked)
          if (op.padWidth[2 * t.dim] != 0 || op.padWidth[2 * t.dim + 1] != 0)
            return "the " + rule + " rewrite pads padded dimension " +
                   std::to_string(t.dim) + " again";
        break;
      case LayoutOp::Kind::StridedSlice:
        for (const Tracked &t : tracked) {
          if (op.begin[t.dim] != 0 || op.strides[t.dim] != 1 ||
              op.end[t.dim] != t.size + t.low + t.high)
            return "the " + rule + " rewrite slices padded dimension " +
                   std::to_string(t.dim);
          op.end[t.dim] = t.size;
        }
        break;
      case LayoutOp::Kind::Take: {
        if (!op.axis || trackedAt(*op.axis))
          return "the " + rule + " rewrite gathers along a padded dimension";
        int64_t grown = static_cast<int64_t>(op.indexShape.size()) - 1;
        for (Tracked &t : tracked)
          if (t.dim > *op.axis)
            t.dim += grown;
        break;
      }
      case LayoutOp::Kind::Transpose:
        for (Tracked &t : tracked)
          t.dim = llvm::find(op.permutation, t.dim) - op.permutation.begin();
        break;
      case LayoutOp::Kind::Reshape: {
        // A padded dimension survives a reshape when a result dimension of
        // the same extent starts at the same flat stride, i.e. after
        // dimensions of the same product.
        ArrayRef<int64_t> out = op.resultShape;
        for (Tracked &t : tracked) {
          int64_t before = 1;
          for (int64_t k = 0; k != t.dim; ++k)
            before *= in[k];
          int64_t outBefore = 1, found = -1;
          for (int64_t j = 0, e = out.size(); j != e && outBefore <= before;
               outBefore *= out[j], ++j)
            if (outBefore == before && out[j] == t.size + t.low + t.high) {
              found = j;
              break;
            }
          if (found < 0)
            return "the " + rule +
                   " rewrite reshapes padded dimension " +
                   std::to_string(t.dim) + " with others";
          t.dim = found;
        }
        break;
      }
      }
      op.resultShape = unpadded(op.resultShape);
    }
  }

  int64_t rank = packed.Shape.size();
  for (const Tracked &t : tracked) {
    if (t.dim != rank - 4 && t.dim != rank - 3)
      return "the padding lands on packed dimension " + std::to_string(t.dim) +
             " of " + std::to_string(rank) +
             "; loads pad only the two innermost row dimensions";
    if (t.low > kVTAPadLimit || t.high > kVTAPadLimit)
      return "the padding " + std::to_string(t.low) + " and " +
             std::to_string(t.high) + " exceeds the load's pad fields (0 to " +
             std::to_string(kVTAPadLimit) + ")";
  }

  operand.rewrites = std::move(rewrites);
  packed.PadLow.assign(rank, 0);
  packed.PadHigh.assign(rank, 0);
  packed.Dilation.assign(rank, 1);
  for (const Tracked &t : tracked) {
    packed.Shape[t.dim] = t.size;
    packed.PadLow[t.dim] = t.low;
    packed.PadHigh[t.dim] = t.high;
  }
  return std::string();
}

struct TCGApplyStrategyPass
    : public raf::tcg::impl::TCGApplyStrategyBase<TCGApplyStrategyPass> {
  using Base::Base;

  LogicalResult apply(KernelOp kernel, EmbeddingAttr attr);

  void runOnOperation() override {
    SmallVector<std::pair<KernelOp, EmbeddingAttr>> kernels;
    getOperation().walk([&](KernelOp kernel) {
      if (auto attr = kernel->getAttrOfType<EmbeddingAttr>(
              TCGDialect::kEmbeddingAttrName))
        kernels.push_back({kernel, attr});
    });
    bool failedAny = false;
    for (auto [kernel, attr] : kernels)
      failedAny |= failed(apply(kernel, attr));
    if (failedAny)
      signalPassFailure();
  }
};

LogicalResult TCGApplyStrategyPass::apply(KernelOp kernel, EmbeddingAttr attr) {
  MLIRContext *context = kernel.getContext();
  SmallVector<unsigned> inputOperands;
  FailureOr<embed::TensorExpression> expr =
      extractTensorExpr(kernel, &inputOperands);
  if (failed(expr))
    return failure();
  StringAttr intrinsicName = attr.getIntrinsic();
  ArrayRef<EmbeddingCandidateAttr> candidates = attr.getCandidates();
  // A user intrinsic (intrinsics=path) is read from the same file the
  // embedding was found with.
  FailureOr<embed::TensorExpression> intrinsic = lookupIntrinsic(
      context, intrinsicsFile, intrinsicName.getValue(), kernel.getLoc());
  if (failed(intrinsic))
    return failure();
  FailureOr<TensorizeAttr> tensorize = lookupTensorize(
      context, intrinsicsFile, intrinsicName.getValue(), kernel.getLoc());
  if (failed(tensorize))
    return failure();
  unsigned index = candidate;
  if (index >= candidates.size())
    return kernel.emitError() << "--tcg-apply-strategy: candidate " << index
                              << " does not exist (the embedding has "
                              << candidates.size() << " candidate(s))";
  embed::Embedding emb;
  std::string error;
  if (!decodeEmbedding(candidates[index], *expr, *intrinsic, emb, error))
    return kernel.emitError()
           << "candidate " << index << " of the embedding of '"
           << intrinsicName.getValue()
           << "' does not fit the kernel: " << error;
  // A multi-interval or variable-size intrinsic (Rieber 2022, §3.1.2) is
  // instantiated at the sizes the candidate maps.
  OwningOpRef<ModuleOp> library;
  FailureOr<KernelOp> intrinsicKernel = lookupIntrinsicKernel(
      context, intrinsicsFile, intrinsicName.getValue(), kernel.getLoc(),
      library);
  if (failed(intrinsicKernel))
    return failure();
  if (!topdown::instantiateForEmbedding(*intrinsicKernel, emb, *intrinsic,
                                        error))
    return kernel.emitError() << "candidate " << index
                              << " of the embedding of '"
                              << intrinsicName.getValue()
                              << "' does not fit the kernel: " << error;
  Strategy strategy;
  if (!deriveStrategy(*expr, *intrinsic, emb, strategy, error))
    return kernel.emitError()
           << "cannot derive the strategy of '" << intrinsicName.getValue()
           << "' (candidate " << index << "): " << error;

  // Padding on the fly for VTA: the GEMM's input is the intrinsic's first
  // operand (a[x, z]), the only one a load pads.
  if (padOnTheFlyOption && tensorize->getTarget() &&
      tensorize->getTarget().getValue() == "vta") {
    unsigned packedIndex = 0;
    for (OperandStrategy &operand : strategy.operands) {
      if (operand.input < 0)
        continue;
      unsigned current = packedIndex++;
      if (operand.intrinsicOperand != intrinsic->Inputs.front().Name)
        continue;
      std::optional<std::string> reason =
          padOnTheFly(operand, strategy.packed.Inputs[current]);
      if (reason && !reason->empty())
        kernel.emitRemark() << "--tcg-apply-strategy: padding operand '"
                            << operand.name << "' on the host: " << *reason;
    }
  }

  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  SmallVector<Value> packedInputs;
  for (const OperandStrategy &operand : strategy.operands) {
    if (operand.input < 0)
      continue;
    Value value = kernel->getOperand(inputOperands[operand.input]);
    DenseElementsAttr stored;
    if (matchPattern(value, m_Constant(&stored)))
      if (Value folded = foldConstant(b, loc, stored, operand)) {
        packedInputs.push_back(folded);
        continue;
      }
    for (const LayoutRewrite &rewrite : operand.rewrites)
      for (const LayoutOp &op : rewrite.ops)
        value = emitLayoutOp(b, loc, value, op);
    packedInputs.push_back(value);
  }
  SmallVector<unsigned> identity(packedInputs.size());
  for (unsigned i = 0, e = identity.size(); i != e; ++i)
    identity[i] = i;
  FailureOr<KernelOp> packed =
      buildKernel(b, loc, strategy.packed, packedInputs, identity);
  if (failed(packed))
    return failure();
  (*packed)->setAttr(TCGDialect::kTensorizeAttrName, *tensorize);
  b.setInsertionPointAfter(*packed);
  Value result = packed->getResult();
  for (const LayoutOp &op : strategy.operands.back().inverse)
    result = emitLayoutOp(b, loc, result, op);
  // The inverse rewrites end at the result's shape by construction.
  assert(result.getType() == kernel.getType() && "unpacked to another type");
  kernel.getResult().replaceAllUsesWith(result);
  kernel.erase();
  return success();
}

} // namespace
