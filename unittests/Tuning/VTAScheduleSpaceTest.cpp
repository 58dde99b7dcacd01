//===- VTAScheduleSpaceTest.cpp - The VTA schedule space as knobs ---------===//

#include "raf/Tuning/VTAScheduleSpace.h"

#include "gtest/gtest.h"

#include <set>

using namespace raf;
using namespace raf::tuning;

namespace {

/// DeepBench layer 5 of Rieber 2022, Tab. 5.1: batch 4, 32 -> 32 channels,
/// 79 x 341 image, 5 x 10 kernel (h x w), stride 2.
ConvLayer layer5() { return {4, 32, 79, 341, 32, 5, 10, 0, 0, 2, 2}; }

TEST(VTAScheduleSpaceTest, KnobsOfTheTemplate) {
  VTAScheduleSpace space(makeConvKernelModel(layer5()), vta::ScheduleLimits());
  std::vector<std::string> names;
  for (const Knob &knob : space.getKnobs())
    names.push_back(knob.name);
  EXPECT_EQ(names, (std::vector<std::string>{"tile_b", "tile_h", "tile_w",
                                             "tile_ci", "tile_co",
                                             "oc_nthread", "h_nthread",
                                             "permutation"}));
  // Tab. 5.1: 3072 = 3 (4) * 4 (38) * 4 (166) * 2 * 2 * 2 * 2 * 4.
  EXPECT_EQ(space.size(), 3072u);
  EXPECT_EQ(space.getKnobs()[1].values, (std::vector<int64_t>{1, 2, 19, 38}));
  // Layer 8 (Tab. 5.1: 9216).
  ConvLayer l8{1, 32, 12, 120, 64, 3, 3, 1, 1, 1, 1};
  EXPECT_EQ(VTAScheduleSpace(makeConvKernelModel(l8), vta::ScheduleLimits())
                .size(),
            9216u);
}

TEST(VTAScheduleSpaceTest, ConfigurationToSchedule) {
  VTAScheduleSpace space(makeConvKernelModel(layer5()), vta::ScheduleLimits());
  // tile_b = 2, tile_h = 19, tile_w = 2, tile_ci = 1, tile_co = 2, two
  // oc threads, permutation 2: (b, h, w, co).
  Point point{1, 2, 1, 0, 1, 1, 0, 2};
  vta::ScheduleKnobs knobs = space.getSchedule(point);
  // Kernel order n, oc.o, oh, ow, ic.o, kh, kw; the window is not split.
  EXPECT_EQ(knobs.tileSizes, (std::vector<int64_t>{2, 2, 19, 2, 1, 5, 10}));
  EXPECT_EQ(knobs.virtualThreads, 2);
  EXPECT_EQ(knobs.loopOrder, (std::vector<int64_t>{0, 2, 3, 1, 4, 5, 6}));
  // Four virtual threads are refused by the schedule's check.
  Point four = point;
  four[6] = 1;
  Validity v = space.checkValidity(four);
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.problem.find("virtual threads"), std::string::npos);
}

TEST(VTAScheduleSpaceTest, ValidConfigurationsHaveCycles) {
  ConvLayer small{1, 16, 8, 8, 32, 3, 3, 1, 1, 1, 1};
  VTAScheduleSpace space(makeConvKernelModel(small), vta::ScheduleLimits());
  unsigned valid = 0;
  for (uint64_t i = 0; i < space.size(); ++i) {
    Point p = space.toPoint(i);
    if (!space.checkValidity(p).valid)
      continue;
    ++valid;
    std::optional<double> cycles = space.measure(p);
    ASSERT_TRUE(cycles.has_value());
    EXPECT_GT(*cycles, 0);
  }
  EXPECT_GT(valid, 0u);
  // (oc_nthread, h_nthread) = (2, 1) and (1, 2) are the same schedule.
  Point a{0, 1, 1, 0, 0, 1, 0, 0}, b{0, 1, 1, 0, 0, 0, 1, 0};
  EXPECT_EQ(space.measure(a), space.measure(b));
}

} // namespace
