//===- Checks.cpp - validity rules of VTA programs ------------------------===//

#include "raf/Target/VTA/Checks.h"

#include "raf/Target/VTA/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>

using namespace raf::vta;

namespace {

/// Reports through `report` and remembers that something was reported.
class Reporter {
public:
  explicit Reporter(ReportFn report) : report(report) {}

  void operator()(const llvm::Twine &message) {
    report(message);
    ok = false;
  }

  /// Checks that `value` fits unsigned in `field`.
  bool fits(const BitField &field, int64_t value) {
    if (value >= 0 && uint64_t(value) <= field.getMaxValue())
      return true;
    (*this)(field.name + " = " + llvm::Twine(value) + " does not fit in " +
            llvm::Twine(field.width) + " bits");
    return false;
  }

  bool isOk() const { return ok; }

private:
  ReportFn report;
  bool ok = true;
};

void checkDeps(const Instruction &insn, Reporter &report) {
  Module module = insn.getModule();
  auto check = [&](bool set, std::optional<TokenQueue> queue,
                   llvm::StringRef flag, llvm::StringRef missing) {
    if (set && !queue)
      report(flag + " is set but the " + getModuleName(module) +
             " module, which executes this instruction, has no " + missing +
             " stage");
  };
  check(insn.popPrevDep, getPopPrevQueue(module), "pop_prev_dep", "previous");
  check(insn.pushPrevDep, getPushPrevQueue(module), "push_prev_dep",
        "previous");
  check(insn.popNextDep, getPopNextQueue(module), "pop_next_dep", "next");
  check(insn.pushNextDep, getPushNextQueue(module), "push_next_dep", "next");
}

void checkMemory(const Config &config, const Layout &layout,
                 const Instruction &insn, Reporter &report) {
  bool isLoad = insn.opcode == Opcode::Load;
  llvm::StringRef kind = isLoad ? "LOAD" : "STORE";
  if (isLoad && insn.memoryType == MemoryType::Out)
    report("LOAD cannot write the out buffer (GEMM and ALU write it)");
  if (!isLoad && insn.memoryType != MemoryType::Out)
    report("STORE reads the out buffer only, not " +
           getMemoryTypeName(insn.memoryType));

  const Layout::Mem &m = layout.mem;
  bool fieldsFit = report.fits(m.sramBase, insn.sramBase);
  fieldsFit &= report.fits(m.dramBase, insn.dramBase);
  fieldsFit &= report.fits(m.ySize, insn.ySize);
  fieldsFit &= report.fits(m.xSize, insn.xSize);
  fieldsFit &= report.fits(m.xStride, insn.xStride);
  fieldsFit &= report.fits(m.yPad0, insn.yPad0);
  fieldsFit &= report.fits(m.yPad1, insn.yPad1);
  fieldsFit &= report.fits(m.xPad0, insn.xPad0);
  fieldsFit &= report.fits(m.xPad1, insn.xPad1);
  if (!fieldsFit || !report.isOk())
    return;

  // Only the load module's INP path pads in hardware (vta.cc); WGT, ACC and
  // UOP loads are plain copies, and stores never pad.
  bool padded = insn.yPad0 || insn.yPad1 || insn.xPad0 || insn.xPad1;
  if (padded && !(isLoad && insn.memoryType == MemoryType::Inp))
    report(kind + " of " + getMemoryTypeName(insn.memoryType) +
           " cannot pad (only INP loads pad): y_pad = (" +
           llvm::Twine(insn.yPad0) + ", " + llvm::Twine(insn.yPad1) +
           "), x_pad = (" + llvm::Twine(insn.xPad0) + ", " +
           llvm::Twine(insn.xPad1) + ")");

  Buffer buffer = getBuffer(insn.memoryType);
  uint64_t depth = config.buffDepth(buffer);
  if (uint64_t(insn.sramBase) >= depth) {
    report("sram_base = " + llvm::Twine(insn.sramBase) + " is outside the " +
           getBufferName(buffer) + " buffer (" + llvm::Twine(depth) +
           " rows)");
    return;
  }
  // A transfer of no columns touches nothing; a store of no rows neither,
  // but a load of no DRAM rows still writes its padding rows.
  if (insn.xSize == 0 || (!isLoad && insn.ySize == 0))
    return;

  // The hardware copies x_size consecutive micro-ops (vta.cc).
  if (isLoad && insn.memoryType == MemoryType::Uop && insn.ySize != 1) {
    report("a UOP load copies one row of micro-ops: y_size must be 1, got " +
           llvm::Twine(insn.ySize));
    return;
  }

  uint64_t rows = uint64_t(insn.yPad0 + insn.ySize + insn.yPad1) *
                  uint64_t(insn.xPad0 + insn.xSize + insn.xPad1);
  if (insn.sramBase + rows > depth)
    report(kind + llvm::Twine(isLoad ? " writes" : " reads") + " rows [" +
           llvm::Twine(insn.sramBase) + ", " +
           llvm::Twine(insn.sramBase + rows) + ") of the " +
           getBufferName(buffer) + " buffer, which has " +
           llvm::Twine(depth) + " rows");
}

void checkLoop(const Config &config, const Layout &layout,
               const Instruction &insn, Reporter &report) {
  bool isGemm = insn.opcode == Opcode::Gemm;
  const Layout::Gemm &g = layout.gemm;
  const Layout::Alu &a = layout.alu;
  bool fieldsFit = report.fits(isGemm ? g.uopBgn : a.uopBgn, insn.uopBgn);
  fieldsFit &= report.fits(isGemm ? g.uopEnd : a.uopEnd, insn.uopEnd);
  fieldsFit &= report.fits(isGemm ? g.iterOut : a.iterOut, insn.iterOut);
  fieldsFit &= report.fits(isGemm ? g.iterIn : a.iterIn, insn.iterIn);
  fieldsFit &= report.fits(isGemm ? g.dstFactorOut : a.dstFactorOut,
                           insn.dstFactorOut);
  fieldsFit &=
      report.fits(isGemm ? g.dstFactorIn : a.dstFactorIn, insn.dstFactorIn);
  fieldsFit &= report.fits(isGemm ? g.srcFactorOut : a.srcFactorOut,
                           insn.srcFactorOut);
  fieldsFit &=
      report.fits(isGemm ? g.srcFactorIn : a.srcFactorIn, insn.srcFactorIn);
  if (isGemm) {
    fieldsFit &= report.fits(g.wgtFactorOut, insn.wgtFactorOut);
    fieldsFit &= report.fits(g.wgtFactorIn, insn.wgtFactorIn);
  } else {
    if (insn.imm < -(int64_t(1) << (widths::AluImm - 1)) ||
        insn.imm >= (int64_t(1) << (widths::AluImm - 1))) {
      report("imm = " + llvm::Twine(insn.imm) +
             " does not fit in a signed 16-bit immediate");
      fieldsFit = false;
    }
  }
  if (!fieldsFit)
    return;

  uint64_t uopDepth = config.buffDepth(Buffer::Uop);
  if (uint64_t(insn.uopEnd) > uopDepth)
    report("uop_end = " + llvm::Twine(insn.uopEnd) +
           " is past the uop buffer (" + llvm::Twine(uopDepth) + " rows)");
  if (insn.uopBgn >= insn.uopEnd)
    report("uop_bgn = " + llvm::Twine(insn.uopBgn) +
           " must be less than uop_end = " + llvm::Twine(insn.uopEnd));
  if (insn.iterOut == 0)
    report("iter_out must be at least 1");
  if (insn.iterIn == 0)
    report("iter_in must be at least 1");

  if (isGemm)
    return;
  // The HLS ALU reads the shift amount from the operand's low LOG_ACC_WIDTH
  // bits as a signed value; an immediate outside that range would shift by
  // something else than written.
  int64_t shiftLimit = int64_t(1) << (config.logAccWidth - 1);
  if (insn.aluOpcode == AluOpcode::Shr && insn.useImm &&
      (insn.imm < -shiftLimit || insn.imm >= shiftLimit))
    report("SHR by imm = " + llvm::Twine(insn.imm) + " is outside [" +
           llvm::Twine(-shiftLimit) + ", " + llvm::Twine(shiftLimit - 1) +
           "]: the shift amount is the operand's low " +
           llvm::Twine(config.logAccWidth) + " bits, read as signed");
  if (insn.resetReg)
    report("ALU has no reset: the ALU ignores reset_reg (reset accumulators "
           "with a GEMM)");
}

} // namespace

bool raf::vta::checkInstruction(const Config &config, const Instruction &insn,
                                ReportFn reportFn) {
  Reporter report(reportFn);
  std::optional<Layout> layout = Layout::compute(config);
  if (!layout) {
    report("invalid configuration");
    return false;
  }
  checkDeps(insn, report);
  switch (insn.opcode) {
  case Opcode::Load:
  case Opcode::Store:
    checkMemory(config, *layout, insn, report);
    break;
  case Opcode::Gemm:
  case Opcode::Alu:
    checkLoop(config, *layout, insn, report);
    break;
  case Opcode::Finish:
    break;
  }
  return report.isOk();
}

bool raf::vta::checkUop(const Config &config, const Uop &uop,
                        ReportFn reportFn) {
  Reporter report(reportFn);
  std::optional<Layout> layout = Layout::compute(config);
  if (!layout) {
    report("invalid configuration");
    return false;
  }
  report.fits(layout->uop.dstIdx, uop.dstIdx);
  report.fits(layout->uop.srcIdx, uop.srcIdx);
  report.fits(layout->uop.wgtIdx, uop.wgtIdx);
  return report.isOk();
}

namespace {
/// Checks the rows one GEMM or ALU instruction reaches with the micro-ops
/// the uop buffer holds when it runs.
void checkLoopIndices(const Config &config, const Instruction &insn,
                      const std::vector<std::optional<Uop>> &uopBuffer,
                      llvm::function_ref<void(const llvm::Twine &)> report) {
  bool isGemm = insn.opcode == Opcode::Gemm;
  llvm::StringRef kind = isGemm ? "GEMM" : "ALU";
  for (int64_t u = insn.uopBgn; u < insn.uopEnd; ++u) {
    if (!uopBuffer[u]) {
      report(kind + " runs micro-op " + llvm::Twine(u) +
             " of the uop buffer, which no earlier UOP load filled");
      return;
    }
    const Uop &uop = *uopBuffer[u];
    // Factors are unsigned, so the largest row is reached in the last
    // iteration of both loops.
    int64_t lastOut = insn.iterOut - 1, lastIn = insn.iterIn - 1;
    auto check = [&](llvm::StringRef role, int64_t base, int64_t factorOut,
                     int64_t factorIn, Buffer buffer) {
      int64_t row = base + lastOut * factorOut + lastIn * factorIn;
      uint64_t depth = config.buffDepth(buffer);
      if (uint64_t(row) < depth)
        return true;
      report(kind + " reaches " + getBufferName(buffer) + " row " +
             llvm::Twine(row) + " (" + role + " of micro-op " +
             llvm::Twine(u) + " at i_out = " + llvm::Twine(lastOut) +
             ", i_in = " + llvm::Twine(lastIn) + "), past the end of the " +
             getBufferName(buffer) + " buffer (" + llvm::Twine(depth) +
             " rows)");
      return false;
    };
    if (!check("dst_idx", uop.dstIdx, insn.dstFactorOut, insn.dstFactorIn,
               Buffer::Acc))
      return;
    // A reset only writes accumulators; an ALU with an immediate reads no
    // second row.
    if (isGemm && insn.resetReg)
      continue;
    if (isGemm) {
      if (!check("src_idx", uop.srcIdx, insn.srcFactorOut, insn.srcFactorIn,
                 Buffer::Inp) ||
          !check("wgt_idx", uop.wgtIdx, insn.wgtFactorOut, insn.wgtFactorIn,
                 Buffer::Wgt))
        return;
    } else if (!insn.useImm &&
               !check("src_idx", uop.srcIdx, insn.srcFactorOut,
                      insn.srcFactorIn, Buffer::Acc)) {
      return;
    }
  }
}
} // namespace

bool raf::vta::checkProgramRules(const Program &program,
                                 ProgramReportFn report) {
  bool ok = true;
  auto fail = [&](std::optional<size_t> index, const llvm::Twine &message) {
    report(index, message);
    ok = false;
  };
  const std::vector<Instruction> &insns = program.instructions;

  // FINISH: exactly one, last.
  for (size_t i = 0; i < insns.size(); ++i)
    if (insns[i].opcode == Opcode::Finish && i + 1 != insns.size())
      fail(i, "FINISH must be the last instruction (this is instruction " +
                  llvm::Twine(uint64_t(i)) + " of " +
                  llvm::Twine(uint64_t(insns.size())) + ")");
  if (insns.empty() || insns.back().opcode != Opcode::Finish)
    fail(std::nullopt, "the program must end with FINISH");

  // Token balance: at the end of a run every FIFO must be empty.
  std::array<int64_t, 4> pushes{}, pops{};
  for (const Instruction &insn : insns) {
    Module module = insn.getModule();
    if (insn.popPrevDep)
      if (auto queue = getPopPrevQueue(module))
        ++pops[size_t(*queue)];
    if (insn.popNextDep)
      if (auto queue = getPopNextQueue(module))
        ++pops[size_t(*queue)];
    if (insn.pushPrevDep)
      if (auto queue = getPushPrevQueue(module))
        ++pushes[size_t(*queue)];
    if (insn.pushNextDep)
      if (auto queue = getPushNextQueue(module))
        ++pushes[size_t(*queue)];
  }
  struct QueueEnds {
    TokenQueue queue;
    const char *pusher, *pushFlag, *popper, *popFlag;
  };
  const QueueEnds ends[] = {
      {TokenQueue::LoadToCompute, "load", "push_next_dep", "compute",
       "pop_prev_dep"},
      {TokenQueue::ComputeToLoad, "compute", "push_prev_dep", "load",
       "pop_next_dep"},
      {TokenQueue::ComputeToStore, "compute", "push_next_dep", "store",
       "pop_prev_dep"},
      {TokenQueue::StoreToCompute, "store", "push_prev_dep", "compute",
       "pop_next_dep"},
  };
  for (const QueueEnds &e : ends) {
    int64_t pushed = pushes[size_t(e.queue)], popped = pops[size_t(e.queue)];
    if (pushed != popped)
      fail(std::nullopt,
           "dependence tokens of " + getTokenQueueName(e.queue) +
               " do not balance: the " + e.pusher + " module pushes " +
               llvm::Twine(pushed) + " (" + e.pushFlag + ") and the " +
               e.popper + " module pops " + llvm::Twine(popped) + " (" +
               e.popFlag + ")");
  }

  // Micro-ops: follow the uop buffer through the compute module's in-order
  // stream.
  const Config &config = program.config;
  std::vector<std::optional<Uop>> uopBuffer(config.buffDepth(Buffer::Uop));
  for (size_t i = 0; i < insns.size(); ++i) {
    const Instruction &insn = insns[i];
    if (insn.opcode == Opcode::Load && insn.memoryType == MemoryType::Uop) {
      if (insn.xSize == 0 || insn.ySize == 0)
        continue;
      if (uint64_t(insn.dramBase + insn.xSize) > program.uops.size()) {
        fail(i, "UOP load reads micro-ops [" + llvm::Twine(insn.dramBase) +
                    ", " + llvm::Twine(insn.dramBase + insn.xSize) +
                    ") but the micro-op table has " +
                    llvm::Twine(uint64_t(program.uops.size())) + " entries");
        continue;
      }
      for (int64_t x = 0; x < insn.xSize; ++x)
        uopBuffer[insn.sramBase + x] = program.uops[insn.dramBase + x];
      continue;
    }
    if (insn.opcode == Opcode::Gemm || insn.opcode == Opcode::Alu)
      checkLoopIndices(config, insn, uopBuffer,
                       [&](const llvm::Twine &message) { fail(i, message); });
  }
  return ok;
}

std::vector<std::string> raf::vta::checkProgram(const Program &program) {
  std::vector<std::string> errors;
  for (const std::string &error : program.config.validate())
    errors.push_back("config: " + error);
  if (!errors.empty())
    return errors;

  for (size_t i = 0; i < program.uops.size(); ++i)
    checkUop(program.config, program.uops[i], [&](const llvm::Twine &message) {
      errors.push_back(("uop " + llvm::Twine(uint64_t(i)) + ": " + message)
                           .str());
    });
  auto insnPrefix = [&](size_t i) {
    return ("instruction " + llvm::Twine(uint64_t(i)) + " (" +
            getOpcodeName(program.instructions[i].opcode) + "): ")
        .str();
  };
  for (size_t i = 0; i < program.instructions.size(); ++i)
    checkInstruction(program.config, program.instructions[i],
                     [&](const llvm::Twine &message) {
                       errors.push_back(insnPrefix(i) + message.str());
                     });
  if (!errors.empty())
    return errors;

  checkProgramRules(program, [&](std::optional<size_t> index,
                                 const llvm::Twine &message) {
    errors.push_back((index ? insnPrefix(*index) : std::string("program: ")) +
                     message.str());
  });
  return errors;
}

std::optional<AccDependenceHazard>
raf::vta::findAccDependenceHazard(const Program &program, unsigned distance) {
  if (distance <= 1)
    return std::nullopt;
  // The micro-op buffer, as UOP loads fill it (they, GEMM and ALU run in
  // order on the compute module).
  std::vector<Uop> buffer(program.config.buffDepth(Buffer::Uop));
  // The last step that wrote each accumulator row, within one GEMM.
  std::vector<uint64_t> lastWrite(program.config.buffDepth(Buffer::Acc));
  std::vector<int64_t> written;
  for (auto [index, insn] : llvm::enumerate(program.instructions)) {
    if (insn.opcode == Opcode::Load && insn.memoryType == MemoryType::Uop) {
      for (int64_t x = 0; x < insn.xSize; ++x)
        buffer[insn.sramBase + x] = program.uops[insn.dramBase + x];
      continue;
    }
    if (insn.opcode != Opcode::Gemm || insn.resetReg)
      continue;
    // Rows this GEMM wrote, stored as step + 1 so that 0 means "not yet".
    for (int64_t row : written)
      lastWrite[row] = 0;
    written.clear();
    uint64_t step = 0;
    for (int64_t out = 0; out < insn.iterOut; ++out)
      for (int64_t in = 0; in < insn.iterIn; ++in)
        for (int64_t u = insn.uopBgn; u < insn.uopEnd; ++u, ++step) {
          int64_t row = buffer[u].dstIdx + out * insn.dstFactorOut +
                        in * insn.dstFactorIn;
          uint64_t &last = lastWrite[row];
          if (last != 0 && step + 1 - last < distance)
            return AccDependenceHazard{index, step, row, step + 1 - last};
          if (last == 0)
            written.push_back(row);
          last = step + 1;
        }
  }
  return std::nullopt;
}
