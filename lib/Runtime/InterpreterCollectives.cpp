//===- InterpreterCollectives.cpp - simulated ranks for the evaluator -----===//
//
// See InterpreterCollectives.h. The collectives follow the MPI standard's
// definitions (MPI 4.0 §6: MPI_Allreduce, MPI_Reduce_scatter_block,
// MPI_Allgather, MPI_Bcast), partitioning along dimension 0.
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/InterpreterCollectives.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Runtime/Interpreter.h"
#include "raf/Runtime/OperatorKernels.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <thread>

using namespace mlir;
using namespace raf::runtime;
namespace relay = raf::relay;

//===----------------------------------------------------------------------===//
// SimulatedCommunicator
//===----------------------------------------------------------------------===//

SimulatedCommunicator::SimulatedCommunicator(int worldSize)
    : worldSize(worldSize), operands(worldSize, nullptr),
      signatures(worldSize) {}

bool SimulatedCommunicator::barrier(std::unique_lock<std::mutex> &lock) {
  uint64_t phase = generation;
  if (++arrived == worldSize) {
    arrived = 0;
    ++generation;
    changed.notify_all();
    return !aborted;
  }
  // A rank that returned never arrives: the phase cannot complete.
  changed.wait(lock, [&] {
    return generation != phase || aborted || finished > 0;
  });
  if (generation == phase && !aborted) {
    --arrived;
    stalled = true;
    return false;
  }
  return !aborted;
}

bool SimulatedCommunicator::exchange(
    int rank, StringRef signature, const HostTensor &operand,
    const std::function<void(ArrayRef<const HostTensor *>)> &combine,
    std::string &error) {
  std::unique_lock<std::mutex> lock(mutex);
  if (aborted) {
    error = "another rank failed";
    return false;
  }
  operands[rank] = &operand;
  signatures[rank] = signature.str();
  if (!barrier(lock)) {
    error = stalled ? "another rank returned without reaching this "
                      "collective"
                    : "another rank failed";
    return false;
  }
  // Every rank checks every signature, so all ranks agree on a mismatch.
  for (int other = 0; other < worldSize; ++other)
    if (signatures[other] != signatures[rank]) {
      error = "ranks disagree on the collective: rank " +
              std::to_string(rank) + " runs " + signatures[rank] +
              " while rank " + std::to_string(other) + " runs " +
              signatures[other];
      aborted = true;
      changed.notify_all();
      return false;
    }
  std::vector<const HostTensor *> all = operands;
  lock.unlock();
  combine(all);
  lock.lock();
  // The operands belong to the ranks' environments: no rank may move on
  // (and free its operand) before every rank has read them.
  if (!barrier(lock)) {
    error = "another rank failed";
    return false;
  }
  return true;
}

void SimulatedCommunicator::finish() {
  std::lock_guard<std::mutex> lock(mutex);
  ++finished;
  changed.notify_all();
}

void SimulatedCommunicator::abort() {
  std::lock_guard<std::mutex> lock(mutex);
  aborted = true;
  changed.notify_all();
}

static thread_local const RankContext *currentRank = nullptr;

const RankContext *raf::runtime::getCurrentRank() { return currentRank; }

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

namespace {

/// Element-wise sum or mean of `parts` (all of `result`'s type) into
/// `result`, elements [begin, begin + count) of each part.
void reduceInto(ArrayRef<const HostTensor *> parts, int64_t begin,
                int64_t count, bool average, HostTensor &result) {
  bool floating = isFloat(result.getDType());
  for (int64_t i = 0; i < count; ++i) {
    if (floating) {
      double sum = 0.0;
      for (const HostTensor *part : parts)
        sum += part->getDouble(begin + i);
      result.setDouble(i, average ? sum / parts.size() : sum);
    } else {
      // Wrapping integer sum, as the compiled path's integer adds.
      uint64_t sum = 0;
      for (const HostTensor *part : parts)
        sum += static_cast<uint64_t>(part->getInt(begin + i));
      result.setInt(i, static_cast<int64_t>(sum));
    }
  }
}

/// Checks that `op`'s world size is the number of ranks running it.
LogicalResult checkWorldSize(Operation *op, int64_t worldSize) {
  const RankContext *context = getCurrentRank();
  int ranks = context ? context->communicator->getWorldSize() : 1;
  if (worldSize == ranks)
    return success();
  return op->emitError("'")
         << op->getName() << "' has world_size " << worldSize
         << " but the program runs on " << ranks
         << (ranks == 1 ? " rank" : " ranks")
         << (context ? ""
                     : "; run it on simulated ranks (raf-run "
                       "--target=interp --ranks=N)");
}

/// Runs the collective `op` of this thread's rank: checks the world size,
/// meets the other ranks and lets `combine` build the result from all
/// operands.
LogicalResult
runCollective(Operation *op, int64_t worldSize, const HostTensor &operand,
              const std::function<void(ArrayRef<const HostTensor *>, int)>
                  &combine) {
  if (failed(checkWorldSize(op, worldSize)))
    return failure();
  const RankContext *context = getCurrentRank();
  if (!context) {
    const HostTensor *self = &operand;
    combine(ArrayRef<const HostTensor *>(&self, 1), 0);
    return success();
  }
  std::string signature;
  llvm::raw_string_ostream os(signature);
  os << op->getName() << " " << op->getAttrDictionary() << " "
     << operand.getTypeString();
  std::string error;
  if (!context->communicator->exchange(
          context->rank, signature, operand,
          [&](ArrayRef<const HostTensor *> all) {
            combine(all, context->rank);
          },
          error))
    return op->emitError("rank ") << context->rank << ": " << error;
  return success();
}

/// The shape of one of `worldSize` blocks of `x` along dimension 0.
FailureOr<SmallVector<int64_t>> getBlockShape(Operation *op,
                                              const HostTensor &x,
                                              int64_t worldSize) {
  if (x.getRank() == 0 || x.getShape()[0] % worldSize != 0)
    return op->emitError("operand ")
           << x.getTypeString()
           << " cannot be split into world_size blocks along dimension 0";
  SmallVector<int64_t> shape(x.getShape());
  shape[0] /= worldSize;
  return shape;
}

/// Checks that every rank's operand has the type of this rank's.
bool sameTypes(ArrayRef<const HostTensor *> parts) {
  for (const HostTensor *part : parts)
    if (part->getDType() != parts[0]->getDType() ||
        part->getShape() != parts[0]->getShape())
      return false;
  return true;
}

} // namespace

void raf::runtime::addCollectiveKernels(KernelRegistry &registry) {
  // Signatures include the operand type, so the exchanged operands of one
  // collective always agree; sameTypes guards the combine functions anyway.
  registry.add<relay::AllreduceOp>([](relay::AllreduceOp op,
                                      KernelOperands operands,
                                      SmallVectorImpl<HostTensor> &results) -> LogicalResult {
    const HostTensor &x = *operands[0];
    HostTensor result(x.getDType(), x.getShape());
    bool average = op.getReduction() == "avg";
    if (failed(runCollective(op, op.getWorldSize(), x,
                             [&](ArrayRef<const HostTensor *> all, int) {
                               if (sameTypes(all))
                                 reduceInto(all, 0, x.getNumElements(),
                                            average, result);
                             })))
      return failure();
    results.push_back(std::move(result));
    return success();
  });
  registry.add<relay::ReduceScatterOp>(
      [](relay::ReduceScatterOp op, KernelOperands operands,
         SmallVectorImpl<HostTensor> &results) -> LogicalResult {
        const HostTensor &x = *operands[0];
        int64_t worldSize = op.getWorldSize();
        FailureOr<SmallVector<int64_t>> shape = getBlockShape(op, x, worldSize);
        if (failed(shape))
          return failure();
        HostTensor result(x.getDType(), *shape);
        bool average = op.getReduction() == "avg";
        int64_t block = result.getNumElements();
        if (failed(runCollective(
                op, worldSize, x,
                [&](ArrayRef<const HostTensor *> all, int rank) {
                  if (sameTypes(all))
                    reduceInto(all, rank * block, block, average, result);
                })))
          return failure();
        results.push_back(std::move(result));
        return success();
      });
  registry.add<relay::AllgatherOp>([](relay::AllgatherOp op,
                                      KernelOperands operands,
                                      SmallVectorImpl<HostTensor> &results) -> LogicalResult {
    const HostTensor &x = *operands[0];
    if (x.getRank() == 0)
      return op.emitError("operand must have rank >= 1");
    SmallVector<int64_t> shape(x.getShape());
    shape[0] *= op.getWorldSize();
    if (std::optional<std::string> problem =
            HostTensor::checkAllocatable(x.getDType(), shape))
      return op.emitError("cannot allocate the result: ") << *problem;
    HostTensor result(x.getDType(), shape);
    if (failed(runCollective(op, op.getWorldSize(), x,
                             [&](ArrayRef<const HostTensor *> all, int) {
                               if (!sameTypes(all))
                                 return;
                               size_t offset = 0;
                               for (const HostTensor *part : all) {
                                 std::memcpy(result.data() + offset,
                                             part->data(),
                                             part->getNumBytes());
                                 offset += part->getNumBytes();
                               }
                             })))
      return failure();
    results.push_back(std::move(result));
    return success();
  });
  registry.add<relay::CommBroadcastOp>(
      [](relay::CommBroadcastOp op, KernelOperands operands,
         SmallVectorImpl<HostTensor> &results) -> LogicalResult {
        const HostTensor &x = *operands[0];
        HostTensor result(x.getDType(), x.getShape());
        int64_t root = op.getRoot();
        if (failed(runCollective(
                op, op.getWorldSize(), x,
                [&](ArrayRef<const HostTensor *> all, int) {
                  if (sameTypes(all))
                    std::memcpy(result.data(), all[root]->data(),
                                result.getNumBytes());
                })))
          return failure();
        results.push_back(std::move(result));
        return success();
      });
  // comm.shard sends nothing: the rank copies its block. It still checks
  // the world size, as the collectives do.
  registry.add<relay::CommShardOp>(
      [](relay::CommShardOp op, KernelOperands operands,
         SmallVectorImpl<HostTensor> &results) -> LogicalResult {
        const HostTensor &x = *operands[0];
        int64_t worldSize = op.getWorldSize();
        FailureOr<SmallVector<int64_t>> shape = getBlockShape(op, x, worldSize);
        if (failed(shape) || failed(checkWorldSize(op, worldSize)))
          return failure();
        const RankContext *context = getCurrentRank();
        HostTensor result(x.getDType(), *shape);
        int rank = context ? context->rank : 0;
        std::memcpy(result.data(), x.data() + rank * result.getNumBytes(),
                    result.getNumBytes());
        results.push_back(std::move(result));
        return success();
      });
}

//===----------------------------------------------------------------------===//
// runSimulatedRanks
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<SmallVector<RuntimeValue>>>
raf::runtime::runSimulatedRanks(
    ModuleOp module, StringRef functionName,
    ArrayRef<SmallVector<RuntimeValue>> perRankArguments) {
  int worldSize = static_cast<int>(perRankArguments.size());
  if (worldSize < 1)
    return module.emitError("simulated ranks: need at least one rank");
  // The ranks' threads create types and diagnostics concurrently.
  if (worldSize > 1 && !module.getContext()->isMultithreadingEnabled())
    return module.emitError(
        "simulated ranks need a context with multithreading enabled (do not "
        "pass --mlir-disable-threading)");
  SimulatedCommunicator communicator(worldSize);
  SmallVector<SmallVector<RuntimeValue>> results(worldSize);
  std::vector<char> failed(worldSize, 0);
  auto runRank = [&](int rank) {
    RankContext context{&communicator, rank};
    currentRank = &context;
    Interpreter interpreter(module);
    FailureOr<SmallVector<RuntimeValue>> out =
        interpreter.run(functionName, perRankArguments[rank]);
    currentRank = nullptr;
    if (mlir::failed(out)) {
      failed[rank] = 1;
      communicator.abort();
      return;
    }
    results[rank] = std::move(*out);
    communicator.finish();
  };
  std::vector<std::thread> threads;
  for (int rank = 1; rank < worldSize; ++rank)
    threads.emplace_back(runRank, rank);
  runRank(0);
  for (std::thread &thread : threads)
    thread.join();
  if (llvm::is_contained(failed, 1))
    return failure();
  return results;
}
