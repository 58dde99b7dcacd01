//===- RematerializationRefinement.cpp - plan peaks and plan pruning ------===//
//
// What method=raf adds to RAF's eviction trace (RematerializationHeuristic):
//
// * The memory model's peak of a plan, computed from the problem's buffers:
//   the rewritten function is a sequence of events (each step, preceded by
//   the clones the plan inserts before it), each reading the newest copy of
//   its input buffers and allocating fresh copies, released after their
//   last reader as MemoryTrace does. This is cheap enough to evaluate once
//   per candidate change.
// * Pruning. RAF's trace decides evictions greedily with the live bytes it
//   estimates at the time, so its plans often recompute tensors the budget
//   never needed (the trace counts an evicted tensor until its eviction, and
//   an early eviction can make later ones unnecessary). Each recomputation
//   is dropped, the most expensive first, if the plan still fits.
// * Several score offsets. RAF's score adds 0.1 GFLOPs to every cost, which
//   on small operators swamps the cost itself (the score then ranks by size
//   and use count only); smaller offsets let the cost decide. Every offset
//   gives a plan and the cheapest is kept.
//
//===----------------------------------------------------------------------===//

#include "RematerializationProblem.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace raf::relay::remat;
using raf::memory::Buffer;
using raf::memory::Step;

namespace {
constexpr unsigned kNoCopy = std::numeric_limits<unsigned>::max();

/// One allocation of the rewritten function: an original buffer or a clone.
struct Copy {
  int64_t bytes = 0;
  unsigned lastUseEvent = 0;
  bool liveToEnd = false;
};
} // namespace

int64_t raf::relay::remat::tracePlanPeak(const Problem &problem,
                                         const Plan &plan) {
  ArrayRef<Buffer> buffers = problem.trace.getBuffers();
  ArrayRef<Step> steps = problem.trace.getSteps();
  // Parameters have no copy: they are live throughout.
  SmallVector<unsigned> newest(buffers.size(), kNoCopy);
  SmallVector<Copy> copies;
  SmallVector<SmallVector<unsigned, 2>> allocatedAt;
  auto read = [&](unsigned id) {
    if (newest[id] != kNoCopy)
      copies[newest[id]].lastUseEvent = allocatedAt.size() - 1;
  };
  auto allocate = [&](unsigned id) {
    unsigned event = allocatedAt.size() - 1;
    newest[id] = copies.size();
    copies.push_back({buffers[id].bytes, event, buffers[id].isReturned});
    allocatedAt.back().push_back(newest[id]);
  };
  for (auto [index, step] : llvm::enumerate(steps)) {
    for (unsigned id : plan.recomputeBefore[index]) {
      allocatedAt.emplace_back();
      for (unsigned input : problem.producerInputs[id])
        read(input);
      allocate(id);
    }
    allocatedAt.emplace_back();
    for (unsigned input : problem.stepInputs[index])
      read(input);
    for (unsigned id : step.allocated)
      allocate(id);
  }
  SmallVector<int64_t> releasedAt(allocatedAt.size(), 0);
  for (const Copy &copy : copies)
    if (!copy.liveToEnd)
      releasedAt[copy.lastUseEvent] += copy.bytes;
  int64_t live = problem.trace.getParameterBytes();
  int64_t peak = live;
  for (auto [event, allocated] : llvm::enumerate(allocatedAt)) {
    for (unsigned copy : allocated)
      live += copies[copy].bytes;
    peak = std::max(peak, live);
    live -= releasedAt[event];
  }
  return peak;
}

int64_t raf::relay::remat::getRecomputedFlops(const Problem &problem,
                                              const Plan &plan) {
  int64_t flops = 0;
  for (const auto &list : plan.recomputeBefore)
    for (unsigned id : list)
      flops += problem.flops[id];
  return flops;
}

void raf::relay::remat::dropUnneededRecomputations(const Problem &problem,
                                                   Plan &plan, int64_t budget) {
  if (tracePlanPeak(problem, plan) > budget)
    return;
  struct Clone {
    int64_t flops;
    int64_t bytes;
    unsigned step;
    unsigned id;
  };
  // A drop can make another one possible (a clone only an earlier-dropped
  // clone read now only costs memory): repeat until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<Clone> clones;
    for (auto [step, list] : llvm::enumerate(plan.recomputeBefore))
      for (unsigned id : list)
        clones.push_back({problem.flops[id],
                          problem.trace.getBuffers()[id].bytes,
                          static_cast<unsigned>(step), id});
    // Most FLOPs first; then the smaller tensor (cheaper to keep), then
    // program order, for a deterministic result.
    llvm::stable_sort(clones, [](const Clone &a, const Clone &b) {
      if (a.flops != b.flops)
        return a.flops > b.flops;
      return a.bytes < b.bytes;
    });
    for (const Clone &clone : clones) {
      auto &list = plan.recomputeBefore[clone.step];
      auto *position = llvm::find(list, clone.id);
      unsigned offset = position - list.begin();
      list.erase(position);
      if (tracePlanPeak(problem, plan) <= budget) {
        changed = true;
        continue;
      }
      list.insert(list.begin() + offset, clone.id);
    }
  }
}

std::optional<Plan> raf::relay::remat::planWithScoreSearch(
    const Problem &problem, int64_t budget, const ScoreSearch &search,
    unsigned *failedStep, std::optional<int64_t> traceBudget) {
  std::optional<Plan> best;
  int64_t bestFlops = 0;
  int64_t bestPeak = 0;
  for (auto [index, offset] : llvm::enumerate(search.offsetsGflops)) {
    std::optional<Plan> plan =
        planWithEvictionScore(problem, traceBudget.value_or(budget), offset,
                              index == 0 ? failedStep : nullptr);
    if (!plan)
      continue;
    if (search.prune)
      dropUnneededRecomputations(problem, *plan, budget);
    int64_t flops = getRecomputedFlops(problem, *plan);
    int64_t peak = tracePlanPeak(problem, *plan);
    if (peak > budget)
      continue;
    if (!best || flops < bestFlops || (flops == bestFlops && peak < bestPeak)) {
      best = std::move(plan);
      bestFlops = flops;
      bestPeak = peak;
    }
  }
  return best;
}
