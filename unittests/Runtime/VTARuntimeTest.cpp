//===- VTARuntimeTest.cpp - the VTA runtime on host buffers ---------------===//
//
// One GEMM row (1x16 input, 16x16 weight) through raf::runtime::VTARuntime:
// operands given contiguous and as strided views of larger buffers, results
// as both the four exact planes and one requantised plane, against the
// product computed here; the binary loads once; errors name the program.
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/VTARuntime.h"
#include "raf/Target/VTA/BinaryFormat.h"
#include "raf/Target/VTA/TileProgram.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace raf;
using namespace raf::runtime;

namespace {

/// input at byte 0 (inp row 0), weight at 256 (wgt row 1), result at 512
/// (out row 32): `planes` stores of the accumulators, shifted by 8 bits
/// between planes. With `bias`, a fused bias row at 512 (acc row 8) is
/// loaded into acc row 1 and added before the planes, and the result moves
/// to 576 (out row 36).
vta::Program buildProgram(int planes, bool bias = false) {
  vta::TileProgram tiles;
  tiles.config = vta::Config::getDefault();
  auto tile = [](vta::Instruction insn, std::vector<vta::Uop> uops = {}) {
    return vta::TileInstruction{insn, std::move(uops)};
  };
  std::vector<vta::Uop> body = {{0, 0, 0}};
  tiles.instructions.push_back(
      tile(vta::Instruction::load(vta::MemoryType::Inp, 0, 0, 1, 1, 1)));
  tiles.instructions.push_back(
      tile(vta::Instruction::load(vta::MemoryType::Wgt, 0, 1, 1, 1, 1)));
  tiles.instructions.push_back(
      tile(vta::Instruction::gemm(0, 1, 1, 1, /*resetReg=*/true), body));
  tiles.instructions.push_back(tile(vta::Instruction::gemm(0, 1), body));
  int64_t resultRow = 32;
  if (bias) {
    tiles.instructions.push_back(
        tile(vta::Instruction::load(vta::MemoryType::Acc, 1, 8, 1, 1, 1)));
    tiles.instructions.push_back(
        tile(vta::Instruction::alu(vta::AluOpcode::Add, 0, 1), {{0, 1, 0}}));
    resultRow = 36;
  }
  tiles.instructions.push_back(
      tile(vta::Instruction::aluImm(vta::AluOpcode::Add, 0, 0, 1), body));
  for (int plane = 0; plane < planes; ++plane) {
    if (plane > 0)
      tiles.instructions.push_back(
          tile(vta::Instruction::aluImm(vta::AluOpcode::Shr, 8, 0, 1), body));
    tiles.instructions.push_back(
        tile(vta::Instruction::store(0, resultRow + plane, 1, 1, 1)));
  }
  llvm::Expected<vta::Program> program = vta::assemble(tiles);
  EXPECT_TRUE(static_cast<bool>(program)) << llvm::toString(program.takeError());
  return std::move(*program);
}

struct Operands {
  std::vector<int8_t> input = std::vector<int8_t>(16);
  std::vector<int8_t> weight = std::vector<int8_t>(256);
  std::vector<int32_t> expected = std::vector<int32_t>(16);

  Operands() {
    for (int i = 0; i < 16; ++i)
      input[i] = int8_t(i * 37 % 256 - 128);
    for (int i = 0; i < 256; ++i)
      weight[i] = int8_t((i * 91 + 5) % 256 - 128);
    for (int oc = 0; oc < 16; ++oc)
      for (int ic = 0; ic < 16; ++ic)
        expected[oc] += int32_t(input[ic]) * weight[oc * 16 + ic];
  }
};

const int64_t inputShape[] = {1, 16}, inputStrides[] = {16, 1};
const int64_t weightShape[] = {16, 16}, weightStrides[] = {16, 1};
const int64_t resultShape[] = {1, 16}, resultStrides[] = {16, 1};

TEST(VTARuntime, ExactPlanes) {
  vta::Program program = buildProgram(4);
  Operands operands;
  std::vector<int32_t> result(16);
  VTARuntime runtime;
  VTALaunchLayout layout{0, 256, 512, 4, 576};
  ASSERT_FALSE(static_cast<bool>(runtime.launch(
      "p", program, layout, {operands.input.data(), inputShape, inputStrides},
      {operands.weight.data(), weightShape, weightStrides},
      {result.data(), resultShape, resultStrides})));
  EXPECT_EQ(result, operands.expected);
  // Accumulators of both signs beyond one byte: every plane matters.
  EXPECT_LT(*std::min_element(result.begin(), result.end()), -256);
  EXPECT_GT(*std::max_element(result.begin(), result.end()), 256);
  VTARunStats stats = runtime.getStats();
  EXPECT_EQ(stats.kernels, 1u);
  EXPECT_EQ(stats.instructions, program.instructions.size());
  EXPECT_GT(stats.cycles, 0u);
}

TEST(VTARuntime, StridedViews) {
  vta::Program program = buildProgram(4);
  Operands operands;
  // The input as every other element of a 32-element row, the weight
  // transposed in memory, the result into every third element.
  std::vector<int8_t> input(32), weightT(256);
  for (int i = 0; i < 16; ++i)
    input[2 * i] = operands.input[i];
  for (int oc = 0; oc < 16; ++oc)
    for (int ic = 0; ic < 16; ++ic)
      weightT[ic * 16 + oc] = operands.weight[oc * 16 + ic];
  std::vector<int32_t> result(48, 7);
  const int64_t everyOther[] = {32, 2}, transposed[] = {1, 16},
                everyThird[] = {48, 3};
  VTARuntime runtime;
  VTALaunchLayout layout{0, 256, 512, 4, 576};
  ASSERT_FALSE(static_cast<bool>(runtime.launch(
      "p", program, layout, {input.data(), inputShape, everyOther},
      {weightT.data(), weightShape, transposed},
      {result.data(), resultShape, everyThird})));
  for (int i = 0; i < 48; ++i)
    EXPECT_EQ(result[i], i % 3 == 0 ? operands.expected[i / 3] : 7) << i;
}

TEST(VTARuntime, OnePlaneIsSignExtended) {
  vta::Program program = buildProgram(1);
  Operands operands;
  std::vector<int32_t> result(16);
  VTARuntime runtime;
  VTALaunchLayout layout{0, 256, 512, 1, 576};
  ASSERT_FALSE(static_cast<bool>(runtime.launch(
      "p", program, layout, {operands.input.data(), inputShape, inputStrides},
      {operands.weight.data(), weightShape, weightStrides},
      {result.data(), resultShape, resultStrides})));
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(result[i], int8_t(operands.expected[i] & 0xff)) << i;
}

TEST(VTARuntime, FusedBias) {
  // The bias rows are int32 in DRAM, little-endian, as the accumulator
  // buffer holds them; given as a strided view (every other element).
  vta::Program program = buildProgram(4, /*bias=*/true);
  Operands operands;
  std::vector<int32_t> bias(32, 0), result(16);
  for (int i = 0; i < 16; ++i)
    bias[2 * i] = (i - 8) * 1000003;
  const int64_t biasShape[] = {1, 16}, everyOther[] = {32, 2};
  VTATensorView biasView{bias.data(), biasShape, everyOther};
  VTARuntime runtime;
  VTALaunchLayout layout{0, 256, 576, 4, 640, /*biasOffset=*/512};
  ASSERT_FALSE(static_cast<bool>(runtime.launch(
      "p", program, layout, {operands.input.data(), inputShape, inputStrides},
      {operands.weight.data(), weightShape, weightStrides},
      {result.data(), resultShape, resultStrides}, &biasView)));
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(result[i], operands.expected[i] + bias[2 * i]) << i;
  // A layout with a bias needs one, and one without takes none.
  llvm::Error missing = runtime.launch(
      "p", program, layout, {operands.input.data(), inputShape, inputStrides},
      {operands.weight.data(), weightShape, weightStrides},
      {result.data(), resultShape, resultStrides});
  EXPECT_EQ(llvm::toString(std::move(missing)),
            "VTA launch of 'p': the program adds a bias but the launch has "
            "none");
  layout.biasOffset = -1;
  llvm::Error extra = runtime.launch(
      "p", program, layout, {operands.input.data(), inputShape, inputStrides},
      {operands.weight.data(), weightShape, weightStrides},
      {result.data(), resultShape, resultStrides}, &biasView);
  EXPECT_EQ(llvm::toString(std::move(extra)),
            "VTA launch of 'p': a bias for a program without one");
}

TEST(VTARuntime, LoadsEachBinaryOnce) {
  llvm::Expected<std::vector<uint8_t>> binary =
      vta::writeBinary(buildProgram(4));
  ASSERT_TRUE(static_cast<bool>(binary));
  VTARuntime runtime;
  llvm::Expected<const vta::Program *> first = runtime.loadProgram(*binary);
  llvm::Expected<const vta::Program *> second = runtime.loadProgram(*binary);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(*first, *second);
  // Other bytes at the same address are decoded again.
  (*binary)[8] = 9; // another version
  llvm::Expected<const vta::Program *> changed = runtime.loadProgram(*binary);
  ASSERT_FALSE(static_cast<bool>(changed));
  EXPECT_NE(llvm::toString(changed.takeError()).find("version"),
            std::string::npos);
}

TEST(VTARuntime, ErrorsNameTheProgram) {
  vta::Program program = buildProgram(4);
  Operands operands;
  std::vector<int32_t> result(16);
  VTARuntime runtime;
  // The result planes run past the image.
  VTALaunchLayout layout{0, 256, 512, 4, 560};
  llvm::Error error = runtime.launch(
      "f_kernel0", program, layout,
      {operands.input.data(), inputShape, inputStrides},
      {operands.weight.data(), weightShape, weightStrides},
      {result.data(), resultShape, resultStrides});
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "VTA launch of 'f_kernel0': the operands or the result do not "
            "fit the 560-byte DRAM image");
  EXPECT_EQ(runtime.getStats().kernels, 0u);
  // Recorded errors: the first one is kept until taken.
  runtime.recordError("first");
  runtime.recordError("second");
  EXPECT_TRUE(runtime.hasError());
  EXPECT_EQ(runtime.takeError(), std::optional<std::string>("first"));
  EXPECT_FALSE(runtime.hasError());
}

} // namespace
