//===- VTAScheduleSpace.cpp - VTA schedules as a tuning space -------------===//

#include "raf/Tuning/VTAScheduleSpace.h"

#include "raf/Target/VTA/ScheduleCodegen.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <tuple>

using namespace raf;
using namespace raf::tuning;
using llvm::SmallVector;
using vta::DimAccess;

vta::GemmKernelModel raf::tuning::makeConvKernelModel(
    const ConvLayer &layer, int64_t batch, int64_t block,
    std::optional<int64_t> requantShift, bool padOnTheFly,
    std::optional<int64_t> clampLow, std::optional<int64_t> clampHigh) {
  vta::GemmKernelModel model;
  model.config = vta::Config::getDefault();
  model.config.logBatch = llvm::Log2_64(batch);
  model.config.logBlock = llvm::Log2_64(block);
  int64_t nb = llvm::divideCeil(layer.n, batch);
  int64_t ci = llvm::divideCeil(layer.c, block);
  int64_t co = llvm::divideCeil(layer.oc, block);
  // The loads pad on the fly (the y/x pad fields of TVM-VTA's LOAD, at
  // most 15 rows on a side) when --tcg-apply-strategy can move the padding
  // into the packed kernel's read; otherwise the padded input is stored.
  constexpr int64_t kLoadPadLimit = 15;
  bool fly =
      padOnTheFly && layer.padH <= kLoadPadLimit && layer.padW <= kLoadPadLimit;
  int64_t storedPadH = fly ? 0 : layer.padH, storedPadW = fly ? 0 : layer.padW;
  int64_t hp = layer.h + 2 * storedPadH, wp = layer.w + 2 * storedPadW;
  int64_t oh = layer.outH(), ow = layer.outW();
  // Tile iterators in kernel order: n, oc.o, oh, ow | ic.o, kh, kw.
  model.names = {"n", "oc.o", "oh", "ow", "ic.o", "kh", "kw"};
  model.extents = {nb, co, oh, ow, ci, layer.kh, layer.kw};
  model.numParallel = 4;
  auto dim = [](int64_t size, std::initializer_list<std::pair<int, int64_t>>
                                  terms) {
    DimAccess d;
    d.size = size;
    d.coefficients.assign(7, 0);
    for (auto [i, c] : terms)
      d.coefficients[i] = c;
    return d;
  };
  model.input = {dim(nb, {{0, 1}}), dim(ci, {{4, 1}}),
                 dim(hp, {{2, layer.strideH}, {5, 1}}),
                 dim(wp, {{3, layer.strideW}, {6, 1}})};
  if (fly) {
    // The kernel reads a zero-padded view of the stored rows (pad_low /
    // pad_high of its tcg.input), symmetric as relay's conv2d padding.
    model.input[2].padLow = model.input[2].padHigh = layer.padH;
    model.input[3].padLow = model.input[3].padHigh = layer.padW;
  }
  model.weight = {dim(co, {{1, 1}}), dim(ci, {{4, 1}}), dim(layer.kh, {{5, 1}}),
                  dim(layer.kw, {{6, 1}})};
  model.output = {dim(nb, {{0, 1}}), dim(co, {{1, 1}}), dim(oh, {{2, 1}}),
                  dim(ow, {{3, 1}})};
  // The lowering's DRAM layout: input, weight and result regions, each
  // aligned to the row size of its buffer.
  int64_t inpRow = model.config.elemBytes(vta::Buffer::Inp);
  int64_t wgtRow = model.config.elemBytes(vta::Buffer::Wgt);
  int64_t outRow = model.config.elemBytes(vta::Buffer::Out);
  int64_t inputRows = nb * ci * hp * wp;
  int64_t weightRows = co * ci * layer.kh * layer.kw;
  int64_t weightOffset = llvm::alignTo(inputRows * inpRow, wgtRow);
  int64_t resultOffset =
      llvm::alignTo(weightOffset + weightRows * wgtRow, outRow);
  model.inputBase = 0;
  model.weightBase = weightOffset / wgtRow;
  model.resultBase = resultOffset / outRow;
  model.resultRows = nb * co * oh * ow;
  model.requantShift = requantShift;
  model.clampLow = clampLow;
  model.clampHigh = clampHigh;
  return model;
}

static std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> result;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0)
      result.push_back(d);
  return result;
}

VTAScheduleSpace::VTAScheduleSpace(vta::GemmKernelModel kernel,
                                   vta::ScheduleLimits limits,
                                   vta::CycleModel cycleModel, bool dmaKnob)
    : kernel(std::move(kernel)), limits(limits), cycleModel(cycleModel) {
  const vta::GemmKernelModel &k = this->kernel;
  unsigned n = k.extents.size();
  tileKnob.assign(n, -1);
  auto find = [&](llvm::StringRef name) {
    for (unsigned i = 0; i < n; ++i)
      if (k.names[i] == name)
        return int(i);
    return -1;
  };
  iterB = find("n");
  iterCo = find("oc.o");
  iterH = find("oh");
  iterW = find("ow");
  int iterCi = find("ic.o");
  bool isConv = iterB >= 0 && iterCo >= 0 && iterH >= 0 && iterW >= 0 &&
                iterCi >= 0 && find("kh") >= 0 && find("kw") >= 0 &&
                unsigned(iterCi) >= k.numParallel;
  auto addSplit = [&](int iterator, std::string name) {
    if (iterator < 0)
      return;
    tileKnob[iterator] = int(knobs.size());
    knobs.push_back(
        {std::move(name), divisors(k.extents[iterator]), k.extents[iterator]});
  };
  if (isConv) {
    // TVM's template order of knobs.
    addSplit(iterB, "tile_b");
    addSplit(iterH, "tile_h");
    addSplit(iterW, "tile_w");
    addSplit(iterCi, "tile_ci");
    addSplit(iterCo, "tile_co");
    // Parallel iterators the template does not have (the embedding's
    // strategies may split an output axis, e.g. the output channels into
    // oc.o and a stride part oc.r) are split as well, after the template's
    // knobs; the loop permutation keeps each of them with the template
    // iterator before it in kernel order (getSchedule).
    for (unsigned i = 0; i < k.numParallel; ++i)
      if (tileKnob[i] < 0)
        addSplit(int(i), "tile_" + k.names[i]);
  } else {
    iterB = iterCo = iterH = iterW = -1;
    for (unsigned i = 0; i < n; ++i)
      addSplit(int(i), "tile_" + k.names[i]);
  }
  ocThreadKnob = int(knobs.size());
  knobs.push_back({"oc_nthread", {1, 2}});
  hThreadKnob = int(knobs.size());
  knobs.push_back({"h_nthread", {1, 2}});
  if (isConv) {
    permutationKnob = int(knobs.size());
    knobs.push_back({"permutation", {0, 1, 2, 3}});
  }
  if (dmaKnob) {
    // 0: DmaPlacement::Step, 1: DmaPlacement::HoistWeight.
    this->dmaKnob = int(knobs.size());
    knobs.push_back({"dma", {0, 1}});
  }
}

vta::ScheduleKnobs VTAScheduleSpace::getSchedule(const Point &point) const {
  vta::ScheduleKnobs schedule;
  unsigned n = kernel.extents.size();
  for (unsigned i = 0; i < n; ++i)
    schedule.tileSizes.push_back(
        tileKnob[i] < 0 ? kernel.extents[i]
                        : knobs[tileKnob[i]].values[point[tileKnob[i]]]);
  schedule.virtualThreads = knobs[ocThreadKnob].values[point[ocThreadKnob]] *
                            knobs[hThreadKnob].values[point[hThreadKnob]];
  if (permutationKnob >= 0) {
    int64_t b = iterB, co = iterCo, h = iterH, w = iterW;
    static const int64_t orders[4][3] = {
        {0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {2, 1, 0}};
    int64_t roles[3] = {co, h, w};
    // Each parallel iterator outside the template's four moves with the
    // template iterator before it in kernel order (b when none is).
    auto group = [&](int64_t role) {
      schedule.loopOrder.push_back(role);
      for (int64_t i = role + 1; i < int64_t(kernel.numParallel) && i != b &&
                                 i != co && i != h && i != w;
           ++i)
        schedule.loopOrder.push_back(i);
    };
    for (int64_t i = 0; i < b; ++i)
      schedule.loopOrder.push_back(i);
    group(b);
    for (int64_t role : orders[point[permutationKnob]])
      group(roles[role]);
    for (unsigned i = kernel.numParallel; i < n; ++i)
      schedule.loopOrder.push_back(i);
  }
  if (dmaKnob >= 0 && point[dmaKnob] == 1)
    schedule.dma = vta::DmaPlacement::HoistWeight;
  return schedule;
}

/// The rows a full tile copies along each dimension of `access`.
static SmallVector<int64_t> tileBox(llvm::ArrayRef<DimAccess> access,
                                    llvm::ArrayRef<int64_t> tileSizes) {
  SmallVector<int64_t> box;
  for (const DimAccess &d : access) {
    int64_t rows = 1;
    for (auto [i, c] : llvm::enumerate(d.coefficients))
      rows += std::abs(c) * (tileSizes[i] - 1);
    box.push_back(std::min(rows, d.size));
  }
  return box;
}

/// TVM's InjectDMAIntrin with folding (_fold_buffer_dim, then
/// _get_2d_pattern): the copy of the `box` of a tensor of `sizes` rows
/// (outermost first; a row is one element block), with loops of one
/// iteration removed, folds dimensions that are contiguous with the ones
/// inside them; a leading entry of size 1 is added when the innermost
/// copied dimension is not contiguous with the block. The result is one 2D
/// DMA if at most two entries remain (y and x). Returns the entries.
static int foldedCopyEntries(llvm::ArrayRef<int64_t> sizes,
                             llvm::ArrayRef<int64_t> box) {
  int entries = 0;
  int groupInner = -1;
  for (int d = int(sizes.size()) - 1; d >= 0; --d) {
    if (box[d] == 1)
      continue;
    if (groupInner < 0) {
      // The first copied dimension: contiguous with the block only if
      // every dimension inside it has one row.
      bool contiguous = true;
      for (int k = d + 1; k < int(sizes.size()); ++k)
        contiguous &= sizes[k] == 1;
      entries += contiguous ? 1 : 2;
      groupInner = d;
      continue;
    }
    // Merges into the current entry if the entry covers whole rows of
    // every dimension between d and the entry's innermost dimension.
    bool merges = true;
    for (int k = d + 1; k <= groupInner; ++k)
      merges &= box[k] == sizes[k];
    if (!merges) {
      ++entries;
      groupInner = d;
    }
  }
  return entries;
}

std::string VTAScheduleSpace::checkTVMPipeline(const Point &point) const {
  vta::ScheduleKnobs schedule = getSchedule(point);
  // The template splits the outer loop of the output-channel (row) tiles
  // by oc_nthread (h_nthread) for its virtual threads; the VTA template's
  // own filter kept only thread counts that divide the loop
  // (vta/python/vta/top/vta_conv2d.py before AutoTVM, find_schedules:
  // "cases where the threading factors for h and co are not factors of h
  // and co"); other splits leave a guarded thread body, the "wrong loop
  // splitting" of Rieber 2022, §5.1.
  for (auto [knob, iterator, name] :
       {std::tuple(ocThreadKnob, iterCo, "output-channel"),
        std::tuple(hThreadKnob, iterH, "row")}) {
    if (knob < 0 || iterator < 0)
      continue;
    int64_t threads = knobs[knob].values[point[knob]];
    int64_t tiles = kernel.extents[iterator] / schedule.tileSizes[iterator];
    if (tiles % threads != 0)
      return std::string("TVM's pipeline splits the ") + name +
             " tiles among virtual threads only when their number divides: " +
             std::to_string(tiles) + " tiles, " + std::to_string(threads) +
             " threads";
  }
  auto sizesOf = [](llvm::ArrayRef<DimAccess> access) {
    SmallVector<int64_t> sizes;
    for (const DimAccess &d : access)
      sizes.push_back(d.size);
    return sizes;
  };
  auto describe = [](llvm::ArrayRef<int64_t> box) {
    std::string text;
    for (auto [i, rows] : llvm::enumerate(box))
      text += (i ? " x " : "") + std::to_string(rows);
    return text;
  };
  struct Copy {
    const char *what;
    llvm::ArrayRef<DimAccess> access;
  };
  for (Copy copy : {Copy{"input", kernel.input}, Copy{"weight", kernel.weight},
                    Copy{"result", kernel.output}}) {
    SmallVector<int64_t> box = tileBox(copy.access, schedule.tileSizes);
    SmallVector<int64_t> sizes = sizesOf(copy.access);
    if (paddedInput && copy.access.data() == kernel.input.data()) {
      // A padding load is not folded; _inject_copy takes its y and x pads
      // from the first two of its loops and refuses other padded loops
      // ("Limitation of 2D pad load", "Do not support pad on the
      // innermost block"), so it copies exactly rows (y) and columns (x).
      unsigned n = box.size();
      bool onlyYX = n >= 2 && box[n - 2] > 1 && box[n - 1] > 1;
      for (unsigned d = 0; d + 2 < n; ++d)
        onlyYX &= box[d] == 1;
      if (!onlyYX)
        return "TVM's pipeline pads the input on the fly only for a tile of "
               "one channel block with rows and columns, not " +
               describe(box) + " rows";
      continue;
    }
    int entries = foldedCopyEntries(sizes, box);
    if (entries > 2)
      return std::string("TVM's pipeline cannot copy the ") + copy.what +
             " tile of " + describe(box) + " rows of " + describe(sizes) +
             " with one two-dimensional DMA; it has " +
             std::to_string(entries) + " strided dimensions";
  }
  return "";
}

double VTAScheduleSpace::getWork() const {
  double work = 1;
  for (int64_t e : kernel.extents)
    work *= double(e);
  return work;
}

void VTAScheduleSpace::appendRelationFeatures(
    uint64_t index, std::vector<float> &features) const {
  size_t start = features.size();
  Point point = toPoint(index);
  vta::ScheduleKnobs schedule = getSchedule(point);
  llvm::ArrayRef<int64_t> tiles = schedule.tileSizes;
  auto rows = [](llvm::ArrayRef<int64_t> box) {
    double n = 1;
    for (int64_t r : box)
      n *= double(r);
    return n;
  };
  SmallVector<int64_t> inBox = tileBox(kernel.input, tiles);
  SmallVector<int64_t> wBox = tileBox(kernel.weight, tiles);
  SmallVector<int64_t> outBox = tileBox(kernel.output, tiles);
  double in = rows(inBox), w = rows(wBox), acc = rows(outBox);
  double v = double(schedule.virtualThreads);
  const vta::Config &config = kernel.config;
  auto push = [&](double x) { features.push_back(float(x)); };
  push(std::log2(in));
  push(std::log2(w));
  push(std::log2(acc));
  push(in * v / double(config.buffDepth(vta::Buffer::Inp)));
  push(w * v / double(config.buffDepth(vta::Buffer::Wgt)));
  push(acc * v / double(config.buffDepth(vta::Buffer::Acc)));
  push(v);
  push(double(knobs[ocThreadKnob].values[point[ocThreadKnob]]));
  push(double(knobs[hThreadKnob].values[point[hThreadKnob]]));
  for (int64_t p = 0; p < 4; ++p)
    push(permutationKnob >= 0 && point[permutationKnob] == p ? 1 : 0);
  double outputTiles = 1, reductionTiles = 1, uops = 1;
  for (unsigned i = 0; i < kernel.extents.size(); ++i) {
    double count = double(llvm::divideCeil(kernel.extents[i], tiles[i]));
    (i < kernel.numParallel ? outputTiles : reductionTiles) *= count;
    uops *= double(tiles[i]);
  }
  push(std::log2(outputTiles));
  push(std::log2(reductionTiles));
  push(std::log2(outputTiles * reductionTiles * in));
  push(std::log2(outputTiles * reductionTiles * w));
  push(std::log2(uops));
  push(std::log2(uops / (in + w)));
  auto sizes = [](llvm::ArrayRef<DimAccess> access) {
    SmallVector<int64_t> s;
    for (const DimAccess &d : access)
      s.push_back(d.size);
    return s;
  };
  push(foldedCopyEntries(sizes(kernel.input), inBox));
  push(foldedCopyEntries(sizes(kernel.output), outBox));
  for (int iterator : {iterW, iterH, iterCo, int(kernel.numParallel)}) {
    if (iterator < 0 || iterator >= int(tiles.size()))
      push(1);
    else
      push(double(tiles[iterator]) / double(kernel.extents[iterator]));
  }
  // The layer: stride and window.
  int64_t stride = 1;
  if (iterH >= 0 && !kernel.input.empty())
    stride = kernel.input.back().coefficients[iterW >= 0 ? iterW : 0];
  push(double(stride));
  double window = 1;
  for (unsigned i = kernel.numParallel + 1; i < kernel.extents.size(); ++i)
    window *= double(kernel.extents[i]);
  push(std::log2(window));
  assert(features.size() - start == kNumRelationFeatures &&
         "relation feature count");
  (void)start;
}

Validity VTAScheduleSpace::checkValidity(const Point &point) {
  vta::ScheduleKnobs schedule = getSchedule(point);
  vta::ScheduleCheck check = vta::checkSchedule(kernel, schedule, limits);
  if (!check.valid() || rules == ValidityRules::Schedule)
    return {check.valid(), check.problem};
  std::string problem = checkTVMPipeline(point);
  return {problem.empty(), problem};
}

std::optional<double> VTAScheduleSpace::measure(const Point &point) {
  vta::ScheduleKnobs schedule = getSchedule(point);
  if (rules == ValidityRules::TVMPipeline && !checkTVMPipeline(point).empty())
    return std::nullopt;
  // Configurations that differ only in knobs the schedule does not
  // distinguish are simulated once.
  std::vector<int64_t> key = schedule.tileSizes;
  key.push_back(schedule.virtualThreads);
  key.insert(key.end(), schedule.loopOrder.begin(), schedule.loopOrder.end());
  key.push_back(int64_t(schedule.dma));
  auto it = measured.find(key);
  if (it != measured.end())
    return it->second;
  std::optional<double> cycles;
  llvm::Expected<vta::SimulatedSchedule> simulated =
      vta::simulateSchedule(kernel, schedule, limits, cycleModel);
  if (simulated)
    cycles = double(simulated->timing.cycles);
  else
    llvm::consumeError(simulated.takeError());
  measured[key] = cycles;
  return cycles;
}

std::string VTAScheduleSpace::getKey() const {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "vta-schedule v1 gemm " << kernel.config.logBatch << "/"
     << kernel.config.logBlock << " iterators";
  for (unsigned i = 0; i < kernel.extents.size(); ++i)
    os << " " << kernel.names[i] << "=" << kernel.extents[i];
  auto dims = [&](const char *name, llvm::ArrayRef<DimAccess> access) {
    os << " " << name;
    for (const DimAccess &d : access) {
      os << " [" << d.base << ";" << d.size;
      for (int64_t c : d.coefficients)
        os << "," << c;
      // Only a padded view adds to the key (the keys of unpadded kernels
      // and their cached tables stay as they were).
      if (d.padLow || d.padHigh)
        os << ";pad " << d.padLow << "/" << d.padHigh;
      os << "]";
    }
  };
  dims("input", kernel.input);
  dims("weight", kernel.weight);
  dims("output", kernel.output);
  os << " shift " << (kernel.requantShift ? *kernel.requantShift : -1);
  if (kernel.clampLow || kernel.clampHigh)
    os << " clamp "
       << (kernel.clampLow ? std::to_string(*kernel.clampLow) : "-") << ","
       << (kernel.clampHigh ? std::to_string(*kernel.clampHigh) : "-");
  os << " limits " << limits.accDependenceDistance << "/"
     << limits.maxInstructions << " cycle-model " << cycleModel.dmaBytesPerCycle
     << "," << cycleModel.dmaLatencyCycles << ","
     << cycleModel.padCyclesPerElement << "," << cycleModel.gemmCyclesPerUop
     << "," << cycleModel.aluCyclesPerUop << "," << cycleModel.issueCycles
     << " knobs";
  for (const Knob &knob : knobs)
    os << " " << knob.name << ":" << knob.values.size();
  if (rules == ValidityRules::TVMPipeline)
    os << " validity tvm-pipeline" << (paddedInput ? " padded-input" : "");
  return key;
}

llvm::Expected<vta::ScheduleKnobs>
raf::tuning::tuneSchedule(const vta::GemmKernelModel &kernel,
                          const vta::ScheduleLimits &limits,
                          const TunerOptions &options,
                          const vta::CycleModel &cycleModel,
                          bool dmaKnob) {
  VTAScheduleSpace space(kernel, limits, cycleModel, dmaKnob);
  llvm::Expected<TuningResult> result = tune(space, options);
  if (!result)
    return result.takeError();
  std::optional<size_t> best = result->best();
  if (!best)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::Twine("the ") + getTunerName(options.kind) +
            " tuner found no valid schedule in " +
            llvm::Twine(result->trials.size()) + " trials");
  return space.getSchedule(space.toPoint(result->trials[*best].index));
}
