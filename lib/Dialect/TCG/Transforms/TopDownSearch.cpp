//===- TopDownSearch.cpp - the top-down search report ---------------------===//
//
// --tcg-topdown-search: the search of Rieber 2022, §3.4.1 (Algs. 2, 3, the
// configurations of Tab. 3.4, the layout transposition of §3.4.4) on every
// kernel, printed in the columns of Tab. 3.3.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/TopDown/Search.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGTOPDOWNSEARCH
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf::tcg;
using namespace raf::tcg::topdown;

namespace {

struct TCGTopDownSearchPass
    : public raf::tcg::impl::TCGTopDownSearchBase<TCGTopDownSearchPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (config > 4) {
      module.emitError("--tcg-topdown-search: configuration ")
          << static_cast<unsigned>(config)
          << " is not one of Tab. 3.4's (0 to 4)";
      return signalPassFailure();
    }
    SmallVector<int64_t> sorted(layout.begin(), layout.end());
    llvm::sort(sorted);
    if (sorted != llvm::to_vector(llvm::seq<int64_t>(0, sorted.size()))) {
      emitError(module.getLoc(), "--tcg-topdown-search: layout must be a "
                                 "permutation "
                       "of 0 to ")
          << static_cast<int64_t>(sorted.size()) - 1;
      return signalPassFailure();
    }
    SmallVector<std::string> names(intrinsics.begin(), intrinsics.end());
    FailureOr<std::unique_ptr<IntrinsicSet>> set = loadIntrinsics(
        &getContext(), names, module.getLoc(), !ignoreElementTypes,
        intrinsicsFile);
    if (failed(set))
      return signalPassFailure();

    SearchOptions options;
    options.config = config;
    options.maxGraphs = maxGraphs;
    options.maxCandidates = maxCandidates;
    options.maxMaskings = maxMaskings;
    options.maxCombinations = maxCombinations;
    options.timeLimit = timeLimit;
    options.layout.assign(layout.begin(), layout.end());
    options.selectiveMasking = selectiveMasking;

    llvm::raw_ostream &os = llvm::outs();
    bool failedAny = false;
    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      FailureOr<SearchResult> result =
          search(kernel, (*set)->matcher, options);
      if (failed(result)) {
        failedAny = true;
        continue;
      }
      double hitRate = result->candidates
                           ? 100.0 * result->solutions / result->candidates
                           : 0.0;
      os << "topdown-search " << kernel.getKernelName().value_or("kernel")
         << ": config " << static_cast<unsigned>(config) << ", "
         << result->nodes << " nodes, " << result->graphs << " graphs, "
         << result->candidates << " candidates, " << result->solutions
         << " solutions, hit rate " << llvm::format("%.1f", hitRate)
         << "%, median transformations "
         << llvm::format("%.1f", result->getMedianTransformations());
      if (printTime)
        os << ", " << llvm::format("%.3f", result->seconds) << " s";
      os << (result->limit.empty() ? "" : ", stopped by the " +
                                              result->limit + " limit")
         << '\n';
      if (result->best) {
        const Selection &best = result->best->selection;
        os << "  best: graph " << result->best->graph << ", covers "
           << best.covered << " of " << best.total << " nodes with "
           << best.matches.size() << " instructions, "
           << result->best->transformations << " transformations:";
        for (const Match &m : best.matches)
          os << ' ' << (*set)->matcher.getIntrinsicName(m.intrinsic);
        os << '\n';
        if (printBest)
          result->bestGraph->print(os);
        if (printBest)
          os << '\n';
      }
      if (result->limit == "time")
        emitWarning(kernel.getLoc(), "--tcg-topdown-search: stopped after ")
            << options.timeLimit << " s; the counts are partial";
    }
    os.flush();
    if (failedAny)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
