//===- ScheduleSearch.cpp - choosing a VTA schedule -----------------------===//

#include "raf/Tuning/ScheduleSearch.h"

#include "llvm/ADT/STLExtras.h"

using namespace raf;
using namespace raf::vta;

ScheduleCostModel::~ScheduleCostModel() = default;

llvm::Expected<double>
AnalyticCostModel::getCost(const GemmKernelModel &, const ScheduleKnobs &knobs,
                           const ScheduleLimits &, const ScheduleCheck &check) {
  return double(
      estimateCycles(check.counts, knobs.virtualThreads, cycleModel));
}

llvm::Expected<double>
SimulatorCostModel::getCost(const GemmKernelModel &kernel,
                            const ScheduleKnobs &knobs,
                            const ScheduleLimits &limits,
                            const ScheduleCheck &) {
  llvm::Expected<SimulatedSchedule> result =
      simulateSchedule(kernel, knobs, limits, cycleModel);
  if (!result)
    return result.takeError();
  last = std::move(*result);
  return double(last->timing.cycles);
}

llvm::Expected<SearchResult>
raf::vta::searchSchedule(const GemmKernelModel &kernel,
                         const ScheduleLimits &limits,
                         const SearchOptions &options) {
  struct Candidate {
    ScheduleKnobs knobs;
    double rank;
    /// Whether the schedule lies in the divisor space (every tile size
    /// divides its extent, kernel loop order).
    bool divisor;
  };
  AnalyticCostModel analytic(options.cycleModel);
  ScheduleCostModel &ranking = options.ranking ? *options.ranking : analytic;
  std::vector<Candidate> valid;
  std::optional<std::string> rankError;
  auto add = [&](const ScheduleKnobs &knobs, const ScheduleCheck &check) {
    if (rankError)
      return;
    llvm::Expected<double> rank = ranking.getCost(kernel, knobs, limits, check);
    if (!rank) {
      rankError = llvm::toString(rank.takeError());
      return;
    }
    bool divisor =
        knobs.loopOrder.empty() && knobs.dma == DmaPlacement::Step;
    for (auto [size, extent] : llvm::zip(knobs.tileSizes, kernel.extents))
      divisor &= extent % size == 0;
    valid.push_back({knobs, *rank, divisor});
  };
  unsigned n = kernel.extents.size();
  if (options.given) {
    ScheduleCheck check = checkSchedule(kernel, *options.given, limits);
    if (!check.valid())
      return llvm::createStringError("invalid schedule: " + check.problem);
    add(*options.given, check);
  } else {
    forEachSchedule(kernel, limits, options.space, add);
    if (rankError)
      return llvm::createStringError(*rankError);
    if (valid.empty()) {
      ScheduleKnobs smallest;
      smallest.tileSizes.assign(n, 1);
      ScheduleCheck check = checkSchedule(kernel, smallest, limits);
      return llvm::createStringError(
          "no schedule fits VTA: even with tiles of 1, " +
          (check.valid() ? std::string("no schedule is valid") : check.problem));
    }
  }
  if (rankError)
    return llvm::createStringError(*rankError);

  llvm::stable_sort(valid, [](const Candidate &a, const Candidate &b) {
    return a.rank < b.rank;
  });
  // Which candidates to simulate: all, or the best `simulate` by the
  // ranking model and, as the estimate is coarse and a larger space gives
  // it more schedules to overrate, also the best `simulate` of the divisor
  // space; so growing the space never loses the schedule the divisor
  // space's search would find.
  std::vector<size_t> toSimulate;
  unsigned budget = std::max(1u, options.simulate);
  unsigned divisorBudget = budget;
  for (size_t c = 0; c < valid.size(); ++c) {
    bool take = options.mode == SearchMode::Exhaustive || c < budget;
    if (valid[c].divisor && divisorBudget > 0) {
      --divisorBudget;
      take = true;
    }
    if (take)
      toSimulate.push_back(c);
  }
  SimulatorCostModel simulator(options.cycleModel);
  std::optional<SearchResult> best;
  for (size_t c : toSimulate) {
    llvm::Expected<double> cycles = simulator.getCost(
        kernel, valid[c].knobs, limits, ScheduleCheck());
    if (!cycles)
      return cycles.takeError();
    SimulatedSchedule &run = *simulator.getLast();
    if (!best || run.timing.cycles < best->timing.cycles)
      best = SearchResult{valid[c].knobs, std::move(run.tiles),
                          std::move(run.program), std::move(run.timing), 0, 0};
  }
  best->validConfigurations = int64_t(valid.size());
  best->simulated = int64_t(toSimulate.size());
  return std::move(*best);
}
