//===- TiledSchedule.h - tiling a packed GEMM kernel for VTA ----*- C++ -*-===//
//
// The VTA schedule in three parts, included together for the conversion and
// for tools written against this header:
//
// * the schedule model, its validity check (`checkSchedule`: is it valid,
//   and if not, why) and its space (`forEachSchedule`):
//   raf/Target/VTA/Schedule.h;
// * code generation (`buildSchedule`) and the cycles of one schedule
//   (`simulateSchedule`): raf/Target/VTA/ScheduleCodegen.h;
// * the search behind a cost-model interface (`searchSchedule`,
//   `ScheduleCostModel`): raf/Tuning/ScheduleSearch.h.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_CONVERSION_TCGTOVTA_TILEDSCHEDULE_H
#define RAF_CONVERSION_TCGTOVTA_TILEDSCHEDULE_H

#include "raf/Target/VTA/Schedule.h"
#include "raf/Target/VTA/ScheduleCodegen.h"
#include "raf/Tuning/ScheduleSearch.h"

#endif // RAF_CONVERSION_TCGTOVTA_TILEDSCHEDULE_H
