//===- PolyhedralTest.cpp - Tests for the isl helpers ---------------------===//

#include "raf/Analysis/Polyhedral.h"

#include "gtest/gtest.h"

#include <string>

using namespace raf::poly;

namespace {

/// Unwraps a count, failing the test with isl's message on error.
uint64_t countOrFail(llvm::StringRef Text,
                     llvm::ArrayRef<ParamBinding> Params) {
  llvm::Expected<uint64_t> Count = countPoints(Text, Params);
  if (!Count) {
    ADD_FAILURE() << llvm::toString(Count.takeError());
    return ~uint64_t(0);
  }
  return *Count;
}

/// Returns the message of an error that the test expects.
template <typename T>
std::string errorOf(llvm::Expected<T> Value) {
  if (Value) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(Value.takeError());
}

TEST(PolyhedralTest, IslBindsToLibIsl) {
  // libLLVM.so exports Polly's isl under the same names; this binary links
  // libisl.so first, so the calls must resolve there. Listing LLVM before
  // raf::isl makes this fail.
  std::string Path = islLibraryPath();
  EXPECT_NE(Path.find("libisl.so"), std::string::npos) << Path;
  EXPECT_EQ(Path.find("libLLVM"), std::string::npos) << Path;
}

TEST(PolyhedralTest, TriangleCount) {
  EXPECT_EQ(countOrFail("[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }",
                        {{"N", 10}}),
            55u);
  // The same set at several sizes, in one context.
  IslContext Ctx;
  for (int64_t N = 0; N <= 20; ++N) {
    llvm::Expected<uint64_t> Count = countPoints(
        Ctx, "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }", {{"N", N}});
    ASSERT_TRUE(static_cast<bool>(Count)) << llvm::toString(Count.takeError());
    EXPECT_EQ(*Count, static_cast<uint64_t>(N * (N + 1) / 2)) << "N = " << N;
  }
}

TEST(PolyhedralTest, StridedSetWithExistential) {
  EXPECT_EQ(countOrFail("{ [i] : exists k : i = 3k and 0 <= i < 100 }", {}),
            34u);
  // Parametric stride bound and a union of two strided pieces.
  EXPECT_EQ(countOrFail("[N] -> { [i] : exists k : i = 3k and 0 <= i < N; "
                        "[i] : exists k : i = 5k and 0 <= i < N }",
                        {{"N", 100}}),
            // Multiples of 3 or 5 below 100: 34 + 20 - 7.
            47u);
}

TEST(PolyhedralTest, ConvolutionDomain) {
  // A padded, strided 2-D convolution: output pixel (h, w) reads input row
  // stride*h + r - P, which must be in bounds. Count the (output, filter)
  // pairs that touch real (non-padding) input. The stride multiplies a
  // variable, which is not affine if the stride is a parameter, so it is
  // written into the text as a constant.
  auto Domain = [](int64_t Stride) {
    std::string S = std::to_string(Stride);
    return "[K, C, OH, OW, R, Sz, H, W, P] -> { [k, c, h, w, r, s] : "
           "0 <= k < K and 0 <= c < C and 0 <= h < OH and 0 <= w < OW and "
           "0 <= r < R and 0 <= s < Sz and 0 <= " +
           S + "h + r - P < H and 0 <= " + S + "w + s - P < W }";
  };
  struct Shape {
    int64_t K, C, H, W, R, S, Stride, Pad;
  };
  for (Shape Sh :
       {Shape{4, 3, 8, 8, 3, 3, 1, 1}, Shape{2, 5, 9, 7, 3, 3, 2, 1},
        Shape{3, 2, 10, 10, 5, 5, 2, 2}, Shape{2, 2, 6, 6, 1, 1, 1, 0}}) {
    int64_t OH = (Sh.H + 2 * Sh.Pad - Sh.R) / Sh.Stride + 1;
    int64_t OW = (Sh.W + 2 * Sh.Pad - Sh.S) / Sh.Stride + 1;
    uint64_t Expected = 0;
    for (int64_t H = 0; H < OH; ++H)
      for (int64_t W = 0; W < OW; ++W)
        for (int64_t R = 0; R < Sh.R; ++R)
          for (int64_t S = 0; S < Sh.S; ++S) {
            int64_t IH = Sh.Stride * H + R - Sh.Pad;
            int64_t IW = Sh.Stride * W + S - Sh.Pad;
            if (IH >= 0 && IH < Sh.H && IW >= 0 && IW < Sh.W)
              Expected += Sh.K * Sh.C;
          }
    std::string Text = Domain(Sh.Stride);
    EXPECT_EQ(countOrFail(Text, {{"K", Sh.K},
                                 {"C", Sh.C},
                                 {"OH", OH},
                                 {"OW", OW},
                                 {"R", Sh.R},
                                 {"Sz", Sh.S},
                                 {"H", Sh.H},
                                 {"W", Sh.W},
                                 {"P", Sh.Pad}}),
              Expected)
        << Text;
  }
}

TEST(PolyhedralTest, LargeParameterValues) {
  // Values beyond 32 bits are fixed exactly; the count is a product that
  // isl computes without enumerating the points.
  EXPECT_EQ(
      countOrFail("[N] -> { [i] : N - 5 <= i < N }", {{"N", int64_t(1) << 40}}),
      5u);
  EXPECT_EQ(countOrFail("[N] -> { [i] : 0 <= i < N and i >= 2N }", {{"N", 7}}),
            0u);
}

TEST(PolyhedralTest, SetsCopyAndPrint) {
  IslContext Ctx;
  llvm::Expected<IslSet> Set = parseSet(Ctx, "[N] -> { [i] : 0 <= i < N }");
  ASSERT_TRUE(static_cast<bool>(Set)) << llvm::toString(Set.takeError());
  IslSet Copy = *Set;
  IslSet Moved = std::move(Copy);
  EXPECT_FALSE(static_cast<bool>(Copy));
  EXPECT_NE(Moved.toString().find("0 <= i < N"), std::string::npos)
      << Moved.toString();

  llvm::Expected<IslSet> Fixed = fixParameters(Moved, {{"N", 4}});
  ASSERT_TRUE(static_cast<bool>(Fixed)) << llvm::toString(Fixed.takeError());
  llvm::Expected<uint64_t> Count = countPoints(*Fixed);
  ASSERT_TRUE(static_cast<bool>(Count)) << llvm::toString(Count.takeError());
  EXPECT_EQ(*Count, 4u);
  // Fixing made a new set; the original still has its parameter.
  EXPECT_NE(Set->toString().find("[N]"), std::string::npos);
}

TEST(PolyhedralTest, ErrorsAreReported) {
  IslContext Ctx;
  std::string Message = errorOf(parseSet(Ctx, "{ [i] : 0 <= i < }"));
  EXPECT_NE(Message.find("cannot parse"), std::string::npos) << Message;
  EXPECT_NE(Message.find("syntax error"), std::string::npos) << Message;

  EXPECT_NE(errorOf(countPoints("[N] -> { [i] : 0 <= i < N", {{"N", 3}}))
                .find("cannot parse"),
            std::string::npos);
  EXPECT_NE(errorOf(countPoints("not a set at all", {})).find("cannot parse"),
            std::string::npos);

  // A parameter without value, a value for a missing parameter, and the
  // same parameter bound twice.
  Message =
      errorOf(countPoints("[N, M] -> { [i] : 0 <= i < N + M }", {{"N", 3}}));
  EXPECT_NE(Message.find("'M' has no value"), std::string::npos) << Message;
  Message =
      errorOf(countPoints("[N] -> { [i] : 0 <= i < N }", {{"N", 3}, {"Q", 1}}));
  EXPECT_NE(Message.find("no parameter 'Q'"), std::string::npos) << Message;
  Message =
      errorOf(countPoints("[N] -> { [i] : 0 <= i < N }", {{"N", 3}, {"N", 4}}));
  EXPECT_NE(Message.find("bound twice"), std::string::npos) << Message;

  // Unbounded sets have no finite count (isl itself would report 0).
  Message = errorOf(countPoints("{ [i] : i >= 0 }", {}));
  EXPECT_NE(Message.find("unbounded"), std::string::npos) << Message;

  // Counting a parametric set directly is refused.
  llvm::Expected<IslSet> Parametric =
      parseSet(Ctx, "[N] -> { [i] : 0 <= i < N }");
  ASSERT_TRUE(static_cast<bool>(Parametric));
  Message = errorOf(countPoints(*Parametric));
  EXPECT_NE(Message.find("unbound parameter 'N'"), std::string::npos)
      << Message;

  // The context stays usable after errors.
  EXPECT_EQ(countOrFail("{ [i, j] : 0 <= i, j < 3 }", {}), 9u);
}

} // namespace
