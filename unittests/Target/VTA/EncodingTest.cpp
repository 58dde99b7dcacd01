//===- EncodingTest.cpp - VTA instruction words, checked by hand ----------===//
//
// Each expected word below was computed by hand from the bit ranges of
// tvm-vta's hw_spec.h (default configuration) and from the 8x8x8
// positions they imply (uop depth 2^13, inp 2^9, wgt 2^12, acc 2^9); the
// comments show the sums.
//
//===----------------------------------------------------------------------===//

#include "raf/Target/VTA/BinaryFormat.h"
#include "raf/Target/VTA/Checks.h"
#include "raf/Target/VTA/Encoding.h"

#include "gtest/gtest.h"

using namespace raf::vta;

namespace {

Layout layoutOf(const Config &config) {
  std::optional<Layout> layout = Layout::compute(config);
  EXPECT_TRUE(layout);
  return *layout;
}

/// Encodes, compares with the hand-computed word, and decodes back.
void expectWord(const Config &config, const Instruction &insn, uint64_t lo,
                uint64_t hi) {
  bool valid = checkInstruction(config, insn, [](const llvm::Twine &message) {
    ADD_FAILURE() << message.str();
  });
  ASSERT_TRUE(valid);
  Layout layout = layoutOf(config);
  InstructionWord word = encodeInstruction(layout, insn);
  EXPECT_EQ(word.lo, lo) << std::hex << word.lo << " != " << lo;
  EXPECT_EQ(word.hi, hi) << std::hex << word.hi << " != " << hi;
  llvm::Expected<Instruction> decoded = decodeInstruction(layout, word);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(*decoded, insn);
}

TEST(VTAEncoding, LoadUop) {
  // y_size 1 @64, x_size 2 @80, x_stride 2 @96.
  expectWord(Config::getDefault(),
             Instruction::load(MemoryType::Uop, 0, 0, 1, 2, 2), 0,
             0x0000000200020001);
}

TEST(VTAEncoding, LoadInpWithPaddingAndFlags) {
  Instruction insn = Instruction::load(MemoryType::Inp, 5, 0x12345678, 3, 4,
                                       16);
  insn.yPad0 = 1;
  insn.yPad1 = 2;
  insn.xPad0 = 3;
  insn.xPad1 = 4;
  insn.deps(false, true, false, true);
  // lo: pop_next 1<<4 = 0x10, push_next 1<<6 = 0x40, memory_type 2<<7 =
  //     0x100, sram_base 5<<10 = 0x1400, dram_base 0x12345678<<26 =
  //     0x48d159e0000000.
  // hi: y_size 3, x_size 4<<16, x_stride 16<<32, y_pad_0 1<<48, y_pad_1
  //     2<<52, x_pad_0 3<<56, x_pad_1 4<<60.
  expectWord(Config::getDefault(), insn, 0x0048d159e0001550,
             0x4321001000040003);
}

TEST(VTAEncoding, LoadWgtAccAcc8Bit) {
  // opcode 0, memory_type 1<<7 = 0x80, sram_base 7<<10 = 0x1c00,
  // dram_base 1<<26 = 0x4000000.
  expectWord(Config::getDefault(),
             Instruction::load(MemoryType::Wgt, 7, 1, 1, 1, 1),
             0x0000000004001c80, 0x0000000100010001);
  // memory_type 3<<7 = 0x180, sram_base 8<<10 = 0x2000, dram 2<<26.
  expectWord(Config::getDefault(),
             Instruction::load(MemoryType::Acc, 8, 2, 1, 2, 2),
             0x0000000008002180, 0x0000000200020001);
  // memory_type 5<<7 = 0x280.
  expectWord(Config::getDefault(),
             Instruction::load(MemoryType::Acc8Bit, 0, 0, 1, 1, 1), 0x280,
             0x0000000100010001);
}

TEST(VTAEncoding, Store) {
  Instruction insn = Instruction::store(9, 0xabcd, 2, 3, 4);
  insn.deps(true, false, true, false);
  // lo: opcode 1, pop_prev 1<<3, push_prev 1<<5, memory_type 4<<7 = 0x200,
  //     sram_base 9<<10 = 0x2400, dram_base 0xabcd<<26 = 0x2af34000000.
  expectWord(Config::getDefault(), insn, 0x000002af34002629,
             0x0000000400030002);
}

TEST(VTAEncoding, Gemm) {
  Instruction reset = Instruction::gemm(0, 1, 1, 1, /*resetReg=*/true);
  reset.deps(true, false, true, false);
  // opcode 2, pop_prev 0x8, push_prev 0x20, reset_reg 1<<7, uop_end 1<<21,
  // iter_out 1<<35, iter_in 1<<49.
  expectWord(Config::getDefault(), reset, 0x00020008002000aa, 0);

  Instruction insn = Instruction::gemm(1, 2, 3, 5);
  insn.dstFactorOut = 6;
  insn.dstFactorIn = 7;
  insn.srcFactorOut = 8;
  insn.srcFactorIn = 9;
  insn.wgtFactorOut = 10;
  insn.wgtFactorIn = 11;
  insn.popPrevDep = true;
  // lo: 2 | 0x8 | uop_bgn 1<<8 | uop_end 2<<21 | iter_out 3<<35 =
  //     0x1800000000 | iter_in 5<<49 = 0xa000000000000.
  // hi: dst_factor_out 6 | dst_factor_in 7<<11 | src_factor_out 8<<22 |
  //     src_factor_in 9<<33 | wgt_factor_out 10<<44 | wgt_factor_in 11<<54.
  expectWord(Config::getDefault(), insn, 0x000a00180040010a,
             0x02c0a01202003806);
}

TEST(VTAEncoding, Alu) {
  Instruction add = Instruction::alu(AluOpcode::Add, 1, 2, 2, 1);
  add.dstFactorOut = 4;
  add.srcFactorOut = 5;
  add.imm = 0x1234; // encoded although use_imm is not set
  // lo: 4 | uop_bgn 1<<8 | uop_end 2<<21 | iter_out 2<<35 | iter_in 1<<49.
  // hi: dst_factor_out 4 | src_factor_out 5<<22 | alu_opcode 2<<44 |
  //     imm 0x1234<<48.
  expectWord(Config::getDefault(), add, 0x0002001000400104,
             0x1234200001400004);

  Instruction shr = Instruction::aluImm(AluOpcode::Shr, -3, 0, 1);
  shr.pushNextDep = true;
  // hi: alu_opcode 3<<44 | use_imm 1<<47 | imm 0xfffd<<48.
  expectWord(Config::getDefault(), shr, 0x0002000800200044,
             0xfffdb00000000000);

  // min = 0, max = 1, mul = 4 at bits 108-110 (hi bits 44-46).
  expectWord(Config::getDefault(),
             Instruction::aluImm(AluOpcode::Min, 127, 0, 1),
             0x0002000800200004, 0x007f800000000000);
  expectWord(Config::getDefault(),
             Instruction::aluImm(AluOpcode::Max, -128, 0, 1),
             0x0002000800200004, 0xff80900000000000);
  expectWord(Config::getDefault(), Instruction::alu(AluOpcode::Mul, 0, 1),
             0x0002000800200004, 0x0000400000000000);
}

TEST(VTAEncoding, Finish) {
  Instruction finish = Instruction::finish();
  finish.popNextDep = true;
  expectWord(Config::getDefault(), finish, 0x13, 0);
  expectWord(Config::getDefault(),
             Instruction::finish().deps(true, true, true, true), 0x7b, 0);
}

TEST(VTAEncoding, EightByEightByEight) {
  Config config = Config::get8x8x8();
  Instruction gemm = Instruction::gemm(5, 9, 2, 3);
  gemm.dstFactorOut = 1;
  gemm.dstFactorIn = 2;
  gemm.srcFactorOut = 3;
  gemm.srcFactorIn = 4;
  gemm.wgtFactorOut = 5;
  gemm.wgtFactorIn = 4095;
  // lo: 2 | 5<<8 | 9<<21 | 2<<35 | 3<<49.
  // hi: dst_factor_out [72:64] 1 | dst_factor_in [81:73] 2<<9 |
  //     src_factor_out [90:82] 3<<18 | src_factor_in [99:91] 4<<27 |
  //     wgt_factor_out [111:100] 5<<36 | wgt_factor_in [123:112] 4095<<48.
  expectWord(config, gemm, 0x0006001001200502, 0x0fff0050200c0401);

  Instruction max = Instruction::aluImm(AluOpcode::Max, 100, 0, 1);
  max.dstFactorOut = 3;
  max.srcFactorIn = 511;
  // hi: 3 | src_factor_in 511<<27 | alu_opcode [102:100] 1<<36 |
  //     use_imm [103] 1<<39 | imm [119:104] 100<<40.
  expectWord(config, max, 0x0002000800200004, 0x0000649ff8000003);

  // Memory instructions do not depend on the configuration.
  expectWord(config, Instruction::load(MemoryType::Wgt, 7, 1, 1, 1, 1),
             0x0000000004001c80, 0x0000000100010001);
}

TEST(VTAEncoding, Uops) {
  Layout layout = layoutOf(Config::getDefault());
  // dst [10:0], src [21:11], wgt [31:22].
  EXPECT_EQ(encodeUop(layout, {1, 2, 3}), 0x00c01001u);
  EXPECT_EQ(encodeUop(layout, {2047, 2047, 1023}), 0xffffffffu);
  llvm::Expected<Uop> uop = decodeUop(layout, 0x00c01001u);
  ASSERT_TRUE(bool(uop));
  EXPECT_EQ(*uop, (Uop{1, 2, 3}));

  // 8x8x8: dst [8:0], src [17:9], wgt [29:18]; bits 30-31 are unused.
  Layout small = layoutOf(Config::get8x8x8());
  EXPECT_EQ(encodeUop(small, {511, 1, 4095}), 0x3ffc03ffu);
  llvm::Expected<Uop> bad = decodeUop(small, 0x40000000u);
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "bit 30 is set but micro-ops do not use it");
}

std::string decodeError(const Config &config, uint64_t lo, uint64_t hi) {
  llvm::Expected<Instruction> insn =
      decodeInstruction(layoutOf(config), {lo, hi});
  if (insn)
    return "decoded";
  return llvm::toString(insn.takeError());
}

TEST(VTAEncoding, DecodeErrors) {
  Config config = Config::getDefault();
  EXPECT_EQ(decodeError(config, 5, 0), "unknown opcode 5");
  EXPECT_EQ(decodeError(config, 7, 0), "unknown opcode 7");
  // memory_type 6 at bits 7-9.
  EXPECT_EQ(decodeError(config, 6 << 7, 0), "unknown memory type 6");
  // alu_opcode 5 at bits 108-110.
  EXPECT_EQ(decodeError(config, 4, uint64_t(5) << 44), "unknown ALU opcode 5");
  // LOAD/STORE leave bits 58-63 unused.
  EXPECT_EQ(decodeError(config, uint64_t(1) << 60, 0),
            "bit 60 is set but LOAD/STORE instructions do not use it");
  // GEMM leaves bit 63 unused; FINISH everything above bit 6.
  EXPECT_EQ(decodeError(config, 2 | (uint64_t(1) << 63), 0),
            "bit 63 is set but GEMM instructions do not use it");
  EXPECT_EQ(decodeError(config, 3 | (1 << 7), 0),
            "bit 7 is set but FINISH instructions do not use it");
  EXPECT_EQ(decodeError(config, 3, 1),
            "bit 64 is set but FINISH instructions do not use it");
  // 8x8x8: ALU fields end at bit 119, GEMM fields at 123.
  EXPECT_EQ(decodeError(Config::get8x8x8(), 4, uint64_t(1) << 56),
            "bit 120 is set but ALU instructions do not use it");
  EXPECT_EQ(decodeError(Config::get8x8x8(), 2, uint64_t(1) << 60),
            "bit 124 is set but GEMM instructions do not use it");
}

/// A small valid program using every instruction kind.
Program sampleProgram() {
  Program program;
  program.uops = {{2047, 2047, 1023}, {1, 2, 3}};
  program.instructions = {
      Instruction::load(MemoryType::Uop, 0, 0, 1, 2, 2),
      Instruction::load(MemoryType::Inp, 0, 0, 1, 1, 1).deps(0, 0, 0, 1),
      Instruction::gemm(0, 1, 1, 1, true).deps(1, 0, 0, 0),
      Instruction::aluImm(AluOpcode::Shr, 2, 1, 2).deps(0, 0, 0, 1),
      Instruction::store(1, 0, 1, 1, 1).deps(1, 0, 1, 0),
      Instruction::finish().deps(0, 1, 0, 0),
  };
  return program;
}

TEST(VTABinary, RoundTrip) {
  Program program = sampleProgram();
  llvm::Expected<std::vector<uint8_t>> bytes = writeBinary(program);
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  ASSERT_EQ(bytes->size(), 32u + 2 * 4 + 6 * 16);
  llvm::Expected<Program> read = readBinary(*bytes);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->config, program.config);
  EXPECT_EQ(read->uops, program.uops);
  EXPECT_EQ(read->instructions, program.instructions);
  llvm::Expected<std::vector<uint8_t>> again = writeBinary(*read);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(*again, *bytes);
}

TEST(VTABinary, RejectsInvalidPrograms) {
  Program program = sampleProgram();
  program.instructions[1].sramBase = 2048;
  program.instructions.pop_back();
  llvm::Expected<std::vector<uint8_t>> bytes = writeBinary(program);
  ASSERT_FALSE(bool(bytes));
  EXPECT_EQ(llvm::toString(bytes.takeError()),
            "instruction 1 (load): sram_base = 2048 is outside the inp "
            "buffer (2048 rows)");
}

TEST(VTABinary, RejectsCorruptFiles) {
  llvm::Expected<std::vector<uint8_t>> good = writeBinary(sampleProgram());
  ASSERT_TRUE(bool(good));
  auto errorOf = [](std::vector<uint8_t> bytes) {
    llvm::Expected<Program> program = readBinary(bytes);
    return program ? std::string("read") : llvm::toString(program.takeError());
  };
  std::vector<uint8_t> bytes = *good;
  bytes[3] = 'X';
  EXPECT_EQ(errorOf(bytes),
            "bad magic: this is not a RAF-MLIR VTA binary (expected the bytes "
            "\"RAF-VTA\\0\" at offset 0)");
  bytes = *good;
  bytes.pop_back();
  EXPECT_EQ(errorOf(bytes),
            "truncated: the header announces 2 micro-ops and 6 instructions "
            "(136 bytes) but the file has 135 bytes");
  bytes = *good;
  // Instruction 1 (the INP load) at byte 40 + 16: memory_type 7.
  bytes[56] |= 0x80;
  bytes[57] |= 0x03;
  EXPECT_EQ(errorOf(bytes), "instruction 1 at byte 56: unknown memory type 7");
  bytes = *good;
  bytes[40 + 16 * 5] &= ~0x10; // FINISH no longer pops s2g
  EXPECT_EQ(errorOf(bytes),
            "program: dependence tokens of s2g do not balance: the store "
            "module pushes 1 (push_prev_dep) and the compute module pops 0 "
            "(pop_next_dep)");
}

} // namespace
