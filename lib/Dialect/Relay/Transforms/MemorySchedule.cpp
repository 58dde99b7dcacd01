//===- MemorySchedule.cpp - memory-aware operator reordering --------------===//
//
// RAF's operator scheduling (RAF paper §3.1.4; RAF source
// src/pass/memory_schedule.cc): an op that frees more than it allocates runs as
// early as its operands allow, an op that allocates more than it frees runs as
// late as its users allow. Sizes and aliasing come from the memory model of
// MemoryTrace.h, so the scheduler and the report agree on what a buffer is and
// when it dies.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Analysis/MemoryTrace.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFMEMORYSCHEDULE
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::memory;

namespace {
class Scheduler {
public:
  Scheduler(Block &block, const MemoryTrace &trace, int64_t thresholdBytes)
      : block(block), trace(trace), threshold(thresholdBytes) {
    for (const Step &step : trace.getSteps()) {
      for (Value operand : step.op->getOperands())
        for (unsigned id : trace.getBuffersOf(operand))
          users[id].insert(step.op);
      // Constants are never counted as freed (as in RAF's MemorySchedule).
      bool isConstant = isa<raf::relay::ConstantOp, arith::ConstantOp>(step.op);
      for (unsigned id : step.allocated)
        if (isConstant)
          constants.insert(id);
    }
  }

  /// What the sweeps did: the moves kept, the peak of the order kept, and
  /// the peak of the last sweep's order when that one was not kept.
  struct Outcome {
    unsigned moves = 0;
    int64_t peak = 0;
    unsigned discardedMoves = 0;
    std::optional<int64_t> discardedPeak;
  };

  /// Runs up to `maxIters` forward/backward sweep pairs and keeps, of the
  /// order before them and after each sweep, the one `peakOf` finds lowest
  /// (the later on ties), so that the result never raises the peak.
  Outcome run(unsigned maxIters,
              llvm::function_ref<std::optional<int64_t>()> peakOf) {
    Outcome best;
    best.peak = *peakOf();
    SmallVector<Operation *> bestOrder = currentOrder();
    unsigned moves = 0;
    std::optional<int64_t> last = best.peak;
    auto consider = [&](unsigned sweepMoves) {
      if (sweepMoves == 0)
        return;
      moves += sweepMoves;
      last = peakOf();
      if (last && *last <= best.peak) {
        best.moves = moves;
        best.peak = *last;
        bestOrder = currentOrder();
      }
    };
    for (unsigned iter = 0; iter < maxIters; ++iter) {
      unsigned before = moves;
      consider(forwardSweep());
      consider(backwardSweep());
      if (moves == before)
        break;
    }
    if (moves != best.moves) {
      best.discardedMoves = moves - best.moves;
      best.discardedPeak = last;
      for (Operation *op : bestOrder)
        op->moveBefore(block.getTerminator());
    }
    return best;
  }

private:
  SmallVector<Operation *> currentOrder() const {
    SmallVector<Operation *> order;
    for (Operation &op : block.without_terminator())
      order.push_back(&op);
    return order;
  }

  bool isMovable(Operation *op) const {
    return op != block.getTerminator() && op->getNumRegions() == 0 &&
           isMemoryEffectFree(op);
  }

  /// p - c of RAF paper §3.1.4 in bytes: what the op allocates minus the
  /// operand buffers whose last use it is in the current order.
  int64_t increment(Operation *op) const {
    int64_t allocated = 0, released = 0;
    ArrayRef<Buffer> buffers = trace.getBuffers();
    for (Value result : op->getResults())
      if (!isa<raf::relay::TupleOp, raf::relay::TupleGetOp>(op))
        for (unsigned id : trace.getBuffersOf(result))
          allocated += buffers[id].bytes;
    llvm::SmallSetVector<unsigned, 4> operandBuffers;
    for (Value operand : op->getOperands())
      for (unsigned id : trace.getBuffersOf(operand))
        operandBuffers.insert(id);
    for (unsigned id : operandBuffers) {
      const Buffer &buffer = buffers[id];
      if (buffer.isParameter || buffer.isReturned || constants.count(id))
        continue;
      bool lastUse = llvm::all_of(users.lookup(id), [&](Operation *user) {
        return user == op || user->isBeforeInBlock(op);
      });
      if (lastUse)
        released += buffer.bytes;
    }
    return allocated - released;
  }

  /// Ops that free more than they allocate move to just after the last
  /// definition of their operands.
  unsigned forwardSweep() {
    unsigned moves = 0;
    for (Operation *op = &block.front(); op;) {
      Operation *next = op->getNextNode();
      if (isMovable(op) && increment(op) < -threshold) {
        Operation *lastDef = nullptr;
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp())
            if (!lastDef || lastDef->isBeforeInBlock(def))
              lastDef = def;
        Operation *target = lastDef ? lastDef->getNextNode() : &block.front();
        if (target != op) {
          op->moveBefore(target);
          ++moves;
        }
      }
      op = next;
    }
    return moves;
  }

  /// Ops that allocate more than they free move to just before their first
  /// user. Unused ops stay.
  unsigned backwardSweep() {
    unsigned moves = 0;
    for (Operation *op = block.getTerminator()->getPrevNode(); op;) {
      Operation *prev = op->getPrevNode();
      if (isMovable(op) && !op->use_empty() && increment(op) > threshold) {
        Operation *firstUser = nullptr;
        for (Operation *user : op->getUsers())
          if (!firstUser || user->isBeforeInBlock(firstUser))
            firstUser = user;
        if (firstUser != op->getNextNode()) {
          op->moveBefore(firstUser);
          ++moves;
        }
      }
      op = prev;
    }
    return moves;
  }

  Block &block;
  const MemoryTrace &trace;
  int64_t threshold;
  llvm::DenseMap<unsigned, llvm::SmallSetVector<Operation *, 4>> users;
  llvm::DenseSet<unsigned> constants;
};

struct RafMemorySchedule
    : public raf::relay::impl::RafMemoryScheduleBase<RafMemorySchedule> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    if (thresholdMB < 0 || maxIters == 0) {
      function.emitError() << "--raf-memory-schedule: threshold-mb must be "
                              ">= 0 and max-iters > 0";
      return signalPassFailure();
    }
    std::string reason;
    Operation *culprit = nullptr;
    std::optional<MemoryTrace> before =
        MemoryTrace::compute(function, reason, culprit);
    if (!before) {
      InFlightDiagnostic diag = function.emitRemark()
                                << "@" << function.getSymName()
                                << " not scheduled: " << reason;
      if (culprit)
        diag.attachNote(culprit->getLoc()) << "at this op";
      return;
    }
    int64_t thresholdBytes =
        static_cast<int64_t>(thresholdMB * 1024.0 * 1024.0);
    Scheduler scheduler(function.getBody().front(), *before, thresholdBytes);
    auto peakOf = [&]() -> std::optional<int64_t> {
      std::optional<MemoryTrace> trace =
          MemoryTrace::compute(function, reason, culprit);
      if (!trace)
        return std::nullopt;
      return trace->getPeakBytes();
    };
    Scheduler::Outcome outcome = scheduler.run(maxIters, peakOf);
    if (outcome.moves == 0 && outcome.discardedMoves == 0)
      return markAllAnalysesPreserved();
    InFlightDiagnostic diag = function.emitRemark()
                              << "@" << function.getSymName() << ": "
                              << outcome.moves << " moves; peak "
                              << formatBytes(before->getPeakBytes()) << " -> "
                              << formatBytes(outcome.peak);
    if (outcome.discardedMoves != 0) {
      diag << " (" << (outcome.moves ? "another " : "the schedule's ")
           << outcome.discardedMoves << " moves would ";
      if (outcome.discardedPeak)
        diag << "reach " << formatBytes(*outcome.discardedPeak);
      else
        diag << "leave the function untraceable";
      diag << ": not kept)";
    }
    if (outcome.moves == 0)
      markAllAnalysesPreserved();
  }
};
} // namespace
