//===- ConstraintSolverTest.cpp - Tests for the Gecode wrapper ------------===//

#include "raf/Embedding/ConstraintSolver.h"

#include "gtest/gtest.h"

#include <set>
#include <vector>

using namespace raf::csp;

namespace {

/// Prints the status (and the error, if any) when an expectation fails.
std::string describe(const SolveResult &R) {
  std::string S = stringifySolveStatus(R.Status).str();
  if (!R.Message.empty())
    S += ": " + R.Message;
  return S;
}

TEST(ConstraintSolverTest, SendMoreMoney) {
  Model M;
  // S E N D M O R Y
  std::vector<VarId> L;
  for (const char *Name : {"S", "E", "N", "D", "M", "O", "R", "Y"})
    L.push_back(M.addIntVar(0, 9, Name));
  VarId S = L[0], E = L[1], N = L[2], D = L[3], Mo = L[4], O = L[5], R = L[6],
        Y = L[7];
  M.addAllDifferent(L);
  M.addLinear({1}, {S}, Relation::NE, 0);
  M.addLinear({1}, {Mo}, Relation::NE, 0);
  //   1000 S + 100 E + 10 N + D + 1000 M + 100 O + 10 R + E
  // = 10000 M + 1000 O + 100 N + 10 E + Y
  M.addLinear(
      {1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1},
      {S, E, N, D, Mo, O, R, E, Mo, O, N, E, Y}, Relation::EQ, 0);
  ASSERT_FALSE(M.hasError()) << M.getError().str();

  SolveOptions Options;
  Options.Mode = SearchMode::All;
  SolveResult Result = solve(M, Options);
  ASSERT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  ASSERT_EQ(Result.NumSolutions, 1u);
  ASSERT_EQ(Result.Solutions.size(), 1u);
  auto Word = [&](std::initializer_list<VarId> Digits) {
    int64_t V = 0;
    for (VarId D : Digits)
      V = V * 10 + Result.getValue(D);
    return V;
  };
  EXPECT_EQ(Word({S, E, N, D}), 9567);
  EXPECT_EQ(Word({Mo, O, R, E}), 1085);
  EXPECT_EQ(Word({Mo, O, N, E, Y}), 10652);
  EXPECT_FALSE(Result.LimitReached);
  EXPECT_GT(Result.Stats.Nodes, 0u);
}

/// Builds the N-queens model: Q[i] is the column of the queen in row i.
std::vector<VarId> addQueens(Model &M, int N) {
  std::vector<VarId> Q;
  for (int I = 0; I < N; ++I)
    Q.push_back(M.addIntVar(0, N - 1, "q" + std::to_string(I)));
  M.addAllDifferent(Q);
  // Q[i] + i and Q[i] - i are all different: encode the diagonals with
  // auxiliary variables tied to Q by linear equalities.
  std::vector<VarId> Up, Down;
  for (int I = 0; I < N; ++I) {
    VarId U = M.addIntVar(0, 2 * N, "u" + std::to_string(I));
    VarId D = M.addIntVar(-N, N, "d" + std::to_string(I));
    M.addLinear({1, -1}, {U, Q[I]}, Relation::EQ, I);
    M.addLinear({1, -1}, {D, Q[I]}, Relation::EQ, -I);
    Up.push_back(U);
    Down.push_back(D);
  }
  M.addAllDifferent(Up);
  M.addAllDifferent(Down);
  return Q;
}

TEST(ConstraintSolverTest, EightQueensHas92Solutions) {
  Model M;
  std::vector<VarId> Q = addQueens(M, 8);
  ASSERT_FALSE(M.hasError()) << M.getError().str();

  SolveOptions Options;
  Options.Mode = SearchMode::All;
  Options.VarSelection = VarOrder::Input;
  SolveResult Result = solve(M, Options);
  ASSERT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  EXPECT_EQ(Result.NumSolutions, 92u);
  ASSERT_EQ(Result.Solutions.size(), 92u);

  // Every reported placement is a valid one, and they are all distinct.
  std::set<std::vector<int64_t>> Distinct;
  for (const std::vector<int64_t> &Sol : Result.Solutions) {
    std::vector<int64_t> Columns;
    for (VarId V : Q)
      Columns.push_back(Sol[V.Index]);
    for (int I = 0; I < 8; ++I)
      for (int J = I + 1; J < 8; ++J) {
        EXPECT_NE(Columns[I], Columns[J]);
        EXPECT_NE(Columns[I] - Columns[J], I - J);
        EXPECT_NE(Columns[I] - Columns[J], J - I);
      }
    Distinct.insert(Columns);
  }
  EXPECT_EQ(Distinct.size(), 92u);

  // A solution limit truncates the enumeration and says so.
  Options.SolutionLimit = 10;
  SolveResult Limited = solve(M, Options);
  EXPECT_EQ(Limited.Status, SolveStatus::Feasible) << describe(Limited);
  EXPECT_EQ(Limited.NumSolutions, 10u);
  EXPECT_TRUE(Limited.LimitReached);
}

TEST(ConstraintSolverTest, FirstSolutionOfSatisfactionProblem) {
  Model M;
  std::vector<VarId> Q = addQueens(M, 12);
  SolveOptions Options;
  Options.Mode = SearchMode::First;
  SolveResult Result = solve(M, Options);
  // Without an objective any solution is optimal.
  ASSERT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  EXPECT_EQ(Result.NumSolutions, 1u);
  EXPECT_EQ(Result.Values.size(), M.getNumVars());
  EXPECT_FALSE(Result.ObjectiveValue.has_value());

  // SearchMode::Optimal on a model without objective stops at one solution
  // as well.
  SolveResult Default = solve(M);
  ASSERT_EQ(Default.Status, SolveStatus::Optimal) << describe(Default);
  EXPECT_EQ(Default.NumSolutions, 1u);
}

/// A rematerialisation-shaped problem: item i is either kept (x_i = 0, costs
/// Size[i] memory) or recomputed (x_i = 1, costs Flops[i]). Minimise the
/// recomputed FLOPs such that the kept memory fits the budget.
struct RematInstance {
  std::vector<int64_t> Size, Flops;
  int64_t Budget;
};

int64_t bruteForceRemat(const RematInstance &P) {
  unsigned N = P.Size.size();
  int64_t Best = -1;
  for (unsigned Mask = 0; Mask < (1u << N); ++Mask) {
    int64_t Memory = 0, Cost = 0;
    for (unsigned I = 0; I < N; ++I) {
      if (Mask & (1u << I))
        Cost += P.Flops[I];
      else
        Memory += P.Size[I];
    }
    if (Memory <= P.Budget && (Best < 0 || Cost < Best))
      Best = Cost;
  }
  return Best;
}

TEST(ConstraintSolverTest, KnapsackMinimisationMatchesBruteForce) {
  RematInstance P;
  // Deterministic pseudo-random sizes and costs with large magnitudes, so
  // the coefficients exercise more than small-integer arithmetic.
  uint64_t Seed = 12345;
  auto Next = [&Seed](int64_t Mod) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((Seed >> 33) % Mod);
  };
  int64_t Total = 0;
  for (int I = 0; I < 16; ++I) {
    P.Size.push_back(1000 + Next(900000));
    P.Flops.push_back(1 + Next(100000));
    Total += P.Size.back();
  }
  P.Budget = Total * 2 / 5;

  Model M;
  std::vector<VarId> Recompute;
  for (unsigned I = 0; I < P.Size.size(); ++I)
    Recompute.push_back(M.addBoolVar("recompute" + std::to_string(I)));
  // sum Size[i] * (1 - x_i) <= Budget  <=>  -sum Size[i] x_i <= Budget - Total
  std::vector<int64_t> NegSize;
  for (int64_t S : P.Size)
    NegSize.push_back(-S);
  M.addLinear(NegSize, Recompute, Relation::LE, P.Budget - Total);
  M.minimize(P.Flops, Recompute);
  ASSERT_FALSE(M.hasError()) << M.getError().str();

  int64_t Expected = bruteForceRemat(P);
  ASSERT_GE(Expected, 0);

  SolveResult Result = solve(M);
  ASSERT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  ASSERT_TRUE(Result.ObjectiveValue.has_value());
  EXPECT_EQ(*Result.ObjectiveValue, Expected);

  // The reported assignment really achieves the objective within budget.
  int64_t Memory = 0, Cost = 0;
  for (unsigned I = 0; I < P.Size.size(); ++I) {
    if (Result.getValue(Recompute[I]))
      Cost += P.Flops[I];
    else
      Memory += P.Size[I];
  }
  EXPECT_EQ(Cost, Expected);
  EXPECT_LE(Memory, P.Budget);

  // Enumerating every solution must agree on the optimum.
  SolveOptions All;
  All.Mode = SearchMode::All;
  SolveResult Enumerated = solve(M, All);
  ASSERT_EQ(Enumerated.Status, SolveStatus::Optimal) << describe(Enumerated);
  ASSERT_TRUE(Enumerated.ObjectiveValue.has_value());
  EXPECT_EQ(*Enumerated.ObjectiveValue, Expected);
}

TEST(ConstraintSolverTest, ElementAndTableConstraints) {
  Model M;
  VarId Index = M.addIntVar(-5, 10, "index");
  VarId Value = M.addIntVar(0, 100, "value");
  // Value = Table[Index] and Value is one of the allowed (Index, Value) rows.
  M.addElement({7, 3, 42, 3, 9}, Index, Value);
  M.addTable({Index, Value}, {0, 7, 2, 42, 4, 9});
  M.minimize({-1}, {Value});
  SolveResult Result = solve(M);
  ASSERT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  EXPECT_EQ(Result.getValue(Index), 2);
  EXPECT_EQ(Result.getValue(Value), 42);
  EXPECT_EQ(*Result.ObjectiveValue, -42);

  // Enumeration finds exactly the three rows of the table.
  SolveOptions All;
  All.Mode = SearchMode::All;
  EXPECT_EQ(solve(M, All).NumSolutions, 3u);
}

TEST(ConstraintSolverTest, InfeasibleModels) {
  {
    // Pigeonhole: four variables, three values, all different. Detecting
    // this needs search (or strong propagation), not just posting.
    Model M;
    std::vector<VarId> V;
    for (int I = 0; I < 4; ++I)
      V.push_back(M.addIntVar(1, 3));
    M.addAllDifferent(V);
    SolveResult Result = solve(M);
    EXPECT_EQ(Result.Status, SolveStatus::Infeasible) << describe(Result);
    EXPECT_FALSE(Result.hasSolution());
    EXPECT_FALSE(Result.LimitReached);
  }
  {
    // Parity: 2x + 4y = 7 has no integer solution.
    Model M;
    VarId X = M.addIntVar(-100, 100), Y = M.addIntVar(-100, 100);
    M.addLinear({2, 4}, {X, Y}, Relation::EQ, 7);
    M.minimize({1}, {X});
    SolveResult Result = solve(M);
    EXPECT_EQ(Result.Status, SolveStatus::Infeasible) << describe(Result);
  }
  {
    // Terms that cancel leave the constant comparison 0 > 0.
    Model M;
    VarId X = M.addIntVar(0, 5);
    M.addLinear({3, -3}, {X, X}, Relation::GT, 0);
    SolveResult Result = solve(M);
    EXPECT_EQ(Result.Status, SolveStatus::Infeasible) << describe(Result);
  }
  {
    // A variable cannot differ from itself.
    Model M;
    VarId X = M.addIntVar(0, 5), Y = M.addIntVar(0, 5);
    M.addAllDifferent({X, Y, X});
    EXPECT_EQ(solve(M).Status, SolveStatus::Infeasible);
  }
}

TEST(ConstraintSolverTest, NodeLimitStopsSearch) {
  // 10 pigeons in 9 holes is infeasible, but proving it with value
  // propagation needs a very large search tree.
  Model M;
  std::vector<VarId> V;
  for (int I = 0; I < 10; ++I)
    V.push_back(M.addIntVar(0, 8));
  M.addAllDifferent(V);
  SolveOptions Options;
  Options.NodeLimit = 100;
  SolveResult Result = solve(M, Options);
  EXPECT_EQ(Result.Status, SolveStatus::Unknown) << describe(Result);
  EXPECT_TRUE(Result.LimitReached);
  EXPECT_FALSE(Result.hasSolution());
  // Gecode checks the limit between nodes, so it may overshoot a little.
  EXPECT_GE(Result.Stats.Nodes, 100u);
  EXPECT_LT(Result.Stats.Nodes, 200u);

  // A solution found before the limit makes the status Feasible. Every
  // permutation of 0..9 sums to 45, so the first solution is optimal, but
  // proving that no assignment sums to less needs a large search tree.
  Model P;
  std::vector<VarId> Perm;
  for (int I = 0; I < 10; ++I)
    Perm.push_back(P.addIntVar(0, 9));
  P.addAllDifferent(Perm);
  P.minimize(std::vector<int64_t>(Perm.size(), 1), Perm);
  SolveOptions Limited;
  Limited.NodeLimit = 1000;
  SolveResult Partial = solve(P, Limited);
  EXPECT_EQ(Partial.Status, SolveStatus::Feasible) << describe(Partial);
  EXPECT_TRUE(Partial.LimitReached);
  ASSERT_TRUE(Partial.ObjectiveValue.has_value());
  EXPECT_EQ(*Partial.ObjectiveValue, 45);
}

TEST(ConstraintSolverTest, TimeLimitStopsSearch) {
  // Proving 13 pigeons do not fit in 12 holes by plain search takes far
  // longer than 50 ms.
  Model M;
  std::vector<VarId> V;
  for (int I = 0; I < 13; ++I)
    V.push_back(M.addIntVar(0, 11));
  M.addAllDifferent(V);
  SolveOptions Options;
  Options.TimeLimitMs = 50;
  SolveResult Result = solve(M, Options);
  EXPECT_EQ(Result.Status, SolveStatus::Unknown) << describe(Result);
  EXPECT_TRUE(Result.LimitReached);
}

TEST(ConstraintSolverTest, OutOfRangeInputsAreErrors) {
  {
    Model M;
    M.addIntVar(0, int64_t(1) << 40, "huge");
    EXPECT_TRUE(M.hasError());
    SolveResult Result = solve(M);
    EXPECT_EQ(Result.Status, SolveStatus::Error);
    EXPECT_NE(Result.Message.find("huge"), std::string::npos) << Result.Message;
  }
  {
    Model M;
    VarId X = M.addBoolVar("x");
    M.addLinear({int64_t(1) << 35}, {X}, Relation::LE, 1);
    SolveResult Result = solve(M);
    EXPECT_EQ(Result.Status, SolveStatus::Error);
    EXPECT_NE(Result.Message.find("coefficient"), std::string::npos)
        << Result.Message;
  }
  {
    // Each coefficient and domain fits, but the constraint's magnitude
    // exceeds the 2^48 precision of linear propagation.
    Model M;
    VarId X = M.addIntVar(0, MaxValue), Y = M.addIntVar(0, MaxValue);
    M.addLinear({1 << 20, 1 << 20}, {X, Y}, Relation::LE, 0);
    SolveResult Result = solve(M);
    EXPECT_EQ(Result.Status, SolveStatus::Error);
    EXPECT_NE(Result.Message.find("2^48"), std::string::npos) << Result.Message;
  }
  {
    // Two coefficients that fit, merged into one that does not.
    Model M;
    VarId X = M.addBoolVar();
    M.addLinear({MaxValue, MaxValue}, {X, X}, Relation::LE, 1);
    EXPECT_EQ(solve(M).Status, SolveStatus::Error);
  }
  {
    // An objective whose range does not fit a 32-bit cost variable.
    Model M;
    std::vector<VarId> Bits;
    for (int I = 0; I < 4; ++I)
      Bits.push_back(M.addBoolVar());
    M.minimize({1 << 30, 1 << 30, 1 << 30, 1 << 30}, Bits);
    SolveResult Result = solve(M);
    EXPECT_EQ(Result.Status, SolveStatus::Error);
    EXPECT_NE(Result.Message.find("objective"), std::string::npos)
        << Result.Message;
  }
  {
    Model M;
    VarId X = M.addIntVar(0, 1);
    M.addLinear({1, 2}, {X}, Relation::EQ, 0); // Size mismatch.
    M.addLinear({1}, {VarId{7}}, Relation::EQ, 0);
    EXPECT_TRUE(M.hasError());
    // The first problem is the one reported.
    EXPECT_NE(M.getError().find("2 coefficients for 1 variables"),
              llvm::StringRef::npos)
        << M.getError().str();
    EXPECT_EQ(solve(M).Status, SolveStatus::Error);
  }
  {
    Model M;
    VarId X = M.addIntVar(0, 3);
    M.addTable({X, X}, {0, 1, 2});
    EXPECT_EQ(solve(M).Status, SolveStatus::Error);
  }
  {
    Model M;
    M.addIntVar(0, 3);
    SolveOptions Options;
    Options.Threads = 0;
    EXPECT_EQ(solve(M, Options).Status, SolveStatus::Error);
  }
}

TEST(ConstraintSolverTest, LargestAllowedValuesStillSolve) {
  // Limits are inclusive: the extreme domain values and a constraint close
  // to the magnitude bound are accepted and solved exactly.
  Model M;
  VarId X = M.addIntVar(MinValue, MaxValue, "x");
  VarId B = M.addBoolVar("b");
  M.addLinear({1, -MaxValue}, {X, B}, Relation::EQ, 0);
  M.addLinear({1}, {X}, Relation::GT, 0);
  SolveResult Result = solve(M);
  ASSERT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  EXPECT_EQ(Result.getValue(X), MaxValue);
  EXPECT_EQ(Result.getValue(B), 1);
}

TEST(ConstraintSolverTest, HintIsTheFirstSolution) {
  // x + y + z = 2 over booleans: three solutions; depth-first search with
  // the minimum value first finds (0, 1, 1) first, the hint (1, 1, 0).
  Model M;
  VarId X = M.addBoolVar("x"), Y = M.addBoolVar("y"), Z = M.addBoolVar("z");
  M.addLinear({1, 1, 1}, {X, Y, Z}, Relation::EQ, 2);
  SolveOptions First;
  First.Mode = SearchMode::First;
  First.VarSelection = VarOrder::Input;
  SolveResult Plain = solve(M, First);
  ASSERT_TRUE(Plain.hasSolution()) << describe(Plain);
  EXPECT_EQ(Plain.Values, (std::vector<int64_t>{0, 1, 1}));

  SolveOptions Hinted = First;
  Hinted.Hint = {1, 1, 0};
  SolveResult Result = solve(M, Hinted);
  ASSERT_TRUE(Result.hasSolution()) << describe(Result);
  EXPECT_EQ(Result.Values, (std::vector<int64_t>{1, 1, 0}));

  // A partial or infeasible hint only orders the values: every solution is
  // still found.
  SolveOptions All = Hinted;
  All.Mode = SearchMode::All;
  All.Hint = {std::nullopt, 7, 1};
  EXPECT_EQ(solve(M, All).NumSolutions, 3u);

  // The hint and the plain first solution are solutions; an assignment
  // breaking the constraint, or out of a domain, is not.
  EXPECT_TRUE(M.isSolution(Result.Values));
  EXPECT_TRUE(M.isSolution(Plain.Values));
  EXPECT_FALSE(M.isSolution({1, 1, 1}));
  EXPECT_FALSE(M.isSolution({2, 0, 0}));
  EXPECT_FALSE(M.isSolution({1, 1}));

  // One entry per variable.
  SolveOptions Short = First;
  Short.Hint = {1};
  EXPECT_EQ(solve(M, Short).Status, SolveStatus::Error);
}

TEST(ConstraintSolverTest, BoundedObjective) {
  // Minimise the number of ones among 8 booleans, at least 3 of them set.
  auto build = [](std::optional<int64_t> Bound) {
    Model M;
    std::vector<VarId> Bits;
    for (int I = 0; I < 8; ++I)
      Bits.push_back(M.addBoolVar());
    M.addLinear(std::vector<int64_t>(8, 1), Bits, Relation::GE, 3);
    M.minimize(std::vector<int64_t>(8, 1), Bits, Bound);
    return M;
  };
  EXPECT_EQ(*solve(build(3)).ObjectiveValue, 3);
  // The bound is part of what a solution must satisfy.
  EXPECT_TRUE(build(3).isSolution({1, 1, 1, 0, 0, 0, 0, 0}));
  EXPECT_FALSE(build(3).isSolution({1, 1, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(solve(build(2)).Status, SolveStatus::Infeasible);
  // A bound below the objective's smallest value is infeasible, not an
  // error.
  EXPECT_EQ(solve(build(-1)).Status, SolveStatus::Infeasible);

  // Coefficients whose full range exceeds the solver range are accepted
  // with a bound that keeps the cost variable within it.
  Model M;
  std::vector<VarId> Bits;
  for (int I = 0; I < 4; ++I)
    Bits.push_back(M.addBoolVar());
  M.addLinear({1, 1, 1, 1}, Bits, Relation::GE, 1);
  M.minimize({1 << 30, 1 << 29, 1 << 30, 1 << 30}, Bits, MaxValue);
  SolveResult Result = solve(M);
  ASSERT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  EXPECT_EQ(*Result.ObjectiveValue, 1 << 29);
  EXPECT_EQ(Result.getValue(Bits[1]), 1);
}

TEST(ConstraintSolverTest, EmptyModelHasOneSolution) {
  Model M;
  SolveOptions All;
  All.Mode = SearchMode::All;
  SolveResult Result = solve(M, All);
  EXPECT_EQ(Result.Status, SolveStatus::Optimal) << describe(Result);
  EXPECT_EQ(Result.NumSolutions, 1u);
  EXPECT_TRUE(Result.hasSolution());
}

} // namespace
