//===- GecodeSolver.h - The Gecode layer of raf::csp ------------*- C++ -*-===//
//
// What every Gecode model of the project is built and searched with: the
// declarative raf::csp::Model (rematerialisation, ConstraintSolver.cpp) and
// the dataflow embedding's model (DataflowEmbedding.cpp), which adds its own
// propagators and search portfolio on top.
//
// - SolverSpace: a Gecode space holding the model's integer variables and a
//   cost variable, into which the constraints of a raf::csp::Model are
//   posted (post()); a derived space may post its own propagators on the
//   same variables (the escape hatch the embedding's vector distinctness,
//   hyper-rectangle, memory-access and cost-bound propagators use).
// - search(): the one search loop (an engine, the limits, the statistics)
//   every search of these models runs.
// - catchSolverErrors(): the exception boundary. This header includes
//   Gecode, so only the libraries compiled with -fexceptions
//   (RAFConstraintSolver, RAFDataflowEmbedding) include it; nothing they
//   export throws.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_EMBEDDING_GECODESOLVER_H
#define RAF_LIB_EMBEDDING_GECODESOLVER_H

#include "raf/Embedding/ConstraintSolver.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace raf {
namespace csp {

/// A Gecode space over the variables of a model: X holds them in model
/// order (VarId I is X[I]) and Cost is the objective that branch and bound
/// minimises (the constant 0 for a model without objective, and for the
/// spaces only depth-first search explores).
class SolverSpace : public Gecode::IntMinimizeSpace {
public:
  Gecode::IntVarArray X;
  Gecode::IntVar Cost;

  SolverSpace() : Cost(*this, 0, 0) {}
  SolverSpace(SolverSpace &Other) : Gecode::IntMinimizeSpace(Other) {
    X.update(*this, Other.X);
    Cost.update(*this, Other.Cost);
  }

  Gecode::IntVar cost() const override { return Cost; }
  int64_t costValue() const { return Cost.val(); }

  /// The values of an assigned space, in model order.
  std::vector<int64_t> values() const;

  /// Creates one variable per variable of M, with its domain.
  void addVariables(const Model &M);

  /// Posts a constraint of a raf::csp::Model on X (a constraint that cannot
  /// hold fails the space).
  void post(const Constraint &C);

  /// The variables Ids, for Gecode's posting functions.
  Gecode::IntVarArgs vars(llvm::ArrayRef<VarId> Ids) const;
};

/// When a search stops: node and fail limits as Gecode's NodeStop and
/// FailStop (stop once a search has explored more than that many nodes or
/// failures; 0: none), and a deadline the caller checks on its own clock.
struct SearchLimits {
  uint64_t Nodes = 0;
  uint64_t Fails = 0;
  std::function<bool()> Expired;
};

/// What a search did.
struct SearchOutcome {
  SearchStatistics Stats;
  /// A limit stopped the engine (it did not exhaust the space).
  bool Stopped = false;
  /// That limit was the deadline.
  bool TimedOut = false;
};

/// The Gecode stop object of SearchLimits.
class LimitStop final : public Gecode::Search::Stop {
public:
  explicit LimitStop(const SearchLimits &Limits) : Limits(Limits) {}
  bool isActive() const {
    return Limits.Nodes || Limits.Fails || Limits.Expired;
  }
  bool stop(const Gecode::Search::Statistics &S,
            const Gecode::Search::Options &) override;
  bool timedOut() const { return TimedOut; }

private:
  const SearchLimits &Limits;
  bool TimedOut = false;
};

/// Searches Root with EngineT (Gecode::DFS or Gecode::BAB) under Limits on
/// Threads threads and hands every solution, in the engine's order, to
/// OnSolution, which returns false to end the search there.
template <template <class> class EngineT, class SpaceT>
SearchOutcome search(SpaceT &Root, const SearchLimits &Limits,
                     llvm::function_ref<bool(SpaceT &)> OnSolution,
                     unsigned Threads = 1) {
  LimitStop Stop(Limits);
  Gecode::Search::Options Options;
  Options.threads = Threads;
  if (Stop.isActive())
    Options.stop = &Stop;
  EngineT<SpaceT> Engine(&Root, Options);
  while (SpaceT *Raw = Engine.next()) {
    std::unique_ptr<SpaceT> Solution(Raw);
    if (!OnSolution(*Solution))
      break;
  }
  Gecode::Search::Statistics Stats = Engine.statistics();
  SearchOutcome Outcome;
  Outcome.Stats.Nodes = Stats.node;
  Outcome.Stats.Fails = Stats.fail;
  Outcome.Stats.Propagations = Stats.propagate;
  Outcome.Stats.Depth = Stats.depth;
  Outcome.Stopped = Engine.stopped();
  Outcome.TimedOut = Stop.timedOut();
  return Outcome;
}

/// Runs Body and returns why it failed if Gecode (or the allocator, or
/// anything else) threw; std::nullopt if it returned normally.
std::optional<std::string> catchSolverErrors(llvm::function_ref<void()> Body);

} // namespace csp
} // namespace raf

#endif // RAF_LIB_EMBEDDING_GECODESOLVER_H
