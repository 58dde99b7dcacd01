//===- TopDownMatch.cpp - top-down matching and selection report ----------===//
//
// --tcg-topdown-match: Rieber 2022, §3.2 (label trees, Aho-Corasick matching
// with input masking, Alg. 1 selection) on every kernel, printed.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/TopDown/Matcher.h"
#include "raf/Dialect/TCG/TopDown/Search.h"
#include "raf/Dialect/TCG/TopDown/Transformations.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGTOPDOWNMATCH
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf::tcg;
using namespace raf::tcg::topdown;

namespace {

/// `tensor "n" (node 2)`, `reduce "k" (node 3)`, ...
void printNode(const LabelTree &tree, unsigned index, llvm::raw_ostream &os) {
  const LabelNode &node = tree.nodes[index];
  StringAttr name;
  if (auto tensor = dyn_cast_or_null<TensorOp>(node.op)) {
    os << "tensor";
    name = tensor.getIterNameAttr();
  } else if (auto reduce = dyn_cast_or_null<ReduceOp>(node.op)) {
    os << "reduce";
    name = reduce.getIterNameAttr();
  } else {
    os << node.label;
  }
  if (name)
    os << " \"" << name.getValue() << '"';
  os << " (node " << index << ')';
}

/// The masked inputs of a match: `a: 1, b: {0,3}` (source name: the number
/// of outer dimensions hidden, or the hidden dimensions of a selective
/// masking).
void printMasking(const LabelTree &tree, const Match &match,
                  llvm::raw_ostream &os) {
  bool first = true;
  for (auto [index, masked] : llvm::enumerate(match.masking)) {
    if (masked == 0)
      continue;
    os << (first ? ", masked " : ", ");
    first = false;
    auto input = cast<InputOp>(tree.nodes[index].op);
    auto kernel = input->getParentOfType<KernelOp>();
    if (auto argument = dyn_cast<BlockArgument>(input.getSource()))
      os << kernel.getArgName(argument.getArgNumber());
    else
      os << "input node " << index;
    // Outer dimensions: their count; a selective set: its dimensions.
    unsigned hidden = getNumHidden(masked);
    if (masked == (1u << hidden) - 1) {
      os << ": " << hidden;
      continue;
    }
    os << ": {";
    for (unsigned dim = 0, n = 0; dim < tree.nodes[index].rank; ++dim)
      if ((masked >> dim) & 1)
        os << (n++ ? "," : "") << dim;
    os << '}';
  }
}

struct TCGTopDownMatchPass
    : public raf::tcg::impl::TCGTopDownMatchBase<TCGTopDownMatchPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::string> names(intrinsics.begin(), intrinsics.end());
    FailureOr<std::unique_ptr<IntrinsicSet>> set = loadIntrinsics(
        &getContext(), names, module.getLoc(), !ignoreElementTypes,
        intrinsicsFile);
    if (failed(set))
      return signalPassFailure();
    const Matcher &matcher = (*set)->matcher;

    llvm::raw_ostream &os = llvm::outs();
    bool failedAny = false;
    if (config > 2) {
      module.emitError("--tcg-topdown-match: configuration ")
          << static_cast<unsigned>(config)
          << " of Tab. 3.4 enumerates fusion and inlining combinations "
             "(Alg. 3), many graphs: use --tcg-topdown-search=config="
          << static_cast<unsigned>(config) << " (this pass takes 0, 1 or 2)";
      return signalPassFailure();
    }
    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp original : kernels) {
      // Configurations 1 and 2 (Tab. 3.4) transform a detached copy: the
      // canonical operand order (Tab. 3.2), then full fission (Alg. 2).
      KernelOp kernel = original;
      OwningOpRef<KernelOp> copy;
      if (config >= 1) {
        copy = cast<KernelOp>(original->clone());
        kernel = *copy;
        kernel.walk([](ComputeOp op) { canonicalizeOperands(op); });
        if (config >= 2)
          fullFission(kernel);
      }
      FailureOr<LabelTree> tree = buildLabelTree(kernel);
      if (failed(tree)) {
        failedAny = true;
        continue;
      }
      bool truncated = false;
      std::vector<Match> matches =
          matcher.matchAllMaskings(*tree, maxMaskings, truncated);
      if (truncated)
        kernel.emitWarning()
            << "stopped after " << static_cast<unsigned>(maxMaskings)
            << " maskings; matches under the others are "
               "missing";
      unsigned algebraic = 0;
      for (const LabelNode &node : tree->nodes)
        if (node.kind == LabelNode::Kind::Compute ||
            node.kind == LabelNode::Kind::Reduce)
          ++algebraic;
      os << "topdown " << tree->name << ": " << tree->nodes.size() << " nodes, "
         << algebraic << " algebraic, " << matches.size() << " candidates\n";
      if (printPaths)
        for (unsigned computation : tree->nodes[0].children)
          for (const std::vector<std::string> &path :
               tree->getPaths(computation)) {
            os << "  path";
            for (const std::string &token : path)
              os << ' ' << token;
            os << '\n';
          }
      for (const Match &m : matches) {
        os << "  candidate " << matcher.getIntrinsicName(m.intrinsic) << " at ";
        printNode(*tree, m.root, os);
        printMasking(*tree, m, os);
        os << "; covers " << m.covered << '\n';
      }
      Selection selection = select(*tree, matches);
      os << "  selection: covers " << selection.covered << " of "
         << selection.total << " nodes, algebraic "
         << selection.algebraicCovered << " of " << selection.algebraicTotal
         << (selection.isSolution() ? ": solution" : ": no solution") << '\n';
      for (const Match &m : selection.matches) {
        os << "    " << matcher.getIntrinsicName(m.intrinsic) << " at ";
        printNode(*tree, m.root, os);
        printMasking(*tree, m, os);
        os << '\n';
      }
    }
    os.flush();
    if (failedAny)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
