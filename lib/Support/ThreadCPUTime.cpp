//===- ThreadCPUTime.cpp - CPU time of the calling thread -----------------===//

#include "raf/Support/ThreadCPUTime.h"

#include <ctime>

double raf::getThreadCPUMilliseconds() {
  timespec now{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0)
    return 0;
  return double(now.tv_sec) * 1e3 + double(now.tv_nsec) * 1e-6;
}
