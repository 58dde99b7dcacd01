//===- CycleModel.cpp - VTA instruction latencies -------------------------===//

#include "raf/Target/VTA/CycleModel.h"

#include "llvm/Support/ErrorHandling.h"

using namespace raf::vta;

uint64_t CycleModel::getTransferBytes(const Config &config,
                                      const Instruction &insn) {
  if (insn.opcode != Opcode::Load && insn.opcode != Opcode::Store)
    return 0;
  uint64_t elements = uint64_t(insn.ySize) * uint64_t(insn.xSize);
  uint64_t elemBytes = insn.memoryType == MemoryType::Acc8Bit
                           ? config.batch() * config.blockOut()
                           : config.elemBytes(getBuffer(insn.memoryType));
  return elements * elemBytes;
}

uint64_t CycleModel::getPadElements(const Instruction &insn) {
  // A load of no columns does nothing; one of no DRAM rows still writes
  // its padding rows.
  if (insn.opcode != Opcode::Load || insn.xSize == 0)
    return 0;
  uint64_t total = uint64_t(insn.yPad0 + insn.ySize + insn.yPad1) *
                   uint64_t(insn.xPad0 + insn.xSize + insn.xPad1);
  return total - uint64_t(insn.ySize) * uint64_t(insn.xSize);
}

uint64_t CycleModel::getUopSteps(const Instruction &insn) {
  if (insn.opcode != Opcode::Gemm && insn.opcode != Opcode::Alu)
    return 0;
  if (insn.uopEnd <= insn.uopBgn)
    return 0;
  return uint64_t(insn.iterOut) * uint64_t(insn.iterIn) *
         uint64_t(insn.uopEnd - insn.uopBgn);
}

uint64_t CycleModel::getLatency(const Config &config,
                                const Instruction &insn) const {
  switch (insn.opcode) {
  case Opcode::Load:
  case Opcode::Store: {
    uint64_t bytes = getTransferBytes(config, insn);
    // A transfer of no DRAM elements only writes its padding rows, if any
    // (TVM-VTA's simulator returns early for no columns).
    if (bytes == 0)
      return issueCycles + getPadElements(insn) * padCyclesPerElement;
    uint64_t perCycle = dmaBytesPerCycle ? dmaBytesPerCycle : 1;
    return issueCycles + dmaLatencyCycles + (bytes + perCycle - 1) / perCycle +
           getPadElements(insn) * padCyclesPerElement;
  }
  case Opcode::Gemm:
    return issueCycles + getUopSteps(insn) * gemmCyclesPerUop;
  case Opcode::Alu:
    return issueCycles + getUopSteps(insn) * aluCyclesPerUop;
  case Opcode::Finish:
    return issueCycles;
  }
  llvm_unreachable("unknown opcode");
}
