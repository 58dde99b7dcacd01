//===- VTAScheduleSpace.cpp - VTA schedules as a tuning space -------------===//

#include "raf/Tuning/VTAScheduleSpace.h"

#include "raf/Target/VTA/ScheduleCodegen.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace raf;
using namespace raf::tuning;
using vta::DimAccess;

vta::GemmKernelModel raf::tuning::makeConvKernelModel(
    const ConvLayer &layer, int64_t batch, int64_t block,
    std::optional<int64_t> requantShift) {
  vta::GemmKernelModel model;
  model.config = vta::Config::getDefault();
  model.config.logBatch = llvm::Log2_64(batch);
  model.config.logBlock = llvm::Log2_64(block);
  int64_t nb = llvm::divideCeil(layer.n, batch);
  int64_t ci = llvm::divideCeil(layer.c, block);
  int64_t co = llvm::divideCeil(layer.oc, block);
  int64_t hp = layer.h + 2 * layer.padH, wp = layer.w + 2 * layer.padW;
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
                                   vta::CycleModel cycleModel)
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
    schedule.loopOrder.push_back(b);
    for (int64_t role : orders[point[permutationKnob]])
      schedule.loopOrder.push_back(roles[role]);
    for (unsigned i = kernel.numParallel; i < n; ++i)
      schedule.loopOrder.push_back(i);
  }
  return schedule;
}

Validity VTAScheduleSpace::checkValidity(const Point &point) {
  vta::ScheduleCheck check =
      vta::checkSchedule(kernel, getSchedule(point), limits);
  return {check.valid(), check.problem};
}

std::optional<double> VTAScheduleSpace::measure(const Point &point) {
  vta::ScheduleKnobs schedule = getSchedule(point);
  // Configurations that differ only in knobs the schedule does not
  // distinguish are simulated once.
  std::vector<int64_t> key = schedule.tileSizes;
  key.push_back(schedule.virtualThreads);
  key.insert(key.end(), schedule.loopOrder.begin(), schedule.loopOrder.end());
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
      os << "]";
    }
  };
  dims("input", kernel.input);
  dims("weight", kernel.weight);
  dims("output", kernel.output);
  os << " shift " << (kernel.requantShift ? *kernel.requantShift : -1);
  os << " limits " << limits.accDependenceDistance << "/"
     << limits.maxInstructions << " cycle-model " << cycleModel.dmaBytesPerCycle
     << "," << cycleModel.dmaLatencyCycles << ","
     << cycleModel.padCyclesPerElement << "," << cycleModel.gemmCyclesPerUop
     << "," << cycleModel.aluCyclesPerUop << "," << cycleModel.issueCycles
     << " knobs";
  for (const Knob &knob : knobs)
    os << " " << knob.name << ":" << knob.values.size();
  return key;
}

llvm::Expected<vta::ScheduleKnobs>
raf::tuning::tuneSchedule(const vta::GemmKernelModel &kernel,
                          const vta::ScheduleLimits &limits,
                          const TunerOptions &options,
                          const vta::CycleModel &cycleModel) {
  VTAScheduleSpace space(kernel, limits, cycleModel);
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
