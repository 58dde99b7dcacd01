//===- DataflowEmbeddingTest.cpp - Dataflow graph and embedding tests -----===//

#include "raf/Embedding/DataflowEmbedding.h"
#include "raf/Embedding/DataflowGraph.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace raf::embed;
using mlir::AffineExpr;

namespace {

class EmbeddingTest : public ::testing::Test {
protected:
  mlir::MLIRContext Ctx;
  AffineExpr d(unsigned I) { return mlir::getAffineDimExpr(I, &Ctx); }
  mlir::AffineMap map(unsigned NumDims, llvm::ArrayRef<AffineExpr> Results) {
    return mlir::AffineMap::get(NumDims, 0, Results, &Ctx);
  }
  Operand operand(llvm::StringRef Name, llvm::ArrayRef<int64_t> Shape,
                  mlir::AffineMap Access) {
    Operand O;
    O.Name = Name.str();
    O.Shape.assign(Shape.begin(), Shape.end());
    O.ElementType = mlir::IntegerType::get(&Ctx, 8);
    O.Access = Access;
    return O;
  }
  /// c[x, y] = sum_z a[x, z] * b[y, z].
  TensorExpression gemm(int64_t X, int64_t Y, int64_t Z) {
    TensorExpression E;
    E.Name = "gemm";
    E.Iterators = {
        {"x", X, false, ""}, {"y", Y, false, ""}, {"z", Z, true, ""}};
    E.Inputs = {operand("a", {X, Z}, map(3, {d(0), d(2)})),
                operand("b", {Y, Z}, map(3, {d(1), d(2)}))};
    E.Output = operand("c", {X, Y}, map(3, {d(0), d(1)}));
    E.Body = {{true, 0}, {true, 1}, {false, 0, ScalarOp::Mul, 0, 1}};
    E.Reduction = ScalarOp::Add;
    return E;
  }
  /// NCHW / OIHW convolution.
  TensorExpression conv(int64_t N, int64_t IC, int64_t H, int64_t W, int64_t OC,
                        int64_t KH, int64_t KW, int64_t Stride, int64_t Pad,
                        int64_t Dil) {
    int64_t OH = (H + 2 * Pad - Dil * (KH - 1) - 1) / Stride + 1;
    int64_t OW = (W + 2 * Pad - Dil * (KW - 1) - 1) / Stride + 1;
    TensorExpression E;
    E.Name = "conv2d";
    E.Iterators = {{"n", N, false, "x"},  {"oc", OC, false, "y"},
                   {"oh", OH, false, ""}, {"ow", OW, false, ""},
                   {"ic", IC, true, "z"}, {"kh", KH, true, ""},
                   {"kw", KW, true, ""}};
    Operand Data = operand("data", {N, IC, H, W},
                           map(7, {d(0), d(4), d(2) * Stride + d(5) * Dil,
                                   d(3) * Stride + d(6) * Dil}));
    Data.PadLow = {0, 0, Pad, Pad};
    Data.PadHigh = {0, 0, Pad, Pad};
    E.Inputs = {Data, operand("weight", {OC, IC, KH, KW},
                              map(7, {d(1), d(4), d(5), d(6)}))};
    E.Output =
        operand("out", {N, OC, OH, OW}, map(7, {d(0), d(1), d(2), d(3)}));
    E.Body = {{true, 0}, {true, 1}, {false, 0, ScalarOp::Mul, 0, 1}};
    E.Reduction = ScalarOp::Add;
    return E;
  }
  DataflowGraph graph(const TensorExpression &E, PaddingOptions Pad = {}) {
    auto G = buildDataflowGraph(E, Pad);
    if (!G) {
      ADD_FAILURE() << llvm::toString(G.takeError());
      return DataflowGraph();
    }
    return std::move(*G);
  }
  static std::string show(const Embedding &E) {
    std::string S;
    for (const AxisMappings &A : E.Iterators) {
      S += "[";
      for (const AxisMapping &M : A)
        S += "(" + std::to_string(M.Dim) + "," + std::to_string(M.Length) +
             "," + std::to_string(M.Stride) + ")";
      S += "]";
    }
    return S;
  }
};

TEST_F(EmbeddingTest, GraphOfMatmul) {
  DataflowGraph G = graph(gemm(1, 16, 16));
  std::string Text = G.describe();
  EXPECT_NE(Text.find("node S0 (mul)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("node S1 (add, reduction)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("reduction S1 -> S1"), std::string::npos) << Text;
  // The read S0 -> a: instance (x, y, z) reads a[x, z].
  unsigned ReadA = 0;
  while (G.Edges[ReadA].K != DepEdge::Kind::Read ||
         G.Edges[ReadA].Dst != G.getInputNode(0))
    ++ReadA;
  EXPECT_TRUE(G.Oracle->inRelation(ReadA, {0, 3, 5}, {0, 5}));
  EXPECT_FALSE(G.Oracle->inRelation(ReadA, {0, 3, 5}, {0, 3}));
  // Same row of the GEMM: identical a-rows, disjoint b-rows.
  EXPECT_EQ(G.Oracle->compareAccessSets(0, {0, 0}, {0, 1}),
            DataflowOracle::Overlap::Full);
  EXPECT_EQ(G.Oracle->compareAccessSets(1, {0, 0}, {0, 1}),
            DataflowOracle::Overlap::None);
}

TEST_F(EmbeddingTest, TranslationAgreesWithIsl) {
  // Access-set comparisons by translation and by isl set operations agree
  // on every pair of outputs of small strided and dilated convolutions.
  unsigned Checked = 0, Kinds[3] = {0, 0, 0};
  for (auto [Stride, Dil] :
       {std::pair<int64_t, int64_t>{1, 1}, {2, 1}, {1, 2}, {3, 2}}) {
    TensorExpression C = conv(1, 2, 9, 9, 2, 3, 3, Stride, 1, Dil);
    DataflowGraph G = graph(C);
    const DepNode &Out = G.Nodes[G.getOutputNode()];
    for (int64_t A = 0; A < Out.Extents[3]; ++A)
      for (int64_t B = 0; B < Out.Extents[3]; ++B)
        for (int64_t H = 0; H < std::min<int64_t>(Out.Extents[2], 2); ++H)
          for (unsigned Input = 0; Input != 2; ++Input) {
            llvm::SmallVector<int64_t> OA{0, 0, 0, A}, OB{0, 1, H, B};
            G.Oracle->setIslOnly(false);
            auto Fast = G.Oracle->compareAccessSets(Input, OA, OB);
            G.Oracle->setIslOnly(true);
            auto Exact = G.Oracle->compareAccessSets(Input, OA, OB);
            EXPECT_EQ(Fast, Exact) << "stride " << Stride << " dilation " << Dil
                                   << " ow " << A << " / " << B;
            ++Checked;
            ++Kinds[static_cast<int>(Exact)];
          }
  }
  EXPECT_GT(Checked, 0u);
  // Every kind of relation occurs, so the comparison can fail.
  EXPECT_GT(Kinds[0] * Kinds[1] * Kinds[2], 0u);
}

TEST_F(EmbeddingTest, StrictConvIsTVMMapping) {
  DataflowGraph In = graph(gemm(1, 16, 16));
  TensorExpression C = conv(1, 32, 14, 14, 64, 3, 3, 1, 1, 1);
  DataflowGraph Op =
      graph(C, choosePadding(C, In.Expr, EmbeddingOptions::Mode::Strict));
  EmbeddingOptions O;
  O.SearchMode = EmbeddingOptions::Mode::Strict;
  O.VerifyWithIsl = true;
  EmbeddingResult R = embedIntrinsic(Op, In, O);
  ASSERT_EQ(R.S, EmbeddingResult::Status::Found) << R.Message;
  // x -> n (1), y -> oc (16), z -> ic (16).
  EXPECT_EQ(show(R.Candidates[0]), "[][(1,16,1)][(4,16,1)]");
  EXPECT_EQ(R.Candidates[0].MacTotal, R.Candidates[0].MacMin);
}

TEST_F(EmbeddingTest, RelaxedLowChannelConvAvoidsChannelPadding) {
  DataflowGraph In = graph(gemm(1, 16, 16));
  TensorExpression C = conv(1, 1, 40, 30, 32, 5, 20, 2, 0, 1);
  DataflowGraph Op =
      graph(C, choosePadding(C, In.Expr, EmbeddingOptions::Mode::Relaxed));
  EmbeddingOptions O;
  // Every edge of every candidate checked against the isl relations.
  O.VerifyWithIsl = true;
  EmbeddingResult R = embedIntrinsic(Op, In, O);
  ASSERT_EQ(R.S, EmbeddingResult::Status::Found) << R.Message;
  EXPECT_TRUE(R.ProvedOptimal);
  // y -> oc; z -> kw (8) fused with kh (2), in either order: no channel
  // padding, and cheaper than z -> kw alone (20 = 16 + 4 wastes more).
  std::string Best = show(R.Candidates[0]);
  EXPECT_TRUE(Best == "[][(1,16,1)][(6,8,1)(5,2,1)]" ||
              Best == "[][(1,16,1)][(5,2,1)(6,8,1)]")
      << Best;
  ASSERT_GE(R.Candidates.size(), 2u);
  for (unsigned I = 1; I < R.Candidates.size(); ++I)
    EXPECT_LE(R.Candidates[I - 1].Cost, R.Candidates[I].Cost);
  // Padding the single input channel to 16 is a candidate only in strict
  // mode; here every candidate keeps ic unmapped.
  for (const Embedding &E : R.Candidates)
    for (const AxisMapping &M : E.Iterators[2])
      EXPECT_NE(M.Dim, 4u);
}

TEST_F(EmbeddingTest, MismatchedDataflowIsNamed) {
  // An element-wise sum has no multiplication to match the GEMM's.
  TensorExpression Add;
  Add.Name = "add";
  Add.Iterators = {{"i", 32, false, ""}};
  Add.Inputs = {operand("p", {32}, map(1, {d(0)})),
                operand("q", {32}, map(1, {d(0)}))};
  Add.Output = operand("r", {32}, map(1, {d(0)}));
  Add.Body = {{true, 0}, {true, 1}, {false, 0, ScalarOp::Add, 0, 1}};
  DataflowGraph Op = graph(Add);
  DataflowGraph In = graph(gemm(1, 16, 16));
  EmbeddingResult R = embedIntrinsic(Op, In, EmbeddingOptions());
  EXPECT_EQ(R.S, EmbeddingResult::Status::Infeasible);
  EXPECT_NE(R.Message.find("does not match the intrinsic"), std::string::npos)
      << R.Message;
}

TEST_F(EmbeddingTest, StrictNeedsTaggedAxes) {
  TensorExpression C = conv(1, 16, 8, 8, 16, 3, 3, 1, 1, 1);
  for (Iterator &It : C.Iterators)
    It.StrictAxis.clear();
  DataflowGraph Op = graph(C);
  DataflowGraph In = graph(gemm(1, 16, 16));
  EmbeddingOptions O;
  O.SearchMode = EmbeddingOptions::Mode::Strict;
  EmbeddingResult R = embedIntrinsic(Op, In, O);
  EXPECT_EQ(R.S, EmbeddingResult::Status::Infeasible);
  EXPECT_NE(R.Message.find("no operator iterator is tagged"), std::string::npos)
      << R.Message;
}

TEST_F(EmbeddingTest, ScrambledAccessHasNoEmbedding) {
  // a is read in a scrambled order (5 k mod 16): the GEMM's dataflow fits,
  // but a's elements never form a regular rectangle, and without that
  // constraint no mapping can be described by (axis, length, stride) lists
  // either; the re-solves that would name a single culprit find nothing.
  TensorExpression E = gemm(1, 16, 16);
  E.Inputs[0].Access = map(3, {d(0), (d(2) * 5) % 16});
  DataflowGraph Op = graph(E);
  DataflowGraph In = graph(gemm(1, 16, 16));
  EmbeddingResult R = embedIntrinsic(Op, In, EmbeddingOptions());
  EXPECT_EQ(R.S, EmbeddingResult::Status::Infeasible);
  EXPECT_EQ(R.Message.rfind("no embedding satisfies the constraints", 0), 0u)
      << R.Message;
}

TEST_F(EmbeddingTest, TooShortReductionIsInfeasible) {
  // Without padding, a reduction over 3 elements cannot hold the GEMM's 16.
  DataflowGraph Op = graph(gemm(4, 32, 3));
  DataflowGraph In = graph(gemm(1, 16, 16));
  EmbeddingOptions O;
  O.TimeoutMs = 5000;
  EmbeddingResult R = embedIntrinsic(Op, In, O);
  EXPECT_EQ(R.S, EmbeddingResult::Status::Infeasible);
  EXPECT_NE(R.Message.find("the hyper-rectangle constraint fails: the "
                           "intrinsic's reduction axis 'z' covers 16 points, "
                           "but the operator's reduction iterators (z 3) "
                           "offer at most 3"),
            std::string::npos)
      << R.Message;
}

} // namespace
