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
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

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
/// A callee left without calls is erased. Returns the value now returned.
static Value inlineProducingCall(Value result, func::ReturnOp returnOp,
                                 unsigned index, ModuleOp module,
                                 InlinerInterface &interface) {
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
  if (SymbolTable::symbolKnownUseEmpty(callee, module))
    callee.erase();
  return returnOp.getOperand(index);
}

namespace {
struct RafInplaceUpdate
    : public raf::relay::impl::RafInplaceUpdateBase<RafInplaceUpdate> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> updated;
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
                                           module, interface);
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

    // The update's last ops write into the arguments: empty tensors that
    // become the materialized values are replaced by the arguments, as
    // MLIR's --eliminate-empty-tensors does, analysed with function
    // boundaries as the CPU pipeline bufferizes.
    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.allowReturnAllocsFromLoops = true;
    bufferization::OneShotAnalysisState state(module, options);
    if (failed(bufferization::analyzeModuleOp(module, state))) {
      module.emitError() << "--raf-inplace-update: bufferization analysis "
                            "failed";
      return signalPassFailure();
    }
    IRRewriter rewriter(module.getContext());
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
        if (returnOp.getOperand(i) != function.getArgument(j)) {
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
