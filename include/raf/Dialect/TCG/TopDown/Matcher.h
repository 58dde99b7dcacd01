//===- Matcher.h - top-down tree matching and selection ---------*- C++ -*-===//
//
// The embedding steps of Rieber 2022, §3.2 on tcg kernels:
//
// * preprocessing (§3.2.1): a kernel becomes a strict labelled tree (values
//   used twice are duplicated); an iterator reference in an access becomes
//   the number of parent moves from the input to the node defining the
//   iterator; every root-to-leaf path is a string of labels (node labels
//   interleaved with child-edge labels);
// * matching (§3.2.2): an Aho-Corasick automaton over the path strings of
//   all intrinsics (Hoffmann & O'Donnell's top-down tree matching reduced
//   to string matching) runs along every root-to-leaf path of the operator;
//   a match at a node is full when (1) every path of the intrinsic matched
//   there and (2) every leaf below the node was matched; outer input
//   dimensions may be masked (their access leaves are hidden), which is
//   valid when they only use iterators defined above the match or at a
//   tensor node the intrinsic gives extent 1 (a loop around it);
// * selection (§3.2.3, Alg. 1, Eq. 3.4): non-overlapping matches of the
//   largest coverage (covered nodes / all nodes), by branch and bound over
//   pre-order continuations (with the terminal case Alg. 1's lines 2-3 lack: an
//   empty selection at the end).
//
// Labels: a tensor node is `T`; a reduction `R.<op>`; a compute `C.<op>`;
// an input `I` with one child per dimension, edge label `d<k>` counting
// from the innermost dimension (Fig. 3.2's right-to-left order), whose leaf
// is its access expression over parent-move distances (`a:d2 + d3`); a
// constant, and a read at constant indices (a scalar), is the leaf `S`.
// Edge labels: `r` (a tensor's or reduction's right child), `0`/`1` (a
// compute's operands). Interval sizes are not labels: tiling and padding
// handle sizes after selection (§3.3.2).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_TOPDOWN_MATCHER_H
#define RAF_DIALECT_TCG_TOPDOWN_MATCHER_H

#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Embedding/DataflowEmbedding.h"
#include "raf/Embedding/TensorExpression.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace raf::tcg::topdown {

/// One node of a kernel's label tree.
struct LabelNode {
  enum class Kind { Root, Tensor, Reduce, Compute, Input, Access, Scalar };
  Kind kind = Kind::Root;
  /// The node label (`T`, `R.add`, `C.mul`, `I`, `a:...`, `S`).
  std::string label;
  /// The label of the edge from the parent (`r`, `0`, `1`, `d<k>`).
  std::string edge;
  int parent = -1;
  unsigned depth = 0;
  llvm::SmallVector<unsigned, 4> children;
  /// The op the node stands for (none for the root and access leaves).
  mlir::Operation *op = nullptr;
  /// Access leaves: the input dimension, counted from the outermost, and
  /// the smallest parent-move distance of the iterators it uses (0 when it
  /// uses none).
  unsigned dim = 0;
  unsigned minDistance = 0;
  /// Access leaves: the parent-move distances of all iterators it uses.
  llvm::SmallVector<unsigned, 2> distances;
  /// Input nodes: the rank.
  unsigned rank = 0;
};

/// A kernel (or intrinsic) as a strict tree in pre-order: node 0 is the
/// root (the kernel), its children the computations in program order.
struct LabelTree {
  std::string name;
  std::vector<LabelNode> nodes;
  /// One past the last node of each node's subtree (pre-order).
  std::vector<unsigned> subtreeEnd;

  /// The root-to-leaf label strings below `top`, one per leaf, starting at
  /// `top`'s label; leaves of masked dimensions are left out.
  std::vector<std::vector<std::string>>
  getPaths(unsigned top, llvm::ArrayRef<unsigned> mask = {}) const;
  /// Whether access leaf `node` is hidden by `mask` (per input node, the
  /// set of hidden dimensions; see Masking).
  bool isMasked(unsigned node, llvm::ArrayRef<unsigned> mask) const;
  /// The edge label of `node` under `mask`: an access leaf's `d<k>` counts
  /// only the dimensions `mask` leaves visible (an input whose innermost
  /// dimension is hidden reads its next one as `d0`, with a stride).
  std::string getEdge(unsigned node, llvm::ArrayRef<unsigned> mask) const;
  /// Whether `node` is a leaf under `mask` (an input with every dimension
  /// masked is one: a scalar operand).
  bool isLeaf(unsigned node, llvm::ArrayRef<unsigned> mask) const;
  /// The label of `node` under `mask` (`S` for a fully masked input).
  llvm::StringRef getLabel(unsigned node, llvm::ArrayRef<unsigned> mask) const;
};

/// Builds the label tree of `kernel`. Fails with an error at an op the tree
/// cannot hold (a non-tcg value). With `intrinsic`, a reduction stride
/// (kStrideAttrName) scales its iterator in the access leaves; an operator
/// kernel (`intrinsic` false) carrying one is an error at the reduction.
llvm::FailureOr<LabelTree> buildLabelTree(KernelOp kernel,
                                          bool intrinsic = false);

/// Masking: per node of the tree, the set of hidden dimensions of that
/// input as a bit mask (bit k: dimension k counted from the outermost; 0
/// for other nodes). Hiding the c outer dimensions is the mask 2^c - 1.
using Masking = llvm::SmallVector<unsigned, 16>;

/// The maskings tried for input node `input` (Rieber 2022, §3.2.2, §3.4.1:
/// dimensions above two are hidden by default). Outer masking (default):
/// the r - 2 to r outer dimensions of a rank-r input. Selective masking
/// (`selective`; §3.2.2: "output dimensions can be masked out
/// selectively"): every set of at least r - 2 dimensions that leaves the
/// dimensions using the nearest enclosing iterator visible (hiding one of
/// them is never valid, since no match root lies below that iterator); the
/// visible dimensions are then read with the strides of the hidden inner
/// ones.
llvm::SmallVector<unsigned, 8> getMaskOptions(const LabelTree &tree,
                                              unsigned input, bool selective);
/// The number of dimensions a mask hides.
unsigned getNumHidden(unsigned mask);

/// A full match of an intrinsic at a node of an operator's tree.
struct Match {
  unsigned intrinsic = 0;
  unsigned root = 0;
  Masking masking;
  /// Nodes of the operator's tree the match covers (the root's subtree
  /// without masked leaves).
  unsigned covered = 0;
};

/// The Aho-Corasick matcher over the label paths of a set of intrinsics.
class Matcher {
public:
  /// Adds an intrinsic (rooted at its first computation).
  void addIntrinsic(const LabelTree &tree);
  /// Builds the failure links; call after the last addIntrinsic.
  void finalize();

  llvm::StringRef getIntrinsicName(unsigned index) const {
    return intrinsics[index].name;
  }
  unsigned getNumIntrinsics() const { return intrinsics.size(); }

  /// Whether a match also needs the element types to agree (default): the
  /// operator's computation at the match root has the intrinsic's result
  /// type and every operand read there one of the intrinsic's operand types,
  /// so an int8 instruction does not match a float operator.
  void setCheckElementTypes(bool check) { checkElementTypes = check; }
  unsigned getNumStates() const { return transitions.size(); }

  /// The full matches of every intrinsic at every tensor node of `tree`
  /// under `masking` (only inside the computation at node `computation`
  /// when it is not 0).
  std::vector<Match> match(const LabelTree &tree,
                           llvm::ArrayRef<unsigned> masking,
                           unsigned computation = 0) const;

  /// Matches under every masking: per input of rank r, from max(0, r - 2)
  /// (the instruction set reads at most two dimensions, so higher ones are
  /// masked by default) to all r outer dimensions (then the input is a
  /// scalar operand, `S`), or the selective maskings of getMaskOptions
  /// when `selective`. Stops after
  /// `maxMaskings` maskings; `truncated` tells whether it did.
  std::vector<Match> matchAllMaskings(const LabelTree &tree,
                                      unsigned maxMaskings, bool &truncated,
                                      bool selective = false) const;

private:
  unsigned intern(const std::string &token);
  int lookupToken(const std::string &token) const;
  int step(unsigned state, int token) const;

  struct Intrinsic {
    std::string name;
    unsigned numPaths = 0;
    /// Depths below the root of the tensor nodes of extent 1 (a scalar
    /// result wrapped in a one-element tensor): the operator dimension
    /// matched there is a loop around the instruction.
    llvm::SmallVector<unsigned, 2> unitTensorDepths;
    /// The element types of its result and of its operands.
    mlir::Type resultType;
    llvm::SmallVector<mlir::Type, 2> operandTypes;
  };
  bool checkElementTypes = true;
  bool typesAgree(const LabelTree &tree, unsigned root,
                  llvm::ArrayRef<unsigned> masking,
                  const Intrinsic &intrinsic) const;
  struct Output {
    unsigned intrinsic, path, length;
  };
  std::vector<Intrinsic> intrinsics;
  llvm::StringMap<unsigned> tokens;
  std::vector<llvm::DenseMap<unsigned, unsigned>> transitions =
      std::vector<llvm::DenseMap<unsigned, unsigned>>(1);
  std::vector<unsigned> failure = {0};
  std::vector<std::vector<Output>> outputs = {{}};
};

/// The selection of Alg. 1: non-overlapping matches maximising the covered
/// nodes (Eq. 3.4), then preferring fewer matches.
struct Selection {
  std::vector<Match> matches;
  unsigned covered = 0;
  unsigned total = 0;
  /// Compute and reduce nodes inside a selected match, and all of them.
  unsigned algebraicCovered = 0, algebraicTotal = 0;
  /// Full algebraic coverage (a solution, Tab. 3.3).
  bool isSolution() const { return algebraicCovered == algebraicTotal; }
};

Selection select(const LabelTree &tree, llvm::ArrayRef<Match> matches);

//===----------------------------------------------------------------------===//
// Intrinsic sizes (§3.1.2)
//===----------------------------------------------------------------------===//

/// The discardable attributes of an intrinsic's tcg.tensor or tcg.reduce
/// that give its other sizes: `topdown.sizes = array<i64: 4, 8, 16>` (a
/// multi-interval intrinsic: the same computation in several sizes, the
/// written extent among them) and `topdown.size_range = array<i64: 1, 64>`
/// (a variable-size intrinsic: any size within the bounds, the written
/// extent too).
inline constexpr llvm::StringLiteral kSizesAttrName = "topdown.sizes";
inline constexpr llvm::StringLiteral kSizeRangeAttrName = "topdown.size_range";

/// The discardable attribute of an intrinsic's tcg.reduce giving its regular
/// stride (Rieber 2022, §3.1.1: "the iteration domain can have a regular
/// stride s > 1"; Fig. 3.2's reduction.stride): `topdown.stride = 2 : i64` on
/// `tcg.reduce add %z in [0, 32)` makes z take the 16 values 0, 2, ..., 30,
/// so the intrinsic's read x[z] reads every second element. In the label
/// tree the iterator counts steps, so the access leaf is `a:d1 * 2`, the
/// leaf of an operator's strided reduction `sum_k a[2 * k]`: a strided
/// intrinsic matches only reads that step with its stride (and a unit-stride
/// intrinsic never matches them). Operators write strided reductions as such
/// scaled accesses; the attribute belongs to intrinsics.
inline constexpr llvm::StringLiteral kStrideAttrName = "topdown.stride";

/// The stride of `op`, a tcg.tensor or tcg.reduce (1 without the
/// attribute); failure, without a diagnostic, when the attribute is
/// malformed (verifyReductionStride says why).
mlir::FailureOr<int64_t> getReductionStride(mlir::Operation *op);

/// Whether a reduction of intrinsic `kernel` has a stride attribute.
bool hasReductionStride(KernelOp kernel);

/// Checks the stride attribute of `op`: a signless integer >= 1 on a
/// tcg.reduce; otherwise an error at `op`.
mlir::LogicalResult verifyReductionStride(mlir::Operation *op);

/// The number of iteration points of a tcg.tensor or tcg.reduce: its extent,
/// divided by its stride (rounded up); failure, without a diagnostic, when
/// the stride is malformed.
mlir::FailureOr<int64_t> getNumPoints(mlir::Operation *op);

/// The sizes one iterator of an intrinsic exists in (Rieber 2022, §3.1.2):
/// fixed (its written extent), several (multi-interval) or bounds
/// (variable-size).
struct IntrinsicSizes {
  /// Ascending; empty for a variable size.
  llvm::SmallVector<int64_t, 4> sizes;
  /// The bounds of a variable size.
  int64_t lower = 0, upper = 0;

  bool isVariable() const { return sizes.empty(); }
  bool contains(int64_t size) const;
  /// The instance for an operator iterator of `extent` points: the size
  /// that executes the fewest points once the extent is padded to a
  /// multiple of it (Eqs. 3.5, 3.6), the larger size (fewer instructions)
  /// on a tie.
  int64_t choose(int64_t extent) const;
};

/// The sizes of `op`, a tcg.tensor or tcg.reduce of an intrinsic, in
/// iteration points (getNumPoints; for a strided reduction the extent over
/// its stride). Malformed attributes (not positive, not ascending, both
/// kinds, the written size outside them, a malformed stride) are an error at
/// `op`.
mlir::FailureOr<IntrinsicSizes> getIntrinsicSizes(mlir::Operation *op);

/// Checks the size and stride attributes of every tensor and reduction of
/// `kernel`.
mlir::LogicalResult verifyIntrinsicSizes(KernelOp kernel);

/// The iterators of an intrinsic kernel in tensor-expression order
/// (tensors, then reductions), the order #tcg.embedding numbers axes in.
llvm::SmallVector<mlir::Operation *> getIntrinsicIterators(KernelOp kernel);

/// Instantiates `intrinsic`, the tensor expression of `kernel`, at
/// `extents` (one per iterator, as getIntrinsicIterators orders them): the
/// iterators' extents and the operand dimensions they index change. An
/// extent a multi-interval or variable-size iterator does not exist in sets
/// `error`; fixed-size iterators are left as written. A strided reduction
/// (kStrideAttrName) becomes an iterator over its steps (extent: its
/// points), and an operand dimension it indexes, read at stride * z, is
/// stored as [points, stride] and read at [z, 0] (the same memory); a
/// strided iterator inside a larger index expression sets `error`.
bool instantiateIntrinsic(KernelOp kernel, llvm::ArrayRef<int64_t> extents,
                          embed::TensorExpression &intrinsic,
                          std::string &error);

/// instantiateIntrinsic at the sizes `emb` maps (per axis, the product of
/// the lengths it covers). Used by the passes that derive strategies
/// (--tcg-apply-strategy, --tcg-print-embeddings).
bool instantiateForEmbedding(KernelOp kernel, const embed::Embedding &emb,
                             embed::TensorExpression &intrinsic,
                             std::string &error);

} // namespace raf::tcg::topdown

#endif // RAF_DIALECT_TCG_TOPDOWN_MATCHER_H
