//===- ConstraintSolver.cpp - Finite-domain constraint solving ------------===//
//
// Translates a raf::csp::Model into a Gecode space and searches it, and
// implements the Gecode layer (GecodeSolver.h) the dataflow embedding's model
// is built and searched with as well. Compiled with -fexceptions: every
// exception Gecode raises while posting or searching is caught
// (catchSolverErrors) and reported as SolveStatus::Error.
//
//===----------------------------------------------------------------------===//

#include "raf/Embedding/ConstraintSolver.h"

#include "GecodeSolver.h"

#include "llvm/ADT/STLExtras.h"

#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <new>

using namespace raf::csp;
using llvm::ArrayRef;
using llvm::StringRef;

// The documented limits must be Gecode's, or validation would accept models
// that Gecode rejects (or reject valid ones).
static_assert(MaxValue == Gecode::Int::Limits::max,
              "MaxValue must match Gecode's integer limit");
static_assert(MinValue == Gecode::Int::Limits::min,
              "MinValue must match Gecode's integer limit");

static bool inRange(int64_t V) { return V >= MinValue && V <= MaxValue; }

static int64_t magnitude(int64_t V) { return V < 0 ? -V : V; }

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

void Model::fail(const std::string &Message) {
  // Later errors are usually consequences of the first one, so only that one
  // is kept.
  if (Error.empty())
    Error = Message;
}

bool Model::checkVars(ArrayRef<VarId> Ids, StringRef What) {
  for (VarId V : Ids) {
    if (!isValid(V)) {
      fail(What.str() + ": unknown variable id " + std::to_string(V.Index));
      return false;
    }
  }
  return true;
}

VarId Model::addIntVar(int64_t Lo, int64_t Hi, StringRef Name) {
  VarId Id{static_cast<unsigned>(Vars.size())};
  // The variable is kept even if invalid so that the ids handed out stay
  // dense; the recorded error stops the model from being solved.
  std::string Domain =
      "[" + std::to_string(Lo) + ", " + std::to_string(Hi) + "]";
  if (!inRange(Lo) || !inRange(Hi))
    fail("variable '" + Name.str() + "': bounds " + Domain +
         " exceed the solver range [" + std::to_string(MinValue) + ", " +
         std::to_string(MaxValue) + "]");
  else if (Lo > Hi)
    fail("variable '" + Name.str() + "': empty domain " + Domain);
  Vars.push_back(Variable{Lo, Hi, Name.str(), /*IsBool=*/false});
  return Id;
}

VarId Model::addBoolVar(StringRef Name) {
  VarId Id = addIntVar(0, 1, Name);
  Vars.back().IsBool = true;
  return Id;
}

/// Sums the coefficients of repeated variables and drops zero terms, so that
/// the limits are checked on what Gecode will actually post (Gecode merges
/// repeated variables itself and throws if a merged coefficient overflows).
/// Returns false and sets Message if a coefficient is out of range.
static bool normalizeTerms(ArrayRef<int64_t> Coeffs, ArrayRef<VarId> Vars,
                           std::vector<int64_t> &OutCoeffs,
                           std::vector<VarId> &OutVars, std::string &Message) {
  std::map<unsigned, int64_t> Merged;
  std::vector<unsigned> Order;
  for (size_t I = 0, E = Coeffs.size(); I != E; ++I) {
    if (!inRange(Coeffs[I])) {
      Message = "coefficient " + std::to_string(Coeffs[I]) +
                " exceeds the solver range";
      return false;
    }
    auto [It, Inserted] = Merged.try_emplace(Vars[I].Index, 0);
    if (Inserted)
      Order.push_back(Vars[I].Index);
    // At most 2^32 terms of magnitude below 2^31 each: no int64 overflow.
    It->second += Coeffs[I];
  }
  for (unsigned Index : Order) {
    int64_t C = Merged[Index];
    if (C == 0)
      continue;
    if (!inRange(C)) {
      Message = "merged coefficient " + std::to_string(C) +
                " of a repeated variable exceeds the solver range";
      return false;
    }
    OutCoeffs.push_back(C);
    OutVars.push_back(VarId{Index});
  }
  return true;
}

void Model::addLinear(ArrayRef<int64_t> Coeffs, ArrayRef<VarId> Ids,
                      Relation Rel, int64_t Rhs) {
  if (Coeffs.size() != Ids.size()) {
    fail("linear constraint: " + std::to_string(Coeffs.size()) +
         " coefficients for " + std::to_string(Ids.size()) + " variables");
    return;
  }
  if (!checkVars(Ids, "linear constraint"))
    return;
  if (!inRange(Rhs)) {
    fail("linear constraint: right-hand side " + std::to_string(Rhs) +
         " exceeds the solver range");
    return;
  }
  Constraint C;
  C.Kind = Constraint::KindTy::Linear;
  C.Rel = Rel;
  C.Rhs = Rhs;
  std::string Message;
  if (!normalizeTerms(Coeffs, Ids, C.Coeffs, C.Vars, Message)) {
    fail("linear constraint: " + Message);
    return;
  }
  // Each product is below 2^62 and the running sum is checked against 2^48
  // before every addition, so the accumulation cannot overflow.
  int64_t Sum = magnitude(Rhs);
  for (size_t I = 0, E = C.Coeffs.size(); I != E; ++I) {
    const Variable &V = Vars[C.Vars[I].Index];
    int64_t Largest = std::max(magnitude(V.Lo), magnitude(V.Hi));
    Sum += magnitude(C.Coeffs[I]) * Largest;
    if (Sum > MaxLinearMagnitude) {
      fail("linear constraint: |rhs| + sum |a_i| * max|x_i| exceeds 2^48, "
           "the precision of the solver's linear propagation");
      return;
    }
  }
  Constraints.push_back(std::move(C));
}

void Model::addAllDifferent(ArrayRef<VarId> Ids) {
  if (!checkVars(Ids, "all-different constraint"))
    return;
  Constraint C;
  C.Kind = Constraint::KindTy::AllDifferent;
  C.Vars.assign(Ids.begin(), Ids.end());
  Constraints.push_back(std::move(C));
}

void Model::addElement(ArrayRef<int64_t> Table, VarId Index, VarId Result) {
  if (!checkVars({Index, Result}, "element constraint"))
    return;
  if (Table.empty()) {
    fail("element constraint: empty table");
    return;
  }
  if (!llvm::all_of(Table, inRange)) {
    fail("element constraint: table value exceeds the solver range");
    return;
  }
  if (Table.size() > static_cast<size_t>(MaxValue)) {
    fail("element constraint: table too large");
    return;
  }
  Constraint C;
  C.Kind = Constraint::KindTy::Element;
  C.Vars = {Index, Result};
  C.Values.assign(Table.begin(), Table.end());
  Constraints.push_back(std::move(C));
}

void Model::addTable(ArrayRef<VarId> Ids, ArrayRef<int64_t> Rows) {
  if (Ids.empty()) {
    fail("table constraint: no variables");
    return;
  }
  if (!checkVars(Ids, "table constraint"))
    return;
  if (Rows.size() % Ids.size() != 0) {
    fail("table constraint: " + std::to_string(Rows.size()) +
         " values do not form rows of " + std::to_string(Ids.size()));
    return;
  }
  if (!llvm::all_of(Rows, inRange)) {
    fail("table constraint: value exceeds the solver range");
    return;
  }
  Constraint C;
  C.Kind = Constraint::KindTy::Table;
  C.Vars.assign(Ids.begin(), Ids.end());
  C.Values.assign(Rows.begin(), Rows.end());
  Constraints.push_back(std::move(C));
}

void Model::minimize(ArrayRef<int64_t> Coeffs, ArrayRef<VarId> Ids,
                     std::optional<int64_t> UpperBound) {
  if (Coeffs.size() != Ids.size()) {
    fail("objective: " + std::to_string(Coeffs.size()) + " coefficients for " +
         std::to_string(Ids.size()) + " variables");
    return;
  }
  if (!checkVars(Ids, "objective"))
    return;
  if (UpperBound && !inRange(*UpperBound)) {
    fail("objective: upper bound " + std::to_string(*UpperBound) +
         " exceeds the solver range");
    return;
  }
  Objective Obj;
  std::string Message;
  if (!normalizeTerms(Coeffs, Ids, Obj.Coeffs, Obj.Vars, Message)) {
    fail("objective: " + Message);
    return;
  }
  // Gecode holds the cost in an integer variable, so every value the
  // expression can take (up to the bound) must be representable, and the
  // constraint defining the cost must stay within the precision of linear
  // propagation. Each term is below 2^62 in magnitude and the sums are
  // checked against 2^48 after every term, so they cannot overflow.
  int64_t Lo = 0, Hi = 0, Magnitude = 0;
  for (size_t I = 0, E = Obj.Coeffs.size(); I != E; ++I) {
    const Variable &V = Vars[Obj.Vars[I].Index];
    int64_t A = Obj.Coeffs[I] * V.Lo, B = Obj.Coeffs[I] * V.Hi;
    Lo += std::min(A, B);
    Hi += std::max(A, B);
    Magnitude += std::max(magnitude(A), magnitude(B));
    if (!UpperBound && (!inRange(Lo) || !inRange(Hi))) {
      fail("objective: its value range exceeds the solver range [" +
           std::to_string(MinValue) + ", " + std::to_string(MaxValue) +
           "]; scale the coefficients down or bound it");
      return;
    }
    if (Magnitude > MaxLinearMagnitude) {
      fail("objective: sum |c_i| * max|x_i| exceeds 2^48, the precision of "
           "the solver's linear propagation");
      return;
    }
  }
  if (UpperBound)
    Hi = std::min(Hi, *UpperBound);
  // Lo > Hi (a bound below the smallest value) is an infeasible model, not
  // an invalid one.
  if (!inRange(Lo) && Lo <= Hi) {
    fail("objective: its smallest value " + std::to_string(Lo) +
         " exceeds the solver range");
    return;
  }
  Obj.UpperBound = UpperBound;
  Obj.Lo = Lo;
  Obj.Hi = Hi;
  Goal = std::move(Obj);
}

static bool holds(int64_t Lhs, Relation Rel, int64_t Rhs) {
  switch (Rel) {
  case Relation::EQ:
    return Lhs == Rhs;
  case Relation::NE:
    return Lhs != Rhs;
  case Relation::LT:
    return Lhs < Rhs;
  case Relation::LE:
    return Lhs <= Rhs;
  case Relation::GT:
    return Lhs > Rhs;
  case Relation::GE:
    return Lhs >= Rhs;
  }
  return false;
}

bool Model::isSolution(ArrayRef<int64_t> Values) const {
  if (Values.size() != Vars.size())
    return false;
  for (auto [V, Value] : llvm::zip_equal(Vars, Values))
    if (Value < V.Lo || Value > V.Hi)
      return false;
  auto value = [&](VarId V) { return Values[V.Index]; };
  for (const Constraint &C : Constraints) {
    switch (C.Kind) {
    case Constraint::KindTy::Linear: {
      int64_t Sum = 0;
      for (auto [Coeff, V] : llvm::zip_equal(C.Coeffs, C.Vars))
        Sum += Coeff * value(V);
      if (!holds(Sum, C.Rel, C.Rhs))
        return false;
      break;
    }
    case Constraint::KindTy::AllDifferent:
      for (size_t I = 0; I < C.Vars.size(); ++I)
        for (size_t J = I + 1; J < C.Vars.size(); ++J)
          if (value(C.Vars[I]) == value(C.Vars[J]))
            return false;
      break;
    case Constraint::KindTy::Element: {
      int64_t Index = value(C.Vars[0]);
      if (Index < 0 || Index >= static_cast<int64_t>(C.Values.size()) ||
          C.Values[Index] != value(C.Vars[1]))
        return false;
      break;
    }
    case Constraint::KindTy::Table: {
      size_t Arity = C.Vars.size();
      bool Found = false;
      for (size_t Row = 0; !Found && Row < C.Values.size() / Arity; ++Row) {
        Found = true;
        for (size_t I = 0; I < Arity; ++I)
          Found &= C.Values[Row * Arity + I] == value(C.Vars[I]);
      }
      if (!Found)
        return false;
      break;
    }
    }
  }
  if (Goal && Goal->UpperBound) {
    int64_t Cost = 0;
    for (auto [Coeff, V] : llvm::zip_equal(Goal->Coeffs, Goal->Vars))
      Cost += Coeff * value(V);
    if (Cost > *Goal->UpperBound)
      return false;
  }
  return true;
}

StringRef raf::csp::stringifySolveStatus(SolveStatus Status) {
  switch (Status) {
  case SolveStatus::Optimal:
    return "optimal";
  case SolveStatus::Feasible:
    return "feasible";
  case SolveStatus::Infeasible:
    return "infeasible";
  case SolveStatus::Unknown:
    return "unknown";
  case SolveStatus::Error:
    return "error";
  }
  return "invalid";
}

//===----------------------------------------------------------------------===//
// Gecode translation
//===----------------------------------------------------------------------===//

namespace {

Gecode::IntRelType toGecode(Relation Rel) {
  switch (Rel) {
  case Relation::EQ:
    return Gecode::IRT_EQ;
  case Relation::NE:
    return Gecode::IRT_NQ;
  case Relation::LT:
    return Gecode::IRT_LE;
  case Relation::LE:
    return Gecode::IRT_LQ;
  case Relation::GT:
    return Gecode::IRT_GR;
  case Relation::GE:
    return Gecode::IRT_GQ;
  }
  return Gecode::IRT_EQ;
}


/// Converts values that Model has already range-checked.
Gecode::IntArgs toIntArgs(ArrayRef<int64_t> Values) {
  Gecode::IntArgs Args(static_cast<int>(Values.size()));
  for (size_t I = 0, E = Values.size(); I != E; ++I)
    Args[I] = static_cast<int>(Values[I]);
  return Args;
}

} // namespace

//===----------------------------------------------------------------------===//
// SolverSpace, search limits, exception boundary (GecodeSolver.h)
//===----------------------------------------------------------------------===//

std::vector<int64_t> SolverSpace::values() const {
  std::vector<int64_t> Result;
  Result.reserve(X.size());
  for (int I = 0, E = X.size(); I != E; ++I)
    Result.push_back(X[I].val());
  return Result;
}

void SolverSpace::addVariables(const Model &M) {
  Gecode::IntVarArgs Args(static_cast<int>(M.getNumVars()));
  for (unsigned I = 0, E = M.getNumVars(); I != E; ++I) {
    const Variable &V = M.getVars()[I];
    Args[I] =
        Gecode::IntVar(*this, static_cast<int>(V.Lo), static_cast<int>(V.Hi));
  }
  X = Gecode::IntVarArray(*this, Args);
}

Gecode::IntVarArgs SolverSpace::vars(ArrayRef<VarId> Ids) const {
  Gecode::IntVarArgs Args(static_cast<int>(Ids.size()));
  for (size_t I = 0, E = Ids.size(); I != E; ++I)
    Args[I] = X[Ids[I].Index];
  return Args;
}

void SolverSpace::post(const Constraint &C) {
  switch (C.Kind) {
  case Constraint::KindTy::Linear:
    if (C.Vars.empty()) {
      // Every term cancelled: the constraint is a constant comparison.
      if (!holds(0, C.Rel, C.Rhs))
        fail();
      return;
    }
    Gecode::linear(*this, toIntArgs(C.Coeffs), vars(C.Vars), toGecode(C.Rel),
                   static_cast<int>(C.Rhs));
    return;
  case Constraint::KindTy::AllDifferent: {
    // A variable listed twice can never differ from itself; Gecode rejects
    // such arguments instead of failing, so decide it here.
    std::vector<unsigned> Indices;
    for (VarId V : C.Vars)
      Indices.push_back(V.Index);
    std::sort(Indices.begin(), Indices.end());
    if (std::adjacent_find(Indices.begin(), Indices.end()) != Indices.end()) {
      fail();
      return;
    }
    if (C.Vars.size() > 1)
      Gecode::distinct(*this, vars(C.Vars));
    return;
  }
  case Constraint::KindTy::Element:
    Gecode::element(*this, toIntArgs(C.Values), X[C.Vars[0].Index],
                    X[C.Vars[1].Index]);
    return;
  case Constraint::KindTy::Table: {
    if (C.Values.empty()) {
      fail();
      return;
    }
    size_t Arity = C.Vars.size();
    Gecode::TupleSet Tuples(static_cast<int>(Arity));
    for (size_t Row = 0, E = C.Values.size() / Arity; Row != E; ++Row)
      Tuples.add(
          toIntArgs(ArrayRef<int64_t>(C.Values).slice(Row * Arity, Arity)));
    Tuples.finalize();
    Gecode::extensional(*this, vars(C.Vars), Tuples);
    return;
  }
  }
}

bool LimitStop::stop(const Gecode::Search::Statistics &S,
                     const Gecode::Search::Options &) {
  // As Gecode's NodeStop and FailStop.
  if (Limits.Nodes && S.node > Limits.Nodes)
    return true;
  if (Limits.Fails && S.fail > Limits.Fails)
    return true;
  if (Limits.Expired && Limits.Expired()) {
    TimedOut = true;
    return true;
  }
  return false;
}

std::optional<std::string>
raf::csp::catchSolverErrors(llvm::function_ref<void()> Body) {
  // Gecode signals bad arguments, exceeded limits and exhausted memory by
  // throwing; none of that may escape into -fno-exceptions callers.
  try {
    Body();
    return std::nullopt;
  } catch (const Gecode::Exception &E) {
    return std::string("Gecode error: ") + E.what();
  } catch (const std::bad_alloc &) {
    return std::string("out of memory during constraint solving");
  } catch (const std::exception &E) {
    return std::string("constraint solving failed: ") + E.what();
  } catch (...) {
    return std::string("constraint solving failed with an unknown exception");
  }
}

namespace {

/// The search space of a raf::csp::Model: its variables and constraints,
/// the objective as the cost, and the branching of SolveOptions.
class ModelSpace final : public SolverSpace {
public:
  ModelSpace(const Model &M, const SolveOptions &Options) {
    addVariables(M);

    // Posting into a failed space is allowed but pointless.
    for (const Constraint &C : M.getConstraints())
      if (!failed())
        post(C);

    const std::optional<Objective> &Goal = M.getObjective();
    if (Goal) {
      // Model::minimize checked that the expression's range (up to its
      // bound) fits; give the cost variable exactly that range.
      if (Goal->Lo > Goal->Hi) {
        // The bound is below every value of the objective.
        fail();
        return;
      }
      Cost = Gecode::IntVar(*this, static_cast<int>(Goal->Lo),
                            static_cast<int>(Goal->Hi));
      Gecode::linear(*this, toIntArgs(Goal->Coeffs), vars(Goal->Vars),
                     Gecode::IRT_EQ, Cost);
    }
    if (failed())
      return;

    if (X.size() > 0)
      Gecode::branch(*this, X, varBranch(Options.VarSelection),
                     valBranch(Options));
    // The cost is functionally determined by X, but branching on it as well
    // guarantees that every solution has an assigned cost.
    Gecode::branch(*this, Cost, Gecode::INT_VAL_MIN());
  }

  ModelSpace(ModelSpace &Other) : SolverSpace(Other) {}

  Gecode::Space *copy() override { return new ModelSpace(*this); }

private:
  static Gecode::IntVarBranch varBranch(VarOrder Order) {
    switch (Order) {
    case VarOrder::Input:
      return Gecode::INT_VAR_NONE();
    case VarOrder::SmallestDomain:
      return Gecode::INT_VAR_SIZE_MIN();
    case VarOrder::AfcOverSize:
      return Gecode::INT_VAR_AFC_SIZE_MAX();
    }
    return Gecode::INT_VAR_NONE();
  }

  static Gecode::IntValBranch valBranch(const SolveOptions &Options) {
    bool Max = Options.ValueSelection == ValueOrder::Max;
    if (Options.Hint.empty())
      return Max ? Gecode::INT_VAL_MAX() : Gecode::INT_VAL_MIN();
    // The branchers copy the function with every space: share the hint.
    // The position I is the variable's index because X holds every model
    // variable in order. The default commit posts x == n, then x != n.
    auto Hint =
        std::make_shared<const std::vector<std::optional<int64_t>>>(
            Options.Hint);
    return Gecode::INT_VAL(
        [Hint, Max](const Gecode::Space &, Gecode::IntVar X, int I) -> int {
          const std::optional<int64_t> &Preferred = (*Hint)[I];
          if (Preferred && X.in(static_cast<int>(*Preferred)))
            return static_cast<int>(*Preferred);
          return Max ? X.max() : X.min();
        });
  }
};

/// Runs engine EngineT over Root and fills in Result.
template <template <class> class EngineT>
void runSearch(ModelSpace &Root, const SolveOptions &Options, bool HasObjective,
               SolveResult &Result) {
  SearchLimits Limits;
  Limits.Nodes = Options.NodeLimit;
  Limits.Fails = Options.FailLimit;
  // The timer starts now, right before the search.
  if (Options.TimeLimitMs) {
    auto Deadline = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(Options.TimeLimitMs);
    Limits.Expired = [Deadline] {
      return std::chrono::steady_clock::now() > Deadline;
    };
  }

  // Without an objective every solution is optimal, so SearchMode::Optimal
  // needs no more than the first one.
  bool StopAtFirst = Options.Mode == SearchMode::First ||
                     (Options.Mode == SearchMode::Optimal && !HasObjective);

  bool StoppedByCaller = false;
  SearchOutcome Outcome = search<EngineT, ModelSpace>(
      Root, Limits,
      [&](ModelSpace &Solution) {
        ++Result.NumSolutions;
        std::vector<int64_t> Values = Solution.values();
        int64_t Cost = Solution.costValue();
        // Branch and bound only returns improving solutions; depth-first
        // search may return worse ones after better ones.
        if (Result.NumSolutions == 1 ||
            (HasObjective && Cost < *Result.ObjectiveValue)) {
          Result.Values = Values;
          if (HasObjective)
            Result.ObjectiveValue = Cost;
        }
        if (Options.Mode == SearchMode::All)
          Result.Solutions.push_back(std::move(Values));

        if (StopAtFirst) {
          StoppedByCaller = true;
          return false;
        }
        if (Options.Mode == SearchMode::All && Options.SolutionLimit &&
            Result.NumSolutions >= Options.SolutionLimit) {
          Result.LimitReached = true;
          StoppedByCaller = true;
          return false;
        }
        return true;
      },
      Options.Threads);

  Result.Stats = Outcome.Stats;
  bool Stopped = Outcome.Stopped;
  if (Stopped)
    Result.LimitReached = true;

  if (Result.NumSolutions == 0)
    Result.Status = Stopped ? SolveStatus::Unknown : SolveStatus::Infeasible;
  else if (!Stopped && !StoppedByCaller)
    Result.Status = SolveStatus::Optimal;
  else if (StopAtFirst && !HasObjective && !Stopped)
    Result.Status = SolveStatus::Optimal;
  else
    Result.Status = SolveStatus::Feasible;
}

SolveResult makeError(std::string Message) {
  SolveResult Result;
  Result.Status = SolveStatus::Error;
  Result.Message = std::move(Message);
  return Result;
}

} // namespace

SolveResult raf::csp::solve(const Model &Problem, const SolveOptions &Options) {
  if (Problem.hasError())
    return makeError("invalid model: " + Problem.getError().str());
  if (Options.Threads == 0)
    return makeError("invalid options: Threads must be at least 1");
  if (!Options.Hint.empty()) {
    if (Options.Hint.size() != Problem.getNumVars())
      return makeError("invalid options: " +
                       std::to_string(Options.Hint.size()) +
                       " hint values for " +
                       std::to_string(Problem.getNumVars()) + " variables");
    for (const std::optional<int64_t> &Value : Options.Hint)
      if (Value && !inRange(*Value))
        return makeError("invalid options: hint value " +
                         std::to_string(*Value) +
                         " exceeds the solver range");
  }

  bool HasObjective = Problem.getObjective().has_value();
  SolveResult Result;
  std::optional<std::string> Error = catchSolverErrors([&] {
    ModelSpace Root(Problem, Options);
    // Propagating the root first settles models that are infeasible without
    // search, and the engines clone their root, which Gecode refuses to do
    // for a failed space.
    if (Root.status() == Gecode::SS_FAILED) {
      Result.Status = SolveStatus::Infeasible;
      return;
    }
    if (Options.Mode == SearchMode::Optimal && HasObjective)
      runSearch<Gecode::BAB>(Root, Options, HasObjective, Result);
    else
      runSearch<Gecode::DFS>(Root, Options, HasObjective, Result);
  });
  if (Error)
    return makeError(*Error);
  return Result;
}
