//===- Rematerialize.cpp - recompute tensors to fit a memory budget -------===//
//
// Drives the two methods of RematerializationProblem.h and applies the plan
// they return: before each op, clones of the producers of the tensors to
// recompute, with every later use reading the newest copy. The memory model
// is then traced again on the rewritten function, so the peak the pass
// records is the analysis' own, not the method's estimate.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "RematerializationProblem.h"

#include "raf/Analysis/MemoryTrace.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Support/PassOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Error.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFREMATERIALIZE
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::memory;
using namespace raf::relay;
using namespace raf::relay::remat;

namespace {
/// The ops of a single-block function in order, terminator excluded: the
/// steps of its MemoryTrace.
SmallVector<Operation *> stepOps(func::FuncOp function) {
  SmallVector<Operation *> ops;
  for (Operation &op : function.getBody().front().without_terminator())
    ops.push_back(&op);
  return ops;
}

/// Inserts the clones of `plan` into the function whose step ops are `ops`
/// (the traced function or a copy of it) and redirects later uses to them.
void applyPlan(const Problem &problem, const Plan &plan,
               ArrayRef<Operation *> ops) {
  // Operands as traced: the loop rewires ops that are cloned again later,
  // and a clone must read the newest copy of each original operand.
  SmallVector<SmallVector<Value, 4>> originalOperands;
  for (Operation *op : ops)
    originalOperands.emplace_back(op->getOperands());
  DenseMap<Value, Value> latest;
  MLIRContext *context = ops.empty() ? nullptr : ops.front()->getContext();
  for (auto [index, op] : llvm::enumerate(ops)) {
    OpBuilder builder(op);
    for (unsigned id : plan.recomputeBefore[index]) {
      unsigned producerIndex = problem.producerStep[id];
      Operation *producer = ops[producerIndex];
      IRMapping mapping;
      for (auto [current, original] : llvm::zip_equal(
               producer->getOperands(), originalOperands[producerIndex]))
        mapping.map(current, latest.lookup_or(original, original));
      Operation *clone = builder.clone(*producer, mapping);
      clone->setAttr(kRecomputedAttr, UnitAttr::get(context));
      latest[producer->getResult(0)] = clone->getResult(0);
    }
    for (auto [use, original] :
         llvm::zip_equal(op->getOpOperands(), originalOperands[index]))
      if (Value newest = latest.lookup(original))
        use.set(newest);
  }
}

struct RafRematerialize
    : public raf::relay::impl::RafRematerializeBase<RafRematerialize> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(raf::checkEnumeratedOptions(getArgument(), options,
                                           {{"method", {"raf", "optimal"}}},
                                           errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    // Option errors name the module's location, without printing it.
    ModuleOp module = getOperation();
    if (budget.empty()) {
      emitError(module.getLoc()) << "--raf-rematerialize: the budget option is "
                                    "required (e.g. budget=512MiB)";
      return signalPassFailure();
    }
    llvm::Expected<int64_t> parsed = parseByteSize(budget);
    if (!parsed) {
      emitError(module.getLoc())
          << "--raf-rematerialize: " << llvm::toString(parsed.takeError());
      return signalPassFailure();
    }
    budgetBytes = *parsed;
    if (method != "raf" && method != "optimal") {
      emitError(module.getLoc()) << "--raf-rematerialize: unknown method '"
                                 << method << "' (expected raf or optimal)";
      return signalPassFailure();
    }
    if (minTensorBytes < 0 || maxDepth == 0) {
      emitError(module.getLoc())
          << "--raf-rematerialize: min-tensor-bytes must be "
             ">= 0 and max-depth > 0";
      return signalPassFailure();
    }
    // RAF's offset first: its trace names the op where a budget fails.
    search.offsetsGflops = {kRafScoreOffsetGflops, 0.01, 0.001, 0.0};
    if (!scoreOffsets.empty())
      search.offsetsGflops.assign(scoreOffsets.begin(), scoreOffsets.end());
    if (llvm::any_of(search.offsetsGflops,
                     [](double offset) { return !(offset >= 0); })) {
      emitError(module.getLoc())
          << "--raf-rematerialize: score-offsets must be >= 0";
      return signalPassFailure();
    }
    search.prune = prune;
    bool found = entry.empty();
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal() ||
          (!entry.empty() && function.getSymName() != entry))
        continue;
      found = true;
      if (failed(rematerialize(function)))
        return signalPassFailure();
    }
    if (!found) {
      emitError(module.getLoc())
          << "--raf-rematerialize: no function named '" << entry << "'";
      signalPassFailure();
    }
  }

  LogicalResult rematerialize(func::FuncOp function) {
    std::string reason;
    Operation *culprit = nullptr;
    MemoryTraceOptions traceOptions;
    traceOptions.inPlaceUpdates = inPlaceUpdates;
    std::optional<MemoryTrace> trace =
        MemoryTrace::compute(function, reason, culprit, traceOptions);
    if (!trace) {
      InFlightDiagnostic diag = function.emitError()
                                << "cannot rematerialize @"
                                << function.getSymName() << ": " << reason;
      if (culprit)
        diag.attachNote(culprit->getLoc()) << "at this op";
      return failure();
    }
    Limits limits;
    limits.minTensorBytes = minTensorBytes;
    limits.maxDepth = maxDepth;
    Problem problem(*trace, limits);

    std::optional<Plan> plan;
    std::string usedMethod = method;
    if (trace->getPeakBytes() <= budgetBytes) {
      plan = Plan();
      plan->recomputeBefore.resize(trace->getSteps().size());
      plan->proven = true;
    } else if (method == "optimal") {
      if (failed(planExactly(function, problem, plan, usedMethod)))
        return failure();
    }
    if (!plan && failed(planWithScore(function, problem, plan)))
      return failure();

    int64_t expectedPeak = tracePlanPeak(problem, *plan);
    applyPlan(problem, *plan, stepOps(function));
    std::optional<MemoryTrace> after =
        MemoryTrace::compute(function, reason, culprit, traceOptions);
    if (after && after->getPeakBytes() != expectedPeak)
      return function.emitError()
             << "internal error: the memory model's peak of the "
                "rematerialised @"
             << function.getSymName() << " is "
             << formatBytes(after->getPeakBytes()) << ", the plan's estimate "
             << formatBytes(expectedPeak);
    if (!after || after->getPeakBytes() > budgetBytes) {
      InFlightDiagnostic diag = function.emitError()
                                << "internal error: the rematerialised @"
                                << function.getSymName()
                                << " does not meet the budget in the memory "
                                   "model";
      if (after && after->getPeakStep())
        diag.attachNote(after->getSteps()[*after->getPeakStep()].op->getLoc())
            << "peak " << formatBytes(after->getPeakBytes()) << " here";
      return diag;
    }
    unsigned recomputedOps = plan->getNumRecomputed();
    int64_t flops = getRecomputedFlops(problem, *plan);
    Builder builder(function.getContext());
    function->setAttr(kRematPeakBytesAttr,
                      builder.getI64IntegerAttr(after->getPeakBytes()));
    function->setAttr(kRematNumRecomputedOpsAttr,
                      builder.getI64IntegerAttr(recomputedOps));
    function->setAttr(kRematRecomputedFlopsAttr,
                      builder.getI64IntegerAttr(flops));
    function->setAttr(kRematMethodAttr, builder.getStringAttr(usedMethod));
    if (method == "optimal")
      function->setAttr(kRematOptimalProvenAttr,
                        builder.getBoolAttr(plan->proven));
    if (recomputedOps != 0) {
      InFlightDiagnostic diag = function.emitRemark();
      diag << "@" << function.getSymName() << ": peak "
           << formatBytes(trace->getPeakBytes()) << " -> "
           << formatBytes(after->getPeakBytes()) << " (budget "
           << formatBytes(budgetBytes) << "); " << recomputedOps
           << " ops recomputed, " << flops << " FLOPs (" << usedMethod;
      if (!plan->note.empty())
        diag << ": " << plan->note;
      diag << ")";
    }
    return success();
  }

  LogicalResult planWithScore(func::FuncOp function, const Problem &problem,
                              std::optional<Plan> &plan) {
    unsigned failedStep = 0;
    plan = planWithScoreSearch(problem, budgetBytes, search, &failedStep);
    if (plan)
      return success();
    // Bisect for the smallest budget some offset's trace meets; the
    // original peak always works (nothing to evict).
    auto traceMeets = [&](int64_t traceBudget) {
      return llvm::any_of(search.offsetsGflops, [&](double offset) {
        return planWithEvictionScore(problem, traceBudget, offset).has_value();
      });
    };
    int64_t low = problem.trace.getParameterBytes();
    int64_t high = problem.trace.getPeakBytes();
    while (low < high) {
      int64_t mid = low + (high - low) / 2;
      if (traceMeets(mid))
        high = mid;
      else
        low = mid + 1;
    }
    // The heuristic's trace overestimates: it counts an evicted tensor
    // until its eviction, not its last use. Its plan for that budget may
    // peak lower in the memory model, and meets every budget down to that
    // peak, which is what the method reaches.
    int64_t reached = problem.trace.getPeakBytes();
    for (double offset : search.offsetsGflops)
      if (std::optional<Plan> smallest =
              planWithEvictionScore(problem, high, offset))
        reached = std::min(reached, tracePlanPeak(problem, *smallest));
    if (reached <= budgetBytes) {
      plan = planWithScoreSearch(problem, budgetBytes, search, nullptr, high);
      if (plan) {
        plan->note = "the eviction trace's plan for " + formatBytes(high);
        return success();
      }
    }
    Operation *op = problem.trace.getSteps()[failedStep].op;
    op->emitError()
        << "cannot rematerialize more tensors to meet the memory budget of "
        << formatBytes(budgetBytes) << " at this op; the smallest budget "
        << "method=raf reaches for @" << function.getSymName() << " is "
        << formatBytes(reached) << " (peak without rematerialisation "
        << formatBytes(problem.trace.getPeakBytes()) << ")";
    return failure();
  }

  LogicalResult planExactly(func::FuncOp function, const Problem &problem,
                            std::optional<Plan> &plan,
                            std::string &usedMethod) {
    size_t numOps = problem.trace.getSteps().size();
    if (numOps > optimalMaxOps) {
      function.emitRemark() << "@" << function.getSymName() << " has " << numOps
                            << " ops, more than optimal-max-ops="
                            << static_cast<uint64_t>(optimalMaxOps)
                            << ": method=optimal falls back to method=raf";
      usedMethod = "raf (fallback from optimal)";
      return success();
    }
    // raf's plan, when there is one, bounds the search and is tried first.
    std::optional<Plan> heuristic =
        planWithScoreSearch(problem, budgetBytes, search);
    OptimalResult result = planOptimally(problem, budgetBytes, timeLimitMs,
                                         heuristic ? &*heuristic : nullptr);
    std::string effort = std::to_string(result.nodes) + " nodes, " +
                         std::to_string(int64_t(result.solveMs)) + " ms";
    if (!result.exactFlops)
      effort += ", FLOPs rounded";
    switch (result.status) {
    case OptimalResult::Status::Optimal:
    case OptimalResult::Status::Feasible:
      // The model is meant to over-approximate the memory model, but a plan
      // is only trusted once the memory model's peak of it is known.
      if (tracePlanPeak(problem, *result.plan) > budgetBytes) {
        function.emitRemark()
            << "@" << function.getSymName()
            << ": the exact model's plan exceeds the budget in the memory "
               "model; method=optimal falls back to method=raf";
        usedMethod = "raf (fallback from optimal: plan failed the check)";
        return success();
      }
      plan = std::move(result.plan);
      if (plan->proven) {
        plan->note = "optimal (Gecode, proven: " + effort + ")";
        return success();
      }
      plan->note = "best found before the time limit (Gecode, " + effort + ")";
      usedMethod = "optimal (not proven: time limit)";
      // The search is bounded by raf's cost, so its plan is never worse;
      // on a tie keep raf's.
      if (heuristic && getRecomputedFlops(problem, *heuristic) <=
                           getRecomputedFlops(problem, *plan)) {
        plan = std::move(heuristic);
        plan->note = "no cheaper plan found before the time limit (Gecode, " +
                     effort + ")";
        usedMethod = "raf (optimal found nothing cheaper: time limit)";
      }
      return success();
    case OptimalResult::Status::Unknown:
      function.emitRemark()
          << "@" << function.getSymName() << ": Gecode found no plan within "
          << static_cast<uint64_t>(timeLimitMs)
          << " ms: method=optimal falls back to method=raf";
      usedMethod = "raf (fallback from optimal)";
      return success();
    case OptimalResult::Status::Error:
      return function.emitError()
             << "method=optimal: the constraint solver failed: "
             << result.message;
    case OptimalResult::Status::Infeasible:
      break;
    }
    if (heuristic) {
      // Bounded by raf's cost: no plan of the model recomputes as little as
      // raf's, which meets the budget (the model is more conservative than
      // the memory model: it counts every clone of a stage at once). raf's
      // plan is applied; the model's own optimum is searched for the
      // record.
      plan = std::move(heuristic);
      // With rounded FLOPs the bound is only approximately raf's cost.
      plan->proven = result.exactFlops;
      plan->note = "no plan of the exact model recomputes as few FLOPs "
                   "(Gecode, proven: " +
                   effort + "); ";
      OptimalResult unbounded =
          planOptimally(problem, budgetBytes, timeLimitMs);
      if (unbounded.plan)
        plan->note +=
            "the exact model's " +
            std::string(unbounded.plan->proven ? "optimum" : "best plan") +
            " recomputes " +
            std::to_string(getRecomputedFlops(problem, *unbounded.plan)) +
            " FLOPs";
      else if (unbounded.status == OptimalResult::Status::Infeasible)
        plan->note += "the exact model has no plan for this budget";
      else
        plan->note += "the exact model's search found no plan in time";
      usedMethod = "raf (cheaper than any plan of the exact model)";
      return success();
    }
    bool proven = false;
    std::optional<int64_t> minimum =
        minimumOptimalBudget(problem, budgetBytes, timeLimitMs, proven);
    InFlightDiagnostic diag = function.emitError()
                              << "cannot meet the memory budget of "
                              << formatBytes(budgetBytes) << " in @"
                              << function.getSymName()
                              << " with any recomputation (method=optimal)";
    // Without recomputation the original peak is always reachable.
    if (minimum && *minimum >= problem.trace.getPeakBytes()) {
      minimum = problem.trace.getPeakBytes();
      proven = true;
    }
    if (minimum)
      diag << "; the smallest budget method=optimal reaches is "
           << (proven ? "" : "at most ") << formatBytes(*minimum);
    diag << " (peak without rematerialisation "
         << formatBytes(problem.trace.getPeakBytes()) << ")";
    return failure();
  }

  int64_t budgetBytes = 0;
  ScoreSearch search;
};
} // namespace
