//===- vta-sim.cpp - fuzz the VTA simulator on decoded programs -----------===//
//
// Input: a VTA binary (docs/vta.md) whose header counts and reserved bytes
// need not be right, so that mutations reach the simulator: the
// configuration comes from the header, the micro-op count from its field
// (clamped to the bytes present), and every remaining 16 bytes are one
// instruction. Words that do not decode end the input; the rest runs on
// the simulator with 1 MiB of DRAM holding a fixed pattern, with the static
// checks (checkProgram) off unless bit 0 of header byte 23 is set, so that
// the run-time checks must catch every bad access; bit 1 selects a
// timing-only run.
//
// Programs whose work (GEMM multiply-accumulates, ALU lanes, bytes moved)
// exceeds 2^16 are skipped: the simulator runs any bounded program to its
// end, and this target looks for memory errors, not slow programs.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "raf/Target/VTA/BinaryFormat.h"
#include "raf/Target/VTA/Encoding.h"
#include "raf/Target/VTA/Layout.h"
#include "raf/Target/VTA/Simulator.h"

#include "llvm/Support/Endian.h"

#include <algorithm>
#include <vector>

using namespace raf::vta;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  raf::fuzz::initializeLimits();
  return 0;
}

/// The work of running `insn` (see above), saturating.
static uint64_t estimateWork(const Config &config, const Instruction &insn) {
  auto mul = [](uint64_t a, uint64_t b) {
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
  };
  switch (insn.opcode) {
  case Opcode::Gemm:
  case Opcode::Alu: {
    uint64_t uops = insn.uopEnd > insn.uopBgn ? insn.uopEnd - insn.uopBgn : 0;
    uint64_t steps = mul(mul(uint64_t(insn.iterOut), uint64_t(insn.iterIn)),
                         std::max<uint64_t>(uops, 1));
    uint64_t lanes = uint64_t(config.batch()) * config.blockOut();
    if (insn.opcode == Opcode::Gemm)
      lanes *= config.blockIn();
    return mul(steps, lanes);
  }
  case Opcode::Load:
  case Opcode::Store: {
    uint64_t rows = uint64_t(insn.ySize) + insn.yPad0 + insn.yPad1;
    uint64_t cols = uint64_t(insn.xSize) + insn.xPad0 + insn.xPad1;
    // The largest element: a weight tile of BLOCK_OUT x BLOCK_IN bytes or
    // an accumulator row of BATCH x BLOCK_OUT 32-bit words.
    uint64_t elementBytes =
        std::max<uint64_t>(uint64_t(config.blockOut()) * config.blockIn(),
                           uint64_t(config.batch()) * config.blockOut() * 4);
    return mul(mul(rows, cols), elementBytes);
  }
  case Opcode::Finish:
    return 1;
  }
  return 1;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < binary::HeaderBytes)
    return 0;
  Program program;
  llvm::ArrayRef<ConfigParameter> parameters = getConfigParameters();
  for (size_t i = 0; i < parameters.size() && 12 + i < 24; ++i)
    program.config.*parameters[i].member = data[12 + i];
  if (!program.config.isValid())
    return 0;
  std::optional<Layout> layout = Layout::compute(program.config);
  if (!layout)
    return 0;
  uint8_t flags = data[23];

  size_t offset = binary::HeaderBytes;
  uint64_t numUops = llvm::support::endian::read32le(data + 24);
  numUops = std::min<uint64_t>(numUops, (size - offset) / binary::UopBytes);
  for (uint64_t i = 0; i < numUops; ++i, offset += binary::UopBytes) {
    llvm::Expected<Uop> uop =
        decodeUop(*layout, llvm::support::endian::read32le(data + offset));
    if (!uop) {
      llvm::consumeError(uop.takeError());
      return 0;
    }
    program.uops.push_back(*uop);
  }
  uint64_t work = 0;
  for (; offset + binary::InstructionBytes <= size;
       offset += binary::InstructionBytes) {
    llvm::Expected<Instruction> insn =
        decodeInstruction(*layout, InstructionWord::fromBytes(data + offset));
    if (!insn) {
      llvm::consumeError(insn.takeError());
      return 0;
    }
    work += estimateWork(program.config, *insn);
    if (work > (uint64_t(1) << 16))
      return 0;
    program.instructions.push_back(*insn);
  }

  SimulatorOptions options;
  options.checkProgram = flags & 1;
  options.functional = !(flags & 2);
  // A fresh copy of the pattern for every input (a copy costs far less than
  // computing it under the sanitizers), into one buffer: allocating 1 MiB
  // for every input costs more in page faults than most programs take to
  // run. Accesses past either end still hit the allocation's redzones.
  static const std::vector<uint8_t> pattern = [] {
    std::vector<uint8_t> bytes(size_t(1) << 20);
    for (size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = uint8_t(i * 0x9E + (i >> 8) * 0x3B + 0x5A);
    return bytes;
  }();
  static std::vector<uint8_t> *buffer =
      new std::vector<uint8_t>(pattern.size());
  llvm::MutableArrayRef<uint8_t> dram;
  if (options.functional) {
    std::copy(pattern.begin(), pattern.end(), buffer->begin());
    dram = *buffer;
  }
  llvm::Expected<SimulationResult> result = simulate(program, dram, options);
  if (!result)
    llvm::consumeError(result.takeError());
  return 0;
}
