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
                                APFloat(0.0), relay::PadMode::Constant);
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
  FailureOr<embed::TensorExpression> intrinsic =
      lookupIntrinsic(context, intrinsicName.getValue(), kernel.getLoc());
  if (failed(intrinsic))
    return failure();
  FailureOr<TensorizeAttr> tensorize =
      lookupTensorize(context, intrinsicName.getValue(), kernel.getLoc());
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
  Strategy strategy;
  if (!deriveStrategy(*expr, *intrinsic, emb, strategy, error))
    return kernel.emitError()
           << "cannot derive the strategy of '" << intrinsicName.getValue()
           << "' (candidate " << index << "): " << error;

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
