//===- Search.h - the top-down embedding search -----------------*- C++ -*-===//
//
// The search of Rieber 2022, §3.4.1 over one kernel: the canonical operand
// order (Tab. 3.2), full fission (Alg. 2), then fusion and inlining in every
// conflict-free combination (Alg. 3, Def. 3.2), every resulting graph
// matched against the intrinsics under every input masking (§3.2.2) and a
// cover selected per masking (Alg. 1). The four configurations of Tab. 3.4
// switch fission and fusion + inlining on and off (operand swap and masking
// are always on). Limits on graphs, candidates and time bound the search;
// the result says whether one was reached.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_TOPDOWN_SEARCH_H
#define RAF_DIALECT_TCG_TOPDOWN_SEARCH_H

#include "raf/Dialect/TCG/TopDown/Matcher.h"

#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace raf::tcg::topdown {

/// The discardable attribute --tcg-topdown-embed=search=true puts on each
/// statement kernel it attaches: the covered and total nodes of the applied
/// solution (`array<i64: covered, total>`, Eq. 3.4 on the graph applied).
inline constexpr llvm::StringLiteral kAppliedCoverageAttrName =
    "topdown.applied_coverage";

/// The coverage of the cover a solution is applied as (SearchOptions::score).
struct AppliedCover {
  unsigned covered = 0, total = 0, instructions = 0;
};

struct SearchOptions {
  /// Tab. 3.4: 0 nothing, 1 swap + masking, 2 also fission, 3 swap, masking,
  /// fusion + inlining, 4 all.
  unsigned config = 4;
  /// Stop generating graphs (Alg. 3) after this many.
  unsigned maxGraphs = 20000;
  /// Stop matching after this many candidates.
  uint64_t maxCandidates = 5000000;
  /// Selective masking (getMaskOptions): any set of at least r - 2
  /// dimensions of a rank-r input may be hidden, not only the outer ones.
  bool selectiveMasking = false;
  /// Maskings tried per graph.
  unsigned maxMaskings = 4096;
  /// Conflict-free option combinations tried per graph.
  unsigned maxCombinations = 4096;
  /// Wall-clock limit of the whole search, in seconds (0: none).
  double timeLimit = 60;
  /// Layout transposition (Tab. 3.5), applied before everything else: every
  /// operand and computation of rank `layout.size()` is stored with its
  /// dimensions permuted (new dimension k is old dimension layout[k]).
  /// Empty: no transposition.
  llvm::SmallVector<int64_t, 4> layout;
  /// When set, scores each graph's solution by the cover that is actually
  /// applied (e.g. a fused graph's matches found again on its unfused
  /// statements, which hold more nodes): its graph, the graph's label tree
  /// and its cover in, the applied cover's coverage out, or nothing when the
  /// solution cannot be applied. The best solution is then the one of the
  /// largest applied coverage (Eq. 3.4); the counts are not affected.
  std::function<std::optional<AppliedCover>(KernelOp, const LabelTree &,
                                            const Selection &)>
      score;
};

/// One candidate: the cover Alg. 1 selects in one graph under one masking
/// (distinct covers counted once).
struct SearchCandidate {
  unsigned graph = 0;
  Selection selection;
  /// Rewrites that produced the graph (swaps, fissions, fusions, inlines)
  /// plus the input dimensions the selected matches mask beyond the
  /// default (ranks above two).
  unsigned transformations = 0;
};

struct SearchResult {
  /// Nodes of the kernel's label tree as written (Tab. 3.3's #nodes).
  unsigned nodes = 0;
  /// Graphs generated (the fissioned graph and Alg. 3's set S).
  unsigned graphs = 0;
  /// Candidates and the ones with full algebraic coverage (solutions).
  uint64_t candidates = 0, solutions = 0;
  /// The transformations of the solutions: value -> number of solutions
  /// (Tab. 3.3 reports the median).
  std::map<unsigned, uint64_t> solutionTransformations;
  /// Holds the layout-transposed copy the graphs read (declared before the
  /// graph, which is destroyed first).
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
  /// The best solution (largest coverage, then fewest instructions), if
  /// any: its graph and selection.
  mlir::OwningOpRef<KernelOp> bestGraph;
  std::optional<SearchCandidate> best;
  /// The coverage that ranked the best solution: its selection's, or the
  /// applied one when SearchOptions::score is set.
  AppliedCover bestScore;
  /// Which limit stopped the search, if any ("graphs", "candidates",
  /// "time", "maskings", "combinations"); empty when it ran to the end.
  std::string limit;
  double seconds = 0;
  /// The median of solutionTransformations (0 without solutions).
  double getMedianTransformations() const;
};

/// The intrinsics a search matches: the parsed library, the matcher over
/// the chosen intrinsics and their label trees and kernels, in its order.
struct IntrinsicSet {
  mlir::OwningOpRef<mlir::ModuleOp> library;
  /// The user's file, when intrinsics are read from one.
  llvm::SmallVector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
  Matcher matcher;
  llvm::SmallVector<LabelTree> trees;
  llvm::SmallVector<KernelOp> kernels;
};

/// Loads the intrinsics `names` (all of the library when empty) from the
/// intrinsic library; an unknown name is an error at `loc` listing the
/// known ones. `checkElementTypes` as Matcher::setCheckElementTypes. With
/// `intrinsicsFile`, the user's intrinsics of that .mlir file are searched
/// first and belong to "all" (UserIntrinsics.h, as --tcg-topdown-embed's
/// intrinsics-file=).
mlir::FailureOr<std::unique_ptr<IntrinsicSet>>
loadIntrinsics(mlir::MLIRContext *context, llvm::ArrayRef<std::string> names,
               mlir::Location loc, bool checkElementTypes = true,
               llvm::StringRef intrinsicsFile = "");

/// The solution `matches` of a fused `graph` (label tree `tree`) on its
/// unfused statements (Fig. 3.12 read backwards): a split copy of `graph`
/// (topdown::unfuseAll) in `unfused`, its label tree in `unfusedTree` and
/// each match found again by `matcher` at its root there, the dimensions
/// the splits prepended masked, in `unfusedMatches`. Fails, saying why in
/// `reason`, when the split graph has no label tree (too large) or a match
/// does not hold on it.
mlir::LogicalResult
rematchUnfused(const Matcher &matcher, KernelOp graph, const LabelTree &tree,
               llvm::ArrayRef<Match> matches,
               mlir::OwningOpRef<KernelOp> &unfused, LabelTree &unfusedTree,
               std::vector<Match> &unfusedMatches, std::string &reason);

/// Runs the search on a copy of `kernel` (the kernel is not changed).
/// Fails with an error at the kernel when its label tree cannot be built.
mlir::FailureOr<SearchResult> search(KernelOp kernel, const Matcher &matcher,
                                     const SearchOptions &options);

/// Layout transposition (Tab. 3.5) of a kernel in a scratch module: returns
/// a copy whose operands and computations of rank `layout.size()` have their
/// dimensions permuted; the copy lives in a function of `scratch`. Fails
/// with an error when `layout` is not a permutation.
mlir::FailureOr<KernelOp> transposeLayout(KernelOp kernel,
                                          llvm::ArrayRef<int64_t> layout,
                                          mlir::ModuleOp scratch);

/// A canonical text of a label tree (edge and node labels in pre-order with
/// the tree structure): equal for graphs the matcher cannot tell apart,
/// which is how Alg. 3 drops duplicates.
std::string getTreeKey(const LabelTree &tree);

} // namespace raf::tcg::topdown

#endif // RAF_DIALECT_TCG_TOPDOWN_SEARCH_H
