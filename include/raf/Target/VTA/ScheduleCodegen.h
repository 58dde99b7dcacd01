//===- ScheduleCodegen.h - the tile program of a VTA schedule ---*- C++ -*-===//
//
// Code generation for a schedule the validity check accepts (Schedule.h):
// the tile program (TileProgram.h) the conversion to the `vta` dialect
// emits, and the "cycles of this schedule" query (build, assemble, and a
// timing-only run of the cycle model).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_SCHEDULECODEGEN_H
#define RAF_TARGET_VTA_SCHEDULECODEGEN_H

#include "raf/Target/VTA/Schedule.h"
#include "raf/Target/VTA/Simulator.h"

#include "llvm/Support/Error.h"

namespace raf::vta {

/// The tile program of `knobs`; fails with checkSchedule's message when the
/// schedule is invalid.
llvm::Expected<TileProgram> buildSchedule(const GemmKernelModel &kernel,
                                          const ScheduleKnobs &knobs,
                                          const ScheduleLimits &limits);

/// A schedule compiled and timed.
struct SimulatedSchedule {
  TileProgram tiles;
  Program program;
  SimulationResult timing;
};

/// Builds `knobs`, assembles it and runs it on `cycleModel` without data
/// (SimulatorOptions::functional = false): the cycles, instruction counts
/// and traffic the same program reports on raf-vta-sim. Fails with the
/// reason the schedule is invalid.
llvm::Expected<SimulatedSchedule>
simulateSchedule(const GemmKernelModel &kernel, const ScheduleKnobs &knobs,
                 const ScheduleLimits &limits,
                 const CycleModel &cycleModel = CycleModel());

} // namespace raf::vta

#endif // RAF_TARGET_VTA_SCHEDULECODEGEN_H
