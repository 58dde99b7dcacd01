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

/// RAF's eviction-score heuristic (spec C5) under `budget`; nullopt when it
/// runs out of candidates, with `failedStep` (if given) set to the step
/// that does not fit.
std::optional<Plan> planWithEvictionScore(const Problem &problem,
                                          int64_t budget,
                                          unsigned *failedStep = nullptr);

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
};

/// The recompute choice as a constraint optimisation problem, solved with
/// Gecode: minimise recomputed FLOPs with every stage within `budget`.
OptimalResult planOptimally(const Problem &problem, int64_t budget,
                            unsigned timeLimitMs);

/// The smallest budget the exact model can meet (minimising the peak
/// instead of the FLOPs); nullopt if the search finds nothing in time.
/// `proven` says whether it is the minimum.
std::optional<int64_t> minimumOptimalBudget(const Problem &problem,
                                            unsigned timeLimitMs,
                                            bool &proven);

} // namespace raf::relay::remat

#endif // RAF_LIB_DIALECT_RELAY_TRANSFORMS_REMATERIALIZATIONPROBLEM_H
