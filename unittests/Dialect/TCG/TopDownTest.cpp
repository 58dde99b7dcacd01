//===- TopDownTest.cpp - top-down embedding: unfused solutions ------------===//
//
// raf::tcg::topdown::rematchUnfused, which --tcg-topdown-embed=search=true
// uses to apply a solution of a fused graph (Rieber 2022, Fig. 3.12) as its
// unfused statements: the refusals no searched solution of the lit tests
// reaches (a match that does not hold on the split graph, a split graph too
// large for a label tree), and a match that carries over.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/TopDown/Search.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/TopDown/Matcher.h"
#include "raf/Dialect/TCG/TopDown/Transformations.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace raf;
using namespace raf::tcg;
using namespace raf::tcg::topdown;

namespace {

/// A fused body (Fig. 3.12): the local row t = exp(n[x, :]) and the
/// yielded row y = t + n[x, :], both inside the nest over x.
constexpr const char *kFused = R"mlir(
func.func @k(%nin: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = tcg.kernel "k" (%n = %nin : tensor<4x16xf32>) -> tensor<4x16xf32> attributes {arg_names = ["n"]} {
    %u = tcg.tensor %x in [0, 4) name "x" -> tensor<4x16xf32> {
      %t = tcg.tensor %y in [0, 16) name "yt" -> tensor<16xf32> {
        %v = tcg.input %n[%x, %y] : tensor<4x16xf32>
        %e = tcg.compute exp %v : (f32) -> f32
        tcg.yield %e : f32
      }
      %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
        %a = tcg.input %t[%y] : tensor<16xf32>
        %b = tcg.input %n[%x, %y] : tensor<4x16xf32>
        %q = tcg.compute add %a, %b : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      tcg.yield %0 : tensor<16xf32>
    }
    tcg.yield %u : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}
)mlir";

class TopDownTest : public ::testing::Test {
protected:
  TopDownTest() {
    context.loadDialect<TCGDialect, func::FuncDialect>();
    FailureOr<std::unique_ptr<IntrinsicSet>> loaded = loadIntrinsics(
        &context, {"vv.exp.16", "vv.add.16"}, UnknownLoc::get(&context));
    EXPECT_TRUE(succeeded(loaded));
    if (succeeded(loaded))
      lib = std::move(*loaded);
  }

  KernelOp parseKernel(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    KernelOp kernel;
    if (module)
      module->walk([&](KernelOp k) { kernel = k; });
    return kernel;
  }

  /// The index of the node of the tensor named `name`.
  static unsigned tensorNode(const LabelTree &tree, StringRef name) {
    for (auto [index, node] : llvm::enumerate(tree.nodes))
      if (auto tensor = dyn_cast_or_null<TensorOp>(node.op))
        if (tensor.getIterName() == name)
          return index;
    return 0;
  }

  unsigned intrinsicIndex(StringRef name) const {
    for (unsigned i = 0, e = lib->matcher.getNumIntrinsics(); i != e; ++i)
      if (lib->matcher.getIntrinsicName(i) == name)
        return i;
    return ~0u;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<IntrinsicSet> lib;
};

TEST_F(TopDownTest, MatchCarriesOver) {
  ASSERT_TRUE(lib);
  KernelOp kernel = parseKernel(kFused);
  ASSERT_TRUE(kernel);
  FailureOr<LabelTree> tree = buildLabelTree(kernel);
  ASSERT_TRUE(succeeded(tree));
  // vv.exp.16 on the local row, found by the matcher on the fused tree.
  unsigned row = tensorNode(*tree, "yt");
  unsigned computation = row;
  while (tree->nodes[computation].parent > 0)
    computation = tree->nodes[computation].parent;
  // The read n[x, y] with its outer dimension (x, defined above the row)
  // masked.
  Masking masking(tree->nodes.size(), 0);
  for (auto [index, node] : llvm::enumerate(tree->nodes))
    if (node.kind == LabelNode::Kind::Input && node.rank == 2)
      masking[index] = 1;
  std::vector<Match> found = lib->matcher.match(*tree, masking, computation);
  std::vector<Match> matches;
  for (const Match &m : found)
    if (m.root == row && m.intrinsic == intrinsicIndex("vv.exp.16"))
      matches.push_back(m);
  ASSERT_EQ(matches.size(), 1u);

  OwningOpRef<KernelOp> unfused;
  LabelTree unfusedTree;
  std::vector<Match> unfusedMatches;
  std::string reason;
  ASSERT_TRUE(
      succeeded(rematchUnfused(lib->matcher, kernel, *tree, matches, unfused,
                               unfusedTree, unfusedMatches, reason)))
      << reason;
  ASSERT_EQ(unfusedMatches.size(), 1u);
  EXPECT_EQ(unfusedMatches.front().intrinsic, intrinsicIndex("vv.exp.16"));
  EXPECT_EQ(unfusedMatches.front().root, tensorNode(unfusedTree, "yt"));
  // The split copy has no fused body; the kernel is unchanged.
  EXPECT_FALSE(hasFusedBody(*unfused));
  EXPECT_TRUE(hasFusedBody(kernel));
}

TEST_F(TopDownTest, MatchThatDoesNotHoldIsRefused) {
  ASSERT_TRUE(lib);
  KernelOp kernel = parseKernel(kFused);
  ASSERT_TRUE(kernel);
  FailureOr<LabelTree> tree = buildLabelTree(kernel);
  ASSERT_TRUE(succeeded(tree));
  // vv.add.16 claimed at the exp row, which it does not match.
  Match bogus;
  bogus.intrinsic = intrinsicIndex("vv.add.16");
  bogus.root = tensorNode(*tree, "yt");
  bogus.masking.assign(tree->nodes.size(), 0);
  OwningOpRef<KernelOp> unfused;
  LabelTree unfusedTree;
  std::vector<Match> unfusedMatches;
  std::string reason;
  EXPECT_TRUE(
      failed(rematchUnfused(lib->matcher, kernel, *tree, {bogus}, unfused,
                            unfusedTree, unfusedMatches, reason)));
  EXPECT_EQ(reason,
            "the match of vv.add.16 does not hold on the unfused statements");
}

TEST_F(TopDownTest, SplitGraphWithoutLabelTreeIsRefused) {
  ASSERT_TRUE(lib);
  // A fused body whose local row sums 2600 reads: split, the label tree
  // exceeds the matcher's limit of 10000 nodes.
  std::string source =
      "func.func @big(%nin: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
      "  %r = tcg.kernel \"big\" (%n = %nin : tensor<2x2xf32>) -> "
      "tensor<2x2xf32> attributes {arg_names = [\"n\"]} {\n"
      "    %u = tcg.tensor %x in [0, 2) name \"x\" -> tensor<2x2xf32> {\n"
      "      %t = tcg.tensor %y in [0, 2) name \"yt\" -> tensor<2xf32> {\n"
      "        %s0 = tcg.input %n[%x, %y] : tensor<2x2xf32>\n";
  for (int i = 1; i != 2600; ++i)
    source += "        %v" + std::to_string(i) +
              " = tcg.input %n[%x, %y] : tensor<2x2xf32>\n" + "        %s" +
              std::to_string(i) + " = tcg.compute add %s" +
              std::to_string(i - 1) + ", %v" + std::to_string(i) +
              " : (f32, f32) -> f32\n";
  source += "        tcg.yield %s2599 : f32\n"
            "      }\n"
            "      %0 = tcg.tensor %y in [0, 2) name \"y\" -> tensor<2xf32> {\n"
            "        %a = tcg.input %t[%y] : tensor<2xf32>\n"
            "        tcg.yield %a : f32\n"
            "      }\n"
            "      tcg.yield %0 : tensor<2xf32>\n"
            "    }\n"
            "    tcg.yield %u : tensor<2x2xf32>\n"
            "  }\n"
            "  return %r : tensor<2x2xf32>\n"
            "}\n";
  KernelOp kernel = parseKernel(source);
  ASSERT_TRUE(kernel);
  OwningOpRef<KernelOp> unfused;
  LabelTree unfusedTree;
  std::vector<Match> unfusedMatches;
  std::string reason;
  EXPECT_TRUE(
      failed(rematchUnfused(lib->matcher, kernel, LabelTree(), {}, unfused,
                            unfusedTree, unfusedMatches, reason)));
  EXPECT_EQ(reason, "the unfused graph has no label tree");
}

} // namespace
