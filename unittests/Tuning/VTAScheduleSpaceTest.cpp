//===- VTAScheduleSpaceTest.cpp - The VTA schedule space as knobs ---------===//

#include "raf/Tuning/VTAScheduleSpace.h"

#include "gtest/gtest.h"

#include <algorithm>
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

TEST(VTAScheduleSpaceTest, DmaPlacementKnob) {
  // Off by default (Tab. 5.1's sizes); on, the last knob doubles the space:
  // configuration 2i + d is configuration i of the template space with
  // dma = step (d = 0) or hoist_weight (d = 1). With 128 input-channel
  // blocks, a hoisted weight (every input-channel block of an
  // output-channel tile) overflows the weight buffer where the step's
  // weight tile does not.
  ConvLayer layer{1, 2048, 2, 2, 256, 1, 1, 0, 0, 1, 1};
  vta::GemmKernelModel kernel = makeConvKernelModel(layer);
  VTAScheduleSpace plain(kernel, vta::ScheduleLimits());
  VTAScheduleSpace space(kernel, vta::ScheduleLimits(), vta::CycleModel(),
                         /*dmaKnob=*/true);
  ASSERT_EQ(space.size(), 2 * plain.size());
  EXPECT_EQ(space.getKnobs().back().name, "dma");
  EXPECT_EQ(space.getKnobs().back().values, (std::vector<int64_t>{0, 1}));
  EXPECT_NE(plain.getKey(), space.getKey());
  unsigned hoistValid = 0, hoistOnlyInvalid = 0, measured = 0, faster = 0;
  for (uint64_t i = 0; i < plain.size(); ++i) {
    vta::ScheduleKnobs step = plain.getSchedule(plain.toPoint(i));
    EXPECT_EQ(space.getSchedule(space.toPoint(2 * i)), step);
    Point hoisted = space.toPoint(2 * i + 1);
    vta::ScheduleKnobs hoist = space.getSchedule(hoisted);
    EXPECT_EQ(hoist.dma, vta::DmaPlacement::HoistWeight);
    // Valid exactly when the schedule's check accepts it.
    Validity v = space.checkValidity(hoisted);
    EXPECT_EQ(v.valid,
              vta::checkSchedule(kernel, hoist, vta::ScheduleLimits()).valid());
    hoist.dma = vta::DmaPlacement::Step;
    EXPECT_EQ(hoist, step);
    bool stepValid = plain.checkValidity(plain.toPoint(i)).valid;
    hoistOnlyInvalid += stepValid && !v.valid;
    if (!v.valid || !stepValid)
      continue;
    ++hoistValid;
    // The cycles of some of them, each placement simulated on its own.
    if (hoistValid % 8)
      continue;
    std::optional<double> a = space.measure(hoisted);
    std::optional<double> b = space.measure(space.toPoint(2 * i));
    ASSERT_TRUE(a && b);
    EXPECT_EQ(b, plain.measure(plain.toPoint(i)));
    ++measured;
    faster += *a < *b;
  }
  EXPECT_GT(measured, 0u);
  EXPECT_GT(hoistOnlyInvalid, 0u);
  EXPECT_GT(faster, 0u);
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

TEST(VTAScheduleSpaceTest, TVMPipelineRules) {
  // Layer 76: 1x64x112x112 * 64x1x1; knobs tile_b {1}, tile_h and tile_w
  // the 10 divisors of 112, tile_ci and tile_co {1, 2, 4} (blocks of 16).
  ConvLayer l76{1, 64, 112, 112, 64, 1, 1, 0, 0, 1, 1};
  VTAScheduleSpace space(makeConvKernelModel(l76), vta::ScheduleLimits());
  space.setValidityRules(ValidityRules::TVMPipeline);
  // Input tile of 2 channel blocks x 2 rows x 4 columns: three strided
  // dimensions after folding, not one 2D DMA.
  Point a{0, 1, 2, 1, 0, 0, 0, 0};
  EXPECT_NE(space.checkTVMPipeline(a).find("input tile"), std::string::npos);
  EXPECT_FALSE(space.checkValidity(a).valid);
  // Whole rows (112 columns) fold into the row dimension: two entries.
  Point b{0, 1, 9, 1, 0, 0, 0, 0};
  EXPECT_EQ(space.checkTVMPipeline(b), "");
  // One channel block: rows and columns.
  Point c{0, 1, 2, 0, 0, 0, 0, 0};
  EXPECT_EQ(space.checkTVMPipeline(c), "");
  // One column, so the rows are not contiguous with the block: an entry of
  // size 1 and the rows; with two channel blocks, three.
  Point d{0, 1, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(space.checkTVMPipeline(d), "");
  Point e{0, 1, 0, 1, 0, 0, 0, 0};
  EXPECT_NE(space.checkTVMPipeline(e), "");
  // Result tile of 2 channel blocks x 2 rows x 4 columns: three entries.
  Point f{0, 1, 2, 0, 1, 0, 0, 0};
  EXPECT_NE(space.checkTVMPipeline(f).find("result tile"), std::string::npos);
  // Two row threads split 112 / 16 = 7 row tiles: refused; 14 tiles: fine.
  Point g{0, 6, 9, 0, 0, 0, 1, 0};
  EXPECT_NE(space.checkTVMPipeline(g).find("virtual threads"),
            std::string::npos);
  Point h{0, 4, 9, 0, 0, 0, 1, 0};
  EXPECT_EQ(space.checkTVMPipeline(h), "");
  // The schedule check alone accepts what only TVM refuses.
  space.setValidityRules(ValidityRules::Schedule);
  EXPECT_TRUE(space.checkValidity(a).valid);

  // A padded layer: TVM pads loads of one channel block only.
  ConvLayer padded{1, 32, 8, 8, 32, 3, 3, 1, 1, 1, 1};
  VTAScheduleSpace p(makeConvKernelModel(padded), vta::ScheduleLimits());
  p.setValidityRules(ValidityRules::TVMPipeline, /*paddedInput=*/true);
  // tile_h = tile_w = 2 (index 1 of {1, 2, 4, 8}), tile_ci 1 or 2.
  EXPECT_EQ(p.checkTVMPipeline(Point{0, 1, 1, 0, 0, 0, 0, 0}), "");
  EXPECT_NE(p.checkTVMPipeline(Point{0, 1, 1, 1, 0, 0, 0, 0}).find("pads"),
            std::string::npos);
  // The key tells the rules apart (separate ground truths).
  VTAScheduleSpace q(makeConvKernelModel(padded), vta::ScheduleLimits());
  EXPECT_NE(p.getKey(), q.getKey());
}

/// A strategy that splits the output channels into oc.o and a stride part
/// oc.r (the embedding's `y = oc16/s2`): a parallel iterator the template
/// does not have gets its own tile knob and moves with oc.o in the loop
/// permutation, so every loop order covers all iterators.
TEST(VTAScheduleSpaceTest, ExtraParallelIterator) {
  vta::GemmKernelModel model =
      makeConvKernelModel({1, 16, 8, 8, 64, 3, 3, 1, 1, 1, 1});
  // n, oc.o, oh, ow | ic.o, kh, kw -> n, oc.o, oc.r, oh, ow | ic.o, kh, kw
  // with output-channel block = 2 * oc.o + oc.r.
  model.names.insert(model.names.begin() + 2, "oc.r");
  model.extents[1] = 2;
  model.extents.insert(model.extents.begin() + 2, 2);
  model.numParallel = 5;
  for (auto *access : {&model.input, &model.weight, &model.output})
    for (vta::DimAccess &d : *access)
      d.coefficients.insert(d.coefficients.begin() + 2, 0);
  model.weight[0].coefficients = {0, 2, 1, 0, 0, 0, 0, 0};
  vta::DimAccess ocr;
  ocr.size = 2;
  ocr.coefficients = {0, 0, 1, 0, 0, 0, 0, 0};
  model.output[1].size = 2;
  model.output.insert(model.output.begin() + 2, ocr);
  VTAScheduleSpace space(model, vta::ScheduleLimits());
  std::vector<std::string> names;
  for (const Knob &knob : space.getKnobs())
    names.push_back(knob.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "tile_b", "tile_h", "tile_w", "tile_ci", "tile_co",
                       "tile_oc.r", "oc_nthread", "h_nthread", "permutation"}));
  unsigned valid = 0;
  for (uint64_t i = 0; i < space.size(); ++i) {
    Point p = space.toPoint(i);
    vta::ScheduleKnobs knobs = space.getSchedule(p);
    std::vector<int64_t> sorted = knobs.loopOrder;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    if (space.checkValidity(p).valid && space.measure(p))
      ++valid;
  }
  EXPECT_GT(valid, space.size() / 4);
  // Permutation 2, (h, w, co): oc.r follows oc.o.
  Point p = space.toPoint(0);
  p[8] = 2;
  EXPECT_EQ(space.getSchedule(p).loopOrder,
            (std::vector<int64_t>{0, 3, 4, 1, 2, 5, 6, 7}));
}

} // namespace
