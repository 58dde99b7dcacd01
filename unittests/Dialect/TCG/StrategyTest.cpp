//===- StrategyTest.cpp - deployment strategies from embeddings -----------===//
//
// raf::tcg::deriveStrategy and replayLayout: for operators with tilings of
// every kind (padding, residues, fused axes, stencils through views, image
// packing, the fallback gather), the rewrites replayed on element positions
// must put, at every point the packed kernel reads, the element the
// original operator reads at the corresponding iteration point (and a zero
// where a reduction is padded). Also the errors only C++ callers can reach.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Strategy.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace raf;

namespace {

/// The value of an access expression at a point, by MLIR's own constant
/// folding (independent of the evaluator the strategy code uses).
int64_t evaluate(AffineExpr expr, ArrayRef<int64_t> dims) {
  return AffineMap::get(dims.size(), 0, expr).compose(dims).front();
}

/// Flat index of the stored element `operand` reads at `point`, or -1 in
/// the padding or holes of its view.
int64_t storedElement(const embed::Operand &operand, ArrayRef<int64_t> point) {
  int64_t flat = 0;
  for (auto [k, expr] : llvm::enumerate(operand.Access.getResults())) {
    int64_t p = evaluate(expr, point) -
                (operand.PadLow.empty() ? 0 : operand.PadLow[k]);
    int64_t dil = operand.Dilation.empty() ? 1 : operand.Dilation[k];
    if (p < 0 || p % dil != 0 || p / dil >= operand.Shape[k])
      return -1;
    flat = flat * operand.Shape[k] + p / dil;
  }
  return flat;
}

class StrategyTest : public ::testing::Test {
protected:
  StrategyTest() { context.loadDialect<tcg::TCGDialect, func::FuncDialect>(); }

  /// The expression of the only kernel in `source`.
  embed::TensorExpression parseKernel(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    tcg::KernelOp kernel;
    module->walk([&](tcg::KernelOp k) { kernel = k; });
    FailureOr<embed::TensorExpression> expr = tcg::extractTensorExpr(kernel);
    EXPECT_TRUE(succeeded(expr));
    return *expr;
  }

  embed::TensorExpression intrinsic(StringRef name) {
    FailureOr<embed::TensorExpression> expr =
        tcg::lookupIntrinsic(&context, name);
    EXPECT_TRUE(succeeded(expr));
    return *expr;
  }

  /// An embedding from per-axis [(iterator, length, stride)], innermost
  /// first (the only part deriveStrategy reads).
  static embed::Embedding
  mapping(ArrayRef<SmallVector<embed::AxisMapping, 2>> axes) {
    embed::Embedding emb;
    for (const auto &axis : axes)
      emb.Iterators.push_back(embed::AxisMappings(axis));
    return emb;
  }

  /// Derives the strategy and checks it point by point (see the file
  /// comment); returns it for further checks.
  tcg::Strategy check(const embed::TensorExpression &op,
                      const embed::TensorExpression &intr,
                      const embed::Embedding &emb) {
    tcg::Strategy strategy;
    std::string error;
    EXPECT_TRUE(tcg::deriveStrategy(op, intr, emb, strategy, error)) << error;
    const embed::TensorExpression &packed = strategy.packed;
    std::string invalid;
    EXPECT_TRUE(packed.verify(invalid)) << invalid;

    // Per input: the position map of its rewrites.
    std::vector<std::vector<int64_t>> positions;
    for (auto [i, input] : llvm::enumerate(op.Inputs)) {
      const tcg::OperandStrategy &s = strategy.operands[i];
      positions.push_back(tcg::replayLayout(s.rewrites, input.Shape));
      EXPECT_EQ(positions.back().size(),
                static_cast<size_t>(llvm::product_of(packed.Inputs[i].Shape)));
    }
    // The lane each intrinsic index gives an iterator of its axis.
    unsigned numIters = op.Iterators.size();
    SmallVector<int, 3> axisIterator(intr.Iterators.size(), -1);
    for (auto [p, it] : llvm::enumerate(packed.Iterators))
      for (auto [q, axis] : llvm::enumerate(intr.Iterators))
        if (it.Name == axis.Name && !it.StrictAxis.empty())
          axisIterator[q] = p;
    SmallVector<int64_t> point(packed.Iterators.size(), 0);
    SmallVector<int64_t> original(numIters);
    uint64_t checked = 0;
    while (true) {
      bool inside = true, reductionPadded = false;
      for (unsigned d = 0; d != numIters; ++d) {
        const tcg::IteratorTiling &t = strategy.tiling[d];
        int64_t v = point[t.outer];
        if (t.axis >= 0) {
          int64_t index = point[axisIterator[t.axis]], inner = 1;
          for (unsigned e = 0; e != numIters; ++e)
            if (strategy.tiling[e].axis == t.axis &&
                strategy.tiling[e].position < t.position)
              inner *= strategy.tiling[e].length;
          int64_t lane = (index / inner) % t.length;
          v = v * t.length * t.stride + lane * t.stride +
              (t.residue >= 0 ? point[t.residue] : 0);
        }
        original[d] = v;
        if (v >= op.Iterators[d].Extent) {
          inside = false;
          reductionPadded |= op.Iterators[d].IsReduction;
        }
      }
      bool anyZero = false;
      for (auto [i, input] : llvm::enumerate(op.Inputs)) {
        const embed::Operand &p = packed.Inputs[i];
        int64_t flat = 0;
        for (auto [k, expr] : llvm::enumerate(p.Access.getResults()))
          flat = flat * p.Shape[k] + evaluate(expr, point);
        int64_t holds = positions[i][flat];
        anyZero |= holds < 0;
        if (inside) {
          EXPECT_EQ(holds, storedElement(input, original))
              << "input " << input.Name;
          ++checked;
        }
      }
      // A padded reduction point of a kept output must multiply by a zero.
      if (!inside && reductionPadded) {
        bool parallelPadded = false;
        for (unsigned d = 0; d != numIters; ++d)
          parallelPadded |= !op.Iterators[d].IsReduction &&
                            original[d] >= op.Iterators[d].Extent;
        if (!parallelPadded) {
          EXPECT_TRUE(anyZero) << "a padded reduction point reads data";
        }
      }
      int k = point.size() - 1;
      while (k >= 0 && ++point[k] == packed.Iterators[k].Extent)
        point[k--] = 0;
      if (k < 0)
        break;
    }
    EXPECT_GT(checked, 0u);
    return strategy;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

constexpr StringLiteral kConv = R"mlir(
func.func @conv(%x: tensor<1x3x9x9xi8>, %w: tensor<20x3x3x3xi8>) -> tensor<1x20x5x5xi32> {
  %r = tcg.kernel "conv" (%data = %x : tensor<1x3x9x9xi8>, %weight = %w : tensor<20x3x3x3xi8>) -> tensor<1x20x5x5xi32>
      attributes {arg_names = ["data", "weight"], result_name = "out"} {
    %0 = tcg.tensor %n in [0, 1) name "n" -> tensor<1x20x5x5xi32> {
      %1 = tcg.tensor %oc in [0, 20) name "oc" -> tensor<20x5x5xi32> {
        %2 = tcg.tensor %oh in [0, 5) name "oh" -> tensor<5x5xi32> {
          %3 = tcg.tensor %ow in [0, 5) name "ow" -> tensor<5xi32> {
            %4 = tcg.reduce add %ic in [0, 3) name "ic" -> i32 {
              %5 = tcg.reduce add %kh in [0, 3) name "kh" -> i32 {
                %6 = tcg.reduce add %kw in [0, 3) name "kw" -> i32 {
                  %7 = tcg.input %data[%n, %ic, %oh * 2 + %kh, %ow * 2 + %kw] pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1] : tensor<1x3x9x9xi8>
                  %8 = tcg.input %weight[%oc, %ic, %kh, %kw] : tensor<20x3x3x3xi8>
                  %9 = tcg.compute mul %7, %8 : (i8, i8) -> i32
                  tcg.yield %9 : i32
                }
                tcg.yield %6 : i32
              }
              tcg.yield %5 : i32
            }
            tcg.yield %4 : i32
          }
          tcg.yield %3 : tensor<5xi32>
        }
        tcg.yield %2 : tensor<5x5xi32>
      }
      tcg.yield %1 : tensor<20x5x5xi32>
    }
    tcg.yield %0 : tensor<1x20x5x5xi32>
  }
  return %r : tensor<1x20x5x5xi32>
}
)mlir";

// Iterators of kConv: n 0, oc 1, oh 2, ow 3, ic 4, kh 5, kw 6.

TEST_F(StrategyTest, PadSplitAndTVMPacking) {
  embed::TensorExpression op = parseKernel(kConv);
  tcg::Strategy s = check(op, intrinsic("vta.gemm.1x16x16"),
                          mapping({{}, {{1, 16, 1}}, {{4, 16, 1}}}));
  EXPECT_EQ(s.tiling[1].tiles, 2);
  EXPECT_EQ(s.tiling[4].getPaddedExtent(), 16);
  // NCHW1n16c data after the view: (1, 1, 11, 11, 1, 16).
  EXPECT_EQ(s.packed.Inputs[0].Shape,
            (SmallVector<int64_t>{1, 1, 11, 11, 1, 16}));
  EXPECT_EQ(s.packed.Inputs[1].Shape,
            (SmallVector<int64_t>{2, 1, 3, 3, 16, 16}));
  EXPECT_FALSE(s.operands[0].usesFallback());
}

TEST_F(StrategyTest, ResidueAndFusedStencil) {
  // oc with stride 2; z covers kw 2 (innermost), kh 2 and ic 4.
  embed::TensorExpression op = parseKernel(kConv);
  tcg::Strategy s =
      check(op, intrinsic("vta.gemm.1x16x16"),
            mapping({{}, {{1, 16, 2}}, {{6, 2, 1}, {5, 2, 1}, {4, 4, 1}}}));
  EXPECT_GE(s.tiling[1].residue, 0);
  EXPECT_EQ(s.operands[0].rewrites[1].rule, tcg::StrategyRule::StencilUnroll);
}

TEST_F(StrategyTest, ImagePackAndDilatePack) {
  // 8x8x8: x covers 2 output columns 4 apart, whose 3-column windows (at
  // data stride 2) do not overlap (image pack), and 4 adjacent output rows,
  // whose windows overlap with rows 2 apart (dilate pack).
  embed::TensorExpression op = parseKernel(kConv);
  tcg::Strategy s =
      check(op, intrinsic("vta.gemm.8x8x8"),
            mapping({{{3, 2, 4}, {2, 4, 1}}, {{1, 8, 1}}, {{4, 8, 1}}}));
  SmallVector<tcg::StrategyRule> rules;
  for (const tcg::LayoutRewrite &r : s.operands[0].rewrites)
    rules.push_back(r.rule);
  EXPECT_TRUE(llvm::is_contained(rules, tcg::StrategyRule::ImagePack));
  EXPECT_TRUE(llvm::is_contained(rules, tcg::StrategyRule::DilatePack));
}

TEST_F(StrategyTest, FallbackGather) {
  // A quasi-affine index of a mapped iterator: the gather.
  embed::TensorExpression op = parseKernel(R"mlir(
func.func @f(%x: tensor<4x5xi8>, %w: tensor<20x18xi8>) -> tensor<20xi32> {
  %r = tcg.kernel "f" (%a = %x : tensor<4x5xi8>, %b = %w : tensor<20x18xi8>) -> tensor<20xi32>
      attributes {arg_names = ["a", "b"], result_name = "out"} {
    %0 = tcg.tensor %n in [0, 20) name "n" -> tensor<20xi32> {
      %1 = tcg.reduce add %k in [0, 18) name "k" -> i32 {
        %2 = tcg.input %a[%k floordiv 5, %k mod 5] : tensor<4x5xi8>
        %3 = tcg.input %b[%n, %k] : tensor<20x18xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<20xi32>
  }
  return %r : tensor<20xi32>
}
)mlir");
  tcg::Strategy s =
      check(op, intrinsic("gemv.16x16"), mapping({{{0, 16, 1}}, {{1, 16, 1}}}));
  EXPECT_TRUE(s.operands[0].usesFallback());
  EXPECT_FALSE(s.operands[1].usesFallback());
}

TEST_F(StrategyTest, ErrorsOfTheAPI) {
  embed::TensorExpression op = parseKernel(kConv);
  embed::TensorExpression gemm = intrinsic("vta.gemm.1x16x16");
  tcg::Strategy s;
  std::string error;
  EXPECT_FALSE(
      tcg::deriveStrategy(op, gemm, mapping({{}, {{1, 16, 1}}}), s, error));
  EXPECT_EQ(error, "the embedding maps 2 axes but 'vta.gemm.1x16x16' has 3");
  // An intrinsic whose operand is not indexed by bare iterators.
  embed::TensorExpression skewed = gemm;
  skewed.Inputs[0].Access = AffineMap::get(
      3, 0,
      {getAffineDimExpr(0, &context),
       getAffineDimExpr(2, &context) + getAffineDimExpr(0, &context)},
      &context);
  EXPECT_FALSE(tcg::deriveStrategy(
      op, skewed, mapping({{}, {{1, 16, 1}}, {{4, 16, 1}}}), s, error));
  EXPECT_EQ(error, "operand 'a' of 'vta.gemm.1x16x16' is not indexed by bare "
                   "iterators or constants");
}

} // namespace
