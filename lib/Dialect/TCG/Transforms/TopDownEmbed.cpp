//===- TopDownEmbed.cpp - --tcg-topdown-embed -----------------------------===//
//
// Attaches the result of the top-down embedding (Rieber 2022, chapter 3) as
// typed #tcg.embedding attributes (mode `topdown`), the form the dataflow
// embedding uses, so --tcg-print-embeddings and --tcg-apply-strategy read
// it. Two modes:
//
// * as written: single-computation kernels one instruction covers
//   completely (GEMM, dense, matrix-vector products) get up to
//   `max-candidates` of that instruction's matches (§3.2);
// * `search=true`: the search of §3.4.1 (Algs. 2, 3 under the configuration
//   `config` of Tab. 3.4) picks the best solution whose statements the typed
//   form can hold; its graph (the transformed kernel, with fused bodies
//   split back into their statements, Fig. 3.12 inverted) is applied, each
//   of its computations becomes a kernel of its own, and every kernel an
//   instruction of the solution covers gets that instruction's embedding.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"
#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/TCG/TopDown/Matcher.h"
#include "raf/Dialect/TCG/TopDown/Search.h"
#include "raf/Dialect/TCG/TopDown/Transformations.h"
#include "raf/Dialect/TCG/Utils/Computation.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"
#include "raf/Embedding/DataflowEmbedding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"

#include <limits>
#include <numeric>

namespace raf::tcg {
#define GEN_PASS_DEF_TCGTOPDOWNEMBED
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf;
using namespace raf::tcg;
using namespace raf::tcg::topdown;

namespace {

/// The discardable attribute search=true puts on each statement kernel: the
/// rank of the applied solution among the applicable ones (option
/// `solution`) and their number (`array<i64: rank, count>`).
constexpr llvm::StringLiteral kSolutionAttrName = "topdown.solution";

/// What a match maps: intrinsic iterator ops to operator iterator ops,
/// intrinsic reads to operator reads, and (intrinsic read, dimension) to
/// the operator read's dimension.
struct Correspondence {
  llvm::DenseMap<Operation *, Operation *> ops;
  llvm::DenseMap<std::pair<Operation *, unsigned>, unsigned> dims;
};

/// Walks the intrinsic's tree and the operator's tree below the match
/// root in step (their labels agree, §3.2.2).
void correspond(const LabelTree &intrinsic, unsigned u, const LabelTree &op,
                unsigned v, ArrayRef<unsigned> masking, Correspondence &c) {
  const LabelNode &a = intrinsic.nodes[u];
  const LabelNode &b = op.nodes[v];
  if (a.op && b.op)
    c.ops[a.op] = b.op;
  if (a.kind == LabelNode::Kind::Access) {
    c.dims[{intrinsic.nodes[a.parent].op, a.dim}] = b.dim;
    return;
  }
  if (a.children.empty())
    return;
  SmallVector<unsigned> children;
  for (unsigned child : b.children)
    if (!op.isMasked(child, masking))
      children.push_back(child);
  for (unsigned child : a.children) {
    auto it = llvm::find_if(children, [&](unsigned candidate) {
      return op.getEdge(candidate, masking) == intrinsic.nodes[child].edge;
    });
    if (it != children.end())
      correspond(intrinsic, child, op, *it, masking, c);
  }
}

/// The operator iterators in tensor-expression order (tensors, then
/// reductions).
SmallVector<Operation *> iteratorOps(const Computation &computation) {
  SmallVector<Operation *> ops;
  for (TensorOp dim : computation.dims)
    ops.push_back(dim);
  for (ReduceOp reduce : computation.reductions)
    ops.push_back(reduce);
  return ops;
}

/// The operands of a computation in tensor-expression order: its reads and
/// its constants (a statement of a searched solution reads each constant
/// from a one-element tensor, so an instruction's scalar operand such as
/// vs.add's `s[0]` can stand for it).
SmallVector<Operation *> readOps(const Computation &computation,
                                 bool withConstants) {
  SmallVector<Operation *> reads;
  for (Operation *op : computation.body)
    if (isa<InputOp>(op) || (withConstants && isa<ConstantOp>(op)))
      reads.push_back(op);
  return reads;
}


/// The candidate for `match`, or failure with a reason why it has none.
/// `total` is the number of nodes the cost counts the uncovered ones of;
/// `withConstants` as readOps.
FailureOr<embed::Embedding>
buildCandidate(const IntrinsicSet &lib, const Match &match,
               const LabelTree &tree, const Computation &computation,
               unsigned total, bool withConstants, std::string &reason) {
  const LabelTree &itree = lib.trees[match.intrinsic];
  KernelOp ikernel = lib.kernels[match.intrinsic];
  Correspondence c;
  correspond(itree, itree.nodes[0].children.front(), tree, match.root,
             match.masking, c);
  FailureOr<Computation> icomputation =
      analyzeComputation(ikernel.getRootTensor());
  if (failed(icomputation))
    return failure();

  embed::Embedding emb;
  SmallVector<Operation *> opIterators = iteratorOps(computation);
  unsigned numParallel = computation.dims.size();
  for (Operation *op : opIterators) {
    int64_t extent = isa<TensorOp>(op) ? cast<TensorOp>(op).getExtent()
                                       : cast<ReduceOp>(op).getExtent();
    emb.Extents.push_back(extent);
    emb.Executed.push_back(extent);
  }
  // Intrinsic iterator -> operator iterator of the same position; tiled by
  // the intrinsic's extent, padded up to a multiple (Eqs. 3.5, 3.6). A
  // multi-interval or variable-size intrinsic (§3.1.2) takes the size that
  // pads least.
  SmallVector<int> iteratorOf;
  llvm::DenseMap<Operation *, int64_t> instanceSize;
  for (Operation *iop : iteratorOps(*icomputation)) {
    Operation *mapped = c.ops.lookup(iop);
    auto it = llvm::find(opIterators, mapped);
    if (!mapped || it == opIterators.end()) {
      reason = "an intrinsic iterator has no operator iterator";
      return failure();
    }
    unsigned d = it - opIterators.begin();
    FailureOr<IntrinsicSizes> sizes = getIntrinsicSizes(iop);
    if (failed(sizes))
      return failure();
    int64_t length = sizes->choose(emb.Extents[d]);
    instanceSize[iop] = length;
    iteratorOf.push_back(d);
    emb.Iterators.push_back({{d, length, 1}});
    emb.Executed[d] = (emb.Extents[d] + length - 1) / length * length;
  }
  // Operands: intrinsic input i must be operator input i (the typed
  // attribute pairs operands by position).
  SmallVector<Operation *> iReads = readOps(*icomputation, false);
  SmallVector<Operation *> opReads = readOps(computation, withConstants);
  if (iReads.size() != opReads.size()) {
    reason = "the intrinsic reads " + std::to_string(iReads.size()) +
             " operands, the operator " + std::to_string(opReads.size());
    return failure();
  }
  for (auto [index, iread] : llvm::enumerate(iReads)) {
    auto iinput = cast<InputOp>(iread);
    Operation *mapped = c.ops.lookup(iread);
    if (mapped != opReads[index]) {
      reason = "intrinsic operand " + std::to_string(index) +
               " is not operator operand " + std::to_string(index);
      return failure();
    }
    embed::OperandEmbedding operand;
    operand.OperatorInput = index;
    for (auto [dim, size] :
         llvm::enumerate(iinput.getSource().getType().getShape())) {
      auto it = c.dims.find({iread, dim});
      if (it != c.dims.end()) {
        // A dimension one iterator indexes has that iterator's instance
        // size; a strided reduction's (§3.1.1) reads lie stride elements
        // apart, as the operator's matched access (a[2 * k]) does.
        int64_t length = size, step = 1;
        if (auto d = dyn_cast<AffineDimExpr>(iinput.getMap().getResult(dim)))
          if (auto arg = dyn_cast<BlockArgument>(
                  iinput.getIterators()[d.getPosition()])) {
            Operation *owner = arg.getOwner()->getParentOp();
            if (auto found = instanceSize.find(owner);
                found != instanceSize.end())
              length = found->second;
            step = getReductionStride(owner).value_or(1);
          }
        operand.Dims.push_back({{it->second, length, step}});
        continue;
      }
      // A scalar operand (read at a constant index, label S) matched an
      // operator scalar: a constant, a read at constant indices or an input
      // whose dimensions are all masked (loops around the instruction). It
      // maps to no operator dimension.
      if (iinput.getMap().getResult(dim).getKind() ==
          AffineExprKind::Constant) {
        operand.Dims.emplace_back();
        continue;
      }
      reason = "an intrinsic operand dimension has no operator dimension";
      return failure();
    }
    emb.Operands.push_back(std::move(operand));
  }
  // The output: intrinsic output dimension p is its parallel iterator p.
  embed::OperandEmbedding output;
  for (unsigned p = 0, e = icomputation->dims.size(); p != e; ++p) {
    unsigned d = iteratorOf[p];
    if (d >= numParallel) {
      reason = "an intrinsic output dimension maps to a reduction";
      return failure();
    }
    output.Dims.push_back(
        {{d, instanceSize.lookup(icomputation->dims[p].getOperation()), 1}});
  }
  emb.Operands.push_back(std::move(output));

  emb.MacMin = emb.MacTotal = 1;
  for (auto [extent, executed] : llvm::zip(emb.Extents, emb.Executed)) {
    emb.MacMin *= extent;
    emb.MacTotal *= executed;
  }
  // The coverage cost (Eq. 3.4) as the nodes left uncovered; data moves
  // are not modelled by the top-down embedding.
  emb.Cost = total - match.covered;
  // The strategy derivation instantiates the intrinsic at the mapped sizes;
  // a candidate it cannot instantiate (a strided iterator inside an index
  // expression) is refused here rather than attached.
  FailureOr<embed::TensorExpression> instance = extractTensorExpr(ikernel);
  if (failed(instance)) {
    reason = "the intrinsic is not a tensor expression";
    return failure();
  }
  if (!instantiateForEmbedding(ikernel, emb, *instance, reason))
    return failure();
  return emb;
}

//===----------------------------------------------------------------------===//
// Embeddings of searched graphs (search=true)
//===----------------------------------------------------------------------===//

/// One statement of a solution: a top-level computation of the searched
/// graph and, when it has compute or reduce nodes, the instruction covering
/// it with its candidate.
struct Statement {
  TensorOp computation;
  std::optional<unsigned> intrinsic;
  embed::Embedding embedding;
};

/// The statements of the cover `matches` of the searched `graph`, or failure
/// with the reason the typed form cannot hold it: a computation that is not
/// one tensor expression (a fused body; planSearched splits those first),
/// or one covered by several instructions, or a match the attribute cannot
/// pair with the operands.
FailureOr<SmallVector<Statement, 0>>
planSolution(const IntrinsicSet &lib, KernelOp graph, const LabelTree &tree,
             ArrayRef<Match> matches, std::string &reason) {
  const Matcher &matcher = lib.matcher;
  // The loop-nest analysis reports why it fails as an error; here that is
  // only a reason to try the next solution.
  ScopedDiagnosticHandler quiet(graph.getContext(),
                                [](Diagnostic &) { return success(); });
  SmallVector<Statement, 0> statements;
  for (auto [index, node] : llvm::enumerate(tree.nodes[0].children)) {
    auto tensor = dyn_cast_or_null<TensorOp>(tree.nodes[node].op);
    if (!tensor || tensor->getParentOp() != graph.getOperation()) {
      reason = "statement " + std::to_string(index) + " is not a computation";
      return failure();
    }
    FailureOr<Computation> computation = analyzeComputation(tensor);
    // A fused body (a tensor holding several tensors) is not one tensor
    // expression.
    bool fused = failed(computation);
    tensor.walk([&](TensorOp nested) {
      unsigned inner = 0;
      for (Operation &op : nested.getBody().front())
        inner += isa<TensorOp>(op);
      fused |= inner > 1;
    });
    if (fused) {
      reason = "statement " + std::to_string(index) +
               " is not one tensor expression (a fused body)";
      return failure();
    }
    // splitStatements gives a statement's kernel exactly two kinds of
    // operands: the kernel's own and the results of earlier statements.
    bool readsOther = false;
    tensor.walk([&](InputOp read) {
      Value source = read.getSource();
      if (auto argument = dyn_cast<BlockArgument>(source)) {
        readsOther |= argument.getOwner() != &graph.getBodyBlock();
        return;
      }
      readsOther |= !llvm::any_of(statements, [&](Statement &earlier) {
        return earlier.computation.getOperation() == source.getDefiningOp();
      });
    });
    if (readsOther) {
      reason = "statement " + std::to_string(index) +
               " reads a value that is neither an operand of the kernel nor "
               "the result of an earlier statement";
      return failure();
    }
    unsigned end = tree.subtreeEnd[node];
    unsigned algebraic = 0;
    for (unsigned n = node; n != end; ++n)
      algebraic += tree.nodes[n].kind == LabelNode::Kind::Compute ||
                   tree.nodes[n].kind == LabelNode::Kind::Reduce;
    SmallVector<const Match *> inside;
    for (const Match &m : matches)
      if (m.root >= node && m.root < end)
        inside.push_back(&m);
    Statement statement{tensor, std::nullopt, {}};
    if (algebraic != 0) {
      if (inside.size() != 1) {
        reason = "statement " + std::to_string(index) + " is covered by " +
                 std::to_string(inside.size()) + " instructions";
        return failure();
      }
      std::string why;
      FailureOr<embed::Embedding> emb =
          buildCandidate(lib, *inside.front(), tree, *computation, end - node,
                         /*withConstants=*/true, why);
      if (failed(emb)) {
        reason = "statement " + std::to_string(index) + ", " +
                 matcher.getIntrinsicName(inside.front()->intrinsic).str() +
                 ": " + why;
        return failure();
      }
      statement.intrinsic = inside.front()->intrinsic;
      statement.embedding = std::move(*emb);
    }
    statements.push_back(std::move(statement));
  }
  return statements;
}

/// The nesting position of `iterator` in its kernel: 0 for the outermost
/// tcg.tensor's iterator, one more per enclosing tcg.tensor or tcg.reduce.
unsigned getNestingPosition(Value iterator) {
  auto arg = dyn_cast<BlockArgument>(iterator);
  if (!arg)
    return std::numeric_limits<unsigned>::max();
  unsigned position = 0;
  for (Operation *op = arg.getOwner()->getParentOp();
       op && !isa<KernelOp>(op); op = op->getParentOp())
    ++position;
  return position;
}

/// `graph` printed with every read's access in a canonical form: the map's
/// dimensions in the nesting order of their iterators, then simplified
/// (simplifyAffineMap orders a sum's terms), so that `%oh + %kh` and
/// `%kh + %oh` print alike. Both forms read the same element, so two graphs
/// print alike here only if they compute the same.
std::string printCanonicalAccesses(KernelOp graph) {
  OwningOpRef<KernelOp> copy = cast<KernelOp>(graph->clone());
  copy->walk([](InputOp read) {
    SmallVector<Value> iterators(read.getIterators());
    SmallVector<unsigned> order(iterators.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return getNestingPosition(iterators[a]) <
             getNestingPosition(iterators[b]);
    });
    AffineMap map = read.getMap();
    SmallVector<AffineExpr> replacements(iterators.size());
    SmallVector<Value> sorted;
    for (auto [position, dim] : llvm::enumerate(order)) {
      replacements[dim] = getAffineDimExpr(position, read.getContext());
      sorted.push_back(iterators[dim]);
    }
    read.setMap(simplifyAffineMap(map.replaceDimsAndSymbols(
        replacements, {}, sorted.size(), map.getNumSymbols())));
    read.getIteratorsMutable().assign(sorted);
  });
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().useLocalScope());
  return text;
}

/// A solution whose statements the typed form can hold: the graph (a split
/// copy when the search's graph is fused), its label tree, its matches and
/// its statements.
struct PlannedSolution {
  OwningOpRef<KernelOp> unfused;
  KernelOp graph;
  LabelTree tree;
  std::vector<Match> matches;
  SmallVector<Statement, 0> statements;
};

/// The solution `matches` of the fused `graph` on the unfused statements:
/// every local row split out again (topdown::unfuseAll, the inverse of the
/// fusions on the search's path), and each match found again at its root in
/// the split copy. A match lies inside one local row or the dimension a
/// fused body yields (the fused tensor itself has the local rows as further
/// children, which no intrinsic has, §3.2.2's condition (2)); splitting a row
/// out gives its reads the fused iterator as a new outer dimension, defined
/// above the match, so the match holds with that dimension masked. Each
/// match is checked by the matcher on the split copy; one it does not find
/// there refuses the solution.
LogicalResult unfuseSolution(const Matcher &matcher, KernelOp graph,
                             const LabelTree &tree, ArrayRef<Match> matches,
                             PlannedSolution &plan, std::string &reason) {
  if (failed(rematchUnfused(matcher, graph, tree, matches, plan.unfused,
                            plan.tree, plan.matches, reason)))
    return failure();
  plan.graph = *plan.unfused;
  return success();
}

/// Plans the solution `matches` of the searched `graph`: split first when it
/// is fused, then planSolution.
FailureOr<PlannedSolution> planSearched(const IntrinsicSet &lib, KernelOp graph,
                                        const LabelTree &tree,
                                        ArrayRef<Match> matches,
                                        std::string &reason) {
  PlannedSolution plan;
  if (hasFusedBody(graph)) {
    if (failed(unfuseSolution(lib.matcher, graph, tree, matches, plan, reason)))
      return failure();
  } else {
    plan.graph = graph;
    plan.tree = tree;
    plan.matches.assign(matches.begin(), matches.end());
  }
  FailureOr<SmallVector<Statement, 0>> statements =
      planSolution(lib, plan.graph, plan.tree, plan.matches, reason);
  if (failed(statements))
    return failure();
  plan.statements = std::move(*statements);
  return plan;
}

/// Replaces `kernel` by one kernel per statement of `graph` (a transformed
/// copy of it whose operands are the kernel's), reading the kernel's
/// operands and the results of earlier statements; constants of embedded
/// statements become reads of one-element relay constants. Returns the new
/// kernels in statement order.
SmallVector<KernelOp> splitStatements(KernelOp kernel, KernelOp graph,
                                      ArrayRef<Statement> statements) {
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  MLIRContext *context = kernel.getContext();
  std::string base = kernel.getKernelName().value_or("kernel").str();
  llvm::DenseMap<Operation *, unsigned> statementOf;
  for (auto [index, statement] : llvm::enumerate(statements))
    statementOf[statement.computation] = index;
  SmallVector<KernelOp> kernels;
  Value yielded = graph.getBodyBlock().getTerminator()->getOperand(0);
  for (auto [index, statement] : llvm::enumerate(statements)) {
    TensorOp computation = statement.computation;
    // The sources it reads, in first-read order.
    SmallVector<Value> sources, operands;
    SmallVector<std::string> names;
    computation.walk([&](InputOp read) {
      Value source = read.getSource();
      if (llvm::is_contained(sources, source))
        return;
      sources.push_back(source);
      if (auto argument = dyn_cast<BlockArgument>(source)) {
        operands.push_back(kernel.getInputs()[argument.getArgNumber()]);
        names.push_back(graph.getArgName(argument.getArgNumber()));
        return;
      }
      unsigned producer = statementOf.lookup(source.getDefiningOp());
      operands.push_back(kernels[producer].getResult());
      names.push_back(base + "." + std::to_string(producer));
    });
    // Constants of an embedded statement: one-element tensors.
    SmallVector<ConstantOp> constants;
    if (statement.intrinsic)
      computation.walk([&](ConstantOp constant) {
        auto type = RankedTensorType::get({1}, constant.getType());
        Attribute value = constant.getValue();
        operands.push_back(relay::ConstantOp::create(
            b, loc, type,
            DenseElementsAttr::get(type, ArrayRef<Attribute>(value))));
        names.push_back(base + "." + std::to_string(index) + ".const" +
                        std::to_string(constants.size()));
        constants.push_back(constant);
      });
    SmallVector<StringRef> nameRefs(names.begin(), names.end());
    bool isResult = computation.getResult() == yielded;
    auto split = KernelOp::create(
        b, loc, computation.getType(), operands,
        b.getStringAttr(base + "." + std::to_string(index)),
        b.getStrArrayAttr(nameRefs),
        isResult ? kernel.getResultNameAttr()
                 : b.getStringAttr(base + "." + std::to_string(index)));
    {
      OpBuilder::InsertionGuard guard(b);
      SmallVector<Location> locations(operands.size(), loc);
      Block *block = b.createBlock(&split.getBody(), {},
                                   TypeRange(ValueRange(operands).getTypes()),
                                   locations);
      IRMapping mapping;
      for (auto [position, source] : llvm::enumerate(sources))
        mapping.map(source, block->getArgument(position));
      Operation *clone = b.clone(*computation, mapping);
      for (auto [position, constant] : llvm::enumerate(constants)) {
        auto copy = cast<ConstantOp>(mapping.lookup(constant.getOperation()));
        OpBuilder at(copy);
        Value read = InputOp::create(
            at, copy.getLoc(), block->getArgument(sources.size() + position),
            ValueRange(),
            AffineMap::get(0, 0, getAffineConstantExpr(0, context)));
        copy.getResult().replaceAllUsesWith(read);
        copy->erase();
      }
      YieldOp::create(b, loc, clone->getResult(0));
    }
    kernels.push_back(split);
  }
  return kernels;
}

struct TCGTopDownEmbedPass
    : public raf::tcg::impl::TCGTopDownEmbedBase<TCGTopDownEmbedPass> {
  using Base::Base;

  void runOnOperation() override;
  LogicalResult embedSearched(KernelOp kernel, const IntrinsicSet &lib);
};

LogicalResult TCGTopDownEmbedPass::embedSearched(KernelOp kernel,
                                                 const IntrinsicSet &lib) {
  MLIRContext *context = kernel.getContext();
  const Matcher &matcher = lib.matcher;
  // A read used twice (x * x) becomes one read per use, as the label tree
  // already duplicates it (§3.2.1), so an instruction reading two operands
  // finds two operator reads; the kernel is replaced below anyway.
  SmallVector<InputOp> reads;
  kernel.walk([&](InputOp read) { reads.push_back(read); });
  for (InputOp read : reads) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : read->getUses())
      uses.push_back(&use);
    OpBuilder b(read);
    for (OpOperand *use : llvm::drop_begin(uses))
      use->set(b.clone(*read)->getResult(0));
  }
  SearchOptions options;
  options.config = config;
  options.selectiveMasking = selectiveMasking;
  options.maxMaskings = maxMaskings;
  options.maxGraphs = maxGraphs;
  options.timeLimit = timeLimit;
  uint64_t refused = 0;
  std::string lastReason;
  // The applicable solutions in the order the search scores them; for
  // solution=K > 0 also a copy of each graph and its cover.
  struct Applicable {
    AppliedCover score;
    OwningOpRef<KernelOp> graph;
    std::vector<Match> matches;
  };
  std::vector<Applicable> applicable;
  // The programs of the applicable solutions and their scores: different
  // searched graphs can give the same statements and embeddings (a fused
  // solution split back into the statements of an unfused one, or accesses
  // whose sums list their iterators in another order), counted once.
  llvm::StringMap<AppliedCover> programs;
  // Each graph's solution is ranked by the coverage (Eq. 3.4) of what is
  // applied: a fused graph's matches on its unfused statements, which hold
  // more nodes than the fused graph.
  options.score =
      [&](KernelOp graph, const LabelTree &tree,
          const Selection &selection) -> std::optional<AppliedCover> {
    std::string reason;
    FailureOr<PlannedSolution> plan =
        planSearched(lib, graph, tree, selection.matches, reason);
    if (failed(plan)) {
      ++refused;
      lastReason = std::move(reason);
      return std::nullopt;
    }
    AppliedCover applied;
    applied.total = plan->tree.nodes.size();
    applied.instructions = plan->matches.size();
    for (const Match &m : plan->matches)
      applied.covered += m.covered;
    // The same program as an earlier solution gets the earlier one's score
    // (the first scored wins a tie, so the search's best stays the first of
    // its program, which is ranked) but no rank of its own.
    std::string program = printCanonicalAccesses(plan->graph);
    llvm::raw_string_ostream os(program);
    for (const Statement &statement : plan->statements) {
      if (!statement.intrinsic)
        continue;
      os << "\n" << matcher.getIntrinsicName(*statement.intrinsic) << " "
         << buildCandidateAttr(context, statement.embedding);
    }
    auto [known, inserted] = programs.try_emplace(program, applied);
    if (!inserted)
      return known->second;
    Applicable entry{applied, nullptr, {}};
    if (solution != 0) {
      entry.graph = cast<KernelOp>(graph->clone());
      entry.matches = selection.matches;
    }
    applicable.push_back(std::move(entry));
    return applied;
  };
  FailureOr<SearchResult> result = topdown::search(kernel, matcher, options);
  if (failed(result))
    return failure();
  if (!result->limit.empty())
    kernel.emitWarning() << "--tcg-topdown-embed: the search stopped at its "
                         << result->limit
                         << " limit; the solution may not be the best";
  if (!result->best) {
    InFlightDiagnostic diag = kernel.emitError()
                              << "--tcg-topdown-embed: the search (config "
                              << static_cast<unsigned>(config) << ") found "
                              << result->solutions << " solution(s), none of "
                              << "which the typed attribute can hold";
    if (refused)
      diag.attachNote() << "the last refusal: " << lastReason;
    return failure();
  }
  // The applicable solutions ranked as the search ranks them (larger
  // applied coverage, Eq. 3.4, then fewer instructions; the first scored
  // wins a tie), so that solution=0 is the search's best.
  std::vector<unsigned> ranking(applicable.size());
  std::iota(ranking.begin(), ranking.end(), 0);
  llvm::stable_sort(ranking, [&](unsigned a, unsigned b) {
    const AppliedCover &x = applicable[a].score, &y = applicable[b].score;
    uint64_t lhs = uint64_t(x.covered) * y.total,
             rhs = uint64_t(y.covered) * x.total;
    return lhs != rhs ? lhs > rhs : x.instructions < y.instructions;
  });
  if (solution >= applicable.size())
    return kernel.emitError()
           << "--tcg-topdown-embed: solution="
           << static_cast<unsigned>(solution)
           << " is out of range: the search (config "
           << static_cast<unsigned>(config) << ") found " << applicable.size()
           << " applicable solution(s) (0 to " << applicable.size() - 1 << ")";
  Applicable &chosen = applicable[ranking[solution]];
  KernelOp graph = solution == 0 ? *result->bestGraph : *chosen.graph;
  ArrayRef<Match> chosenMatches =
      solution == 0 ? ArrayRef(result->best->selection.matches)
                    : ArrayRef(chosen.matches);
  FailureOr<LabelTree> tree = buildLabelTree(graph);
  if (failed(tree))
    return failure();
  std::string reason;
  FailureOr<PlannedSolution> plan =
      planSearched(lib, graph, *tree, chosenMatches, reason);
  if (failed(plan))
    return kernel.emitError() << "--tcg-topdown-embed: " << reason;
  // A fused solution (Fig. 3.12) is applied as its unfused statements.
  graph = plan->graph;
  SmallVector<Statement, 0> *statements = &plan->statements;
  SmallVector<KernelOp> kernels =
      splitStatements(kernel, graph, *statements);
  unsigned numEmbedded = llvm::count_if(
      *statements, [](const Statement &s) { return s.intrinsic.has_value(); });
  bool complete = result->limit.empty();
  for (auto [split, statement] : llvm::zip(kernels, *statements)) {
    if (!statement.intrinsic)
      continue;
    auto attr = EmbeddingAttr::get(
        context,
        StringAttr::get(context,
                        matcher.getIntrinsicName(*statement.intrinsic)),
        EmbeddingMode::TopDown, /*optimal=*/complete,
        {buildCandidateAttr(context, statement.embedding)},
        /*nodes=*/result->nodes, /*fails=*/refused,
        /*solutions=*/result->solutions, /*assets=*/numEmbedded,
        /*distinct=*/result->candidates, /*distinctComplete=*/complete,
        FloatAttr());
    split->setAttr(TCGDialect::kEmbeddingAttrName, attr);
  }
  // The coverage (Eq. 3.4) that ranked the solution, on the graph applied
  // (the unfused statements of a fused solution), and its rank among the
  // applicable solutions with their count, for reports.
  for (KernelOp split : kernels) {
    split->setAttr(
        kAppliedCoverageAttrName,
        DenseI64ArrayAttr::get(context, {int64_t(chosen.score.covered),
                                         int64_t(chosen.score.total)}));
    split->setAttr(
        kSolutionAttrName,
        DenseI64ArrayAttr::get(context, {int64_t(solution.getValue()),
                                         int64_t(applicable.size())}));
  }
  Value yielded = graph.getBodyBlock().getTerminator()->getOperand(0);
  for (auto [split, statement] : llvm::zip(kernels, *statements))
    if (statement.computation.getResult() == yielded)
      kernel.getResult().replaceAllUsesWith(split.getResult());
  kernel.erase();
  return success();
}

void TCGTopDownEmbedPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  // The user's library (intrinsics-file=path) is searched first, as by
  // --tcg-dataflow-embed.
  SmallVector<std::string> names(intrinsics.begin(), intrinsics.end());
  FailureOr<std::unique_ptr<IntrinsicSet>> loaded =
      loadIntrinsics(context, names, module.getLoc(), !ignoreElementTypes,
                     intrinsicsFile);
  if (failed(loaded))
    return signalPassFailure();
  const IntrinsicSet &lib = **loaded;
  const Matcher &matcher = lib.matcher;

  bool failedAny = false;
  if (search) {
    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      failedAny |= failed(embedSearched(kernel, lib));
    if (failedAny)
      signalPassFailure();
    return;
  }
  module.walk([&](KernelOp kernel) {
    auto computations = kernel.getBodyBlock().getOps<TensorOp>();
    if (std::distance(computations.begin(), computations.end()) != 1) {
      kernel.emitError("--tcg-topdown-embed: the typed result describes one "
                       "computation; this kernel holds a sequence (search=true "
                       "embeds each statement of a searched solution)");
      failedAny = true;
      return;
    }
    FailureOr<Computation> computation =
        analyzeComputation(kernel.getRootTensor());
    FailureOr<LabelTree> tree = buildLabelTree(kernel);
    if (failed(computation) || failed(tree)) {
      failedAny = true;
      return;
    }
    bool truncated = false;
    std::vector<Match> matches = matcher.matchAllMaskings(
        *tree, maxMaskings, truncated, selectiveMasking);
    if (truncated)
      kernel.emitWarning() << "--tcg-topdown-embed: stopped after "
                           << static_cast<unsigned>(maxMaskings) << " maskings";
    // Solutions of one instruction: its match covers every compute and
    // reduce node.
    std::vector<const Match *> solutions;
    for (const Match &m : matches) {
      bool all = true;
      for (auto [index, node] : llvm::enumerate(tree->nodes))
        if ((node.kind == LabelNode::Kind::Compute ||
             node.kind == LabelNode::Kind::Reduce) &&
            (index < m.root || index >= tree->subtreeEnd[m.root]))
          all = false;
      if (all)
        solutions.push_back(&m);
    }
    // Largest coverage first (Eq. 3.4); the library order breaks ties.
    llvm::stable_sort(solutions, [](const Match *a, const Match *b) {
      if (a->covered != b->covered)
        return a->covered > b->covered;
      return a->intrinsic < b->intrinsic;
    });
    SmallVector<std::string> refusals;
    std::optional<unsigned> chosen;
    SmallVector<EmbeddingCandidateAttr> candidates;
    for (const Match *m : solutions) {
      if (chosen && m->intrinsic != *chosen)
        continue;
      std::string reason;
      FailureOr<embed::Embedding> emb =
          buildCandidate(lib, *m, *tree, *computation, tree->nodes.size(),
                         /*withConstants=*/false, reason);
      if (failed(emb)) {
        if (!reason.empty())
          refusals.push_back(matcher.getIntrinsicName(m->intrinsic).str() +
                             ": " + reason);
        continue;
      }
      chosen = m->intrinsic;
      if (candidates.size() < maxCandidates)
        candidates.push_back(buildCandidateAttr(context, *emb));
    }
    if (!chosen) {
      InFlightDiagnostic diag = kernel.emitError();
      if (refusals.empty())
        diag << "--tcg-topdown-embed: no instruction covers every compute "
                "and reduce node ("
             << matches.size()
             << " candidate matches; search=true applies the "
                "transformations of the search)";
      else
        diag << "--tcg-topdown-embed: the typed attribute cannot hold any "
                "instruction that covers the kernel";
      for (const std::string &refusal : refusals)
        diag.attachNote() << refusal;
      failedAny = true;
      return;
    }
    unsigned numSolutions = llvm::count_if(
        solutions, [&](const Match *m) { return m->intrinsic == *chosen; });
    auto attr = EmbeddingAttr::get(
        context, StringAttr::get(context, matcher.getIntrinsicName(*chosen)),
        EmbeddingMode::TopDown, /*optimal=*/!truncated, candidates,
        /*nodes=*/tree->nodes.size(), /*fails=*/0, numSolutions,
        /*assets=*/1, /*distinct=*/matches.size(),
        /*distinctComplete=*/!truncated, FloatAttr());
    kernel->setAttr(TCGDialect::kEmbeddingAttrName, attr);
  });
  if (failedAny)
    signalPassFailure();
}

} // namespace
