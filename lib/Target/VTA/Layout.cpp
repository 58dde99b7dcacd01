//===- Layout.cpp - bit positions of VTA instruction fields ---------------===//

#include "raf/Target/VTA/Layout.h"

#include "raf/Target/VTA/Config.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace raf::vta;

namespace {
/// Places fields the way GCC lays out bit-fields of one base type: in order,
/// moving a field that would straddle a `unitBits` boundary to the next unit.
class Packer {
public:
  Packer(unsigned unitBits, unsigned wordBits, llvm::StringRef format)
      : unitBits(unitBits), wordBits(wordBits), format(format) {}

  BitField place(llvm::StringRef name, unsigned width) {
    if (next % unitBits + width > unitBits)
      next = (next / unitBits + 1) * unitBits;
    BitField field{name, next, width};
    next += width;
    if (next > wordBits && overflow.empty())
      overflow = (format + " field " + name + " (" + llvm::Twine(width) +
                  " bits) ends at bit " + llvm::Twine(next - 1) +
                  ", beyond the " + llvm::Twine(wordBits) + "-bit word")
                     .str();
    return field;
  }

  /// Continues after fields placed by another packer (the common prefix).
  void skipTo(unsigned bit) { next = bit; }
  const std::string &getOverflow() const { return overflow; }

private:
  unsigned unitBits;
  unsigned wordBits;
  llvm::StringRef format;
  unsigned next = 0;
  std::string overflow;
};
} // namespace

std::optional<Layout> Layout::compute(const Config &config,
                                      std::string *error) {
  Layout layout;
  unsigned logUop = config.logUopBuffDepth();
  unsigned logInp = config.logInpBuffDepth();
  unsigned logWgt = config.logWgtBuffDepth();
  unsigned logAcc = config.logAccBuffDepth();
  std::string firstError;
  auto note = [&](const Packer &packer) {
    if (firstError.empty())
      firstError = packer.getOverflow();
  };

  Packer common(64, widths::Instruction, "instruction");
  layout.opcode = common.place("opcode", widths::Opcode);
  layout.popPrevDep = common.place("pop_prev_dep", 1);
  layout.popNextDep = common.place("pop_next_dep", 1);
  layout.pushPrevDep = common.place("push_prev_dep", 1);
  layout.pushNextDep = common.place("push_next_dep", 1);
  unsigned afterCommon = layout.pushNextDep.offset + 1;

  Packer mem(64, widths::Instruction, "LOAD/STORE");
  mem.skipTo(afterCommon);
  Mem &m = layout.mem;
  m.memoryType = mem.place("memory_type", widths::MemoryType);
  m.sramBase = mem.place("sram_base", widths::SramAddr);
  m.dramBase = mem.place("dram_base", widths::DramAddr);
  m.ySize = mem.place("y_size", widths::MemSize);
  m.xSize = mem.place("x_size", widths::MemSize);
  m.xStride = mem.place("x_stride", widths::MemStride);
  m.yPad0 = mem.place("y_pad_0", widths::Pad);
  m.yPad1 = mem.place("y_pad_1", widths::Pad);
  m.xPad0 = mem.place("x_pad_0", widths::Pad);
  m.xPad1 = mem.place("x_pad_1", widths::Pad);
  note(mem);

  Packer gemm(64, widths::Instruction, "GEMM");
  gemm.skipTo(afterCommon);
  Gemm &g = layout.gemm;
  g.resetReg = gemm.place("reset_reg", 1);
  g.uopBgn = gemm.place("uop_bgn", logUop);
  g.uopEnd = gemm.place("uop_end", logUop + 1);
  g.iterOut = gemm.place("iter_out", widths::LoopIter);
  g.iterIn = gemm.place("iter_in", widths::LoopIter);
  g.dstFactorOut = gemm.place("dst_factor_out", logAcc);
  g.dstFactorIn = gemm.place("dst_factor_in", logAcc);
  g.srcFactorOut = gemm.place("src_factor_out", logInp);
  g.srcFactorIn = gemm.place("src_factor_in", logInp);
  g.wgtFactorOut = gemm.place("wgt_factor_out", logWgt);
  g.wgtFactorIn = gemm.place("wgt_factor_in", logWgt);
  note(gemm);

  Packer alu(64, widths::Instruction, "ALU");
  alu.skipTo(afterCommon);
  Alu &a = layout.alu;
  a.resetReg = alu.place("reset_reg", 1);
  a.uopBgn = alu.place("uop_bgn", logUop);
  a.uopEnd = alu.place("uop_end", logUop + 1);
  a.iterOut = alu.place("iter_out", widths::LoopIter);
  a.iterIn = alu.place("iter_in", widths::LoopIter);
  a.dstFactorOut = alu.place("dst_factor_out", logAcc);
  a.dstFactorIn = alu.place("dst_factor_in", logAcc);
  a.srcFactorOut = alu.place("src_factor_out", logAcc);
  a.srcFactorIn = alu.place("src_factor_in", logAcc);
  a.aluOpcode = alu.place("alu_opcode", widths::AluOpcode);
  a.useImm = alu.place("use_imm", 1);
  a.imm = alu.place("imm", widths::AluImm);
  note(alu);

  Packer uop(32, widths::Uop, "micro-op");
  Uop &u = layout.uop;
  u.dstIdx = uop.place("dst_idx", logAcc);
  u.srcIdx = uop.place("src_idx", std::max(logInp, logAcc));
  u.wgtIdx = uop.place("wgt_idx", logWgt);
  note(uop);

  if (!firstError.empty()) {
    if (error)
      *error = firstError;
    return std::nullopt;
  }
  return layout;
}

llvm::SmallVector<BitField> Layout::getMemFields() const {
  return {opcode,       popPrevDep,   popNextDep, pushPrevDep, pushNextDep,
          mem.memoryType, mem.sramBase, mem.dramBase, mem.ySize, mem.xSize,
          mem.xStride,  mem.yPad0,    mem.yPad1,  mem.xPad0,   mem.xPad1};
}

llvm::SmallVector<BitField> Layout::getGemmFields() const {
  return {opcode,           popPrevDep,       popNextDep,
          pushPrevDep,      pushNextDep,      gemm.resetReg,
          gemm.uopBgn,      gemm.uopEnd,      gemm.iterOut,
          gemm.iterIn,      gemm.dstFactorOut, gemm.dstFactorIn,
          gemm.srcFactorOut, gemm.srcFactorIn, gemm.wgtFactorOut,
          gemm.wgtFactorIn};
}

llvm::SmallVector<BitField> Layout::getAluFields() const {
  return {opcode,          popPrevDep,      popNextDep,     pushPrevDep,
          pushNextDep,     alu.resetReg,    alu.uopBgn,     alu.uopEnd,
          alu.iterOut,     alu.iterIn,      alu.dstFactorOut, alu.dstFactorIn,
          alu.srcFactorOut, alu.srcFactorIn, alu.aluOpcode,  alu.useImm,
          alu.imm};
}

llvm::SmallVector<BitField> Layout::getFinishFields() const {
  return {opcode, popPrevDep, popNextDep, pushPrevDep, pushNextDep};
}

llvm::SmallVector<BitField> Layout::getUopFields() const {
  return {uop.dstIdx, uop.srcIdx, uop.wgtIdx};
}
