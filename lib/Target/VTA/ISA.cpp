//===- ISA.cpp - VTA instructions, micro-ops and programs -----------------===//

#include "raf/Target/VTA/ISA.h"

#include "llvm/Support/ErrorHandling.h"

using namespace raf::vta;

llvm::StringRef raf::vta::getOpcodeName(Opcode opcode) {
  switch (opcode) {
  case Opcode::Load:
    return "load";
  case Opcode::Store:
    return "store";
  case Opcode::Gemm:
    return "gemm";
  case Opcode::Finish:
    return "finish";
  case Opcode::Alu:
    return "alu";
  }
  llvm_unreachable("unknown opcode");
}

llvm::StringRef raf::vta::getMemoryTypeName(MemoryType type) {
  switch (type) {
  case MemoryType::Uop:
    return "uop";
  case MemoryType::Wgt:
    return "wgt";
  case MemoryType::Inp:
    return "inp";
  case MemoryType::Acc:
    return "acc";
  case MemoryType::Out:
    return "out";
  case MemoryType::Acc8Bit:
    return "acc_8bit";
  }
  llvm_unreachable("unknown memory type");
}

llvm::StringRef raf::vta::getAluOpcodeName(AluOpcode opcode) {
  switch (opcode) {
  case AluOpcode::Min:
    return "min";
  case AluOpcode::Max:
    return "max";
  case AluOpcode::Add:
    return "add";
  case AluOpcode::Shr:
    return "shr";
  case AluOpcode::Mul:
    return "mul";
  }
  llvm_unreachable("unknown ALU opcode");
}

std::optional<Opcode> raf::vta::getOpcode(uint64_t value) {
  if (value > uint64_t(Opcode::Alu))
    return std::nullopt;
  return static_cast<Opcode>(value);
}

std::optional<MemoryType> raf::vta::getMemoryType(uint64_t value) {
  if (value > uint64_t(MemoryType::Acc8Bit))
    return std::nullopt;
  return static_cast<MemoryType>(value);
}

std::optional<AluOpcode> raf::vta::getAluOpcode(uint64_t value) {
  if (value > uint64_t(AluOpcode::Mul))
    return std::nullopt;
  return static_cast<AluOpcode>(value);
}

Buffer raf::vta::getBuffer(MemoryType type) {
  switch (type) {
  case MemoryType::Uop:
    return Buffer::Uop;
  case MemoryType::Wgt:
    return Buffer::Wgt;
  case MemoryType::Inp:
    return Buffer::Inp;
  case MemoryType::Acc:
  case MemoryType::Acc8Bit:
    return Buffer::Acc;
  case MemoryType::Out:
    return Buffer::Out;
  }
  llvm_unreachable("unknown memory type");
}

llvm::StringRef raf::vta::getModuleName(Module module) {
  switch (module) {
  case Module::Load:
    return "load";
  case Module::Compute:
    return "compute";
  case Module::Store:
    return "store";
  }
  llvm_unreachable("unknown module");
}

llvm::StringRef raf::vta::getTokenQueueName(TokenQueue queue) {
  switch (queue) {
  case TokenQueue::LoadToCompute:
    return "l2g";
  case TokenQueue::ComputeToLoad:
    return "g2l";
  case TokenQueue::ComputeToStore:
    return "g2s";
  case TokenQueue::StoreToCompute:
    return "s2g";
  }
  llvm_unreachable("unknown token queue");
}

Instruction Instruction::load(MemoryType type, int64_t sramBase,
                              int64_t dramBase, int64_t ySize, int64_t xSize,
                              int64_t xStride) {
  Instruction insn;
  insn.opcode = Opcode::Load;
  insn.memoryType = type;
  insn.sramBase = sramBase;
  insn.dramBase = dramBase;
  insn.ySize = ySize;
  insn.xSize = xSize;
  insn.xStride = xStride;
  return insn;
}

Instruction Instruction::store(int64_t sramBase, int64_t dramBase,
                               int64_t ySize, int64_t xSize, int64_t xStride) {
  Instruction insn = load(MemoryType::Out, sramBase, dramBase, ySize, xSize,
                          xStride);
  insn.opcode = Opcode::Store;
  return insn;
}

Instruction Instruction::gemm(int64_t uopBgn, int64_t uopEnd, int64_t iterOut,
                              int64_t iterIn, bool resetReg) {
  Instruction insn;
  insn.opcode = Opcode::Gemm;
  insn.uopBgn = uopBgn;
  insn.uopEnd = uopEnd;
  insn.iterOut = iterOut;
  insn.iterIn = iterIn;
  insn.resetReg = resetReg;
  return insn;
}

Instruction Instruction::alu(AluOpcode op, int64_t uopBgn, int64_t uopEnd,
                             int64_t iterOut, int64_t iterIn) {
  Instruction insn;
  insn.opcode = Opcode::Alu;
  insn.aluOpcode = op;
  insn.uopBgn = uopBgn;
  insn.uopEnd = uopEnd;
  insn.iterOut = iterOut;
  insn.iterIn = iterIn;
  return insn;
}

Instruction Instruction::aluImm(AluOpcode op, int64_t imm, int64_t uopBgn,
                                int64_t uopEnd, int64_t iterOut,
                                int64_t iterIn) {
  Instruction insn = alu(op, uopBgn, uopEnd, iterOut, iterIn);
  insn.useImm = true;
  insn.imm = imm;
  return insn;
}

Instruction Instruction::finish() { return Instruction(); }

Instruction &Instruction::deps(bool popPrev, bool popNext, bool pushPrev,
                               bool pushNext) {
  popPrevDep = popPrev;
  popNextDep = popNext;
  pushPrevDep = pushPrev;
  pushNextDep = pushNext;
  return *this;
}

Module Instruction::getModule() const {
  switch (opcode) {
  case Opcode::Load:
    return memoryType == MemoryType::Inp || memoryType == MemoryType::Wgt
               ? Module::Load
               : Module::Compute;
  case Opcode::Store:
    return Module::Store;
  case Opcode::Gemm:
  case Opcode::Alu:
  case Opcode::Finish:
    return Module::Compute;
  }
  llvm_unreachable("unknown opcode");
}

bool Instruction::operator==(const Instruction &o) const {
  if (opcode != o.opcode || popPrevDep != o.popPrevDep ||
      popNextDep != o.popNextDep || pushPrevDep != o.pushPrevDep ||
      pushNextDep != o.pushNextDep)
    return false;
  switch (opcode) {
  case Opcode::Load:
  case Opcode::Store:
    return memoryType == o.memoryType && sramBase == o.sramBase &&
           dramBase == o.dramBase && ySize == o.ySize && xSize == o.xSize &&
           xStride == o.xStride && yPad0 == o.yPad0 && yPad1 == o.yPad1 &&
           xPad0 == o.xPad0 && xPad1 == o.xPad1;
  case Opcode::Gemm:
  case Opcode::Alu: {
    bool loop = resetReg == o.resetReg && uopBgn == o.uopBgn &&
                uopEnd == o.uopEnd && iterOut == o.iterOut &&
                iterIn == o.iterIn && dstFactorOut == o.dstFactorOut &&
                dstFactorIn == o.dstFactorIn &&
                srcFactorOut == o.srcFactorOut && srcFactorIn == o.srcFactorIn;
    if (opcode == Opcode::Gemm)
      return loop && wgtFactorOut == o.wgtFactorOut &&
             wgtFactorIn == o.wgtFactorIn;
    return loop && aluOpcode == o.aluOpcode && useImm == o.useImm &&
           imm == o.imm;
  }
  case Opcode::Finish:
    return true;
  }
  llvm_unreachable("unknown opcode");
}

// Token semantics per module (tvm-vta hardware/xilinx/src/vta.cc): pops happen
// before execution, pushes after. The load module has no previous stage and the
// store module no next one.
std::optional<TokenQueue> raf::vta::getPopPrevQueue(Module module) {
  switch (module) {
  case Module::Load:
    return std::nullopt;
  case Module::Compute:
    return TokenQueue::LoadToCompute;
  case Module::Store:
    return TokenQueue::ComputeToStore;
  }
  llvm_unreachable("unknown module");
}

std::optional<TokenQueue> raf::vta::getPopNextQueue(Module module) {
  switch (module) {
  case Module::Load:
    return TokenQueue::ComputeToLoad;
  case Module::Compute:
    return TokenQueue::StoreToCompute;
  case Module::Store:
    return std::nullopt;
  }
  llvm_unreachable("unknown module");
}

std::optional<TokenQueue> raf::vta::getPushPrevQueue(Module module) {
  switch (module) {
  case Module::Load:
    return std::nullopt;
  case Module::Compute:
    return TokenQueue::ComputeToLoad;
  case Module::Store:
    return TokenQueue::StoreToCompute;
  }
  llvm_unreachable("unknown module");
}

std::optional<TokenQueue> raf::vta::getPushNextQueue(Module module) {
  switch (module) {
  case Module::Load:
    return TokenQueue::LoadToCompute;
  case Module::Compute:
    return TokenQueue::ComputeToStore;
  case Module::Store:
    return std::nullopt;
  }
  llvm_unreachable("unknown module");
}
