//===- SimulatorTest.cpp - VTA programs run against plain references ------===//
//
// Hand-built programs on the functional simulator: GEMM tiles in both
// presets against a reference matrix product and requantisation, padding,
// the ALU's wrap-around and shift rules, dependence tokens (a pipelined
// producer/consumer program and deadlocks), out-of-range accesses, and the
// cycle model's arithmetic.
//
//===----------------------------------------------------------------------===//

#include "raf/Target/VTA/Simulator.h"

#include "raf/Target/VTA/BinaryFormat.h"

#include "llvm/Support/Endian.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace raf::vta;

namespace {

std::string errorOf(llvm::Expected<SimulationResult> result) {
  if (result)
    return "no error";
  return llvm::toString(result.takeError());
}

/// Runs and fails the test on an error.
SimulationResult runOk(Simulator &sim, const Program &program,
                       std::vector<uint8_t> &dram,
                       const SimulatorOptions &options = {}) {
  llvm::Expected<SimulationResult> result = sim.run(program, dram, options);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return {};
  }
  return *result;
}

//===----------------------------------------------------------------------===//
// Matrix products against a reference
//===----------------------------------------------------------------------===//

/// C = requantise(A x W^T) for A of MT x KT and W of NT x KT tiles, with the
/// packed layouts of TVM's VTA operators: A as [MT][KT][BATCH][BLOCK_IN], W as
/// [NT][KT][BLOCK_OUT][BLOCK_IN], C as [MT][NT][BATCH][BLOCK_OUT].
struct MatmulCase {
  Config config;
  unsigned mt, kt, nt;
  int shift;
  unsigned seed;
};

/// Builds the program: micro-ops {dst 0, src k, wgt k} for each k; a reset
/// GEMM and an accumulating GEMM over (m, n) with factors; SHR, MIN 127 and
/// MAX -128 on every accumulator row; a store.
Program buildMatmul(const MatmulCase &c, uint64_t inpBase, uint64_t wgtBase,
                    uint64_t outBase) {
  Program program;
  program.config = c.config;
  for (unsigned k = 0; k < c.kt; ++k)
    program.uops.push_back({0, k, k});
  int64_t rowsC = c.mt * c.nt;
  auto &insns = program.instructions;
  insns.push_back(Instruction::load(MemoryType::Uop, 0, 0, 1, c.kt, c.kt));
  insns.push_back(Instruction::load(MemoryType::Inp, 0, inpBase, 1,
                                    c.mt * c.kt, c.mt * c.kt));
  // The load queue is in order: the WGT load's token also covers INP.
  insns.push_back(Instruction::load(MemoryType::Wgt, 0, wgtBase, 1,
                                    c.nt * c.kt, c.nt * c.kt)
                      .deps(false, false, false, true));
  Instruction reset = Instruction::gemm(0, 1, c.mt, c.nt, /*resetReg=*/true);
  reset.dstFactorOut = c.nt;
  reset.dstFactorIn = 1;
  insns.push_back(reset);
  Instruction gemm = Instruction::gemm(0, c.kt, c.mt, c.nt);
  gemm.dstFactorOut = c.nt;
  gemm.dstFactorIn = 1;
  gemm.srcFactorOut = c.kt;
  gemm.wgtFactorIn = c.kt;
  gemm.popPrevDep = true;
  insns.push_back(gemm);
  for (auto [op, imm] : {std::pair{AluOpcode::Shr, c.shift},
                         std::pair{AluOpcode::Min, 127},
                         std::pair{AluOpcode::Max, -128}}) {
    Instruction alu = Instruction::aluImm(op, imm, 0, 1, rowsC, 1);
    alu.dstFactorOut = 1;
    alu.srcFactorOut = 1;
    insns.push_back(alu);
  }
  insns.back().pushNextDep = true;
  insns.push_back(Instruction::store(0, outBase, 1, rowsC, rowsC)
                      .deps(true, false, true, false));
  insns.push_back(Instruction::finish().deps(false, true, false, false));
  return program;
}

void runMatmul(const MatmulCase &c) {
  const Config &config = c.config;
  unsigned batch = config.batch(), blockIn = config.blockIn(),
           blockOut = config.blockOut();
  unsigned M = c.mt * batch, K = c.kt * blockIn, N = c.nt * blockOut;

  std::mt19937 rng(c.seed);
  std::uniform_int_distribution<int> int8(-128, 127);
  std::vector<int8_t> a(M * K), w(N * K);
  for (int8_t &v : a)
    v = int8(rng);
  for (int8_t &v : w)
    v = int8(rng);

  // DRAM: inputs, weights and outputs in separate regions, each aligned to
  // its element size.
  uint64_t inpElem = config.elemBytes(Buffer::Inp);
  uint64_t wgtElem = config.elemBytes(Buffer::Wgt);
  uint64_t outElem = config.elemBytes(Buffer::Out);
  uint64_t inpBytes = uint64_t(c.mt) * c.kt * inpElem;
  uint64_t wgtOffset = (inpBytes + wgtElem - 1) / wgtElem * wgtElem;
  uint64_t outOffset = wgtOffset + uint64_t(c.nt) * c.kt * wgtElem;
  outOffset = (outOffset + outElem - 1) / outElem * outElem;
  std::vector<uint8_t> dram(outOffset + uint64_t(c.mt) * c.nt * outElem,
                            0xee);

  for (unsigned i = 0; i < M; ++i)
    for (unsigned k = 0; k < K; ++k) {
      unsigned m = i / batch, b = i % batch, kt = k / blockIn,
               ic = k % blockIn;
      dram[((m * c.kt + kt) * batch + b) * blockIn + ic] = a[i * K + k];
    }
  for (unsigned j = 0; j < N; ++j)
    for (unsigned k = 0; k < K; ++k) {
      unsigned n = j / blockOut, oc = j % blockOut, kt = k / blockIn,
               ic = k % blockIn;
      dram[wgtOffset + ((n * c.kt + kt) * blockOut + oc) * blockIn + ic] =
          w[j * K + k];
    }

  Program program = buildMatmul(c, 0, wgtOffset / wgtElem,
                                outOffset / outElem);
  // The program also survives the binary container.
  llvm::Expected<std::vector<uint8_t>> binary = writeBinary(program);
  ASSERT_TRUE(bool(binary)) << llvm::toString(binary.takeError());
  llvm::Expected<Program> decoded = readBinary(*binary);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());

  Simulator sim(config);
  SimulationResult result = runOk(sim, *decoded, dram);
  EXPECT_EQ(result.gemmUopSteps,
            uint64_t(c.mt) * c.nt + uint64_t(c.mt) * c.nt * c.kt);
  EXPECT_EQ(result.aluUopSteps, 3u * c.mt * c.nt);

  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int32_t sum = 0;
      for (unsigned k = 0; k < K; ++k)
        sum += int32_t(a[i * K + k]) * int32_t(w[j * K + k]);
      int32_t expected = std::clamp(sum >> c.shift, -128, 127);
      unsigned m = i / batch, b = i % batch, n = j / blockOut,
               oc = j % blockOut;
      int8_t actual = int8_t(
          dram[outOffset + ((m * c.nt + n) * batch + b) * blockOut + oc]);
      ASSERT_EQ(actual, expected) << "C[" << i << "][" << j << "], sum "
                                  << sum;
    }
}

TEST(VTASimulator, SingleGemmTile1x16x16) {
  runMatmul({Config::getDefault(), 1, 1, 1, /*shift=*/6, /*seed=*/1});
}

TEST(VTASimulator, SingleGemmTile8x8x8) {
  runMatmul({Config::get8x8x8(), 1, 1, 1, /*shift=*/5, /*seed=*/2});
}

TEST(VTASimulator, TiledMatmul1x16x16) {
  // 3x48 times 48x32: loops over (m, n), micro-ops over k.
  runMatmul({Config::getDefault(), 3, 3, 2, /*shift=*/8, /*seed=*/3});
}

TEST(VTASimulator, TiledMatmul8x8x8) {
  runMatmul({Config::get8x8x8(), 2, 4, 3, /*shift=*/7, /*seed=*/4});
}

//===----------------------------------------------------------------------===//
// Loads, padding and ALU semantics
//===----------------------------------------------------------------------===//

TEST(VTASimulator, LoadWithPadding) {
  // A 2x3 tile of input rows out of a DRAM matrix of 4x5 rows, padded by
  // one row above, two below, one element left and one right: 5 x 5 rows.
  Config config = Config::getDefault();
  unsigned lanes = config.batch() * config.blockIn(); // 16
  std::vector<uint8_t> dram(20 * lanes);
  for (size_t i = 0; i < dram.size(); ++i)
    dram[i] = uint8_t(1 + i / lanes); // row r of DRAM holds r + 1
  Instruction load = Instruction::load(MemoryType::Inp, 10, 6, 2, 3, 5);
  load.yPad0 = 1;
  load.yPad1 = 2;
  load.xPad0 = 1;
  load.xPad1 = 1;
  load.pushNextDep = true;
  Program program;
  program.instructions = {load,
                          Instruction::finish().deps(true, false, false, false)};

  Simulator sim(config);
  SimulationResult result = runOk(sim, program, dram);
  llvm::ArrayRef<int8_t> inp = sim.getInpBuffer();
  // Expected SRAM rows 10..34: 5 per tile row, tile row t = y - 1 for y in
  // [1, 3), columns 1..3 from DRAM rows 6 + 5 t + (x - 1).
  for (unsigned y = 0; y < 5; ++y)
    for (unsigned x = 0; x < 5; ++x) {
      int expected = 0;
      if (y >= 1 && y < 3 && x >= 1 && x < 4)
        expected = 1 + 6 + 5 * (y - 1) + (x - 1);
      for (unsigned lane = 0; lane < lanes; ++lane)
        ASSERT_EQ(inp[(10 + y * 5 + x) * lanes + lane], expected)
            << "y " << y << " x " << x;
    }
  // Rows before and after the tile are untouched (zero).
  EXPECT_EQ(inp[9 * lanes], 0);
  EXPECT_EQ(inp[35 * lanes], 0);
  EXPECT_EQ(result.loadBytes[size_t(MemoryType::Inp)], 6u * lanes);
}

TEST(VTASimulator, LoadOfNoRowsZeroFillsItsPadding) {
  // y_size 0 with padding: no DRAM is read, but the padding rows are
  // zeroed, as TVM-VTA's simulator and the hardware's padded load do. Only
  // x_size 0 makes a load a no-op.
  Config config = Config::getDefault();
  unsigned lanes = config.batch() * config.blockIn();
  std::vector<uint8_t> dram(4 * lanes, 7);
  Instruction noColumns = Instruction::load(MemoryType::Inp, 0, 0, 1, 0, 1);
  noColumns.yPad0 = 1;
  noColumns.xPad0 = 2;
  // 1 padding row above no DRAM rows, of 1 + 3 elements: rows 4..7.
  Instruction noRows = Instruction::load(MemoryType::Inp, 4, 0, 0, 3, 3);
  noRows.yPad0 = 1;
  noRows.xPad0 = 1;
  noRows.pushNextDep = true;
  Program program;
  program.instructions = {Instruction::load(MemoryType::Inp, 0, 0, 1, 4, 4),
                          Instruction::load(MemoryType::Inp, 4, 0, 1, 4, 4),
                          noColumns, noRows,
                          Instruction::finish().deps(true, false, false, false)};
  Simulator sim(config);
  SimulationResult result = runOk(sim, program, dram);
  llvm::ArrayRef<int8_t> inp = sim.getInpBuffer();
  for (unsigned row = 0; row < 4; ++row)
    EXPECT_EQ(inp[row * lanes], 7) << "row " << row;
  for (unsigned row = 4; row < 8; ++row)
    EXPECT_EQ(inp[row * lanes], 0) << "row " << row;
  EXPECT_EQ(result.loadBytes[size_t(MemoryType::Inp)], 8u * lanes);
  // The cycle model charges the padding rows of the load of no rows only.
  CycleModel model;
  EXPECT_EQ(CycleModel::getPadElements(noRows), 4u);
  EXPECT_EQ(model.getLatency(config, noRows),
            model.issueCycles + 4u * model.padCyclesPerElement);
  EXPECT_EQ(CycleModel::getPadElements(noColumns), 0u);
  EXPECT_EQ(model.getLatency(config, noColumns), model.issueCycles);
}

/// Writes little-endian int32 lanes.
void putInt32(std::vector<uint8_t> &dram, size_t offset,
              llvm::ArrayRef<int32_t> values) {
  for (size_t i = 0; i < values.size(); ++i)
    llvm::support::endian::write32le(dram.data() + offset + 4 * i,
                                     uint32_t(values[i]));
}

TEST(VTASimulator, AluWrapAroundAndShifts) {
  Config config = Config::getDefault();
  // Accumulator rows 0..3 from DRAM (64 bytes each), row 4 from int8 values
  // (ACC_8BIT: 16 bytes, sign-extended).
  std::vector<uint8_t> dram(4 * 64 + 16);
  std::vector<int32_t> lanes(16);
  auto fillRow = [&](unsigned row, int32_t value) {
    std::fill(lanes.begin(), lanes.end(), value);
    putInt32(dram, row * 64, lanes);
  };
  fillRow(0, INT32_MAX);
  fillRow(1, 3);
  fillRow(2, 65536);
  fillRow(3, 300);
  for (unsigned i = 0; i < 16; ++i)
    dram[256 + i] = uint8_t(int8_t(-5 - int(i)));

  Program program;
  program.uops = {{0, 0, 0}, {1, 0, 0}, {2, 2, 0}, {3, 0, 0}, {5, 4, 0}};
  auto &insns = program.instructions;
  insns.push_back(Instruction::load(MemoryType::Uop, 0, 0, 1, 5, 5));
  insns.push_back(Instruction::load(MemoryType::Acc, 0, 0, 1, 4, 4));
  // ACC_8BIT addresses count 16-byte rows: byte 256 is row 16.
  insns.push_back(Instruction::load(MemoryType::Acc8Bit, 4, 16, 1, 1, 1));
  insns.push_back(Instruction::aluImm(AluOpcode::Add, 1, 0, 1)); // MAX + 1
  insns.push_back(Instruction::aluImm(AluOpcode::Shr, -2, 1, 2)); // 3 << 2
  insns.push_back(Instruction::alu(AluOpcode::Mul, 2, 3));   // 65536^2
  insns.push_back(Instruction::aluImm(AluOpcode::Max, -1000, 3, 4));
  // Row 5 = row 4 (copied with ADD onto a zero row), then shifted by the
  // tensor operand row 4 itself: low 5 bits of -5 - i.
  insns.push_back(Instruction::alu(AluOpcode::Add, 4, 5));
  insns.push_back(Instruction::alu(AluOpcode::Shr, 4, 5));
  insns.push_back(Instruction::finish());

  Simulator sim(config);
  runOk(sim, program, dram);
  llvm::ArrayRef<int32_t> acc = sim.getAccBuffer();
  llvm::ArrayRef<int8_t> out = sim.getOutBuffer();
  EXPECT_EQ(acc[0], INT32_MIN); // INT32_MAX + 1 wraps
  EXPECT_EQ(out[0], 0);         // low 8 bits of 0x80000000
  EXPECT_EQ(acc[16], 12);       // a negative shift shifts left
  EXPECT_EQ(acc[32], 0);        // 2^32 wraps to 0
  EXPECT_EQ(acc[48], 300);      // max(300, -1000)
  EXPECT_EQ(out[48], 44);       // 300 wraps to 44 in int8, no saturation
  EXPECT_EQ(acc[64], -5);       // ACC_8BIT sign-extends
  for (unsigned i = 0; i < 16; ++i) {
    int32_t v = -5 - int32_t(i);
    // Shift amount: the low 5 bits of v as a signed value.
    int32_t amount = int32_t(uint32_t(v) << 27) >> 27;
    int32_t expected =
        amount >= 0 ? v >> amount : int32_t(uint32_t(v) << -amount);
    EXPECT_EQ(acc[5 * 16 + i], expected) << "lane " << i;
  }
}

TEST(VTASimulator, GemmAccumulatorWrapsAround) {
  Config config = Config::getDefault();
  // Accumulator row 0 (bytes 0-63) = INT32_MAX in every lane, input row 4
  // (bytes 64-79) and weight row 1 (bytes 256-511) all ones.
  std::vector<uint8_t> dram(512, 1);
  std::vector<int32_t> lanes(16, INT32_MAX);
  putInt32(dram, 0, lanes);
  Program program;
  program.uops = {{0, 0, 0}};
  program.instructions = {
      Instruction::load(MemoryType::Uop, 0, 0, 1, 1, 1),
      Instruction::load(MemoryType::Acc, 0, 0, 1, 1, 1),
      Instruction::load(MemoryType::Inp, 0, 4, 1, 1, 1),
      Instruction::load(MemoryType::Wgt, 0, 1, 1, 1, 1)
          .deps(false, false, false, true),
      Instruction::gemm(0, 1).deps(true, false, false, false),
      Instruction::finish(),
  };
  Simulator sim(config);
  runOk(sim, program, dram);
  // Each lane: INT32_MAX + 16 x (1 x 1) wraps to INT32_MIN + 15, whose low
  // byte the output buffer holds.
  EXPECT_EQ(sim.getAccBuffer()[0], INT32_MIN + 15);
  EXPECT_EQ(sim.getOutBuffer()[0], int8_t(15));
}

//===----------------------------------------------------------------------===//
// Dependence tokens
//===----------------------------------------------------------------------===//

TEST(VTASimulator, ProducerConsumerTokens) {
  // Compute adds input row (t % 2) times the all-ones diagonal weight into
  // accumulator row t % 2 (reset once): out row = running sums.
  Config config = Config::getDefault();
  const unsigned tiles = 4;
  Program program;
  program.uops = {{0, 0, 0}, {1, 1, 0}};
  auto &insns = program.instructions;
  insns.push_back(Instruction::load(MemoryType::Uop, 0, 0, 1, 2, 2));
  insns.push_back(Instruction::load(MemoryType::Wgt, 0, 0, 1, 1, 1)
                      .deps(false, false, false, true));
  insns.push_back(
      Instruction::gemm(0, 2, 1, 1, true).deps(true, false, false, false));
  for (unsigned t = 0; t < tiles; ++t) {
    Instruction load =
        Instruction::load(MemoryType::Inp, t % 2, 16 + t, 1, 1, 1);
    load.popNextDep = t >= 2;
    load.pushNextDep = true;
    insns.push_back(load);
    Instruction gemm = Instruction::gemm(t % 2, t % 2 + 1);
    gemm.popPrevDep = true;
    gemm.pushPrevDep = t + 2 < tiles;
    gemm.pushNextDep = true;
    // Before overwriting the accumulators of tile t - 2, wait for its
    // store.
    gemm.popNextDep = t >= 2;
    insns.push_back(gemm);
    // Output tile t goes to DRAM output row 22 + t (bytes 352 + 16 t).
    insns.push_back(Instruction::store(t % 2, 22 + t, 1, 1, 1)
                        .deps(true, false, true, false));
  }
  // The last two stores are collected by FINISH: two pops of s2g, one on
  // FINISH itself and one on an empty reset GEMM before it.
  insns.push_back(Instruction::gemm(0, 1, 1, 1, true)
                      .deps(false, true, false, false));
  insns.push_back(Instruction::finish().deps(false, true, false, false));

  // DRAM: bytes 0-255 the weight row (identity: wgt[oc][ic] = oc == ic),
  // bytes 256-319 the input rows (tile t: all lanes t + 1), outputs from
  // byte 352.
  std::vector<uint8_t> dram(512, 0);
  for (unsigned oc = 0; oc < 16; ++oc)
    dram[oc * 16 + oc] = 1;
  for (unsigned t = 0; t < tiles; ++t)
    for (unsigned ic = 0; ic < 16; ++ic)
      dram[256 + 16 * t + ic] = uint8_t(t + 1);

  Simulator sim(config);
  SimulatorOptions options;
  options.recordTimeline = true;
  SimulationResult result = runOk(sim, program, dram, options);
  // Tile t's output: accumulator row t % 2 holds the sum of the tiles with
  // the same parity so far.
  int running[2] = {0, 0};
  for (unsigned t = 0; t < tiles; ++t) {
    running[t % 2] += int(t + 1);
    for (unsigned oc = 0; oc < 16; ++oc)
      EXPECT_EQ(int8_t(dram[(22 + t) * 16 + oc]), running[t % 2])
          << "tile " << t;
  }
  // The load of tile 2 reuses input row 0: it must start after the GEMM of
  // tile 0 released it.
  auto timing = [&](size_t index) {
    for (const InstructionTiming &t : result.timeline)
      if (t.index == index)
        return t;
    ADD_FAILURE() << "instruction " << index << " did not run";
    return InstructionTiming{};
  };
  // Instruction indices: 3 + 3 t is the load of tile t, 4 + 3 t its GEMM.
  EXPECT_GE(timing(3 + 3 * 2).start, timing(4 + 3 * 0).end);
  EXPECT_GE(timing(4 + 3 * 1).start, timing(3 + 3 * 1).end);
  // Loading overlaps computing: the program takes less than the sum of the
  // busy cycles.
  uint64_t busy = result.busyCycles[0] + result.busyCycles[1] +
                  result.busyCycles[2];
  EXPECT_LT(result.cycles, busy);
}

TEST(VTASimulator, Deadlock) {
  // Balanced tokens in a cycle: the load waits for compute to free the
  // buffer, compute waits for the load's data.
  Program program;
  program.uops = {{0, 0, 0}};
  program.instructions = {
      Instruction::load(MemoryType::Uop, 0, 0, 1, 1, 1),
      Instruction::load(MemoryType::Inp, 0, 0, 1, 1, 1)
          .deps(false, true, false, true),
      Instruction::gemm(0, 1).deps(true, false, true, false),
      Instruction::finish(),
  };
  std::vector<uint8_t> dram(256);
  EXPECT_EQ(errorOf(simulate(program, dram)),
            "deadlock: the load queue waits at instruction 1 (load) for a "
            "token on g2l (pop_next_dep); the compute queue waits at "
            "instruction 2 (gemm) for a token on l2g (pop_prev_dep); the "
            "store queue is drained; no queue can issue and FINISH has not "
            "run");
}

TEST(VTASimulator, DeadlockOnTokensNeverPushed) {
  // Unbalanced: FINISH waits for a store that never happens. The static
  // rules reject this program; the run-time scheduler reports it too.
  Program program;
  program.instructions = {
      Instruction::store(0, 0, 1, 1, 1).deps(true, false, false, false),
      Instruction::finish().deps(true, true, false, false),
  };
  std::vector<uint8_t> dram(16);
  EXPECT_EQ(errorOf(simulate(program, dram)),
            "invalid program: program: dependence tokens of l2g do not "
            "balance: the load module pushes 0 (push_next_dep) and the "
            "compute module pops 1 (pop_prev_dep)\n"
            "program: dependence tokens of g2s do not balance: the compute "
            "module pushes 0 (push_next_dep) and the store module pops 1 "
            "(pop_prev_dep)\n"
            "program: dependence tokens of s2g do not balance: the store "
            "module pushes 0 (push_prev_dep) and the compute module pops 1 "
            "(pop_next_dep)");
  SimulatorOptions unchecked;
  unchecked.checkProgram = false;
  EXPECT_EQ(errorOf(simulate(program, dram, unchecked)),
            "deadlock: the load queue is drained; the compute queue waits at "
            "instruction 1 (finish) for a token on l2g (pop_prev_dep) and a "
            "token on s2g (pop_next_dep); the store queue waits at "
            "instruction 0 (store) for a token on g2s (pop_prev_dep); no "
            "queue can issue and FINISH has not run");
}

TEST(VTASimulator, LeftoverTokensAndLateStores) {
  SimulatorOptions unchecked;
  unchecked.checkProgram = false;
  std::vector<uint8_t> dram(16);

  Program leftover;
  leftover.instructions = {
      Instruction::load(MemoryType::Inp, 0, 0, 1, 1, 1)
          .deps(false, false, false, true),
      Instruction::finish(),
  };
  EXPECT_EQ(errorOf(simulate(leftover, dram, unchecked)),
            "the l2g FIFO still holds 1 token(s) at the end of the program");

  // Balanced, but FINISH does not wait for the store.
  Program late;
  late.instructions = {
      Instruction::store(0, 0, 1, 1, 1).deps(true, false, false, false),
      Instruction::finish().deps(false, false, false, true),
  };
  EXPECT_EQ(errorOf(simulate(late, dram)),
            "instruction 0 (store out): runs after FINISH (instruction 1); "
            "make FINISH wait for it with a dependence token");
}

//===----------------------------------------------------------------------===//
// Out-of-range accesses
//===----------------------------------------------------------------------===//

TEST(VTASimulator, OutOfRangeDram) {
  Program load;
  load.instructions = {
      Instruction::load(MemoryType::Inp, 0, 3, 2, 2, 4)
          .deps(false, false, false, true),
      Instruction::finish().deps(true, false, false, false),
  };
  // Rows start at elements 3 and 7; the second row's bytes [112, 144) do not
  // fit a 128-byte image.
  std::vector<uint8_t> dram(128);
  EXPECT_EQ(errorOf(simulate(load, dram)),
            "instruction 0 (load inp): accesses DRAM bytes [112, 144), beyond "
            "the 128-byte DRAM image");

  // Output row 8 is bytes [128, 144).
  Program store;
  store.uops = {{0, 0, 0}};
  store.instructions = {
      Instruction::load(MemoryType::Uop, 0, 0, 1, 1, 1),
      Instruction::aluImm(AluOpcode::Add, 1, 0, 1)
          .deps(false, false, false, true),
      Instruction::store(0, 8, 1, 1, 1).deps(true, false, true, false),
      Instruction::finish().deps(false, true, false, false),
  };
  EXPECT_EQ(errorOf(simulate(store, dram)),
            "instruction 2 (store out): accesses DRAM bytes [128, 144), "
            "beyond the 128-byte DRAM image");
}

TEST(VTASimulator, OutOfRangeBuffer) {
  // Accumulator row 2047 + 1 x 1 = 2048 in the second outer iteration.
  Program program;
  program.uops = {{2047, 0, 0}};
  Instruction reset = Instruction::gemm(0, 1, 2, 1, true);
  reset.dstFactorOut = 1;
  program.instructions = {Instruction::load(MemoryType::Uop, 0, 0, 1, 1, 1),
                          reset, Instruction::finish()};
  std::vector<uint8_t> dram(16);
  EXPECT_EQ(errorOf(simulate(program, dram)),
            "invalid program: instruction 1 (gemm): GEMM reaches acc row 2048 "
            "(dst_idx of micro-op 0 at i_out = 1, i_in = 0), past the end of "
            "the acc buffer (2048 rows)");
  SimulatorOptions unchecked;
  unchecked.checkProgram = false;
  EXPECT_EQ(errorOf(simulate(program, dram, unchecked)),
            "instruction 1 (gemm): micro-op 0 at i_out = 1, i_in = 0 "
            "(dst_idx) reaches acc row 2048, past the end of the acc buffer "
            "(2048 rows)");

  Program load;
  load.instructions = {Instruction::load(MemoryType::Inp, 2047, 0, 1, 2, 2)
                           .deps(false, false, false, true),
                       Instruction::finish().deps(true, false, false, false)};
  EXPECT_EQ(errorOf(simulate(load, dram, unchecked)),
            "instruction 0 (load inp): writes rows [2047, 2049) of the inp "
            "buffer, which has 2048 rows");
}

//===----------------------------------------------------------------------===//
// Cycle model
//===----------------------------------------------------------------------===//

TEST(VTACycleModel, GemmCyclesAreUopsTimesIterations) {
  Program program;
  program.uops = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
  Instruction gemm = Instruction::gemm(0, 4, 3, 5);
  gemm.dstFactorOut = 4;
  program.instructions = {Instruction::load(MemoryType::Uop, 0, 0, 1, 4, 4),
                          gemm, Instruction::finish()};
  std::vector<uint8_t> dram(16);
  SimulatorOptions options;
  options.recordTimeline = true;
  llvm::Expected<SimulationResult> result = simulate(program, dram, options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  ASSERT_EQ(result->timeline.size(), 3u);
  // 4 micro-ops x 3 x 5 iterations at one per cycle.
  EXPECT_EQ(result->timeline[1].end - result->timeline[1].start, 60u);
  // The uop load moves 16 bytes at 8 per cycle first; FINISH takes none.
  EXPECT_EQ(result->timeline[0].end, 2u);
  EXPECT_EQ(result->cycles, 62u);
  EXPECT_EQ(result->gemmUopSteps, 60u);
  EXPECT_EQ(result->busyCycles[size_t(Module::Compute)], 62u);

  // ALU at II = 2.
  program.instructions[1] = Instruction::aluImm(AluOpcode::Add, 1, 0, 4, 3, 5);
  program.instructions[1].dstFactorOut = 4;
  program.instructions[1].srcFactorOut = 4;
  result = simulate(program, dram);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->cycles, 2u + 120u);
}

TEST(VTACycleModel, DmaCyclesAreBytesOverBandwidth) {
  Config config = Config::getDefault();
  CycleModel model;
  // 10 input rows of 16 bytes at 8 bytes per cycle.
  Instruction load = Instruction::load(MemoryType::Inp, 0, 0, 2, 5, 5);
  EXPECT_EQ(CycleModel::getTransferBytes(config, load), 160u);
  EXPECT_EQ(model.getLatency(config, load), 20u);
  model.dmaBytesPerCycle = 16;
  EXPECT_EQ(model.getLatency(config, load), 10u);
  // Partial beats round up: 48 bytes at 32 per cycle.
  model.dmaBytesPerCycle = 32;
  EXPECT_EQ(model.getLatency(config, Instruction::load(MemoryType::Inp, 0, 0,
                                                        1, 3, 3)),
            2u);
  model.dmaLatencyCycles = 5;
  EXPECT_EQ(model.getLatency(config, Instruction::load(MemoryType::Inp, 0, 0,
                                                        1, 3, 3)),
            7u);
  // Weights: 256-byte rows; accumulators 64; ACC_8BIT 16; stores 16.
  CycleModel plain;
  EXPECT_EQ(plain.getLatency(config, Instruction::load(MemoryType::Wgt, 0, 0,
                                                        1, 2, 2)),
            64u);
  EXPECT_EQ(plain.getLatency(config, Instruction::load(MemoryType::Acc, 0, 0,
                                                        1, 1, 1)),
            8u);
  EXPECT_EQ(plain.getLatency(
                config, Instruction::load(MemoryType::Acc8Bit, 0, 0, 1, 1, 1)),
            2u);
  EXPECT_EQ(plain.getLatency(config, Instruction::store(0, 0, 3, 1, 1)), 6u);
  // Padding: a 2x2 tile padded by one on every side writes 12 zero rows.
  Instruction padded = Instruction::load(MemoryType::Inp, 0, 0, 2, 2, 2);
  padded.yPad0 = padded.yPad1 = padded.xPad0 = padded.xPad1 = 1;
  EXPECT_EQ(CycleModel::getPadElements(padded), 12u);
  EXPECT_EQ(plain.getLatency(config, padded), 8u + 12u);
  // An empty transfer costs nothing.
  EXPECT_EQ(plain.getLatency(config, Instruction::load(MemoryType::Inp, 0, 0,
                                                        1, 0, 0)),
            0u);
  // The 8x8x8 input rows are 64 bytes.
  EXPECT_EQ(plain.getLatency(Config::get8x8x8(),
                             Instruction::load(MemoryType::Inp, 0, 0, 1, 1, 1)),
            8u);
}

TEST(VTACycleModel, ModulesOverlapAsTokensAllow) {
  // A 40-cycle input load (20 rows) and a 60-step GEMM that does not wait
  // for it run side by side; making the GEMM wait serialises them.
  Program program;
  program.uops = {{0, 0, 0}};
  Instruction gemm = Instruction::gemm(0, 1, 60, 1, true);
  program.instructions = {
      Instruction::load(MemoryType::Uop, 0, 0, 1, 1, 1), // 1 cycle
      Instruction::load(MemoryType::Inp, 0, 0, 1, 20, 20)
          .deps(false, false, false, true),
      gemm, Instruction::finish().deps(true, false, false, false)};
  std::vector<uint8_t> dram(20 * 16);
  llvm::Expected<SimulationResult> result = simulate(program, dram);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->cycles, 61u); // max(40, 1 + 60), FINISH at 61
  EXPECT_EQ(result->busyCycles[size_t(Module::Load)], 40u);

  program.instructions[2].popPrevDep = true;
  program.instructions[3].popPrevDep = false;
  result = simulate(program, dram);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->cycles, 100u); // 40, then 60
}

} // namespace
