//===- Encoding.cpp - VTA instruction and micro-op words ------------------===//

#include "raf/Target/VTA/Encoding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"

using namespace raf::vta;

std::array<uint8_t, 16> InstructionWord::toBytes() const {
  std::array<uint8_t, 16> bytes;
  llvm::support::endian::write64le(bytes.data(), lo);
  llvm::support::endian::write64le(bytes.data() + 8, hi);
  return bytes;
}

InstructionWord InstructionWord::fromBytes(const uint8_t *bytes) {
  return {llvm::support::endian::read64le(bytes),
          llvm::support::endian::read64le(bytes + 8)};
}

namespace {
/// Reads and writes fields of a 128-bit word. Layout guarantees that no
/// field straddles bit 64, so each field lives in one half.
class WordAccess {
public:
  explicit WordAccess(InstructionWord &word) : word(word) {}

  void set(const BitField &field, uint64_t value) {
    uint64_t &half = field.offset < 64 ? word.lo : word.hi;
    half |= (value & field.getMaxValue()) << (field.offset % 64);
  }
  void set(const BitField &field, int64_t value) {
    set(field, static_cast<uint64_t>(value));
  }
  void set(const BitField &field, bool value) {
    set(field, uint64_t(value ? 1 : 0));
  }

  uint64_t get(const BitField &field) const {
    uint64_t half = field.offset < 64 ? word.lo : word.hi;
    return (half >> (field.offset % 64)) & field.getMaxValue();
  }

private:
  InstructionWord &word;
};

/// The bits `fields` cover.
InstructionWord usedBits(llvm::ArrayRef<BitField> fields) {
  InstructionWord mask;
  WordAccess access(mask);
  for (const BitField &field : fields)
    access.set(field, field.getMaxValue());
  return mask;
}

/// Fails naming the lowest set bit of `word` outside `fields`.
llvm::Error checkUnusedBits(InstructionWord word,
                            llvm::ArrayRef<BitField> fields,
                            llvm::StringRef format) {
  InstructionWord mask = usedBits(fields);
  uint64_t lo = word.lo & ~mask.lo, hi = word.hi & ~mask.hi;
  if (!lo && !hi)
    return llvm::Error::success();
  unsigned bit = lo ? llvm::countr_zero(lo) : 64 + llvm::countr_zero(hi);
  return llvm::createStringError("bit " + llvm::Twine(bit) + " is set but " +
                                 format + " instructions do not use it");
}
} // namespace

InstructionWord raf::vta::encodeInstruction(const Layout &layout,
                                            const Instruction &insn) {
  InstructionWord word;
  WordAccess w(word);
  w.set(layout.opcode, uint64_t(insn.opcode));
  w.set(layout.popPrevDep, insn.popPrevDep);
  w.set(layout.popNextDep, insn.popNextDep);
  w.set(layout.pushPrevDep, insn.pushPrevDep);
  w.set(layout.pushNextDep, insn.pushNextDep);
  switch (insn.opcode) {
  case Opcode::Load:
  case Opcode::Store: {
    const Layout::Mem &m = layout.mem;
    w.set(m.memoryType, uint64_t(insn.memoryType));
    w.set(m.sramBase, insn.sramBase);
    w.set(m.dramBase, insn.dramBase);
    w.set(m.ySize, insn.ySize);
    w.set(m.xSize, insn.xSize);
    w.set(m.xStride, insn.xStride);
    w.set(m.yPad0, insn.yPad0);
    w.set(m.yPad1, insn.yPad1);
    w.set(m.xPad0, insn.xPad0);
    w.set(m.xPad1, insn.xPad1);
    break;
  }
  case Opcode::Gemm: {
    const Layout::Gemm &g = layout.gemm;
    w.set(g.resetReg, insn.resetReg);
    w.set(g.uopBgn, insn.uopBgn);
    w.set(g.uopEnd, insn.uopEnd);
    w.set(g.iterOut, insn.iterOut);
    w.set(g.iterIn, insn.iterIn);
    w.set(g.dstFactorOut, insn.dstFactorOut);
    w.set(g.dstFactorIn, insn.dstFactorIn);
    w.set(g.srcFactorOut, insn.srcFactorOut);
    w.set(g.srcFactorIn, insn.srcFactorIn);
    w.set(g.wgtFactorOut, insn.wgtFactorOut);
    w.set(g.wgtFactorIn, insn.wgtFactorIn);
    break;
  }
  case Opcode::Alu: {
    const Layout::Alu &a = layout.alu;
    w.set(a.resetReg, insn.resetReg);
    w.set(a.uopBgn, insn.uopBgn);
    w.set(a.uopEnd, insn.uopEnd);
    w.set(a.iterOut, insn.iterOut);
    w.set(a.iterIn, insn.iterIn);
    w.set(a.dstFactorOut, insn.dstFactorOut);
    w.set(a.dstFactorIn, insn.dstFactorIn);
    w.set(a.srcFactorOut, insn.srcFactorOut);
    w.set(a.srcFactorIn, insn.srcFactorIn);
    w.set(a.aluOpcode, uint64_t(insn.aluOpcode));
    w.set(a.useImm, insn.useImm);
    // Two's complement in 16 bits.
    w.set(a.imm, insn.imm);
    break;
  }
  case Opcode::Finish:
    break;
  }
  return word;
}

llvm::Expected<Instruction>
raf::vta::decodeInstruction(const Layout &layout, InstructionWord word) {
  WordAccess w(word);
  Instruction insn;
  uint64_t opcode = w.get(layout.opcode);
  std::optional<Opcode> known = getOpcode(opcode);
  if (!known)
    return llvm::createStringError("unknown opcode " + llvm::Twine(opcode));
  insn.opcode = *known;
  insn.popPrevDep = w.get(layout.popPrevDep);
  insn.popNextDep = w.get(layout.popNextDep);
  insn.pushPrevDep = w.get(layout.pushPrevDep);
  insn.pushNextDep = w.get(layout.pushNextDep);
  auto i64 = [&](const BitField &field) { return int64_t(w.get(field)); };

  switch (insn.opcode) {
  case Opcode::Load:
  case Opcode::Store: {
    if (llvm::Error error =
            checkUnusedBits(word, layout.getMemFields(), "LOAD/STORE"))
      return std::move(error);
    const Layout::Mem &m = layout.mem;
    uint64_t type = w.get(m.memoryType);
    std::optional<MemoryType> knownType = getMemoryType(type);
    if (!knownType)
      return llvm::createStringError("unknown memory type " +
                                     llvm::Twine(type));
    insn.memoryType = *knownType;
    insn.sramBase = i64(m.sramBase);
    insn.dramBase = i64(m.dramBase);
    insn.ySize = i64(m.ySize);
    insn.xSize = i64(m.xSize);
    insn.xStride = i64(m.xStride);
    insn.yPad0 = i64(m.yPad0);
    insn.yPad1 = i64(m.yPad1);
    insn.xPad0 = i64(m.xPad0);
    insn.xPad1 = i64(m.xPad1);
    return insn;
  }
  case Opcode::Gemm: {
    if (llvm::Error error =
            checkUnusedBits(word, layout.getGemmFields(), "GEMM"))
      return std::move(error);
    const Layout::Gemm &g = layout.gemm;
    insn.resetReg = w.get(g.resetReg);
    insn.uopBgn = i64(g.uopBgn);
    insn.uopEnd = i64(g.uopEnd);
    insn.iterOut = i64(g.iterOut);
    insn.iterIn = i64(g.iterIn);
    insn.dstFactorOut = i64(g.dstFactorOut);
    insn.dstFactorIn = i64(g.dstFactorIn);
    insn.srcFactorOut = i64(g.srcFactorOut);
    insn.srcFactorIn = i64(g.srcFactorIn);
    insn.wgtFactorOut = i64(g.wgtFactorOut);
    insn.wgtFactorIn = i64(g.wgtFactorIn);
    return insn;
  }
  case Opcode::Alu: {
    if (llvm::Error error = checkUnusedBits(word, layout.getAluFields(), "ALU"))
      return std::move(error);
    const Layout::Alu &a = layout.alu;
    uint64_t op = w.get(a.aluOpcode);
    std::optional<AluOpcode> knownOp = getAluOpcode(op);
    if (!knownOp)
      return llvm::createStringError("unknown ALU opcode " + llvm::Twine(op));
    insn.aluOpcode = *knownOp;
    insn.resetReg = w.get(a.resetReg);
    insn.uopBgn = i64(a.uopBgn);
    insn.uopEnd = i64(a.uopEnd);
    insn.iterOut = i64(a.iterOut);
    insn.iterIn = i64(a.iterIn);
    insn.dstFactorOut = i64(a.dstFactorOut);
    insn.dstFactorIn = i64(a.dstFactorIn);
    insn.srcFactorOut = i64(a.srcFactorOut);
    insn.srcFactorIn = i64(a.srcFactorIn);
    insn.useImm = w.get(a.useImm);
    insn.imm = int16_t(uint16_t(w.get(a.imm)));
    return insn;
  }
  case Opcode::Finish:
    if (llvm::Error error =
            checkUnusedBits(word, layout.getFinishFields(), "FINISH"))
      return std::move(error);
    return insn;
  }
  llvm_unreachable("unknown opcode");
}

uint32_t raf::vta::encodeUop(const Layout &layout, const Uop &uop) {
  auto field = [](const BitField &f, int64_t value) {
    return uint32_t((uint64_t(value) & f.getMaxValue()) << f.offset);
  };
  return field(layout.uop.dstIdx, uop.dstIdx) |
         field(layout.uop.srcIdx, uop.srcIdx) |
         field(layout.uop.wgtIdx, uop.wgtIdx);
}

llvm::Expected<Uop> raf::vta::decodeUop(const Layout &layout, uint32_t word) {
  uint64_t used = 0;
  for (const BitField &f : layout.getUopFields())
    used |= f.getMaxValue() << f.offset;
  if (uint64_t unused = word & ~used)
    return llvm::createStringError(
        "bit " + llvm::Twine(llvm::countr_zero(unused)) +
        " is set but micro-ops do not use it");
  auto field = [&](const BitField &f) {
    return int64_t((word >> f.offset) & f.getMaxValue());
  };
  return Uop{field(layout.uop.dstIdx), field(layout.uop.srcIdx),
             field(layout.uop.wgtIdx)};
}
