//===- DataflowEmbedding.cpp - Intrinsic embedding as a CSP ---------------===//
//
// The Gecode model of DataflowEmbedding.h, built on raf::csp's Gecode layer
// (GecodeSolver.h: the space, the search loop and limits, the exception
// boundary) that rematerialisation's models use too. This file and
// ConstraintSolver.cpp are the only ones that include Gecode; both are
// compiled with -fexceptions and catch every Gecode exception (see
// lib/Embedding/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "raf/Embedding/DataflowEmbedding.h"

#include "GecodeSolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <gecode/int.hh>
#include <gecode/minimodel.hh>
#include <gecode/search.hh>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <set>

#include <time.h>

using namespace raf::embed;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

using Point = SmallVector<int64_t, 8>;
/// The search's clock: the CPU time of the searching thread, so that what
/// the time limit lets the search find does not depend on the machine's load.
struct Clock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<Clock>;
  static constexpr bool is_steady = true;
  static time_point now() {
    timespec T;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
    return time_point(std::chrono::seconds(T.tv_sec) +
                      std::chrono::nanoseconds(T.tv_nsec));
  }
};

/// The sanitizer build's instrumented search runs about eight times slower
/// (docs/fuzzing.md): its time limits are ten times the option's.
#if LLVM_ADDRESS_SANITIZER_BUILD
constexpr uint64_t TimeLimitScale = 10;
#else
constexpr uint64_t TimeLimitScale = 1;
#endif

//===----------------------------------------------------------------------===//
// Hyper-rectangle decoding (Fig. 4.4)
//===----------------------------------------------------------------------===//

/// One dimension of a rectangle: points move along Axis by Stride, Size
/// times (0 while the size is not known yet).
struct RectDim {
  unsigned Axis;
  int64_t Stride;
  int64_t Size;
};

/// The state of Fig. 4.4 after reading a prefix of the point sequence:
/// dimensions innermost first, the outermost still live (size unknown) until
/// the sequence is complete.
struct RectState {
  bool Ok = true;
  std::string Why;
  SmallVector<RectDim, 4> Dims;
  /// Product of the known sizes (all but the live dimension).
  int64_t Known = 1;
};

/// Reads the points v_0..v_{n-1} of a sequence of M points. A move that
/// repeats the known pattern is a step; a move whose offset from v_0 lies on
/// an unused axis while every inner counter is zero is a jump into a new
/// outer dimension (Eqs. 4.19-4.20); anything else fails.
RectState decodeRectangle(ArrayRef<const int64_t *> Points, unsigned Rank,
                          int64_t M, ArrayRef<int64_t> MaxStride) {
  RectState St;
  auto Fail = [&](std::string Why) {
    St.Ok = false;
    St.Why = std::move(Why);
    return St;
  };
  if (Points.empty())
    return St;
  const int64_t *V0 = Points[0];
  auto Expected = [&](int64_t N, unsigned Axis) {
    // Coordinate of point N along Axis according to the known dimensions.
    int64_t Value = V0[Axis];
    int64_t Rest = N;
    for (const RectDim &D : St.Dims) {
      int64_t Digit = D.Size ? Rest % D.Size : Rest;
      Rest = D.Size ? Rest / D.Size : 0;
      if (D.Axis == Axis)
        Value += Digit * D.Stride;
    }
    return Value;
  };
  for (int64_t N = 1, E = Points.size(); N != E; ++N) {
    const int64_t *V = Points[N];
    bool Step = !St.Dims.empty();
    for (unsigned A = 0; A != Rank && Step; ++A)
      Step = V[A] == Expected(N, A);
    if (Step)
      continue;
    // A jump: the live dimension ends here.
    if (!St.Dims.empty()) {
      if (N % St.Known != 0)
        return Fail("a move breaks the regular structure");
      RectDim &Live = St.Dims.back();
      Live.Size = N / St.Known;
      St.Known *= Live.Size;
      if (M % St.Known != 0)
        return Fail("dimension sizes do not factor the intrinsic extent");
    }
    // The new dimension: v_n - v_0 along one unused axis.
    int Axis = -1;
    int64_t Stride = 0;
    for (unsigned A = 0; A != Rank; ++A) {
      int64_t Delta = V[A] - V0[A];
      if (Delta == 0)
        continue;
      if (Axis >= 0)
        return Fail("a move is not axis-aligned");
      // Negative strides occur in operands read backwards (the flipped
      // kernel of a transposed convolution).
      Axis = A;
      Stride = Delta;
    }
    if (Axis < 0)
      return Fail("a point repeats");
    for (const RectDim &D : St.Dims)
      if (D.Axis == static_cast<unsigned>(Axis))
        return Fail("an axis is used twice");
    if (!MaxStride.empty() && MaxStride[Axis] > 0 &&
        std::abs(Stride) > MaxStride[Axis])
      return Fail("a stride exceeds the stride parameter");
    St.Dims.push_back({static_cast<unsigned>(Axis), Stride, 0});
  }
  if (static_cast<int64_t>(Points.size()) == M && !St.Dims.empty()) {
    RectDim &Live = St.Dims.back();
    Live.Size = M / St.Known;
    if (Live.Size * St.Known != M)
      return Fail("dimension sizes do not factor the intrinsic extent");
    St.Known = M;
  }
  return St;
}

/// Checks the dimension groups of an operand: reading innermost first, the
/// dimensions must fill the intrinsic operand's dimensions exactly
/// (Boundaries are the running products of its extents, innermost first),
/// with at most MaxDims operator dimensions per intrinsic dimension.
bool checkBoundaries(const RectState &St, ArrayRef<int64_t> Boundaries,
                     unsigned MaxDims, std::string &Why) {
  int64_t Product = 1;
  unsigned Boundary = 0, InGroup = 0;
  for (const RectDim &D : St.Dims) {
    if (!D.Size)
      break;
    Product *= D.Size;
    ++InGroup;
    if (InGroup > MaxDims) {
      Why = "an intrinsic axis covers more dimensions than the dimensions "
            "parameter allows";
      return false;
    }
    while (Boundary < Boundaries.size() && Product > Boundaries[Boundary]) {
      Why = "operator dimensions straddle two intrinsic axes";
      return false;
    }
    if (Boundary < Boundaries.size() && Product == Boundaries[Boundary]) {
      ++Boundary;
      InGroup = 0;
      // An intrinsic dimension of extent 1 has no operator dimension.
      while (Boundary < Boundaries.size() &&
             Boundaries[Boundary] == Boundaries[Boundary - 1])
        ++Boundary;
    } else if (Boundary < Boundaries.size() &&
               Boundaries[Boundary] % Product != 0) {
      Why = "operator dimensions straddle two intrinsic axes";
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The problem shared by every space of one search
//===----------------------------------------------------------------------===//

/// An intrinsic DFG node: a point of an intrinsic dependence node.
struct INode {
  unsigned Dep;
  Point At;
  /// The operator dependence node it maps into and, per coordinate, the
  /// index of its variable in the space's array. Nodes share variables where
  /// an edge is an identity: a reduction with the product it accumulates,
  /// and an instance's parallel coordinates with the output element it
  /// writes (the output access is the projection onto them).
  unsigned OpDep;
  SmallVector<unsigned, 8> Coords;
  unsigned Rank;
  /// Shares all its coordinates with an earlier statement's node.
  bool Alias = false;

  /// The node's point in a full assignment.
  Point point(ArrayRef<int64_t> Values) const {
    Point Result;
    for (unsigned C : Coords)
      Result.push_back(Values[C]);
    return Result;
  }
};

/// What the hyper-rectangle constraint requires of a group of points.
struct RectSpec {
  /// Running products of the intrinsic extents, innermost first, that the
  /// dimensions must fill exactly.
  SmallVector<int64_t, 4> Boundaries;
  /// Per coordinate, the largest stride (0: any).
  SmallVector<int64_t, 8> MaxStride;
};

/// The elements of one intrinsic operand, row-major.
struct OperandGroup {
  unsigned IntrinsicDep, OperatorDep;
  int Input;
  SmallVector<unsigned, 0> Members;
  SmallVector<int64_t, 4> Shape;
  RectSpec Rect;
};

struct OverlapRule {
  unsigned A, B;
  unsigned Input;
  DataflowOracle::Overlap Want;
};

struct Problem {
  const DataflowGraph &Op;
  const DataflowGraph &In;
  EmbeddingOptions Opts;
  bool Strict;
  int64_t MaxStride;
  unsigned MaxDims;
  bool RelaxInputs;
  bool HyperRectangle, MemoryAccess, AllDiff;

  std::vector<INode> Nodes;
  unsigned NumCoords = 0;
  std::map<std::pair<unsigned, Point>, unsigned> NodeIndex;
  SmallVector<OperandGroup, 3> Operands;
  /// Statement nodes per intrinsic statement.
  SmallVector<SmallVector<unsigned, 0>, 2> Statements;
  /// The memory-access rules: AllOverlaps always (to label candidates),
  /// Overlaps when the constraint is enabled.
  SmallVector<OverlapRule, 0> Overlaps, AllOverlaps;
  /// Per intrinsic iterator, the instances of the first statement along it
  /// from the origin.
  SmallVector<SmallVector<unsigned, 16>, 3> AxisInstances;
  /// The hyper-rectangle requirement on those instances: a redundant
  /// constraint in iteration space that prunes before the operands are
  /// known; reduction iterators are covered contiguously.
  RectSpec AxisRect;
  /// The variables the mapping and the cost depend on, ascending: the
  /// instances along every intrinsic axis, every operand's elements along its
  /// dimensions from the origin, and all outputs. Once they are known, so is
  /// the cost.
  SmallVector<unsigned, 0> CostOffsets;
  /// The inputs' stored elements and the elements the operator reads of
  /// them (fewer when a stride skips some), for the cost's lower bound.
  uint64_t InputsStored = 0, InputsRead = 0;

  /// Branch and bound for the MaxCandidates best: once that many distinct
  /// embeddings are known, leaves at or above the cost of the worst of them
  /// fail.
  bool UseBound = false;
  uint64_t Bound = UINT64_MAX;
  std::map<std::string, Embedding> Found;

  /// Records an embedding; returns false if it was known.
  bool add(Embedding Emb) {
    if (!Found.emplace(Emb.getKey(), std::move(Emb)).second)
      return false;
    unsigned Keep = std::max(1u, Opts.MaxCandidates);
    if (Found.size() >= Keep) {
      SmallVector<uint64_t, 16> Costs;
      for (const auto &KV : Found)
        Costs.push_back(KV.second.Cost);
      std::nth_element(Costs.begin(), Costs.begin() + (Keep - 1), Costs.end());
      Bound = Costs[Keep - 1];
    }
    return true;
  }

  Problem(const DataflowGraph &Op, const DataflowGraph &In,
          const EmbeddingOptions &Opts)
      : Op(Op), In(In), Opts(Opts) {}

  unsigned node(unsigned Dep, ArrayRef<int64_t> At) const {
    auto It = NodeIndex.find({Dep, Point(At)});
    return It == NodeIndex.end() ? ~0u : It->second;
  }
};

std::string buildProblem(Problem &P) {
  const DataflowGraph &Op = P.Op, &In = P.In;
  const EmbeddingOptions &O = P.Opts;
  P.Strict = O.SearchMode == EmbeddingOptions::Mode::Strict;
  P.MaxStride = O.MaxStride ? O.MaxStride : (P.Strict ? 1 : 4);
  P.MaxDims = O.MaxDimensions ? O.MaxDimensions
              : P.Strict      ? 1
                              : Op.getNumIterators();
  P.RelaxInputs = O.RelaxInputAllDiff.value_or(!P.Strict);
  auto Enabled = [&](llvm::StringRef Name) {
    return !llvm::is_contained(O.Disabled, Name.str());
  };
  P.HyperRectangle = Enabled("hyper-rectangle");
  P.MemoryAccess = Enabled("memory-access");
  P.AllDiff = Enabled("alldiff");

  // Match the coarse dependence graphs: operands by position, statements by
  // textual order, with equal labels and equal edge structure (Rieber 2022,
  // §4.1: the arithmetic operations and arity must match).
  auto Describe = [](const DataflowGraph &G) {
    std::string S;
    for (unsigned N : G.getStatements())
      S += (S.empty() ? "" : ", ") + stringifyScalarOp(G.Nodes[N].Label).str() +
           (G.Nodes[N].IsReduction ? " (reduction)" : "");
    return S;
  };
  auto OpStmts = Op.getStatements(), InStmts = In.getStatements();
  if (Op.Expr.Inputs.size() != In.Expr.Inputs.size() ||
      OpStmts.size() != InStmts.size())
    return "the operator's dataflow (" + Describe(Op) + " over " +
           std::to_string(Op.Expr.Inputs.size()) +
           " operands) does not match the intrinsic's (" + Describe(In) +
           " over " + std::to_string(In.Expr.Inputs.size()) + " operands)";
  SmallVector<unsigned, 8> DepMap(In.Nodes.size(), ~0u);
  for (auto [I, J] : llvm::zip(InStmts, OpStmts)) {
    if (In.Nodes[I].Label != Op.Nodes[J].Label ||
        In.Nodes[I].IsReduction != Op.Nodes[J].IsReduction)
      return "the operator's dataflow (" + Describe(Op) +
             ") does not match the intrinsic's (" + Describe(In) + ")";
    DepMap[I] = J;
  }
  for (unsigned I = 0, E = In.Expr.Inputs.size(); I != E; ++I)
    DepMap[In.getInputNode(I)] = Op.getInputNode(I);
  DepMap[In.getOutputNode()] = Op.getOutputNode();
  // Every intrinsic relation needs its operator counterpart (the space
  // looks it up when it posts the edge constraints).
  for (const DepEdge &IE : In.Edges) {
    bool Match = llvm::any_of(Op.Edges, [&](const DepEdge &OE) {
      return OE.K == IE.K && OE.Src == DepMap[IE.Src] &&
             OE.Dst == DepMap[IE.Dst] && OE.OperandPos == IE.OperandPos;
    });
    if (!Match)
      return "the intrinsic's relation " + In.Nodes[IE.Src].Name + " -> " +
             In.Nodes[IE.Dst].Name + " has no counterpart in the operator";
  }

  // A statement that consumes another statement's value at the same
  // iteration point (an identity flow edge, e.g. the reduction of a
  // product) shares that statement's coordinates: the edge constraint would
  // equate them anyway, and fewer variables make cheaper clones.
  SmallVector<int, 8> SameAs(In.Nodes.size(), -1);
  for (const DepEdge &E : In.Edges)
    if (E.K == DepEdge::Kind::Flow && SameAs[E.Dst] < 0)
      SameAs[E.Src] = E.Dst;
  // Intrinsic DFG nodes: every point of every intrinsic dependence node.
  for (unsigned D = 0, DE = In.Nodes.size(); D != DE; ++D) {
    const DepNode &N = In.Nodes[D];
    const DepNode &ON = Op.Nodes[DepMap[D]];
    Point At(N.getRank(), 0);
    while (true) {
      P.NodeIndex[{D, At}] = P.Nodes.size();
      INode Node{D, At, DepMap[D], {}, ON.getRank()};
      if (SameAs[D] >= 0) {
        Node.Coords = P.Nodes[P.node(SameAs[D], At)].Coords;
        Node.Alias = true;
      } else {
        for (unsigned J = 0; J != Node.Rank; ++J)
          Node.Coords.push_back(P.NumCoords + J);
        if (N.isStatement()) {
          // Parallel coordinates: those of the output element written.
          const DepEdge *Write = nullptr;
          for (const DepEdge &E : In.Edges)
            if (E.K == DepEdge::Kind::Write)
              Write = &E;
          const INode &Out = P.Nodes[P.node(Write->Dst, Write->Map.apply(At))];
          for (unsigned J = 0, JE = Op.getNumParallel(); J != JE; ++J)
            Node.Coords[J] = Out.Coords[J];
        }
        unsigned Fresh = 0;
        for (unsigned C : Node.Coords)
          Fresh += C >= P.NumCoords;
        // Renumber the fresh coordinates densely.
        unsigned Next = P.NumCoords;
        for (unsigned &C : Node.Coords)
          if (C >= P.NumCoords)
            C = Next++;
        P.NumCoords += Fresh;
      }
      P.Nodes.push_back(std::move(Node));
      // Row-major increment (last coordinate fastest).
      int K = N.getRank() - 1;
      while (K >= 0 && ++At[K] == N.Extents[K])
        At[K--] = 0;
      if (K < 0)
        break;
    }
  }
  for (unsigned I = 0, E = In.Expr.Inputs.size(); I <= E; ++I) {
    OperandGroup G;
    G.IntrinsicDep = I < E ? In.getInputNode(I) : In.getOutputNode();
    G.OperatorDep = DepMap[G.IntrinsicDep];
    G.Input = I < E ? static_cast<int>(I) : -1;
    G.Shape.assign(In.Nodes[G.IntrinsicDep].Extents.begin(),
                   In.Nodes[G.IntrinsicDep].Extents.end());
    int64_t Product = 1;
    for (int K = G.Shape.size() - 1; K > 0; --K)
      G.Rect.Boundaries.push_back(Product *= G.Shape[K]);
    G.Rect.MaxStride.assign(Op.Nodes[G.OperatorDep].getRank(), P.MaxStride);
    for (unsigned N = 0, NE = P.Nodes.size(); N != NE; ++N)
      if (P.Nodes[N].Dep == G.IntrinsicDep)
        G.Members.push_back(N);
    P.Operands.push_back(std::move(G));
  }
  for (unsigned S : InStmts) {
    SmallVector<unsigned, 0> Members;
    for (unsigned N = 0, NE = P.Nodes.size(); N != NE; ++N)
      if (P.Nodes[N].Dep == S)
        Members.push_back(N);
    P.Statements.push_back(std::move(Members));
  }
  unsigned NumIters = In.getNumIterators();
  for (unsigned Q = 0; Q != NumIters; ++Q) {
    SmallVector<unsigned, 16> Along;
    Point At(NumIters, 0);
    for (int64_t T = 0; T != In.Nodes[InStmts[0]].Extents[Q]; ++T) {
      At[Q] = T;
      Along.push_back(P.node(InStmts[0], At));
    }
    P.AxisInstances.push_back(std::move(Along));
  }
  for (const Iterator &It : Op.Expr.Iterators)
    P.AxisRect.MaxStride.push_back(It.IsReduction ? 1 : P.MaxStride);
  {
    std::set<unsigned> Offsets;
    auto AddNode = [&](unsigned M) {
      for (unsigned J = 0; J != P.Nodes[M].Rank; ++J)
        Offsets.insert(P.Nodes[M].Coords[J]);
    };
    for (const auto &Along : P.AxisInstances)
      for (unsigned M : Along)
        AddNode(M);
    for (const OperandGroup &G : P.Operands) {
      unsigned Rank = G.Shape.size();
      for (unsigned K = 0; K != Rank; ++K) {
        Point At(Rank, 0);
        for (int64_t T = 0; T != G.Shape[K]; ++T) {
          At[K] = T;
          AddNode(P.node(G.IntrinsicDep, At));
        }
      }
    }
    for (unsigned M : P.Operands.back().Members)
      AddNode(M);
    P.CostOffsets.assign(Offsets.begin(), Offsets.end());
  }

  for (unsigned K = 0, KE = Op.Edges.size(); K != KE; ++K) {
    const DepEdge &E = Op.Edges[K];
    if (E.K != DepEdge::Kind::Read)
      continue;
    unsigned NumIters = Op.getNumIterators();
    SmallVector<int64_t, 8> Ones(NumIters, 1), Extents;
    for (const Iterator &It : Op.Expr.Iterators)
      Extents.push_back(It.Extent);
    auto Read = Op.Oracle->countImage(K, Ones, Ones, Extents);
    if (!Read)
      return llvm::toString(Read.takeError());
    uint64_t Stored = 1;
    for (int64_t S : Op.Nodes[E.Dst].Original)
      Stored *= S;
    P.InputsStored += Stored;
    P.InputsRead += std::min(*Read, Stored);
  }

  // Memory-access rules from the intrinsic's own access sets: neighbouring
  // outputs and every output against the first (for non-transitivity).
  const OperandGroup &Out = P.Operands.back();
  auto AddRules = [&](unsigned A, unsigned B) {
    for (unsigned I = 0, E = In.Expr.Inputs.size(); I != E; ++I) {
      auto Want = In.Oracle->compareAccessSets(I, P.Nodes[A].At, P.Nodes[B].At);
      if (Want != DataflowOracle::Overlap::Partial)
        P.AllOverlaps.push_back({A, B, I, Want});
    }
  };
  for (unsigned K = 1, KE = Out.Members.size(); K < KE; ++K) {
    AddRules(Out.Members[K - 1], Out.Members[K]);
    if (K > 1)
      AddRules(Out.Members[0], Out.Members[K]);
  }
  if (P.MemoryAccess)
    P.Overlaps = P.AllOverlaps;
  return "";
}

//===----------------------------------------------------------------------===//
// Features and cost
//===----------------------------------------------------------------------===//

/// Decodes the operator dimensions covered by a sequence of node values.
std::optional<AxisMappings> decodeAxis(const Problem &P,
                                       ArrayRef<unsigned> Members,
                                       ArrayRef<int64_t> Values) {
  if (Members.empty())
    return AxisMappings();
  SmallVector<Point, 16> Storage;
  SmallVector<const int64_t *, 16> Points;
  for (unsigned M : Members)
    Storage.push_back(P.Nodes[M].point(Values));
  for (const Point &Pt : Storage)
    Points.push_back(Pt.data());
  unsigned Rank = P.Nodes[Members[0]].Rank;
  RectState St = decodeRectangle(Points, Rank, Members.size(), {});
  if (!St.Ok)
    return std::nullopt;
  AxisMappings Result;
  for (const RectDim &D : St.Dims)
    Result.push_back({D.Axis, D.Size, D.Stride});
  return Result;
}

/// Reduction iterators are covered with stride 1: a stride would only split
/// the reduction into residue classes accumulated in separate passes, never
/// saving work or data, so such embeddings are not considered.
bool contiguousReductions(const Problem &P, const AxisMappings &Axis) {
  for (const AxisMapping &M : Axis)
    if (M.Stride != 1 && P.Op.Expr.Iterators[M.Dim].IsReduction)
      return false;
  return true;
}

/// Points executed along an iterator of extent E covered by tiles of Length
/// points Stride apart: every residue class is tiled separately.
int64_t executedExtent(int64_t E, int64_t Length, int64_t Stride) {
  int64_t Total = 0;
  for (int64_t R = 0; R < Stride && R < E; ++R) {
    int64_t Points = (E - R + Stride - 1) / Stride;
    Total += (Points + Length - 1) / Length * Length;
  }
  return Total;
}

std::optional<Embedding> extractEmbedding(Problem &P, ArrayRef<int64_t> Values,
                                          bool WithPoints = true) {
  const DataflowGraph &Op = P.Op;
  Embedding Emb;
  for (unsigned Q = 0, QE = P.AxisInstances.size(); Q != QE; ++Q) {
    auto Axis = decodeAxis(P, P.AxisInstances[Q], Values);
    if (!Axis || !contiguousReductions(P, *Axis))
      return std::nullopt;
    Emb.Iterators.push_back(*Axis);
  }
  for (const OperandGroup &G : P.Operands) {
    OperandEmbedding OE;
    OE.IntrinsicOperand = P.In.Nodes[G.IntrinsicDep].Name;
    OE.OperatorOperand = Op.Nodes[G.OperatorDep].Name;
    OE.OperatorInput = G.Input;
    unsigned Rank = G.Shape.size();
    for (unsigned K = 0; K != Rank; ++K) {
      // The elements along intrinsic dimension K from the origin.
      SmallVector<unsigned, 16> Along;
      Point At(Rank, 0);
      for (int64_t T = 0; T != G.Shape[K]; ++T) {
        At[K] = T;
        Along.push_back(P.node(G.IntrinsicDep, At));
      }
      auto Axis = decodeAxis(P, Along, Values);
      if (!Axis)
        return std::nullopt;
      OE.Dims.push_back(*Axis);
    }
    Emb.Operands.push_back(std::move(OE));
  }
  if (WithPoints)
    for (const INode &N : P.Nodes)
      Emb.Points.push_back(N.point(Values));

  // Cost (Rieber 2022, §4.3.6): MAC overhead from the executed extents,
  // data-movement overhead from the distinct tiles every operand is cut into.
  unsigned NumIters = Op.getNumIterators();
  SmallVector<int64_t, 8> Length(NumIters, 1), Stride(NumIters, 1);
  for (const AxisMappings &Axis : Emb.Iterators)
    for (const AxisMapping &M : Axis) {
      Length[M.Dim] = M.Length;
      Stride[M.Dim] = M.Stride;
    }
  Emb.MacTotal = Emb.MacMin = 1;
  SmallVector<int64_t, 8> Period(NumIters);
  for (unsigned D = 0; D != NumIters; ++D) {
    int64_t E = Op.Expr.Iterators[D].Extent;
    Emb.Extents.push_back(E);
    Emb.Executed.push_back(executedExtent(E, Length[D], Stride[D]));
    Emb.MacTotal *= Emb.Executed.back();
    Emb.MacMin *= E;
    Period[D] = Length[D] * Stride[D];
  }
  for (const OperandGroup &G : P.Operands) {
    uint64_t TileElems = 1;
    for (int64_t S : G.Shape)
      TileElems *= S;
    uint64_t Stored = 1;
    for (int64_t S : Op.Nodes[G.OperatorDep].Original)
      Stored *= S;
    Emb.DataMin += Stored;
    for (unsigned K = 0, KE = Op.Edges.size(); K != KE; ++K) {
      const DepEdge &E = Op.Edges[K];
      if (E.Dst != G.OperatorDep ||
          (E.K != DepEdge::Kind::Read && E.K != DepEdge::Kind::Write))
        continue;
      auto Tiles = Op.Oracle->countImage(K, Period, Stride, Emb.Extents);
      if (!Tiles) {
        llvm::consumeError(Tiles.takeError());
        return std::nullopt;
      }
      Emb.DataTotal += *Tiles * TileElems;
      break;
    }
  }
  Emb.Cost =
      P.Opts.WeightMac * (Emb.MacTotal - Emb.MacMin) +
      P.Opts.WeightData *
          (Emb.DataTotal > Emb.DataMin ? Emb.DataTotal - Emb.DataMin : 0);
  // Whether the memory-access rules hold (the layout needs no duplication):
  // the same rules the constraint posts.
  for (const OverlapRule &R : P.AllOverlaps) {
    Point VA = P.Nodes[R.A].point(Values), VB = P.Nodes[R.B].point(Values);
    if (Op.Oracle->compareAccessSets(R.Input, VA, VB) != R.Want) {
      Emb.MemoryAccess = false;
      break;
    }
  }
  return Emb;
}

//===----------------------------------------------------------------------===//
// Propagators
//===----------------------------------------------------------------------===//

using namespace Gecode;
using IntViews = ViewArray<Int::IntView>;

/// The plumbing the propagators below share: one array of integer views,
/// woken when a view is assigned. Derived is the concrete propagator, whose
/// size Gecode needs back from dispose().
template <class Derived>
class ValuePropagator : public Propagator {
protected:
  IntViews X;

  ValuePropagator(Home H, IntViews &X) : Propagator(H), X(X) {
    X.subscribe(H, *this, Int::PC_INT_VAL);
  }
  ValuePropagator(Space &H, ValuePropagator &Other) : Propagator(H, Other) {
    X.update(H, Other.X);
  }

public:
  Propagator *copy(Space &H) override {
    return new (H) Derived(H, static_cast<Derived &>(*this));
  }
  PropCost cost(const Space &, const ModEventDelta &) const override {
    return PropCost::linear(PropCost::HI, X.size());
  }
  void reschedule(Space &H) override {
    X.reschedule(H, *this, Int::PC_INT_VAL);
  }
  size_t dispose(Space &H) override {
    X.cancel(H, *this, Int::PC_INT_VAL);
    (void)Propagator::dispose(H);
    return sizeof(Derived);
  }
};

/// Pairwise distinct vectors: a group of Count points of Rank coordinates,
/// laid out point after point.
class VectorDistinct : public ValuePropagator<VectorDistinct> {
  int Rank;

public:
  VectorDistinct(Home H, IntViews &X, int Rank)
      : ValuePropagator(H, X), Rank(Rank) {}
  VectorDistinct(Space &H, VectorDistinct &P)
      : ValuePropagator(H, P), Rank(P.Rank) {}
  PropCost cost(const Space &, const ModEventDelta &) const override {
    return PropCost::quadratic(PropCost::LO, X.size());
  }
  ExecStatus propagate(Space &H, const ModEventDelta &) override {
    int Count = X.size() / Rank;
    SmallVector<int, 64> Done, Open;
    for (int P = 0; P != Count; ++P) {
      int Unassigned = 0;
      for (int J = 0; J != Rank; ++J)
        Unassigned += !X[P * Rank + J].assigned();
      if (Unassigned == 0)
        Done.push_back(P);
      else if (Unassigned == 1)
        Open.push_back(P);
    }
    auto Less = [&](int A, int B) {
      for (int J = 0; J != Rank; ++J)
        if (X[A * Rank + J].val() != X[B * Rank + J].val())
          return X[A * Rank + J].val() < X[B * Rank + J].val();
      return false;
    };
    std::sort(Done.begin(), Done.end(), Less);
    for (size_t K = 1; K < Done.size(); ++K)
      if (!Less(Done[K - 1], Done[K]))
        return ES_FAILED;
    for (int P : Open) {
      int Free = 0;
      while (X[P * Rank + Free].assigned())
        ++Free;
      for (int Q : Done) {
        bool Same = true;
        for (int J = 0; J != Rank && Same; ++J)
          Same = J == Free || X[P * Rank + J].val() == X[Q * Rank + J].val();
        if (Same)
          GECODE_ME_CHECK(X[P * Rank + Free].nq(H, X[Q * Rank + Free].val()));
      }
    }
    return Done.size() == static_cast<size_t>(Count) ? H.ES_SUBSUMED(*this)
                                                     : ES_FIX;
  }
  static ExecStatus post(Home H, IntViews &X, int Rank) {
    (void)new (H) VectorDistinct(H, X, Rank);
    return ES_OK;
  }
};

/// The hyper-rectangle constraint on an operand's elements (Fig. 4.4): from
/// the assigned prefix, fail on irregular moves, fix the coordinates of
/// dimensions whose size is known and bound the others by the bounding box
/// of Eq. 4.22.
class HyperRectangle : public ValuePropagator<HyperRectangle> {
  int Rank;
  const RectSpec *Spec;
  const Problem *P;

public:
  HyperRectangle(Home H, IntViews &X, int Rank, const RectSpec *Spec,
                 const Problem *P)
      : ValuePropagator(H, X), Rank(Rank), Spec(Spec), P(P) {}
  HyperRectangle(Space &H, HyperRectangle &Other)
      : ValuePropagator(H, Other), Rank(Other.Rank), Spec(Other.Spec),
        P(Other.P) {}
  ExecStatus propagate(Space &H, const ModEventDelta &) override {
    int M = X.size() / Rank;
    SmallVector<int64_t, 64> Values(X.size(), 0);
    SmallVector<const int64_t *, 64> Prefix;
    for (int N = 0; N != M; ++N) {
      bool Assigned = true;
      for (int J = 0; J != Rank && Assigned; ++J)
        Assigned = X[N * Rank + J].assigned();
      if (!Assigned)
        break;
      for (int J = 0; J != Rank; ++J)
        Values[N * Rank + J] = X[N * Rank + J].val();
      Prefix.push_back(&Values[N * Rank]);
    }
    if (Prefix.empty())
      return ES_FIX;
    RectState St = decodeRectangle(Prefix, Rank, M, Spec->MaxStride);
    std::string Why;
    if (!St.Ok || !checkBoundaries(St, Spec->Boundaries, P->MaxDims, Why))
      return ES_FAILED;
    if (static_cast<int>(Prefix.size()) == M)
      return H.ES_SUBSUMED(*this);
    const int64_t *V0 = Prefix[0];
    // The live dimension cannot straddle an intrinsic axis: its size is at
    // most (next axis boundary) / (product of the known sizes).
    int64_t LiveMax = M / St.Known;
    for (int64_t B : Spec->Boundaries)
      if (B > St.Known) {
        LiveMax = B / St.Known;
        break;
      }
    // The next point either steps along the known pattern or, when every
    // inner counter is zero, jumps from v_0 along one unused axis by at most
    // that axis' stride: each coordinate is bounded by those choices.
    int Next = Prefix.size();
    bool CanJump = St.Dims.empty() || Next % St.Known == 0;
    auto Unused = [&](int J) {
      for (const RectDim &D : St.Dims)
        if (D.Axis == static_cast<unsigned>(J))
          return false;
      return true;
    };
    auto StrideCap = [&](int J) {
      return Spec->MaxStride.empty() ? 0 : Spec->MaxStride[J];
    };
    // Coordinates along known dimensions are periodic in the point index;
    // the live dimension is bounded by the next intrinsic boundary and
    // unused axes by the largest stride times the points left (Eq. 4.22,
    // tightened).
    for (int N = Next; N != M; ++N) {
      for (int J = 0; J != Rank; ++J) {
        int64_t Lo = V0[J], Hi = -1;
        int64_t Rest = N;
        bool Used = false;
        int64_t Step = V0[J];
        for (const RectDim &D : St.Dims) {
          bool Live = D.Size == 0;
          int64_t Digit = Live ? Rest : Rest % D.Size;
          Rest = Live ? 0 : Rest / D.Size;
          if (D.Axis != static_cast<unsigned>(J))
            continue;
          Used = true;
          Step = V0[J] + Digit * D.Stride;
          if (Live) {
            int64_t End = V0[J] + D.Stride * (LiveMax - 1);
            Lo = std::min(V0[J], End);
            Hi = std::max(V0[J], End);
          } else {
            Lo = Hi = Step;
          }
        }
        int64_t Cap = StrideCap(J);
        bool Bounded = Used;
        if (!Used && Cap > 0) {
          Lo = V0[J] - Cap * (M / St.Known - 1);
          Hi = V0[J] + Cap * (M / St.Known - 1);
          Bounded = true;
        }
        if (N == Next) {
          // Step value, or v_0's coordinate / a stride away on a jump.
          Lo = Hi = Step;
          Bounded = true;
          if (CanJump) {
            Lo = std::min(Lo, V0[J]);
            Hi = std::max(Hi, V0[J]);
            if (Unused(J)) {
              Bounded = Cap > 0;
              Lo = std::min(Lo, V0[J] - Cap);
              Hi = std::max(Hi, V0[J] + Cap);
            }
          }
        }
        if (!Bounded)
          continue;
        Int::IntView V = X[N * Rank + J];
        GECODE_ME_CHECK(V.gq(H, static_cast<long long>(Lo)));
        GECODE_ME_CHECK(V.lq(H, static_cast<long long>(Hi)));
      }
    }
    return ES_NOFIX;
  }
  static ExecStatus post(Home H, IntViews &X, int Rank, const RectSpec *Spec,
                         const Problem *P) {
    (void)new (H) HyperRectangle(H, X, Rank, Spec, P);
    return ES_OK;
  }
};

/// A memory-access rule (Fig. 4.7): once both output elements are known,
/// their access sets for one input must relate as the intrinsic's do.
class AccessOverlap : public ValuePropagator<AccessOverlap> {
  int Rank;
  unsigned Input;
  DataflowOracle::Overlap Want;
  const Problem *P;

public:
  AccessOverlap(Home H, IntViews &X, int Rank, unsigned Input,
                DataflowOracle::Overlap Want, const Problem *P)
      : ValuePropagator(H, X), Rank(Rank), Input(Input), Want(Want), P(P) {}
  AccessOverlap(Space &H, AccessOverlap &O)
      : ValuePropagator(H, O), Rank(O.Rank), Input(O.Input), Want(O.Want),
        P(O.P) {}
  ExecStatus propagate(Space &H, const ModEventDelta &) override {
    if (!X.assigned())
      return ES_FIX;
    Point A, B;
    for (int J = 0; J != Rank; ++J) {
      A.push_back(X[J].val());
      B.push_back(X[Rank + J].val());
    }
    if (P->Op.Oracle->compareAccessSets(Input, A, B) != Want)
      return ES_FAILED;
    return H.ES_SUBSUMED(*this);
  }
  static ExecStatus post(Home H, IntViews &X, int Rank, unsigned Input,
                         DataflowOracle::Overlap Want, const Problem *P) {
    (void)new (H) AccessOverlap(H, X, Rank, Input, Want, P);
    return ES_OK;
  }
};

/// Branch and bound on the candidate cost: a complete assignment must be
/// cheaper than the best embedding found so far.
class CostBound : public ValuePropagator<CostBound> {
  Problem *P;

public:
  CostBound(Home H, IntViews &X, Problem *P) : ValuePropagator(H, X), P(P) {}
  CostBound(Space &H, CostBound &O) : ValuePropagator(H, O), P(O.P) {}
  ExecStatus propagate(Space &H, const ModEventDelta &) override {
    if (!X.assigned())
      return P->UseBound && costLowerBound() >= P->Bound ? ES_FAILED : ES_FIX;
    SmallVector<int64_t, 0> Values(P->NumCoords, 0);
    for (int I = 0; I != X.size(); ++I)
      Values[P->CostOffsets[I]] = X[I].val();
    auto Emb = extractEmbedding(*P, Values, /*WithPoints=*/false);
    if (!Emb || (P->UseBound && Emb->Cost >= P->Bound))
      return ES_FAILED;
    return H.ES_SUBSUMED(*this);
  }
  /// A lower bound on the cost of every completion (the weights are
  /// non-negative): the MAC overhead of the intrinsic axes whose instances
  /// are already known (the others count as unpadded), plus, once every
  /// axis covering the output is known, the output's data-movement overhead
  /// (every input moves at least its own size).
  uint64_t costLowerBound() const {
    const Problem &Pr = *P;
    const DataflowGraph &Op = Pr.Op;
    unsigned NumIters = Op.getNumIterators();
    SmallVector<int64_t, 8> Executed, Extents, Period(NumIters, 1),
        Residues(NumIters, 1);
    for (const Iterator &It : Op.Expr.Iterators) {
      Executed.push_back(It.Extent);
      Extents.push_back(It.Extent);
    }
    SmallVector<int64_t, 0> Values(Pr.NumCoords, 0);
    auto View = [&](unsigned Offset) {
      return X[llvm::lower_bound(Pr.CostOffsets, Offset) -
               Pr.CostOffsets.begin()];
    };
    // Reads the members' coordinates; false if one is unassigned.
    auto Read = [&](ArrayRef<unsigned> Members) {
      for (unsigned M : Members) {
        const INode &N = Pr.Nodes[M];
        for (unsigned J = 0; J != N.Rank; ++J) {
          Int::IntView V = View(N.Coords[J]);
          if (!V.assigned())
            return false;
          Values[N.Coords[J]] = V.val();
        }
      }
      return true;
    };
    // The output's dimensions are the parallel iterators (its access is the
    // projection onto them): its elements along each intrinsic output
    // dimension give their tiling.
    const OperandGroup &Out = Pr.Operands.back();
    bool OutputAxesKnown = Read(Out.Members);
    if (OutputAxesKnown)
      for (unsigned K = 0, KE = Out.Shape.size(); K != KE; ++K) {
        SmallVector<unsigned, 16> Along;
        Point At(KE, 0);
        for (int64_t T = 0; T != Out.Shape[K]; ++T) {
          At[K] = T;
          Along.push_back(Pr.node(Out.IntrinsicDep, At));
        }
        auto Axis = decodeAxis(Pr, Along, Values);
        if (!Axis)
          return UINT64_MAX;
        for (const AxisMapping &M : *Axis) {
          Period[M.Dim] = M.Length * M.Stride;
          Residues[M.Dim] = M.Stride;
        }
      }
    for (unsigned Q = 0, QE = Pr.AxisInstances.size(); Q != QE; ++Q) {
      const auto &Along = Pr.AxisInstances[Q];
      if (!Read(Along))
        continue;
      auto Axis = decodeAxis(Pr, Along, Values);
      if (!Axis || !contiguousReductions(Pr, *Axis))
        return UINT64_MAX;
      for (const AxisMapping &M : *Axis) {
        Executed[M.Dim] = executedExtent(Extents[M.Dim], M.Length, M.Stride);
        Period[M.Dim] = M.Length * M.Stride;
        Residues[M.Dim] = M.Stride;
      }
    }
    uint64_t Total = 1, Min = 1;
    for (unsigned D = 0; D != NumIters; ++D) {
      Total *= Executed[D];
      Min *= Extents[D];
    }
    uint64_t Bound = Pr.Opts.WeightMac * (Total - Min);
    if (!OutputAxesKnown || !Pr.Opts.WeightData)
      return Bound;
    for (unsigned K = 0, KE = Op.Edges.size(); K != KE; ++K) {
      const DepEdge &E = Op.Edges[K];
      if (E.K != DepEdge::Kind::Write)
        continue;
      auto Tiles = Op.Oracle->countImage(K, Period, Residues, Extents);
      if (!Tiles) {
        llvm::consumeError(Tiles.takeError());
        return Bound;
      }
      uint64_t TileElems = 1, Stored = 1; // of the output
      for (int64_t S : Out.Shape)
        TileElems *= S;
      for (int64_t S : Op.Nodes[Out.OperatorDep].Original)
        Stored *= S;
      // Every input moves at least the elements it reads.
      uint64_t Moved = *Tiles * TileElems + Pr.InputsRead;
      uint64_t Min = Stored + Pr.InputsStored;
      if (Moved > Min)
        Bound += Pr.Opts.WeightData * (Moved - Min);
    }
    return Bound;
  }

  static ExecStatus post(Home H, IntViews &X, Problem *P) {
    (void)new (H) CostBound(H, X, P);
    return ES_OK;
  }
};

//===----------------------------------------------------------------------===//
// The space
//===----------------------------------------------------------------------===//

/// Linear form of an index expression over a node's coordinates; floor
/// divisions and remainders get auxiliary variables.
LinIntExpr linearize(Space &H, const IndexFunction &F, int Node,
                     const IntVarArray &X, ArrayRef<unsigned> Coords,
                     ArrayRef<int64_t> Extents) {
  const IndexNode &N = F.Nodes[Node];
  switch (N.K) {
  case IndexNode::Kind::Constant:
    return LinIntExpr(static_cast<int>(N.Value));
  case IndexNode::Kind::Dim:
    return LinIntExpr(X[Coords[N.Value]]);
  case IndexNode::Kind::Add:
    return linearize(H, F, N.Lhs, X, Coords, Extents) +
           linearize(H, F, N.Rhs, X, Coords, Extents);
  case IndexNode::Kind::Mul:
    return static_cast<int>(N.Value) *
           linearize(H, F, N.Lhs, X, Coords, Extents);
  case IndexNode::Kind::FloorDiv:
  case IndexNode::Kind::Mod: {
    LinIntExpr E = linearize(H, F, N.Lhs, X, Coords, Extents);
    IntVar Q(H, Int::Limits::min, Int::Limits::max);
    int C = static_cast<int>(N.Value);
    rel(H, C * Q <= E);
    rel(H, E <= C * Q + (C - 1));
    if (N.K == IndexNode::Kind::FloorDiv)
      return LinIntExpr(Q);
    return E - C * Q;
  }
  }
  return LinIntExpr(0);
}

/// The embedding's model on the variables of a raf::csp::SolverSpace (one
/// per coordinate of an intrinsic node): linear edge, floor-div and mod
/// constraints, and the propagators above posted on the same variables.
class EmbedSpace : public raf::csp::SolverSpace {
public:
  EmbedSpace(Problem &P, ArrayRef<unsigned> Order, bool WithMemoryAccess) {
    X = IntVarArray(*this, P.NumCoords);
    // GECODE_ES_FAIL refers to the space as `home`.
    Home home = *this;
    const DataflowGraph &Op = P.Op, &In = P.In;
    unsigned NumIters = Op.getNumIterators();
    // Domains: the operator node's box; statement coordinates capped by the
    // domain bound (Eq. 4.39 as a cap).
    int64_t Largest = 1;
    for (int64_t E : In.PaddedExtents)
      Largest = std::max(Largest, E);
    SmallVector<int64_t, 0> Hi(P.NumCoords, INT64_MAX);
    for (const INode &N : P.Nodes) {
      const DepNode &D = Op.Nodes[N.OpDep];
      for (unsigned J = 0; J != N.Rank; ++J) {
        int64_t Max = D.Extents[J] - 1;
        if (D.isStatement() && P.Opts.DomainBound && P.MaxStride > 0)
          Max = std::min(Max, Largest * P.MaxStride - 1);
        Hi[N.Coords[J]] = std::min(Hi[N.Coords[J]], Max);
      }
    }
    for (unsigned C = 0; C != P.NumCoords; ++C)
      X[C] = IntVar(*this, 0, static_cast<int>(Hi[C]));
    // Edges.
    for (unsigned NI = 0, NE = P.Nodes.size(); NI != NE; ++NI) {
      const INode &N = P.Nodes[NI];
      if (!In.Nodes[N.Dep].isStatement())
        continue;
      for (const DepEdge &IE : In.Edges) {
        if (IE.Src != N.Dep)
          continue;
        if (IE.K == DepEdge::Kind::Reduction) {
          // The next instance of the same intrinsic output: same operator
          // output element (different instance by AllDiff).
          // N.At is a point of the intrinsic's space: its last iterator is
          // the intrinsic's reduction (the operator may have more
          // iterators than the intrinsic).
          Point Next = N.At;
          unsigned Last = Next.size() - 1;
          if (++Next[Last] >= In.Nodes[N.Dep].Extents[Last])
            continue;
          const INode &M = P.Nodes[P.node(N.Dep, Next)];
          for (unsigned J = 0, JE = Op.getNumParallel(); J != JE; ++J)
            if (N.Coords[J] != M.Coords[J])
              rel(*this, X[N.Coords[J]], IRT_EQ, X[M.Coords[J]]);
          continue;
        }
        const INode &T = P.Nodes[P.node(IE.Dst, IE.Map.apply(N.At))];
        // The operator's relation for this edge.
        const DepEdge *OE = nullptr;
        for (const DepEdge &E : Op.Edges)
          if (E.K == IE.K && E.Src == N.OpDep && E.Dst == T.OpDep &&
              E.OperandPos == IE.OperandPos)
            OE = &E;
        for (unsigned J = 0; J != T.Rank; ++J) {
          const IndexNode &Root = OE->Map.Nodes[OE->Map.Results[J]];
          if (Root.K == IndexNode::Kind::Dim &&
              N.Coords[Root.Value] == T.Coords[J])
            continue; // the same variable
          rel(*this,
              X[T.Coords[J]] == linearize(*this, OE->Map, OE->Map.Results[J], X,
                                          N.Coords, Op.Nodes[N.OpDep].Extents));
        }
      }
    }
    auto Views = [&](ArrayRef<unsigned> Members) {
      IntVarArgs Args;
      for (unsigned M : Members)
        for (unsigned J = 0; J != P.Nodes[M].Rank; ++J)
          Args << X[P.Nodes[M].Coords[J]];
      return Args;
    };
    auto PostDistinct = [&](ArrayRef<unsigned> Members) {
      if (Members.size() < 2)
        return;
      IntVarArgs Args = Views(Members);
      IntViews V(*this, Args);
      GECODE_ES_FAIL(VectorDistinct::post(home, V, P.Nodes[Members[0]].Rank));
    };
    if (P.AllDiff) {
      // Instances of different intrinsic outputs already differ in their
      // parallel coordinates (distinct outputs, write edges), so
      // distinctness is only needed among the instances of one output.
      unsigned IntrinsicParallel = In.getNumParallel();
      for (const auto &S : P.Statements) {
        if (P.Nodes[S.front()].Alias)
          continue;
        std::map<Point, SmallVector<unsigned, 16>> ByOutput;
        for (unsigned M : S) {
          ArrayRef<int64_t> At = P.Nodes[M].At;
          ByOutput[Point(At.take_front(IntrinsicParallel))].push_back(M);
        }
        for (const auto &KV : ByOutput)
          PostDistinct(KV.second);
      }
      for (const OperandGroup &G : P.Operands)
        if (G.Input < 0 || !P.RelaxInputs)
          PostDistinct(G.Members);
    }
    // Fixed origin: the first instance is the origin of the iteration
    // domain (and so the first output element the origin of the output).
    // The dissertation fixes every operand's first element instead; that is
    // the same for operands read in increasing order and would rule out the
    // flipped kernel of a transposed convolution.
    {
      const INode &First = P.Nodes[P.Statements.front().front()];
      for (unsigned J = 0; J != First.Rank; ++J)
        rel(*this, X[First.Coords[J]], IRT_EQ, 0);
    }
    // Hyper-rectangles.
    for (const OperandGroup &G : P.Operands) {
      const INode &First = P.Nodes[G.Members.front()];
      if (P.HyperRectangle && G.Members.size() > 1) {
        IntVarArgs Args = Views(G.Members);
        IntViews V(*this, Args);
        GECODE_ES_FAIL(HyperRectangle::post(home, V, First.Rank, &G.Rect, &P));
      }
    }
    if (P.HyperRectangle)
      for (const auto &Along : P.AxisInstances) {
        if (Along.size() < 2)
          continue;
        IntVarArgs Args = Views(Along);
        IntViews V(*this, Args);
        GECODE_ES_FAIL(
            HyperRectangle::post(home, V, NumIters, &P.AxisRect, &P));
      }
    // Strict mode: TVM's mapping, each intrinsic iterator onto the operator
    // iterator with the same GEMM axis, stride 1.
    if (P.Strict) {
      for (unsigned NI : P.Statements.front()) {
        const INode &N = P.Nodes[NI];
        SmallVector<int, 8> Coord(NumIters, 0);
        for (unsigned Q = 0, QE = In.getNumIterators(); Q != QE; ++Q)
          for (unsigned D = 0; D != NumIters; ++D)
            if (Op.Expr.Iterators[D].StrictAxis == In.Expr.Iterators[Q].Name)
              Coord[D] = N.At[Q];
        for (unsigned D = 0; D != NumIters; ++D)
          rel(*this, X[N.Coords[D]], IRT_EQ, Coord[D]);
      }
    }
    if (WithMemoryAccess)
      for (const OverlapRule &R : P.Overlaps) {
        IntVarArgs Args = Views({R.A, R.B});
        IntViews V(*this, Args);
        GECODE_ES_FAIL(AccessOverlap::post(home, V, P.Nodes[R.A].Rank, R.Input,
                                           R.Want, &P));
      }
    {
      IntVarArgs CostVars;
      for (unsigned Offset : P.CostOffsets)
        CostVars << X[Offset];
      IntViews V(*this, CostVars);
      GECODE_ES_FAIL(CostBound::post(home, V, &P));
    }
    // Branching: outputs first, then backwards through the statements, then the
    // inputs (Rieber 2022, §4.6); coordinates of iteration points in the
    // asset's order, values lexicographically from the smallest.
    IntVarArgs Branch;
    auto Add = [&](ArrayRef<unsigned> Members, bool Iteration) {
      for (unsigned M : Members) {
        const INode &N = P.Nodes[M];
        if (N.Alias)
          continue;
        if (Iteration && N.Rank == NumIters) {
          for (unsigned D : Order)
            Branch << X[N.Coords[D]];
        } else {
          for (unsigned J = 0; J != N.Rank; ++J)
            Branch << X[N.Coords[J]];
        }
      }
    };
    Add(P.Operands.back().Members, false);
    for (auto It = P.Statements.rbegin(); It != P.Statements.rend(); ++It)
      Add(*It, true);
    for (const OperandGroup &G : P.Operands)
      if (G.Input >= 0)
        Add(G.Members, false);
    branch(*this, Branch, INT_VAR_NONE(), INT_VAL_MIN());
  }

  EmbedSpace(EmbedSpace &S) : SolverSpace(S) {}
  Space *copy() override { return new EmbedSpace(*this); }
};

/// The asset orders of Eq. 4.40: each picks an ordered choice of k_s
/// parallel and k_r reduction iterators to vary first.
SmallVector<SmallVector<unsigned, 8>, 0> assetOrders(const Problem &P,
                                                     unsigned Max) {
  unsigned N = P.Op.getNumIterators(), NS = P.Op.getNumParallel();
  unsigned KS = 0, KR = 0;
  for (const Iterator &It : P.In.Expr.Iterators)
    (It.IsReduction ? KR : KS) += It.Extent > 1;
  SmallVector<unsigned, 8> Parallel, Reduction;
  for (unsigned D = 0; D != N; ++D)
    (D < NS ? Parallel : Reduction).push_back(D);
  KS = std::min<unsigned>(KS, Parallel.size());
  KR = std::min<unsigned>(KR, Reduction.size());
  SmallVector<SmallVector<unsigned, 8>, 0> Orders;
  // The natural order first.
  SmallVector<unsigned, 8> Natural;
  for (unsigned D = 0; D != N; ++D)
    Natural.push_back(D);
  Orders.push_back(Natural);
  // Ordered k-permutations of a list.
  auto Permutations = [](ArrayRef<unsigned> From, unsigned K) {
    SmallVector<SmallVector<unsigned, 4>, 0> Out;
    SmallVector<unsigned, 4> Cur;
    std::function<void()> Rec = [&]() {
      if (Cur.size() == K) {
        Out.push_back(Cur);
        return;
      }
      for (unsigned V : From)
        if (!llvm::is_contained(Cur, V)) {
          Cur.push_back(V);
          Rec();
          Cur.pop_back();
        }
    };
    Rec();
    return Out;
  };
  for (const auto &PS : Permutations(Parallel, KS))
    for (const auto &PR : Permutations(Reduction, KR)) {
      if (Max && Orders.size() >= Max)
        return Orders;
      // Chosen iterators become the least significant coordinates: the
      // lexicographic search moves along them first.
      SmallVector<unsigned, 8> Order;
      for (unsigned D = 0; D != N; ++D)
        if (!llvm::is_contained(PS, D) && !llvm::is_contained(PR, D))
          Order.push_back(D);
      for (auto It = PS.rbegin(); It != PS.rend(); ++It)
        Order.push_back(*It);
      for (auto It = PR.rbegin(); It != PR.rend(); ++It)
        Order.push_back(*It);
      if (Order != Natural)
        Orders.push_back(Order);
    }
  return Orders;
}

} // namespace

std::string Embedding::getKey() const {
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  for (const AxisMappings &A : Iterators) {
    OS << "[";
    for (const AxisMapping &M : A)
      OS << M.Dim << ":" << M.Length << ":" << M.Stride << " ";
    OS << "]";
  }
  for (const OperandEmbedding &O : Operands)
    for (const AxisMappings &A : O.Dims) {
      OS << "(";
      for (const AxisMapping &M : A)
        OS << M.Dim << ":" << M.Length << ":" << M.Stride << " ";
      OS << ")";
    }
  return Key;
}

/// Checks an embedding's points against the operator's isl relations: every
/// functional intrinsic edge must land in the matching operator relation.
/// Returns a description of the first edge that does not, or "".
static std::string verifyWithIsl(const Problem &P, const Embedding &Emb) {
  const DataflowGraph &Op = P.Op, &In = P.In;
  for (unsigned NI = 0, NE = P.Nodes.size(); NI != NE; ++NI) {
    const INode &N = P.Nodes[NI];
    if (!In.Nodes[N.Dep].isStatement())
      continue;
    for (const DepEdge &IE : In.Edges) {
      if (IE.Src != N.Dep || IE.K == DepEdge::Kind::Reduction)
        continue;
      unsigned TI = P.node(IE.Dst, IE.Map.apply(N.At));
      for (unsigned K = 0, KE = Op.Edges.size(); K != KE; ++K) {
        const DepEdge &OE = Op.Edges[K];
        if (OE.K != IE.K || OE.Src != N.OpDep || OE.Dst != P.Nodes[TI].OpDep ||
            OE.OperandPos != IE.OperandPos)
          continue;
        if (!Op.Oracle->inRelation(K, Emb.Points[NI], Emb.Points[TI]))
          return "the edge " + In.Nodes[IE.Src].Name + " -> " +
                 In.Nodes[IE.Dst].Name + " of intrinsic node " +
                 std::to_string(NI) + " is not in the operator's relation";
      }
    }
  }
  return "";
}

std::string raf::embed::describeTimeLimit(uint64_t TimeoutMs) {
  std::string Limit = std::to_string(TimeoutMs * TimeLimitScale) + " ms";
  if (TimeLimitScale != 1)
    Limit += " (" + std::to_string(TimeLimitScale) + " x the option's " +
             std::to_string(TimeoutMs) + " ms on the sanitizer build)";
  return Limit;
}

static EmbeddingResult runSearch(Problem &P) {
  EmbeddingResult R;
  const EmbeddingOptions &O = P.Opts;
  auto Start = Clock::now();
  auto Deadline = O.TimeoutMs ? Start + std::chrono::milliseconds(
                                              O.TimeoutMs * TimeLimitScale)
                              : Clock::time_point::max();
  auto Record = [&](EmbedSpace &S) {
    auto Emb = extractEmbedding(P, S.values());
    if (!Emb)
      return;
    ++R.Stats.Solutions;
    P.add(std::move(*Emb));
  };
  auto Count = [&](const raf::csp::SearchOutcome &Outcome) {
    R.Stats.Nodes += Outcome.Stats.Nodes;
    R.Stats.Fails += Outcome.Stats.Fails;
  };
  // Every search stops at the deadline; the assets also after AssetNodes
  // nodes.
  raf::csp::SearchLimits UntilDeadline;
  UntilDeadline.Expired = [Deadline] { return Clock::now() >= Deadline; };
  bool TimedOut = false;
  // Phase 1, the portfolio: every asset searches (with the memory-access
  // constraint) for its first embedding under a node limit, to give branch
  // and bound a good bound early.
  auto Orders = assetOrders(P, P.Strict ? 1 : O.MaxAssets);
  constexpr uint64_t AssetNodes = 300;
  for (const auto &Order : Orders) {
    if (Clock::now() >= Deadline) {
      // The limit passed before this asset started: the search is cut
      // short, not finished.
      TimedOut = true;
      break;
    }
    if (P.Found.size() >= O.MaxCandidates)
      break;
    ++R.Stats.Assets;
    auto Root = std::make_unique<EmbedSpace>(P, Order, P.MemoryAccess);
    raf::csp::SearchLimits AssetLimits = UntilDeadline;
    // Stops once a search has explored more than this many nodes.
    AssetLimits.Nodes = AssetNodes - 1;
    raf::csp::SearchOutcome Outcome = raf::csp::search<DFS, EmbedSpace>(
        *Root, AssetLimits, [&](EmbedSpace &S) {
          Record(S);
          return false;
        });
    Count(Outcome);
    TimedOut |= Outcome.TimedOut;
  }
  // Phase 2, branch and bound over the whole space (in relaxed mode without
  // the memory-access constraint, so that duplicating layouts compete too):
  // only embeddings cheaper than the best so far.
  if (!TimedOut && Clock::now() >= Deadline)
    TimedOut = true;
  if (!TimedOut) {
    bool WithMemory = P.MemoryAccess && P.Strict;
    P.UseBound = true;
    auto Root = std::make_unique<EmbedSpace>(P, Orders.front(), WithMemory);
    raf::csp::SearchOutcome Outcome = raf::csp::search<DFS, EmbedSpace>(
        *Root, UntilDeadline, [&](EmbedSpace &S) {
          Record(S);
          return true;
        });
    Count(Outcome);
    TimedOut |= Outcome.TimedOut;
    R.ProvedOptimal = !Outcome.TimedOut && !Outcome.Stopped;
  }
  R.Stats.Milliseconds =
      std::chrono::duration<double, std::milli>(Clock::now() - Start).count();
  // The size of the space: every distinct embedding, by a plain
  // depth-first enumeration (not counted in the solve time).
  if (O.CountLimit && !TimedOut && Clock::now() < Deadline) {
    P.UseBound = false;
    bool WithMemory = P.MemoryAccess && P.Strict;
    auto Root = std::make_unique<EmbedSpace>(P, Orders.front(), WithMemory);
    std::set<std::string> Keys;
    raf::csp::SearchOutcome Outcome = raf::csp::search<DFS, EmbedSpace>(
        *Root, UntilDeadline, [&](EmbedSpace &S) {
          if (auto Emb = extractEmbedding(P, S.values(), false))
            Keys.insert(Emb->getKey());
          return Keys.size() < O.CountLimit;
        });
    R.Stats.Distinct = Keys.size();
    R.Stats.DistinctComplete = Keys.size() < O.CountLimit && !Outcome.Stopped;
  }
  R.LimitReached = TimedOut;
  for (auto &[Key, Emb] : P.Found)
    R.Candidates.push_back(std::move(Emb));
  llvm::stable_sort(R.Candidates, [](const Embedding &A, const Embedding &B) {
    return A.Cost < B.Cost;
  });
  if (R.Candidates.size() > std::max(1u, O.MaxCandidates))
    R.Candidates.resize(std::max(1u, O.MaxCandidates));
  if (O.VerifyWithIsl)
    for (const Embedding &Emb : R.Candidates) {
      std::string Error = verifyWithIsl(P, Emb);
      if (!Error.empty()) {
        R.Candidates.clear();
        R.S = EmbeddingResult::Status::Error;
        R.Message = "internal error: " + Error;
        return R;
      }
    }
  if (!R.Candidates.empty())
    R.S = EmbeddingResult::Status::Found;
  else if (TimedOut)
    R.S = EmbeddingResult::Status::Timeout;
  else
    R.S = EmbeddingResult::Status::Infeasible;
  return R;
}

PaddingOptions raf::embed::choosePadding(const TensorExpression &Operator,
                                         const TensorExpression &Intrinsic,
                                         EmbeddingOptions::Mode Mode) {
  PaddingOptions Padding;
  int64_t Largest = 1;
  SmallVector<int64_t, 8> Divisors;
  for (const Iterator &It : Intrinsic.Iterators) {
    Largest = std::max(Largest, It.Extent);
    for (int64_t K = 1; K <= It.Extent; ++K)
      if (It.Extent % K == 0)
        Divisors.push_back(K);
  }
  llvm::sort(Divisors);
  for (const Iterator &It : Operator.Iterators) {
    int64_t Min = It.Extent;
    // TVM's padding, in both modes, so that relaxed mode's space contains
    // strict mode's embedding.
    for (const Iterator &Axis : Intrinsic.Iterators)
      if (It.StrictAxis == Axis.Name)
        Min = std::max(Min, Axis.Extent);
    if (Mode == EmbeddingOptions::Mode::Relaxed && It.Extent < Largest)
      Min = std::max(Min, *llvm::lower_bound(Divisors, It.Extent));
    Padding.MinExtents.push_back(Min);
  }
  return Padding;
}

EmbeddingResult raf::embed::embedIntrinsic(const DataflowGraph &Operator,
                                           const DataflowGraph &Intrinsic,
                                           const EmbeddingOptions &Options) {
  EmbeddingResult R;
  std::optional<std::string> Error = raf::csp::catchSolverErrors([&] {
    Problem P(Operator, Intrinsic, Options);
    std::string Error = buildProblem(P);
    if (!Error.empty()) {
      R.S = EmbeddingResult::Status::Infeasible;
      R.Message = Error;
      return;
    }
    if (P.Strict)
      for (const Iterator &It : Intrinsic.Expr.Iterators) {
        bool Tagged =
            llvm::any_of(Operator.Expr.Iterators, [&](const Iterator &O) {
              return O.StrictAxis == It.Name;
            });
        if (!Tagged) {
          R.S = EmbeddingResult::Status::Infeasible;
          R.Message = "strict mode: no operator iterator is tagged with "
                      "the intrinsic's axis '" +
                      It.Name + "'";
          return;
        }
      }
    // An intrinsic axis longer than every combination of the operator's
    // iterators of its kind (parallel or reduction) could cover cannot be
    // embedded: say so before searching.
    for (const Iterator &Axis : Intrinsic.Expr.Iterators) {
      if (Axis.Extent <= 1)
        continue;
      SmallVector<int64_t, 8> Extents;
      std::string Names;
      for (unsigned D = 0, E = Operator.getNumIterators(); D != E; ++D) {
        const Iterator &It = Operator.Expr.Iterators[D];
        if (It.IsReduction != Axis.IsReduction ||
            (P.Strict && It.StrictAxis != Axis.Name))
          continue;
        Extents.push_back(Operator.PaddedExtents[D]);
        Names += (Names.empty() ? "" : ", ") + It.Name + " " +
                 std::to_string(It.Extent);
        if (Operator.PaddedExtents[D] != It.Extent)
          Names +=
              " (padded to " + std::to_string(Operator.PaddedExtents[D]) + ")";
      }
      llvm::sort(Extents, std::greater<int64_t>());
      int64_t Most = 1;
      for (unsigned K = 0; K < Extents.size() && K < P.MaxDims; ++K)
        Most *= Extents[K];
      if (Most < Axis.Extent) {
        R.S = EmbeddingResult::Status::Infeasible;
        R.Message = "the hyper-rectangle constraint fails: the intrinsic's " +
                    std::string(Axis.IsReduction ? "reduction" : "parallel") +
                    " axis '" + Axis.Name + "' covers " +
                    std::to_string(Axis.Extent) + " points, but the " +
                    "operator's " +
                    (Axis.IsReduction ? "reduction" : "parallel") +
                    " iterators (" + (Names.empty() ? "none" : Names) +
                    ") offer at most " + std::to_string(Most);
        return;
      }
    }
    R = runSearch(P);
    if (R.S == EmbeddingResult::Status::Timeout) {
      R.Message = "the time limit of " + describeTimeLimit(Options.TimeoutMs) +
                  " stopped the search before an embedding was found";
    } else if (R.S == EmbeddingResult::Status::Infeasible) {
      // Name the constraint that fails: the first whose removal makes the
      // problem feasible.
      R.Message = "no embedding satisfies the constraints (edge, alldiff, "
                  "hyper-rectangle, memory-access, fixed origin) with this "
                  "padding; leaving out memory-access, hyper-rectangle or "
                  "alldiff alone finds none within 1 s either";
      for (const char *Name : {"memory-access", "hyper-rectangle", "alldiff"}) {
        EmbeddingOptions Relaxed = Options;
        Relaxed.Disabled.push_back(Name);
        Relaxed.MaxCandidates = 1;
        Relaxed.TimeoutMs = std::min<uint64_t>(
            Options.TimeoutMs ? Options.TimeoutMs : 1000, 1000);
        Problem Q(Operator, Intrinsic, Relaxed);
        if (!buildProblem(Q).empty())
          continue;
        if (runSearch(Q).S == EmbeddingResult::Status::Found) {
          R.Message = std::string("the ") + Name +
                      " constraint fails (without it an embedding exists)";
          break;
        }
      }
    }
  });
  if (Error) {
    R = EmbeddingResult();
    R.S = EmbeddingResult::Status::Error;
    R.Message = "the constraint solver failed: " + *Error;
  }
  return R;
}
