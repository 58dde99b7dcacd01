//===- InterpreterCollectives.h - simulated ranks for the evaluator -*- C++ -*-===//
//
// The reference evaluator's implementation of the relay collectives
// (relay.comm.*): N ranks of one SPMD program run in one process, one thread
// and one Interpreter per rank, and meet in a SimulatedCommunicator at every
// collective. Each collective is a rendezvous of all ranks: every rank
// deposits its operand, waits until all have, computes its own result from
// all operands (sums in double, in rank order, rounded once to the element
// type), and waits again until every rank has read the operands.
//
// Outside runSimulatedRanks a thread has no communicator and runs as a world
// of one rank: collectives with world_size 1 are the identity, any other
// world size is an error. A rank that fails aborts the communicator, so the
// other ranks stop at their next collective instead of waiting forever.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_INTERPRETERCOLLECTIVES_H
#define RAF_RUNTIME_INTERPRETERCOLLECTIVES_H

#include "raf/Runtime/HostTensor.h"
#include "raf/Runtime/RuntimeValue.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace raf::runtime {

class KernelRegistry;

/// The meeting point of the simulated ranks.
class SimulatedCommunicator {
public:
  explicit SimulatedCommunicator(int worldSize);

  int getWorldSize() const { return worldSize; }

  /// Called by every rank at a collective with its operand and a signature
  /// of the collective (op name, attributes, operand type): blocks until
  /// every rank has arrived, then hands `combine` the operands of all ranks
  /// in rank order. Fails with `error` set if the signatures differ (the
  /// ranks disagree on which collective comes next) or the communicator
  /// was aborted. `combine` runs while the operands are still valid.
  bool exchange(int rank, llvm::StringRef signature, const HostTensor &operand,
                const std::function<void(llvm::ArrayRef<const HostTensor *>)>
                    &combine,
                std::string &error);

  /// Wakes every waiting rank with a failure; later exchanges fail too.
  void abort();
  /// Records that a rank returned from the function: ranks waiting at a
  /// collective it never reached fail instead of waiting forever.
  void finish();

private:
  /// Waits until all ranks have called arrive() in the current phase.
  bool barrier(std::unique_lock<std::mutex> &lock);

  int worldSize;
  std::mutex mutex;
  std::condition_variable changed;
  int arrived = 0;
  uint64_t generation = 0;
  bool aborted = false;
  int finished = 0;
  /// Set when a barrier could not complete because a rank had returned.
  bool stalled = false;
  std::vector<const HostTensor *> operands;
  std::vector<std::string> signatures;
};

/// The communicator and rank of the calling thread, or null outside
/// runSimulatedRanks.
struct RankContext {
  SimulatedCommunicator *communicator;
  int rank;
};
const RankContext *getCurrentRank();

/// Runs the function `functionName` of `module` once per rank, rank r with
/// `perRankArguments[r]`, each on its own thread with its own Interpreter.
/// Returns every rank's results, or failure (with the diagnostics of the
/// ranks that failed) if any rank failed. The module's context must have
/// multithreading enabled.
mlir::FailureOr<llvm::SmallVector<llvm::SmallVector<RuntimeValue>>>
runSimulatedRanks(mlir::ModuleOp module, llvm::StringRef functionName,
                  llvm::ArrayRef<llvm::SmallVector<RuntimeValue>>
                      perRankArguments);

/// Adds the evaluator kernels of relay.comm.* to `registry`.
void addCollectiveKernels(KernelRegistry &registry);

} // namespace raf::runtime

#endif // RAF_RUNTIME_INTERPRETERCOLLECTIVES_H
