//===- DataflowGraph.cpp - Polyhedral dataflow graphs ---------------------===//
//
// Statement splitting, the isl sets and relations of the dependence graph,
// and the isl oracle the constraint model queries.
//
//===----------------------------------------------------------------------===//

#include "raf/Embedding/DataflowGraph.h"

#include "raf/Analysis/Polyhedral.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

using namespace raf::embed;
using llvm::ArrayRef;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// IndexFunction
//===----------------------------------------------------------------------===//

static int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}

int64_t IndexFunction::evaluate(int Node, ArrayRef<int64_t> Point) const {
  const IndexNode &N = Nodes[Node];
  switch (N.K) {
  case IndexNode::Kind::Constant:
    return N.Value;
  case IndexNode::Kind::Dim:
    return Point[N.Value];
  case IndexNode::Kind::Add:
    return evaluate(N.Lhs, Point) + evaluate(N.Rhs, Point);
  case IndexNode::Kind::Mul:
    return N.Value * evaluate(N.Lhs, Point);
  case IndexNode::Kind::FloorDiv:
    return floorDiv(evaluate(N.Lhs, Point), N.Value);
  case IndexNode::Kind::Mod: {
    int64_t V = evaluate(N.Lhs, Point);
    return V - N.Value * floorDiv(V, N.Value);
  }
  }
  return 0;
}

SmallVector<int64_t, 4> IndexFunction::apply(ArrayRef<int64_t> Point) const {
  SmallVector<int64_t, 4> Out;
  for (int R : Results)
    Out.push_back(evaluate(R, Point));
  return Out;
}

bool IndexFunction::dependsOn(unsigned Result, unsigned Dim) const {
  SmallVector<int, 8> Work{Results[Result]};
  while (!Work.empty()) {
    const IndexNode &N = Nodes[Work.pop_back_val()];
    if (N.K == IndexNode::Kind::Dim && N.Value == static_cast<int64_t>(Dim))
      return true;
    if (N.Lhs >= 0)
      Work.push_back(N.Lhs);
    if (N.Rhs >= 0)
      Work.push_back(N.Rhs);
  }
  return false;
}

static std::string renderNode(const IndexFunction &F, int Node,
                              ArrayRef<std::string> Names) {
  const IndexNode &N = F.Nodes[Node];
  switch (N.K) {
  case IndexNode::Kind::Constant:
    return std::to_string(N.Value);
  case IndexNode::Kind::Dim:
    return Names[N.Value];
  case IndexNode::Kind::Add:
    return "(" + renderNode(F, N.Lhs, Names) + " + " +
           renderNode(F, N.Rhs, Names) + ")";
  case IndexNode::Kind::Mul:
    return "(" + std::to_string(N.Value) + " * " + renderNode(F, N.Lhs, Names) +
           ")";
  case IndexNode::Kind::FloorDiv:
    return "floor((" + renderNode(F, N.Lhs, Names) + ") / " +
           std::to_string(N.Value) + ")";
  case IndexNode::Kind::Mod:
    return "((" + renderNode(F, N.Lhs, Names) + ") mod " +
           std::to_string(N.Value) + ")";
  }
  return "";
}

std::string IndexFunction::render(unsigned Result,
                                  ArrayRef<std::string> DimNames) const {
  return renderNode(*this, Results[Result], DimNames);
}

/// Appends the nodes of E to F and returns the root, or -1 for an
/// expression outside the quasi-affine subset (rejected by verify()).
static int appendExpr(IndexFunction &F, mlir::AffineExpr E) {
  auto Push = [&](IndexNode N) {
    F.Nodes.push_back(N);
    return static_cast<int>(F.Nodes.size() - 1);
  };
  if (auto C = llvm::dyn_cast<mlir::AffineConstantExpr>(E))
    return Push({IndexNode::Kind::Constant, C.getValue(), -1, -1});
  if (auto D = llvm::dyn_cast<mlir::AffineDimExpr>(E))
    return Push({IndexNode::Kind::Dim, D.getPosition(), -1, -1});
  auto Bin = llvm::dyn_cast<mlir::AffineBinaryOpExpr>(E);
  if (!Bin)
    return -1;
  mlir::AffineExpr L = Bin.getLHS(), R = Bin.getRHS();
  if (E.getKind() == mlir::AffineExprKind::Add) {
    int A = appendExpr(F, L), B = appendExpr(F, R);
    if (A < 0 || B < 0)
      return -1;
    return Push({IndexNode::Kind::Add, 0, A, B});
  }
  if (E.getKind() == mlir::AffineExprKind::Mul) {
    if (llvm::isa<mlir::AffineConstantExpr>(L))
      std::swap(L, R);
    auto C = llvm::dyn_cast<mlir::AffineConstantExpr>(R);
    int A = appendExpr(F, L);
    if (!C || A < 0)
      return -1;
    return Push({IndexNode::Kind::Mul, C.getValue(), A, -1});
  }
  auto C = llvm::dyn_cast<mlir::AffineConstantExpr>(R);
  int A = appendExpr(F, L);
  if (!C || C.getValue() <= 0 || A < 0)
    return -1;
  switch (E.getKind()) {
  case mlir::AffineExprKind::FloorDiv:
    return Push({IndexNode::Kind::FloorDiv, C.getValue(), A, -1});
  case mlir::AffineExprKind::Mod:
    return Push({IndexNode::Kind::Mod, C.getValue(), A, -1});
  case mlir::AffineExprKind::CeilDiv: {
    // ceil(a / c) = floor((a + c - 1) / c).
    int K = Push({IndexNode::Kind::Constant, C.getValue() - 1, -1, -1});
    int S = Push({IndexNode::Kind::Add, 0, A, K});
    return Push({IndexNode::Kind::FloorDiv, C.getValue(), S, -1});
  }
  default:
    return -1;
  }
}

static IndexFunction fromAffineMap(mlir::AffineMap Map) {
  IndexFunction F;
  F.NumSourceDims = Map.getNumDims();
  for (mlir::AffineExpr E : Map.getResults())
    F.Results.push_back(appendExpr(F, E));
  return F;
}

/// The smallest and largest value of a node over the box [0, Extents).
static std::pair<int64_t, int64_t> nodeRange(const IndexFunction &F, int Node,
                                             ArrayRef<int64_t> Extents) {
  const IndexNode &N = F.Nodes[Node];
  switch (N.K) {
  case IndexNode::Kind::Constant:
    return {N.Value, N.Value};
  case IndexNode::Kind::Dim:
    return {0, Extents[N.Value] - 1};
  case IndexNode::Kind::Add: {
    auto A = nodeRange(F, N.Lhs, Extents), B = nodeRange(F, N.Rhs, Extents);
    return {A.first + B.first, A.second + B.second};
  }
  case IndexNode::Kind::Mul: {
    auto A = nodeRange(F, N.Lhs, Extents);
    int64_t X = N.Value * A.first, Y = N.Value * A.second;
    return {std::min(X, Y), std::max(X, Y)};
  }
  case IndexNode::Kind::FloorDiv: {
    auto A = nodeRange(F, N.Lhs, Extents);
    return {floorDiv(A.first, N.Value), floorDiv(A.second, N.Value)};
  }
  case IndexNode::Kind::Mod:
    return {0, N.Value - 1};
  }
  return {0, 0};
}

//===----------------------------------------------------------------------===//
// Graph construction
//===----------------------------------------------------------------------===//

unsigned DataflowGraph::getInputNode(unsigned I) const {
  for (unsigned N = 0, E = Nodes.size(); N != E; ++N)
    if (!Nodes[N].isStatement() && Nodes[N].InputIndex == static_cast<int>(I))
      return N;
  return ~0u;
}

unsigned DataflowGraph::getOutputNode() const {
  for (unsigned N = 0, E = Nodes.size(); N != E; ++N)
    if (!Nodes[N].isStatement() && Nodes[N].InputIndex < 0)
      return N;
  return ~0u;
}

SmallVector<unsigned, 4> DataflowGraph::getStatements() const {
  SmallVector<unsigned, 4> Result;
  for (unsigned N = 0, E = Nodes.size(); N != E; ++N)
    if (Nodes[N].isStatement())
      Result.push_back(N);
  return Result;
}

static std::string edgeKindName(DepEdge::Kind K) {
  switch (K) {
  case DepEdge::Kind::Read:
    return "read";
  case DepEdge::Kind::Write:
    return "write";
  case DepEdge::Kind::Flow:
    return "flow";
  case DepEdge::Kind::Reduction:
    return "reduction";
  }
  return "";
}

std::string DataflowGraph::describe() const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  for (const DepNode &N : Nodes) {
    OS << "node " << N.Name;
    if (N.isStatement())
      OS << " (" << stringifyScalarOp(N.Label)
         << (N.IsReduction ? ", reduction" : "") << ")";
    OS << ": " << N.IslSet << "\n";
  }
  for (const DepEdge &E : Edges)
    OS << edgeKindName(E.K) << " " << Nodes[E.Src].Name << " -> "
       << Nodes[E.Dst].Name << ": " << E.IslMap << "\n";
  return Text;
}

namespace {
/// Names of the isl dimensions of a statement space: i0.. and t.
SmallVector<std::string, 8> iterNames(unsigned N, llvm::StringRef Prefix) {
  SmallVector<std::string, 8> Names;
  for (unsigned I = 0; I != N; ++I)
    Names.push_back((Prefix + llvm::Twine(I)).str());
  return Names;
}

std::string joinNames(ArrayRef<std::string> Names) {
  std::string S;
  for (unsigned I = 0, E = Names.size(); I != E; ++I)
    S += (I ? ", " : "") + Names[I];
  return S;
}

std::string boxConstraint(ArrayRef<std::string> Names,
                          ArrayRef<int64_t> Extents) {
  std::string S;
  for (unsigned I = 0, E = Names.size(); I != E; ++I)
    S += (I ? " and " : "") + std::string("0 <= ") + Names[I] + " < " +
         std::to_string(Extents[I]);
  return S.empty() ? "true" : S;
}

std::string statementTuple(const DepNode &N, ArrayRef<std::string> Names) {
  return N.Name + "[" + joinNames(Names) + ", " +
         std::to_string(N.TextualOrder) + "]";
}
} // namespace

static llvm::Error makeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

namespace {
/// Owning pointers for the isl objects used here.
struct SetDeleter {
  void operator()(isl_set *S) const { isl_set_free(S); }
};
struct MapDeleter {
  void operator()(isl_map *M) const { isl_map_free(M); }
};
using SetPtr = std::unique_ptr<isl_set, SetDeleter>;
using MapPtr = std::unique_ptr<isl_map, MapDeleter>;

class IslOracle : public DataflowOracle {
public:
  explicit IslOracle(const DataflowGraph &G) : Nodes(G.Nodes), Edges(G.Edges) {}

  llvm::Error init();

  Overlap compareAccessSets(unsigned Input, ArrayRef<int64_t> OutputA,
                            ArrayRef<int64_t> OutputB) override;
  void setIslOnly(bool Value) override { IslOnly = Value; }
  bool inRelation(unsigned Edge, ArrayRef<int64_t> SrcPoint,
                  ArrayRef<int64_t> DstPoint) override;
  llvm::Expected<uint64_t> countImage(unsigned Edge, ArrayRef<int64_t> Period,
                                      ArrayRef<int64_t> Residues,
                                      ArrayRef<int64_t> Limit) override;

private:
  SetPtr accessSet(unsigned Input, ArrayRef<int64_t> Output);
  std::optional<Overlap> compareByTranslation(unsigned Input,
                                              ArrayRef<int64_t> OutputA,
                                              ArrayRef<int64_t> OutputB);

  /// Per input: for the one read edge, the values g(r) each coordinate's
  /// reduction part takes, and the shifts known to be (or not to be)
  /// differences g(r) - g(r'); Valid is false if the access is not affine
  /// and separable.
  struct Translation {
    bool Valid = false;
    unsigned Edge = 0;
    std::vector<llvm::DenseSet<int64_t>> Values;
    std::vector<llvm::DenseMap<int64_t, bool>> Differences;

    bool isDifference(unsigned R, int64_t Shift) {
      auto [It, New] = Differences[R].try_emplace(Shift, false);
      if (New)
        for (int64_t V : Values[R])
          if (Values[R].count(V + Shift)) {
            It->second = true;
            break;
          }
      return It->second;
    }
  };
  std::map<unsigned, Translation> Translations;
  bool IslOnly = false;
  std::string pointTuple(const DepNode &N, ArrayRef<int64_t> Point) const;

  // Declared before the isl objects so that it is destroyed after them.
  raf::poly::IslContext Ctx;
  // Copies: the oracle outlives moves of the graph that owns it.
  SmallVector<DepNode, 8> Nodes;
  SmallVector<DepEdge, 8> Edges;
  std::vector<MapPtr> Maps;
  std::map<
      std::tuple<unsigned, SmallVector<int64_t, 8>, SmallVector<int64_t, 8>>,
      Overlap>
      OverlapCache;
};
} // namespace

DataflowOracle::~DataflowOracle() = default;

std::string IslOracle::pointTuple(const DepNode &N,
                                  ArrayRef<int64_t> Point) const {
  std::string S = N.Name + "[";
  for (unsigned I = 0, E = Point.size(); I != E; ++I)
    S += (I ? ", " : "") + std::to_string(Point[I]);
  if (N.isStatement())
    S += ", " + std::to_string(N.TextualOrder);
  return S + "]";
}

llvm::Error IslOracle::init() {
  isl_ctx *C = Ctx.get();
  for (const DepNode &N : Nodes) {
    isl_ctx_reset_error(C);
    SetPtr S(isl_set_read_from_str(C, N.IslSet.c_str()));
    if (!S)
      return makeError("isl rejected the set of " + N.Name + ": " + N.IslSet);
    isl_bool Empty = isl_set_is_empty(S.get());
    if (Empty != isl_bool_false)
      return makeError("the set of " + N.Name + " is empty");
  }
  for (const DepEdge &E : Edges) {
    isl_ctx_reset_error(C);
    MapPtr M(isl_map_read_from_str(C, E.IslMap.c_str()));
    if (!M)
      return makeError("isl rejected the relation " + Nodes[E.Src].Name +
                       " -> " + Nodes[E.Dst].Name + ": " + E.IslMap);
    if (E.K != DepEdge::Kind::Reduction &&
        isl_map_is_single_valued(M.get()) != isl_bool_true)
      return makeError("the relation " + Nodes[E.Src].Name + " -> " +
                       Nodes[E.Dst].Name + " is not functional");
    // Every instance must reach a point of the target's (padded) space: an
    // access outside the view would read memory that does not exist.
    SetPtr Range(isl_map_range(isl_map_copy(M.get())));
    SetPtr Target(isl_set_read_from_str(C, Nodes[E.Dst].IslSet.c_str()));
    if (isl_set_is_subset(Range.get(), Target.get()) != isl_bool_true)
      return makeError("the relation " + Nodes[E.Src].Name + " -> " +
                       Nodes[E.Dst].Name +
                       " reaches points outside the target's domain");
    Maps.push_back(std::move(M));
  }
  return llvm::Error::success();
}

SetPtr IslOracle::accessSet(unsigned Input, ArrayRef<int64_t> Output) {
  unsigned Array = 0;
  while (Nodes[Array].isStatement() ||
         Nodes[Array].InputIndex != static_cast<int>(Input))
    ++Array;
  isl_ctx *C = Ctx.get();
  SetPtr Union;
  for (unsigned EI = 0, EE = Edges.size(); EI != EE; ++EI) {
    const DepEdge &E = Edges[EI];
    if (E.K != DepEdge::Kind::Read || E.Dst != Array)
      continue;
    // The instances of the reading statement computing this output element:
    // parallel coordinates fixed, reductions free.
    const DepNode &S = Nodes[E.Src];
    auto Names = iterNames(S.getRank(), "i");
    std::string Cond;
    for (unsigned I = 0, N = Output.size(); I != N; ++I)
      Cond += Names[I] + " = " + std::to_string(Output[I]) + " and ";
    std::string Text = "{ " + statementTuple(S, Names) + " : " + Cond +
                       boxConstraint(Names, S.Extents) + " }";
    SetPtr Instances(isl_set_read_from_str(C, Text.c_str()));
    SetPtr Image(
        isl_set_apply(Instances.release(), isl_map_copy(Maps[EI].get())));
    Union = Union ? SetPtr(isl_set_union(Union.release(), Image.release()))
                  : std::move(Image);
  }
  return Union;
}

std::optional<DataflowOracle::Overlap>
IslOracle::compareByTranslation(unsigned Input, ArrayRef<int64_t> OutputA,
                                ArrayRef<int64_t> OutputB) {
  auto Inserted = Translations.try_emplace(Input);
  Translation &T = Inserted.first->second;
  if (Inserted.second) {
    SmallVector<unsigned, 2> Reads;
    for (unsigned EI = 0, EE = Edges.size(); EI != EE; ++EI)
      if (Edges[EI].K == DepEdge::Kind::Read &&
          !Nodes[Edges[EI].Dst].isStatement() &&
          Nodes[Edges[EI].Dst].InputIndex == static_cast<int>(Input))
        Reads.push_back(EI);
    if (Reads.size() != 1)
      return std::nullopt;
    const DepEdge &E = Edges[Reads.front()];
    const IndexFunction &F = E.Map;
    for (const IndexNode &N : F.Nodes)
      if (N.K == IndexNode::Kind::FloorDiv || N.K == IndexNode::Kind::Mod)
        return std::nullopt;
    const DepNode &S = Nodes[E.Src];
    unsigned NumParallel = OutputA.size(), NumIters = S.getRank();
    SmallVector<int, 8> Owner(NumIters, -1);
    for (unsigned R = 0, RE = F.Results.size(); R != RE; ++R)
      for (unsigned D = NumParallel; D != NumIters; ++D)
        if (F.dependsOn(R, D)) {
          if (Owner[D] >= 0)
            return std::nullopt;
          Owner[D] = R;
        }
    // The values each coordinate's reduction part takes, then their
    // differences.
    constexpr uint64_t Limit = 1 << 16;
    for (unsigned R = 0, RE = F.Results.size(); R != RE; ++R) {
      SmallVector<unsigned, 4> Dims;
      uint64_t Count = 1;
      for (unsigned D = NumParallel; D != NumIters; ++D)
        if (Owner[D] == static_cast<int>(R)) {
          Dims.push_back(D);
          Count *= S.Extents[D];
        }
      if (Count > Limit)
        return std::nullopt;
      llvm::DenseSet<int64_t> Values;
      SmallVector<int64_t, 8> Point(NumIters, 0);
      while (true) {
        Values.insert(F.evaluate(F.Results[R], Point));
        unsigned K = 0;
        while (K < Dims.size() && ++Point[Dims[K]] == S.Extents[Dims[K]])
          Point[Dims[K++]] = 0;
        if (K == Dims.size())
          break;
      }
      T.Values.push_back(std::move(Values));
      T.Differences.emplace_back();
    }
    T.Edge = Reads.front();
    T.Valid = true;
  }
  if (!T.Valid)
    return std::nullopt;
  // The shift of each coordinate between the two outputs (reduction
  // iterators at zero in both).
  const IndexFunction &F = Edges[T.Edge].Map;
  unsigned NumIters = Nodes[Edges[T.Edge].Src].getRank();
  SmallVector<int64_t, 8> PA(NumIters, 0), PB(NumIters, 0);
  for (unsigned D = 0, E = OutputA.size(); D != E; ++D) {
    PA[D] = OutputA[D];
    PB[D] = OutputB[D];
  }
  bool Zero = true, OutsideDifferences = false;
  for (unsigned R = 0, RE = F.Results.size(); R != RE; ++R) {
    int64_t Shift = F.evaluate(F.Results[R], PB) - F.evaluate(F.Results[R], PA);
    Zero &= Shift == 0;
    OutsideDifferences |= !T.isDifference(R, Shift);
  }
  if (Zero)
    return Overlap::Full;
  return OutsideDifferences ? Overlap::None : Overlap::Partial;
}

DataflowOracle::Overlap
IslOracle::compareAccessSets(unsigned Input, ArrayRef<int64_t> OutputA,
                             ArrayRef<int64_t> OutputB) {
  if (!IslOnly)
    if (auto Result = compareByTranslation(Input, OutputA, OutputB))
      return *Result;
  auto Key = std::make_tuple(Input, SmallVector<int64_t, 8>(OutputA),
                             SmallVector<int64_t, 8>(OutputB));
  auto It = OverlapCache.find(Key);
  if (It != OverlapCache.end())
    return It->second;
  SetPtr A = accessSet(Input, OutputA), B = accessSet(Input, OutputB);
  Overlap Result = Overlap::Partial;
  if (A && B) {
    if (isl_set_is_equal(A.get(), B.get()) == isl_bool_true)
      Result = Overlap::Full;
    else if (isl_set_is_disjoint(A.get(), B.get()) == isl_bool_true)
      Result = Overlap::None;
  }
  OverlapCache.emplace(std::move(Key), Result);
  return Result;
}

bool IslOracle::inRelation(unsigned Edge, ArrayRef<int64_t> SrcPoint,
                           ArrayRef<int64_t> DstPoint) {
  const DepEdge &E = Edges[Edge];
  std::string Text = "{ " + pointTuple(Nodes[E.Src], SrcPoint) + " -> " +
                     pointTuple(Nodes[E.Dst], DstPoint) + " }";
  MapPtr Pair(isl_map_read_from_str(Ctx.get(), Text.c_str()));
  return Pair &&
         isl_map_is_subset(Pair.get(), Maps[Edge].get()) == isl_bool_true;
}

llvm::Expected<uint64_t> IslOracle::countImage(unsigned Edge,
                                               ArrayRef<int64_t> Period,
                                               ArrayRef<int64_t> Residues,
                                               ArrayRef<int64_t> Limit) {
  const DepEdge &E = Edges[Edge];
  const IndexFunction &F = E.Map;
  unsigned NumIters = F.NumSourceDims, NumResults = F.Results.size();
  // The values an iterator's tile origins take.
  auto Origins = [&](unsigned D) {
    SmallVector<int64_t, 16> Values;
    for (int64_t Base = 0; Base < Limit[D]; Base += Period[D])
      for (int64_t R = 0; R < Residues[D] && Base + R < Limit[D]; ++R)
        Values.push_back(Base + R);
    return Values;
  };
  // Separable access functions (every iterator feeds at most one target
  // coordinate, as in convolutions and matrix products) have an image that
  // is the product of one-dimensional images, each enumerated over the few
  // iterators it depends on.
  SmallVector<int, 8> Owner(NumIters, -1);
  bool Separable = true;
  for (unsigned R = 0; R != NumResults && Separable; ++R)
    for (unsigned D = 0; D != NumIters; ++D)
      if (F.dependsOn(R, D)) {
        if (Owner[D] >= 0)
          Separable = false;
        Owner[D] = R;
      }
  constexpr uint64_t EnumerationLimit = 1u << 24;
  if (Separable) {
    uint64_t Total = 1;
    for (unsigned R = 0; R != NumResults; ++R) {
      SmallVector<unsigned, 4> Dims;
      uint64_t Combinations = 1;
      for (unsigned D = 0; D != NumIters; ++D)
        if (Owner[D] == static_cast<int>(R)) {
          Dims.push_back(D);
          Combinations *= Origins(D).size();
        }
      if (Combinations > EnumerationLimit) {
        Separable = false;
        break;
      }
      SmallVector<SmallVector<int64_t, 16>, 4> Values;
      for (unsigned D : Dims)
        Values.push_back(Origins(D));
      llvm::DenseSet<int64_t> Seen;
      SmallVector<int64_t, 8> Point(NumIters, 0);
      SmallVector<unsigned, 4> Digit(Dims.size(), 0);
      while (true) {
        for (unsigned K = 0, KE = Dims.size(); K != KE; ++K)
          Point[Dims[K]] = Values[K][Digit[K]];
        Seen.insert(F.evaluate(F.Results[R], Point));
        unsigned K = 0;
        while (K < Dims.size() && ++Digit[K] == Values[K].size())
          Digit[K++] = 0;
        if (K == Dims.size())
          break;
      }
      Total *= Seen.size();
    }
    if (Separable)
      return Total;
  }
  // General case: count the image with isl.
  const DepNode &S = Nodes[E.Src];
  auto Names = iterNames(NumIters, "i");
  std::string Cond;
  for (unsigned D = 0; D != NumIters; ++D)
    Cond += " and " + Names[D] + " < " + std::to_string(Limit[D]) +
            " and exists (q" + std::to_string(D) + ", r" + std::to_string(D) +
            " : " + Names[D] + " = r" + std::to_string(D) + " + " +
            std::to_string(Period[D]) + " * q" + std::to_string(D) +
            " and 0 <= r" + std::to_string(D) + " < " +
            std::to_string(Residues[D]) + " and q" + std::to_string(D) +
            " >= 0)";
  std::string Text = "{ " + statementTuple(S, Names) + " : " +
                     boxConstraint(Names, S.Extents) + Cond + " }";
  isl_ctx_reset_error(Ctx.get());
  SetPtr Lattice(isl_set_read_from_str(Ctx.get(), Text.c_str()));
  if (!Lattice)
    return makeError("isl rejected the tile lattice " + Text);
  SetPtr Image(
      isl_set_apply(Lattice.release(), isl_map_copy(Maps[Edge].get())));
  isl_val *Count = isl_set_count_val(Image.get());
  if (!Count)
    return makeError("isl could not count the tile origins");
  long Value = isl_val_get_num_si(Count);
  isl_val_free(Count);
  return static_cast<uint64_t>(Value);
}

llvm::Expected<DataflowGraph>
raf::embed::buildDataflowGraph(const TensorExpression &Expr,
                               PaddingOptions Padding) {
  std::string Error;
  if (!Expr.verify(Error))
    return makeError("invalid tensor expression '" + Expr.Name + "': " + Error);
  // The dataflow graph splits the body into two-operand statements (Rieber
  // 2022, Eqs. 4.6-4.8); a unary operation has no such statement here.
  for (const ScalarNode &SN : Expr.Body)
    if (!SN.IsInput && isUnaryScalarOp(SN.Op))
      return makeError("tensor expression '" + Expr.Name + "' applies '" +
                       stringifyScalarOp(SN.Op).str() +
                       "', a unary operation; the dataflow embedding models "
                       "two-operand statements only");
  DataflowGraph G;
  G.Expr = Expr;
  unsigned NumIters = Expr.Iterators.size();
  unsigned NumParallel = Expr.getNumParallel();

  SmallVector<IndexFunction, 4> InputMaps;
  for (const Operand &In : Expr.Inputs)
    InputMaps.push_back(fromAffineMap(In.Access));
  for (auto [In, Map] : llvm::zip(Expr.Inputs, InputMaps))
    if (llvm::is_contained(Map.Results, -1))
      return makeError("the access of operand '" + In.Name +
                       "' is not quasi-affine");

  // Padding (Rieber 2022, §4.3.4): extend small iterators, but only those every
  // access reads in increasing order, so that padded instances stay at the high
  // end of every view.
  for (unsigned D = 0; D != NumIters; ++D) {
    int64_t Extent = Expr.Iterators[D].Extent;
    bool Monotone = true;
    for (const IndexFunction &F : InputMaps)
      for (unsigned R = 0, RE = F.Results.size(); R != RE; ++R) {
        if (!F.dependsOn(R, D))
          continue;
        // The coordinate must grow by a positive step with the iterator.
        SmallVector<int64_t, 8> Zero(NumIters, 0), One(NumIters, 0);
        One[D] = 1;
        const IndexNode &Root = F.Nodes[F.Results[R]];
        bool Linear = Root.K != IndexNode::Kind::FloorDiv &&
                      Root.K != IndexNode::Kind::Mod;
        if (!Linear ||
            F.evaluate(F.Results[R], One) <= F.evaluate(F.Results[R], Zero))
          Monotone = false;
      }
    int64_t Wanted = D < Padding.MinExtents.size() ? Padding.MinExtents[D] : 0;
    G.PaddedExtents.push_back(Monotone && Wanted > Extent ? Wanted : Extent);
  }

  // Arrays: inputs then the output.
  auto AddArray = [&](const Operand &Op, int InputIndex,
                      const IndexFunction *Map) {
    DepNode N;
    N.K = DepNode::Kind::Array;
    N.Name = Op.Name;
    N.InputIndex = InputIndex;
    N.Original = Op.getViewShape();
    N.Extents = N.Original;
    if (Map)
      for (unsigned R = 0, RE = Map->Results.size(); R != RE; ++R)
        N.Extents[R] = std::max(
            N.Extents[R],
            nodeRange(*Map, Map->Results[R], G.PaddedExtents).second + 1);
    auto Names = iterNames(N.getRank(), "a");
    N.IslSet = "{ " + N.Name + "[" + joinNames(Names) +
               "] : " + boxConstraint(Names, N.Extents) + " }";
    G.Nodes.push_back(N);
    return G.Nodes.size() - 1;
  };
  SmallVector<unsigned, 4> InputNodes;
  for (unsigned I = 0, E = Expr.Inputs.size(); I != E; ++I)
    InputNodes.push_back(AddArray(Expr.Inputs[I], I, &InputMaps[I]));
  IndexFunction OutputMap = fromAffineMap(Expr.Output.Access);
  OutputMap.NumSourceDims = NumIters;
  unsigned OutputNode = AddArray(Expr.Output, -1, &OutputMap);

  // Statements: one per binary body operation, in body order, then the
  // reduction.
  auto Names = iterNames(NumIters, "i");
  auto Primed = iterNames(NumIters, "j");
  auto AddStatement = [&](ScalarOp Label, bool IsReduction) {
    DepNode N;
    N.K = DepNode::Kind::Statement;
    unsigned T = G.getStatements().size();
    N.Name = "S" + std::to_string(T);
    N.TextualOrder = T;
    N.Label = Label;
    N.IsReduction = IsReduction;
    N.Extents = G.PaddedExtents;
    for (const Iterator &It : Expr.Iterators)
      N.Original.push_back(It.Extent);
    N.IslSet = "{ " + statementTuple(N, Names) + " : " +
               boxConstraint(Names, N.Extents) + " }";
    G.Nodes.push_back(N);
    return G.Nodes.size() - 1;
  };
  auto Identity = [&]() {
    IndexFunction F;
    F.NumSourceDims = NumIters;
    for (unsigned D = 0; D != NumIters; ++D) {
      F.Nodes.push_back({IndexNode::Kind::Dim, D, -1, -1});
      F.Results.push_back(D);
    }
    return F;
  };
  auto MapText = [&](const DepNode &Src, const DepNode &Dst,
                     const IndexFunction &F) {
    std::string Target = Dst.Name + "[";
    for (unsigned R = 0, RE = F.Results.size(); R != RE; ++R)
      Target += (R ? ", " : "") + F.render(R, Names);
    if (Dst.isStatement())
      Target += ", " + std::to_string(Dst.TextualOrder);
    Target += "]";
    return "{ " + statementTuple(Src, Names) + " -> " + Target + " : " +
           boxConstraint(Names, Src.Extents) + " }";
  };
  // The dependence node producing each body value.
  SmallVector<std::pair<bool, unsigned>, 8> Producer; // (is input, index)
  for (const ScalarNode &SN : Expr.Body) {
    if (SN.IsInput) {
      Producer.push_back({true, SN.Input});
      continue;
    }
    unsigned S = AddStatement(SN.Op, /*IsReduction=*/false);
    for (unsigned Pos = 0; Pos != 2; ++Pos) {
      auto [IsInput, Index] = Producer[Pos == 0 ? SN.Lhs : SN.Rhs];
      DepEdge E;
      E.Src = S;
      E.OperandPos = Pos;
      if (IsInput) {
        E.K = DepEdge::Kind::Read;
        E.Dst = InputNodes[Index];
        E.Map = InputMaps[Index];
      } else {
        E.K = DepEdge::Kind::Flow;
        E.Dst = Index;
        E.Map = Identity();
      }
      E.IslMap = MapText(G.Nodes[E.Src], G.Nodes[E.Dst], E.Map);
      G.Edges.push_back(std::move(E));
    }
    Producer.push_back({false, S});
  }
  unsigned Result;
  auto [RootIsInput, RootIndex] = Producer.back();
  if (Expr.Reduction) {
    Result = AddStatement(*Expr.Reduction, /*IsReduction=*/true);
    DepEdge In;
    In.Src = Result;
    In.OperandPos = 0;
    In.K = RootIsInput ? DepEdge::Kind::Read : DepEdge::Kind::Flow;
    In.Dst = RootIsInput ? InputNodes[RootIndex] : RootIndex;
    In.Map = RootIsInput ? InputMaps[RootIndex] : Identity();
    In.IslMap = MapText(G.Nodes[Result], G.Nodes[In.Dst], In.Map);
    G.Edges.push_back(std::move(In));
    // The accumulation: relaxed to "same output element, other reduction
    // instance" because the reduction is commutative.
    DepEdge Self;
    Self.K = DepEdge::Kind::Reduction;
    Self.Src = Self.Dst = Result;
    Self.OperandPos = 1;
    const DepNode &R = G.Nodes[Result];
    std::string Cond, Differ;
    for (unsigned D = 0; D != NumIters; ++D) {
      if (D < NumParallel)
        Cond += Primed[D] + " = " + Names[D] + " and ";
      else
        Differ +=
            (Differ.empty() ? "" : " or ") + Primed[D] + " != " + Names[D];
    }
    Self.IslMap = "{ " + statementTuple(R, Names) + " -> " +
                  statementTuple(R, Primed) + " : " + Cond +
                  boxConstraint(Names, R.Extents) + " and " +
                  boxConstraint(Primed, R.Extents) + " and (" + Differ + ") }";
    G.Edges.push_back(std::move(Self));
  } else {
    if (RootIsInput)
      return makeError("the body of '" + Expr.Name +
                       "' computes nothing: it only reads an operand");
    Result = RootIndex;
  }
  DepEdge Write;
  Write.K = DepEdge::Kind::Write;
  Write.Src = Result;
  Write.Dst = OutputNode;
  Write.Map = OutputMap;
  Write.IslMap = MapText(G.Nodes[Result], G.Nodes[OutputNode], OutputMap);
  G.Edges.push_back(std::move(Write));

  auto Oracle = std::make_shared<IslOracle>(G);
  G.Oracle = Oracle;
  if (llvm::Error Err = Oracle->init())
    return std::move(Err);
  return std::move(G);
}
