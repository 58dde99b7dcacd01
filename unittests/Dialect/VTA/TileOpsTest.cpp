//===- TileOpsTest.cpp - vta.program <-> raf::vta::TileProgram ------------===//
//
// A tile program built as ops and read back is the same program, knobs
// included, and the ops it becomes pass their verifiers.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/VTA/IR/VTAOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace raf::vta;

namespace {

TileProgram makeProgram() {
  TileProgram program;
  program.config = Config::get8x8x8();
  program.knobs.tileSizes = {2, 4, 1};
  program.knobs.virtualThreads = 2;
  Instruction load = Instruction::load(MemoryType::Inp, 3, 17, 2, 3, 5);
  load.yPad0 = 1;
  load.xPad1 = 2;
  Instruction gemm = Instruction::gemm(0, 0, 3, 2);
  gemm.dstFactorOut = 2;
  gemm.dstFactorIn = 1;
  gemm.srcFactorOut = 4;
  gemm.srcFactorIn = 1;
  gemm.wgtFactorOut = 7;
  gemm.wgtFactorIn = 3;
  Instruction alu = Instruction::alu(AluOpcode::Max, 0, 0, 2, 1);
  alu.dstFactorOut = 1;
  alu.srcFactorOut = 1;
  program.instructions = {
      {load, {}},
      {Instruction::load(MemoryType::Wgt, 0, 4, 1, 8, 8), {}},
      {Instruction::load(MemoryType::Acc8Bit, 100, 0, 1, 2, 2), {}},
      {Instruction::gemm(0, 0, 3, 2, /*resetReg=*/true), {{1, 0, 0}}},
      {gemm, {{0, 0, 0}, {0, 1, 1}, {1, 2, 2}}},
      {alu, {{100, 102, 0}}},
      {Instruction::aluImm(AluOpcode::Shr, -4, 0, 0), {{5, 0, 0}}},
      {Instruction::store(0, 9, 2, 3, 4), {}},
  };
  return program;
}

TEST(VTATileOps, RoundTrip) {
  MLIRContext context;
  context.loadDialect<VTADialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  TileProgram program = makeProgram();
  ProgramOp op =
      ProgramOp::createFrom(builder, builder.getUnknownLoc(), program);
  ASSERT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(op.getBody().front().getOperations().size(),
            program.instructions.size());

  TileProgram back = op.getTileProgram();
  EXPECT_EQ(back.config, program.config);
  EXPECT_EQ(back.knobs.tileSizes, program.knobs.tileSizes);
  EXPECT_EQ(back.knobs.virtualThreads, program.knobs.virtualThreads);
  ASSERT_EQ(back.instructions.size(), program.instructions.size());
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    EXPECT_TRUE(back.instructions[i].insn == program.instructions[i].insn)
        << "instruction " << i;
    EXPECT_EQ(back.instructions[i].uops, program.instructions[i].uops)
        << "instruction " << i;
  }
}

TEST(VTATileOps, VerifierRejectsBuiltProgram) {
  // What the builder writes is checked afterwards, like parsed IR.
  MLIRContext context;
  context.loadDialect<VTADialect>();
  context.getDiagEngine().registerHandler([](Diagnostic &) {});
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  TileProgram program = makeProgram();
  program.instructions[1].insn.sramBase = 4095; // wgt depth is 4096
  ProgramOp::createFrom(builder, builder.getUnknownLoc(), program);
  EXPECT_TRUE(failed(verify(*module)));
}

} // namespace
