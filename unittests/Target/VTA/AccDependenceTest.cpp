//===- AccDependenceTest.cpp - the ACC_DEP_DISTANCE hazard check ----------===//
//
// findAccDependenceHazard on hand-built GEMMs: consecutive micro-ops that
// accumulate into one row, loops that come back to a row, rows far enough
// apart, resets (which only write), and micro-ops replaced by a later UOP
// load.
//
//===----------------------------------------------------------------------===//

#include "raf/Target/VTA/Checks.h"

#include "gtest/gtest.h"

using namespace raf::vta;

namespace {

/// A program that loads `uops` and runs `gemm` over all of them.
Program gemmProgram(std::vector<Uop> uops, Instruction gemm) {
  Program program;
  program.config = Config::getDefault();
  program.uops = std::move(uops);
  int64_t n = program.uops.size();
  program.instructions.push_back(
      Instruction::load(MemoryType::Uop, 0, 0, 1, n, n));
  gemm.uopBgn = 0;
  gemm.uopEnd = n;
  program.instructions.push_back(gemm);
  program.instructions.push_back(Instruction::finish());
  EXPECT_TRUE(checkProgram(program).empty());
  return program;
}

TEST(VTAAccDependence, ConsecutiveMicroOpsOnOneRow) {
  // Two micro-ops accumulating into row 5: the second writes it one step
  // after the first.
  Program program =
      gemmProgram({{5, 0, 0}, {5, 1, 1}}, Instruction::gemm(0, 2));
  std::optional<AccDependenceHazard> hazard =
      findAccDependenceHazard(program, 3);
  ASSERT_TRUE(hazard);
  EXPECT_EQ(hazard->insnIndex, 1u);
  EXPECT_EQ(hazard->step, 1u);
  EXPECT_EQ(hazard->row, 5);
  EXPECT_EQ(hazard->gap, 1u);
  // A distance of 1 (or 0) asks for nothing.
  EXPECT_FALSE(findAccDependenceHazard(program, 1));
}

TEST(VTAAccDependence, LoopsComingBackToARow) {
  // Three rows per iteration, the outer loop (a reduction: factor 0) comes
  // back to each after exactly three steps.
  Instruction gemm = Instruction::gemm(0, 3, /*iterOut=*/4);
  gemm.srcFactorOut = 1;
  Program program = gemmProgram({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, gemm);
  EXPECT_FALSE(findAccDependenceHazard(program, 3));
  std::optional<AccDependenceHazard> hazard =
      findAccDependenceHazard(program, 4);
  ASSERT_TRUE(hazard);
  EXPECT_EQ(hazard->step, 3u);
  EXPECT_EQ(hazard->row, 0);
  EXPECT_EQ(hazard->gap, 3u);
}

TEST(VTAAccDependence, InnerLoopMovesTheRow) {
  // One micro-op, the inner loop steps the row: every step a new row.
  Instruction gemm = Instruction::gemm(0, 1, /*iterOut=*/1, /*iterIn=*/8);
  gemm.dstFactorIn = 1;
  gemm.srcFactorIn = 1;
  EXPECT_FALSE(findAccDependenceHazard(gemmProgram({{0, 0, 0}}, gemm), 3));
}

TEST(VTAAccDependence, ResetsOnlyWrite) {
  Program program = gemmProgram(
      {{5, 0, 0}, {5, 0, 0}}, Instruction::gemm(0, 2, 1, 1, /*resetReg=*/true));
  EXPECT_FALSE(findAccDependenceHazard(program, 3));
}

TEST(VTAAccDependence, LaterUopLoadReplacesMicroOps) {
  // The GEMM runs entries 0 and 1 of the buffer, which the second UOP load
  // fills with table entries 2 and 3 (the same row twice).
  Program program;
  program.config = Config::getDefault();
  program.uops = {{0, 0, 0}, {1, 0, 0}, {7, 0, 0}, {7, 1, 0}};
  program.instructions.push_back(
      Instruction::load(MemoryType::Uop, 0, 0, 1, 2, 2));
  program.instructions.push_back(Instruction::gemm(0, 2));
  program.instructions.push_back(
      Instruction::load(MemoryType::Uop, 0, 2, 1, 2, 2));
  program.instructions.push_back(Instruction::gemm(0, 2));
  program.instructions.push_back(Instruction::finish());
  ASSERT_TRUE(checkProgram(program).empty());
  std::optional<AccDependenceHazard> hazard =
      findAccDependenceHazard(program, 2);
  ASSERT_TRUE(hazard);
  EXPECT_EQ(hazard->insnIndex, 3u);
  EXPECT_EQ(hazard->row, 7);
}

} // namespace
