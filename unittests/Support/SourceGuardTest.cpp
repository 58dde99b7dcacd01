//===- SourceGuardTest.cpp - the scan in front of the MLIR parser ---------===//

#include "raf/Support/SourceGuard.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>

using namespace raf;

namespace {

std::optional<size_t> problemAt(llvm::StringRef text, uint64_t depth = 4) {
  std::optional<UnsafeSource> problem = findUnsafeMLIRSource(text, depth);
  if (!problem)
    return std::nullopt;
  return problem->offset;
}

TEST(SourceGuard, CountsEveryBracketKind) {
  EXPECT_FALSE(problemAt("([{<x>}])"));
  EXPECT_EQ(problemAt("([{<(x)>}])"), 4u);
  // Depth is nesting, not the number of brackets.
  EXPECT_FALSE(problemAt("()()()()()()[][][]{}{}"));
  EXPECT_EQ(problemAt(std::string(5, '[') + std::string(5, ']')), 4u);
}

TEST(SourceGuard, SkipsStringsCommentsAndArrows) {
  EXPECT_FALSE(problemAt("\"((((((\" // [[[[[[[\n x"));
  EXPECT_FALSE(problemAt("\"a\\\"((((((\""));
  // `->` closes nothing, so `<` stays open and counts.
  EXPECT_EQ(problemAt("<(a) -> <b<c<d>>>>", 3), 12u);
  // An unclosed `<` (a comparison) is dropped when its enclosing bracket
  // closes, so it does not accumulate.
  EXPECT_FALSE(problemAt("(a < b) (a < b) (a < b) (a < b) (a < b)", 2));
}

TEST(SourceGuard, FlagsDenseArraysOfIndex) {
  EXPECT_EQ(problemAt("{a = array<index: 1, 2>}", 100), 5u);
  EXPECT_EQ(problemAt("{a = array <\n // c\n index>}", 100), 5u);
  EXPECT_FALSE(problemAt("{a = array<i64: 1, 2>, b = array<indexed>}", 100));
  EXPECT_FALSE(problemAt("!llvm.array<2 x i32> \"array<index>\"", 100));
  EXPECT_FALSE(problemAt("%array<index>", 100));
  std::optional<UnsafeSource> problem =
      findUnsafeMLIRSource("array<index>", 100);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->message.find("llvm-project issue #179045"),
            std::string::npos);
}

TEST(SourceGuard, RecognisesBytecode) {
  EXPECT_TRUE(isMLIRBytecode(llvm::StringRef("ML\xefR\x06", 5)));
  EXPECT_FALSE(isMLIRBytecode("module {}"));
}

TEST(SourceGuard, RunsOnALargerStack) {
  // Deep recursion that an 8 MiB stack would not hold at 1 KiB a frame
  // beyond 8192 levels; the default limit gives 16 MiB.
  std::function<int(int)> recurse = [&](int n) -> int {
    volatile char frame[1024];
    frame[0] = static_cast<char>(n);
    return n == 0 ? frame[0] : recurse(n - 1) + 1;
  };
  EXPECT_EQ(runOnParserStack([&] { return recurse(10000); }), 10000);
}

} // namespace
