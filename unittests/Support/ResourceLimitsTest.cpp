//===- ResourceLimitsTest.cpp - limits, messages and byte sizes -----------===//

#include "raf/Support/ResourceLimits.h"

#include "gtest/gtest.h"

using namespace raf;

namespace {

uint64_t parsed(llvm::StringRef text) {
  llvm::Expected<uint64_t> value = parseByteSize(text);
  EXPECT_TRUE(bool(value)) << text.str();
  if (!value) {
    llvm::consumeError(value.takeError());
    return 0;
  }
  return *value;
}

std::string parseError(llvm::StringRef text) {
  llvm::Expected<uint64_t> value = parseByteSize(text);
  EXPECT_FALSE(bool(value)) << text.str();
  return value ? std::string() : llvm::toString(value.takeError());
}

TEST(ByteSize, ParsesIntegersAndBinaryUnits) {
  EXPECT_EQ(parsed("0"), 0u);
  EXPECT_EQ(parsed("4096"), 4096u);
  EXPECT_EQ(parsed("0x1000"), 4096u);
  EXPECT_EQ(parsed("64K"), 65536u);
  EXPECT_EQ(parsed("64KiB"), 65536u);
  EXPECT_EQ(parsed("3m"), 3u << 20);
  EXPECT_EQ(parsed("4GiB"), uint64_t(4) << 30);
  EXPECT_EQ(parsed("1TiB"), uint64_t(1) << 40);
  EXPECT_EQ(parsed("12B"), 12u);
  EXPECT_EQ(parsed("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parsed("16777215T"), uint64_t(16777215) << 40);
}

TEST(ByteSize, RefusesOverflowAndGarbage) {
  EXPECT_NE(parseError("18446744073709551616").find("larger than 2^64 - 1"),
            std::string::npos);
  EXPECT_NE(parseError("16777216TiB").find("larger than 2^64 - 1"),
            std::string::npos);
  EXPECT_NE(parseError("0x10000000000000000").find("larger than 2^64 - 1"),
            std::string::npos);
  EXPECT_NE(parseError("12EiB").find("unknown unit 'EiB'"), std::string::npos);
  EXPECT_NE(parseError("-1").find("expected an integer"), std::string::npos);
  EXPECT_NE(parseError("").find("expected an integer"), std::string::npos);
  EXPECT_NE(parseError("2^64").find("unknown unit '^64'"), std::string::npos);
}

TEST(ResourceLimits, DefaultsOptionsAndMessages) {
  EXPECT_EQ(getResourceLimit(ResourceLimit::EmbeddingExtent), 1u << 20);
  EXPECT_EQ(getResourceLimit(ResourceLimit::EmbeddingPoints),
            uint64_t(1) << 40);
  EXPECT_EQ(getResourceLimit(ResourceLimit::NestingDepth), 1000u);
  EXPECT_EQ(getResourceLimit(ResourceLimit::AllocationBytes),
            getPhysicalMemoryBytes());
  EXPECT_LE(getResourceLimit(ResourceLimit::DRAMBytes), uint64_t(4) << 30);

  EXPECT_FALSE(checkResourceLimit(ResourceLimit::NestingDepth, 1000));
  std::optional<std::string> deep =
      checkResourceLimit(ResourceLimit::NestingDepth, 1001);
  ASSERT_TRUE(deep);
  EXPECT_EQ(*deep, "1001 levels exceed the nesting depth limit of 1000 "
                   "levels (the default); raise it with --max-nesting-depth");

  setResourceLimit(ResourceLimit::NestingDepth, 5);
  EXPECT_TRUE(isResourceLimitSet(ResourceLimit::NestingDepth));
  EXPECT_EQ(*checkResourceLimit(ResourceLimit::NestingDepth, 6),
            "6 levels exceed the nesting depth limit of 5 levels "
            "(--max-nesting-depth)");
  setResourceLimit(ResourceLimit::NestingDepth, 0);
  EXPECT_FALSE(isResourceLimitSet(ResourceLimit::NestingDepth));
  EXPECT_EQ(getResourceLimit(ResourceLimit::NestingDepth), 1000u);

  // Simulated DRAM never exceeds physical memory, whatever is set.
  setResourceLimit(ResourceLimit::DRAMBytes, UINT64_MAX);
  EXPECT_EQ(getResourceLimit(ResourceLimit::DRAMBytes),
            getPhysicalMemoryBytes());
  EXPECT_NE(checkResourceLimit(ResourceLimit::DRAMBytes, UINT64_MAX)
                ->find("(this machine's physical memory)"),
            std::string::npos);
  setResourceLimit(ResourceLimit::DRAMBytes, 0);

  EXPECT_EQ(describeOverflow(ResourceLimit::EmbeddingPoints, "its points"),
            "its points exceed 2^64 points, beyond the iteration domain limit "
            "of 1099511627776 points (the default); raise it with "
            "--max-iteration-points");
}

} // namespace
