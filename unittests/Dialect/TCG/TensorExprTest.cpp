//===- TensorExprTest.cpp - intrinsics and tcg <-> tensor expressions -----===//
//
// The C++ API the dataflow embedding uses: lookupIntrinsic and
// getIntrinsicNames, and the round trip extractTensorExpr(buildKernel(e)).
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace raf;

namespace {

class TensorExprTest : public ::testing::Test {
protected:
  TensorExprTest() {
    context.loadDialect<tcg::TCGDialect, func::FuncDialect>();
  }

  /// Checks that `a` and `b` describe the same computation.
  static void expectSame(const embed::TensorExpression &a,
                         const embed::TensorExpression &b) {
    EXPECT_EQ(a.Name, b.Name);
    ASSERT_EQ(a.Iterators.size(), b.Iterators.size());
    for (auto [x, y] : llvm::zip(a.Iterators, b.Iterators)) {
      EXPECT_EQ(x.Name, y.Name);
      EXPECT_EQ(x.Extent, y.Extent);
      EXPECT_EQ(x.IsReduction, y.IsReduction);
      EXPECT_EQ(x.StrictAxis, y.StrictAxis);
    }
    ASSERT_EQ(a.Inputs.size(), b.Inputs.size());
    for (auto [x, y] : llvm::zip(a.Inputs, b.Inputs)) {
      EXPECT_EQ(x.Name, y.Name);
      EXPECT_EQ(x.Shape, y.Shape);
      EXPECT_EQ(x.ElementType, y.ElementType);
      EXPECT_EQ(x.Access, y.Access);
      EXPECT_EQ(x.getViewShape(), y.getViewShape());
    }
    EXPECT_EQ(a.Output.Shape, b.Output.Shape);
    EXPECT_EQ(a.Output.ElementType, b.Output.ElementType);
    EXPECT_EQ(a.Output.Access, b.Output.Access);
    ASSERT_EQ(a.Body.size(), b.Body.size());
    for (auto [x, y] : llvm::zip(a.Body, b.Body)) {
      EXPECT_EQ(x.IsInput, y.IsInput);
      if (x.IsInput) {
        EXPECT_EQ(x.Input, y.Input);
      } else {
        EXPECT_EQ(x.Op, y.Op);
        EXPECT_EQ(x.Lhs, y.Lhs);
        EXPECT_EQ(x.Rhs, y.Rhs);
      }
    }
    EXPECT_EQ(a.Reduction, b.Reduction);
  }

  MLIRContext context;
};

TEST_F(TensorExprTest, EveryIntrinsicIsInTheLibrary) {
  OwningOpRef<ModuleOp> library = tcg::parseIntrinsicLibrary(&context);
  ASSERT_TRUE(library);
  SmallVector<StringRef> kernels;
  library->walk([&](tcg::KernelOp kernel) {
    kernels.push_back(kernel.getKernelName().value_or(""));
  });
  EXPECT_EQ(ArrayRef<StringRef>(kernels), tcg::getIntrinsicNames());
}

TEST_F(TensorExprTest, VTAGemm) {
  FailureOr<embed::TensorExpression> gemm =
      tcg::lookupIntrinsic(&context, "vta.gemm.1x16x16");
  ASSERT_TRUE(succeeded(gemm));
  std::string error;
  EXPECT_TRUE(gemm->verify(error)) << error;
  EXPECT_EQ(gemm->Name, "vta.gemm.1x16x16");
  ASSERT_EQ(gemm->Iterators.size(), 3u);
  const char *names[] = {"x", "y", "z"};
  int64_t extents[] = {1, 16, 16};
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(gemm->Iterators[i].Name, names[i]);
    EXPECT_EQ(gemm->Iterators[i].StrictAxis, names[i]);
    EXPECT_EQ(gemm->Iterators[i].Extent, extents[i]);
    EXPECT_EQ(gemm->Iterators[i].IsReduction, i == 2);
  }
  EXPECT_EQ(gemm->getNumInstances(), 256u);
  ASSERT_EQ(gemm->Inputs.size(), 2u);
  // b[y, z]
  AffineMap b = gemm->Inputs[1].Access;
  EXPECT_EQ(b, AffineMap::get(3, 0,
                              {getAffineDimExpr(1, &context),
                               getAffineDimExpr(2, &context)},
                              &context));
  EXPECT_TRUE(gemm->Inputs[0].ElementType.isInteger(8));
  EXPECT_TRUE(gemm->Output.ElementType.isInteger(32));
  EXPECT_EQ(gemm->Reduction, embed::ScalarOp::Add);
  ASSERT_EQ(gemm->Body.size(), 3u);
  EXPECT_EQ(gemm->Body.back().Op, embed::ScalarOp::Mul);
}

TEST_F(TensorExprTest, EveryIntrinsicVerifies) {
  for (StringRef name : tcg::getIntrinsicNames()) {
    FailureOr<embed::TensorExpression> expr =
        tcg::lookupIntrinsic(&context, name);
    ASSERT_TRUE(succeeded(expr)) << name.str();
    std::string error;
    EXPECT_TRUE(expr->verify(error)) << name.str() << ": " << error;
    EXPECT_EQ(expr->Name, name.str());
  }
}

TEST_F(TensorExprTest, UnknownIntrinsicListsTheKnownOnes) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(tcg::lookupIntrinsic(&context, "vta.gemm.4x4x4")));
  EXPECT_TRUE(StringRef(message).starts_with(
      "unknown intrinsic 'vta.gemm.4x4x4'; known intrinsics: "
      "vta.gemm.1x16x16, vta.gemm.8x8x8, gemv.16x16, dot.16, vs.add.16, "))
      << message;
  EXPECT_TRUE(StringRef(message).ends_with(", mv.exp.max.16x16")) << message;
}

/// Builds each intrinsic's kernel from its expression inside a function and
/// extracts it again.
TEST_F(TensorExprTest, BuildThenExtractGivesTheExpressionBack) {
  for (StringRef name : tcg::getIntrinsicNames()) {
    FailureOr<embed::TensorExpression> expr =
        tcg::lookupIntrinsic(&context, name);
    ASSERT_TRUE(succeeded(expr));
    OpBuilder builder(&context);
    Location loc = builder.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    SmallVector<Type> argTypes;
    for (const embed::Operand &input : expr->Inputs)
      argTypes.push_back(RankedTensorType::get(input.Shape, input.ElementType));
    auto function = func::FuncOp::create(builder, loc, "f",
                                         builder.getFunctionType(argTypes, {}));
    Block *entry = function.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    // One operand per input (unary intrinsics such as vv.exp.16 have one).
    SmallVector<unsigned> inputOperands;
    for (unsigned i = 0, e = expr->Inputs.size(); i != e; ++i)
      inputOperands.push_back(i);
    FailureOr<tcg::KernelOp> kernel = tcg::buildKernel(
        builder, loc, *expr, entry->getArguments(), inputOperands);
    ASSERT_TRUE(succeeded(kernel));
    func::ReturnOp::create(builder, loc);
    ASSERT_TRUE(succeeded(verify(*module)));
    FailureOr<embed::TensorExpression> back = tcg::extractTensorExpr(*kernel);
    ASSERT_TRUE(succeeded(back));
    expectSame(*expr, *back);
  }
}

/// A padded, dilated view and a quasi-affine access survive the round trip.
TEST_F(TensorExprTest, ViewsRoundTrip) {
  MLIRContext *ctx = &context;
  Type f32 = Float32Type::get(ctx);
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  embed::TensorExpression expr;
  expr.Name = "window";
  expr.Iterators = {{"i", 6, false, "x"}, {"k", 3, true, "z"}};
  embed::Operand in;
  in.Name = "in";
  in.Shape = {4};
  in.ElementType = f32;
  in.Access = AffineMap::get(2, 0, {d(0) + d(1)}, ctx);
  in.PadLow = {1};
  in.PadHigh = {0};
  in.Dilation = {2};
  embed::Operand w;
  w.Name = "w";
  w.Shape = {2, 3};
  w.ElementType = f32;
  w.Access = AffineMap::get(2, 0, {d(0) % 2, 2 - d(1)}, ctx);
  expr.Inputs = {in, w};
  expr.Output.Name = "out";
  expr.Output.Shape = {6};
  expr.Output.ElementType = f32;
  expr.Output.Access = AffineMap::get(2, 0, {d(0)}, ctx);
  embed::ScalarNode a, b, product;
  a.Input = 0;
  b.Input = 1;
  product.IsInput = false;
  product.Op = embed::ScalarOp::Mul;
  product.Lhs = 0;
  product.Rhs = 1;
  expr.Body = {a, b, product};
  expr.Reduction = embed::ScalarOp::Max;
  std::string error;
  ASSERT_TRUE(expr.verify(error)) << error;

  OpBuilder builder(ctx);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto function = func::FuncOp::create(
      builder, loc, "f",
      builder.getFunctionType(
          {RankedTensorType::get({4}, f32), RankedTensorType::get({2, 3}, f32)},
          {}));
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  FailureOr<tcg::KernelOp> kernel =
      tcg::buildKernel(builder, loc, expr, entry->getArguments(), {0, 1});
  ASSERT_TRUE(succeeded(kernel));
  func::ReturnOp::create(builder, loc);
  ASSERT_TRUE(succeeded(verify(*module)));
  FailureOr<embed::TensorExpression> back = tcg::extractTensorExpr(*kernel);
  ASSERT_TRUE(succeeded(back));
  expectSame(expr, *back);
  EXPECT_EQ(back->Inputs[0].PadLow, SmallVector<int64_t>({1}));
  EXPECT_EQ(back->Inputs[0].Dilation, SmallVector<int64_t>({2}));
  EXPECT_TRUE(back->Inputs[1].PadLow.empty());
}

TEST_F(TensorExprTest, BuildRejectsAMismatchedOperand) {
  FailureOr<embed::TensorExpression> expr =
      tcg::lookupIntrinsic(&context, "dot.16");
  ASSERT_TRUE(succeeded(expr));
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  Type i8x8 = RankedTensorType::get({8}, builder.getI8Type());
  auto function = func::FuncOp::create(
      builder, loc, "f", builder.getFunctionType({i8x8, i8x8}, {}));
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  EXPECT_TRUE(failed(
      tcg::buildKernel(builder, loc, *expr, entry->getArguments(), {0, 1})));
  EXPECT_EQ(message,
            "input 'a' does not match operand #0 of type 'tensor<8xi8>'");
}

} // namespace
