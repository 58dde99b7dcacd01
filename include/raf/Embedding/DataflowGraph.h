//===- DataflowGraph.h - Polyhedral dataflow graphs -------------*- C++ -*-===//
//
// The dataflow graph (DFG) of a tensor expression in polyhedral form
// (Rieber 2022, §4.2): the body is split into two-operand statements
// whose textual order is an extra dimension t; every statement has an
// instance set, every operand an element set, and the edges are isl
// relations -- reads and writes (statement -> array element), flow
// dependences between statements (consumer -> producer instance, Eq. 4.9)
// and the self-dependence of a reduction, relaxed for commutative
// reductions from k' = k + 1 to k' != k (Eq. 4.10).
//
// This coarse dependence graph (Fig. 4.2d) has one node per statement and
// per operand, whatever the workload size. The constraint model reads it
// through plain structures (this header includes neither MLIR nor isl): the
// access functions as quasi-affine index expressions, and the set questions
// that need isl -- access and overlap sets (Defs. 4.5-4.6), membership of a
// point pair in a relation, distinct tile counts -- through DataflowOracle.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_EMBEDDING_DATAFLOWGRAPH_H
#define RAF_EMBEDDING_DATAFLOWGRAPH_H

#include "raf/Embedding/TensorExpression.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace raf {
namespace embed {

/// A node of a quasi-affine expression over the coordinates of a point.
struct IndexNode {
  enum class Kind { Constant, Dim, Add, Mul, FloorDiv, Mod };
  Kind K = Kind::Constant;
  /// Constant: the value. Dim: the coordinate. Mul: the constant factor.
  /// FloorDiv, Mod: the positive constant divisor.
  int64_t Value = 0;
  /// Operand nodes (earlier in the owning function's node list): Add uses
  /// both, Mul/FloorDiv/Mod use Lhs.
  int Lhs = -1, Rhs = -1;
};

/// A quasi-affine function from points of one space to points of another.
struct IndexFunction {
  unsigned NumSourceDims = 0;
  std::vector<IndexNode> Nodes;
  /// The node computing each target coordinate.
  llvm::SmallVector<int, 4> Results;

  int64_t evaluate(int Node, llvm::ArrayRef<int64_t> Point) const;
  llvm::SmallVector<int64_t, 4> apply(llvm::ArrayRef<int64_t> Point) const;
  /// Whether target coordinate Result depends on source coordinate Dim.
  bool dependsOn(unsigned Result, unsigned Dim) const;
  /// Renders target coordinate Result in isl syntax over the given names.
  std::string render(unsigned Result,
                     llvm::ArrayRef<std::string> DimNames) const;
};

/// A node of the dependence graph: all DFG nodes with one label.
struct DepNode {
  enum class Kind { Statement, Array };
  Kind K = Kind::Statement;
  /// Statement "S<t>" or the operand's name.
  std::string Name;
  /// Statements: the scalar operation.
  ScalarOp Label = ScalarOp::Mul;
  /// Statements: the textual order t.
  unsigned TextualOrder = 0;
  /// Statements: a reduction statement (its instances over the reduction
  /// iterators accumulate into one output element).
  bool IsReduction = false;
  /// Arrays: input position, or -1 for the output.
  int InputIndex = -1;
  /// The box [0, Extents[i]) of the node's space (iterators for statements,
  /// view dimensions for arrays). With padding it is larger than Original.
  llvm::SmallVector<int64_t, 8> Extents;
  llvm::SmallVector<int64_t, 8> Original;
  /// The instance or element set in isl notation.
  std::string IslSet;

  bool isStatement() const { return K == Kind::Statement; }
  unsigned getRank() const { return Extents.size(); }
};

/// An edge of the dependence graph: a relation from statement instances to
/// the points of another node. Every relation here is functional in that
/// direction (Read, Write, Flow) except Reduction.
struct DepEdge {
  enum class Kind { Read, Write, Flow, Reduction };
  Kind K = Kind::Read;
  unsigned Src = 0, Dst = 0;
  /// Read and Flow: the operand position of Src the value feeds.
  unsigned OperandPos = 0;
  /// Read, Write, Flow: Src instance -> Dst point. Unused for Reduction,
  /// which relates instances with equal parallel and different reduction
  /// coordinates.
  IndexFunction Map;
  /// The relation in isl notation.
  std::string IslMap;
};

/// Zero-padding of small iteration dimensions (Rieber 2022, §4.3.4): iterator
/// D's domain is extended to MinExtents[D] when that is larger (and the operand
/// views with it), so that an intrinsic axis longer than the dimension can
/// still be mapped; the padded instances are counted as overhead by the cost.
/// Only iterators every access reads in increasing order are padded.
struct PaddingOptions {
  llvm::SmallVector<int64_t, 8> MinExtents;
};

class DataflowOracle;

struct DataflowGraph {
  TensorExpression Expr;
  /// The iterator extents after padding.
  llvm::SmallVector<int64_t, 8> PaddedExtents;
  llvm::SmallVector<DepNode, 8> Nodes;
  llvm::SmallVector<DepEdge, 8> Edges;
  /// Answers the set questions with isl; owned by the graph.
  std::shared_ptr<DataflowOracle> Oracle;

  unsigned getNumIterators() const { return Expr.Iterators.size(); }
  unsigned getNumParallel() const { return Expr.getNumParallel(); }
  /// The dependence node of input I and of the output.
  unsigned getInputNode(unsigned I) const;
  unsigned getOutputNode() const;
  llvm::SmallVector<unsigned, 4> getStatements() const;
  /// A readable listing of nodes and relations in isl notation.
  std::string describe() const;
};

/// Builds the dataflow graph of a verified tensor expression and checks
/// every set and relation with isl.
llvm::Expected<DataflowGraph> buildDataflowGraph(const TensorExpression &Expr,
                                                 PaddingOptions Padding = {});

/// The isl-backed queries of the constraint model. Points are coordinates
/// in the padded spaces of DataflowGraph::Nodes.
class DataflowOracle {
public:
  virtual ~DataflowOracle();

  /// Def. 4.5/4.6: how the access sets of input Input for two output
  /// elements relate -- the elements of the input read (over every
  /// reduction iteration) to compute each output element.
  enum class Overlap { None, Partial, Full };
  virtual Overlap compareAccessSets(unsigned Input,
                                    llvm::ArrayRef<int64_t> OutputA,
                                    llvm::ArrayRef<int64_t> OutputB) = 0;

  /// compareAccessSets answers affine separable accesses (every reduction
  /// iterator feeds one operand coordinate, as in convolutions and matrix
  /// products) by translation: A(o') = A(o) + P (o' - o) for the parallel
  /// part P of the access, so the sets are equal iff the shift is zero and
  /// disjoint iff the shift is not a difference of two points of A(o).
  /// Other accesses, or all of them after setIslOnly(true), are answered
  /// with isl set operations. The two must agree (unit-tested).
  virtual void setIslOnly(bool IslOnly) = 0;

  /// Whether (SrcPoint, DstPoint) lies in the relation of edge E.
  virtual bool inRelation(unsigned Edge, llvm::ArrayRef<int64_t> SrcPoint,
                          llvm::ArrayRef<int64_t> DstPoint) = 0;

  /// Counts the distinct points the access of edge ReadOrWrite maps a set
  /// of iteration points to. The set is a product over iterators d of
  /// { r + Period[d] * q : 0 <= r < Residues[d], q >= 0 } within
  /// [0, Limit[d]): the origins of an operand's tiles when iterator d is
  /// covered by tiles of Period[d] / Residues[d] points with stride
  /// Residues[d].
  virtual llvm::Expected<uint64_t>
  countImage(unsigned ReadOrWrite, llvm::ArrayRef<int64_t> Period,
             llvm::ArrayRef<int64_t> Residues,
             llvm::ArrayRef<int64_t> Limit) = 0;
};

} // namespace embed
} // namespace raf

#endif // RAF_EMBEDDING_DATAFLOWGRAPH_H
