//===- RematerializationProblem.h - what remat may recompute ----*- C++ -*-===//
//
// The facts both rematerialisation methods decide over, extracted once from
// a function and its MemoryTrace: which buffers may be evicted and
// recomputed (candidates), what recomputing each costs and needs, and the
// plan format the pass applies to the IR. The methods themselves (RAF's
// eviction score, the Gecode model) only read this and return a plan.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_DIALECT_RELAY_TRANSFORMS_REMATERIALIZATIONPROBLEM_H
#define RAF_LIB_DIALECT_RELAY_TRANSFORMS_REMATERIALIZATIONPROBLEM_H

#include "raf/Analysis/MemoryTrace.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace raf::relay::remat {

struct Limits {
  int64_t minTensorBytes = 1 << 20;
  unsigned maxDepth = 10;
};

struct Problem {
  explicit Problem(const memory::MemoryTrace &trace, const Limits &limits);

  const memory::MemoryTrace &trace;
  Limits limits;
  /// Per buffer: whether it may be evicted and recomputed. Candidates are
  /// the single tensor result of a recomputable relay operator, at least
  /// minTensorBytes large, not returned, and only used directly by later
  /// ops (never through a tuple).
  llvm::SmallVector<bool> isCandidate;
  /// Per buffer: the step of the op that produced it (for parameters, 0).
  /// Recomputing a candidate clones that op.
  llvm::SmallVector<unsigned> producerStep;
  /// Per buffer: FLOPs of its producer (CostOpInterface::getFlops).
  llvm::SmallVector<int64_t> flops;
  /// Per candidate: the distinct buffers its producer reads.
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>> producerInputs;
  /// Per step: the distinct buffers its op reads.
  llvm::SmallVector<llvm::SmallVector<unsigned, 4>> stepInputs;
  /// Per buffer: the number of steps reading it (the terminator excluded).
  llvm::SmallVector<unsigned> useCount;
};

/// Buffers to recompute just before each step, in the order the clones
/// are inserted (each clone's recomputed inputs come before it).
struct Plan {
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>> recomputeBefore;
  /// Whether the plan is known to be optimal (method=optimal, proven).
  bool proven = false;
  /// A remark on how the plan was found (solver status, fallback).
  std::string note;

  unsigned getNumRecomputed() const {
    unsigned count = 0;
    for (const auto &list : recomputeBefore)
      count += list.size();
    return count;
  }
};

/// RAF's score offset, in GFLOPs (RAF source src/pass/rematerialization.cc).
inline constexpr double kRafScoreOffsetGflops = 0.1;

/// RAF's eviction-score heuristic (RAF paper §3.1.5;
/// src/pass/rematerialization.cc) under `budget`, evicting the
/// lowest `(gflops + offsetGflops) * (remaining uses + 1) / GiB` first;
/// nullopt when it runs out of candidates, with `failedStep` (if given) set
/// to the step that does not fit.
std::optional<Plan>
planWithEvictionScore(const Problem &problem, int64_t budget,
                      double offsetGflops = kRafScoreOffsetGflops,
                      unsigned *failedStep = nullptr);

/// The memory model's peak of the function `plan` rewrites (what
/// MemoryTrace::compute returns after the pass applies it), computed on the
/// problem's buffers without building the IR.
int64_t tracePlanPeak(const Problem &problem, const Plan &plan);

/// FLOPs the clones of `plan` execute.
int64_t getRecomputedFlops(const Problem &problem, const Plan &plan);

/// Removes recomputations `plan` does not need to stay within `budget`
/// (tracePlanPeak), the most expensive first, until none can go. Dropping a
/// clone only makes its uses read the previous copy of the same value, so
/// the results do not change.
void dropUnneededRecomputations(const Problem &problem, Plan &plan,
                                int64_t budget);

/// How method=raf searches: one eviction trace per score offset, each plan
/// (if `prune`) refined by dropUnneededRecomputations, the plan with the
/// fewest recomputed FLOPs kept. `{kRafScoreOffsetGflops}` without pruning
/// is RAF's algorithm exactly.
struct ScoreSearch {
  llvm::SmallVector<double, 4> offsetsGflops = {kRafScoreOffsetGflops};
  bool prune = false;
};

/// method=raf: the cheapest plan of `search` within `budget` (measured by
/// tracePlanPeak), from eviction traces run with `traceBudget` (default:
/// `budget`; a trace's plan may peak below the budget it ran with); nullopt
/// when none meets it, with `failedStep` (if given) the step where the first
/// offset's trace fails.
std::optional<Plan>
planWithScoreSearch(const Problem &problem, int64_t budget,
                    const ScoreSearch &search, unsigned *failedStep = nullptr,
                    std::optional<int64_t> traceBudget = std::nullopt);

/// Result of the exact method.
struct OptimalResult {
  enum class Status {
    /// `plan` is optimal for the model.
    Optimal,
    /// A limit stopped the search; `plan` is the best found.
    Feasible,
    /// No plan fits the budget.
    Infeasible,
    /// The search stopped before finding any plan.
    Unknown,
    /// The solver failed; see `message`.
    Error,
  };
  Status status = Status::Error;
  std::optional<Plan> plan;
  std::string message;
  /// Whether the search was bounded by a reference plan's cost: then
  /// Infeasible means no plan of the model recomputes fewer FLOPs than the
  /// reference (or the budget cannot be met at all).
  bool boundedByReference = false;
  /// Whether the objective counted FLOPs exactly (else rounded up to
  /// coarser units, and Optimal is optimal for the rounded costs).
  bool exactFlops = true;
  /// Search effort: nodes over every round (each round solves the model
  /// with memory constraints at more stages).
  uint64_t nodes = 0;
  unsigned rounds = 0;
  double solveMs = 0;
};

/// The recompute choice as a constraint optimisation problem, solved with
/// Gecode: minimise recomputed FLOPs with every stage within `budget`. A
/// `reference` plan that meets the budget (method=raf's) bounds the search
/// to plans recomputing at most its FLOPs and is the first choice the
/// search tries.
OptimalResult planOptimally(const Problem &problem, int64_t budget,
                            unsigned timeLimitMs,
                            const Plan *reference = nullptr);

/// The smallest budget the exact model can meet, above `infeasibleBudget`
/// (one it cannot), by bisection with feasibility searches sharing
/// `timeLimitMs`. `proven` says whether every search finished, so that the
/// result is the minimum (else an upper bound on it).
std::optional<int64_t> minimumOptimalBudget(const Problem &problem,
                                            int64_t infeasibleBudget,
                                            unsigned timeLimitMs, bool &proven);

} // namespace raf::relay::remat

#endif // RAF_LIB_DIALECT_RELAY_TRANSFORMS_REMATERIALIZATIONPROBLEM_H
