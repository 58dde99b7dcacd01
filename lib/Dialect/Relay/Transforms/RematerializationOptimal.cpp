//===- RematerializationOptimal.cpp - exact recompute choice with Gecode --===//
//
// Checkmate's formulation (Jain et al., MLSys 2020) with the execution order
// fixed: stage t is the t-th op. For every candidate buffer e and stage t
// after its definition,
//
//   R[t][e] = 1  e is recomputed in stage t (a clone just before op t),
//   S[t][e] = 1  e stays resident from stage t-1 into stage t,
//
// subject to
//
//   op t reads e              =>  S[t][e] + R[t][e] >= 1
//   a clone of f in stage t   =>  S[t][e] + R[t][e] >= R[t][f] for its inputs e
//   S[t][e] <= S[t-1][e] + R[t-1][e]          (resident only if it was there)
//   S[t][e] + R[t][e] <= 1
//   fixed(t) + sum_e bytes(e) * (S[t][e] + R[t][e]) <= budget
//
// minimising sum flops(e) * R[t][e]. fixed(t) is the parameters, every
// non-candidate buffer live at t in the original trace and the op's own
// results. A clone may only read a non-candidate buffer that is still live
// at t in the original trace, so recomputation never extends a
// non-candidate's life. Within a stage every clone and resident counts at
// once, which bounds the memory model's live bytes of every step of the
// rewritten function from above; so a solution's peak in the memory model
// is at most the budget. To make "keep, don't recompute" the first branch
// tried, the model uses D = 1 - S.
//
//===----------------------------------------------------------------------===//

#include "RematerializationProblem.h"

#include "raf/Embedding/ConstraintSolver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace raf::relay::remat;
using raf::memory::Buffer;
namespace csp = raf::csp;

namespace {
constexpr int64_t kMagnitude = int64_t(1) << 29;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

class CheckmateModel {
public:
  explicit CheckmateModel(const Problem &problem)
      : problem(problem), buffers(problem.trace.getBuffers()),
        numSteps(problem.trace.getSteps().size()) {
    computeHorizons();
    computeUnits();
  }

  /// Builds the model for `budget` (minimising FLOPs) or, when budget is
  /// nullopt, for the smallest peak.
  void build(std::optional<int64_t> budget) {
    model = csp::Model();
    keepVar.clear();
    recomputeVar.clear();
    infeasible = false;
    createVariables();
    std::optional<csp::VarId> peakVar;
    if (!budget)
      peakVar = model.addIntVar(0, csp::MaxValue - 1, "peak");
    for (unsigned t = 0; t < numSteps; ++t) {
      postAvailability(t);
      postMemory(t, budget, peakVar);
    }
    postContinuity();
    if (peakVar) {
      model.minimize({1}, {*peakVar});
      return;
    }
    std::vector<int64_t> coeffs;
    std::vector<csp::VarId> vars;
    for (auto &[key, var] : recomputeVar) {
      coeffs.push_back(ceilDiv(problem.flops[key.second], flopUnit) + 1);
      vars.push_back(var);
    }
    model.minimize(coeffs, vars);
  }

  bool isTriviallyInfeasible() const { return infeasible; }

  csp::SolveResult solve(unsigned timeLimitMs) {
    csp::SolveOptions options;
    options.Mode = csp::SearchMode::Optimal;
    options.TimeLimitMs = timeLimitMs;
    options.VarSelection = csp::VarOrder::Input;
    options.ValueSelection = csp::ValueOrder::Min;
    return csp::solve(model, options);
  }

  Plan extract(const csp::SolveResult &result) const {
    Plan plan;
    plan.recomputeBefore.resize(numSteps);
    for (auto &[key, var] : recomputeVar)
      if (result.getValue(var))
        plan.recomputeBefore[key.first].push_back(key.second);
    for (auto &list : plan.recomputeBefore)
      llvm::sort(list, [&](unsigned a, unsigned b) {
        return problem.producerStep[a] < problem.producerStep[b];
      });
    return plan;
  }

  int64_t getByteUnit() const { return byteUnit; }

private:
  using Key = std::pair<unsigned, unsigned>; // (stage, buffer)

  /// horizon[e]: the last stage at which e can be needed, by a read or by a
  /// clone of a candidate that reads it.
  void computeHorizons() {
    horizon.assign(buffers.size(), 0);
    for (auto [id, buffer] : llvm::enumerate(buffers))
      horizon[id] = std::min<unsigned>(buffer.lastUseStep, numSteps - 1);
    // Producers come before consumers: a reverse sweep by definition order
    // propagates horizons from consumers to inputs.
    SmallVector<unsigned> order;
    for (size_t id = 0; id < buffers.size(); ++id)
      if (problem.isCandidate[id])
        order.push_back(id);
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return problem.producerStep[a] > problem.producerStep[b];
    });
    for (unsigned f : order)
      for (unsigned e : problem.producerInputs[f])
        if (problem.isCandidate[e])
          horizon[e] = std::max(horizon[e], horizon[f]);

    // Candidates that may be recomputed in each stage: the candidate inputs
    // of the op, and transitively the candidate inputs of their producers.
    needed.assign(numSteps, {});
    activeAt.assign(numSteps, {});
    for (unsigned t = 0; t < numSteps; ++t) {
      llvm::SetVector<unsigned> set;
      SmallVector<std::pair<unsigned, unsigned>> work;
      for (unsigned e : problem.stepInputs[t])
        if (problem.isCandidate[e] && problem.producerStep[e] < t)
          work.push_back({e, 0});
      while (!work.empty()) {
        auto [e, depth] = work.pop_back_val();
        if (!canRecomputeAt(e, t) || !set.insert(e))
          continue;
        if (depth >= problem.limits.maxDepth)
          continue;
        for (unsigned input : problem.producerInputs[e])
          if (problem.isCandidate[input] && problem.producerStep[input] < t)
            work.push_back({input, depth + 1});
      }
      needed[t].assign(set.begin(), set.end());
    }
    for (size_t e = 0; e < buffers.size(); ++e)
      if (problem.isCandidate[e])
        for (unsigned t = problem.producerStep[e] + 1; t <= horizon[e]; ++t)
          activeAt[t].push_back(e);
  }

  /// A clone of e's producer in stage t may only read parameters,
  /// candidates, and non-candidates still live at t.
  bool canRecomputeAt(unsigned e, unsigned t) const {
    for (unsigned input : problem.producerInputs[e]) {
      const Buffer &buffer = buffers[input];
      if (buffer.isParameter || problem.isCandidate[input])
        continue;
      if (buffer.lastUseStep < t)
        return false;
    }
    return true;
  }

  void computeUnits() {
    int64_t totalBytes = problem.trace.getParameterBytes();
    int64_t totalFlops = 0;
    for (auto [id, buffer] : llvm::enumerate(buffers)) {
      totalBytes += buffer.bytes;
      if (problem.isCandidate[id])
        totalFlops += problem.flops[id] * int64_t(numSteps);
    }
    while (totalBytes / byteUnit >= kMagnitude)
      byteUnit *= 2;
    while (totalFlops / flopUnit >= kMagnitude)
      flopUnit *= 2;
  }

  /// Bytes live at stage t whatever the solution: parameters, non-candidate
  /// buffers live in the original trace, and the op's own results.
  int64_t fixedBytes(unsigned t) const {
    int64_t bytes = problem.trace.getParameterBytes();
    for (auto [id, buffer] : llvm::enumerate(buffers)) {
      if (buffer.isParameter)
        continue;
      bool isOwnResult = problem.producerStep[id] == t && buffer.defStep == t;
      if (problem.isCandidate[id] ? isOwnResult
                                  : buffer.defStep <= t &&
                                        t <= buffer.lastUseStep)
        bytes += buffer.bytes;
    }
    return bytes;
  }

  void createVariables() {
    // Stage by stage, so that the input-order search decides the early
    // stages first.
    for (unsigned t = 0; t < numSteps; ++t) {
      for (unsigned e : activeAt[t])
        keepVar[{t, e}] = model.addBoolVar();
      for (unsigned e : needed[t])
        recomputeVar[{t, e}] = model.addBoolVar();
    }
  }

  /// 1 - D + R as (coefficient, variable) terms plus a constant.
  void addPresence(unsigned t, unsigned e, int64_t scale,
                   std::vector<int64_t> &coeffs,
                   std::vector<csp::VarId> &vars, int64_t &constant) const {
    if (auto it = keepVar.find({t, e}); it != keepVar.end()) {
      constant += scale;
      coeffs.push_back(-scale);
      vars.push_back(it->second);
    }
    if (auto it = recomputeVar.find({t, e}); it != recomputeVar.end()) {
      coeffs.push_back(scale);
      vars.push_back(it->second);
    }
  }

  void postAvailability(unsigned t) {
    // Reads of op t, and the inputs of every possible clone in stage t.
    auto requirePresent = [&](unsigned e, std::optional<csp::VarId> when) {
      std::vector<int64_t> coeffs;
      std::vector<csp::VarId> vars;
      int64_t constant = 0;
      addPresence(t, e, 1, coeffs, vars, constant);
      // presence >= 1 (or >= R[t][f]).
      if (when) {
        coeffs.push_back(-1);
        vars.push_back(*when);
        model.addLinear(coeffs, vars, csp::Relation::GE, -constant);
      } else {
        if (vars.empty() && constant < 1) {
          infeasible = true;
          return;
        }
        model.addLinear(coeffs, vars, csp::Relation::GE, 1 - constant);
      }
      // presence <= 1.
      std::vector<int64_t> c2;
      std::vector<csp::VarId> v2;
      int64_t k2 = 0;
      addPresence(t, e, 1, c2, v2, k2);
      if (!v2.empty())
        model.addLinear(c2, v2, csp::Relation::LE, 1 - k2);
    };
    for (unsigned e : problem.stepInputs[t])
      if (problem.isCandidate[e] && problem.producerStep[e] < t)
        requirePresent(e, std::nullopt);
    for (unsigned f : needed[t])
      for (unsigned e : problem.producerInputs[f])
        if (problem.isCandidate[e] && problem.producerStep[e] < t) {
          if (!recomputeVar.count({t, e}) && !keepVar.count({t, e})) {
            // The input cannot be present: f cannot be recomputed here.
            model.addLinear({1}, {recomputeVar.at({t, f})},
                            csp::Relation::EQ, 0);
            continue;
          }
          requirePresent(e, recomputeVar.at({t, f}));
        }
  }

  void postMemory(unsigned t, std::optional<int64_t> budget,
                  std::optional<csp::VarId> peakVar) {
    int64_t fixedUnits = ceilDiv(fixedBytes(t), byteUnit);
    std::vector<int64_t> coeffs;
    std::vector<csp::VarId> vars;
    int64_t constant = fixedUnits;
    for (unsigned e : activeAt[t])
      addPresence(t, e, ceilDiv(buffers[e].bytes, byteUnit), coeffs, vars,
                  constant);
    if (peakVar) {
      coeffs.push_back(-1);
      vars.push_back(*peakVar);
      model.addLinear(coeffs, vars, csp::Relation::LE, -constant);
      return;
    }
    int64_t capUnits = *budget / byteUnit;
    if (vars.empty()) {
      if (constant > capUnits)
        infeasible = true;
      return;
    }
    model.addLinear(coeffs, vars, csp::Relation::LE, capUnits - constant);
  }

  /// S[t][e] <= S[t-1][e] + R[t-1][e], i.e. D[t-1] - D[t] - R[t-1] <= 0.
  void postContinuity() {
    for (size_t e = 0; e < buffers.size(); ++e) {
      if (!problem.isCandidate[e])
        continue;
      for (unsigned t = problem.producerStep[e] + 2; t <= horizon[e]; ++t) {
        std::vector<int64_t> coeffs = {1, -1};
        std::vector<csp::VarId> vars = {keepVar.at({t - 1, e}),
                                        keepVar.at({t, e})};
        if (auto it = recomputeVar.find({t - 1, e});
            it != recomputeVar.end()) {
          coeffs.push_back(-1);
          vars.push_back(it->second);
        }
        model.addLinear(coeffs, vars, csp::Relation::LE, 0);
      }
    }
  }

  const Problem &problem;
  ArrayRef<Buffer> buffers;
  unsigned numSteps;
  SmallVector<unsigned> horizon;
  std::vector<std::vector<unsigned>> needed;
  std::vector<std::vector<unsigned>> activeAt;
  int64_t byteUnit = 1;
  int64_t flopUnit = 1;
  csp::Model model;
  /// D = 1 - S ("dropped") per (stage, buffer).
  std::map<Key, csp::VarId> keepVar;
  std::map<Key, csp::VarId> recomputeVar;
  bool infeasible = false;
};
} // namespace

OptimalResult raf::relay::remat::planOptimally(const Problem &problem,
                                               int64_t budget,
                                               unsigned timeLimitMs) {
  OptimalResult result;
  CheckmateModel model(problem);
  model.build(budget);
  if (model.isTriviallyInfeasible()) {
    result.status = OptimalResult::Status::Infeasible;
    return result;
  }
  csp::SolveResult solved = model.solve(timeLimitMs);
  switch (solved.Status) {
  case csp::SolveStatus::Optimal:
    result.status = OptimalResult::Status::Optimal;
    break;
  case csp::SolveStatus::Feasible:
    result.status = OptimalResult::Status::Feasible;
    break;
  case csp::SolveStatus::Infeasible:
    result.status = OptimalResult::Status::Infeasible;
    return result;
  case csp::SolveStatus::Unknown:
    result.status = OptimalResult::Status::Unknown;
    return result;
  case csp::SolveStatus::Error:
    result.status = OptimalResult::Status::Error;
    result.message = solved.Message;
    return result;
  }
  Plan plan = model.extract(solved);
  plan.proven = result.status == OptimalResult::Status::Optimal;
  plan.note = (plan.proven ? "optimal (Gecode, " : "best found before the "
                                                   "time limit (Gecode, ") +
              std::to_string(solved.Stats.Nodes) + " nodes)";
  result.plan = std::move(plan);
  return result;
}

std::optional<int64_t>
raf::relay::remat::minimumOptimalBudget(const Problem &problem,
                                        unsigned timeLimitMs, bool &proven) {
  CheckmateModel model(problem);
  model.build(std::nullopt);
  csp::SolveResult solved = model.solve(timeLimitMs);
  proven = solved.Status == csp::SolveStatus::Optimal;
  if (!solved.hasSolution() || !solved.ObjectiveValue)
    return std::nullopt;
  return *solved.ObjectiveValue * model.getByteUnit();
}
