//===- ScheduleSearch.h - choosing a VTA schedule ---------------*- C++ -*-===//
//
// The search over a packed GEMM kernel's schedule space (Schedule.h) behind
// a cost-model interface. A ScheduleCostModel scores a valid schedule
// (lower is better, in cycles); two are built in:
//
// * AnalyticCostModel: estimateCycles over the counts checkSchedule derives
//   (no program is built; microseconds per schedule);
// * SimulatorCostModel: the schedule built, assembled and run on the cycle
//   model (simulateSchedule; the ground truth of this project, standing in
//   for the FPGA).
//
// A learned model (the XGBoost ranking model of Rieber 2022, §5) plugs in
// the same way. searchSchedule ranks the valid schedules by a cheap model
// and measures the best few (or all) with an exact one.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_SCHEDULESEARCH_H
#define RAF_TUNING_SCHEDULESEARCH_H

#include "raf/Target/VTA/Schedule.h"
#include "raf/Target/VTA/ScheduleCodegen.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace raf::vta {

/// Scores valid schedules of one kernel; lower is better.
class ScheduleCostModel {
public:
  virtual ~ScheduleCostModel();
  virtual llvm::StringRef getName() const = 0;
  /// The cost of `knobs`, which `check` (checkSchedule's result for it)
  /// says is valid; an error when the model cannot score it.
  virtual llvm::Expected<double> getCost(const GemmKernelModel &kernel,
                                         const ScheduleKnobs &knobs,
                                         const ScheduleLimits &limits,
                                         const ScheduleCheck &check) = 0;
};

/// The analytic estimate (estimateCycles) under a cycle model.
class AnalyticCostModel : public ScheduleCostModel {
public:
  explicit AnalyticCostModel(const CycleModel &cycleModel = CycleModel())
      : cycleModel(cycleModel) {}
  llvm::StringRef getName() const override { return "analytic"; }
  llvm::Expected<double> getCost(const GemmKernelModel &kernel,
                                 const ScheduleKnobs &knobs,
                                 const ScheduleLimits &limits,
                                 const ScheduleCheck &check) override;

private:
  CycleModel cycleModel;
};

/// The cycles of the program on the cycle model (simulateSchedule); keeps
/// the last simulated program so the search need not build the winner
/// again.
class SimulatorCostModel : public ScheduleCostModel {
public:
  explicit SimulatorCostModel(const CycleModel &cycleModel = CycleModel())
      : cycleModel(cycleModel) {}
  llvm::StringRef getName() const override { return "simulator"; }
  llvm::Expected<double> getCost(const GemmKernelModel &kernel,
                                 const ScheduleKnobs &knobs,
                                 const ScheduleLimits &limits,
                                 const ScheduleCheck &check) override;
  /// The program getCost simulated last.
  std::optional<SimulatedSchedule> &getLast() { return last; }

private:
  CycleModel cycleModel;
  std::optional<SimulatedSchedule> last;
};

enum class SearchMode {
  /// Simulate the `simulate` best configurations by the estimate.
  Pruned,
  /// Simulate every valid configuration.
  Exhaustive,
};

struct SearchOptions {
  SearchMode mode = SearchMode::Pruned;
  unsigned simulate = 8;
  /// The cycle model of both the estimate and the simulation.
  CycleModel cycleModel;
  /// The space searched (Schedule.h).
  ScheduleSpace space;
  /// When set, only this configuration is considered.
  std::optional<ScheduleKnobs> given;
  /// The ranking model; the analytic estimate under `cycleModel` when null.
  ScheduleCostModel *ranking = nullptr;
};

struct SearchResult {
  ScheduleKnobs knobs;
  /// The schedule's tile program and its assembled program.
  TileProgram tiles;
  Program program;
  SimulationResult timing;
  /// Valid configurations found, and how many were simulated.
  int64_t validConfigurations = 0;
  int64_t simulated = 0;
};

/// The fastest schedule by the cycle model among the valid ones (all of
/// them with SearchMode::Exhaustive, else the best `simulate` by the
/// ranking model); fails with the reason why no configuration is valid (the
/// smallest one's violated rule), or why the given one is not.
llvm::Expected<SearchResult> searchSchedule(const GemmKernelModel &kernel,
                                            const ScheduleLimits &limits,
                                            const SearchOptions &options);

} // namespace raf::vta

#endif // RAF_TUNING_SCHEDULESEARCH_H
