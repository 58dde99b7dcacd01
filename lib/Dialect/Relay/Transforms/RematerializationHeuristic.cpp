//===- RematerializationHeuristic.cpp - RAF's eviction score --------------===//
//
// The candidate analysis shared by both methods, and RAF's compile-time trace
// (RAF source src/pass/rematerialization.cc): walk the ops in order with the
// live bytes of the memory model; when an op would exceed the budget, evict
// the live candidates with the lowest score
// (gflops + offset) * (remaining uses + 1) / GiB until it fits (RAF's offset
// is 0.1), and recompute an evicted tensor just before its next use. Each
// clone is traced as the step it is in the rewritten function (what is live
// plus its result must fit) and its inputs are released right after it when
// nothing else reads them, as the memory model does.
//
//===----------------------------------------------------------------------===//

#include "RematerializationProblem.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace raf::relay::remat;
using raf::memory::Buffer;
using raf::memory::Step;

Problem::Problem(const memory::MemoryTrace &trace, const Limits &limits)
    : trace(trace), limits(limits) {
  ArrayRef<Buffer> buffers = trace.getBuffers();
  ArrayRef<Step> steps = trace.getSteps();
  size_t numBuffers = buffers.size();
  isCandidate.assign(numBuffers, false);
  producerStep.assign(numBuffers, 0);
  flops.assign(numBuffers, 0);
  producerInputs.resize(numBuffers);
  stepInputs.resize(steps.size());
  useCount.assign(numBuffers, 0);

  auto inputsOf = [&](Operation *op) {
    llvm::SmallSetVector<unsigned, 4> ids;
    for (Value operand : op->getOperands())
      for (unsigned id : trace.getBuffersOf(operand))
        ids.insert(id);
    return ids;
  };
  for (auto [index, step] : llvm::enumerate(steps)) {
    llvm::SmallSetVector<unsigned, 4> inputs = inputsOf(step.op);
    stepInputs[index].assign(inputs.begin(), inputs.end());
    for (unsigned id : inputs)
      ++useCount[id];
    auto cost = dyn_cast<CostOpInterface>(step.op);
    for (unsigned id : step.allocated) {
      producerStep[id] = index;
      flops[id] = cost ? std::max<int64_t>(cost.getFlops(), 0) : 0;
    }
    // A candidate is the only buffer of a recomputable relay operator.
    if (!cost || !cost.isRecomputable() || step.op->getNumResults() != 1 ||
        step.allocated.size() != 1)
      continue;
    unsigned id = step.allocated.front();
    const Buffer &buffer = buffers[id];
    Value result = step.op->getResult(0);
    bool directUsesOnly = llvm::all_of(result.getUsers(), [](Operation *user) {
      return !isa<TupleOp>(user) && !user->hasTrait<OpTrait::IsTerminator>();
    });
    if (buffer.isReturned || buffer.bytes < limits.minTensorBytes ||
        !directUsesOnly)
      continue;
    isCandidate[id] = true;
    producerInputs[id].assign(inputs.begin(), inputs.end());
  }

  // In-place updates (MemoryTraceOptions::inPlaceUpdates): an argument is
  // overwritten by the op that computes its update, so no clone may read it
  // after that op. A candidate may be recomputed up to its last use, or up
  // to the last step a candidate recomputed from it may be; one whose
  // producer reads an argument updated before that step stays resident.
  SmallVector<std::optional<unsigned>> updatedAt(buffers.size());
  for (const Buffer &buffer : buffers)
    if (buffer.inPlaceOf)
      updatedAt[*buffer.inPlaceOf] = buffer.defStep;
  if (llvm::none_of(updatedAt, [](auto step) { return step.has_value(); }))
    return;
  SmallVector<unsigned> latestNeed(buffers.size());
  for (auto [id, buffer] : llvm::enumerate(buffers))
    latestNeed[id] = buffer.lastUseStep;
  // Buffers are numbered in definition order: dependents first.
  for (unsigned id = buffers.size(); id-- > 0;)
    if (isCandidate[id])
      for (unsigned input : producerInputs[id])
        latestNeed[input] = std::max(latestNeed[input], latestNeed[id]);
  for (unsigned id = 0, e = buffers.size(); id < e; ++id)
    if (isCandidate[id] &&
        llvm::any_of(producerInputs[id], [&](unsigned input) {
          return updatedAt[input] && *updatedAt[input] < latestNeed[id];
        }))
      isCandidate[id] = false;
}

namespace {
class EvictionTrace {
public:
  EvictionTrace(const Problem &problem, int64_t budget, double offsetGflops)
      : problem(problem), buffers(problem.trace.getBuffers()), budget(budget),
        offsetGflops(offsetGflops) {
    size_t numBuffers = buffers.size();
    inMemory.assign(numBuffers, false);
    pinned.assign(numBuffers, false);
    remaining.assign(problem.useCount.begin(), problem.useCount.end());
    createdAt.resize(numBuffers);
    for (size_t id = 0; id < numBuffers; ++id)
      createdAt[id] = id;
    clock = numBuffers;
  }

  std::optional<Plan> run(unsigned *failedStep) {
    ArrayRef<Step> steps = problem.trace.getSteps();
    Plan plan;
    plan.recomputeBefore.resize(steps.size());
    mem = problem.trace.getParameterBytes();
    for (auto [id, buffer] : llvm::enumerate(buffers))
      if (buffer.isParameter)
        inMemory[id] = true;
    for (auto [index, step] : llvm::enumerate(steps)) {
      justRecomputed.clear();
      touched.clear();
      if (failedStep)
        *failedStep = index;
      ArrayRef<unsigned> inputs = problem.stepInputs[index];
      // The clones the op needs: its missing operands and, first, their
      // missing inputs.
      SmallVector<unsigned> clones;
      for (unsigned id : inputs)
        if (!collectClones(id, 0, clones))
          return std::nullopt;
      // A clone's inputs stay until it has read them (an evicted tensor's
      // already do).
      for (unsigned id : clones)
        if (!pinned[id])
          for (unsigned input : problem.producerInputs[id])
            ++remaining[input];
      for (auto [position, id] : llvm::enumerate(clones)) {
        plan.recomputeBefore[index].push_back(id);
        inMemory[id] = true;
        pinned[id] = false;
        mem += buffers[id].bytes;
        createdAt[id] = clock++;
        justRecomputed.insert(id);
        touched.insert(id);
        // The clone runs as a step of its own: what is live and its result
        // must fit. Its inputs, the op's operands and what later clones
        // read stay.
        if (mem > budget) {
          llvm::SmallDenseSet<unsigned, 8> keep(inputs.begin(), inputs.end());
          for (unsigned later : ArrayRef(clones).drop_front(position))
            keep.insert(problem.producerInputs[later].begin(),
                        problem.producerInputs[later].end());
          if (!evict(keep))
            return std::nullopt;
        }
        // Inputs read for the last time are released right after it.
        for (unsigned input : problem.producerInputs[id]) {
          --remaining[input];
          release(input);
        }
      }
      for (unsigned id : step.allocated) {
        inMemory[id] = true;
        mem += buffers[id].bytes;
        touched.insert(id);
      }
      for (unsigned id : inputs) {
        --remaining[id];
        touched.insert(id);
      }
      if (mem > budget) {
        llvm::SmallDenseSet<unsigned, 8> keep(inputs.begin(), inputs.end());
        keep.insert(step.allocated.begin(), step.allocated.end());
        if (!evict(keep))
          return std::nullopt;
      }
      for (unsigned id : touched)
        release(id);
    }
    return plan;
  }

private:
  static constexpr double kInvalid = std::numeric_limits<double>::infinity();

  /// Appends to `clones`, inputs first, the evicted (or released)
  /// candidates `id` needs recomputed; false if one cannot be.
  bool collectClones(unsigned id, unsigned depth,
                     SmallVectorImpl<unsigned> &clones) {
    if (inMemory[id] || llvm::is_contained(clones, id))
      return true;
    if (!problem.isCandidate[id] || depth > problem.limits.maxDepth)
      return false;
    for (unsigned input : problem.producerInputs[id])
      if (!collectClones(input, depth + 1, clones))
        return false;
    clones.push_back(id);
    return true;
  }

  /// Releases a buffer nothing will read any more, as the memory model
  /// does right after its last reader.
  void release(unsigned id) {
    if (inMemory[id] && !buffers[id].isParameter && !buffers[id].isReturned &&
        remaining[id] <= 0) {
      inMemory[id] = false;
      mem -= buffers[id].bytes;
    }
  }

  /// GFLOPs of recomputing `id` when needed now, including inputs that
  /// would have to be recomputed too; infinity if it cannot be.
  double recomputeCost(unsigned id, unsigned depth) const {
    if (!problem.isCandidate[id] || depth >= problem.limits.maxDepth)
      return kInvalid;
    double cost = static_cast<double>(problem.flops[id]) / 1e9;
    for (unsigned input : problem.producerInputs[id])
      if (!inMemory[input])
        cost += recomputeCost(input, depth + 1);
    return cost;
  }

  /// Evicts live candidates, lowest score first, until the budget holds;
  /// never those in `keep` or just recomputed.
  bool evict(const llvm::SmallDenseSet<unsigned, 8> &keep) {
    struct Scored {
      double score;
      size_t createdAt;
      unsigned id;
    };
    SmallVector<Scored> scored;
    for (size_t id = 0; id < buffers.size(); ++id) {
      if (!inMemory[id] || !problem.isCandidate[id] || remaining[id] <= 0 ||
          justRecomputed.contains(id) || keep.contains(id))
        continue;
      double cost = recomputeCost(id, 0);
      if (cost == kInvalid)
        continue;
      double gib = static_cast<double>(buffers[id].bytes) / (1 << 30);
      scored.push_back({(cost + offsetGflops) * (remaining[id] + 1) / gib,
                        createdAt[id], static_cast<unsigned>(id)});
    }
    llvm::sort(scored, [](const Scored &a, const Scored &b) {
      return a.score != b.score ? a.score < b.score : a.createdAt < b.createdAt;
    });
    for (const Scored &victim : scored) {
      if (mem <= budget)
        break;
      inMemory[victim.id] = false;
      mem -= buffers[victim.id].bytes;
      // The clone will read the producer's inputs: keep them.
      pinned[victim.id] = true;
      for (unsigned input : problem.producerInputs[victim.id])
        ++remaining[input];
    }
    return mem <= budget;
  }

  const Problem &problem;
  ArrayRef<Buffer> buffers;
  int64_t budget;
  double offsetGflops;
  int64_t mem = 0;
  size_t clock = 0;
  SmallVector<bool> inMemory;
  /// Whether an eviction holds the inputs of the buffer's producer.
  SmallVector<bool> pinned;
  SmallVector<int> remaining;
  SmallVector<size_t> createdAt;
  llvm::SmallDenseSet<unsigned, 8> justRecomputed;
  llvm::SmallSetVector<unsigned, 16> touched;
};
} // namespace

std::optional<Plan>
raf::relay::remat::planWithEvictionScore(const Problem &problem, int64_t budget,
                                         double offsetGflops,
                                         unsigned *failedStep) {
  return EvictionTrace(problem, budget, offsetGflops).run(failedStep);
}
