//===- TileProgramTest.cpp - tokens and micro-op tables of assemble() -----===//
//
// Tile programs assembled and run on the simulator: the tokens of a single
// GEMM tile, double buffering (fewer tokens, fewer cycles, same results as
// the single-buffered program), micro-op table sharing, and every error of
// assemble().
//
//===----------------------------------------------------------------------===//

#include "raf/Target/VTA/TileProgram.h"

#include "raf/Target/VTA/Checks.h"
#include "raf/Target/VTA/Simulator.h"

#include "gtest/gtest.h"

#include <random>

using namespace raf::vta;

namespace {

/// `tiles` independent GEMM tiles, each C_t = int8(A_t x W_t^T >> shift) for
/// A_t of one input row block and W_t of one weight row block, both over
/// kt blocks of BLOCK_IN. Tile t keeps its inputs and weights in SRAM rows
/// [t kt, (t + 1) kt) and its result in accumulator row t when
/// double-buffered, and everything from row 0 otherwise.
struct GemmTiles {
  int64_t tiles = 1;
  int64_t kt = 2;
  int64_t shift = 6;
  bool doubleBuffered = false;

  // DRAM layout, in elements of each buffer.
  int64_t inpBase() const { return 0; }
  int64_t wgtBase(const Config &config) const {
    // Past the inputs, rounded up to a weight row.
    int64_t inpBytes = tiles * kt * config.elemBytes(Buffer::Inp);
    int64_t wgtBytes = config.elemBytes(Buffer::Wgt);
    return (inpBytes + wgtBytes - 1) / wgtBytes;
  }
  int64_t outBase(const Config &config) const {
    int64_t end =
        (wgtBase(config) + tiles * kt) * config.elemBytes(Buffer::Wgt);
    return end / config.elemBytes(Buffer::Out);
  }
  size_t dramBytes(const Config &config) const {
    return (outBase(config) + tiles) * config.elemBytes(Buffer::Out);
  }

  TileProgram build(const Config &config) const {
    TileProgram program;
    program.config = config;
    program.knobs.tileSizes = {1, kt};
    program.knobs.virtualThreads = doubleBuffered ? 2 : 1;
    std::vector<Uop> body;
    for (int64_t k = 0; k < kt; ++k)
      body.push_back({0, k, k});
    auto &insns = program.instructions;
    for (int64_t t = 0; t < tiles; ++t) {
      int64_t sram = doubleBuffered ? t * kt : 0;
      int64_t acc = doubleBuffered ? t : 0;
      insns.push_back({Instruction::load(MemoryType::Inp, sram,
                                         inpBase() + t * kt, 1, kt, kt),
                       {}});
      insns.push_back({Instruction::load(MemoryType::Wgt, sram,
                                         wgtBase(config) + t * kt, 1, kt, kt),
                       {}});
      insns.push_back(
          {Instruction::gemm(0, 0, 1, 1, /*resetReg=*/true), {{acc, 0, 0}}});
      std::vector<Uop> shifted = body;
      for (Uop &uop : shifted) {
        uop.dstIdx = acc;
        uop.srcIdx += sram;
        uop.wgtIdx += sram;
      }
      insns.push_back({Instruction::gemm(0, 0), shifted});
      insns.push_back(
          {Instruction::aluImm(AluOpcode::Shr, shift, 0, 0), {{acc, 0, 0}}});
      insns.push_back(
          {Instruction::store(acc, outBase(config) + t, 1, 1, 1), {}});
    }
    return program;
  }
};

std::string errorOf(const TileProgram &tiles) {
  llvm::Expected<Program> program = assemble(tiles);
  if (program)
    return "no error";
  return llvm::toString(program.takeError());
}

Program assembleOk(const TileProgram &tiles) {
  llvm::Expected<Program> program = assemble(tiles);
  if (!program) {
    ADD_FAILURE() << llvm::toString(program.takeError());
    return {};
  }
  return std::move(*program);
}

/// The dependence flags as a string "popPrev popNext pushPrev pushNext",
/// e.g. "1001".
std::string flags(const Instruction &insn) {
  return std::string() + char('0' + insn.popPrevDep) +
         char('0' + insn.popNextDep) + char('0' + insn.pushPrevDep) +
         char('0' + insn.pushNextDep);
}

unsigned countTokens(const Program &program) {
  unsigned count = 0;
  for (const Instruction &insn : program.instructions)
    count += insn.pushPrevDep + insn.pushNextDep;
  return count;
}

/// Random inputs and weights in DRAM, and the expected outputs.
struct GemmData {
  std::vector<uint8_t> dram;
  std::vector<int8_t> expected; // [tile][BATCH][BLOCK_OUT]
};

GemmData makeData(const Config &config, const GemmTiles &g, unsigned seed) {
  unsigned batch = config.batch(), blockIn = config.blockIn(),
           blockOut = config.blockOut();
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> int8(-128, 127);
  GemmData data;
  data.dram.assign(g.dramBytes(config), 0);
  uint64_t inpOffset = g.inpBase() * config.elemBytes(Buffer::Inp);
  uint64_t wgtOffset = g.wgtBase(config) * config.elemBytes(Buffer::Wgt);
  uint64_t inpRow = config.elemBytes(Buffer::Inp);
  uint64_t wgtRow = config.elemBytes(Buffer::Wgt);
  for (int64_t t = 0; t < g.tiles; ++t) {
    // A[b][k] and W[o][k] of tile t, stored as rows of k blocks.
    int64_t k = g.kt * blockIn;
    std::vector<int8_t> a(batch * k), w(blockOut * k);
    for (int8_t &v : a)
      v = int8_t(int8(rng));
    for (int8_t &v : w)
      v = int8_t(int8(rng));
    for (int64_t kb = 0; kb < g.kt; ++kb) {
      for (unsigned b = 0; b < batch; ++b)
        for (unsigned i = 0; i < blockIn; ++i)
          data.dram[inpOffset + (t * g.kt + kb) * inpRow + b * blockIn + i] =
              uint8_t(a[b * k + kb * blockIn + i]);
      for (unsigned o = 0; o < blockOut; ++o)
        for (unsigned i = 0; i < blockIn; ++i)
          data.dram[wgtOffset + (t * g.kt + kb) * wgtRow + o * blockIn + i] =
              uint8_t(w[o * k + kb * blockIn + i]);
    }
    for (unsigned b = 0; b < batch; ++b)
      for (unsigned o = 0; o < blockOut; ++o) {
        int32_t sum = 0;
        for (int64_t i = 0; i < k; ++i)
          sum += int32_t(a[b * k + i]) * int32_t(w[o * k + i]);
        // SHR, then the output buffer keeps the low byte.
        data.expected.push_back(int8_t(uint8_t(sum >> g.shift)));
      }
  }
  return data;
}

/// Runs `program` on the data and checks the outputs against the reference.
SimulationResult runAndCheck(const Program &program, const GemmTiles &g,
                             unsigned seed) {
  const Config &config = program.config;
  EXPECT_EQ(checkProgram(program), std::vector<std::string>());
  GemmData data = makeData(config, g, seed);
  llvm::Expected<SimulationResult> result = simulate(program, data.dram);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return {};
  }
  uint64_t outOffset = g.outBase(config) * config.elemBytes(Buffer::Out);
  for (size_t i = 0; i < data.expected.size(); ++i)
    EXPECT_EQ(int8_t(data.dram[outOffset + i]), data.expected[i])
        << "output element " << i;
  return *result;
}

TEST(VTATileProgram, BufferRanges) {
  Config config = Config::getDefault();
  // GEMM over a 3 x 2 loop nest: dst = u.dst + 4 o + 1 i.
  Instruction gemm = Instruction::gemm(0, 0, 3, 2);
  gemm.dstFactorOut = 4;
  gemm.dstFactorIn = 1;
  gemm.srcFactorOut = 2;
  gemm.wgtFactorIn = 5;
  std::vector<BufferRange> ranges =
      getBufferRanges(config, {gemm, {{10, 1, 0}, {12, 0, 3}}});
  auto find = [&](Buffer buffer, bool write) -> std::pair<int64_t, int64_t> {
    for (const BufferRange &range : ranges)
      if (range.buffer == buffer && range.write == write)
        return {range.begin, range.end};
    return {-1, -1};
  };
  EXPECT_EQ(find(Buffer::Acc, true), std::make_pair(10l, 12l + 8 + 1 + 1));
  EXPECT_EQ(find(Buffer::Out, true), std::make_pair(10l, 22l));
  EXPECT_EQ(find(Buffer::Acc, false), std::make_pair(10l, 22l));
  EXPECT_EQ(find(Buffer::Inp, false), std::make_pair(0l, 1l + 4 + 1));
  EXPECT_EQ(find(Buffer::Wgt, false), std::make_pair(0l, 3l + 5 + 1));

  // A reset only writes the accumulators and outputs.
  gemm.resetReg = true;
  ranges = getBufferRanges(config, {gemm, {{10, 1, 0}}});
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(find(Buffer::Inp, false), std::make_pair(-1l, -1l));

  // ALU: src_idx indexes the accumulators, unless the operand is imm.
  Instruction alu = Instruction::alu(AluOpcode::Add, 0, 0, 2, 1);
  alu.srcFactorOut = 1;
  ranges = getBufferRanges(config, {alu, {{0, 7, 0}}});
  bool readsSrc = false;
  for (const BufferRange &range : ranges)
    readsSrc |= range.buffer == Buffer::Acc && !range.write &&
                range.begin == 7 && range.end == 9;
  EXPECT_TRUE(readsSrc);
  alu.useImm = true;
  ranges = getBufferRanges(config, {alu, {{0, 7, 0}}});
  for (const BufferRange &range : ranges)
    EXPECT_FALSE(range.begin == 7) << "reads src rows with an immediate";

  // A padded load writes its padding; a store reads the out buffer.
  Instruction load = Instruction::load(MemoryType::Inp, 5, 0, 2, 3, 3);
  load.yPad0 = 1;
  load.xPad1 = 2;
  ranges = getBufferRanges(config, {load, {}});
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].begin, 5);
  EXPECT_EQ(ranges[0].end, 5 + 3 * 5);
  EXPECT_TRUE(ranges[0].write);
  ranges = getBufferRanges(config, {Instruction::store(4, 0, 2, 3, 3), {}});
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].buffer, Buffer::Out);
  EXPECT_EQ(ranges[0].end, 10);
  EXPECT_FALSE(ranges[0].write);
}

TEST(VTATileProgram, SingleGemmTile) {
  Config config = Config::getDefault();
  GemmTiles g;
  Program program = assembleOk(g.build(config));
  ASSERT_EQ(program.instructions.size(), 8u);
  // The reset and the SHR share the body {acc 0, 0, 0}.
  ASSERT_EQ(program.uops.size(), 3u);
  std::vector<std::string> expected = {
      "0000", // load uop
      "0000", // load inp
      "0001", // load wgt: inputs and weights are ready
      "0000", // reset: touches neither inp nor wgt
      "1000", // gemm waits for the weights (and, in order, the inputs)
      "0001", // shr: the output row is ready
      "1010", // store waits for it, then lets FINISH go
      "0100", // finish waits for the store
  };
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(flags(program.instructions[i]), expected[i])
        << "instruction " << i << " ("
        << getOpcodeName(program.instructions[i].opcode).str() << ")";
  EXPECT_EQ(program.instructions[0].memoryType, MemoryType::Uop);
  EXPECT_EQ(program.instructions[0].xSize, 3);
  EXPECT_EQ(program.instructions[3].uopBgn, 0);
  EXPECT_EQ(program.instructions[3].uopEnd, 1);
  EXPECT_EQ(program.instructions[4].uopBgn, 1);
  EXPECT_EQ(program.instructions[4].uopEnd, 3);
  EXPECT_EQ(program.instructions[5].uopBgn, 0);
  EXPECT_EQ(program.instructions[5].uopEnd, 1);
  EXPECT_EQ(program.instructions[7].opcode, Opcode::Finish);
  runAndCheck(program, g, /*seed=*/1);
}

TEST(VTATileProgram, SingleGemmTile8x8x8) {
  GemmTiles g;
  g.kt = 3;
  g.shift = 5;
  runAndCheck(assembleOk(g.build(Config::get8x8x8())), g, /*seed=*/2);
}

TEST(VTATileProgram, DoubleBuffering) {
  Config config = Config::getDefault();
  GemmTiles single;
  single.tiles = 2;
  single.kt = 8;
  GemmTiles twice = single;
  twice.doubleBuffered = true;
  Program a = assembleOk(single.build(config));
  Program b = assembleOk(twice.build(config));

  // Single-buffered, the second tile's loads wait for the first GEMM and its
  // reset for the first store; double-buffered, neither does.
  EXPECT_EQ(countTokens(a), 7u);
  EXPECT_EQ(countTokens(b), 5u);
  // Load inp of tile 1 (instruction 7) pops g2l (the load module's next
  // queue) only when single-buffered.
  EXPECT_EQ(flags(a.instructions[7]), "0100");
  EXPECT_EQ(flags(b.instructions[7]), "0000");

  SimulationResult ra = runAndCheck(a, single, /*seed=*/3);
  SimulationResult rb = runAndCheck(b, twice, /*seed=*/3);
  EXPECT_LT(rb.cycles, ra.cycles);
  EXPECT_GT(rb.cycles, 0u);
}

TEST(VTATileProgram, ManyTilesDoubleBuffered) {
  // Tiles alternate between two halves of SRAM, as a schedule with two
  // virtual threads would place them.
  Config config = Config::getDefault();
  GemmTiles g;
  g.tiles = 6;
  g.kt = 3;
  TileProgram tiles = g.build(config);
  for (size_t i = 0; i < tiles.instructions.size(); ++i) {
    int64_t t = i / 6;
    TileInstruction &tile = tiles.instructions[i];
    int64_t half = t % 2;
    if (tile.insn.opcode == Opcode::Load)
      tile.insn.sramBase = half * g.kt;
    for (Uop &uop : tile.uops) {
      uop.dstIdx = half;
      if (tile.insn.opcode == Opcode::Gemm && !tile.insn.resetReg) {
        uop.srcIdx = half * g.kt + uop.srcIdx % g.kt;
        uop.wgtIdx = half * g.kt + uop.wgtIdx % g.kt;
      }
    }
    if (tile.insn.opcode == Opcode::Store)
      tile.insn.sramBase = half;
  }
  Program program = assembleOk(tiles);
  // Two bodies per half (reset/shr share, gemm), reused by every tile.
  EXPECT_EQ(program.uops.size(), 2u * (1 + g.kt));
  runAndCheck(program, g, /*seed=*/4);
}

TEST(VTATileProgram, MicroOpTableSharing) {
  Config config = Config::getDefault();
  TileProgram tiles;
  tiles.config = config;
  std::vector<Uop> body = {{0, 0, 0}, {0, 1, 1}};
  tiles.instructions = {
      {Instruction::gemm(0, 0, 1, 1, /*resetReg=*/true), {{0, 0, 0}}},
      {Instruction::gemm(0, 0), body},
      {Instruction::gemm(0, 0), {{0, 1, 1}, {0, 0, 0}}}, // another order
      {Instruction::gemm(0, 0), body},
  };
  Program program = assembleOk(tiles);
  ASSERT_EQ(program.uops.size(), 5u);
  ASSERT_EQ(program.instructions.size(), 6u);
  const Instruction &first = program.instructions[2];
  const Instruction &third = program.instructions[3];
  const Instruction &fourth = program.instructions[4];
  EXPECT_EQ(first.uopBgn, 1);
  EXPECT_EQ(first.uopEnd, 3);
  EXPECT_EQ(third.uopBgn, 3);
  EXPECT_EQ(third.uopEnd, 5);
  EXPECT_EQ(fourth.uopBgn, first.uopBgn);
  EXPECT_EQ(fourth.uopEnd, first.uopEnd);
  EXPECT_EQ(program.uops[3], (Uop{0, 1, 1}));
  // Compute only: no tokens at all.
  EXPECT_EQ(countTokens(program), 0u);
  EXPECT_EQ(checkProgram(program), std::vector<std::string>());
}

TEST(VTATileProgram, Errors) {
  Config config = Config::getDefault();
  TileProgram base = GemmTiles().build(config);

  TileProgram flagged = base;
  flagged.instructions[1].insn.pushNextDep = true;
  EXPECT_EQ(errorOf(flagged),
            "tile instruction 1 (load wgt) has dependence flags set; tile "
            "programs have none, as assemble() derives the tokens");

  TileProgram finish = base;
  finish.instructions.push_back({Instruction::finish(), {}});
  EXPECT_EQ(errorOf(finish), "tile instruction 6 (finish) is a FINISH; "
                             "assemble() appends the only FINISH");

  TileProgram uopLoad = base;
  uopLoad.instructions.insert(
      uopLoad.instructions.begin(),
      {Instruction::load(MemoryType::Uop, 0, 0, 1, 1, 1), {}});
  EXPECT_EQ(errorOf(uopLoad),
            "tile instruction 0 (load uop) loads micro-ops; assemble() "
            "builds the micro-op table and its loads from the GEMM and ALU "
            "bodies");

  TileProgram empty = base;
  empty.instructions[3].uops.clear();
  EXPECT_EQ(errorOf(empty), "tile instruction 3 (gemm) has no micro-ops");

  // Reading back what the store wrote (out element 48 is inp element 48).
  TileProgram dram = base;
  int64_t out = dram.instructions[5].insn.dramBase;
  dram.instructions.push_back(
      {Instruction::load(MemoryType::Inp, 0, out, 1, 1, 1), {}});
  EXPECT_EQ(errorOf(dram),
            "tile instruction 6 (load inp) reads DRAM bytes [768, 784), which "
            "an earlier STORE writes ([768, 784), bounding intervals); DRAM "
            "hazards between the load and store modules are not synchronised "
            "by tokens");
  // A load before the store is fine.
  std::swap(dram.instructions[5], dram.instructions[6]);
  EXPECT_EQ(errorOf(dram), "no error");

  // 2 x 4097 distinct micro-ops do not fit 8192 rows.
  TileProgram big;
  big.config = config;
  for (int64_t g = 0; g < 2; ++g) {
    std::vector<Uop> body;
    for (int64_t u = 0; u < 4097; ++u)
      body.push_back({u % 2048, g, u % 1024});
    big.instructions.push_back({Instruction::gemm(0, 0), body});
  }
  EXPECT_EQ(errorOf(big), "the micro-op table has 8194 entries (2 distinct "
                          "loop bodies), more than the 8192 rows of the uop "
                          "buffer");
  big.instructions.pop_back();
  EXPECT_EQ(errorOf(big), "no error");

  // What checkProgram() rejects comes back with its messages.
  TileProgram overflow = base;
  overflow.instructions[0].insn.sramBase = 2047;
  EXPECT_EQ(errorOf(overflow),
            "the assembled program is invalid: instruction 1 (load): LOAD "
            "writes rows [2047, 2049) of the inp buffer, which has 2048 rows");

  TileProgram badConfig = base;
  badConfig.config.logInpWidth = 4;
  EXPECT_NE(errorOf(badConfig).find("invalid VTA configuration: "),
            std::string::npos);
}

} // namespace
