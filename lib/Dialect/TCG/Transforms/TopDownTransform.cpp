//===- TopDownTransform.cpp - one transformation of the top-down search ---===//
//
// --tcg-topdown-transform: applies a rewrite of Rieber 2022, §3.3.1
// (raf/Dialect/TCG/TopDown/Transformations.h) to the ops marked with
// `topdown.target`.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/TopDown/Transformations.h"
#include "raf/Support/PassOptions.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringSwitch.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGTOPDOWNTRANSFORM
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf::tcg;

namespace {

constexpr llvm::StringLiteral kTargetAttr = "topdown.target";

enum class Kind {
  Swap,
  Canonicalize,
  OutputTranspose,
  InputTranspose,
  ComputeFission,
  ReductionFission,
  ReductionOut,
  Inline,
  Fusion,
  Unfuse,
  UnfuseAll,
  FullFission,
  Unknown
};

struct TCGTopDownTransformPass
    : public raf::tcg::impl::TCGTopDownTransformBase<TCGTopDownTransformPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    // An empty kind (the default) is reported when the pass runs.
    if (failed(raf::checkEnumeratedOptions(
            getArgument(), options,
            {{"kind",
              {"swap", "canonicalize", "output-transpose", "input-transpose",
               "compute-fission", "reduction-fission", "reduction-out",
               "inline", "fusion", "unfuse", "unfuse-all", "full-fission"},
              /*allowEmpty=*/true}},
            errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Kind selected = llvm::StringSwitch<Kind>(kind)
                        .Case("swap", Kind::Swap)
                        .Case("canonicalize", Kind::Canonicalize)
                        .Case("output-transpose", Kind::OutputTranspose)
                        .Case("input-transpose", Kind::InputTranspose)
                        .Case("compute-fission", Kind::ComputeFission)
                        .Case("reduction-fission", Kind::ReductionFission)
                        .Case("reduction-out", Kind::ReductionOut)
                        .Case("inline", Kind::Inline)
                        .Case("fusion", Kind::Fusion)
                        .Case("unfuse", Kind::Unfuse)
                        .Case("unfuse-all", Kind::UnfuseAll)
                        .Case("full-fission", Kind::FullFission)
                        .Default(Kind::Unknown);
    if (selected == Kind::Unknown) {
      emitError(module.getLoc(), "--tcg-topdown-transform: unknown kind '")
          << kind
          << "'; expected swap, canonicalize, output-transpose, "
             "input-transpose, compute-fission, reduction-fission, "
             "reduction-out, inline, fusion, unfuse, unfuse-all or "
             "full-fission";
      return signalPassFailure();
    }
    if (selected == Kind::Canonicalize) {
      module.walk([](ComputeOp op) { topdown::canonicalizeOperands(op); });
      return;
    }
    if (selected == Kind::FullFission) {
      module.walk([](KernelOp kernel) { topdown::fullFission(kernel); });
      return;
    }
    if (selected == Kind::UnfuseAll) {
      module.walk([](KernelOp kernel) { topdown::unfuseAll(kernel); });
      return;
    }

    // One target at a time, found again after every rewrite: a rewrite may
    // clone or erase other marked ops (fission's now unused reads, an
    // inlined computation, the body of a rewritten reduction), and an
    // erased target must not be visited. The innermost and latest target
    // goes first (the last one in pre-order).
    auto findNext = [&]() -> std::pair<Operation *, Attribute> {
      std::pair<Operation *, Attribute> next{nullptr, {}};
      module.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (Attribute marker = op->getDiscardableAttr(kTargetAttr))
          next = {op, marker};
      });
      return next;
    };
    std::pair<Operation *, Attribute> next = findNext();
    if (!next.first) {
      emitError(module.getLoc(),
                "--tcg-topdown-transform: no op is marked with '")
          << kTargetAttr << "'";
      return signalPassFailure();
    }
    bool failedAny = false;
    for (; next.first; next = findNext()) {
      next.first->removeDiscardableAttr(kTargetAttr);
      failedAny |= failed(applyOne(selected, next.first, next.second));
    }
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult applyOne(Kind selected, Operation *op, Attribute marker) {
    auto wrongOp = [&](StringRef expected) {
      return op->emitError("--tcg-topdown-transform=kind=")
             << kind << " applies to " << expected;
    };
    switch (selected) {
    case Kind::Swap:
      if (auto compute = dyn_cast<ComputeOp>(op))
        return topdown::swapOperands(compute);
      return wrongOp("tcg.compute");
    case Kind::OutputTranspose:
      if (auto tensor = dyn_cast<TensorOp>(op))
        return topdown::interchangeTensors(tensor);
      return wrongOp("tcg.tensor");
    case Kind::InputTranspose: {
      auto input = dyn_cast<InputOp>(op);
      if (!input)
        return wrongOp("tcg.input");
      auto permutation = dyn_cast<DenseI64ArrayAttr>(marker);
      if (!permutation)
        return op->emitError("input transpose needs the permutation as the "
                             "marker, e.g. topdown.target = array<i64: 1, 0>");
      return topdown::transposeInput(input, permutation.asArrayRef());
    }
    case Kind::ComputeFission:
      if (auto compute = dyn_cast<ComputeOp>(op))
        return topdown::fissionCompute(compute);
      return wrongOp("tcg.compute");
    case Kind::ReductionFission:
      if (auto reduce = dyn_cast<ReduceOp>(op))
        return topdown::fissionReduction(reduce);
      return wrongOp("tcg.reduce");
    case Kind::ReductionOut:
      if (auto reduce = dyn_cast<ReduceOp>(op))
        return topdown::fissionReductionOut(reduce);
      return wrongOp("tcg.reduce");
    case Kind::Inline:
      if (auto tensor = dyn_cast<TensorOp>(op))
        return topdown::inlineComputation(tensor);
      return wrongOp("a computation (top-level tcg.tensor or local row)");
    case Kind::Fusion:
      if (auto tensor = dyn_cast<TensorOp>(op))
        return topdown::fuseComputation(tensor);
      return wrongOp("a computation (top-level tcg.tensor or local row)");
    case Kind::Unfuse:
      if (auto tensor = dyn_cast<TensorOp>(op))
        return topdown::unfuseRow(tensor);
      return wrongOp("a local row of a fused body");
    case Kind::Canonicalize:
    case Kind::UnfuseAll:
    case Kind::FullFission:
    case Kind::Unknown:
      break;
    }
    return failure();
  }
};

} // namespace
