//===- MemorySchedule.cpp - memory-aware operator reordering --------------===//
//
// RAF's operator scheduling (spec B7, C6): an op that frees more than it
// allocates runs as early as its operands allow, an op that allocates more
// than it frees runs as late as its users allow. Sizes and aliasing come
// from the memory model of MemoryTrace.h, so the scheduler and the report
// agree on what a buffer is and when it dies.
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
      // Constants are never counted as freed (spec C6).
      bool isConstant = isa<raf::relay::ConstantOp, arith::ConstantOp>(step.op);
      for (unsigned id : step.allocated)
        if (isConstant)
          constants.insert(id);
    }
  }

  /// Runs up to `maxIters` forward/backward sweep pairs; returns the number
  /// of moves.
  unsigned run(unsigned maxIters) {
    unsigned moves = 0;
    for (unsigned iter = 0; iter < maxIters; ++iter) {
      unsigned before = moves;
      moves += forwardSweep();
      moves += backwardSweep();
      if (moves == before)
        break;
    }
    return moves;
  }

private:
  bool isMovable(Operation *op) const {
    return op != block.getTerminator() && op->getNumRegions() == 0 &&
           isMemoryEffectFree(op);
  }

  /// p - c of spec C6 in bytes: what the op allocates minus the operand
  /// buffers whose last use it is in the current order.
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
    unsigned moves = scheduler.run(maxIters);
    if (moves == 0)
      return markAllAnalysesPreserved();
    std::optional<MemoryTrace> after =
        MemoryTrace::compute(function, reason, culprit);
    if (after)
      function.emitRemark()
          << "@" << function.getSymName() << ": " << moves
          << " moves; peak " << formatBytes(before->getPeakBytes()) << " -> "
          << formatBytes(after->getPeakBytes());
  }
};
} // namespace
