//===- ConstraintSolver.h - Finite-domain constraint solving ----*- C++ -*-===//
//
// A small finite-domain integer model and a solver for it, backed by Gecode.
//
// Gecode reports modelling and resource errors with C++ exceptions, while the
// rest of the compiler is built with -fno-exceptions. This header therefore
// includes no Gecode header and nothing declared here throws: the model is a
// plain description that is validated while it is built, and solve() turns
// every Gecode exception into SolveStatus::Error with a message.
//
// Value ranges. Gecode integer variables are 32-bit. Every variable bound,
// coefficient, right-hand side and table entry must lie in
// [MinValue, MaxValue] = [-(2^31 - 2), 2^31 - 2]. For every linear constraint
// |rhs| + sum_i |a_i| * max(|lo_i|, |hi_i|) must not exceed
// MaxLinearMagnitude (2^48, the precision Gecode guarantees for linear
// propagation), and the objective sum_i c_i * x_i must stay within
// [MinValue, MaxValue] over the whole domain because Gecode holds it in an
// integer variable. An objective given an upper bound only needs its range
// up to that bound to fit. Callers with larger quantities (bytes, FLOPs)
// scale them first, e.g. to KiB or MFLOP. A model that breaks a limit is not
// truncated: the first violation is recorded and solve() reports it as an
// error.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_EMBEDDING_CONSTRAINTSOLVER_H
#define RAF_EMBEDDING_CONSTRAINTSOLVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace raf {
namespace csp {

/// Largest value a variable, coefficient or constant may take (Gecode's
/// Int::Limits::max).
constexpr int64_t MaxValue = 2147483646;
/// Smallest value a variable, coefficient or constant may take.
constexpr int64_t MinValue = -MaxValue;
/// Bound on |rhs| + sum |a_i| * max|x_i| for one linear constraint.
constexpr int64_t MaxLinearMagnitude = int64_t(1) << 48;

/// Handle of a model variable; indexes SolveResult::Values.
struct VarId {
  unsigned Index = ~0u;

  bool operator==(VarId Other) const { return Index == Other.Index; }
  bool operator!=(VarId Other) const { return Index != Other.Index; }
};

/// Relation between a linear expression and a constant.
enum class Relation { EQ, NE, LT, LE, GT, GE };

/// A decision variable with the inclusive domain [Lo, Hi].
struct Variable {
  int64_t Lo;
  int64_t Hi;
  std::string Name;
  bool IsBool;
};

/// One constraint of a model. Only the fields relevant to Kind are used.
struct Constraint {
  enum class KindTy {
    /// sum(Coeffs[i] * Vars[i]) Rel Rhs.
    Linear,
    /// Vars take pairwise distinct values.
    AllDifferent,
    /// Vars[1] == Values[Vars[0]].
    Element,
    /// (Vars[0], ..., Vars[n-1]) is one of the rows of Values, stored
    /// row-major with n columns.
    Table,
  };

  KindTy Kind;
  std::vector<VarId> Vars;
  std::vector<int64_t> Coeffs;
  std::vector<int64_t> Values;
  Relation Rel = Relation::EQ;
  int64_t Rhs = 0;
};

/// The linear objective sum(Coeffs[i] * Vars[i]) to minimise.
struct Objective {
  std::vector<int64_t> Coeffs;
  std::vector<VarId> Vars;
  /// Solutions whose objective exceeds this are excluded.
  std::optional<int64_t> UpperBound;
  /// The smallest and largest value the objective can take, the latter
  /// clipped to UpperBound.
  int64_t Lo = 0;
  int64_t Hi = 0;
};

/// A finite-domain integer model. Building never fails loudly: an invalid
/// call (unknown variable, mismatched sizes, value out of range) is dropped,
/// the first such problem is kept in getError(), and solving the model then
/// reports SolveStatus::Error.
class Model {
public:
  /// Adds an integer variable with domain [Lo, Hi].
  VarId addIntVar(int64_t Lo, int64_t Hi, llvm::StringRef Name = "");
  /// Adds a 0/1 variable. It is an integer variable for every constraint, so
  /// it can appear in linear constraints with arbitrary coefficients.
  VarId addBoolVar(llvm::StringRef Name = "");

  /// Adds sum(Coeffs[i] * Vars[i]) Rel Rhs. Repeated variables have their
  /// coefficients summed and zero terms are dropped before the limits are
  /// checked.
  void addLinear(llvm::ArrayRef<int64_t> Coeffs, llvm::ArrayRef<VarId> Vars,
                 Relation Rel, int64_t Rhs);
  /// Requires the variables to take pairwise distinct values.
  void addAllDifferent(llvm::ArrayRef<VarId> Vars);
  /// Requires Result == Table[Index]; Index is restricted to the positions of
  /// Table.
  void addElement(llvm::ArrayRef<int64_t> Table, VarId Index, VarId Result);
  /// Requires the tuple of Vars to equal one row of Rows, a row-major array
  /// with Vars.size() columns. An empty Rows makes the model infeasible.
  void addTable(llvm::ArrayRef<VarId> Vars, llvm::ArrayRef<int64_t> Rows);

  /// Sets the objective to minimise, replacing any earlier one. To maximise,
  /// negate the coefficients. With UpperBound, only solutions whose
  /// objective is at most UpperBound are solutions of the model (a known
  /// solution's cost as the bound prunes the search from the start), and
  /// only the objective's range up to the bound has to fit the solver range.
  void minimize(llvm::ArrayRef<int64_t> Coeffs, llvm::ArrayRef<VarId> Vars,
                std::optional<int64_t> UpperBound = std::nullopt);

  unsigned getNumVars() const { return Vars.size(); }
  const Variable &getVar(VarId V) const { return Vars[V.Index]; }
  llvm::ArrayRef<Variable> getVars() const { return Vars; }
  llvm::ArrayRef<Constraint> getConstraints() const { return Constraints; }
  const std::optional<Objective> &getObjective() const { return Goal; }

  /// Whether `Values` (one per variable) is a solution: every value within
  /// its domain, every constraint and the objective's bound satisfied.
  bool isSolution(llvm::ArrayRef<int64_t> Values) const;

  /// Returns true if some call was rejected; getError() describes the first.
  bool hasError() const { return !Error.empty(); }
  llvm::StringRef getError() const { return Error; }

private:
  bool isValid(VarId V) const { return V.Index < Vars.size(); }
  bool checkVars(llvm::ArrayRef<VarId> Vars, llvm::StringRef What);
  void fail(const std::string &Message);

  std::vector<Variable> Vars;
  std::vector<Constraint> Constraints;
  std::optional<Objective> Goal;
  std::string Error;
};

/// What the search looks for.
enum class SearchMode {
  /// The optimal solution by branch and bound. Without an objective every
  /// solution is optimal, so this finds one solution.
  Optimal,
  /// The first solution in depth-first order.
  First,
  /// Every solution in depth-first order.
  All,
};

/// Order in which unassigned variables are branched on.
enum class VarOrder {
  /// The order in which the variables were added.
  Input,
  /// Smallest domain first.
  SmallestDomain,
  /// Largest accumulated failure count over domain size first; adapts to
  /// the constraints that actually cause failures.
  AfcOverSize,
};

/// Value tried first for the chosen variable.
enum class ValueOrder { Min, Max };

struct SolveOptions {
  SearchMode Mode = SearchMode::Optimal;
  /// Wall-clock limit in milliseconds; 0 means none.
  uint64_t TimeLimitMs = 0;
  /// Limit on explored search nodes; 0 means none.
  uint64_t NodeLimit = 0;
  /// Limit on failed search nodes; 0 means none.
  uint64_t FailLimit = 0;
  /// In SearchMode::All, stop after this many solutions; 0 means none.
  uint64_t SolutionLimit = 0;
  VarOrder VarSelection = VarOrder::SmallestDomain;
  ValueOrder ValueSelection = ValueOrder::Min;
  /// Search threads. With more than one thread, which of several optimal
  /// solutions is reported may vary between runs.
  unsigned Threads = 1;
  /// Preferred values, indexed by VarId; empty, or one entry per variable.
  /// When the search branches on a variable whose preferred value is still
  /// in its domain, it tries that value first (and then the others);
  /// otherwise ValueSelection decides. A complete hint that is a solution is
  /// then the first solution found, which warm-starts branch and bound.
  std::vector<std::optional<int64_t>> Hint;
};

enum class SolveStatus {
  /// The search finished. Values is optimal (a model without objective: is a
  /// solution) and in SearchMode::All, Solutions is complete.
  Optimal,
  /// Solutions were found but optimality or completeness is not proven:
  /// a limit stopped the search, or SearchMode::First stopped at the first
  /// solution of a model that has an objective.
  Feasible,
  /// The search finished and the model has no solution.
  Infeasible,
  /// A limit stopped the search before any solution was found.
  Unknown,
  /// The model or the options are invalid, or Gecode failed; see Message.
  Error,
};

/// Returns the name of a status, for diagnostics.
llvm::StringRef stringifySolveStatus(SolveStatus Status);

struct SearchStatistics {
  uint64_t Nodes = 0;
  uint64_t Fails = 0;
  uint64_t Propagations = 0;
  /// Maximum depth of the search stack.
  uint64_t Depth = 0;
};

struct SolveResult {
  SolveStatus Status = SolveStatus::Error;
  /// The best solution found (with an objective, the one of lowest cost; the
  /// first such one in SearchMode::All), indexed by VarId. Empty if none.
  std::vector<int64_t> Values;
  /// The objective value of Values, if the model has an objective and a
  /// solution was found.
  std::optional<int64_t> ObjectiveValue;
  /// In SearchMode::All, every solution found, in search order.
  std::vector<std::vector<int64_t>> Solutions;
  /// Number of solutions the search produced.
  uint64_t NumSolutions = 0;
  /// Whether a time, node, fail or solution limit ended the search.
  bool LimitReached = false;
  SearchStatistics Stats;
  /// Why the status is Error; empty otherwise.
  std::string Message;

  bool hasSolution() const { return NumSolutions != 0; }
  int64_t getValue(VarId V) const { return Values[V.Index]; }
};

/// Solves Problem. Never throws: invalid models and Gecode failures yield
/// SolveStatus::Error.
SolveResult solve(const Model &Problem, const SolveOptions &Options = {});

} // namespace csp
} // namespace raf

#endif // RAF_EMBEDDING_CONSTRAINTSOLVER_H
