//===- ConvertToKernel.cpp - ops with a tensor expression -> tcg ----------===//

#include "raf/Dialect/TCG/Utils/ConvertToKernel.h"

#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

bool isZeroScalar(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Whether adding `init` changes nothing: a zero fill or splat, or a
/// tensor.empty (reading it is undefined, so zero is as good a value).
bool isZeroTensor(Value init) {
  if (init.getDefiningOp<tensor::EmptyOp>())
    return true;
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return isZeroScalar(fill.getInputs()[0]);
  return isZeroScalar(init);
}

} // namespace

FailureOr<Value>
raf::tcg::buildKernelFor(OpBuilder &builder, TensorExprOpInterface op,
                         function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<TensorExprForm> form = op.getTensorExprForm(emitError);
  if (failed(form))
    return failure();
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return emitError() << "cannot be expressed as a tcg.kernel: it has "
                       << op->getNumResults()
                       << " results; a tcg.kernel computes one tensor";
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  SmallVector<unsigned> inputOperands =
      llvm::to_vector(llvm::seq<unsigned>(0, form->inputs.size()));
  FailureOr<KernelOp> kernel =
      buildKernel(builder, loc, form->expr, form->inputs, inputOperands);
  if (failed(kernel))
    return failure();
  Value result = kernel->getResult();
  if (form->init && !isZeroTensor(form->init)) {
    auto type = cast<RankedTensorType>(result.getType());
    Value empty = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                          type.getElementType());
    result = linalg::AddOp::create(builder, loc, ValueRange{result, form->init},
                                   ValueRange{empty})
                 .getResult(0);
  }
  return result;
}

FailureOr<ConvertToKernelsResult>
raf::tcg::convertToKernels(Operation *root,
                           const ConvertToKernelsOptions &options) {
  SmallVector<TensorExprOpInterface> candidates;
  root->walk([&](TensorExprOpInterface op) {
    if (op.isTensorExprCandidate() &&
        (!options.filter || options.filter(op)))
      candidates.push_back(op);
  });

  ConvertToKernelsResult result;
  bool failedAny = false;
  // Candidates erased as unused producers of an earlier one.
  llvm::DenseSet<Operation *> erased;
  OpBuilder builder(root->getContext());
  for (TensorExprOpInterface op : candidates) {
    if (erased.contains(op))
      continue;
    auto emitError = [&]() -> InFlightDiagnostic {
      if (options.unsupportedIsError)
        return op->emitOpError();
      return std::move(op->emitRemark()
                       << "'" << op->getName() << "' left as is: ");
    };
    FailureOr<Value> value = buildKernelFor(builder, op, emitError);
    if (failed(value)) {
      failedAny |= options.unsupportedIsError;
      ++result.leftAlone;
      continue;
    }
    llvm::SetVector<Operation *> producers;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        producers.insert(def);
    op->getResult(0).replaceAllUsesWith(*value);
    op->erase();
    ++result.converted;
    // Producers only the converted op used: a folded tensor.pad, the zero
    // fill of the output and its tensor.empty.
    while (!producers.empty()) {
      Operation *def = producers.pop_back_val();
      if (!def->use_empty() || !isMemoryEffectFree(def))
        continue;
      // Its operands, and the values its regions use from outside (the
      // padding value of a tensor.pad).
      def->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *producer = operand.getDefiningOp();
              producer && !def->isAncestor(producer))
            producers.insert(producer);
      });
      erased.insert(def);
      def->erase();
    }
  }
  if (failedAny)
    return failure();
  return result;
}
