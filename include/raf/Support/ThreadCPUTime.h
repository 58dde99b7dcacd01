//===- ThreadCPUTime.h - CPU time of the calling thread ---------*- C++ -*-===//
//
// The calling thread's CPU time, which the runtimes report beside wall time
// (raf-run's cpu-median-ms and host-cpu-ms): unlike wall time, it does not
// grow while other processes hold the cores.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_SUPPORT_THREADCPUTIME_H
#define RAF_SUPPORT_THREADCPUTIME_H

namespace raf {

/// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID, POSIX.1-2008) in
/// milliseconds, or 0 where the clock is not available.
double getThreadCPUMilliseconds();

} // namespace raf

#endif // RAF_SUPPORT_THREADCPUTIME_H
