//===- ScheduleMethod.h - how --vta-schedule chooses ------------*- C++ -*-===//
//
// The values of --vta-schedule's `method` option, in a header of its own so
// that the pass declarations need nothing else of the VTA target.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_CONVERSION_TCGTOVTA_SCHEDULEMETHOD_H
#define RAF_CONVERSION_TCGTOVTA_SCHEDULEMETHOD_H

namespace raf::vta {

enum class ScheduleMethod {
  /// Rank the valid schedules by the analytic estimate and simulate the
  /// best few on the cycle model.
  Heuristic,
  /// Simulate every valid schedule.
  Exhaustive,
  /// Auto-tune with the tuners of Rieber 2022, chapter 5 (docs/tuning.md).
  Tune,
};

} // namespace raf::vta

#endif // RAF_CONVERSION_TCGTOVTA_SCHEDULEMETHOD_H
