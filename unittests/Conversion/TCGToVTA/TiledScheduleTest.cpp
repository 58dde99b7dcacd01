//===- TiledScheduleTest.cpp - tiled VTA schedules against a reference ----===//
//
// Every schedule of a small convolution-shaped kernel (and of a transposed
// one, whose weight is read backwards) is assembled, run on the functional
// simulator, and compared with a plain loop nest over the kernel model; the
// divisor tilings in kernel order, and separately the whole space with
// remainder tiles and loop orders:
// int8 x int8 accumulated in int32, then exact byte planes or the
// requantisation clip(acc >> shift, -128, 127).
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/TCGToVTA/TiledSchedule.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <random>

using namespace raf::vta;

namespace {

DimAccess dim(int64_t size, std::vector<int64_t> coefficients,
              int64_t base = 0) {
  DimAccess access;
  access.size = size;
  access.base = base;
  access.coefficients.assign(coefficients.begin(), coefficients.end());
  return access;
}

/// conv2d in the packed layout of TVM's strategy, with the tile iterators
/// oc.o, oh, ow (parallel) and ic.o, kh, kw (reductions): input [ic.o,
/// oh * stride + kh, ow + kw], weight [oc.o, ic.o, kh, kw], result [oc.o,
/// oh, ow]. With `flipped`, the weight is read at [.., K - 1 - kh, ..] like a
/// transposed convolution's.
GemmKernelModel convolution(const Config &config, int64_t oc, int64_t ic,
                            int64_t oh, int64_t ow, int64_t k, int64_t stride,
                            bool flipped, std::optional<int64_t> shift) {
  GemmKernelModel model;
  model.config = config;
  model.names = {"oc.o", "oh", "ow", "ic.o", "kh", "kw"};
  model.extents = {oc, oh, ow, ic, k, k};
  model.numParallel = 3;
  int64_t ih = (oh - 1) * stride + k, iw = ow + k - 1;
  model.input = {dim(ic, {0, 0, 0, 1, 0, 0}), dim(ih, {0, stride, 0, 0, 1, 0}),
                 dim(iw, {0, 0, 1, 0, 0, 1})};
  model.weight = {dim(oc, {1, 0, 0, 0, 0, 0}), dim(ic, {0, 0, 0, 1, 0, 0}),
                  flipped ? dim(k, {0, 0, 0, 0, -1, 0}, k - 1)
                          : dim(k, {0, 0, 0, 0, 1, 0}),
                  dim(k, {0, 0, 0, 0, 0, 1})};
  model.output = {dim(oc, {1, 0, 0, 0, 0, 0}), dim(oh, {0, 1, 0, 0, 0, 0}),
                  dim(ow, {0, 0, 1, 0, 0, 0})};
  int64_t inputRows = ic * ih * iw, weightRows = oc * ic * k * k;
  model.inputBase = 0;
  int64_t inpRow = config.elemBytes(Buffer::Inp);
  int64_t wgtRow = config.elemBytes(Buffer::Wgt);
  int64_t outRow = config.elemBytes(Buffer::Out);
  model.weightBase = (inputRows * inpRow + wgtRow - 1) / wgtRow;
  model.resultBase =
      ((model.weightBase + weightRows) * wgtRow + outRow - 1) / outRow;
  model.resultRows = oc * oh * ow;
  model.requantShift = shift;
  return model;
}

/// The stored row `point` reads, or nothing when it falls in the padding of
/// a view padded on the fly.
std::optional<int64_t> rowOf(const std::vector<DimAccess> &dims,
                             const std::vector<int64_t> &point) {
  int64_t row = 0;
  for (const DimAccess &d : dims) {
    int64_t index = d.base - d.padLow;
    for (size_t i = 0; i < point.size(); ++i)
      index += d.coefficients[i] * point[i];
    if (index < 0 || index >= d.size)
      return std::nullopt;
    row = row * d.size + index;
  }
  return row;
}

/// The result plane bytes a plain loop nest computes from `dram`.
std::vector<uint8_t> reference(const GemmKernelModel &model,
                               const std::vector<uint8_t> &dram) {
  const Config &config = model.config;
  unsigned batch = config.batch(), in = config.blockIn(),
           out = config.blockOut();
  std::vector<int32_t> acc(model.resultRows * batch * out, 0);
  std::vector<DimAccess> input(model.input.begin(), model.input.end());
  std::vector<DimAccess> weight(model.weight.begin(), model.weight.end());
  std::vector<DimAccess> output(model.output.begin(), model.output.end());
  std::vector<int64_t> point(model.extents.size(), 0);
  int64_t inpRow = config.elemBytes(Buffer::Inp);
  int64_t wgtRow = config.elemBytes(Buffer::Wgt);
  std::vector<DimAccess> bias(model.bias.begin(), model.bias.end());
  int64_t accRow = config.elemBytes(Buffer::Acc);
  while (true) {
    // The fused bias, once per result row (wrapping, as the ALU adds).
    bool first = true;
    for (size_t i = model.numParallel; i < point.size(); ++i)
      first &= point[i] == 0;
    if (model.hasBias() && first) {
      int64_t o = *rowOf(output, point) * batch * out;
      int64_t b = (model.biasBase + *rowOf(bias, point)) * accRow;
      for (unsigned e = 0; e < batch * out; ++e) {
        uint32_t value = 0;
        for (unsigned byte = 0; byte < 4; ++byte)
          value |= uint32_t(dram[b + 4 * e + byte]) << (8 * byte);
        acc[o + e] = int32_t(uint32_t(acc[o + e]) + value);
      }
    }
    std::optional<int64_t> inputRow = rowOf(input, point);
    int64_t w = model.weightBase * wgtRow + *rowOf(weight, point) * wgtRow;
    int64_t o = *rowOf(output, point) * batch * out;
    for (unsigned x = 0; inputRow && x < batch; ++x)
      for (unsigned y = 0; y < out; ++y)
        for (unsigned z = 0; z < in; ++z)
          acc[o + x * out + y] +=
              int32_t(int8_t(dram[(model.inputBase + *inputRow) * inpRow +
                                  x * in + z])) *
              int32_t(int8_t(dram[w + y * in + z]));
    int k = int(point.size()) - 1;
    for (; k >= 0; --k) {
      if (++point[k] < model.extents[k])
        break;
      point[k] = 0;
    }
    if (k < 0)
      break;
  }
  std::vector<uint8_t> bytes;
  unsigned planes = model.requantShift ? 1 : 4;
  for (unsigned plane = 0; plane < planes; ++plane)
    for (int32_t value : acc) {
      if (model.requantShift)
        bytes.push_back(uint8_t(int8_t(
            std::clamp<int32_t>(value >> *model.requantShift, -128, 127))));
      else
        bytes.push_back(uint8_t(uint32_t(value) >> (8 * plane)));
    }
  return bytes;
}

/// Runs `knobs` on the simulator and compares with the reference.
void expectMatchesReference(const GemmKernelModel &model,
                            const ScheduleKnobs &knobs, uint64_t *cycles) {
  ScheduleLimits limits;
  llvm::Expected<TileProgram> tiles = buildSchedule(model, knobs, limits);
  ASSERT_TRUE(bool(tiles)) << llvm::toString(tiles.takeError());
  llvm::Expected<Program> program = assemble(*tiles);
  ASSERT_TRUE(bool(program)) << llvm::toString(program.takeError());
  int64_t outRow = model.config.elemBytes(Buffer::Out);
  unsigned planes = model.requantShift ? 1 : 4;
  int64_t resultOffset = model.resultBase * outRow;
  std::vector<uint8_t> dram(resultOffset + planes * model.resultRows * outRow,
                            0);
  std::mt19937 random(7);
  std::uniform_int_distribution<int> byte(-128, 127);
  for (int64_t b = 0; b < resultOffset; ++b)
    dram[b] = uint8_t(byte(random));
  std::vector<uint8_t> expected = reference(model, dram);
  llvm::Expected<SimulationResult> result = simulate(*program, dram);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  std::vector<uint8_t> actual(dram.begin() + resultOffset, dram.end());
  ASSERT_EQ(actual, expected);
  *cycles = result->cycles;

  // The timing-only run costs the same cycles.
  SimulatorOptions options;
  options.functional = false;
  std::vector<uint8_t> none;
  llvm::Expected<SimulationResult> timing = simulate(*program, none, options);
  ASSERT_TRUE(bool(timing)) << llvm::toString(timing.takeError());
  EXPECT_EQ(timing->cycles, result->cycles);
}

/// Runs every schedule of `space` (those `only` accepts, when given).
void checkAllSchedules(
    const GemmKernelModel &model, unsigned minimumValid,
    const ScheduleSpace &space = getDivisorSpace(),
    std::function<bool(const ScheduleKnobs &)> only = nullptr) {
  unsigned valid = 0;
  bool failed = false;
  forEachSchedule(model, {}, space,
                  [&](const ScheduleKnobs &knobs, const ScheduleCheck &) {
                    if (failed || (only && !only(knobs)))
                      return;
                    ++valid;
                    uint64_t cycles = 0;
                    SCOPED_TRACE(::testing::Message()
                                 << "tiles "
                                 << ::testing::PrintToString(knobs.tileSizes)
                                 << " threads " << knobs.virtualThreads
                                 << " order "
                                 << ::testing::PrintToString(knobs.loopOrder)
                                 << " dma "
                                 << stringifyDmaPlacement(knobs.dma).str());
                    expectMatchesReference(model, knobs, &cycles);
                    failed = ::testing::Test::HasFailure();
                  });
  EXPECT_GE(valid, minimumValid);
}

TEST(TiledSchedule, EveryScheduleOfAConvolutionIsExact) {
  Config config = *Config::getPreset("1x16x16");
  checkAllSchedules(convolution(config, 2, 2, 4, 3, 2, 1, false, std::nullopt),
                    100);
}

TEST(TiledSchedule, EveryScheduleOfAStridedRequantisedConvolution) {
  Config config = *Config::getPreset("1x16x16");
  checkAllSchedules(convolution(config, 2, 1, 2, 4, 3, 2, false, 6), 50);
}

TEST(TiledSchedule, FlippedWeightsOn8x8x8) {
  Config config = *Config::getPreset("8x8x8");
  checkAllSchedules(convolution(config, 2, 2, 3, 2, 2, 1, true, 4), 50);
}

TEST(TiledSchedule, RemainderTilesAndLoopOrdersAreExact) {
  Config config = *Config::getPreset("1x16x16");
  checkAllSchedules(convolution(config, 3, 2, 5, 3, 2, 1, false, std::nullopt),
                    1000, ScheduleSpace());
}

TEST(TiledSchedule, RemainderTilesAndLoopOrdersOn8x8x8Requantised) {
  Config config = *Config::getPreset("8x8x8");
  checkAllSchedules(convolution(config, 3, 1, 3, 5, 3, 2, true, 5), 500,
                    ScheduleSpace());
}

/// `convolution` with the input padded by `pad` on each side of both
/// spatial dimensions on the fly instead of on the host: the input stores
/// only the inner rows, and the index still runs over the padded view.
GemmKernelModel paddedConvolution(const Config &config, int64_t oc, int64_t ic,
                                  int64_t oh, int64_t ow, int64_t k,
                                  int64_t stride, int64_t pad,
                                  std::optional<int64_t> shift) {
  GemmKernelModel model =
      convolution(config, oc, ic, oh, ow, k, stride, false, shift);
  for (unsigned d : {1u, 2u}) {
    DimAccess &dim = model.input[d];
    dim.padLow = dim.padHigh = pad;
    dim.size -= 2 * pad;
  }
  int64_t inputRows = ic * model.input[1].size * model.input[2].size;
  int64_t weightRows = oc * ic * k * k;
  int64_t inpRow = config.elemBytes(Buffer::Inp);
  int64_t wgtRow = config.elemBytes(Buffer::Wgt);
  int64_t outRow = config.elemBytes(Buffer::Out);
  model.weightBase = (inputRows * inpRow + wgtRow - 1) / wgtRow;
  model.resultBase =
      ((model.weightBase + weightRows) * wgtRow + outRow - 1) / outRow;
  return model;
}

TEST(TiledSchedule, PaddingOnTheFlyIsExact) {
  Config config = *Config::getPreset("1x16x16");
  // 3x3, pad 1: tiles at the border are partly padding, and with kernel
  // tiles of 1 some boxes are entirely padding (zero-filled).
  checkAllSchedules(
      paddedConvolution(config, 2, 2, 4, 3, 3, 1, 1, std::nullopt), 150);
  ScheduleSpace space;
  space.virtualThreads = {2};
  checkAllSchedules(paddedConvolution(config, 1, 1, 3, 5, 3, 2, 2, 6), 100,
                    space);
}

TEST(TiledSchedule, PaddingOnTheFlyLimits) {
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel model =
      paddedConvolution(config, 2, 2, 4, 3, 3, 1, 1, std::nullopt);
  ScheduleKnobs knobs;
  knobs.tileSizes = {1, 1, 1, 1, 1, 1};
  model.input[0].padLow = 1;
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the input is padded along row dimension 0 of 3; loads pad only "
            "the two innermost (y and x)");
  model.input[0].padLow = 0;
  model.input[2].padHigh = 16;
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the input is padded by 1 and 16 along row dimension 2; a load "
            "pads 0 to 15");
  model.input[2].padHigh = 1;
  model.weight[2].padLow = 1;
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the weight is padded; only input loads pad on the fly (TVM-VTA's "
            "load module pads the inp path only)");
}

TEST(TiledSchedule, TheSpaceGrows) {
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel model =
      convolution(config, 4, 4, 14, 14, 3, 1, false, std::nullopt);
  auto count = [&](const ScheduleSpace &space) {
    return forEachSchedule(model, {}, space,
                           [](const ScheduleKnobs &, const ScheduleCheck &) {});
  };
  ScheduleSpace remainder = getDivisorSpace();
  remainder.remainderTiles = true;
  int64_t divisors = count(getDivisorSpace());
  int64_t withRemainders = count(remainder);
  int64_t all = count(ScheduleSpace());
  EXPECT_GT(divisors, 0);
  EXPECT_GT(withRemainders, divisors);
  EXPECT_GT(all, withRemainders);
}

TEST(TiledSchedule, LoopOrderDecidesReuse) {
  // A 1x1 convolution with every reduction in one tile: with the output
  // channels outermost, each weight tile is loaded once and each input row
  // tile once per channel tile; with them innermost, the other way round.
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel model = convolution(config, 4, 2, 4, 4, 1, 1, false, 8);
  ScheduleKnobs knobs;
  knobs.tileSizes = {1, 1, 4, 2, 1, 1};
  ScheduleCheck outer = checkSchedule(model, knobs, {});
  ASSERT_TRUE(outer.valid()) << outer.problem;
  knobs.loopOrder = {1, 2, 0, 3, 4, 5};
  ScheduleCheck inner = checkSchedule(model, knobs, {});
  ASSERT_TRUE(inner.valid()) << inner.problem;
  ScheduleKnobs kernelOrder = knobs;
  kernelOrder.loopOrder.clear();
  llvm::Expected<SimulatedSchedule> a =
      simulateSchedule(model, kernelOrder, {});
  llvm::Expected<SimulatedSchedule> b = simulateSchedule(model, knobs, {});
  ASSERT_TRUE(bool(a) && bool(b));
  EXPECT_EQ(a->timing.loadBytes[unsigned(MemoryType::Wgt)] * 4,
            b->timing.loadBytes[unsigned(MemoryType::Wgt)]);
  EXPECT_EQ(a->timing.loadBytes[unsigned(MemoryType::Inp)],
            b->timing.loadBytes[unsigned(MemoryType::Inp)] * 4);
}

TEST(TiledSchedule, InvalidSchedulesNameTheirLimit) {
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel model =
      convolution(config, 4, 64, 14, 14, 3, 1, false, std::nullopt);
  ScheduleKnobs knobs;
  knobs.tileSizes = {1, 14, 14, 64, 3, 3};
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the input tile needs 16384 rows of the inp buffer, which holds "
            "2048");
  knobs.tileSizes = {4, 1, 1, 64, 3, 3};
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the weight tile needs 2304 rows of the wgt buffer, which holds "
            "1024");
  knobs.tileSizes = {1, 7, 14, 8, 3, 3};
  knobs.virtualThreads = 2;
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the input tile needs 1152 rows of the inp buffer, which holds "
            "1024 per virtual thread");
  knobs.tileSizes = {1, 15, 14, 8, 3, 3};
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "tile size 15 is not in [1, 14], the extent of iterator 'oh'");
  knobs.tileSizes = {1, 3, 14, 8, 3, 3};
  EXPECT_TRUE(checkSchedule(model, knobs, {}).valid());
  knobs.loopOrder = {0, 1, 2, 3, 4};
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the loop order lists 5 loops; the kernel has 6 tile iterators");
  knobs.loopOrder = {0, 1, 2, 3, 4, 6};
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "loop 5 of the loop order is 6, not a tile iterator (0 to 5)");
  knobs.loopOrder = {0, 1, 1, 3, 4, 5};
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the loop order lists iterator 'oh' twice");
  knobs.loopOrder = {0, 1, 3, 2, 4, 5};
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the loop order puts reduction 'ic.o' outside parallel iterator "
            "'ow' (an output tile must be complete before the next)");
  knobs.loopOrder.clear();
  knobs.tileSizes = {1, 1, 1, 1, 1, 1};
  knobs.virtualThreads = 3;
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "virtual threads must be 1 or 2, not 3");
  ScheduleLimits limits;
  limits.maxInstructions = 1000;
  knobs.virtualThreads = 1;
  EXPECT_NE(checkSchedule(model, knobs, limits)
                .problem.find("instructions, more than the limit of 1000"),
            std::string::npos);
}

TEST(TiledSchedule, SearchBeatsTheSmallestTilesAndKeepsTheGivenOne) {
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel model = convolution(config, 4, 4, 8, 8, 3, 1, false, 8);
  SearchOptions options;
  llvm::Expected<SearchResult> best = searchSchedule(model, {}, options);
  ASSERT_TRUE(bool(best)) << llvm::toString(best.takeError());
  EXPECT_GT(best->validConfigurations, 100);
  EXPECT_GE(best->simulated, 8);
  EXPECT_LE(best->simulated, 16);

  ScheduleKnobs ones;
  ones.tileSizes.assign(6, 1);
  options.given = ones;
  llvm::Expected<SearchResult> given = searchSchedule(model, {}, options);
  ASSERT_TRUE(bool(given)) << llvm::toString(given.takeError());
  EXPECT_EQ(given->knobs.tileSizes, ones.tileSizes);
  EXPECT_LT(2 * best->timing.cycles, given->timing.cycles);

  // Exhaustive search (over the divisor tilings in kernel order, to keep
  // the test short) is at least as fast as the pruned search there.
  options.given.reset();
  options.space = getDivisorSpace();
  llvm::Expected<SearchResult> pruned = searchSchedule(model, {}, options);
  ASSERT_TRUE(bool(pruned)) << llvm::toString(pruned.takeError());
  EXPECT_LT(pruned->validConfigurations, best->validConfigurations);
  options.mode = SearchMode::Exhaustive;
  llvm::Expected<SearchResult> all = searchSchedule(model, {}, options);
  ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
  EXPECT_EQ(all->simulated, all->validConfigurations);
  EXPECT_LE(all->timing.cycles, pruned->timing.cycles);

  ones.tileSizes[1] = 9;
  options.given = ones;
  llvm::Expected<SearchResult> invalid = searchSchedule(model, {}, options);
  ASSERT_FALSE(bool(invalid));
  EXPECT_EQ(llvm::toString(invalid.takeError()),
            "invalid schedule: tile size 9 is not in [1, 8], the extent of "
            "iterator 'oh'");
}

/// `convolution` with a fused bias: one accumulator row of int32 per output
/// channel block, stored after the weight (and before the result).
GemmKernelModel biasedConvolution(GemmKernelModel model) {
  const Config &config = model.config;
  int64_t oc = model.extents[0];
  model.bias = {dim(oc, std::vector<int64_t>(model.extents.size(), 0))};
  model.bias[0].coefficients[0] = 1;
  int64_t weightRows = 1;
  for (const DimAccess &d : model.weight)
    weightRows *= d.size;
  int64_t wgtRow = config.elemBytes(Buffer::Wgt);
  int64_t accRow = config.elemBytes(Buffer::Acc);
  int64_t outRow = config.elemBytes(Buffer::Out);
  model.biasBase =
      ((model.weightBase + weightRows) * wgtRow + accRow - 1) / accRow;
  model.resultBase = ((model.biasBase + oc) * accRow + outRow - 1) / outRow;
  return model;
}

TEST(TiledSchedule, FusedBiasIsExact) {
  // Every schedule (remainder tiles, loop orders, both thread counts) of
  // convolutions with a bias per output channel block, exact int32 and
  // requantised, forwards and flipped weights, padding on the fly.
  checkAllSchedules(biasedConvolution(convolution(*Config::getPreset("1x16x16"),
                                                  3, 2, 5, 3, 2, 1, false,
                                                  std::nullopt)),
                    1000, ScheduleSpace());
  checkAllSchedules(biasedConvolution(convolution(
                        *Config::getPreset("8x8x8"), 3, 1, 3, 5, 3, 2, true, 5)),
                    500, ScheduleSpace());
  checkAllSchedules(
      biasedConvolution(paddedConvolution(*Config::getPreset("1x16x16"), 2, 2,
                                          4, 3, 3, 1, 1, std::nullopt)),
      150);
}

TEST(TiledSchedule, FusedBiasCosts) {
  // One bias load and one ALU ADD per output tile, counted by the check.
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel plain = convolution(config, 2, 2, 4, 4, 3, 1, false, 8);
  GemmKernelModel biased = biasedConvolution(plain);
  ScheduleKnobs knobs;
  knobs.tileSizes = {1, 2, 2, 1, 1, 3};
  ScheduleCheck a = checkSchedule(plain, knobs, {});
  ScheduleCheck b = checkSchedule(biased, knobs, {});
  ASSERT_TRUE(a.valid() && b.valid()) << a.problem << b.problem;
  EXPECT_EQ(b.counts.outputTiles, 8);
  EXPECT_EQ(b.counts.loadTransfers, a.counts.loadTransfers + 8);
  EXPECT_EQ(b.counts.loadBytes,
            a.counts.loadBytes + 8 * int64_t(config.elemBytes(Buffer::Acc)));
  EXPECT_EQ(b.counts.aluSteps, a.counts.aluSteps + 2 * 4 * 4);
  EXPECT_EQ(b.instructions, a.instructions + 16);
  llvm::Expected<SimulatedSchedule> run = simulateSchedule(biased, knobs, {});
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());
  EXPECT_EQ(run->timing.loadBytes[unsigned(MemoryType::Acc)],
            uint64_t(8 * config.elemBytes(Buffer::Acc)));
}

/// Every schedule of `model`'s space with the weight load hoisted out of
/// the output-tile loops (DmaPlacement::HoistWeight), against the reference.
void checkHoistedSchedules(const GemmKernelModel &model,
                           unsigned minimumValid) {
  ScheduleSpace space;
  space.hoistWeight = true;
  checkAllSchedules(model, minimumValid, space, [](const ScheduleKnobs &k) {
    return k.dma == DmaPlacement::HoistWeight;
  });
}

TEST(TiledSchedule, HoistedWeightIsExact) {
  // Remainder tiles, loop orders, one and two threads; a weight read
  // forwards and one read backwards (a transposed convolution's), exact
  // and requantised.
  checkHoistedSchedules(convolution(*Config::getPreset("1x16x16"), 3, 2, 5, 3,
                                    2, 1, false, std::nullopt),
                        1000);
  checkHoistedSchedules(
      convolution(*Config::getPreset("8x8x8"), 3, 1, 3, 5, 3, 2, true, 5),
      500);
  checkHoistedSchedules(paddedConvolution(*Config::getPreset("1x16x16"), 2, 2,
                                          4, 3, 3, 1, 1, std::nullopt),
                        150);
}

TEST(TiledSchedule, HoistedWeightIsLoadedOncePerChannelTile) {
  // Output channels outermost, several image tiles and reduction tiles:
  // at every step the weight tile changes, so each output tile reloads
  // the whole weight of its channel tile; hoisted, each channel tile's
  // weight is loaded once.
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel model = convolution(config, 2, 2, 4, 4, 3, 1, false, 8);
  ScheduleKnobs knobs;
  knobs.tileSizes = {1, 2, 2, 1, 1, 3};
  llvm::Expected<SimulatedSchedule> step = simulateSchedule(model, knobs, {});
  ASSERT_TRUE(bool(step)) << llvm::toString(step.takeError());
  knobs.dma = DmaPlacement::HoistWeight;
  ScheduleCheck check = checkSchedule(model, knobs, {});
  ASSERT_TRUE(check.valid()) << check.problem;
  llvm::Expected<SimulatedSchedule> hoisted =
      simulateSchedule(model, knobs, {});
  ASSERT_TRUE(bool(hoisted)) << llvm::toString(hoisted.takeError());
  int64_t weightBytes = 2 * 2 * 3 * 3 * config.elemBytes(Buffer::Wgt);
  unsigned wgt = unsigned(MemoryType::Wgt);
  EXPECT_EQ(hoisted->timing.loadBytes[wgt], uint64_t(weightBytes));
  EXPECT_EQ(step->timing.loadBytes[wgt], uint64_t(4 * weightBytes));
  // The check's load bytes are exact here (no remainder tiles).
  EXPECT_EQ(uint64_t(check.counts.loadBytes),
            hoisted->timing.loadBytes[unsigned(MemoryType::Inp)] +
                hoisted->timing.loadBytes[wgt]);
  EXPECT_LT(hoisted->timing.cycles, step->timing.cycles);
}

TEST(TiledSchedule, HoistedWeightMustFit) {
  // 64 input channel blocks x 3 x 3: the weight of one channel tile is 576
  // rows, over the 512 rows of a virtual thread's half.
  Config config = *Config::getPreset("1x16x16");
  GemmKernelModel model =
      convolution(config, 4, 64, 2, 2, 3, 1, false, std::nullopt);
  ScheduleKnobs knobs;
  knobs.tileSizes = {1, 1, 1, 1, 1, 1};
  knobs.dma = DmaPlacement::HoistWeight;
  EXPECT_TRUE(checkSchedule(model, knobs, {}).valid());
  knobs.virtualThreads = 2;
  EXPECT_EQ(checkSchedule(model, knobs, {}).problem,
            "the hoisted weight (every reduction tile) needs 576 rows of the "
            "wgt buffer, which holds 512 per virtual thread");
}

} // namespace

namespace {

/// A DeepBench convolution (bench/embedding/deepbench_108.tsv) in TVM's
/// packed layout on 1x16x16 (NCHW1n16c / OIHW16o16i, host-side padding):
/// tile iterators n, oc.o, oh, ow (parallel) and ic.o, kh, kw.
GemmKernelModel deepBench(int64_t w, int64_t h, int64_t c, int64_t n,
                          int64_t k, int64_t s, int64_t r, int64_t padW,
                          int64_t padH, int64_t strideW, int64_t strideH) {
  Config config = *Config::getPreset("1x16x16");
  int64_t ic = (c + 15) / 16, oc = (k + 15) / 16;
  int64_t oh = (h + 2 * padH - r) / strideH + 1;
  int64_t ow = (w + 2 * padW - s) / strideW + 1;
  int64_t ih = h + 2 * padH, iw = w + 2 * padW;
  GemmKernelModel model;
  model.config = config;
  model.names = {"n", "oc.o", "oh", "ow", "ic.o", "kh", "kw"};
  model.extents = {n, oc, oh, ow, ic, r, s};
  model.numParallel = 4;
  model.input = {dim(n, {1, 0, 0, 0, 0, 0, 0}), dim(ic, {0, 0, 0, 0, 1, 0, 0}),
                 dim(ih, {0, 0, strideH, 0, 0, 1, 0}),
                 dim(iw, {0, 0, 0, strideW, 0, 0, 1})};
  model.weight = {dim(oc, {0, 1, 0, 0, 0, 0, 0}), dim(ic, {0, 0, 0, 0, 1, 0, 0}),
                  dim(r, {0, 0, 0, 0, 0, 1, 0}), dim(s, {0, 0, 0, 0, 0, 0, 1})};
  model.output = {dim(n, {1, 0, 0, 0, 0, 0, 0}), dim(oc, {0, 1, 0, 0, 0, 0, 0}),
                  dim(oh, {0, 0, 1, 0, 0, 0, 0}),
                  dim(ow, {0, 0, 0, 1, 0, 0, 0})};
  int64_t inputRows = n * ic * ih * iw;
  model.weightBase = inputRows;
  model.resultBase = inputRows + oc * ic * r * s;
  model.resultRows = n * oc * oh * ow;
  model.requantShift = 8;
  return model;
}

/// A row of deepbench_108.tsv.
struct Layer {
  int id;
  int64_t w, h, c, n, k, s, r, padW, padH, strideW, strideH;
  GemmKernelModel model() const {
    return deepBench(w, h, c, n, k, s, r, padW, padH, strideW, strideH);
  }
};

/// The schedule space of a few DeepBench layers before (divisor tile sizes
/// in kernel order) and after (remainder tiles, loop orders), and the
/// heuristic search over the larger space; prints a table (docs/vta.md,
/// "Schedule space"). Minutes long, so disabled by default.
TEST(TiledSchedule, DISABLED_DeepBenchSpaces) {
  for (Layer l : {Layer{3, 341, 79, 32, 1, 32, 10, 5, 0, 0, 2, 2},
                  Layer{17, 56, 56, 128, 1, 256, 3, 3, 1, 1, 1, 1},
                  Layer{42, 56, 56, 64, 1, 64, 3, 3, 1, 1, 1, 1},
                  Layer{76, 112, 112, 64, 1, 64, 1, 1, 0, 0, 1, 1},
                  Layer{106, 14, 14, 1024, 2, 2048, 1, 1, 0, 0, 2, 2}}) {
    GemmKernelModel model = l.model();
    auto count = [&](const ScheduleSpace &space) {
      return forEachSchedule(
          model, {}, space, [](const ScheduleKnobs &, const ScheduleCheck &) {});
    };
    ScheduleSpace remainder = getDivisorSpace();
    remainder.remainderTiles = true;
    auto start = std::chrono::steady_clock::now();
    int64_t all = count(ScheduleSpace());
    double checkSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    int64_t divisors = count(getDivisorSpace());
    int64_t withRemainders = count(remainder);
    EXPECT_GT(all, withRemainders);
    EXPECT_GE(withRemainders, divisors);

    SearchOptions before;
    before.space = getDivisorSpace();
    llvm::Expected<SearchResult> old = searchSchedule(model, {}, before);
    ASSERT_TRUE(bool(old)) << llvm::toString(old.takeError());
    start = std::chrono::steady_clock::now();
    llvm::Expected<SearchResult> best = searchSchedule(model, {}, {});
    double searchSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    ASSERT_TRUE(bool(best)) << llvm::toString(best.takeError());
    std::printf("| %d | %lld | %lld | %lld | %.2f | %llu | %llu | %.1f |\n",
                l.id, (long long)divisors, (long long)withRemainders,
                (long long)all, checkSeconds * 1e6 / double(all),
                (unsigned long long)old->timing.cycles,
                (unsigned long long)best->timing.cycles, searchSeconds);
  }
}

/// The per-transfer DMA latency's effect (docs/vta.md, "DMA latency"): per
/// layer and latency, the cycles of the schedule the search picks without
/// latency, run with it, and of the schedule the search picks knowing it.
/// Minutes long, so disabled by default.
TEST(TiledSchedule, DISABLED_DmaLatencySensitivity) {
  for (Layer l : {Layer{42, 56, 56, 64, 1, 64, 3, 3, 1, 1, 1, 1},
                  Layer{76, 112, 112, 64, 1, 64, 1, 1, 0, 0, 1, 1},
                  Layer{106, 14, 14, 1024, 2, 2048, 1, 1, 0, 0, 2, 2}}) {
    GemmKernelModel model = l.model();
    llvm::Expected<SearchResult> blind = searchSchedule(model, {}, {});
    ASSERT_TRUE(bool(blind)) << llvm::toString(blind.takeError());
    for (uint64_t latency : {0, 16, 64, 256}) {
      SearchOptions options;
      options.cycleModel.dmaLatencyCycles = latency;
      llvm::Expected<SimulatedSchedule> kept =
          simulateSchedule(model, blind->knobs, {}, options.cycleModel);
      llvm::Expected<SearchResult> aware = searchSchedule(model, {}, options);
      ASSERT_TRUE(bool(kept) && bool(aware));
      auto transfers = [](const SimulationResult &r) {
        return (unsigned long long)(r.instructions[0] + r.instructions[2]);
      };
      std::printf("| %d | %llu | %llu | %llu | %llu | %llu |\n", l.id,
                  (unsigned long long)latency,
                  (unsigned long long)kept->timing.cycles,
                  transfers(kept->timing),
                  (unsigned long long)aware->timing.cycles,
                  transfers(aware->timing));
    }
  }
}

} // namespace
