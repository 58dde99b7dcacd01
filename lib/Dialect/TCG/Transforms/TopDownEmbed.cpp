//===- TopDownEmbed.cpp - --tcg-topdown-embed -----------------------------===//
//
// Attaches the result of the top-down matching (Rieber 2022, §3.2) to each
// kernel as a typed #tcg.embedding (mode `topdown`), the form the dataflow
// embedding uses, so --tcg-print-embeddings and --tcg-apply-strategy read
// it. This first version embeds single-computation kernels that one
// instruction covers completely (GEMM, dense, matrix-vector products): the
// search over transformations (Algs. 2, 3) is not implemented yet.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"
#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"
#include "raf/Dialect/TCG/TopDown/Matcher.h"
#include "raf/Dialect/TCG/Utils/Computation.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"
#include "raf/Embedding/DataflowEmbedding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGTOPDOWNEMBED
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf;
using namespace raf::tcg;
using namespace raf::tcg::topdown;

namespace {

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

SmallVector<Operation *> readOps(const Computation &computation) {
  SmallVector<Operation *> reads;
  for (Operation *op : computation.body)
    if (isa<InputOp>(op))
      reads.push_back(op);
  return reads;
}

struct TCGTopDownEmbedPass
    : public raf::tcg::impl::TCGTopDownEmbedBase<TCGTopDownEmbedPass> {
  using Base::Base;

  void runOnOperation() override;
};

/// The parsed intrinsic library and the label trees of the intrinsics the
/// matcher holds, in its order.
struct Library {
  // The modules the intrinsic kernels live in (the built-in library, the
  // user's file).
  SmallVector<OwningOpRef<ModuleOp>> modules;
  SmallVector<LabelTree> intrinsicTrees;
  SmallVector<KernelOp> intrinsicKernels;
};

/// The candidate for `match`, or failure with a reason why it has none.
FailureOr<embed::Embedding>
buildCandidate(const Library &lib, const Match &match, const LabelTree &tree,
               const Computation &computation, std::string &reason) {
  const SmallVector<LabelTree> &intrinsicTrees = lib.intrinsicTrees;
  const SmallVector<KernelOp> &intrinsicKernels = lib.intrinsicKernels;
  const LabelTree &itree = intrinsicTrees[match.intrinsic];
  KernelOp ikernel = intrinsicKernels[match.intrinsic];
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
  // the intrinsic's extent, padded up to a multiple (Eqs. 3.5, 3.6).
  SmallVector<int> iteratorOf;
  for (Operation *iop : iteratorOps(*icomputation)) {
    int64_t length = isa<TensorOp>(iop) ? cast<TensorOp>(iop).getExtent()
                                        : cast<ReduceOp>(iop).getExtent();
    Operation *mapped = c.ops.lookup(iop);
    auto it = llvm::find(opIterators, mapped);
    if (!mapped || it == opIterators.end()) {
      reason = "an intrinsic iterator has no operator iterator";
      return failure();
    }
    unsigned d = it - opIterators.begin();
    iteratorOf.push_back(d);
    emb.Iterators.push_back({{d, length, 1}});
    emb.Executed[d] = (emb.Extents[d] + length - 1) / length * length;
  }
  // Operands: intrinsic input i must be operator input i (the typed
  // attribute pairs operands by position).
  SmallVector<Operation *> iReads = readOps(*icomputation);
  SmallVector<Operation *> opReads = readOps(computation);
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
      if (it == c.dims.end()) {
        reason = "an intrinsic operand dimension has no operator dimension";
        return failure();
      }
      operand.Dims.push_back({{it->second, size, 1}});
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
    output.Dims.push_back({{d, icomputation->dims[p].getExtent(), 1}});
  }
  emb.Operands.push_back(std::move(output));

  emb.MacMin = emb.MacTotal = 1;
  for (auto [extent, executed] : llvm::zip(emb.Extents, emb.Executed)) {
    emb.MacMin *= extent;
    emb.MacTotal *= executed;
  }
  // The coverage cost (Eq. 3.4) as the nodes left uncovered; data moves
  // are not modelled by the top-down embedding.
  emb.Cost = tree.nodes.size() - match.covered;
  return emb;
}

void TCGTopDownEmbedPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  // The user's library (intrinsics-file=path) is searched first, as by
  // --tcg-dataflow-embed.
  SmallVector<std::string> names(intrinsics.begin(), intrinsics.end());
  if (names.empty()) {
    FailureOr<SmallVector<std::string>> all =
        getIntrinsicNames(context, intrinsicsFile, module.getLoc());
    if (failed(all))
      return signalPassFailure();
    names = std::move(*all);
  }
  Library lib;
  Matcher matcher;
  for (StringRef name : names) {
    FailureOr<KernelOp> found =
        lookupIntrinsicKernel(context, intrinsicsFile, name, module.getLoc(),
                              lib.modules.emplace_back());
    if (failed(found))
      return signalPassFailure();
    KernelOp kernel = *found;
    FailureOr<LabelTree> tree = buildLabelTree(kernel);
    if (failed(tree))
      return signalPassFailure();
    matcher.addIntrinsic(*tree);
    lib.intrinsicTrees.push_back(std::move(*tree));
    lib.intrinsicKernels.push_back(kernel);
  }
  matcher.finalize();
  matcher.setCheckElementTypes(!ignoreElementTypes);

  bool failedAny = false;
  module.walk([&](KernelOp kernel) {
    auto computations = kernel.getBodyBlock().getOps<TensorOp>();
    if (std::distance(computations.begin(), computations.end()) != 1) {
      kernel.emitError("--tcg-topdown-embed: the typed result describes one "
                       "computation; this kernel holds a sequence (see "
                       "--tcg-topdown-match for its selection)");
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
    std::vector<Match> matches =
        matcher.matchAllMaskings(*tree, maxMaskings, truncated);
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
          buildCandidate(lib, *m, *tree, *computation, reason);
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
             << " candidate matches; the transformations of the search are "
                "not applied yet)";
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
