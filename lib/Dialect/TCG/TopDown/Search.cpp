//===- Search.cpp - the top-down embedding search -------------------------===//
//
// Rieber 2022, §3.4.1: canonicalize (Tab. 3.2), full fission (Alg. 2), then
// Alg. 3 (every conflict-free combination of fusion and inlining options,
// Def. 3.2, duplicates dropped by their label trees), and matching with
// selection (§3.2) of every graph under every masking, for the
// configurations of Tab. 3.4; the layout transposition of §3.4.4.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/TopDown/Search.h"

#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"
#include "raf/Dialect/TCG/TopDown/Transformations.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <chrono>
#include <deque>
#include <limits>
#include <map>
#include <set>

using namespace mlir;
using namespace raf::tcg;
using namespace raf::tcg::topdown;

FailureOr<std::unique_ptr<IntrinsicSet>>
raf::tcg::topdown::loadIntrinsics(MLIRContext *context,
                                  ArrayRef<std::string> names, Location loc,
                                  bool checkElementTypes,
                                  StringRef intrinsicsFile) {
  auto set = std::make_unique<IntrinsicSet>();
  SmallVector<std::string> chosen(names.begin(), names.end());
  if (chosen.empty()) {
    FailureOr<SmallVector<std::string>> all =
        getIntrinsicNames(context, intrinsicsFile, loc);
    if (failed(all))
      return failure();
    chosen = std::move(*all);
  }
  // The kernels come from one parse of each library, the user's file (found
  // by looking its first intrinsic up) and the built-in one; the names, when
  // none are given, from their own parse, and a name neither library defines
  // is looked up once more for its error, which lists the known names.
  llvm::StringMap<KernelOp> kernels;
  auto collect = [&](ModuleOp module, bool overrides) {
    module.walk([&](KernelOp kernel) {
      if (std::optional<StringRef> name = kernel.getKernelName())
        if (overrides || !kernels.count(*name))
          kernels[*name] = kernel;
    });
  };
  if (!intrinsicsFile.empty()) {
    FailureOr<SmallVector<std::string>> userNames =
        getIntrinsicNames(context, intrinsicsFile, loc);
    if (failed(userNames) ||
        failed(lookupIntrinsicKernel(context, intrinsicsFile,
                                     userNames->front(), loc,
                                     set->modules.emplace_back())))
      return failure();
    collect(*set->modules.back(), /*overrides=*/true);
  }
  set->library = parseIntrinsicLibrary(context);
  if (!set->library)
    return emitError(loc, "the intrinsic library does not parse");
  collect(*set->library, /*overrides=*/false);
  for (StringRef name : chosen) {
    KernelOp kernel = kernels.lookup(name);
    if (!kernel) {
      OwningOpRef<ModuleOp> unused;
      (void)lookupIntrinsicKernel(context, intrinsicsFile, name, loc, unused);
      return failure();
    }
    FailureOr<LabelTree> tree = buildLabelTree(kernel, /*intrinsic=*/true);
    if (failed(tree) || failed(verifyIntrinsicSizes(kernel)))
      return failure();
    set->matcher.addIntrinsic(*tree);
    set->trees.push_back(std::move(*tree));
    set->kernels.push_back(kernel);
  }
  set->matcher.finalize();
  set->matcher.setCheckElementTypes(checkElementTypes);
  return set;
}

double SearchResult::getMedianTransformations() const {
  uint64_t total = 0;
  for (auto [value, count] : solutionTransformations)
    total += count;
  if (total == 0)
    return 0;
  // The value at 0-based rank r of the sorted solutions.
  auto at = [&](uint64_t rank) {
    for (auto [value, count] : solutionTransformations) {
      if (rank < count)
        return value;
      rank -= count;
    }
    return solutionTransformations.rbegin()->first;
  };
  return total % 2 ? at(total / 2) : (at(total / 2 - 1) + at(total / 2)) / 2.0;
}

std::string raf::tcg::topdown::getTreeKey(const LabelTree &tree) {
  std::string key;
  std::function<void(unsigned)> walk = [&](unsigned node) {
    const LabelNode &n = tree.nodes[node];
    key += n.edge;
    key += ':';
    key += n.label;
    key += '(';
    for (unsigned child : n.children)
      walk(child);
    key += ')';
  };
  walk(0);
  return key;
}

//===----------------------------------------------------------------------===//
// Layout transposition (§3.4.4, Tab. 3.5)
//===----------------------------------------------------------------------===//

FailureOr<KernelOp>
raf::tcg::topdown::transposeLayout(KernelOp kernel, ArrayRef<int64_t> layout,
                                   ModuleOp scratch) {
  int64_t rank = layout.size();
  SmallVector<int64_t> sorted(layout);
  llvm::sort(sorted);
  if (sorted != llvm::to_vector(llvm::seq<int64_t>(0, rank)))
    return kernel.emitError("layout transposition needs a permutation of 0 "
                            "to ")
           << rank - 1;
  auto permute = [&](ArrayRef<int64_t> values) {
    SmallVector<int64_t> result;
    for (int64_t dim : layout)
      result.push_back(values[dim]);
    return result;
  };

  // A function holding the copy, whose arguments are the operands in the
  // new layout.
  OpBuilder builder(scratch.getBodyRegion());
  builder.setInsertionPointToEnd(scratch.getBody());
  SmallVector<Type> argumentTypes;
  for (Value input : kernel.getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    argumentTypes.push_back(
        type.getRank() == rank
            ? RankedTensorType::get(permute(type.getShape()),
                                    type.getElementType())
            : type);
  }
  auto func = func::FuncOp::create(builder, kernel.getLoc(), "layout",
                                   builder.getFunctionType(argumentTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  for (auto [input, argument] :
       llvm::zip(kernel.getInputs(), entry->getArguments()))
    mapping.map(input, argument);
  auto copy = cast<KernelOp>(builder.clone(*kernel, mapping));
  func::ReturnOp::create(builder, kernel.getLoc());

  // Operands: the block argument takes the new type, reads permute their
  // index expressions and views.
  for (BlockArgument argument : copy.getBodyBlock().getArguments()) {
    auto type = cast<RankedTensorType>(argument.getType());
    if (type.getRank() != rank)
      continue;
    argument.setType(argumentTypes[argument.getArgNumber()]);
    for (Operation *user : argument.getUsers()) {
      auto read = cast<InputOp>(user);
      SmallVector<AffineExpr> results;
      for (int64_t dim : layout)
        results.push_back(read.getMap().getResult(dim));
      read.setMapAttr(AffineMapAttr::get(AffineMap::get(
          read.getMap().getNumDims(), 0, results, read.getContext())));
      Builder b(read.getContext());
      if (std::optional<ArrayRef<int64_t>> values = read.getPadLow())
        read.setPadLowAttr(b.getDenseI64ArrayAttr(permute(*values)));
      if (std::optional<ArrayRef<int64_t>> values = read.getPadHigh())
        read.setPadHighAttr(b.getDenseI64ArrayAttr(permute(*values)));
      if (std::optional<ArrayRef<int64_t>> values = read.getDilation())
        read.setDilationAttr(b.getDenseI64ArrayAttr(permute(*values)));
    }
  }
  // Computations: reorder the nest by adjacent interchanges (Fig. 3.9)
  // until level k holds the old level layout[k].
  for (TensorOp computation :
       llvm::to_vector(copy.getBodyBlock().getOps<TensorOp>())) {
    if (computation.getType().getRank() != rank)
      continue;
    SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    for (int64_t target = 0; target < rank; ++target) {
      int64_t from = llvm::find(order, layout[target]) - order.begin();
      for (int64_t level = from; level > target; --level) {
        TensorOp outer = computation;
        for (int64_t k = 0; k < level - 1; ++k)
          outer = outer.getYield().getValue().getDefiningOp<TensorOp>();
        if (failed(interchangeTensors(outer, /*allowKernelResult=*/true)))
          return failure();
        std::swap(order[level - 1], order[level]);
      }
    }
  }
  return copy;
}

//===----------------------------------------------------------------------===//
// The search (Algs. 2, 3)
//===----------------------------------------------------------------------===//

namespace {

/// The computations of a kernel (top-level tensors and local rows of fused
/// bodies) in pre-order; a clone lists its copies at the same positions.
SmallVector<TensorOp> getComputations(KernelOp kernel) {
  SmallVector<TensorOp> computations;
  kernel.walk<WalkOrder::PreOrder>([&](TensorOp tensor) {
    Operation *parent = tensor->getParentOp();
    if (isa<KernelOp>(parent) ||
        !llvm::hasSingleElement(
            cast<TensorOp>(parent).getBody().front().getOps<TensorOp>()))
      computations.push_back(tensor);
  });
  return computations;
}

/// A fusion or inlining option of Alg. 3 and its domain (the computations
/// it rewrites; Def. 3.2: options with disjoint domains are conflict-free).
struct Option {
  bool fusion;
  unsigned computation;
  llvm::SmallVector<unsigned, 4> domain;
};

SmallVector<Option> findOptions(KernelOp kernel) {
  SmallVector<TensorOp> computations = getComputations(kernel);
  llvm::DenseMap<Operation *, unsigned> indexOf;
  for (auto [index, computation] : llvm::enumerate(computations))
    indexOf[computation] = index;
  // The computation of `computations` holding `op`.
  auto holder = [&](Operation *op) -> int {
    for (Operation *current = op; current; current = current->getParentOp())
      if (auto it = indexOf.find(current); it != indexOf.end())
        return it->second;
    return -1;
  };
  SmallVector<Option> options;
  std::string why;
  for (auto [index, computation] : llvm::enumerate(computations)) {
    SmallVector<unsigned, 4> domain = {static_cast<unsigned>(index)};
    for (Operation *user : computation.getResult().getUsers()) {
      int reader = holder(user);
      if (reader >= 0 && !llvm::is_contained(domain, unsigned(reader)))
        domain.push_back(reader);
    }
    if (succeeded(canFuse(computation, why)))
      options.push_back({true, static_cast<unsigned>(index), domain});
    if (succeeded(canInline(computation, why)))
      options.push_back({false, static_cast<unsigned>(index), domain});
  }
  return options;
}

struct Graph {
  OwningOpRef<KernelOp> kernel;
  unsigned transformations = 0;
};

} // namespace

LogicalResult raf::tcg::topdown::rematchUnfused(
    const Matcher &matcher, KernelOp graph, const LabelTree &tree,
    ArrayRef<Match> matches, OwningOpRef<KernelOp> &unfused,
    LabelTree &unfusedTree, std::vector<Match> &unfusedMatches,
    std::string &reason) {
  ScopedDiagnosticHandler quiet(graph.getContext(),
                                [](Diagnostic &) { return success(); });
  IRMapping mapping;
  unfused = cast<KernelOp>(graph->clone(mapping));
  // Nodes of an op in pre-order (a value used twice is expanded once per
  // use, in the same order in both trees), keyed by the op of the clone.
  llvm::DenseMap<Operation *, SmallVector<unsigned, 1>> oldNodes;
  for (auto [index, node] : llvm::enumerate(tree.nodes))
    if (node.op)
      if (Operation *copy = mapping.lookupOrNull(node.op))
        oldNodes[copy].push_back(index);
  // Each replacement read: the old nodes of the read it stands for and the
  // number of outer dimensions prepended since. The entries of a replaced
  // read are dropped (it is erased, and a later op may reuse its address).
  struct Origin {
    SmallVector<unsigned, 1> nodes;
    unsigned prepended = 0;
  };
  llvm::DenseMap<Operation *, Origin> origin;
  unfuseAll(*unfused, [&](InputOp read, InputOp replacement) {
    Origin from;
    if (auto found = origin.find(read); found != origin.end()) {
      from = std::move(found->second);
      origin.erase(found);
    } else if (auto old = oldNodes.find(read); old != oldNodes.end()) {
      from.nodes = std::move(old->second);
      oldNodes.erase(old);
    }
    ++from.prepended;
    origin[replacement] = std::move(from);
  });
  FailureOr<LabelTree> split = buildLabelTree(*unfused);
  if (failed(split)) {
    reason = "the unfused graph has no label tree";
    return failure();
  }
  unfusedTree = std::move(*split);
  llvm::DenseMap<Operation *, SmallVector<unsigned, 1>> newNodes;
  llvm::DenseMap<unsigned, unsigned> oldNodeOf, prepended;
  llvm::DenseMap<Operation *, unsigned> seen;
  for (auto [index, node] : llvm::enumerate(unfusedTree.nodes)) {
    if (!node.op)
      continue;
    unsigned occurrence = seen[node.op]++;
    ArrayRef<unsigned> olds;
    unsigned added = 0;
    if (auto found = origin.find(node.op); found != origin.end()) {
      olds = found->second.nodes;
      added = found->second.prepended;
    } else if (auto old = oldNodes.find(node.op); old != oldNodes.end()) {
      olds = old->second;
      newNodes[node.op].push_back(index);
    }
    if (occurrence >= olds.size())
      continue;
    oldNodeOf[index] = olds[occurrence];
    prepended[index] = added;
  }
  for (const Match &m : matches) {
    std::string name = matcher.getIntrinsicName(m.intrinsic).str();
    Operation *root = mapping.lookupOrNull(tree.nodes[m.root].op);
    auto rootNodes = newNodes.find(root);
    if (!root || rootNodes == newNodes.end()) {
      reason = "the root of the match of " + name +
               " has no node in the unfused graph";
      return failure();
    }
    unsigned newRoot = rootNodes->second.front();
    Masking masking(unfusedTree.nodes.size(), 0);
    for (unsigned node = newRoot; node != unfusedTree.subtreeEnd[newRoot];
         ++node) {
      if (unfusedTree.nodes[node].kind != LabelNode::Kind::Input)
        continue;
      auto old = oldNodeOf.find(node);
      unsigned mask = old != oldNodeOf.end() && old->second < m.masking.size()
                          ? m.masking[old->second]
                          : 0;
      unsigned added = prepended.lookup(node);
      masking[node] = (mask << added) | ((1u << added) - 1);
    }
    unsigned computation = newRoot;
    while (unfusedTree.nodes[computation].parent > 0)
      computation = unfusedTree.nodes[computation].parent;
    std::vector<Match> found = matcher.match(unfusedTree, masking, computation);
    auto again = llvm::find_if(found, [&](const Match &candidate) {
      return candidate.intrinsic == m.intrinsic && candidate.root == newRoot;
    });
    if (again == found.end()) {
      reason =
          "the match of " + name + " does not hold on the unfused statements";
      return failure();
    }
    unfusedMatches.push_back(std::move(*again));
  }
  return success();
}

FailureOr<SearchResult> raf::tcg::topdown::search(KernelOp kernel,
                                                  const Matcher &matcher,
                                                  const SearchOptions &options) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now();
  auto elapsed = [&]() {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  auto outOfTime = [&]() {
    return options.timeLimit > 0 && elapsed() > options.timeLimit;
  };

  SearchResult result;
  FailureOr<LabelTree> original = buildLabelTree(kernel);
  if (failed(original))
    return failure();
  result.nodes = original->nodes.size();

  // The base graph: the layout, then the canonical operand order and full
  // fission as the configuration says.
  result.scratch = ModuleOp::create(UnknownLoc::get(kernel.getContext()));
  ModuleOp scratch = *result.scratch;
  Graph base;
  if (!options.layout.empty()) {
    FailureOr<KernelOp> transposed =
        transposeLayout(kernel, options.layout, scratch);
    if (failed(transposed))
      return failure();
    base.kernel = cast<KernelOp>((*transposed)->clone());
  } else {
    base.kernel = cast<KernelOp>(kernel->clone());
  }
  if (options.config >= 1)
    base.kernel->walk([&](ComputeOp op) {
      if (canonicalizeOperands(op))
        ++base.transformations;
    });
  if (options.config == 2 || options.config == 4)
    base.transformations += fullFission(*base.kernel);

  // Alg. 3 (corrected: options apply to G', the graph taken from the
  // queue): every conflict-free combination of the options of each graph,
  // new graphs queued until no new one appears.
  std::vector<Graph> graphs;
  llvm::StringSet<> seen;
  {
    FailureOr<LabelTree> tree = buildLabelTree(*base.kernel);
    if (failed(tree))
      return failure();
    seen.insert(getTreeKey(*tree));
  }
  graphs.push_back(std::move(base));
  bool fusion = options.config == 3 || options.config == 4;
  for (size_t next = 0; fusion && next < graphs.size(); ++next) {
    if (outOfTime()) {
      result.limit = "time";
      break;
    }
    SmallVector<Option> found = findOptions(*graphs[next].kernel);
    // Conflict-free combinations, built by extending each combination with
    // the options after its last one whose domains are disjoint.
    std::vector<SmallVector<unsigned, 4>> combinations;
    std::function<void(SmallVector<unsigned, 4> &, unsigned,
                       llvm::SmallDenseSet<unsigned, 8> &)>
        extend = [&](SmallVector<unsigned, 4> &current, unsigned from,
                     llvm::SmallDenseSet<unsigned, 8> &used) {
          for (unsigned o = from; o < found.size(); ++o) {
            if (combinations.size() >= options.maxCombinations)
              return;
            if (llvm::any_of(found[o].domain,
                             [&](unsigned c) { return used.contains(c); }))
              continue;
            current.push_back(o);
            combinations.push_back(current);
            for (unsigned c : found[o].domain)
              used.insert(c);
            extend(current, o + 1, used);
            for (unsigned c : found[o].domain)
              used.erase(c);
            current.pop_back();
          }
        };
    SmallVector<unsigned, 4> current;
    llvm::SmallDenseSet<unsigned, 8> used;
    extend(current, 0, used);
    if (combinations.size() >= options.maxCombinations &&
        result.limit.empty())
      result.limit = "combinations";

    for (const SmallVector<unsigned, 4> &combination : combinations) {
      if (graphs.size() >= options.maxGraphs) {
        if (result.limit.empty())
          result.limit = "graphs";
        break;
      }
      Graph graph;
      graph.kernel = cast<KernelOp>((*graphs[next].kernel)->clone());
      graph.transformations =
          graphs[next].transformations + combination.size();
      // Independent rewrites (disjoint domains): apply them from the last
      // computation backwards, so earlier positions stay valid.
      SmallVector<TensorOp> computations = getComputations(*graph.kernel);
      SmallVector<unsigned, 4> order(combination);
      llvm::sort(order, [&](unsigned a, unsigned b) {
        return found[a].computation > found[b].computation;
      });
      bool applied = true;
      for (unsigned o : order) {
        TensorOp target = computations[found[o].computation];
        applied &= found[o].fusion ? succeeded(fuseComputation(target))
                                   : succeeded(inlineComputation(target));
      }
      if (!applied)
        continue;
      FailureOr<LabelTree> tree = buildLabelTree(*graph.kernel);
      if (failed(tree))
        return failure();
      if (!seen.insert(getTreeKey(*tree)).second)
        continue;
      graphs.push_back(std::move(graph));
    }
    if (result.limit == "graphs")
      break;
  }
  result.graphs = graphs.size();

  // Matching and selection of every graph under every masking; each
  // distinct cover is one candidate. A match lies inside one computation
  // (its root's subtree does), and Alg. 1's objective (covered nodes, then
  // fewer instructions) adds up over the computations, so the cover under
  // a masking of the whole graph is the union of the covers of each
  // computation under its own inputs' masking. The maskings are therefore
  // enumerated per computation, and the graph's distinct covers are the
  // combinations of the computations' distinct covers: their number is the
  // product (without the cover that selects nothing anywhere), and the
  // solutions are the combinations of covers with full algebraic coverage
  // of their computation. This counts exactly what enumerating every
  // masking of the whole graph would, without its exponential cost.
  auto saturatingMul = [](uint64_t a, uint64_t b) -> uint64_t {
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
      return std::numeric_limits<uint64_t>::max();
    return a * b;
  };
  for (auto [index, graph] : llvm::enumerate(graphs)) {
    if (!result.limit.empty() && result.limit != "combinations" &&
        result.limit != "graphs" && result.limit != "maskings")
      break;
    FailureOr<LabelTree> tree = buildLabelTree(*graph.kernel);
    if (failed(tree))
      return failure();
    auto lowest = [&](unsigned input) {
      unsigned rank = tree->nodes[input].rank;
      return rank > 2 ? rank - 2 : 0;
    };
    /// One distinct cover of one computation.
    struct Cover {
      std::vector<Match> matches;
      unsigned covered = 0, masked = 0;
      bool full = false;
    };
    uint64_t graphCandidates = 1, graphSolutions = 1;
    bool allHaveEmpty = true;
    // Histogram of the solutions' masked dimensions beyond the default.
    std::map<unsigned, uint64_t> histogram = {{0, 1}};
    std::vector<Match> bestMatches;
    unsigned bestCovered = 0;
    bool stopped = false;
    for (unsigned computation : tree->nodes[0].children) {
      unsigned end = tree->subtreeEnd[computation];
      SmallVector<unsigned> inputs;
      std::vector<SmallVector<unsigned, 8>> maskOptions;
      unsigned algebraic = 0;
      for (unsigned node = computation; node != end; ++node) {
        const LabelNode &n = tree->nodes[node];
        if (n.kind == LabelNode::Kind::Input) {
          inputs.push_back(node);
          maskOptions.push_back(
              getMaskOptions(*tree, node, options.selectiveMasking));
        }
        if (n.kind == LabelNode::Kind::Compute ||
            n.kind == LabelNode::Kind::Reduce)
          ++algebraic;
      }
      Masking masking(tree->nodes.size(), 0);
      SmallVector<unsigned> choice(inputs.size(), 0);
      for (auto [position, input] : llvm::enumerate(inputs))
        masking[input] = maskOptions[position].front();
      using CoverKey =
          std::vector<std::tuple<unsigned, unsigned, std::vector<unsigned>>>;
      std::map<CoverKey, Cover> covers;
      for (unsigned count = 0;; ++count) {
        if (count == options.maxMaskings) {
          if (result.limit.empty())
            result.limit = "maskings";
          break;
        }
        if (outOfTime()) {
          result.limit = "time";
          stopped = true;
          break;
        }
        std::vector<Match> matches =
            matcher.match(*tree, masking, computation);
        Selection selection = select(*tree, matches);
        CoverKey key;
        Cover cover;
        std::vector<bool> inside(tree->nodes.size(), false);
        for (const Match &m : selection.matches) {
          key.emplace_back(
              m.intrinsic, m.root,
              std::vector<unsigned>(m.masking.begin(), m.masking.end()));
          for (auto [node, hidden] : llvm::enumerate(m.masking))
            if (hidden)
              cover.masked += getNumHidden(hidden) - lowest(node);
          for (unsigned node = m.root; node != tree->subtreeEnd[m.root];
               ++node)
            inside[node] = true;
        }
        unsigned algebraicCovered = 0;
        for (unsigned node = computation; node != end; ++node) {
          const LabelNode &n = tree->nodes[node];
          if ((n.kind == LabelNode::Kind::Compute ||
               n.kind == LabelNode::Kind::Reduce) &&
              inside[node])
            ++algebraicCovered;
        }
        cover.full = algebraicCovered == algebraic;
        cover.covered = selection.covered;
        cover.matches = std::move(selection.matches);
        covers.try_emplace(std::move(key), std::move(cover));
        // The next masking, mixed radix over the computation's inputs.
        unsigned position = 0;
        for (; position != inputs.size(); ++position) {
          unsigned input = inputs[position];
          if (++choice[position] < maskOptions[position].size()) {
            masking[input] = maskOptions[position][choice[position]];
            break;
          }
          choice[position] = 0;
          masking[input] = maskOptions[position].front();
        }
        if (position == inputs.size())
          break;
      }
      if (stopped)
        break;
      uint64_t full = 0;
      std::map<unsigned, uint64_t> fullMasked;
      const Cover *best = nullptr;
      for (auto &[key, cover] : covers) {
        if (!cover.full)
          continue;
        ++full;
        ++fullMasked[cover.masked];
        if (!best || cover.covered > best->covered ||
            (cover.covered == best->covered &&
             cover.matches.size() < best->matches.size()))
          best = &cover;
      }
      allHaveEmpty &= covers.count(CoverKey()) != 0;
      graphCandidates = saturatingMul(graphCandidates, covers.size());
      graphSolutions = saturatingMul(graphSolutions, full);
      std::map<unsigned, uint64_t> combined;
      for (auto [a, na] : histogram)
        for (auto [b, nb] : fullMasked)
          combined[a + b] =
              std::min(std::numeric_limits<uint64_t>::max() - combined[a + b],
                       saturatingMul(na, nb)) +
              combined[a + b];
      histogram = std::move(combined);
      if (best) {
        llvm::append_range(bestMatches, best->matches);
        bestCovered += best->covered;
      }
    }
    if (stopped)
      break;
    if (allHaveEmpty)
      --graphCandidates;
    result.candidates = std::min(std::numeric_limits<uint64_t>::max() -
                                     graphCandidates,
                                 result.candidates) +
                        graphCandidates;
    if (graphSolutions == 0)
      continue;
    result.solutions += graphSolutions;
    for (auto [masked, n] : histogram)
      result.solutionTransformations[graph.transformations + masked] += n;
    Selection selection;
    selection.matches = std::move(bestMatches);
    selection.covered = bestCovered;
    selection.total = tree->nodes.size();
    for (const LabelNode &n : tree->nodes)
      if (n.kind == LabelNode::Kind::Compute ||
          n.kind == LabelNode::Kind::Reduce)
        ++selection.algebraicTotal;
    selection.algebraicCovered = selection.algebraicTotal;
    unsigned masked = 0;
    for (const Match &m : selection.matches)
      for (auto [node, hidden] : llvm::enumerate(m.masking))
        if (hidden)
          masked += getNumHidden(hidden) - lowest(node);
    SearchCandidate candidate{static_cast<unsigned>(index), selection,
                              graph.transformations + masked};
    // Ranked by the coverage of the cover that is applied, when that
    // differs from the searched graph's (SearchOptions::score).
    std::optional<AppliedCover> score =
        AppliedCover{selection.covered, selection.total,
                     static_cast<unsigned>(selection.matches.size())};
    if (options.score)
      score = options.score(*graph.kernel, *tree, selection);
    const AppliedCover &best = result.bestScore;
    bool better = score && (!result.best ||
                            uint64_t(score->covered) * best.total >
                                uint64_t(best.covered) * score->total ||
                            (uint64_t(score->covered) * best.total ==
                                 uint64_t(best.covered) * score->total &&
                             score->instructions < best.instructions));
    if (better) {
      result.best = candidate;
      result.bestScore = *score;
      result.bestGraph = cast<KernelOp>((*graph.kernel)->clone());
    }
    if (result.candidates >= options.maxCandidates) {
      result.limit = "candidates";
      break;
    }
  }
  result.seconds = elapsed();
  return result;
}
