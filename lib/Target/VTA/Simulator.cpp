//===- Simulator.cpp - functional and cycle simulation of VTA -------------===//

#include "raf/Target/VTA/Simulator.h"

#include "raf/Target/VTA/Checks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>

using namespace raf::vta;
namespace endian = llvm::support::endian;

static const Module allModules[] = {Module::Load, Module::Compute,
                                    Module::Store};

Simulator::Simulator(const Config &config) : config(config) {}

void SimulationResult::print(llvm::raw_ostream &os) const {
  os << "cycles: " << cycles << "\n";
  for (Module module : allModules)
    os << getModuleName(module) << ": " << instructions[size_t(module)]
       << " instructions, " << busyCycles[size_t(module)] << " busy cycles\n";
  os << "gemm micro-op steps: " << gemmUopSteps << "\n";
  os << "alu micro-op steps: " << aluUopSteps << "\n";
  for (size_t type = 0; type < loadBytes.size(); ++type)
    if (loadBytes[type])
      os << "loaded " << getMemoryTypeName(MemoryType(type))
         << " bytes: " << loadBytes[type] << "\n";
  os << "stored bytes: " << storeBytes << "\n";
}

namespace raf::vta {
/// One run of a program: the queues, the token FIFOs, the clocks of the
/// modules, and the semantics of each instruction.
class Execution {
public:
  Execution(Simulator &sim, const Program &program,
            llvm::MutableArrayRef<uint8_t> dram,
            const SimulatorOptions &options)
      : sim(sim), config(sim.config), program(program), dram(dram),
        options(options) {}

  llvm::Expected<SimulationResult> run();

private:
  /// A token in a FIFO carries the cycle at which it was pushed.
  using Fifo = std::deque<uint64_t>;

  llvm::Error fail(size_t index, const llvm::Twine &message) const {
    const Instruction &insn = program.instructions[index];
    std::string kind = getOpcodeName(insn.opcode).str();
    if (insn.opcode == Opcode::Load || insn.opcode == Opcode::Store)
      kind += " " + getMemoryTypeName(insn.memoryType).str();
    return llvm::createStringError("instruction " +
                                   llvm::Twine(uint64_t(index)) + " (" + kind +
                                   "): " + message);
  }

  /// The FIFOs `insn` pops, with the flag that names each.
  llvm::SmallVector<std::pair<TokenQueue, const char *>, 2>
  getPops(const Instruction &insn) const {
    llvm::SmallVector<std::pair<TokenQueue, const char *>, 2> pops;
    Module module = insn.getModule();
    if (insn.popPrevDep)
      if (auto queue = getPopPrevQueue(module))
        pops.push_back({*queue, "pop_prev_dep"});
    if (insn.popNextDep)
      if (auto queue = getPopNextQueue(module))
        pops.push_back({*queue, "pop_next_dep"});
    return pops;
  }

  bool canIssue(const Instruction &insn) const {
    for (auto [queue, flag] : getPops(insn))
      if (fifos[size_t(queue)].empty())
        return false;
    return true;
  }

  std::string describeDeadlock() const;
  void allocateBuffers();
  /// What an instruction adds to the counters, without executing it.
  void countOnly(const Instruction &insn);
  llvm::Error execute(size_t index);
  llvm::Error executeLoad(size_t index, const Instruction &insn);
  llvm::Error executeStore(size_t index, const Instruction &insn);
  llvm::Error executeLoop(size_t index, const Instruction &insn);

  /// Unchecked programs (SimulatorOptions::checkProgram off) may carry
  /// negative fields; nothing decoded from a binary does.
  llvm::Error checkNonNegative(size_t index, const Instruction &insn) const {
    for (int64_t value :
         {insn.sramBase, insn.dramBase, insn.ySize, insn.xSize, insn.xStride,
          insn.yPad0, insn.yPad1, insn.xPad0, insn.xPad1})
      if (value < 0)
        return fail(index, "has a negative address, size, stride or pad");
    return llvm::Error::success();
  }

  /// Checks that `count` elements of `elemBytes` bytes at element address
  /// `address` lie inside DRAM.
  llvm::Error checkDram(size_t index, uint64_t address, uint64_t count,
                        uint64_t elemBytes) const {
    uint64_t begin = address * elemBytes, end = begin + count * elemBytes;
    if (end <= dram.size())
      return llvm::Error::success();
    return fail(index, "accesses DRAM bytes [" + llvm::Twine(begin) + ", " +
                           llvm::Twine(end) + "), beyond the " +
                           llvm::Twine(uint64_t(dram.size())) +
                           "-byte DRAM image");
  }

  llvm::Error checkRow(size_t index, Buffer buffer, uint64_t row,
                       const llvm::Twine &what) const {
    uint64_t depth = config.buffDepth(buffer);
    if (row < depth)
      return llvm::Error::success();
    return fail(index, what + " reaches " + getBufferName(buffer) + " row " +
                           llvm::Twine(row) + ", past the end of the " +
                           getBufferName(buffer) + " buffer (" +
                           llvm::Twine(depth) + " rows)");
  }

  Simulator &sim;
  const Config &config;
  const Program &program;
  llvm::MutableArrayRef<uint8_t> dram;
  const SimulatorOptions &options;

  std::array<std::vector<size_t>, 3> queues;
  std::array<size_t, 3> heads{};
  std::array<Fifo, 4> fifos;
  std::array<uint64_t, 3> clocks{};
  bool finished = false;
  size_t finishIndex = 0;
  SimulationResult result;
};
} // namespace raf::vta

std::string Execution::describeDeadlock() const {
  std::vector<std::string> parts;
  for (Module module : allModules) {
    const std::vector<size_t> &queue = queues[size_t(module)];
    size_t head = heads[size_t(module)];
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "the " << getModuleName(module) << " queue ";
    if (head == queue.size()) {
      os << "is drained";
      parts.push_back(os.str());
      continue;
    }
    const Instruction &insn = program.instructions[queue[head]];
    os << "waits at instruction " << queue[head] << " ("
       << getOpcodeName(insn.opcode) << ")";
    bool first = true;
    for (auto [fifo, flag] : getPops(insn)) {
      if (!fifos[size_t(fifo)].empty())
        continue;
      os << (first ? " for a token on " : " and a token on ")
         << getTokenQueueName(fifo) << " (" << flag << ")";
      first = false;
    }
    parts.push_back(os.str());
  }
  return "deadlock: " + llvm::join(parts, "; ") +
         "; no queue can issue and FINISH has " +
         (finished ? "run" : "not run");
}

void Execution::allocateBuffers() {
  sim.inp.assign(
      config.buffDepth(Buffer::Inp) * config.batch() * config.blockIn(), 0);
  sim.wgt.assign(
      config.buffDepth(Buffer::Wgt) * config.blockOut() * config.blockIn(), 0);
  sim.acc.assign(
      config.buffDepth(Buffer::Acc) * config.batch() * config.blockOut(), 0);
  sim.out.assign(
      config.buffDepth(Buffer::Out) * config.batch() * config.blockOut(), 0);
  sim.uops.assign(config.buffDepth(Buffer::Uop), Uop());
}

llvm::Expected<SimulationResult> Execution::run() {
  if (program.config != config)
    return llvm::createStringError(
        "the program is for another VTA configuration than the simulator");
  if (options.checkProgram) {
    std::vector<std::string> errors = checkProgram(program);
    if (!errors.empty())
      return llvm::createStringError("invalid program: " +
                                     llvm::join(errors, "\n"));
  }

  // Fresh buffers (none when only timing is asked for: a large layer's
  // program then costs no memory beyond its instructions).
  if (options.functional)
    allocateBuffers();

  // Fetch: dispatch every instruction to its module's queue.
  for (size_t i = 0; i < program.instructions.size(); ++i)
    queues[size_t(program.instructions[i].getModule())].push_back(i);

  // Like the HLS top level, drain load, then compute, then store, and
  // repeat while anything moves.
  size_t remaining = program.instructions.size();
  while (remaining > 0) {
    bool progress = false;
    for (Module module : allModules) {
      std::vector<size_t> &queue = queues[size_t(module)];
      size_t &head = heads[size_t(module)];
      while (head < queue.size() &&
             canIssue(program.instructions[queue[head]])) {
        if (llvm::Error error = execute(queue[head]))
          return std::move(error);
        ++head;
        --remaining;
        progress = true;
      }
    }
    if (!progress)
      return llvm::createStringError(describeDeadlock());
  }

  if (!finished)
    return llvm::createStringError("the program ended without FINISH");
  for (size_t q = 0; q < fifos.size(); ++q)
    if (!fifos[q].empty())
      return llvm::createStringError("the " + getTokenQueueName(TokenQueue(q)) +
                                     " FIFO still holds " +
                                     llvm::Twine(uint64_t(fifos[q].size())) +
                                     " token(s) at the end of the program");
  result.cycles = *std::max_element(clocks.begin(), clocks.end());
  return std::move(result);
}

llvm::Error Execution::execute(size_t index) {
  const Instruction &insn = program.instructions[index];
  Module module = insn.getModule();
  // The host stops waiting at FINISH: anything after it races with the
  // host reading DRAM.
  if (finished)
    return fail(index, "runs after FINISH (instruction " +
                           llvm::Twine(uint64_t(finishIndex)) +
                           "); make FINISH wait for it with a dependence "
                           "token");

  // Pop before executing; the instruction cannot start before the tokens
  // were pushed.
  uint64_t start = clocks[size_t(module)];
  for (auto [queue, flag] : getPops(insn)) {
    start = std::max(start, fifos[size_t(queue)].front());
    fifos[size_t(queue)].pop_front();
  }

  llvm::Error error = llvm::Error::success();
  if (!options.functional && insn.opcode != Opcode::Finish)
    countOnly(insn);
  else
    switch (insn.opcode) {
    case Opcode::Load:
      error = executeLoad(index, insn);
      break;
    case Opcode::Store:
      error = executeStore(index, insn);
      break;
    case Opcode::Gemm:
    case Opcode::Alu:
      error = executeLoop(index, insn);
      break;
    case Opcode::Finish:
      finished = true;
      finishIndex = index;
      break;
    }
  if (error)
    return error;

  uint64_t latency = options.cycleModel.getLatency(config, insn);
  uint64_t end = start + latency;
  clocks[size_t(module)] = end;
  result.busyCycles[size_t(module)] += latency;
  ++result.instructions[size_t(module)];
  if (options.recordTimeline)
    result.timeline.push_back({index, module, start, end});

  // Push after executing.
  if (insn.pushPrevDep)
    if (auto queue = getPushPrevQueue(module))
      fifos[size_t(*queue)].push_back(end);
  if (insn.pushNextDep)
    if (auto queue = getPushNextQueue(module))
      fifos[size_t(*queue)].push_back(end);
  return llvm::Error::success();
}

void Execution::countOnly(const Instruction &insn) {
  switch (insn.opcode) {
  case Opcode::Load:
    result.loadBytes[size_t(insn.memoryType)] +=
        CycleModel::getTransferBytes(config, insn);
    break;
  case Opcode::Store:
    result.storeBytes += CycleModel::getTransferBytes(config, insn);
    break;
  case Opcode::Gemm:
    result.gemmUopSteps += CycleModel::getUopSteps(insn);
    break;
  case Opcode::Alu:
    result.aluUopSteps += CycleModel::getUopSteps(insn);
    break;
  case Opcode::Finish:
    break;
  }
}

llvm::Error Execution::executeLoad(size_t index, const Instruction &insn) {
  if (insn.memoryType == MemoryType::Out)
    return fail(index, "cannot load into the out buffer");
  if (llvm::Error error = checkNonNegative(index, insn))
    return error;
  // A load of no columns is a no-op (as in TVM-VTA's simulator); one of no
  // DRAM rows still zero-fills its padding rows, as the simulator and the
  // hardware's padded load do.
  if (insn.xSize == 0)
    return llvm::Error::success();

  Buffer buffer = getBuffer(insn.memoryType);
  uint64_t xTotal = insn.xPad0 + insn.xSize + insn.xPad1;
  uint64_t yTotal = insn.yPad0 + insn.ySize + insn.yPad1;
  uint64_t depth = config.buffDepth(buffer);
  if (insn.sramBase + xTotal * yTotal > depth)
    return fail(index, "writes rows [" + llvm::Twine(insn.sramBase) + ", " +
                           llvm::Twine(insn.sramBase + xTotal * yTotal) +
                           ") of the " + getBufferName(buffer) +
                           " buffer, which has " + llvm::Twine(depth) +
                           " rows");

  // Element sizes in DRAM and lanes per buffer row.
  uint64_t lanes =
      config.elemBits(buffer) / (buffer == Buffer::Acc   ? config.accWidth()
                                 : buffer == Buffer::Uop ? 32
                                                         : 8);
  uint64_t dramElemBytes = insn.memoryType == MemoryType::Acc8Bit ? lanes
                           : insn.memoryType == MemoryType::Uop
                               ? 4
                               : config.elemBytes(buffer);
  for (uint64_t y = 0; y < uint64_t(insn.ySize); ++y) {
    uint64_t address = insn.dramBase + y * insn.xStride;
    if (insn.memoryType == MemoryType::Uop) {
      if (address + insn.xSize > program.uops.size())
        return fail(index, "reads micro-ops [" + llvm::Twine(address) + ", " +
                               llvm::Twine(address + insn.xSize) + ") of a " +
                               llvm::Twine(uint64_t(program.uops.size())) +
                               "-entry micro-op table");
    } else if (llvm::Error error =
                   checkDram(index, address, insn.xSize, dramElemBytes)) {
      return error;
    }
  }
  result.loadBytes[size_t(insn.memoryType)] +=
      uint64_t(insn.ySize) * insn.xSize * dramElemBytes;

  // Writes SRAM row `row` from DRAM element `address`, or zeroes it.
  auto writeRow = [&](uint64_t row, std::optional<uint64_t> address) {
    switch (insn.memoryType) {
    case MemoryType::Uop:
      sim.uops[row] = address ? program.uops[*address] : Uop();
      return;
    case MemoryType::Inp:
    case MemoryType::Wgt: {
      int8_t *dst =
          (buffer == Buffer::Inp ? sim.inp : sim.wgt).data() + row * lanes;
      if (address)
        std::memcpy(dst, dram.data() + *address * dramElemBytes, lanes);
      else
        std::fill(dst, dst + lanes, 0);
      return;
    }
    case MemoryType::Acc:
    case MemoryType::Acc8Bit: {
      int32_t *dst = sim.acc.data() + row * lanes;
      for (uint64_t lane = 0; lane < lanes; ++lane) {
        if (!address)
          dst[lane] = 0;
        else if (insn.memoryType == MemoryType::Acc)
          dst[lane] = int32_t(endian::read32le(
              dram.data() + *address * dramElemBytes + 4 * lane));
        else
          dst[lane] = int8_t(dram[*address * dramElemBytes + lane]);
      }
      return;
    }
    case MemoryType::Out:
      break;
    }
    llvm_unreachable("not a loadable memory type");
  };

  uint64_t row = insn.sramBase;
  for (uint64_t i = 0; i < xTotal * insn.yPad0; ++i)
    writeRow(row++, std::nullopt);
  for (uint64_t y = 0; y < uint64_t(insn.ySize); ++y) {
    for (uint64_t x = 0; x < uint64_t(insn.xPad0); ++x)
      writeRow(row++, std::nullopt);
    for (uint64_t x = 0; x < uint64_t(insn.xSize); ++x)
      writeRow(row++, insn.dramBase + y * insn.xStride + x);
    for (uint64_t x = 0; x < uint64_t(insn.xPad1); ++x)
      writeRow(row++, std::nullopt);
  }
  for (uint64_t i = 0; i < xTotal * insn.yPad1; ++i)
    writeRow(row++, std::nullopt);
  return llvm::Error::success();
}

llvm::Error Execution::executeStore(size_t index, const Instruction &insn) {
  if (insn.memoryType != MemoryType::Out)
    return fail(index, "can only store the out buffer");
  if (llvm::Error error = checkNonNegative(index, insn))
    return error;
  if (insn.xSize == 0 || insn.ySize == 0)
    return llvm::Error::success();
  uint64_t rows = uint64_t(insn.ySize) * insn.xSize;
  uint64_t depth = config.buffDepth(Buffer::Out);
  if (insn.sramBase + rows > depth)
    return fail(index, "reads rows [" + llvm::Twine(insn.sramBase) + ", " +
                           llvm::Twine(insn.sramBase + rows) +
                           ") of the out buffer, which has " +
                           llvm::Twine(depth) + " rows");
  uint64_t elemBytes = config.elemBytes(Buffer::Out);
  for (uint64_t y = 0; y < uint64_t(insn.ySize); ++y)
    if (llvm::Error error = checkDram(index, insn.dramBase + y * insn.xStride,
                                      insn.xSize, elemBytes))
      return error;
  for (uint64_t y = 0; y < uint64_t(insn.ySize); ++y)
    for (uint64_t x = 0; x < uint64_t(insn.xSize); ++x)
      std::memcpy(
          dram.data() + (insn.dramBase + y * insn.xStride + x) * elemBytes,
          sim.out.data() + (insn.sramBase + y * insn.xSize + x) * elemBytes,
          elemBytes);
  result.storeBytes += rows * elemBytes;
  return llvm::Error::success();
}

/// Two's-complement wrap-around arithmetic on int32 lanes.
static int32_t wrapAdd(int32_t a, int32_t b) {
  return int32_t(uint32_t(a) + uint32_t(b));
}
static int32_t wrapMul(int32_t a, int32_t b) {
  return int32_t(uint32_t(a) * uint32_t(b));
}

/// The HLS ALU's shift: the amount is the low `logAccWidth` bits of the
/// operand, read as signed; a negative amount shifts left.
static int32_t shiftRight(int32_t value, int32_t operand,
                          unsigned logAccWidth) {
  unsigned bits = logAccWidth;
  int32_t amount = int32_t(uint32_t(operand) << (32 - bits)) >> (32 - bits);
  if (amount >= 0)
    return value >> amount;
  return int32_t(uint32_t(value) << unsigned(-amount));
}

/// One GEMM micro-op step: acc[b][oc] += sum_ic inp[b][ic] * wgt[oc][ic],
/// with two's-complement wrap-around, and the low 8 bits to the output
/// buffer. The sizes are template parameters for the configurations in use
/// (1x16x16, 8x8x8), so that the compiler unrolls and vectorises the dot
/// products; `gemmStepGeneric` serves any other shape. A dot product of
/// BLOCK_IN int8 x int8 terms cannot overflow int32 (|p| <= 2^14, BLOCK_IN
/// <= 2^16), and adding it to the accumulator modulo 2^32 equals adding
/// the terms one by one modulo 2^32, so the results are bit-identical.
template <unsigned Batch, unsigned BlockIn, unsigned BlockOut>
static void gemmStep(int32_t *__restrict accRow, int8_t *__restrict outRow,
                     const int8_t *__restrict inpRow,
                     const int8_t *__restrict wgtRow) {
  for (unsigned b = 0; b < Batch; ++b) {
    for (unsigned oc = 0; oc < BlockOut; ++oc) {
      int32_t dot = 0;
      for (unsigned ic = 0; ic < BlockIn; ++ic)
        dot += int32_t(inpRow[b * BlockIn + ic]) *
               int32_t(wgtRow[oc * BlockIn + ic]);
      uint32_t sum = uint32_t(accRow[b * BlockOut + oc]) + uint32_t(dot);
      accRow[b * BlockOut + oc] = int32_t(sum);
      outRow[b * BlockOut + oc] = int8_t(uint8_t(sum));
    }
  }
}

static void gemmStepGeneric(int32_t *accRow, int8_t *outRow,
                            const int8_t *inpRow, const int8_t *wgtRow,
                            unsigned batch, unsigned blockIn,
                            unsigned blockOut) {
  for (unsigned b = 0; b < batch; ++b) {
    for (unsigned oc = 0; oc < blockOut; ++oc) {
      int32_t sum = accRow[b * blockOut + oc];
      for (unsigned ic = 0; ic < blockIn; ++ic)
        sum = wrapAdd(sum, int32_t(inpRow[b * blockIn + ic]) *
                               int32_t(wgtRow[oc * blockIn + ic]));
      accRow[b * blockOut + oc] = sum;
      outRow[b * blockOut + oc] = int8_t(uint8_t(uint32_t(sum)));
    }
  }
}

/// One ALU micro-op step on `lanes` accumulators; `Op` is the operation.
template <typename Op>
static void aluStep(int32_t *accRow, int8_t *__restrict outRow,
                    const int32_t *srcRow, int32_t imm, unsigned lanes, Op op) {
  if (srcRow) {
    for (unsigned lane = 0; lane < lanes; ++lane) {
      int32_t r = op(accRow[lane], srcRow[lane]);
      accRow[lane] = r;
      outRow[lane] = int8_t(uint8_t(uint32_t(r)));
    }
    return;
  }
  for (unsigned lane = 0; lane < lanes; ++lane) {
    int32_t r = op(accRow[lane], imm);
    accRow[lane] = r;
    outRow[lane] = int8_t(uint8_t(uint32_t(r)));
  }
}

llvm::Error Execution::executeLoop(size_t index, const Instruction &insn) {
  bool isGemm = insn.opcode == Opcode::Gemm;
  uint64_t uopDepth = config.buffDepth(Buffer::Uop);
  if (insn.uopBgn < 0 || uint64_t(insn.uopEnd) > uopDepth)
    return fail(index, "runs micro-ops [" + llvm::Twine(insn.uopBgn) + ", " +
                           llvm::Twine(insn.uopEnd) +
                           ") outside the uop buffer (" +
                           llvm::Twine(uopDepth) + " rows)");
  unsigned batch = config.batch(), blockIn = config.blockIn(),
           blockOut = config.blockOut();
  unsigned accLanes = batch * blockOut;
  uint64_t steps = CycleModel::getUopSteps(insn);
  (isGemm ? result.gemmUopSteps : result.aluUopSteps) += steps;
  // Buffer depths, read once per instruction: the row checks below run on
  // every micro-op step.
  uint64_t accDepth = config.buffDepth(Buffer::Acc);
  uint64_t inpDepth = config.buffDepth(Buffer::Inp);
  uint64_t wgtDepth = config.buffDepth(Buffer::Wgt);
  bool reset = isGemm && insn.resetReg;
  bool useSrc = !isGemm && !insn.useImm;
  int32_t imm = int32_t(insn.imm);
  unsigned logAccWidth = config.logAccWidth;

  for (int64_t iOut = 0; iOut < insn.iterOut; ++iOut) {
    for (int64_t iIn = 0; iIn < insn.iterIn; ++iIn) {
      for (int64_t u = insn.uopBgn; u < insn.uopEnd; ++u) {
        const Uop &uop = sim.uops[u];
        uint64_t dst =
            uop.dstIdx + iOut * insn.dstFactorOut + iIn * insn.dstFactorIn;
        uint64_t src =
            uop.srcIdx + iOut * insn.srcFactorOut + iIn * insn.srcFactorIn;
        // The message of a failed row check (built only on failure).
        auto outOfRange = [&](Buffer buffer, uint64_t row, const char *field) {
          return checkRow(index, buffer, row,
                          "micro-op " + std::to_string(u) +
                              " at i_out = " + std::to_string(iOut) +
                              ", i_in = " + std::to_string(iIn) + " (" +
                              field + ")");
        };
        if (dst >= accDepth)
          return outOfRange(Buffer::Acc, dst, "dst_idx");
        int32_t *accRow = sim.acc.data() + dst * accLanes;
        int8_t *outRow = sim.out.data() + dst * accLanes;

        if (reset) {
          std::fill(accRow, accRow + accLanes, 0);
          std::fill(outRow, outRow + accLanes, 0);
          continue;
        }
        if (isGemm) {
          uint64_t wgtIdx =
              uop.wgtIdx + iOut * insn.wgtFactorOut + iIn * insn.wgtFactorIn;
          if (src >= inpDepth)
            return outOfRange(Buffer::Inp, src, "src_idx");
          if (wgtIdx >= wgtDepth)
            return outOfRange(Buffer::Wgt, wgtIdx, "wgt_idx");
          const int8_t *inpRow = sim.inp.data() + src * batch * blockIn;
          const int8_t *wgtRow = sim.wgt.data() + wgtIdx * blockOut * blockIn;
          if (batch == 1 && blockIn == 16 && blockOut == 16)
            gemmStep<1, 16, 16>(accRow, outRow, inpRow, wgtRow);
          else if (batch == 8 && blockIn == 8 && blockOut == 8)
            gemmStep<8, 8, 8>(accRow, outRow, inpRow, wgtRow);
          else
            gemmStepGeneric(accRow, outRow, inpRow, wgtRow, batch, blockIn,
                            blockOut);
          continue;
        }

        const int32_t *srcRow = nullptr;
        if (useSrc) {
          if (src >= accDepth)
            return outOfRange(Buffer::Acc, src, "src_idx");
          srcRow = sim.acc.data() + src * accLanes;
        }
        switch (insn.aluOpcode) {
        case AluOpcode::Min:
          aluStep(accRow, outRow, srcRow, imm, accLanes,
                  [](int32_t a, int32_t b) { return std::min(a, b); });
          break;
        case AluOpcode::Max:
          aluStep(accRow, outRow, srcRow, imm, accLanes,
                  [](int32_t a, int32_t b) { return std::max(a, b); });
          break;
        case AluOpcode::Add:
          aluStep(accRow, outRow, srcRow, imm, accLanes, wrapAdd);
          break;
        case AluOpcode::Shr:
          aluStep(accRow, outRow, srcRow, imm, accLanes,
                  [logAccWidth](int32_t a, int32_t b) {
                    return shiftRight(a, b, logAccWidth);
                  });
          break;
        case AluOpcode::Mul:
          aluStep(accRow, outRow, srcRow, imm, accLanes, wrapMul);
          break;
        }
      }
    }
  }
  return llvm::Error::success();
}

llvm::Expected<SimulationResult>
Simulator::run(const Program &program, llvm::MutableArrayRef<uint8_t> dram,
               const SimulatorOptions &options) {
  return Execution(*this, program, dram, options).run();
}

llvm::Expected<SimulationResult>
raf::vta::simulate(const Program &program, llvm::MutableArrayRef<uint8_t> dram,
                   const SimulatorOptions &options) {
  Simulator simulator(program.config);
  return simulator.run(program, dram, options);
}
