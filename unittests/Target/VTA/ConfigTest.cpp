//===- ConfigTest.cpp - VTA configurations and field layouts --------------===//
//
// The derived sizes against those tvm-vta's config/pkg_config.py computes
// and the field positions against GCC's layout of the bit-fields of
// tvm-vta's hw_spec.h (default configuration).
//
//===----------------------------------------------------------------------===//

#include "raf/Target/VTA/Config.h"
#include "raf/Target/VTA/Layout.h"

#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace raf::vta;

namespace {

std::string joined(const std::vector<std::string> &errors) {
  std::string text;
  for (const std::string &e : errors)
    text += e + "\n";
  return text;
}

TEST(VTAConfig, DefaultSizes) {
  Config config = Config::getDefault();
  ASSERT_TRUE(config.isValid()) << joined(config.validate());
  EXPECT_EQ(config.batch(), 1u);
  EXPECT_EQ(config.blockIn(), 16u);
  EXPECT_EQ(config.blockOut(), 16u);
  EXPECT_EQ(config.elemBytes(Buffer::Inp), 16u);
  EXPECT_EQ(config.elemBytes(Buffer::Wgt), 256u);
  EXPECT_EQ(config.elemBytes(Buffer::Acc), 64u);
  EXPECT_EQ(config.elemBytes(Buffer::Out), 16u);
  EXPECT_EQ(config.elemBytes(Buffer::Uop), 4u);
  EXPECT_EQ(config.buffDepth(Buffer::Inp), 2048u);
  EXPECT_EQ(config.buffDepth(Buffer::Wgt), 1024u);
  EXPECT_EQ(config.buffDepth(Buffer::Acc), 2048u);
  EXPECT_EQ(config.buffDepth(Buffer::Out), 2048u);
  EXPECT_EQ(config.buffDepth(Buffer::Uop), 8192u);
  EXPECT_EQ(config.buffBytes(Buffer::Inp), 32u * 1024);
  EXPECT_EQ(config.buffBytes(Buffer::Wgt), 256u * 1024);
  EXPECT_EQ(config.buffBytes(Buffer::Acc), 128u * 1024);
  EXPECT_EQ(config.buffBytes(Buffer::Out), 32u * 1024);
  EXPECT_EQ(config.buffBytes(Buffer::Uop), 32u * 1024);
  EXPECT_EQ(config.logOutBuffSize(), 15u);
  EXPECT_EQ(config.getPresetName(), std::optional<llvm::StringRef>("1x16x16"));
}

TEST(VTAConfig, EightByEightByEightSizes) {
  Config config = Config::get8x8x8();
  ASSERT_TRUE(config.isValid()) << joined(config.validate());
  EXPECT_EQ(config.batch(), 8u);
  EXPECT_EQ(config.blockIn(), 8u);
  EXPECT_EQ(config.blockOut(), 8u);
  EXPECT_EQ(config.elemBytes(Buffer::Inp), 64u);
  EXPECT_EQ(config.elemBytes(Buffer::Wgt), 64u);
  EXPECT_EQ(config.elemBytes(Buffer::Acc), 256u);
  EXPECT_EQ(config.elemBytes(Buffer::Out), 64u);
  EXPECT_EQ(config.buffDepth(Buffer::Inp), 512u);
  EXPECT_EQ(config.buffDepth(Buffer::Wgt), 4096u);
  EXPECT_EQ(config.buffDepth(Buffer::Acc), 512u);
  EXPECT_EQ(config.buffDepth(Buffer::Out), 512u);
  EXPECT_EQ(config.buffDepth(Buffer::Uop), 8192u);
  // Buffer sizes are the default ones.
  EXPECT_EQ(config.buffBytes(Buffer::Wgt), 256u * 1024);
  EXPECT_EQ(config.buffBytes(Buffer::Acc), 128u * 1024);
  EXPECT_EQ(config.getPresetName(), std::optional<llvm::StringRef>("8x8x8"));
}

TEST(VTAConfig, Presets) {
  EXPECT_EQ(Config::getPreset("1x16x16"), Config::getDefault());
  EXPECT_EQ(Config::getPreset("8x8x8"), Config::get8x8x8());
  EXPECT_FALSE(Config::getPreset("2x2x2"));
  Config custom;
  custom.logAccBuffSize = 16;
  EXPECT_TRUE(custom.isValid());
  EXPECT_FALSE(custom.getPresetName());
}

TEST(VTAConfig, ValidationMessages) {
  Config wide;
  wide.logInpWidth = 4;
  std::vector<std::string> errors = wide.validate();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "log_inp_width must be 3 (8-bit inputs), got 4");

  Config tiny;
  tiny.logWgtBuffSize = 7; // one 1x16x16 weight row takes 256 bytes
  errors = tiny.validate();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "the wgt buffer holds less than one row: "
                       "log_wgt_buff_size = 7 but a row takes 2^8 bytes");

  Config deep;
  deep.logInpBuffSize = 22;
  errors = deep.validate();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "the inp buffer has 2^18 rows, more than 16-bit SRAM addresses "
            "reach");

  // A 64 KiB uop buffer has 2^14 rows: uop_bgn (14 bits) and uop_end (15)
  // push iter_in to bit 64, and the weight factors no longer fit.
  Config uops;
  uops.logUopBuffSize = 16;
  errors = uops.validate();
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_EQ(errors[0], "GEMM field wgt_factor_out (10 bits) ends at bit 137, "
                       "beyond the 128-bit word");

  // Micro-ops hold three indices in 32 bits: 2^11 accumulator rows, 2^10
  // input rows and 2^11 weight rows fit the GEMM and ALU words but need
  // 11 + 11 + 11 micro-op bits (src_idx is as wide as the wider of inp and
  // acc).
  Config big;
  big.logInpBuffSize = 14;
  big.logWgtBuffSize = 19;
  errors = big.validate();
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_EQ(errors[0], "micro-op field wgt_idx (11 bits) ends at bit 42, "
                       "beyond the 32-bit word");
}

/// Expects `field` at the spec's [last:first] range.
void expectBits(const BitField &field, unsigned last, unsigned first) {
  EXPECT_EQ(field.offset, first) << field.name.str();
  EXPECT_EQ(field.getLastBit(), last) << field.name.str();
}

TEST(VTALayout, DefaultMatchesSpec) {
  std::string error;
  std::optional<Layout> layout = Layout::compute(Config::getDefault(), &error);
  ASSERT_TRUE(layout) << error;
  expectBits(layout->opcode, 2, 0);
  expectBits(layout->popPrevDep, 3, 3);
  expectBits(layout->popNextDep, 4, 4);
  expectBits(layout->pushPrevDep, 5, 5);
  expectBits(layout->pushNextDep, 6, 6);

  const Layout::Mem &m = layout->mem;
  expectBits(m.memoryType, 9, 7);
  expectBits(m.sramBase, 25, 10);
  expectBits(m.dramBase, 57, 26);
  expectBits(m.ySize, 79, 64);
  expectBits(m.xSize, 95, 80);
  expectBits(m.xStride, 111, 96);
  expectBits(m.yPad0, 115, 112);
  expectBits(m.yPad1, 119, 116);
  expectBits(m.xPad0, 123, 120);
  expectBits(m.xPad1, 127, 124);

  const Layout::Gemm &g = layout->gemm;
  expectBits(g.resetReg, 7, 7);
  expectBits(g.uopBgn, 20, 8);
  expectBits(g.uopEnd, 34, 21);
  expectBits(g.iterOut, 48, 35);
  expectBits(g.iterIn, 62, 49);
  expectBits(g.dstFactorOut, 74, 64);
  expectBits(g.dstFactorIn, 85, 75);
  expectBits(g.srcFactorOut, 96, 86);
  expectBits(g.srcFactorIn, 107, 97);
  expectBits(g.wgtFactorOut, 117, 108);
  expectBits(g.wgtFactorIn, 127, 118);

  const Layout::Alu &a = layout->alu;
  expectBits(a.resetReg, 7, 7);
  expectBits(a.uopBgn, 20, 8);
  expectBits(a.uopEnd, 34, 21);
  expectBits(a.iterOut, 48, 35);
  expectBits(a.iterIn, 62, 49);
  expectBits(a.dstFactorOut, 74, 64);
  expectBits(a.dstFactorIn, 85, 75);
  expectBits(a.srcFactorOut, 96, 86);
  expectBits(a.srcFactorIn, 107, 97);
  expectBits(a.aluOpcode, 110, 108);
  expectBits(a.useImm, 111, 111);
  expectBits(a.imm, 127, 112);

  const Layout::Uop &u = layout->uop;
  expectBits(u.dstIdx, 10, 0);
  expectBits(u.srcIdx, 21, 11);
  expectBits(u.wgtIdx, 31, 22);
}

TEST(VTALayout, EightByEightByEight) {
  // Depths: inp 2^9, wgt 2^12, acc 2^9, uop 2^13.
  std::optional<Layout> layout = Layout::compute(Config::get8x8x8());
  ASSERT_TRUE(layout);
  // LOAD/STORE do not depend on the depths.
  expectBits(layout->mem.dramBase, 57, 26);
  expectBits(layout->mem.xPad1, 127, 124);
  const Layout::Gemm &g = layout->gemm;
  expectBits(g.iterIn, 62, 49);
  expectBits(g.dstFactorOut, 72, 64);
  expectBits(g.dstFactorIn, 81, 73);
  expectBits(g.srcFactorOut, 90, 82);
  expectBits(g.srcFactorIn, 99, 91);
  expectBits(g.wgtFactorOut, 111, 100);
  expectBits(g.wgtFactorIn, 123, 112);
  const Layout::Alu &a = layout->alu;
  expectBits(a.srcFactorIn, 99, 91);
  expectBits(a.aluOpcode, 102, 100);
  expectBits(a.useImm, 103, 103);
  expectBits(a.imm, 119, 104);
  const Layout::Uop &u = layout->uop;
  expectBits(u.dstIdx, 8, 0);
  expectBits(u.srcIdx, 17, 9);
  expectBits(u.wgtIdx, 29, 18);
}

} // namespace
