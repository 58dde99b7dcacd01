//===- MemoryTrace.h - tensor liveness and peak memory ----------*- C++ -*-===//
//
// The memory model shared by --raf-memory-report, --raf-memory-schedule,
// --raf-rematerialize and the evaluator's measurement (raf-run
// --print-peak-memory), for a function whose body is one block of ops in
// execution order:
//
// * Function arguments (parameters) are live for the whole function: the
//   caller holds them.
// * Every tensor result of an op is a fresh buffer, allocated when the op
//   executes and released right after the last op that uses it (a result
//   nobody uses is released right after its own op). Returned values stay
//   live to the end.
// * relay.tuple and relay.tuple_get allocate nothing: they alias the buffers
//   of their operands, and a buffer is live while any value referring to it
//   is.
// * The live bytes of a step are sampled while its op executes: its operands
//   and its results are both live. The peak is the largest sample (or the
//   parameters alone, for a function without ops).
//
// * In-place updates (optional, MemoryTraceOptions::inPlaceUpdates; RAF's
//   InplaceUpdate, RAF source src/pass/inplace_update.cc): a returned value
//   that replaces an argument (result attribute `raf.updates_arg`, from
//   --raf-append-optimizer) is written into that argument's buffer when the
//   argument is not read after the value's op (or only by that op, if it is
//   element-wise); the value then allocates nothing, so an updated parameter
//   or optimizer state is not counted twice.
//
// Ops with regions, calls and references are not modelled (the memory of a
// callee or a branch belongs to another frame): compute() refuses such
// functions with the offending op, and so do dynamically shaped tensors.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_ANALYSIS_MEMORYTRACE_H
#define RAF_ANALYSIS_MEMORYTRACE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace raf::memory {

/// Bytes of a value of `type`: the sum over its tensor leaves (tuples are
/// flattened), booleans taking one byte. Non-tensor leaves (closures,
/// references) weigh nothing. nullopt for a dynamically shaped tensor or a
/// size that overflows int64_t.
std::optional<int64_t> getTypeBytes(mlir::Type type);

/// Parses a byte count such as "4194304", "4MiB", "1.5 GiB", "512KiB" or
/// "2GB" (KB/MB/GB are decimal, KiB/MiB/GiB binary, B optional). Returns an
/// error message for anything else, including negative or overflowing
/// values.
llvm::Expected<int64_t> parseByteSize(llvm::StringRef text);

/// "5242880 bytes (5.00 MiB)".
std::string formatBytes(int64_t bytes);

/// One buffer of the model.
struct Buffer {
  /// The value whose definition allocates the buffer (a block argument for a
  /// parameter).
  mlir::Value value;
  /// Index of the tensor leaf within `value`'s (possibly tuple) type.
  unsigned leaf = 0;
  int64_t bytes = 0;
  bool isParameter = false;
  /// Step of the defining op; 0 for parameters.
  unsigned defStep = 0;
  /// Last step that uses a value referring to the buffer (defStep if none);
  /// the number of steps for returned buffers and parameters.
  unsigned lastUseStep = 0;
  bool isReturned = false;
  /// For an in-place update: the parameter buffer whose memory this buffer
  /// reuses (it allocates nothing of its own).
  std::optional<unsigned> inPlaceOf;
};

/// One op of the block, in execution order.
struct Step {
  mlir::Operation *op = nullptr;
  /// Bytes live while the op runs.
  int64_t liveBytes = 0;
  /// Buffers allocated by the op and released right after it.
  llvm::SmallVector<unsigned, 2> allocated;
  llvm::SmallVector<unsigned, 4> released;
};

struct MemoryTraceOptions {
  /// Model the updates of `raf.updates_arg` results in place (above).
  bool inPlaceUpdates = false;
};

class MemoryTrace {
public:
  /// Traces `function`. On failure, `reason` says why the function is not
  /// modelled and `culprit` is the op responsible, if any.
  static std::optional<MemoryTrace>
  compute(mlir::func::FuncOp function, std::string &reason,
          mlir::Operation *&culprit, const MemoryTraceOptions &options = {});

  llvm::ArrayRef<Buffer> getBuffers() const { return buffers; }
  llvm::ArrayRef<Step> getSteps() const { return steps; }
  /// Buffers a value refers to, one per tensor leaf of its type.
  llvm::ArrayRef<unsigned> getBuffersOf(mlir::Value value) const;
  int64_t getParameterBytes() const { return parameterBytes; }
  int64_t getPeakBytes() const { return peakBytes; }
  /// The step at which the peak is first reached; nullopt when the
  /// parameters alone are the peak.
  std::optional<unsigned> getPeakStep() const { return peakStep; }
  /// Bytes of the returned values written into their arguments' buffers.
  int64_t getInPlaceBytes() const { return inPlaceBytes; }

private:
  llvm::SmallVector<Buffer> buffers;
  llvm::SmallVector<Step> steps;
  llvm::DenseMap<mlir::Value, llvm::SmallVector<unsigned, 1>> valueBuffers;
  int64_t parameterBytes = 0;
  int64_t peakBytes = 0;
  int64_t inPlaceBytes = 0;
  std::optional<unsigned> peakStep;
};

} // namespace raf::memory

#endif // RAF_ANALYSIS_MEMORYTRACE_H
