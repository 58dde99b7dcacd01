//===- InplaceUpdate.cpp - results written into their arguments -----------===//
//
// RAF's InplaceUpdate (RAF source src/pass/inplace_update.cc): a training
// step's new parameters and optimizer states reuse the buffers of the
// arguments they replace, so the step does not hold two copies of them.
// --raf-inplace-update marks the writes on tensors before one-shot
// bufferization; --raf-drop-inplace-results removes the results that then
// alias their arguments.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/InplaceUpdate.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

#include "llvm/ADT/SetVector.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFINPLACEUPDATE
#define GEN_PASS_DEF_RAFDROPINPLACERESULTS
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

static constexpr llvm::StringLiteral kInplaceResultsAttr =
    "raf.inplace_results";

SmallVector<std::pair<unsigned, unsigned>>
raf::relay::getInPlaceUpdates(func::FuncOp function, ModuleOp module) {
  SmallVector<std::pair<unsigned, unsigned>> pairs;
  if (function.isExternal() || !function.isPublic() ||
      !SymbolTable::symbolKnownUseEmpty(function, module))
    return pairs;
  llvm::SmallDenseSet<unsigned> claimed;
  for (unsigned i = 0, e = function.getNumResults(); i < e; ++i) {
    auto attr = function.getResultAttrOfType<IntegerAttr>(i, kUpdatesArgAttr);
    if (!attr || attr.getInt() < 0 ||
        attr.getInt() >= static_cast<int64_t>(function.getNumArguments()))
      continue;
    unsigned j = attr.getInt();
    auto type = dyn_cast<RankedTensorType>(function.getResultTypes()[i]);
    if (!type || !type.hasStaticShape() ||
        function.getArgumentTypes()[j] != type || !claimed.insert(j).second)
      continue;
    pairs.emplace_back(i, j);
  }
  return pairs;
}

/// Inlines the call of a private function that computes returned value
/// `result`, so that the callee's last op (after fusion, the optimizer's
/// element-wise update in its own primitive function) can write the
/// argument's buffer: across a call, one-shot bufferization gives the callee
/// an out-parameter and the update is copied into the argument afterwards.
/// The callee is added to `inlined` (erased later if no use is left).
/// Returns the value now returned.
static Value inlineProducingCall(Value result, func::ReturnOp returnOp,
                                 unsigned index, ModuleOp module,
                                 InlinerInterface &interface,
                                 llvm::SetVector<func::FuncOp> &inlined) {
  auto call = result.getDefiningOp<func::CallOp>();
  if (!call)
    return result;
  auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
  if (!callee || callee.isExternal() || !callee.isPrivate() ||
      !callee.getBody().hasOneBlock())
    return result;
  InlinerConfig config;
  if (failed(inlineCall(interface, config.getCloneCallback(), call, callee,
                        &callee.getBody(), /*shouldCloneInlinedRegion=*/true)))
    return result;
  call.erase();
  inlined.insert(callee);
  return returnOp.getOperand(index);
}

/// Whether `producer` is the last op of the function to read `argument`:
/// every use of the argument, or of a view of it (a reshape, slice or cast),
/// is `producer`, the write `materialize`, or an op before `producer`. The
/// rewrite below makes the producer write the argument's buffer; a later
/// reader of the old value would make bufferization copy the view, and the
/// update would then be written into the copy, never into the parameter.
static bool isLastReader(BlockArgument argument, Operation *producer,
                         Operation *materialize) {
  Block *body = argument.getOwner();
  Operation *producerInBody = body->findAncestorOpInBlock(*producer);
  if (!producerInBody)
    return false;
  SmallVector<Value> views{argument};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (user == producer || user == materialize)
        continue;
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
              tensor::ExtractSliceOp, tensor::CastOp>(user)) {
        views.append(user->result_begin(), user->result_end());
        continue;
      }
      Operation *userInBody = body->findAncestorOpInBlock(*user);
      if (!userInBody || userInBody == producerInBody ||
          !userInBody->isBeforeInBlock(producerInBody))
        return false;
    }
  }
  return true;
}

/// Lets an update computed on a reshaped view write its argument. Loop
/// merging in --raf-tile-and-vectorize computes the element-wise update of
/// a 4-D weight on collapsed views:
///
///   %v = tensor.collapse_shape %empty [[0, 1, 2, 3]]
///   %n = linalg.generic ins(%collapsed_w, ...) outs(%v)
///   %r = tensor.expand_shape %n [[0, 1, 2, 3]]
///   bufferization.materialize_in_destination %r in %w
///
/// MLIR's empty tensor elimination follows only ops whose result has their
/// source's type, not reshapes, so bufferization wrote a temporary and
/// copied it into the parameter. When the materialized value is a reshape
/// of a destination-style op's result whose destination is the inverse
/// reshape (same reassociation) of an empty tensor of the argument's type,
/// the destination becomes that reshape of the argument, the value is
/// materialized there, and the materialized result is reshaped back:
///
///   %n = linalg.generic ins(%collapsed_w, ...) outs(%collapsed_w)
///   %m = bufferization.materialize_in_destination %n in %collapsed_w
///   %r = tensor.expand_shape %m [[0, 1, 2, 3]]
///
/// An empty tensor's contents are undefined, so any value may take its
/// place (as in empty tensor elimination). Only done when the producer is
/// the argument's last reader (isLastReader): unlike empty tensor
/// elimination's own rewrite, a conflict found by bufferization afterwards
/// would copy the view and leave the parameter unwritten.
static void writeThroughReshape(bufferization::MaterializeInDestinationOp op,
                                RewriterBase &rewriter) {
  auto argument = dyn_cast<BlockArgument>(op.getDest());
  if (!argument)
    return;
  Value reshaped;
  SmallVector<ReassociationIndices> reassociation;
  bool expanded = false;
  if (auto expand = op.getSource().getDefiningOp<tensor::ExpandShapeOp>()) {
    reshaped = expand.getSrc();
    reassociation = expand.getReassociationIndices();
    expanded = true;
  } else if (auto collapse =
                 op.getSource().getDefiningOp<tensor::CollapseShapeOp>()) {
    reshaped = collapse.getSrc();
    reassociation = collapse.getReassociationIndices();
  } else {
    return;
  }
  auto result = dyn_cast<OpResult>(reshaped);
  auto producer = result
                      ? dyn_cast<DestinationStyleOpInterface>(result.getOwner())
                      : DestinationStyleOpInterface();
  if (!producer)
    return;
  OpOperand *init = producer.getTiedOpOperand(result);
  Operation *inverse = init->get().getDefiningOp();
  Value empty;
  if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(inverse);
      collapse && expanded &&
      collapse.getReassociationIndices() == reassociation)
    empty = collapse.getSrc();
  else if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(inverse);
           expand && !expanded &&
           expand.getReassociationIndices() == reassociation)
    empty = expand.getSrc();
  if (!empty || !empty.getDefiningOp<tensor::EmptyOp>() ||
      empty.getType() != argument.getType() ||
      !isLastReader(argument, producer, op))
    return;
  // An update reads the old parameter through the same reshape; using that
  // value as the destination too lets one-shot analysis see an element-wise
  // read and write of one buffer (in place), where two reshapes of the
  // argument would look like a conflict.
  Value destination;
  for (Value input : producer.getDpsInputs()) {
    Operation *other = input.getDefiningOp();
    if (other && other->getName() == inverse->getName() &&
        other->getOperand(0) == argument &&
        input.getType() == init->get().getType() &&
        other->getAttrDictionary() == inverse->getAttrDictionary()) {
      destination = input;
      break;
    }
  }
  if (!destination) {
    rewriter.setInsertionPoint(inverse);
    Operation *onArgument = rewriter.clone(*inverse);
    onArgument->setOperand(0, argument);
    destination = onArgument->getResult(0);
  }
  rewriter.modifyOpInPlace(producer, [&] { init->set(destination); });
  if (inverse->use_empty())
    rewriter.eraseOp(inverse);
  // Materialized in the reshaped argument, not in the argument: one-shot
  // analysis accepts a materialized source that aliases its destination
  // only if it finds the destination among same-typed values (the
  // reshape back would read as a conflict and make a copy).
  // --raf-drop-inplace-results sees through the pair of reshapes.
  Operation *reshape = op.getSource().getDefiningOp();
  rewriter.setInsertionPoint(op);
  Value written = bufferization::MaterializeInDestinationOp::create(
                      rewriter, op.getLoc(), result, destination)
                      .getResult();
  Operation *back = rewriter.clone(*reshape);
  back->setOperand(0, written);
  rewriter.replaceOp(op, back->getResults());
  if (reshape->use_empty())
    rewriter.eraseOp(reshape);
}

/// `value` or, when it is a reshape of the inverse reshape of a value (the
/// same reassociation, so the same buffer seen with its original shape),
/// that value: how --raf-inplace-update's updates written through a reshape
/// (writeThroughReshape) return the argument after bufferization.
static Value throughInverseReshapes(Value value) {
  if (auto expand = value.getDefiningOp<memref::ExpandShapeOp>())
    if (auto collapse =
            expand.getSrc().getDefiningOp<memref::CollapseShapeOp>())
      if (collapse.getReassociationIndices() ==
              expand.getReassociationIndices() &&
          collapse.getSrc().getType() == value.getType())
        return collapse.getSrc();
  if (auto collapse = value.getDefiningOp<memref::CollapseShapeOp>())
    if (auto expand = collapse.getSrc().getDefiningOp<memref::ExpandShapeOp>())
      if (collapse.getReassociationIndices() ==
              expand.getReassociationIndices() &&
          expand.getSrc().getType() == value.getType())
        return expand.getSrc();
  return value;
}

namespace {
struct RafInplaceUpdate
    : public raf::relay::impl::RafInplaceUpdateBase<RafInplaceUpdate> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> updated;
    llvm::SetVector<func::FuncOp> inlined;
    for (auto function : module.getOps<func::FuncOp>()) {
      auto pairs = getInPlaceUpdates(function, module);
      if (pairs.empty())
        continue;
      auto returnOp =
          dyn_cast<func::ReturnOp>(function.getBody().back().getTerminator());
      if (!function.getBody().hasOneBlock() || !returnOp) {
        function.emitError() << "--raf-inplace-update: @"
                             << function.getSymName()
                             << " must have one block ending in func.return";
        return signalPassFailure();
      }
      SmallVector<int64_t> flat;
      OpBuilder builder(returnOp);
      InlinerInterface interface(module.getContext());
      for (auto [i, j] : pairs) {
        BlockArgument argument = function.getArgument(j);
        for (auto [k, operand] : llvm::enumerate(returnOp.getOperands()))
          if (operand == argument && k != i) {
            function.emitError()
                << "--raf-inplace-update: argument #" << j
                << " is updated in place by result #" << i
                << " but is also returned unchanged as result #" << k;
            return signalPassFailure();
          }
        Value result = inlineProducingCall(returnOp.getOperand(i), returnOp, i,
                                           module, interface, inlined);
        if (result != argument) {
          Value written =
              bufferization::MaterializeInDestinationOp::create(
                  builder, returnOp.getLoc(), result, argument)
                  .getResult();
          returnOp.setOperand(i, written);
        }
        flat.push_back(i);
        flat.push_back(j);
      }
      function->setAttr(kInplaceResultsAttr,
                        builder.getDenseI64ArrayAttr(flat));
      updated.push_back(function);
    }
    if (updated.empty())
      return;
    // Inlined callees left without uses are erased, found by one walk of
    // the module: a walk per inlined call (symbolKnownUseEmpty) was
    // quadratic, 161 walks of the whole module on a ResNet-50 training step.
    llvm::DenseSet<StringAttr> used;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert(use.getSymbolRef().getRootReference());
    for (func::FuncOp callee : inlined)
      if (!used.contains(callee.getSymNameAttr()))
        callee.erase();

    // The update's last ops write into the arguments: empty tensors that
    // become the materialized values are replaced by the arguments, as
    // MLIR's --eliminate-empty-tensors does, analysed with function
    // boundaries as the CPU pipeline bufferizes.
    IRRewriter rewriter(module.getContext());
    for (func::FuncOp function : updated) {
      SmallVector<bufferization::MaterializeInDestinationOp> writes(
          function.getOps<bufferization::MaterializeInDestinationOp>());
      for (auto op : writes)
        writeThroughReshape(op, rewriter);
    }
    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.allowReturnAllocsFromLoops = true;
    bufferization::OneShotAnalysisState state(module, options);
    if (failed(bufferization::analyzeModuleOp(module, state))) {
      module.emitError() << "--raf-inplace-update: bufferization analysis "
                            "failed";
      return signalPassFailure();
    }
    for (func::FuncOp function : updated)
      if (failed(bufferization::eliminateEmptyTensors(rewriter, function,
                                                      state)))
        return signalPassFailure();
  }
};

struct RafDropInplaceResults
    : public raf::relay::impl::RafDropInplaceResultsBase<
          RafDropInplaceResults> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      auto flat = function->getAttrOfType<DenseI64ArrayAttr>(
          kInplaceResultsAttr);
      if (!flat)
        continue;
      function->removeAttr(kInplaceResultsAttr);
      auto returnOp =
          cast<func::ReturnOp>(function.getBody().back().getTerminator());
      llvm::BitVector dropped(function.getNumResults());
      ArrayRef<int64_t> pairs = flat.asArrayRef();
      for (size_t p = 0; p + 1 < pairs.size(); p += 2) {
        int64_t i = pairs[p], j = pairs[p + 1];
        if (throughInverseReshapes(returnOp.getOperand(i)) !=
            function.getArgument(j)) {
          function.emitError()
              << "--raf-drop-inplace-results: result #" << i
              << " was not bufferized into the buffer of argument #" << j;
          return signalPassFailure();
        }
        dropped.set(i);
      }
      returnOp->eraseOperands(dropped);
      if (failed(function.eraseResults(dropped)))
        return signalPassFailure();
    }
  }
};
} // namespace
