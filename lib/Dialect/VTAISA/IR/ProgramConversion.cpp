//===- ProgramConversion.cpp - vta_isa.program <-> raf::vta::Program ------===//

#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace raf::vta_isa;
namespace vta = raf::vta;

vta::Program ProgramOp::getProgram() {
  vta::Program program;
  program.config = getConfig().getConfig();
  for (UopOp uop : getUopBlock().getOps<UopOp>())
    program.uops.push_back(uop.getUop());
  for (InstructionOpInterface insn :
       getInstructionBlock().getOps<InstructionOpInterface>())
    program.instructions.push_back(insn.getInstruction());
  return program;
}

namespace {
/// Builds the op of one instruction. Attribute setters take the values as
/// written in the instruction; the verifier checks them afterwards.
class InstructionBuilder {
public:
  InstructionBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  void build(const vta::Instruction &insn) {
    switch (insn.opcode) {
    case vta::Opcode::Load:
      setMemory(createEmpty<LoadOp>(), insn);
      return;
    case vta::Opcode::Store:
      setMemory(createEmpty<StoreOp>(), insn);
      return;
    case vta::Opcode::Gemm: {
      auto op = createEmpty<GemmOp>();
      setLoop(op, insn);
      op.setWgtFactorOutAttr(i64(insn.wgtFactorOut));
      op.setWgtFactorInAttr(i64(insn.wgtFactorIn));
      return;
    }
    case vta::Opcode::Alu: {
      auto op = createEmpty<AluOp>();
      setLoop(op, insn);
      op.setAluOpcode(static_cast<AluOpcode>(insn.aluOpcode));
      op.setUseImm(insn.useImm);
      op.setImmAttr(i64(insn.imm));
      return;
    }
    case vta::Opcode::Finish:
      setDeps(FinishOp::create(builder, loc), insn);
      return;
    }
    llvm_unreachable("unknown opcode");
  }

private:
  /// An op of kind OpT with no attributes yet; the setters below give it
  /// all of them.
  template <typename OpT>
  OpT createEmpty() {
    OperationState state(loc, OpT::getOperationName());
    return cast<OpT>(builder.create(state));
  }

  IntegerAttr i64(int64_t value) { return builder.getI64IntegerAttr(value); }

  template <typename OpT>
  void setDeps(OpT op, const vta::Instruction &insn) {
    op.setPopPrevDep(insn.popPrevDep);
    op.setPopNextDep(insn.popNextDep);
    op.setPushPrevDep(insn.pushPrevDep);
    op.setPushNextDep(insn.pushNextDep);
  }

  template <typename OpT>
  void setMemory(OpT op, const vta::Instruction &insn) {
    setDeps(op, insn);
    op.setMemoryType(static_cast<MemoryType>(insn.memoryType));
    op.setSramBaseAttr(i64(insn.sramBase));
    op.setDramBaseAttr(i64(insn.dramBase));
    op.setYSizeAttr(i64(insn.ySize));
    op.setXSizeAttr(i64(insn.xSize));
    op.setXStrideAttr(i64(insn.xStride));
    op.setYPad_0Attr(i64(insn.yPad0));
    op.setYPad_1Attr(i64(insn.yPad1));
    op.setXPad_0Attr(i64(insn.xPad0));
    op.setXPad_1Attr(i64(insn.xPad1));
  }

  template <typename OpT>
  void setLoop(OpT op, const vta::Instruction &insn) {
    setDeps(op, insn);
    op.setResetReg(insn.resetReg);
    op.setUopBgnAttr(i64(insn.uopBgn));
    op.setUopEndAttr(i64(insn.uopEnd));
    op.setIterOutAttr(i64(insn.iterOut));
    op.setIterInAttr(i64(insn.iterIn));
    op.setDstFactorOutAttr(i64(insn.dstFactorOut));
    op.setDstFactorInAttr(i64(insn.dstFactorIn));
    op.setSrcFactorOutAttr(i64(insn.srcFactorOut));
    op.setSrcFactorInAttr(i64(insn.srcFactorIn));
  }

  OpBuilder &builder;
  Location loc;
};
} // namespace

ProgramOp ProgramOp::createFrom(OpBuilder &builder, Location loc,
                                const vta::Program &program) {
  auto op = ProgramOp::create(
      builder, loc,
      raf::vta::ConfigAttr::get(builder.getContext(), program.config),
      /*sym_name=*/StringAttr(), /*dram=*/raf::vta::DramLayoutAttr());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&op.getUops().emplaceBlock());
  for (const vta::Uop &uop : program.uops)
    UopOp::create(builder, loc, uop.dstIdx, uop.srcIdx, uop.wgtIdx);
  builder.setInsertionPointToStart(&op.getInstructions().emplaceBlock());
  InstructionBuilder insnBuilder(builder, loc);
  for (const vta::Instruction &insn : program.instructions)
    insnBuilder.build(insn);
  return op;
}
