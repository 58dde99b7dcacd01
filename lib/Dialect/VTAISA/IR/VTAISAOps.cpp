//===- VTAISAOps.cpp - vta_isa verifiers and field access -----------------===//
//
// The verifiers hand each op, as a raf::vta::Instruction or Uop, to the rule
// checker of raf/Target/VTA/Checks.h, which the binary reader and the
// simulator use too, and report its messages on the op.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"

#include "raf/Target/VTA/Checks.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using namespace raf::vta_isa;
namespace vta = raf::vta;

#include "raf/Dialect/VTAISA/IR/VTAISAInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "raf/Dialect/VTAISA/IR/VTAISAOps.cpp.inc"

/// The configuration of the program `op` belongs to (HasParent guarantees
/// the parent).
static vta::Config getProgramConfig(Operation *op) {
  return cast<ProgramOp>(op->getParentOp()).getConfig().getConfig();
}

/// Reports each problem of `insn` as an error on `op`.
static LogicalResult verifyInstruction(Operation *op,
                                       const vta::Instruction &insn) {
  bool ok = vta::checkInstruction(
      getProgramConfig(op), insn,
      [&](const Twine &message) { op->emitOpError(message); });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// Field access
//===----------------------------------------------------------------------===//

template <typename OpT>
static void readDeps(OpT op, vta::Instruction &insn) {
  insn.popPrevDep = op.getPopPrevDep();
  insn.popNextDep = op.getPopNextDep();
  insn.pushPrevDep = op.getPushPrevDep();
  insn.pushNextDep = op.getPushNextDep();
}

template <typename OpT>
static vta::Instruction readMemory(OpT op, vta::Opcode opcode) {
  vta::Instruction insn;
  insn.opcode = opcode;
  readDeps(op, insn);
  insn.memoryType = static_cast<vta::MemoryType>(op.getMemoryType());
  insn.sramBase = op.getSramBaseAttr().getInt();
  insn.dramBase = op.getDramBaseAttr().getInt();
  insn.ySize = op.getYSizeAttr().getInt();
  insn.xSize = op.getXSizeAttr().getInt();
  insn.xStride = op.getXStrideAttr().getInt();
  insn.yPad0 = op.getYPad_0Attr().getInt();
  insn.yPad1 = op.getYPad_1Attr().getInt();
  insn.xPad0 = op.getXPad_0Attr().getInt();
  insn.xPad1 = op.getXPad_1Attr().getInt();
  return insn;
}

template <typename OpT>
static vta::Instruction readLoop(OpT op, vta::Opcode opcode) {
  vta::Instruction insn;
  insn.opcode = opcode;
  readDeps(op, insn);
  insn.resetReg = op.getResetReg();
  insn.uopBgn = op.getUopBgnAttr().getInt();
  insn.uopEnd = op.getUopEndAttr().getInt();
  insn.iterOut = op.getIterOutAttr().getInt();
  insn.iterIn = op.getIterInAttr().getInt();
  insn.dstFactorOut = op.getDstFactorOutAttr().getInt();
  insn.dstFactorIn = op.getDstFactorInAttr().getInt();
  insn.srcFactorOut = op.getSrcFactorOutAttr().getInt();
  insn.srcFactorIn = op.getSrcFactorInAttr().getInt();
  return insn;
}

vta::Instruction LoadOp::getInstruction() {
  return readMemory(*this, vta::Opcode::Load);
}

vta::Instruction StoreOp::getInstruction() {
  return readMemory(*this, vta::Opcode::Store);
}

vta::Instruction GemmOp::getInstruction() {
  vta::Instruction insn = readLoop(*this, vta::Opcode::Gemm);
  insn.wgtFactorOut = getWgtFactorOutAttr().getInt();
  insn.wgtFactorIn = getWgtFactorInAttr().getInt();
  return insn;
}

vta::Instruction AluOp::getInstruction() {
  vta::Instruction insn = readLoop(*this, vta::Opcode::Alu);
  insn.aluOpcode = static_cast<vta::AluOpcode>(getAluOpcode());
  insn.useImm = getUseImm();
  insn.imm = getImmAttr().getInt();
  return insn;
}

vta::Instruction FinishOp::getInstruction() {
  vta::Instruction insn = vta::Instruction::finish();
  readDeps(*this, insn);
  return insn;
}

vta::Uop UopOp::getUop() {
  return {getDstIdxAttr().getInt(), getSrcIdxAttr().getInt(),
          getWgtIdxAttr().getInt()};
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  return verifyInstruction(*this, getInstruction());
}

LogicalResult StoreOp::verify() {
  return verifyInstruction(*this, getInstruction());
}

LogicalResult GemmOp::verify() {
  return verifyInstruction(*this, getInstruction());
}

LogicalResult AluOp::verify() {
  return verifyInstruction(*this, getInstruction());
}

LogicalResult FinishOp::verify() {
  return verifyInstruction(*this, getInstruction());
}

LogicalResult UopOp::verify() {
  bool ok = vta::checkUop(getProgramConfig(*this), getUop(),
                          [&](const Twine &message) { emitOpError(message); });
  return success(ok);
}

LogicalResult ProgramOp::verifyRegions() {
  for (Operation &op : getUopBlock())
    if (!isa<UopOp>(op))
      return op.emitOpError("cannot be in the uops region of a program, "
                            "which holds vta_isa.uop ops only");
  SmallVector<Operation *> insnOps;
  for (Operation &op : getInstructionBlock()) {
    if (!isa<InstructionOpInterface>(op))
      return op.emitOpError("cannot be in the instructions region of a "
                            "program, which holds instructions only");
    insnOps.push_back(&op);
  }

  bool ok = vta::checkProgramRules(
      getProgram(), [&](std::optional<size_t> index, const Twine &message) {
        if (index)
          insnOps[*index]->emitOpError(message);
        else
          emitOpError(message);
      });
  return success(ok);
}
