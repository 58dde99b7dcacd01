//===- RematerializationOptimal.cpp - exact recompute choice with Gecode --===//
//
// Checkmate's formulation (Jain et al., MLSys 2020) with the execution order
// fixed, stage t being the t-th op: R[t][e] = 1 recomputes candidate e in
// stage t (a clone just before op t), S[t][e] = 1 keeps e resident from
// stage t-1 into stage t, and
//
//   op t reads e              =>  S[t][e] + R[t][e] >= 1
//   a clone of f in stage t   =>  S[t][e] + R[t][e] >= R[t][f] for its inputs e
//   S[t][e] <= S[t-1][e] + R[t-1][e]          (resident only if it was there)
//   S[t][e] + R[t][e] <= 1
//   fixed(t) + sum_e bytes(e) * (S[t][e] + R[t][e]) <= budget
//
// minimising sum flops(e) * R[t][e]. fixed(t) is the parameters, every
// non-candidate buffer live at t in the original trace and the op's own
// results. e may be recomputed in stage t when it is, within max-depth, an
// operand of op t or an input of the producer of one that may be; a clone
// may only read a non-candidate buffer that is still live at t in the
// original trace, so recomputation never extends a non-candidate's life.
// Within a stage every clone and resident counts at once, which bounds the
// memory model's live bytes of every step of the rewritten function from
// above; so a solution's peak in the memory model is at most the budget.
//
// The model solved is a reduction of that one with the same optimum, by
// rules that each turn any solution into one at least as good:
//
// * A candidate only matters at its *use stages*, those where op t reads
//   it, a clone that may run there reads it, or it may itself be
//   recomputed. S is constant between two use stages (keeping e through
//   stages where nothing reads it only to drop it before the next use
//   wastes memory): one "keep" variable K[i][e] stands for S over the gap
//   that ends at e's i-th use stage.
// * Presence at a use stage that nothing reads carries on to the next use:
//   K[i] + R[i] <= K[i+1] + (reads at i).
// * A stage is *constrained* when it could exceed the budget with every
//   candidate that may be there. Keeping e through stages that are not
//   costs no FLOPs and breaks nothing, so e is not recomputed in t when no
//   constrained stage lies between its production and t (no variable), nor
//   when it is present at an earlier use stage with no constrained stage in
//   between.
// * A clone nothing reads in its stage is kept for a later use. Making it
//   at that next use stage instead holds less memory, so it is only made
//   early when the next use stage lacks one of its inputs, or when keeping
//   its inputs up to the next use would cross a constrained stage.
//
// Memory constraints are added lazily. The first model only constrains the
// stages where the unoptimised trace exceeds the budget: a relaxation whose
// optimum is a lower bound. Every stage its solution overflows becomes
// constrained and the model is solved again, until a solution fits every
// stage; that solution is optimal. Fewer constrained stages also make the
// rules above remove most variables.
//
// The objective is recomputed FLOPs divided by their greatest common
// divisor, with recomputations of zero-FLOP ops (reshapes) breaking ties,
// so the optimum is exact in FLOPs. When method=raf has a plan, its cost
// bounds the objective from above and its keep/recompute choices are the
// values the search tries first: the first solution is raf's plan (when the
// model can express it) and the search only has to improve on it or prove
// that it cannot.
//
//===----------------------------------------------------------------------===//

#include "RematerializationProblem.h"

#include "raf/Embedding/ConstraintSolver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <chrono>
#include <numeric>

using namespace mlir;
using namespace raf::relay::remat;
using raf::memory::Buffer;
namespace csp = raf::csp;

namespace {
constexpr int64_t kMagnitude = int64_t(1) << 29;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// A stage at which a candidate may be read or recomputed after its
/// definition.
struct Use {
  unsigned stage = 0;
  /// The op of the stage reads the candidate (it must be present).
  bool byOp = false;
  /// Candidates that may be recomputed in the stage and whose producer
  /// reads this one.
  SmallVector<unsigned, 2> readers;
};

class RecomputeModel {
public:
  explicit RecomputeModel(const Problem &problem)
      : problem(problem), buffers(problem.trace.getBuffers()),
        numSteps(problem.trace.getSteps().size()) {
    int64_t totalBytes = problem.trace.getParameterBytes();
    for (const Buffer &buffer : buffers)
      totalBytes += buffer.bytes;
    while (totalBytes / byteUnit >= kMagnitude)
      byteUnit *= 2;
    stageFixed.resize(numSteps);
    for (unsigned t = 0; t < numSteps; ++t)
      stageFixed[t] = computeFixedUnits(t);
  }

  /// Builds the model for `budget`, minimising FLOPs (at most as many as
  /// `reference` recomputes, when given). Only the stages set in `watched`
  /// have a memory constraint: with fewer than all, the model is a
  /// relaxation of the full one.
  void build(int64_t budget, const Plan *reference,
             const std::vector<bool> &watched) {
    model = csp::Model();
    cap = budget / byteUnit;
    computeConstrainedUses(watched);
    chooseFlopUnit(reference);
    infeasible = false;
    createVariables();
    for (unsigned e = 0; e < buffers.size(); ++e)
      postTensor(e);
    for (unsigned t = 0; t < numSteps; ++t)
      if (constrained[t])
        postMemory(t);
    std::vector<int64_t> coeffs;
    std::vector<csp::VarId> vars;
    for (unsigned e = 0; e < buffers.size(); ++e)
      for (const std::optional<csp::VarId> &var : recomputeVar[e])
        if (var) {
          coeffs.push_back(costUnits(e));
          vars.push_back(*var);
        }
    std::optional<int64_t> bound;
    if (reference)
      bound = costOf(*reference);
    model.minimize(coeffs, vars, bound);
  }

  bool isTriviallyInfeasible() const { return infeasible; }

  /// Solves the model, trying first the choices of `hint`, if they are a
  /// solution, else those of `fallback`.
  csp::SolveResult solve(unsigned timeLimitMs, const Plan *hint,
                         const Plan *fallback, bool firstOnly) {
    csp::SolveOptions options;
    options.Mode =
        firstOnly ? csp::SearchMode::First : csp::SearchMode::Optimal;
    options.TimeLimitMs = timeLimitMs;
    // Variables are created stage by stage (see createVariables).
    options.VarSelection = csp::VarOrder::Input;
    options.ValueSelection = csp::ValueOrder::Min;
    // Keep rather than drop, do not recompute; or what `hint` does.
    options.Hint.resize(model.getNumVars());
    for (unsigned e = 0; e < buffers.size(); ++e)
      for (auto [keep, recompute] :
           llvm::zip_equal(keepVar[e], recomputeVar[e])) {
        options.Hint[keep.Index] = 1;
        if (recompute)
          options.Hint[recompute->Index] = 0;
      }
    std::vector<std::optional<int64_t>> defaults = options.Hint;
    if (hint) {
      setHint(*hint, options.Hint);
      // A hint the model cannot express leads the search astray.
      std::vector<int64_t> values;
      for (const std::optional<int64_t> &value : options.Hint)
        values.push_back(value.value_or(0));
      if (!model.isSolution(values))
        options.Hint = std::move(defaults);
      else
        fallback = nullptr;
    }
    if (fallback)
      setHint(*fallback, options.Hint);
    return csp::solve(model, options);
  }

  /// The stages where the unoptimised trace exceeds `budget`.
  std::vector<bool> getOverflowingStages(int64_t budget) const {
    std::vector<bool> stages(numSteps);
    for (unsigned t = 0; t < numSteps; ++t)
      stages[t] = keepAllUnits(t) > budget / byteUnit;
    return stages;
  }

  /// Marks in `watched` the stages where `result` exceeds `budget`; returns
  /// whether there are any.
  bool watchOverflows(const csp::SolveResult &result, int64_t budget,
                      std::vector<bool> &watched) const {
    bool any = false;
    for (unsigned t = 0; t < numSteps; ++t)
      if (getStageUnits(result, t) > budget / byteUnit) {
        watched[t] = true;
        any = true;
      }
    return any;
  }

  Plan extract(const csp::SolveResult &result) const {
    Plan plan;
    plan.recomputeBefore.resize(numSteps);
    for (unsigned e = 0; e < buffers.size(); ++e)
      for (auto [use, var] : llvm::zip_equal(uses[e], recomputeVar[e]))
        if (var && result.getValue(*var))
          plan.recomputeBefore[use.stage].push_back(e);
    for (auto &list : plan.recomputeBefore)
      llvm::sort(list, [&](unsigned a, unsigned b) {
        return problem.producerStep[a] < problem.producerStep[b];
      });
    return plan;
  }

  unsigned getNumSteps() const { return numSteps; }
  int64_t getByteUnit() const { return byteUnit; }
  bool hasExactFlops() const { return exactFlops; }
  /// The unoptimised trace's peak in byte units, times the unit.
  int64_t getKeepAllPeak() const {
    int64_t peak = 0;
    for (unsigned t = 0; t < numSteps; ++t)
      peak = std::max(peak, keepAllUnits(t));
    return peak * byteUnit;
  }

private:
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

  /// Fills `needed` (per stage, the candidates that may be recomputed
  /// there) and `uses` for the current constrained stages.
  void computeUses() {
    uses.assign(buffers.size(), {});
    needed.assign(numSteps, {});
    // Constrained stages before each stage.
    SmallVector<unsigned> before(numSteps + 1, 0);
    for (unsigned t = 0; t < numSteps; ++t)
      before[t + 1] = before[t] + (constrained[t] ? 1 : 0);
    // (buffer, stage) -> index in uses[buffer].
    DenseMap<std::pair<unsigned, unsigned>, unsigned> index;
    auto useAt = [&](unsigned e, unsigned t) -> Use & {
      auto [it, inserted] = index.try_emplace({e, t}, uses[e].size());
      if (inserted) {
        uses[e].emplace_back();
        uses[e].back().stage = t;
      }
      return uses[e][it->second];
    };
    for (unsigned t = 0; t < numSteps; ++t) {
      // The candidate operands of op t and, breadth first (so that each is
      // reached at its smallest depth), the candidate inputs of their
      // producers that can be recomputed at t, to max-depth.
      llvm::SetVector<unsigned> closure;
      SmallVector<std::pair<unsigned, unsigned>> work;
      for (unsigned e : problem.stepInputs[t])
        if (problem.isCandidate[e] && problem.producerStep[e] < t) {
          useAt(e, t).byOp = true;
          if (canRecomputeAt(e, t) && closure.insert(e))
            work.push_back({e, 0});
        }
      for (size_t next = 0; next < work.size(); ++next) {
        auto [f, depth] = work[next];
        if (depth >= problem.limits.maxDepth)
          continue;
        for (unsigned e : problem.producerInputs[f])
          if (problem.isCandidate[e] && canRecomputeAt(e, t) &&
              closure.insert(e))
            work.push_back({e, depth + 1});
      }
      // Without a constrained stage since its production, keeping e is
      // free: it is not recomputed.
      for (unsigned f : closure)
        if (before[t] > before[problem.producerStep[f] + 1])
          needed[t].push_back(f);
      for (unsigned f : needed[t]) {
        useAt(f, t);
        for (unsigned e : problem.producerInputs[f])
          if (problem.isCandidate[e])
            useAt(e, t).readers.push_back(f);
      }
    }
    for (auto &list : uses)
      llvm::sort(list,
                 [](const Use &a, const Use &b) { return a.stage < b.stage; });
    stageMax.assign(numSteps, 0);
    for (unsigned t = 0; t < numSteps; ++t) {
      stageMax[t] = stageFixed[t];
      for (unsigned e = 0; e < buffers.size(); ++e)
        if (gapAt(e, t))
          stageMax[t] += bytesUnits(e);
    }
  }

  /// A watched stage is constrained while it can exceed the cap with every
  /// candidate that may be there. Fewer constrained stages allow fewer
  /// recomputations, hence fewer candidates at each stage: iterate to a
  /// fixpoint.
  void computeConstrainedUses(const std::vector<bool> &watched) {
    constrained.assign(numSteps, true);
    computeUses();
    while (true) {
      std::vector<bool> next(numSteps);
      for (unsigned t = 0; t < numSteps; ++t)
        next[t] = watched[t] && stageMax[t] > cap;
      if (next == constrained)
        return;
      constrained = std::move(next);
      computeUses();
    }
  }

  /// Chooses the FLOP unit: their greatest common divisor, so that the
  /// objective is exact, with ties between plans of equal FLOPs going to
  /// the one with fewer zero-FLOP clones (a weight above the number of
  /// zero-FLOP recompute variables). If the objective's range, up to the
  /// reference plan's cost when there is one, does not fit the solver, the
  /// tie-break goes first, then FLOPs are rounded up to coarser units.
  void chooseFlopUnit(const Plan *reference) {
    int64_t divisor = 0;
    unsigned zeroFlopVars = 0;
    for (unsigned t = 0; t < numSteps; ++t)
      for (unsigned e : needed[t]) {
        if (problem.flops[e] == 0)
          ++zeroFlopVars;
        divisor = std::gcd(divisor, problem.flops[e]);
      }
    flopUnit = std::max<int64_t>(divisor, 1);
    tieWeight = zeroFlopVars + 1;
    constexpr int64_t limit = csp::MaxValue / 2;
    auto range = [&]() {
      // Saturating: only whether it exceeds the limit matters.
      int64_t total = 0;
      for (unsigned t = 0; t < numSteps && total <= limit; ++t)
        for (unsigned e : needed[t])
          total += std::min(costUnits(e), limit + 1);
      if (reference)
        if (std::optional<int64_t> cost = costOf(*reference))
          total = std::min(total, *cost);
      return total;
    };
    if (range() > limit)
      tieWeight = 1;
    while (range() > limit)
      flopUnit *= 2;
    exactFlops = flopUnit == std::max<int64_t>(divisor, 1);
  }

  int64_t costUnits(unsigned e) const {
    int64_t flops = problem.flops[e];
    return ceilDiv(flops, flopUnit) * tieWeight + (flops == 0 ? 1 : 0);
  }

  /// The cost of `plan` in objective units; nullopt if it recomputes a
  /// buffer that is not a candidate.
  std::optional<int64_t> costOf(const Plan &plan) const {
    int64_t cost = 0;
    for (const auto &list : plan.recomputeBefore)
      for (unsigned e : list) {
        if (!problem.isCandidate[e])
          return std::nullopt;
        cost += costUnits(e);
      }
    return cost;
  }

  int64_t bytesUnits(unsigned e) const {
    return ceilDiv(buffers[e].bytes, byteUnit);
  }

  /// Bytes live at stage t whatever the solution: parameters, non-candidate
  /// buffers live in the original trace, and the op's own results.
  int64_t computeFixedUnits(unsigned t) const {
    int64_t bytes = problem.trace.getParameterBytes();
    for (auto [id, buffer] : llvm::enumerate(buffers)) {
      if (buffer.isParameter)
        continue;
      bool isOwnResult = problem.producerStep[id] == t && buffer.defStep == t;
      if (problem.isCandidate[id]
              ? isOwnResult
              : buffer.defStep <= t && t <= buffer.lastUseStep)
        bytes += buffer.bytes;
    }
    return ceilDiv(bytes, byteUnit);
  }

  int64_t fixedUnits(unsigned t) const { return stageFixed[t]; }

  /// Stage t's memory without recomputation.
  int64_t keepAllUnits(unsigned t) const {
    int64_t units = fixedUnits(t);
    for (unsigned e = 0; e < buffers.size(); ++e)
      if (problem.isCandidate[e] && problem.producerStep[e] < t &&
          t <= buffers[e].lastUseStep)
        units += bytesUnits(e);
    return units;
  }

  /// Index in uses[e] of the use stage whose gap contains t (the first use
  /// at or after t), or nullopt when e is not in the model at t.
  std::optional<unsigned> gapAt(unsigned e, unsigned t) const {
    const auto &list = uses[e];
    if (list.empty() || t <= problem.producerStep[e] || t > list.back().stage)
      return std::nullopt;
    auto it = llvm::partition_point(
        list, [&](const Use &use) { return use.stage < t; });
    return it - list.begin();
  }

  /// Units of memory a solution holds at stage t.
  int64_t getStageUnits(const csp::SolveResult &result, unsigned t) const {
    int64_t units = fixedUnits(t);
    for (unsigned e = 0; e < buffers.size(); ++e) {
      std::optional<unsigned> i = gapAt(e, t);
      if (!i)
        continue;
      int64_t present = result.getValue(keepVar[e][*i]);
      if (uses[e][*i].stage == t && recomputeVar[e][*i])
        present += result.getValue(*recomputeVar[e][*i]);
      units += present * bytesUnits(e);
    }
    return units;
  }

  void createVariables() {
    // In time order, so that the input-order search decides the stages one
    // after the other and a stage's memory is known as soon as the search
    // has passed it: at stage s, which candidates are recomputed in s, then
    // which of those present in s (or produced by its op) stay resident
    // after it.
    keepVar.assign(buffers.size(), {});
    recomputeVar.assign(buffers.size(), {});
    // (stage, recompute before keep, buffer, index of the use)
    SmallVector<std::tuple<unsigned, bool, unsigned, unsigned>> order;
    for (unsigned e = 0; e < buffers.size(); ++e) {
      keepVar[e].resize(uses[e].size());
      recomputeVar[e].resize(uses[e].size());
      for (auto [i, use] : llvm::enumerate(uses[e])) {
        unsigned start =
            i == 0 ? problem.producerStep[e] : uses[e][i - 1].stage;
        order.push_back({start, true, e, i});
        if (llvm::is_contained(needed[use.stage], e))
          order.push_back({use.stage, false, e, i});
      }
    }
    llvm::sort(order);
    for (auto [t, isKeep, e, i] : order) {
      if (isKeep)
        keepVar[e][i] = model.addBoolVar();
      else
        recomputeVar[e][i] = model.addBoolVar();
    }
  }

  /// Whether a stage has no memory constraint, so keeping more there
  /// breaks nothing.
  bool isRoomy(unsigned t) const { return !constrained[t]; }

  /// Adds scale * (presence of e at its i-th use stage, K + R).
  void addPresence(unsigned e, unsigned i, int64_t scale,
                   std::vector<int64_t> &coeffs,
                   std::vector<csp::VarId> &vars) const {
    coeffs.push_back(scale);
    vars.push_back(keepVar[e][i]);
    if (recomputeVar[e][i]) {
      coeffs.push_back(scale);
      vars.push_back(*recomputeVar[e][i]);
    }
  }

  /// Adds scale * (presence of e at stage t), which must be in the model.
  void addPresenceAt(unsigned e, unsigned t, int64_t scale,
                     std::vector<int64_t> &coeffs,
                     std::vector<csp::VarId> &vars) const {
    unsigned i = *gapAt(e, t);
    if (uses[e][i].stage == t) {
      addPresence(e, i, scale, coeffs, vars);
      return;
    }
    coeffs.push_back(scale);
    vars.push_back(keepVar[e][i]);
  }

  /// Adds -R[t][f] for every reader f of `use`.
  void subtractReaders(const Use &use, std::vector<int64_t> &coeffs,
                       std::vector<csp::VarId> &vars) const {
    for (unsigned f : use.readers) {
      std::optional<unsigned> i = gapAt(f, use.stage);
      coeffs.push_back(-1);
      vars.push_back(*recomputeVar[f][*i]);
    }
  }

  /// The constraints on one candidate's variables.
  void postTensor(unsigned e) {
    const auto &list = uses[e];
    for (auto [i, use] : llvm::enumerate(list)) {
      bool last = i + 1 == list.size();
      std::optional<csp::VarId> recompute = recomputeVar[e][i];
      std::vector<int64_t> coeffs;
      std::vector<csp::VarId> vars;
      addPresence(e, i, 1, coeffs, vars);
      // At most one copy.
      if (recompute)
        model.addLinear(coeffs, vars, csp::Relation::LE, 1);
      // Read by the op, or by the clones of the stage.
      if (use.byOp)
        model.addLinear(coeffs, vars, csp::Relation::GE, 1);
      for (unsigned f : use.readers) {
        std::vector<int64_t> c = coeffs;
        std::vector<csp::VarId> v = vars;
        c.push_back(-1);
        v.push_back(*recomputeVar[f][*gapAt(f, use.stage)]);
        model.addLinear(c, v, csp::Relation::GE, 0);
      }
      // Resident into the next gap only if present here.
      if (!last) {
        std::vector<int64_t> c = {1};
        std::vector<csp::VarId> v = {keepVar[e][i + 1]};
        addPresence(e, i, -1, c, v);
        model.addLinear(c, v, csp::Relation::LE, 0);
      }
      if (use.byOp)
        continue;
      // Present without a reader only if resident into the next gap.
      {
        std::vector<int64_t> c = coeffs;
        std::vector<csp::VarId> v = vars;
        if (!last) {
          c.push_back(-1);
          v.push_back(keepVar[e][i + 1]);
        }
        subtractReaders(use, c, v);
        model.addLinear(c, v, csp::Relation::LE, 0);
      }
      // A clone nothing reads in its stage (kept for a later use) only if
      // it could not be made at the next use stage instead: when keeping
      // its inputs up to there crosses a constrained stage and one of them
      // is missing there.
      if (recompute && !last && recomputeVar[e][i + 1]) {
        unsigned next = list[i + 1].stage;
        bool roomy = true;
        for (unsigned t = use.stage + 1; t <= next && roomy; ++t)
          roomy = isRoomy(t);
        std::vector<int64_t> c = {1};
        std::vector<csp::VarId> v = {*recompute};
        subtractReaders(use, c, v);
        int64_t inputs = 0;
        bool missing = false;
        for (unsigned x : problem.producerInputs[e]) {
          if (roomy || !problem.isCandidate[x])
            continue;
          if (!gapAt(x, next)) {
            missing = true;
            break;
          }
          ++inputs;
          addPresenceAt(x, next, 1, c, v);
        }
        if (!missing)
          model.addLinear(c, v, csp::Relation::LE, inputs);
      }
    }
    postKeepInsteadOfRecompute(e);
  }

  /// e is not recomputed at a use stage when it is present at an earlier
  /// one with no constrained stage in between: keeping it costs nothing.
  void postKeepInsteadOfRecompute(unsigned e) {
    const auto &list = uses[e];
    for (auto [i, use] : llvm::enumerate(list)) {
      std::optional<csp::VarId> recompute = recomputeVar[e][i];
      if (!recompute)
        continue;
      unsigned t = use.stage;
      for (unsigned j = i; j-- > 0;) {
        bool roomy = true;
        for (; t > list[j].stage + 1 && roomy; --t)
          roomy = isRoomy(t - 1);
        if (!roomy)
          break;
        std::vector<int64_t> c = {1};
        std::vector<csp::VarId> v = {*recompute};
        addPresence(e, j, 1, c, v);
        model.addLinear(c, v, csp::Relation::LE, 1);
        // The earlier use stage is inside the next window.
        if (!isRoomy(list[j].stage))
          break;
        t = list[j].stage;
      }
    }
  }

  void postMemory(unsigned t) {
    std::vector<int64_t> coeffs;
    std::vector<csp::VarId> vars;
    for (unsigned e = 0; e < buffers.size(); ++e)
      if (gapAt(e, t))
        addPresenceAt(e, t, bytesUnits(e), coeffs, vars);
    int64_t slack = cap - fixedUnits(t);
    if (slack < 0) {
      infeasible = true;
      return;
    }
    model.addLinear(coeffs, vars, csp::Relation::LE, slack);
  }

  /// Sets the variables' values in `plan`: each copy of a candidate lives
  /// from the stage that makes it to its last reader.
  void setHint(const Plan &plan,
               std::vector<std::optional<int64_t>> &values) const {
    struct Copy {
      unsigned made, lastUse;
    };
    std::vector<SmallVector<Copy, 2>> copies(buffers.size());
    for (unsigned e = 0; e < buffers.size(); ++e)
      if (problem.isCandidate[e])
        copies[e].push_back({problem.producerStep[e], problem.producerStep[e]});
    for (unsigned t = 0; t < numSteps; ++t) {
      for (unsigned f : plan.recomputeBefore[t]) {
        for (unsigned e : problem.producerInputs[f])
          if (problem.isCandidate[e])
            copies[e].back().lastUse = t;
        copies[f].push_back({t, t});
      }
      for (unsigned e : problem.stepInputs[t])
        if (problem.isCandidate[e])
          copies[e].back().lastUse = t;
    }
    for (unsigned e = 0; e < buffers.size(); ++e)
      for (auto [i, use] : llvm::enumerate(uses[e])) {
        bool kept = llvm::any_of(copies[e], [&](const Copy &copy) {
          return copy.made < use.stage && copy.lastUse >= use.stage;
        });
        bool recomputed = llvm::any_of(copies[e], [&](const Copy &copy) {
          return copy.made == use.stage && copy.made != problem.producerStep[e];
        });
        values[keepVar[e][i].Index] = kept;
        if (recomputeVar[e][i])
          values[recomputeVar[e][i]->Index] = recomputed;
      }
  }

  const Problem &problem;
  ArrayRef<Buffer> buffers;
  unsigned numSteps;
  std::vector<std::vector<Use>> uses;
  std::vector<std::vector<unsigned>> needed;
  int64_t byteUnit = 1;
  int64_t flopUnit = 1;
  int64_t tieWeight = 1;
  bool exactFlops = true;
  /// The budget in byte units.
  int64_t cap = 0;
  /// Per stage, in byte units: what is live whatever the solution, and
  /// that plus every candidate that may be there.
  SmallVector<int64_t> stageFixed;
  SmallVector<int64_t> stageMax;
  /// Per stage: whether the model has its memory constraint.
  std::vector<bool> constrained;
  csp::Model model;
  std::vector<std::vector<csp::VarId>> keepVar;
  std::vector<std::vector<std::optional<csp::VarId>>> recomputeVar;
  bool infeasible = false;
};

using Clock = std::chrono::steady_clock;

/// Milliseconds left before `deadline`, at least 1 so that a solve call
/// keeps a limit.
unsigned remainingMs(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                  deadline - Clock::now())
                  .count();
  return left < 1 ? 1 : static_cast<unsigned>(left);
}

/// Solves the model for `budget` with lazily added memory constraints (see
/// the file comment). `firstOnly` stops at the first plan that fits.
OptimalResult solveLazily(RecomputeModel &model, int64_t budget,
                          const Plan *reference, Clock::time_point deadline,
                          bool firstOnly) {
  OptimalResult result;
  result.boundedByReference = reference != nullptr;
  Clock::time_point start = Clock::now();
  std::vector<bool> watched = model.getOverflowingStages(budget);

  // The search starts from raf's plan when the model can express it, else
  // from the previous round's solution or the unoptimised schedule.
  Plan previous;
  previous.recomputeBefore.resize(model.getNumSteps());
  while (true) {
    ++result.rounds;
    model.build(budget, reference, watched);
    result.exactFlops = model.hasExactFlops();
    if (model.isTriviallyInfeasible()) {
      result.status = OptimalResult::Status::Infeasible;
      break;
    }
    csp::SolveResult solved =
        model.solve(remainingMs(deadline), reference, &previous, firstOnly);
    result.nodes += solved.Stats.Nodes;
    if (solved.Status == csp::SolveStatus::Error) {
      result.status = OptimalResult::Status::Error;
      result.message = solved.Message;
      break;
    }
    if (solved.Status == csp::SolveStatus::Infeasible) {
      // The relaxation has no solution, so neither has the full model.
      result.status = OptimalResult::Status::Infeasible;
      break;
    }
    if (!solved.hasSolution()) {
      result.status = OptimalResult::Status::Unknown;
      break;
    }
    bool complete = solved.Status == csp::SolveStatus::Optimal ||
                    (firstOnly && !solved.LimitReached);
    if (!model.watchOverflows(solved, budget, watched)) {
      result.status = complete ? OptimalResult::Status::Optimal
                               : OptimalResult::Status::Feasible;
      result.plan = model.extract(solved);
      result.plan->proven =
          solved.Status == csp::SolveStatus::Optimal && result.exactFlops;
      break;
    }
    if (!complete) {
      // The time limit stopped a relaxation whose best solution does not
      // fit: no plan.
      result.status = OptimalResult::Status::Unknown;
      break;
    }
    previous = model.extract(solved);
  }
  result.solveMs =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return result;
}
} // namespace

OptimalResult raf::relay::remat::planOptimally(const Problem &problem,
                                               int64_t budget,
                                               unsigned timeLimitMs,
                                               const Plan *reference) {
  RecomputeModel model(problem);
  return solveLazily(model, budget, reference,
                     Clock::now() + std::chrono::milliseconds(timeLimitMs),
                     /*firstOnly=*/false);
}

std::optional<int64_t>
raf::relay::remat::minimumOptimalBudget(const Problem &problem,
                                        int64_t infeasibleBudget,
                                        unsigned timeLimitMs, bool &proven) {
  Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(timeLimitMs);
  RecomputeModel model(problem);
  // Bisection over budgets in byte units: `low` is known infeasible,
  // `high` feasible (the unoptimised schedule meets its own peak). A search
  // the time limit stops counts as infeasible and makes the answer an upper
  // bound.
  int64_t unit = model.getByteUnit();
  int64_t low = infeasibleBudget / unit;
  int64_t high = ceilDiv(model.getKeepAllPeak(), unit);
  proven = true;
  while (low + 1 < high) {
    int64_t mid = low + (high - low) / 2;
    OptimalResult result = solveLazily(model, mid * unit, nullptr, deadline,
                                       /*firstOnly=*/true);
    switch (result.status) {
    case OptimalResult::Status::Optimal:
    case OptimalResult::Status::Feasible:
      high = mid;
      break;
    case OptimalResult::Status::Infeasible:
      low = mid;
      break;
    case OptimalResult::Status::Unknown:
    case OptimalResult::Status::Error:
      proven = false;
      low = mid;
      break;
    }
  }
  return high * unit;
}
